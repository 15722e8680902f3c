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

/* The equations, written once for the blocks (one copy) and their lane
 * forms (LIED_LANES copies of a group, lied/component.h). */

/* Relative position b - a, its length, and 1/length (0 at zero length, where
 * the direction is undefined and the line force is taken as 0). */
typedef struct line_geo {
  double dx, dy, s, inv;
} line_geo;
static inline line_geo line_geo_eq(pm_pos a, pm_pos b) {
  double dx = b.x - a.x, dy = b.y - a.y;
  double s = sqrt(dx * dx + dy * dy);
  return (line_geo){dx, dy, s, s > 0 ? 1 / s : 0};
}

/* Rate of change of the length: (v_b - v_a) . u */
static inline double line_rate_eq(pm_vel a, pm_vel b, double ux, double uy) {
  return (b.vx - a.vx) * ux + (b.vy - a.vy) * uy;
}

/* The tension of each element: f = c (s - s_unstretched), d ds/dt, or both. */
enum { LINE_SPRING, LINE_DAMPER, LINE_SPRING_DAMPER };
static inline double line_tension_eq(int kind, double c, double d, double s0, double s,
                                     double rate) {
  if (kind == LINE_SPRING) return c * (s - s0);
  if (kind == LINE_DAMPER) return d * rate;
  return c * (s - s0) + d * rate;
}

/* Dialectic form. Geometry (explicit): direction, the tension with kinetic
 * velocities, and the coefficient on the relative acceleration; D is the
 * velocity coefficient c T_D + d (c = 0 for a damper, d = 0 for a spring). */
typedef struct line_d {
  double s, ux, uy, f0, k;
} line_d;
static inline line_d line_d_eq(pm_pos a, pm_pos b, pm_vel va, pm_vel vb, double T_D, double c,
                               double d, double s0) {
  line_geo g = line_geo_eq(a, b);
  double ux = g.dx * g.inv, uy = g.dy * g.inv, D = c * T_D + d;
  return (line_d){g.s, ux, uy, c * (g.s - s0) + D * line_rate_eq(va, vb, ux, uy), D * T_D};
}

/* Force (inside the linear section): affine in the accelerations. */
static inline double line_force_d_eq(pm_acc a, pm_acc b, double ux, double uy, double f0,
                                     double k) {
  double r = (b.ax - a.ax) * ux + (b.ay - a.ay) * uy;
  return f0 + k * r;
}

/* Write the tension f along the unit vector (ux, uy) from a to b: frame_b
 * must hold the element with +f u, frame_a with -f u. */
static inline void line_push(pm_line *l, double f, double ux, double uy) {
  l->f = f;
  l->frame_b.force = (pm_force){f * ux, f * uy, 0};
  l->frame_a.force = (pm_force){-f * ux, -f * uy, 0};
}

/* Rigid form, every element: the tension from positions (and velocities). */
static inline void line_eval(pm_line *l, int kind, double c, double d, double s0) {
  line_geo g = line_geo_eq(*l->frame_a.pos, *l->frame_b.pos);
  double ux = g.dx * g.inv, uy = g.dy * g.inv;
  double rate = kind == LINE_SPRING ? 0 : line_rate_eq(*l->frame_a.vel, *l->frame_b.vel, ux, uy);
  l->s = g.s;
  line_push(l, line_tension_eq(kind, c, d, s0, g.s, rate), ux, uy);
}

static void spring_eval(const lied_env *env, pm_spring *k) {
  (void)env;
  line_eval(&k->l, LINE_SPRING, k->c, 0, k->s_unstretched);
}
static void damper_eval(const lied_env *env, pm_damper *k) {
  (void)env;
  line_eval(&k->l, LINE_DAMPER, 0, k->d, 0);
}
static void spring_damper_eval(const lied_env *env, pm_spring_damper *k) {
  (void)env;
  line_eval(&k->l, LINE_SPRING_DAMPER, k->c, k->d, k->s_unstretched);
}

