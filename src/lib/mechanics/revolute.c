/* revolute.c - Revolute: a rotational joint with relative angle phi, free or
 * driven by a torque tau + u (u: optional real input). */
#include "lib/mechanics/mechanics.h"

typedef struct pm_revolute {
  pm_frame_in frame_a;
  pm_frame_out frame_b;
  pm_real_in u;
  double phi, der_phi, w, der_w;
  double a, res; /* tearing pair: angular acceleration, torque balance */
  double tau;
  double T_D; /* dialectic time constant; 0: rigid form (docs/dialectic.md) */
} pm_revolute;

/* Position and velocity of frame_b (one block: one pass over the
 * instances; neither depends on a linear section). Shared by the rigid and
 * the dialectic form (w is the kinetic angular velocity). */
static inline void rev_kinematics(pm_revolute *j) {
  const pm_pos *p = j->frame_a.pos;
  const pm_vel *v = j->frame_a.vel;
  j->frame_b.pos = (pm_pos){p->x, p->y, p->phi + j->phi};
  j->frame_b.vel = (pm_vel){v->vx, v->vy, v->w + j->w};
}

static void rev_motion(const lied_env *env, pm_revolute *j) {
  (void)env;
  rev_kinematics(j);
  j->der_phi = j->w;
}

static void rev_acc(const lied_env *env, pm_revolute *j) {
  (void)env;
  const pm_acc *a = j->frame_a.acc;
  j->frame_b.acc = (pm_acc){a->ax, a->ay, a->z + j->a};
  j->der_w = j->a;
}

/* Dialectic form: motion with the kinetic angular velocity w; the angle
 * follows the elastic angular velocity u (the tearing variable, stored in
 * a): der(phi) = u, der(w) = (u - w) / T_D. */
static void rev_motion_d(const lied_env *env, pm_revolute *j) {
  (void)env;
  rev_kinematics(j);
}

static void rev_acc_d(const lied_env *env, pm_revolute *j) {
  (void)env;
  const pm_acc *a = j->frame_a.acc;
  double u = j->a, z = (u - j->w) / j->T_D;
  j->frame_b.acc = (pm_acc){a->ax, a->ay, a->z + z};
  j->der_w = z;
  j->der_phi = u;
}

/* Force and torque pass to frame_a; the torque frame_b needs must equal the
 * applied torque. */
static void rev_force(const lied_env *env, pm_revolute *j) {
  (void)env;
  const pm_force *f = j->frame_b.force;
  j->frame_a.force = *f;
  j->res = f->t - (j->tau + j->u.u->y);
}
LIED_BLOCK(rev_motion_block, pm_revolute, rev_motion)
LIED_BLOCK(rev_acc_block, pm_revolute, rev_acc)
LIED_BLOCK(rev_force_block, pm_revolute, rev_force)
LIED_BLOCK(rev_motion_d_block, pm_revolute, rev_motion_d)
LIED_BLOCK(rev_acc_d_block, pm_revolute, rev_acc_d)

static void rev_meta(lied_meta *m, void *self) {
  pm_revolute *j = self;
  lied_meta_port(m, "frame_a", 0, &j->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &j->frame_b, &pm_out_layout);
  lied_meta_port(m, "u", 0, &j->u, &pm_real_in_layout);
  lied_meta_state(m, "phi", "rad", &j->phi, &j->der_phi);
  lied_meta_state(m, "w", "rad/s", &j->w, &j->der_w);
  if (j->T_D > 0) {
    /* dialectic form: tearing variable = elastic angular velocity w_el;
     * affine with parameter coefficients (1/T_D): constant */
    lied_meta_tear(m, "w_el", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", rev_motion_d_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->phi, &j->w),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel));
    lied_meta_block(m, "acc", rev_acc_d_block, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&j->frame_a.acc, &j->a, &j->w, &j->T_D),
                    LIED_SIGS(&j->frame_b.acc, &j->der_w, &j->der_phi));
  } else {
    lied_meta_tear(m, "a", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", rev_motion_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->phi, &j->w),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->der_phi));
    lied_meta_block(m, "acc", rev_acc_block, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&j->frame_a.acc, &j->a), LIED_SIGS(&j->frame_b.acc, &j->der_w));
  }
  lied_meta_block(m, "force", rev_force_block, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&j->frame_b.force, &j->u.u, &j->tau),
                  LIED_SIGS(&j->frame_a.force, &j->res));
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
