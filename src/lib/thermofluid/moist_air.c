/* moist_air.c - moist air (moist_air.h): dry air and water vapour as ideal
 * gases, fog above saturation, psat from IAPWS-IF97. */
#include <math.h>
#include <stdio.h>
#include "lied/status.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), LIED_ERROR)
#define EPS MA_EPS /* water per dry air at p_v = p - p_v */

/* The saturation humidity ratio at (p, T); HUGE_VAL when the water would
 * boil (psat(T) >= p: no saturation). */
static double x_sat(double p, double T) {
  double ps = if97_psat_eq(T);
  return ps >= p ? HUGE_VAL : EPS * ps / (p - ps);
}

static int check(double p, double T, double X, const char *state, char *why, size_t cap) {
  if (!isfinite(p) || !isfinite(T) || !isfinite(X))
    return FAIL("moist air: %s: not a finite number", state);
  if (!(p > 0)) return FAIL("moist air: %s: p must be > 0", state);
  if (!(X >= 0 && X < 1)) return FAIL("moist air: %s: the water fraction X must be in [0, 1)", state);
  if (!(T >= MA_TMIN && T <= MA_TMAX))
    return FAIL("moist air: %s: T is outside [273.15 K, 623.15 K] (no ice)", state);
  return 0;
}

/* Everything at (p, T, X), checked by the caller. */
static void fill(double p, double T, double X, ma_state *st) {
  double xs = x_sat(p, T), x = X / (1 - X);
  double Xv = x <= xs ? X : (1 - X) * xs, Xl = X - Xv;
  double dT = T - MA_T0, xv = Xv / (1 - X);
  st->p = p, st->T = T, st->X = X, st->Xv = Xv, st->Xl = Xl, st->x = x, st->x_sat = xs;
  st->phi = p * xv / (EPS + xv) / if97_psat_eq(T);
  if (st->phi > 1) st->phi = 1; /* rounding at saturation */
  st->h = (1 - X) * MA_CP_AIR * dT + Xv * (MA_H_EVAP + MA_CP_VAP * dT) + Xl * MA_CP_LIQ * dT;
  double RT = ((1 - X) * MA_R_AIR + Xv * MA_R_VAP) * T; /* p / rho; the fog's volume neglected */
  st->rho = p / RT;
  st->u = st->h - RT;
}

int ma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap) {
  char s[160];
  snprintf(s, sizeof s, "p = %.9g Pa, T = %.9g K, X = %.9g", p, T, X);
  if (check(p, T, X, s, why, cap)) return LIED_ERROR;
  fill(p, T, X, st);
  return 0;
}

/* The root of f(T) = target on [a, b], f increasing (bisection with false
 * position steps, Illinois). */
typedef double (*ma_fn)(double T, const double *args);
static double root(ma_fn f, const double *args, double target, double a, double b) {
  double fa = f(a, args) - target, fb = f(b, args) - target;
  int side = 0;
  for (int k = 0; k < 200 && b - a > 1e-13 * b; k++) {
    double c = (a * fb - b * fa) / (fb - fa);
    if (!(c > a && c < b)) c = 0.5 * (a + b);
    double fc = f(c, args) - target;
    if (fc == 0) return c;
    if (fc > 0) {
      b = c, fb = fc;
      if (side == -1) fa *= 0.5;
      side = -1;
    } else {
      a = c, fa = fc;
      if (side == 1) fb *= 0.5;
      side = 1;
    }
  }
  return 0.5 * (a + b);
}
static double h_of_T(double T, const double *a) { /* a = {p, X} */
  ma_state st;
  fill(a[0], T, a[1], &st);
  return st.h;
}

