/* line_force.c - Spring, Damper, SpringDamper: massless line elements
 * between the origins of two frames (both ports are frame_a-side inputs,
 * each connected to some frame_b). Rigid form (T_D = 0): they read
 * positions (and velocities) and push the line force to both frames; they
 * never enter a linear section. Dialectic form (T_D > 0, docs/dialectic.md):
 * the tension is evaluated at the length anticipated over T_D with the
 * elastic velocities, f = c (s + T_D ds_el - s_unstretched) + d ds_el,
 * ds_el = ds + T_D dds (frame elastic velocity = vel + T_D acc), so the
 * force is affine in the accelerations and the element joins the linear
 * section of the frames it connects. */
#include "lib/mechanics/mechanics.h"

/* Common head: the two frames, the length s and the tension f (> 0 pulls
 * the frames together). */
typedef struct pm_line {
  pm_frame_in frame_a, frame_b;
  double s, f;
  double ux, uy; /* dialectic form: unit vector a -> b (geometry block) */
  double f0, k;  /* dialectic form: f = f0 + k (acc_b - acc_a) . u */
  double T_D;    /* dialectic time constant (parameter) */
} pm_line;

typedef struct pm_spring {
  pm_line l;
  double c, s_unstretched;
} pm_spring;

typedef struct pm_damper {
  pm_line l;
  double d;
} pm_damper;

typedef struct pm_spring_damper {
  pm_line l;
  double c, d, s_unstretched;
} pm_spring_damper;

/* Write the tension f along the unit vector (ux, uy) from a to b: frame_b
 * must hold the element with +f u, frame_a with -f u. */
static inline void line_push(pm_line *l, double f, double ux, double uy) {
  l->f = f;
  l->frame_b.force = (pm_force){f * ux, f * uy, 0};
  l->frame_a.force = (pm_force){-f * ux, -f * uy, 0};
}

/* Relative position b - a, its length, and 1/length (0 at zero length, where
 * the direction is undefined and the line force is taken as 0). */
static inline double line_geometry(pm_line *l, double *dx, double *dy, double *inv) {
  const pm_pos *a = l->frame_a.pos, *b = l->frame_b.pos;
  *dx = b->x - a->x;
  *dy = b->y - a->y;
  double s = sqrt(*dx * *dx + *dy * *dy);
  *inv = s > 0 ? 1 / s : 0;
  l->s = s;
  return s;
}

/* Rate of change of the length: (v_b - v_a) . u */
static inline double line_rate(const pm_line *l, double ux, double uy) {
  const pm_vel *a = l->frame_a.vel, *b = l->frame_b.vel;
  return (b->vx - a->vx) * ux + (b->vy - a->vy) * uy;
}

/* f = c (s - s_unstretched) */
static void spring_eval(const lied_env *env, pm_spring *k) {
  (void)env;
  double dx, dy, inv;
  double s = line_geometry(&k->l, &dx, &dy, &inv);
  line_push(&k->l, k->c * (s - k->s_unstretched), dx * inv, dy * inv);
}

/* f = d ds/dt */
static void damper_eval(const lied_env *env, pm_damper *k) {
  (void)env;
  double dx, dy, inv;
  line_geometry(&k->l, &dx, &dy, &inv);
  double ux = dx * inv, uy = dy * inv;
  line_push(&k->l, k->d * line_rate(&k->l, ux, uy), ux, uy);
}

/* f = c (s - s_unstretched) + d ds/dt */
static void spring_damper_eval(const lied_env *env, pm_spring_damper *k) {
  (void)env;
  double dx, dy, inv;
  double s = line_geometry(&k->l, &dx, &dy, &inv);
  double ux = dx * inv, uy = dy * inv;
  line_push(&k->l, k->c * (s - k->s_unstretched) + k->d * line_rate(&k->l, ux, uy), ux, uy);
}
/* Dialectic form. Geometry block (explicit): direction, the tension with
 * kinetic velocities, and the coefficient on the relative acceleration;
 * D is the velocity coefficient c T_D + d. */
