/* moist_air.c - moist air (moist_air.h): dry air and water vapour as ideal
 * gases, condensate above saturation (liquid above the triple point, ice
 * below it, both at it), psat from IAPWS-IF97 over liquid water and from
 * IAPWS R14-08 over ice. */
#include <math.h>
#include <stdio.h>
#include "lied/status.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/if97_coef.h"
#include "lib/thermofluid/moist_air.h"

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), LIED_ERROR)
#define EPS MA_EPS /* water per dry air at p_v = p - p_v */

/* IAPWS R14-08 (Revised Release on the Pressure along the Melting and
 * Sublimation Curves of Ordinary Water Substance, 2011), Eq. 6. */
double ma_psubl(double T) {
  const double th = T / MA_TTRIPLE;
  const double s = -0.212144006e2 * pow(th, 0.333333333e-2) +
                   0.273203819e2 * pow(th, 0.120666667e1) -
                   0.610598130e1 * pow(th, 0.170333333e1);
  return MA_PTRIPLE * exp(s / th);
}

/* The saturation pressure: over liquid water from the triple point up (IF97
 * there gives 611.6570000107 Pa, R14-08 611.657 Pa: they join to 2e-11),
 * over ice below it. */
static inline double psat(double T) { return T >= MA_TTRIPLE ? if97_psat_of(T) : ma_psubl(T); }

/* The saturation humidity ratio at (p, T); HUGE_VAL when the water would
 * boil (psat(T) >= p: no saturation). */
static inline double x_sat(double p, double T) {
  const double ps = psat(T), xs = EPS * ps / (p - ps); /* both, then choose: */
  return ps >= p ? HUGE_VAL : xs; /* no branch in loops over states */
}

/* The condensate's share that is ice at T: all below the triple point,
 * none above it; at it the caller says (the triple point's states). */
static inline double ice_at(double T) { return T < MA_TTRIPLE ? 1.0 : 0.0; }

/* Vapour, liquid and ice of X at (p, T), the condensate's fraction `ice` as ice. */
static inline void split(double p, double T, double X, double ice, double *Xv, double *Xl,
                         double *Xi) {
  const double xs = x_sat(p, T), x = X / (1 - X);
  *Xv = x <= xs ? X : (1 - X) * xs;
  *Xi = (X - *Xv) * ice;
  *Xl = X - *Xv - *Xi;
}

/* The enthalpy at (p, T, X): water above saturation as condensate. */
static inline double h_at(double p, double T, double X, double ice) {
  double Xv, Xl, Xi;
  split(p, T, X, ice, &Xv, &Xl, &Xi);
  const double dT = T - MA_T0;
  return (1 - X) * MA_CP_AIR * dT + Xv * (MA_H_EVAP + MA_CP_VAP * dT) + Xl * MA_CP_LIQ * dT +
         Xi * ma_h_ice(T);
}

/* The reason (p, T, X) is no state, or NULL. The callers name the state
 * only when there is one: formatting it on every call cost more than the
 * property itself. */
static const char *bad(double p, double T, double X) {
  if (!isfinite(p) || !isfinite(T) || !isfinite(X)) return "not a finite number";
  if (!(p > 0)) return "p must be > 0";
  if (!(X >= 0 && X < 1)) return "the water fraction X must be in [0, 1)";
  if (!(T >= MA_TMIN && T <= MA_TMAX)) return "T is outside [200 K, 623.15 K]";
  return NULL;
}

/* Everything at (p, T, X) with the condensate's fraction `ice` as ice,
 * checked by the caller. */
static void fill(double p, double T, double X, double ice, ma_state *st) {
  double Xv, Xl, Xi;
  split(p, T, X, ice, &Xv, &Xl, &Xi);
  const double xv = Xv / (1 - X);
  st->p = p, st->T = T, st->X = X, st->Xv = Xv, st->Xl = Xl, st->Xi = Xi, st->x = X / (1 - X);
  st->x_sat = x_sat(p, T);
  st->phi = p * xv / (EPS + xv) / psat(T);
  if (st->phi > 1) st->phi = 1; /* rounding at saturation */
  st->h = h_at(p, T, X, ice);
  double RT = ((1 - X) * MA_R_AIR + Xv * MA_R_VAP) * T; /* p / rho; the condensate's volume neglected */
  st->rho = p / RT;
  st->u = st->h - RT;
}

#define FAIL_PTX(r) FAIL("moist air: p = %.9g Pa, T = %.9g K, X = %.9g: %s", p, T, X, r)
int ma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, T, X);
  if (r) return FAIL_PTX(r);
  fill(p, T, X, ice_at(T), st);
  return 0;
}

/* How far an energy may lie beyond its value at an end of the range and be
 * that end (rounding: a state made at the lowest T by ma_pTX was refused as
 * below it; issue 47): 1e-12 relative, about 1e-10 K. if97_root() returns
 * the end for a target just beyond it. */
static double end_tol(double e) { return 1e-12 * fmax(fabs(e), 1e5); }

static double h_of_T(double T, const void *ctx) { /* ctx: {p, X, ice} */
  const double *a = ctx;
  return h_at(a[0], T, a[1], a[2]);
}

/* The state whose energy e(T) (h at p, or u at rho: f with its context
 * {p or rho, X, ice}) is e, where the all-vapour state is not one: with
 * liquid above the triple point, with liquid and ice at it (the melting
 * enthalpy spans e(T_triple, liquid) - e(T_triple, ice)), with ice below it.
 * Returns 0 with T and the condensate's ice fraction, or the reason. */
