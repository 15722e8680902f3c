/* test_jacobian.c - column colouring, the coloured finite-difference
 * Jacobian, the Newton iteration matrix and the sparse LU (KLU when built). */
#include "check.h"
#include "linsys/lu.h"
#include "linsys/sparse.h"
#include "solve/jacobian.h"
#include "solve/newton.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAXN = 400, MAXNNZ = MAXN * 12 };

typedef struct pattern {
  uint64_t n, rowptr[MAXN + 1];
  uint32_t cols[MAXNNZ];
} pattern;

/* Deterministic pseudo-random numbers (LCG), so failures reproduce. */
static uint64_t rng = 12345;
static uint32_t rnd(uint32_t m) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(rng >> 33) % m;
}

/* Sort and deduplicate row i's columns in place; returns the new count. */
static uint64_t sort_row(uint32_t *c, uint64_t k) {
  for (uint64_t a = 1; a < k; a++)
    for (uint64_t b = a; b > 0 && c[b - 1] > c[b]; b--) {
      uint32_t t = c[b];
      c[b] = c[b - 1];
      c[b - 1] = t;
    }
  uint64_t u = 0;
  for (uint64_t a = 0; a < k; a++)
    if (u == 0 || c[a] != c[u - 1]) c[u++] = c[a];
  return u;
}

/* n / b independent dense b x b blocks (the crane crabs: b = 4). */
static void blocks(pattern *p, uint64_t n, uint32_t b) {
  p->n = n;
  uint64_t k = 0;
  for (uint64_t i = 0; i < n; i++) {
    p->rowptr[i] = k;
    uint32_t b0 = (uint32_t)(i / b) * b;
    for (uint32_t j = b0; j < b0 + b && j < n; j++) p->cols[k++] = j;
  }
  p->rowptr[n] = k;
}

/* Tridiagonal. */
static void tridiag(pattern *p, uint64_t n) {
  p->n = n;
  uint64_t k = 0;
  for (uint64_t i = 0; i < n; i++) {
    p->rowptr[i] = k;
    for (int64_t j = (int64_t)i - 1; j <= (int64_t)i + 1; j++)
      if (j >= 0 && (uint64_t)j < n) p->cols[k++] = (uint32_t)j;
  }
  p->rowptr[n] = k;
}

/* Random rows of up to `per` entries, diagonal not forced. */
static void random_pattern(pattern *p, uint64_t n, uint32_t per) {
  p->n = n;
  uint64_t k = 0;
  for (uint64_t i = 0; i < n; i++) {
    p->rowptr[i] = k;
    uint32_t m = rnd(per + 1);
    for (uint32_t q = 0; q < m; q++) p->cols[k + q] = rnd((uint32_t)n);
    k += sort_row(p->cols + k, m);
  }
  p->rowptr[n] = k;
}

/* No two columns of one colour share a row. */
static int colouring_valid(const pattern *p, const uint32_t *colour, uint32_t nc) {
  static uint32_t seen[MAXN];
  for (uint64_t i = 0; i < p->n; i++) {
    memset(seen, 0, sizeof seen);
    for (uint64_t k = p->rowptr[i]; k < p->rowptr[i + 1]; k++) {
      uint32_t c = colour[p->cols[k]];
      if (c >= nc || seen[c]) return 0;
      seen[c] = 1;
    }
  }
  return 1;
}

