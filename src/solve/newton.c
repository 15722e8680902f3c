/* newton.c - simplified Newton iteration with a reused iteration matrix
 * I - h gamma J, factored by dense LU (small systems) or sparse LU. */
#include "solve/newton.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "linsys/lu.h"
#include "solve/vec.h"

/* On this thread, with the bits of any thread count (solve/vec.h). */
double lied_wrms(uint64_t n, const double *v, const double *w, uint64_t *worst) {
  return lied_vec_wrms(NULL, n, v, w, worst);
}

void lied_newton_free(lied_newton *N) {
  lied_jac_free(&N->J);
  free(N->lu);
  free(N->piv);
  free(N->escale);
  lied_splu_free(N->sp);
  free(N->mval);
  free(N->fx);
  free(N->dx);
  free(N->aug);
  memset(N, 0, sizeof *N);
}

int lied_newton_init_aug(lied_newton *N, uint64_t n, uint64_t naug, const uint64_t *rowptr,
                         const uint32_t *cols, double typ, lied_err *e) {
  memset(N, 0, sizeof *N);
  N->n = n;
  N->naug = naug;
  N->eta = 1.0;
  N->kappa = 0.03;
  N->maxit = 7;
  const uint64_t na = n + naug;
  LIED_TRY(lied_jac_init(&N->J, na, rowptr, cols, typ, e));
  int rc = LIED_OK;
  N->sp = lied_splu_new(na, N->J.rowptr, N->J.cols, e);
  if (!N->sp) rc = lied_err_code(e);
  N->mval = lied_xmalloc(sizeof *N->mval * ((size_t)N->J.nnz + 1), "Newton matrix", e);
  N->fx = lied_xmalloc(sizeof *N->fx * ((size_t)n + 1), "Newton work space", e);
  N->dx = lied_xmalloc(sizeof *N->dx * ((size_t)n + 1), "Newton work space", e);
  N->aug = lied_xmalloc(sizeof *N->aug * ((size_t)na + 1), "Newton work space", e);
  if (!rc && (!N->mval || !N->fx || !N->dx || !N->aug)) rc = LIED_E_NOMEM;
  if (rc) lied_newton_free(N);
  return rc;
}

int lied_newton_init(lied_newton *N, uint64_t n, const uint64_t *rowptr,
                     const uint32_t *cols, double typ, lied_err *e) {
  memset(N, 0, sizeof *N);
  N->n = n;
  N->eta = 1.0;
  N->kappa = 0.03;
  N->maxit = 7;
  LIED_TRY(lied_jac_init(&N->J, n, rowptr, cols, typ, e));
  uint64_t dmax = lied_splu_available() ? LIED_DENSE_MAX : LIED_DENSE_MAX_NOSPARSE;
  N->dense = n <= dmax;
  int rc = LIED_OK;
  if (N->dense) {
    N->lu = lied_xmalloc(sizeof *N->lu * ((size_t)n * (size_t)n + 1), "Newton matrix", e);
    N->piv = lied_xmalloc(sizeof *N->piv * ((size_t)n + 1), "Newton matrix", e);
    N->escale = lied_xmalloc(sizeof *N->escale * (2 * (size_t)n + 1), "Newton matrix", e);
    if (!N->lu || !N->piv || !N->escale) rc = LIED_E_NOMEM;
  } else {
    if (!lied_splu_available())
      rc = lied_errc(e, LIED_E_LIMIT,
                     "implicit solvers on more than %d states need a sparse LU: "
                     "build lied with SuiteSparse KLU (Debian: libsuitesparse-dev); "
                     "the model has %llu states",
                     LIED_DENSE_MAX_NOSPARSE, (unsigned long long)n);
    if (!rc) {
      N->sp = lied_splu_new(n, N->J.rowptr, N->J.cols, e);
      if (!N->sp) rc = lied_err_code(e);
      N->mval = lied_xmalloc(sizeof *N->mval * ((size_t)N->J.nnz + 1), "Newton matrix", e);
      if (!N->mval) rc = LIED_E_NOMEM;
    }
  }
  N->fx = lied_xmalloc(sizeof *N->fx * ((size_t)n + 1), "Newton work space", e);
  N->dx = lied_xmalloc(sizeof *N->dx * ((size_t)n + 1), "Newton work space", e);
  if (!N->fx || !N->dx) rc = LIED_E_NOMEM;
  if (rc) lied_newton_free(N);
  return rc;
}

