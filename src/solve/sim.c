/* sim.c - a simulation run: the options checked and resolved, the state
 * vector set up, the first output row, the driver of the solver's kind
 * (fixed.c, adapt.c, cvode.c), statistics. */
#include "solve/sim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/sched.h"
#include "solve/events.h"
#include "sched/aug.h"
#include "solve/run.h"
#include "solve/threads.h"
#include "core/clock.h"

/* ---- options ------------------------------------------------------------- */

static int bad_solver(const char *solver, lied_err *e) {
  char names[512] = "";
  size_t n = 0;
  for (int i = 0; i < lied_solver_count(); i++)
    if (n < sizeof names)
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "",
                            lied_solver_at(i)->name);
  if (!*solver) /* given, and empty: not the default (issue 47) */
    return lied_errc(e, LIED_E_USAGE, "the solver name is empty (available: %s)", names);
  return lied_errc(e, LIED_E_USAGE, "unknown solver '%s' (available: %s)", solver, names);
}

int lied_solver_check(const char *name, lied_err *e) {
  return !name || lied_solver_find(name) ? LIED_OK : bad_solver(name, e);
}

/* Check the options and resolve the defaults into R. */
static int resolve(lied_run *R, const lied_sim_opts *o, const lied_solver *s) {
  lied_err *e = R->e;
  if (!(o->stop > o->start) || !isfinite(o->start) || !isfinite(o->stop)) {
    return lied_errc(e, LIED_E_USAGE, "stop time %.17g must be after start time %.17g", o->stop,
                     o->start);
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

/* ---- the run ------------------------------------------------------------- */

/* The run of R from its start: the outputs begun, the schedule prepared,
 * the states reset, the events started and the first row recorded, then
 * the solver's loop; without outputs, every variable (outputs included)
 * left consistent with the last state. */
static int run_from_start(lied_run *R, const lied_solver *s) {
  lied_sched *sc = R->s;
  const lied_output *out = R->out;
  lied_err *e = R->e;
  int rc = LIED_OK;
  if (out) rc = out->begin(out->ctx, e);
  if (!rc) rc = lied_sched_prepare(sc, R->t, e);
  if (!rc) {
    if (R->o->x0) {
      memcpy(R->x, R->o->x0, sizeof *R->x * (size_t)R->n);
      lied_sched_scatter(sc, R->x);
    } else {
      lied_sched_reset_states(sc);
      lied_sched_gather_x(sc, R->x);
    }
    rc = lied_events_start(R->ev, R->t, R->x);
    if (!rc) rc = lied_run_record(R, R->t, R->x);
  }
  if (!rc) {
    if (!s->adaptive)
      rc = lied_run_fixed(R, s);
    else if (s->tab)
      rc = lied_run_adaptive(R, s);
#ifdef LIED_HAVE_CVODE
    else
      rc = lied_run_cvode(R);
#endif
  }
  if (rc == 0 && !out) rc = lied_sched_evaluate(sc, lied_run_time(R, R->t), R->x, NULL, 1, e);
  return rc;
}

int lied_simulate(lied_sched *sc, const lied_sim_opts *o, const lied_output *out,
                  volatile sig_atomic_t *stop_flag, lied_sim_stats *st,
                  lied_err *e) {
  memset(st, 0, sizeof *st);
  const char *solver = o->solver ? o->solver : "rk4"; /* NULL: the default; "" is refused */
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
  if (!rc) rc = lied_threads_begin(&R);
  if (rc) return rc;
  lied_run_points_init(&R);
  R.kinks = s->adaptive;
  rc = lied_events_new(&R.ev, &R);
  if (rc) return rc;
  R.x = lied_xcalloc(R.n + 1, sizeof(double), "state vector", e);
  if (!R.x) {
    lied_events_free(R.ev);
    lied_threads_end(&R);
    return LIED_E_NOMEM;
  }
  R.t = o->start;
  double t0 = lied_wall();
  unsigned long long f0 = sc->st.factorisations;
  rc = run_from_start(&R, s);
  st->t_end = R.t;
  st->rhs = R.nrhs;
  st->wall = lied_wall() - t0;
  st->factorisations = sc->st.factorisations - f0;
  lied_err tmp = {0};
  if (out) {
    int rc2 = out->end(out->ctx, rc ? &tmp : e);
    if (!rc) rc = rc2;
  }
  free(R.x);
  lied_aug_free(R.aug);
  lied_events_free(R.ev);
  lied_threads_end(&R);
  return rc;
}
