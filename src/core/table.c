/* table.c - tables y(x) and maps z(x1, x2) (lied/table.h): one read-only
 * copy per distinct table, shared by reference; lookups with a cached
 * interval.
 *
 * Smooth 1-D interpolation is Steffen's monotone cubic (M. Steffen, "A
 * simple method for monotonic interpolation in one dimension", Astron.
 * Astrophys. 239, 443-450, 1990): the slope at an interior breakpoint is
 * (sign s[i-1] + sign s[i]) min(|s[i-1]|, |s[i]|, |p[i]| / 2) with p[i] the
 * slope of the parabola through the three points (eq. 11), at the ends the
 * parabola's slope limited to [0, 2 s] (eq. 26, 27); between the
 * breakpoints the cubic Hermite polynomial. It never overshoots: on every
 * interval y lies between its end values, and extrema lie on breakpoints.
 * Smooth maps are bicubic Hermite patches whose slopes along x1 and x2 are
 * Steffen's along the grid lines and whose cross slope is the mean of
 * Steffen's slope of one along the other, both ways (docs/components.md). */
#include "core/table.h"
#include "core/text.h"
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lied_table {
  atomic_int refs;
  int rank, interp, extrap;
  size_t n[2];     /* breakpoints per dimension (n[1] = 1 for rank 1) */
  double *x[2];    /* breakpoints */
  double *v;       /* values, row-major */
  double *d1;      /* smooth: slopes along x1 (1-D: dy/dx) */
  double *d2, *d12; /* smooth maps: along x2, cross */
  uint64_t hash;
  char *name;
};

/* ---- making ------------------------------------------------------------ */

static double sgn(double s) { return (s > 0) - (s < 0); }

/* Steffen's slopes d[k * dstride] of the n points (x[k], y[k * ystride]). */
static void steffen(const double *x, const double *y, size_t ystride, size_t n, double *d,
                    size_t dstride) {
  if (n < 2) {
    if (n == 1) d[0] = 0;
    return;
  }
  if (n == 2) {
    double s = (y[ystride] - y[0]) / (x[1] - x[0]);
    d[0] = d[dstride] = s;
    return;
  }
  for (size_t k = 1; k + 1 < n; k++) {
    double h0 = x[k] - x[k - 1], h1 = x[k + 1] - x[k];
    double s0 = (y[k * ystride] - y[(k - 1) * ystride]) / h0;
    double s1 = (y[(k + 1) * ystride] - y[k * ystride]) / h1;
    double p = (s0 * h1 + s1 * h0) / (h0 + h1);
    double a = fmin(fabs(s0), fmin(fabs(s1), 0.5 * fabs(p)));
    d[k * dstride] = (sgn(s0) + sgn(s1)) * a;
  }
  /* the ends: the parabola through the end's three points, limited */
  for (int end = 0; end < 2; end++) {
    size_t a = end ? n - 1 : 0, b = end ? n - 2 : 1, c = end ? n - 3 : 2;
    double h0 = x[b] - x[a], h1 = x[c] - x[b]; /* signed: negative at the right end */
    double s0 = (y[b * ystride] - y[a * ystride]) / h0;
    double s1 = (y[c * ystride] - y[b * ystride]) / h1;
    double p = s0 * (1 + h0 / (h0 + h1)) - s1 * h0 / (h0 + h1);
    double da = p * s0 <= 0 ? 0 : (fabs(p) > 2 * fabs(s0) ? 2 * s0 : p);
    d[a * dstride] = da;
  }
}


/* The slopes of a smooth table (Steffen's, monotone): d1 along x1, and
 * for a map d2 along x2 and the cross slopes d12. */
static int smooth_slopes(lied_table *t, size_t n1, size_t n2, size_t nv, lied_err *e) {
  t->d1 = t->v + nv;
  for (size_t j = 0; j < n2; j++) steffen(t->x[0], t->v + j, n2, n1, t->d1 + j, n2);
  if (t->rank != 2) return LIED_OK;
  t->d2 = t->d1 + nv;
  t->d12 = t->d2 + nv;
  for (size_t i = 0; i < n1; i++) steffen(t->x[1], t->v + i * n2, 1, n2, t->d2 + i * n2, 1);
  /* cross slopes: Steffen's of d2 along x1 and of d1 along x2, averaged
   * (the map does not depend on which axis is called x1) */
  double *tmp = lied_xmalloc(sizeof(double) * nv, "table", e);
  if (!tmp) return LIED_E_NOMEM;
  for (size_t j = 0; j < n2; j++) steffen(t->x[0], t->d2 + j, n2, n1, t->d12 + j, n2);
  for (size_t i = 0; i < n1; i++) steffen(t->x[1], t->d1 + i * n2, 1, n2, tmp + i * n2, 1);
  for (size_t k = 0; k < nv; k++) t->d12[k] = 0.5 * (t->d12[k] + tmp[k]);
  free(tmp);
  return LIED_OK;
}

