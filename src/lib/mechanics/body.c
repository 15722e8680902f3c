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
static void body_force(const lied_env *env, pm_body *b) {
  (void)env;
  const pm_acc *a = b->frame_a.acc;
  b->frame_a.force.fx = b->m * (a->ax - b->g[0]);
  b->frame_a.force.fy = b->m * (a->ay - b->g[1]);
  b->frame_a.force.t = b->I * a->z;
}
LIED_BLOCK(body_force_block, pm_body, body_force)

static void body_meta(lied_meta *m, void *self) {
  pm_body *b = self;
  lied_meta_port(m, "frame_a", 0, &b->frame_a, &pm_in_layout);
  lied_meta_block(m, "force", body_force_block, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->frame_a.acc, &b->m, &b->I, &b->g[0], &b->g[1]),
                  LIED_SIGS(&b->frame_a.force));
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
