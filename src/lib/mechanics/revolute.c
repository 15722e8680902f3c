/* revolute.c - Revolute: a rotational joint with relative angle phi, free or
 * driven by a torque tau + u (u: optional real input). */
#include "lib/mechanics/mechanics.h"

typedef struct pm_revolute {
  pm_frame_in frame_a;
  pm_frame_out frame_b;
  lied_real_in u;
  double phi, der_phi, w, der_w;
  double a, res; /* tearing pair: angular acceleration, torque balance */
  double tau;
  double T_D; /* dialectic time constant; 0: rigid form (docs/dialectic.md) */
} pm_revolute;

/* The equations, written once for the block (one copy) and its lane form
 * (LIED_LANES copies of a group, lied/component.h). Position and velocity
 * of frame_b (one block: one pass over the instances; neither depends on a
 * linear section) are shared by the rigid and the dialectic form (w is the
 * kinetic angular velocity). */
static inline pm_pos rev_pos_eq(pm_pos a, double phi) { return (pm_pos){a.x, a.y, a.phi + phi}; }
static inline pm_vel rev_vel_eq(pm_vel a, double w) { return (pm_vel){a.vx, a.vy, a.w + w}; }
/* a_b = a_a + z about the joint axis */
static inline pm_acc rev_acc_eq(pm_acc a, double z) { return (pm_acc){a.ax, a.ay, a.z + z}; }
/* Dialectic form: the angle follows the elastic angular velocity u (the
 * tearing variable, stored in a): der(phi) = u, der(w) = (u - w) / T_D. */
static inline double rev_z_d_eq(double u, double w, double T_D) { return (u - w) / T_D; }
/* The force passes to frame_a; the torque frame_b needs must equal the
 * applied torque. */
static inline double rev_res_eq(pm_force f, double tau, double u) { return f.t - (tau + u); }

static void rev_motion(const lied_env *env, pm_revolute *j) {
  (void)env;
  j->frame_b.pos = rev_pos_eq(*j->frame_a.pos, j->phi);
  j->frame_b.vel = rev_vel_eq(*j->frame_a.vel, j->w);
  j->der_phi = j->w;
}

static void rev_acc(const lied_env *env, pm_revolute *j) {
  (void)env;
  j->frame_b.acc = rev_acc_eq(*j->frame_a.acc, j->a);
  j->der_w = j->a;
}

static void rev_motion_d(const lied_env *env, pm_revolute *j) {
  (void)env;
  j->frame_b.pos = rev_pos_eq(*j->frame_a.pos, j->phi);
  j->frame_b.vel = rev_vel_eq(*j->frame_a.vel, j->w);
}

static void rev_acc_d(const lied_env *env, pm_revolute *j) {
  (void)env;
  double u = j->a, z = rev_z_d_eq(u, j->w, j->T_D);
  j->frame_b.acc = rev_acc_eq(*j->frame_a.acc, z);
  j->der_w = z;
  j->der_phi = u;
}

static void rev_force(const lied_env *env, pm_revolute *j) {
  (void)env;
  const pm_force f = *j->frame_b.force;
  j->frame_a.force = f;
  j->res = rev_res_eq(f, j->tau, j->u.y->y);
}
LIED_BLOCK(rev_motion_block, pm_revolute, rev_motion)
LIED_BLOCK(rev_acc_block, pm_revolute, rev_acc)
LIED_BLOCK(rev_force_block, pm_revolute, rev_force)
LIED_BLOCK(rev_motion_d_block, pm_revolute, rev_motion_d)
LIED_BLOCK(rev_acc_d_block, pm_revolute, rev_acc_d)

/* Lane forms: field F of the group, the signal behind reading pointer F. */
#define LF(F) LIED_LANE(pm_revolute, g, F)
#define LIN(F) LIED_LANE_IN(pm_revolute, g, F)

LIED_LANE_BODY void rev_motion_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict p = LIN(frame_a.pos), *restrict v = LIN(frame_a.vel);
  const double *restrict phi = LF(phi), *restrict w = LF(w);
  double *restrict pos = LF(frame_b.pos), *restrict vel = LF(frame_b.vel);
  double *restrict der_phi = LF(der_phi);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pm_put_pos(pos, l, rev_pos_eq(PM_POS(p, l), phi[l]));
    pm_put_vel(vel, l, rev_vel_eq(PM_VEL(v, l), w[l]));
    der_phi[l] = w[l];
  }
}
LIED_LANE_FORM(rev_motion_lanes)

LIED_LANE_BODY void rev_acc_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(frame_a.acc), *restrict ta = LF(a);
  double *restrict acc = LF(frame_b.acc), *restrict der_w = LF(der_w);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pm_put_acc(acc, l, rev_acc_eq(PM_ACC(a, l), ta[l]));
    der_w[l] = ta[l];
  }
}
LIED_LANE_FORM(rev_acc_lanes)

