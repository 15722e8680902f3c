/* prismatic.c - Prismatic: a translational joint along the unit direction e
 * (given in frame_a), free or driven by a force F + u (u: optional input). */
#include "lib/mechanics/mechanics.h"

typedef struct pm_prismatic {
  pm_frame_in frame_a;
  pm_frame_out frame_b;
  pm_real_in u;
  double s, der_s, v, der_v;
  double a, res; /* tearing pair: acceleration along e, force balance */
  double ex, ey; /* e in world coordinates (rot block) */
  double dx, dy; /* s e in world coordinates (motion block) */
  double cx, cy; /* velocity-product acceleration terms (motion block) */
  double e[2];   /* parameter, normalised by init */
  double F;
  double T_D; /* dialectic time constant; 0: rigid form (docs/dialectic.md) */
} pm_prismatic;

/* Direction in the world. Separate from motion so that it runs once
 * when frame_a is fixed. */
static void pri_rot(const lied_env *env, pm_prismatic *j) {
  (void)env;
  double phi = j->frame_a.pos->phi;
  double c = cos(phi), s = sin(phi);
  j->ex = c * j->e[0] - s * j->e[1];
  j->ey = s * j->e[0] + c * j->e[1];
}

/* Position d = s e and velocity v_b = v_a + w x d + v e of frame_b (v the
 * kinetic velocity); the centripetal and Coriolis terms -w^2 d + 2 w x (v e)
 * for the acc block. Shared by the rigid and the dialectic form. */
static inline void pri_kinematics(pm_prismatic *j) {
  const pm_pos *p = j->frame_a.pos;
  const pm_vel *q = j->frame_a.vel;
  double ex = j->ex, ey = j->ey, v = j->v, w = q->w;
  double dx = j->s * ex, dy = j->s * ey;
  j->dx = dx;
  j->dy = dy;
  j->frame_b.pos = (pm_pos){p->x + dx, p->y + dy, p->phi};
  j->frame_b.vel = (pm_vel){q->vx - w * dy + v * ex, q->vy + w * dx + v * ey, w};
  double w2 = w * w, wv2 = 2 * w * v;
  j->cx = -w2 * dx - wv2 * ey;
  j->cy = -w2 * dy + wv2 * ex;
}

/* Rigid form: the position follows v. */
static void pri_motion(const lied_env *env, pm_prismatic *j) {
  (void)env;
  pri_kinematics(j);
  j->der_s = j->v;
}

/* Dialectic form: the position follows the elastic velocity (der_s is
 * written by acc_d). */
static void pri_motion_d(const lied_env *env, pm_prismatic *j) {
  (void)env;
  pri_kinematics(j);
}

/* Dialectic form: the tearing variable (stored in a) is the elastic
 * velocity u; der(s) = u and the kinetic acceleration is
 * der(v) = (u - v) / T_D. */
static void pri_acc_d(const lied_env *env, pm_prismatic *j) {
  (void)env;
  const pm_acc *q = j->frame_a.acc;
  double z = q->z, u = j->a, a = (u - j->v) / j->T_D;
  j->frame_b.acc = (pm_acc){q->ax - z * j->dy + j->cx + a * j->ex,
                            q->ay + z * j->dx + j->cy + a * j->ey, z};
  j->der_v = a;
  j->der_s = u;
}

/* a_b = a_a + z x d + (velocity terms) + a e (inside a linear section). */
static void pri_acc(const lied_env *env, pm_prismatic *j) {
  (void)env;
  const pm_acc *q = j->frame_a.acc;
  double z = q->z, a = j->a;
  j->frame_b.acc = (pm_acc){q->ax - z * j->dy + j->cx + a * j->ex,
                            q->ay + z * j->dx + j->cy + a * j->ey, z};
  j->der_v = a;
}

/* The force passes with its moment d x f; its part along e must equal the
 * applied force. */
static void pri_force(const lied_env *env, pm_prismatic *j) {
  (void)env;
  const pm_force *f = j->frame_b.force;
  j->frame_a.force = (pm_force){f->fx, f->fy, f->t + j->dx * f->fy - j->dy * f->fx};
  j->res = f->fx * j->ex + f->fy * j->ey - (j->F + j->u.u->y);
}
LIED_BLOCK(pri_rot_block, pm_prismatic, pri_rot)
LIED_BLOCK(pri_motion_block, pm_prismatic, pri_motion)
LIED_BLOCK(pri_acc_block, pm_prismatic, pri_acc)
LIED_BLOCK(pri_force_block, pm_prismatic, pri_force)
LIED_BLOCK(pri_motion_d_block, pm_prismatic, pri_motion_d)
LIED_BLOCK(pri_acc_d_block, pm_prismatic, pri_acc_d)

