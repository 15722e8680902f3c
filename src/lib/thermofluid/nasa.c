/* nasa.c - the NASA Glenn species data and the mixture's polynomial,
 * temperature from enthalpy, entropy and internal energy (nasa.h). */
#include "lib/thermofluid/nasa.h"

/* Coefficients: McBride, Zehe and Gordon, NASA/TP-2002-211556 (the NASA
 * Glenn thermodynamic database), as carried by the Modelica Standard
 * Library, Modelica/Media/IdealGases/Common/SingleGasesData.mo (records
 * N2, O2, Ar, CO2, H2O: MM, Hf, alow/blow for 200-1000 K, ahigh/bhigh for
 * 1000-6000 K), the numbers as printed there. Hf is the record's enthalpy
 * of formation at 298.15 K per kg. */
const nasa_species nasa_species_data[NASA_NSP] = {
    {"N2", 0.0280134, 0.0,
     {{22103.71497, -381.846182, 6.08273836, -0.00853091441, 1.384646189e-005, -9.62579362e-009,
       2.519705809e-012},
      {587712.406, -2239.249073, 6.06694922, -0.00061396855, 1.491806679e-007, -1.923105485e-011,
       1.061954386e-015}},
     {{710.846086, -10.76003744}, {12832.10415, -15.86640027}}},
    {"O2", 0.0319988, 0.0,
     {{-34255.6342, 484.700097, 1.119010961, 0.00429388924, -6.83630052e-007, -2.0233727e-009,
       1.039040018e-012},
      {-1037939.022, 2344.830282, 1.819732036, 0.001267847582, -2.188067988e-007,
       2.053719572e-011, -8.193467050000001e-016}},
     {{-3391.45487, 18.4969947}, {-16890.10929, 17.38716506}}},
    {"Ar", 0.039948, 0.0,
     {{0, 0, 2.5, 0, 0, 0, 0},
      {20.10538475, -0.05992661069999999, 2.500069401, -3.99214116e-008, 1.20527214e-011,
       -1.819015576e-015, 1.078576636e-019}},
     {{-745.375, 4.37967491}, {-744.993961, 4.37918011}}},
    {"CO2", 0.0440095, -8941478.544405185,
     {{49436.5054, -626.411601, 5.30172524, 0.002503813816, -2.127308728e-007, -7.68998878e-010,
       2.849677801e-013},
      {117696.2419, -1788.791477, 8.29152319, -9.22315678e-005, 4.86367688e-009,
       -1.891053312e-012, 6.330036589999999e-016}},
     {{-45281.9846, -7.04827944}, {-39083.5059, -26.52669281}}},
    {"H2O", 0.01801528, -13423382.81725291,
     {{-39479.6083, 575.573102, 0.931782653, 0.00722271286, -7.34255737e-006, 4.95504349e-009,
       -1.336933246e-012},
      {1034972.096, -2412.698562, 4.64611078, 0.002291998307, -6.836830479999999e-007,
       9.426468930000001e-011, -4.82238053e-015}},
     {{-33039.7431, 17.24205775}, {-13842.86509, -7.97814851}}},
};

/* U.S. Standard Atmosphere 1976, Table 3: mole fractions of dry air N2
 * 0.78084, O2 0.209476, Ar 0.00934, CO2 0.000314 (the traces, 3e-5 of it,
 * left out), normalised over these four, as mass fractions: molar mass
 * 28.96477 g/mol. */
const double nasa_dry_air_Y[NASA_NSP] = {0.7552154709765241, 0.23142537018890502,
                                         0.012882048212668045, 0.0004771106219027994, 0.0};

void nasa_mole_fractions(const double Y[NASA_NSP], double x[NASA_NSP]) {
  double n = 0;
  for (int i = 0; i < NASA_NSP; i++) n += Y[i] / nasa_species_data[i].MM;
  for (int i = 0; i < NASA_NSP; i++) x[i] = Y[i] / nasa_species_data[i].MM / n;
}

