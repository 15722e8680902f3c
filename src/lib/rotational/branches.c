/* branches.c - rotational branches with explicit torques: Spring, Damper,
 * SpringDamper between two nodes, Torque (a source on one node), and the
 * sensors SpeedSensor (a branch) and TorqueSensor (in series: a branch on
 * the driving node, a node for what it drives). */
#include "lib/rotational/rotational.h"

#define RO_LF(TYPE, F) LIED_LANE(TYPE, g, F)
#define RO_LIN(TYPE, F) LIED_LANE_IN(TYPE, g, F)

/* ---- Spring, Damper, SpringDamper ----
 * phi_rel = phi_b - phi_a, w_rel = w_b - w_a; tau = c (phi_rel - phi_rel0)
 * + d w_rel is the torque at flange_b (flange_a takes -tau). P_loss = d
 * w_rel^2 is the power the damper dissipates. They read angles and speeds
 * only, so they never join a linear section. */
typedef struct ro_coupling {
  ro_branch flange_a, flange_b;
  double phi_rel, w_rel, tau, P_loss;
  double c, d, phi_rel0;
} ro_coupling;

enum { CPL_SPRING = 1, CPL_DAMPER = 2, CPL_BOTH = 3 };

/* The equations once, for the blocks and their lane forms. */
static inline double cpl_tau_eq(int kind, double c, double d, double phi_rel0, double phi_rel,
                                double w_rel) {
  if (kind == CPL_SPRING) return c * (phi_rel - phi_rel0);
  if (kind == CPL_DAMPER) return d * w_rel;
  return c * (phi_rel - phi_rel0) + d * w_rel;
}

static inline void cpl_eval(ro_coupling *k, int kind) {
  const double phi_rel = kind & CPL_SPRING ? k->flange_b.phi->phi - k->flange_a.phi->phi : 0;
  const double w_rel = kind & CPL_DAMPER ? k->flange_b.w->w - k->flange_a.w->w : 0;
  const double tau = cpl_tau_eq(kind, k->c, k->d, k->phi_rel0, phi_rel, w_rel);
  k->phi_rel = phi_rel, k->w_rel = w_rel, k->tau = tau;
  k->P_loss = kind & CPL_DAMPER ? k->d * w_rel * w_rel : 0;
  k->flange_b.tau.tau = tau;
  k->flange_a.tau.tau = -tau;
}
static void spring_eval(const lied_env *env, ro_coupling *k) {
  (void)env;
  cpl_eval(k, CPL_SPRING);
}
static void damper_eval(const lied_env *env, ro_coupling *k) {
  (void)env;
  cpl_eval(k, CPL_DAMPER);
}
static void spring_damper_eval(const lied_env *env, ro_coupling *k) {
  (void)env;
  cpl_eval(k, CPL_BOTH);
}
LIED_BLOCK(spring_b, ro_coupling, spring_eval)
LIED_BLOCK(damper_b, ro_coupling, damper_eval)
LIED_BLOCK(spring_damper_b, ro_coupling, spring_damper_eval)

#define LF(F) RO_LF(ro_coupling, F)
#define LIN(F) RO_LIN(ro_coupling, F)
LIED_LANE_BODY void cpl_lanes(char *g, size_t n, int kind) {
  const double *restrict pa = kind & CPL_SPRING ? LIN(flange_a.phi) : NULL;
  const double *restrict pb = kind & CPL_SPRING ? LIN(flange_b.phi) : NULL;
  const double *restrict wa = kind & CPL_DAMPER ? LIN(flange_a.w) : NULL;
  const double *restrict wb = kind & CPL_DAMPER ? LIN(flange_b.w) : NULL;
  const double *restrict c = LF(c), *restrict d = LF(d), *restrict phi_rel0 = LF(phi_rel0);
  double *restrict phi_rel = LF(phi_rel), *restrict w_rel = LF(w_rel), *restrict tau = LF(tau);
  double *restrict P_loss = LF(P_loss);
  double *restrict ta = LF(flange_a.tau.tau), *restrict tb = LF(flange_b.tau.tau);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    const double pr = kind & CPL_SPRING ? pb[l] - pa[l] : 0;
    const double wr = kind & CPL_DAMPER ? wb[l] - wa[l] : 0;
    const double t = cpl_tau_eq(kind, c[l], d[l], phi_rel0[l], pr, wr);
    phi_rel[l] = pr, w_rel[l] = wr, tau[l] = t;
    P_loss[l] = kind & CPL_DAMPER ? d[l] * wr * wr : 0;
    tb[l] = t, ta[l] = -t;
  }
}
LIED_LANE_BODY void spring_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  cpl_lanes(g, n, CPL_SPRING);
}
LIED_LANE_FORM(spring_lanes)
LIED_LANE_BODY void damper_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  cpl_lanes(g, n, CPL_DAMPER);
}
LIED_LANE_FORM(damper_lanes)
LIED_LANE_BODY void spring_damper_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  cpl_lanes(g, n, CPL_BOTH);
}
LIED_LANE_FORM(spring_damper_lanes)
#undef LF
#undef LIN

