/* linearize.c - A, B, C, D of a model around a point by central differences,
 * and eigenvalues through LAPACK. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analysis.h"
#include "solve/jacobian.h"

/* LAPACK (Fortran calling convention) */
extern void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a,
                   const int *lda, double *wr, double *wi, double *vl, const int *ldvl,
                   double *vr, const int *ldvr, double *work, const int *lwork, int *info);

void lied_linear_free(lied_linear *L) {
  free(L->A);
  free(L->B);
  free(L->C);
  free(L->D);
  free(L->y0);
  free(L->ns);
  memset(L, 0, sizeof *L);
}

/* The perturbation of a value v: exact to rounding for a linear model, and
 * balances truncation (h^2) against rounding (eps / h) otherwise; hs < 1
 * after a perturbation left a component's range (lied_linearize). */
static double delta(double hs, double v) { return hs * cbrt(DBL_EPSILON) * fmax(fabs(v), 1.0); }
/* The steps are made 8 times smaller at most this many times. */
#define LIN_SHRINK 4

/* Thresholds of the smoothness tests (entry below). */
#define LIN_KINK 1e-3   /* slopes jumping by more (relative): a kink */
#define LIN_SECOND 1e-8 /* central differences at h and h/2 disagreeing by more */
#define LIN_SIDES 0.5   /* second derivatives of the two sides disagreeing by more */
#define LIN_ROW 1e-6    /* of the row's largest entry: below, an entry counts as 0 */
#define LIN_COL 1e-9    /* of the column's largest entry (A): below, a slope's jump counts as 0 */

/* The values of a function (a derivative or an output) at v - h, v - h/2,
 * v, v + h/2, v + h and v -+ 8 h for one perturbed value v, and the steps
 * as represented. */
typedef struct samples {
  double m, m2, c, p2, p, m8, p8;
  double hm, hm2, hp2, hp, hm8, hp8; /* v - (v - h), ..., (v + h) - v, v - (v - 8h), ... */
} samples;

/* One entry of A, B, C or D from its samples, with its smoothness (`row`,
 * `col`: the largest entries of its row and column, the scales below which
 * a difference counts as none: a flow's |m| (h_in - h) at m = 0 where h_in
 * and h differ by their rounding kinks by 1e-10 where its column holds
 * 1e5):
 *  - the one-sided slopes (f(v + h) - f(v)) / h and (f(v) - f(v - h)) / h
 *    differ, and by as much at h/2 (a smooth curvature makes them differ
 *    by half as much there): the function kinks at v (no derivative); the
 *    entry is the central difference, their mean;
 *  - else the central differences at h/2, h and 8 h differ in proportion
 *    to the step (D(8h) - D(h) = 14 (D(h) - D(h/2)) within 30 %: an error
 *    linear in the step, where rounding inside the evaluation makes them
 *    differ in inverse proportion) and the second differences of the two
 *    sides differ: the second derivative jumps at v (a law m|m| at m = 0),
 *    and the central difference has an error of order h (3e-5 on the
 *    vessels' -5): the entry is the Richardson extrapolation
 *    (8 D(h) - D(8h)) / 7, which removes it (exact for a piecewise
 *    quadratic);
 *  - else the central difference at h, exact to rounding for a linear
 *    function and within h^2 times the third derivative / 6 (about 1e-11
 *    relative) otherwise. */
