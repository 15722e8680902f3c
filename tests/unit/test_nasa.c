/* test_nasa.c - the ideal gases of NASA polynomials (nasa.h, nasa_moist.h,
 * gas_media.c; docs/media.md "Ideal gases"):
 *  - the coefficient tables' own check values: each species' polynomial
 *    gives its enthalpy of formation at 298.15 K, and the two intervals
 *    join at 1000 K in cp, h and s (1e-8 relative);
 *  - NIST-JANAF tabulated values (Chase 1998, 4th ed., 0.1 MPa), 200 to
 *    1000 K: cp, S and H - H(298.15) within what the fits allow;
 *  - inverses T(h), T(s0), T(u) to the last bits over the range, NaN beyond;
 *  - the media of kinds 5 and 6 through their tables: laws, refusals, the
 *    lane forms bit for bit;
 *  - moist air: unsaturated and fogged states, round trips, saturation. */
#include <string.h>
#include "check.h"
#include "lib/thermofluid/gas_media.h"
#include "lib/thermofluid/nasa_moist.h"

static void species_mix(int i, nasa_mix *m) {
  double Y[NASA_NSP] = {0};
  Y[i] = 1;
  nasa_mix_init(m, Y);
}

/* h(298.15) including the enthalpy of formation is Hf; the intervals join. */
static void test_table_checks(void) {
  for (int i = 0; i < NASA_NSP; i++) {
    const nasa_species *s = &nasa_species_data[i];
    nasa_mix m;
    species_mix(i, &m);
    const double h298 = nasa_h(&m, NASA_T298) + s->Hf; /* nasa_h leaves Hf out */
    const double scale = fabs(s->Hf) > 0 ? fabs(s->Hf) : nasa_cp(&m, NASA_T298) * NASA_T298;
    CHECK(fabs(h298 - s->Hf) <= 1e-8 * scale);
    const double T = NASA_TMID, lnT = log(T);
    const double *lo = m.c[0], *hi = m.c[1];
    CHECK_NEAR(nasa_cp_c(lo, T) / nasa_cp_c(hi, T), 1, 1e-8);
    CHECK_NEAR(nasa_h_c(lo, T, lnT), nasa_h_c(hi, T, lnT), 1e-8 * (nasa_cp_c(hi, T) * T + fabs(s->Hf)));
    CHECK_NEAR(nasa_s0_c(lo, T, lnT) / nasa_s0_c(hi, T, lnT), 1, 1e-8);
  }
}

/* NIST-JANAF Thermochemical Tables, 4th ed. (Chase 1998), tables N-023
 * (N2), O-029 (O2), Ar-001 (Ar), C-095 (CO2), H-064 (H2O, ideal gas):
 * T [K], Cp and S [J/(mol K)], H - H(298.15) [kJ/mol]. */
typedef struct janaf_row { int sp; double T, cp, S, dH; } janaf_row;
static const janaf_row janaf[] = {
    {NASA_N2, 200, 29.107, 179.985, -2.857},   {NASA_N2, 298.15, 29.124, 191.609, 0},
    {NASA_N2, 500, 29.580, 206.739, 5.911},    {NASA_N2, 1000, 32.697, 228.170, 21.463},
    {NASA_O2, 200, 29.126, 193.485, -2.868},   {NASA_O2, 298.15, 29.376, 205.147, 0},
    {NASA_O2, 500, 31.091, 220.693, 6.084},    {NASA_O2, 1000, 34.870, 243.578, 22.703},
    {NASA_AR, 200, 20.786, 146.545, -2.040},   {NASA_AR, 298.15, 20.786, 154.845, 0},
    {NASA_AR, 500, 20.786, 165.591, 4.196},    {NASA_AR, 1000, 20.786, 179.999, 14.589},
    {NASA_CO2, 200, 32.359, 199.975, -3.414},  {NASA_CO2, 298.15, 37.129, 213.795, 0},
    {NASA_CO2, 500, 44.627, 234.901, 8.305},   {NASA_CO2, 1000, 54.308, 269.299, 33.397},
    {NASA_H2O, 200, 33.349, 175.485, -3.282},  {NASA_H2O, 298.15, 33.590, 188.834, 0},
    {NASA_H2O, 500, 35.226, 206.534, 6.925},   {NASA_H2O, 1000, 41.268, 232.738, 26.000},
};

