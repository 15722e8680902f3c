/* testlib.h - small test components: 1-D translational mechanics with
 * summed forces, a real-signal section, and deliberately broken classes for
 * the scheduler's error paths. */
#ifndef LIED_LIB_TESTLIB_H
#define LIED_LIB_TESTLIB_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"

/* 1-D flange: position, velocity, acceleration travel down (root -> leaf);
 * the force a leaf needs travels up and is summed at branches. */
typedef struct tl_pos { double s; } tl_pos;
typedef struct tl_vel { double v; } tl_vel;
typedef struct tl_acc { double a; } tl_acc;
typedef struct tl_force { double f; } tl_force;

typedef struct tl_out { /* source side: emits motion */
  tl_pos pos;
  tl_vel vel;
  tl_acc acc;
  const tl_force *force;
} tl_out;

typedef struct tl_in { /* sink side: receives motion, returns force */
  const tl_pos *pos;
  const tl_vel *vel;
  const tl_acc *acc;
  tl_force force;
} tl_in;

extern const lied_connector tl_flange;
extern const lied_port_layout tl_out_layout, tl_in_layout;

/* Real signals: the public API's (lied_real_in, lied_real_out). */
extern const lied_class tl_ground_class, tl_slider_class, tl_mass_class;

#define TL_NOMIN (-HUGE_VAL)
#define TL_NOMAX (HUGE_VAL)

#endif
