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
 *   c (delta + T_D ddelta) + d ddelta > 0. */
#include "lib/mechanics/mechanics.h"

typedef struct pm_elasto_gap {
  pm_frame_in frame_a, frame_b;
  double s, delta, f; /* gap, penetration s0 - s, contact force (>= 0 when rigid) */
  double nx, ny;      /* n in world coordinates */
  double dx, dy;      /* r_b - r_a */
  double f0, k;       /* dialectic: f = f0 - k (rate of the gap from the accelerations) */
  double n[2], c, d, s0, T_D;
} pm_elasto_gap;

/* Geometry shared by both forms; returns the rate of the gap with the
 * kinetic velocities, d/dt[(r_b - r_a) . n] with n turning with frame_a. */
static inline double gap_geometry(pm_elasto_gap *g) {
  const pm_pos *a = g->frame_a.pos, *b = g->frame_b.pos;
  const pm_vel *va = g->frame_a.vel, *vb = g->frame_b.vel;
  double c = cos(a->phi), sn = sin(a->phi);
  double nx = c * g->n[0] - sn * g->n[1], ny = sn * g->n[0] + c * g->n[1];
  double dx = b->x - a->x, dy = b->y - a->y;
  g->nx = nx;
  g->ny = ny;
  g->dx = dx;
  g->dy = dy;
  g->s = dx * nx + dy * ny;
  g->delta = g->s0 - g->s;
  return (vb->vx - va->vx) * nx + (vb->vy - va->vy) * ny + va->w * (dy * nx - dx * ny);
}

/* The element pushes frame_b along +n with f (at frame_b's origin): the
 * force frame_b must apply is -f n; frame_a must apply +f n and the moment
 * of that force taken at r_b about its origin. */
static inline void gap_push(pm_elasto_gap *g, double f) {
  double fx = f * g->nx, fy = f * g->ny;
  g->f = f;
  g->frame_b.force = (pm_force){-fx, -fy, 0};
  g->frame_a.force = (pm_force){fx, fy, g->dx * fy - g->dy * fx};
}

static void gap_rigid(const lied_env *env, pm_elasto_gap *g) {
  (void)env;
  double rate = gap_geometry(g);
  double f = g->c * g->delta - g->d * rate;
  gap_push(g, g->delta > 0 && f > 0 ? f : 0);
}

static void gap_geo_d(const lied_env *env, pm_elasto_gap *g) {
  (void)env;
  double rate = gap_geometry(g);
  double ahead = g->delta - g->T_D * rate; /* penetration anticipated over T_D */
  double D = g->c * g->T_D + g->d;
  double f0 = g->c * g->delta - D * rate;
  int on = ahead > 0 && f0 > 0;
  g->f0 = on ? f0 : 0;
  g->k = on ? D * g->T_D : 0;
}

static void gap_force_d(const lied_env *env, pm_elasto_gap *g) {
  (void)env;
  const pm_acc *a = g->frame_a.acc, *b = g->frame_b.acc;
  double r = (b->ax - a->ax) * g->nx + (b->ay - a->ay) * g->ny +
             a->z * (g->dy * g->nx - g->dx * g->ny);
  gap_push(g, g->f0 - g->k * r);
}
LIED_BLOCK(gap_rigid_block, pm_elasto_gap, gap_rigid)
LIED_BLOCK(gap_geo_d_block, pm_elasto_gap, gap_geo_d)
LIED_BLOCK(gap_force_d_block, pm_elasto_gap, gap_force_d)

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
                    LIED_SIGS(&g->s, &g->delta, &g->nx, &g->ny, &g->dx, &g->dy, &g->f0, &g->k));
    lied_meta_block(m, "force", gap_force_d_block, 0,
                    LIED_SIGS(&g->frame_a.acc, &g->frame_b.acc, &g->nx, &g->ny, &g->dx, &g->dy,
                              &g->f0, &g->k),
                    LIED_SIGS(&g->frame_a.force, &g->frame_b.force, &g->f));
  } else {
    lied_meta_block(m, "force", gap_rigid_block, 0,
                    LIED_SIGS(&g->frame_a.pos, &g->frame_b.pos, &g->frame_a.vel,
                              &g->frame_b.vel, &g->n[0], &g->n[1], &g->c, &g->d, &g->s0),
                    LIED_SIGS(&g->frame_a.force, &g->frame_b.force, &g->s, &g->delta, &g->f,
                              &g->nx, &g->ny, &g->dx, &g->dy));
  }
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
