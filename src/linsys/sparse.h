/* sparse.h - sparse LU of an n x n CSR matrix with a fixed pattern
 * (SuiteSparse KLU when built with it, with 32-bit indices while they
 * suffice): analyse once, factor many times. */
#ifndef LIED_LINSYS_SPARSE_H
#define LIED_LINSYS_SPARSE_H
#include <stdint.h>
#include "core/err.h"

typedef struct lied_splu lied_splu;

/* 1 when this build has a sparse LU (KLU), else 0. */
int lied_splu_available(void);

/* Analyse the pattern (rows sorted, the diagonal present); the arrays are
 * copied. NULL with a message and code in e: LIED_E_NOMEM, LIED_E_SOLVER
 * (KLU's analysis failed) or LIED_E_USAGE (no KLU in this build: check
 * lied_splu_available first). */
lied_splu *lied_splu_new(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                         lied_err *e);
/* The same with 64-bit indices whatever the size (what lied_splu_new
 * falls back to; tests compare the two widths bit for bit). */
lied_splu *lied_splu_new_wide(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                              lied_err *e);
void lied_splu_free(lied_splu *s);

/* Factor the matrix with values val (in pattern order). The first call
 * factors with pivoting (and allocates the factors); later calls reuse the
 * pivot order (no allocation) unless the result is badly conditioned, then
 * pivot afresh. Returns LIED_OK; LIED_E_SINGULAR when the matrix is
 * singular (a step size control may retry with another matrix); LIED_E_NOMEM
 * or LIED_E_SOLVER when KLU fails otherwise; each with a message in e. */
int lied_splu_factor(lied_splu *s, const double *val, lied_err *e);
/* The next lied_splu_factor pivots afresh (for matrices whose values move
 * by orders of magnitude between factorisations, where the kept pivot
 * order may be poor without the condition estimate showing it). */
void lied_splu_repivot(lied_splu *s);

/* The entries of the factors (L, U and the blocks off the diagonal of the
 * block-triangular form): after a factorisation KLU's count, before one
 * the analysis's prediction (the entries of the Cholesky factors of each
 * block's symmetrised pattern in KLU's AMD order, a bound while the pivots
 * stay on the diagonal: 18.1 per unknown against 12.1 factored for the
 * district network's section). Every solve
 * streams them: docs/architecture.md, "Sparse linear sections", measures
 * the orderings by this count. */
uint64_t lied_splu_factor_nnz(const lied_splu *s);

/* Solve A x = b with the last factors; b is overwritten by x. */
void lied_splu_solve(lied_splu *s, double *b);

#endif
