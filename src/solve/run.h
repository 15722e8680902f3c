/* run.h - internal to src/solve: one simulation run as the drivers (fixed
 * step, adaptive, cvode) share it: options resolved, state vector, output
 * points, counters, and the helpers for recording, names and errors.
 * Every function returning int follows core/err.h: LIED_OK, or a negative
 * lied_status equal to R->e->code. */
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
  double tout;       /* its time; INFINITY when none is left, and in every-step mode */
  long nrhs;         /* every derivative evaluation through lied_run_rhs */
  /* Events (events.h): evaluations at times >= t_cut (the next time event)
   * see t_left, the largest double below it: the values just before the
   * jump. INFINITY when no time event lies ahead. */
  double t_cut, t_left;
  double t_row;      /* time of the last row recorded (-INFINITY: none) */
  struct lied_events *ev; /* NULL: the model has no events */
  int kinks;         /* the run locates kinks (LIED_ZC_KINK): the adaptive solvers */
  struct lied_pool *pool; /* the run's threads (threads.h), or NULL */
  struct lied_aug *aug;   /* the sparse formulation (sched/aug.h), or NULL */
  double cpu0;       /* process CPU time at the start (threads.c) */
} lied_run;

/* The time an evaluation at t sees (the left limit at a time event). */
static inline double lied_run_time(const lied_run *R, double t) {
  return t >= R->t_cut ? R->t_left : t;
}

/* ---- run.c --------------------------------------------------------------- */

/* The right-hand side in lied_rhs_fn form (ctx is the lied_run); counts nrhs. */
int lied_run_rhs(void *ctx, double t, const double *x, double *dx);

/* Output point k: start + k * interval, the last one exactly stop. */
double lied_run_tout(const lied_run *R, uint64_t k);

/* Evaluate outputs at (t, x) and push a row to the recorder (if any). */
int lied_run_record(lied_run *R, double t, const double *x);

/* Nonzero when the stop flag is set (marks the run interrupted). */
int lied_run_stopped(lied_run *R);

/* Name of state i into buf. */
void lied_run_state_name(const lied_run *R, uint64_t i, char *buf, size_t cap);

/* Structural sparsity of the derivatives (malloc'ed CSR, see sched.h);
 * LIED_E_LIMIT beyond UINT32_MAX states. */
int lied_run_sparsity(lied_run *R, uint64_t **rowptr, uint32_t **cols);
/* The sparse formulation (sched/aug.h; docs/solvers.md, "Sparse implicit
 * steps") for models with sparse linear sections (R->s->naug > 0):
 * lied_run_aug plans it once (R->aug; LIED_OK, also when the model has
 * none: R->aug stays NULL); lied_run_rhs_aug evaluates [f; g] at y (ctx: R);
 * lied_run_aug_point puts the model's own unknowns after an evaluation at x
 * into y beyond the states. */
int lied_run_aug(lied_run *R);
int lied_run_rhs_aug(void *ctx, double t, const double *y, double *out);
void lied_run_aug_point(const lied_run *R, double *y);

/* ---- points.c: what every driver does around a step ----------------------- */

/* The state at output time tout inside the step just taken: *x points to
 * it (a buffer of the driver's, valid until the next call). LIED_OK or a
 * negative status with a message. */
typedef int (*lied_dense_fn)(void *ctx, double tout, const double **x);

/* The first output point (kout 1; none in every-step mode). */
void lied_run_points_init(lied_run *R);

/* The output points a step ending at t1 covers (every point not yet
 * emitted at or before t1; the last point is exactly stop): each is
 * recorded with the state dense() gives at it, or x1 when dense is NULL
 * (the step ends exactly on the points it covers, or no recorder observes
 * them), and reported to the progress hook. Call it once per step, after
 * the step and before the state at its start is overwritten when dense()
 * needs that. */
int lied_run_points(lied_run *R, double t1, const double *x1, lied_dense_fn dense, void *ctx);

/* After accepted steps to (t, x), st->steps counted: a state that is not
 * finite is a failure (LIED_E_NONFINITE, "at t = T: state NAME became
 * VALUE"); in every-step mode the row at t; the progress hook every
 * LIED_PROGRESS_STEPS steps. */
int lied_run_stepped(lied_run *R, double t, const double *x);

/* ---- the drivers ---------------------------------------------------------- */

/* Each returns LIED_OK (done, or interrupted: st->interrupted) or a negative
 * status with a message naming the time; R->t is the time reached and R->x
 * the state there; every output up to the failure has been recorded. */
int lied_run_fixed(lied_run *R, const lied_solver *s);    /* fixed.c */
int lied_run_adaptive(lied_run *R, const lied_solver *s); /* adapt.c */
int lied_run_cvode(lied_run *R);                          /* cvode.c */

#endif
