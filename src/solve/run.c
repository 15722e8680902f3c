/* run.c - the helpers of one simulation run that every driver uses: the
 * right-hand side, output rows, the stop flag, state names, sparsity. */
#include "solve/run.h"
#include "sched/aug.h"

int lied_run_rhs(void *ctx, double t, const double *x, double *dx) {
  lied_run *R = ctx;
  R->nrhs++;
  /* x is a buffer of the driver's (state, stage): the halo hook may write it */
  if (R->o->halo) LIED_TRY(R->o->halo(R->o->halo_ctx, (double *)(uintptr_t)x, R->e));
  return lied_sched_evaluate(R->s, lied_run_time(R, t), x, dx, 0, R->e);
}

double lied_run_tout(const lied_run *R, uint64_t k) {
  double tout = R->start + (double)k * R->interval;
  if (tout > R->stop - 1e-12 * R->span) tout = R->stop;
  return tout;
}

int lied_run_record(lied_run *R, double t, const double *x) {
  if (!R->out) return LIED_OK;
  if (R->o->halo) LIED_TRY(R->o->halo(R->o->halo_ctx, (double *)(uintptr_t)x, R->e));
  LIED_TRY(lied_sched_evaluate(R->s, lied_run_time(R, t), x, NULL, 1, R->e));
  R->st->outputs++;
  R->t_row = t;
  return R->out->row(R->out->ctx, t, R->e);
}

int lied_run_stopped(lied_run *R) {
  if (R->stop_flag && *R->stop_flag) R->st->interrupted = 1;
  return R->st->interrupted;
}

void lied_run_state_name(const lied_run *R, uint64_t i, char *buf, size_t cap) {
  lied_sched_state_name(R->s, i, buf, cap);
}

int lied_run_sparsity(lied_run *R, uint64_t **rowptr, uint32_t **cols) {
  if (R->n > UINT32_MAX)
    return lied_errc(R->e, LIED_E_LIMIT,
                     "implicit solvers handle at most %lu states, the model has %llu",
                     (unsigned long)UINT32_MAX, (unsigned long long)R->n);
  return lied_sched_sparsity(R->s, rowptr, cols, R->e);
}

int lied_run_aug(lied_run *R) {
  if (R->aug || !R->s->naug) return LIED_OK;
  return lied_aug_new(R->s, &R->aug, R->e);
}

int lied_run_rhs_aug(void *ctx, double t, const double *y, double *out) {
  lied_run *R = ctx;
  R->nrhs++;
  return lied_aug_eval(R->s, R->aug, lied_run_time(R, t), y, out, R->e);
}

void lied_run_aug_point(const lied_run *R, double *y) { lied_aug_point(R->s, R->aug, y); }