static void cpl_meta(lied_meta *m, ro_coupling *k, int kind, lied_block_fn fn,
                     lied_block_fn lanes) {
  lied_meta_port(m, "flange_a", 0, &k->flange_a, &ro_branch_layout);
  lied_meta_port(m, "flange_b", 0, &k->flange_b, &ro_branch_layout);
  if (kind & CPL_SPRING) lied_meta_var(m, "phi_rel", "rad", &k->phi_rel);
  if (kind & CPL_DAMPER) lied_meta_var(m, "w_rel", "rad/s", &k->w_rel);
  lied_meta_var(m, "tau", "N.m", &k->tau);
  if (kind & CPL_DAMPER) lied_meta_var(m, "P_loss", "W", &k->P_loss);
  const void *in[8] = {&k->c, &k->d, &k->phi_rel0};
  int n = 3;
  if (kind & CPL_SPRING) in[n++] = &k->flange_a.phi, in[n++] = &k->flange_b.phi;
  if (kind & CPL_DAMPER) in[n++] = &k->flange_a.w, in[n++] = &k->flange_b.w;
  lied_meta_block(m, "torque", fn, 0, in,
                  LIED_SIGS(&k->flange_a.tau, &k->flange_b.tau, &k->phi_rel, &k->w_rel, &k->tau,
                            &k->P_loss));
  lied_meta_lanes(m, lanes);
}
static void spring_meta(lied_meta *m, void *self) {
  cpl_meta(m, self, CPL_SPRING, spring_b, spring_lanes);
}
static void damper_meta(lied_meta *m, void *self) {
  cpl_meta(m, self, CPL_DAMPER, damper_b, damper_lanes);
}
static void spring_damper_meta(lied_meta *m, void *self) {
  cpl_meta(m, self, CPL_BOTH, spring_damper_b, spring_damper_lanes);
}

#define CPL_C {"c", offsetof(ro_coupling, c), 1, "N.m/rad", "torsional stiffness", 0, RO_NOMAX, 0, 0}
#define CPL_D {"d", offsetof(ro_coupling, d), 1, "N.m.s/rad", "torsional damping", 0, RO_NOMAX, 0, 0}
#define CPL_PHI0                                                                            \
  {"phi_rel0", offsetof(ro_coupling, phi_rel0), 0, "rad", "unstretched relative angle",    \
   RO_NOMIN, RO_NOMAX, 0, 0}
static const lied_param spring_params[] = {CPL_C, CPL_PHI0};
static const lied_param damper_params[] = {CPL_D};
static const lied_param spring_damper_params[] = {CPL_C, CPL_D, CPL_PHI0};

const lied_class ro_spring_class = {
    "Spring", "rotational",
    "torsional spring between two nodes: tau = c (phi_rel - phi_rel0), phi_rel = flange_b.phi "
    "- flange_a.phi",
    sizeof(ro_coupling), spring_params, 2, NULL, spring_meta};
const lied_class ro_damper_class = {
    "Damper", "rotational",
    "torsional damper between two nodes: tau = d w_rel, w_rel = flange_b.w - flange_a.w; "
    "P_loss = d w_rel^2",
    sizeof(ro_coupling), damper_params, 1, NULL, damper_meta};
