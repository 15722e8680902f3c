/* invariants.c - the linear invariants of a model's dynamics (analysis.h):
 * the vectors c with c^T f(x) = 0 for every x, found from samples of the
 * derivative itself, not from a Jacobian. With f0 = f(x0) and
 * D_j = f(x0 + d_j) - f0 for n changes d_j of every state at once (a
 * relative 1e-3 each, random signs), every invariant has c^T f0 = 0 and
 * c^T D_j = 0, whose rounding is that of the evaluations (a relative eps
 * of the terms they add), where a difference quotient divides it by the
 * change. Changing every state at once brings in the second-order terms:
 * from a degenerate start (every flow 0, where der(U) = h der(M) for the
 * first-order changes of each state alone) a combination that only the
 * first-order terms cancel is not taken for an invariant.
 * G = [f0 D_1 .. D_n], each row scaled to a largest entry of 1, is
 * factored by QR with column pivoting (LAPACK dgeqp3); its left null space,
 * the columns of Q past the numerical rank, holds the invariants.
 * A pseudo-time step keeps them only to h times the rounding of c^T f and
 * of the Jacobian's c^T J (8e-3 J of the heated loop's energy at h = 1e8):
 * lied_invariants_correct moves each step back onto them along the
 * directions its Newton matrix amplifies. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analysis.h"
#include "linsys/lu.h"

/* LAPACK (Fortran calling convention) */
extern void dgeqp3_(const int *m, const int *n, double *a, const int *lda, int *jpvt,
                    double *tau, double *work, const int *lwork, int *info);
extern void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda,
                    const double *tau, double *work, const int *lwork, int *info);

#define INV_STEP 1e-3 /* relative perturbation of each state */
#define INV_RANK 1e-11 /* |R_ii| below this times |R_11|: beyond the numerical rank */

void lied_invariants_free(lied_invariants *I) {
  free(I->C);
  free(I->c0);
  free(I->W);
  free(I->piv);
  memset(I, 0, sizeof *I);
}

/* G's columns: f0, then the differences for nf changes of the free states
 * (column-major, n rows, nf + 1 columns); 1 when the model cannot be
 * evaluated at a changed state (then no invariants are sought), LIED_ERROR
 * when the stop flag is set. */
static int sample(lied_sched *s, double t, const double *x0, const uint8_t *fixed, uint64_t nf,
                  double *G, double *xp, volatile sig_atomic_t *stop, long *nrhs, lied_err *e) {
  const uint64_t n = s->nstates;
  lied_err save = *e;
  double *f0 = G;
  if (lied_sched_evaluate(s, t, x0, f0, 0, e)) goto failed;
  ++*nrhs;
  uint64_t seed = 0x9E3779B97F4A7C15ull; /* xorshift64: the same changes every time */
  for (uint64_t j = 0; j < nf; j++) {
    double *d = G + (j + 1) * n;
    for (uint64_t i = 0; i < n; i++) {
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      const double sign = (seed >> 11) & 1 ? 1.0 : -1.0, size = 0.5 + (double)(seed >> 12 & 1023) / 2046.0;
      /* held states never move: no direction of the dynamics */
      xp[i] = fixed && fixed[i] ? x0[i] : x0[i] + sign * size * INV_STEP * fmax(fabs(x0[i]), 1.0);
    }
    if (stop && *stop) return lied_errc(e, LIED_ERROR, "interrupted (finding the invariants)");
    int rc = lied_sched_evaluate(s, t, xp, d, 0, e);
    ++*nrhs;
    if (rc) goto failed;
    for (uint64_t i = 0; i < n; i++) d[i] -= f0[i];
  }
  for (uint64_t i = 0; i < n * (nf + 1); i++)
    if (!isfinite(G[i])) goto failed;
  return 0;
failed:
  *e = save;
  return 1;
}

/* Orthonormal columns spanning those of the n x k matrix B (in place,
 * modified Gram-Schmidt twice). */
static void orthonormalise(uint64_t n, int k, double *B) {
  for (int pass = 0; pass < 2; pass++)
    for (int a = 0; a < k; a++) {
      double *v = B + (uint64_t)a * n;
      for (int b = 0; b < a; b++) {
        const double *u = B + (uint64_t)b * n;
        double d = 0;
        for (uint64_t i = 0; i < n; i++) d += u[i] * v[i];
        for (uint64_t i = 0; i < n; i++) v[i] -= d * u[i];
      }
      double nn = 0;
      for (uint64_t i = 0; i < n; i++) nn += v[i] * v[i];
      nn = sqrt(nn);
      for (uint64_t i = 0; i < n; i++) v[i] /= nn;
    }
}

