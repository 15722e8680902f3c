/* test_moist_ice.c - ice in both moist-air models (tf.moist_air of
 * moist_air.h, tf.moist_air_nasa of nasa_moist.h; docs/media.md, "Ice"):
 *  - the ice law against an independent implementation of the IAPWS
 *    releases (python3-iapws: R14-08's sublimation pressure, R10-06's
 *    enthalpy and cp of ice; tests/validation/data/ice_gen.py);
 *  - tf.moist_air against the psychrometric tables of the ASHRAE Handbook
 *    - Fundamentals (2017), ch. 1, Tables 2 and 3, as PsychroLib's tests
 *    transcribe them: saturation over ice, its humidity ratio and enthalpy;
 *  - closed-form enthalpies of states with ice, written here from the
 *    models' definitions;
 *  - the triple point: (p, h) and (rho, u) between the all-liquid and the
 *    all-ice enthalpy give T = 273.16 K with the ice fraction of the lever
 *    rule; h(T) joins both ends of that span;
 *  - T(h) and the condensate across 0 degC: monotone and continuous;
 *  - round trips (p, T) -> h, (rho, u) -> (p, T) across 0 degC; frost points. */
#include <string.h>
#include "check.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"
#include "lib/thermofluid/nasa_moist.h"

/* T [K], p_subl [Pa], h_ice - h_liquid(triple point) [J/kg], cp_ice [J/(kg K)]:
 * python3-iapws 1.5 (tests/validation/data/ice_gen.py), IAPWS R14-08 and
 * R10-06 at (T, 611.657 Pa). */
static const double iapws_ice[][4] = {
    {200.0, 0.1626040176091974, -467356.8941696635, 1568.3706008441945},
    {210.0, 0.7017273459130502, -451321.2434602935, 1638.8751186453594},
    {230.0, 8.947352740189151, -417118.41343730385, 1781.8050413362726},
    {250.0, 76.01266951024671, -380034.9835997319, 1926.8452840749997},
    {253.15, 103.23902900209002, -373929.202868513, 1949.8473632048672},
    {263.15, 259.8738107980631, -354064.6961697668, 2023.1132956958081},
    {270.0, 470.0618775737923, -340033.8986441137, 2073.4945365257836},
    {273.15, 611.1534750567027, -333465.83322125504, 2096.7105686725713},
    {273.16, 611.657, -333444.86574683076, 2096.7843162163344},
};

static void test_ice_law(void) {
  double worst_p = 0, worst_h = 0, worst_cp = 0;
  for (size_t i = 0; i < sizeof iapws_ice / sizeof *iapws_ice; i++) {
    const double *r = iapws_ice[i], T = r[0], d = 1e-4;
    worst_p = fmax(worst_p, fabs(ma_psubl(T) / r[1] - 1));
    worst_h = fmax(worst_h, fabs(ma_dh_ice(T) - r[2]));
    const double cp = (ma_dh_ice(T + d) - ma_dh_ice(T - d)) / (2 * d);
    worst_cp = fmax(worst_cp, fabs(cp / r[3] - 1));
  }
  printf("ice against IAPWS R14-08 / R10-06: p_subl %.2e relative, h %.1f J/kg, cp %.2e relative\n",
         worst_p, worst_h, worst_cp);
  CHECK(worst_p < 1e-12);
  CHECK(worst_h < 70);     /* the linear cp's fit: 63 J/kg over 200 .. 273.16 K */
  CHECK(worst_cp < 2.5e-3); /* and 0.22 % in cp */
  CHECK_NEAR(ma_dh_ice(MA_TTRIPLE), iapws_ice[8][2], 1e-3); /* the melting enthalpy */
}

/* ASHRAE Handbook - Fundamentals (2017), ch. 1: Table 3 (saturation
 * pressure over ice) and Table 2 (humidity ratio and enthalpy per kg of
 * dry air of saturated air at 101.325 kPa). The tables are of real moist
 * air (the enhancement factor, about 1.004, raises the humidity ratio);
 * the model is the ideal-gas mixture of the handbook's own perfect-gas
 * relations, which the handbook says are within 0.7 % (-50 to 50 degC). */
