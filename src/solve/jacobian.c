/* jacobian.c - finite-difference Jacobian of the derivatives with column
 * colouring: one derivative evaluation per colour. */
#include "solve/jacobian.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void lied_jac_free(lied_jac *J) {
  free(J->rowptr);
  free(J->cols);
  free(J->diag);
  free(J->val);
  free(J->gptr);
  free(J->gcol);
  free(J->ctp);
  free(J->crow);
  free(J->cpos);
  free(J->xp);
  free(J->fp);
  free(J->del);
  memset(J, 0, sizeof *J);
}

/* Storage pattern: the structural one with the diagonal merged in. */
static int merge_diagonal(lied_jac *J, const uint64_t *rowptr, const uint32_t *cols,
                          lied_err *e) {
  uint64_t n = J->n, nnz = 0;
  for (uint64_t i = 0; i < n; i++) {
    int has = 0;
    for (uint64_t k = rowptr[i]; k < rowptr[i + 1]; k++) has |= cols[k] == i;
    nnz += rowptr[i + 1] - rowptr[i] + !has;
  }
  J->rowptr = lied_xmalloc(sizeof *J->rowptr * ((size_t)n + 1), "Jacobian", e);
  J->cols = lied_xmalloc(sizeof *J->cols * ((size_t)nnz + 1), "Jacobian", e);
  J->diag = lied_xmalloc(sizeof *J->diag * ((size_t)n + 1), "Jacobian", e);
  J->val = lied_xcalloc((size_t)nnz + 1, sizeof *J->val, "Jacobian", e);
  if (!J->rowptr || !J->cols || !J->diag || !J->val) return LIED_E_NOMEM;
  uint64_t p = 0;
  for (uint64_t i = 0; i < n; i++) {
    J->rowptr[i] = p;
    int done = 0;
    for (uint64_t k = rowptr[i]; k <= rowptr[i + 1]; k++) {
      uint64_t c = k < rowptr[i + 1] ? cols[k] : UINT64_MAX;
      if (!done && c >= i) {
        J->diag[i] = p;
        J->cols[p++] = (uint32_t)i;
        done = 1;
        if (c == i) continue;
      }
      if (k < rowptr[i + 1]) J->cols[p++] = (uint32_t)c;
    }
  }
  J->rowptr[n] = p;
  J->nnz = p;
  return LIED_OK;
}

int lied_jac_init(lied_jac *J, uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                  double typ, lied_err *e) {
  memset(J, 0, sizeof *J);
  J->n = n;
  J->nnz_f = rowptr[n];
  J->typ = typ > 0 ? typ : 1.0;
  uint32_t *colour = lied_xmalloc(sizeof *colour * ((size_t)n + 1), "colouring", e);
  int rc = colour ? LIED_OK : LIED_E_NOMEM;
  if (!rc) rc = merge_diagonal(J, rowptr, cols, e);
  if (!rc) rc = lied_colour(n, rowptr, cols, colour, &J->ncolours, e);
  /* structural entries by column, with positions in the storage pattern */
  if (!rc) rc = lied_transpose(n, rowptr, cols, &J->ctp, &J->crow, &J->cpos, e);
  if (!rc) {
    for (uint64_t j = 0; j < n; j++)
      for (uint64_t a = J->ctp[j]; a < J->ctp[j + 1]; a++) {
        uint32_t i = J->crow[a];
        /* find column j in the storage row i (sorted): binary search */
        uint64_t lo = J->rowptr[i], hi = J->rowptr[i + 1];
        while (hi - lo > 1) {
          uint64_t mid = lo + (hi - lo) / 2;
          if (J->cols[mid] <= j) lo = mid;
          else hi = mid;
        }
        J->cpos[a] = lo;
      }
    J->gptr = lied_xcalloc((size_t)J->ncolours + 2, sizeof *J->gptr, "colouring", e);
    J->gcol = lied_xmalloc(sizeof *J->gcol * ((size_t)n + 1), "colouring", e);
    J->xp = lied_xmalloc(sizeof *J->xp * ((size_t)n + 1), "Jacobian", e);
    J->fp = lied_xmalloc(sizeof *J->fp * ((size_t)n + 1), "Jacobian", e);
    J->del = lied_xmalloc(sizeof *J->del * ((size_t)n + 1), "Jacobian", e);
    if (!J->gptr || !J->gcol || !J->xp || !J->fp || !J->del) rc = LIED_E_NOMEM;
  }
  if (!rc) {
    for (uint64_t j = 0; j < n; j++) J->gptr[colour[j] + 2]++;
    for (uint32_t c = 0; c < J->ncolours; c++) J->gptr[c + 2] += J->gptr[c + 1];
    for (uint64_t j = 0; j < n; j++) J->gcol[J->gptr[colour[j] + 1]++] = (uint32_t)j;
  }
  free(colour);
  if (rc) lied_jac_free(J);
  return rc;
}

int lied_jac_eval(lied_jac *J, lied_rhs_fn f, void *ctx, double t, const double *x,
                  const double *f0) {
  return lied_jac_eval_scaled(J, f, ctx, t, x, f0, NULL);
}

/* The smallest increment of the scaled rule: 1000 |h| eps ||f0||, the RMS
 * norm weighted by the error weights 1 / (atol + rtol |x|); 1 when f0 is 0.
 * (SUNDIALS' difference quotients multiply by n too; without it, n identical
 * copies get the increments of one, so a copy of an ensemble follows the
 * single model's steps.) */
static double min_increment(uint64_t n, const double *x, const double *f0,
                            const lied_jac_scale *sc) {
  double sum = 0;
  for (uint64_t i = 0; i < n; i++) {
    double v = f0[i] / (sc->atol + sc->rtol * fabs(x[i]));
    sum += v * v;
  }
  double fnorm = n ? sqrt(sum / (double)n) : 0;
  double m = 1000.0 * fabs(sc->h) * DBL_EPSILON * fnorm;
  return m > 0 && isfinite(m) ? m : 1.0;
}

int lied_jac_eval_scaled(lied_jac *J, lied_rhs_fn f, void *ctx, double t, const double *x,
                         const double *f0, const lied_jac_scale *sc) {
  uint64_t n = J->n;
  const double sq = sqrt(DBL_EPSILON);
  const uint64_t nx = sc && sc->nx ? sc->nx : n;
  const double minc = sc ? min_increment(nx, x, f0, sc) : 0;
  if (n) memcpy(J->xp, x, sizeof *x * n);
  for (uint32_t c = 0; c < J->ncolours; c++) {
    for (uint64_t g = J->gptr[c]; g < J->gptr[c + 1]; g++) {
      uint32_t j = J->gcol[g];
      double d = sc && j < nx ? fmax(sq * fabs(x[j]), minc * (sc->atol + sc->rtol * fabs(x[j])))
                              : sq * fmax(fabs(x[j]), J->typ);
      J->xp[j] = x[j] + d;
      J->del[j] = J->xp[j] - x[j]; /* the step actually taken */
    }
    int rc = f(ctx, t, J->xp, J->fp);
    J->nevals++;
    if (rc) {
      memcpy(J->xp, x, sizeof *x * n);
      return rc;
    }
    for (uint64_t g = J->gptr[c]; g < J->gptr[c + 1]; g++) {
      uint32_t j = J->gcol[g];
      double inv = 1.0 / J->del[j];
      for (uint64_t a = J->ctp[j]; a < J->ctp[j + 1]; a++)
        J->val[J->cpos[a]] = (J->fp[J->crow[a]] - f0[J->crow[a]]) * inv;
      J->xp[j] = x[j];
    }
  }
  J->njac++;
  return LIED_OK;
}
