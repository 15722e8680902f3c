/* sim.h - a simulation run: fixed-step explicit Runge-Kutta over the model's
 * state vector, output at an interval, recorder, interruption, statistics. */
#ifndef LIED_SOLVE_SIM_H
#define LIED_SOLVE_SIM_H
#include <signal.h>
#include "core/model.h"
#include "record/recorder.h"

typedef struct lied_sim_opts {
  double start, stop;
  double dt;       /* step size; 0: (stop - start) / 1000 */
  double interval; /* output interval; 0: a multiple of dt near (stop-start)/500 */
  const char *solver;
  /* Progress hook (issue 7): when not NULL, called with the current time at
   * every output point and every LIED_PROGRESS_STEPS steps; one test per step
   * when NULL. */
  void (*progress)(void *ctx, double t);
  void *progress_ctx;
} lied_sim_opts;

typedef struct lied_sim_stats {
  long steps;
  long rhs;            /* derivative evaluations */
  long outputs;
  unsigned long long factorisations;
  double t_end;        /* time reached */
  double wall;         /* seconds spent integrating */
  int interrupted;
} lied_sim_stats;

#define LIED_PROGRESS_STEPS 64 /* steps between progress calls (a power of 2) */
#define LIED_SIM_BADOPT (-2) /* invalid options: nothing was run */

/* Run the model from its start values. `stop_flag`, when not NULL, is polled
 * once per step: nonzero stops the run (results so far are kept, flushed).
 * Returns 0, LIED_SIM_BADOPT for invalid options, or -1 with a message naming
 * the time (the recorder is flushed and its sinks stay valid either way). */
int lied_simulate(lied_model *m, const lied_sim_opts *o, lied_recorder *r,
                  volatile sig_atomic_t *stop_flag, lied_sim_stats *st,
                  lied_err *e);

/* Evaluate the model once at (t, x): derivatives into dx (may be NULL) and, if
 * outputs, also the output-only part. Used by the simulator and tests. */
int lied_model_eval(lied_model *m, double t, const double *x, double *dx,
                    int outputs, lied_err *e);

#endif
