/* lu.c - dense LU factorisation with partial pivoting and triangular solves. */
#include "linsys/lu.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* Offset of entry (i, j) of a row-major matrix with n columns. */
static size_t at(int n, int i, int j) {
  return (size_t)i * (size_t)n + (size_t)j;
}

/* Largest |a_ij| of the n x n matrix a, or INFINITY when any entry is not
 * finite (NaN or +-Inf), so that the pivot threshold cannot be met. */
static double max_abs_entry(const double *a, int n) {
  size_t count = at(n, n, 0);
  double amax = 0.0;
  for (size_t i = 0; i < count; i++) {
    double v = fabs(a[i]);
    if (!isfinite(v))
      return INFINITY;
    if (v > amax)
      amax = v;
  }
  return amax;
}

/* Row index r >= k of the largest |a_rk| in column k, or -1 when some
 * candidate in that column is not finite (the pivot would then be NaN/Inf). */
static int find_pivot_row(const double *a, int n, int k) {
  int best = k;
  double bestv = -1.0;
  for (int r = k; r < n; r++) {
    double v = fabs(a[at(n, r, k)]);
    if (!isfinite(v))
      return -1;
    if (v > bestv) {
      bestv = v;
      best = r;
    }
  }
  return best;
}

/* Exchange rows r and s (each n entries) of the row-major matrix a. */
static void swap_rows(double *a, int n, int r, int s) {
  double *ra = a + at(n, r, 0), *sa = a + at(n, s, 0);
  for (int j = 0; j < n; j++) {
    double t = ra[j];
    ra[j] = sa[j];
    sa[j] = t;
  }
}

/* Eliminate column k below the pivot a_kk: store the multipliers l_ik in the
 * strict lower part and update the trailing block. Zero multipliers are not
 * skipped, so an overflow to Inf in the pivot row reaches later pivots. */
static void eliminate_column(double *a, int n, int k) {
  const double *rk = a + at(n, k, 0);
  double pivot = rk[k];
  for (int i = k + 1; i < n; i++) {
    double *ri = a + at(n, i, 0);
    double l = ri[k] / pivot;
    ri[k] = l;
    for (int j = k + 1; j < n; j++)
      ri[j] -= l * rk[j];
  }
}

/* LIED_E_SINGULAR at step k, reported through step when it is given. */
static int singular_at(int k, int *step) {
  if (step)
    *step = k;
  return LIED_E_SINGULAR;
}

/* See lu.h. The singularity threshold n * DBL_EPSILON * max|a_ij| is taken
 * from the input before any elimination; a pivot passes only when it is
 * finite and strictly larger than it, so an all-zero matrix fails at step 0
 * and any non-finite input entry makes the threshold infinite (step 0). */
int lied_lu_factor(double *a, int n, int *piv, int *step) {
  if (n <= 0)
    return LIED_OK;
  double tol = (double)n * DBL_EPSILON * max_abs_entry(a, n);
  for (int k = 0; k < n; k++) {
    int p = find_pivot_row(a, n, k);
    if (p < 0)
      return singular_at(k, step);
    piv[k] = p;
    if (p != k)
      swap_rows(a, n, k, p);
    double pivot = a[at(n, k, k)];
    if (!isfinite(pivot) || !(fabs(pivot) > tol))
      return singular_at(k, step);
    eliminate_column(a, n, k);
  }
  return LIED_OK;
}

/* The power of 2 that brings the largest magnitude m into [0.5, 1), as
 * its exponent (0 for m = 0: the row or column is left as it is). */
static int equilibrating_exponent(double m) {
  int e = 0;
  if (m > 0) (void)frexp(m, &e);
  return -e;
}

/* Row exponents er and column exponents ec of a (see lu.h); 0 when some
 * entry is not finite. */
static int equilibrate(const double *a, int n, int *er, int *ec) {
  for (int i = 0; i < n; i++) {
    double m = 0;
    for (int j = 0; j < n; j++) m = fmax(m, fabs(a[at(n, i, j)]));
    if (!isfinite(m)) return 0;
    er[i] = equilibrating_exponent(m);
  }
  for (int j = 0; j < n; j++) {
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(ldexp(a[at(n, i, j)], er[i])));
    ec[j] = equilibrating_exponent(m);
  }
  return 1;
}

/* See lu.h. With R, C the scalings and P the exchanges, P R A C = L U gives
 * P A = (Rp^-1 L Rp) (Rp^-1 U C^-1), Rp = P R P^T: a unit lower and an upper
 * factor of A, entries times powers of 2. */
int lied_lu_factor_equilibrated(double *a, int n, int *piv, double *scale, int *step) {
  if (n <= 0) return LIED_OK;
  int *er = (int *)(void *)scale, *ec = er + n; /* 2 n ints fit in 2 n doubles */
  if (!equilibrate(a, n, er, ec)) return singular_at(0, step);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[at(n, i, j)] = ldexp(a[at(n, i, j)], er[i] + ec[j]);
  if (lied_lu_factor(a, n, piv, step) != LIED_OK) return LIED_E_SINGULAR;
  for (int k = 0; k < n; k++) { /* er in the order of the exchanged rows: Rp */
    int t = er[k];
    er[k] = er[piv[k]], er[piv[k]] = t;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double *x = &a[at(n, i, j)];
      *x = j < i ? ldexp(*x, er[j] - er[i]) : ldexp(*x, -er[i] - ec[j]);
      if (!isfinite(*x) || (j == i && *x == 0)) return singular_at(n - 1, step);
    }
  return LIED_OK;
}

/* See lu.h. Only valid after lied_lu_factor returned LIED_OK for lu and piv:
 * applies the row exchanges to b, then solves L y = P b and U x = y. */
void lied_lu_solve(const double *lu, int n, const int *piv, double *b) {
  for (int k = 0; k < n; k++) {
    int p = piv[k];
    if (p != k) {
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  for (int i = 1; i < n; i++) {
    const double *ri = lu + at(n, i, 0);
    double s = b[i];
    for (int j = 0; j < i; j++)
      s -= ri[j] * b[j];
    b[i] = s;
  }
  for (int i = n - 1; i >= 0; i--) {
    const double *ri = lu + at(n, i, 0);
    double s = b[i];
    for (int j = i + 1; j < n; j++)
      s -= ri[j] * b[j];
    b[i] = s / ri[i];
  }
}
