/* run.c - a run of a built system assembled in C (run.h): no Lua here. The
 * parts own what they open in one struct, freed in one place (run_free) on
 * every path, success or failure. */
#include "binding/run.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/clock.h"
#include "dist/dist.h"
#include "record/progress.h"

/* What a run holds while it is assembled and runs. */
typedef struct run {
  lied_system *sys;
  const lied_run_spec *spec;
  lied_run_out *out;
  lied_recorder rec;
  lied_params params;
  lied_halo *halo;
  lied_progress bar;
  double *x0;    /* the steady start's states (spec->steady), or NULL */
  int rank;      /* this process's rank under mpirun, else 0 */
  int to_stdout; /* an output is CSV on stdout (no progress bar on that terminal) */
} run;

static void run_free(run *r) {
  lied_halo_free(r->halo);
  lied_recorder_free(&r->rec);
  lied_params_free(&r->params);
  free(r->x0);
}

/* The steady start (spec->steady): the states it selects at their steady
 * state, the others at their start values, into r->x0 for the run. */
static int steady_start(run *r, lied_sim_opts *o, lied_err *e) {
  lied_sched *s = r->sys->sched;
  r->x0 = lied_xcalloc((size_t)s->nstates + 1, sizeof *r->x0, "steady start", e);
  if (!r->x0) return LIED_E_NOMEM;
  const lied_start_opts so = {.t = o->start, .states = r->spec->steady, .stop = r->spec->stop};
  const double w0 = lied_wall();
  int rc = lied_steady_start(s, &so, r->x0, &r->out->start, e);
  r->out->start_wall = lied_wall() - w0;
  if (!rc) o->x0 = r->x0;
  return rc;
}

/* The variables to record. LIED_WALK_STOPPED when the stop flag ended a
 * pattern's walk (r->out->names so far). */
static int select_vars(run *r, lied_err *e) {
  const lied_run_spec *sp = r->spec;
  if (sp->nouts == 0 && !sp->memory) return LIED_OK;
  const int rc = lied_recorder_select(&r->rec, r->sys->model, sp->vars, sp->stop, e);
  if (rc == LIED_WALK_STOPPED) r->out->names = (int64_t)r->rec.n;
  if (rc || !sp->memory) return rc;
  r->out->mem = lied_mem_sink(e);
  if (!r->out->mem) return lied_err_code(e);
  return lied_recorder_add_sink(&r->rec, &r->out->mem->base, 0, e);
}

/* The model's parameters, when an output writes them: MAT files unless
 * params = 0, CSV with params = 1; under mpirun each copy's once, from the
 * rank that owns it. */
static int collect_params(run *r, lied_err *e) {
  const lied_run_spec *sp = r->spec;
  for (int i = 0; i < sp->nouts && sp->params != 0; i++) {
    const int kind = lied_output_kind(sp->outs[i]);
    if (kind == LIED_OUT_MAT ||
        (sp->params > 0 && (kind == LIED_OUT_CSV || kind == LIED_OUT_STDOUT))) {
      if (lied_params_collect(&r->params, r->sys->model, LIED_RUN_PARAMS_MAX, e))
        return lied_err_code(e);
      if (sp->dist && (lied_halo_own_params(&r->params, r->sys->model) ||
                       lied_dist_params(&r->params, LIED_RUN_PARAMS_MAX, e)))
        return lied_err_code(e);
      return LIED_OK;
    }
  }
  return LIED_OK;
}

/* The outputs, one sink (several through a multiplexer), their parameters;
 * under mpirun rank 0 gathers the rows of all, the other ranks send theirs. */
