/* refrigeration.h - the components of vapour-compression cycles on
 * thermofluid streams (directed, lib/thermofluid/thermofluid.h) with a
 * refrigerant medium (docs/media.md, "Refrigerants"): Compressor and
 * CompressorMap, ExpansionValve and ThermostaticValve, Receiver and
 * Accumulator, and the two-phase sensors (docs/refrigeration.md). */
#ifndef LIED_LIB_REFRIGERATION_H
#define LIED_LIB_REFRIGERATION_H
#include "lib/thermofluid/thermofluid.h"

/* The medium of a refrigeration component: the default (an all-zero
 * vector) is R134a; the medium must have two phases and entropy (props_ph,
 * sat_p, h_ps: the refrigerants). Reports through ctx and returns -1
 * otherwise. Call from init. */
int rg_medium_init(tf_med *med, lied_init *ctx);

/* The saturated states at p, or a fault of `self` naming the state (p above
 * the critical pressure or outside the table) and -1. */
int rg_sat(const lied_env *env, const void *self, const tf_med *m, double p, tf_sat *s,
           const char *what);
/* The state at (p, h), or a fault naming it and -1. */
int rg_props(const lied_env *env, const void *self, const tf_med *m, double p, double h,
             tf_props *o, const char *what);

/* The head of a two-port element's instance (Compressor, the valves): its
 * ports and its inertance L, for the pass-through blocks they share. */
typedef struct rg_two_port {
  tf_in inlet;
  tf_out outlet;
  double L;
} rg_two_port;
/* Declare the blocks der (outlet.der = inlet.der) and r (inlet.r = outlet.r
 * + L der) of an instance that starts with e, with their lane forms when
 * lanes is 1 (a class whose defaults fail its init declares none:
 * tests/unit/test_lane_forms.c). */
void rg_meta_pass(lied_meta *m, rg_two_port *e, int lanes);

#define RG_MEDIUM_PARAM(TYPE)                                                              \
  {"medium", offsetof(TYPE, med.par), 0, "1",                                              \
   "medium {kind, c1..c5}: a refrigerant, tf.R134a (default), tf.R1234yf, tf.R290, tf.R744", \
   TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN, NULL}

extern const lied_class rg_compressor_class, rg_compressor_map_class, rg_expansion_valve_class,
    rg_thermostatic_valve_class, rg_receiver_class, rg_accumulator_class, rg_superheat_class,
    rg_subcooling_class, rg_quality_class, rg_tsat_class;

#endif