/* Normalise e. */
static int pri_init(void *self, lied_init *ctx) {
  pm_prismatic *j = self;
  double n = hypot(j->e[0], j->e[1]);
  if (!(n > 0)) {
    lied_init_error(ctx, "parameter e = {%g, %g}: the direction must not be zero", j->e[0],
                    j->e[1]);
    return -1;
  }
  j->e[0] /= n;
  j->e[1] /= n;
  return 0;
}

static void pri_meta(lied_meta *m, void *self) {
  pm_prismatic *j = self;
  lied_meta_port(m, "frame_a", 0, &j->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &j->frame_b, &pm_out_layout);
  lied_meta_port(m, "u", 0, &j->u, &pm_real_in_layout);
  lied_meta_state(m, "s", "m", &j->s, &j->der_s);
  lied_meta_state(m, "v", "m/s", &j->v, &j->der_v);
  lied_meta_block(m, "rot", pri_rot_block, 0, LIED_SIGS(&j->frame_a.pos, &j->e[0], &j->e[1]),
                  LIED_SIGS(&j->ex, &j->ey));
  if (j->T_D > 0) {
    /* dialectic form: tearing variable = elastic velocity v_el */
    lied_meta_tear(m, "v_el", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", pri_motion_d_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->s, &j->v, &j->ex, &j->ey),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->dx, &j->dy, &j->cx, &j->cy));
    lied_meta_block(m, "acc", pri_acc_d_block, 0,
                    LIED_SIGS(&j->frame_a.acc, &j->a, &j->v, &j->T_D, &j->ex, &j->ey, &j->dx,
                              &j->dy, &j->cx, &j->cy),
                    LIED_SIGS(&j->frame_b.acc, &j->der_v, &j->der_s));
  } else {
    lied_meta_tear(m, "a", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", pri_motion_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->s, &j->v, &j->ex, &j->ey),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->dx, &j->dy, &j->der_s,
                              &j->cx, &j->cy));
    /* coefficients dx, dy, ex, ey depend on states: not constant */
    lied_meta_block(m, "acc", pri_acc_block, 0,
                    LIED_SIGS(&j->frame_a.acc, &j->a, &j->ex, &j->ey, &j->dx, &j->dy, &j->cx,
                              &j->cy),
                    LIED_SIGS(&j->frame_b.acc, &j->der_v));
  }
  lied_meta_block(m, "force", pri_force_block, 0,
                  LIED_SIGS(&j->frame_b.force, &j->u.u, &j->F, &j->ex, &j->ey, &j->dx, &j->dy),
                  LIED_SIGS(&j->frame_a.force, &j->res));
}

static const double pri_e_default[2] = {1, 0};
static const lied_param pri_params[] = {
    {"e", offsetof(pm_prismatic, e), 0, "1", "direction of motion in frame_a {ex, ey}, normalised",
     PM_NOMIN, PM_NOMAX, 0, 2, pri_e_default},
    {"s", offsetof(pm_prismatic, s), 0, "m", "start value of the relative position", PM_NOMIN,
     PM_NOMAX, 0, 0},
    {"v", offsetof(pm_prismatic, v), 0, "m/s", "start value of the relative velocity",
     PM_NOMIN, PM_NOMAX, 0, 0},
    {"F", offsetof(pm_prismatic, F), 0, "N", "constant force driving the joint (added to input u)",
     PM_NOMIN, PM_NOMAX, 0, 0},
    {"T_D", offsetof(pm_prismatic, T_D), 0, "s",
     "dialectic time constant: 0 rigid form (tearing: acceleration a), > 0 dialectic form "
     "(tearing: elastic velocity v_el, der(v) = (v_el - v)/T_D)",
     0, PM_NOMAX, 0, 0},
};
const lied_class pm_prismatic_class = {
    "Prismatic", "mechanics",
    "prismatic joint: frame_b moved by s e (e in frame_a); driving force F + u along e",
    sizeof(pm_prismatic), pri_params, 5, pri_init, pri_meta};
