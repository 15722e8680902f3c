/* fixed.c - Fixed: the root of a kinematic tree, a frame at rest. */
#include "lib/mechanics/mechanics.h"

typedef struct pm_fixed {
  pm_frame_out frame_b;
  double x, y, phi;
} pm_fixed;

/* Position from the parameters; velocity and acceleration zero. Depends on
 * parameters only, so the scheduler runs it once. */
static void fixed_eval(const lied_env *env, pm_fixed *f) {
  (void)env;
  f->frame_b.pos = (pm_pos){f->x, f->y, f->phi};
  f->frame_b.vel = (pm_vel){0, 0, 0};
  f->frame_b.acc = (pm_acc){0, 0, 0};
}
LIED_BLOCK(fixed_block, pm_fixed, fixed_eval)

/* Lane form (lied/component.h): for completeness of the class; the block
 * reads parameters only and runs in the constant part. */
LIED_LANE_BODY void fixed_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict x = LIED_LANE(pm_fixed, g, x), *restrict y = LIED_LANE(pm_fixed, g, y),
                         *restrict phi = LIED_LANE(pm_fixed, g, phi);
  double *restrict pos = LIED_LANE(pm_fixed, g, frame_b.pos);
  double *restrict vel = LIED_LANE(pm_fixed, g, frame_b.vel);
  double *restrict acc = LIED_LANE(pm_fixed, g, frame_b.acc);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pm_put_pos(pos, l, (pm_pos){x[l], y[l], phi[l]});
    pm_put_vel(vel, l, (pm_vel){0, 0, 0});
    pm_put_acc(acc, l, (pm_acc){0, 0, 0});
  }
}
LIED_LANE_FORM(fixed_lanes)

static void fixed_meta(lied_meta *m, void *self) {
  pm_fixed *f = self;
  lied_meta_port(m, "frame_b", 0, &f->frame_b, &pm_out_layout);
  lied_meta_block(m, "frame", fixed_block, 0, LIED_SIGS(&f->x, &f->y, &f->phi),
                  LIED_SIGS(&f->frame_b.pos, &f->frame_b.vel, &f->frame_b.acc));
  lied_meta_lanes(m, fixed_lanes);
}

static const lied_param fixed_params[] = {
    {"x", offsetof(pm_fixed, x), 0, "m", "x position of the frame", PM_NOMIN, PM_NOMAX, 0, 0},
    {"y", offsetof(pm_fixed, y), 0, "m", "y position of the frame", PM_NOMIN, PM_NOMAX, 0, 0},
    {"phi", offsetof(pm_fixed, phi), 0, "rad", "orientation of the frame", PM_NOMIN, PM_NOMAX,
     0, 0},
};
const lied_class pm_fixed_class = {
    "Fixed", "mechanics",
    "frame fixed in the world (root of a kinematic tree); forces on it are ignored",
    sizeof(pm_fixed), fixed_params, 3, NULL, fixed_meta};