static double entry(const samples *q, double row, double col, int *kind, double *fwd,
                    double *bwd) {
  const double D1 = (q->p - q->m) / (q->hp + q->hm), D2 = (q->p2 - q->m2) / (q->hp2 + q->hm2);
  *fwd = (q->p - q->c) / q->hp;
  *bwd = (q->c - q->m) / q->hm;
  const double fwd2 = (q->p2 - q->c) / q->hp2, bwd2 = (q->c - q->m2) / q->hm2;
  const double big = fmax(fmax(fabs(q->p), fabs(q->m)), fmax(fmax(fabs(q->c), fabs(q->p2)), fabs(q->m2)));
  const double noise = 64 * DBL_EPSILON * big / fmin(q->hp2, q->hm2);
  const double size = fmax(fmax(fabs(*fwd), fabs(*bwd)), fmax(LIN_ROW * row, LIN_COL * col));
  const double jump = 2 * (fwd2 - bwd2) - (*fwd - *bwd); /* the slopes' jump as h -> 0 */
  *kind = LIED_SMOOTH;
  if (fabs(jump) > LIN_KINK * size + noise && fabs(*fwd - *bwd) > LIN_KINK * size + noise) {
    *kind = LIED_KINK;
    return D1;
  }
  /* the second differences of each side, over h/2 */
  const double sp = (*fwd - fwd2) / (0.5 * q->hp), sm = (bwd2 - *bwd) / (0.5 * q->hm);
  const double snoise = 4 * noise / fmin(q->hp2, q->hm2);
  const double D8 = (q->p8 - q->m8) / (q->hp8 + q->hm8), lin = 14 * (D1 - D2);
  if (fabs(D1 - D2) > LIN_SECOND * fmax(fmax(fabs(D1), fabs(D2)), LIN_ROW * row) + noise &&
      fabs(D8 - D1 - lin) <= 0.3 * fabs(lin) &&
      fabs(sp - sm) > LIN_SIDES * fmax(fabs(sp), fabs(sm)) + snoise) {
    *kind = LIED_SECOND;
    return (8 * D1 - D8) / 7;
  }
  return D1;
}

/* Record an entry that is not smooth (L->ns, grown as needed). */
static int note(lied_linear *L, char matrix, uint64_t row, uint64_t col, int kind, double fwd,
                double bwd, lied_err *e) {
  if (kind == LIED_SMOOTH) return LIED_OK;
  if (L->nns == L->cap) {
    uint64_t cap = L->cap ? 2 * L->cap : 16;
    lied_nonsmooth *p = realloc(L->ns, sizeof *p * (size_t)cap);
    if (!p) return lied_errc(e, LIED_E_NOMEM, "out of memory (linearisation)");
    L->ns = p;
    L->cap = cap;
  }
  L->ns[L->nns++] = (lied_nonsmooth){matrix, kind, row, col, fwd, bwd};
  return LIED_OK;
}

typedef struct lin {
  lied_sched *s;
  double t;
  double hs; /* the steps' scale (delta) */
  const double *const *out;
  int no;
  long nrhs;
  lied_linear *L;
  volatile sig_atomic_t *stop;
  lied_err *e;
} lin;

/* f(x) and, when y is not NULL, the outputs (every section variable
 * consistent, the output part run); a set stop flag ends the linearisation. */
static int eval(lin *C, const double *x, double *f, double *y) {
  if (C->stop && *C->stop)
    return lied_errc(C->e, LIED_ERROR, "linearize: interrupted after %ld evaluations of the model",
                     C->nrhs);
  C->nrhs++;
  LIED_TRY(lied_sched_evaluate(C->s, C->t, x, f, y != NULL, C->e));
  for (int k = 0; y && k < C->no; k++) y[k] = *C->out[k];
  return LIED_OK;
}

/* The perturbed values at which the samples are taken: v - h, v - h/2,
 * v + h/2, v + h, v - 8h, v + 8h (k = 0 .. LIN_SAMPLES - 1). */
#define LIN_SAMPLES 6
static double at(double hs, double v, int k) {
  static const double step[LIN_SAMPLES] = {-1, -0.5, 0.5, 1, -8, 8};
  return v + step[k] * delta(hs, v);
}
/* The samples of the central differences at h (the first pass). */
static int central(int k) { return k == 0 || k == 3; }

/* Value i of the evaluations fk[k] (k as for at) and of the base f0, for a
 * perturbation of v. */
static samples gather(double hs, double v, double *const *fk, const double *f0, uint64_t i) {
  return (samples){fk[0][i], fk[1][i], f0[i], fk[2][i], fk[3][i], fk[4][i], fk[5][i],
                   v - at(hs, v, 0), v - at(hs, v, 1), at(hs, v, 2) - v, at(hs, v, 3) - v,
                   v - at(hs, v, 4), at(hs, v, 5) - v};
}

/* Entry (row, col) of matrix `which` into *out from its samples, noted
 * when it is not smooth. */