static void test_ashrae(void) {
  static const double table3[][3] = {{-60, 1.08, 0.01}, {-20, 103.24, 0.03}, {-5, 401.74, 0.12}};
  for (int i = 0; i < 3; i++)
    CHECK_NEAR(ma_psubl(273.15 + table3[i][0]), table3[i][1], table3[i][2]);
  static const double table2[][3] = {{-50, 0.0000243, -50222}, {-20, 0.0006373, -18542},
                                     {-5, 0.0024863, 1164}};
  char why[200];
  for (int i = 0; i < 3; i++) {
    ma_state st;
    double X;
    const double T = 273.15 + table2[i][0];
    CHECK(ma_X_phi(101325, T, 1, &X, why, sizeof why) == 0);
    CHECK(ma_pTX(101325, T, X, &st, why, sizeof why) == 0);
    CHECK(st.Xi == 0 && st.Xl == 0 && fabs(st.phi - 1) < 1e-12);
    CHECK_NEAR(st.x / table2[i][1], 1, 7e-3);          /* the enhancement factor */
    CHECK_NEAR(st.h / (1 - X), table2[i][2], 35);       /* its share of the latent heat */
    printf("ASHRAE Table 2 at %g degC: humidity ratio %.3e relative, h %.1f J/kg\n", table2[i][0],
           st.x / table2[i][1] - 1, st.h / (1 - X) - table2[i][2]);
  }
}

/* A model: its calls and, written here from its definition, the enthalpy
 * of dry air, vapour, liquid and ice at T, and the ratio of the gas
 * constants R_air / R_vapour. */
typedef struct model {
  const char *name;
  int (*pTX)(double, double, double, ma_state *, char *, size_t);
  int (*phX)(double, double, double, ma_state *, char *, size_t);
  int (*rho_uX)(double, double, double, ma_state *, char *, size_t);
  int (*Tdew)(double, double, double *, char *, size_t);
  int (*X_phi)(double, double, double, double *, char *, size_t);
  double (*h_air)(double), (*h_vap)(double), (*h_liq)(double);
  double eps;
} model;

/* Ice: the liquid's enthalpy at the triple point, less the melting
 * enthalpy, plus the integral of cp = 2096.784 + 7.2686 (T - 273.16). */
static double ice_of(const model *m, double T) {
  const double d = T - 273.16;
  return m->h_liq(273.16) - 333444.866 + 2096.784 * d + 7.2686 / 2 * d * d;
}

static double ashrae_air(double T) { return 1006 * (T - 273.15); }
static double ashrae_vap(double T) { return 2501e3 + 1860 * (T - 273.15); }
static double ashrae_liq(double T) { return 4186 * (T - 273.15); }

static nasa_mix nasa_air, nasa_water;
static double nasa_air_h(double T) { return nasa_h(&nasa_air, T); }
static double nasa_vap_h(double T) { return nasa_h(&nasa_water, T); }
static double nasa_liq_h(double T) { return nasa_vap_h(273.16) - 2500.92e3 + 4186 * (T - 273.16); }

/* Below the triple point, supersaturated air holds its excess as ice:
 * Xv = (1 - X) eps ps/(p - ps), Xi = X - Xv, and h by the definitions. */
static void test_closed_form(const model *m) {
  const double Ts[] = {210, 240, 255, 265, 270, 273.15}, ps[] = {3e4, 101325};
  char why[200];
  double worst = 0;
  for (size_t i = 0; i < sizeof Ts / sizeof *Ts; i++)
    for (size_t j = 0; j < 2; j++) {
      const double T = Ts[i], p = ps[j], X = 0.03, s = ma_psubl(T);
      const double Xv = (1 - X) * m->eps * s / (p - s), Xi = X - Xv;
      const double h = (1 - X) * m->h_air(T) + Xv * m->h_vap(T) + Xi * ice_of(m, T);
      ma_state st;
      CHECK(m->pTX(p, T, X, &st, why, sizeof why) == 0);
      CHECK(st.Xl == 0);
      CHECK_NEAR(st.Xi, Xi, 1e-15);
      worst = fmax(worst, fabs(st.h - h) / (fabs(h) + 1e3));
      CHECK_NEAR(st.phi, 1, 1e-12);
    }
  printf("%s: states with ice against their closed form: %.2e\n", m->name, worst);
  CHECK(worst < 1e-12);
}

