/* test_finite.c - lied_first_nonfinite (the solvers' check that the states
 * stayed finite): every non-finite kind at every position of arrays around
 * its block length, against a plain isfinite() scan; finite extremes pass. */
#include <float.h>
#include <math.h>
#include "check.h"
#include "core/finite.h"

static size_t scan(const double *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i])) return i;
  return n;
}

static void test_positions(void) {
  const double bad[] = {NAN, -NAN, INFINITY, -INFINITY};
  double x[130] = {0};
  for (size_t n = 0; n <= 130; n++) {
    for (size_t i = 0; i < n; i++) x[i] = (double)i - 50.5;
    CHECK(lied_first_nonfinite(x, n) == n);
    for (size_t at = 0; at < n; at++)
      for (int b = 0; b < 4; b++) {
        x[at] = bad[b];
        const size_t got = lied_first_nonfinite(x, n);
        if (got != at || got != scan(x, n)) CHECK(!"first non-finite at the wrong place");
        if (at + 3 < n) { /* a second one further on: the first is found */
          x[at + 3] = bad[(b + 1) % 4];
          if (lied_first_nonfinite(x, n) != at) CHECK(!"not the first");
          x[at + 3] = (double)(at + 3) - 50.5;
        }
        x[at] = (double)at - 50.5;
      }
  }
}

static void test_extremes(void) {
  const double ok[] = {DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, 0.0, -0.0, 1e308};
  double x[64];
  for (size_t i = 0; i < 64; i++) x[i] = ok[i % 8];
  CHECK(lied_first_nonfinite(x, 64) == 64);
  x[40] = -INFINITY;
  CHECK(lied_first_nonfinite(x, 64) == 40);
  CHECK(lied_first_nonfinite(x, 40) == 40); /* not in range: n */
  CHECK(lied_first_nonfinite(x + 41, 23) == 23);
}

int main(void) {
  test_positions();
  test_extremes();
  return CHECK_DONE();
}