lied_table *lied_table_new(const lied_table_data *d, lied_err *e) {
  const char *nm = d->name && d->name[0] ? d->name : "table";
  if (d->rank != 1 && d->rank != 2)
    return lied_errc(e, LIED_E_PARAM, "%s: rank %d (a table is 1-D or 2-D)", nm, d->rank), NULL;
  if (d->interp < LIED_TABLE_LINEAR || d->interp > LIED_TABLE_CONSTANT)
    return lied_errc(e, LIED_E_PARAM, "%s: unknown interpolation for a %d-D table", nm, d->rank),
           NULL;
  if (d->rank == 2 && d->interp == LIED_TABLE_CONSTANT)
    return lied_errc(e, LIED_E_PARAM,
                     "%s: interpolation \"constant\" is for 1-D tables (a map takes \"linear\" or "
                     "\"cubic\")",
                     nm),
           NULL;
  if (d->extrap < LIED_TABLE_HOLD || d->extrap > LIED_TABLE_ERROR)
    return lied_errc(e, LIED_E_PARAM, "%s: unknown extrapolation", nm), NULL;
  size_t n1 = d->n1, n2 = d->rank == 2 ? d->n2 : 1;
  if (n1 < 1 || (d->rank == 2 && (n1 < 2 || n2 < 2)))
    return lied_errc(e, LIED_E_PARAM, "%s: %s", nm,
                     d->rank == 2 ? "a map needs at least 2 breakpoints along x1 and along x2"
                                  : "no breakpoints"),
           NULL;
  if (n1 > INT32_MAX || n2 > INT32_MAX || n1 * n2 > INT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "%s: %zu x %zu values are too many", nm, n1, n2), NULL;
  const int smooth = d->interp == LIED_TABLE_SMOOTH;
  const size_t nv = n1 * n2, nd = smooth ? (d->rank == 2 ? 3 * nv : nv) : 0;
  const size_t nname = strlen(nm) + 1;
  lied_table *t = lied_xcalloc(1, sizeof *t + sizeof(double) * (n1 + n2 + nv + nd) + nname,
                               "table", e);
  if (!t) return NULL;
  atomic_init(&t->refs, 1);
  t->rank = d->rank;
  t->interp = d->interp;
  t->extrap = d->extrap;
  t->n[0] = n1;
  t->n[1] = n2;
  double *p = (double *)(void *)(t + 1);
  t->x[0] = p;
  t->x[1] = p + n1;
  t->v = p + n1 + n2;
  memcpy(t->x[0], d->x1, sizeof(double) * n1);
  if (d->rank == 2)
    memcpy(t->x[1], d->x2, sizeof(double) * n2);
  else
    t->x[1][0] = 0;
  memcpy(t->v, d->v, sizeof(double) * nv);
  if (smooth && smooth_slopes(t, n1, n2, nv, e)) {
    free(t);
    return NULL;
  }
  t->name = (char *)(t->v + nv + nd);
  memcpy(t->name, nm, nname);
  int head[3] = {t->rank, t->interp, t->extrap};
  uint64_t h = lied_fnv1a(LIED_FNV_BASIS, head, sizeof head);
  h = lied_fnv1a(h, t->n, sizeof t->n);
  h = lied_fnv1a(h, t->x[0], sizeof(double) * (n1 + n2 + nv));
  t->hash = h;
  return t;
}

/* The name of axis dim in messages: x of a table, x1 and x2 of a map. */
static const char *axis_name(const lied_table *t, int dim) {
  static const char *const axis[2][2] = {{"x", ""}, {"x1", "x2"}};
  return axis[t->rank - 1][dim];
}

/* The first element of a[0 .. n) (stride) that is not finite, or n. */
static size_t first_bad(const double *a, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (!isfinite(a[k])) return k;
  return n;
}

/* Every number a lookup derives from finite breakpoints and values is
 * finite too: the span of the breakpoints (a periodic table's period), the
 * slope of every interval along each axis (y[k] - y[k-1] overflows when the
 * values are near +-1e308 apart; x[k] - x[k-1] underflows to a subnormal
 * when the breakpoints are a few ulps apart) and a smooth table's slopes.
 * Else the lookups return inf or NaN, or y[k-1] everywhere, silently. */