static inline void line_geometry_d(pm_line *l, double c, double d, double s0) {
  double dx, dy, inv;
  double s = line_geometry(l, &dx, &dy, &inv);
  double ux = dx * inv, uy = dy * inv, D = c * l->T_D + d;
  l->ux = ux;
  l->uy = uy;
  l->f0 = c * (s - s0) + D * line_rate(l, ux, uy);
  l->k = D * l->T_D;
}
static void spring_geo_d(const lied_env *env, pm_spring *k) {
  (void)env;
  line_geometry_d(&k->l, k->c, 0, k->s_unstretched);
}
static void damper_geo_d(const lied_env *env, pm_damper *k) {
  (void)env;
  line_geometry_d(&k->l, 0, k->d, 0);
}
static void spring_damper_geo_d(const lied_env *env, pm_spring_damper *k) {
  (void)env;
  line_geometry_d(&k->l, k->c, k->d, k->s_unstretched);
}
/* Force block (inside the linear section): affine in the accelerations. */
static inline void line_force_d(pm_line *l) {
  const pm_acc *a = l->frame_a.acc, *b = l->frame_b.acc;
  double r = (b->ax - a->ax) * l->ux + (b->ay - a->ay) * l->uy;
  line_push(l, l->f0 + l->k * r, l->ux, l->uy);
}
static void spring_force_d(const lied_env *env, pm_spring *k) {
  (void)env;
  line_force_d(&k->l);
}
static void damper_force_d(const lied_env *env, pm_damper *k) {
  (void)env;
  line_force_d(&k->l);
}
static void spring_damper_force_d(const lied_env *env, pm_spring_damper *k) {
  (void)env;
  line_force_d(&k->l);
}
LIED_BLOCK(spring_geo_d_block, pm_spring, spring_geo_d)
LIED_BLOCK(damper_geo_d_block, pm_damper, damper_geo_d)
LIED_BLOCK(spring_damper_geo_d_block, pm_spring_damper, spring_damper_geo_d)
LIED_BLOCK(spring_force_d_block, pm_spring, spring_force_d)
LIED_BLOCK(damper_force_d_block, pm_damper, damper_force_d)
LIED_BLOCK(spring_damper_force_d_block, pm_spring_damper, spring_damper_force_d)
LIED_BLOCK(spring_block, pm_spring, spring_eval)
LIED_BLOCK(damper_block, pm_damper, damper_eval)
LIED_BLOCK(spring_damper_block, pm_spring_damper, spring_damper_eval)

/* Ports and variables of the common head. */
static void line_meta(lied_meta *m, pm_line *l) {
  lied_meta_port(m, "frame_a", 0, &l->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &l->frame_b, &pm_in_layout);
  lied_meta_var(m, "s", "m", &l->s);
  lied_meta_var(m, "f", "N", &l->f);
}

/* Dialectic blocks: geometry (explicit; reads positions, velocities and the
 * given parameters) and force (in the section; reads accelerations). */
static void line_meta_d(lied_meta *m, pm_line *l, lied_block_fn geo, lied_block_fn force,
                        const double *p1, const double *p2, const double *p3) {
  lied_meta_block(m, "geometry", geo, 0,
                  LIED_SIGS(&l->frame_a.pos, &l->frame_b.pos, &l->frame_a.vel,
                            &l->frame_b.vel, &l->T_D, p1, p2, p3),
                  LIED_SIGS(&l->s, &l->ux, &l->uy, &l->f0, &l->k));
  lied_meta_block(m, "force", force, 0,
                  LIED_SIGS(&l->frame_a.acc, &l->frame_b.acc, &l->ux, &l->uy, &l->f0, &l->k),
                  LIED_SIGS(&l->frame_a.force, &l->frame_b.force, &l->f));
}