static void test_colouring(void) {
  static pattern p;
  static uint32_t colour[MAXN];
  uint32_t nc = 0;
  lied_err e;
  blocks(&p, 400, 4);
  CHECK(lied_colour(p.n, p.rowptr, p.cols, colour, &nc, &e) == 0);
  CHECK(nc == 4); /* 100 independent crabs: 4 evaluations, not 400 */
  CHECK(colouring_valid(&p, colour, nc));
  tridiag(&p, 100);
  CHECK(lied_colour(p.n, p.rowptr, p.cols, colour, &nc, &e) == 0);
  CHECK(nc == 3);
  CHECK(colouring_valid(&p, colour, nc));
  blocks(&p, 12, 12); /* dense */
  CHECK(lied_colour(p.n, p.rowptr, p.cols, colour, &nc, &e) == 0);
  CHECK(nc == 12);
  CHECK(colouring_valid(&p, colour, nc));
  for (int trial = 0; trial < 50; trial++) {
    random_pattern(&p, 20 + rnd(300), 1 + rnd(8));
    CHECK(lied_colour(p.n, p.rowptr, p.cols, colour, &nc, &e) == 0);
    CHECK(colouring_valid(&p, colour, nc));
    CHECK(nc <= p.n);
  }
  /* the greedy colouring itself: column j takes the smallest colour no
   * column before it that shares a row has (a reference by pairs of
   * columns, written here) */
  for (int trial = 0; trial < 30; trial++) {
    random_pattern(&p, 20 + rnd(200), 1 + rnd(11));
    CHECK(lied_colour(p.n, p.rowptr, p.cols, colour, &nc, &e) == 0);
    static uint8_t share[MAXN][MAXN];
    memset(share, 0, sizeof share);
    for (uint64_t i = 0; i < p.n; i++)
      for (uint64_t a = p.rowptr[i]; a < p.rowptr[i + 1]; a++)
        for (uint64_t b = p.rowptr[i]; b < p.rowptr[i + 1]; b++) share[p.cols[a]][p.cols[b]] = 1;
    static uint32_t ref[MAXN];
    uint32_t nref = 0, ok = 1;
    for (uint64_t j = 0; j < p.n; j++) {
      static uint8_t taken[MAXN + 1];
      memset(taken, 0, sizeof taken);
      for (uint64_t k = 0; k < j; k++)
        if (share[j][k]) taken[ref[k]] = 1;
      uint32_t c = 0;
      while (taken[c]) c++;
      ref[j] = c;
      if (c + 1 > nref) nref = c + 1;
      ok = ok && ref[j] == colour[j];
    }
    CHECK(ok && nref == nc);
  }
  /* a dense pattern of 3000 columns (every state's derivative reads every
   * state: a pack of cells in series through one linear section) gets one
   * colour per column; the colouring stops looking at a column's rows once
   * every colour in use is taken (it was O(n^3): 2 minutes for the 4,102
   * states of examples/battery_pack.lua at s = p = 32, before steady's
   * first step and deaf to Ctrl-C) */
  {
    const uint64_t n = 3000;
    uint64_t *rp = malloc(sizeof *rp * (n + 1));
    uint32_t *cl = malloc(sizeof *cl * n * n), *cc = malloc(sizeof *cc * n);
    CHECK(rp && cl && cc);
    if (rp && cl && cc) {
      for (uint64_t i = 0; i <= n; i++) rp[i] = i * n;
      for (uint64_t k = 0; k < n * n; k++) cl[k] = (uint32_t)(k % n);
      CHECK(lied_colour(n, rp, cl, cc, &nc, &e) == 0);
      CHECK(nc == n);
      int same = 1;
      for (uint64_t j = 0; j < n; j++) same = same && cc[j] == j;
      CHECK(same);
    }
    free(rp);
    free(cl);
    free(cc);
  }
  /* transpose: every (i, j) appears as (j, i) with its position */
  random_pattern(&p, 50, 5);
  uint64_t *ctp, *cpos;
  uint32_t *crow;
  CHECK(lied_transpose(p.n, p.rowptr, p.cols, &ctp, &crow, &cpos, &e) == 0);
  CHECK(ctp[p.n] == p.rowptr[p.n]);
  for (uint64_t j = 0; j < p.n; j++)
    for (uint64_t a = ctp[j]; a < ctp[j + 1]; a++) {
      CHECK(p.cols[cpos[a]] == j);
      CHECK(cpos[a] >= p.rowptr[crow[a]] && cpos[a] < p.rowptr[crow[a] + 1]);
      if (a > ctp[j]) CHECK(crow[a] > crow[a - 1]);
    }
  free(ctp);
  free(crow);
  free(cpos);
}

/* f_i = -(i + 1) x_i^2 / 2 + sum of sin(x_j) over its block's other states
 * (blocks of 4) + t: J_ii = -(i + 1) x_i, J_ij = cos(x_j). */
