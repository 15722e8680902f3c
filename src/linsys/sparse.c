/* sparse.c - sparse LU through SuiteSparse KLU (when found at build time):
 * the CSR matrix is handed to KLU as the CSC matrix of its transpose, and
 * solves use KLU's transposed solve. */
#include "linsys/sparse.h"
#include <stdlib.h>

#ifdef LIED_HAVE_KLU
#include <klu.h>

/* KLU with 32-bit indices (klu_*) while the pattern and its factors fit,
 * else with 64-bit ones (klu_l_*): the same algorithm, so the same pivots
 * and the same bits, in three quarters of the bytes per factor entry (an
 * index and a value) that every solve streams. A factorisation too large
 * for 32-bit indices (KLU_TOO_LARGE) analyses again with 64-bit ones. */
struct lied_splu {
  uint64_t n;
  int wide; /* 64-bit indices */
  int *ap32, *ai32;
  klu_symbolic *sym32;
  klu_numeric *num32;
  klu_common c32;
  SuiteSparse_long *ap, *ai;
  klu_l_symbolic *sym;
  klu_l_numeric *num;
  klu_l_common common;
  double rcond_full; /* KLU's rcond at the last factorisation with pivoting */
};

int lied_splu_available(void) { return 1; }

static void free_narrow(lied_splu *s) {
  if (s->num32) klu_free_numeric(&s->num32, &s->c32);
  if (s->sym32) klu_free_symbolic(&s->sym32, &s->c32);
  free(s->ap32);
  free(s->ai32);
  s->ap32 = s->ai32 = NULL;
}

void lied_splu_free(lied_splu *s) {
  if (!s) return;
  free_narrow(s);
  if (s->num) klu_l_free_numeric(&s->num, &s->common);
  if (s->sym) klu_l_free_symbolic(&s->sym, &s->common);
  free(s->ap);
  free(s->ai);
  free(s);
}

static int analysis_failed(uint64_t n, long status, lied_err *e) {
  return lied_errc(e, status == KLU_OUT_OF_MEMORY ? LIED_E_NOMEM : LIED_E_SOLVER,
                   "sparse LU: analysis of the %llu x %llu Jacobian pattern failed (KLU status %ld)",
                   (unsigned long long)n, (unsigned long long)n, status);
}

/* The 64-bit analysis (the pattern from the 32-bit arrays when rowptr is
 * NULL). */
static int analyse_wide(lied_splu *s, const uint64_t *rowptr, const uint32_t *cols,
                        lied_err *e) {
  const uint64_t n = s->n, nnz = rowptr ? rowptr[n] : (uint64_t)s->ap32[n];
  s->wide = 1;
  s->ap = lied_xmalloc(sizeof *s->ap * ((size_t)n + 1), "sparse LU", e);
  s->ai = lied_xmalloc(sizeof *s->ai * ((size_t)nnz + 1), "sparse LU", e);
  if (!s->ap || !s->ai) return LIED_E_NOMEM;
  for (uint64_t i = 0; i <= n; i++)
    s->ap[i] = (SuiteSparse_long)(rowptr ? rowptr[i] : (uint64_t)s->ap32[i]);
  for (uint64_t k = 0; k < nnz; k++)
    s->ai[k] = (SuiteSparse_long)(rowptr ? cols[k] : (uint32_t)s->ai32[k]);
  free_narrow(s);
  klu_l_defaults(&s->common);
  s->sym = klu_l_analyze((SuiteSparse_long)n, s->ap, s->ai, &s->common);
  return s->sym ? LIED_OK : analysis_failed(n, (long)s->common.status, e);
}

static lied_splu *splu_new(uint64_t n, const uint64_t *rowptr, const uint32_t *cols, int wide,
                           lied_err *e) {
  lied_splu *s = lied_xcalloc(1, sizeof *s, "sparse LU", e);
  if (!s) return NULL;
  const uint64_t nnz = rowptr[n];
  s->n = n;
  int rc;
  if (!wide && n < INT32_MAX / 4 && nnz < INT32_MAX / 4) {
    s->ap32 = lied_xmalloc(sizeof *s->ap32 * ((size_t)n + 1), "sparse LU", e);
    s->ai32 = lied_xmalloc(sizeof *s->ai32 * ((size_t)nnz + 1), "sparse LU", e);
    if (!s->ap32 || !s->ai32) {
      lied_splu_free(s);
      return NULL;
    }
    for (uint64_t i = 0; i <= n; i++) s->ap32[i] = (int)rowptr[i];
    for (uint64_t k = 0; k < nnz; k++) s->ai32[k] = (int)cols[k];
    klu_defaults(&s->c32);
    s->sym32 = klu_analyze((int)n, s->ap32, s->ai32, &s->c32);
    rc = s->sym32                          ? LIED_OK
         : s->c32.status == KLU_TOO_LARGE ? analyse_wide(s, rowptr, cols, e)
                                           : analysis_failed(n, (long)s->c32.status, e);
  } else {
    rc = analyse_wide(s, rowptr, cols, e);
  }
  if (rc != LIED_OK) {
    lied_splu_free(s);
    return NULL;
  }
  return s;
}

lied_splu *lied_splu_new(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                         lied_err *e) {
  return splu_new(n, rowptr, cols, 0, e);
}