/* The dense matrix I - hg J into N->lu. */
static void fill_dense(lied_newton *N, double hg) {
  const lied_jac *J = &N->J;
  const uint64_t n = N->n;
  memset(N->lu, 0, sizeof *N->lu * (size_t)(n * n));
  for (uint64_t i = 0; i < n; i++) {
    double *row = N->lu + i * n;
    for (uint64_t p = J->rowptr[i]; p < J->rowptr[i + 1]; p++) row[J->cols[p]] = -hg * J->val[p];
    row[i] += 1.0;
  }
}

int lied_newton_factor_rows(lied_newton *N, double hg, lied_err *e) {
  if (!N->dense) return lied_newton_factor(N, hg, e);
  N->nfact++;
  N->hg = 0;
  fill_dense(N, hg);
  if (lied_lu_factor_equilibrated(N->lu, (int)N->n, N->piv, N->escale, NULL) != LIED_OK)
    return LIED_RETRY;
  N->hg = hg;
  return LIED_OK;
}

int lied_newton_factor(lied_newton *N, double hg, lied_err *e) {
  const lied_jac *J = &N->J;
  uint64_t n = N->n;
  N->nfact++;
  N->hg = 0;
  int rc;
  if (N->dense) {
    fill_dense(N, hg);
    rc = lied_lu_factor(N->lu, (int)n, N->piv, NULL) == LIED_OK ? LIED_OK : LIED_RETRY;
  } else if (N->naug) { /* [I - hg F_x, -hg F_z; G_x, G_z] */
    for (uint64_t p = 0; p < J->rowptr[n]; p++) N->mval[p] = -hg * J->val[p];
    for (uint64_t p = J->rowptr[n]; p < J->nnz; p++) N->mval[p] = J->val[p];
    for (uint64_t i = 0; i < n; i++) N->mval[J->diag[i]] += 1.0;
    rc = lied_splu_factor(N->sp, N->mval, e);
    if (rc == LIED_E_SINGULAR) rc = LIED_RETRY;
  } else {
    for (uint64_t p = 0; p < J->nnz; p++) N->mval[p] = -hg * J->val[p];
    for (uint64_t i = 0; i < n; i++) N->mval[J->diag[i]] += 1.0;
    rc = lied_splu_factor(N->sp, N->mval, e);
    if (rc == LIED_E_SINGULAR) rc = LIED_RETRY; /* singular: retry with a smaller step */
  }
  if (rc == LIED_OK) N->hg = hg;
  return rc;
}

void lied_newton_lsolve(lied_newton *N, double *b) {
  if (N->naug) {
    memcpy(N->aug, b, sizeof *b * (size_t)N->n);
    memset(N->aug + N->n, 0, sizeof *b * (size_t)N->naug);
    lied_splu_solve(N->sp, N->aug);
    memcpy(b, N->aug, sizeof *b * (size_t)N->n);
  } else if (N->dense)
    lied_lu_solve(N->lu, (int)N->n, N->piv, b);
  else
    lied_splu_solve(N->sp, b);
}

int lied_newton_stage(lied_newton *N, lied_rhs_fn f, void *ctx, double T,
                      const double *psi, double hg, const double *w, double *X,
                      double *k) {
  uint64_t n = N->n;
  double *fx = N->fx, *dx = N->dx;
  double prev = 0, eta = pow(fmax(N->eta, DBL_EPSILON), 0.8);
  for (int it = 0; it < N->maxit; it++) {
    int rc = f(ctx, T, X, fx);
    N->nit++;
    if (rc) return rc < 0 ? rc : LIED_ERROR; /* f's codes are negative */
    for (uint64_t i = 0; i < n; i++) dx[i] = psi[i] + hg * fx[i] - X[i];
    lied_newton_lsolve(N, dx);
    for (uint64_t i = 0; i < n; i++) X[i] += dx[i];
    double nrm = lied_wrms(n, dx, w, &N->worst);
    if (!isfinite(nrm)) break;
    if (it > 0) {
      double theta = nrm / prev;
      if (theta > N->theta_max) N->theta_max = theta;
      if (theta >= 0.99) break; /* diverges */
      eta = theta / (1 - theta);
      /* the error left after the remaining iterations would still be too large */
      if (nrm * pow(theta, N->maxit - 1 - it) / (1 - theta) > N->kappa) break;
    }
    if (eta * nrm <= N->kappa || nrm == 0) {
      N->eta = eta;
      double inv = 1.0 / hg;
      for (uint64_t i = 0; i < n; i++) k[i] = (X[i] - psi[i]) * inv;
      return LIED_OK;
    }
    prev = nrm;
  }
  N->nfail++;
  N->eta = 1.0;
  return LIED_RETRY;
}
