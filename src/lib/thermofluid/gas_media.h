/* gas_media.h - the media on the NASA basis (docs/media.md, "Ideal gases"):
 * medium kinds, their tables of functions, and what turbomachines need of
 * a gas. */
#ifndef LIED_LIB_THERMOFLUID_GAS_MEDIA_H
#define LIED_LIB_THERMOFLUID_GAS_MEDIA_H
#include "lib/thermofluid/thermofluid.h"
#include "lib/thermofluid/nasa.h"

/* Kind 5: an ideal-gas mixture of fixed composition, the constants the
 * mass fractions of N2, O2, Ar, CO2, H2O (tf.air, tf.ideal_gas{...},
 * tf.combustion_products{...}). Kind 6: moist air (nasa_moist.h), the
 * constant its water fraction X, carried by the streams (tf.moist_air_nasa{...}). */
enum { TF_NASA_GAS = 5, TF_NASA_MOIST_AIR = 6 };
extern const tf_medium tf_nasa_gas, tf_nasa_moist_air;
/* Standard dry air's nasa_mix_init_h, precomputed (its bits). */
extern const nasa_mix *tf_nasa_dry_air_h;

/* The gas of a medium at the composition of its stream (X: the stream's
 * water fraction for moist air, ignored otherwise) with its entropies, for
 * isentropic changes of state: the NASA mixture, or for tf.gas (kind 2) a
 * constant cp. Moist air's water counts as vapour (its condensation along
 * an isentropic expansion is left out). Returns 0, or -1 for a medium that
 * is not a gas. */
typedef struct tf_gas_model {
  int nasa;       /* 1: the NASA mixture m; 0: constant cp, R */
  nasa_mix m;
  double cp, R;
} tf_gas_model;
int tf_gas_of(const tf_med *med, double X, tf_gas_model *g);
/* T(h), h(T), s(p, T) of such a gas (NaN outside its range). */
double tf_gas_T(const tf_gas_model *g, double h);
double tf_gas_h(const tf_gas_model *g, double T);
double tf_gas_s(const tf_gas_model *g, double p, double T);
/* The temperature at which s(p, T) = s. */
double tf_gas_T_ps(const tf_gas_model *g, double p, double s);

#endif