/* On the triple point: T = 273.16 K for h between the all-ice and the
 * all-liquid enthalpy, the ice by the lever rule; (rho, u) alike. */
static void test_triple_point(const model *m, double p, double X) {
  char why[200];
  ma_state L, s, b, c;
  CHECK(m->pTX(p, MA_TTRIPLE, X, &L, why, sizeof why) == 0); /* liquid at T = 273.16 K */
  CHECK(L.Xl > 0 && L.Xi == 0);
  const double Xc = L.Xl, hL = L.h, hI = hL - Xc * 333444.866;
  for (int k = 0; k <= 8; k++) {
    const double f = k / 8.0, h = hI + f * (hL - hI);
    CHECK(m->phX(p, h, X, &s, why, sizeof why) == 0);
    CHECK(s.T == MA_TTRIPLE);
    CHECK_NEAR(s.Xi, (1 - f) * Xc, 1e-12 * Xc);
    CHECK_NEAR(s.Xl, f * Xc, 1e-12 * Xc);
    CHECK_NEAR(s.Xv + s.Xl + s.Xi, X, 1e-17);
    CHECK_NEAR(s.h, h, 1e-9);
    CHECK(m->rho_uX(s.rho, s.u, X, &b, why, sizeof why) == 0);
    CHECK_NEAR(b.T, MA_TTRIPLE, 1e-12 * MA_TTRIPLE); /* (u of all liquid rounds above its end) */
    CHECK_NEAR(b.Xi, s.Xi, 1e-10 * Xc);
    CHECK_NEAR(b.p, p, 1e-9 * p);
  }
  /* h(T) joins both ends of the span */
  CHECK(m->pTX(p, MA_TTRIPLE - 1e-9, X, &c, why, sizeof why) == 0);
  CHECK(c.Xl == 0 && c.Xi > 0);
  CHECK_NEAR(c.h, hI, 1e-4);
  CHECK(m->pTX(p, MA_TTRIPLE + 1e-9, X, &c, why, sizeof why) == 0);
  CHECK_NEAR(c.h, hL, 1e-4);
}

/* T(h) from 250 K to 290 K: monotone, continuous, the condensate moving
 * by at most dh over the melting enthalpy. */
static void test_sweep(const model *m, double p, double X) {
  char why[200];
  ma_state a, b;
  CHECK(m->pTX(p, 250, X, &a, why, sizeof why) == 0);
  CHECK(m->pTX(p, 290, X, &b, why, sizeof why) == 0);
  const double h0 = a.h, h1 = b.h;
  const int n = 20000;
  int ok = 1, plateau = 0;
  ma_state prev = a;
  for (int k = 1; k <= n; k++) {
    const double h = h0 + (h1 - h0) * k / n, dh = (h1 - h0) / n;
    ma_state s;
    if (m->phX(p, h, X, &s, why, sizeof why)) {
      ok = 0;
      break;
    }
    plateau += s.T == MA_TTRIPLE;
    ok &= s.T >= prev.T && s.T - prev.T <= dh / 900 + 1e-12;
    ok &= fabs(s.Xi - prev.Xi) <= dh / 333444 + 1e-15 && fabs(s.Xl - prev.Xl) <= dh / 333444 + 1e-15;
    ok &= fabs(s.Xv + s.Xl + s.Xi - X) <= 1e-17;
    prev = s;
  }
  CHECK(ok);
  CHECK(plateau > 10); /* steps landed on the triple point */
  CHECK_NEAR(prev.T, 290, 1e-9);
}

