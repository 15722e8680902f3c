/* probe.c - solving a batch of identical linear sections by affine probing:
 * evaluate with the tearing variables at 0 (giving b), at unit vectors (the
 * columns of A; each column pass runs only the members downstream of its
 * tearing variable and of the previous pass's), solve A t = -b by dense LU,
 * evaluate once more at t so every variable of the section is consistent.
 * Constant matrices are factorised once. */
#include "sched/probe.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "linsys/lu.h"
#include "sched/spsec.h"

#define AT(p, q, stride) (*(double *)(void *)((char *)(p) + (q) * (stride)))

static void run_blocks(const lied_section *sec, const lied_env *env, uint64_t q0,
                       uint64_t n) {
  for (int i = 0; i < sec->nblk; i++) {
    const lied_sec_block *b = &sec->blk[i];
    b->fn(env, b->base + q0 * b->stride, (size_t)n, b->stride);
  }
}

/* The members idx[0 .. cnt) of the section, in that order. */
static void run_members(const lied_section *sec, const int *idx, int cnt, const lied_env *env,
                        uint64_t q0, uint64_t n) {
  for (int j = 0; j < cnt; j++) {
    const lied_sec_block *b = &sec->blk[idx[j]];
    b->fn(env, b->base + q0 * b->stride, (size_t)n, b->stride);
  }
}

/* Column pass i: only the members downstream of its tearing variable or of
 * the previous pass's (sched.h, lied_section.pblk). */
static void run_pass(const lied_section *sec, int i, const lied_env *env, uint64_t q0,
                     uint64_t n) {
  run_members(sec, sec->pblk + sec->pstart[i], sec->pstart[i + 1] - sec->pstart[i], env, q0, n);
}

/* The final evaluation: every member, or only those whose results leave
 * the section during a derivative evaluation (see lied_section.fin). */
static void run_final(const lied_section *sec, enum lied_eval_mode mode, const lied_env *env,
                      uint64_t q0, uint64_t n) {
  if (mode == LIED_EVAL_OUTPUTS)
    run_blocks(sec, env, q0, n);
  else
    run_members(sec, sec->fin, sec->nfin, env, q0, n);
}

static void set_tears(const lied_section *sec, uint64_t q0, uint64_t n, int unit) {
  for (int p = 0; p < sec->k; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    double v = p == unit ? 1.0 : 0.0;
    for (uint64_t q = q0; q < q0 + n; q++) AT(sp->tear, q, sp->tstride) = v;
  }
}

/* The first value of the probe that is not finite, in words: the residual
 * with the tearing variables at 0 (b[r]), else a coefficient (A[r][j],
 * row-major, as probed); 0 when every value is finite (A, b may be NULL). */
static int nonfinite_entry(const lied_sched *s, const lied_section *sec, uint64_t q,
                           const double *A, const double *b, char *buf, size_t cap) {
  const int k = sec->k;
  char res[600], tear[600];
  for (int r = 0; r < k; r++) {
    const lied_template *t = &s->model->specs[sec->pairs[r].spec].tpl;
    lied_sched_pair_var(s, sec, r, q, t->tears[sec->pairs[r].pair].res_var, res, sizeof res);
    if (b && !isfinite(b[r]))
      return snprintf(buf, cap, "the residual %s is %g with the tearing variables at 0", res,
                      b[r]), 1;
    for (int j = 0; A && j < k; j++) {
      const double v = A[(size_t)r * (size_t)k + (size_t)j];
      if (isfinite(v)) continue;
      const lied_template *tj = &s->model->specs[sec->pairs[j].spec].tpl;
      lied_sched_pair_var(s, sec, j, q, tj->tears[sec->pairs[j].pair].tear_var, tear, sizeof tear);
      return snprintf(buf, cap, "the coefficient of %s in the residual %s is %g", tear, res, v), 1;
    }
  }
  return 0;
}

/* LIED_E_SINGULAR for section instance q at time t (singular.c), naming the
 * pivot (step, 0-based), the tearing variables and the components; when
 * the matrix A (k x k as probed) or the residuals at zero tearing variables
 * b (k; either may be NULL) hold a value that is not finite, that value
 * instead (a parameter or start value beyond what doubles hold, a body of
 * 1e308 kg, is no singular matrix); with scaled (probes scaled to the
 * residuals) b's size is no note. */
