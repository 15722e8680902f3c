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

double nma_psat(double T) {
  if (T > IF97_TC) return HUGE_VAL;
  return T >= NMA_TTRIPLE ? if97_psat_of(T) : ma_psubl(T);
}

/* The saturation humidity ratio; HUGE_VAL where the water cannot condense. */
static double x_sat(const gases *g, double p, double T) {
  const double ps = nma_psat(T);
  return ps >= p ? HUGE_VAL : g->eps * ps / (p - ps);
}

/* The condensate's share that is ice at T: all below the triple point,
 * none above it; at it the caller says. */
static inline double ice_at(double T) { return T < NMA_TTRIPLE ? 1.0 : 0.0; }

/* Vapour, liquid and ice parts of X at (p, T), the condensate's fraction
 * `ice` as ice. */
static void split(const gases *g, double p, double T, double X, double ice, double *Xv,
                  double *Xl, double *Xi) {
  const double xs = x_sat(g, p, T);
  *Xv = X / (1 - X) <= xs ? X : (1 - X) * xs;
  *Xi = (X - *Xv) * ice;
  *Xl = X - *Xv - *Xi;
}

static double h_liq(const gases *g, double T) {
  return g->h_liq0 + NMA_CP_LIQ * (T - NMA_TTRIPLE);
}

static double h_ice(const gases *g, double T) { return g->h_liq0 + ma_dh_ice(T); }

static double h_at(const gases *g, double p, double T, double X, double ice) {
  double Xv, Xl, Xi;
  split(g, p, T, X, ice, &Xv, &Xl, &Xi);
  return (1 - X) * nasa_h(&g->air, T) + Xv * nasa_h(&g->w, T) + Xl * h_liq(g, T) +
         Xi * h_ice(g, T);
}

/* The reason (p, T, X) is no state, or NULL. */
static const char *bad(double p, double T, double X) {
  if (!isfinite(p) || !isfinite(T) || !isfinite(X)) return "not a finite number";
  if (!(p > 0)) return "p must be > 0";
  if (!(X >= 0 && X < 1)) return "the water fraction X must be in [0, 1)";
  if (!nasa_T_ok(T)) return "T is outside [200 K, 6000 K]";
  return NULL;
}

/* Everything at (p, T, X), the condensate's fraction `ice` as ice, range
 * checked by the caller. */
static void fill(const gases *g, double p, double T, double X, double ice, ma_state *st) {
  double Xv, Xl, Xi;
  split(g, p, T, X, ice, &Xv, &Xl, &Xi);
  const double xv = Xv / (1 - X), ps = nma_psat(T);
  st->p = p, st->T = T, st->X = X, st->Xv = Xv, st->Xl = Xl, st->Xi = Xi, st->x = X / (1 - X);
  st->x_sat = x_sat(g, p, T);
  st->phi = ps == HUGE_VAL ? 0 : p * xv / (g->eps + xv) / ps;
  if (st->phi > 1) st->phi = 1; /* rounding at saturation */
  st->h = (1 - X) * nasa_h(&g->air, T) + Xv * nasa_h(&g->w, T) + Xl * h_liq(g, T) +
          Xi * h_ice(g, T);
  const double RT = ((1 - X) * g->air.R + Xv * g->w.R) * T; /* the condensate's volume neglected */
  st->rho = p / RT;
  st->u = st->h - RT;
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

double nma_h_ice(double T) {
  gases g;
  gases_init(&g);
  return h_ice(&g, T);
}

#define FAIL_PTX(r) FAIL("moist air (NASA): p = %.9g Pa, T = %.9g K, X = %.9g: %s", p, T, X, r)
int nma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap) {
  const char *r = bad(p, T, X);
  if (r) return FAIL_PTX(r);
  gases g;
  gases_init(&g);
  fill(&g, p, T, X, ice_at(T), st);
  return 0;
}

/* The fog's temperature: the root of f(T) = y above lo (the all-vapour
 * temperature or the triple point) up to the critical temperature; lo
 * itself when f(lo) exceeds y by rounding only; NaN otherwise. */
static double fog_T(if97_root_fn f, const void *c, double y, double lo, double scale) {
  const double flo = f(lo, c);
  if (flo >= y) return flo - y <= 1e-13 * scale ? lo : NAN;
  return if97_root(f, c, y, lo, IF97_TC, 1e-13);
}

typedef struct at_ctx {
  const gases *g;
  double a, X; /* p (h_at) or rho (u_at) */
  double ice;  /* the condensate's fraction as ice */
} at_ctx;

