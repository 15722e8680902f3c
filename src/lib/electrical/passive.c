/* passive.c - Resistor (optionally with a heat port), Inductor and
 * Capacitor. The resistor and the inductor are branches: they read the
 * potentials of the nets at their pins and return their currents; the
 * capacitor is an element in series that owns the net at its pin p:
 * p.v = n.v + v, v its state. */
#include "lib/electrical/electrical.h"
#include "lib/thermal/thermal.h"

#define LF(TYPE, F) EL_LF(TYPE, F)
#define LIN(TYPE, F) EL_LIN(TYPE, F)

/* ---- Resistor: i = v / R, R = R_ref (1 + alpha (T - T_ref)) ---- */
typedef struct el_resistor {
  el_branch p, n;
  th_branch heat; /* heat_port = 1: T from the node, the Joule heat into it */
  double v, i, P, R_act;
  double R, T_ref, alpha, T;
  int heat_port;
} el_resistor;

static inline double resistance_eq(double R, double alpha, double T, double T_ref) {
  return R * (1 + alpha * (T - T_ref));
}
static inline void resistor_eq(double vp, double vn, double R, double *v, double *i, double *ip,
                               double *in) {
  *v = vp - vn;
  *i = *v / R;
  *ip = *i;
  *in = -*i;
}

/* R_act <= 0 (a negative alpha heated past its zero, a T from the port that is no
 * temperature): no resistor's law. Reported with the temperature; the current is then
 * whatever v / R_act gives (the fault stops the run). Only the heat port's T moves:
 * without it, resistor_init checked the one value. */
static inline void resistor_check(const lied_env *env, const void *self, double Ra, double T) {
  if (Ra <= 0) /* NaN passes: a state gone NaN or inf, which the solver names */
    lied_block_fault(env, self,
                     "R_act = R (1 + alpha (T - T_ref)) = %g Ohm at T = %g K from the heat "
                     "port: the resistance must stay > 0",
                     Ra, T);
}

static void resistor_current(const lied_env *env, el_resistor *r) {
  const double T = r->heat_port ? r->heat.T->T : r->T;
  r->R_act = resistance_eq(r->R, r->alpha, T, r->T_ref);
  if (r->heat_port) resistor_check(env, r, r->R_act, T);
  resistor_eq(r->p.v->v, r->n.v->v, r->R_act, &r->v, &r->i, &r->p.i.i, &r->n.i.i);
}
static void resistor_loss(const lied_env *env, el_resistor *r) {
  (void)env;
  r->P = r->v * r->i;
  r->heat.Q.Q_flow = -r->P;
}
LIED_BLOCK(resistor_current_b, el_resistor, resistor_current)
LIED_BLOCK(resistor_loss_b, el_resistor, resistor_loss)

LIED_LANE_BODY void resistor_current_lanes_n(const lied_env *env, char *g, size_t n,
                                             size_t stride, int port) {
  (void)stride;
  const double *restrict vp = LIN(el_resistor, p.v), *restrict vn = LIN(el_resistor, n.v);
  const double *restrict T = port ? LIN(el_resistor, heat.T) : LF(el_resistor, T);
  const double *restrict R = LF(el_resistor, R), *restrict alpha = LF(el_resistor, alpha);
  const double *restrict T_ref = LF(el_resistor, T_ref);
  double *restrict v = LF(el_resistor, v), *restrict i = LF(el_resistor, i);
  double *restrict Ra = LF(el_resistor, R_act);
  double *restrict ip = LF(el_resistor, p.i.i), *restrict in = LF(el_resistor, n.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    Ra[l] = resistance_eq(R[l], alpha[l], T[l], T_ref[l]);
    resistor_eq(vp[l], vn[l], Ra[l], &v[l], &i[l], &ip[l], &in[l]);
  }
  if (port)
    for (size_t l = 0; l < n; l++) resistor_check(env, &Ra[l], Ra[l], T[l]);
}
LIED_LANE_BODY void resistor_plain_lanes_n(const lied_env *env, char *g, size_t n,
                                           size_t stride) {
  resistor_current_lanes_n(env, g, n, stride, 0);
}
LIED_LANE_FORM(resistor_plain_lanes)
LIED_LANE_BODY void resistor_port_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  resistor_current_lanes_n(env, g, n, stride, 1);
}
LIED_LANE_FORM(resistor_port_lanes)
LIED_LANE_BODY void resistor_loss_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  const double *restrict v = LF(el_resistor, v), *restrict i = LF(el_resistor, i);
  double *restrict P = LF(el_resistor, P), *restrict Q = LF(el_resistor, heat.Q.Q_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) P[l] = v[l] * i[l], Q[l] = -P[l];
}
LIED_LANE_FORM(resistor_loss_lanes)