static int singular(lied_sched *s, const lied_section *sec, uint64_t q, double t, int step,
                    const double *A, const double *b, int scaled, lied_err *e) {
  char detail[64], bad[1400];
  snprintf(detail, sizeof detail, "pivot %d of %d", step + 1, sec->k);
  double bmax = 0;
  for (int r = 0; b && !scaled && r < sec->k; r++) bmax = fmax(bmax, fabs(b[r]));
  const int nf = nonfinite_entry(s, sec, q, A, b, bad, sizeof bad);
  return lied_sched_singular(s, sec, q, t, detail, nf ? bad : NULL, bmax, e);
}

/* lied_lu_factor failed on instance q's matrix at (0-based) step: a matrix
 * with a value that is not finite fails at step 0, after at most one
 * exchange of rows 0 and piv[0] (set to 0 before the call): undone, so
 * that singular names the entry in the order probed; at a later step the
 * elimination has changed it, and no entry is named. */
static const double *lu_unswap(double *a, int k, const int *piv, int step) {
  if (step != 0) return NULL;
  if (piv[0] > 0)
    for (int j = 0; j < k; j++) {
      double x = a[j];
      a[j] = a[(size_t)piv[0] * (size_t)k + (size_t)j];
      a[(size_t)piv[0] * (size_t)k + (size_t)j] = x;
    }
  return a;
}

/* Sections of one or two tearing variables (a crane crab is 2x2) skip the
 * general LU: the matrix is replaced by its inverse, with the same
 * singularity threshold (k * DBL_EPSILON * max|a_ij|, relative). Returns
 * LIED_OK, or LIED_E_SINGULAR with the step (0-based) at which the matrix
 * is singular in *step, as lied_lu_factor. */
static inline double max4abs(double a, double b, double c, double d) {
  a = fabs(a), b = fabs(b), c = fabs(c), d = fabs(d);
  double x = a > b ? a : b, y = c > d ? c : d;
  return x > y ? x : y;
}

static inline int small_invert(double *a, int k, int *step) {
  if (k == 1) {
    double v = a[0];
    if (!(fabs(v) > DBL_EPSILON * fabs(v)) || !isfinite(v)) return *step = 0, LIED_E_SINGULAR;
    a[0] = 1.0 / v;
    return LIED_OK;
  }
  double a11 = a[0], a12 = a[1], a21 = a[2], a22 = a[3];
  double m = max4abs(a11, a12, a21, a22);
  double det = a11 * a22 - a12 * a21;
  if (!isfinite(det) || !(m > 0)) return *step = 0, LIED_E_SINGULAR;
  if (!(fabs(det) > 2.0 * DBL_EPSILON * m * m)) return *step = 1, LIED_E_SINGULAR;
  double r = 1.0 / det;
  a[0] = a22 * r, a[1] = -a12 * r, a[2] = -a21 * r, a[3] = a11 * r;
  return LIED_OK;
}

/* Pointer to the double at p + q * stride. */
#define PTR(p, q, stride) ((double *)(void *)((char *)(p) + (q) * (stride)))

/* t = -M b for a 2x2 inverse M (row-major). */
static inline void solve2(const double *m, double b0, double b1, double *t0, double *t1) {
  *t0 = -(m[0] * b0 + m[1] * b1);
  *t1 = -(m[2] * b0 + m[3] * b1);
}

/* The inverse of [a11 a12; a21 a22] into iv (row-major) as small_invert
 * computes it, without its early exits: returns 1 when small_invert would
 * call the matrix singular (iv is then not used). */
static inline int inverse2(double a11, double a12, double a21, double a22, double *iv) {
  const double m = max4abs(a11, a12, a21, a22);
  const double det = a11 * a22 - a12 * a21;
  const int bad = !(fabs(det) <= DBL_MAX) | !(m > 0) | !(fabs(det) > 2.0 * DBL_EPSILON * m * m);
  const double r = 1.0 / det;
  iv[0] = a22 * r, iv[1] = -a12 * r, iv[2] = -a21 * r, iv[3] = a11 * r;
  return bad;
}

/* Whether every row r of the k x k matrix a holds a coefficient above the
 * rounding of its residual at zero tearing variables b[r] (k DBL_EPSILON
 * |b_r|): a row below it may be rounding noise of a residual that does not
 * depend on the tearing variables, which equilibration would make look
 * like a coefficient (a truly singular section solved with nonsense). */
