/* sensors.c - two-phase in-line sensors on a refrigerant's stream, each with
 * a real-signal output y (docs/refrigeration.md, "Sensors"):
 *   SuperheatSensor              y = T(p, h) - Tsat(p)   [K] (0 two-phase, < 0 subcooled)
 *   SubcoolingSensor             y = Tsat(p) - T(p, h)   [K] (0 two-phase, < 0 superheated)
 *   QualitySensor                y = x(p, h) in [0, 1], or (extended = 1)
 *                                  (h - h'(p))/(h''(p) - h'(p)), < 0 subcooled, > 1 superheated
 *   SaturationTemperatureSensor  y = Tsat(p)             [K]
 * At a pressure without saturated states (above the critical pressure) they
 * fault, naming the component, the time and the state. The superheat, the
 * subcooling and the (unextended) quality kink where the stream crosses the
 * dome's edges (T(p, h) leaves Tsat, x leaves its clamp): kink functions
 * h - h'(p), h - h''(p) (docs/events.md, "Kinks"; NaN above the critical
 * pressure, never crossing); the extended quality is linear in h across the
 * edges, Tsat reads p alone: no kinks. The stream passes
 * unchanged (its p in a block of its own: docs/thermofluid.md, "What the
 * blocks read and write"); the value is also recorded (superheat, subcooling, x, Tsat). */
#include "lib/refrigeration/refrigeration.h"
#include "lib/thermofluid/deps.h"

enum { Q_SUPERHEAT = 1, Q_SUBCOOLING, Q_QUALITY, Q_TSAT };

typedef struct rg_sensor {
  tf_in inlet;
  tf_out outlet;
  lied_real_out y;
  tf_med med;
  double value;
  double z_phase[TF_PHASE_MAX]; /* kink functions: the dome's edges */
  int quantity, extended;
} rg_sensor;

/* The stream passes: its p in one block, m_flow, h (and X) in another. */
TF_P_PASS(sensor_pressure_b, rg_sensor, inlet, outlet)
TF_FLOW_PASS_LANES(sensor_flow_b, rg_sensor, inlet, outlet, med)
/* The quantity at (p, h) (faults of self name the state where there is none). */
static double sensor_eval(const lied_env *env, const void *self, const tf_med *med, int quantity,
                          int extended, double p, double h) {
  tf_sat st;
  tf_props o;
  if (quantity == Q_QUALITY && !extended)
    return rg_props(env, self, med, p, h, &o, "stream") ? NAN : o.x;
  if (rg_sat(env, self, med, p, &st, "stream")) return NAN;
  if (quantity == Q_TSAT) return st.T;
  if (quantity == Q_QUALITY) return (h - st.hL) / (st.hV - st.hL);
  const double T = tf_T(med, p, h);
  TF_GUARD_PH(env, self, med, T, p, h, "stream");
  return quantity == Q_SUPERHEAT ? T - st.T : st.T - T;
}
static void sensor_measure(const lied_env *env, rg_sensor *s) {
  s->value = sensor_eval(env, s, &s->med, s->quantity, s->extended, s->inlet.state->p,
                         s->inlet.state->h);
  s->y.y.y = s->value;
}
static void sensor_der(const lied_env *env, rg_sensor *s) {
  (void)env;
  tf_pass_der(&s->inlet, &s->outlet);
}
static void sensor_r(const lied_env *env, rg_sensor *s) {
  (void)env;
  s->inlet.r.r = s->outlet.r->r;
}
/* The kink functions (nothing reads them). */
static void sensor_kinks(const lied_env *env, rg_sensor *s) {
  (void)env;
  tf_phase_z(&s->med, s->inlet.state->p, s->inlet.state->h, s->z_phase);
}
static int sensor_kinked(const rg_sensor *s) {
  return s->quantity == Q_SUPERHEAT || s->quantity == Q_SUBCOOLING ||
         (s->quantity == Q_QUALITY && !s->extended);
}
LIED_BLOCK(sensor_measure_b, rg_sensor, sensor_measure)
LIED_BLOCK(sensor_kinks_b, rg_sensor, sensor_kinks)
LIED_BLOCK(sensor_der_b, rg_sensor, sensor_der)
LIED_BLOCK(sensor_r_b, rg_sensor, sensor_r)

/* Lane forms (lied/component.h): the same operations, copy by copy. */
static void sensor_measure_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *in = LIED_LANE_IN(rg_sensor, g, inlet.state);
  double *v = LIED_LANE(rg_sensor, g, value), *y = LIED_LANE(rg_sensor, g, y.y.y);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(rg_sensor, g, med, l, &med);
    v[l] = sensor_eval(env, TF_LANE_WORD(rg_sensor, g, value, l), &med,
                       TF_LANE_INT(rg_sensor, g, quantity, l), TF_LANE_INT(rg_sensor, g, extended, l),
                       TF_V(in, 1, l), TF_V(in, 2, l));
    y[l] = v[l];
  }
}
TF_DER_LANES(sensor_der_lanes, rg_sensor, inlet, outlet)
LIED_LANE_BODY void sensor_r_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict r_ = LIED_LANE_IN(rg_sensor, g, outlet.r);
  double *restrict o_ = LIED_LANE(rg_sensor, g, inlet.r.r);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o_[l] = r_[l];
}
LIED_LANE_FORM(sensor_r_lanes)

static const char *const quantity_name[] = {"", "superheat", "subcooling", "x", "Tsat"};
static const char *const quantity_unit[] = {"", "K", "K", "1", "K"};

static void sensor_meta(lied_meta *m, void *self) {
  rg_sensor *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, quantity_name[s->quantity], quantity_unit[s->quantity], &s->value);
  tf_meta_p_pass(m, "pressure", sensor_pressure_b, sensor_pressure_b_lanes, &s->inlet,
                 &s->outlet);
  tf_meta_flow_pass(m, sensor_flow_b, &s->inlet, &s->outlet, &s->med);
  lied_meta_lanes(m, sensor_flow_b_lanes);
  /* the saturation temperature reads p alone; the others p and h */
  lied_meta_block(m, "measure", sensor_measure_b, 0, LIED_SIGS(&s->inlet.state),
                  LIED_SIGS(&s->value, &s->y.y));
  lied_meta_lanes(m, sensor_measure_lanes);
  tf_meta_reads(m, &s->inlet, s->quantity == Q_TSAT ? TF_P : TF_P | TF_H);
  if (sensor_kinked(s)) {
    lied_meta_block(m, "kinks", sensor_kinks_b, 0, LIED_SIGS(&s->inlet.state),
                    LIED_SIGS(&s->z_phase[0], &s->z_phase[1]));
    tf_meta_reads(m, &s->inlet, TF_P | TF_H);
    tf_meta_phase_kinks(m, &s->med, s->z_phase);
  }
  lied_meta_block(m, "der", sensor_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->inlet.der),
                  LIED_SIGS(&s->outlet.der));
  lied_meta_lanes(m, sensor_der_lanes);
  lied_meta_block(m, "r", sensor_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->outlet.r),
                  LIED_SIGS(&s->inlet.r));
  lied_meta_lanes(m, sensor_r_lanes);
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