static void resistor_meta(lied_meta *m, void *self) {
  el_resistor *r = self;
  lied_meta_port(m, "p", 0, &r->p, &el_branch_layout);
  lied_meta_port(m, "n", 0, &r->n, &el_branch_layout);
  lied_meta_var(m, "v", "V", &r->v);
  lied_meta_var(m, "i", "A", &r->i);
  lied_meta_var(m, "P", "W", &r->P);
  lied_meta_var(m, "R_act", "Ohm", &r->R_act);
  if (r->heat_port) {
    lied_meta_port(m, "heat", 0, &r->heat, &th_branch_layout);
    /* the resistance follows a temperature (a state): not a constant coefficient */
    lied_meta_block(m, "current", resistor_current_b, r->alpha == 0 ? LIED_BLOCK_CONST_COEFF : 0,
                    LIED_SIGS(&r->p.v, &r->n.v, &r->heat.T, &r->R, &r->alpha, &r->T_ref),
                    LIED_SIGS(&r->p.i, &r->n.i, &r->v, &r->i, &r->R_act));
    lied_meta_lanes(m, resistor_port_lanes);
    lied_meta_block(m, "loss", resistor_loss_b, 0, LIED_SIGS(&r->v, &r->i),
                    LIED_SIGS(&r->P, &r->heat.Q));
  } else {
    lied_meta_block(m, "current", resistor_current_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&r->p.v, &r->n.v, &r->R, &r->alpha, &r->T, &r->T_ref),
                    LIED_SIGS(&r->p.i, &r->n.i, &r->v, &r->i, &r->R_act));
    lied_meta_lanes(m, resistor_plain_lanes);
    lied_meta_block(m, "loss", resistor_loss_b, 0, LIED_SIGS(&r->v, &r->i), LIED_SIGS(&r->P));
  }
  lied_meta_lanes(m, resistor_loss_lanes);
}

static int resistor_init(void *self, lied_init *ctx) {
  el_resistor *r = self;
  if (!(resistance_eq(r->R, r->alpha, r->T, r->T_ref) > 0)) {
    lied_init_error(ctx, "Resistor: R (1 + alpha (T - T_ref)) = %g Ohm must be > 0",
                    resistance_eq(r->R, r->alpha, r->T, r->T_ref));
    return -1;
  }
  return 0;
}

static const lied_param resistor_params[] = {
    {"R", offsetof(el_resistor, R), 1, "Ohm", "resistance at T_ref", 0, EL_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"T_ref", offsetof(el_resistor, T_ref), 300.15, "K", "reference temperature", 0, EL_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"alpha", offsetof(el_resistor, alpha), 0, "1/K", "temperature coefficient of R", EL_NOMIN,
     EL_NOMAX, 0, 0},
    {"T", offsetof(el_resistor, T), 300.15, "K", "temperature without a heat port", 0, EL_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"heat_port", offsetof(el_resistor, heat_port), 0, "1",
     "1: a heat port (branch) gives T and takes the Joule heat P", 0, 1, LIED_PARAM_INT, 0},
};
const lied_class el_resistor_class = {
    "Resistor", "electrical",
    "linear resistor: v = R_act i, R_act = R (1 + alpha (T - T_ref)); records v, i, the Joule "
    "heat P = v i and R_act; heat_port = 1: T from its heat port, P into it",
    sizeof(el_resistor), resistor_params, 5, resistor_init, resistor_meta};

/* ---- Inductor: L der(i) = v - R i, i a state (a branch whose current is known) ---- */
typedef struct el_inductor {
  el_branch p, n;
  double i, der_i, v, E;
  double L, R;
} el_inductor;

