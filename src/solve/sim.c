/* sim.c - the simulation loop for fixed-step explicit Runge-Kutta methods. */
#include "solve/sim.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/sched.h"
#include "solve/erk.h"

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Run the constant part once per model (parameters do not change). */
static int ensure_const(lied_model *m, double t, lied_err *e) {
  lied_sched *s = m->sched;
  if (s->const_done) return 0;
  lied_env env = {t};
  s->full = 1;
  if (lied_sched_run(s, LIED_PART_CONST, &env, e)) return -1;
  s->const_done = 1;
  return 0;
}

int lied_model_eval(lied_model *m, double t, const double *x, double *dx,
                    int outputs, lied_err *e) {
  lied_sched *s = m->sched;
  lied_env env = {t};
  if (ensure_const(m, t, e)) return -1;
  s->full = outputs;
  if (lied_sched_eval(s, &env, x, dx, e)) return -1;
  s->st.evaluations++;
  if (outputs && lied_sched_run(s, LIED_PART_OUT, &env, e)) return -1;
  return 0;
}

typedef struct rhs_ctx {
  lied_model *m;
  lied_err *e;
} rhs_ctx;

static int rhs(void *ctx, double t, const double *x, double *dx) {
  rhs_ctx *c = ctx;
  return lied_model_eval(c->m, t, x, dx, 0, c->e);
}

/* First non-finite entry of x, or -1. */
static long first_nonfinite(const double *x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (!isfinite(x[i])) return (long)i;
  return -1;
}

static int record(lied_model *m, lied_recorder *r, double t, const double *x,
                  lied_sim_stats *st, lied_err *e) {
  if (!r || r->nsinks == 0) return 0;
  if (lied_model_eval(m, t, x, NULL, 1, e)) return -1;
  st->outputs++;
  return lied_recorder_sample(r, t, e);
}

int lied_simulate(lied_model *m, const lied_sim_opts *o, lied_recorder *r,
                  volatile sig_atomic_t *stop_flag, lied_sim_stats *st,
                  lied_err *e) {
  memset(st, 0, sizeof *st);
  const char *solver = o->solver && *o->solver ? o->solver : "rk4";
  const lied_tableau *tab = lied_tableau_find(solver);
  if (!tab || !tab->explicit_ || tab->bhat) {
    char names[512] = "";
    size_t n = 0;
    for (int i = 0; i < lied_tableau_count(); i++) {
      const lied_tableau *t = lied_tableau_at(i);
      if (t->explicit_ && !t->bhat && n < sizeof names)
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", t->name);
    }
    lied_errf(e, "unknown solver '%s' (available: %s)", solver, names);
    return LIED_SIM_BADOPT;
  }
  if (!(o->stop > o->start) || !isfinite(o->start) || !isfinite(o->stop)) {
    lied_errf(e, "stop time %g must be after start time %g", o->stop, o->start);
    return LIED_SIM_BADOPT;
  }
  double span = o->stop - o->start;
  double dt = o->dt > 0 ? o->dt : span / 1000;
  if (!(dt > 0) || !isfinite(dt)) {
    lied_errf(e, "step size must be positive and finite, got %g", dt);
    return LIED_SIM_BADOPT;
  }
  if (o->interval < 0 || !isfinite(o->interval)) {
    lied_errf(e, "output interval must be positive, got %g", o->interval);
    return LIED_SIM_BADOPT;
  }
  double interval = o->interval;
  if (!(interval > 0)) {
    double k = floor(span / 500 / dt + 0.5);
    interval = dt * (k < 1 ? 1 : k);
  }
  uint64_t n = m->nstates;
  lied_erk erk;
  double *x = lied_xcalloc(n + 1, sizeof(double), "state vector", e);
  if (!x) return -1;
  if (lied_erk_init(&erk, tab, n)) {
    free(x);
    return lied_errf(e, "out of memory (solver work space for %llu states)",
                     (unsigned long long)n);
  }
  rhs_ctx ctx = {m, e};
  int rc = 0;
  double t = o->start;
  double t0 = wall_now();
  unsigned long long f0 = m->sched->st.factorisations;
  if (r && r->nsinks && lied_recorder_begin(r, e)) rc = -1;
  if (!rc && ensure_const(m, t, e)) rc = -1;
  if (!rc) {
    lied_sched_reset_states(m->sched);
    lied_sched_gather_x(m->sched, x);
    rc = record(m, r, t, x, st, e);
  }
  for (uint64_t k = 1; rc == 0; k++) {
    double tout = o->start + (double)k * interval;
    if (tout > o->stop - 1e-12 * span) tout = o->stop;
    /* equal steps of at most dt that land on the output point */
    double nsteps = ceil((tout - t) / dt - 1e-9);
    if (nsteps < 1) nsteps = 1;
    double h = (tout - t) / nsteps;
    for (long j = 0; j < (long)nsteps && rc == 0; j++) {
      if (stop_flag && *stop_flag) {
        st->interrupted = 1;
        break;
      }
      double tn = j + 1 == (long)nsteps ? tout : t + h;
      if (lied_erk_step(&erk, rhs, &ctx, t, tn - t, x)) {
        lied_err_prefix(e, "at t = %.17g: ", t);
        rc = -1;
        break;
      }
      t = tn;
      st->steps++;
      if (o->progress && (st->steps & (LIED_PROGRESS_STEPS - 1)) == 0)
        o->progress(o->progress_ctx, t);
      long bad = first_nonfinite(x, n);
      if (bad >= 0) {
        char name[512];
        lied_sched_state_name(m->sched, (uint64_t)bad, name, sizeof name);
        rc = lied_errf(e, "at t = %.17g: state %s became %g", t, name, x[bad]);
      }
    }
    if (rc || st->interrupted) break;
    rc = record(m, r, t, x, st, e);
    if (o->progress) o->progress(o->progress_ctx, t);
    if (tout >= o->stop) break;
  }
  /* leave every variable (outputs included) consistent with the last state */
  if (rc == 0 && !(r && r->nsinks)) rc = lied_model_eval(m, t, x, NULL, 1, e);
  st->t_end = t;
  st->rhs = erk.nrhs;
  st->wall = wall_now() - t0;
  st->factorisations = m->sched->st.factorisations - f0;
  lied_err tmp;
  if (r && r->nsinks && r->row && lied_recorder_end(r, rc ? &tmp : e)) rc = -1;
  lied_erk_free(&erk);
  free(x);
  return rc;
}
