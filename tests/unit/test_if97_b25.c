/* test_if97_b25.c - how far apart IAPWS-IF97's regions 2 and 5 are on their
 * boundary T = 1073.15 K (docs/media.md, "Between regions 2 and 5"): a state
 * of region 2 at (p, 1073.15 K) is given to region 5 through the inverses
 * lied offers, (p, h), (p, s) and (rho, u), and the temperature region 5
 * finds for it measured against 1073.15 K, from 1 kPa to region 5's 50 MPa.
 * The release allows such differences (its consistency requirements); the
 * figures measured here are those docs/media.md states. */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "lib/thermofluid/if97.h"

static if97_state region(int r, double p, double T) {
  if97_gibbs g;
  if97_state st;
  if (r == 2)
    if97_gibbs2(p, T, &g);
  else
    if97_gibbs5(p, T, &g);
  if97_from_gibbs(&g, p, T, r, &st);
  return st;
}

/* Region 5's T at pressure p where property `what` (h or s) equals v. */
static double T5_at(double p, double v, int entropy) {
  double T = IF97_T25;
  for (int it = 0; it < 50; it++) {
    if97_state st = region(5, p, T);
    double f = (entropy ? st.s : st.h) - v;
    double dfdT = entropy ? st.cp / T : st.cp; /* ds/dT = cp / T, dh/dT = cp at constant p */
    double dT = -f / dfdT;
    T += dT;
    if (fabs(dT) < 1e-13 * T) break;
  }
  return T;
}

/* Region 5's (p, T) with density rho and internal energy u: Newton on
 * (p, T), the Jacobian by differences. */
static double T5_at_rho_u(double rho, double u, double p) {
  double T = IF97_T25;
  for (int it = 0; it < 60; it++) {
    if97_state a = region(5, p, T);
    const double dp = 1e-6 * p, dT = 1e-6 * T;
    if97_state bp = region(5, p + dp, T), bT = region(5, p, T + dT);
    const double f1 = a.rho - rho, f2 = a.u - u;
    const double j11 = (bp.rho - a.rho) / dp, j12 = (bT.rho - a.rho) / dT;
    const double j21 = (bp.u - a.u) / dp, j22 = (bT.u - a.u) / dT;
    const double det = j11 * j22 - j12 * j21;
    const double sp = -(f1 * j22 - f2 * j12) / det, sT = -(j11 * f2 - j21 * f1) / det;
    p += sp, T += sT;
    if (fabs(sT) < 1e-13 * T && fabs(sp) < 1e-13 * p) break;
  }
  return T;
}

int main(void) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int k = 0; k <= 200; k++) {
    const double p = 1e3 * pow(50e6 / 1e3, k / 200.0);
    if97_state s2 = region(2, p, IF97_T25);
    const double dT[3] = {T5_at(p, s2.h, 0) - IF97_T25, T5_at(p, s2.s, 1) - IF97_T25,
                          T5_at_rho_u(s2.rho, s2.u, p) - IF97_T25};
    for (int i = 0; i < 3; i++) lo[i] = fmin(lo[i], dT[i]), hi[i] = fmax(hi[i], dT[i]);
  }
  static const char *const what[3] = {"T_ph", "T_ps", "T_rhou"};
  for (int i = 0; i < 3; i++)
    printf("region 5's T of a region-2 state at 1073.15 K, by %s: %.1f to %.1f mK\n", what[i],
           1e3 * lo[i], 1e3 * hi[i]);
  /* the figures of docs/media.md, to 0.1 mK */
  static const double doc_lo[3] = {-33.0, -6.8, -80.9};
  static const double doc_hi[3] = {38.3, 61.0, 70.8};
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(1e3 * lo[i], doc_lo[i], 0.1);
    CHECK_NEAR(1e3 * hi[i], doc_hi[i], 0.1);
  }
  return CHECK_DONE();
}