static void test_janaf(void) {
  double wcp = 0, ws = 0, wh = 0;
  for (size_t k = 0; k < sizeof janaf / sizeof *janaf; k++) {
    const janaf_row *r = &janaf[k];
    nasa_mix m;
    species_mix(r->sp, &m);
    const double M = nasa_species_data[r->sp].MM;
    const double cp = nasa_cp(&m, r->T) * M, S = nasa_s0(&m, r->T) * M;
    const double dH = (nasa_h(&m, r->T) - nasa_h(&m, NASA_T298)) * M;
    wcp = fmax(wcp, fabs(cp / r->cp - 1));
    ws = fmax(ws, fabs(S / r->S - 1));
    wh = fmax(wh, fabs(dH - 1e3 * r->dH));
  }
  printf("JANAF, 200 to 1000 K: cp %.2e, S %.2e relative, H - H298 %.2f J/mol\n", wcp, ws, wh);
  CHECK(wcp < 1e-3); /* H2O at 1000 K: 5.6e-4 (the fits' sources differ) */
  CHECK(ws < 1e-4);
  CHECK(wh < 5);
}

/* The inverses give T back to a few ulp; beyond the range NaN. */
static void test_inverses(void) {
  nasa_mix air, air_h;
  nasa_mix_init(&air, nasa_dry_air_Y);
  CHECK_NEAR(NASA_RU / air.R, 0.02896477, 1e-8); /* the molar mass of dry air */
  nasa_mix_init_h(&air_h, nasa_dry_air_Y); /* the precomputed dry air: its bits */
  CHECK(memcmp(&air_h, tf_nasa_dry_air_h, sizeof air_h) == 0);
  double worst = 0, worst_s = 0;
  for (int i = 0; i <= NASA_NSP; i++) {
    nasa_mix m;
    if (i < NASA_NSP)
      species_mix(i, &m);
    else
      m = air;
    for (double T = NASA_TMIN; T <= NASA_TMAX; T *= 1.0137) {
      const double h = nasa_h(&m, T), s0 = nasa_s0(&m, T), u = h - m.R * T;
      worst = fmax(worst, fabs(nasa_T_h(&m, h) / T - 1));
      worst_s = fmax(worst_s, fabs(nasa_T_s0(&m, s0) / T - 1));
      worst = fmax(worst, fabs(nasa_T_u(&m, u) / T - 1));
    }
    CHECK(nasa_T_h(&m, nasa_h(&m, NASA_TMAX) + 1) != nasa_T_h(&m, nasa_h(&m, NASA_TMAX) + 1));
    CHECK(nasa_T_h(&m, nasa_h(&m, NASA_TMIN) - 1) != nasa_T_h(&m, nasa_h(&m, NASA_TMIN) - 1));
    CHECK(nasa_T_s0(&m, NAN) != nasa_T_s0(&m, NAN));
    CHECK(nasa_T_u(&m, INFINITY) != nasa_T_u(&m, INFINITY));
    CHECK(nasa_T_h(&m, nasa_h(&m, NASA_TMAX)) == NASA_TMAX);
  }
  printf("inverses: worst relative error %.2e (h, u), %.2e (s0)\n", worst, worst_s);
  CHECK(worst <= 2e-15);
  CHECK(worst_s <= 1e-14); /* ds0/dT = cp/T: the rounding of s0 weighs more */
}

/* Kind 5 through its table: the gas law, u = h - R T, refusals with the
 * state named; the lane form gives the scalar's bits. */
