/* if97.c - IAPWS-IF97 equations: the Gibbs free energy of regions 1, 2 and
 * 5 with its derivatives, the saturation equation (region 4), the boundary
 * equations B23 and B2bc, and the backward equations T(p,h), T(p,s) of
 * regions 1 and 2. The solvers that combine them are in if97_solve.c. */
#include <math.h>
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/if97_coef.h"

#define NTERMS(t) ((int)(sizeof(t) / sizeof *(t)))

/* ---- sums of n X^i Y^j with integer exponents ---------------------------- */

#define POW_OFF 64 /* exponents in [-64, 64] */

/* x^k for k in [lo, hi] into tab[k + POW_OFF] by repeated multiplication. */
static void pow_table(double x, int lo, int hi, double *tab) {
  tab[POW_OFF] = 1.0;
  for (int k = 1; k <= hi; k++) tab[POW_OFF + k] = tab[POW_OFF + k - 1] * x;
  if (lo < 0) {
    double r = 1.0 / x;
    for (int k = -1; k >= lo; k--) tab[POW_OFF + k] = tab[POW_OFF + k + 1] * r;
  }
}

static void exp_range(const if97_term *t, int n, int *ilo, int *ihi, int *jlo, int *jhi) {
  *ilo = *ihi = t[0].i;
  *jlo = *jhi = t[0].j;
  for (int k = 1; k < n; k++) {
    if (t[k].i < *ilo) *ilo = t[k].i;
    if (t[k].i > *ihi) *ihi = t[k].i;
    if (t[k].j < *jlo) *jlo = t[k].j;
    if (t[k].j > *jhi) *jhi = t[k].j;
  }
}

/* sum n x^i y^j (x^i skipped when the table's i are all 0 and x is 0). */
static double poly(const if97_term *t, int n, double x, double y) {
  double X[2 * POW_OFF + 1], Y[2 * POW_OFF + 1];
  int ilo, ihi, jlo, jhi;
  exp_range(t, n, &ilo, &ihi, &jlo, &jhi);
  pow_table(x, ilo, ihi, X);
  pow_table(y, jlo, jhi, Y);
  double s = 0.0;
  for (int k = 0; k < n; k++) s += t[k].n * X[POW_OFF + t[k].i] * Y[POW_OFF + t[k].j];
  return s;
}

/* ---- region 1: gamma = sum n (7.1 - pi)^I (tau - 1.222)^J ------------------ */

void if97_gibbs1(double p, double T, if97_gibbs *g) {
  g->pstar = 16.53e6;
  g->Tstar = 1386.0;
  double pi = p / g->pstar, tau = g->Tstar / T;
  double a = 7.1 - pi, b = tau - 1.222;
  double A[2 * POW_OFF + 1], B[2 * POW_OFF + 1];
  pow_table(a, -2, 32, A);
  pow_table(b, -43, 17, B);
  double s = 0, sp = 0, spp = 0, st = 0, stt = 0, spt = 0;
  for (int k = 0; k < NTERMS(if97_r1); k++) {
    int I = if97_r1[k].i, J = if97_r1[k].j;
    double n = if97_r1[k].n;
    double ai = A[POW_OFF + I], ai1 = A[POW_OFF + I - 1], ai2 = A[POW_OFF + I - 2];
    double bj = B[POW_OFF + J], bj1 = B[POW_OFF + J - 1], bj2 = B[POW_OFF + J - 2];
    s += n * ai * bj;
    sp -= n * I * ai1 * bj;
    spp += n * I * (I - 1) * ai2 * bj;
    st += n * J * ai * bj1;
    stt += n * J * (J - 1) * ai * bj2;
    spt -= n * I * J * ai1 * bj1;
  }
  g->g = s, g->gp = sp, g->gpp = spp, g->gt = st, g->gtt = stt, g->gpt = spt;
}

/* ---- region 2: gamma = ln pi + sum n0 tau^J0 + sum n pi^I (tau - 0.5)^J ---- */

