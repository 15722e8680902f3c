/* fixed.c - the fixed-step driver: equal steps of at most dt that land
 * exactly on every output point, taken by a fixed-step stepper (explicit
 * Runge-Kutta over the whole state vector or in fused blocks, diagonally
 * implicit Runge-Kutta). */
#include <math.h>
#include <stdlib.h>
#include "solve/fused.h"
#include "solve/stepper.h"

/* The fixed-step grid: equal steps of at most dt between output points,
 * each landing exactly on one. */
typedef struct fgrid {
  const lied_run *R;
  double dt;
  uint64_t k;     /* the current interval ends at output point k */
  double tout, h; /* its end and step */
  long nsteps, j; /* its steps, and how many of them are taken */
} fgrid;

/* Interval k of the grid, from t. */
static void grid_interval(fgrid *g, double t) {
  g->tout = lied_run_tout(g->R, g->k);
  double ns = ceil((g->tout - t) / g->dt - 1e-9);
  if (ns < 1) ns = 1;
  g->nsteps = (long)ns;
  g->h = (g->tout - t) / ns;
  g->j = 0;
}

/* The end of the next step, which starts at t. */
static double grid_next(fgrid *g, double t) {
  g->j++;
  return g->j == g->nsteps ? g->tout : t + g->h;
}

/* The next block: up to `most` steps from times[0] along the grid g (which
 * moves past them), their ends into times[1 ..]; returns their count. A
 * block ends at an output point unless nobody observes it (`unobserved`:
 * the steps are the same, only no row is written there), and at stop. */
static long grid_block(fgrid *g, double *times, long most, int unobserved, double stop) {
  long b = 0;
  for (;;) {
    times[b + 1] = grid_next(g, times[b]);
    if (++b == most || (g->j == g->nsteps && (!unobserved || g->tout >= stop))) return b;
    if (g->j == g->nsteps) { /* an output point nobody observes */
      g->k++;
      grid_interval(g, g->tout);
    }
  }
}

/* The stepper for a fixed-step solver: implicit; explicit on n independent
 * copies, chunk by chunk (fused.h), unless the options say no; explicit
 * over the whole state vector. */
static int fixed_stepper(lied_stepper *S, const lied_solver *s, lied_run *R) {
  if (s->implicit) return lied_fdirk_new(S, s->tab, R);
  if (!R->o->no_fuse && lied_fused_applies(R->s)) return lied_fused_stepper_new(S, s->tab, R);
  return lied_ferk_new(S, s->tab, R);
}

/* A block that fails or is interrupted leaves x as it was and is taken
 * again one step at a time (the stepper says LIED_RETRY), so a failure
 * names its exact step and an interruption is seen at the top of the loop. */
int lied_run_fixed(lied_run *R, const lied_solver *s) {
  lied_stepper S;
  LIED_TRY(fixed_stepper(&S, s, R));
  const int unobserved = !R->out && !R->o->progress;
  const long block = S.max_block;
  fgrid g = {R, R->o->dt > 0 ? R->o->dt : R->span / 1000, 1, 0, 0, 0, 0};
  double *x = R->x;
  double t = R->t;
  int rc = LIED_OK;
  long single = 0; /* steps before this count go one at a time (a failed block) */
  grid_interval(&g, t);
  while (!lied_run_stopped(R)) {
    double times[LIED_BLOCK_MAX + 1];
    long most = R->st->steps >= single ? block - (R->st->steps & (block - 1)) : 1;
    fgrid ge = g;
    times[0] = t;
    long b = grid_block(&ge, times, most, unobserved, R->stop);
    rc = S.steps(S.self, times, (int)b, x);
    if (rc == LIED_RETRY) {
      single = R->st->steps + b;
      rc = LIED_OK;
      continue;
    }
    if (rc) break;
    t = times[b];
    g = ge;
    R->st->steps += b;
    if ((rc = lied_run_stepped(R, t, x))) break;
    if (g.j < g.nsteps) continue;
    /* the block ends on an output point */
    if ((rc = lied_run_points(R, t, x, NULL, NULL)) || g.tout >= R->stop) break;
    g.k++;
    grid_interval(&g, t);
  }
  R->t = t;
  if (S.stats) S.stats(S.self, R->st);
  S.free(S.self);
  return rc;
}
