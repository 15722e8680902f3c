/* body.c - Body: mass m and rotational inertia I at the origin of its frame,
 * under uniform gravity g. */
#include "lib/mechanics/mechanics.h"

typedef struct pm_body {
  pm_frame_in frame_a;
  double m, I;
  double g[2];
} pm_body;

/* Force and torque the frame must apply: f = m (a - g), t = I z. Affine in
 * the acceleration with parameter coefficients. */
static inline void body_force_eq(double m, double I, double g0, double g1, double ax, double ay,
                                 double z, double *fx, double *fy, double *t) {
  *fx = m * (ax - g0);
  *fy = m * (ay - g1);
  *t = I * z;
}

static void body_force(const lied_env *env, pm_body *b) {
  (void)env;
  const pm_acc *a = b->frame_a.acc;
  pm_force *f = &b->frame_a.force;
  body_force_eq(b->m, b->I, b->g[0], b->g[1], a->ax, a->ay, a->z, &f->fx, &f->fy, &f->t);
}
LIED_BLOCK(body_force_block, pm_body, body_force)

LIED_LANE_BODY void body_force_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIED_LANE_IN(pm_body, g, frame_a.acc);
  const double *restrict m = LIED_LANE(pm_body, g, m), *restrict I = LIED_LANE(pm_body, g, I);
  const double *restrict g0 = LIED_LANE(pm_body, g, g[0]), *restrict g1 = LIED_LANE(pm_body, g, g[1]);
  double *restrict fx = LIED_LANE(pm_body, g, frame_a.force.fx);
  double *restrict fy = LIED_LANE(pm_body, g, frame_a.force.fy);
  double *restrict t = LIED_LANE(pm_body, g, frame_a.force.t);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    body_force_eq(m[l], I[l], g0[l], g1[l], PM_V(a, 0, l), PM_V(a, 1, l), PM_V(a, 2, l), &fx[l], &fy[l],
                  &t[l]);
}
LIED_LANE_FORM(body_force_lanes)

static void body_meta(lied_meta *m, void *self) {
  pm_body *b = self;
  lied_meta_port(m, "frame_a", 0, &b->frame_a, &pm_in_layout);
  lied_meta_block(m, "force", body_force_block, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->frame_a.acc, &b->m, &b->I, &b->g[0], &b->g[1]),
                  LIED_SIGS(&b->frame_a.force));
  lied_meta_lanes(m, body_force_lanes);
}

static const double body_g_default[2] = {0, -9.81};
static const lied_param body_params[] = {
    {"m", offsetof(pm_body, m), 1, "kg", "mass", 0, PM_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"I", offsetof(pm_body, I), 0.1, "kg.m2", "rotational inertia about the frame origin", 0,
     PM_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"g", offsetof(pm_body, g), 0, "m/s2", "gravity {gx, gy}", PM_NOMIN, PM_NOMAX, 0, 2,
     body_g_default},
};
const lied_class pm_body_class = {
    "Body", "mechanics",
    "rigid body: mass m and inertia I at the origin of frame_a, gravity g\n"
    "Its motion is readable as frame_a.x, frame_a.y, frame_a.phi, frame_a.vx, ...",
    sizeof(pm_body), body_params, 3, NULL, body_meta};