LIED_LANE_BODY void rev_motion_d_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict p = LIN(frame_a.pos), *restrict v = LIN(frame_a.vel);
  const double *restrict phi = LF(phi), *restrict w = LF(w);
  double *restrict pos = LF(frame_b.pos), *restrict vel = LF(frame_b.vel);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pm_put_pos(pos, l, rev_pos_eq(PM_POS(p, l), phi[l]));
    pm_put_vel(vel, l, rev_vel_eq(PM_VEL(v, l), w[l]));
  }
}
LIED_LANE_FORM(rev_motion_d_lanes)

LIED_LANE_BODY void rev_acc_d_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(frame_a.acc), *restrict ta = LF(a), *restrict w = LF(w);
  const double *restrict T_D = LF(T_D);
  double *restrict acc = LF(frame_b.acc), *restrict der_w = LF(der_w);
  double *restrict der_phi = LF(der_phi);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    double u = ta[l], z = rev_z_d_eq(u, w[l], T_D[l]);
    pm_put_acc(acc, l, rev_acc_eq(PM_ACC(a, l), z));
    der_w[l] = z;
    der_phi[l] = u;
  }
}
LIED_LANE_FORM(rev_acc_d_lanes)

LIED_LANE_BODY void rev_force_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict f = LIN(frame_b.force), *restrict u = LIN(u.y);
  const double *restrict tau = LF(tau);
  double *restrict force = LF(frame_a.force), *restrict res = LF(res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    const pm_force fl = PM_FORCE(f, l);
    pm_put_force(force, l, fl);
    res[l] = rev_res_eq(fl, tau[l], u[l]);
  }
}
LIED_LANE_FORM(rev_force_lanes)
#undef LF
#undef LIN

static void rev_meta(lied_meta *m, void *self) {
  pm_revolute *j = self;
  lied_meta_port(m, "frame_a", 0, &j->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &j->frame_b, &pm_out_layout);
  lied_meta_real_in_optional(m, "u", 0, &j->u);
  lied_meta_state(m, "phi", "rad", &j->phi, &j->der_phi);
  lied_meta_state(m, "w", "rad/s", &j->w, &j->der_w);
  if (j->T_D > 0) {
    /* dialectic form: tearing variable = elastic angular velocity w_el;
     * affine with parameter coefficients (1/T_D): constant */
    lied_meta_tear(m, "w_el", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", rev_motion_d_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->phi, &j->w),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel));
    lied_meta_lanes(m, rev_motion_d_lanes);
    lied_meta_block(m, "acc", rev_acc_d_block, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&j->frame_a.acc, &j->a, &j->w, &j->T_D),
                    LIED_SIGS(&j->frame_b.acc, &j->der_w, &j->der_phi));
    lied_meta_lanes(m, rev_acc_d_lanes);
  } else {
    lied_meta_tear(m, "a", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", rev_motion_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->phi, &j->w),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->der_phi));
    lied_meta_lanes(m, rev_motion_lanes);
    lied_meta_block(m, "acc", rev_acc_block, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&j->frame_a.acc, &j->a), LIED_SIGS(&j->frame_b.acc, &j->der_w));
    lied_meta_lanes(m, rev_acc_lanes);
  }
  lied_meta_block(m, "force", rev_force_block, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&j->frame_b.force, &j->u.y, &j->tau),
                  LIED_SIGS(&j->frame_a.force, &j->res));
  lied_meta_lanes(m, rev_force_lanes);
}

static const lied_param rev_params[] = {
    {"phi", offsetof(pm_revolute, phi), 0, "rad", "start value of the relative angle",
     PM_NOMIN, PM_NOMAX, 0, 0},
    {"w", offsetof(pm_revolute, w), 0, "rad/s", "start value of the relative angular velocity",
     PM_NOMIN, PM_NOMAX, 0, 0},
    {"tau", offsetof(pm_revolute, tau), 0, "N.m",
     "constant torque driving the joint (added to input u)", PM_NOMIN, PM_NOMAX, 0, 0},
    {"T_D", offsetof(pm_revolute, T_D), 0, "s",
     "dialectic time constant: 0 rigid form (tearing: angular acceleration a), > 0 dialectic "
     "form (tearing: elastic angular velocity w_el, der(w) = (w_el - w)/T_D)",
     0, PM_NOMAX, 0, 0},
};
const lied_class pm_revolute_class = {
    "Revolute", "mechanics",
    "revolute joint: frame_b turned by phi about frame_a's origin; driving torque tau + u",
    sizeof(pm_revolute), rev_params, 4, NULL, rev_meta};
