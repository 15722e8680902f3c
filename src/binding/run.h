/* run.h - a run of a built system, assembled in C without Lua: the recorder
 * and its variables, the rows kept in memory, the outputs with the model's
 * parameters, the progress bar, and under mpirun the gathering sink and the
 * halo exchange; then lied_simulate, and everything freed on every path.
 * model:run (lua_run.c) checks the options and fills a lied_run_spec; the
 * embedding API (src/embed) reaches it through model:run. */
#ifndef LIED_BINDING_RUN_H
#define LIED_BINDING_RUN_H
#include <signal.h>
#include <stdint.h>
#include "analysis/analysis.h"
#include "core/err.h"
#include "record/recorder.h"
#include "sched/system.h"
#include "solve/sim.h"

#define LIED_RUN_MAX_OUTS 16
#define LIED_RUN_PARAMS_MAX 100000 /* parameter values written with results, at most */

/* What to run and record; checked by the caller (lua_run.c): the outputs
 * by lied_output_check, "none" removed, the span by its check_run_span. */
typedef struct lied_run_spec {
  lied_sim_opts sim;   /* progress and halo hooks are set by lied_run_system */
  const char *vars;    /* names or patterns, comma-separated; NULL: the states */
  const char *outs[LIED_RUN_MAX_OUTS];
  int nouts;
  int clients;         /* TCP clients to wait for */
  int memory;          /* keep the rows in memory (not under mpirun) */
  int params;          /* parameters with the results: -1 default (MAT files),
                          0 none, 1 also CSV */
  int progress;        /* progress bar on stderr: 1, 0, -1 when a terminal shows it */
  double progress_delay;
  int dist;            /* a slice of an ensemble under mpirun (several ranks) */
  volatile sig_atomic_t *stop; /* the host's stop flag, or NULL */
  const char *steady;  /* a steady start: the states (names, glob patterns) that start
                          at their steady state (src/analysis/start.c), or NULL */
} lied_run_spec;

/* What a run gave. */
typedef struct lied_run_out {
  lied_memsink *mem;   /* the rows kept (spec.memory), the caller's to destroy */
  int ran;             /* lied_simulate ran: stats are valid */
  lied_sim_stats stats;
  int signal;          /* the terminating signal (SIGTERM, SIGHUP) that stopped it, or 0 */
  int64_t names;       /* names walked when a Ctrl-C stopped the choice of variables */
  lied_start_stats start; /* the steady start (spec.steady) */
  double start_wall;   /* its seconds */
} lied_run_out;

/* Run sys as spec says. LIED_OK; LIED_WALK_STOPPED (record/recorder.h) when
 * the stop flag ended the choice of variables (out->names so far; the flag
 * is left set for the caller to consume); a negative status with a message:
 * before the simulation (out->ran 0: nothing to keep), or from it
 * (out->ran 1: the rows so far in out->mem, the stats). */
int lied_run_system(lied_system *sys, const lied_run_spec *spec, lied_run_out *out,
                    lied_err *e);

#endif
