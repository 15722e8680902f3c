/* discrete.c - blocks with discrete variables, changed only at events
 * (lied/component.h "events", docs/events.md): Hysteresis (a state event),
 * and the sampled blocks SampleHold, UnitDelay and DiscretePI (time events
 * at t0 + k period). Between events their outputs hold. */
#include "lib/signals/signals.h"

static inline double limit(double v, double lo, double hi) { return v > hi ? hi : v < lo ? lo : v; }

/* ---- Hysteresis ----
 * y = yHigh after u rose above uHigh, yLow after it fell below uLow; in
 * between, what it was. One zero function: u - uLow while high (it falls
 * through 0 when u drops below uLow), u - uHigh while low. */
typedef struct sig_hysteresis {
  lied_real_in u;
  lied_real_out y;
  double uLow, uHigh, yLow, yHigh;
  int high_start; /* parameter (LIED_PARAM_INT: stored as int) */
  double high;    /* discrete: 1 or 0 */
  double z;    /* zero function */
} sig_hysteresis;

static void hysteresis_eval(const lied_env *env, sig_hysteresis *c) {
  (void)env;
  double u = c->u.y->y;
  c->y.y.y = c->high != 0 ? c->yHigh : c->yLow;
  c->z = c->high != 0 ? u - c->uLow : u - c->uHigh;
}
LIED_BLOCK(hysteresis_block, sig_hysteresis, hysteresis_eval)

static void hysteresis_event(void *self, const lied_event *ev) {
  sig_hysteresis *c = self;
  double u = c->u.y->y;
  if (ev->initial)
    c->high = u > c->uHigh || (c->high_start != 0 && u >= c->uLow);
  else if (ev->crossed)
    c->high = c->high != 0 ? !(u <= c->uLow) : u > c->uHigh;
}

static int hysteresis_init(void *self, lied_init *ctx) {
  sig_hysteresis *c = self;
  if (!(c->uLow < c->uHigh)) {
    lied_init_error(ctx, "Hysteresis: uLow = %g must be below uHigh = %g", c->uLow, c->uHigh);
    return -1;
  }
  return 0;
}

static void hysteresis_meta(lied_meta *m, void *self) {
  sig_hysteresis *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_var(m, "high", "1", &c->high);
  lied_meta_block(m, "switch", hysteresis_block, 0, LIED_SIGS(&c->u.y, &c->high),
                  LIED_SIGS(&c->y.y, &c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH);
  lied_meta_event(m, hysteresis_event);
}

static const lied_param hysteresis_params[] = {
    {"uLow", offsetof(sig_hysteresis, uLow), 0, "1", "y becomes yLow when u falls below this",
     SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"uHigh", offsetof(sig_hysteresis, uHigh), 1, "1", "y becomes yHigh when u rises above this",
     SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"yLow", offsetof(sig_hysteresis, yLow), 0, "1", "output in the low state", SIG_NOMIN,
     SIG_NOMAX, 0, 0},
    {"yHigh", offsetof(sig_hysteresis, yHigh), 1, "1", "output in the high state", SIG_NOMIN,
     SIG_NOMAX, 0, 0},
    {"high_start", offsetof(sig_hysteresis, high_start), 0, "1",
     "state at the start when uLow <= u <= uHigh (1 high, 0 low)", 0, 1, LIED_PARAM_INT, 0},
};
const lied_class sig_hysteresis_class = {
    "Hysteresis", "signals",
    "y = yHigh after u rose above uHigh, yLow after it fell below uLow (a state event)",
    sizeof(sig_hysteresis), hysteresis_params, 5, hysteresis_init, hysteresis_meta};

/* ---- sampled blocks: events at t0 + k period ---- */

typedef struct sig_sampled {
  lied_real_in u;
  lied_real_out y;
  double period, t0, y_start;
  double held;  /* discrete: the output */
  double mem;   /* UnitDelay: the last sample; DiscretePI: the integral part */
  double v;     /* DiscretePI: the unlimited output */
  double k, Ti, Tt, yMax, yMin; /* DiscretePI */
} sig_sampled;

static double sampled_next(const void *self, double t) {
  const sig_sampled *c = self;
  return lied_periodic_next(t, c->t0, c->period);
}

static void held_eval(const lied_env *env, sig_sampled *c) {
  (void)env;
  c->y.y.y = c->held;
}
LIED_BLOCK(held_block, sig_sampled, held_eval)

static int sampled_check(const sig_sampled *c, lied_init *ctx, const char *cls) {
  if (!isfinite(c->t0)) {
    lied_init_error(ctx, "%s: t0 must be finite, got %g", cls, c->t0);
    return -1;
  }
  return 0;
}
static int sample_hold_init(void *self, lied_init *ctx) {
  return sampled_check(self, ctx, "SampleHold");
}
static int unit_delay_init(void *self, lied_init *ctx) {
  return sampled_check(self, ctx, "UnitDelay");
}

/* The parts every sampled block shares: ports, the output block, events. */
static void sampled_meta(lied_meta *m, sig_sampled *c, lied_event_fn handler) {
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "hold", held_block, 0, LIED_SIGS(&c->held), LIED_SIGS(&c->y.y));
  lied_meta_time_events(m, sampled_next);
  lied_meta_event(m, handler);
}

/* The handlers: ev->initial sets the values before the first sample (a
 * sample at the start of the run is a time event of the start: ev->time,
 * after every initial call; docs/events.md). */

