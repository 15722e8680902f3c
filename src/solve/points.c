/* points.c - what every driver (fixed step, adaptive, cvode) does around a
 * step: the output points the step covers, and the checks and hooks after
 * it. One place, so the drivers agree on where rows go and when the
 * progress hook runs. */
#include <math.h>
#include "core/finite.h"
#include "solve/run.h"

void lied_run_points_init(lied_run *R) {
  R->kout = 1;
  R->tout = R->every_step ? INFINITY : lied_run_tout(R, R->kout);
}

int lied_run_points(lied_run *R, double t1, const double *x1, lied_dense_fn dense, void *ctx) {
  const lied_sim_opts *o = R->o;
  while (R->tout <= t1) {
    if (R->out) { /* the state there only when somebody records it */
      const double *x = x1;
      if (dense) LIED_TRY(dense(ctx, R->tout, &x));
      LIED_TRY(lied_run_record(R, R->tout, x));
    }
    if (o->progress) o->progress(o->progress_ctx, R->tout);
    R->tout = R->tout >= R->stop ? INFINITY : lied_run_tout(R, ++R->kout);
  }
  return LIED_OK;
}

/* LIED_E_NONFINITE naming the first state of x that is not finite. */
static int check_finite(lied_run *R, double t, const double *x) {
  const uint64_t i = lied_first_nonfinite(x, R->n);
  if (i < R->n) {
    char name[512];
    lied_run_state_name(R, i, name, sizeof name);
    return lied_errc(R->e, LIED_E_NONFINITE, "at t = %.17g: state %s became %g", t, name, x[i]);
  }
  return LIED_OK;
}

int lied_run_stepped(lied_run *R, double t, const double *x) {
  LIED_TRY(check_finite(R, t, x));
  if (R->every_step) LIED_TRY(lied_run_record(R, t, x));
  if (R->o->progress && (R->st->steps & (LIED_PROGRESS_STEPS - 1)) == 0)
    R->o->progress(R->o->progress_ctx, t);
  return LIED_OK;
}
