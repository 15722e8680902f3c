/* lied/mechanics_trig.h - sine and cosine of one angle, written so that a loop over lane
 * groups evaluates several angles per instruction (docs/mechanics.md,
 * "Sine and cosine").
 *
 * libm's sin and cos are calls the compiler cannot vectorise: in the lane
 * forms of the mechanics blocks the two took about 20 % of the instructions
 * of a crane crab's evaluation. pm_sincos is the classical method (as in
 * fdlibm): the angle is reduced to r in [-pi/4, pi/4] by the nearest
 * multiple q of pi/2 (Cody-Waite: pi/2 in four parts, the first three with
 * 33 significant bits, so q times them is exact for |q| < 2^20; r as a sum
 * of two doubles, the rounding errors of the differences kept), then
 * sin r and cos r are the minimax polynomials of fdlibm's kernels with
 * their correction for r's tail, and q mod 4 picks and signs them.
 * Branch-free up to |x| <= PM_TRIG_MAX; beyond it (and for infinities and
 * NaN) libm's sin and cos. The scalar blocks and the lane
 * forms call the same inline kernel, so they compute the same bits (ISO C:
 * no contraction into fused multiply-adds); tests/unit/test_trig.c checks
 * the error against long double over the range. */
#ifndef LIED_LIB_MECHANICS_TRIG_H
#define LIED_LIB_MECHANICS_TRIG_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "lied/component.h"

/* Angles up to this magnitude (rad) take the polynomial: |q| < 2^17. */
#define PM_TRIG_MAX 1.0e5

/* yes ? a : b with masks (a conditional expression can keep GCC from
 * vectorising the lane loop: "control flow in loop"). */
static inline double pm_trig_pick(uint64_t yes, double a, double b) {
  uint64_t ab, bb;
  memcpy(&ab, &a, sizeof ab);
  memcpy(&bb, &b, sizeof bb);
  const uint64_t m = (uint64_t)0 - (yes != 0), r = (ab & m) | (bb & ~m);
  double v;
  memcpy(&v, &r, sizeof v);
  return v;
}

/* The polynomial path for |x| <= PM_TRIG_MAX: *s, *c. Branch-free. */
static inline void pm_sincos_kernel(double x, double *s, double *c) {
  static const double two_over_pi = 6.36619772367581382433e-01,
                      pio2_1 = 1.57079632673412561417e+00, /* first 33 bits of pi/2 */
      pio2_2 = 6.07710050630396597660e-11,                 /* next 33 bits */
      pio2_3 = 2.02226624871116645580e-21,                 /* next 33 bits */
      pio2_3t = 8.47842766036889956997e-32,                /* pi/2 - the three above */
      magic = 6755399441055744.0;                          /* 1.5 * 2^52 */
  static const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                      S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                      S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  static const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                      C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                      C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  /* q: the nearest whole number to x 2/pi (round half even), its low bits in
   * the mantissa of t */
  const double t = x * two_over_pi + magic, q = t - magic;
  uint64_t tb;
  memcpy(&tb, &t, sizeof tb);
  /* r = y + yt, pi/2 in four parts: x - q pio2_1 is exact, each later
   * difference's rounding error is kept (exact: the operands' sizes allow
   * Fast2Sum, or the difference is exact) and added to the tail */
  const double r1 = x - q * pio2_1, w2 = q * pio2_2, r2 = r1 - w2, e2 = (r1 - r2) - w2;
  const double w3 = q * pio2_3, r3 = r2 - w3, e3 = (r2 - r3) - w3;
  const double ntail = q * pio2_3t - (e2 + e3); /* minus the tail: -0 - +0 keeps -0 */
  const double y = r3 - ntail, yt = (r3 - y) - ntail;
  const double z = y * y, w = z * z, v = z * y;
  /* sin r (fdlibm's __kernel_sin with the tail); below 2^-27 it rounds to
   * y, taken as it is (the sign of zero) */
  const double sr = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
  const double sk = y - ((z * (0.5 * yt - v * sr) - yt) - v * S1);
  const double sn = pm_trig_pick(fabs(y) < 0x1p-27, y, sk);
  /* cos r (fdlibm's __kernel_cos with the tail) */
  const double cr = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  const double hz = 0.5 * z, w1 = 1.0 - hz;
  const double cs = w1 + (((1.0 - w1) - hz) + (z * cr - y * yt));
  /* quadrant n = q mod 4: (sin, cos) = (sn, cs), (cs, -sn), (-sn, -cs), (-cs, sn) */
  const uint64_t n = tb & 3, odd = n & 1;
  uint64_t ab, bb;
  const double a = pm_trig_pick(odd, cs, sn), b = pm_trig_pick(odd, sn, cs);
  memcpy(&ab, &a, sizeof ab);
  memcpy(&bb, &b, sizeof bb);
  ab ^= (n & 2) << 62;       /* sin < 0 in quadrants 2, 3 */
  bb ^= ((n + 1) & 2) << 62; /* cos < 0 in quadrants 1, 2 */
  memcpy(s, &ab, sizeof ab);
  memcpy(c, &bb, sizeof bb);
}

/* sin x and cos x. */
static inline void pm_sincos(double x, double *s, double *c) {
  if (fabs(x) <= PM_TRIG_MAX) {
    pm_sincos_kernel(x, s, c);
  } else {
    *s = sin(x);
    *c = cos(x);
  }
}

/* c[l] = cos a[l], s[l] = sin a[l] for l < n, as pm_sincos: the polynomial
 * for every lane (vectorised), then libm for the lanes beyond its range. */
static inline void pm_sincos_lanes(const double *a, size_t n, double *c, double *s) {
  int far = 0; /* some lane beyond the polynomial's range (a reduction that vectorises) */
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    pm_sincos_kernel(a[l], &s[l], &c[l]);
    far |= !(fabs(a[l]) <= PM_TRIG_MAX);
  }
  if (far)
    for (size_t l = 0; l < n; l++)
      if (!(fabs(a[l]) <= PM_TRIG_MAX)) s[l] = sin(a[l]), c[l] = cos(a[l]);
}

#endif