static int rows_above_rounding(const double *a, const double *b, int k) {
  for (int r = 0; r < k; r++) {
    double m = 0;
    for (int j = 0; j < k; j++) m = fmax(m, fabs(a[(size_t)r * (size_t)k + (size_t)j]));
    if (!(m > (double)k * DBL_EPSILON * fabs(b[r]))) return 0;
  }
  return 1;
}

/* A 2x2 matrix m (row-major) that small_invert calls singular, again with
 * its rows and columns equilibrated (lied_lu_factor_equilibrated, which
 * says why): a badly scaled but solvable one (a row of 1e12 beside one of
 * 1e-6) is inverted so, and its inverse scaled back into iv, an inverse of
 * m itself (C (R m C)^-1 R, exact powers of 2). Returns 0, or 1 when it is
 * singular still (or its rows are rounding noise of b, or the inverse is
 * beyond the doubles). */
static int inverse2_equilibrated(const double *m, const double *b, double *iv) {
  double a[4], sc[4];
  int piv[2], step;
  memcpy(a, m, sizeof a);
  if (!rows_above_rounding(a, b, 2) ||
      lied_lu_factor_equilibrated(a, 2, piv, sc, &step) != LIED_OK)
    return 1;
  for (int j = 0; j < 2; j++) { /* the columns of the inverse: solves with e_j */
    double x[2] = {j == 0, j == 1};
    lied_lu_solve(a, 2, piv, x);
    iv[j] = x[0], iv[2 + j] = x[1];
  }
  return !(isfinite(iv[0]) && isfinite(iv[1]) && isfinite(iv[2]) && isfinite(iv[3]));
}

#if defined(__GNUC__)
#define PROBE_INLINE static inline __attribute__((always_inline))
#else
#define PROBE_INLINE static inline
#endif

/* Residuals that dwarf the matrix (a body started 1e7 m inside a stiff
 * floor: forces of 1e14 N against a mass of 0.1 kg) leave the unit probes
 * r(e_j) - r(0) with few correct digits, the values inside the blocks being
 * as large as the residual. Such instances (|b| > LIED_PROBE_RATIO |A|) are
 * probed again around the first solution t, with perturbations scaled to
 * it (t_j + max(1, |t_j|)), and the solve repeated once from the better
 * point: the perturbations are then as large as the values they change.
 * A singular matrix is reported when report is set, else LIED_E_SINGULAR
 * is returned without a message (lied_probe_range tries again). */
#define LIED_PROBE_RATIO 16777216.0 /* 2^24: columns lose over 8 of 16 digits */

static int reprobe(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                   const lied_env *env, uint64_t q0, uint64_t n, double dmin, int report,
                   lied_err *e) {
  const int k = sec->k;
  const size_t kk = (size_t)k * (size_t)k, c = s->chunk;
  double *A = s->work, *b = A + c * kk, *t = b + c * (size_t)k, *d = t + c * (size_t)k;
  int *piv = s->wpiv;
  for (int p = 0; p < k; p++)
    for (uint64_t q = 0; q < n; q++)
      t[q * (size_t)k + (size_t)p] = AT(sec->pairs[p].tear, q0 + q, sec->pairs[p].tstride);
  for (int pass = 0; pass < 2; pass++) {
    for (int p = 0; p < k; p++)
      for (uint64_t q = 0; q < n; q++)
        AT(sec->pairs[p].tear, q0 + q, sec->pairs[p].tstride) = t[q * (size_t)k + (size_t)p];
    run_blocks(sec, env, q0, n);
    for (int r = 0; r < k; r++)
      for (uint64_t q = 0; q < n; q++)
        b[q * (size_t)k + (size_t)r] = AT(sec->pairs[r].res, q0 + q, sec->pairs[r].rstride);
    for (int j = 0; j < k; j++) {
      const lied_sec_pair *pj = &sec->pairs[j];
      for (uint64_t q = 0; q < n; q++) {
        double tj = t[q * (size_t)k + (size_t)j];
        d[q] = fmax(dmin, fabs(tj));
        AT(pj->tear, q0 + q, pj->tstride) = tj + d[q];
      }
      run_blocks(sec, env, q0, n);
      for (int r = 0; r < k; r++)
        for (uint64_t q = 0; q < n; q++)
          A[q * kk + (size_t)r * (size_t)k + (size_t)j] =
              (AT(sec->pairs[r].res, q0 + q, sec->pairs[r].rstride) -
               b[q * (size_t)k + (size_t)r]) / d[q];
      for (uint64_t q = 0; q < n; q++)
        AT(pj->tear, q0 + q, pj->tstride) = t[q * (size_t)k + (size_t)j];
    }
    for (uint64_t q = 0; q < n; q++) {
      int step = 0;
      double *x = b + q * (size_t)k;
      s->st.factorisations++;
      piv[q * (size_t)k] = 0;
      if (lied_lu_factor(A + q * kk, k, piv + q * (size_t)k, &step) != LIED_OK)
        return !report ? LIED_E_SINGULAR
                       : singular(s, sec, q0 + q, env->t, step,
                                  lu_unswap(A + q * kk, k, piv + q * (size_t)k, step), x, 1, e);
      for (int r = 0; r < k; r++) x[r] = -x[r];
      lied_lu_solve(A + q * kk, k, piv + q * (size_t)k, x);
      for (int p = 0; p < k; p++) t[q * (size_t)k + (size_t)p] += x[p];
    }
  }
  for (int p = 0; p < k; p++)
    for (uint64_t q = 0; q < n; q++)
      AT(sec->pairs[p].tear, q0 + q, sec->pairs[p].tstride) = t[q * (size_t)k + (size_t)p];
  run_final(sec, mode, env, q0, n);
  return LIED_OK;
}

