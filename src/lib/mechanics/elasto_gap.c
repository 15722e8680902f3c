/* elasto_gap.c - ElastoGap: a one-sided spring-damper contact between the
 * origins of two frames along a normal n (given in frame_a). The gap is
 * s = (r_b - r_a) . n; below s0 the frames are in contact with the
 * penetration delta = s0 - s, and frame_b is pushed along +n (frame_a
 * along -n) with the force f >= 0:
 *   rigid form (T_D = 0):  f = max(0, c delta + d der(delta)) if delta > 0,
 *                          else 0 (explicit: reads positions and velocities);
 *   dialectic form (T_D > 0, docs/dialectic.md): the force at the
 *   penetration anticipated over T_D with the elastic velocities,
 *     f = c (delta + T_D ddelta_el) + d ddelta_el,
 *     ddelta_el = ddelta + T_D dddelta   (frame elastic velocity = vel + T_D acc),
 *   affine in the accelerations (the element joins the linear section). The
 *   contact set is decided explicitly, before the section, with the kinetic
 *   velocities: in contact when delta + T_D ddelta > 0 and
 *   c (delta + T_D ddelta) + d ddelta > 0.
 * Contact starting or ending switches the law (the damping's force jumps
 * on at contact, the force falls to zero at release): the kink function
 * z = min(penetration, force / c), positive exactly in contact, makes the
 * adaptive solvers end a step there (LIED_ZC_KINK, docs/events.md). */
#include "lib/mechanics/mechanics.h"

typedef struct pm_elasto_gap {
  pm_frame_in frame_a, frame_b;
  double s, delta, f; /* gap, penetration s0 - s, contact force (>= 0 when rigid) */
  double nx, ny;      /* n in world coordinates */
  double dx, dy;      /* r_b - r_a */
  double f0, k;       /* dialectic: f = f0 - k (rate of the gap from the accelerations) */
  double z;           /* kink function: > 0 in contact */
  double n[2], c, d, s0, T_D;
} pm_elasto_gap;

/* The equations, written once for the blocks (one copy) and their lane
 * forms (LIED_LANES copies of a group, lied/component.h). */

/* Geometry shared by both forms, from the cosine and sine of frame_a's
 * angle: n in the world, r_b - r_a, the gap and the penetration, and the
 * rate of the gap with the kinetic velocities, d/dt[(r_b - r_a) . n] with n
 * turning with frame_a. */
typedef struct gap_geo {
  double nx, ny, dx, dy, s, delta, rate;
} gap_geo;
static inline gap_geo gap_geo_eq(double c, double sn, pm_pos a, pm_pos b, pm_vel va, pm_vel vb,
                                 double n0, double n1, double s0) {
  double nx = c * n0 - sn * n1, ny = sn * n0 + c * n1;
  double dx = b.x - a.x, dy = b.y - a.y;
  double s = dx * nx + dy * ny;
  return (gap_geo){nx, ny, dx, dy, s, s0 - s,
                   (vb.vx - va.vx) * nx + (vb.vy - va.vy) * ny + va.w * (dy * nx - dx * ny)};
}

/* The kink function: positive exactly when both the penetration pen and
 * the force f are (f scaled by the stiffness to a length). */
static inline double gap_z_eq(double c, double pen, double f) {
  double fz = c > 0 ? f / c : f;
  return pen < fz ? pen : fz;
}

/* Rigid form: the force, f >= 0 in contact, else 0; its kink function. */
static inline double gap_rigid_eq(double c, double d, double delta, double rate, double *z) {
  double f = c * delta - d * rate;
  *z = gap_z_eq(c, delta, f);
  return delta > 0 && f > 0 ? f : 0;
}

/* Dialectic form: the contact set with the kinetic velocities, f0 and k of
 * f = f0 - k (rate of the gap from the accelerations), both 0 out of contact. */
static inline void gap_d_eq(double c, double d, double T_D, double delta, double rate,
                            double *f0, double *k, double *z) {
  double ahead = delta - T_D * rate; /* penetration anticipated over T_D */
  double D = c * T_D + d;
  double f = c * delta - D * rate;
  int on = ahead > 0 && f > 0;
  *z = gap_z_eq(c, ahead, f);
  *f0 = on ? f : 0;
  *k = on ? D * T_D : 0;
}

/* The rate of the gap from the accelerations (inside the linear section). */
static inline double gap_acc_rate_eq(pm_acc a, pm_acc b, double nx, double ny, double dx,
                                     double dy) {
  return (b.ax - a.ax) * nx + (b.ay - a.ay) * ny + a.z * (dy * nx - dx * ny);
}

/* The element pushes frame_b along +n with f (at frame_b's origin): the
 * force frame_b must apply is -f n; frame_a must apply +f n and the moment
 * of that force taken at r_b about its origin. */