static int check_slopes(const lied_table *t, lied_err *e) {
  const size_t n2 = t->n[1], nv = t->n[0] * n2;
  for (int dim = 0; dim < t->rank; dim++) {
    const double *x = t->x[dim];
    const size_t n = t->n[dim], vstride = dim == 0 ? n2 : 1;
    const char *an = axis_name(t, dim);
    if (!isfinite(x[n - 1] - x[0]))
      return lied_errc(e, LIED_E_PARAM,
                       "%s: the breakpoints span %s[1] = %g to %s[%zu] = %g, a length beyond "
                       "the largest number",
                       t->name, an, x[0], an, n, x[n - 1]);
    for (size_t k = 0; k < nv; k++) {
      const size_t i = dim == 0 ? k / n2 : k % n2; /* index along dim */
      if (i == 0) continue;
      const double s = (t->v[k] - t->v[k - vstride]) / (x[i] - x[i - 1]);
      if (isfinite(s)) continue;
      if (t->rank == 1)
        return lied_errc(e, LIED_E_PARAM,
                         "%s: the slope from (x[%zu], y[%zu]) = (%.17g, %g) to (%.17g, %g) is "
                         "not finite (breakpoints too close or values too far apart)",
                         t->name, i, i, x[i - 1], t->v[k - 1], x[i], t->v[k]);
      return lied_errc(e, LIED_E_PARAM,
                       "%s: the slope along %s from z[%zu][%zu] = %g to z[%zu][%zu] = %g "
                       "(%s = %.17g to %.17g) is not finite (breakpoints too close or values "
                       "too far apart)",
                       t->name, an, (k - vstride) / n2 + 1, (k - vstride) % n2 + 1,
                       t->v[k - vstride], k / n2 + 1, k % n2 + 1, t->v[k], an, x[i - 1], x[i]);
    }
  }
  for (size_t k = n2 + 1; t->rank == 2 && k < nv; k++) { /* the cells' cross slopes */
    const size_t i = k / n2, j = k % n2;
    if (j == 0) continue;
    const double *x1 = t->x[0], *x2 = t->x[1], *f = t->v;
    const double c = (f[k] - f[k - 1] - f[k - n2] + f[k - n2 - 1]) /
                     ((x1[i] - x1[i - 1]) * (x2[j] - x2[j - 1]));
    if (!isfinite(c))
      return lied_errc(e, LIED_E_PARAM,
                       "%s: the cross slope of the cell x1 = %.17g to %.17g, x2 = %.17g to %.17g "
                       "is not finite (breakpoints too close or values too far apart)",
                       t->name, x1[i - 1], x1[i], x2[j - 1], x2[j]);
  }
  if (t->interp != LIED_TABLE_SMOOTH) return LIED_OK;
  const size_t nd = t->rank == 2 ? 3 * nv : nv;
  const size_t k = first_bad(t->d1, nd);
  if (k < nd)
    return lied_errc(e, LIED_E_PARAM,
                     "%s: a slope of the cubic interpolation is not finite (at value %zu of "
                     "%zu; breakpoints too close or values too far apart)",
                     t->name, k % nv + 1, nv);
  return LIED_OK;
}

int lied_table_check(const lied_table *t, lied_err *e) {
  for (int dim = 0; dim < t->rank; dim++) {
    const double *x = t->x[dim];
    const char *an = axis_name(t, dim);
    size_t k = first_bad(x, t->n[dim]);
    if (k < t->n[dim])
      return lied_errc(e, LIED_E_PARAM, "%s: breakpoint %s[%zu] = %g is not finite", t->name, an,
                       k + 1, fabs(x[k]));
    for (k = 1; k < t->n[dim]; k++)
      if (!(x[k] > x[k - 1]))
        return lied_errc(e, LIED_E_PARAM,
                         "%s: breakpoints must increase: %s[%zu] = %.17g after %s[%zu] = %.17g",
                         t->name, an, k + 1, x[k], an, k, x[k - 1]);
  }
  size_t nv = t->n[0] * t->n[1], k = first_bad(t->v, nv);
  if (k < nv) {
    if (t->rank == 1)
      return lied_errc(e, LIED_E_PARAM, "%s: value y[%zu] = %g is not finite", t->name, k + 1,
                       fabs(t->v[k]));
    return lied_errc(e, LIED_E_PARAM, "%s: value z[%zu][%zu] = %g is not finite", t->name,
                     k / t->n[1] + 1, k % t->n[1] + 1, fabs(t->v[k]));
  }
  if (t->extrap == LIED_TABLE_PERIODIC && t->n[0] < 2)
    return lied_errc(e, LIED_E_PARAM, "%s: a periodic table needs at least 2 breakpoints",
                     t->name);
  return check_slopes(t, e);
}

