/* tables.c - signals from tables and maps (lied/table.h): TimeTable (y of
 * the time), Table1D (y of an input), Table2D (y of two inputs). Their
 * table parameter takes a lied.table {...} of any length; every copy of an
 * array shares it (docs/signals.md, "Tables"). */
#include <math.h>
#include "lib/signals/signals.h"
#include "lied/table.h"

/* ---- TimeTable: y(t) ---- */

typedef struct sig_timetable {
  lied_real_out y;
  const lied_table *table;
  lied_table_hint at;
  int events;
} sig_timetable;

static void timetable_eval(const lied_env *env, sig_timetable *c) {
  c->y.y.y = lied_table_lookup(env, c, c->table, &c->at, env->t);
}
LIED_BLOCK(timetable_block, sig_timetable, timetable_eval)

LIED_LANE_FN static void timetable_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  double t[LIED_LANES];
  for (size_t l = 0; l < n && l < LIED_LANES; l++) t[l] = env->t;
  lied_table_lookup_lanes(env, LIED_LANE_TABLE(sig_timetable, g, table),
                          LIED_LANE_HINT(sig_timetable, g, at), t,
                          LIED_LANE(sig_timetable, g, y.y.y), n);
}

/* Which rows are time events: every row of a staircase (y jumps there) or
 * with events = 1 (the kinks too); else only where a periodic table wraps
 * around (it may jump there), or none. */
static int timetable_rows_are_events(const sig_timetable *c) {
  return c->events || lied_table_interpolation(c->table) == LIED_TABLE_CONSTANT;
}

static double timetable_next(const void *self, double t) {
  const sig_timetable *c = self;
  if (timetable_rows_are_events(c)) return lied_table_next_break(c->table, t);
  const double *x = lied_table_breaks(c->table, 0);
  const size_t n = lied_table_size(c->table, 0);
  return lied_periodic_next(t, x[0], x[n - 1] - x[0]);
}

static void timetable_meta(lied_meta *m, void *self) {
  sig_timetable *c = self;
  sig_meta_source(m, &c->y, timetable_block, LIED_SIGS(&lied_time));
  lied_meta_lanes(m, timetable_lanes);
  if (timetable_rows_are_events(c) ||
      lied_table_extrapolation(c->table) == LIED_TABLE_PERIODIC)
    lied_meta_time_events(m, timetable_next);
}

static const lied_param timetable_params[] = {
    {"table", offsetof(sig_timetable, table), 0, "", "y(t): a lied.table, or rows {{t, y}, ...}",
     0, 0, LIED_PARAM_TABLE, 0},
    {"events", offsetof(sig_timetable, events), 0, "1",
     "1: every row is a time event (the solvers land on the kinks)", 0, 1, LIED_PARAM_INT, 0},
};
const lied_class sig_timetable_class = {
    "TimeTable", "signals",
    "y(t) from a table of any length (lied.table: linear, cubic or a staircase; rows are time "
    "events only for a staircase or with events = 1)",
    sizeof(sig_timetable), timetable_params, 2, NULL, timetable_meta};

/* ---- kinks at the breakpoints (docs/events.md, "Kinks") ----
 * A linear lookup kinks at every breakpoint of its input: the kink function of dimension d is 0 at every breakpoint and
 * changes sign there, +-(u - x_i)(x_i+1 - u) / (x_i+1 - x_i) on [x_i, x_i+1]
 * (sign (-1)^i, slope +-1 at the breakpoints), u - x_0 below the first. A
 * periodic table's input is wrapped first (its wrap crosses zero only for an
 * odd number of breakpoints). Smooth (cubic) lookups are C1: no kinks. A
 * staircase jumps at its breakpoints: not a kink (a step taken again to end
 * just past the jump would evaluate its last stages on the next stair, an
 * error of h |jump|); it would need a mode held by an event (not built). */
static int table_kinks(const lied_table *t, int kinks) {
  return kinks && t && lied_table_interpolation(t) == LIED_TABLE_LINEAR && lied_table_size(t, 0) > 1;
}
static double break_z(const lied_table *t, int d, double u) {
  const double *x = lied_table_breaks(t, d);
  const size_t n = lied_table_size(t, d);
  if (n < 2) return 1.0;
  if (lied_table_extrapolation(t) == LIED_TABLE_PERIODIC) {
    const double P = x[n - 1] - x[0];
    u = x[0] + (u - x[0]) - P * floor((u - x[0]) / P);
  }
  if (u <= x[0]) return u - x[0];
  if (u >= x[n - 1]) return (n % 2 ? 1.0 : -1.0) * (u - x[n - 1]);
  size_t lo = 0, hi = n - 1; /* x[lo] <= u < x[hi] */
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (x[mid] <= u) lo = mid;
    else hi = mid;
  }
  return (lo % 2 ? -1.0 : 1.0) * (u - x[lo]) * (x[hi] - u) / (x[hi] - x[lo]);
}

/* ---- Table1D: y(u) ---- */