static inline void inductor_der_eq(double vp, double vn, double i, double L, double R,
                                   double *v, double *der_i) {
  *v = vp - vn;
  *der_i = (*v - R * i) / L;
}

/* the energy stored, L i^2/2 (C v^2/2 for a capacitor) */
static inline double stored_eq(double L, double i) { return 0.5 * L * i * i; }

static void inductor_current(const lied_env *env, el_inductor *d) {
  (void)env;
  d->p.i.i = d->i;
  d->n.i.i = -d->i;
  d->E = stored_eq(d->L, d->i);
}
static void inductor_der(const lied_env *env, el_inductor *d) {
  (void)env;
  inductor_der_eq(d->p.v->v, d->n.v->v, d->i, d->L, d->R, &d->v, &d->der_i);
}
LIED_BLOCK(inductor_current_b, el_inductor, inductor_current)
LIED_BLOCK(inductor_der_b, el_inductor, inductor_der)

LIED_LANE_BODY void inductor_current_lanes_n(const lied_env *env, char *g, size_t n,
                                             size_t stride) {
  (void)env, (void)stride;
  const double *restrict i = LF(el_inductor, i), *restrict L = LF(el_inductor, L);
  double *restrict ip = LF(el_inductor, p.i.i), *restrict in = LF(el_inductor, n.i.i);
  double *restrict E = LF(el_inductor, E);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) ip[l] = i[l], in[l] = -i[l], E[l] = stored_eq(L[l], i[l]);
}
LIED_LANE_FORM(inductor_current_lanes)
LIED_LANE_BODY void inductor_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(el_inductor, p.v), *restrict vn = LIN(el_inductor, n.v);
  const double *restrict i = LF(el_inductor, i), *restrict L = LF(el_inductor, L);
  const double *restrict R = LF(el_inductor, R);
  double *restrict v = LF(el_inductor, v), *restrict der = LF(el_inductor, der_i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) inductor_der_eq(vp[l], vn[l], i[l], L[l], R[l], &v[l], &der[l]);
}
LIED_LANE_FORM(inductor_der_lanes)

static void inductor_meta(lied_meta *m, void *self) {
  el_inductor *d = self;
  lied_meta_port(m, "p", 0, &d->p, &el_branch_layout);
  lied_meta_port(m, "n", 0, &d->n, &el_branch_layout);
  lied_meta_state(m, "i", "A", &d->i, &d->der_i);
  lied_meta_var(m, "v", "V", &d->v);
  lied_meta_var(m, "E", "J", &d->E);
  lied_meta_block(m, "current", inductor_current_b, 0, LIED_SIGS(&d->i, &d->L),
                  LIED_SIGS(&d->p.i, &d->n.i, &d->E));
  lied_meta_lanes(m, inductor_current_lanes);
  lied_meta_block(m, "der", inductor_der_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&d->p.v, &d->n.v, &d->i, &d->L, &d->R), LIED_SIGS(&d->v, &d->der_i));
  lied_meta_lanes(m, inductor_der_lanes);
}

static const lied_param inductor_params[] = {
    {"L", offsetof(el_inductor, L), 1, "H", "inductance", 0, EL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"R", offsetof(el_inductor, R), 0, "Ohm", "series (winding) resistance", 0, EL_NOMAX, 0, 0},
    {"i", offsetof(el_inductor, i), 0, "A", "start current", EL_NOMIN, EL_NOMAX, 0, 0},
};
const lied_class el_inductor_class = {
    "Inductor", "electrical",
    "inductor with a series resistance R: L der(i) = v - R i, the current i from p to n a "
    "state; records its energy E = L i^2/2",
    sizeof(el_inductor), inductor_params, 3, NULL, inductor_meta};

/* ---- Capacitor: in series, p.v = n.v + v, C der(v) = i ---- */
typedef struct el_capacitor {
  el_branch n;
  el_node p;
  double v, der_v, i, E;
  double C;
} el_capacitor;

static inline double series_potential_eq(double vn, double u) { return vn + u; }
/* the current the element passes from n to p (out of p into the net's
 * branches: I), its current into p (Modelica's i) and C der(v) = i */
