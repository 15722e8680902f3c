/* sensors.c - in-line stream sensors with a real-signal output y:
 * TemperatureSensor (T [K], from the medium), PressureSensor (p [Pa], the
 * steady pressure of the stream), MassFlowSensor (m_flow [kg/s]),
 * EnthalpySensor (h [J/kg]), MassFractionSensor (X_k of a mixture [1]). The
 * stream passes unchanged (no drop, no inertance); the value is also
 * recorded under its name (T, p, m_flow, h, X). */
#include <stdio.h>
#include "lib/thermofluid/deps.h"

enum { Q_T = 1, Q_P, Q_M, Q_H, Q_X };

typedef struct tf_sensor {
  tf_in inlet;
  tf_out outlet;
  lied_real_out y;
  tf_med med;
  double value;
  int quantity, k; /* k: the mass fraction X_k a MassFractionSensor measures */
} tf_sensor;

/* no lane forms: a MassFractionSensor needs a mixture, so its defaults do
 * not build (tests/unit/test_lane_forms.c) */
TF_P_PASS_BLOCK(sensor_pressure_b, tf_sensor, inlet, outlet)
TF_FLOW_PASS(sensor_flow_b, tf_sensor, inlet, outlet, med)
static void sensor_measure(const lied_env *env, tf_sensor *s) {
  const tf_state *in = s->inlet.state;
  switch (s->quantity) {
    case Q_T: {
      tf_med mx;
      const tf_med *med = tf_med_at(&s->med, s->inlet.X, &mx);
      s->value = tf_T(med, in->p, in->h);
      TF_GUARD_PH(env, s, med, s->value, in->p, in->h, "stream");
      break;
    }
    case Q_X: s->value = s->inlet.X->X[s->k - 1]; break;
    case Q_P: s->value = in->p; break;
    case Q_M: s->value = in->m_flow; break;
    default: s->value = in->h; break;
  }
  s->y.y.y = s->value;
}
static void sensor_der(const lied_env *env, tf_sensor *s) {
  (void)env;
  tf_pass_der(&s->inlet, &s->outlet);
}
static void sensor_r(const lied_env *env, tf_sensor *s) {
  (void)env;
  s->inlet.r.r = s->outlet.r->r;
}
LIED_BLOCK(sensor_measure_b, tf_sensor, sensor_measure)
LIED_BLOCK(sensor_der_b, tf_sensor, sensor_der)
LIED_BLOCK(sensor_r_b, tf_sensor, sensor_r)

static const char *const quantity_name[] = {"", "T", "p", "m_flow", "h", "X"};
static const char *const quantity_unit[] = {"", "K", "Pa", "kg/s", "J/kg", "1"};

static void sensor_meta(lied_meta *m, void *self) {
  tf_sensor *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, quantity_name[s->quantity], quantity_unit[s->quantity], &s->value);
  tf_meta_p_pass(m, "pressure", sensor_pressure_b, NULL, &s->inlet, &s->outlet);
  tf_meta_flow_pass(m, sensor_flow_b, &s->inlet, &s->outlet, &s->med);
  /* the measurement reads what its quantity needs: a temperature h, and p
   * where the medium's T depends on it; a mass fraction the signal X only */
  const int vars = s->quantity == Q_T   ? tf_T_reads(&s->med)
                   : s->quantity == Q_P ? TF_P
                   : s->quantity == Q_M ? TF_M
                                        : TF_H;
  const void *in[4] = {NULL, NULL, NULL, NULL};
  int n = s->quantity == Q_X ? 0 : tf_list_state(in, 0, &s->inlet, vars);
  if (s->quantity == Q_T || s->quantity == Q_X) in[n++] = TF_X(&s->med, s->inlet);
  lied_meta_block(m, "measure", sensor_measure_b, 0, in, LIED_SIGS(&s->value, &s->y.y));
  if (s->quantity != Q_X) tf_meta_reads(m, &s->inlet, vars);
  lied_meta_block(m, "der", sensor_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->inlet.der),
                  LIED_SIGS(&s->outlet.der));
  lied_meta_block(m, "r", sensor_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->outlet.r),
                  LIED_SIGS(&s->inlet.r));
}

#define SENSOR_INIT(NAME, Q)                                  \
  static int NAME(void *self, lied_init *ctx) {               \
    tf_sensor *s = self;                                      \
    s->quantity = Q;                                          \
    return tf_medium_init(&s->med, ctx);                      \
  }
SENSOR_INIT(t_init, Q_T)
SENSOR_INIT(p_init, Q_P)
SENSOR_INIT(m_init, Q_M)
SENSOR_INIT(h_init, Q_H)
static int x_init(void *self, lied_init *ctx) {
  tf_sensor *s = self;
  s->quantity = Q_X;
  if (tf_medium_init(&s->med, ctx)) return -1;
  if (s->k > tf_nX(&s->med)) {
    if (tf_nX(&s->med))
      lied_init_error(ctx, "k = %d: the medium (%s) has the mass fractions X1..X%d", s->k,
                      s->med.fn->name, tf_nX(&s->med));
    else
      lied_init_error(ctx, "the medium (%s) has no mass fractions: a MassFractionSensor needs "
                      "a mixture (tf.moist_air{...})", s->med.fn->name);
    return -1;
  }
  return 0;
}

static const lied_param sensor_params[] = {TF_MEDIUM_PARAM(tf_sensor)};
#define SENSOR_CLASS(VAR, NAME, DOC, INIT)                                              \
  const lied_class VAR = {NAME, "thermofluid", DOC, sizeof(tf_sensor), sensor_params, 1, \
                          INIT, sensor_meta}
SENSOR_CLASS(tf_t_sensor_class, "TemperatureSensor",
             "in-line temperature sensor: output y = T(p, h) [K] of the stream (also T)", t_init);
SENSOR_CLASS(tf_p_sensor_class, "PressureSensor",
             "in-line pressure sensor: output y = p [Pa], the stream's steady pressure (also p)",
             p_init);
SENSOR_CLASS(tf_m_sensor_class, "MassFlowSensor",
             "in-line mass flow sensor: output y = m_flow [kg/s] (also m_flow)", m_init);
SENSOR_CLASS(tf_h_sensor_class, "EnthalpySensor",
             "in-line specific enthalpy sensor: output y = h [J/kg] (also h)", h_init);
static const lied_param x_sensor_params[] = {
    {"k", offsetof(tf_sensor, k), 1, "1", "which mass fraction: X_k of the medium's list", 1,
     TF_NX, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_sensor),
};
const lied_class tf_x_sensor_class = {
    "MassFractionSensor", "thermofluid",
    "in-line mass fraction sensor: output y = X_k [1] of a mixture's stream (also X); "
    "tf.moist_air: X1 is the water",
    sizeof(tf_sensor), x_sensor_params, sizeof x_sensor_params / sizeof *x_sensor_params,
    x_init, sensor_meta};
