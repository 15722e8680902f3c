/* sim.c - the simulation run: options, setup, recording helpers, and the
 * fixed-step loop (explicit Runge-Kutta and backward Euler). */
#include "solve/sim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/sched.h"
#include "solve/erk.h"
#include "solve/esdirk.h"
#include "solve/fused.h"
#include "solve/run.h"

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- helpers shared by the drivers (run.h) ------------------------------- */

int lied_run_rhs(void *ctx, double t, const double *x, double *dx) {
  lied_run *R = ctx;
  R->nrhs++;
  return lied_sched_evaluate(R->s, t, x, dx, 0, R->e);
}

double lied_run_tout(const lied_run *R, uint64_t k) {
  double tout = R->start + (double)k * R->interval;
  if (tout > R->stop - 1e-12 * R->span) tout = R->stop;
  return tout;
}

int lied_run_record(lied_run *R, double t, const double *x) {
  if (!R->out) return LIED_OK;
  LIED_TRY(lied_sched_evaluate(R->s, t, x, NULL, 1, R->e));
  R->st->outputs++;
  return R->out->row(R->out->ctx, t, R->e);
}

int lied_run_stopped(lied_run *R) {
  if (R->stop_flag && *R->stop_flag) R->st->interrupted = 1;
  return R->st->interrupted;
}

void lied_run_progress(lied_run *R, double t) {
  if (R->o->progress && (R->st->steps & (LIED_PROGRESS_STEPS - 1)) == 0)
    R->o->progress(R->o->progress_ctx, t);
}

void lied_run_state_name(const lied_run *R, uint64_t i, char *buf, size_t cap) {
  lied_sched_state_name(R->s, i, buf, cap);
}

/* First non-finite entry of x, or -1. */
static long first_nonfinite(const double *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (!isfinite(x[i])) return (long)i;
  return -1;
}

int lied_run_check_finite(lied_run *R, double t, const double *x) {
  long bad = first_nonfinite(x, R->n);
  if (bad < 0) return 0;
  char name[512];
  lied_run_state_name(R, (uint64_t)bad, name, sizeof name);
  return lied_errf(R->e, "at t = %.17g: state %s became %g", t, name, x[bad]);
}

int lied_run_sparsity(lied_run *R, uint64_t **rowptr, uint32_t **cols) {
  if (R->n > UINT32_MAX)
    return lied_errf(R->e, "implicit solvers handle at most %lu states, the model has %llu",
                     (unsigned long)UINT32_MAX, (unsigned long long)R->n);
  return lied_sched_sparsity(R->s, rowptr, cols, R->e);
}

/* ---- options ------------------------------------------------------------- */

static int bad_solver(const char *solver, lied_err *e) {
  char names[512] = "";
  size_t n = 0;
  for (int i = 0; i < lied_solver_count(); i++)
    if (n < sizeof names)
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "",
                            lied_solver_at(i)->name);
  return lied_errc(e, LIED_E_USAGE, "unknown solver '%s' (available: %s)", solver, names);
}

