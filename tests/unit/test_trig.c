/* test_trig.c - the mechanics library's sine and cosine (src/lib/mechanics/
 * trig.h) against long double libm: below one unit in the last place over
 * the polynomial's range (random angles at several scales, the multiples of
 * pi/2 and their neighbours, the range's end), exactly libm beyond it,
 * signed zeros and tiny angles exact, NaN for infinities and NaN; the lane
 * loop (compiled for every instruction set of the lane forms) gives the
 * same bits as the scalar call. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "lib/mechanics/trig.h"
#include "lied/component.h"

#define PI 3.14159265358979323846

/* |got - want| in units in the last place of the double nearest want. */
static double ulps(double got, long double want) {
  const double w = (double)want;
  if (w == 0) return got == 0 ? 0 : INFINITY;
  int ex;
  frexp(w, &ex);
  const double ulp = ldexp(1.0, ex - DBL_MANT_DIG);
  return (double)fabsl((long double)got - want) / ulp;
}

static uint64_t state = 0x9e3779b97f4a7c15u;
static double uniform(double a, double b) { /* xorshift64*, [a, b) */
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return a + (b - a) * (double)((state * 2685821657736338717u) >> 11) * 0x1p-53;
}

static double worst_s, worst_c;
static double worst_at;

static void check_one(double x) {
  double s, c;
  pm_sincos(x, &s, &c);
  const double es = ulps(s, sinl((long double)x)), ec = ulps(c, cosl((long double)x));
  if (es > worst_s) worst_s = es, worst_at = x;
  if (ec > worst_c) worst_c = ec, worst_at = x;
}

/* The lane loop as the lane forms compile it (every clone of LIED_LANE_FN). */
LIED_LANE_FN static void lanes(const double *a, size_t n, double *c, double *s) {
  pm_sincos_lanes(a, n, c, s);
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

int main(void) {
  /* random angles at several scales */
  const double scale[] = {PI / 4, 2, 10, 1000, PM_TRIG_MAX};
  for (size_t k = 0; k < sizeof scale / sizeof *scale; k++)
    for (int i = 0; i < 200000; i++) check_one(uniform(-scale[k], scale[k]));
  /* multiples of pi/2 (the reduction's hard cases) and their neighbours */
  for (int q = -70000; q <= 70000; q += q > -100 && q < 100 ? 1 : 37) {
    const double x = q * (PI / 2);
    const double near[] = {x, nextafter(x, 0), nextafter(x, INFINITY), x + 1e-9, x - PI / 4,
                           x + PI / 4};
    for (size_t k = 0; k < sizeof near / sizeof *near; k++) check_one(near[k]);
  }
  check_one(PM_TRIG_MAX);
  check_one(-PM_TRIG_MAX);
  check_one(nextafter(PM_TRIG_MAX, 0));
  printf("worst: sin %.3f ulp, cos %.3f ulp (at %.17g)\n", worst_s, worst_c, worst_at);
  CHECK(worst_s < 1.0);
  CHECK(worst_c < 1.0);

  /* exact cases: zeros keep their sign, tiny angles give themselves and 1 */
  double s, c;
  pm_sincos(0.0, &s, &c);
  CHECK(same_bits(s, 0.0) && c == 1.0);
  pm_sincos(-0.0, &s, &c);
  CHECK(same_bits(s, -0.0) && c == 1.0);
  pm_sincos(1e-300, &s, &c);
  CHECK(s == 1e-300 && c == 1.0);
  pm_sincos(-4.9e-324, &s, &c);
  CHECK(s == -4.9e-324 && c == 1.0);
  /* beyond the range: libm itself; no number: NaN */
  const double far[] = {nextafter(PM_TRIG_MAX, INFINITY), 1e6, -3e7, 1e300, -DBL_MAX};
  for (size_t k = 0; k < sizeof far / sizeof *far; k++) {
    pm_sincos(far[k], &s, &c);
    CHECK(same_bits(s, sin(far[k])) && same_bits(c, cos(far[k])));
  }
  const double bad[] = {INFINITY, -INFINITY, NAN};
  for (size_t k = 0; k < 3; k++) {
    pm_sincos(bad[k], &s, &c);
    CHECK(isnan(s) && isnan(c));
  }

  /* lanes: the same bits as one at a time, far and bad angles mixed in */
  enum { N = 67 };
  double a[N], ls[N], lc[N];
  for (int round = 0; round < 2000; round++) {
    const double sc = scale[round % 5];
    for (int l = 0; l < N; l++) a[l] = uniform(-sc, sc);
    if (round % 3 == 0) a[round % N] = far[round % 5];
    if (round % 7 == 0) a[(round + 5) % N] = bad[round % 3];
    const size_t n = (size_t)(round % N) + 1;
    lanes(a, n, lc, ls);
    int ok = 1;
    for (size_t l = 0; l < n; l++) {
      pm_sincos(a[l], &s, &c);
      ok &= same_bits(ls[l], s) && same_bits(lc[l], c);
    }
    CHECK(ok);
    if (!ok) break;
  }
  return CHECK_DONE();
}
