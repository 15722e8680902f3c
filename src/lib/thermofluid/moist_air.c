/* moist_air.c - moist air (moist_air.h): dry air and water vapour as ideal
 * gases, fog above saturation, psat from IAPWS-IF97. */
#include <math.h>
#include <stdio.h>
#include "lied/status.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/if97_coef.h"
#include "lib/thermofluid/moist_air.h"

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), LIED_ERROR)
#define EPS MA_EPS /* water per dry air at p_v = p - p_v */

/* The saturation humidity ratio at (p, T); HUGE_VAL when the water would
 * boil (psat(T) >= p: no saturation). */
static inline double x_sat(double p, double T) {
  const double ps = if97_psat_of(T), xs = EPS * ps / (p - ps); /* both, then choose: */
  return ps >= p ? HUGE_VAL : xs; /* no branch in loops over states */
}

/* The enthalpy at (p, T, X): water above saturation as liquid. */
static inline double h_at(double p, double T, double X) {
  double xs = x_sat(p, T), x = X / (1 - X);
  double Xv = x <= xs ? X : (1 - X) * xs, Xl = X - Xv, dT = T - MA_T0;
  return (1 - X) * MA_CP_AIR * dT + Xv * (MA_H_EVAP + MA_CP_VAP * dT) + Xl * MA_CP_LIQ * dT;
}

/* The reason (p, T, X) is no state, or NULL. The callers name the state
 * only when there is one: formatting it on every call cost more than the
 * property itself. */
static const char *bad(double p, double T, double X) {
  if (!isfinite(p) || !isfinite(T) || !isfinite(X)) return "not a finite number";
  if (!(p > 0)) return "p must be > 0";
  if (!(X >= 0 && X < 1)) return "the water fraction X must be in [0, 1)";
  if (!(T >= MA_TMIN && T <= MA_TMAX)) return "T is outside [273.15 K, 623.15 K] (no ice)";
  return NULL;
}

/* Everything at (p, T, X), checked by the caller. */
static void fill(double p, double T, double X, ma_state *st) {
  double xs = x_sat(p, T), x = X / (1 - X);
  double Xv = x <= xs ? X : (1 - X) * xs, Xl = X - Xv;
  double xv = Xv / (1 - X);
  st->p = p, st->T = T, st->X = X, st->Xv = Xv, st->Xl = Xl, st->x = x, st->x_sat = xs;
  st->phi = p * xv / (EPS + xv) / if97_psat_eq(T);
  if (st->phi > 1) st->phi = 1; /* rounding at saturation */
  st->h = h_at(p, T, X);
  double RT = ((1 - X) * MA_R_AIR + Xv * MA_R_VAP) * T; /* p / rho; the fog's volume neglected */
  st->rho = p / RT;
  st->u = st->h - RT;
}

#define FAIL_PTX(r) FAIL("moist air: p = %.9g Pa, T = %.9g K, X = %.9g: %s", p, T, X, r)
int ma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, T, X);
  if (r) return FAIL_PTX(r);
  fill(p, T, X, st);
  return 0;
}

/* How far an energy may lie beyond its value at an end of the range and be
 * that end (rounding: a state made at 273.15 K by ma_pTX was refused as
 * below it; issue 47): 1e-12 relative, about 1e-10 K. if97_root() returns
 * the end for a target just beyond it. */
static double end_tol(double e) { return 1e-12 * fmax(fabs(e), 1e5); }

static double h_of_T(double T, const void *ctx) { /* ctx: {p, X} */
  const double *a = ctx;
  return h_at(a[0], T, a[1]);
}

#define FAIL_PHX(r) FAIL("moist air: p = %.9g Pa, h = %.9g J/kg, X = %.9g: %s", p, h, X, r)
int ma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, MA_TMIN, X);
  if (r) return FAIL_PHX(r);
  if (!isfinite(h)) return FAIL_PHX("not a finite number");
  const double a[2] = {p, X};
  if (h < h_of_T(MA_TMIN, a) - end_tol(h)) return FAIL_PHX("below 273.15 K (no ice)");
  if (h > h_of_T(MA_TMAX, a) + end_tol(h)) return FAIL_PHX("above 623.15 K");
  /* all water as vapour, then the fog's share if that is supersaturated */
  double T = MA_T0 + (h - X * MA_H_EVAP) / ((1 - X) * MA_CP_AIR + X * MA_CP_VAP);
  if (!(T >= MA_TMIN && T <= MA_TMAX && X / (1 - X) <= x_sat(p, T)))
    T = if97_root(h_of_T, a, h, MA_TMIN, MA_TMAX, 1e-15);
  fill(p, T, X, st);
  return 0;
}

