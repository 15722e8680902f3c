/* nodes.c - the rotational nodes, which own the motion of a shaft: Fixed (at
 * rest), Inertia (states phi, w; its angular acceleration is a tearing
 * variable closed by its torque balance) and Speed (a prescribed speed
 * followed with a first-order lag). */
#include "lib/rotational/rotational.h"

/* Lanes of field F of a TYPE group g, and of the signal read through F. */
#define RO_LF(TYPE, F) LIED_LANE(TYPE, g, F)
#define RO_LIN(TYPE, F) LIED_LANE_IN(TYPE, g, F)

/* ---- Fixed: a node at rest at phi0 ---- */
typedef struct ro_fixed {
  ro_node flange;
  double phi0;
  double tau; /* torque the support delivers to its branches */
} ro_fixed;

static void fixed_motion(const lied_env *env, ro_fixed *f) {
  (void)env;
  f->flange.phi.phi = f->phi0;
  f->flange.w.w = 0;
  f->flange.a.a = 0;
}
static void fixed_torque(const lied_env *env, ro_fixed *f) {
  (void)env;
  f->tau = f->flange.tau->tau;
}
LIED_BLOCK(fixed_motion_b, ro_fixed, fixed_motion)
LIED_BLOCK(fixed_torque_b, ro_fixed, fixed_torque)

LIED_LANE_BODY void fixed_motion_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict phi0 = RO_LF(ro_fixed, phi0);
  double *restrict phi = RO_LF(ro_fixed, flange.phi.phi), *restrict w = RO_LF(ro_fixed, flange.w.w),
                   *restrict a = RO_LF(ro_fixed, flange.a.a);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) phi[l] = phi0[l], w[l] = 0, a[l] = 0;
}
LIED_LANE_FORM(fixed_motion_lanes)
LIED_LANE_BODY void fixed_torque_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict t = RO_LIN(ro_fixed, flange.tau);
  double *restrict tau = RO_LF(ro_fixed, tau);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) tau[l] = t[l];
}
LIED_LANE_FORM(fixed_torque_lanes)

static void fixed_meta(lied_meta *m, void *self) {
  ro_fixed *f = self;
  lied_meta_port(m, "flange", 0, &f->flange, &ro_node_layout);
  lied_meta_var(m, "tau", "N.m", &f->tau);
  lied_meta_block(m, "motion", fixed_motion_b, 0, LIED_SIGS(&f->phi0),
                  LIED_SIGS(&f->flange.phi, &f->flange.w, &f->flange.a));
  lied_meta_lanes(m, fixed_motion_lanes);
  lied_meta_block(m, "torque", fixed_torque_b, 0, LIED_SIGS(&f->flange.tau), LIED_SIGS(&f->tau));
  lied_meta_lanes(m, fixed_torque_lanes);
}

static const lied_param fixed_params[] = {
    {"phi0", offsetof(ro_fixed, phi0), 0, "rad", "angle of the fixed flange", RO_NOMIN, RO_NOMAX,
     0, 0},
};
const lied_class ro_fixed_class = {
    "Fixed", "rotational",
    "flange fixed at the angle phi0 (a node at rest); records tau, the torque it delivers to "
    "its branches",
    sizeof(ro_fixed), fixed_params, 1, NULL, fixed_meta};

/* ---- Inertia: a rigid shaft with moment of inertia J ---- */
typedef struct ro_inertia {
  ro_node flange_a, flange_b;
  double phi, der_phi, w, der_w;
  double a, res; /* tearing pair: angular acceleration, torque balance */
  double J;
} ro_inertia;

/* Torque balance: the torques the shaft applies to its branches (tau_a,
 * tau_b, each summed over the branches of its flange) and J a add up to 0. */
static inline double inertia_res_eq(double J, double a, double tau_a, double tau_b) {
  return J * a + tau_a + tau_b;
}

static void inertia_motion(const lied_env *env, ro_inertia *s) {
  (void)env;
  s->flange_a.phi.phi = s->flange_b.phi.phi = s->phi;
  s->flange_a.w.w = s->flange_b.w.w = s->w;
  s->der_phi = s->w;
}
static void inertia_acc(const lied_env *env, ro_inertia *s) {
  (void)env;
  s->flange_a.a.a = s->flange_b.a.a = s->a;
  s->der_w = s->a;
}
static void inertia_balance(const lied_env *env, ro_inertia *s) {
  (void)env;
  s->res = inertia_res_eq(s->J, s->a, s->flange_a.tau->tau, s->flange_b.tau->tau);
}
LIED_BLOCK(inertia_motion_b, ro_inertia, inertia_motion)
LIED_BLOCK(inertia_acc_b, ro_inertia, inertia_acc)
LIED_BLOCK(inertia_balance_b, ro_inertia, inertia_balance)

