/* sensors.c - undirected in-line sensors with a real-signal output y:
 * TemperatureSensor (T [K]), PressureSensor (p [Pa], steady pressure),
 * MassFlowSensor (m_flow [kg/s], positive forwards), EnthalpySensor (h
 * [J/kg]). The stream passes unchanged both ways (no drop, no inertance).
 * What they measure is the state of the flow that passes: the forward state
 * for m >= m_flow_reg, the rearward one for m <= -m_flow_reg, blended with
 * the forward weight between (TFS's regStepState), so y is continuous through
 * a reversal. Recorded also as T, p, m_flow, h. */
#include "lib/undirected/undirected.h"

enum { Q_T = 1, Q_P, Q_M, Q_H };

typedef struct tfu_sensor {
  tfu_elem e;
  lied_real_out y;
  double m_reg;
  double value;
  double rise_f, rise_b; /* 0: the stream passes unchanged */
  int quantity, pad_;
} tfu_sensor;

static inline double no_rise(const tfu_sensor *s, const tf_med *med, double m, double p,
                             double h) {
  (void)s, (void)med, (void)m, (void)p, (void)h;
  return 0.0;
}
TFU_RISE_BLOCKS(sensor, tfu_sensor, no_rise)

static void sensor_measure(const lied_env *env, tfu_sensor *s) {
  const double m = s->e.rear.flow->m_flow;
  tfu_state b;
  tfu_blend_state(tfu_w(m, s->m_reg), s->e.rear.state, s->e.fore.back, &b);
  switch (s->quantity) {
    case Q_T: {
      tf_med mx;
      const tf_med *med = tfu_med_at(&s->e.med, &b, &mx);
      s->value = tf_T(med, b.p, b.h);
      TF_GUARD_PH(env, s, med, s->value, b.p, b.h, "stream");
      break;
    }
    case Q_P: s->value = b.p; break;
    case Q_M: s->value = m; break;
    default: s->value = b.h; break;
  }
  s->y.y.y = s->value;
}
LIED_BLOCK(sensor_measure_b, tfu_sensor, sensor_measure)

static const char *const quantity_name[] = {"", "T", "p", "m_flow", "h"};
static const char *const quantity_unit[] = {"", "K", "Pa", "kg/s", "J/kg"};

static void sensor_meta(lied_meta *m, void *self) {
  tfu_sensor *s = self;
  tfu_elem_meta(m, &s->e, 0);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, quantity_name[s->quantity], quantity_unit[s->quantity], &s->value);
  tfu_rise_meta(m, &s->e, sensor_fwd_b, sensor_back_b, &s->rise_f, &s->rise_b, TFU_P, NULL);
  /* what the quantity needs of both directions' states: a temperature h
   * (and p where the medium's T depends on it, X1 of a mixture), a pressure
   * p, an enthalpy h, a mass flow none */
  const int vars = s->quantity == Q_T   ? tfu_T_reads(&s->e.med)
                   : s->quantity == Q_P ? TFU_P
                   : s->quantity == Q_H ? TFU_H
                                        : 0;
  const void *in[6] = {&s->e.rear.flow};
  tfu_list(in, tfu_list(in, 1, &s->e.rear.state, vars), &s->e.fore.back, vars);
  lied_meta_block(m, "measure", sensor_measure_b, 0, in, LIED_SIGS(&s->value, &s->y.y));
  tfu_meta_reads(m, &s->e.rear.state, vars);
  tfu_meta_reads(m, &s->e.fore.back, vars);
}

#define SENSOR_INIT(NAME, Q)                          \
  static int NAME(void *self, lied_init *ctx) {       \
    tfu_sensor *s = self;                             \
    s->quantity = Q;                                  \
    return tf_medium_init(&s->e.med, ctx);            \
  }
SENSOR_INIT(t_init, Q_T)
SENSOR_INIT(p_init, Q_P)
SENSOR_INIT(m_init, Q_M)
SENSOR_INIT(h_init, Q_H)

static const lied_param sensor_params[] = {TFU_MREG_PARAM(tfu_sensor),
                                           TFU_ELEM_MEDIUM(tfu_sensor)};
#define SENSOR_CLASS(VAR, NAME, DOC, INIT)                                                \
  const lied_class VAR = {NAME, "undirected", DOC, sizeof(tfu_sensor), sensor_params,     \
                          sizeof sensor_params / sizeof *sensor_params, INIT, sensor_meta}
SENSOR_CLASS(tfu_t_sensor_class, "TemperatureSensor",
             "undirected in-line temperature sensor: y = T [K] of the flow that passes (the "
             "forward or rearward state, blended near zero flow)", t_init);
SENSOR_CLASS(tfu_p_sensor_class, "PressureSensor",
             "undirected in-line pressure sensor: y = p [Pa], steady pressure of the flow that "
             "passes (blended near zero flow)", p_init);
SENSOR_CLASS(tfu_m_sensor_class, "MassFlowSensor",
             "undirected in-line mass flow sensor: y = m_flow [kg/s], positive forwards", m_init);
SENSOR_CLASS(tfu_h_sensor_class, "EnthalpySensor",
             "undirected in-line specific enthalpy sensor: y = h [J/kg] of the flow that passes "
             "(blended near zero flow)", h_init);