static inline void capacitor_current_eq(double I, double C, double *in, double *i,
                                        double *der_v) {
  *in = I;
  *i = -I;
  *der_v = -I / C;
}

static void capacitor_potential(const lied_env *env, el_capacitor *c) {
  (void)env;
  c->p.v.v = series_potential_eq(c->n.v->v, c->v);
  c->E = stored_eq(c->C, c->v);
}
static void capacitor_known(const lied_env *env, el_capacitor *c) {
  (void)env;
  c->p.k.known = c->n.k->known;
}
static void capacitor_current(const lied_env *env, el_capacitor *c) {
  (void)env;
  capacitor_current_eq(c->p.i->i, c->C, &c->n.i.i, &c->i, &c->der_v);
}
LIED_BLOCK(capacitor_potential_b, el_capacitor, capacitor_potential)
LIED_BLOCK(capacitor_known_b, el_capacitor, capacitor_known)
LIED_BLOCK(capacitor_current_b, el_capacitor, capacitor_current)

LIED_LANE_BODY void capacitor_potential_lanes_n(const lied_env *env, char *g, size_t n,
                                                size_t stride) {
  (void)env, (void)stride;
  const double *restrict vn = LIN(el_capacitor, n.v), *restrict v = LF(el_capacitor, v);
  const double *restrict C = LF(el_capacitor, C);
  double *restrict vp = LF(el_capacitor, p.v.v), *restrict E = LF(el_capacitor, E);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) vp[l] = series_potential_eq(vn[l], v[l]), E[l] = stored_eq(C[l], v[l]);
}
LIED_LANE_FORM(capacitor_potential_lanes)
LIED_LANE_BODY void capacitor_known_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict kn = LIN(el_capacitor, n.k);
  double *restrict kp = LF(el_capacitor, p.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) kp[l] = kn[l];
}
LIED_LANE_FORM(capacitor_known_lanes)
LIED_LANE_BODY void capacitor_current_lanes_n(const lied_env *env, char *g, size_t n,
                                              size_t stride) {
  (void)env, (void)stride;
  const double *restrict I = LIN(el_capacitor, p.i), *restrict C = LF(el_capacitor, C);
  double *restrict in = LF(el_capacitor, n.i.i), *restrict i = LF(el_capacitor, i);
  double *restrict der = LF(el_capacitor, der_v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) capacitor_current_eq(I[l], C[l], &in[l], &i[l], &der[l]);
}
LIED_LANE_FORM(capacitor_current_lanes)

static void capacitor_meta(lied_meta *m, void *self) {
  el_capacitor *c = self;
  lied_meta_port(m, "n", 0, &c->n, &el_branch_known_layout);
  lied_meta_port(m, "p", 0, &c->p, &el_node_layout);
  lied_meta_state(m, "v", "V", &c->v, &c->der_v);
  lied_meta_var(m, "i", "A", &c->i);
  lied_meta_var(m, "E", "J", &c->E);
  lied_meta_block(m, "potential", capacitor_potential_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&c->n.v, &c->v, &c->C), LIED_SIGS(&c->p.v, &c->E));
  lied_meta_lanes(m, capacitor_potential_lanes);
  lied_meta_block(m, "known", capacitor_known_b, 0, LIED_SIGS(&c->n.k), LIED_SIGS(&c->p.k));
  lied_meta_lanes(m, capacitor_known_lanes);
  lied_meta_block(m, "current", capacitor_current_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&c->p.i, &c->C), LIED_SIGS(&c->n.i, &c->i, &c->der_v));
  lied_meta_lanes(m, capacitor_current_lanes);
}

static const lied_param capacitor_params[] = {
    {"C", offsetof(el_capacitor, C), 1, "F", "capacitance", 0, EL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"v", offsetof(el_capacitor, v), 0, "V", "start voltage p.v - n.v", EL_NOMIN, EL_NOMAX, 0,
     0},
};
const lied_class el_capacitor_class = {
    "Capacitor", "electrical",
    "capacitor in series: its pin p owns the net after it, p.v = n.v + v; C der(v) = i, i the "
    "current into p (minus what the branches at p draw); v a state; records its energy E = C "
    "v^2/2",
    sizeof(el_capacitor), capacitor_params, 2, NULL, capacitor_meta};
