/* hyperbola.h - a test class shared by the C unit tests: der(x) = t - z with
 * x z = 1, a 1x1 linear section whose coefficient is the state (singular at
 * x = 0); time-dependent, so stage times matter. */
#ifndef LIED_TEST_HYPERBOLA_H
#define LIED_TEST_HYPERBOLA_H
#include <math.h>
#include "lied/component.h"

typedef struct hyp {
  double x, der_x, z, res;
} hyp;
static void hyp_eval(const lied_env *env, hyp *h) {
  h->res = h->x * h->z - 1;
  h->der_x = env->t - h->z;
}
LIED_BLOCK(hyp_block, hyp, hyp_eval)
static void hyp_meta(lied_meta *m, void *self) {
  hyp *h = self;
  lied_meta_state(m, "x", "1", &h->x, &h->der_x);
  lied_meta_tear(m, "z", &h->z, "res", &h->res);
  lied_meta_block(m, "eval", hyp_block, 0, LIED_SIGS(&h->x, &h->z, &lied_time),
                  LIED_SIGS(&h->res, &h->der_x));
}
static const lied_param hyp_params[] = {
    {"x", offsetof(hyp, x), 1, "1", "start value", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class hyp_class = {"Hyperbola", "test", "der(x) = t - 1/x", sizeof(hyp),
                                     hyp_params, 1, NULL, hyp_meta};

#endif