static void test_gas_medium(void) {
  const tf_medium *f = &tf_nasa_gas;
  const double *c = nasa_dry_air_Y;
  nasa_mix m;
  nasa_mix_init_h(&m, c);
  const double T = 812.5, p = 3e5, h = f->h(c, p, T);
  CHECK(h == nasa_h(&m, T));
  CHECK_NEAR(f->T(c, p, h), T, 1e-12);
  CHECK_NEAR(f->rho(c, p, h), p / (m.R * T), 1e-15);
  CHECK_NEAR(f->cp(c, p, h), nasa_cp(&m, T), 1e-12);
  double p2, h2;
  CHECK(f->from_rho_u(c, 1.3, h - m.R * T, &p2, &h2) == 0);
  CHECK_NEAR(p2, 1.3 * m.R * T, 1e-9 * p2);
  CHECK_NEAR(h2, h, 1e-9);
  char why[200];
  CHECK(f->check(c, why, sizeof why) == 0);
  const double bad[NASA_NSP] = {0.5, 0.4, 0, 0, 0};
  CHECK(f->check(bad, why, sizeof why) == -1 && strstr(why, "sum to 0.9"));
  const double neg[NASA_NSP] = {1, 0.5, -0.5, 0, 0};
  CHECK(f->check(neg, why, sizeof why) == -1 && strstr(why, "mass fraction of Ar = -0.5"));
  CHECK(f->check_pT(c, 1e5, 150, why, sizeof why) == -1 &&
        strstr(why, "p = 100000 Pa, T = 150 K: T is outside [200 K, 6000 K]"));
  CHECK(f->check_ph(c, 1e5, 1e9, why, sizeof why) == -1 && strstr(why, "h = 1e+09 J/kg"));
  CHECK(f->check_ph(c, -1, 1e5, why, sizeof why) == -1 && strstr(why, "p must be > 0"));
  CHECK(f->check_rho_u(c, 1, NAN, why, sizeof why) == -1 && strstr(why, "not a finite number"));
  CHECK(f->check_pT(c, 1e5, 300, why, sizeof why) == 0);
  CHECK(f->h(c, 1e5, 100) != f->h(c, 1e5, 100));
  /* lanes: 37 states, two compositions */
  double cl[NASA_NSP * 40], pl[40], hl[40], Tl[40];
  for (int l = 0; l < 37; l++) {
    for (int k = 0; k < NASA_NSP; k++)
      cl[k * 40 + l] = l % 2 ? c[k] : (k == NASA_CO2 ? 0.2 : k == NASA_N2 ? 0.8 : 0);
    pl[l] = 1e5 + l;
    hl[l] = -2e5 + 1.7e5 * l;
  }
  hl[36] = 1e10; /* out of range: NaN */
  f->T_lanes(cl, 40, 37, pl, hl, Tl);
  int same = 1;
  for (int l = 0; l < 37; l++) {
    double cc[NASA_NSP];
    for (int k = 0; k < NASA_NSP; k++) cc[k] = cl[k * 40 + l];
    const double t = f->T(cc, pl[l], hl[l]);
    same &= memcmp(&t, &Tl[l], sizeof t) == 0;
  }
  CHECK(same);
  CHECK(Tl[36] != Tl[36]);
}

/* Moist air: without fog the mixing rule of the two gases; with fog the
 * liquid's share; round trips through (p, h) and (rho, u); saturation. */