static void spring_meta(lied_meta *m, void *self) {
  pm_spring *k = self;
  line_meta(m, &k->l);
  if (k->l.T_D > 0) {
    line_meta_d(m, &k->l, spring_geo_d_block, spring_force_d_block, &k->c, &k->s_unstretched,
                &k->c);
    return;
  }
  lied_meta_block(m, "force", spring_block, 0,
                  LIED_SIGS(&k->l.frame_a.pos, &k->l.frame_b.pos, &k->c, &k->s_unstretched),
                  LIED_SIGS(&k->l.frame_a.force, &k->l.frame_b.force, &k->l.s, &k->l.f));
}

static void damper_meta(lied_meta *m, void *self) {
  pm_damper *k = self;
  line_meta(m, &k->l);
  if (k->l.T_D > 0) {
    line_meta_d(m, &k->l, damper_geo_d_block, damper_force_d_block, &k->d, &k->d, &k->d);
    return;
  }
  lied_meta_block(m, "force", damper_block, 0,
                  LIED_SIGS(&k->l.frame_a.pos, &k->l.frame_b.pos, &k->l.frame_a.vel,
                            &k->l.frame_b.vel, &k->d),
                  LIED_SIGS(&k->l.frame_a.force, &k->l.frame_b.force, &k->l.s, &k->l.f));
}

static void spring_damper_meta(lied_meta *m, void *self) {
  pm_spring_damper *k = self;
  line_meta(m, &k->l);
  if (k->l.T_D > 0) {
    line_meta_d(m, &k->l, spring_damper_geo_d_block, spring_damper_force_d_block, &k->c, &k->d,
                &k->s_unstretched);
    return;
  }
  lied_meta_block(m, "force", spring_damper_block, 0,
                  LIED_SIGS(&k->l.frame_a.pos, &k->l.frame_b.pos, &k->l.frame_a.vel,
                            &k->l.frame_b.vel, &k->c, &k->d, &k->s_unstretched),
                  LIED_SIGS(&k->l.frame_a.force, &k->l.frame_b.force, &k->l.s, &k->l.f));
}

#define C_PARAM(T)                                                                         \
  {"c", offsetof(T, c), 1, "N/m", "stiffness", 0, PM_NOMAX, 0, 0}
#define D_PARAM(T)                                                                         \
  {"d", offsetof(T, d), 1, "N.s/m", "damping", 0, PM_NOMAX, 0, 0}
#define S0_PARAM(T)                                                                        \
  {"s_unstretched", offsetof(T, s_unstretched), 0, "m", "unstretched length", 0, PM_NOMAX,  \
   0, 0}
#define TD_PARAM(T)                                                                        \
  {"T_D", offsetof(T, l.T_D), 0, "s",                                                      \
   "dialectic time constant: 0 rigid form, > 0 force at the length anticipated over T_D "  \
   "(joins the linear section)",                                                          \
   0, PM_NOMAX, 0, 0}

static const lied_param spring_params[] = {C_PARAM(pm_spring), S0_PARAM(pm_spring),
                                           TD_PARAM(pm_spring)};
static const lied_param damper_params[] = {D_PARAM(pm_damper), TD_PARAM(pm_damper)};
static const lied_param spring_damper_params[] = {
    C_PARAM(pm_spring_damper), D_PARAM(pm_spring_damper), S0_PARAM(pm_spring_damper),
    TD_PARAM(pm_spring_damper)};

const lied_class pm_spring_class = {
    "Spring", "mechanics",
    "linear spring between the origins of frame_a and frame_b: f = c (s - s_unstretched)",
    sizeof(pm_spring), spring_params, 3, NULL, spring_meta};
const lied_class pm_damper_class = {
    "Damper", "mechanics", "linear damper between the origins of frame_a and frame_b: f = d ds/dt",
    sizeof(pm_damper), damper_params, 2, NULL, damper_meta};
const lied_class pm_spring_damper_class = {
    "SpringDamper", "mechanics",
    "spring and damper in parallel between frame_a and frame_b: f = c (s - s_unstretched) + d ds/dt",
    sizeof(pm_spring_damper), spring_damper_params, 4, NULL, spring_damper_meta};
