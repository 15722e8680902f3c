/* lied/table.h - tables and maps as component parameters: y(x) of any
 * length and z(x1, x2) on a grid, shared read-only by every instance that
 * uses them, looked up from blocks with a cached interval.
 *
 * A component declares a table parameter with the flag LIED_PARAM_TABLE (a
 * 1-D table y(x)) or LIED_PARAM_MAP (a 2-D map z(x1, x2)) of lied/component.h
 * on a field of type `const lied_table *` (len 0; def, min, max unused).
 * lied sets the field to the table the model gives (in Lua: a lied.table
 * {...}); the data is one copy per distinct table, owned by the model (and
 * by the Lua object it came from) and freed with it, so an array of a
 * million instances sharing a table holds a million pointers to one table.
 * Every table parameter must be given; its data is checked when the model
 * is built (breakpoints finite and strictly increasing, values finite, the
 * sizes), with the component and the parameter in the message.
 *
 * A block looks a table up with a hint of its own instance (a field of type
 * lied_table_hint, one per block that looks up, not shared between blocks):
 * the interval found last, tried first, then its successor, then a binary
 * search, so lookups along time or a slowly moving input cost O(1), and the
 * result never depends on the hint. Lookups allocate nothing.
 *
 *   typedef struct my_fan {
 *     lied_real_in V; lied_real_out dp;
 *     const lied_table *curve;     (parameter "curve", flag LIED_PARAM_TABLE)
 *     lied_table_hint at;
 *   } my_fan;
 *   static void fan_eval(const lied_env *env, my_fan *f) {
 *     f->dp.y.y = lied_table_lookup(env, f, f->curve, &f->at, f->V.y->y);
 *   }
 *
 * See docs/components.md, "Tables and maps". */
#ifndef LIED_TABLE_H
#define LIED_TABLE_H
#include <stddef.h>
#include <stdint.h>
#include "lied/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A 1-D table or a 2-D map: opaque and read-only. */
typedef struct lied_table lied_table;

/* A block's cache of the last interval (one index per dimension). Any
 * value is valid (start from zero); lookups keep it up to date. */
typedef struct lied_table_hint {
  uint32_t i, j;
} lied_table_hint;

/* Interpolation between the breakpoints. */
enum {
  LIED_TABLE_LINEAR = 0, /* 1-D: linear; 2-D: bilinear */
  LIED_TABLE_SMOOTH = 1, /* 1-D: monotone cubic (Steffen 1990); 2-D: bicubic
                            Hermite with Steffen's slopes along each axis */
  LIED_TABLE_CONSTANT = 2, /* 1-D only: y[i] on [x[i], x[i+1]) (a staircase) */
};
/* Extrapolation outside the breakpoints. */
enum {
  LIED_TABLE_HOLD = 0,     /* the value at the nearest end */
  LIED_TABLE_EXTEND = 1,   /* linear, with the slope at the end (C1 for smooth) */
  LIED_TABLE_PERIODIC = 2, /* x wrapped into [x first, x last) */
  LIED_TABLE_ERROR = 3,    /* a block fault naming the component and the time */
};

/* y(x) of a 1-D table. Outside its breakpoints as its extrapolation says;
 * LIED_TABLE_ERROR reports a block fault (lied_block_fault(env, self, ...),
 * see lied/component.h) and returns NaN. env may be NULL (no fault is
 * reported: init functions, tests). */
double lied_table_lookup(const lied_env *env, const void *self, const lied_table *t,
                         lied_table_hint *hint, double x);
/* z(x1, x2) of a 2-D map. */
double lied_table_lookup2(const lied_env *env, const void *self, const lied_table *t,
                          lied_table_hint *hint, double x1, double x2);

/* Lane forms (lied/component.h, "lane form"): lane l of the n <= LIED_LANES
 * lanes looks up tables[l] with hints[l] at x[l] (x1[l], x2[l]) into y[l],
 * the same bits as the scalar lookup. Point them at a group's fields with
 * LIED_LANE_TABLE and LIED_LANE_HINT; a fault names the lane's copy. */
void lied_table_lookup_lanes(const lied_env *env, const lied_table *const *tables,
                             lied_table_hint *hints, const double *x, double *y, size_t n);
void lied_table_lookup2_lanes(const lied_env *env, const lied_table *const *tables,
                              lied_table_hint *hints, const double *x1, const double *x2,
                              double *y, size_t n);
#define LIED_LANE_TABLE(TYPE, base, FIELD)                                               \
  ((const lied_table *const *)(const void *)((base) + offsetof(TYPE, FIELD) * LIED_LANES))
#define LIED_LANE_HINT(TYPE, base, FIELD)                                                \
  ((lied_table_hint *)(void *)((base) + offsetof(TYPE, FIELD) * LIED_LANES))

/* What a component may read of a table (in init, or a next-event function):
 * its rank (1 or 2), the number of breakpoints along dimension d (0, or 1
 * for a map's x2), the breakpoints, the values (a map's row-major: z(x1[i],
 * x2[j]) at i * size(t, 1) + j), the interpolation and extrapolation
 * (LIED_TABLE_*) and a name for messages ("cycle.csv: speed"). */
int lied_table_rank(const lied_table *t);
size_t lied_table_size(const lied_table *t, int d);
const double *lied_table_breaks(const lied_table *t, int d);
const double *lied_table_values(const lied_table *t);
int lied_table_interpolation(const lied_table *t);
int lied_table_extrapolation(const lied_table *t);
const char *lied_table_name(const lied_table *t);
/* The first breakpoint of a 1-D table strictly after x, repeated every
 * period for a periodic table (x first + k (x last - x first)), else
 * INFINITY: what a next-event function returns to land on the rows. */
double lied_table_next_break(const lied_table *t, double x);

#ifdef __cplusplus
}
#endif
#endif