/* (p, T) -> h -> T and (p, T) -> (rho, u) -> (p, T) across 0 degC. */
static void test_round_trips(const model *m) {
  char why[200];
  const double ps[] = {2e4, 101325, 3e5}, Xs[] = {0, 1e-4, 2e-3, 0.01, 0.03};
  double worst = 0;
  int n = 0, bad = 0;
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 5; j++)
      for (int k = -1; k <= 140; k++) {
        const double T = k < 0 ? MA_TTRIPLE - 1e-10 : k == 0 ? MA_TTRIPLE + 1e-10 : 250 + 0.37 * k;
        ma_state a, b, c;
        if (m->pTX(ps[i], T, Xs[j], &a, why, sizeof why)) {
          bad++;
          continue;
        }
        n++;
        /* the condensate as liquid or ice as at T (its amount to the rounding of T) */
        if (m->phX(ps[i], a.h, Xs[j], &b, why, sizeof why) || (b.Xl > 0) != (a.Xl > 0) ||
            (b.Xi > 0) != (a.Xi > 0) || fabs(b.Xl + b.Xi - a.Xl - a.Xi) > 1e-9 * Xs[j])
          bad++;
        worst = fmax(worst, fabs(b.T / T - 1));
        if (m->rho_uX(a.rho, a.u, Xs[j], &c, why, sizeof why)) {
          bad++;
          continue;
        }
        worst = fmax(worst, fmax(fabs(c.T / T - 1), fabs(c.p / ps[i] - 1)));
      }
  printf("%s: %d round trips across 0 degC, worst %.2e\n", m->name, n, worst);
  CHECK(bad == 0);
  CHECK(worst < 1e-11);
}

/* Frost points: air saturated over ice at T has its frost point at T;
 * relative humidity over ice. */
static void test_frost(const model *m) {
  char why[200];
  const double Ts[] = {205, 230, 250, 265, 273.1};
  for (size_t i = 0; i < sizeof Ts / sizeof *Ts; i++) {
    double X, Td;
    ma_state st;
    CHECK(m->X_phi(8e4, Ts[i], 1, &X, why, sizeof why) == 0);
    CHECK(m->Tdew(8e4, X, &Td, why, sizeof why) == 0);
    CHECK_NEAR(Td, Ts[i], 1e-9);
    CHECK(m->X_phi(8e4, Ts[i], 0.5, &X, why, sizeof why) == 0);
    CHECK(m->pTX(8e4, Ts[i], X, &st, why, sizeof why) == 0);
    CHECK_NEAR(st.phi, 0.5, 1e-12);
    CHECK_NEAR(st.x, m->eps * 0.5 * ma_psubl(Ts[i]) / (8e4 - 0.5 * ma_psubl(Ts[i])), 1e-15);
  }
  double Td;
  CHECK(m->Tdew(1e5, 1e-9, &Td, why, sizeof why) && strstr(why, "the frost point is below 200 K"));
}

static void test_model(const model *m) {
  test_closed_form(m);
  test_triple_point(m, 101325, 0.01);
  test_triple_point(m, 5e4, 0.012);
  test_sweep(m, 101325, 0.01);
  test_sweep(m, 3e5, 0.02);
  test_round_trips(m);
  test_frost(m);
  char why[200];
  ma_state st;
  CHECK(m->phX(1e5, -1e6, 0.01, &st, why, sizeof why) && strstr(why, "below 200 K"));
}

int main(void) {
  static const double Yw[NASA_NSP] = {0, 0, 0, 0, 1};
  nasa_mix_init_h(&nasa_air, nasa_dry_air_Y);
  nasa_mix_init_h(&nasa_water, Yw);
  test_ice_law();
  test_ashrae();
  const model ashrae = {"tf.moist_air", ma_pTX, ma_phX, ma_rho_uX, ma_Tdew, ma_X_phi,
                        ashrae_air, ashrae_vap, ashrae_liq, 0.621945};
  const model nasa = {"tf.moist_air_nasa", nma_pTX, nma_phX, nma_rho_uX, nma_Tdew, nma_X_phi,
                      nasa_air_h, nasa_vap_h, nasa_liq_h, nasa_air.R / nasa_water.R};
  test_model(&ashrae);
  test_model(&nasa);
  return CHECK_DONE();
}