/* SampleHold: y = u at the last sample time. */
static void sample_hold_event(void *self, const lied_event *ev) {
  sig_sampled *c = self;
  if (ev->time)
    c->held = c->u.y->y;
  else if (ev->initial)
    c->held = c->y_start;
}
static void sample_hold_meta(lied_meta *m, void *self) {
  sampled_meta(m, self, sample_hold_event);
}

/* UnitDelay: y = u at the sample time before the last one. */
static void unit_delay_event(void *self, const lied_event *ev) {
  sig_sampled *c = self;
  if (ev->initial) {
    c->held = c->y_start;
    c->mem = c->y_start;
  } else if (ev->time) {
    c->held = c->mem;
    c->mem = c->u.y->y;
  }
}
static void unit_delay_meta(lied_meta *m, void *self) {
  sig_sampled *c = self;
  sampled_meta(m, c, unit_delay_event);
  lied_meta_var(m, "mem", "1", &c->mem);
}

/* DiscretePI: at each sample, with e = u (the control error),
 *   v = k e + x,  y = min(max(v, yMin), yMax),
 *   x <- x + period (k/Ti e + (y - v)/Tt)     (forward Euler of PI's x)
 * and y holds until the next sample. Before the first sample y = the
 * limited start value of x. */
static void dpi_sample(sig_sampled *c) {
  double e = c->u.y->y;
  c->v = c->k * e + c->mem;
  c->held = limit(c->v, c->yMin, c->yMax);
  c->mem += c->period * (c->k / c->Ti * e + (c->held - c->v) / c->Tt);
}
static void dpi_event(void *self, const lied_event *ev) {
  sig_sampled *c = self;
  if (ev->initial) {
    c->mem = c->y_start; /* the start value of x */
    c->v = c->mem;
    c->held = limit(c->mem, c->yMin, c->yMax);
  }
  if (ev->time) dpi_sample(c);
}
static int dpi_init(void *self, lied_init *ctx) {
  sig_sampled *c = self;
  if (sampled_check(c, ctx, "DiscretePI")) return -1;
  if (!(c->yMin <= c->yMax)) {
    lied_init_error(ctx, "DiscretePI: the output limits are not ordered: yMin = %g > yMax = %g",
                    c->yMin, c->yMax);
    return -1;
  }
  if (isnan(c->Tt)) c->Tt = c->Ti;
  /* the integral's coefficients, finite (Ti = 1e-320: k / Ti is inf, and the
   * discrete state x, which no solver checks, became inf at the first sample) */
  if (!isfinite(c->period * (c->k / c->Ti)) || !isfinite(c->period / c->Tt)) {
    lied_init_error(ctx, "DiscretePI: the integral's coefficients period k / Ti = %g and period / "
                         "Tt = %g must be finite (period = %g s, k = %g, Ti = %g s, Tt = %g s)",
                    c->period * (c->k / c->Ti), c->period / c->Tt, c->period, c->k, c->Ti, c->Tt);
    return -1;
  }
  return 0;
}
static void dpi_meta(lied_meta *m, void *self) {
  sig_sampled *c = self;
  sampled_meta(m, c, dpi_event);
  lied_meta_var(m, "x", "1", &c->mem);
  lied_meta_var(m, "v", "1", &c->v);
}

#define P_PERIOD                                                                           \
  {"period", offsetof(sig_sampled, period), 0.1, "s", "sample period", 0, SIG_NOMAX,        \
   LIED_PARAM_MIN_OPEN, 0}
#define P_T0S                                                                              \
  {"t0", offsetof(sig_sampled, t0), 0, "s", "first sample time", SIG_NOMIN, SIG_NOMAX, 0, 0}
static const lied_param sample_hold_params[] = {
    P_PERIOD, P_T0S,
    {"y_start", offsetof(sig_sampled, y_start), 0, "1", "output before the first sample",
     SIG_NOMIN, SIG_NOMAX, 0, 0}};
static const lied_param unit_delay_params[] = {
    P_PERIOD, P_T0S,
    {"y_start", offsetof(sig_sampled, y_start), 0, "1",
     "output until the second sample (and the sample before the first)", SIG_NOMIN, SIG_NOMAX,
     0, 0}};
static const lied_param dpi_params[] = {
    P_PERIOD,
    P_T0S,
    {"k", offsetof(sig_sampled, k), 1, "1", "proportional gain", SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"Ti", offsetof(sig_sampled, Ti), 1, "s", "integral time", 0, SIG_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"Tt", offsetof(sig_sampled, Tt), NAN, "s", "anti-windup tracking time (default Ti)", 0,
     SIG_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"yMax", offsetof(sig_sampled, yMax), HUGE_VAL, "1", "upper output limit (default none)",
     SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"yMin", offsetof(sig_sampled, yMin), -HUGE_VAL, "1", "lower output limit (default none)",
     SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"x", offsetof(sig_sampled, y_start), 0, "1", "start value of the integral part",
     SIG_NOMIN, SIG_NOMAX, 0, 0},
};
const lied_class sig_sample_hold_class = {
    "SampleHold", "signals", "y = u at the last sample time t0 + k period (held in between)",
    sizeof(sig_sampled), sample_hold_params, 3, sample_hold_init, sample_hold_meta};
const lied_class sig_unit_delay_class = {
    "UnitDelay", "signals", "y = u at the sample time before the last (a delay of one period)",
    sizeof(sig_sampled), unit_delay_params, 3, unit_delay_init, unit_delay_meta};
const lied_class sig_discrete_pi_class = {
    "DiscretePI", "signals",
    "PI controller sampled every period: the discrete twin of PI (limits, anti-windup)",
    sizeof(sig_sampled), dpi_params, (int)(sizeof dpi_params / sizeof dpi_params[0]), dpi_init,
    dpi_meta};
