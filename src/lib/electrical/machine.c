/* machine.c - DCMachine: a DC machine with a permanent field (after
 * Modelica's DC_PermanentMagnet without its rotor inertia): between its
 * pins p and n (branches) the armature, on its flange (a branch of the
 * rotational library) the torque, to an optional heat port the losses.
 *   La der(i) = v - Ra i - k w    (La > 0: the armature current i a state)
 *   i = (v - k w) / Ra            (La = 0: affine in the potentials)
 *   tau = k i                     drives the node at the flange: flange.tau = -tau
 *   P_loss = Ra i^2               into the heat port (heat_port = 1)
 * v = p.v - n.v, w the speed of the node at the flange. The rotor's
 * inertia is an Inertia on the same shaft (docs/electrical.md). */
#include "lib/electrical/electrical.h"
#include "lib/rotational/rotational.h"
#include "lib/thermal/thermal.h"

typedef struct el_dcm {
  el_branch p, n;
  ro_branch flange;
  th_branch heat;
  double i, der_i;
  double v, w, emf, tau, P_el, P_mech, P_loss;
  double Ra, La, k;
  int heat_port;
} el_dcm;

static inline void dcm_der_eq(double v, double i, double w, double Ra, double La, double k,
                              double *emf, double *der_i) {
  *emf = k * w;
  *der_i = (v - Ra * i - *emf) / La;
}
static inline double dcm_static_current_eq(double v, double w, double Ra, double k, double *emf) {
  *emf = k * w;
  return (v - *emf) / Ra;
}

/* La > 0: the current from the state */
static void dcm_current(const lied_env *env, el_dcm *d) {
  (void)env;
  d->p.i.i = d->i;
  d->n.i.i = -d->i;
}
static void dcm_der(const lied_env *env, el_dcm *d) {
  (void)env;
  d->v = d->p.v->v - d->n.v->v;
  d->w = d->flange.w->w;
  dcm_der_eq(d->v, d->i, d->w, d->Ra, d->La, d->k, &d->emf, &d->der_i);
}
/* La = 0: the current from the potentials and the speed */
static void dcm_static(const lied_env *env, el_dcm *d) {
  (void)env;
  d->v = d->p.v->v - d->n.v->v;
  d->w = d->flange.w->w;
  d->i = dcm_static_current_eq(d->v, d->w, d->Ra, d->k, &d->emf);
  d->p.i.i = d->i;
  d->n.i.i = -d->i;
}
static void dcm_torque(const lied_env *env, el_dcm *d) {
  (void)env;
  d->tau = d->k * d->i;
  d->flange.tau.tau = -d->tau;
}
static void dcm_power(const lied_env *env, el_dcm *d) {
  (void)env;
  d->P_el = d->v * d->i;
  d->P_mech = d->tau * d->w;
  d->P_loss = d->Ra * d->i * d->i;
  d->heat.Q.Q_flow = -d->P_loss;
}
LIED_BLOCK(dcm_current_b, el_dcm, dcm_current)
LIED_BLOCK(dcm_der_b, el_dcm, dcm_der)
LIED_BLOCK(dcm_static_b, el_dcm, dcm_static)
LIED_BLOCK(dcm_torque_b, el_dcm, dcm_torque)
LIED_BLOCK(dcm_power_b, el_dcm, dcm_power)

#define LF(F) EL_LF(el_dcm, F)
#define LIN(F) EL_LIN(el_dcm, F)
LIED_LANE_BODY void dcm_current_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict i = LF(i);
  double *restrict ip = LF(p.i.i), *restrict in = LF(n.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) ip[l] = i[l], in[l] = -i[l];
}
LIED_LANE_FORM(dcm_current_lanes)
LIED_LANE_BODY void dcm_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(p.v), *restrict vn = LIN(n.v), *restrict w = LIN(flange.w);
  const double *restrict i = LF(i), *restrict Ra = LF(Ra), *restrict La = LF(La), *restrict k = LF(k);
  double *restrict v = LF(v), *restrict wo = LF(w), *restrict emf = LF(emf), *restrict der = LF(der_i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    v[l] = vp[l] - vn[l];
    wo[l] = w[l];
    dcm_der_eq(v[l], i[l], w[l], Ra[l], La[l], k[l], &emf[l], &der[l]);
  }
}
LIED_LANE_FORM(dcm_der_lanes)
LIED_LANE_BODY void dcm_static_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(p.v), *restrict vn = LIN(n.v), *restrict w = LIN(flange.w);
  const double *restrict Ra = LF(Ra), *restrict k = LF(k);
  double *restrict v = LF(v), *restrict wo = LF(w), *restrict emf = LF(emf), *restrict i = LF(i);
  double *restrict ip = LF(p.i.i), *restrict in = LF(n.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    v[l] = vp[l] - vn[l];
    wo[l] = w[l];
    i[l] = dcm_static_current_eq(v[l], w[l], Ra[l], k[l], &emf[l]);
    ip[l] = i[l], in[l] = -i[l];
  }
}
LIED_LANE_FORM(dcm_static_lanes)
LIED_LANE_BODY void dcm_torque_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict i = LF(i), *restrict k = LF(k);
  double *restrict tau = LF(tau), *restrict ft = LF(flange.tau.tau);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) tau[l] = k[l] * i[l], ft[l] = -tau[l];
}
LIED_LANE_FORM(dcm_torque_lanes)
LIED_LANE_BODY void dcm_power_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict v = LF(v), *restrict w = LF(w), *restrict i = LF(i);
  const double *restrict tau = LF(tau), *restrict Ra = LF(Ra);
  double *restrict Pe = LF(P_el), *restrict Pm = LF(P_mech), *restrict Pl = LF(P_loss);
  double *restrict Q = LF(heat.Q.Q_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    Pe[l] = v[l] * i[l];
    Pm[l] = tau[l] * w[l];
    Pl[l] = Ra[l] * i[l] * i[l];
    Q[l] = -Pl[l];
  }
}
LIED_LANE_FORM(dcm_power_lanes)
#undef LF
#undef LIN

