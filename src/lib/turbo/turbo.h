/* turbo.h - turbomachines on shafts (docs/turbo.md): gas compressors,
 * turbines and fans with a thermofluid inlet and outlet and a rotational
 * flange (a branch on the shaft's node). */
#ifndef LIED_LIB_TURBO_H
#define LIED_LIB_TURBO_H
#include "lib/rotational/rotational.h"
#include "lib/thermofluid/gas_media.h"
#include "lib/thermofluid/thermofluid.h"

/* One machine: the characteristic gives the pressure ratio pr(w, m), the
 * efficiency law the enthalpy change from the isentropic one, and the
 * shaft's torque carries exactly the power the stream takes up,
 * tau w = m dh (docs/turbo.md, "Equations"). */
typedef struct tb_machine {
  tf_in inlet;
  tf_out outlet;
  ro_branch flange;
  tf_med med;
  double w_ref, m_ref, skew, k, eta, w_small, L;
  double pr, dp, dh, dh_s, tau, P, T_in, T_out, w; /* outputs */
  tf_gas_model gas; /* the gas of a medium of one composition (init) */
  int moist, pad_;  /* 1: the gas follows the stream's water fraction */
} tb_machine;

extern const lied_class tb_compressor_class, tb_turbine_class, tb_fan_class;

#endif