static int put(lin *C, char which, uint64_t row, uint64_t col, const samples *q, double rscale,
               double cscale, double *out) {
  int kind;
  double fw, bw;
  *out = entry(q, rscale, cscale, &kind, &fw, &bw);
  return note(C->L, which, row, col, kind, fw, bw, C->e);
}

/* The largest |entry| of each of the rows of an r x c row-major matrix
 * into big[0 .. r), and (bigc not NULL) of each column into bigc[0 .. c). */
static void row_max(const double *M, uint64_t r, uint64_t c, double *big, double *bigc) {
  for (uint64_t j = 0; bigc && j < c; j++) bigc[j] = 0;
  for (uint64_t i = 0; i < r; i++) {
    big[i] = 0;
    for (uint64_t j = 0; j < c; j++) {
      big[i] = fmax(big[i], fabs(M[i * c + j]));
      if (bigc) bigc[j] = fmax(bigc[j], fabs(M[i * c + j]));
    }
  }
}

/* A by colour: the columns of one colour share no row, so one evaluation
 * per perturbation and colour gives all of them. First the central
 * differences (the rows' scales), then every entry from its four samples. */
static int fill_A(lin *C, const double *x, const double *f0, double *A, double *xp,
                  double *const *fk, double *big) {
  const uint64_t n = C->s->nstates;
  uint64_t *rowptr = NULL, *ctp = NULL;
  uint32_t *cols = NULL, *crow = NULL, *colour = NULL, ncol = 0;
  int rc = lied_sched_sparsity(C->s, &rowptr, &cols, C->e);
  if (!rc) rc = lied_transpose(n, rowptr, cols, &ctp, &crow, NULL, C->e);
  if (!rc) {
    colour = lied_xmalloc(sizeof *colour * (size_t)n, "linearisation", C->e);
    rc = colour ? lied_colour(n, rowptr, cols, colour, &ncol, C->e) : LIED_E_NOMEM;
  }
  for (int pass = 0; pass < 2; pass++) {
    if (pass) row_max(A, n, n, big, big + n);
    for (uint32_t c = 0; !rc && c < ncol; c++) {
      for (int k = 0; !rc && k < LIN_SAMPLES; k++) {
        if (!pass && !central(k)) continue;
        memcpy(xp, x, sizeof *xp * n);
        for (uint64_t j = 0; j < n; j++)
          if (colour[j] == c) xp[j] = at(C->hs, x[j], k);
        rc = eval(C, xp, fk[k], NULL);
      }
      for (uint64_t j = 0; !rc && j < n; j++) {
        if (colour[j] != c) continue;
        for (uint64_t p = ctp[j]; !rc && p < ctp[j + 1]; p++) {
          const uint64_t i = crow[p];
          samples q = gather(C->hs, x[j], fk, f0, i);
          if (!pass)
            A[i * n + j] = (q.p - q.m) / (q.hp + q.hm);
          else
            rc = put(C, 'A', i, j, &q, big[i], big[n + j], &A[i * n + j]);
        }
      }
    }
  }
  free(rowptr), free(cols), free(ctp), free(crow), free(colour);
  return rc;
}

/* C: the outputs by state, four evaluations per state (outputs need not
 * follow the pattern of the derivatives); the rows' scales from central
 * differences first. */
static int fill_C(lin *C, const double *x, const double *y0, double *Cm, double *xp, double *f,
                  double *const *yk, double *big) {
  const uint64_t n = C->s->nstates;
  memcpy(xp, x, sizeof *xp * n);
  for (int pass = 0; pass < 2; pass++) {
    if (pass) row_max(Cm, (uint64_t)C->no, n, big, NULL);
    for (uint64_t j = 0; j < n; j++) {
      for (int k = 0; k < LIN_SAMPLES; k++) {
        if (!pass && !central(k)) continue;
        xp[j] = at(C->hs, x[j], k);
        LIED_TRY(eval(C, xp, f, yk[k]));
      }
      xp[j] = x[j];
      for (int i = 0; i < C->no; i++) {
        samples q = gather(C->hs, x[j], yk, y0, (uint64_t)i);
        double *out = &Cm[(uint64_t)i * n + j];
        if (!pass)
          *out = (q.p - q.m) / (q.hp + q.hm);
        else
          LIED_TRY(put(C, 'C', (uint64_t)i, j, &q, big[i], 0, out));
      }
    }
  }
  return LIED_OK;
}