const lied_class ro_spring_damper_class = {
    "SpringDamper", "rotational",
    "spring and damper in parallel between two nodes: tau = c (phi_rel - phi_rel0) + d w_rel",
    sizeof(ro_coupling), spring_damper_params, 3, NULL, spring_damper_meta};

/* ---- Torque: the torque tau + u applied to a node ---- */
typedef struct ro_torque {
  ro_branch flange;
  lied_real_in u;
  double tau;
  double torque, P; /* applied torque, power delivered to the node */
} ro_torque;

static void torque_eval(const lied_env *env, ro_torque *s) {
  (void)env;
  s->torque = s->tau + s->u.y->y;
  s->flange.tau.tau = -s->torque;
  s->P = s->torque * s->flange.w->w;
}
LIED_BLOCK(torque_b, ro_torque, torque_eval)

LIED_LANE_BODY void torque_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict u = RO_LIN(ro_torque, u.y), *restrict w = RO_LIN(ro_torque, flange.w);
  const double *restrict tau = RO_LF(ro_torque, tau);
  double *restrict torque = RO_LF(ro_torque, torque), *restrict P = RO_LF(ro_torque, P);
  double *restrict t = RO_LF(ro_torque, flange.tau.tau);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    torque[l] = tau[l] + u[l];
    t[l] = -torque[l];
    P[l] = torque[l] * w[l];
  }
}
LIED_LANE_FORM(torque_lanes)

static void torque_meta(lied_meta *m, void *self) {
  ro_torque *s = self;
  lied_meta_port(m, "flange", 0, &s->flange, &ro_branch_layout);
  lied_meta_real_in_optional(m, "u", 0, &s->u);
  lied_meta_var(m, "torque", "N.m", &s->torque);
  lied_meta_var(m, "P", "W", &s->P);
  lied_meta_block(m, "torque", torque_b, 0, LIED_SIGS(&s->u.y, &s->tau, &s->flange.w),
                  LIED_SIGS(&s->flange.tau, &s->torque, &s->P));
  lied_meta_lanes(m, torque_lanes);
}

static const lied_param torque_params[] = {
    {"tau", offsetof(ro_torque, tau), 0, "N.m",
     "constant torque driving the node (the optional input u is added to it)", RO_NOMIN,
     RO_NOMAX, 0, 0},
};
const lied_class ro_torque_class = {
    "Torque", "rotational",
    "torque tau + u driving the node it is connected to (u: optional signal input); records "
    "torque and the power P it delivers",
    sizeof(ro_torque), torque_params, 1, NULL, torque_meta};

/* ---- SpeedSensor: y = w of the node ---- */
typedef struct ro_speed_sensor {
  ro_branch flange;
  lied_real_out y;
} ro_speed_sensor;

static void speed_sensor_eval(const lied_env *env, ro_speed_sensor *s) {
  (void)env;
  s->y.y.y = s->flange.w->w;
  s->flange.tau.tau = 0;
}
LIED_BLOCK(speed_sensor_b, ro_speed_sensor, speed_sensor_eval)

LIED_LANE_BODY void speed_sensor_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict w = RO_LIN(ro_speed_sensor, flange.w);
  double *restrict y = RO_LF(ro_speed_sensor, y.y.y), *restrict t = RO_LF(ro_speed_sensor, flange.tau.tau);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) y[l] = w[l], t[l] = 0;
}
LIED_LANE_FORM(speed_sensor_lanes)

static void speed_sensor_meta(lied_meta *m, void *self) {
  ro_speed_sensor *s = self;
  lied_meta_port(m, "flange", 0, &s->flange, &ro_branch_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "w", "rad/s", &s->y.y.y);
  lied_meta_block(m, "sense", speed_sensor_b, 0, LIED_SIGS(&s->flange.w),
                  LIED_SIGS(&s->y.y, &s->flange.tau));
  lied_meta_lanes(m, speed_sensor_lanes);
}
const lied_class ro_speed_sensor_class = {
    "SpeedSensor", "rotational", "y = w of the node it is connected to (takes no torque)",
    sizeof(ro_speed_sensor), NULL, 0, NULL, speed_sensor_meta};

/* ---- TorqueSensor: in series between a node (flange_a) and what it drives
 * (flange_b, a node with the same motion); y = the torque passed on ---- */
