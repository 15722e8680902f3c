/* lied/mechanics.h - planar multibody mechanics in LIED form: the frame
 * connector, port structs and the component classes (see docs/mechanics.md).
 *
 * A frame carries, from the root (Fixed) towards the leaves, the absolute
 * position {x, y, phi}, velocity {vx, vy, w} and acceleration {ax, ay, z} of
 * a point with an orientation, and back towards the root the force and
 * torque {fx, fy, t} that the root side must apply at that frame to move
 * everything on the leaf side (a body returns f = m (a - g), t = I z).
 * Several leaves on one frame_b have their forces summed by the framework.
 * Accelerations and forces are affine in the joint accelerations (tearing
 * variables); positions and velocities are explicit and computed before the
 * linear sections, so only "acc" and "force" blocks run inside them.
 *
 * Public API (installed as <lied/mechanics.h>, with <lied/mechanics_trig.h>):
 * a plugin's components take frames with these structs and layouts; in
 * lied's tree "lib/mechanics/mechanics.h" includes this header. */
#ifndef LIED_LIB_MECHANICS_H
#define LIED_LIB_MECHANICS_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"
#include "lied/mechanics_trig.h"

typedef struct pm_pos { double x, y, phi; } pm_pos;      /* m, m, rad */
typedef struct pm_vel { double vx, vy, w; } pm_vel;      /* m/s, m/s, rad/s */
typedef struct pm_acc { double ax, ay, z; } pm_acc;      /* m/s2, m/s2, rad/s2 */
typedef struct pm_force { double fx, fy, t; } pm_force;  /* N, N, N.m */

/* Source side ("frame_b"): emits motion, reads the force its leaves need. */
typedef struct pm_frame_out {
  pm_pos pos;
  pm_vel vel;
  pm_acc acc;
  const pm_force *force;
} pm_frame_out;

/* Sink side ("frame_a"): reads motion, returns the force it needs. */
typedef struct pm_frame_in {
  const pm_pos *pos;
  const pm_vel *vel;
  const pm_acc *acc;
  pm_force force;
} pm_frame_in;

extern const lied_connector pm_frame;
extern const lied_port_layout pm_out_layout, pm_in_layout;

/* Drive inputs (Revolute.u, Prismatic.u) are optional real-signal inputs
 * of the public API (lied_real_in, lied/component.h): any signal output
 * feeds them (require "lied.signals"); unconnected they read 0. */

extern const lied_class pm_ball_class;
extern const lied_class pm_fixed_class, pm_body_class, pm_fixed_translation_class,
    pm_revolute_class, pm_prismatic_class, pm_spring_class, pm_damper_class,
    pm_spring_damper_class, pm_elasto_gap_class;

/* Lane forms (lied/component.h): variable j of copy l of a frame signal
 * read through a lane pointer p (pos: x, y, phi; vel: vx, vy, w; acc: ax,
 * ay, z; force: fx, fy, t). */
#define PM_V(p, j, l) ((p)[(j) * LIED_LANES + (l)])
#define PM_POS(p, l) ((pm_pos){PM_V(p, 0, l), PM_V(p, 1, l), PM_V(p, 2, l)})
#define PM_VEL(p, l) ((pm_vel){PM_V(p, 0, l), PM_V(p, 1, l), PM_V(p, 2, l)})
#define PM_ACC(p, l) ((pm_acc){PM_V(p, 0, l), PM_V(p, 1, l), PM_V(p, 2, l)})
#define PM_FORCE(p, l) ((pm_force){PM_V(p, 0, l), PM_V(p, 1, l), PM_V(p, 2, l)})
static inline void pm_put3(double *p, size_t l, double a, double b, double c) {
  PM_V(p, 0, l) = a, PM_V(p, 1, l) = b, PM_V(p, 2, l) = c;
}
static inline void pm_put_pos(double *p, size_t l, pm_pos v) { pm_put3(p, l, v.x, v.y, v.phi); }
static inline void pm_put_vel(double *p, size_t l, pm_vel v) { pm_put3(p, l, v.vx, v.vy, v.w); }
static inline void pm_put_acc(double *p, size_t l, pm_acc v) { pm_put3(p, l, v.ax, v.ay, v.z); }
static inline void pm_put_force(double *p, size_t l, pm_force v) { pm_put3(p, l, v.fx, v.fy, v.t); }
/* Cosine and sine of the angle of n copies' positions p, into c and s
 * (trig.h: the same bits as pm_sincos of each). */
static inline void pm_cos_sin_lanes(const double *p, size_t n, double *c, double *s) {
  pm_sincos_lanes(&PM_V(p, 2, 0), n, c, s);
}

#define PM_NOMIN (-HUGE_VAL)
#define PM_NOMAX (HUGE_VAL)

/* Vector parameters have one default for every element; a NaN default marks
 * "not set", replaced in the class's init by the documented default. */

#endif
