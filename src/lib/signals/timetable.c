/* timetable.c - TimeTable: y piecewise linear in t through the rows
 * (t[i], y[i]) of a table, held constant before the first and after the
 * last row. In Lua: signals.TimeTable { table = {{0, 0}, {1, 2}, {3, 2}} }
 * (lua/lied/signals.lua turns the rows into the vectors t, y and n). */
#include "lib/signals/signals.h"

typedef struct sig_timetable {
  lied_real_out y;
  int n;
  double t[SIG_TABLE_ROWS], v[SIG_TABLE_ROWS];
} sig_timetable;

/* The value at time x: binary search for the last row with t <= x. */
static double table_eq(const double *t, const double *v, int n, double x) {
  if (x <= t[0]) return v[0];
  if (x >= t[n - 1]) return v[n - 1];
  int lo = 0, hi = n - 1; /* t[lo] < x < t[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (t[mid] <= x) lo = mid; else hi = mid;
  }
  return v[lo] + (v[hi] - v[lo]) * ((x - t[lo]) / (t[hi] - t[lo]));
}

static void timetable_eval(const lied_env *env, sig_timetable *c) {
  c->y.y.y = table_eq(c->t, c->v, c->n, env->t);
}
LIED_BLOCK(timetable_block, sig_timetable, timetable_eval)

static int timetable_init(void *self, lied_init *ctx) {
  sig_timetable *c = self;
  if (c->n < 1) {
    lied_init_error(ctx, "TimeTable: no rows: give table = {{t1, y1}, {t2, y2}, ...}");
    return -1;
  }
  for (int i = 1; i < c->n; i++)
    if (!(c->t[i] > c->t[i - 1])) {
      lied_init_error(ctx, "TimeTable: the times must increase: row %d has t = %g after t = %g "
                           "in row %d", i + 1, c->t[i], c->t[i - 1], i);
      return -1;
    }
  return 0;
}

/* Time events: every row (y kinks there). */
static double timetable_next(const void *self, double t) {
  const sig_timetable *c = self;
  for (int i = 0; i < c->n; i++)
    if (c->t[i] > t) return c->t[i];
  return INFINITY;
}

static void timetable_meta(lied_meta *m, void *self) {
  sig_timetable *c = self;
  sig_meta_source(m, &c->y, timetable_block, LIED_SIGS(&lied_time));
  lied_meta_time_events(m, timetable_next);
}

static const lied_param timetable_params[] = {
    {"n", offsetof(sig_timetable, n), 0, "1", "number of rows (table = {{t, y}, ...} sets it)", 1,
     SIG_TABLE_ROWS, LIED_PARAM_INT, 0},
    {"t", offsetof(sig_timetable, t), 0, "s", "times of the rows, increasing (first n used)",
     SIG_NOMIN, SIG_NOMAX, 0, SIG_TABLE_ROWS},
    {"y", offsetof(sig_timetable, v), 0, "1", "values of the rows (first n used)", SIG_NOMIN,
     SIG_NOMAX, 0, SIG_TABLE_ROWS},
};
const lied_class sig_timetable_class = {
    "TimeTable", "signals",
    "y piecewise linear through the rows {t, y} of a table (at most 64), held outside",
    sizeof(sig_timetable), timetable_params, 3, timetable_init, timetable_meta};
