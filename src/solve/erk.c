/* erk.c - fixed-step explicit Runge-Kutta stepper driven by a Butcher table,
 * and the same as a fixed-step stepper of the simulator (stepper.h). */
#include "solve/erk.h"
#include "lied/component.h" /* LIED_LANE_FN */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "solve/stepper.h"
#include "solve/vec.h"

/* See erk.h. Rejects a NULL or non-explicit table and stages < 1. */
int lied_erk_init(lied_erk *rk, const lied_tableau *tab, size_t n, lied_err *e) {
  memset(rk, 0, sizeof *rk);
  if (!tab || !tab->explicit_ || tab->stages < 1)
    return lied_errc(e, LIED_E_USAGE, "solver %s: not an explicit Runge-Kutta table",
                     tab ? tab->name : "(none)");
  size_t stages = (size_t)tab->stages;
  if (n > SIZE_MAX / stages)
    return lied_errc(e, LIED_E_NOMEM, "out of memory (%zu stages of %zu states)", stages, n);
  /* lied_xcalloc allocates at least one element: n = 0 is no failure */
  rk->k = lied_xcalloc(stages * n, sizeof(double), "solver work space", e);
  rk->xtmp = lied_xcalloc(n, sizeof(double), "solver work space", e);
  if (!rk->k || !rk->xtmp) {
    lied_erk_free(rk);
    return LIED_E_NOMEM;
  }
  rk->tab = tab;
  rk->n = n;
  return LIED_OK;
}

/* See erk.h. Safe on a zeroed or already freed struct. */
void lied_erk_free(lied_erk *rk) {
  free(rk->k);
  free(rk->xtmp);
  rk->k = NULL;
  rk->xtmp = NULL;
  rk->tab = NULL;
  rk->n = 0;
}

/* See erk.h. One pass over the vectors for up to four nonzero weights
 * (every fixed-step table here); the sum is formed left to right, so every
 * caller gets the same bits. */
LIED_LANE_FN void lied_rk_combine(size_t n, const double *restrict x, double h, const double *w,
                                  int nk, const double *restrict k, size_t kstride,
                                  double *restrict out) {
  double c[4];
  const double *restrict kp[4];
  int nt = 0;
  for (int j = 0; j < nk; j++) {
    if (w[j] == 0.0) continue;
    if (nt == 4) { /* more terms: partial sums, then the rest pass by pass */
      for (size_t m = 0; m < n; m++)
        out[m] = c[0] * kp[0][m] + c[1] * kp[1][m] + c[2] * kp[2][m] + c[3] * kp[3][m];
      for (; j < nk; j++) {
        if (w[j] == 0.0) continue;
        const double *kj = k + (size_t)j * kstride;
        for (size_t m = 0; m < n; m++) out[m] += w[j] * kj[m];
      }
      for (size_t m = 0; m < n; m++) out[m] = x[m] + h * out[m];
      return;
    }
    c[nt] = w[j];
    kp[nt++] = k + (size_t)j * kstride;
  }
  switch (nt) {
  case 0:
    if (n) memcpy(out, x, n * sizeof *out);
    break;
  case 1:
    for (size_t m = 0; m < n; m++) out[m] = x[m] + h * (c[0] * kp[0][m]);
    break;
  case 2:
    for (size_t m = 0; m < n; m++) out[m] = x[m] + h * (c[0] * kp[0][m] + c[1] * kp[1][m]);
    break;
  case 3:
    for (size_t m = 0; m < n; m++)
      out[m] = x[m] + h * (c[0] * kp[0][m] + c[1] * kp[1][m] + c[2] * kp[2][m]);
    break;
  default:
    for (size_t m = 0; m < n; m++)
      out[m] = x[m] + h * (c[0] * kp[0][m] + c[1] * kp[1][m] + c[2] * kp[2][m] +
                           c[3] * kp[3][m]);
  }
}

/* See erk.h. Stage i evaluates f at t + c_i h and x + h sum_{j<i} a_ij k_j;
 * the new state is formed in xtmp and copied to x only after every stage has
 * succeeded. Every evaluation of f counts in nrhs, failed ones included. */
int lied_erk_step(lied_erk *rk, lied_rhs_fn f, void *ctx, double t, double h,
                  double *x) {
  const lied_tableau *tab = rk->tab;
  size_t n = rk->n;
  int s = tab->stages;
  for (int i = 0; i < s; i++) {
    double *ki = rk->k + (size_t)i * n;
    lied_vec_combine(rk->pool, n, x, h, tab->a + (size_t)i * (size_t)s, i, rk->k, n, rk->xtmp);
    int rc = f(ctx, t + tab->c[i] * h, rk->xtmp, ki);
    rk->nrhs++;
    if (rc != 0)
      return rc;
  }
  lied_vec_combine(rk->pool, n, x, h, tab->b, s, rk->k, n, rk->xtmp);
  if (n > 0)
    memcpy(x, rk->xtmp, n * sizeof *x);
  return LIED_OK;
}

/* ---- as a fixed-step stepper (stepper.h) --------------------------------- */

typedef struct ferk {
  lied_erk rk;
  lied_run *R;
} ferk;

/* One step (max_block 1) over the whole state vector. */
static int ferk_steps(void *self, const double *times, int nsteps, double *x) {
  ferk *F = self;
  (void)nsteps;
  if (lied_erk_step(&F->rk, lied_run_rhs, F->R, times[0], times[1] - times[0], x))
    return lied_err_at(F->R->e, times[0]);
  return LIED_OK;
}

static void ferk_free(void *self) {
  ferk *F = self;
  lied_erk_free(&F->rk);
  free(F);
}

int lied_ferk_new(lied_stepper *S, const lied_tableau *tab, lied_run *R) {
  ferk *F = lied_xcalloc(1, sizeof *F, "solver", R->e);
  if (!F) return LIED_E_NOMEM;
  int rc = lied_erk_init(&F->rk, tab, (size_t)R->n, R->e);
  if (rc) {
    free(F);
    return rc;
  }
  F->R = R;
  F->rk.pool = R->pool;
  *S = (lied_stepper){.self = F, .steps = ferk_steps, .max_block = 1, .free = ferk_free};
  return LIED_OK;
}
