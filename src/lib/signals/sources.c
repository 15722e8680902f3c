/* sources.c - signal sources, functions of time only: Constant, Step,
 * Ramp, Sine, Pulse (output port y; docs/signals.md). */
#include "lib/signals/signals.h"

/* ---- Constant: y = k ---- */

static void constant_eval(const lied_env *env, sig_constant *c) {
  (void)env;
  c->y.y.y = c->k;
}
LIED_BLOCK(constant_block, sig_constant, constant_eval)

/* Lane form (lied/component.h): models of copies driven by a Constant
 * keep their lanes. */
LIED_LANE_BODY void constant_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict k = LIED_LANE(sig_constant, g, k);
  double *restrict y = LIED_LANE(sig_constant, g, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) y[l] = k[l];
}
LIED_LANE_FORM(constant_lanes)

void sig_constant_meta(lied_meta *m, void *self) {
  sig_constant *c = self;
  sig_meta_source(m, &c->y, constant_block, LIED_SIGS(&c->k));
  lied_meta_lanes(m, constant_lanes);
}

const lied_param sig_constant_params[] = {
    {"k", offsetof(sig_constant, k), 1, "1", "value", SIG_NOMIN, SIG_NOMAX, 0, 0},
};
const lied_class sig_constant_class = SIG_CONSTANT_CLASS("signals");

/* ---- Step and Ramp: y = offset + height * r(t), r rising from 0 to 1 at
 * t0 (Step) or over [t0, t0 + duration] (Ramp; duration 0 is a step) ---- */

static inline double ramp_eq(double t, double offset, double height, double t0,
                             double duration) {
  double x = duration > 0 ? (t - t0) / duration : (t >= t0 ? 1.0 : 0.0);
  return offset + height * (x < 0 ? 0.0 : x > 1 ? 1.0 : x);
}
static void ramp_eval(const lied_env *env, sig_ramp *s) {
  s->y.y.y = ramp_eq(env->t, s->offset, s->height, s->t0, s->duration);
}
LIED_BLOCK(ramp_block, sig_ramp, ramp_eval)

LIED_LANE_BODY void ramp_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *restrict o = LIED_LANE(sig_ramp, g, offset), *restrict h = LIED_LANE(sig_ramp, g, height);
  const double *restrict t0 = LIED_LANE(sig_ramp, g, t0), *restrict d = LIED_LANE(sig_ramp, g, duration);
  double *restrict y = LIED_LANE(sig_ramp, g, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) y[l] = ramp_eq(env->t, o[l], h[l], t0[l], d[l]);
}
LIED_LANE_FORM(ramp_lanes)

/* Time events: the step (or the ramp's start) at t0, the ramp's end. */
static double ramp_next(const void *self, double t) {
  const sig_ramp *s = self;
  if (t < s->t0) return s->t0;
  if (s->duration > 0 && t < s->t0 + s->duration) return s->t0 + s->duration;
  return INFINITY;
}

/* A source's value offset + a (a = height, amplitude) must be a number for
 * every finite pair: their magnitudes' sum overflowing (1e308 + 1e308)
 * would put an inf in the results without a word. */
static int sum_finite(lied_init *ctx, double offset, const char *a, double va) {
  if (isfinite(fabs(offset) + fabs(va))) return 0;
  lied_init_error(ctx, "offset = %g and %s = %g add up beyond the largest number", offset, a, va);
  return -1;
}

int sig_ramp_init(void *self, lied_init *ctx) {
  const sig_ramp *s = self;
  return sum_finite(ctx, s->offset, "height", s->height);
}

void sig_ramp_meta(lied_meta *m, void *self) {
  sig_ramp *s = self;
  sig_meta_source(m, &s->y, ramp_block, LIED_SIGS(&lied_time));
  lied_meta_lanes(m, ramp_lanes);
  lied_meta_time_events(m, ramp_next);
}

#define P_OFFSET(T)                                                                      \
  {"offset", offsetof(T, offset), 0, "1", "value before t0", SIG_NOMIN, SIG_NOMAX, 0, 0}
#define P_T0(T) {"t0", offsetof(T, t0), 0, "s", "start time", SIG_NOMIN, SIG_NOMAX, 0, 0}

const lied_param sig_step_params[] = {
    P_OFFSET(sig_ramp),
    {"height", offsetof(sig_ramp, height), 1, "1", "size of the step", SIG_NOMIN, SIG_NOMAX, 0, 0},
    P_T0(sig_ramp),
};
const lied_param sig_ramp_params[] = {
    P_OFFSET(sig_ramp),
    {"height", offsetof(sig_ramp, height), 1, "1", "rise over the ramp", SIG_NOMIN, SIG_NOMAX, 0, 0},
    P_T0(sig_ramp),
    {"duration", offsetof(sig_ramp, duration), 1, "s", "time to rise by height (0: a step)", 0,
     SIG_NOMAX, 0, 0},
};
const lied_class sig_step_class = SIG_STEP_CLASS("signals");
const lied_class sig_ramp_class = SIG_RAMP_CLASS("signals");

/* ---- Sine: y = offset + amplitude sin(w t + phase), w = 2 pi f ---- */

