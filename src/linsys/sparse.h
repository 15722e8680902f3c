/* sparse.h - sparse LU of an n x n CSR matrix with a fixed pattern
 * (SuiteSparse KLU when built with it): analyse once, factor many times. */
#ifndef LIED_LINSYS_SPARSE_H
#define LIED_LINSYS_SPARSE_H
#include <stdint.h>
#include "core/err.h"

typedef struct lied_splu lied_splu;

/* 1 when this build has a sparse LU (KLU), else 0. */
int lied_splu_available(void);

/* Analyse the pattern (rows sorted, the diagonal present); the arrays are
 * copied. NULL with a message when out of memory or without KLU. */
lied_splu *lied_splu_new(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                         lied_err *e);
void lied_splu_free(lied_splu *s);

/* Factor the matrix with values val (in pattern order). The first call
 * factors with pivoting (and allocates the factors); later calls reuse the
 * pivot order (no allocation) unless the result is badly conditioned, then
 * pivot afresh. Returns 0, 1 when the matrix is singular, -1 on error. */
int lied_splu_factor(lied_splu *s, const double *val, lied_err *e);

/* Solve A x = b with the last factors; b is overwritten by x. */
void lied_splu_solve(lied_splu *s, double *b);

#endif
