/* stepper.h - internal to src/solve: the steppers (one integration method
 * over the run's state vector, as the drivers see it) and the step-size
 * controller of the adaptive driver. */
#ifndef LIED_SOLVE_STEPPER_H
#define LIED_SOLVE_STEPPER_H
#include "solve/butcher.h"
#include "solve/run.h"

/* Most steps a fixed-step stepper takes per call (its max_block): blocks
 * start at multiples of max_block steps, so they end at progress points. */
#define LIED_BLOCK_MAX LIED_PROGRESS_STEPS

/* A stepper. A constructor sets the functions of its kind and leaves the
 * others NULL; every status follows core/err.h.
 *
 * Adaptive (lied_run_adaptive): attempt() computes a candidate step of size
 * h from (t, x) and its weighted error norm *err (<= 1 passes; NaN when a
 * value is not finite), *worst the state with the largest error; it returns
 * LIED_OK, LIED_RETRY (the Newton iteration failed or its matrix is
 * singular: retry with a smaller step; *worst names the state with the
 * largest update) or a negative status. interp() evaluates the candidate's
 * dense output at t + theta h; accept() makes the candidate the new x.
 *
 * Fixed step (lied_run_fixed): steps() takes nsteps steps (1 <= nsteps <=
 * max_block), step j from times[j] to times[j + 1] (the driver's grid: the
 * results depend on these times only), and x becomes the state at
 * times[nsteps]. It returns LIED_OK; LIED_RETRY when a block of more than
 * one step was not completed (stopped through the run's stop flag, or a
 * step failed): x is unchanged and the driver takes those steps again one
 * at a time, so that a failure names its exact step; or a negative status
 * with a message naming the time (x unchanged). max_block is a power of
 * two, at most LIED_BLOCK_MAX.
 *
 * stats() (may be NULL) adds the stepper's counters to st; free() releases
 * the stepper. */
typedef struct lied_stepper {
  void *self;
  /* adaptive */
  int err_order;      /* the error estimate is O(h^err_order) */
  int implicit;       /* step-size growth limits of implicit methods */
  int (*attempt)(void *self, double t, double h, const double *x, double *err,
                 uint64_t *worst);
  void (*interp)(void *self, const double *x, double h, double theta, double *out);
  void (*accept)(void *self, double *x);
  /* the candidate's new state (before accept) */
  const double *(*candidate)(void *self);
  /* fixed step */
  int (*steps)(void *self, const double *times, int nsteps, double *x);
  int max_block;
  /* both */
  /* After an event (events.h): forget what carried over from the last step
   * (first-same-as-last stage, Jacobian). May be NULL. */
  void (*restart)(void *self);
  void (*stats)(void *self, lied_sim_stats *st);
  void (*free)(void *self);
} lied_stepper;

/* Adaptive: table-driven explicit embedded Runge-Kutta with dense output
 * (dopri.c); diagonally implicit embedded Runge-Kutta (esdirk.c). */
int lied_aerk_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);
int lied_adirk_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);

/* Fixed step: explicit Runge-Kutta over the whole state vector (erk.c);
 * explicit Runge-Kutta in blocks of steps chunk by chunk of copies, for a
 * schedule where lied_fused_applies (fused.c; sets st->fused, lanes,
 * no_lanes); diagonally implicit Runge-Kutta, a Newton failure being an
 * error (esdirk.c). */
int lied_ferk_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);
int lied_fused_stepper_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);
/* ... and in waves over a skewed schedule where lied_wave_applies (wave.c;
 * sets st->fused). */
int lied_wave_stepper_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);
int lied_fdirk_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);

/* PI step-size controller (control.c). */
typedef struct lied_ctrl {
  double k;           /* error order: exponents 0.7 / k and 0.4 / k */
  double err_prev;
  int rejected;       /* the last attempt was rejected: no growth */
  double fac_max;
} lied_ctrl;

void lied_ctrl_init(lied_ctrl *c, int err_order, int implicit);
/* Factor for the next step after an accepted step with error err <= 1. */
double lied_ctrl_accept(lied_ctrl *c, double err);
/* Factor for the retry after a rejected step (err > 1 or NaN). */
double lied_ctrl_reject(lied_ctrl *c, double err);

/* Inverse error weights 1 / (atol + rtol * max(|x|, |y|)) (y may be NULL). */
void lied_weights(uint64_t n, const double *x, const double *y, double rtol, double atol,
                  double *w);

#endif
