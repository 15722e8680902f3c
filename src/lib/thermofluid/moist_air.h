/* moist_air.h - moist air: dry air and water vapour as ideal gases of
 * constant heat capacities (the psychrometric model of the HVAC handbooks),
 * water above saturation as condensate: liquid (fog) above the triple point,
 * ice below it, both at the triple point (docs/media.md, "Ice"). The
 * saturation pressure is IAPWS-IF97's (if97.h) over liquid water, IAPWS
 * R14-08's sublimation pressure over ice. SI units; X is the mass fraction
 * of water (vapour and condensate) in the moist air, the humidity ratio
 * x = X / (1 - X) the water per dry air. Enthalpy per kg of moist air, zero
 * for dry air and liquid water at 273.15 K. Valid for 200 K <= T <= 623.15
 * K, p > 0, 0 <= X < 1; every function returns 0, or LIED_ERROR with a
 * message naming the state in why. */
#ifndef LIED_LIB_THERMOFLUID_MOIST_AIR_H
#define LIED_LIB_THERMOFLUID_MOIST_AIR_H
#include <stddef.h>

#define MA_R_VAP 461.524    /* water vapour (ASHRAE) [J/(kg K)] */
#define MA_EPS 0.621945     /* molar mass of water / of dry air (18.015268 / 28.966) */
#define MA_R_AIR (MA_R_VAP * MA_EPS) /* dry air: 287.042 */
#define MA_CP_AIR 1006.0    /* [J/(kg K)] */
#define MA_CP_VAP 1860.0
#define MA_CP_LIQ 4186.0
#define MA_H_EVAP 2501e3    /* evaporation enthalpy at 273.15 K [J/kg] */
#define MA_T0 273.15
#define MA_TMIN 200.0
#define MA_TMAX 623.15

/* Ice, shared by both moist-air models (tf.moist_air, tf.moist_air_nasa).
 * The triple point (IAPWS R14-08); the melting enthalpy there: IAPWS R10-06
 * (ice Ih, Table 6) gives ice h = -333444.254 J/kg at (273.16 K, 611.657
 * Pa) against IAPWS-95's liquid 0.612 J/kg (u = s = 0 there); the heat
 * capacity of ice linear in T, cp = MA_CP_ICE + MA_CP_ICE_T (T - 273.16):
 * R10-06's cp at the triple point and the slope of the least-squares fit
 * (cp fixed there) to R10-06 over 200 K .. 273.16 K (within 0.22 % in cp
 * and 63 J/kg in h; tests/validation/data/ice_gen.py). */
#define MA_TTRIPLE 273.16
#define MA_PTRIPLE 611.657    /* [Pa] */
#define MA_H_MELT 333444.866  /* [J/kg] */
#define MA_CP_ICE 2096.784    /* [J/(kg K)] at the triple point */
#define MA_CP_ICE_T 7.2686    /* [J/(kg K^2)] */

/* A state: T, p, total water X, vapour, liquid and ice parts Xv + Xl + Xi
 * = X (per kg of moist air), relative humidity phi (<= 1; over ice below
 * the triple point), humidity ratio x, saturation humidity ratio x_sat
 * (HUGE_VAL when psat(T) >= p), h, rho. */
typedef struct ma_state {
  double p, T, X, Xv, Xl, Xi, phi, x, x_sat, h, u, rho;
} ma_state;

/* The sublimation pressure of ice Ih (IAPWS R14-08, Eq. 6) at T <= 273.16 K. */
double ma_psubl(double T);
/* The enthalpy of ice at T less that of liquid water at the triple point
 * (-MA_H_MELT at 273.16 K). */
static inline double ma_dh_ice(double T) {
  const double d = T - MA_TTRIPLE;
  return -MA_H_MELT + (MA_CP_ICE + 0.5 * MA_CP_ICE_T * d) * d;
}
/* The enthalpies of liquid water and of ice at T in this model (liquid
 * water 0 at 273.15 K). */
static inline double ma_h_liq(double T) { return MA_CP_LIQ * (T - MA_T0); }
static inline double ma_h_ice(double T) { return ma_h_liq(MA_TTRIPLE) + ma_dh_ice(T); }
/* The frost point: the T <= 273.16 K whose sublimation pressure is pv; NaN
 * below 200 K. */
double ma_frost_point(double pv);

int ma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap);
int ma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap);
int ma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap);
/* ma_phX's T for n states (p[l], h[l], X[l]) at once, the same bits, NaN
 * where ma_phX fails (for the lane forms of blocks with many cells). */
void ma_T_phX_lanes(size_t n, const double *p, const double *h, const double *X, double *T);
/* Dew point of the water in the air (vapour and condensate) at p: the
 * frost point (over ice) below the triple point. */
int ma_Tdew(double p, double X, double *T, char *why, size_t cap);
/* The water mass fraction X of air at (p, T) with relative humidity phi. */
int ma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap);

#endif
