/* test_lu.c - unit tests of the dense LU factorisation and solve. */
#include "check.h"
#include "linsys/lu.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { MAX_N = 50 };                 /* largest random system */
static const double SOLVE_TOL = 1e-13;  /* absolute error on O(1) solutions */
static const double RESID_TOL = 1e-13;  /* relative residual, random systems */

/* Deterministic 64-bit LCG (Knuth's MMIX constants); caller owns the state. */
static const uint64_t LCG_MUL = 6364136223846793005u;
static const uint64_t LCG_INC = 1442695040888963407u;
static const int LCG_SHIFT = 11; /* keep the top 53 bits */
static const double LCG_SCALE = 1.0 / 9007199254740992.0; /* 2^-53 */

/* Uniform double in [-1, 1) from the generator state *s. */
static double lcg_uniform(uint64_t *s) {
  *s = *s * LCG_MUL + LCG_INC;
  return 2.0 * (double)(*s >> LCG_SHIFT) * LCG_SCALE - 1.0;
}

/* Factor a copy of a (n x n): 0 on success, or 1 + the step at which
 * lied_lu_factor found the matrix singular (it must then say
 * LIED_E_SINGULAR); the factors are left in lu and the pivots in piv. */
static int factor_copy(const double *a, int n, double *lu, int *piv) {
  memcpy(lu, a, sizeof(double) * (size_t)n * (size_t)n);
  int step = -1, rc = lied_lu_factor(lu, n, piv, &step);
  if (rc == LIED_OK) return 0;
  CHECK(rc == LIED_E_SINGULAR && step >= 0 && step < n);
  return step + 1;
}

/* Max-norm of A x - b relative to ||A|| ||x|| + ||b|| (all max-norms). */
static double rel_residual(const double *a, int n, const double *x,
                           const double *b) {
  double r = 0.0, anorm = 0.0, xnorm = 0.0, bnorm = 0.0;
  for (int i = 0; i < n; i++) {
    double s = -b[i], row = 0.0;
    for (int j = 0; j < n; j++) {
      s += a[i * n + j] * x[j];
      row += fabs(a[i * n + j]);
    }
    r = fmax(r, fabs(s));
    anorm = fmax(anorm, row);
    xnorm = fmax(xnorm, fabs(x[i]));
    bnorm = fmax(bnorm, fabs(b[i]));
  }
  return r / (anorm * xnorm + bnorm);
}

/* A 3x3 system with a known integer solution. */
static void test_known_3x3(void) {
  const double a[9] = {2, 1, -1, -3, -1, 2, -2, 1, 2};
  const double want[3] = {2, 3, -1};
  double lu[9], b[3] = {8, -11, -3};
  int piv[3];
  CHECK(factor_copy(a, 3, lu, piv) == 0);
  lied_lu_solve(lu, 3, piv, b);
  for (int i = 0; i < 3; i++)
    CHECK_NEAR(b[i], want[i], SOLVE_TOL);
}

/* A zero on the leading diagonal forces a row exchange. */
static void test_needs_pivoting(void) {
  const double a[9] = {0, 2, 1, 1, 1, 1, 2, 1, 0};
  const double want[3] = {1, -1, 2};
  double lu[9], b[3];
  int piv[3];
  for (int i = 0; i < 3; i++)
    b[i] = a[i * 3] * want[0] + a[i * 3 + 1] * want[1] + a[i * 3 + 2] * want[2];
  CHECK(factor_copy(a, 3, lu, piv) == 0);
  CHECK(piv[0] != 0);
  lied_lu_solve(lu, 3, piv, b);
  for (int i = 0; i < 3; i++)
    CHECK_NEAR(b[i], want[i], SOLVE_TOL);
}

/* Random systems of sizes 1..MAX_N: uniform entries plus a dominant entry in a
 * shuffled position of each row, so they are well conditioned but the
 * diagonal is usually not where the pivot is. */
