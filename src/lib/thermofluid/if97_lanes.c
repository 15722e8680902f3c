/* if97_lanes.c - T(p, h) of many states per call (if97_T_ph_lanes, if97.h),
 * for the lane forms of the thermofluid blocks (arrays of exchanger cells).
 * A state on one of if97_T_ph's fast paths (region 1 or region 2 away from
 * the saturation line, p at most 16.53 MPa) is solved there with the states
 * in the inner loop of every power table and sum, which the compiler
 * evaluates several per instruction; any other state goes through
 * if97_T_ph. Each state sees the operations if97_T_ph does on it, in the
 * same order (the same backward equation, the Newton iterations of
 * newton_T with the same Gibbs sums, the same tests): the same bits. */
#include <math.h>
#include "lied/component.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/if97_coef.h"

#define W 32 /* states per chunk */
#define NTERMS(t) ((int)(sizeof(t) / sizeof *(t)))

/* tab[off + k][l] = x[l]^k for k in [lo, hi], as if97.c's pow_table. */
static inline void pow_lanes(size_t n, const double *x, int lo, int hi, int off, double (*tab)[W]) {
  for (size_t l = 0; l < n; l++) tab[off][l] = 1.0;
  for (int k = 1; k <= hi; k++)
    for (size_t l = 0; l < n; l++) tab[off + k][l] = tab[off + k - 1][l] * x[l];
  if (lo < 0) {
    double r[W];
    for (size_t l = 0; l < n; l++) r[l] = 1.0 / x[l];
    for (int k = -1; k >= lo; k--)
      for (size_t l = 0; l < n; l++) tab[off + k][l] = tab[off + k + 1][l] * r[l];
  }
}

/* out[l] = sum n x[l]^i y[l]^j over the table t, as if97.c's poly (the
 * backward equations). */
LIED_LANE_FN static void poly_lanes(const if97_term *t, int nt, size_t n, const double *x,
                                    const double *y, double *out) {
  int ilo = t[0].i, ihi = t[0].i, jlo = t[0].j, jhi = t[0].j;
  for (int k = 1; k < nt; k++) {
    if (t[k].i < ilo) ilo = t[k].i;
    if (t[k].i > ihi) ihi = t[k].i;
    if (t[k].j < jlo) jlo = t[k].j;
    if (t[k].j > jhi) jhi = t[k].j;
  }
  double X[64][W], Y[64][W]; /* the tables' exponents span less than 64 */
  const int xo = ilo < 0 ? -ilo : 0, yo = jlo < 0 ? -jlo : 0;
  pow_lanes(n, x, ilo, ihi, xo, X);
  pow_lanes(n, y, jlo, jhi, yo, Y);
  for (size_t l = 0; l < n; l++) out[l] = 0.0;
  for (int k = 0; k < nt; k++) {
    const double c = t[k].n, *xi = X[xo + t[k].i], *yj = Y[yo + t[k].j];
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) out[l] += c * xi[l] * yj[l];
  }
}

/* if97_T2_ph for n states: the subregions' equations each over their states. */
static void T2_ph_lanes(size_t n, const double *p, const double *h, double *T) {
  size_t at[3][W], m[3] = {0, 0, 0};
  double x[3][W], y[3][W], r[W];
  for (size_t l = 0; l < n; l++) {
    const double pi = p[l] / 1e6, eta = h[l] / 2000e3;
    int s = 2;
    if (pi <= 4.0)
      s = 0, x[0][m[0]] = pi, y[0][m[0]] = eta - 2.1;
    else if (pi <= 6.546699678 || h[l] >= if97_h_b2bc(p[l]))
      s = 1, x[1][m[1]] = pi - 2.0, y[1][m[1]] = eta - 2.6;
    else
      x[2][m[2]] = pi + 25.0, y[2][m[2]] = eta - 1.8;
    at[s][m[s]++] = l;
  }
  static const if97_term *const tab[3] = {if97_r2a_tph, if97_r2b_tph, if97_r2c_tph};
  static const int len[3] = {NTERMS(if97_r2a_tph), NTERMS(if97_r2b_tph), NTERMS(if97_r2c_tph)};
  for (int s = 0; s < 3; s++) {
    if (!m[s]) continue;
    poly_lanes(tab[s], len[s], m[s], x[s], y[s], r);
    for (size_t k = 0; k < m[s]; k++) T[at[s][k]] = r[k];
  }
}

/* gamma_tau (and gamma_tautau) of region 1 or 2 at (p[l], T[l]). Two
 * orders of the products, as the scalar code has them: full = 0 as
 * if97_gibbs_t (n X^I, then J, Y^(J-1): Newton on h) with gtt; full = 1 as
 * if97_gibbs1 / gas_sums (n J X^I Y^(J-1): the h of state_pT), gtt unused.
 * gamma itself is not needed.
 * Long: both orders of the sums in one pair of lane loops, term for term as the scalar code. */
