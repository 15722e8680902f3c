/* dopri.c - table-driven explicit embedded Runge-Kutta step with error
 * estimate and dense output (dopri45): first same as last when the table
 * allows, so an accepted step costs stages - 1 evaluations. */
#include <stdlib.h>
#include <string.h>
#include "solve/erk.h"
#include "solve/newton.h"
#include "solve/stepper.h"
#include "solve/vec.h"

typedef struct aerk {
  const lied_tableau *tab;
  lied_run *R;
  uint64_t n;
  int s;
  int fsal;     /* last stage is f(t + h, x_new) */
  int have_k0;  /* k[0] = f(t, x) of the current step start */
  double *k;    /* s * n */
  double *xnew, *xtmp, *w, *bt;
} aerk;

static void aerk_free(void *self) {
  aerk *a = self;
  if (!a) return;
  free(a->k);
  free(a->xnew);
  free(a->xtmp);
  free(a->w);
  free(a->bt);
  free(a);
}

/* out = x + h sum_j c_j k_j: the stage formation every explicit table shares. */
static void combine(const aerk *a, const double *x, double h, const double *c, int nk,
                    double *out) {
  lied_vec_combine(a->R->pool, (size_t)a->n, x, h, c, nk, a->k, (size_t)a->n, out);
}

static int aerk_attempt(void *self, double t, double h, const double *x, double *err,
                        uint64_t *worst) {
  aerk *a = self;
  const lied_tableau *tab = a->tab;
  uint64_t n = a->n;
  int s = a->s;
  if (!a->have_k0) {
    LIED_TRY(lied_run_rhs(a->R, t, x, a->k));
    a->have_k0 = 1;
  }
  for (int i = 1; i < s; i++) {
    combine(a, x, h, tab->a + (size_t)i * (size_t)s, i, a->xtmp);
    LIED_TRY(lied_run_rhs(a->R, t + tab->c[i] * h, a->xtmp, a->k + (size_t)i * n));
  }
  if (a->fsal)
    memcpy(a->xnew, a->xtmp, sizeof *x * n); /* the last stage's argument */
  else
    combine(a, x, h, tab->b, s, a->xnew);
  /* error estimate h sum (b - bhat)_j k_j, in xtmp */
  memset(a->xtmp, 0, sizeof *x * n);
  for (int j = 0; j < s; j++) {
    double d = h * (tab->b[j] - tab->bhat[j]);
    if (d == 0.0) continue;
    const double *kj = a->k + (size_t)j * n;
    for (uint64_t i = 0; i < n; i++) a->xtmp[i] += d * kj[i];
  }
  lied_weights(n, x, a->xnew, a->R->rtol, a->R->atol, a->w);
  *err = lied_vec_wrms(a->R->pool, n, a->xtmp, a->w, worst);
  return LIED_OK;
}

/* x(t + theta h) = x + h sum_i b_i(theta) k_i with the table's polynomials. */
static void aerk_interp(void *self, const double *x, double h, double theta, double *out) {
  aerk *a = self;
  const lied_tableau *tab = a->tab;
  int d = tab->dense_degree;
  for (int i = 0; i < a->s; i++) {
    double p = 0;
    for (int q = d - 1; q >= 0; q--) p = (p + tab->dense[i * d + q]) * theta;
    a->bt[i] = p;
  }
  combine(a, x, h, a->bt, a->s, out);
}

static void aerk_accept(void *self, double *x) {
  aerk *a = self;
  memcpy(x, a->xnew, sizeof *x * a->n);
  if (a->fsal) {
    memcpy(a->k, a->k + (size_t)(a->s - 1) * a->n, sizeof *x * a->n);
  } else {
    a->have_k0 = 0;
  }
}

static const double *aerk_candidate(void *self) { return ((aerk *)self)->xnew; }
static void aerk_restart(void *self) { ((aerk *)self)->have_k0 = 0; }

int lied_aerk_new(lied_stepper *st, const lied_tableau *tab, lied_run *R) {
  lied_err *e = R->e;
  if (!tab->bhat || !tab->dense)
    return lied_errc(e, LIED_E_USAGE,
                     "solver %s: an adaptive explicit method needs embedded weights "
                     "and dense output",
                     tab->name);
  aerk *a = lied_xcalloc(1, sizeof *a, "solver", e);
  if (!a) return LIED_E_NOMEM;
  uint64_t n = R->n;
  int s = tab->stages;
  a->tab = tab;
  a->R = R;
  a->n = n;
  a->s = s;
  a->fsal = lied_tableau_fsal(tab);
  a->k = lied_xcalloc((size_t)s * (size_t)n + 1, sizeof *a->k, "solver work space", e);
  a->xnew = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  a->xtmp = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  a->w = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  a->bt = lied_xcalloc((size_t)s, sizeof(double), "solver work space", e);
  if (!a->k || !a->xnew || !a->xtmp || !a->w || !a->bt) {
    aerk_free(a);
    return LIED_E_NOMEM;
  }
  int q = tab->embedded_order < tab->order ? tab->embedded_order : tab->order;
  *st = (lied_stepper){.self = a, .err_order = q + 1, .attempt = aerk_attempt,
                       .interp = aerk_interp, .accept = aerk_accept,
                       .candidate = aerk_candidate, .restart = aerk_restart,
                       .free = aerk_free};
  return LIED_OK;
}
