/* signals.c - signal sources for inputs such as a source pressure or a pump
 * speed: Constant, Step, Ramp, Sine (output port y). */
#include "lib/thermofluid/thermofluid.h"

typedef struct tf_src {
  tf_sig_out y;
  double offset, height, t0, duration, f, phase;
} tf_src;

static void constant_eval(const lied_env *env, tf_src *s) {
  (void)env;
  s->y.y.y = s->offset;
}
static void step_eval(const lied_env *env, tf_src *s) {
  s->y.y.y = s->offset + (env->t >= s->t0 ? s->height : 0.0);
}
static void ramp_eval(const lied_env *env, tf_src *s) {
  double x = s->duration > 0 ? (env->t - s->t0) / s->duration : (env->t >= s->t0 ? 1.0 : 0.0);
  s->y.y.y = s->offset + s->height * (x < 0 ? 0.0 : x > 1 ? 1.0 : x);
}
static void sine_eval(const lied_env *env, tf_src *s) {
  s->y.y.y = s->offset + s->height * sin(2.0 * TF_PI * s->f * env->t + s->phase);
}
LIED_BLOCK(constant_b, tf_src, constant_eval)
LIED_BLOCK(step_b, tf_src, step_eval)
LIED_BLOCK(ramp_b, tf_src, ramp_eval)
LIED_BLOCK(sine_b, tf_src, sine_eval)

static void constant_meta(lied_meta *m, void *self) {
  tf_src *s = self;
  lied_meta_port(m, "y", 0, &s->y, &tf_sig_out_layout);
  lied_meta_block(m, "value", constant_b, 0, LIED_SIGS(&s->offset), LIED_SIGS(&s->y.y));
}
/* Time-dependent sources. */
#define TIMED_META(NAME, BLOCK)                                                     \
  static void NAME(lied_meta *m, void *self) {                                     \
    tf_src *s = self;                                                              \
    lied_meta_port(m, "y", 0, &s->y, &tf_sig_out_layout);                          \
    lied_meta_block(m, "value", BLOCK, 0, LIED_SIGS(&lied_time), LIED_SIGS(&s->y.y)); \
  }
TIMED_META(step_meta, step_b)
TIMED_META(ramp_meta, ramp_b)
TIMED_META(sine_meta, sine_b)

#define P_OFFSET {"offset", offsetof(tf_src, offset), 0, "1", "value before the change", TF_NOMIN, TF_NOMAX, 0, 0}
#define P_HEIGHT {"height", offsetof(tf_src, height), 1, "1", "size of the change", TF_NOMIN, TF_NOMAX, 0, 0}
#define P_T0 {"t0", offsetof(tf_src, t0), 0, "s", "time of the change", TF_NOMIN, TF_NOMAX, 0, 0}

static const lied_param constant_params[] = {
    {"k", offsetof(tf_src, offset), 1, "1", "value", TF_NOMIN, TF_NOMAX, 0, 0}};
static const lied_param step_params[] = {P_OFFSET, P_HEIGHT, P_T0};
static const lied_param ramp_params[] = {
    P_OFFSET, P_HEIGHT, P_T0,
    {"duration", offsetof(tf_src, duration), 1, "s", "time to rise by height", 0, TF_NOMAX, 0, 0}};
static const lied_param sine_params[] = {
    {"offset", offsetof(tf_src, offset), 0, "1", "mean value", TF_NOMIN, TF_NOMAX, 0, 0},
    {"amplitude", offsetof(tf_src, height), 1, "1", "amplitude", TF_NOMIN, TF_NOMAX, 0, 0},
    {"f", offsetof(tf_src, f), 1, "Hz", "frequency", 0, TF_NOMAX, 0, 0},
    {"phase", offsetof(tf_src, phase), 0, "rad", "phase at t = 0", TF_NOMIN, TF_NOMAX, 0, 0}};

const lied_class tf_constant_class = {"Constant", "thermofluid", "signal y = k",
                                      sizeof(tf_src), constant_params, 1, NULL, constant_meta};
const lied_class tf_step_class = {"Step", "thermofluid",
                                  "signal y = offset, plus height from t >= t0",
                                  sizeof(tf_src), step_params, 3, NULL, step_meta};
const lied_class tf_ramp_class = {
    "Ramp", "thermofluid", "signal rising linearly from offset to offset + height over [t0, t0 + duration]",
    sizeof(tf_src), ramp_params, 4, NULL, ramp_meta};
const lied_class tf_sine_class = {"Sine", "thermofluid",
                                  "signal y = offset + amplitude*sin(2*pi*f*t + phase)",
                                  sizeof(tf_src), sine_params, 4, NULL, sine_meta};
