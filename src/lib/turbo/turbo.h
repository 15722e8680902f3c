/* turbo.h - turbomachines on shafts (docs/turbo.md): gas compressors,
 * turbines and fans with a thermofluid inlet and outlet and a rotational
 * flange (a branch on the shaft's node). */
#ifndef LIED_LIB_TURBO_H
#define LIED_LIB_TURBO_H
#include <stdint.h>
#include "lied/table.h"
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
  double z_eta; /* kink function of the characteristic's machines: dh_s m (turbo.c) */
  tf_gas_model gas; /* the gas of a medium of one composition (init) */
  int moist, pad_;  /* 1: the gas follows the stream's water fraction */
} tb_machine;

extern const lied_class tb_compressor_class, tb_turbine_class, tb_fan_class;

/* What a machine's work block starts from (tb_begin): the inflow's medium
 * and gas at its composition, the flow and the shaft's speed. Not copied
 * (med and g may point into it). */
typedef struct tb_inflow {
  tf_med mx;
  const tf_med *med;
  tf_gas_model gx;
  const tf_gas_model *g;
  double m, w;
} tb_inflow;
/* The inflow's medium, gas, flow and speed (writes nothing of c). */
void tb_inflow_of(tb_machine *c, tb_inflow *s);
/* The same and c->T_in (a fault outside the medium's range). */
void tb_begin(const lied_env *env, tb_machine *c, tb_inflow *s);
/* The stream's and the shaft's side once c->pr (p_out/p_in), c->T_in and
 * the isentropic efficiency are known: the outflow's m_flow, h and X (its
 * p is the pressure block's), dh_s, dh, tau, P. */
void tb_finish(const lied_env *env, tb_machine *c, const tb_inflow *s, double eta);
/* The medium (default tf.air), refused unless a gas; for init. */
int tb_init_medium(tb_machine *c, lied_init *ctx);
/* The ports, the recorded variables and the blocks but the pressure and
 * work blocks. */
/* The kink function z_eta = dh_s m: its block and zero function (turbo.c). */
void tb_meta_kinks(lied_meta *m, tb_machine *c);
void tb_meta_common(lied_meta *m, tb_machine *c);

/* A machine with performance maps (turbo_map.c; docs/turbo.md,
 * "Performance maps"): the corrected flow and the isentropic efficiency
 * over the corrected speed and the pressure ratio. Its pressure ratio is
 * the flow map's speed line, at the corrected speed, inverted at the
 * corrected flow; beyond the line's ends, the map's speeds or below them
 * a documented continuation, flagged by zero functions and recorded. */
typedef struct tb_map {
  tb_machine b; /* first: the shared blocks run on it */
  const lied_table *flow, *eff;
  lied_table_hint at_eff;
  double T_ref, p_ref;
  double w_c, m_c, eta;               /* outputs */
  double z_low, z_choke, z_speed;     /* margins: zero functions */
  double low, choke, off_speed, n_off; /* discrete: set by the handler, recorded */
  const double *S, *R, *F;            /* the flow map's speeds, ratios, values (init) */
  double eta_lo, eta_hi;              /* the efficiency map's smallest and largest value */
  uint32_t n1, n2, i_at, j_at;        /* the flow map's sizes; its hints */
  int turbine, strict;                /* a turbine's map; extrapolation "error" */
} tb_map;

extern const lied_class tb_compressor_map_class, tb_turbine_map_class;

#endif