LIED_LANE_FN static void sums_lanes(int region, int full, size_t n, const double *p,
                                    const double *T, double *gt, double *gtt) {
  double a[W], b[W], zero[W];
  for (size_t l = 0; l < n; l++) gt[l] = 0, gtt[l] = 0, zero[l] = 0.0;
  if (region == 1) {
    double X[33][W], Y[61][W]; /* (7.1 - pi)^0..32, (tau - 1.222)^-43..17 */
    for (size_t l = 0; l < n; l++) {
      const double pi = p[l] / 16.53e6, tau = 1386.0 / T[l];
      a[l] = 7.1 - pi, b[l] = tau - 1.222;
    }
    pow_lanes(n, a, 0, 32, 0, X);
    pow_lanes(n, b, -43, 17, 43, Y);
    for (int k = 0; k < NTERMS(if97_r1); k++) {
      const int I = if97_r1[k].i, J = if97_r1[k].j;
      const double c = if97_r1[k].n;
      const double *x = X[I], *y1 = Y[43 + J - 1], *y2 = Y[43 + J - 2];
      if (full) {
        LIED_LANE_LOOP
        for (size_t l = 0; l < n; l++) gt[l] += c * J * x[l] * y1[l];
        continue;
      }
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) {
        const double t = c * x[l];
        gt[l] += t * J * y1[l];
        gtt[l] += t * J * (J - 1) * y2[l];
      }
    }
    return;
  }
  double X[25][W], Y[59][W], U[11][W]; /* pi^0..24, (tau - 0.5)^0..58, tau^-7..3 */
  double c5[W];
  for (size_t l = 0; l < n; l++) a[l] = p[l] / 1e6, b[l] = 540.0 / T[l], c5[l] = b[l] - 0.5;
  pow_lanes(n, a, 0, 24, 0, X);
  pow_lanes(n, c5, 0, 58, 0, Y);
  pow_lanes(n, b, -7, 3, 7, U);
  for (int k = 0; k < NTERMS(if97_r2o); k++) { /* the ideal-gas part: one order */
    const int J = if97_r2o[k].j;
    const double c = if97_r2o[k].n;
    const double *u1 = U[7 + J - 1], *u2 = U[7 + J - 2];
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) {
      gt[l] += c * J * u1[l];
      gtt[l] += c * J * (J - 1) * u2[l];
    }
  }
  for (int k = 0; k < NTERMS(if97_r2r); k++) {
    const int I = if97_r2r[k].i, J = if97_r2r[k].j;
    const double c = if97_r2r[k].n;
    const double *x = X[I];
    if (full) { /* gas_sums adds n J pi^I * 0 for J = 0 */
      const double *y1 = J > 0 ? Y[J - 1] : zero;
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) gt[l] += c * J * x[l] * y1[l];
    } else if (J > 1) {
      const double *y1 = Y[J - 1], *y2 = Y[J - 2];
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) {
        const double t = c * x[l];
        gt[l] += t * J * y1[l];
        gtt[l] += t * J * (J - 1) * y2[l];
      }
    } else if (J > 0) {
      const double *y1 = Y[J - 1];
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) gt[l] += c * x[l] * J * y1[l];
    }
  }
}

/* newton_T of if97_solve.c on h, for n states at once: T[l] from its start
 * value; ok[l] = 1 where it converged (T[l] then the root), 0 where it did
 * not. A state stops iterating where newton_T would return. */
static void newton_lanes(int region, size_t n, const double *p, const double *h, double *T,
                         int *ok) {
  const double Tstar = region == 1 ? 1386.0 : 540.0;
  int act[W];
  for (size_t l = 0; l < n; l++) act[l] = 1, ok[l] = 0;
  for (int k = 0; k < 30; k++) {
    double gt[W], gtt[W];
    sums_lanes(region, 0, n, p, T, gt, gtt);
    int any = 0;
    for (size_t l = 0; l < n; l++) {
      if (!act[l]) continue;
      const double t = T[l];
      double tau = Tstar / t, cp = -IF97_R * tau * tau * gtt[l];
      double f = IF97_R * Tstar * gt[l], df = cp;
      double dT = (h[l] - f) / df;
      if (!isfinite(dT)) {
        act[l] = 0;
        continue;
      }
      if (dT > 0.25 * t) dT = 0.25 * t;
      if (dT < -0.25 * t) dT = -0.25 * t;
      T[l] = t + dT;
      if (fabs(dT) <= 1e-9 * T[l])
        act[l] = 0, ok[l] = 1;
      else
        any = 1;
    }
    if (!any) return;
  }
}

/* T by if97_T_ph, NaN where it fails. */
static double scalar_T(double p, double h) {
  char why[8];
  double T;
  return if97_T_ph(p, h, &T, why, sizeof why) ? NAN : T;
}

