/* gas_media.c - the media on the NASA basis as tables of functions
 * (thermofluid.h, tf_medium): kind 5, an ideal-gas mixture of fixed
 * composition (nasa.h); kind 6, moist air (nasa_moist.h). Outside their
 * ranges the laws return NaN and the check functions name the state, as
 * for water and steam. */
#include <stdio.h>
#include "lib/thermofluid/gas_media.h"
#include "lib/thermofluid/nasa_moist.h"

/* ---- kind 5: c = mass fractions of N2, O2, Ar, CO2, H2O ---- */

/* nasa_mix_init_h of standard dry air, its bits written out (as hexadecimal
 * floats, tests/unit/test_nasa.c compares them with the call): tf.air, the
 * medium most streams carry, then needs no mixing in every property call
 * (a quarter of the instructions of examples/simple_air_cycle.lua before). */
static const nasa_mix dry_air = {
    0x1.1f0e563a4a22ap+8,
    {{0x1.61e61526b82f1p+21, -0x1.b96aa85a9e9cbp+15, 0x1.677b3d92dc227p+10, -0x1.a75e922b81252p+0,
      0x1.916b0de46318dp-9, -0x1.31eed07373188p-19, 0x1.58dcf53d17cb8p-31, -0x1.6a9f560a4af29p+15,
      -0x1.421f4bc4cc1c7p+10},
     {0x1.087bc608c557cp+26, -0x1.60a09f52ee357p+18, 0x1.7132bbe515f95p+10, -0x1.f6e9baa337cb3p-5,
      0x1.54468c2248d87p-16, -0x1.a6bee41f592c2p-29, 0x1.a932de264b8fap-43, 0x1.c5f6216da2d77p+20,
      -0x1.38b2a56215529p+11}}};
const nasa_mix *tf_nasa_dry_air_h = &dry_air;

/* The mixture of the constants c (without its entropy of mixing). */
static inline void mix_of(nasa_mix *m, const double *c) {
  int air = 1;
  for (int k = 0; k < NASA_NSP; k++) air &= c[k] == nasa_dry_air_Y[k];
  if (air)
    *m = dry_air;
  else
    nasa_mix_init_h(m, c);
}

static inline double range_T(double T) { return nasa_T_ok(T) ? T : NAN; }

static double gas_rho(const double *c, double p, double h) {
  nasa_mix m;
  mix_of(&m, c);
  return p / (m.R * nasa_T_h(&m, h));
}
static double gas_T(const double *c, double p, double h) {
  (void)p;
  nasa_mix m;
  mix_of(&m, c);
  return nasa_T_h(&m, h);
}
static double gas_h(const double *c, double p, double T) {
  (void)p;
  nasa_mix m;
  mix_of(&m, c);
  return nasa_h(&m, range_T(T));
}
static double gas_cp(const double *c, double p, double h) {
  (void)p;
  nasa_mix m;
  mix_of(&m, c);
  return nasa_cp(&m, nasa_T_h(&m, h));
}
static int gas_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  nasa_mix m;
  mix_of(&m, c);
  const double T = nasa_T_u(&m, u);
  *p = rho * m.R * T;
  *h = u + m.R * T;
  return 0;
}
static void gas_T_lanes(const double *c, size_t cs, size_t n, const double *p, const double *h,
                        double *T) {
  for (size_t l = 0; l < n; l++) {
    double cl[NASA_NSP];
    for (int k = 0; k < NASA_NSP; k++) cl[k] = c[k * cs + l];
    T[l] = gas_T(cl, p[l], h[l]);
  }
}
static int gas_check(const double *c, char *why, size_t cap) {
  double sum = 0;
  for (int k = 0; k < NASA_NSP; k++) {
    if (!(c[k] >= 0 && c[k] <= 1))
      return snprintf(why, cap, "ideal gas: the mass fraction of %s = %g must be in [0, 1]",
                      nasa_species_data[k].name, c[k]), -1;
    sum += c[k];
  }
  if (!(fabs(sum - 1) <= 1e-9))
    return snprintf(why, cap, "ideal gas: the mass fractions sum to %.12g, not 1", sum), -1;
  return 0;
}
/* The reason a state is none, into why, or 0: (a, b) the arguments (a, p or
 * rho, must be > 0: positive names it), T the temperature they gave. */
static int gas_bad(const char *what, const char *positive, double a, double b, double T,
                   char *why, size_t cap) {
  const char *r = !isfinite(a) || !isfinite(b) ? "not a finite number"
                  : !(a > 0)                   ? positive
                  : T == T                     ? NULL
                                               : "T is outside [200 K, 6000 K]";
  if (!r) return 0;
  snprintf(why, cap, "ideal gas (NASA): %s: %s", what, r);
  return -1;
}
static int gas_check_pT(const double *c, double p, double T, char *why, size_t cap) {
  (void)c;
  char what[96];
  snprintf(what, sizeof what, "p = %.9g Pa, T = %.9g K", p, T);
  return gas_bad(what, "p must be > 0", p, T, range_T(T), why, cap);
}
static int gas_check_ph(const double *c, double p, double h, char *why, size_t cap) {
  char what[96];
  snprintf(what, sizeof what, "p = %.9g Pa, h = %.9g J/kg", p, h);
  return gas_bad(what, "p must be > 0", p, h, gas_T(c, p, h), why, cap);
}
static int gas_check_rho_u(const double *c, double rho, double u, char *why, size_t cap) {
  char what[96];
  nasa_mix m;
  mix_of(&m, c);
  snprintf(what, sizeof what, "rho = %.9g kg/m3, u = %.9g J/kg", rho, u);
  return gas_bad(what, "the density must be > 0", rho, u, nasa_T_u(&m, u), why, cap);
}

