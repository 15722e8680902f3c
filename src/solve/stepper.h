/* stepper.h - internal to src/solve: the adaptive steppers (table-driven
 * explicit with dense output, diagonally implicit with Newton) as the
 * adaptive driver sees them, and the step-size controller. */
#ifndef LIED_SOLVE_STEPPER_H
#define LIED_SOLVE_STEPPER_H
#include "solve/butcher.h"
#include "solve/run.h"

/* Outcome of one step attempt. */
enum { LIED_STEP_OK = 0, LIED_STEP_FAIL = 1 }; /* FAIL: retry with a smaller step */

/* An adaptive stepper. attempt() computes a candidate step of size h from
 * (t, x) and its weighted error norm *err (<= 1 passes; NaN when a value is
 * not finite), *worst the state with the largest error; it returns
 * LIED_STEP_OK, LIED_STEP_FAIL (Newton failure: *worst names the state), or
 * -1 (an error message is set). interp() evaluates the candidate's dense
 * output at t + theta h; accept() makes it the new x. */
typedef struct lied_stepper {
  void *self;
  int err_order;      /* the error estimate is O(h^err_order) */
  int implicit;
  int (*attempt)(void *self, double t, double h, const double *x, double *err,
                 uint64_t *worst);
  void (*interp)(void *self, const double *x, double h, double theta, double *out);
  void (*accept)(void *self, double *x);
  void (*free)(void *self);
  void (*stats)(void *self, lied_sim_stats *st);
} lied_stepper;

/* Table-driven explicit embedded Runge-Kutta with dense output (dopri.c). */
int lied_aerk_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);
/* Diagonally implicit embedded Runge-Kutta (esdirk.c). */
int lied_adirk_new(lied_stepper *s, const lied_tableau *tab, lied_run *R);

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