/* Every instance's 2x2 system (a11 a12; a21 a22) t = -b: the inverse, t,
 * and (check_large) whether some b dwarfs its matrix (see reprobe; in
 * squares: no branches); returns whether some matrix is singular. */
PROBE_INLINE int solve_all(uint64_t n, const double *a11, const double *a12, const double *a21,
                           const double *a22, const double *b0, const double *b1, double *t0,
                           double *t1, const size_t ts0, const size_t ts1, const int check_large,
                           const double r2, int *large) {
  int bad = 0, lg = 0;
  LIED_LANE_LOOP
  for (uint64_t q = 0; q < n; q++) {
    double iv[4];
    bad |= inverse2(a11[q], a12[q], a21[q], a22[q], iv);
    solve2(iv, b0[q], b1[q], PTR(t0, q, ts0), PTR(t1, q, ts1));
    if (check_large) { /* a constant: compiled out of the lane groups' copy */
      const double a2 = a11[q] * a11[q] + a12[q] * a12[q] + a21[q] * a21[q] + a22[q] * a22[q];
      lg |= b0[q] * b0[q] + b1[q] * b1[q] > r2 * a2;
    }
  }
  *large = lg;
  return bad;
}

/* The 2x2 case (a crane crab) without the general loops: the same passes,
 * with as few sweeps over the tearing variables and residuals as possible:
 * reading b sets the first pass's unit vector, reading the first column sets
 * the second, and the second column is solved for at once (the inverse is
 * kept only for constant sections). Column c of the matrix belongs to
 * tearing variable c; the passes take them in the order sec->cord. The
 * sweeps have no early exit and keep the matrices as separate arrays, so
 * that the compiler evaluates several instances per instruction when the
 * strides are those of lane groups (LIED_LAYOUT_LANES: probe2 below); the
 * first singular instance is found afterwards. Same arithmetic as
 * small_invert and solve2, instance by instance.
 * Long: the four sweeps of the 2x2 probe in one loop nest, so that it vectorises over lane groups. */