static const char *condensed_T(if97_root_fn f, double a0, double X, double e, double rtol,
                               double *T, double *ice) {
  const double liq[3] = {a0, X, 0}, frozen[3] = {a0, X, 1};
  const double eL = f(MA_TTRIPLE, liq), eI = f(MA_TTRIPLE, frozen);
  if (e >= eL) {
    if (e > f(MA_TMAX, liq) + end_tol(e)) return "above 623.15 K";
    *T = if97_root(f, liq, e, MA_TTRIPLE, MA_TMAX, rtol), *ice = 0;
  } else if (e > eI) { /* on the triple point: liquid and ice */
    *T = MA_TTRIPLE, *ice = (eL - e) / (eL - eI);
  } else {
    if (e < f(MA_TMIN, frozen) - end_tol(e)) return "below 200 K";
    *T = if97_root(f, frozen, e, MA_TMIN, MA_TTRIPLE, rtol), *ice = 1;
  }
  return NULL;
}

#define FAIL_PHX(r) FAIL("moist air: p = %.9g Pa, h = %.9g J/kg, X = %.9g: %s", p, h, X, r)
int ma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, MA_TMIN, X);
  if (r) return FAIL_PHX(r);
  if (!isfinite(h)) return FAIL_PHX("not a finite number");
  /* all water as vapour: the state where that is not supersaturated */
  double T = MA_T0 + (h - X * MA_H_EVAP) / ((1 - X) * MA_CP_AIR + X * MA_CP_VAP), ice;
  if (T >= MA_TMIN && T <= MA_TMAX && X / (1 - X) <= x_sat(p, T)) {
    fill(p, T, X, ice_at(T), st);
    return 0;
  }
  r = condensed_T(h_of_T, p, X, h, 1e-15, &T, &ice);
  if (r) return FAIL_PHX(r);
  fill(p, T, X, ice, st);
  return 0;
}

/* u at (rho, T, X): p from the gas law with the vapour limited to saturation. */
static double u_of_T(double T, const void *ctx) { /* ctx: {rho, X, ice} */
  const double *a = ctx;
  double rho = a[0], X = a[1], ps = psat(T);
  double Xv = X;
  if (rho * X * MA_R_VAP * T > ps) Xv = ps / (rho * MA_R_VAP * T);
  double dT = T - MA_T0, Xi = (X - Xv) * a[2];
  return (1 - X) * (MA_CP_AIR * dT - MA_R_AIR * T) + Xv * (MA_H_EVAP + MA_CP_VAP * dT - MA_R_VAP * T) +
         (X - Xv - Xi) * MA_CP_LIQ * dT + Xi * ma_h_ice(T);
}

#define FAIL_RUX(r) FAIL("moist air: rho = %.9g kg/m3, u = %.9g J/kg, X = %.9g: %s", rho, u, X, r)
int ma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(1, MA_TMIN, X);
  if (r) return FAIL_RUX(r);
  if (!isfinite(rho) || !isfinite(u)) return FAIL_RUX("not a finite number");
  if (!(rho > 0)) return FAIL_RUX("the density must be > 0");
  double T, ice;
  r = condensed_T(u_of_T, rho, X, u, 1e-13, &T, &ice);
  if (r) return FAIL_RUX(r);
  const double ps = psat(T);
  double Xv = rho * X * MA_R_VAP * T > ps ? ps / (rho * MA_R_VAP * T) : X;
  double p = rho * T * ((1 - X) * MA_R_AIR + Xv * MA_R_VAP);
  fill(p, T, X, ice, st);
  st->rho = rho; /* the given values, not their round trip */
  st->u = u;
  return 0;
}

static double psubl_of_T(double T, const void *ctx) {
  (void)ctx;
  return ma_psubl(T);
}

/* The frost point: where the sublimation pressure is pv (pv below the
 * triple point's pressure); NaN below 200 K (beyond rounding: air saturated
 * at 200 K has its frost point there). */
double ma_frost_point(double pv) {
  if (!(pv >= ma_psubl(MA_TMIN) * (1 - 1e-12))) return NAN;
  return if97_root(psubl_of_T, NULL, pv, MA_TMIN, MA_TTRIPLE, 1e-13);
}

#define FAIL_PX(r) FAIL("moist air: p = %.9g Pa, X = %.9g: %s", p, X, r)
int ma_Tdew(double p, double X, double *T, char *why, size_t cap) {
  const char *r = bad(p, MA_TMIN, X);
  if (r) return FAIL_PX(r);
  double x = X / (1 - X), pv = p * x / (EPS + x);
  if (!(pv <= IF97_PS13)) return FAIL_PX("the dew point is above 623.15 K");
  if (pv >= psat(MA_TTRIPLE)) { /* over liquid water */
    *T = if97_Tsat_eq(pv);
    return 0;
  }
  *T = ma_frost_point(pv);
  if (!(*T == *T)) return FAIL_PX("the frost point is below 200 K");
  return 0;
}

#define FAIL_PTPHI(r) FAIL("moist air: p = %.9g Pa, T = %.9g K, phi = %.9g: %s", p, T, phi, r)
int ma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap) {
  const char *r = bad(p, T, 0);
  if (r) return FAIL_PTPHI(r);
  if (!(phi >= 0 && phi <= 1)) return FAIL_PTPHI("phi must be in [0, 1]");
  double pv = phi * psat(T);
  if (!(pv < p)) return FAIL_PTPHI("the vapour pressure reaches p");
  double x = EPS * pv / (p - pv);
  *X = x / (1 + x);
  return 0;
}

/* ma_phX's T for n states at once: where the water is all vapour at the
 * explicit T, at least 0.01 K inside the range, ma_phX returns that T (its
 * first test); the others (condensate: T by if97_root()) go through
 * ma_phX. A lane form of the fog's root finder (each state through root's
 * iterations in lockstep) was tried: more instructions than state by
 * state, as its loop does not vectorise (sqrt sets errno in ISO C mode).
 * The same bits; NaN where ma_phX fails. */
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