/* The state whose energy f(T) (h at p or u at rho: f's context c) is y
 * where the all-vapour state (at lo, the all-vapour temperature, or 200 K
 * when that is below) is not one: with fog above the triple point, with
 * liquid and ice at it (the melting enthalpy spans f(T_triple, liquid) -
 * f(T_triple, ice)), with ice below it. NULL with T and the condensate's
 * ice fraction, or the reason. */
static const char *condensed_T(if97_root_fn f, const at_ctx *c, double y, double lo,
                               double scale, double *T, double *ice) {
  at_ctx liq = *c, frz = *c;
  liq.ice = 0, frz.ice = 1;
  const double yL = f(NMA_TTRIPLE, &liq), yI = f(NMA_TTRIPLE, &frz);
  if (y >= yL) {
    *T = fog_T(f, &liq, y, lo > NMA_TTRIPLE ? lo : NMA_TTRIPLE, scale), *ice = 0;
    return *T == *T ? NULL : "no state with fog"; /* (not met: f(lo) <= y by construction) */
  }
  if (y > yI) { /* on the triple point: liquid and ice */
    *T = NMA_TTRIPLE, *ice = (yL - y) / (yL - yI);
    return NULL;
  }
  if (y < f(NASA_TMIN, &frz) - 1e-13 * scale) return "below 200 K";
  *T = if97_root(f, &frz, y, NASA_TMIN, NMA_TTRIPLE, 1e-13), *ice = 1;
  return NULL;
}

static double h_of_T(double T, const void *ctx) {
  const at_ctx *c = ctx;
  return h_at(c->g, c->a, T, c->X, c->ice);
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
  double T = nasa_T_h(&m, h), ice;
  const int below = !(T == T) && h < nasa_h(&m, NASA_TMIN);
  if (!(T == T) && !below) return FAIL_PHX("above 6000 K");
  if (!below && X / (1 - X) <= x_sat(&g, p, T)) { /* all vapour */
    fill(&g, p, T, X, ice_at(T), st);
    return 0;
  }
  const at_ctx c = {&g, p, X, 0};
  r = condensed_T(h_of_T, &c, h, below ? NASA_TMIN : T, fabs(h) + 1e6, &T, &ice);
  if (r) return FAIL_PHX(r);
  fill(&g, p, T, X, ice, st);
  return 0;
}

/* u at (rho, T, X): the vapour limited by saturation at its partial pressure. */
static double u_of_T(double T, const void *ctx) {
  const at_ctx *c = ctx;
  const double rho = c->a, X = c->X, ps = nma_psat(T), Rw = c->g->w.R;
  const double Xv = rho * X * Rw * T > ps ? ps / (rho * Rw * T) : X, Xi = (X - Xv) * c->ice;
  return (1 - X) * (nasa_h(&c->g->air, T) - c->g->air.R * T) +
         Xv * (nasa_h(&c->g->w, T) - Rw * T) + (X - Xv - Xi) * h_liq(c->g, T) +
         Xi * h_ice(c->g, T);
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
  double T = nasa_T_u(&m, u), ice = 0;
  const int below = !(T == T) && u < nasa_h(&m, NASA_TMIN) - m.R * NASA_TMIN;
  if (!(T == T) && !below) return FAIL_RUX("above 6000 K");
  if (below || rho * X * g.w.R * T > nma_psat(T)) { /* condensate */
    const at_ctx c = {&g, rho, X, 0};
    r = condensed_T(u_of_T, &c, u, below ? NASA_TMIN : T, fabs(u) + 1e6, &T, &ice);
    if (r) return FAIL_RUX(r);
  } else {
    ice = ice_at(T);
  }
  const double ps = nma_psat(T);
  const double Xv = rho * X * g.w.R * T > ps ? ps / (rho * g.w.R * T) : X;
  const double p = rho * T * ((1 - X) * g.air.R + Xv * g.w.R);
  fill(&g, p, T, X, ice, st);
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

#define FAIL_PX(r) FAIL("moist air (NASA): p = %.9g Pa, X = %.9g: %s", p, X, r)
int nma_Tdew(double p, double X, double *T, char *why, size_t cap) {
  const char *r = bad(p, NASA_T298, X);
  if (r) return FAIL_PX(r);
  gases g;
  gases_init(&g);
  const double x = X / (1 - X), pv = p * x / (g.eps + x);
  if (pv >= nma_psat(NMA_TTRIPLE)) { /* over liquid water */
    if (!(pv <= IF97_PC)) return FAIL_PX("the vapour pressure is above the critical pressure");
    *T = if97_Tsat_eq(pv);
    return 0;
  }
  *T = ma_frost_point(pv);
  if (!(*T == *T)) return FAIL_PX("the frost point is below 200 K");
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