void lied_table_retain(lied_table *t) {
  if (t) atomic_fetch_add(&t->refs, 1);
}
void lied_table_release(lied_table *t) {
  if (t && atomic_fetch_sub(&t->refs, 1) == 1) free(t);
}
uint64_t lied_table_hash(const lied_table *t) { return t->hash; }
int lied_table_same(const lied_table *a, const lied_table *b) {
  if (a == b) return 1;
  if (a->hash != b->hash || a->rank != b->rank || a->interp != b->interp ||
      a->extrap != b->extrap || a->n[0] != b->n[0] || a->n[1] != b->n[1])
    return 0;
  size_t n = a->n[0] + a->n[1] + a->n[0] * a->n[1];
  return memcmp(a->x[0], b->x[0], sizeof(double) * n) == 0;
}

/* ---- reading --------------------------------------------------------------- */

int lied_table_rank(const lied_table *t) { return t->rank; }
size_t lied_table_size(const lied_table *t, int d) {
  return d == 0 ? t->n[0] : (d == 1 && t->rank == 2 ? t->n[1] : 0);
}
const double *lied_table_breaks(const lied_table *t, int d) {
  return d == 0 ? t->x[0] : (d == 1 && t->rank == 2 ? t->x[1] : NULL);
}
const double *lied_table_values(const lied_table *t) { return t->v; }
int lied_table_interpolation(const lied_table *t) { return t->interp; }
int lied_table_extrapolation(const lied_table *t) { return t->extrap; }
const char *lied_table_name(const lied_table *t) { return t->name; }

/* x0 + k P, formed one way (as lied_periodic_index does). */
static double period_at(double x0, double P, double k) { return x0 + k * P; }

/* The period k of x in a periodic table starting at x0 (any sign). */
static double period_index(double x, double x0, double P) {
  if (x >= x0) return lied_periodic_index(x, x0, P);
  double k = floor((x - x0) / P);
  for (int i = 0; i < 4 && period_at(x0, P, k) > x; i++) k--;
  for (int i = 0; i < 4 && period_at(x0, P, k + 1) <= x; i++) k++;
  return k;
}

double lied_table_next_break(const lied_table *t, double x) {
  const double *b = t->x[0];
  const size_t n = t->n[0];
  if (t->extrap == LIED_TABLE_PERIODIC && n >= 2) {
    const double P = b[n - 1] - b[0];
    double k = period_index(x, b[0], P);
    if (!isfinite(k)) return INFINITY;
    const double base = period_at(b[0], P, k);
    for (size_t i = 1; i + 1 < n; i++)
      if (base + (b[i] - b[0]) > x) return base + (b[i] - b[0]);
    double next = period_at(b[0], P, k + 1);
    return next > x ? next : x; /* a period below the resolution: lied_periodic_next */
  }
  if (x >= b[n - 1]) return INFINITY;
  if (x < b[0]) return b[0];
  size_t lo = 0, hi = n - 1; /* b[lo] <= x < b[hi] */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (b[mid] <= x) lo = mid; else hi = mid;
  }
  return b[hi];
}

/* ---- lookups ------------------------------------------------------------- */

/* The interval i (0 <= i <= n - 2) with x[i] <= v < x[i + 1] (i = n - 2 at
 * v = x[n - 1]) of the n >= 2 breakpoints x, for x[0] <= v <= x[n - 1]: the
 * hint's interval, its successor, or a binary search. The hint only saves
 * time: the interval is the same whatever it holds. */
static size_t find(const double *x, size_t n, double v, uint32_t *hint) {
  size_t h = *hint;
  if (h + 1 < n && x[h] <= v) {
    if (v < x[h + 1]) return h;
    if (h + 2 < n && v < x[h + 2]) {
      *hint = (uint32_t)(h + 1);
      return h + 1;
    }
  }
  size_t lo = 0, hi = n - 1;
  if (v >= x[n - 1]) {
    lo = n - 2;
  } else {
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (x[mid] <= v) lo = mid; else hi = mid;
    }
  }
  *hint = (uint32_t)lo;
  return lo;
}