PROBE_INLINE int probe2_(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                         const lied_env *env, uint64_t q0, uint64_t n, const size_t ts0,
                         const size_t ts1, const size_t rs0, const size_t rs1,
                         const int check_large, lied_err *e) {
  const lied_sec_pair *p0 = &sec->pairs[0], *p1 = &sec->pairs[1];
  double *t0 = PTR(p0->tear, q0, ts0), *t1 = PTR(p1->tear, q0, ts1);
  const double *r0 = PTR(p0->res, q0, rs0), *r1 = PTR(p1->res, q0, rs1);
  const size_t c = s->chunk;
  /* b, the first pass's column, the second's: rows 0 and 1 each */
  double *b0 = s->work, *b1 = b0 + c, *u0 = b1 + c, *u1 = u0 + c, *v0 = u1 + c, *v1 = v0 + c;
  LIED_LANE_LOOP
  for (uint64_t q = 0; q < n; q++) *PTR(t0, q, ts0) = 0, *PTR(t1, q, ts1) = 0;
  run_blocks(sec, env, q0, n);
  uint8_t *done = sec->constant ? &sec->factored[q0 / s->chunk] : NULL;
  if (done && *done) {
    const double *iv = sec->lu + 4 * q0;
    LIED_LANE_LOOP
    for (uint64_t q = 0; q < n; q++) {
      solve2(iv + 4 * q, *PTR(r0, q, rs0), *PTR(r1, q, rs1), PTR(t0, q, ts0), PTR(t1, q, ts1));
    }
    run_final(sec, mode, env, q0, n);
    return LIED_OK;
  }
  /* ta/tb: the tearing variables of the first and the second pass; ca
   * their columns */
  const int ca = sec->cord[0];
  double *ta = ca ? t1 : t0, *tb = ca ? t0 : t1;
  const size_t tsa = ca ? ts1 : ts0, tsb = ca ? ts0 : ts1;
  LIED_LANE_LOOP
  for (uint64_t q = 0; q < n; q++) {
    b0[q] = *PTR(r0, q, rs0), b1[q] = *PTR(r1, q, rs1);
    *PTR(ta, q, tsa) = 1;
  }
  run_pass(sec, 0, env, q0, n);
  LIED_LANE_LOOP
  for (uint64_t q = 0; q < n; q++) {
    u0[q] = *PTR(r0, q, rs0) - b0[q];
    u1[q] = *PTR(r1, q, rs1) - b1[q];
    *PTR(ta, q, tsa) = 0, *PTR(tb, q, tsb) = 1;
  }
  run_pass(sec, 1, env, q0, n);
  LIED_LANE_LOOP
  for (uint64_t q = 0; q < n; q++) {
    v0[q] = *PTR(r0, q, rs0) - b0[q];
    v1[q] = *PTR(r1, q, rs1) - b1[q];
  }
  /* the matrix: column ca is u, the other v (two calls, not pointers
   * chosen at run time, which GCC's vectoriser does not follow) */
  const double r2 = check_large && !done ? LIED_PROBE_RATIO * LIED_PROBE_RATIO : HUGE_VAL;
  int large = 0;
  const int bad =
      ca ? solve_all(n, v0, u0, v1, u1, b0, b1, t0, t1, ts0, ts1, check_large, r2, &large)
         : solve_all(n, u0, v0, u1, v1, b0, b1, t0, t1, ts0, ts1, check_large, r2, &large);
  const double *a11 = ca ? v0 : u0, *a21 = ca ? v1 : u1, *a12 = ca ? u0 : v0,
               *a22 = ca ? u1 : v1;
  if (done) /* constant: keep the inverses */
    LIED_LANE_LOOP
    for (uint64_t q = 0; q < n; q++)
      inverse2(a11[q], a12[q], a21[q], a22[q], sec->lu + 4 * (q0 + q));
  if (bad) { /* singular instances: equilibrated, else the first as small_invert says it */
    for (uint64_t q = 0; q < n; q++) {
      double m[4] = {a11[q], a12[q], a21[q], a22[q]}, b[2] = {b0[q], b1[q]}, iv[4];
      int step;
      if (small_invert(m, 2, &step) == LIED_OK) continue;
      if (inverse2_equilibrated(m, b, iv)) {
        s->st.factorisations += q + 1;
        return singular(s, sec, q0 + q, env->t, step, m, b, 0, e);
      }
      solve2(iv, b[0], b[1], PTR(t0, q, ts0), PTR(t1, q, ts1));
      if (done) memcpy(sec->lu + 4 * (q0 + q), iv, sizeof iv);
    }
  }
  s->st.factorisations += n;
  if (done) *done = 1;
  if (large) return reprobe(s, sec, mode, env, q0, n, 1.0, 1, e);
  run_final(sec, mode, env, q0, n);
  return LIED_OK;
}

/* Lane groups (LIED_LAYOUT_LANES, sched/lanes.h) get their own copy with
 * the strides known to the compiler. */
