/* sum.h - the sum node, a framework class (internal to core: build of the
 * wiring, wire.c): where a branching connector's upstream signal has k
 * contributions, the source reads the sums of a node of k input pointers. */
#ifndef LIED_CORE_SUM_H
#define LIED_CORE_SUM_H
#include <stddef.h>
#include <stdint.h>
#include "core/model.h"

/* k input pointers, then the w sums: sizeof(lied_sum) + k pointers + w
 * doubles per node (a planar force branch of two: 56 bytes). */
typedef struct lied_sum {
  uint32_t k, w; /* contributions, doubles per signal */
  uint32_t filled;
  uint32_t pad;
  const double *in[]; /* k pointers, then w doubles of output */
} lied_sum;

static inline double *lied_sum_out(lied_sum *s) { return (double *)(void *)(s->in + s->k); }
static inline size_t lied_sum_size(uint32_t k, uint32_t w) {
  return sizeof(lied_sum) + k * sizeof(const double *) + w * sizeof(double);
}

/* The class of sum nodes (sum.c); the prototype's k and w are set before
 * its template is crawled. */
extern const lied_class lied_sum_class;

#endif