/* B and D: four evaluations per input, perturbed in place; the rows'
 * scales from central differences first. */
static int fill_BD(lin *C, const double *x, double *const *in, int ni, const double *f0,
                   const double *y0, double *B, double *D, double *const *fk,
                   double *const *yk, double *big) {
  const uint64_t n = C->s->nstates, no = (uint64_t)C->no;
  for (int pass = 0; pass < 2; pass++) {
    if (pass) row_max(B, n, (uint64_t)ni, big, NULL), row_max(D, no, (uint64_t)ni, big + n, NULL);
    for (int j = 0; j < ni; j++) {
      const double u = *in[j];
      int rc = LIED_OK;
      for (int k = 0; !rc && k < LIN_SAMPLES; k++) {
        if (!pass && !central(k)) continue;
        *in[j] = at(C->hs, u, k);
        lied_sched_invalidate(C->s);
        rc = eval(C, x, fk[k], yk[k]);
      }
      *in[j] = u;
      lied_sched_invalidate(C->s);
      LIED_TRY(rc);
      for (uint64_t i = 0; i < n + no; i++) {
        const int out = i >= n;
        samples q = out ? gather(C->hs, u, yk, y0, i - n) : gather(C->hs, u, fk, f0, i);
        double *v = out ? &D[(i - n) * (uint64_t)ni + (uint64_t)j] : &B[i * (uint64_t)ni + (uint64_t)j];
        if (!pass)
          *v = (q.p - q.m) / (q.hp + q.hm);
        else
          LIED_TRY(put(C, out ? 'D' : 'B', out ? i - n : i, (uint64_t)j, &q, big[i], 0, v));
      }
    }
  }
  return LIED_OK;
}

static int alloc(lied_linear *L, uint64_t n, int ni, int no, lied_err *e) {
  L->n = n;
  L->ni = ni;
  L->no = no;
  L->A = lied_xcalloc((size_t)(n * n) + 1, sizeof(double), "linearisation A", e);
  L->B = lied_xcalloc((size_t)n * (size_t)ni + 1, sizeof(double), "linearisation B", e);
  L->C = lied_xcalloc((size_t)no * (size_t)n + 1, sizeof(double), "linearisation C", e);
  L->D = lied_xcalloc((size_t)no * (size_t)ni + 1, sizeof(double), "linearisation D", e);
  L->y0 = lied_xcalloc((size_t)no + 1, sizeof(double), "linearisation", e);
  return L->A && L->B && L->C && L->D && L->y0 ? LIED_OK : LIED_E_NOMEM;
}

int lied_linearize(lied_sched *s, double t, const double *x, double *const *inputs, int ni,
                   const double *const *outputs, int no, volatile sig_atomic_t *stop,
                   lied_linear *L, lied_err *e) {
  memset(L, 0, sizeof *L);
  const uint64_t n = s->nstates;
  if (n > LIED_LINEAR_MAX)
    return lied_errc(e, LIED_E_LIMIT, "linearize: %llu states; at most %d for dense matrices",
                     (unsigned long long)n, LIED_LINEAR_MAX);
  if (!isfinite(t)) return lied_errc(e, LIED_E_USAGE, "linearize: time must be finite");
  if (ni < 0 || no < 0) return lied_errc(e, LIED_E_USAGE, "linearize: bad input/output count");
  lin C = {s, t, 1.0, outputs, no, 0, L, stop, e};
  int rc = alloc(L, n, ni, no, e);
  /* x perturbed, f at the point, f at the perturbations, a scratch f,
   * the rows' and columns' scales (2 m); the outputs at the perturbations */
  const size_t m = (size_t)n + (size_t)no + 1, my = (size_t)no + 1, K = LIN_SAMPLES;
  double *work = rc ? NULL : lied_xmalloc(sizeof(double) * ((K + 5) * m + K * my), "linearisation", e);
  if (!rc && !work) rc = LIED_E_NOMEM;
  double *xp = work, *f0 = NULL, *scratch = NULL, *big = NULL, *fk[LIN_SAMPLES] = {NULL},
         *yk[LIN_SAMPLES] = {NULL};
  if (work) {
    f0 = work + m, scratch = work + (K + 2) * m, big = work + (K + 3) * m;
    for (size_t k = 0; k < K; k++) fk[k] = work + (2 + k) * m, yk[k] = work + (K + 5) * m + k * my;
  }
  /* the point: derivatives and outputs */
  if (!rc) rc = eval(&C, x, f0, L->y0);
  /* a perturbation that left a component's range (a block fault: a stiff law
   * such as a compressor's outlet pressure over the displaced mass, where a
   * cell's mass moved by 5e-5 of it gives megapascals) is taken again with
   * every step 8 times smaller, at most LIN_SHRINK times */
  for (int shrink = 0; !rc; shrink++) {
    L->nns = 0;
    if (n) rc = fill_A(&C, x, f0, L->A, xp, fk, big);
    if (!rc && no && n) rc = fill_C(&C, x, L->y0, L->C, xp, scratch, yk, big);
    if (!rc && ni) rc = fill_BD(&C, x, inputs, ni, f0, L->y0, L->B, L->D, fk, yk, big);
    if (rc != LIED_E_RANGE || shrink == LIN_SHRINK) break;
    C.hs /= 8;
    rc = LIED_OK;
  }
  /* the model evaluated at the point, outputs recorded */
  if (!rc) rc = eval(&C, x, f0, L->y0);
  L->rhs = C.nrhs;
  free(work);
  if (rc) lied_linear_free(L);
  return rc < 0 ? lied_err_code(e) : rc;
}

