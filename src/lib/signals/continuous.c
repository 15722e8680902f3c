/* continuous.c - blocks with a state: Integrator (der(x) = k u, y = x) and
 * FirstOrder (T der(x) = k u - x, y = x). The output depends on the state
 * only, so these blocks break algebraic loops. */
#include "lib/signals/signals.h"

typedef struct sig_integrator {
  lied_real_in u;
  lied_real_out y;
  double x, der_x;
  double k, T; /* T: FirstOrder only */
} sig_integrator;

static void output_eval(const lied_env *env, sig_integrator *c) {
  (void)env;
  c->y.y.y = c->x;
}
static void integrator_der(const lied_env *env, sig_integrator *c) {
  (void)env;
  c->der_x = c->k * c->u.y->y;
}
static void first_order_der(const lied_env *env, sig_integrator *c) {
  (void)env;
  c->der_x = (c->k * c->u.y->y - c->x) / c->T;
}
LIED_BLOCK(output_block, sig_integrator, output_eval)
LIED_BLOCK(integrator_der_block, sig_integrator, integrator_der)
LIED_BLOCK(first_order_der_block, sig_integrator, first_order_der)

static void state_meta(lied_meta *m, sig_integrator *c, lied_block_fn der) {
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "output", output_block, 0, LIED_SIGS(&c->x), LIED_SIGS(&c->y.y));
  if (der == integrator_der_block) /* reads u only */
    lied_meta_block(m, "derivative", der, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->der_x));
  else
    lied_meta_block(m, "derivative", der, 0, LIED_SIGS(&c->u.y, &c->x), LIED_SIGS(&c->der_x));
}
static void integrator_meta(lied_meta *m, void *self) { state_meta(m, self, integrator_der_block); }
static void first_order_meta(lied_meta *m, void *self) { state_meta(m, self, first_order_der_block); }

#define P_X {"x", offsetof(sig_integrator, x), 0, "1", "start value of the state (and of y)", SIG_NOMIN, SIG_NOMAX, 0, 0}
static const lied_param integrator_params[] = {
    P_X, {"k", offsetof(sig_integrator, k), 1, "1/s", "gain", SIG_NOMIN, SIG_NOMAX, 0, 0}};
static const lied_param first_order_params[] = {
    P_X,
    {"k", offsetof(sig_integrator, k), 1, "1", "static gain", SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"T", offsetof(sig_integrator, T), 1, "s", "time constant", 0, SIG_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
};
const lied_class sig_integrator_class = {"Integrator", "signals", "der(x) = k u, y = x",
                                         sizeof(sig_integrator), integrator_params, 2, NULL,
                                         integrator_meta};
const lied_class sig_first_order_class = {
    "FirstOrder", "signals", "first-order lag: T der(x) = k u - x, y = x",
    sizeof(sig_integrator), first_order_params, 3, NULL, first_order_meta};