/* u at (rho, T, X): p from the gas law with the vapour limited to saturation. */
static double u_of_T(double T, const void *ctx) { /* ctx: {rho, X} */
  const double *a = ctx;
  double rho = a[0], X = a[1], ps = if97_psat_eq(T);
  double Xv = X;
  if (rho * X * MA_R_VAP * T > ps) Xv = ps / (rho * MA_R_VAP * T);
  double dT = T - MA_T0;
  return (1 - X) * (MA_CP_AIR * dT - MA_R_AIR * T) + Xv * (MA_H_EVAP + MA_CP_VAP * dT - MA_R_VAP * T) +
         (X - Xv) * MA_CP_LIQ * dT;
}

#define FAIL_RUX(r) FAIL("moist air: rho = %.9g kg/m3, u = %.9g J/kg, X = %.9g: %s", rho, u, X, r)
int ma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(1, MA_TMIN, X);
  if (r) return FAIL_RUX(r);
  if (!isfinite(rho) || !isfinite(u)) return FAIL_RUX("not a finite number");
  if (!(rho > 0)) return FAIL_RUX("the density must be > 0");
  const double a[2] = {rho, X};
  if (u < u_of_T(MA_TMIN, a) - end_tol(u)) return FAIL_RUX("below 273.15 K (no ice)");
  if (u > u_of_T(MA_TMAX, a) + end_tol(u)) return FAIL_RUX("above 623.15 K");
  double T = if97_root(u_of_T, a, u, MA_TMIN, MA_TMAX, 1e-13), ps = if97_psat_eq(T);
  double Xv = rho * X * MA_R_VAP * T > ps ? ps / (rho * MA_R_VAP * T) : X;
  double p = rho * T * ((1 - X) * MA_R_AIR + Xv * MA_R_VAP);
  fill(p, T, X, st);
  st->rho = rho; /* the given values, not their round trip */
  st->u = u;
  return 0;
}

#define FAIL_PX(r) FAIL("moist air: p = %.9g Pa, X = %.9g: %s", p, X, r)
int ma_Tdew(double p, double X, double *T, char *why, size_t cap) {
  const char *r = bad(p, MA_TMIN, X);
  if (r) return FAIL_PX(r);
  double x = X / (1 - X), pv = p * x / (EPS + x);
  if (!(pv >= IF97_PTRIPLE)) return FAIL_PX("the dew point is below 273.15 K (no ice)");
  if (!(pv <= IF97_PS13)) return FAIL_PX("the dew point is above 623.15 K");
  *T = if97_Tsat_eq(pv);
  return 0;
}

#define FAIL_PTPHI(r) FAIL("moist air: p = %.9g Pa, T = %.9g K, phi = %.9g: %s", p, T, phi, r)
int ma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap) {
  const char *r = bad(p, T, 0);
  if (r) return FAIL_PTPHI(r);
  if (!(phi >= 0 && phi <= 1)) return FAIL_PTPHI("phi must be in [0, 1]");
  double pv = phi * if97_psat_eq(T);
  if (!(pv < p)) return FAIL_PTPHI("the vapour pressure reaches p");
  double x = EPS * pv / (p - pv);
  *X = x / (1 + x);
  return 0;
}

/* ma_phX's T for n states at once: where the water is all vapour at the
 * explicit T, at least 0.01 K inside the range, ma_phX returns that T (its
 * range tests pass: h(T) increases with T by at least 1000 J/(kg K), so h
 * lies 10 J/kg inside h(273.15 K) .. h(623.15 K), far beyond rounding);
 * the others (fog: T by if97_root()) go through ma_phX. A lane form of the fog's
 * root finder (each state through root's iterations in lockstep) was tried:
 * more instructions than state by state, as its loop does not vectorise
 * (sqrt sets errno in ISO C mode). The same bits; NaN where ma_phX fails. */
void ma_T_phX_lanes(size_t n, const double *p, const double *h, const double *X, double *T) {
  for (size_t l = 0; l < n; l++) {
    const double pl = p[l], hl = h[l], Xl = X[l];
    if (isfinite(pl) && isfinite(hl) && isfinite(Xl) && pl > 0 && Xl >= 0 && Xl < 1) {
      const double t = MA_T0 + (hl - Xl * MA_H_EVAP) / ((1 - Xl) * MA_CP_AIR + Xl * MA_CP_VAP);
      if (t >= MA_TMIN + 0.01 && t <= MA_TMAX - 0.01 && Xl / (1 - Xl) <= x_sat(pl, t)) {
        T[l] = t;
        continue;
      }
    }
    char why[8];
    ma_state st;
    T[l] = ma_phX(pl, hl, Xl, &st, why, sizeof why) ? NAN : st.T;
  }
}
