/* moist_air.h - moist air: dry air and water vapour as ideal gases of
 * constant heat capacities (the psychrometric model of the HVAC handbooks),
 * water above saturation as liquid (fog), the saturation pressure from
 * IAPWS-IF97 (if97.h). SI units; X is the mass fraction of water (vapour
 * and liquid) in the moist air, the humidity ratio x = X / (1 - X) the water
 * per dry air. Enthalpy per kg of moist air, zero for dry air and liquid
 * water at 273.15 K. Valid for 273.15 K <= T <= 623.15 K (no ice), p > 0,
 * 0 <= X < 1; every function returns 0, or LIED_ERROR with a message naming
 * the state in why. */
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
#define MA_TMIN 273.15
#define MA_TMAX 623.15

/* A state: T, p, total water X, vapour and liquid parts Xv + Xl = X (per
 * kg of moist air), relative humidity phi (<= 1), humidity ratio x,
 * saturation humidity ratio x_sat (HUGE_VAL when psat(T) >= p), h, rho. */
typedef struct ma_state {
  double p, T, X, Xv, Xl, phi, x, x_sat, h, u, rho;
} ma_state;

int ma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap);
int ma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap);
int ma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap);
/* ma_phX's T for n states (p[l], h[l], X[l]) at once, the same bits, NaN
 * where ma_phX fails (for the lane forms of blocks with many cells). */
void ma_T_phX_lanes(size_t n, const double *p, const double *h, const double *X, double *T);
/* Dew point of the water in the air (vapour and fog) at p. */
int ma_Tdew(double p, double X, double *T, char *why, size_t cap);
/* The water mass fraction X of air at (p, T) with relative humidity phi. */
int ma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap);

#endif
