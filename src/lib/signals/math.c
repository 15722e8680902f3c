/* math.c - static signal blocks, the output a function of the inputs only:
 * Gain, Add, Product, Min, Max (n inputs u1..un), Division, Limiter.
 * Min, Max and Limiter kink where the selected input changes or a limit is
 * reached: they declare kink functions (LIED_ZC_KINK, docs/events.md) so
 * that adaptive solvers end a step there. */
#include "lib/signals/signals.h"
#include <stdio.h>

static const char *const input_names[SIG_MAXN] = {"u1", "u2", "u3", "u4",
                                                  "u5", "u6", "u7", "u8"};

/* ---- Gain: y = k u ---- */
typedef struct sig_gain {
  lied_real_in u;
  lied_real_out y;
  double k;
} sig_gain;

/* An output that is not finite from finite inputs (an overflow: k = 1e10
 * times u = 1e300) is a fault naming them, as Division's: it went on to the
 * blocks downstream without a word, and a table holding its end value, a
 * comparison or a limiter made a finite number of it (exit 0). */
static inline double gain_eq(double k, double u) { return k * u; }
static inline void gain_check(const lied_env *env, const void *self, double k, double u,
                              double y) {
  if (!isfinite(y) && isfinite(u))
    lied_block_fault(env, self, "Gain: k u = %g * %g is not finite", k, u);
}
static void gain_eval(const lied_env *env, sig_gain *c) {
  c->y.y.y = gain_eq(c->k, c->u.y->y);
  gain_check(env, c, c->k, c->u.y->y, c->y.y.y);
}
LIED_BLOCK(gain_block, sig_gain, gain_eval)

LIED_LANE_BODY void gain_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *restrict u = LIED_LANE_IN(sig_gain, g, u.y);
  const double *restrict k = LIED_LANE(sig_gain, g, k);
  double *restrict y = LIED_LANE(sig_gain, g, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) y[l] = gain_eq(k[l], u[l]);
  for (size_t l = 0; l < n; l++) gain_check(env, &y[l], k[l], u[l], y[l]);
}
LIED_LANE_FORM(gain_lanes)

static void gain_meta(lied_meta *m, void *self) {
  sig_gain *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "gain", gain_block, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&c->u.y),
                  LIED_SIGS(&c->y.y));
  lied_meta_lanes(m, gain_lanes);
}
static const lied_param gain_params[] = {
    {"k", offsetof(sig_gain, k), 1, "1", "gain", SIG_NOMIN, SIG_NOMAX, 0, 0}};
const lied_class sig_gain_class = {"Gain", "signals", "y = k u", sizeof(sig_gain), gain_params,
                                   1, NULL, gain_meta};

/* ---- n inputs u1..un: Add (weights k1..kn), Product, Min, Max ---- */
typedef struct sig_multi {
  lied_real_in u[SIG_MAXN];
  lied_real_out y;
  int n;
  double k[SIG_MAXN];
  double z[SIG_MAXN]; /* Min, Max: kink functions (below) */
} sig_multi;

/* Add's and Product's output that is not finite from finite inputs: a
 * fault, as Gain's */
static void multi_check(const lied_env *env, const sig_multi *c, const char *what, double y) {
  if (isfinite(y)) return;
  for (int i = 0; i < c->n; i++)
    if (!isfinite(c->u[i].y->y)) return; /* not made here: where it was made says so */
  char in[128] = "";
  for (int i = 0, len = 0; i < c->n && i < 4 && len < (int)sizeof in; i++)
    len += snprintf(in + len, sizeof in - (size_t)len, "%s%s = %g", i ? ", " : "", input_names[i],
                    c->u[i].y->y);
  lied_block_fault(env, c, "%s of finite inputs is %g (%s%s)", what, y, in, c->n > 4 ? ", ..." : "");
}
static void add_eval(const lied_env *env, sig_multi *c) {
  double s = c->k[0] * c->u[0].y->y;
  for (int i = 1; i < c->n; i++) s += c->k[i] * c->u[i].y->y;
  c->y.y.y = s;
  multi_check(env, c, "Add: the weighted sum", s);
}
static void product_eval(const lied_env *env, sig_multi *c) {
  double p = c->u[0].y->y;
  for (int i = 1; i < c->n; i++) p *= c->u[i].y->y;
  c->y.y.y = p;
  multi_check(env, c, "Product: the product", p);
}
/* y = the largest of s*u_i (s = 1: Max, s = -1: Min, y = s * it), and the
 * kink functions z_i = s*u_i - (the largest of the others): positive only
 * for the input that is selected alone, so z_i crosses zero exactly where
 * input i becomes or stops being the selected one (the kinks of the law;
 * inputs crossing below the selected one cross nothing). */
