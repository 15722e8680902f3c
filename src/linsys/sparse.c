/* sparse.c - sparse LU through SuiteSparse KLU (when found at build time):
 * the CSR matrix is handed to KLU as the CSC matrix of its transpose, and
 * solves use KLU's transposed solve. */
#include "linsys/sparse.h"
#include <stdlib.h>

#ifdef LIED_HAVE_KLU
#include <klu.h>

struct lied_splu {
  SuiteSparse_long n, *ap, *ai;
  klu_l_symbolic *sym;
  klu_l_numeric *num;
  klu_l_common common;
  double rcond_full; /* KLU's rcond at the last factorisation with pivoting */
};

int lied_splu_available(void) { return 1; }

void lied_splu_free(lied_splu *s) {
  if (!s) return;
  if (s->num) klu_l_free_numeric(&s->num, &s->common);
  if (s->sym) klu_l_free_symbolic(&s->sym, &s->common);
  free(s->ap);
  free(s->ai);
  free(s);
}

lied_splu *lied_splu_new(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                         lied_err *e) {
  lied_splu *s = lied_xcalloc(1, sizeof *s, "sparse LU", e);
  if (!s) return NULL;
  uint64_t nnz = rowptr[n];
  s->n = (SuiteSparse_long)n;
  s->ap = lied_xmalloc(sizeof *s->ap * ((size_t)n + 1), "sparse LU", e);
  s->ai = lied_xmalloc(sizeof *s->ai * ((size_t)nnz + 1), "sparse LU", e);
  if (!s->ap || !s->ai) {
    lied_splu_free(s);
    return NULL;
  }
  for (uint64_t i = 0; i <= n; i++) s->ap[i] = (SuiteSparse_long)rowptr[i];
  for (uint64_t k = 0; k < nnz; k++) s->ai[k] = (SuiteSparse_long)cols[k];
  klu_l_defaults(&s->common);
  s->sym = klu_l_analyze(s->n, s->ap, s->ai, &s->common);
  if (!s->sym) {
    lied_errc(e, LIED_E_SOLVER, "sparse LU: analysis of the %llu x %llu Jacobian pattern failed (KLU status %ld)",
              (unsigned long long)n, (unsigned long long)n, (long)s->common.status);
    lied_splu_free(s);
    return NULL;
  }
  return s;
}

/* A refactorisation keeps the last pivot order while KLU's cheap condition
 * estimate (the smallest over the largest pivot of U) stays within a factor
 * RCOND_DROP of the one the pivoting gave; below that, pivot afresh. The
 * estimate's scale is the matrix's own: a Newton matrix over states and
 * pressures has pivots 1e-13 apart however well it is pivoted, so a fixed
 * floor would pivot afresh at every factorisation. */
#define RCOND_DROP 1e-3

int lied_splu_factor(lied_splu *s, const double *val, lied_err *e) {
  double *ax = (double *)val; /* KLU takes non-const arrays; it does not write them */
  if (s->num) {
    if (klu_l_refactor(s->ap, s->ai, ax, s->sym, s->num, &s->common) &&
        s->common.status == KLU_OK && klu_l_rcond(s->sym, s->num, &s->common) &&
        s->common.rcond > RCOND_DROP * s->rcond_full)
      return LIED_OK;
    klu_l_free_numeric(&s->num, &s->common);
  }
  s->num = klu_l_factor(s->ap, s->ai, ax, s->sym, &s->common);
  if (!s->num && s->common.status != KLU_SINGULAR)
    return lied_errc(e, s->common.status == KLU_OUT_OF_MEMORY ? LIED_E_NOMEM : LIED_E_SOLVER,
                     "sparse LU: factorisation failed (KLU status %ld%s)",
                     (long)s->common.status,
                     s->common.status == KLU_OUT_OF_MEMORY ? ": out of memory" : "");
  if (s->common.status == KLU_SINGULAR ||
      (klu_l_rcond(s->sym, s->num, &s->common) && !(s->common.rcond > 0)))
    return lied_errc(e, LIED_E_SINGULAR, "sparse LU: the %ld x %ld matrix is singular",
                     (long)s->n, (long)s->n);
  s->rcond_full = s->common.rcond;
  return LIED_OK;
}

void lied_splu_repivot(lied_splu *s) {
  if (s->num) klu_l_free_numeric(&s->num, &s->common);
}

void lied_splu_solve(lied_splu *s, double *b) {
  klu_l_tsolve(s->sym, s->num, s->n, 1, b, &s->common);
}

#else /* no KLU: the callers use dense LU */

struct lied_splu {
  int unused;
};

int lied_splu_available(void) { return 0; }

lied_splu *lied_splu_new(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                         lied_err *e) {
  (void)rowptr;
  (void)cols;
  lied_errc(e, LIED_E_USAGE,
            "no sparse LU in this build (SuiteSparse KLU was not found) for %llu states",
            (unsigned long long)n);
  return NULL;
}

void lied_splu_free(lied_splu *s) { free(s); }

int lied_splu_factor(lied_splu *s, const double *val, lied_err *e) {
  (void)s;
  (void)val;
  return lied_errc(e, LIED_E_USAGE, "no sparse LU in this build");
}

void lied_splu_repivot(lied_splu *s) { (void)s; }

void lied_splu_solve(lied_splu *s, double *b) {
  (void)s;
  (void)b;
}

#endif