static int evals;
static int f_blocks(void *ctx, double t, const double *x, double *dx) {
  uint64_t n = *(const uint64_t *)ctx;
  evals++;
  for (uint64_t i = 0; i < n; i++) {
    double s = -(double)(i + 1) * x[i] * x[i] / 2 + t;
    uint64_t b0 = i / 4 * 4;
    for (uint64_t j = b0; j < b0 + 4 && j < n; j++)
      if (j != i) s += sin(x[j]);
    dx[i] = s;
  }
  return 0;
}

static void test_fd_jacobian(void) {
  static pattern p;
  uint64_t n = 40;
  blocks(&p, n, 4);
  lied_jac J;
  lied_err e;
  CHECK(lied_jac_init(&J, n, p.rowptr, p.cols, 1.0, &e) == 0);
  CHECK(J.ncolours == 4);
  CHECK(J.nnz == p.rowptr[n]); /* the diagonal is already structural */
  double x[40], f0[40];
  for (uint64_t i = 0; i < n; i++) x[i] = 0.1 * (double)i - 1.3;
  f_blocks(&n, 0.5, x, f0);
  evals = 0;
  CHECK(lied_jac_eval(&J, f_blocks, &n, 0.5, x, f0) == 0);
  CHECK(evals == 4);
  CHECK(J.nevals == 4 && J.njac == 1);
  double maxerr = 0;
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t k = J.rowptr[i]; k < J.rowptr[i + 1]; k++) {
      uint32_t j = J.cols[k];
      double want = j == i ? -(double)(i + 1) * x[i] : cos(x[j]);
      maxerr = fmax(maxerr, fabs(J.val[k] - want) / fmax(1.0, fabs(want)));
    }
  CHECK(maxerr < 1e-6);
  /* the iteration matrix I - hg J solves like the dense reference */
  lied_newton N;
  CHECK(lied_newton_init(&N, n, p.rowptr, p.cols, 1.0, &e) == 0);
  CHECK(lied_jac_eval(&N.J, f_blocks, &n, 0.5, x, f0) == 0);
  CHECK(lied_newton_factor(&N, 0.3, &e) == 0);
  double b[40], r[40];
  for (uint64_t i = 0; i < n; i++) b[i] = r[i] = sin((double)i);
  lied_newton_lsolve(&N, b);
  /* residual of (I - 0.3 J) b = r */
  double res = 0;
  for (uint64_t i = 0; i < n; i++) {
    double s = b[i];
    for (uint64_t k = N.J.rowptr[i]; k < N.J.rowptr[i + 1]; k++)
      s -= 0.3 * N.J.val[k] * b[N.J.cols[k]];
    res = fmax(res, fabs(s - r[i]));
  }
  CHECK(res < 1e-12);
  lied_newton_free(&N);
  lied_jac_free(&J);
}

/* A pattern without diagonal entries gets them added (zero in J). */
static void test_added_diagonal(void) {
  pattern p;
  p.n = 3; /* x0' = x1, x1' = x2, x2' = x0 */
  uint64_t rp[4] = {0, 1, 2, 3};
  uint32_t cl[3] = {1, 2, 0};
  memcpy(p.rowptr, rp, sizeof rp);
  memcpy(p.cols, cl, sizeof cl);
  lied_jac J;
  lied_err e;
  CHECK(lied_jac_init(&J, 3, p.rowptr, p.cols, 1.0, &e) == 0);
  CHECK(J.nnz == 6 && J.nnz_f == 3);
  for (uint64_t i = 0; i < 3; i++) {
    CHECK(J.cols[J.diag[i]] == i);
    CHECK(J.diag[i] >= J.rowptr[i] && J.diag[i] < J.rowptr[i + 1]);
  }
  CHECK(J.ncolours == 1); /* no row holds two states */
  lied_jac_free(&J);
}

/* A steep law at a state far below atol (a valve's leakage flow: dp = k m|m|
 * with k = 2e24 at m = 1.2e-8): the unscaled steps sqrt(eps) max(|x|,
 * atol/rtol) are larger than the state and the quotient is off by a factor
 * near 2; the steps scaled to the tolerances and the step size give 2 k |m|
 * to 1e-3 (the step is 1e-4 of the state here). x1' = -x1 keeps a second,
 * ordinary state. */