static inline void line_geometry_d(pm_line *l, double c, double d, double s0) {
  line_d r = line_d_eq(*l->frame_a.pos, *l->frame_b.pos, *l->frame_a.vel, *l->frame_b.vel,
                       l->T_D, c, d, s0);
  l->s = r.s, l->ux = r.ux, l->uy = r.uy, l->f0 = r.f0, l->k = r.k;
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
/* One force block for the three classes (their common head). */
static void line_force_d(const lied_env *env, pm_line *l) {
  (void)env;
  line_push(l, line_force_d_eq(*l->frame_a.acc, *l->frame_b.acc, l->ux, l->uy, l->f0, l->k),
            l->ux, l->uy);
}
LIED_BLOCK(spring_geo_d_block, pm_spring, spring_geo_d)
LIED_BLOCK(damper_geo_d_block, pm_damper, damper_geo_d)
LIED_BLOCK(spring_damper_geo_d_block, pm_spring_damper, spring_damper_geo_d)
LIED_BLOCK(line_force_d_block, pm_line, line_force_d)
LIED_BLOCK(spring_block, pm_spring, spring_eval)
LIED_BLOCK(damper_block, pm_damper, damper_eval)
LIED_BLOCK(spring_damper_block, pm_spring_damper, spring_damper_eval)

/* Lane forms. The head pm_line starts every class, so its fields have the
 * same offsets in the three. Absent parameters read zero lanes. */
static const double line_zero_lanes[LIED_LANES];
#define LF(F) LIED_LANE(pm_line, g, F)
#define LIN(F) LIED_LANE_IN(pm_line, g, F)

static inline void line_push_lanes(char *g, size_t l, double f, double ux, double uy) {
  LF(f)[l] = f;
  pm_put_force(LF(frame_b.force), l, (pm_force){f * ux, f * uy, 0});
  pm_put_force(LF(frame_a.force), l, (pm_force){-f * ux, -f * uy, 0});
}

static inline void line_lanes(char *g, size_t n, int kind, const double *restrict c,
                              const double *restrict d, const double *restrict s0) {
  const double *restrict pa = LIN(frame_a.pos), *restrict pb = LIN(frame_b.pos);
  /* a spring does not read the velocities (nor are they set up for it) */
  const double *restrict va = kind == LINE_SPRING ? NULL : LIN(frame_a.vel);
  const double *restrict vb = kind == LINE_SPRING ? NULL : LIN(frame_b.vel);
  double *restrict s = LF(s);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    line_geo q = line_geo_eq(PM_POS(pa, l), PM_POS(pb, l));
    double ux = q.dx * q.inv, uy = q.dy * q.inv;
    double rate = kind == LINE_SPRING ? 0 : line_rate_eq(PM_VEL(va, l), PM_VEL(vb, l), ux, uy);
    s[l] = q.s;
    line_push_lanes(g, l, line_tension_eq(kind, c[l], d[l], s0[l], q.s, rate), ux, uy);
  }
}

LIED_LANE_BODY void spring_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  line_lanes(g, n, LINE_SPRING, LIED_LANE(pm_spring, g, c), line_zero_lanes,
             LIED_LANE(pm_spring, g, s_unstretched));
}
LIED_LANE_FORM(spring_lanes)
LIED_LANE_BODY void damper_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  line_lanes(g, n, LINE_DAMPER, line_zero_lanes, LIED_LANE(pm_damper, g, d), line_zero_lanes);
}
LIED_LANE_FORM(damper_lanes)
LIED_LANE_BODY void spring_damper_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  line_lanes(g, n, LINE_SPRING_DAMPER, LIED_LANE(pm_spring_damper, g, c),
             LIED_LANE(pm_spring_damper, g, d), LIED_LANE(pm_spring_damper, g, s_unstretched));
}
LIED_LANE_FORM(spring_damper_lanes)

static inline void line_geo_d_lanes(char *g, size_t n, const double *restrict c,
                                    const double *restrict d, const double *restrict s0) {
  const double *restrict pa = LIN(frame_a.pos), *restrict pb = LIN(frame_b.pos);
  const double *restrict va = LIN(frame_a.vel), *restrict vb = LIN(frame_b.vel);
  const double *restrict T_D = LF(T_D);
  double *restrict s = LF(s), *restrict ux = LF(ux), *restrict uy = LF(uy), *restrict f0 = LF(f0),
                   *restrict k = LF(k);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    line_d r = line_d_eq(PM_POS(pa, l), PM_POS(pb, l), PM_VEL(va, l), PM_VEL(vb, l), T_D[l], c[l],
                         d[l], s0[l]);
    s[l] = r.s, ux[l] = r.ux, uy[l] = r.uy, f0[l] = r.f0, k[l] = r.k;
  }
}

LIED_LANE_BODY void spring_geo_d_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  line_geo_d_lanes(g, n, LIED_LANE(pm_spring, g, c), line_zero_lanes,
                   LIED_LANE(pm_spring, g, s_unstretched));
}
LIED_LANE_FORM(spring_geo_d_lanes)
LIED_LANE_BODY void damper_geo_d_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  line_geo_d_lanes(g, n, line_zero_lanes, LIED_LANE(pm_damper, g, d), line_zero_lanes);
}
LIED_LANE_FORM(damper_geo_d_lanes)
LIED_LANE_BODY void spring_damper_geo_d_lanes_n(const lied_env *env, char *g, size_t n,
                                                size_t stride) {
  (void)env, (void)stride;
  line_geo_d_lanes(g, n, LIED_LANE(pm_spring_damper, g, c), LIED_LANE(pm_spring_damper, g, d),
                   LIED_LANE(pm_spring_damper, g, s_unstretched));
}
LIED_LANE_FORM(spring_damper_geo_d_lanes)