static void test_moist_air(void) {
  char why[200];
  ma_state st, b;
  nasa_mix air, w;
  static const double Yw[NASA_NSP] = {0, 0, 0, 0, 1};
  nasa_mix_init_h(&air, nasa_dry_air_Y);
  nasa_mix_init_h(&w, Yw);
  /* 30 degC, X = 0.01 at 1 bar: unsaturated */
  CHECK(nma_pTX(1e5, 303.15, 0.01, &st, why, sizeof why) == 0);
  CHECK(st.Xl == 0 && st.phi > 0 && st.phi < 1);
  CHECK_NEAR(st.h, 0.99 * nasa_h(&air, 303.15) + 0.01 * nasa_h(&w, 303.15), 1e-9);
  CHECK_NEAR(st.rho, 1e5 / ((0.99 * air.R + 0.01 * w.R) * 303.15), 1e-12);
  /* 15 degC, X = 0.03 at 1 bar: fog */
  CHECK(nma_pTX(1e5, 288.15, 0.03, &st, why, sizeof why) == 0);
  CHECK(st.Xl > 0 && fabs(st.phi - 1) < 1e-14);
  const double hl = nasa_h(&w, NMA_TTRIPLE) - NMA_H_EVAP + NMA_CP_LIQ * (288.15 - NMA_TTRIPLE);
  CHECK_NEAR(st.h, 0.97 * nasa_h(&air, 288.15) + st.Xv * nasa_h(&w, 288.15) + st.Xl * hl, 1e-8);
  CHECK_NEAR(st.Xv / (1 - st.X), st.x_sat, 1e-15);
  CHECK_NEAR(st.x_sat, air.R / w.R * nma_psat(288.15) / (1e5 - nma_psat(288.15)), 1e-15);
  /* round trips, with and without fog, warm and cold */
  const double Ts[] = {210, 250, 273.16, 288.15, 300, 350, 500, 1500}, Xs[] = {0, 1e-5, 0.01, 0.03};
  double worst = 0;
  for (size_t i = 0; i < sizeof Ts / sizeof *Ts; i++)
    for (size_t j = 0; j < sizeof Xs / sizeof *Xs; j++) {
      CHECK(nma_pTX(1e5, Ts[i], Xs[j], &st, why, sizeof why) == 0); /* (cold: ice) */
      CHECK(Ts[i] >= NMA_TTRIPLE || st.Xl == 0);
      CHECK(nma_phX(1e5, st.h, Xs[j], &b, why, sizeof why) == 0);
      worst = fmax(worst, fabs(b.T / Ts[i] - 1));
      CHECK(nma_rho_uX(st.rho, st.u, Xs[j], &b, why, sizeof why) == 0);
      worst = fmax(worst, fabs(b.T / Ts[i] - 1));
      worst = fmax(worst, fabs(b.p / 1e5 - 1));
    }
  printf("moist air round trips: worst %.2e\n", worst);
  CHECK(worst < 1e-12);
  /* saturation: X_phi at phi = 1 is saturated; the dew point is where phi = 1 */
  double X, Td;
  CHECK(nma_X_phi(1e5, 300, 1, &X, why, sizeof why) == 0);
  CHECK(nma_pTX(1e5, 300, X, &st, why, sizeof why) == 0 && fabs(st.phi - 1) < 1e-12 && st.Xl < 1e-15);
  CHECK(nma_Tdew(1e5, X, &Td, why, sizeof why) == 0 && fabs(Td - 300) < 1e-9);
  CHECK(nma_Tdew(1e5, 1e-4, &Td, why, sizeof why) == 0 && Td < NMA_TTRIPLE); /* a frost point */
  CHECK(nma_pTX(1e5, Td + 1e-9, 1e-4, &st, why, sizeof why) == 0 && fabs(st.phi - 1) < 1e-9);
  /* the saturation pressure is continuous at the triple point (IF97 and R14-08) */
  CHECK_NEAR(nma_psat(NMA_TTRIPLE - 1e-9) / nma_psat(NMA_TTRIPLE), 1, 1e-5);
  CHECK(nma_psat(700) == HUGE_VAL);
  /* refusals name the state */
  CHECK(nma_pTX(1e5, 100, 0, &st, why, sizeof why) && strstr(why, "T is outside [200 K, 6000 K]"));
  CHECK(nma_pTX(1e5, 300, 1, &st, why, sizeof why) && strstr(why, "X must be in [0, 1)"));
  CHECK(nma_phX(1e5, -5e5, 0, &st, why, sizeof why) && strstr(why, "below 200 K"));
  CHECK(nma_phX(1e5, -5e5, 0.01, &st, why, sizeof why) && strstr(why, "below 200 K"));
  CHECK(nma_phX(1e5, 1e10, 0.01, &st, why, sizeof why) && strstr(why, "above 6000 K"));
  CHECK(nma_pTX(1e5, 199, 0.01, &st, why, sizeof why) && strstr(why, "T is outside [200 K, 6000 K]"));
  /* the medium's lane form gives its scalar's bits */
  double p[20], h[20], Xl[20], T[20];
  for (int l = 0; l < 20; l++) p[l] = 1e5, h[l] = -3e4 + 1.1e4 * l, Xl[l] = 0.002 * l;
  tf_nasa_moist_air.T_lanes(Xl, 20, 20, p, h, T);
  int same = 1;
  for (int l = 0; l < 20; l++) {
    const double c[1] = {Xl[l]}, t = tf_nasa_moist_air.T(c, p[l], h[l]);
    same &= memcmp(&t, &T[l], sizeof t) == 0;
  }
  CHECK(same);
}

int main(void) {
  test_table_checks();
  test_janaf();
  test_inverses();
  test_gas_medium();
  test_moist_air();
  return CHECK_DONE();
}