static void test_random_systems(void) {
  static double a[MAX_N * MAX_N], lu[MAX_N * MAX_N];
  double x[MAX_N], b[MAX_N];
  int piv[MAX_N], perm[MAX_N];
  uint64_t seed = 12345u;
  for (int n = 1; n <= MAX_N; n++) {
    for (int i = 0; i < n; i++)
      perm[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates shuffle */
      int j = (int)((lcg_uniform(&seed) + 1.0) * 0.5 * (i + 1));
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int i = 0; i < n * n; i++)
      a[i] = lcg_uniform(&seed);
    for (int i = 0; i < n; i++) {
      a[i * n + perm[i]] += (double)n;
      b[i] = lcg_uniform(&seed);
    }
    memcpy(x, b, sizeof(double) * (size_t)n);
    int rc = factor_copy(a, n, lu, piv);
    CHECK(rc == 0);
    if (rc != 0)
      continue;
    lied_lu_solve(lu, n, piv, x);
    double r = rel_residual(a, n, x, b);
    CHECK(r < RESID_TOL);
    if (!(r < RESID_TOL))
      fprintf(stderr, "  n = %d: relative residual %g\n", n, r);
  }
}

/* Exactly singular matrices fail at the documented step (result k + 1). */
static void test_exactly_singular(void) {
  /* After step 0 (pivot row 1) the whole of column 1 is exactly zero. */
  const double a1[9] = {1, 2, 3, 2, 4, 7, 1, 2, 5};
  const double a2[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
  const double a3[4] = {0, 0, 0, 0};
  const double a4[4] = {1, 2, 1, 2};
  double lu[9];
  int piv[3];
  CHECK(factor_copy(a1, 3, lu, piv) == 2);
  CHECK(factor_copy(a2, 3, lu, piv) == 3);
  CHECK(factor_copy(a3, 2, lu, piv) == 1);
  CHECK(factor_copy(a4, 2, lu, piv) == 2);
}

/* Row 3 = row 1 / 3 + 0.7 row 2, computed in floating point: singular up to
 * rounding, so the last pivot is a rounding residue and must be flagged; a
 * genuine perturbation of 1e-8 must not be. */
static void test_nearly_singular(void) {
  const double r1[3] = {0.1, 0.7, 1.3}, r2[3] = {0.3, 0.11, 0.9};
  const double w1 = 1.0 / 3.0, w2 = 0.7, bump = 1e-8;
  double a[9], lu[9];
  int piv[3];
  for (int j = 0; j < 3; j++) {
    a[j] = r1[j];
    a[3 + j] = r2[j];
    a[6 + j] = w1 * r1[j] + w2 * r2[j];
  }
  CHECK(factor_copy(a, 3, lu, piv) == 3);
  a[8] += bump;
  CHECK(factor_copy(a, 3, lu, piv) == 0);
}

/* The threshold is relative: a tiny but well-conditioned matrix is fine. */
static void test_scaled_identity(void) {
  const double tiny = 1e-300;
  double a[4] = {tiny, 0, 0, tiny}, b[2] = {tiny, 2 * tiny};
  int piv[2];
  CHECK(lied_lu_factor(a, 2, piv, NULL) == LIED_OK);
  lied_lu_solve(a, 2, piv, b);
  CHECK_NEAR(b[0], 1.0, SOLVE_TOL);
  CHECK_NEAR(b[1], 2.0, SOLVE_TOL);
}

/* Non-finite entries are flagged rather than producing garbage. */
static void test_non_finite(void) {
  double a[9] = {4, 1, 0, 1, 4, 1, 0, 1, 4}, lu[9];
  int piv[3];
  CHECK(factor_copy(a, 3, lu, piv) == 0);
  a[5] = NAN;
  CHECK(factor_copy(a, 3, lu, piv) != 0);
  a[5] = INFINITY;
  CHECK(factor_copy(a, 3, lu, piv) != 0);
}

/* Badly scaled but well-conditioned systems A = 2^R B 2^C (B diagonally
 * dominant, rows and columns scaled by powers of 2 up to 2^300 apart): the
 * plain LU refuses most of them, the equilibrated one factors every one,
 * its factors are factors of A (lied_lu_solve), and the solution has every
 * component to 1e-12 relative, however small. */
static void test_equilibrated_scaled(void) {
  static double bm[MAX_N * MAX_N], a[MAX_N * MAX_N], lu[MAX_N * MAX_N];
  double y[MAX_N], x[MAX_N], scale[2 * MAX_N];
  int piv[MAX_N], er[MAX_N], ec[MAX_N], refused = 0;
  uint64_t seed = 4242u;
  for (int n = 2; n <= 20; n++) {
    for (int i = 0; i < n * n; i++) bm[i] = lcg_uniform(&seed);
    for (int i = 0; i < n; i++) {
      bm[i * n + i] += (double)n;
      y[i] = lcg_uniform(&seed) + 2.0;
      er[i] = (int)(300.0 * lcg_uniform(&seed));
      ec[i] = (int)(200.0 * lcg_uniform(&seed));
    }
    for (int i = 0; i < n; i++) { /* b = 2^R (B y), exact up to B y's rounding */
      double s = 0;
      for (int j = 0; j < n; j++) {
        s += bm[i * n + j] * y[j];
        a[i * n + j] = ldexp(bm[i * n + j], er[i] + ec[j]);
      }
      x[i] = ldexp(s, er[i]);
    }
    refused += factor_copy(a, n, lu, piv) != 0;
    memcpy(lu, a, sizeof(double) * (size_t)(n * n));
    CHECK(lied_lu_factor_equilibrated(lu, n, piv, scale, NULL) == LIED_OK);
    lied_lu_solve(lu, n, piv, x);
    for (int j = 0; j < n; j++) CHECK_NEAR(ldexp(x[j], ec[j]) / y[j], 1.0, 1e-12);
  }
  CHECK(refused > 10);
}

/* What is singular stays so, scaled or not (the same step as the plain
 * LU's for these); a value that is not finite fails at step 0 and leaves the
 * matrix as it was; a well-scaled matrix gives the plain LU's solution. */
static void test_equilibrated_singular(void) {
  const double a1[9] = {1, 2, 3, 2e20, 4e20, 7e20, 1e-20, 2e-20, 5e-20};
  const double a4[4] = {1e12, 2e12, 1e-6, 2e-6};
  const double zero_row[4] = {1e12, 1, 0, 0};
  double lu[9], sc[6];
  int piv[3], step = -1;
  memcpy(lu, a1, sizeof a1);
  CHECK(lied_lu_factor_equilibrated(lu, 3, piv, sc, &step) == LIED_E_SINGULAR && step == 1);
  memcpy(lu, a4, sizeof a4);
  CHECK(lied_lu_factor_equilibrated(lu, 2, piv, sc, &step) == LIED_E_SINGULAR && step == 1);
  memcpy(lu, zero_row, sizeof zero_row);
  CHECK(lied_lu_factor_equilibrated(lu, 2, piv, sc, &step) == LIED_E_SINGULAR && step == 1);
  double nf[4] = {1, INFINITY, 1e-6, 1};
  memcpy(lu, nf, sizeof nf);
  CHECK(lied_lu_factor_equilibrated(lu, 2, piv, sc, &step) == LIED_E_SINGULAR && step == 0);
  CHECK(memcmp(lu, nf, sizeof nf) == 0);
  const double w[4] = {3, 1, 1, 2};
  double b1[2] = {1, 1}, b2[2] = {1, 1};
  memcpy(lu, w, sizeof w);
  CHECK(lied_lu_factor_equilibrated(lu, 2, piv, sc, NULL) == LIED_OK);
  lied_lu_solve(lu, 2, piv, b1);
  CHECK(factor_copy(w, 2, lu, piv) == 0);
  lied_lu_solve(lu, 2, piv, b2);
  CHECK_NEAR(b1[0], b2[0], 1e-15);
  CHECK_NEAR(b1[1], b2[1], 1e-15);
}

/* n = 0 succeeds and touches nothing. */
static void test_empty(void) {
  CHECK(lied_lu_factor(NULL, 0, NULL, NULL) == LIED_OK);
  lied_lu_solve(NULL, 0, NULL, NULL);
}

int main(void) {
  test_known_3x3();
  test_needs_pivoting();
  test_random_systems();
  test_exactly_singular();
  test_nearly_singular();
  test_scaled_identity();
  test_non_finite();
  test_empty();
  test_equilibrated_scaled();
  test_equilibrated_singular();
  return CHECK_DONE();
}
