/* nasa.h - ideal gases from the NASA Glenn polynomials (McBride, Zehe and
 * Gordon, "NASA Glenn Coefficients for Calculating Thermodynamic Properties
 * of Individual Species", NASA/TP-2002-211556): per species and temperature
 * interval seven coefficients a1..a7 of cp and two integration constants
 * b1, b2 of h and s,
 *   cp/R  = a1 T^-2 + a2 T^-1 + a3 + a4 T + a5 T^2 + a6 T^3 + a7 T^4
 *   h/R   = -a1 T^-1 + a2 ln T + a3 T + a4 T^2/2 + a5 T^3/3 + a6 T^4/4 + a7 T^5/5 + b1
 *   s0/R  = -a1 T^-2/2 - a2 T^-1 + a3 ln T + a4 T + a5 T^2/2 + a6 T^3/3 + a7 T^4/4 + b2
 * for N2, O2, Ar, CO2 and H2O (vapour), the intervals 200-1000 K and
 * 1000-6000 K, as the Modelica Standard Library carries them
 * (Modelica.Media.IdealGases.Common.SingleGasesData, R = 8.314510
 * J/(mol K); nasa.c cites the records).
 *
 * Conventions (docs/media.md, "Ideal gases"): per kilogram; the enthalpy
 * of formation is left out (h = 0 at 298.15 K for every species, so a
 * fixed mixture's h is its sensible enthalpy, as the MSL's default); the
 * entropy's standard state is the NASA tables' p0 = 1 bar, and a mixture's
 * includes the ideal entropy of mixing. A mixture of mass fractions Y is
 * one polynomial of the same form whose coefficients are the species'
 * times Y_i R_i (nasa_mix), so it costs what one species costs. */
#ifndef LIED_LIB_THERMOFLUID_NASA_H
#define LIED_LIB_THERMOFLUID_NASA_H
#include <math.h>
#include <stddef.h>

#define NASA_RU 8.314510 /* J/(mol K), the value the coefficients were fitted with */
#define NASA_P0 1e5      /* standard-state pressure of the tables [Pa] */
#define NASA_TMIN 200.0
#define NASA_TMID 1000.0
#define NASA_TMAX 6000.0
#define NASA_T298 298.15

enum { NASA_N2, NASA_O2, NASA_AR, NASA_CO2, NASA_H2O, NASA_NSP };

typedef struct nasa_species {
  const char *name;
  double MM;          /* molar mass [kg/mol] */
  double Hf;          /* enthalpy of formation at 298.15 K [J/kg] */
  double a[2][7];     /* cp coefficients: [0] 200-1000 K, [1] 1000-6000 K */
  double b[2][2];     /* integration constants b1, b2 */
} nasa_species;
extern const nasa_species nasa_species_data[NASA_NSP];

/* Standard dry air (mole fractions of N2, O2, Ar, CO2 of the U.S. Standard
 * Atmosphere 1976, normalised over these four): its mass fractions. */
extern const double nasa_dry_air_Y[NASA_NSP];

/* A gas of fixed composition in mass units: R [J/(kg K)] and, per
 * interval, c[k][0..6] = sum Y_i R_i a_i, c[k][7] = sum Y_i (R_i b1_i - Hf_i),
 * c[k][8] = sum Y_i R_i b2_i + the entropy of mixing. */
typedef struct nasa_mix {
  double R;
  double c[2][9];
} nasa_mix;

/* The mixture of mass fractions Y (each >= 0, summing to 1). */
void nasa_mix_init(nasa_mix *m, const double Y[NASA_NSP]);
/* The same without the entropy of mixing in c[k][8] (no logarithms): for
 * what needs cp, h and u only. */
void nasa_mix_init_h(nasa_mix *m, const double Y[NASA_NSP]);
/* The mole fractions of the mass fractions Y, into x. */
void nasa_mole_fractions(const double Y[NASA_NSP], double x[NASA_NSP]);

/* The interval's coefficients for T. */
static inline const double *nasa_coef(const nasa_mix *m, double T) {
  return m->c[T >= NASA_TMID];
}
static inline double nasa_cp_c(const double *a, double T) {
  const double r = 1.0 / T;
  return a[0] * r * r + a[1] * r + a[2] + T * (a[3] + T * (a[4] + T * (a[5] + T * a[6])));
}
static inline double nasa_h_c(const double *a, double T, double lnT) {
  return -a[0] / T + a[1] * lnT + a[7] +
         T * (a[2] + T * (0.5 * a[3] + T * (a[4] / 3.0 + T * (0.25 * a[5] + 0.2 * a[6] * T))));
}
static inline double nasa_s0_c(const double *a, double T, double lnT) {
  const double r = 1.0 / T;
  return -0.5 * a[0] * r * r - a[1] * r + a[2] * lnT + a[8] +
         T * (a[3] + T * (0.5 * a[4] + T * (a[5] / 3.0 + 0.25 * a[6] * T)));
}
/* cp [J/(kg K)], h [J/kg] (0 at 298.15 K), s0 [J/(kg K)] at p0 = 1 bar.
 * For 200 K <= T <= 6000 K (not checked here: nasa_T_ok). */
static inline double nasa_cp(const nasa_mix *m, double T) { return nasa_cp_c(nasa_coef(m, T), T); }
static inline double nasa_h(const nasa_mix *m, double T) {
  return nasa_h_c(nasa_coef(m, T), T, log(T));
}
static inline double nasa_s0(const nasa_mix *m, double T) {
  return nasa_s0_c(nasa_coef(m, T), T, log(T));
}
/* s(T, p) = s0(T) - R ln(p / p0) */
static inline double nasa_s(const nasa_mix *m, double T, double p) {
  return nasa_s0(m, T) - m->R * log(p / NASA_P0);
}
static inline int nasa_T_ok(double T) { return T >= NASA_TMIN && T <= NASA_TMAX; }

/* The temperature of enthalpy h, of standard entropy s0 (Newton's method
 * safeguarded by bisection, to the last bits); NaN when it lies outside
 * [200 K, 6000 K] or h, s0 is not finite. */
double nasa_T_h(const nasa_mix *m, double h);
double nasa_T_s0(const nasa_mix *m, double s0);
/* The temperature of specific internal energy u = h - R T. */
double nasa_T_u(const nasa_mix *m, double u);

#endif