static int cmp_eig(const void *a, const void *b) {
  const double *p = a, *q = b;
  if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
  return (p[1] > q[1]) - (p[1] < q[1]);
}

int lied_eigenvalues(uint64_t n, const double *A, double *re, double *im, lied_err *e) {
  if (n == 0) return LIED_OK;
  if (n > LIED_LINEAR_MAX)
    return lied_errc(e, LIED_E_LIMIT, "eigenvalues: %llu states; at most %d",
                     (unsigned long long)n, LIED_LINEAR_MAX);
  const int ni = (int)n, one = 1;
  int lwork = 8 * ni, info = 0;
  double *a = lied_xmalloc(sizeof *a * (size_t)(n * n), "eigenvalues", e);
  double *work = lied_xmalloc(sizeof *work * (size_t)lwork, "eigenvalues", e);
  double *pair = lied_xmalloc(sizeof *pair * 2 * (size_t)n, "eigenvalues", e);
  int rc = a && work && pair ? LIED_OK : LIED_E_NOMEM;
  if (!rc) {
    /* column-major for Fortran: the transpose of the row-major A */
    for (uint64_t i = 0; i < n; i++)
      for (uint64_t j = 0; j < n; j++) a[j * n + i] = A[i * n + j];
    dgeev_("N", "N", &ni, a, &ni, re, im, NULL, &one, NULL, &one, work, &lwork, &info);
    if (info != 0)
      rc = lied_errc(e, LIED_E_SOLVER, "eigenvalues: the QR algorithm did not converge "
                                       "(LAPACK dgeev info %d)", info);
  }
  if (!rc) {
    for (uint64_t i = 0; i < n; i++) pair[2 * i] = re[i], pair[2 * i + 1] = im[i];
    qsort(pair, (size_t)n, 2 * sizeof *pair, cmp_eig);
    for (uint64_t i = 0; i < n; i++) re[i] = pair[2 * i], im[i] = pair[2 * i + 1];
  }
  free(a), free(work), free(pair);
  return rc;
}

int lied_state_index(const lied_sched *s, const double *p, const char *what, uint64_t *idx,
                     lied_err *e) {
  const char *c = (const char *)(const void *)p;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    if (c < sm->base || c >= sm->base + sm->count * sm->stride) continue;
    const uint64_t q = (uint64_t)(c - sm->base) / sm->stride;
    const size_t off = (size_t)(c - sm->base) % sm->stride;
    for (int k = 0; k < sm->n; k++)
      if (sm->st[k].x == off) {
        *idx = sm->x0 + q * (uint64_t)sm->n + (uint64_t)k;
        return LIED_OK;
      }
  }
  return lied_errc(e, LIED_E_USAGE, "%s is not a state", what);
}
