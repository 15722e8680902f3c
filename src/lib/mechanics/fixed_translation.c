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

/* The equations, written once for the block (one copy) and its lane form
 * (LIED_LANES copies of a group, lied/component.h). */

/* r in the world from its frame_a coordinates (cosine and sine of phi). */
static inline void ft_r_eq(double c, double s, double r0, double r1, double *rx, double *ry) {
  *rx = c * r0 - s * r1;
  *ry = s * r0 + c * r1;
}
/* Move the frame along r; v_b = v_a + w x r. */
static inline pm_pos ft_pos_eq(pm_pos a, double rx, double ry) {
  return (pm_pos){a.x + rx, a.y + ry, a.phi};
}
static inline pm_vel ft_vel_eq(pm_vel v, double rx, double ry) {
  return (pm_vel){v.vx - v.w * ry, v.vy + v.w * rx, v.w};
}
/* a_b = a_a + z x r - w^2 r (inside a linear section; c = -w^2 r). */
static inline pm_acc ft_acc_eq(pm_acc a, double rx, double ry, double cx, double cy) {
  return (pm_acc){a.ax - a.z * ry + cx, a.ay + a.z * rx + cy, a.z};
}
/* The force passes; its moment about frame_a adds r x f. */
static inline pm_force ft_force_eq(pm_force f, double rx, double ry) {
  return (pm_force){f.fx, f.fy, f.t + rx * f.fy - ry * f.fx};
}

/* Resolve r in the world, move the frame along it; the centripetal term
 * -w^2 r for the acc block. */
static void ft_motion(const lied_env *env, pm_fixed_translation *j) {
  (void)env;
  const pm_pos a = *j->frame_a.pos;
  const pm_vel v = *j->frame_a.vel;
  double rx, ry, sn, cs;
  pm_sincos(a.phi, &sn, &cs);
  ft_r_eq(cs, sn, j->r[0], j->r[1], &rx, &ry);
  j->rx = rx;
  j->ry = ry;
  j->frame_b.pos = ft_pos_eq(a, rx, ry);
  j->frame_b.vel = ft_vel_eq(v, rx, ry);
  j->cx = -v.w * v.w * rx;
  j->cy = -v.w * v.w * ry;
}

static void ft_acc(const lied_env *env, pm_fixed_translation *j) {
  (void)env;
  j->frame_b.acc = ft_acc_eq(*j->frame_a.acc, j->rx, j->ry, j->cx, j->cy);
}

static void ft_force(const lied_env *env, pm_fixed_translation *j) {
  (void)env;
  j->frame_a.force = ft_force_eq(*j->frame_b.force, j->rx, j->ry);
}
LIED_BLOCK(ft_motion_block, pm_fixed_translation, ft_motion)
LIED_BLOCK(ft_acc_block, pm_fixed_translation, ft_acc)
LIED_BLOCK(ft_force_block, pm_fixed_translation, ft_force)

/* Lane forms: field F of the group, the signal behind reading pointer F. */
#define LF(F) LIED_LANE(pm_fixed_translation, g, F)
#define LIN(F) LIED_LANE_IN(pm_fixed_translation, g, F)

LIED_LANE_BODY void ft_motion_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict p = LIN(frame_a.pos), *restrict v = LIN(frame_a.vel);
  const double *restrict r0 = LF(r[0]), *restrict r1 = LF(r[1]);
  double *restrict pos = LF(frame_b.pos), *restrict vel = LF(frame_b.vel);
  double *restrict rx = LF(rx), *restrict ry = LF(ry), *restrict cx = LF(cx), *restrict cy = LF(cy);
  double c[LIED_LANES], s[LIED_LANES];
  pm_cos_sin_lanes(p, n, c, s);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    ft_r_eq(c[l], s[l], r0[l], r1[l], &rx[l], &ry[l]);
    const pm_vel vl = PM_VEL(v, l);
    pm_put_pos(pos, l, ft_pos_eq(PM_POS(p, l), rx[l], ry[l]));
    pm_put_vel(vel, l, ft_vel_eq(vl, rx[l], ry[l]));
    cx[l] = -vl.w * vl.w * rx[l];
    cy[l] = -vl.w * vl.w * ry[l];
  }
}
LIED_LANE_FORM(ft_motion_lanes)

LIED_LANE_BODY void ft_acc_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(frame_a.acc);
  const double *restrict rx = LF(rx), *restrict ry = LF(ry), *restrict cx = LF(cx),
                         *restrict cy = LF(cy);
  double *restrict acc = LF(frame_b.acc);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    pm_put_acc(acc, l, ft_acc_eq(PM_ACC(a, l), rx[l], ry[l], cx[l], cy[l]));
}
LIED_LANE_FORM(ft_acc_lanes)

LIED_LANE_BODY void ft_force_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict f = LIN(frame_b.force), *restrict rx = LF(rx), *restrict ry = LF(ry);
  double *restrict force = LF(frame_a.force);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) pm_put_force(force, l, ft_force_eq(PM_FORCE(f, l), rx[l], ry[l]));
}
LIED_LANE_FORM(ft_force_lanes)
#undef LF
#undef LIN

static void ft_meta(lied_meta *m, void *self) {
  pm_fixed_translation *j = self;
  lied_meta_port(m, "frame_a", 0, &j->frame_a, &pm_in_layout);
  lied_meta_port(m, "frame_b", 0, &j->frame_b, &pm_out_layout);
  lied_meta_block(m, "motion", ft_motion_block, 0,
                  LIED_SIGS(&j->frame_a.pos, &j->frame_a.vel, &j->r[0], &j->r[1]),
                  LIED_SIGS(&j->frame_b.pos, &j->frame_b.vel, &j->rx, &j->ry, &j->cx, &j->cy));
  lied_meta_lanes(m, ft_motion_lanes);
  /* coefficients rx, ry depend on the orientation: not constant */
  lied_meta_block(m, "acc", ft_acc_block, 0,
                  LIED_SIGS(&j->frame_a.acc, &j->rx, &j->ry, &j->cx, &j->cy),
                  LIED_SIGS(&j->frame_b.acc));
  lied_meta_lanes(m, ft_acc_lanes);
  lied_meta_block(m, "force", ft_force_block, 0,
                  LIED_SIGS(&j->frame_b.force, &j->rx, &j->ry), LIED_SIGS(&j->frame_a.force));
  lied_meta_lanes(m, ft_force_lanes);
}

static const lied_param ft_params[] = {
    {"r", offsetof(pm_fixed_translation, r), 0, "m",
     "vector from frame_a to frame_b in frame_a {rx, ry}", PM_NOMIN, PM_NOMAX, 0, 2},
};
const lied_class pm_fixed_translation_class = {
    "FixedTranslation", "mechanics",
    "rigid rod: frame_b = frame_a moved by r (given in frame_a), same orientation",
    sizeof(pm_fixed_translation), ft_params, 1, NULL, ft_meta};