/* Where a coordinate lies in its breakpoints: v moved inside them (the
 * wrapped or clamped coordinate) and how far the original lies beyond
 * (`over`, for linear extension), or -1 when it lies outside and the table
 * says error. */
static int place(const lied_table *t, int dim, double *v, double *over) {
  const double *x = t->x[dim];
  const size_t n = t->n[dim];
  const double lo = x[0], hi = x[n - 1];
  *over = 0;
  /* a periodic table's last breakpoint is the next period's first */
  if (*v >= lo && (*v < hi || (*v == hi && t->extrap != LIED_TABLE_PERIODIC))) return 0;
  if (isnan(*v)) return 0; /* NaN in, NaN out (the solver reports it) */
  switch (t->extrap) {
  case LIED_TABLE_ERROR: return -1;
  case LIED_TABLE_PERIODIC: {
    const double P = hi - lo;
    double k = period_index(*v, lo, P);
    double w = lo + (*v - period_at(lo, P, k));
    *v = w < lo ? lo : (w > hi ? hi : w);
    return 0;
  }
  case LIED_TABLE_EXTEND: {
    double c = *v < lo ? lo : hi;
    *over = *v - c;
    *v = c;
    return 0;
  }
  default: *v = *v < lo ? lo : hi; return 0;
  }
}

/* y(x) and dy/dx of a 1-D table for x inside its breakpoints. */
static double eval1(const lied_table *t, uint32_t *hint, double x, double *slope) {
  const size_t n = t->n[0];
  const double *xs = t->x[0], *y = t->v;
  if (n == 1) {
    *slope = 0;
    return y[0];
  }
  const size_t i = find(xs, n, x, hint);
  const double h = xs[i + 1] - xs[i], s = (y[i + 1] - y[i]) / h;
  switch (t->interp) {
  case LIED_TABLE_CONSTANT:
    *slope = 0;
    return x >= xs[n - 1] ? y[n - 1] : y[i];
  case LIED_TABLE_SMOOTH: {
    const double d0 = t->d1[i], d1 = t->d1[i + 1], u = x - xs[i];
    const double c2 = (3 * s - 2 * d0 - d1) / h, c3 = (d0 + d1 - 2 * s) / (h * h);
    *slope = d0 + u * (2 * c2 + 3 * u * c3);
    return x >= xs[n - 1] ? y[n - 1] : y[i] + u * (d0 + u * (c2 + u * c3));
  }
  default:
    *slope = s;
    return x >= xs[n - 1] ? y[n - 1] : y[i] + (y[i + 1] - y[i]) * ((x - xs[i]) / h);
  }
}

static void fault1(const lied_env *env, const void *self, const lied_table *t, double x,
                   int dim) {
  const double *b = t->x[dim];
  lied_block_fault(env, self, "%s: %s = %.17g outside the breakpoints [%g, %g] (extrapolation = "
                              "\"error\")",
                   t->name, axis_name(t, dim), x, b[0], b[t->n[dim] - 1]);
}

/* A linear extension beyond the breakpoints that overflows (a finite
 * table extended far enough): a fault, not an inf in the results. */
static void extended_fault(const lied_env *env, const void *self, const lied_table *t, double y,
                           double x, int dim) {
  const double *b = t->x[dim];
  lied_block_fault(env, self, "%s: the linear extrapolation to %s = %.17g (beyond the breakpoints "
                              "[%g, %g]) gives %g",
                   t->name, axis_name(t, dim), x, b[0], b[t->n[dim] - 1], y);
}

double lied_table_lookup(const lied_env *env, const void *self, const lied_table *t,
                         lied_table_hint *hint, double x) {
  double over, slope;
  if (place(t, 0, &x, &over) < 0) {
    fault1(env, self, t, x, 0);
    return NAN;
  }
  double y = eval1(t, &hint->i, x, &slope);
  if (over == 0) return y;
  y += slope * over;
  if (!isfinite(y)) extended_fault(env, self, t, y, x + over, 0);
  return y;
}

/* Hermite weights on [0, 1]: value weights of the two ends (va), slope
 * weights (sa, times the interval), and their derivatives in u. */
static void hermite(double u, double va[2], double sa[2], double dva[2], double dsa[2]) {
  const double m = 1 - u;
  va[0] = (1 + 2 * u) * m * m;
  va[1] = u * u * (3 - 2 * u);
  sa[0] = u * m * m;
  sa[1] = u * u * (u - 1);
  dva[0] = 6 * u * (u - 1);
  dva[1] = -dva[0];
  dsa[0] = (3 * u - 1) * (u - 1);
  dsa[1] = u * (3 * u - 2);
}