typedef struct ro_torque_sensor {
  ro_branch flange_a;
  ro_node flange_b;
  lied_real_out y;
  double P; /* power passed from flange_a to flange_b */
} ro_torque_sensor;

static void ts_motion(const lied_env *env, ro_torque_sensor *s) {
  (void)env;
  s->flange_b.phi.phi = s->flange_a.phi->phi;
  s->flange_b.w.w = s->flange_a.w->w;
}
static void ts_acc(const lied_env *env, ro_torque_sensor *s) {
  (void)env;
  s->flange_b.a.a = s->flange_a.a->a;
}
static void ts_torque(const lied_env *env, ro_torque_sensor *s) {
  (void)env;
  s->flange_a.tau.tau = s->y.y.y = s->flange_b.tau->tau;
}
static void ts_power(const lied_env *env, ro_torque_sensor *s) {
  (void)env;
  s->P = s->flange_b.tau->tau * s->flange_a.w->w;
}
LIED_BLOCK(ts_motion_b, ro_torque_sensor, ts_motion)
LIED_BLOCK(ts_acc_b, ro_torque_sensor, ts_acc)
LIED_BLOCK(ts_torque_b, ro_torque_sensor, ts_torque)
LIED_BLOCK(ts_power_b, ro_torque_sensor, ts_power)

#define LF(F) RO_LF(ro_torque_sensor, F)
#define LIN(F) RO_LIN(ro_torque_sensor, F)
LIED_LANE_BODY void ts_motion_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict p = LIN(flange_a.phi), *restrict w = LIN(flange_a.w);
  double *restrict pb = LF(flange_b.phi.phi), *restrict wb = LF(flange_b.w.w);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) pb[l] = p[l], wb[l] = w[l];
}
LIED_LANE_FORM(ts_motion_lanes)
LIED_LANE_BODY void ts_acc_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(flange_a.a);
  double *restrict ab = LF(flange_b.a.a);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) ab[l] = a[l];
}
LIED_LANE_FORM(ts_acc_lanes)
LIED_LANE_BODY void ts_torque_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict t = LIN(flange_b.tau);
  double *restrict ta = LF(flange_a.tau.tau), *restrict y = LF(y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) ta[l] = y[l] = t[l];
}
LIED_LANE_FORM(ts_torque_lanes)
LIED_LANE_BODY void ts_power_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict t = LIN(flange_b.tau), *restrict w = LIN(flange_a.w);
  double *restrict P = LF(P);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) P[l] = t[l] * w[l];
}
LIED_LANE_FORM(ts_power_lanes)
#undef LF
#undef LIN

static void ts_meta(lied_meta *m, void *self) {
  ro_torque_sensor *s = self;
  lied_meta_port(m, "flange_a", 0, &s->flange_a, &ro_branch_layout);
  lied_meta_port(m, "flange_b", 0, &s->flange_b, &ro_node_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "tau", "N.m", &s->y.y.y);
  lied_meta_var(m, "P", "W", &s->P);
  lied_meta_block(m, "motion", ts_motion_b, 0, LIED_SIGS(&s->flange_a.phi, &s->flange_a.w),
                  LIED_SIGS(&s->flange_b.phi, &s->flange_b.w));
  lied_meta_lanes(m, ts_motion_lanes);
  lied_meta_block(m, "acc", ts_acc_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->flange_a.a),
                  LIED_SIGS(&s->flange_b.a));
  lied_meta_lanes(m, ts_acc_lanes);
  lied_meta_block(m, "torque", ts_torque_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->flange_b.tau),
                  LIED_SIGS(&s->flange_a.tau, &s->y.y));
  lied_meta_lanes(m, ts_torque_lanes);
  lied_meta_block(m, "power", ts_power_b, 0, LIED_SIGS(&s->flange_b.tau, &s->flange_a.w),
                  LIED_SIGS(&s->P));
  lied_meta_lanes(m, ts_power_lanes);
}
const lied_class ro_torque_sensor_class = {
    "TorqueSensor", "rotational",
    "in series: flange_a on the driving node, flange_b a node with the same motion for what it "
    "drives; y = the torque passed on (the sum of flange_b's branches), P = y w",
    sizeof(ro_torque_sensor), NULL, 0, NULL, ts_meta};
