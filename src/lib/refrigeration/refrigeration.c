/* refrigeration.c - the refrigeration library's class list and the
 * medium checks its components share. */
#include <stdio.h>
#include "lib/refrigeration/refrigeration.h"

int rg_medium_init(tf_med *med, lied_init *ctx) {
  int zero = 1;
  for (int i = 0; i < TF_MEDIUM_LEN; i++) zero &= med->par[i] == 0;
  if (zero) {
    const tf_medium *r = tf_medium_find("R134a");
    if (r) med->par[0] = tf_medium_kind(r);
  }
  if (tf_medium_init(med, ctx)) return -1;
  const tf_medium *f = med->fn;
  if (!f->props_ph || !f->sat_p || !f->h_ps) {
    lied_init_error(ctx, "the medium must be a refrigerant with two phases (tf.R134a, tf.R1234yf, "
                    "tf.R290, tf.R744), not %s", f->name);
    return -1;
  }
  return 0;
}

int rg_sat(const lied_env *env, const void *self, const tf_med *m, double p, tf_sat *s,
           const char *what) {
  if (!m->fn->sat_p(m->par + 1, p, s)) return 0;
  lied_block_fault(env, self, "%s: %s: p = %.9g Pa has no saturated states (above the critical "
                   "pressure or outside the table)", what, m->fn->name, p);
  return -1;
}

int rg_props(const lied_env *env, const void *self, const tf_med *m, double p, double h,
             tf_props *o, const char *what) {
  if (!m->fn->props_ph(m->par + 1, p, h, 0, o)) return 0;
  tf_fault_ph(env, self, m, p, h, what);
  return -1;
}

static void pass_der(const lied_env *env, rg_two_port *e) {
  (void)env;
  tf_pass_der(&e->inlet, &e->outlet);
}
static void pass_r(const lied_env *env, rg_two_port *e) {
  (void)env;
  tf_pass_r(&e->inlet, &e->outlet, e->L);
}
LIED_BLOCK(pass_der_b, rg_two_port, pass_der)
LIED_BLOCK(pass_r_b, rg_two_port, pass_r)
TF_DER_LANES(pass_der_lanes, rg_two_port, inlet, outlet)
TF_R_LANES(pass_r_lanes, rg_two_port, inlet, outlet, L)

void rg_meta_pass(lied_meta *m, rg_two_port *e, int lanes) {
  lied_meta_block(m, "der", pass_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->inlet.der),
                  LIED_SIGS(&e->outlet.der));
  if (lanes) lied_meta_lanes(m, pass_der_lanes);
  lied_meta_block(m, "r", pass_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->outlet.r, &e->inlet.der),
                  LIED_SIGS(&e->inlet.r));
  if (lanes) lied_meta_lanes(m, pass_r_lanes);
}

static const lied_class *const refrigeration_classes[] = {
    &rg_compressor_class, &rg_compressor_map_class, &rg_expansion_valve_class,
    &rg_thermostatic_valve_class, &rg_receiver_class, &rg_accumulator_class,
    &rg_superheat_class, &rg_subcooling_class, &rg_quality_class, &rg_tsat_class, NULL};
LIED_LIBRARY(refrigeration,
             "vapour-compression cycles on thermofluid streams: Compressor, CompressorMap, "
             "ExpansionValve, ThermostaticValve, Receiver, Accumulator, SuperheatSensor, "
             "SubcoolingSensor, QualitySensor, SaturationTemperatureSensor (refrigerant media)",
             refrigeration_classes)
