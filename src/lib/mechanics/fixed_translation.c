/* fixed_translation.c - FixedTranslation: a rigid rod from frame_a to
 * frame_b, the vector r given in the coordinates of frame_a. */
#include "lib/mechanics/mechanics.h"

typedef struct pm_fixed_translation {
  pm_frame_in frame_a;
  pm_frame_out frame_b;
  double rx, ry; /* r in world coordinates (motion block) */
  double cx, cy; /* centripetal acceleration -w^2 (rx, ry) (motion block) */
  double r[2];   /* parameter, in frame_a */
} pm_fixed_translation;

/* Resolve r in the world, move the frame along it; v_b = v_a + w x r; the
 * centripetal term -w^2 r for the acc block. */
static void ft_motion(const lied_env *env, pm_fixed_translation *j) {
  (void)env;
  const pm_pos *a = j->frame_a.pos;
  const pm_vel *v = j->frame_a.vel;
  double c = cos(a->phi), s = sin(a->phi);
  double rx = c * j->r[0] - s * j->r[1];
  double ry = s * j->r[0] + c * j->r[1];
  double w = v->w;
  j->rx = rx;
  j->ry = ry;
  j->frame_b.pos = (pm_pos){a->x + rx, a->y + ry, a->phi};
  j->frame_b.vel = (pm_vel){v->vx - w * ry, v->vy + w * rx, w};
  j->cx = -w * w * rx;
  j->cy = -w * w * ry;
}

/* a_b = a_a + z x r - w^2 r (inside a linear section). */
static void ft_acc(const lied_env *env, pm_fixed_translation *j) {
  (void)env;
  const pm_acc *a = j->frame_a.acc;
  double z = a->z;
  j->frame_b.acc = (pm_acc){a->ax - z * j->ry + j->cx, a->ay + z * j->rx + j->cy, z};
}

/* The force passes; its moment about frame_a adds r x f. */
static void ft_force(const lied_env *env, pm_fixed_translation *j) {
  (void)env;
  const pm_force *f = j->frame_b.force;
  j->frame_a.force = (pm_force){f->fx, f->fy, f->t + j->rx * f->fy - j->ry * f->fx};
}
LIED_BLOCK(ft_motion_block, pm_fixed_translation, ft_motion)
LIED_BLOCK(ft_acc_block, pm_fixed_translation, ft_acc)
LIED_BLOCK(ft_force_block, pm_fixed_translation, ft_force)

static void ft_meta(lied_meta *m, void *self) {
  pm_fixed_translation *j = self;
  lied_meta_port(m, "frame_a", 0, &j->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &j->frame_b, &pm_out_layout);
  lied_meta_block(m, "motion", ft_motion_block, 0,
                  LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->r[0], &j->r[1]),
                  LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->rx, &j->ry, &j->cx, &j->cy));
  /* coefficients rx, ry depend on the orientation: not constant */
  lied_meta_block(m, "acc", ft_acc_block, 0,
                  LIED_SIGS(&j->frame_a.acc, &j->rx, &j->ry, &j->cx, &j->cy),
                  LIED_SIGS(&j->frame_b.acc));
  lied_meta_block(m, "force", ft_force_block, 0,
                  LIED_SIGS(&j->frame_b.force, &j->rx, &j->ry), LIED_SIGS(&j->frame_a.force));
}

static const lied_param ft_params[] = {
    {"r", offsetof(pm_fixed_translation, r), 0, "m",
     "vector from frame_a to frame_b in frame_a {rx, ry}", PM_NOMIN, PM_NOMAX, 0, 2},
};
const lied_class pm_fixed_translation_class = {
    "FixedTranslation", "mechanics",
    "rigid rod: frame_b = frame_a moved by r (given in frame_a), same orientation",
    sizeof(pm_fixed_translation), ft_params, 1, NULL, ft_meta};