static inline pm_force gap_force_b_eq(double f, double nx, double ny) {
  return (pm_force){-(f * nx), -(f * ny), 0};
}
static inline pm_force gap_force_a_eq(double f, double nx, double ny, double dx, double dy) {
  double fx = f * nx, fy = f * ny;
  return (pm_force){fx, fy, dx * fy - dy * fx};
}

static inline double gap_geometry(pm_elasto_gap *g) {
  double phi = g->frame_a.pos->phi, sn, cs;
  pm_sincos(phi, &sn, &cs);
  gap_geo q = gap_geo_eq(cs, sn, *g->frame_a.pos, *g->frame_b.pos, *g->frame_a.vel,
                         *g->frame_b.vel, g->n[0], g->n[1], g->s0);
  g->nx = q.nx, g->ny = q.ny, g->dx = q.dx, g->dy = q.dy, g->s = q.s, g->delta = q.delta;
  return q.rate;
}

static inline void gap_push(pm_elasto_gap *g, double f) {
  g->f = f;
  g->frame_b.force = gap_force_b_eq(f, g->nx, g->ny);
  g->frame_a.force = gap_force_a_eq(f, g->nx, g->ny, g->dx, g->dy);
}

static void gap_rigid(const lied_env *env, pm_elasto_gap *g) {
  (void)env;
  double rate = gap_geometry(g);
  gap_push(g, gap_rigid_eq(g->c, g->d, g->delta, rate, &g->z));
}

static void gap_geo_d(const lied_env *env, pm_elasto_gap *g) {
  (void)env;
  double rate = gap_geometry(g);
  gap_d_eq(g->c, g->d, g->T_D, g->delta, rate, &g->f0, &g->k, &g->z);
}

static void gap_force_d(const lied_env *env, pm_elasto_gap *g) {
  (void)env;
  double r = gap_acc_rate_eq(*g->frame_a.acc, *g->frame_b.acc, g->nx, g->ny, g->dx, g->dy);
  gap_push(g, g->f0 - g->k * r);
}
LIED_BLOCK(gap_rigid_block, pm_elasto_gap, gap_rigid)
LIED_BLOCK(gap_geo_d_block, pm_elasto_gap, gap_geo_d)
LIED_BLOCK(gap_force_d_block, pm_elasto_gap, gap_force_d)

/* Lane forms. */
#define LF(F) LIED_LANE(pm_elasto_gap, g, F)
#define LIN(F) LIED_LANE_IN(pm_elasto_gap, g, F)

static inline void gap_push_lanes(char *g, size_t l, double f) {
  const double nx = LF(nx)[l], ny = LF(ny)[l];
  LF(f)[l] = f;
  pm_put_force(LF(frame_b.force), l, gap_force_b_eq(f, nx, ny));
  pm_put_force(LF(frame_a.force), l, gap_force_a_eq(f, nx, ny, LF(dx)[l], LF(dy)[l]));
}

/* The geometry of n copies; their rates into rate[]. */
static inline void gap_geometry_lanes(char *g, size_t n, double *rate) {
  const double *restrict pa = LIN(frame_a.pos), *restrict pb = LIN(frame_b.pos);
  const double *restrict va = LIN(frame_a.vel), *restrict vb = LIN(frame_b.vel);
  const double *restrict n0 = LF(n[0]), *restrict n1 = LF(n[1]), *restrict s0 = LF(s0);
  double *restrict nx = LF(nx), *restrict ny = LF(ny), *restrict dx = LF(dx), *restrict dy = LF(dy),
                   *restrict s = LF(s), *restrict delta = LF(delta);
  double c[LIED_LANES], sn[LIED_LANES];
  pm_cos_sin_lanes(pa, n, c, sn);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    gap_geo q = gap_geo_eq(c[l], sn[l], PM_POS(pa, l), PM_POS(pb, l), PM_VEL(va, l),
                           PM_VEL(vb, l), n0[l], n1[l], s0[l]);
    nx[l] = q.nx, ny[l] = q.ny, dx[l] = q.dx, dy[l] = q.dy, s[l] = q.s, delta[l] = q.delta;
    rate[l] = q.rate;
  }
}

LIED_LANE_BODY void gap_rigid_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  double rate[LIED_LANES];
  gap_geometry_lanes(g, n, rate);
  const double *restrict c = LF(c), *restrict d = LF(d), *restrict delta = LF(delta);
  double *restrict z = LF(z);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    gap_push_lanes(g, l, gap_rigid_eq(c[l], d[l], delta[l], rate[l], &z[l]));
}
LIED_LANE_FORM(gap_rigid_lanes)

LIED_LANE_BODY void gap_geo_d_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  double rate[LIED_LANES];
  gap_geometry_lanes(g, n, rate);
  const double *restrict c = LF(c), *restrict d = LF(d), *restrict T_D = LF(T_D),
                         *restrict delta = LF(delta);
  double *restrict f0 = LF(f0), *restrict k = LF(k), *restrict z = LF(z);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    gap_d_eq(c[l], d[l], T_D[l], delta[l], rate[l], &f0[l], &k[l], &z[l]);
}
LIED_LANE_FORM(gap_geo_d_lanes)