PROBE_INLINE int probe2(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                  const lied_env *env, uint64_t q0, uint64_t n, lied_err *e) {
  const lied_sec_pair *p0 = &sec->pairs[0], *p1 = &sec->pairs[1];
  if (sec->layout == LIED_LAYOUT_LANES && n == LIED_LANES) /* a full group: n a constant */
    return probe2_(s, sec, mode, env, q0, LIED_LANES, LIED_LANE_STRIDE, LIED_LANE_STRIDE,
                   LIED_LANE_STRIDE, LIED_LANE_STRIDE, 0, e);
  if (sec->layout == LIED_LAYOUT_LANES) /* part of a group: at most LIED_LANES, told */
    return probe2_(s, sec, mode, env, q0, n < LIED_LANES ? n : LIED_LANES, LIED_LANE_STRIDE,
                   LIED_LANE_STRIDE, LIED_LANE_STRIDE, LIED_LANE_STRIDE, 0, e);
  return probe2_(s, sec, mode, env, q0, n, p0->tstride, p1->tstride, p0->rstride, p1->rstride,
                 1, e);
}

/* How probe_dense factors: as lied_lu_factor does, silently (a singular
 * matrix returns LIED_E_SINGULAR without a message), equilibrated
 * (silently too), or plainly with the message. */
enum dense_factor { FACTOR_PLAIN_QUIET, FACTOR_EQUILIBRATED, FACTOR_PLAIN };

/* Factor the k x k matrix a (residuals at zero b) as how says; scale is
 * work space of 2 k doubles. */
static inline int factor_dense(enum dense_factor how, double *a, const double *b, int k, int *piv,
                               double *scale, int *step) {
  if (how != FACTOR_EQUILIBRATED) return lied_lu_factor(a, k, piv, step);
  if (!rows_above_rounding(a, b, k)) return LIED_E_SINGULAR;
  return lied_lu_factor_equilibrated(a, k, piv, scale, step);
}

/* The dense probe of instances q0 .. q0 + n (k of 1 or at least 3),
 * factoring as how says.
 * Long: passes, factorisation and solve share the chunk's work space in a hot path cloned per instruction set. */
PROBE_INLINE int probe_dense(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                             const lied_env *env, uint64_t q0, uint64_t n,
                             enum dense_factor how, lied_err *e) {
  const int k = sec->k;
  const size_t kk = (size_t)k * (size_t)k;
  double *A = s->work;            /* chunk * k * k */
  double *bv = A + s->chunk * kk; /* chunk * k */
  int *piv = s->wpiv;
  set_tears(sec, q0, n, -1);
  run_blocks(sec, env, q0, n);
  for (int r = 0; r < k; r++)
    for (uint64_t q = 0; q < n; q++)
      bv[q * (size_t)k + (size_t)r] = AT(sec->pairs[r].res, q0 + q, sec->pairs[r].rstride);
  const double *lu;
  const int *pv;
  uint8_t *done = sec->constant ? &sec->factored[q0 / s->chunk] : NULL;
  int large = 0;
  double bmax = 0;
  if (!done || !*done) {
    for (int i = 0; i < k; i++) {
      const int j = sec->cord[i];
      set_tears(sec, q0, n, j);
      run_pass(sec, i, env, q0, n);
      for (int r = 0; r < k; r++)
        for (uint64_t q = 0; q < n; q++)
          A[q * kk + (size_t)r * (size_t)k + (size_t)j] =
              AT(sec->pairs[r].res, q0 + q, sec->pairs[r].rstride) -
              bv[q * (size_t)k + (size_t)r];
    }
    for (uint64_t q = 0; q < n && !done; q++) {
      double am = 0, bm = 0;
      for (size_t r = 0; r < kk; r++) am = fmax(am, fabs(A[q * kk + r]));
      for (int r = 0; r < k; r++) bm = fmax(bm, fabs(bv[q * (size_t)k + (size_t)r]));
      large |= bm > LIED_PROBE_RATIO * am;
      bmax = fmax(bmax, bm);
    }
    for (uint64_t q = 0; q < n; q++) {
      int step = 0;
      piv[q * (size_t)k] = 0;
      int rc = k == 1 ? small_invert(A + q * kk, k, &step)
                      : factor_dense(how, A + q * kk, bv + q * (size_t)k, k, piv + q * (size_t)k,
                                     bv + s->chunk * (size_t)k, &step);
      s->st.factorisations++;
      if (rc != LIED_OK && large && sec->layout != LIED_LAYOUT_LANES) {
        /* the unit probes were lost in the residual: probe at its scale */
        set_tears(sec, q0, n, -1);
        return reprobe(s, sec, mode, env, q0, n, bmax, how == FACTOR_PLAIN, e);
      }
      if (rc != LIED_OK && how != FACTOR_PLAIN) return LIED_E_SINGULAR;
      if (rc != LIED_OK)
        return singular(s, sec, q0 + q, env->t, step,
                        k == 1 ? A + q * kk : lu_unswap(A + q * kk, k, piv + q * (size_t)k, step),
                        bv + q * (size_t)k, 0, e);
    }
    if (done) {
      memcpy(sec->lu + q0 * kk, A, sizeof(double) * n * kk);
      memcpy(sec->piv + q0 * (size_t)k, piv, sizeof(int) * n * (size_t)k);
      *done = 1;
    }
    lu = A, pv = piv;
  } else {
    lu = sec->lu + q0 * kk, pv = sec->piv + q0 * (size_t)k;
  }
  if (k == 1) {
    const lied_sec_pair *p0 = &sec->pairs[0];
    for (uint64_t q = 0; q < n; q++) AT(p0->tear, q0 + q, p0->tstride) = -lu[q] * bv[q];
  } else {
    for (uint64_t q = 0; q < n; q++) {
      double *x = bv + q * (size_t)k;
      for (int r = 0; r < k; r++) x[r] = -x[r];
      lied_lu_solve(lu + q * kk, k, pv + q * (size_t)k, x);
      for (int p = 0; p < k; p++) AT(sec->pairs[p].tear, q0 + q, sec->pairs[p].tstride) = x[p];
    }
  }
  if (large && sec->layout != LIED_LAYOUT_LANES)
    return reprobe(s, sec, mode, env, q0, n, 1.0, how == FACTOR_PLAIN, e);
  run_final(sec, mode, env, q0, n);
  return LIED_OK;
}

