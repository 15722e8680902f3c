/* vec.c - whole-vector operations of the solvers on the run's threads
 * (see vec.h). */
#include "solve/vec.h"
#include <math.h>
#include "solve/erk.h"

/* ---- stage sums ----------------------------------------------------------- */

typedef struct combine_call {
  const double *x, *w, *k;
  double h;
  int nk;
  size_t kstride;
  double *out;
} combine_call;

static void combine_range(void *ctx, int r, uint64_t a, uint64_t b) {
  (void)r;
  const combine_call *c = ctx;
  lied_rk_combine((size_t)(b - a), c->x + a, c->h, c->w, c->nk, c->k + a, c->kstride,
                  c->out + a);
}

void lied_vec_combine(lied_pool *p, size_t n, const double *x, double h, const double *w, int nk,
                      const double *k, size_t kstride, double *out) {
  uint64_t bounds[LIED_VEC_SEGMENTS + 1];
  int nw = lied_pool_size(p);
  if (nw > LIED_VEC_SEGMENTS) nw = LIED_VEC_SEGMENTS;
  int nr = n >= LIED_VEC_MIN && nw > 1 ? lied_pool_split(n, 8, LIED_VEC_MIN / 2, nw, bounds) : 1;
  if (nr < 2) {
    lied_rk_combine(n, x, h, w, nk, k, kstride, out);
    return;
  }
  combine_call c = {x, w, k, h, nk, kstride, out};
  lied_pool_run(p, bounds, nr, combine_range, &c);
}

/* ---- the weighted norm ------------------------------------------------------ */

typedef struct norm_part {
  double sum, big; /* sum of squares; largest |v w| (-1: none) */
  uint64_t at;     /* its index (the first NaN's, if nan) */
  int nan;
} norm_part;

static norm_part norm_of(const double *v, const double *w, uint64_t a, uint64_t b) {
  norm_part p = {0, -1, a, 0};
  for (uint64_t i = a; i < b; i++) {
    double r = v[i] * w[i];
    double m = fabs(r);
    if (!p.nan) {
      if (isnan(m)) {
        p.nan = 1;
        p.at = i;
      } else if (m > p.big) {
        p.big = m;
        p.at = i;
      }
    }
    p.sum += r * r;
  }
  return p;
}

typedef struct norm_call {
  const double *v, *w;
  uint64_t n;
  norm_part part[LIED_VEC_SEGMENTS];
} norm_call;

/* Segment j of n entries: [n j / S, n (j + 1) / S). */
static uint64_t seg(uint64_t n, int j) {
  return (uint64_t)((unsigned __int128)n * (unsigned)j / LIED_VEC_SEGMENTS);
}

/* Segments [a, b) (the pool's items are segments here). */
static void norm_range(void *ctx, int r, uint64_t a, uint64_t b) {
  (void)r;
  norm_call *c = ctx;
  for (uint64_t j = a; j < b; j++)
    c->part[j] = norm_of(c->v, c->w, seg(c->n, (int)j), seg(c->n, (int)j + 1));
}

double lied_vec_wrms(lied_pool *p, uint64_t n, const double *v, const double *w,
                     uint64_t *worst) {
  norm_part t;
  if (n < LIED_VEC_MIN) {
    t = norm_of(v, w, 0, n);
  } else {
    norm_call c = {v, w, n, {{0}}};
    uint64_t bounds[LIED_VEC_SEGMENTS + 1];
    int nw = lied_pool_size(p);
    int nr = lied_pool_split(LIED_VEC_SEGMENTS, 1, 1, nw, bounds);
    lied_pool_run(p, bounds, nr, norm_range, &c);
    /* in segment order: the same sum and the same index for every split */
    t = c.part[0];
    for (int j = 1; j < LIED_VEC_SEGMENTS; j++) {
      const norm_part *q = &c.part[j];
      t.sum += q->sum;
      if (t.nan) continue;
      if (q->nan) {
        t.nan = 1, t.at = q->at;
      } else if (q->big > t.big) {
        t.big = q->big, t.at = q->at;
      }
    }
  }
  if (worst) *worst = t.at;
  return n ? sqrt(t.sum / (double)n) : 0.0;
}
