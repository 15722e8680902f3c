/* prismatic.c - Prismatic: a translational joint along the unit direction e
 * (given in frame_a), free or driven by a force F + u (u: optional input). */
#include "lib/mechanics/mechanics.h"

typedef struct pm_prismatic {
  pm_frame_in frame_a;
  pm_frame_out frame_b;
  lied_real_in u;
  double s, der_s, v, der_v;
  double a, res; /* tearing pair: acceleration along e, force balance */
  double ex, ey; /* e in world coordinates (rot block) */
  double dx, dy; /* s e in world coordinates (motion block) */
  double cx, cy; /* velocity-product acceleration terms (motion block) */
  double e[2];   /* parameter, normalised by init */
  double F;
  double T_D; /* dialectic time constant; 0: rigid form (docs/dialectic.md) */
} pm_prismatic;

/* The equations, written once for the block (one copy) and its lane form
 * (LIED_LANES copies of a group, lied/component.h). */

/* e in the world from its frame_a coordinates (cosine and sine of phi). */
static inline void pri_e_eq(double c, double s, double e0, double e1, double *ex, double *ey) {
  *ex = c * e0 - s * e1;
  *ey = s * e0 + c * e1;
}

/* Position d = s e and velocity v_b = v_a + w x d + v e of frame_b (v the
 * kinetic velocity); the centripetal and Coriolis terms c = -w^2 d +
 * 2 w x (v e) for the acc block. Shared by the rigid and the dialectic form. */
typedef struct pri_kin {
  pm_pos pos;
  pm_vel vel;
  double dx, dy, cx, cy;
} pri_kin;

static inline pri_kin pri_kinematics_eq(pm_pos p, pm_vel q, double s, double v, double ex,
                                        double ey) {
  double w = q.w, dx = s * ex, dy = s * ey;
  double w2 = w * w, wv2 = 2 * w * v;
  return (pri_kin){{p.x + dx, p.y + dy, p.phi},
                   {q.vx - w * dy + v * ex, q.vy + w * dx + v * ey, w},
                   dx, dy, -w2 * dx - wv2 * ey, -w2 * dy + wv2 * ex};
}

/* a_b = a_a + z x d + c + a e (inside a linear section). */
static inline pm_acc pri_acc_eq(pm_acc q, double a, double ex, double ey, double dx, double dy,
                                double cx, double cy) {
  return (pm_acc){q.ax - q.z * dy + cx + a * ex, q.ay + q.z * dx + cy + a * ey, q.z};
}

/* The force passes with its moment d x f; its part along e must equal the
 * applied force F + u (the residual). */
static inline pm_force pri_force_eq(pm_force f, double dx, double dy) {
  return (pm_force){f.fx, f.fy, f.t + dx * f.fy - dy * f.fx};
}
static inline double pri_res_eq(pm_force f, double ex, double ey, double F, double u) {
  return f.fx * ex + f.fy * ey - (F + u);
}

/* Direction in the world. Separate from motion so that it runs once
 * when frame_a is fixed. */
static void pri_rot(const lied_env *env, pm_prismatic *j) {
  (void)env;
  double phi = j->frame_a.pos->phi;
  double sn, cs;
  pm_sincos(phi, &sn, &cs);
  pri_e_eq(cs, sn, j->e[0], j->e[1], &j->ex, &j->ey);
}

