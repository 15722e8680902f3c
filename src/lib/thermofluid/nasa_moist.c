/* nasa_moist.c - moist air on the NASA basis (nasa_moist.h). */
#include <math.h>
#include <stdio.h>
#include "lied/status.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/if97_coef.h"
#include "lib/thermofluid/nasa_moist.h"
#include "lib/thermofluid/gas_media.h"

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), LIED_ERROR)

/* The two gases of a call: dry air and water vapour. */
typedef struct gases {
  nasa_mix air, w;
  double eps; /* molar mass of water over that of dry air */
  double h_liq0; /* the liquid's enthalpy at the triple point */
} gases;

static void gases_init(gases *g) {
  static const double Yw[NASA_NSP] = {0, 0, 0, 0, 1};
  g->air = *tf_nasa_dry_air_h;
  nasa_mix_init_h(&g->w, Yw);
  g->eps = g->air.R / g->w.R;
  g->h_liq0 = nasa_h(&g->w, NMA_TTRIPLE) - NMA_H_EVAP;
}

/* IAPWS R14-08 (2011), Eq. 6: the sublimation pressure of ice Ih. */
static double p_subl(double T) {
  const double th = T / NMA_TTRIPLE;
  const double s = -0.212144006e2 * pow(th, 0.333333333e-2) +
                   0.273203819e2 * pow(th, 0.120666667e1) -
                   0.610598130e1 * pow(th, 0.170333333e1);
  return NMA_PTRIPLE * exp(s / th);
}

double nma_psat(double T) {
  if (T > IF97_TC) return HUGE_VAL;
  return T >= NMA_TTRIPLE ? if97_psat_of(T) : p_subl(T);
}

/* The saturation humidity ratio; HUGE_VAL where the water cannot condense. */
static double x_sat(const gases *g, double p, double T) {
  const double ps = nma_psat(T);
  return ps >= p ? HUGE_VAL : g->eps * ps / (p - ps);
}

/* Vapour and liquid parts of X at (p, T). */
static void split(const gases *g, double p, double T, double X, double *Xv, double *Xl) {
  const double xs = x_sat(g, p, T);
  *Xv = X / (1 - X) <= xs ? X : (1 - X) * xs;
  *Xl = X - *Xv;
}

static double h_liq(const gases *g, double T) {
  return g->h_liq0 + NMA_CP_LIQ * (T - NMA_TTRIPLE);
}

static double h_at(const gases *g, double p, double T, double X) {
  double Xv, Xl;
  split(g, p, T, X, &Xv, &Xl);
  return (1 - X) * nasa_h(&g->air, T) + Xv * nasa_h(&g->w, T) + Xl * h_liq(g, T);
}

/* The reason (p, T, X) is no state, or NULL. */
static const char *bad(double p, double T, double X) {
  if (!isfinite(p) || !isfinite(T) || !isfinite(X)) return "not a finite number";
  if (!(p > 0)) return "p must be > 0";
  if (!(X >= 0 && X < 1)) return "the water fraction X must be in [0, 1)";
  if (!nasa_T_ok(T)) return "T is outside [200 K, 6000 K]";
  return NULL;
}

/* Everything at (p, T, X), range checked by the caller; the reason when the
 * water would be ice, else NULL. */
static const char *fill(const gases *g, double p, double T, double X, ma_state *st) {
  double Xv, Xl;
  split(g, p, T, X, &Xv, &Xl);
  if (Xl > 0 && T < NMA_TTRIPLE) return "condensate below the triple point (no ice)";
  const double xv = Xv / (1 - X), ps = nma_psat(T);
  st->p = p, st->T = T, st->X = X, st->Xv = Xv, st->Xl = Xl, st->x = X / (1 - X);
  st->x_sat = x_sat(g, p, T);
  st->phi = ps == HUGE_VAL ? 0 : p * xv / (g->eps + xv) / ps;
  if (st->phi > 1) st->phi = 1; /* rounding at saturation */
  st->h = (1 - X) * nasa_h(&g->air, T) + Xv * nasa_h(&g->w, T) + Xl * h_liq(g, T);
  const double RT = ((1 - X) * g->air.R + Xv * g->w.R) * T; /* the fog's volume neglected */
  st->rho = p / RT;
  st->u = st->h - RT;
  return NULL;
}