static int steep(void *ctx, double t, const double *x, double *f) {
  (void)ctx, (void)t;
  f[0] = -2e24 * x[0] * fabs(x[0]) * 1e-20; /* scaled to O(1e-4) */
  f[1] = -x[1];
  return 0;
}
static void test_scaled_steps(void) {
  uint64_t rp[3] = {0, 1, 2};
  uint32_t cl[2] = {0, 1};
  lied_jac J;
  lied_err e;
  CHECK(lied_jac_init(&J, 2, rp, cl, 1.0, &e) == 0); /* typ = atol/rtol = 1 */
  const double x[2] = {1.2e-8, 3.0};
  double f0[2];
  steep(NULL, 0, x, f0);
  const double exact = -2e24 * 2 * 1.2e-8 * 1e-20;
  CHECK(lied_jac_eval(&J, steep, NULL, 0, x, f0) == 0);
  const double old = J.val[J.diag[0]];
  CHECK(fabs(old / exact - 1) > 0.5); /* the unscaled step: off by a factor */
  const lied_jac_scale sc = {1e-6, 1e-6, 0.01};
  CHECK(lied_jac_eval_scaled(&J, steep, NULL, 0, x, f0, &sc) == 0);
  CHECK(fabs(J.val[J.diag[0]] / exact - 1) < 1e-3);
  CHECK(fabs(J.val[J.diag[1]] + 1) < 1e-6);
  /* f0 = 0: the increment falls back to (atol + rtol |x|) */
  const double z[2] = {0, 0}, fz[2] = {0, 0};
  CHECK(lied_jac_eval_scaled(&J, steep, NULL, 0, z, fz, &sc) == 0);
  CHECK(fabs(J.val[J.diag[1]] + 1) < 1e-6);
  lied_jac_free(&J);
}

/* Sparse LU against dense LU on random diagonally dominant matrices, a
 * refactorisation with new values, and a singular matrix; the 32-bit
 * indices (lied_splu_new) against the 64-bit ones, bit for bit. */
static void test_sparse_lu(void) {
  if (!lied_splu_available()) {
    printf("sparse LU not built: skipped\n");
    return;
  }
  static pattern p;
  static double val[MAXNNZ], dense[MAXN * MAXN], b[MAXN], x[MAXN], xw[MAXN];
  static int piv[MAXN];
  lied_err e;
  for (int trial = 0; trial < 5; trial++) {
    uint64_t n = 50 + rnd(300);
    random_pattern(&p, n, 6);
    lied_jac J; /* for the diagonal merge */
    CHECK(lied_jac_init(&J, n, p.rowptr, p.cols, 1.0, &e) == 0);
    lied_splu *s = lied_splu_new(n, J.rowptr, J.cols, &e);
    lied_splu *w = lied_splu_new_wide(n, J.rowptr, J.cols, &e);
    CHECK(s != NULL && w != NULL);
    if (!s || !w) {
      lied_splu_free(s);
      lied_splu_free(w);
      lied_jac_free(&J);
      continue;
    }
    for (int refactor = 0; refactor < 2; refactor++) {
      memset(dense, 0, sizeof(double) * n * n);
      for (uint64_t i = 0; i < n; i++)
        for (uint64_t k = J.rowptr[i]; k < J.rowptr[i + 1]; k++) {
          double v = J.cols[k] == i ? 10.0 + rnd(5) : (double)rnd(200) / 100.0 - 1.0;
          val[k] = v;
          dense[i * n + J.cols[k]] = v;
        }
      CHECK(lied_splu_factor(s, val, &e) == LIED_OK);
      for (uint64_t i = 0; i < n; i++) b[i] = x[i] = cos((double)i * (refactor + 1));
      lied_splu_solve(s, x);
      CHECK(lied_splu_factor(w, val, &e) == LIED_OK);
      for (uint64_t i = 0; i < n; i++) xw[i] = b[i];
      lied_splu_solve(w, xw);
      CHECK(memcmp(x, xw, sizeof(double) * n) == 0);
      CHECK(lied_lu_factor(dense, (int)n, piv, NULL) == LIED_OK);
      lied_lu_solve(dense, (int)n, piv, b);
      double d = 0;
      for (uint64_t i = 0; i < n; i++) d = fmax(d, fabs(x[i] - b[i]));
      CHECK(d < 1e-12);
    }
    /* all zero: singular */
    memset(val, 0, sizeof(double) * J.nnz);
    CHECK(lied_splu_factor(s, val, &e) == LIED_E_SINGULAR && e.code == LIED_E_SINGULAR);
    CHECK(lied_splu_factor(w, val, &e) == LIED_E_SINGULAR && e.code == LIED_E_SINGULAR);
    lied_splu_free(s);
    lied_splu_free(w);
    lied_jac_free(&J);
  }
}

