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

/* The same factorisation of a badly scaled but solvable matrix: rows, then
 * columns, are scaled by powers of 2 so that their largest magnitude lies
 * in [0.5, 1) (exact), the scaled matrix is factored by lied_lu_factor (its
 * relative threshold is then met by every pivot of a well posed system),
 * and its factors are scaled back into factors of a itself with the same
 * row exchanges, also exactly: piv and a are then what lied_lu_solve takes.
 * A row or column of zeros keeps its scale 1. scale holds 2 n doubles
 * (work). Returns LIED_E_SINGULAR with *step as lied_lu_factor when the
 * scaled matrix is singular, and at step 0 with a untouched when a holds a
 * value that is not finite; also at step n - 1 when a factor of a is
 * beyond the doubles (scales more than 2^1023 apart). No allocation. */
int lied_lu_factor_equilibrated(double *a, int n, int *piv, double *scale, int *step);

/* Solve A x = b with the factors from lied_lu_factor; b is overwritten by x. */
void lied_lu_solve(const double *lu, int n, const int *piv, double *b);

#endif
