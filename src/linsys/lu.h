/* lu.h - dense LU factorisation with partial pivoting for small linear sections. */
#ifndef LIED_LINSYS_LU_H
#define LIED_LINSYS_LU_H

/* Factor the n x n row-major matrix a in place (L unit lower, U upper) with
 * partial (row) pivoting; piv[k] is the row swapped with row k at step k.
 * Returns 0 on success, or k + 1 when the matrix is singular at step k: the
 * pivot is zero, not finite, or below n * DBL_EPSILON * max|a_ij| of the input.
 * No allocation; safe for n = 0 (returns 0). */
int lied_lu_factor(double *a, int n, int *piv);

/* Solve A x = b with the factors from lied_lu_factor; b is overwritten by x. */
void lied_lu_solve(const double *lu, int n, const int *piv, double *b);

#endif