/* The m x (m + 1) matrix G (column-major) with its rows scaled to a
 * largest entry of 1 (scale: the factors). */
static void scale_rows(uint64_t m, double *G, double *scale) {
  for (uint64_t i = 0; i < m; i++) {
    double big = 0;
    for (uint64_t j = 0; j <= m; j++) big = fmax(big, fabs(G[j * m + i]));
    scale[i] = big > 0 ? big : 1;
    for (uint64_t j = 0; j <= m; j++) G[j * m + i] /= scale[i];
  }
}

/* I's k invariants from the k columns Q (m long each, the free states'
 * rows free[0 .. m)) that span the left null space of the scaled rows:
 * C = S^-1 Q orthonormalised (0 in the held states' rows), c0 = C x0. */
static int keep_null_space(lied_invariants *I, uint64_t n, uint64_t m, const uint64_t *free_,
                           int k, const double *Q, const double *scale, const double *x0,
                           lied_err *e) {
  I->C = lied_xmalloc(sizeof *I->C * (size_t)n * (size_t)k, "steady state: invariants", e);
  I->c0 = lied_xcalloc((size_t)k * (size_t)(k + 2), sizeof *I->c0, "steady state: invariants", e);
  I->W = lied_xmalloc(sizeof *I->W * (size_t)n * (size_t)k, "steady state: invariants", e);
  I->piv = lied_xmalloc(sizeof *I->piv * (size_t)k, "steady state: invariants", e);
  if (!I->C || !I->c0 || !I->W || !I->piv) return LIED_E_NOMEM;
  /* back from the scaled rows: c = S^-1 c' (c'^T S^-1 f = 0) */
  memset(I->C, 0, sizeof *I->C * (size_t)n * (size_t)k);
  for (int a = 0; a < k; a++)
    for (uint64_t i = 0; i < m; i++)
      I->C[(uint64_t)a * n + free_[i]] = Q[(uint64_t)a * m + i] / scale[i];
  orthonormalise(n, k, I->C);
  I->n = n;
  I->k = k;
  for (int a = 0; a < k; a++) {
    double d = 0;
    for (uint64_t i = 0; i < n; i++) d += I->C[(uint64_t)a * n + i] * x0[i];
    I->c0[a] = d;
  }
  return LIED_OK;
}

/* Held states never move (their derivatives are 0 by definition and each
 * is kept exactly): the search is over the free states' rows, and the
 * invariants are combinations of free states. The free states' count: */
static uint64_t count_free(uint64_t n, const uint8_t *fixed) {
  uint64_t nf = 0;
  for (uint64_t i = 0; i < n; i++) nf += !(fixed && fixed[i]);
  return nf;
}

/* G (n rows, nf + 1 columns) cut to the free states' rows, in place (each
 * entry moves to a lower index): nf rows; free_: their indices. */
static void free_rows(uint64_t n, const uint8_t *fixed, uint64_t nf, double *G, uint64_t *free_) {
  uint64_t a = 0;
  for (uint64_t i = 0; i < n; i++)
    if (!(fixed && fixed[i])) free_[a++] = i;
  for (uint64_t j = 0; j <= nf; j++)
    for (a = 0; a < nf; a++) G[j * nf + a] = G[j * n + free_[a]];
}