LIED_LANE_BODY void line_force_d_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(frame_a.acc), *restrict b = LIN(frame_b.acc);
  const double *restrict ux = LF(ux), *restrict uy = LF(uy), *restrict f0 = LF(f0),
                         *restrict k = LF(k);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    line_push_lanes(g, l, line_force_d_eq(PM_ACC(a, l), PM_ACC(b, l), ux[l], uy[l], f0[l], k[l]),
                    ux[l], uy[l]);
}
LIED_LANE_FORM(line_force_d_lanes)
#undef LF
#undef LIN

/* Ports and variables of the common head. */
static void line_meta(lied_meta *m, pm_line *l) {
  lied_meta_port(m, "frame_a", 0, &l->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &l->frame_b, &pm_in_layout);
  lied_meta_var(m, "s", "m", &l->s);
  lied_meta_var(m, "f", "N", &l->f);
}

/* Dialectic blocks: geometry (explicit; reads positions, velocities and the
 * given parameters) and force (in the section; reads accelerations). */
static void line_meta_d(lied_meta *m, pm_line *l, lied_block_fn geo, lied_block_fn geo_lanes,
                        const double *p1, const double *p2, const double *p3) {
  lied_meta_block(m, "geometry", geo, 0,
                  LIED_SIGS(&l->frame_a.pos, &l->frame_b.pos, &l->frame_a.vel,
                            &l->frame_b.vel, &l->T_D, p1, p2, p3),
                  LIED_SIGS(&l->s, &l->ux, &l->uy, &l->f0, &l->k));
  lied_meta_lanes(m, geo_lanes);
  lied_meta_block(m, "force", line_force_d_block, 0,
                  LIED_SIGS(&l->frame_a.acc, &l->frame_b.acc, &l->ux, &l->uy, &l->f0, &l->k),
                  LIED_SIGS(&l->frame_a.force, &l->frame_b.force, &l->f));
  lied_meta_lanes(m, line_force_d_lanes);
}

static void spring_meta(lied_meta *m, void *self) {
  pm_spring *k = self;
  line_meta(m, &k->l);
  if (k->l.T_D > 0) {
    line_meta_d(m, &k->l, spring_geo_d_block, spring_geo_d_lanes, &k->c, &k->s_unstretched,
                &k->c);
    return;
  }
  lied_meta_block(m, "force", spring_block, 0,
                  LIED_SIGS(&k->l.frame_a.pos, &k->l.frame_b.pos, &k->c, &k->s_unstretched),
                  LIED_SIGS(&k->l.frame_a.force, &k->l.frame_b.force, &k->l.s, &k->l.f));
  lied_meta_lanes(m, spring_lanes);
}

static void damper_meta(lied_meta *m, void *self) {
  pm_damper *k = self;
  line_meta(m, &k->l);
  if (k->l.T_D > 0) {
    line_meta_d(m, &k->l, damper_geo_d_block, damper_geo_d_lanes, &k->d, &k->d, &k->d);
    return;
  }
  lied_meta_block(m, "force", damper_block, 0,
                  LIED_SIGS(&k->l.frame_a.pos, &k->l.frame_b.pos, &k->l.frame_a.vel,
                            &k->l.frame_b.vel, &k->d),
                  LIED_SIGS(&k->l.frame_a.force, &k->l.frame_b.force, &k->l.s, &k->l.f));
  lied_meta_lanes(m, damper_lanes);
}

static void spring_damper_meta(lied_meta *m, void *self) {
  pm_spring_damper *k = self;
  line_meta(m, &k->l);
  if (k->l.T_D > 0) {
    line_meta_d(m, &k->l, spring_damper_geo_d_block, spring_damper_geo_d_lanes, &k->c, &k->d,
                &k->s_unstretched);
    return;
  }
  lied_meta_block(m, "force", spring_damper_block, 0,
                  LIED_SIGS(&k->l.frame_a.pos, &k->l.frame_b.pos, &k->l.frame_a.vel,
                            &k->l.frame_b.vel, &k->c, &k->d, &k->s_unstretched),
                  LIED_SIGS(&k->l.frame_a.force, &k->l.frame_b.force, &k->l.s, &k->l.f));
  lied_meta_lanes(m, spring_damper_lanes);
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