/* A ladder of m rungs numbered as the planner numbers a network section's
 * unknowns (the rungs' tearing variables q_i first, then the supply and the
 * return mains' cut pressures s_i and r_i; docs/architecture.md, "Sparse
 * linear sections"): in that order the band is m wide and the factors
 * O(m^2); KLU's AMD order keeps them O(m), so the predicted entries per
 * unknown are the same at 100 and 1,000 rungs (6.0; the district network's
 * section: 18.1 predicted, 12.1 factored, at 1,000 to 100,000 houses), the
 * factored ones no more, and the solution satisfies the equations. */
static void ladder_fill(uint64_t m, double *per_unknown) {
  lied_err e = {0};
  const uint64_t n = 3 * m, cap = 6 * n;
  uint64_t *rowptr = malloc(sizeof *rowptr * (n + 1));
  uint32_t *cols = malloc(sizeof *cols * cap);
  double *val = malloc(sizeof *val * cap), *x = malloc(sizeof *x * n);
  CHECK(rowptr && cols && val && x);
  if (!rowptr || !cols || !val || !x) goto out;
  uint64_t at = 0;
  for (uint64_t r = 0; r < n; r++) { /* row r: its neighbours, sorted */
    const uint64_t i = r % m, kind = r / m; /* 0 rung q_i, 1 supply s_i, 2 return r_i */
    uint32_t c[5];
    int k = 0;
    if (kind == 0) {
      c[k++] = (uint32_t)i, c[k++] = (uint32_t)(m + i), c[k++] = (uint32_t)(2 * m + i);
    } else {
      c[k++] = (uint32_t)i;
      if (i > 0) c[k++] = (uint32_t)(kind * m + i - 1);
      c[k++] = (uint32_t)(kind * m + i);
      if (i + 1 < m) c[k++] = (uint32_t)(kind * m + i + 1);
    }
    rowptr[r] = at;
    for (int q = 0; q < k; q++) {
      cols[at] = c[q];
      val[at++] = c[q] == r ? 4.0 : -1.0 + 0.01 * (double)((r + c[q]) % 7);
    }
  }
  rowptr[n] = at;
  lied_splu *s = lied_splu_new(n, rowptr, cols, &e);
  CHECK(s != NULL);
  if (!s) goto out;
  const uint64_t predicted = lied_splu_factor_nnz(s);
  CHECK(lied_splu_factor(s, val, &e) == LIED_OK);
  const uint64_t factored = lied_splu_factor_nnz(s);
  CHECK(factored >= n && factored <= predicted);
  *per_unknown = (double)predicted / (double)n;
  for (uint64_t r = 0; r < n; r++) x[r] = sin((double)r);
  lied_splu_solve(s, x);
  double worst = 0;
  for (uint64_t r = 0; r < n; r++) {
    double ax = 0;
    for (uint64_t p = rowptr[r]; p < rowptr[r + 1]; p++) ax += val[p] * x[cols[p]];
    worst = fmax(worst, fabs(ax - sin((double)r)));
  }
  CHECK(worst < 1e-12);
  lied_splu_free(s);
out:
  free(rowptr), free(cols), free(val), free(x);
}

static void test_sparse_order(void) {
  if (!lied_splu_available()) return;
  double f100 = 0, f1000 = 0;
  ladder_fill(100, &f100);
  ladder_fill(1000, &f1000);
  CHECK(f100 > 1 && f100 < 8 && fabs(f1000 - f100) < 0.05 * f100); /* measured 5.98, 6.00 */
}

int main(void) {
  test_colouring();
  test_fd_jacobian();
  test_added_diagonal();
  test_scaled_steps();
  test_sparse_lu();
  test_sparse_order();
  return CHECK_DONE();
}