static inline double sine_eq(double t, double amplitude, double w, double phase,
                             double offset) {
  return offset + amplitude * sin(w * t + phase);
}
static void sine_eval(const lied_env *env, sig_sine *c) {
  c->y.y.y = sine_eq(env->t, c->amplitude, c->w, c->phase, c->offset);
}
LIED_BLOCK(sine_block, sig_sine, sine_eval)

/* Lane form: libm's sin, one copy at a time. */
LIED_LANE_BODY void sine_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *A = LIED_LANE(sig_sine, g, amplitude), *w = LIED_LANE(sig_sine, g, w);
  const double *phase = LIED_LANE(sig_sine, g, phase), *offset = LIED_LANE(sig_sine, g, offset);
  double *y = LIED_LANE(sig_sine, g, y.y.y);
  for (size_t l = 0; l < n; l++) y[l] = sine_eq(env->t, A[l], w[l], phase[l], offset[l]);
}
LIED_LANE_FORM(sine_lanes)

int sig_sine_init(void *self, lied_init *ctx) {
  sig_sine *c = self;
  if (!isnan(c->f) && !isnan(c->w)) {
    lied_init_error(ctx, "Sine: set the frequency f or the angular frequency w, not both "
                         "(f = %g Hz, w = %g rad/s)", c->f, c->w);
    return -1;
  }
  if (isnan(c->w)) c->w = 2.0 * SIG_PI * (isnan(c->f) ? 1.0 : c->f);
  if (!isfinite(c->w)) { /* sin(inf t) is NaN */
    lied_init_error(ctx, "Sine: f = %g Hz gives an angular frequency 2 pi f beyond the largest "
                         "number", c->f);
    return -1;
  }
  return sum_finite(ctx, c->offset, "amplitude", c->amplitude);
}

void sig_sine_meta(lied_meta *m, void *self) {
  sig_sine *c = self;
  sig_meta_source(m, &c->y, sine_block, LIED_SIGS(&lied_time));
  lied_meta_lanes(m, sine_lanes);
}

const lied_param sig_sine_params[] = {
    {"amplitude", offsetof(sig_sine, amplitude), 1, "1", "amplitude", SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"f", offsetof(sig_sine, f), NAN, "Hz", "frequency (default 1 Hz unless w is set)", 0,
     SIG_NOMAX, 0, 0},
    {"w", offsetof(sig_sine, w), NAN, "rad/s", "angular frequency (instead of f)", SIG_NOMIN,
     SIG_NOMAX, 0, 0},
    {"phase", offsetof(sig_sine, phase), 0, "rad", "phase at t = 0", SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"offset", offsetof(sig_sine, offset), 0, "1", "mean value", SIG_NOMIN, SIG_NOMAX, 0, 0},
};
const lied_class sig_sine_class = SIG_SINE_CLASS("signals");

/* ---- Pulse: offset, plus amplitude during the first width % of every
 * period from t0 on ---- */
typedef struct sig_pulse {
  lied_real_out y;
  double amplitude, width, period, offset, t0;
  double on; /* derived: the high time of a period [s] */
} sig_pulse;

/* High from the start of period k, t0 + k period, for `on` seconds. The
 * start is formed as lied_periodic_next forms it, so the switching times
 * the block sees are exactly its time events. */
static void pulse_eval(const lied_env *env, sig_pulse *p) {
  double k = lied_periodic_index(env->t, p->t0, p->period);
  double high = 0.0;
  if (k >= 0 && env->t < (p->t0 + k * p->period) + p->on) high = p->amplitude;
  p->y.y.y = p->offset + high;
}
LIED_BLOCK(pulse_block, sig_pulse, pulse_eval)

/* Time events: every rise (t0 + k period) and fall (rise + on). */
static double pulse_next(const void *self, double t) {
  const sig_pulse *p = self;
  double k = lied_periodic_index(t, p->t0, p->period);
  if (k >= 0) {
    double fall = (p->t0 + k * p->period) + p->on;
    if (t < fall) return fall;
  }
  return lied_periodic_next(t, p->t0, p->period);
}

static int pulse_init(void *self, lied_init *ctx) {
  sig_pulse *p = self;
  p->on = p->width / 100.0 * p->period;
  return sum_finite(ctx, p->offset, "amplitude", p->amplitude);
}

static void pulse_meta(lied_meta *m, void *self) {
  sig_pulse *p = self;
  sig_meta_source(m, &p->y, pulse_block, LIED_SIGS(&lied_time));
  lied_meta_time_events(m, pulse_next);
}

static const lied_param pulse_params[] = {
    {"amplitude", offsetof(sig_pulse, amplitude), 1, "1", "height of the pulses", SIG_NOMIN,
     SIG_NOMAX, 0, 0},
    {"width", offsetof(sig_pulse, width), 50, "%", "high part of each period", 0, 100,
     LIED_PARAM_MIN_OPEN, 0},
    {"period", offsetof(sig_pulse, period), 1, "s", "period", 0, SIG_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    P_OFFSET(sig_pulse),
    {"t0", offsetof(sig_pulse, t0), 0, "s", "start of the first pulse", SIG_NOMIN, SIG_NOMAX, 0, 0},
};
const lied_class sig_pulse_class = {
    "Pulse", "signals", "y = offset, plus amplitude in the first width % of each period from t0",
    sizeof(sig_pulse), pulse_params, 5, pulse_init, pulse_meta};
