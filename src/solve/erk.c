/* erk.c - fixed-step explicit Runge-Kutta stepper driven by a Butcher table. */
#include "solve/erk.h"
#include "lied/component.h" /* LIED_LANE_FN */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Zeroed array of count doubles (at least one, so that n = 0 is not mistaken
 * for a failure), or NULL when out of memory or count overflows. */
static double *alloc_doubles(size_t count) {
  if (count == 0)
    count = 1;
  if (count > SIZE_MAX / sizeof(double))
    return NULL;
  return calloc(count, sizeof(double));
}

/* See erk.h. Rejects a NULL or non-explicit table and stages < 1. */
int lied_erk_init(lied_erk *e, const lied_tableau *tab, size_t n) {
  memset(e, 0, sizeof *e);
  if (!tab || !tab->explicit_ || tab->stages < 1)
    return -1;
  size_t stages = (size_t)tab->stages;
  if (n > SIZE_MAX / stages)
    return -1;
  e->k = alloc_doubles(stages * n);
  e->xtmp = alloc_doubles(n);
  if (!e->k || !e->xtmp) {
    lied_erk_free(e);
    return -1;
  }
  e->tab = tab;
  e->n = n;
  return 0;
}

/* See erk.h. Safe on a zeroed or already freed struct. */
void lied_erk_free(lied_erk *e) {
  free(e->k);
  free(e->xtmp);
  e->k = NULL;
  e->xtmp = NULL;
  e->tab = NULL;
  e->n = 0;
}

/* See erk.h. One pass over the vectors for up to four nonzero weights
 * (every fixed-step table here); the sum is formed left to right, so every
 * caller gets the same bits. */
LIED_LANE_FN void lied_rk_combine(size_t n, const double *x, double h, const double *w, int nk,
                     const double *k, size_t kstride, double *out) {
  double c[4];
  const double *kp[4];
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
int lied_erk_step(lied_erk *e, lied_rhs_fn f, void *ctx, double t, double h,
                  double *x) {
  const lied_tableau *tab = e->tab;
  size_t n = e->n;
  int s = tab->stages;
  for (int i = 0; i < s; i++) {
    double *ki = e->k + (size_t)i * n;
    lied_rk_combine(n, x, h, tab->a + (size_t)i * (size_t)s, i, e->k, n, e->xtmp);
    int rc = f(ctx, t + tab->c[i] * h, e->xtmp, ki);
    e->nrhs++;
    if (rc != 0)
      return rc;
  }
  lied_rk_combine(n, x, h, tab->b, s, e->k, n, e->xtmp);
  if (n > 0)
    memcpy(x, e->xtmp, n * sizeof *x);
  return 0;
}