const tf_medium tf_nasa_gas = {"ideal gas (NASA polynomials)", gas_rho, gas_T, gas_h, gas_cp,
                               gas_from_rho_u, gas_check, gas_check_pT, NULL, gas_check_ph,
                               gas_check_rho_u, gas_T_lanes, 0, 0, "ideal_gas", TF_NASA_GAS, 5,
                               .T_of_h = 1};
TF_MEDIUM(tf_nasa_gas)

/* ---- kind 6: moist air, c = {X} ---- */

static double nma_rho(const double *c, double p, double h) {
  char why[8];
  ma_state st;
  return nma_phX(p, h, c[0], &st, why, sizeof why) ? NAN : st.rho;
}
static double nma_T(const double *c, double p, double h) {
  char why[8];
  ma_state st;
  return nma_phX(p, h, c[0], &st, why, sizeof why) ? NAN : st.T;
}
static double nma_h(const double *c, double p, double T) {
  char why[8];
  ma_state st;
  return nma_pTX(p, T, c[0], &st, why, sizeof why) ? NAN : st.h;
}
/* dh/dT at constant p: the gas's cp without condensate, a central
 * difference with (across the triple point it holds the melting enthalpy). */
static double nma_cp(const double *c, double p, double h) {
  char why[8];
  ma_state st, a, b;
  if (nma_phX(p, h, c[0], &st, why, sizeof why)) return NAN;
  if (st.Xl == 0 && st.Xi == 0) {
    nasa_mix m;
    double Y[NASA_NSP];
    for (int i = 0; i < NASA_NSP; i++) Y[i] = (1 - c[0]) * nasa_dry_air_Y[i];
    Y[NASA_H2O] += c[0];
    nasa_mix_init_h(&m, Y);
    return nasa_cp(&m, st.T);
  }
  const double d = 1e-3;
  if (nma_pTX(p, st.T - d, c[0], &a, why, sizeof why) ||
      nma_pTX(p, st.T + d, c[0], &b, why, sizeof why))
    return NAN;
  return (b.h - a.h) / (2 * d);
}
static int nma_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  char why[8];
  ma_state st;
  if (nma_rho_uX(rho, u, c[0], &st, why, sizeof why)) {
    *p = *h = NAN;
    return 0;
  }
  *p = st.p, *h = st.h;
  return 0;
}
static int nma_check(const double *c, char *why, size_t cap) {
  if (!(c[0] >= 0 && c[0] < 1))
    return snprintf(why, cap, "moist air water fraction X = %g must be in [0, 1)", c[0]), -1;
  return 0;
}
static int nma_check_pT(const double *c, double p, double T, char *why, size_t cap) {
  ma_state st;
  return nma_pTX(p, T, c[0], &st, why, cap) ? -1 : 0;
}
static int nma_check_ph(const double *c, double p, double h, char *why, size_t cap) {
  ma_state st;
  return nma_phX(p, h, c[0], &st, why, cap) ? -1 : 0;
}
static int nma_check_rho_u(const double *c, double rho, double u, char *why, size_t cap) {
  ma_state st;
  return nma_rho_uX(rho, u, c[0], &st, why, cap) ? -1 : 0;
}
static void nma_T_lanes(const double *c, size_t cs, size_t n, const double *p, const double *h,
                        double *T) {
  (void)cs;
  nma_T_phX_lanes(n, p, h, c, T); /* X = c[0], lane l at c[l] */
}

const tf_medium tf_nasa_moist_air = {"moist air (NASA polynomials)", nma_rho, nma_T, nma_h, nma_cp,
                                     nma_from_rho_u, nma_check, nma_check_pT, NULL, nma_check_ph,
                                     nma_check_rho_u, nma_T_lanes, 1, 0, "moist_air_nasa",
                                     TF_NASA_MOIST_AIR, 1};
TF_MEDIUM(tf_nasa_moist_air)

/* ---- gases for turbomachines ---- */

int tf_gas_of(const tf_med *med, double X, tf_gas_model *g) {
  const int kind = (int)med->par[0];
  g->nasa = 0, g->cp = g->R = 0;
  if (kind == TF_GAS) {
    g->R = med->par[1], g->cp = med->par[2];
    return 0;
  }
  if (kind == TF_NASA_GAS) {
    g->nasa = 1;
    nasa_mix_init(&g->m, med->par + 1);
    return 0;
  }
  if (kind == TF_NASA_MOIST_AIR) {
    g->nasa = 1;
    nma_gas(X, &g->m);
    return 0;
  }
  return -1;
}
double tf_gas_T(const tf_gas_model *g, double h) { return g->nasa ? nasa_T_h(&g->m, h) : h / g->cp; }
double tf_gas_h(const tf_gas_model *g, double T) {
  return g->nasa ? nasa_h(&g->m, range_T(T)) : g->cp * T;
}
/* tf.gas: s = cp ln(T / 298.15) - R ln(p / p0), as the NASA gases' zero. */
double tf_gas_s(const tf_gas_model *g, double p, double T) {
  if (g->nasa) return nasa_s(&g->m, range_T(T), p);
  return g->cp * log(T / NASA_T298) - g->R * log(p / NASA_P0);
}
double tf_gas_T_ps(const tf_gas_model *g, double p, double s) {
  if (g->nasa) return nasa_T_s0(&g->m, s + g->m.R * log(p / NASA_P0));
  return NASA_T298 * exp((s + g->R * log(p / NASA_P0)) / g->cp);
}
