/* linearize.c - A, B, C, D of a model around a point by central differences,
 * and eigenvalues through LAPACK. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analysis.h"
#include "solve/jacobian.h"

/* LAPACK (Fortran calling convention) */
extern void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a,
                   const int *lda, double *wr, double *wi, double *vl, const int *ldvl,
                   double *vr, const int *ldvr, double *work, const int *lwork, int *info);

void lied_linear_free(lied_linear *L) {
  free(L->A);
  free(L->B);
  free(L->C);
  free(L->D);
  free(L->y0);
  memset(L, 0, sizeof *L);
}

/* The perturbation of a value v: exact to rounding for a linear model, and
 * balances truncation (h^2) against rounding (eps / h) otherwise. */
static double delta(double v) { return cbrt(DBL_EPSILON) * fmax(fabs(v), 1.0); }

typedef struct lin {
  lied_sched *s;
  double t;
  const double *const *out;
  int no;
  long nrhs;
  lied_err *e;
} lin;

/* f(x) and, when y is not NULL, the outputs (every section variable
 * consistent, the output part run). */
static int eval(lin *C, const double *x, double *f, double *y) {
  C->nrhs++;
  LIED_TRY(lied_sched_evaluate(C->s, C->t, x, f, y != NULL, C->e));
  for (int k = 0; y && k < C->no; k++) y[k] = *C->out[k];
  return LIED_OK;
}

/* A by colour: the columns of one colour share no row, so one evaluation
 * pair per colour gives all of them. */
static int fill_A(lin *C, const double *x, double *A, double *xp, double *fp, double *fm) {
  const uint64_t n = C->s->nstates;
  uint64_t *rowptr = NULL, *ctp = NULL;
  uint32_t *cols = NULL, *crow = NULL, *colour = NULL, ncol = 0;
  int rc = lied_sched_sparsity(C->s, &rowptr, &cols, C->e);
  if (!rc) rc = lied_transpose(n, rowptr, cols, &ctp, &crow, NULL, C->e);
  if (!rc) {
    colour = lied_xmalloc(sizeof *colour * (size_t)n, "linearisation", C->e);
    rc = colour ? lied_colour(n, rowptr, cols, colour, &ncol, C->e) : LIED_E_NOMEM;
  }
  for (uint32_t c = 0; !rc && c < ncol; c++) {
    memcpy(xp, x, sizeof *xp * n);
    for (uint64_t j = 0; j < n; j++)
      if (colour[j] == c) xp[j] = x[j] + delta(x[j]);
    rc = eval(C, xp, fp, NULL);
    for (uint64_t j = 0; !rc && j < n; j++)
      if (colour[j] == c) xp[j] = x[j] - delta(x[j]);
    if (!rc) rc = eval(C, xp, fm, NULL);
    for (uint64_t j = 0; !rc && j < n; j++) {
      if (colour[j] != c) continue;
      const double d = (x[j] + delta(x[j])) - (x[j] - delta(x[j])); /* as represented */
      for (uint64_t k = ctp[j]; k < ctp[j + 1]; k++)
        A[(uint64_t)crow[k] * n + j] = (fp[crow[k]] - fm[crow[k]]) / d;
    }
  }
  free(rowptr), free(cols), free(ctp), free(crow), free(colour);
  return rc;
}

/* C: the outputs by state, one evaluation pair per state (outputs need not
 * follow the derivatives' pattern). */
static int fill_C(lin *C, const double *x, double *Cm, double *xp, double *f, double *yp,
                  double *ym) {
  const uint64_t n = C->s->nstates;
  memcpy(xp, x, sizeof *xp * n);
  for (uint64_t j = 0; j < n; j++) {
    const double h = delta(x[j]);
    xp[j] = x[j] + h;
    LIED_TRY(eval(C, xp, f, yp));
    xp[j] = x[j] - h;
    LIED_TRY(eval(C, xp, f, ym));
    xp[j] = x[j];
    const double d = (x[j] + h) - (x[j] - h);
    for (int k = 0; k < C->no; k++) Cm[(uint64_t)k * n + j] = (yp[k] - ym[k]) / d;
  }
  return LIED_OK;
}

/* B and D: one evaluation pair per input, perturbed in place. */
static int fill_BD(lin *C, const double *x, double *const *in, int ni, double *B, double *D,
                   double *fp, double *fm, double *yp, double *ym) {
  const uint64_t n = C->s->nstates;
  for (int j = 0; j < ni; j++) {
    const double u = *in[j], h = delta(u);
    *in[j] = u + h;
    lied_sched_invalidate(C->s);
    int rc = eval(C, x, fp, yp);
    *in[j] = u - h;
    lied_sched_invalidate(C->s);
    if (!rc) rc = eval(C, x, fm, ym);
    *in[j] = u;
    lied_sched_invalidate(C->s);
    LIED_TRY(rc);
    const double d = (u + h) - (u - h);
    for (uint64_t i = 0; i < n; i++) B[i * (uint64_t)ni + (uint64_t)j] = (fp[i] - fm[i]) / d;
    for (int k = 0; k < C->no; k++) D[k * ni + j] = (yp[k] - ym[k]) / d;
  }
  return LIED_OK;
}

