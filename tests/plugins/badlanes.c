/* badlanes.c - built as badlanes.so for tests only: a component whose lane
 * form differs from its block, a deliberately broken fast path that
 * lied run --check must report (tests/plugins/test_check_broken.lua).
 *
 * Decay: der(x) = -k x. The block computes it; the lane form computes it
 * too, except in lane 5 of every group, where it multiplies by 1 + 2^-40:
 * copy 6 (and 38, ...) of an array run in lane form drifts from what the
 * block gives by a few units in the last place per step. */
#include <stddef.h>
#include "lied/component.h"

typedef struct bl_decay {
  double x, der_x, k;
} bl_decay;

static void decay_eval(const lied_env *env, bl_decay *d) {
  (void)env;
  d->der_x = -d->k * d->x;
}
LIED_BLOCK(decay_b, bl_decay, decay_eval)

LIED_LANE_BODY void decay_lanes_n(const lied_env *env, char *g, size_t n, size_t s) {
  (void)env, (void)s;
  const double *x = LIED_LANE(bl_decay, g, x), *k = LIED_LANE(bl_decay, g, k);
  double *dx = LIED_LANE(bl_decay, g, der_x);
  for (size_t l = 0; l < n; l++) dx[l] = -k[l] * x[l] * (l == 5 ? 1 + 0x1p-40 : 1);
}
LIED_LANE_FORM(decay_lanes)

static void decay_meta(lied_meta *m, void *self) {
  bl_decay *d = self;
  lied_meta_state(m, "x", "1", &d->x, &d->der_x);
  lied_meta_block(m, "decay", decay_b, 0, LIED_SIGS(&d->x), LIED_SIGS(&d->der_x));
  lied_meta_lanes(m, decay_lanes);
}

static const lied_param decay_params[] = {
    {"k", offsetof(bl_decay, k), 1, "1/s", "rate", -1e300, 1e300, 0, 0, NULL},
    {"x", offsetof(bl_decay, x), 1, "1", "start value", -1e300, 1e300, 0, 0, NULL},
};
static const lied_class decay_class = {"Decay", "test", "der(x) = -k x, a wrong lane form",
                                       sizeof(bl_decay), decay_params, 2, NULL, decay_meta};
static const lied_class *const classes[] = {&decay_class, NULL};
LIED_LIBRARY(badlanes, "a class whose lane form differs from its block (tests only)", classes)