static inline void pri_kinematics(pm_prismatic *j) {
  pri_kin k = pri_kinematics_eq(*j->frame_a.pos, *j->frame_a.vel, j->s, j->v, j->ex, j->ey);
  j->dx = k.dx, j->dy = k.dy, j->cx = k.cx, j->cy = k.cy;
  j->frame_b.pos = k.pos;
  j->frame_b.vel = k.vel;
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
static inline double pri_a_d_eq(double u, double v, double T_D) { return (u - v) / T_D; }

static void pri_acc_d(const lied_env *env, pm_prismatic *j) {
  (void)env;
  double u = j->a, a = pri_a_d_eq(u, j->v, j->T_D);
  j->frame_b.acc = pri_acc_eq(*j->frame_a.acc, a, j->ex, j->ey, j->dx, j->dy, j->cx, j->cy);
  j->der_v = a;
  j->der_s = u;
}

static void pri_acc(const lied_env *env, pm_prismatic *j) {
  (void)env;
  j->frame_b.acc = pri_acc_eq(*j->frame_a.acc, j->a, j->ex, j->ey, j->dx, j->dy, j->cx, j->cy);
  j->der_v = j->a;
}

static void pri_force(const lied_env *env, pm_prismatic *j) {
  (void)env;
  const pm_force f = *j->frame_b.force;
  j->frame_a.force = pri_force_eq(f, j->dx, j->dy);
  j->res = pri_res_eq(f, j->ex, j->ey, j->F, j->u.y->y);
}
LIED_BLOCK(pri_rot_block, pm_prismatic, pri_rot)
LIED_BLOCK(pri_motion_block, pm_prismatic, pri_motion)
LIED_BLOCK(pri_acc_block, pm_prismatic, pri_acc)
LIED_BLOCK(pri_force_block, pm_prismatic, pri_force)
LIED_BLOCK(pri_motion_d_block, pm_prismatic, pri_motion_d)
LIED_BLOCK(pri_acc_d_block, pm_prismatic, pri_acc_d)

/* Lane forms: field F of the group, the signal behind reading pointer F. */
#define LF(F) LIED_LANE(pm_prismatic, g, F)
#define LIN(F) LIED_LANE_IN(pm_prismatic, g, F)

LIED_LANE_BODY void pri_rot_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict p = LIN(frame_a.pos), *restrict e0 = LF(e[0]), *restrict e1 = LF(e[1]);
  double *restrict ex = LF(ex), *restrict ey = LF(ey);
  double c[LIED_LANES], s[LIED_LANES];
  pm_cos_sin_lanes(p, n, c, s);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) pri_e_eq(c[l], s[l], e0[l], e1[l], &ex[l], &ey[l]);
}
LIED_LANE_FORM(pri_rot_lanes)

/* Both forms' motion; der_s (rigid form) when not NULL. */
static inline void pri_motion_lanes_(char *g, size_t n, double *restrict der_s) {
  const double *restrict p = LIN(frame_a.pos), *restrict q = LIN(frame_a.vel);
  const double *restrict s = LF(s), *restrict v = LF(v), *restrict ex = LF(ex),
                         *restrict ey = LF(ey);
  double *restrict pos = LF(frame_b.pos), *restrict vel = LF(frame_b.vel);
  double *restrict dx = LF(dx), *restrict dy = LF(dy), *restrict cx = LF(cx), *restrict cy = LF(cy);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pri_kin k = pri_kinematics_eq(PM_POS(p, l), PM_VEL(q, l), s[l], v[l], ex[l], ey[l]);
    dx[l] = k.dx, dy[l] = k.dy, cx[l] = k.cx, cy[l] = k.cy;
    pm_put_pos(pos, l, k.pos);
    pm_put_vel(vel, l, k.vel);
  }
  if (der_s)
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) der_s[l] = v[l];
}

LIED_LANE_BODY void pri_motion_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  pri_motion_lanes_(g, n, LF(der_s));
}
LIED_LANE_FORM(pri_motion_lanes)

LIED_LANE_BODY void pri_motion_d_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  pri_motion_lanes_(g, n, NULL);
}
LIED_LANE_FORM(pri_motion_d_lanes)

LIED_LANE_BODY void pri_acc_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict q = LIN(frame_a.acc), *restrict a = LF(a);
  const double *restrict ex = LF(ex), *restrict ey = LF(ey), *restrict dx = LF(dx),
                         *restrict dy = LF(dy), *restrict cx = LF(cx), *restrict cy = LF(cy);
  double *restrict acc = LF(frame_b.acc), *restrict der_v = LF(der_v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pm_put_acc(acc, l, pri_acc_eq(PM_ACC(q, l), a[l], ex[l], ey[l], dx[l], dy[l], cx[l], cy[l]));
    der_v[l] = a[l];
  }
}
LIED_LANE_FORM(pri_acc_lanes)

