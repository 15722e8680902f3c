/* gear.c - IdealGear: a rigid coupling of two nodes, phi_a = ratio phi_b.
 * Its torque at flange_b is a tearing variable; the residual is the
 * constraint on the accelerations, a_a - ratio a_b = 0, so the two nodes'
 * torque balances and the gear form one linear section with a constant
 * matrix. The constraint on the speeds, w_a = ratio w_b, then holds as a
 * linear invariant of the equations (every Runge-Kutta method keeps it to
 * rounding) if it holds at the start: the constraint's block checks it at
 * every evaluation. */
#include "lib/rotational/rotational.h"

typedef struct ro_gear {
  ro_branch flange_a, flange_b;
  double tau, res; /* tearing pair: torque at flange_b, acceleration constraint */
  double ratio;
  double w_err; /* w_a - ratio w_b: 0 but for rounding */
} ro_gear;

/* Modelica's IdealGear: 0 = ratio tau_a + tau_b. */
static inline double gear_tau_a_eq(double tau, double ratio) { return -tau / ratio; }
static inline double gear_res_eq(double a_a, double a_b, double ratio) { return a_a - ratio * a_b; }
static inline double gear_err_eq(double w_a, double w_b, double ratio) { return w_a - ratio * w_b; }
/* The speeds agree with the ratio, up to what rounding and finite differences leave:
 * lied linearize (src/analysis/linearize.c) moves one state v by up to 8 cbrt(eps)
 * max(|v|, 1) = 4.9e-5 max(|v|, 1), w_b's move counting ratio times in w_err; a bound of
 * 1e-6 (|w_a| + |ratio w_b| + 1) refused every gear's linearisation (w_a = 0 rad/s, ratio
 * w_b = -2.4e-05 rad/s in examples/dc_drive.lua) with the message for start speeds. A start
 * that breaks the ratio is off by far more than 1e-4 of the speeds. */
#define GEAR_W_TOL 1e-4
static inline int gear_speeds_ok(double w_a, double w_b, double ratio, double err) {
  return fabs(err) <= GEAR_W_TOL * (fabs(w_a) + fabs(ratio) * (fabs(w_b) + 1.0) + 1.0);
}

static void gear_torque(const lied_env *env, ro_gear *k) {
  (void)env;
  k->flange_b.tau.tau = k->tau;
  k->flange_a.tau.tau = gear_tau_a_eq(k->tau, k->ratio);
}
static void gear_constraint(const lied_env *env, ro_gear *k) {
  k->res = gear_res_eq(k->flange_a.a->a, k->flange_b.a->a, k->ratio);
  const double w_a = k->flange_a.w->w, w_b = k->flange_b.w->w;
  k->w_err = gear_err_eq(w_a, w_b, k->ratio);
  if (!gear_speeds_ok(w_a, w_b, k->ratio, k->w_err))
    lied_block_fault(env, k,
                     "the speeds of its flanges do not follow the ratio: w_a = %.9g rad/s, "
                     "ratio w_b = %.9g rad/s (give the nodes start speeds with w_a = ratio w_b)",
                     w_a, k->ratio * w_b);
}
LIED_BLOCK(gear_torque_b, ro_gear, gear_torque)
LIED_BLOCK(gear_constraint_b, ro_gear, gear_constraint)

#define LF(F) LIED_LANE(ro_gear, g, F)
#define LIN(F) LIED_LANE_IN(ro_gear, g, F)
LIED_LANE_BODY void gear_torque_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict tau = LF(tau), *restrict ratio = LF(ratio);
  double *restrict ta = LF(flange_a.tau.tau), *restrict tb = LF(flange_b.tau.tau);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) tb[l] = tau[l], ta[l] = gear_tau_a_eq(tau[l], ratio[l]);
}
LIED_LANE_FORM(gear_torque_lanes)
LIED_LANE_BODY void gear_constraint_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)stride;
  const double *restrict a = LIN(flange_a.a), *restrict b = LIN(flange_b.a);
  const double *restrict wa = LIN(flange_a.w), *restrict wb = LIN(flange_b.w);
  const double *restrict ratio = LF(ratio);
  double *restrict res = LF(res), *restrict err = LF(w_err);
  int bad = 0;
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    res[l] = gear_res_eq(a[l], b[l], ratio[l]);
    err[l] = gear_err_eq(wa[l], wb[l], ratio[l]);
    bad |= !gear_speeds_ok(wa[l], wb[l], ratio[l], err[l]);
  }
  if (bad)
    for (size_t l = 0; l < n; l++)
      if (!gear_speeds_ok(wa[l], wb[l], ratio[l], err[l]))
        lied_block_fault(env, &err[l],
                         "the speeds of its flanges do not follow the ratio: w_a = %.9g rad/s, "
                         "ratio w_b = %.9g rad/s (give the nodes start speeds with w_a = ratio "
                         "w_b)",
                         wa[l], ratio[l] * wb[l]);
}
LIED_LANE_FORM(gear_constraint_lanes)
#undef LF
#undef LIN

static void gear_meta(lied_meta *m, void *self) {
  ro_gear *k = self;
  lied_meta_port(m, "flange_a", 0, &k->flange_a, &ro_branch_layout);
  lied_meta_port(m, "flange_b", 0, &k->flange_b, &ro_branch_layout);
  lied_meta_tear(m, "tau", &k->tau, "res", &k->res);
  lied_meta_var(m, "w_err", "rad/s", &k->w_err);
  lied_meta_block(m, "torque", gear_torque_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&k->tau, &k->ratio), LIED_SIGS(&k->flange_a.tau, &k->flange_b.tau));
  lied_meta_lanes(m, gear_torque_lanes);
  /* the speeds' check rides along: affine with the same coefficients */
  lied_meta_block(m, "constraint", gear_constraint_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&k->flange_a.a, &k->flange_b.a, &k->flange_a.w, &k->flange_b.w,
                            &k->ratio),
                  LIED_SIGS(&k->res, &k->w_err));
  lied_meta_lanes(m, gear_constraint_lanes);
}

static int gear_init(void *self, lied_init *ctx) {
  ro_gear *k = self;
  if (k->ratio == 0) {
    lied_init_error(ctx, "IdealGear: ratio must not be 0");
    return -1;
  }
  return 0;
}

static const lied_param gear_params[] = {
    {"ratio", offsetof(ro_gear, ratio), 1, "1",
     "transmission ratio phi_a / phi_b (negative: the shafts turn in opposite senses; not 0)",
     RO_NOMIN, RO_NOMAX, 0, 0},
};
const lied_class ro_ideal_gear_class = {
    "IdealGear", "rotational",
    "ideal gear between two nodes: phi_a = ratio phi_b, 0 = ratio tau_a + tau_b (no losses, "
    "no inertia); its torque tau at flange_b is a tearing variable",
    sizeof(ro_gear), gear_params, 1, gear_init, gear_meta};