static void select_eval(sig_multi *c, double s) {
  double best = s * c->u[0].y->y, second = -HUGE_VAL;
  int at = 0;
  for (int i = 1; i < c->n; i++) {
    double v = s * c->u[i].y->y;
    if (v > best) second = best, best = v, at = i;
    else if (v > second) second = v;
  }
  c->y.y.y = s * best;
  for (int i = 0; i < c->n; i++) c->z[i] = s * c->u[i].y->y - (i == at ? second : best);
}
static void min_eval(const lied_env *env, sig_multi *c) {
  (void)env;
  select_eval(c, -1);
}
static void max_eval(const lied_env *env, sig_multi *c) {
  (void)env;
  select_eval(c, 1);
}
LIED_BLOCK(add_block, sig_multi, add_eval)
LIED_BLOCK(product_block, sig_multi, product_eval)
LIED_BLOCK(min_block, sig_multi, min_eval)
LIED_BLOCK(max_block, sig_multi, max_eval)

/* Ports u1..un and y, one block `name` reading every input (and, with
 * `kinks`, writing the kink functions z1..zn). */
static void multi_meta(lied_meta *m, sig_multi *c, const char *name, lied_block_fn fn,
                       unsigned flags, int kinks) {
  static const char *const z_names[SIG_MAXN] = {"z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"};
  const void *in[SIG_MAXN + 1] = {NULL}, *out[SIG_MAXN + 2] = {&c->y.y};
  for (int i = 0; i < c->n; i++) {
    lied_meta_real_in(m, input_names[i], 0, &c->u[i]);
    in[i] = &c->u[i].y;
    if (kinks && c->n > 1) out[i + 1] = &c->z[i];
  }
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, name, fn, flags, in, out);
  for (int i = 0; i < c->n && kinks && c->n > 1; i++)
    lied_meta_zero(m, z_names[i], &c->z[i], LIED_ZC_BOTH | LIED_ZC_KINK);
}
static void add_meta(lied_meta *m, void *self) {
  multi_meta(m, self, "add", add_block, LIED_BLOCK_CONST_COEFF, 0);
}
static void product_meta(lied_meta *m, void *self) {
  multi_meta(m, self, "product", product_block, 0, 0);
}
static void min_meta(lied_meta *m, void *self) { multi_meta(m, self, "min", min_block, 0, 1); }
static void max_meta(lied_meta *m, void *self) { multi_meta(m, self, "max", max_block, 0, 1); }

#define P_N {"n", offsetof(sig_multi, n), 2, "1", "number of inputs u1..un", 1, SIG_MAXN, LIED_PARAM_INT, 0}
#define P_K(i) {"k" #i, offsetof(sig_multi, k[i - 1]), 1, "1", "weight of u" #i, SIG_NOMIN, SIG_NOMAX, 0, 0}
static const lied_param add_params[] = {P_N,  P_K(1), P_K(2), P_K(3), P_K(4),
                                        P_K(5), P_K(6), P_K(7), P_K(8)};
static const lied_param n_params[] = {P_N};

const lied_class sig_add_class = {"Add", "signals", "y = k1 u1 + ... + kn un (n inputs, n <= 8)",
                                  sizeof(sig_multi), add_params, 1 + SIG_MAXN, NULL, add_meta};