#define LF(F) RO_LF(ro_inertia, F)
LIED_LANE_BODY void inertia_motion_lanes_n(const lied_env *env, char *g, size_t n,
                                           size_t stride) {
  (void)env, (void)stride;
  const double *restrict phi = LF(phi), *restrict w = LF(w);
  double *restrict pa = LF(flange_a.phi.phi), *restrict pb = LF(flange_b.phi.phi);
  double *restrict wa = LF(flange_a.w.w), *restrict wb = LF(flange_b.w.w);
  double *restrict der_phi = LF(der_phi);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) pa[l] = pb[l] = phi[l], wa[l] = wb[l] = w[l], der_phi[l] = w[l];
}
LIED_LANE_FORM(inertia_motion_lanes)
LIED_LANE_BODY void inertia_acc_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LF(a);
  double *restrict aa = LF(flange_a.a.a), *restrict ab = LF(flange_b.a.a);
  double *restrict der_w = LF(der_w);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) aa[l] = ab[l] = der_w[l] = a[l];
}
LIED_LANE_FORM(inertia_acc_lanes)
LIED_LANE_BODY void inertia_balance_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict ta = RO_LIN(ro_inertia, flange_a.tau);
  const double *restrict tb = RO_LIN(ro_inertia, flange_b.tau);
  const double *restrict J = LF(J), *restrict a = LF(a);
  double *restrict res = LF(res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) res[l] = inertia_res_eq(J[l], a[l], ta[l], tb[l]);
}
LIED_LANE_FORM(inertia_balance_lanes)
#undef LF

static void inertia_meta(lied_meta *m, void *self) {
  ro_inertia *s = self;
  lied_meta_port(m, "flange_a", 0, &s->flange_a, &ro_node_layout);
  lied_meta_port(m, "flange_b", 0, &s->flange_b, &ro_node_layout);
  lied_meta_state(m, "phi", "rad", &s->phi, &s->der_phi);
  lied_meta_state(m, "w", "rad/s", &s->w, &s->der_w);
  lied_meta_tear(m, "a", &s->a, "res", &s->res);
  lied_meta_block(m, "motion", inertia_motion_b, 0, LIED_SIGS(&s->phi, &s->w),
                  LIED_SIGS(&s->flange_a.phi, &s->flange_b.phi, &s->flange_a.w, &s->flange_b.w,
                            &s->der_phi));
  lied_meta_lanes(m, inertia_motion_lanes);
  lied_meta_block(m, "acc", inertia_acc_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->a),
                  LIED_SIGS(&s->flange_a.a, &s->flange_b.a, &s->der_w));
  lied_meta_lanes(m, inertia_acc_lanes);
  lied_meta_block(m, "balance", inertia_balance_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->flange_a.tau, &s->flange_b.tau, &s->a, &s->J),
                  LIED_SIGS(&s->res));
  lied_meta_lanes(m, inertia_balance_lanes);
}

static const lied_param inertia_params[] = {
    {"J", offsetof(ro_inertia, J), 1, "kg.m2",
     "moment of inertia (0: a massless node, which needs a rigid coupling to an inertia)", 0,
     RO_NOMAX, 0, 0},
    {"phi", offsetof(ro_inertia, phi), 0, "rad", "start value of the angle", RO_NOMIN, RO_NOMAX,
     0, 0},
    {"w", offsetof(ro_inertia, w), 0, "rad/s", "start value of the angular velocity", RO_NOMIN,
     RO_NOMAX, 0, 0},
};
const lied_class ro_inertia_class = {
    "Inertia", "rotational",
    "rigid shaft with moment of inertia J: states phi, w; J der(w) = -(the torques of the "
    "branches on flange_a and flange_b)",
    sizeof(ro_inertia), inertia_params, 3, NULL, inertia_meta};

/* ---- Speed: a node following the speed w_ref + u with the time constant T ---- */
typedef struct ro_speed {
  ro_node flange;
  lied_real_in u;
  double phi, der_phi, w, der_w;
  double w_ref, T;
  double w_set, tau, P; /* reference in use; torque and power delivered to the branches */
} ro_speed;

/* der(w) = (w_set - w) / T */
static inline double speed_acc_eq(double w_set, double w, double T) { return (w_set - w) / T; }