LIED_LANE_BODY void gap_force_d_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(frame_a.acc), *restrict b = LIN(frame_b.acc);
  const double *restrict nx = LF(nx), *restrict ny = LF(ny), *restrict dx = LF(dx),
                         *restrict dy = LF(dy), *restrict f0 = LF(f0), *restrict k = LF(k);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    gap_push_lanes(g, l,
                   f0[l] - k[l] * gap_acc_rate_eq(PM_ACC(a, l), PM_ACC(b, l), nx[l], ny[l], dx[l],
                                                  dy[l]));
}
LIED_LANE_FORM(gap_force_d_lanes)
#undef LF
#undef LIN

static int gap_init(void *self, lied_init *ctx) {
  pm_elasto_gap *g = self;
  double n = hypot(g->n[0], g->n[1]);
  if (!(n > 0)) {
    lied_init_error(ctx, "parameter n = {%g, %g}: the normal must not be zero", g->n[0],
                    g->n[1]);
    return -1;
  }
  g->n[0] /= n;
  g->n[1] /= n;
  return 0;
}

static void gap_meta(lied_meta *m, void *self) {
  pm_elasto_gap *g = self;
  lied_meta_port(m, "frame_a", 0, &g->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &g->frame_b, &pm_in_layout);
  lied_meta_var(m, "s", "m", &g->s);
  lied_meta_var(m, "delta", "m", &g->delta);
  lied_meta_var(m, "f", "N", &g->f);
  if (g->T_D > 0) {
    lied_meta_block(m, "geometry", gap_geo_d_block, 0,
                    LIED_SIGS(&g->frame_a.pos, &g->frame_b.pos, &g->frame_a.vel,
                              &g->frame_b.vel, &g->n[0], &g->n[1], &g->c, &g->d, &g->s0,
                              &g->T_D),
                    LIED_SIGS(&g->s, &g->delta, &g->nx, &g->ny, &g->dx, &g->dy, &g->f0, &g->k,
                              &g->z));
    lied_meta_lanes(m, gap_geo_d_lanes);
    lied_meta_block(m, "force", gap_force_d_block, 0,
                    LIED_SIGS(&g->frame_a.acc, &g->frame_b.acc, &g->nx, &g->ny, &g->dx, &g->dy,
                              &g->f0, &g->k),
                    LIED_SIGS(&g->frame_a.force, &g->frame_b.force, &g->f));
    lied_meta_lanes(m, gap_force_d_lanes);
  } else {
    lied_meta_block(m, "force", gap_rigid_block, 0,
                    LIED_SIGS(&g->frame_a.pos, &g->frame_b.pos, &g->frame_a.vel,
                              &g->frame_b.vel, &g->n[0], &g->n[1], &g->c, &g->d, &g->s0),
                    LIED_SIGS(&g->frame_a.force, &g->frame_b.force, &g->s, &g->delta, &g->f,
                              &g->nx, &g->ny, &g->dx, &g->dy, &g->z));
    lied_meta_lanes(m, gap_rigid_lanes);
  }
  lied_meta_zero(m, "z", &g->z, LIED_ZC_BOTH | LIED_ZC_KINK);
}

static const double gap_n_default[2] = {0, 1};
static const lied_param gap_params[] = {
    {"c", offsetof(pm_elasto_gap, c), 1e6, "N/m", "contact stiffness", 0, PM_NOMAX, 0, 0},
    {"d", offsetof(pm_elasto_gap, d), 0, "N.s/m", "contact damping", 0, PM_NOMAX, 0, 0},
    {"s0", offsetof(pm_elasto_gap, s0), 0, "m",
     "gap at which contact starts (penetration delta = s0 - s)", PM_NOMIN, PM_NOMAX, 0, 0},
    {"n", offsetof(pm_elasto_gap, n), 0, "1",
     "contact normal in frame_a {nx, ny}, normalised (frame_b is pushed along +n)", PM_NOMIN,
     PM_NOMAX, 0, 2, gap_n_default},
    {"T_D", offsetof(pm_elasto_gap, T_D), 0, "s",
     "dialectic time constant: 0 rigid form, > 0 force at the penetration anticipated over "
     "T_D (joins the linear section)",
     0, PM_NOMAX, 0, 0},
};
const lied_class pm_elasto_gap_class = {
    "ElastoGap", "mechanics",
    "one-sided spring-damper contact along n (in frame_a): gap s = (r_b - r_a) . n, "
    "penetration delta = s0 - s, force f >= 0 pushing frame_b along +n",
    sizeof(pm_elasto_gap), gap_params, 5, gap_init, gap_meta};
