/* test_table.c - tables and maps (lied/table.h, src/core/table.c) against
 * interpolation written out here by hand: linear and bilinear from their
 * definitions, Steffen's slopes from the paper's equations (11), (26), (27)
 * with the cubic in Hermite basis form (the library uses the power form),
 * the bicubic patch as the sum of its sixteen basis terms; properties that
 * need no reference (no overshoot, bilinear functions reproduced, C1 across
 * cells); hints that change nothing; lane forms bit for bit; extrapolation;
 * the checks' messages. */
#include <string.h>
#include "check.h"
#include "core/table.h"
#include "core/fault.h"

static unsigned long long rng = 88172645463325252ull;
static double urand(void) { /* xorshift64: [0, 1) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static lied_table *make1(const double *x, const double *y, size_t n, int interp, int extrap) {
  lied_err e = {0};
  lied_table_data d = {1, interp, extrap, n, 0, x, NULL, y, "t"};
  lied_table *t = lied_table_new(&d, &e);
  CHECK(t != NULL);
  CHECK(t && lied_table_check(t, &e) == LIED_OK);
  return t;
}

/* Steffen's slope at point k of (x, y), n >= 3, written from the paper. */
static double steffen_ref(const double *x, const double *y, size_t n, size_t k) {
  if (k == 0 || k == n - 1) {
    /* eq. (26) at the left end, (27) at the right */
    size_t a = k == 0 ? 0 : n - 1;
    double h1, h2, s1, s2;
    if (a == 0) {
      h1 = x[1] - x[0], h2 = x[2] - x[1];
      s1 = (y[1] - y[0]) / h1, s2 = (y[2] - y[1]) / h2;
    } else {
      h1 = x[n - 1] - x[n - 2], h2 = x[n - 2] - x[n - 3];
      s1 = (y[n - 1] - y[n - 2]) / h1, s2 = (y[n - 2] - y[n - 3]) / h2;
    }
    double p = s1 * (1 + h1 / (h1 + h2)) - s2 * h1 / (h1 + h2);
    if (p * s1 <= 0) return 0;
    if (fabs(p) > 2 * fabs(s1)) return 2 * s1;
    return p;
  }
  double hm = x[k] - x[k - 1], hp = x[k + 1] - x[k];
  double sm = (y[k] - y[k - 1]) / hm, sp = (y[k + 1] - y[k]) / hp;
  double p = (sm * hp + sp * hm) / (hm + hp);
  double m = fabs(sm) < fabs(sp) ? fabs(sm) : fabs(sp);
  if (0.5 * fabs(p) < m) m = 0.5 * fabs(p);
  double sg = (sm > 0 ? 1 : sm < 0 ? -1 : 0) + (sp > 0 ? 1 : sp < 0 ? -1 : 0);
  return sg * m;
}

static double hermite_ref(double x0, double x1, double y0, double y1, double d0, double d1,
                          double x) {
  double h = x1 - x0, u = (x - x0) / h;
  double h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
  double h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
  return h00 * y0 + h10 * h * d0 + h01 * y1 + h11 * h * d1;
}

static void random_table(double *x, double *y, size_t n, int monotone) {
  x[0] = -3 + urand();
  y[0] = urand();
  for (size_t k = 1; k < n; k++) {
    x[k] = x[k - 1] + 0.05 + 2 * urand() * urand();
    y[k] = monotone ? y[k - 1] + (urand() < 0.2 ? 0 : urand()) : 4 * urand() - 2;
  }
}

static void linear_and_cubic(void) {
  enum { N = 40 };
  double x[N], y[N];
  random_table(x, y, N, 0);
  lied_table *lin = make1(x, y, N, LIED_TABLE_LINEAR, LIED_TABLE_HOLD);
  lied_table *cub = make1(x, y, N, LIED_TABLE_SMOOTH, LIED_TABLE_HOLD);
  lied_table_hint h1 = {0, 0}, h2 = {0, 0};
  double worst_lin = 0, worst_cub = 0;
  for (int r = 0; r < 2000; r++) {
    double v = x[0] + (x[N - 1] - x[0]) * urand();
    size_t k = 0;
    while (k + 2 < N && x[k + 1] <= v) k++;
    double ref = y[k] + (y[k + 1] - y[k]) * (v - x[k]) / (x[k + 1] - x[k]);
    double got = lied_table_lookup(NULL, NULL, lin, &h1, v);
    worst_lin = fmax(worst_lin, fabs(got - ref));
    ref = hermite_ref(x[k], x[k + 1], y[k], y[k + 1], steffen_ref(x, y, N, k),
                      steffen_ref(x, y, N, k + 1), v);
    got = lied_table_lookup(NULL, NULL, cub, &h2, v);
    worst_cub = fmax(worst_cub, fabs(got - ref));
  }
  CHECK(worst_lin <= 1e-12);
  CHECK(worst_cub <= 1e-12);
  /* at the breakpoints, the values themselves */
  for (size_t k = 0; k < N; k++) {
    CHECK(lied_table_lookup(NULL, NULL, lin, &h1, x[k]) == y[k]);
    CHECK(lied_table_lookup(NULL, NULL, cub, &h2, x[k]) == y[k]);
  }
  lied_table_release(lin);
  lied_table_release(cub);
}

/* Steffen's cubic never leaves [min, max] of an interval's ends, and keeps
 * monotone data monotone (what the method is for). */
static void no_overshoot(void) {
  enum { N = 30 };
  double x[N], y[N];
  random_table(x, y, N, 1);
  lied_table *t = make1(x, y, N, LIED_TABLE_SMOOTH, LIED_TABLE_HOLD);
  lied_table_hint h = {0, 0};
  double prev = -INFINITY;
  int ok = 1, mono = 1;
  for (int r = 0; r <= 20000; r++) {
    double v = x[0] + (x[N - 1] - x[0]) * r / 20000.0;
    double z = lied_table_lookup(NULL, NULL, t, &h, v);
    size_t k = 0;
    while (k + 2 < N && x[k + 1] <= v) k++;
    ok &= z >= fmin(y[k], y[k + 1]) - 1e-14 && z <= fmax(y[k], y[k + 1]) + 1e-14;
    mono &= z >= prev - 1e-14;
    prev = z;
  }
  CHECK(ok);
  CHECK(mono);
  lied_table_release(t);
}

/* The hint only saves time: any hint, the same bits. */
static void hints_change_nothing(void) {
  enum { N = 100 };
  double x[N], y[N];
  random_table(x, y, N, 0);
  lied_table *t = make1(x, y, N, LIED_TABLE_SMOOTH, LIED_TABLE_EXTEND);
  int same = 1;
  for (int r = 0; r < 5000; r++) {
    double v = x[0] - 1 + (x[N - 1] - x[0] + 2) * urand();
    if (r % 7 == 0) v = x[(size_t)(urand() * N)];
    lied_table_hint a = {0, 0}, b = {(uint32_t)(urand() * 4e9), 0};
    double ya = lied_table_lookup(NULL, NULL, t, &a, v), yb = lied_table_lookup(NULL, NULL, t, &b, v);
    same &= memcmp(&ya, &yb, sizeof ya) == 0;
  }
  CHECK(same);
  lied_table_release(t);
}

static void extrapolation(void) {
  const double x[] = {1, 2, 4}, y[] = {10, 20, 0};
  lied_table_hint h = {0, 0};
  lied_table *hold = make1(x, y, 3, LIED_TABLE_LINEAR, LIED_TABLE_HOLD);
  CHECK(lied_table_lookup(NULL, NULL, hold, &h, -5) == 10);
  CHECK(lied_table_lookup(NULL, NULL, hold, &h, 9) == 0);
  lied_table *ext = make1(x, y, 3, LIED_TABLE_LINEAR, LIED_TABLE_EXTEND);
  CHECK_NEAR(lied_table_lookup(NULL, NULL, ext, &h, 0), 0, 1e-14);  /* slope 10 */
  CHECK_NEAR(lied_table_lookup(NULL, NULL, ext, &h, 5), -10, 1e-14); /* slope -10 */
  lied_table *per = make1(x, y, 3, LIED_TABLE_LINEAR, LIED_TABLE_PERIODIC);
  CHECK_NEAR(lied_table_lookup(NULL, NULL, per, &h, 1.5 + 3 * 7), 15, 1e-12);
  CHECK_NEAR(lied_table_lookup(NULL, NULL, per, &h, 1.5 - 3 * 2), 15, 1e-12);
  CHECK(lied_table_lookup(NULL, NULL, per, &h, 4) == 10); /* the end: the next period's start */
  CHECK(lied_table_lookup(NULL, NULL, per, &h, 7) == 10); /* a period on: the start */
  CHECK(lied_table_next_break(per, 3.5) == 4);
  CHECK(lied_table_next_break(per, 4) == 5);
  CHECK(lied_table_next_break(per, 5) == 7);
  CHECK(lied_table_next_break(hold, 0) == 1);
  CHECK(lied_table_next_break(hold, 2) == 4);
  CHECK(isinf(lied_table_next_break(hold, 4)));
  /* error: NaN and a block fault naming the table and the value */
  lied_table *err = make1(x, y, 3, LIED_TABLE_LINEAR, LIED_TABLE_ERROR);
  lied_fault f = {0};
  lied_env env = {0.5, &f};
  int self;
  CHECK(isnan(lied_table_lookup(&env, &self, err, &h, 4.5)));
  CHECK(f.where == &self);
  CHECK(strstr(f.msg, "t: x = 4.5 outside the breakpoints [1, 4]") != NULL);
  CHECK(lied_table_lookup(&env, &self, err, &h, 4) == 0);
  lied_table *stair = make1(x, y, 3, LIED_TABLE_CONSTANT, LIED_TABLE_HOLD);
  CHECK(lied_table_lookup(NULL, NULL, stair, &h, 1.99) == 10);
  CHECK(lied_table_lookup(NULL, NULL, stair, &h, 2) == 20);
  CHECK(lied_table_lookup(NULL, NULL, stair, &h, 4) == 0);
  /* the cubic's linear extension continues its end slope */
  lied_table *cub = make1(x, y, 3, LIED_TABLE_SMOOTH, LIED_TABLE_EXTEND);
  double e0 = lied_table_lookup(NULL, NULL, cub, &h, 4), e1 = lied_table_lookup(NULL, NULL, cub, &h, 4 + 1e-6);
  double i0 = lied_table_lookup(NULL, NULL, cub, &h, 4 - 1e-6);
  CHECK_NEAR((e1 - e0) / 1e-6, (e0 - i0) / 1e-6, 1e-4);
  lied_table_release(hold);
  lied_table_release(ext);
  lied_table_release(per);
  lied_table_release(err);
  lied_table_release(stair);
  lied_table_release(cub);
}

/* ---- maps ------------------------------------------------------------------ */

enum { N1 = 7, N2 = 9 };

static lied_table *make2(const double *x1, const double *x2, const double *z, int interp,
                         int extrap) {
  lied_err e = {0};
  lied_table_data d = {2, interp, extrap, N1, N2, x1, x2, z, "m"};
  lied_table *t = lied_table_new(&d, &e);
  CHECK(t && lied_table_check(t, &e) == LIED_OK);
  return t;
}

static void random_grid(double *x1, double *x2) {
  x1[0] = urand();
  x2[0] = -urand();
  for (int i = 1; i < N1; i++) x1[i] = x1[i - 1] + 0.1 + urand();
  for (int j = 1; j < N2; j++) x2[j] = x2[j - 1] + 0.1 + 3 * urand();
}

static size_t cell(const double *x, size_t n, double v) {
  size_t k = 0;
  while (k + 2 < n && x[k + 1] <= v) k++;
  return k;
}

/* Steffen's slope along one grid line of z: stride st from z0. */
static double line_slope(const double *x, const double *z0, size_t st, size_t n, size_t k) {
  double y[16];
  for (size_t q = 0; q < n; q++) y[q] = z0[q * st];
  return steffen_ref(x, y, n, k);
}

static void maps(void) {
  double x1[N1], x2[N2], z[N1 * N2];
  random_grid(x1, x2);
  for (int k = 0; k < N1 * N2; k++) z[k] = 5 * urand();
  lied_table *bl = make2(x1, x2, z, LIED_TABLE_LINEAR, LIED_TABLE_HOLD);
  lied_table *bc = make2(x1, x2, z, LIED_TABLE_SMOOTH, LIED_TABLE_HOLD);
  /* the hand slopes: along x1, along x2, the cross mean */
  double d1[N1 * N2], d2[N1 * N2], d12[N1 * N2], t1[N1 * N2], t2[N1 * N2];
  for (int i = 0; i < N1; i++)
    for (int j = 0; j < N2; j++) {
      d1[i * N2 + j] = line_slope(x1, z + j, N2, N1, (size_t)i);
      d2[i * N2 + j] = line_slope(x2, z + i * N2, 1, N2, (size_t)j);
    }
  for (int i = 0; i < N1; i++)
    for (int j = 0; j < N2; j++) {
      t1[i * N2 + j] = line_slope(x1, d2 + j, N2, N1, (size_t)i);
      t2[i * N2 + j] = line_slope(x2, d1 + i * N2, 1, N2, (size_t)j);
    }
  for (int k = 0; k < N1 * N2; k++) d12[k] = 0.5 * (t1[k] + t2[k]);
  lied_table_hint h = {0, 0}, hc = {0, 0};
  double worst_bl = 0, worst_bc = 0;
  for (int r = 0; r < 2000; r++) {
    double a = x1[0] + (x1[N1 - 1] - x1[0]) * urand(), b = x2[0] + (x2[N2 - 1] - x2[0]) * urand();
    size_t i = cell(x1, N1, a), j = cell(x2, N2, b);
    double ha = x1[i + 1] - x1[i], hb = x2[j + 1] - x2[j];
    double u = (a - x1[i]) / ha, w = (b - x2[j]) / hb;
    double f00 = z[i * N2 + j], f10 = z[(i + 1) * N2 + j], f01 = z[i * N2 + j + 1],
           f11 = z[(i + 1) * N2 + j + 1];
    double ref = f00 * (1 - u) * (1 - w) + f10 * u * (1 - w) + f01 * (1 - u) * w + f11 * u * w;
    worst_bl = fmax(worst_bl, fabs(lied_table_lookup2(NULL, NULL, bl, &h, a, b) - ref));
    /* the bicubic patch: sixteen terms */
    double H0[2] = {2 * u * u * u - 3 * u * u + 1, -2 * u * u * u + 3 * u * u};
    double H1[2] = {(u * u * u - 2 * u * u + u) * ha, (u * u * u - u * u) * ha};
    double G0[2] = {2 * w * w * w - 3 * w * w + 1, -2 * w * w * w + 3 * w * w};
    double G1[2] = {(w * w * w - 2 * w * w + w) * hb, (w * w * w - w * w) * hb};
    ref = 0;
    for (int p = 0; p < 2; p++)
      for (int q = 0; q < 2; q++) {
        size_t c = (i + (size_t)p) * N2 + j + (size_t)q;
        ref += H0[p] * G0[q] * z[c] + H1[p] * G0[q] * d1[c] + H0[p] * G1[q] * d2[c] +
               H1[p] * G1[q] * d12[c];
      }
    worst_bc = fmax(worst_bc, fabs(lied_table_lookup2(NULL, NULL, bc, &hc, a, b) - ref));
  }
  CHECK(worst_bl <= 1e-12);
  CHECK(worst_bc <= 1e-12);
  for (int i = 0; i < N1; i++)
    for (int j = 0; j < N2; j++) {
      CHECK(lied_table_lookup2(NULL, NULL, bl, &h, x1[i], x2[j]) == z[i * N2 + j]);
      CHECK(lied_table_lookup2(NULL, NULL, bc, &hc, x1[i], x2[j]) == z[i * N2 + j]);
    }
  /* C1 across a cell boundary along x1: one-sided slopes agree */
  double a = x1[3], b = 0.5 * (x2[2] + x2[3]), dx = 1e-6;
  double zl = lied_table_lookup2(NULL, NULL, bc, &hc, a - dx, b);
  double z0 = lied_table_lookup2(NULL, NULL, bc, &hc, a, b);
  double zr = lied_table_lookup2(NULL, NULL, bc, &hc, a + dx, b);
  CHECK_NEAR((z0 - zl) / dx, (zr - z0) / dx, 1e-3 * (1 + fabs((zr - z0) / dx)));
  lied_table_release(bl);
  lied_table_release(bc);
}

/* The bicubic map reproduces a bilinear function exactly (its slopes are
 * those of the function), and extends it linearly. */
static void bilinear_reproduced(void) {
  double x1[N1], x2[N2], z[N1 * N2];
  random_grid(x1, x2);
  for (int i = 0; i < N1; i++)
    for (int j = 0; j < N2; j++) z[i * N2 + j] = 1.5 - 2 * x1[i] + 0.25 * x2[j] + 0.75 * x1[i] * x2[j];
  lied_table *bc = make2(x1, x2, z, LIED_TABLE_SMOOTH, LIED_TABLE_EXTEND);
  lied_table_hint h = {0, 0};
  double worst = 0;
  for (int r = 0; r < 1000; r++) {
    double a = x1[0] - 1 + (x1[N1 - 1] - x1[0] + 2) * urand();
    double b = x2[0] - 1 + (x2[N2 - 1] - x2[0] + 2) * urand();
    double ref = 1.5 - 2 * a + 0.25 * b + 0.75 * a * b;
    worst = fmax(worst, fabs(lied_table_lookup2(NULL, NULL, bc, &h, a, b) - ref) / (1 + fabs(ref)));
  }
  CHECK(worst <= 1e-12);
  lied_table_release(bc);
}

/* Lane forms: the scalar lookups, lane by lane, bit for bit. */
static void lanes(void) {
  enum { N = 25 };
  double x[N], y[N], x1[N1], x2[N2], z[N1 * N2];
  random_table(x, y, N, 0);
  random_grid(x1, x2);
  for (int k = 0; k < N1 * N2; k++) z[k] = urand();
  lied_table *t = make1(x, y, N, LIED_TABLE_SMOOTH, LIED_TABLE_EXTEND);
  lied_table *m = make2(x1, x2, z, LIED_TABLE_SMOOTH, LIED_TABLE_EXTEND);
  const lied_table *ts[LIED_LANES], *ms[LIED_LANES];
  lied_table_hint hs[LIED_LANES] = {{0, 0}}, hm[LIED_LANES] = {{0, 0}};
  double u[LIED_LANES], v[LIED_LANES], yl[LIED_LANES], zl[LIED_LANES];
  for (int l = 0; l < LIED_LANES; l++) {
    ts[l] = t;
    ms[l] = m;
    u[l] = x[0] - 1 + (x[N - 1] - x[0] + 2) * urand();
    v[l] = x2[0] + (x2[N2 - 1] - x2[0]) * urand();
  }
  lied_table_lookup_lanes(NULL, ts, hs, u, yl, 29);
  lied_table_lookup2_lanes(NULL, ms, hm, u, v, zl, 29);
  int same = 1;
  for (int l = 0; l < 29; l++) {
    lied_table_hint h = {0, 0};
    double a = lied_table_lookup(NULL, NULL, t, &h, u[l]);
    double b = lied_table_lookup2(NULL, NULL, m, &h, u[l], v[l]);
    same &= memcmp(&a, &yl[l], sizeof a) == 0 && memcmp(&b, &zl[l], sizeof b) == 0;
  }
  CHECK(same);
  lied_table_release(t);
  lied_table_release(m);
}

static void expect_bad(const lied_table_data *d, const char *msg) {
  lied_err e = {0};
  lied_table *t = lied_table_new(d, &e);
  int rc = t ? lied_table_check(t, &e) : e.code;
  CHECK(rc == LIED_E_PARAM);
  if (!strstr(e.msg, msg)) fprintf(stderr, "message: %s\n  wanted: %s\n", e.msg, msg);
  CHECK(strstr(e.msg, msg) != NULL);
  lied_table_release(t);
}

static void checks(void) {
  const double x[] = {0, 1, 1, 3}, y[] = {0, 1, 2, NAN}, good[] = {0, 1, 2, 3};
  lied_table_data d = {1, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, 4, 0, x, NULL, good, "cycle.csv: v"};
  expect_bad(&d, "cycle.csv: v: breakpoints must increase: x[3] = 1 after x[2] = 1");
  d.x1 = good;
  d.v = y;
  expect_bad(&d, "cycle.csv: v: value y[4] = nan is not finite");
  d.n1 = 0;
  expect_bad(&d, "no breakpoints");
  d.n1 = 1;
  d.v = good;
  d.extrap = LIED_TABLE_PERIODIC;
  expect_bad(&d, "a periodic table needs at least 2 breakpoints");
  lied_table_data m = {2, LIED_TABLE_CONSTANT, LIED_TABLE_HOLD, 2, 2, good, good, good, "map"};
  expect_bad(&m, "interpolation \"constant\" is for 1-D tables (a map takes \"linear\" or \"cubic\")");
  m.interp = LIED_TABLE_LINEAR;
  m.n2 = 1;
  expect_bad(&m, "a map needs at least 2 breakpoints along x1 and along x2");
  const double inf2[] = {0, INFINITY};
  m.n2 = 2;
  m.x2 = inf2;
  expect_bad(&m, "map: breakpoint x2[2] = inf is not finite");
  /* one table, two references: freed at the last release (ASan checks) */
  lied_err e = {0};
  lied_table_data ok = {1, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, 4, 0, good, NULL, good, "ok"};
  lied_table *a = lied_table_new(&ok, &e), *b = lied_table_new(&ok, &e);
  CHECK(lied_table_same(a, b) && lied_table_hash(a) == lied_table_hash(b));
  lied_table_retain(a);
  lied_table_release(a);
  lied_table_release(a);
  lied_table_release(b);
}

int main(void) {
  linear_and_cubic();
  no_overshoot();
  hints_change_nothing();
  extrapolation();
  maps();
  bilinear_reproduced();
  lanes();
  checks();
  return CHECK_DONE();
}