static void dcm_meta(lied_meta *m, void *self) {
  el_dcm *d = self;
  lied_meta_port(m, "p", 0, &d->p, &el_branch_layout);
  lied_meta_port(m, "n", 0, &d->n, &el_branch_layout);
  ro_meta_branch(m, "flange", 0, &d->flange);
  if (d->La > 0) {
    lied_meta_state(m, "i", "A", &d->i, &d->der_i);
    lied_meta_block(m, "current", dcm_current_b, 0, LIED_SIGS(&d->i), LIED_SIGS(&d->p.i, &d->n.i));
    lied_meta_lanes(m, dcm_current_lanes);
    lied_meta_block(m, "der", dcm_der_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&d->p.v, &d->n.v, &d->flange.w, &d->i, &d->Ra, &d->La, &d->k),
                    LIED_SIGS(&d->v, &d->w, &d->emf, &d->der_i));
    lied_meta_lanes(m, dcm_der_lanes);
  } else {
    lied_meta_var(m, "i", "A", &d->i);
    lied_meta_block(m, "current", dcm_static_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&d->p.v, &d->n.v, &d->flange.w, &d->Ra, &d->k),
                    LIED_SIGS(&d->v, &d->w, &d->emf, &d->i, &d->p.i, &d->n.i));
    lied_meta_lanes(m, dcm_static_lanes);
  }
  lied_meta_var(m, "v", "V", &d->v);
  lied_meta_var(m, "w", "rad/s", &d->w);
  lied_meta_var(m, "emf", "V", &d->emf);
  lied_meta_var(m, "tau", "N.m", &d->tau);
  lied_meta_var(m, "P_el", "W", &d->P_el);
  lied_meta_var(m, "P_mech", "W", &d->P_mech);
  lied_meta_var(m, "P_loss", "W", &d->P_loss);
  lied_meta_block(m, "torque", dcm_torque_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&d->i, &d->k),
                  LIED_SIGS(&d->tau, &d->flange.tau));
  lied_meta_lanes(m, dcm_torque_lanes);
  if (d->heat_port) {
    lied_meta_port(m, "heat", 0, &d->heat, &th_branch_layout);
    lied_meta_block(m, "power", dcm_power_b, 0, LIED_SIGS(&d->v, &d->w, &d->i, &d->tau, &d->Ra),
                    LIED_SIGS(&d->P_el, &d->P_mech, &d->P_loss, &d->heat.Q));
  } else {
    lied_meta_block(m, "power", dcm_power_b, 0, LIED_SIGS(&d->v, &d->w, &d->i, &d->tau, &d->Ra),
                    LIED_SIGS(&d->P_el, &d->P_mech, &d->P_loss));
  }
  lied_meta_lanes(m, dcm_power_lanes);
}

static const lied_param dcm_params[] = {
    {"Ra", offsetof(el_dcm, Ra), 0.05, "Ohm", "armature resistance", 0, EL_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"La", offsetof(el_dcm, La), 1.5e-3, "H",
     "armature inductance (0: the current follows the voltage at once)", 0, EL_NOMAX, 0, 0},
    {"k", offsetof(el_dcm, k), 1, "N.m/A", "torque and back-EMF constant (V.s/rad)", 0,
     EL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"i", offsetof(el_dcm, i), 0, "A", "start armature current (La > 0)", EL_NOMIN, EL_NOMAX, 0,
     0},
    {"heat_port", offsetof(el_dcm, heat_port), 0, "1",
     "1: a heat port (branch) takes the losses Ra i^2", 0, 1, LIED_PARAM_INT, 0},
};
const lied_class el_dc_machine_class = {
    "DCMachine", "electrical",
    "DC machine with a permanent field: La der(i) = v - Ra i - k w, torque k i on its flange "
    "(a rotational branch: the rotor's inertia is an Inertia on the shaft), losses Ra i^2 to "
    "an optional heat port",
    sizeof(el_dcm), dcm_params, 5, NULL, dcm_meta};