/* Regions 2 and 5: gamma = ln pi + sum n0 tau^J0 (the ideal-gas part, U the
 * powers of tau) + sum n pi^I c^J (the residual part, P the powers of pi, C
 * those of c = tau - 0.5 in region 2 and tau in region 5; I >= 1). The
 * derivatives by pi and tau are summed in g, term after term. */
static void gas_sums(const if97_term *o, int no, const if97_term *r, int nr, double pi,
                     const double *P, const double *C, const double *U, if97_gibbs *g) {
  double s = log(pi), sp = 1.0 / pi, spp = -1.0 / (pi * pi), st = 0, stt = 0, spt = 0;
  for (int k = 0; k < no; k++) {
    int J = o[k].j;
    double n = o[k].n;
    s += n * U[POW_OFF + J];
    st += n * J * U[POW_OFF + J - 1];
    stt += n * J * (J - 1) * U[POW_OFF + J - 2];
  }
  for (int k = 0; k < nr; k++) {
    int I = r[k].i, J = r[k].j;
    double n = r[k].n;
    double pi0 = P[POW_OFF + I], pi1 = P[POW_OFF + I - 1];
    double pi2 = I > 1 ? P[POW_OFF + I - 2] : 0.0;
    double cj = C[POW_OFF + J], cj1 = J > 0 ? C[POW_OFF + J - 1] : 0.0;
    double cj2 = J > 1 ? C[POW_OFF + J - 2] : 0.0;
    s += n * pi0 * cj;
    sp += n * I * pi1 * cj;
    spp += n * I * (I - 1) * pi2 * cj;
    st += n * J * pi0 * cj1;
    stt += n * J * (J - 1) * pi0 * cj2;
    spt += n * I * J * pi1 * cj1;
  }
  g->g = s, g->gp = sp, g->gpp = spp, g->gt = st, g->gtt = stt, g->gpt = spt;
}

void if97_gibbs2(double p, double T, if97_gibbs *g) {
  g->pstar = 1e6;
  g->Tstar = 540.0;
  double pi = p / g->pstar, tau = g->Tstar / T, c = tau - 0.5;
  double P[2 * POW_OFF + 1], C[2 * POW_OFF + 1], U[2 * POW_OFF + 1];
  pow_table(pi, 0, 24, P);
  pow_table(c, 0, 58, C);
  pow_table(tau, -7, 3, U);
  gas_sums(if97_r2o, NTERMS(if97_r2o), if97_r2r, NTERMS(if97_r2r), pi, P, C, U, g);
}

/* ---- region 5: gamma = ln pi + sum n0 tau^J0 + sum n pi^I tau^J ----------- */

void if97_gibbs5(double p, double T, if97_gibbs *g) {
  g->pstar = 1e6;
  g->Tstar = 1000.0;
  double pi = p / g->pstar, tau = g->Tstar / T;
  double P[2 * POW_OFF + 1], U[2 * POW_OFF + 1];
  pow_table(pi, 0, 3, P);
  pow_table(tau, -5, 9, U);
  /* the residual part's powers are tau's too (J >= 1) */
  gas_sums(if97_r5o, NTERMS(if97_r5o), if97_r5r, NTERMS(if97_r5r), pi, P, U, U, g);
}