static void speed_motion(const lied_env *env, ro_speed *s) {
  (void)env;
  s->flange.phi.phi = s->phi;
  s->flange.w.w = s->w;
  s->der_phi = s->w;
}
static void speed_acc(const lied_env *env, ro_speed *s) {
  (void)env;
  s->w_set = s->w_ref + s->u.y->y;
  s->flange.a.a = s->der_w = speed_acc_eq(s->w_set, s->w, s->T);
}
static void speed_power(const lied_env *env, ro_speed *s) {
  (void)env;
  s->tau = s->flange.tau->tau;
  s->P = s->tau * s->w;
}
LIED_BLOCK(speed_motion_b, ro_speed, speed_motion)
LIED_BLOCK(speed_acc_b, ro_speed, speed_acc)
LIED_BLOCK(speed_power_b, ro_speed, speed_power)

#define LF(F) RO_LF(ro_speed, F)
LIED_LANE_BODY void speed_motion_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict phi = LF(phi), *restrict w = LF(w);
  double *restrict p = LF(flange.phi.phi), *restrict v = LF(flange.w.w), *restrict d = LF(der_phi);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) p[l] = phi[l], v[l] = d[l] = w[l];
}
LIED_LANE_FORM(speed_motion_lanes)
LIED_LANE_BODY void speed_acc_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict u = RO_LIN(ro_speed, u.y);
  const double *restrict w_ref = LF(w_ref), *restrict w = LF(w), *restrict T = LF(T);
  double *restrict w_set = LF(w_set), *restrict a = LF(flange.a.a), *restrict der_w = LF(der_w);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    w_set[l] = w_ref[l] + u[l];
    a[l] = der_w[l] = speed_acc_eq(w_set[l], w[l], T[l]);
  }
}
LIED_LANE_FORM(speed_acc_lanes)
LIED_LANE_BODY void speed_power_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict t = RO_LIN(ro_speed, flange.tau), *restrict w = LF(w);
  double *restrict tau = LF(tau), *restrict P = LF(P);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) tau[l] = t[l], P[l] = t[l] * w[l];
}
LIED_LANE_FORM(speed_power_lanes)
#undef LF

static void speed_meta(lied_meta *m, void *self) {
  ro_speed *s = self;
  lied_meta_port(m, "flange", 0, &s->flange, &ro_node_layout);
  lied_meta_real_in_optional(m, "u", 0, &s->u);
  lied_meta_state(m, "phi", "rad", &s->phi, &s->der_phi);
  lied_meta_state(m, "w", "rad/s", &s->w, &s->der_w);
  lied_meta_var(m, "w_set", "rad/s", &s->w_set);
  lied_meta_var(m, "tau", "N.m", &s->tau);
  lied_meta_var(m, "P", "W", &s->P);
  lied_meta_block(m, "motion", speed_motion_b, 0, LIED_SIGS(&s->phi, &s->w),
                  LIED_SIGS(&s->flange.phi, &s->flange.w, &s->der_phi));
  lied_meta_lanes(m, speed_motion_lanes);
  lied_meta_block(m, "acc", speed_acc_b, 0, LIED_SIGS(&s->u.y, &s->w, &s->w_ref, &s->T),
                  LIED_SIGS(&s->w_set, &s->flange.a, &s->der_w));
  lied_meta_lanes(m, speed_acc_lanes);
  lied_meta_block(m, "power", speed_power_b, 0, LIED_SIGS(&s->flange.tau, &s->w),
                  LIED_SIGS(&s->tau, &s->P));
  lied_meta_lanes(m, speed_power_lanes);
}

static const lied_param speed_params[] = {
    {"w_ref", offsetof(ro_speed, w_ref), 0, "rad/s",
     "reference speed (the optional input u is added to it)", RO_NOMIN, RO_NOMAX, 0, 0},
    {"T", offsetof(ro_speed, T), 0.01, "s", "time constant with which the speed follows", 0,
     RO_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"phi", offsetof(ro_speed, phi), 0, "rad", "start value of the angle", RO_NOMIN, RO_NOMAX, 0,
     0},
    {"w", offsetof(ro_speed, w), 0, "rad/s", "start value of the speed", RO_NOMIN, RO_NOMAX, 0, 0},
};
const lied_class ro_speed_class = {
    "Speed", "rotational",
    "node driven at the speed w_ref + u: T der(w) = w_ref + u - w; records the torque tau and "
    "power P it delivers to its branches",
    sizeof(ro_speed), speed_params, 4, NULL, speed_meta};
