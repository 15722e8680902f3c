/* duffing.c - an out-of-tree component library for lied: one component, a
 * mass on a hardening (cubic) spring with damping, driven by a force
 * signal (the Duffing oscillator):
 *
 *   m der(v) = u - d v - k x - k3 x^3,   der(x) = v,   y = x
 *
 * It includes only lied's public header and is compiled into duffing.so,
 * which `require "duffing"` loads (in lied, or in a stock Lua 5.4 with
 * lied's modules on its paths). See README.md here and docs/components.md. */
#include <math.h>
#include <stddef.h>
#include "lied/component.h"

typedef struct duffing_osc {
  lied_real_in u;  /* force [N]: reads u.y->y (optional: 0 when unconnected) */
  lied_real_out y; /* position [m] */
  double x, der_x, v, der_v;
  double m, d, k, k3; /* parameters */
} duffing_osc;

/* the equations, once: the block and its lane form both call them */
static inline double duffing_acc(double u, double x, double v, double m, double d, double k,
                                 double k3) {
  return (u - d * v - k * x - k3 * x * x * x) / m;
}

static void osc_output(const lied_env *env, duffing_osc *o) {
  (void)env;
  o->y.y.y = o->x;
}
static void osc_derivatives(const lied_env *env, duffing_osc *o) {
  (void)env;
  o->der_x = o->v;
  o->der_v = duffing_acc(o->u.y->y, o->x, o->v, o->m, o->d, o->k, o->k3);
}
LIED_BLOCK(osc_output_b, duffing_osc, osc_output)
LIED_BLOCK(osc_derivatives_b, duffing_osc, osc_derivatives)

/* Lane forms (optional): 32 copies laid out field by field, for models of
 * many independent copies (docs/components.md, "Lane forms"). */
LIED_LANE_BODY void osc_output_lanes_n(const lied_env *env, char *g, size_t n, size_t s) {
  (void)env, (void)s;
  double *y = LIED_LANE(duffing_osc, g, y.y.y);
  const double *x = LIED_LANE(duffing_osc, g, x);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) y[l] = x[l];
}
LIED_LANE_FORM(osc_output_lanes)
LIED_LANE_BODY void osc_derivatives_lanes_n(const lied_env *env, char *g, size_t n, size_t s) {
  (void)env, (void)s;
  const double *u = LIED_LANE_IN(duffing_osc, g, u.y);
  const double *x = LIED_LANE(duffing_osc, g, x), *v = LIED_LANE(duffing_osc, g, v);
  const double *m = LIED_LANE(duffing_osc, g, m), *d = LIED_LANE(duffing_osc, g, d);
  const double *k = LIED_LANE(duffing_osc, g, k), *k3 = LIED_LANE(duffing_osc, g, k3);
  double *dx = LIED_LANE(duffing_osc, g, der_x), *dv = LIED_LANE(duffing_osc, g, der_v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    dx[l] = v[l];
    dv[l] = duffing_acc(u[l], x[l], v[l], m[l], d[l], k[l], k3[l]);
  }
}
LIED_LANE_FORM(osc_derivatives_lanes)

static void osc_meta(lied_meta *m, void *self) {
  duffing_osc *o = self;
  lied_meta_real_in_optional(m, "u", 0, &o->u);
  lied_meta_real_out(m, "y", 0, &o->y);
  lied_meta_state(m, "x", "m", &o->x, &o->der_x);
  lied_meta_state(m, "v", "m/s", &o->v, &o->der_v);
  lied_meta_block(m, "output", osc_output_b, 0, LIED_SIGS(&o->x), LIED_SIGS(&o->y.y));
  lied_meta_lanes(m, osc_output_lanes);
  lied_meta_block(m, "derivatives", osc_derivatives_b, 0, LIED_SIGS(&o->u.y, &o->x, &o->v),
                  LIED_SIGS(&o->der_x, &o->der_v));
  lied_meta_lanes(m, osc_derivatives_lanes);
}

static int osc_init(void *self, lied_init *ctx) {
  duffing_osc *o = self;
  if (o->k == 0 && o->k3 == 0) {
    lied_init_error(ctx, "k and k3 are both 0: no spring");
    return -1;
  }
  return 0;
}

static const lied_param osc_params[] = {
    {"m", offsetof(duffing_osc, m), 1, "kg", "mass", 0, HUGE_VAL, LIED_PARAM_MIN_OPEN, 0, NULL},
    {"d", offsetof(duffing_osc, d), 0, "N.s/m", "damping", 0, HUGE_VAL, 0, 0, NULL},
    {"k", offsetof(duffing_osc, k), 1, "N/m", "linear stiffness", -HUGE_VAL, HUGE_VAL, 0, 0,
     NULL},
    {"k3", offsetof(duffing_osc, k3), 0, "N/m3", "cubic stiffness", -HUGE_VAL, HUGE_VAL, 0, 0,
     NULL},
    {"x", offsetof(duffing_osc, x), 0, "m", "start position", -HUGE_VAL, HUGE_VAL, 0, 0, NULL},
    {"v", offsetof(duffing_osc, v), 0, "m/s", "start velocity", -HUGE_VAL, HUGE_VAL, 0, 0, NULL},
};

static const lied_class osc_class = {
    "Oscillator", "duffing",
    "mass on a cubic spring: m der(v) = u - d v - k x - k3 x^3, y = x (force input u)",
    sizeof(duffing_osc), osc_params, 6, osc_init, osc_meta};

static const lied_class *const duffing_classes[] = {&osc_class, NULL};

/* The descriptor, its registration and luaopen_duffing: `require "duffing"`. */
LIED_LIBRARY(duffing, "Duffing oscillators: a mass on a hardening spring (example plugin)",
             duffing_classes)
