/* tabled.c - a plugin component with a table parameter (lied/table.h):
 * y = k f(u), f a 1-D table given from Lua as lied.table {...}. Built as
 * tabled.so against lied::plugin, loaded by tests/plugins/test_plugins.lua:
 * a table parameter needs nothing but the public headers. */
#include <math.h>
#include <stddef.h>
#include "lied/component.h"
#include "lied/table.h"

typedef struct curve {
  lied_real_in u;
  lied_real_out y;
  const lied_table *f;
  lied_table_hint at;
  double k;
} curve;

static void curve_eval(const lied_env *env, curve *c) {
  c->y.y.y = c->k * lied_table_lookup(env, c, c->f, &c->at, c->u.y->y);
}
LIED_BLOCK(curve_block, curve, curve_eval)

static int curve_init(void *self, lied_init *ctx) {
  const curve *c = self;
  if (lied_table_size(c->f, 0) < 2) {
    lied_init_error(ctx, "Curve: the table %s needs at least 2 points", lied_table_name(c->f));
    return -1;
  }
  return 0;
}

static void curve_meta(lied_meta *m, void *self) {
  curve *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "value", curve_block, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->y.y));
}

static const lied_param curve_params[] = {
    {"f", offsetof(curve, f), 0, "", "the curve f(u)", 0, 0, LIED_PARAM_TABLE, 0, NULL},
    {"k", offsetof(curve, k), 1, "1", "gain", -HUGE_VAL, HUGE_VAL, 0, 0, NULL},
};
static const lied_class curve_class = {"Curve", "tabled", "y = k f(u), f a table", sizeof(curve),
                                       curve_params, 2, curve_init, curve_meta};
static const lied_class *const tabled_classes[] = {&curve_class, NULL};
LIED_LIBRARY(tabled, "a component with a table parameter (test plugin)", tabled_classes)