int ma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap) {
  char s[160];
  snprintf(s, sizeof s, "p = %.9g Pa, h = %.9g J/kg, X = %.9g", p, h, X);
  if (check(p, MA_TMIN, X, s, why, cap)) return LIED_ERROR;
  if (!isfinite(h)) return FAIL("moist air: %s: not a finite number", s);
  const double a[2] = {p, X};
  if (h < h_of_T(MA_TMIN, a)) return FAIL("moist air: %s: below 273.15 K (no ice)", s);
  if (h > h_of_T(MA_TMAX, a)) return FAIL("moist air: %s: above 623.15 K", s);
  /* all water as vapour, then the fog's share if that is supersaturated */
  double T = MA_T0 + (h - X * MA_H_EVAP) / ((1 - X) * MA_CP_AIR + X * MA_CP_VAP);
  if (!(T >= MA_TMIN && T <= MA_TMAX && X / (1 - X) <= x_sat(p, T)))
    T = root(h_of_T, a, h, MA_TMIN, MA_TMAX);
  fill(p, T, X, st);
  return 0;
}

/* u at (rho, T, X): p from the gas law with the vapour limited to saturation. */
static double u_of_T(double T, const double *a) { /* a = {rho, X} */
  double rho = a[0], X = a[1], ps = if97_psat_eq(T);
  double Xv = X;
  if (rho * X * MA_R_VAP * T > ps) Xv = ps / (rho * MA_R_VAP * T);
  double dT = T - MA_T0;
  return (1 - X) * (MA_CP_AIR * dT - MA_R_AIR * T) + Xv * (MA_H_EVAP + MA_CP_VAP * dT - MA_R_VAP * T) +
         (X - Xv) * MA_CP_LIQ * dT;
}

int ma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap) {
  char s[160];
  snprintf(s, sizeof s, "rho = %.9g kg/m3, u = %.9g J/kg, X = %.9g", rho, u, X);
  if (check(1, MA_TMIN, X, s, why, cap)) return LIED_ERROR;
  if (!isfinite(rho) || !isfinite(u)) return FAIL("moist air: %s: not a finite number", s);
  if (!(rho > 0)) return FAIL("moist air: %s: the density must be > 0", s);
  const double a[2] = {rho, X};
  if (u < u_of_T(MA_TMIN, a)) return FAIL("moist air: %s: below 273.15 K (no ice)", s);
  if (u > u_of_T(MA_TMAX, a)) return FAIL("moist air: %s: above 623.15 K", s);
  double T = root(u_of_T, a, u, MA_TMIN, MA_TMAX), ps = if97_psat_eq(T);
  double Xv = rho * X * MA_R_VAP * T > ps ? ps / (rho * MA_R_VAP * T) : X;
  double p = rho * T * ((1 - X) * MA_R_AIR + Xv * MA_R_VAP);
  fill(p, T, X, st);
  st->rho = rho; /* the given values, not their round trip */
  st->u = u;
  return 0;
}

int ma_Tdew(double p, double X, double *T, char *why, size_t cap) {
  char s[160];
  snprintf(s, sizeof s, "p = %.9g Pa, X = %.9g", p, X);
  if (check(p, MA_TMIN, X, s, why, cap)) return LIED_ERROR;
  double x = X / (1 - X), pv = p * x / (EPS + x);
  if (!(pv >= IF97_PTRIPLE))
    return FAIL("moist air: %s: the dew point is below 273.15 K (no ice)", s);
  if (!(pv <= IF97_PS13)) return FAIL("moist air: %s: the dew point is above 623.15 K", s);
  *T = if97_Tsat_eq(pv);
  return 0;
}

int ma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap) {
  char s[160];
  snprintf(s, sizeof s, "p = %.9g Pa, T = %.9g K, phi = %.9g", p, T, phi);
  if (check(p, T, 0, s, why, cap)) return LIED_ERROR;
  if (!(phi >= 0 && phi <= 1)) return FAIL("moist air: %s: phi must be in [0, 1]", s);
  double pv = phi * if97_psat_eq(T);
  if (!(pv < p)) return FAIL("moist air: %s: the vapour pressure reaches p", s);
  double x = EPS * pv / (p - pv);
  *X = x / (1 + x);
  return 0;
}
