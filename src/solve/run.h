/* run.h - internal to src/solve: one simulation run as the drivers (fixed
 * step, adaptive, cvode) share it: options resolved, state vector, output
 * points, counters, and the helpers for recording, names and errors. */
#ifndef LIED_SOLVE_RUN_H
#define LIED_SOLVE_RUN_H
#include <stdint.h>
#include "solve/sim.h"

typedef struct lied_run {
  lied_sched *s;       /* the model's schedule (s->model: its instances) */
  const lied_sim_opts *o;
  const lied_output *out; /* NULL: nothing observes output points */
  volatile sig_atomic_t *stop_flag;
  lied_sim_stats *st;
  lied_err *e;
  uint64_t n;        /* states */
  double *x;         /* the state at time t (length n + 1) */
  double t;          /* time reached */
  double start, stop, span;
  double interval;   /* output interval */
  int every_step;    /* adaptive: output after every accepted step */
  double rtol, atol; /* tolerances (resolved: positive) */
  double hmax;       /* largest adaptive step (resolved: positive) */
  uint64_t kout;     /* index of the next output point (interval mode) */
  long nrhs;         /* every derivative evaluation through lied_run_rhs */
} lied_run;

/* The right-hand side in lied_rhs_fn form (ctx is the lied_run); counts nrhs. */
int lied_run_rhs(void *ctx, double t, const double *x, double *dx);

/* Output point k: start + k * interval, the last one exactly stop. */
double lied_run_tout(const lied_run *R, uint64_t k);

/* Evaluate outputs at (t, x) and push a row to the recorder (if any). */
int lied_run_record(lied_run *R, double t, const double *x);

/* Nonzero when the stop flag is set (marks the run interrupted). */
int lied_run_stopped(lied_run *R);

/* Call the progress hook every LIED_PROGRESS_STEPS accepted steps. */
void lied_run_progress(lied_run *R, double t);

/* -1 with "at t = T: state NAME became VALUE" when x has a non-finite entry. */
int lied_run_check_finite(lied_run *R, double t, const double *x);

/* Name of state i into buf. */
void lied_run_state_name(const lied_run *R, uint64_t i, char *buf, size_t cap);

/* Structural sparsity of the derivatives (malloc'ed CSR, see sched.h). */
int lied_run_sparsity(lied_run *R, uint64_t **rowptr, uint32_t **cols);

/* The drivers. Each returns 0 (done, or interrupted: st->interrupted) or -1
 * with a message naming the time; R->t is the time reached and R->x the
 * state there; every output up to the failure has been recorded. */
int lied_run_fixed(lied_run *R, const lied_solver *s);    /* sim.c */
int lied_run_adaptive(lied_run *R, const lied_solver *s); /* adapt.c */
int lied_run_cvode(lied_run *R);                          /* cvode.c */

#endif