#if defined(__GNUC__)
#define PROBE_COLD static __attribute__((noinline, cold))
#else
#define PROBE_COLD static
#endif

/* The attempts after the plain LU refused a matrix (lied_probe_range), out
 * of the hot path: equilibrated (not for 1x1: small_invert's test has no
 * scale), then plainly with the message. */
PROBE_COLD int probe_dense_again(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                                 const lied_env *env, uint64_t q0, uint64_t n, lied_err *e) {
  int rc = LIED_E_SINGULAR;
  if (sec->k > 1) rc = probe_dense(s, sec, mode, env, q0, n, FACTOR_EQUILIBRATED, e);
  return rc == LIED_E_SINGULAR ? probe_dense(s, sec, mode, env, q0, n, FACTOR_PLAIN, e) : rc;
}

/* See probe.h: 2x2 sections go to probe2, 1x1 use the explicit inverse, the
 * rest the dense LU. A matrix the LU calls singular is probed and factored
 * again with its rows and columns equilibrated (a badly scaled but
 * solvable section: a 1 nH inductor beside a 1 GOhm resistor); only when
 * that fails too is it probed a third time to be reported as before. The
 * retry is for that solve only: no state is kept (the chunks of a section
 * are probed by several threads and lane copies), so a badly scaled
 * section that is not constant is probed twice per evaluation; one whose
 * matrix is constant keeps the equilibrated factors. Matrices the LU
 * accepts are factored as before, bit for bit. */
LIED_LANE_FN int lied_probe_range(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                                  const lied_env *env, uint64_t q0, uint64_t n, lied_err *e) {
  if (sec->sparse) return lied_spsec_probe(s, sec, mode, env, e);
  if (sec->k == 2) return probe2(s, sec, mode, env, q0, n, e);
  const int rc = probe_dense(s, sec, mode, env, q0, n, FACTOR_PLAIN_QUIET, e);
  return rc == LIED_E_SINGULAR ? probe_dense_again(s, sec, mode, env, q0, n, e) : rc;
}

void lied_probe_unknown(lied_section *sec, const lied_env *env, uint64_t q0, uint64_t n) {
  for (int p = 0; p < sec->k; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    for (uint64_t q = q0; q < q0 + n; q++) AT(sp->tear, q, sp->tstride) = NAN;
  }
  run_blocks(sec, env, q0, n);
}

int lied_probe_section(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                       const lied_env *env, lied_err *e) {
  for (uint64_t q0 = 0; q0 < sec->count; q0 += s->chunk) {
    uint64_t n = sec->count - q0 < s->chunk ? sec->count - q0 : s->chunk;
    LIED_TRY(lied_probe_range(s, sec, mode, env, q0, n, e));
  }
  return LIED_OK;
}
