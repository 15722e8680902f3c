/* signal.c - the mechanics library's real-signal connector and two sources
 * (Constant, Sine) for the drive inputs of Revolute and Prismatic. */
#include "lib/mechanics/mechanics.h"

/* Every reader of this connector is optional: a drive input left
 * unconnected reads 0. */
const lied_connector pm_real_connector = {
    "real", {"y", "u"}, 1, NULL, 1, {{"value", LIED_DOWN, LIED_SIG_OPTIONAL, 1, "y", ""}}, NULL};
const lied_port_layout pm_real_out_layout = {&pm_real_connector, LIED_SOURCE,
                                             {offsetof(pm_real_out, y)}};
const lied_port_layout pm_real_in_layout = {&pm_real_connector, LIED_SINK,
                                            {offsetof(pm_real_in, u)}};

/* ---- Constant: y = k ---- */
typedef struct pm_constant {
  pm_real_out y;
  double k;
} pm_constant;

static void constant_eval(const lied_env *env, pm_constant *c) {
  (void)env;
  c->y.y.y = c->k;
}
LIED_BLOCK(constant_block, pm_constant, constant_eval)

/* Lane form (lied/component.h); the block runs once per run (constant
 * part) unless k is changed, so this is for completeness of the class. */
LIED_LANE_FN static void constant_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict k = LIED_LANE(pm_constant, g, k);
  double *restrict y = LIED_LANE(pm_constant, g, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) y[l] = k[l];
}

static void constant_meta(lied_meta *m, void *self) {
  pm_constant *c = self;
  lied_meta_port(m, "y", 0, &c->y, &pm_real_out_layout);
  lied_meta_block(m, "value", constant_block, 0, LIED_SIGS(&c->k), LIED_SIGS(&c->y.y));
  lied_meta_lanes(m, constant_lanes);
}

static const lied_param constant_params[] = {
    {"k", offsetof(pm_constant, k), 0, "1", "value", PM_NOMIN, PM_NOMAX, 0, 0},
};
const lied_class pm_constant_class = {"Constant", "mechanics",
                                      "constant real signal y = k (drive input)",
                                      sizeof(pm_constant), constant_params, 1, NULL,
                                      constant_meta};

/* ---- Sine: y = offset + A sin(w t + phase) ---- */
typedef struct pm_sine {
  pm_real_out y;
  double A, w, phase, offset;
} pm_sine;

static inline double sine_eq(double t, double A, double w, double phase, double offset) {
  return offset + A * sin(w * t + phase);
}

static void sine_eval(const lied_env *env, pm_sine *c) {
  c->y.y.y = sine_eq(env->t, c->A, c->w, c->phase, c->offset);
}
LIED_BLOCK(sine_block, pm_sine, sine_eval)

/* Lane form: libm's sin, one copy at a time. */
LIED_LANE_FN static void sine_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *A = LIED_LANE(pm_sine, g, A), *w = LIED_LANE(pm_sine, g, w);
  const double *phase = LIED_LANE(pm_sine, g, phase), *offset = LIED_LANE(pm_sine, g, offset);
  double *y = LIED_LANE(pm_sine, g, y.y.y);
  for (size_t l = 0; l < n; l++) y[l] = sine_eq(env->t, A[l], w[l], phase[l], offset[l]);
}

static void sine_meta(lied_meta *m, void *self) {
  pm_sine *c = self;
  lied_meta_port(m, "y", 0, &c->y, &pm_real_out_layout);
  lied_meta_block(m, "value", sine_block, 0, LIED_SIGS(&lied_time), LIED_SIGS(&c->y.y));
  lied_meta_lanes(m, sine_lanes);
}

static const lied_param sine_params[] = {
    {"A", offsetof(pm_sine, A), 1, "1", "amplitude", PM_NOMIN, PM_NOMAX, 0, 0},
    {"w", offsetof(pm_sine, w), 1, "rad/s", "angular frequency", PM_NOMIN, PM_NOMAX, 0, 0},
    {"phase", offsetof(pm_sine, phase), 0, "rad", "phase at t = 0", PM_NOMIN, PM_NOMAX, 0, 0},
    {"offset", offsetof(pm_sine, offset), 0, "1", "offset", PM_NOMIN, PM_NOMAX, 0, 0},
};
const lied_class pm_sine_class = {"Sine", "mechanics",
                                  "real signal y = offset + A sin(w t + phase) (drive input)",
                                  sizeof(pm_sine), sine_params, 4, NULL, sine_meta};