int lied_invariants_find(lied_sched *s, double t, const double *x0, const uint8_t *fixed,
                         volatile sig_atomic_t *stop, lied_invariants *I, long *nrhs,
                         lied_err *e) {
  memset(I, 0, sizeof *I);
  const uint64_t n = s->nstates;
  const uint64_t nf = n <= LIED_INVARIANTS_MAX ? count_free(n, fixed) : 0;
  if (nf == 0) return LIED_OK;
  const int m = (int)nf, nc = (int)nf + 1;
  double *G = lied_xmalloc(sizeof *G * (size_t)(n * (nf + 1)), "steady state: invariants", e);
  double *xp = lied_xmalloc(sizeof *xp * (size_t)(3 * n + 1), "steady state: invariants", e);
  uint64_t *free_ = lied_xmalloc(sizeof *free_ * (size_t)nf, "steady state: invariants", e);
  int *piv = lied_xcalloc((size_t)nc, sizeof *piv, "steady state: invariants", e);
  double *tau = xp ? xp + n : NULL, *scale = xp ? xp + 2 * n : NULL;
  double *work = NULL;
  int rc = G && xp && free_ && piv ? LIED_OK : LIED_E_NOMEM;
  if (!rc) {
    int sm = sample(s, t, x0, fixed, nf, G, xp, stop, nrhs, e);
    if (sm < 0) rc = LIED_ERROR;
    if (sm) goto done;
  }
  if (!rc) {
    free_rows(n, fixed, nf, G, free_);
    scale_rows(nf, G, scale);
  }
  int lwork = -1, info = 0;
  double q;
  if (!rc) {
    dgeqp3_(&m, &nc, G, &m, piv, tau, &q, &lwork, &info);
    lwork = (int)q + 1;
    work = lied_xmalloc(sizeof *work * (size_t)lwork, "steady state: invariants", e);
    if (!work) rc = LIED_E_NOMEM;
  }
  if (!rc) dgeqp3_(&m, &nc, G, &m, piv, tau, work, &lwork, &info);
  if (rc || info) goto done;
  int r = 0; /* the numerical rank */
  const double r11 = fabs(G[0]);
  while (r < m && fabs(G[(uint64_t)r * nf + (uint64_t)r]) > INV_RANK * r11) r++;
  if (r11 == 0) r = 0;
  if (r == m) goto done;
  /* Q in full (m x m, from all m reflectors): its columns r .. m - 1 span
   * the complement of G's range, the left null space */
  lwork = -1;
  dorgqr_(&m, &m, &m, G, &m, tau, &q, &lwork, &info);
  if ((int)q + 1 > lwork) {
    free(work);
    lwork = (int)q + 1;
    work = lied_xmalloc(sizeof *work * (size_t)lwork, "steady state: invariants", e);
    if (!work) {
      rc = LIED_E_NOMEM;
      goto done;
    }
  }
  dorgqr_(&m, &m, &m, G, &m, tau, work, &lwork, &info);
  if (info) goto done;
  rc = keep_null_space(I, n, nf, free_, m - r, G + (uint64_t)r * nf, scale, x0, e);
done:
  free(G), free(xp), free(free_), free(piv), free(work);
  if (rc) lied_invariants_free(I);
  return rc;
}

int lied_invariants_correct(const lied_invariants *I, void (*solve)(void *ctx, double *b),
                            void *ctx, double h, double *xn) {
  const uint64_t n = I->n;
  const int k = I->k;
  if (!k) return LIED_OK;
  double *S = I->c0 + k, *y = S + (size_t)k * (size_t)k;
  for (int a = 0; a < k; a++) { /* W = M^-1 (h C) */
    double *w = I->W + (uint64_t)a * n;
    for (uint64_t i = 0; i < n; i++) w[i] = h * I->C[(uint64_t)a * n + i];
    solve(ctx, w);
  }
  for (int a = 0; a < k; a++) { /* S = C^T W, y = C^T xn - c0 */
    const double *c = I->C + (uint64_t)a * n;
    double d = -I->c0[a];
    for (uint64_t i = 0; i < n; i++) d += c[i] * xn[i];
    y[a] = d;
    for (int b = 0; b < k; b++) {
      const double *w = I->W + (uint64_t)b * n;
      double v = 0;
      for (uint64_t i = 0; i < n; i++) v += c[i] * w[i];
      S[a * k + b] = v;
    }
  }
  if (lied_lu_factor(S, k, I->piv, NULL)) {
    memset(y, 0, sizeof *y * (size_t)k);
    return LIED_RETRY;
  }
  lied_lu_solve(S, k, I->piv, y);
  for (int b = 0; b < k; b++) {
    const double *w = I->W + (uint64_t)b * n;
    for (uint64_t i = 0; i < n; i++) xn[i] -= y[b] * w[i];
  }
  return LIED_OK;
}

void lied_invariants_add_last(const lied_invariants *I, double *v) {
  const uint64_t n = I->n;
  const int k = I->k;
  const double *y = k ? I->c0 + k + (size_t)k * (size_t)k : NULL;
  for (int a = 0; a < k; a++) {
    const double *c = I->C + (uint64_t)a * n;
    for (uint64_t i = 0; i < n; i++) v[i] += y[a] * c[i];
  }
}