LIED_LANE_BODY void pri_acc_d_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict q = LIN(frame_a.acc), *restrict ta = LF(a), *restrict v = LF(v),
                         *restrict T_D = LF(T_D);
  const double *restrict ex = LF(ex), *restrict ey = LF(ey), *restrict dx = LF(dx),
                         *restrict dy = LF(dy), *restrict cx = LF(cx), *restrict cy = LF(cy);
  double *restrict acc = LF(frame_b.acc), *restrict der_v = LF(der_v), *restrict der_s = LF(der_s);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    double u = ta[l], a = pri_a_d_eq(u, v[l], T_D[l]);
    pm_put_acc(acc, l, pri_acc_eq(PM_ACC(q, l), a, ex[l], ey[l], dx[l], dy[l], cx[l], cy[l]));
    der_v[l] = a;
    der_s[l] = u;
  }
}
LIED_LANE_FORM(pri_acc_d_lanes)

LIED_LANE_BODY void pri_force_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict f = LIN(frame_b.force), *restrict u = LIN(u.y);
  const double *restrict ex = LF(ex), *restrict ey = LF(ey), *restrict dx = LF(dx),
                         *restrict dy = LF(dy), *restrict F = LF(F);
  double *restrict force = LF(frame_a.force), *restrict res = LF(res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    const pm_force fl = PM_FORCE(f, l);
    pm_put_force(force, l, pri_force_eq(fl, dx[l], dy[l]));
    res[l] = pri_res_eq(fl, ex[l], ey[l], F[l], u[l]);
  }
}
LIED_LANE_FORM(pri_force_lanes)
#undef LF
#undef LIN

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
  lied_meta_real_in_optional(m, "u", 0, &j->u);
  lied_meta_state(m, "s", "m", &j->s, &j->der_s);
  lied_meta_state(m, "v", "m/s", &j->v, &j->der_v);
  lied_meta_block(m, "rot", pri_rot_block, 0, LIED_SIGS(&j->frame_a.pos, &j->e[0], &j->e[1]),
                  LIED_SIGS(&j->ex, &j->ey));
  lied_meta_lanes(m, pri_rot_lanes);
  if (j->T_D > 0) {
    /* dialectic form: tearing variable = elastic velocity v_el */
    lied_meta_tear(m, "v_el", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", pri_motion_d_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->s, &j->v, &j->ex, &j->ey),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->dx, &j->dy, &j->cx, &j->cy));
    lied_meta_lanes(m, pri_motion_d_lanes);
    lied_meta_block(m, "acc", pri_acc_d_block, 0,
                    LIED_SIGS(&j->frame_a.acc, &j->a, &j->v, &j->T_D, &j->ex, &j->ey, &j->dx,
                              &j->dy, &j->cx, &j->cy),
                    LIED_SIGS(&j->frame_b.acc, &j->der_v, &j->der_s));
    lied_meta_lanes(m, pri_acc_d_lanes);
  } else {
    lied_meta_tear(m, "a", &j->a, "res", &j->res);
    lied_meta_block(m, "motion", pri_motion_block, 0,
                    LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->s, &j->v, &j->ex, &j->ey),
                    LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->dx, &j->dy, &j->der_s,
                              &j->cx, &j->cy));
    lied_meta_lanes(m, pri_motion_lanes);
    /* coefficients dx, dy, ex, ey depend on states: not constant */
    lied_meta_block(m, "acc", pri_acc_block, 0,
                    LIED_SIGS(&j->frame_a.acc, &j->a, &j->ex, &j->ey, &j->dx, &j->dy, &j->cx,
                              &j->cy),
                    LIED_SIGS(&j->frame_b.acc, &j->der_v));
    lied_meta_lanes(m, pri_acc_lanes);
  }
  lied_meta_block(m, "force", pri_force_block, 0,
                  LIED_SIGS(&j->frame_b.force, &j->u.y, &j->F, &j->ex, &j->ey, &j->dx, &j->dy),
                  LIED_SIGS(&j->frame_a.force, &j->res));
  lied_meta_lanes(m, pri_force_lanes);
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