/* The gas with all the water vapour (with_s: with its entropies). */
static void all_vapour(double X, nasa_mix *m, int with_s) {
  double Y[NASA_NSP];
  for (int i = 0; i < NASA_NSP; i++) Y[i] = (1 - X) * nasa_dry_air_Y[i];
  Y[NASA_H2O] += X;
  if (with_s)
    nasa_mix_init(m, Y);
  else
    nasa_mix_init_h(m, Y);
}

void nma_gas(double X, nasa_mix *m) { all_vapour(X, m, 1); }

double nma_h_liq(double T) {
  gases g;
  gases_init(&g);
  return h_liq(&g, T);
}

#define FAIL_PTX(r) FAIL("moist air (NASA): p = %.9g Pa, T = %.9g K, X = %.9g: %s", p, T, X, r)
int nma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, T, X);
  if (r) return FAIL_PTX(r);
  gases g;
  gases_init(&g);
  r = fill(&g, p, T, X, st);
  return r ? FAIL_PTX(r) : 0;
}

/* The fog's temperature: the root of f(T) = y above lo (the all-vapour
 * temperature or the triple point) up to the critical temperature; lo
 * itself when f(lo) exceeds y by rounding only; NaN when the water would
 * have to freeze. */
static double fog_T(if97_root_fn f, const void *c, double y, double lo, double scale) {
  const double flo = f(lo, c);
  if (flo >= y) return flo - y <= 1e-13 * scale ? lo : NAN;
  return if97_root(f, c, y, lo, IF97_TC, 1e-13);
}

typedef struct at_ctx {
  const gases *g;
  double a, X; /* p (h_at) or rho (u_at) */
} at_ctx;

static double h_of_T(double T, const void *ctx) {
  const at_ctx *c = ctx;
  return h_at(c->g, c->a, T, c->X);
}

#define FAIL_PHX(r) FAIL("moist air (NASA): p = %.9g Pa, h = %.9g J/kg, X = %.9g: %s", p, h, X, r)
int nma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, NASA_T298, X);
  if (r) return FAIL_PHX(r);
  if (!isfinite(h)) return FAIL_PHX("not a finite number");
  gases g;
  gases_init(&g);
  nasa_mix m;
  all_vapour(X, &m, 0);
  double T = nasa_T_h(&m, h);
  const int below = !(T == T) && h < nasa_h(&m, NASA_TMIN);
  if (!(T == T) && !below) return FAIL_PHX("above 6000 K");
  if (below) T = NASA_TMIN; /* fog may yet bring it into the range */
  if (X / (1 - X) > x_sat(&g, p, T)) { /* fog: warmer than all vapour would be */
    const at_ctx c = {&g, p, X};
    T = fog_T(h_of_T, &c, h, T > NMA_TTRIPLE ? T : NMA_TTRIPLE, fabs(h) + 1e6);
    if (!(T == T)) return FAIL_PHX("condensate below the triple point (no ice)");
  } else if (below) {
    return FAIL_PHX("below 200 K");
  }
  r = fill(&g, p, T, X, st);
  return r ? FAIL_PHX(r) : 0;
}

/* u at (rho, T, X): the vapour limited by saturation at its partial pressure. */
static double u_of_T(double T, const void *ctx) {
  const at_ctx *c = ctx;
  const double rho = c->a, X = c->X, ps = nma_psat(T), Rw = c->g->w.R;
  const double Xv = rho * X * Rw * T > ps ? ps / (rho * Rw * T) : X;
  return (1 - X) * (nasa_h(&c->g->air, T) - c->g->air.R * T) +
         Xv * (nasa_h(&c->g->w, T) - Rw * T) + (X - Xv) * h_liq(c->g, T);
}

