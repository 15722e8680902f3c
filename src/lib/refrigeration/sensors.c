/* sensors.c - two-phase in-line sensors on a refrigerant's stream, each with
 * a real-signal output y (docs/refrigeration.md, "Sensors"):
 *   SuperheatSensor              y = T(p, h) - Tsat(p)   [K] (0 two-phase, < 0 subcooled)
 *   SubcoolingSensor             y = Tsat(p) - T(p, h)   [K] (0 two-phase, < 0 superheated)
 *   QualitySensor                y = x(p, h) in [0, 1], or (extended = 1)
 *                                  (h - h'(p))/(h''(p) - h'(p)), < 0 subcooled, > 1 superheated
 *   SaturationTemperatureSensor  y = Tsat(p)             [K]
 * At a pressure without saturated states (above the critical pressure) they
 * fault, naming the component, the time and the state. The stream passes
 * unchanged; the value is also recorded (superheat, subcooling, x, Tsat). */
#include "lib/refrigeration/refrigeration.h"

enum { Q_SUPERHEAT = 1, Q_SUBCOOLING, Q_QUALITY, Q_TSAT };

typedef struct rg_sensor {
  tf_in inlet;
  tf_out outlet;
  lied_real_out y;
  tf_med med;
  double value;
  int quantity, extended;
} rg_sensor;

static void sensor_state(const lied_env *env, rg_sensor *s) {
  (void)env;
  s->outlet.state = *s->inlet.state;
}
static void sensor_measure(const lied_env *env, rg_sensor *s) {
  const double p = s->inlet.state->p, h = s->inlet.state->h;
  tf_sat st;
  tf_props o;
  double v = NAN;
  if (s->quantity == Q_QUALITY && !s->extended) {
    if (!rg_props(env, s, &s->med, p, h, &o, "stream")) v = o.x;
  } else if (!rg_sat(env, s, &s->med, p, &st, "stream")) {
    switch (s->quantity) {
      case Q_TSAT: v = st.T; break;
      case Q_QUALITY: v = (h - st.hL) / (st.hV - st.hL); break;
      default: {
        const double T = tf_T(&s->med, p, h);
        TF_GUARD_PH(env, s, &s->med, T, p, h, "stream");
        v = s->quantity == Q_SUPERHEAT ? T - st.T : st.T - T;
      }
    }
  }
  s->value = v;
  s->y.y.y = v;
}
static void sensor_der(const lied_env *env, rg_sensor *s) {
  (void)env;
  tf_pass_der(&s->inlet, &s->outlet);
}
static void sensor_r(const lied_env *env, rg_sensor *s) {
  (void)env;
  s->inlet.r.r = s->outlet.r->r;
}
LIED_BLOCK(sensor_state_b, rg_sensor, sensor_state)
LIED_BLOCK(sensor_measure_b, rg_sensor, sensor_measure)
LIED_BLOCK(sensor_der_b, rg_sensor, sensor_der)
LIED_BLOCK(sensor_r_b, rg_sensor, sensor_r)

static const char *const quantity_name[] = {"", "superheat", "subcooling", "x", "Tsat"};
static const char *const quantity_unit[] = {"", "K", "K", "1", "K"};

static void sensor_meta(lied_meta *m, void *self) {
  rg_sensor *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, quantity_name[s->quantity], quantity_unit[s->quantity], &s->value);
  lied_meta_block(m, "state", sensor_state_b, 0, LIED_SIGS(&s->inlet.state),
                  LIED_SIGS(&s->outlet.state));
  lied_meta_block(m, "measure", sensor_measure_b, 0, LIED_SIGS(&s->inlet.state),
                  LIED_SIGS(&s->value, &s->y.y));
  lied_meta_block(m, "der", sensor_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->inlet.der),
                  LIED_SIGS(&s->outlet.der));
  lied_meta_block(m, "r", sensor_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->outlet.r),
                  LIED_SIGS(&s->inlet.r));
}

#define SENSOR_INIT(NAME, Q)                                  \
  static int NAME(void *self, lied_init *ctx) {               \
    rg_sensor *s = self;                                      \
    s->quantity = Q;                                          \
    return rg_medium_init(&s->med, ctx);                      \
  }
SENSOR_INIT(superheat_init, Q_SUPERHEAT)
SENSOR_INIT(subcooling_init, Q_SUBCOOLING)
SENSOR_INIT(quality_init, Q_QUALITY)
SENSOR_INIT(tsat_init, Q_TSAT)

static const lied_param sensor_params[] = {RG_MEDIUM_PARAM(rg_sensor)};
static const lied_param quality_params[] = {
    {"extended", offsetof(rg_sensor, extended), 0, "1",
     "1: the extended quality (h - h')/(h'' - h'), below 0 subcooled, above 1 superheated; 0: x "
     "in [0, 1]",
     0, 1, LIED_PARAM_INT, 0, NULL},
    RG_MEDIUM_PARAM(rg_sensor),
};
#define SENSOR_CLASS(VAR, NAME, DOC, PARAMS, INIT)                                          \
  const lied_class VAR = {NAME, "thermofluid", DOC, sizeof(rg_sensor), PARAMS,            \
                          sizeof PARAMS / sizeof *PARAMS, INIT, sensor_meta}
SENSOR_CLASS(rg_superheat_class, "SuperheatSensor",
             "in-line superheat sensor: y = T(p, h) - Tsat(p) [K] (0 two-phase, negative "
             "subcooled; also superheat)",
             sensor_params, superheat_init);
SENSOR_CLASS(rg_subcooling_class, "SubcoolingSensor",
             "in-line subcooling sensor: y = Tsat(p) - T(p, h) [K] (0 two-phase, negative "
             "superheated; also subcooling)",
             sensor_params, subcooling_init);
SENSOR_CLASS(rg_quality_class, "QualitySensor",
             "in-line vapour quality sensor: y = x(p, h) [1] in [0, 1] (extended = 1: "
             "(h - h')/(h'' - h')); also x",
             quality_params, quality_init);
SENSOR_CLASS(rg_tsat_class, "SaturationTemperatureSensor",
             "in-line saturation temperature sensor: y = Tsat(p) [K] (also Tsat)", sensor_params,
             tsat_init);