/* Long: if97_T_ph's fast paths in its order, each packed so that its loops vectorise. */
static void chunk(size_t n, const double *p, const double *h, double *T) {
  /* the states of each fast path, packed: their index, p, h, Tsat, T */
  size_t i1[W], i2[W], n1 = 0, n2 = 0;
  double p1[W], h1[W], s1[W], t1[W], p2[W], h2[W], s2[W], t2[W];
  int liq2[W], ok[W];
  /* done[l]: 1 solved; 0 on to the saturation line (if97_T_ph's next step
   * once its fast paths fail); -1 to if97_T_ph */
  int done[W];
  double Tsat[W];
  for (size_t l = 0; l < n; l++) {
    done[l] = -1;
    const double pl = p[l], hl = h[l];
    if (!(isfinite(pl) && isfinite(hl) && pl > 0 && pl <= IF97_PMAX && pl <= IF97_PS13)) continue;
    const int liquid_ok = pl >= IF97_PTRIPLE;
    const double Ts = liquid_ok ? if97_Tsat_eq(pl) : IF97_TMIN;
    if (liquid_ok) done[l] = 0, Tsat[l] = Ts;
    if (liquid_ok && hl <= 1.8e6)
      i1[n1] = l, p1[n1] = pl, h1[n1] = hl, s1[n1] = Ts, n1++;
    else if (hl >= 2.3e6)
      i2[n2] = l, p2[n2] = pl, h2[n2] = hl, s2[n2] = Ts, liq2[n2] = liquid_ok, n2++;
  }
  /* the backward equations; on to Newton where they land off the line */
  double Tb[W], x[W];
  size_t m = 0;
  for (size_t k = 0; k < n1; k++) x[k] = p1[k] / 1e6, Tb[k] = h1[k] / 2500e3 + 1.0;
  if (n1) poly_lanes(if97_r1_tph, NTERMS(if97_r1_tph), n1, x, Tb, Tb);
  for (size_t k = 0; k < n1; k++)
    if (isfinite(Tb[k]) && Tb[k] < s1[k] - 0.1)
      i1[m] = i1[k], p1[m] = p1[k], h1[m] = h1[k], s1[m] = s1[k], t1[m] = Tb[k], m++;
  n1 = m, m = 0;
  if (n2) T2_ph_lanes(n2, p2, h2, Tb);
  for (size_t k = 0; k < n2; k++)
    if (isfinite(Tb[k]) && (!liq2[k] || Tb[k] > s2[k] + 0.1))
      i2[m] = i2[k], p2[m] = p2[k], h2[m] = h2[k], s2[m] = s2[k], liq2[m] = liq2[k],
      t2[m] = Tb[k] > IF97_T25 ? IF97_T25 : Tb[k], m++;
  n2 = m;
  if (n1) {
    newton_lanes(1, n1, p1, h1, t1, ok);
    for (size_t k = 0; k < n1; k++)
      if (ok[k] && t1[k] <= s1[k]) /* below the lowest T: if97_T_ph fails */
        T[i1[k]] = t1[k] < IF97_TMIN - 1e-7 ? NAN : t1[k] < IF97_TMIN ? IF97_TMIN : t1[k],
        done[i1[k]] = 1;
  }
  if (n2) {
    newton_lanes(2, n2, p2, h2, t2, ok);
    for (size_t k = 0; k < n2; k++)
      if (ok[k] && (!liq2[k] || t2[k] >= s2[k])) { /* outside region 2's range: if97_T_ph */
        if (t2[k] >= IF97_TMIN && t2[k] <= IF97_T25 - 1.0)
          T[i2[k]] = t2[k], done[i2[k]] = 1;
        else
          done[i2[k]] = -1;
      }
  }
  /* the saturation line: a mixture between h' and h'' is at Tsat */
  size_t is[W], ns = 0;
  double ps[W], ts[W], hl[W], hv[W];
  for (size_t l = 0; l < n; l++)
    if (done[l] == 0) is[ns] = l, ps[ns] = p[l], ts[ns] = Tsat[l], ns++;
  if (ns) {
    double scratch[W];
    sums_lanes(1, 1, ns, ps, ts, hl, scratch);
    sums_lanes(2, 1, ns, ps, ts, hv, scratch);
    for (size_t k = 0; k < ns; k++) {
      const double y = h[is[k]], yl = IF97_R * 1386.0 * hl[k], yv = IF97_R * 540.0 * hv[k];
      if (y >= yl && y <= yv) T[is[k]] = ts[k], done[is[k]] = 1;
    }
  }
  for (size_t l = 0; l < n; l++)
    if (done[l] != 1) T[l] = scalar_T(p[l], h[l]);
}

void if97_T_ph_lanes(size_t n, const double *p, const double *h, double *T) {
  for (size_t o = 0; o < n; o += W) chunk(n - o < W ? n - o : W, p + o, h + o, T + o);
}