/* Check the options and resolve the defaults into R. */
static int resolve(lied_run *R, const lied_sim_opts *o, const lied_solver *s) {
  lied_err *e = R->e;
  if (!(o->stop > o->start) || !isfinite(o->start) || !isfinite(o->stop)) {
    return lied_errc(e, LIED_E_USAGE, "stop time %g must be after start time %g", o->stop, o->start);
  }
  R->start = o->start;
  R->stop = o->stop;
  R->span = o->stop - o->start;
  if (o->dt < 0 || !isfinite(o->dt)) {
    return lied_errc(e, LIED_E_USAGE, "step size must be positive and finite, got %g", o->dt);
  }
  if (o->interval < 0 || !isfinite(o->interval)) {
    return lied_errc(e, LIED_E_USAGE, "output interval must be positive, got %g", o->interval);
  }
  double tols[3] = {o->rtol, o->atol, o->hmax};
  const char *what[3] = {"relative tolerance", "absolute tolerance", "largest step"};
  for (int i = 0; i < 3; i++)
    if (tols[i] < 0 || !isfinite(tols[i])) {
      return lied_errc(e, LIED_E_USAGE, "%s must be positive, got %g", what[i], tols[i]);
    }
  R->rtol = o->rtol > 0 ? o->rtol : 1e-6;
  R->atol = o->atol > 0 ? o->atol : 1e-6;
  R->hmax = o->hmax > 0 ? fmin(o->hmax, R->span) : R->span;
  R->every_step = s->adaptive && o->every_step;
  R->interval = o->interval;
  if (o->every_step && !s->adaptive) /* every step of a fixed-step solver */
    R->interval = o->dt > 0 ? o->dt : R->span / 1000;
  if (!(R->interval > 0)) {
    if (s->adaptive) {
      R->interval = R->span / 500;
    } else {
      double dt = o->dt > 0 ? o->dt : R->span / 1000;
      double k = floor(R->span / 500 / dt + 0.5);
      R->interval = dt * (k < 1 ? 1 : k);
    }
  }
  return 0;
}

/* ---- the fixed-step loop ------------------------------------------------- */

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

/* Fused explicit steps go in blocks (fused.h) of at most this many steps,
 * which end at progress points. */
#define FUSED_BLOCK LIED_PROGRESS_STEPS

/* Equal steps of at most dt that land exactly on every output point. Fused
 * explicit steps go in blocks of up to FUSED_BLOCK steps, which also end at
 * output points unless nobody observes them (no recorder sink, no progress
 * hook: the steps are the same, only the rows are not written). A block
 * that fails or is interrupted leaves x as it was and is taken again one
 * step at a time, so a failure names its exact step. */
int lied_run_fixed(lied_run *R, const lied_solver *s) {
  const lied_sim_opts *o = R->o;
  lied_erk erk;
  lied_dirk dirk;
  lied_fused fused;
  int implicit = s->implicit;
  /* explicit steps on n independent copies: chunk by chunk (fused.h) */
  int fuse = !implicit && !o->no_fuse && lied_fused_applies(R->s);
  memset(&erk, 0, sizeof erk);
  memset(&dirk, 0, sizeof dirk);
  memset(&fused, 0, sizeof fused);
  fgrid g = {R, o->dt > 0 ? o->dt : R->span / 1000, 1, 0, 0, 0, 0};
  if (implicit) {
    if (lied_dirk_init(&dirk, s->tab, R)) return -1;
  } else if (fuse ? lied_fused_init(&fused, R->s, s->tab, !o->no_lanes)
                  : lied_erk_init(&erk, s->tab, R->n)) {
    return lied_errf(R->e, "out of memory (solver work space for %llu states)",
                     (unsigned long long)R->n);
  }
  if (fuse) {
    R->st->fused = 1;
    R->st->lanes = fused.lane;
    snprintf(R->st->no_lanes, sizeof R->st->no_lanes, "%s",
             o->no_lanes ? "not asked for" : fused.no_lanes);
  }
  const int unobserved = !R->out && !o->progress;
  double *x = R->x;
  double t = R->t;
  int rc = 0;
  long single = 0; /* steps before this count go one at a time (a failed block) */
  grid_interval(&g, t);
  while (rc == 0) {
    if (R->stop_flag && *R->stop_flag) {
      R->st->interrupted = 1;
      break;
    }
    /* the block: b steps ending at times[1 .. b], the grid then at ge */
    double times[FUSED_BLOCK + 1];
    long b = 0, most = 1;
    if (fuse && R->st->steps >= single)
      most = FUSED_BLOCK - (R->st->steps & (FUSED_BLOCK - 1));
    fgrid ge = g;
    times[0] = t;
    for (;;) {
      times[b + 1] = grid_next(&ge, times[b]);
      if (++b == most || (ge.j == ge.nsteps && (!unobserved || ge.tout >= R->stop))) break;
      if (ge.j == ge.nsteps) { /* an output point nobody observes */
        ge.k++;
        grid_interval(&ge, ge.tout);
      }
    }
    if (implicit) {
      rc = lied_dirk_step(&dirk, t, times[1] - t, x);
    } else if (fuse) {
      int r = lied_fused_steps(&fused, times, (int)b, x, b > 1 ? R->stop_flag : NULL, R->e);
      if (r && b > 1) { /* x unchanged: again, one step at a time (stopped: the
                            test at the top of the loop ends the run) */
        single = R->st->steps + b;
        continue;
      }
      if (r) rc = lied_err_at(R->e, t);
      R->nrhs += b * s->tab->stages;
    } else if (lied_erk_step(&erk, lied_run_rhs, R, t, times[1] - t, x)) {
      rc = lied_err_at(R->e, t);
    }
    if (rc) break;
    t = times[b];
    g = ge;
    R->st->steps += b;
    if (o->progress && (R->st->steps & (LIED_PROGRESS_STEPS - 1)) == 0)
      o->progress(o->progress_ctx, t);
    rc = lied_run_check_finite(R, t, x);
    if (rc || g.j < g.nsteps) continue;
    /* an output point */
    rc = lied_run_record(R, t, x);
    if (o->progress) o->progress(o->progress_ctx, t);
    if (g.tout >= R->stop) break;
    g.k++;
    grid_interval(&g, t);
  }
  R->t = t;
  if (implicit) {
    lied_dirk_stats(&dirk, R->st);
    lied_dirk_free(&dirk);
  }
  lied_erk_free(&erk);
  lied_fused_free(&fused);
  return rc;
}

