#include <stdio.h>
/* thermofluid.c - the thermofluid stream connector and the library's class
 * list. */
#include "lib/thermofluid/thermofluid.h"
#include "lied/component.h"
#include "lib/signals/signals.h"

/* A stream carries one medium: the two ends' media are the same table (the
 * same kind of fluid: a liquid, an ideal gas, water and steam, moist air, a
 * refrigerant). Their constants are not compared: libraries' defaults of one
 * fluid differ in the last digits (air's composition), and a user's liquid of
 * 1000 kg/m3 beside the default one is a choice of resolution, not a mistake. */
static int media_agree(const void *source, const void *sink, char *why, size_t cap) {
  const tf_med *a = source, *b = sink;
  if (a->fn == b->fn) return 0;
  snprintf(why, cap,
           "their media differ (%s and %s): a stream carries one medium (give both the same "
           "medium = ...)",
           a->fn->name, b->fn->name);
  return -1;
}

const lied_connector tf_stream = {
    "thermofluid",
    {"outlet", "inlet"},
    0,
    "use a Splitter",
    4,
    {{"state", LIED_DOWN, 0, 3, "m_flow,p,h", "kg/s,Pa,J/kg"},
     {"der", LIED_DOWN, 0, 1, "der_m_flow", "kg/s2"},
     {"r", LIED_UP, 0, 1, "r", "Pa"},
     {"X", LIED_DOWN, 0, TF_NX, "X1", "1"}},
    "flow loop without a volume",
    NULL,
    "flow path without inertance (give one of its elements an inertance L > 0)",
    media_agree,
};
const lied_port_layout tf_out_layout = {
    &tf_stream, LIED_SOURCE,
    {offsetof(tf_out, state), offsetof(tf_out, der), offsetof(tf_out, r), LIED_ABSENT}};
const lied_port_layout tf_in_layout = {
    &tf_stream, LIED_SINK,
    {offsetof(tf_in, state), offsetof(tf_in, der), offsetof(tf_in, r), LIED_ABSENT}};
const lied_port_layout tf_out_x_layout = {
    &tf_stream, LIED_SOURCE,
    {offsetof(tf_out, state), offsetof(tf_out, der), offsetof(tf_out, r), offsetof(tf_out, X)}};
const lied_port_layout tf_in_x_layout = {
    &tf_stream, LIED_SINK,
    {offsetof(tf_in, state), offsetof(tf_in, der), offsetof(tf_in, r), offsetof(tf_in, X)}};

void tf_meta_in_any(lied_meta *m, const char *name, int index, tf_in *port, const tf_med *med) {
  lied_meta_port(m, name, index, port, med->fn->nX ? &tf_in_x_layout : &tf_in_layout);
}
void tf_meta_out_any(lied_meta *m, const char *name, int index, tf_out *port, const tf_med *med) {
  lied_meta_port(m, name, index, port, med->fn->nX ? &tf_out_x_layout : &tf_out_layout);
}
void tf_meta_in(lied_meta *m, const char *name, int index, tf_in *port, const tf_med *med) {
  tf_meta_in_any(m, name, index, port, med);
  lied_meta_port_data(m, med);
}
void tf_meta_out(lied_meta *m, const char *name, int index, tf_out *port, const tf_med *med) {
  tf_meta_out_any(m, name, index, port, med);
  lied_meta_port_data(m, med);
}

void tf_meta_flow_kink(lied_meta *m, const char *name, double *z) {
  lied_meta_zero(m, name, z, LIED_ZC_BOTH | LIED_ZC_KINK);
}
/* The phase boundaries a medium declares: its own, or the saturated
 * liquid and vapour of a two-phase medium with sat_p (the refrigerants). */
static int phases(const tf_medium *fn) { return fn->phase_z ? fn->nphase : fn->sat_p ? 2 : 0; }
int tf_meta_phase_kinks(lied_meta *m, const tf_med *med, double *z) {
  static const char *const names[TF_PHASE_MAX][TF_PHASE_MAX] = {{"z_fog", NULL},
                                                                {"z_liquid", "z_vapour"}};
  const int n = phases(med->fn);
  for (int k = 0; k < n; k++) lied_meta_zero(m, names[n - 1][k], &z[k], LIED_ZC_BOTH | LIED_ZC_KINK);
  return n;
}
void tf_phase_z(const tf_med *m, double p, double h, double *z) {
  if (m->fn->phase_z) {
    m->fn->phase_z(m->par + 1, p, h, z);
  } else if (m->fn->sat_p) { /* a two-phase medium's dome from its saturated states */
    tf_sat s;
    const int ok = !m->fn->sat_p(m->par + 1, p, &s);
    z[0] = ok ? h - s.hL : NAN; /* above the critical pressure: no boundary (NaN never crosses) */
    z[1] = ok ? h - s.hV : NAN;
  }
}

/* The signal sources under their thermofluid names: the signals library's
 * classes in this domain (docs/signals.md). */
static const lied_class tf_constant_class = SIG_CONSTANT_CLASS("thermofluid");
static const lied_class tf_step_class = SIG_STEP_CLASS("thermofluid");
static const lied_class tf_ramp_class = SIG_RAMP_CLASS("thermofluid");
static const lied_class tf_sine_class = SIG_SINE_CLASS("thermofluid");

extern const lied_class tf_rhx_counter_class, tf_rhx_cross_class; /* rhx.c */
static const lied_class *const thermofluid_classes[] = {
    &tf_source_class,       &tf_sink_class,         &tf_tank_out_class,
    &tf_tank_in_class,      &tf_pressure_drop_class, &tf_linquad_drop_class,
    &tf_laminar_drop_class, &tf_splitter_class,     &tf_junction_class,
    &tf_volume_class,       &tf_pump_class,         &tf_heater_class,
    &tf_conduction_class,   &tf_counter_hx_class,   &tf_parallel_hx_class,
    &tf_cross_hx_class,
    &tf_mass_flow_source_class, &tf_reservoir_class, &tf_valve_class,
    &tf_check_valve_class,  &tf_fan_class,          &tf_t_sensor_class,
    &tf_p_sensor_class,     &tf_m_sensor_class,     &tf_h_sensor_class,
    &tf_x_sensor_class,
    &tf_separator_class,
    &tf_counter_ntu_class,  &tf_parallel_ntu_class, &tf_cross_ntu_class,
    &tf_pipe_class,
    &tf_rhx_counter_class,  &tf_rhx_cross_class, /* rhx.c */
    &tf_constant_class,     &tf_step_class,         &tf_ramp_class,
    &tf_sine_class,         NULL};

LIED_LIBRARY(thermofluid,
             "thermofluid streams in LIED form: sources, sinks, tanks, pressure drops, "
             "splitters, junctions, volumes, pumps, fans, heaters, valves, conduction "
             "elements, heat exchangers, sensors; liquid, ideal-gas and water and steam "
             "(IAPWS-IF97, two-phase) media",
             thermofluid_classes)