static int alloc(lied_linear *L, uint64_t n, int ni, int no, lied_err *e) {
  L->n = n;
  L->ni = ni;
  L->no = no;
  L->A = lied_xcalloc((size_t)(n * n) + 1, sizeof(double), "linearisation A", e);
  L->B = lied_xcalloc((size_t)n * (size_t)ni + 1, sizeof(double), "linearisation B", e);
  L->C = lied_xcalloc((size_t)no * (size_t)n + 1, sizeof(double), "linearisation C", e);
  L->D = lied_xcalloc((size_t)no * (size_t)ni + 1, sizeof(double), "linearisation D", e);
  L->y0 = lied_xcalloc((size_t)no + 1, sizeof(double), "linearisation", e);
  return L->A && L->B && L->C && L->D && L->y0 ? LIED_OK : LIED_E_NOMEM;
}

int lied_linearize(lied_sched *s, double t, const double *x, double *const *inputs, int ni,
                   const double *const *outputs, int no, lied_linear *L, lied_err *e) {
  memset(L, 0, sizeof *L);
  const uint64_t n = s->nstates;
  if (n > LIED_LINEAR_MAX)
    return lied_errc(e, LIED_E_LIMIT, "linearize: %llu states; at most %d for dense matrices",
                     (unsigned long long)n, LIED_LINEAR_MAX);
  if (!isfinite(t)) return lied_errc(e, LIED_E_USAGE, "linearize: time must be finite");
  if (ni < 0 || no < 0) return lied_errc(e, LIED_E_USAGE, "linearize: bad input/output count");
  lin C = {s, t, outputs, no, 0, e};
  int rc = alloc(L, n, ni, no, e);
  const size_t m = (size_t)n + (size_t)no + 1;
  double *work = rc ? NULL : lied_xmalloc(sizeof(double) * 3 * m, "linearisation", e);
  if (!rc && !work) rc = LIED_E_NOMEM;
  double *xp = work, *fp = work + m, *fm = work + 2 * m;
  double *ybuf = NULL;
  if (!rc) {
    ybuf = lied_xmalloc(sizeof(double) * 2 * ((size_t)no + 1), "linearisation", e);
    if (!ybuf) rc = LIED_E_NOMEM;
  }
  double *yp = ybuf, *ym = ybuf ? ybuf + no + 1 : NULL;
  if (!rc && n) rc = fill_A(&C, x, L->A, xp, fp, fm);
  if (!rc && no && n) rc = fill_C(&C, x, L->C, xp, fp, yp, ym);
  if (!rc && ni) rc = fill_BD(&C, x, inputs, ni, L->B, L->D, fp, fm, yp, ym);
  /* the model evaluated at the point, outputs recorded */
  if (!rc) rc = eval(&C, x, fp, L->y0);
  L->rhs = C.nrhs;
  free(work);
  free(ybuf);
  if (rc) lied_linear_free(L);
  return rc < 0 ? lied_err_code(e) : rc;
}

static int cmp_eig(const void *a, const void *b) {
  const double *p = a, *q = b;
  if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
  return (p[1] > q[1]) - (p[1] < q[1]);
}

int lied_eigenvalues(uint64_t n, const double *A, double *re, double *im, lied_err *e) {
  if (n == 0) return LIED_OK;
  if (n > LIED_LINEAR_MAX)
    return lied_errc(e, LIED_E_LIMIT, "eigenvalues: %llu states; at most %d",
                     (unsigned long long)n, LIED_LINEAR_MAX);
  const int ni = (int)n, one = 1;
  int lwork = 8 * ni, info = 0;
  double *a = lied_xmalloc(sizeof *a * (size_t)(n * n), "eigenvalues", e);
  double *work = lied_xmalloc(sizeof *work * (size_t)lwork, "eigenvalues", e);
  double *pair = lied_xmalloc(sizeof *pair * 2 * (size_t)n, "eigenvalues", e);
  int rc = a && work && pair ? LIED_OK : LIED_E_NOMEM;
  if (!rc) {
    /* column-major for Fortran: the transpose of the row-major A */
    for (uint64_t i = 0; i < n; i++)
      for (uint64_t j = 0; j < n; j++) a[j * n + i] = A[i * n + j];
    dgeev_("N", "N", &ni, a, &ni, re, im, NULL, &one, NULL, &one, work, &lwork, &info);
    if (info != 0)
      rc = lied_errc(e, LIED_E_SOLVER, "eigenvalues: the QR algorithm did not converge "
                                       "(LAPACK dgeev info %d)", info);
  }
  if (!rc) {
    for (uint64_t i = 0; i < n; i++) pair[2 * i] = re[i], pair[2 * i + 1] = im[i];
    qsort(pair, (size_t)n, 2 * sizeof *pair, cmp_eig);
    for (uint64_t i = 0; i < n; i++) re[i] = pair[2 * i], im[i] = pair[2 * i + 1];
  }
  free(a), free(work), free(pair);
  return rc;
}

int lied_state_index(const lied_sched *s, const double *p, const char *what, uint64_t *idx,
                     lied_err *e) {
  const char *c = (const char *)(const void *)p;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    if (c < sm->base || c >= sm->base + sm->count * sm->stride) continue;
    const uint64_t q = (uint64_t)(c - sm->base) / sm->stride;
    const size_t off = (size_t)(c - sm->base) % sm->stride;
    for (int k = 0; k < sm->n; k++)
      if (sm->st[k].x == off) {
        *idx = sm->x0 + q * (uint64_t)sm->n + (uint64_t)k;
        return LIED_OK;
      }
  }
  return lied_errc(e, LIED_E_USAGE, "%s is not a state", what);
}