/* ---- the run ------------------------------------------------------------- */

int lied_simulate(lied_sched *sc, const lied_sim_opts *o, const lied_output *out,
                  volatile sig_atomic_t *stop_flag, lied_sim_stats *st,
                  lied_err *e) {
  memset(st, 0, sizeof *st);
  const char *solver = o->solver && *o->solver ? o->solver : "rk4";
  const lied_solver *s = lied_solver_find(solver);
  if (!s) return bad_solver(solver, e);
  lied_run R;
  memset(&R, 0, sizeof R);
  R.s = sc;
  R.o = o;
  R.out = out;
  R.stop_flag = stop_flag;
  R.st = st;
  R.e = e;
  R.n = sc->nstates;
  int rc = resolve(&R, o, s);
  if (rc) return rc;
  R.x = lied_xcalloc(R.n + 1, sizeof(double), "state vector", e);
  if (!R.x) return LIED_E_NOMEM;
  R.t = o->start;
  double t0 = wall_now();
  unsigned long long f0 = sc->st.factorisations;
  if (out) rc = out->begin(out->ctx, e);
  if (!rc) rc = lied_sched_prepare(sc, R.t, e);
  if (!rc) {
    lied_sched_reset_states(sc);
    lied_sched_gather_x(sc, R.x);
    rc = lied_run_record(&R, R.t, R.x);
  }
  if (!rc) {
    if (!s->adaptive)
      rc = lied_run_fixed(&R, s);
    else if (s->tab)
      rc = lied_run_adaptive(&R, s);
#ifdef LIED_HAVE_CVODE
    else
      rc = lied_run_cvode(&R);
#endif
  }
  /* leave every variable (outputs included) consistent with the last state */
  if (rc == 0 && !out) rc = lied_sched_evaluate(sc, R.t, R.x, NULL, 1, e);
  st->t_end = R.t;
  st->rhs = R.nrhs;
  st->wall = wall_now() - t0;
  st->factorisations = sc->st.factorisations - f0;
  lied_err tmp = {0};
  if (out) {
    int rc2 = out->end(out->ctx, rc ? &tmp : e);
    if (!rc) rc = rc2;
  }
  free(R.x);
  return rc < 0 ? lied_err_code(e) : rc;
}