lied_splu *lied_splu_new_wide(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                              lied_err *e) {
  return splu_new(n, rowptr, cols, 1, e);
}

/* A refactorisation keeps the last pivot order while KLU's cheap condition
 * estimate (the smallest over the largest pivot of U) stays within a factor
 * RCOND_DROP of the one the pivoting gave; below that, pivot afresh. The
 * estimate's scale is the matrix's own: a Newton matrix over states and
 * pressures has pivots 1e-13 apart however well it is pivoted, so a fixed
 * floor would pivot afresh at every factorisation. */
#define RCOND_DROP 1e-3

/* KLU's status after a factorisation with pivoting (num: the factors or
 * NULL): LIED_OK with rcond_full set, or the error. */
static int factored(lied_splu *s, int ok, long status, double rcond, int rcond_ok,
                    lied_err *e) {
  if (!ok && status != KLU_SINGULAR)
    return lied_errc(e, status == KLU_OUT_OF_MEMORY ? LIED_E_NOMEM : LIED_E_SOLVER,
                     "sparse LU: factorisation failed (KLU status %ld%s)", status,
                     status == KLU_OUT_OF_MEMORY ? ": out of memory" : "");
  if (status == KLU_SINGULAR || (rcond_ok && !(rcond > 0)))
    return lied_errc(e, LIED_E_SINGULAR, "sparse LU: the %llu x %llu matrix is singular",
                     (unsigned long long)s->n, (unsigned long long)s->n);
  s->rcond_full = rcond;
  return LIED_OK;
}

static int factor_wide(lied_splu *s, double *ax, lied_err *e) {
  if (s->num) {
    if (klu_l_refactor(s->ap, s->ai, ax, s->sym, s->num, &s->common) &&
        s->common.status == KLU_OK && klu_l_rcond(s->sym, s->num, &s->common) &&
        s->common.rcond > RCOND_DROP * s->rcond_full)
      return LIED_OK;
    klu_l_free_numeric(&s->num, &s->common);
  }
  s->num = klu_l_factor(s->ap, s->ai, ax, s->sym, &s->common);
  const int rcond_ok = s->num && s->common.status != KLU_SINGULAR &&
                       klu_l_rcond(s->sym, s->num, &s->common);
  return factored(s, s->num != NULL, (long)s->common.status, s->common.rcond, rcond_ok, e);
}

int lied_splu_factor(lied_splu *s, const double *val, lied_err *e) {
  double *ax = (double *)val; /* KLU takes non-const arrays; it does not write them */
  if (s->wide) return factor_wide(s, ax, e);
  if (s->num32) {
    if (klu_refactor(s->ap32, s->ai32, ax, s->sym32, s->num32, &s->c32) &&
        s->c32.status == KLU_OK && klu_rcond(s->sym32, s->num32, &s->c32) &&
        s->c32.rcond > RCOND_DROP * s->rcond_full)
      return LIED_OK;
    klu_free_numeric(&s->num32, &s->c32);
  }
  s->num32 = klu_factor(s->ap32, s->ai32, ax, s->sym32, &s->c32);
  if (!s->num32 && s->c32.status == KLU_TOO_LARGE) { /* factors beyond 32-bit indices */
    LIED_TRY(analyse_wide(s, NULL, NULL, e));
    return factor_wide(s, ax, e);
  }
  const int rcond_ok = s->num32 && s->c32.status != KLU_SINGULAR &&
                       klu_rcond(s->sym32, s->num32, &s->c32);
  return factored(s, s->num32 != NULL, (long)s->c32.status, s->c32.rcond, rcond_ok, e);
}

void lied_splu_repivot(lied_splu *s) {
  if (s->num) klu_l_free_numeric(&s->num, &s->common);
  if (s->num32) klu_free_numeric(&s->num32, &s->c32);
}

uint64_t lied_splu_factor_nnz(const lied_splu *s) {
  if (s->wide)
    return s->num ? (uint64_t)(s->num->lnz + s->num->unz + s->num->nzoff)
                  : (uint64_t)(s->sym->lnz + s->sym->unz) + (uint64_t)s->sym->nzoff;
  return s->num32 ? (uint64_t)(s->num32->lnz + s->num32->unz + s->num32->nzoff)
                  : (uint64_t)(s->sym32->lnz + s->sym32->unz) + (uint64_t)s->sym32->nzoff;
}

void lied_splu_solve(lied_splu *s, double *b) {
  if (s->wide)
    klu_l_tsolve(s->sym, s->num, (SuiteSparse_long)s->n, 1, b, &s->common);
  else
    klu_tsolve(s->sym32, s->num32, (int)s->n, 1, b, &s->c32);
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

lied_splu *lied_splu_new_wide(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                              lied_err *e) {
  return lied_splu_new(n, rowptr, cols, e);
}

void lied_splu_free(lied_splu *s) { free(s); }

int lied_splu_factor(lied_splu *s, const double *val, lied_err *e) {
  (void)s;
  (void)val;
  return lied_errc(e, LIED_E_USAGE, "no sparse LU in this build");
}

void lied_splu_repivot(lied_splu *s) { (void)s; }

uint64_t lied_splu_factor_nnz(const lied_splu *s) {
  (void)s;
  return 0;
}

void lied_splu_solve(lied_splu *s, double *b) {
  (void)s;
  (void)b;
}

#endif