#define FAIL_RUX(r) FAIL("moist air (NASA): rho = %.9g kg/m3, u = %.9g J/kg, X = %.9g: %s", rho, u, X, r)
int nma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(1, NASA_T298, X);
  if (r) return FAIL_RUX(r);
  if (!isfinite(rho) || !isfinite(u)) return FAIL_RUX("not a finite number");
  if (!(rho > 0)) return FAIL_RUX("the density must be > 0");
  gases g;
  gases_init(&g);
  nasa_mix m;
  all_vapour(X, &m, 0);
  double T = nasa_T_u(&m, u);
  const int below = !(T == T) && u < nasa_h(&m, NASA_TMIN) - m.R * NASA_TMIN;
  if (!(T == T) && !below) return FAIL_RUX("above 6000 K");
  if (below) T = NASA_TMIN; /* fog may yet bring it into the range */
  const at_ctx c = {&g, rho, X};
  if (rho * X * g.w.R * T > nma_psat(T)) { /* fog */
    T = fog_T(u_of_T, &c, u, T > NMA_TTRIPLE ? T : NMA_TTRIPLE, fabs(u) + 1e6);
    if (!(T == T)) return FAIL_RUX("condensate below the triple point (no ice)");
  } else if (below) {
    return FAIL_RUX("below 200 K");
  }
  const double ps = nma_psat(T);
  const double Xv = rho * X * g.w.R * T > ps ? ps / (rho * g.w.R * T) : X;
  const double p = rho * T * ((1 - X) * g.air.R + Xv * g.w.R);
  r = fill(&g, p, T, X, st);
  if (r) return FAIL_RUX(r);
  st->rho = rho; /* the given values, not their round trip */
  st->u = u;
  return 0;
}

void nma_T_phX_lanes(size_t n, const double *p, const double *h, const double *X, double *T) {
  for (size_t l = 0; l < n; l++) {
    char why[8];
    ma_state st;
    T[l] = nma_phX(p[l], h[l], X[l], &st, why, sizeof why) ? NAN : st.T;
  }
}

static double psubl_of_T(double T, const void *ctx) {
  (void)ctx;
  return p_subl(T);
}

#define FAIL_PX(r) FAIL("moist air (NASA): p = %.9g Pa, X = %.9g: %s", p, X, r)
int nma_Tdew(double p, double X, double *T, char *why, size_t cap) {
  const char *r = bad(p, NASA_T298, X);
  if (r) return FAIL_PX(r);
  gases g;
  gases_init(&g);
  const double x = X / (1 - X), pv = p * x / (g.eps + x);
  if (pv >= NMA_PTRIPLE) { /* over liquid water */
    if (!(pv <= IF97_PC)) return FAIL_PX("the vapour pressure is above the critical pressure");
    *T = if97_Tsat_eq(pv);
    return 0;
  }
  if (!(pv >= p_subl(NASA_TMIN))) return FAIL_PX("the frost point is below 200 K");
  *T = if97_root(psubl_of_T, NULL, pv, NASA_TMIN, NMA_TTRIPLE, 1e-13); /* the frost point */
  return 0;
}

#define FAIL_PTPHI(r) FAIL("moist air (NASA): p = %.9g Pa, T = %.9g K, phi = %.9g: %s", p, T, phi, r)
int nma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap) {
  const char *r = bad(p, T, 0);
  if (r) return FAIL_PTPHI(r);
  if (!(phi >= 0 && phi <= 1)) return FAIL_PTPHI("phi must be in [0, 1]");
  if (T > IF97_TC) return FAIL_PTPHI("no saturation above the critical temperature");
  gases g;
  gases_init(&g);
  const double pv = phi * nma_psat(T);
  if (!(pv < p)) return FAIL_PTPHI("the vapour pressure reaches p");
  const double x = g.eps * pv / (p - pv);
  *X = x / (1 + x);
  return 0;
}
