/* lu.h - dense LU factorisation with partial pivoting for small linear sections. */
#ifndef LIED_LINSYS_LU_H
#define LIED_LINSYS_LU_H
#include "lied/status.h"

/* Factor the n x n row-major matrix a in place (L unit lower, U upper) with
 * partial (row) pivoting; piv[k] is the row swapped with row k at step k.
 * Returns LIED_OK, or LIED_E_SINGULAR when the pivot of step k (0-based) is
 * zero, not finite, or below n * DBL_EPSILON * max|a_ij| of the input; then
 * *step (if not NULL) receives k. A numeric kernel without an error context:
 * the caller, which knows what the matrix is, writes the message. No
 * allocation; safe for n = 0 (LIED_OK). */
int lied_lu_factor(double *a, int n, int *piv, int *step);

/* Solve A x = b with the factors from lied_lu_factor; b is overwritten by x. */
void lied_lu_solve(const double *lu, int n, const int *piv, double *b);

#endif
