/* fixed.c - the fixed-step driver: equal steps of at most dt that land
 * exactly on every output point, taken by a fixed-step stepper (explicit
 * Runge-Kutta over the whole state vector or in fused blocks, diagonally
 * implicit Runge-Kutta). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solve/events.h"
#include "solve/fused.h"
#include "solve/wave.h"
#include "solve/stepper.h"

/* The fixed-step grid: equal steps of at most dt between output points,
 * each landing exactly on one. */
typedef struct fgrid {
  const lied_run *R;
  double dt;
  uint64_t k;     /* the current interval ends at output point k */
  double tout, h; /* its end and step */
  long nsteps, j; /* its steps, and how many of them are taken */
  int resume;     /* a step was cut short by an event: the next step ends at */
  double tresume; /* its grid time, then the grid goes on */
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
 * the steps are the same, only no row is written there), at stop, and at
 * the time event tcut: a step that would cross it ends there, and the next
 * block starts with the rest of that step (the grid is taken up again). */
static long grid_block(fgrid *g, double *times, long most, int unobserved, double stop,
                       double tcut) {
  long b = 0;
  for (;;) {
    double tn;
    if (g->resume) {
      tn = g->tresume;
      g->resume = 0;
    } else {
      tn = grid_next(g, times[b]);
    }
    if (tn > tcut) {
      g->resume = 1;
      g->tresume = tn;
      tn = tcut;
    }
    times[++b] = tn;
    if (tn >= tcut || g->resume) return b;
    if (b == most || (g->j == g->nsteps && (!unobserved || g->tout >= stop))) return b;
    if (g->j == g->nsteps) { /* an output point nobody observes */
      g->k++;
      grid_interval(g, g->tout);
    }
  }
}

/* Cubic Hermite dense output of one fixed step (for locating a zero
 * crossing, lied_dense_fn): from x0, f(t0, x0), x1, f(t1, x1), the
 * derivatives evaluated on first use. */
typedef struct hermite {
  lied_run *R;
  double t0, t1;
  const double *x0, *x1;
  double *f0, *f1, *out;
  int have_f;
} hermite;

static int hermite_at(void *ctx, double t, const double **x) {
  hermite *H = ctx;
  const uint64_t n = H->R->n;
  if (!H->have_f) {
    LIED_TRY(lied_run_rhs(H->R, H->t0, H->x0, H->f0));
    LIED_TRY(lied_run_rhs(H->R, H->t1, H->x1, H->f1));
    H->have_f = 1;
  }
  const double h = H->t1 - H->t0, th = (t - H->t0) / h;
  const double t2 = th * th, t3 = t2 * th;
  const double h00 = 2 * t3 - 3 * t2 + 1, h10 = (t3 - 2 * t2 + th) * h;
  const double h01 = -2 * t3 + 3 * t2, h11 = (t3 - t2) * h;
  for (uint64_t i = 0; i < n; i++)
    H->out[i] = h00 * H->x0[i] + h10 * H->f0[i] + h01 * H->x1[i] + h11 * H->f1[i];
  *x = H->out;
  return LIED_OK;
}

/* The stepper for a fixed-step solver: implicit; explicit on n independent
 * copies, chunk by chunk (fused.h), unless the options say no; explicit
 * over the whole state vector. */
static int fixed_stepper(lied_stepper *S, const lied_solver *s, lied_run *R) {
  if (s->implicit) return lied_fdirk_new(S, s->tab, R);
  if (!R->o->no_fuse && lied_fused_applies(R->s)) return lied_fused_stepper_new(S, s->tab, R);
  if (!R->o->no_fuse && lied_wave_applies(R->s)) return lied_wave_stepper_new(S, s->tab, R);
  return lied_ferk_new(S, s->tab, R);
}

/* A block that fails or is interrupted leaves x as it was and is taken
 * again one step at a time (the stepper says LIED_RETRY), so a failure
 * names its exact step and an interruption is seen at the top of the loop.
 * With zero functions (events.h) every step is a block of one, checked for
 * a crossing and cut there. */
static int fixed_loop(lied_run *R, lied_stepper *S, hermite *H) {
  lied_events *V = R->ev;
  const int zeros = V && V->nzero;
  const int unobserved = !R->out && !R->o->progress;
  const long block = zeros ? 1 : S->max_block;
  fgrid g = {R, R->o->dt > 0 ? R->o->dt : R->span / 1000, 1, 0, 0, 0, 0, 0, 0};
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
    long b = grid_block(&ge, times, most, unobserved, R->stop, R->t_cut);
    if (zeros) memcpy(H->f0 + 3 * R->n, x, sizeof *x * R->n); /* x0 */
    rc = S->steps(S->self, times, (int)b, x);
    if (rc == LIED_RETRY) {
      single = R->st->steps + b;
      rc = LIED_OK;
      continue;
    }
    if (rc) break;
    double t1 = times[b];
    const double *xe = NULL;
    if (zeros) {
      *H = (hermite){R, times[0], t1, H->f0 + 3 * R->n, x, H->f0, H->f1, H->out, 0};
      double te;
      rc = lied_events_locate(V, times[0], t1, x, hermite_at, H, 0, INFINITY, 0, &te, &xe);
      if (rc < 0) break;
      rc = LIED_OK;
      if (xe) {
        if (!ge.resume) ge.resume = 1, ge.tresume = t1;
        t1 = te;
        memcpy(x, xe, sizeof *x * R->n);
      }
    }
    t = t1;
    g = ge;
    R->st->steps += b;
    if ((rc = lied_run_stepped(R, t, x))) break;
    if ((xe || t >= R->t_cut) && t < R->stop) { /* an event */
      if ((rc = lied_run_points(R, t, x, NULL, NULL)) || (rc = lied_events_fire(V, t, x))) break;
      if (S->restart) S->restart(S->self);
      R->st->restarts++;
    }
    if (g.j < g.nsteps || g.resume) continue;
    /* the block ends on an output point */
    if ((rc = lied_run_points(R, t, x, NULL, NULL)) || g.tout >= R->stop) break;
    g.k++;
    grid_interval(&g, t);
  }
  R->t = t;
  return rc;
}

int lied_run_fixed(lied_run *R, const lied_solver *s) {
  lied_stepper S;
  LIED_TRY(fixed_stepper(&S, s, R));
  hermite H = {0};
  int rc = LIED_OK;
  if (R->ev && R->ev->nzero) { /* f0, f1, out, x0 */
    H.f0 = lied_xcalloc(4 * (size_t)R->n + 1, sizeof(double), "solver work space", R->e);
    if (!H.f0) rc = LIED_E_NOMEM;
    else H.f1 = H.f0 + R->n, H.out = H.f1 + R->n;
  }
  if (!rc) rc = fixed_loop(R, &S, &H);
  free(H.f0);
  if (S.stats) S.stats(S.self, R->st);
  S.free(S.self);
  return rc;
}