/* gamma, gamma_tau and gamma_tautau only (what Newton on h or s needs). */
void if97_gibbs_t(int region, double p, double T, if97_gibbs *g) {
  if (region == 5) {
    if97_gibbs5(p, T, g);
    return;
  }
  double X[2 * POW_OFF + 1], Y[2 * POW_OFF + 1];
  double s = 0, st = 0, stt = 0;
  if (region == 1) {
    g->pstar = 16.53e6;
    g->Tstar = 1386.0;
    double pi = p / g->pstar, tau = g->Tstar / T;
    pow_table(7.1 - pi, 0, 32, X);
    pow_table(tau - 1.222, -43, 17, Y);
    for (int k = 0; k < NTERMS(if97_r1); k++) {
      int I = if97_r1[k].i, J = if97_r1[k].j;
      double a = if97_r1[k].n * X[POW_OFF + I];
      s += a * Y[POW_OFF + J];
      st += a * J * Y[POW_OFF + J - 1];
      stt += a * J * (J - 1) * Y[POW_OFF + J - 2];
    }
  } else {
    g->pstar = 1e6;
    g->Tstar = 540.0;
    double pi = p / g->pstar, tau = g->Tstar / T;
    double U[2 * POW_OFF + 1];
    pow_table(pi, 0, 24, X);
    pow_table(tau - 0.5, 0, 58, Y);
    pow_table(tau, -7, 3, U);
    s = log(pi);
    for (int k = 0; k < NTERMS(if97_r2o); k++) {
      int J = if97_r2o[k].j;
      double n = if97_r2o[k].n;
      s += n * U[POW_OFF + J];
      st += n * J * U[POW_OFF + J - 1];
      stt += n * J * (J - 1) * U[POW_OFF + J - 2];
    }
    for (int k = 0; k < NTERMS(if97_r2r); k++) {
      int I = if97_r2r[k].i, J = if97_r2r[k].j;
      double a = if97_r2r[k].n * X[POW_OFF + I];
      s += a * Y[POW_OFF + J];
      if (J > 0) st += a * J * Y[POW_OFF + J - 1];
      if (J > 1) stt += a * J * (J - 1) * Y[POW_OFF + J - 2];
    }
  }
  g->g = s, g->gt = st, g->gtt = stt;
  g->gp = g->gpp = g->gpt = 0.0; /* not computed */
}

/* Properties from gamma (release Tables 3, 12, 39): v = R T gamma_pi / p*,
 * h = R T* gamma_tau, s = R (tau gamma_tau - gamma), cp = -R tau^2
 * gamma_tautau, u = h - p v. */
void if97_from_gibbs(const if97_gibbs *g, double p, double T, int region, if97_state *st) {
  double tau = g->Tstar / T;
  double v = IF97_R * T * g->gp / g->pstar;
  st->p = p;
  st->T = T;
  st->rho = 1.0 / v;
  st->h = IF97_R * g->Tstar * g->gt;
  st->u = st->h - p * v;
  st->s = IF97_R * (tau * g->gt - g->g);
  st->cp = -IF97_R * tau * tau * g->gtt;
  st->x = region == 1 ? 0.0 : 1.0;
  st->region = region;
}

/* ---- boundaries ---------------------------------------------------------------- */

/* B23 (release Eqs. 5, 6): pi = n1 + n2 theta + n3 theta^2. */
static const double b23[6] = {0, 0.34805185628969e3, -0.11671859879975e1, 0.10192970039326e-2,
                              0.57254459862746e3, 0.13918839778870e2};
double if97_p_b23(double T) { return (b23[1] + b23[2] * T + b23[3] * T * T) * 1e6; }
double if97_T_b23(double p) { return b23[4] + sqrt((p / 1e6 - b23[5]) / b23[3]); }

/* B2bc (release Eqs. 20, 21): pi = n1 + n2 eta + n3 eta^2, eta = h / (kJ/kg). */
static const double b2bc[6] = {0, 0.90584278514723e3, -0.67955786399241, 0.12809002730136e-3,
                               0.26526571908428e4, 0.45257578905948e1};
double if97_p_b2bc(double h) {
  double eta = h / 1e3;
  return (b2bc[1] + b2bc[2] * eta + b2bc[3] * eta * eta) * 1e6;
}
double if97_h_b2bc(double p) { return (b2bc[4] + sqrt((p / 1e6 - b2bc[5]) / b2bc[3])) * 1e3; }

/* ---- region 4: the saturation equation (release Eqs. 30, 31) ----------------- */

