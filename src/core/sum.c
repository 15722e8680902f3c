/* sum.c - the sum node class (core/sum.h): its blocks, lane forms and
 * meta. */
#include <stddef.h>
#include <string.h>
#include "core/sum.h"

static void sum_eval(const lied_env *env, lied_sum *s) {
  (void)env;
  double *out = lied_sum_out(s);
  for (uint32_t v = 0; v < s->w; v++) {
    double acc = 0;
    for (uint32_t j = 0; j < s->k; j++) acc += s->in[j][v];
    out[v] = acc;
  }
}
LIED_BLOCK(sum_block, lied_sum, sum_eval)

/* The common branch: two contributions of three values (a planar force). */
static void sum23_eval(const lied_env *env, lied_sum *s) {
  (void)env;
  const double *a = s->in[0], *b = s->in[1];
  double *out = (double *)(void *)(s->in + 2);
  out[0] = a[0] + b[0];
  out[1] = a[1] + b[1];
  out[2] = a[2] + b[2];
}
LIED_BLOCK(sum23_block, lied_sum, sum23_eval)

/* Any number of contributions of three values (planar forces, torques):
 * the same additions in the same order as sum_eval (its lane form is
 * sum_lanes), with the three sums kept in registers. */
static void sumk3_eval(const lied_env *env, lied_sum *s) {
  (void)env;
  const uint32_t k = s->k;
  double x = 0, y = 0, z = 0;
  for (uint32_t j = 0; j < k; j++) {
    const double *p = s->in[j];
    x += p[0];
    y += p[1];
    z += p[2];
  }
  double *out = (double *)(void *)(s->in + k);
  out[0] = x;
  out[1] = y;
  out[2] = z;
}
LIED_BLOCK(sumk3_block, lied_sum, sumk3_eval)

/* Lane forms (lied/component.h): k and w are those of lane 0 (the same in
 * every copy); in[j] holds lane 0 of contribution j; the sums follow the
 * k pointers, each LIED_LANES wide. Same order of additions as above. */
LIED_LANE_BODY void sum_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  uint32_t k, w;
  memcpy(&k, g + offsetof(lied_sum, k), sizeof k);
  memcpy(&w, g + offsetof(lied_sum, w), sizeof w);
  const double *const *in = (const double *const *)(const void *)(g + sizeof(lied_sum) * LIED_LANES);
  double *out = (double *)(void *)(g + (sizeof(lied_sum) + k * sizeof in[0]) * LIED_LANES);
  for (uint32_t v = 0; v < w; v++) {
    double *o = out + v * LIED_LANES;
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) o[l] = 0;
    for (uint32_t j = 0; j < k; j++) {
      const double *p = in[j * LIED_LANES] + v * LIED_LANES;
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) o[l] += p[l];
    }
  }
}
LIED_LANE_FORM(sum_lanes)

/* Three values from k contributions (sumk3_eval), the additions in its
 * order: 0 + in[0] + in[1] + ... per value; k = 3 and 4 (the inner copies of
 * a chain: a joint and two springs) written out, so the sums stay in
 * registers. */
LIED_LANE_BODY void sumk3_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  uint32_t k;
  memcpy(&k, g + offsetof(lied_sum, k), sizeof k);
  if (k != 3 && k != 4) {
    sum_lanes(env, g, n, stride);
    return;
  }
  const double *const *in = (const double *const *)(const void *)(g + sizeof(lied_sum) * LIED_LANES);
  double *out = (double *)(void *)(g + (sizeof(lied_sum) + k * sizeof in[0]) * LIED_LANES);
  for (size_t v = 0; v < 3 * LIED_LANES; v += LIED_LANES) {
    const double *restrict a = in[0] + v, *restrict b = in[LIED_LANES] + v;
    const double *restrict c = in[2 * LIED_LANES] + v;
    double *restrict o = out + v;
    if (k == 3) {
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) o[l] = 0.0 + a[l] + b[l] + c[l];
    } else {
      const double *restrict d = in[3 * LIED_LANES] + v;
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) o[l] = 0.0 + a[l] + b[l] + c[l] + d[l];
    }
  }
}
LIED_LANE_FORM(sumk3_lanes)

LIED_LANE_BODY void sum23_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *const *in = (const double *const *)(const void *)(g + sizeof(lied_sum) * LIED_LANES);
  const double *restrict a = in[0], *restrict b = in[LIED_LANES];
  double *restrict out = (double *)(void *)(g + (sizeof(lied_sum) + 2 * sizeof a) * LIED_LANES);
  for (size_t v = 0; v < 3 * LIED_LANES; v += LIED_LANES)
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) out[v + l] = a[v + l] + b[v + l];
}
LIED_LANE_FORM(sum23_lanes)

static void sum_meta(lied_meta *m, void *self) {
  lied_sum *s = self;
  const int two3 = s->k == 2 && s->w == 3, k3 = s->w == 3;
  for (uint32_t j = 0; j < s->k; j++) lied_meta_link(m, &s->in[j], (int)s->w);
  lied_meta_block_range(m, "sum", two3 ? sum23_block : k3 ? sumk3_block : sum_block,
                        LIED_BLOCK_CONST_COEFF, &s->in[0], s->k, sizeof s->in[0],
                        LIED_SIGS(lied_sum_out(s)));
  lied_meta_writes(m, lied_sum_out(s), (int)s->w);
  lied_meta_lanes(m, two3 ? sum23_lanes : k3 ? sumk3_lanes : sum_lanes);
}

const lied_class lied_sum_class = {
    "Sum", "lied", "framework node: sum of the contributions at a branch",
    sizeof(lied_sum), NULL, 0, NULL, sum_meta};