/* z and its slopes (z1, z2, z12) of a map inside its breakpoints. */
static double eval2(const lied_table *t, lied_table_hint *hint, double a, double b,
                    double *z1, double *z2, double *z12) {
  const size_t n1 = t->n[0], n2 = t->n[1];
  const size_t i = find(t->x[0], n1, a, &hint->i), j = find(t->x[1], n2, b, &hint->j);
  const double h1 = t->x[0][i + 1] - t->x[0][i], h2 = t->x[1][j + 1] - t->x[1][j];
  const double u = (a - t->x[0][i]) / h1, w = (b - t->x[1][j]) / h2;
  const size_t k00 = i * n2 + j, k10 = k00 + n2, k01 = k00 + 1, k11 = k10 + 1;
  const double *f = t->v;
  if (t->interp != LIED_TABLE_SMOOTH) {
    const double f00 = f[k00], f10 = f[k10], f01 = f[k01], f11 = f[k11];
    *z1 = ((1 - w) * (f10 - f00) + w * (f11 - f01)) / h1;
    *z2 = ((1 - u) * (f01 - f00) + u * (f11 - f10)) / h2;
    *z12 = (f11 - f10 - f01 + f00) / (h1 * h2);
    return (1 - u) * (1 - w) * f00 + u * (1 - w) * f10 + (1 - u) * w * f01 + u * w * f11;
  }
  double va[2], sa[2], dva[2], dsa[2], vb[2], sb[2], dvb[2], dsb[2];
  hermite(u, va, sa, dva, dsa);
  hermite(w, vb, sb, dvb, dsb);
  const size_t k[2][2] = {{k00, k01}, {k10, k11}};
  double z = 0, g1 = 0, g2 = 0, g12 = 0;
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 2; q++) {
      const size_t c = k[p][q];
      const double fv = f[c], fx = h1 * t->d1[c], fy = h2 * t->d2[c], fxy = h1 * h2 * t->d12[c];
      z += va[p] * vb[q] * fv + sa[p] * vb[q] * fx + va[p] * sb[q] * fy + sa[p] * sb[q] * fxy;
      g1 += dva[p] * vb[q] * fv + dsa[p] * vb[q] * fx + dva[p] * sb[q] * fy + dsa[p] * sb[q] * fxy;
      g2 += va[p] * dvb[q] * fv + sa[p] * dvb[q] * fx + va[p] * dsb[q] * fy + sa[p] * dsb[q] * fxy;
      g12 += dva[p] * dvb[q] * fv + dsa[p] * dvb[q] * fx + dva[p] * dsb[q] * fy +
             dsa[p] * dsb[q] * fxy;
    }
  *z1 = g1 / h1;
  *z2 = g2 / h2;
  *z12 = g12 / (h1 * h2);
  return z;
}

double lied_table_lookup2(const lied_env *env, const void *self, const lied_table *t,
                          lied_table_hint *hint, double x1, double x2) {
  double o1, o2, z1, z2, z12;
  if (place(t, 0, &x1, &o1) < 0) {
    fault1(env, self, t, x1, 0);
    return NAN;
  }
  if (place(t, 1, &x2, &o2) < 0) {
    fault1(env, self, t, x2, 1);
    return NAN;
  }
  double z = eval2(t, hint, x1, x2, &z1, &z2, &z12);
  if (o1 == 0 && o2 == 0) return z;
  z += z1 * o1 + z2 * o2 + z12 * o1 * o2;
  if (!isfinite(z)) extended_fault(env, self, t, z, o1 != 0 ? x1 + o1 : x2 + o2, o1 != 0 ? 0 : 1);
  return z;
}

void lied_table_lookup_lanes(const lied_env *env, const lied_table *const *tables,
                             lied_table_hint *hints, const double *x, double *y, size_t n) {
  for (size_t l = 0; l < n && l < LIED_LANES; l++)
    y[l] = lied_table_lookup(env, &tables[l], tables[l], &hints[l], x[l]);
}

void lied_table_lookup2_lanes(const lied_env *env, const lied_table *const *tables,
                              lied_table_hint *hints, const double *x1, const double *x2,
                              double *y, size_t n) {
  for (size_t l = 0; l < n && l < LIED_LANES; l++)
    y[l] = lied_table_lookup2(env, &tables[l], tables[l], &hints[l], x1[l], x2[l]);
}