typedef struct sig_table1 {
  lied_real_in u;
  lied_real_out y;
  const lied_table *table;
  lied_table_hint at;
  double z;  /* kink function: the breakpoints of u */
  int kinks; /* 1: declare it */
} sig_table1;

static void table1_eval(const lied_env *env, sig_table1 *c) {
  c->y.y.y = lied_table_lookup(env, c, c->table, &c->at, c->u.y->y);
}
LIED_BLOCK(table1_block, sig_table1, table1_eval)
static void table1_kink(const lied_env *env, sig_table1 *c) {
  (void)env;
  c->z = break_z(c->table, 0, c->u.y->y);
}
LIED_BLOCK(table1_kink_block, sig_table1, table1_kink)

LIED_LANE_FN static void table1_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  lied_table_lookup_lanes(env, LIED_LANE_TABLE(sig_table1, g, table),
                          LIED_LANE_HINT(sig_table1, g, at), LIED_LANE_IN(sig_table1, g, u.y),
                          LIED_LANE(sig_table1, g, y.y.y), n);
}

static void table1_meta(lied_meta *m, void *self) {
  sig_table1 *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "value", table1_block, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->y.y));
  lied_meta_lanes(m, table1_lanes);
  if (table_kinks(c->table, c->kinks)) {
    lied_meta_block(m, "kink", table1_kink_block, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->z));
    lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH | LIED_ZC_KINK);
  }
}

static const lied_param table1_params[] = {
    {"table", offsetof(sig_table1, table), 0, "", "y(u): a lied.table, or rows {{u, y}, ...}", 0,
     0, LIED_PARAM_TABLE, 0},
    {"kinks", offsetof(sig_table1, kinks), 0, "1",
     "1: the breakpoints are kinks the adaptive solvers locate (linear interpolation)", 0, 1,
     LIED_PARAM_INT, 0},
};
const lied_class sig_table1d_class = {"Table1D", "signals", "y(u) from a table (lied.table)",
                                      sizeof(sig_table1), table1_params, 2, NULL, table1_meta};

/* ---- Table2D: y(u1, u2) ---- */

typedef struct sig_table2 {
  lied_real_in u1, u2;
  lied_real_out y;
  const lied_table *table;
  lied_table_hint at;
  double z1, z2; /* kink functions: the breakpoints of u1, of u2 */
  int kinks;      /* 1: declare them */
} sig_table2;

static void table2_eval(const lied_env *env, sig_table2 *c) {
  c->y.y.y = lied_table_lookup2(env, c, c->table, &c->at, c->u1.y->y, c->u2.y->y);
}
LIED_BLOCK(table2_block, sig_table2, table2_eval)
static void table2_kink(const lied_env *env, sig_table2 *c) {
  (void)env;
  c->z1 = break_z(c->table, 0, c->u1.y->y);
  c->z2 = break_z(c->table, 1, c->u2.y->y);
}
LIED_BLOCK(table2_kink_block, sig_table2, table2_kink)

LIED_LANE_FN static void table2_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  lied_table_lookup2_lanes(env, LIED_LANE_TABLE(sig_table2, g, table),
                           LIED_LANE_HINT(sig_table2, g, at), LIED_LANE_IN(sig_table2, g, u1.y),
                           LIED_LANE_IN(sig_table2, g, u2.y), LIED_LANE(sig_table2, g, y.y.y), n);
}

static void table2_meta(lied_meta *m, void *self) {
  sig_table2 *c = self;
  lied_meta_real_in(m, "u1", 0, &c->u1);
  lied_meta_real_in(m, "u2", 0, &c->u2);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "value", table2_block, 0, LIED_SIGS(&c->u1.y, &c->u2.y), LIED_SIGS(&c->y.y));
  lied_meta_lanes(m, table2_lanes);
  if (table_kinks(c->table, c->kinks)) { /* bilinear: kinks along the grid lines */
    lied_meta_block(m, "kink", table2_kink_block, 0, LIED_SIGS(&c->u1.y, &c->u2.y),
                    LIED_SIGS(&c->z1, &c->z2));
    lied_meta_zero(m, "z1", &c->z1, LIED_ZC_BOTH | LIED_ZC_KINK);
    lied_meta_zero(m, "z2", &c->z2, LIED_ZC_BOTH | LIED_ZC_KINK);
  }
}

static const lied_param table2_params[] = {
    {"table", offsetof(sig_table2, table), 0, "", "y(u1, u2): a 2-D map (lied.table)", 0, 0,
     LIED_PARAM_MAP, 0},
    {"kinks", offsetof(sig_table2, kinks), 0, "1",
     "1: the grid lines are kinks the adaptive solvers locate (bilinear)", 0, 1, LIED_PARAM_INT, 0},
};
const lied_class sig_table2d_class = {"Table2D", "signals", "y(u1, u2) from a 2-D map (lied.table)",
                                      sizeof(sig_table2), table2_params, 2, NULL, table2_meta};
