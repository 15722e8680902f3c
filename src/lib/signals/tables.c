/* tables.c - signals from tables and maps (lied/table.h): TimeTable (y of
 * the time), Table1D (y of an input), Table2D (y of two inputs). Their
 * table parameter takes a lied.table {...} of any length; every copy of an
 * array shares it (docs/signals.md, "Tables"). */
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

/* ---- Table1D: y(u) ---- */

typedef struct sig_table1 {
  lied_real_in u;
  lied_real_out y;
  const lied_table *table;
  lied_table_hint at;
} sig_table1;

static void table1_eval(const lied_env *env, sig_table1 *c) {
  c->y.y.y = lied_table_lookup(env, c, c->table, &c->at, c->u.y->y);
}
LIED_BLOCK(table1_block, sig_table1, table1_eval)

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
}

static const lied_param table1_params[] = {
    {"table", offsetof(sig_table1, table), 0, "", "y(u): a lied.table, or rows {{u, y}, ...}", 0,
     0, LIED_PARAM_TABLE, 0},
};
const lied_class sig_table1d_class = {"Table1D", "signals", "y(u) from a table (lied.table)",
                                      sizeof(sig_table1), table1_params, 1, NULL, table1_meta};

/* ---- Table2D: y(u1, u2) ---- */

typedef struct sig_table2 {
  lied_real_in u1, u2;
  lied_real_out y;
  const lied_table *table;
  lied_table_hint at;
} sig_table2;

static void table2_eval(const lied_env *env, sig_table2 *c) {
  c->y.y.y = lied_table_lookup2(env, c, c->table, &c->at, c->u1.y->y, c->u2.y->y);
}
LIED_BLOCK(table2_block, sig_table2, table2_eval)

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
}

static const lied_param table2_params[] = {
    {"table", offsetof(sig_table2, table), 0, "", "y(u1, u2): a 2-D map (lied.table)", 0, 0,
     LIED_PARAM_MAP, 0},
};
const lied_class sig_table2d_class = {"Table2D", "signals", "y(u1, u2) from a 2-D map (lied.table)",
                                      sizeof(sig_table2), table2_params, 1, NULL, table2_meta};