static int open_outputs(run *r, lied_err *e) {
  const lied_run_spec *sp = r->spec;
  if (sp->nouts == 0) return LIED_OK;
  lied_sink *out = NULL;
  if (sp->dist && r->rank != 0) { /* rows go to rank 0 */
    if (!(out = lied_dist_sink(NULL, &r->rec, e))) return lied_err_code(e);
    lied_dist_sink_coupled(out, r->sys->model);
    return lied_recorder_add_sink(&r->rec, out, 1, e);
  }
  if (sp->nouts > 1 && !(out = lied_mux_sink(e))) return lied_err_code(e);
  for (int i = 0; i < sp->nouts; i++) {
    r->to_stdout |= lied_output_kind(sp->outs[i]) == LIED_OUT_STDOUT;
    lied_sink *s = lied_output_open(sp->outs[i], sp->clients, sp->stop, e);
    if (s && r->params.n) lied_output_params(s, sp->outs[i], &r->params, sp->params > 0);
    if (!s || (out && lied_mux_add(out, s, e))) {
      if (out) out->destroy(out);
      return lied_err_code(e);
    }
    if (!out) out = s;
  }
  if (sp->dist && !(out = lied_dist_sink(out, &r->rec, e))) /* rank 0: gathers the rows */
    return lied_err_code(e);
  if (sp->dist) lied_dist_sink_coupled(out, r->sys->model);
  return lied_recorder_add_sink(&r->rec, out, 1, e);
}

/* The progress bar (on rank 0 only), when asked or, by default, when stderr
 * is a terminal that CSV on stdout does not share. */
static int want_progress(const run *r) {
  int p = r->spec->progress;
  if (p < 0) p = isatty(STDERR_FILENO) && !(r->to_stdout && isatty(STDOUT_FILENO));
  return r->rank == 0 && p;
}

/* Simulate, with the progress bar and, for a slice of coupled arrays under
 * mpirun, the halo exchange before every evaluation (then no fused steps
 * and no waves: their stages run chunk by chunk). */
static int simulate(run *r, lied_err *e) {
  const lied_run_spec *sp = r->spec;
  lied_sim_opts o = sp->sim;
  const int progress = want_progress(r);
  if (progress) {
    lied_progress_init(&r->bar, stderr, isatty(STDERR_FILENO), o.start, o.stop,
                       sp->progress_delay);
    o.progress = lied_progress_update;
    o.progress_ctx = &r->bar;
  }
  volatile sig_atomic_t *flag = sp->stop;
  /* a Ctrl-C before the run is forgotten (the REPL's prompt); a terminating
   * signal (the flag is 128 + its number: SIGTERM, SIGHUP) stops the run at
   * its first row */
  if (flag && *flag <= 128) *flag = 0;
  lied_output output = lied_recorder_output(&r->rec);
  if (sp->dist && lied_halo_new(&r->halo, r->sys->sched, o.start, o.solver, e))
    return lied_err_code(e);
  o.halo = r->halo ? lied_halo_exchange : NULL;
  o.halo_ctx = r->halo;
  if (r->halo) o.no_fuse = 1;
  if (sp->steady) {
    int rc = steady_start(r, &o, e);
    if (rc) return rc;
  }
  lied_sim_stats *st = &r->out->stats;
  const int rc = lied_simulate(r->sys->sched, &o, r->rec.nsinks ? &output : NULL, flag, st, e);
  r->out->ran = 1;
  if (flag) { /* consumed: st->interrupted tells */
    r->out->signal = *flag > 128 ? (int)*flag - 128 : 0;
    *flag = 0;
  }
  if (progress) lied_progress_finish(&r->bar, st->t_end, st->interrupted);
  return rc;
}

int lied_run_system(lied_system *sys, const lied_run_spec *spec, lied_run_out *out,
                    lied_err *e) {
  run r;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  r.sys = sys;
  r.spec = spec;
  r.out = out;
  r.rank = spec->dist ? lied_dist_rank() : 0;
  e->msg[0] = 0;
  int rc = select_vars(&r, e);
  if (!rc) rc = collect_params(&r, e);
  if (!rc) rc = open_outputs(&r, e);
  if (!rc) rc = simulate(&r, e);
  run_free(&r);
  if (rc && !out->ran && out->mem) { /* nothing ran: no rows to keep */
    out->mem->base.destroy(&out->mem->base);
    out->mem = NULL;
  }
  return rc;
}
