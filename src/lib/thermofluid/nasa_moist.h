/* nasa_moist.h - moist air on the NASA basis (nasa.h): standard dry air and
 * water vapour as ideal gases with the NASA Glenn polynomials, water above
 * saturation as condensate: liquid (fog) above the triple point, ice below
 * it, both at it. X is the mass fraction of water (vapour and condensate)
 * in the moist air. Enthalpy per kg of moist air with the NASA convention
 * (dry air and vapour 0 at 298.15 K); the liquid's is the vapour's at the
 * triple point less the evaporation enthalpy there (IAPWS-95: 2500.92
 * kJ/kg), with a constant cp of 4186 J/(kg K); the ice's is the liquid's at
 * the triple point plus ma_dh_ice (moist_air.h: the melting enthalpy and
 * cp of IAPWS R10-06). The saturation pressure is IF97's above the triple
 * point and the sublimation pressure over ice (IAPWS R14-08) below it.
 * Valid for 200 K <= T <= 6000 K (condensate up to the critical
 * temperature), p > 0, 0 <= X < 1. States are ma_state (moist_air.h);
 * every function returns 0, or LIED_ERROR with a message naming the state
 * in why. */
#ifndef LIED_LIB_THERMOFLUID_NASA_MOIST_H
#define LIED_LIB_THERMOFLUID_NASA_MOIST_H
#include <stddef.h>
#include "lib/thermofluid/moist_air.h"
#include "lib/thermofluid/nasa.h"

#define NMA_TTRIPLE MA_TTRIPLE
#define NMA_H_EVAP 2500.92e3   /* evaporation enthalpy at the triple point [J/kg] */
#define NMA_CP_LIQ 4186.0      /* [J/(kg K)] */

int nma_pTX(double p, double T, double X, ma_state *st, char *why, size_t cap);
int nma_phX(double p, double h, double X, ma_state *st, char *why, size_t cap);
int nma_rho_uX(double rho, double u, double X, ma_state *st, char *why, size_t cap);
/* nma_phX's T for n states at once, the same bits (NaN where it fails). */
void nma_T_phX_lanes(size_t n, const double *p, const double *h, const double *X, double *T);
int nma_Tdew(double p, double X, double *T, char *why, size_t cap);
int nma_X_phi(double p, double T, double phi, double *X, char *why, size_t cap);
/* The saturation pressure of water at T (over ice below the triple point),
 * HUGE_VAL above the critical temperature. */
double nma_psat(double T);
/* The enthalpies of liquid water and of ice at T [J/kg] on this basis. */
double nma_h_liq(double T);
double nma_h_ice(double T);
/* The gas of water fraction X with all of it vapour: dry air and water
 * (nasa_mix_init: with entropies), for isentropic changes of state. */
void nma_gas(double X, nasa_mix *m);

#endif