double if97_psat_eq(double T) { return if97_psat_of(T); }

double if97_Tsat_eq(double p) {
  const double *n = if97_r4;
  double be = sqrt(sqrt(p / 1e6));
  double E = be * be + n[3] * be + n[6];
  double F = n[1] * be * be + n[4] * be + n[7];
  double G = n[2] * be * be + n[5] * be + n[8];
  double D = 2.0 * G / (-F - sqrt(F * F - 4.0 * E * G));
  return (n[10] + D - sqrt((n[10] + D) * (n[10] + D) - 4.0 * (n[9] + n[10] * D))) / 2.0;
}

/* ---- backward equations ---------------------------------------------------------- */

/* Region 1 (release Eqs. 11, 13): T / 1 K. */
double if97_T1_ph(double p, double h) {
  return poly(if97_r1_tph, NTERMS(if97_r1_tph), p / 1e6, h / 2500e3 + 1.0);
}
double if97_T1_ps(double p, double s) {
  return poly(if97_r1_tps, NTERMS(if97_r1_tps), p / 1e6, s / 1e3 + 2.0);
}

/* Region 2 (release Eqs. 22-24, 25-27): subregion 2a below 4 MPa; 2b / 2c
 * split by B2bc (T(p,h)) or by s = 5.85 kJ/(kg K) (T(p,s)). */
double if97_T2_ph(double p, double h) {
  double pi = p / 1e6, eta = h / 2000e3;
  if (pi <= 4.0) return poly(if97_r2a_tph, NTERMS(if97_r2a_tph), pi, eta - 2.1);
  if (pi <= 6.546699678 || h >= if97_h_b2bc(p))
    return poly(if97_r2b_tph, NTERMS(if97_r2b_tph), pi - 2.0, eta - 2.6);
  return poly(if97_r2c_tph, NTERMS(if97_r2c_tph), pi + 25.0, eta - 1.8);
}
double if97_T2_ps(double p, double s) {
  double pi = p / 1e6;
  if (pi <= 4.0) /* exponents I/4: powers of pi^(1/4) */
    return poly(if97_r2a_tps, NTERMS(if97_r2a_tps), sqrt(sqrt(pi)), s / 2000.0 - 2.0);
  if (s >= 5.85e3) return poly(if97_r2b_tps, NTERMS(if97_r2b_tps), pi, 10.0 - s / 785.3);
  return poly(if97_r2c_tps, NTERMS(if97_r2c_tps), pi, 2.0 - s / 2925.1);
}

/* Region 3 (supplementary release SR3 on T(p,h), v(p,h) for region 3):
 * the boundary between subregions 3a and 3b, h_3ab(p) (Eq. 1), and the
 * backward equations of 3a and 3b (Eqs. 2 to 5). */
double if97_h_3ab(double p) {
  double pi = p / 1e6;
  return (0.201464004206875e4 + 3.74696550136983 * pi - 0.0219921901054187 * pi * pi +
          0.875131686009950e-4 * pi * pi * pi) *
         1e3;
}
double if97_T3_ph(double p, double h) {
  double pi = p / 100e6, eta = h / 1e3;
  if (h <= if97_h_3ab(p))
    return 760.0 * poly(if97_r3a_tph, NTERMS(if97_r3a_tph), pi + 0.240, eta / 2300.0 - 0.615);
  return 860.0 * poly(if97_r3b_tph, NTERMS(if97_r3b_tph), pi + 0.298, eta / 2800.0 - 0.720);
}
double if97_v3_ph(double p, double h) {
  double pi = p / 100e6, eta = h / 1e3;
  if (h <= if97_h_3ab(p))
    return 0.0028 * poly(if97_r3a_vph, NTERMS(if97_r3a_vph), pi + 0.128, eta / 2100.0 - 0.727);
  return 0.0088 * poly(if97_r3b_vph, NTERMS(if97_r3b_vph), pi + 0.0661, eta / 2800.0 - 0.720);
}