void nasa_mix_init_h(nasa_mix *m, const double Y[NASA_NSP]) {
  m->R = 0;
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 9; j++) m->c[k][j] = 0;
  for (int i = 0; i < NASA_NSP; i++) {
    if (!(Y[i] > 0)) continue;
    const nasa_species *s = &nasa_species_data[i];
    const double w = Y[i] * (NASA_RU / s->MM);
    m->R += w;
    for (int k = 0; k < 2; k++) {
      for (int j = 0; j < 7; j++) m->c[k][j] += w * s->a[k][j];
      m->c[k][7] += w * s->b[k][0] - Y[i] * s->Hf;
      m->c[k][8] += w * s->b[k][1];
    }
  }
}

void nasa_mix_init(nasa_mix *m, const double Y[NASA_NSP]) {
  double x[NASA_NSP], smix = 0;
  nasa_mix_init_h(m, Y);
  nasa_mole_fractions(Y, x);
  for (int i = 0; i < NASA_NSP; i++)
    if (Y[i] > 0) smix -= Y[i] * (NASA_RU / nasa_species_data[i].MM) * log(x[i]);
  m->c[0][8] += smix, m->c[1][8] += smix;
}

/* y(T) for the solvers and its derivative: h (cp), s0 (cp / T), u (cp - R). */
enum { BY_H, BY_S0, BY_U };
static inline double by_value(const nasa_mix *m, int by, double T, double *d) {
  const double *a = nasa_coef(m, T), lnT = log(T), cp = nasa_cp_c(a, T);
  if (by == BY_S0) return *d = cp / T, nasa_s0_c(a, T, lnT);
  if (by == BY_U) return *d = cp - m->R, nasa_h_c(a, T, lnT) - m->R * T;
  return *d = cp, nasa_h_c(a, T, lnT);
}

/* The root of y(T) = y in [TMIN, TMAX] from T: Newton's method, kept in the
 * bracket known so far (a bound of the range is tried before a step beyond
 * it is believed; bisection when a step leaves the bracket), stopped one
 * step after the step falls below 1e-13 T (quadratic convergence: the last
 * step leaves rounding). NaN when y lies beyond a bound of the range. */
static double solve(const nasa_mix *m, int by, double y, double T) {
  if (!isfinite(y) || !isfinite(T)) return NAN;
  T = T < NASA_TMIN ? NASA_TMIN : T > NASA_TMAX ? NASA_TMAX : T;
  double lo = NASA_TMIN, hi = NASA_TMAX;
  int lo_known = 0, hi_known = 0; /* y(lo) < y, y(hi) > y established */
  for (int it = 0; it < 200; it++) {
    double d, F = by_value(m, by, T, &d) - y;
    if (F == 0) return T;
    if (F < 0)
      lo = T, lo_known = 1;
    else
      hi = T, hi_known = 1;
    double Tn = T - F / d;
    if (!(Tn < hi) || (Tn >= NASA_TMAX && !hi_known)) {
      if (!hi_known) {
        if (T >= NASA_TMAX) return NAN; /* above the range */
        Tn = NASA_TMAX;
      } else {
        Tn = 0.5 * (lo + hi);
      }
    } else if (!(Tn > lo)) {
      if (!lo_known) {
        if (T <= NASA_TMIN) return NAN; /* below the range */
        Tn = NASA_TMIN;
      } else {
        Tn = 0.5 * (lo + hi);
      }
    }
    if (fabs(Tn - T) <= 1e-13 * T) {
      double dn, Fn = by_value(m, by, Tn, &dn) - y;
      return Tn - Fn / dn;
    }
    T = Tn;
  }
  return T;
}

/* Starts: cp about 3.5 R (a diatomic gas) from 298.15 K. */
double nasa_T_h(const nasa_mix *m, double h) {
  return solve(m, BY_H, h, NASA_T298 + h / (3.5 * m->R));
}
double nasa_T_u(const nasa_mix *m, double u) {
  return solve(m, BY_U, u, NASA_T298 + (u + m->R * NASA_T298) / (2.5 * m->R));
}
double nasa_T_s0(const nasa_mix *m, double s0) {
  const double s298 = nasa_s0(m, NASA_T298);
  return solve(m, BY_S0, s0, NASA_T298 * exp((s0 - s298) / (3.5 * m->R)));
}