const lied_class sig_product_class = {"Product", "signals", "y = u1 u2 ... un (n inputs, n <= 8)",
                                      sizeof(sig_multi), n_params, 1, NULL, product_meta};
const lied_class sig_min_class = {"Min", "signals", "y = min(u1, ..., un) (n inputs, n <= 8)",
                                  sizeof(sig_multi), n_params, 1, NULL, min_meta};
const lied_class sig_max_class = {"Max", "signals", "y = max(u1, ..., un) (n inputs, n <= 8)",
                                  sizeof(sig_multi), n_params, 1, NULL, max_meta};

/* ---- Division: y = u1 / u2; a quotient that is not finite (u2 = 0, or an
 * overflow) is a fault naming the inputs: it would reach the results, and
 * the discrete states, without a word when no continuous state integrates
 * it ---- */
typedef struct sig_division {
  lied_real_in u1, u2;
  lied_real_out y;
} sig_division;
static void division_eval(const lied_env *env, sig_division *c) {
  const double u1 = c->u1.y->y, u2 = c->u2.y->y, y = u1 / u2;
  c->y.y.y = y;
  if (!isfinite(y) && isfinite(u1) && isfinite(u2))
    lied_block_fault(env, c, "Division: u1 / u2 = %g / %g is not finite", u1, u2);
}
LIED_BLOCK(division_block, sig_division, division_eval)
static void division_meta(lied_meta *m, void *self) {
  sig_division *c = self;
  lied_meta_real_in(m, "u1", 0, &c->u1);
  lied_meta_real_in(m, "u2", 0, &c->u2);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "division", division_block, 0, LIED_SIGS(&c->u1.y, &c->u2.y),
                  LIED_SIGS(&c->y.y));
}
const lied_class sig_division_class = {"Division", "signals", "y = u1 / u2",
                                       sizeof(sig_division), NULL, 0, NULL, division_meta};

/* ---- Limiter: y = min(max(u, uMin), uMax) ---- */
typedef struct sig_limiter {
  lied_real_in u;
  lied_real_out y;
  double uMax, uMin;
  double z_max, z_min; /* kink functions u - uMax, u - uMin */
} sig_limiter;
static void limiter_eval(const lied_env *env, sig_limiter *c) {
  (void)env;
  double u = c->u.y->y;
  c->y.y.y = u > c->uMax ? c->uMax : u < c->uMin ? c->uMin : u;
  c->z_max = u - c->uMax;
  c->z_min = u - c->uMin;
}
LIED_BLOCK(limiter_block, sig_limiter, limiter_eval)
static int limiter_init(void *self, lied_init *ctx) {
  sig_limiter *c = self;
  if (!(c->uMin <= c->uMax)) {
    lied_init_error(ctx, "Limiter: the limits are not ordered: uMin = %g > uMax = %g", c->uMin,
                    c->uMax);
    return -1;
  }
  return 0;
}
static void limiter_meta(lied_meta *m, void *self) {
  sig_limiter *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "limit", limiter_block, 0, LIED_SIGS(&c->u.y),
                  LIED_SIGS(&c->y.y, &c->z_max, &c->z_min));
  if (isfinite(c->uMax)) lied_meta_zero(m, "z_max", &c->z_max, LIED_ZC_BOTH | LIED_ZC_KINK);
  if (isfinite(c->uMin)) lied_meta_zero(m, "z_min", &c->z_min, LIED_ZC_BOTH | LIED_ZC_KINK);
}
static const lied_param limiter_params[] = {
    {"uMax", offsetof(sig_limiter, uMax), 1, "1", "upper limit", SIG_NOMIN, SIG_NOMAX, 0, 0},
    {"uMin", offsetof(sig_limiter, uMin), -1, "1", "lower limit (<= uMax)", SIG_NOMIN, SIG_NOMAX, 0, 0},
};
const lied_class sig_limiter_class = {"Limiter", "signals", "y = u limited to [uMin, uMax]",
                                      sizeof(sig_limiter), limiter_params, 2, limiter_init,
                                      limiter_meta};
