/* wire.h - port endpoints and connection patterns (internal to core). */
#ifndef LIED_CORE_WIRE_H
#define LIED_CORE_WIRE_H
#include "core/model.h"

/* A port endpoint: leaf spec `spec`, for instance x of the composite it was
 * resolved from, instance x * mult + loc of the leaf; port index in its
 * template. */
typedef struct lied_endpoint {
  int spec;
  uint64_t loc, mult;
  int port;
} lied_endpoint;

/* The endpoint of port `path` (dotted, with numeric indices) relative to
 * spec x (wire.c). LIED_E_MODEL for names that are not ports. */
int lied_wire_resolve(const lied_model *m, int x, const char *path, lied_endpoint *ep,
                      int depth, lied_err *e);

/* ---- connection patterns (pattern.c) ----------------------------------- */

/* Index expressions in loop variables per path, at most. */
#define LIED_PAT_BRACKETS 8

/* One index of a pattern's path that depends on the loop variables:
 * c0 + sum coef[k] * var[k] (1-based). */
typedef struct lied_pbracket {
  size_t pos, len;              /* the expression's text in the path */
  int64_t c0, coef[LIED_MAX_LOOP];
  uint32_t count;               /* copies of the array it indexes */
  uint64_t mult;                /* leaf instances per step of this index */
} lied_pbracket;

/* One end of a connection pattern, resolved once for its composite. */
typedef struct lied_pend {
  const char *path;
  lied_endpoint ep0; /* every variable index at 1 */
  int nb;
  lied_pbracket br[LIED_PAT_BRACKETS];
} lied_pend;

/* Parse the index expressions of path (syntax and variables only):
 * LIED_OK, or LIED_E_MODEL naming the expression. */
int lied_pattern_parse(const char *path, const lied_loop *loop, int nloop, lied_pend *pe,
                       lied_err *e);
/* Parse and resolve path relative to composite comp: the endpoint at
 * index 1, each variable index's array size and instance step. */
int lied_pattern_resolve(const lied_model *m, int comp, const char *path, const lied_loop *loop,
                         int nloop, lied_pend *pe, lied_err *e);
/* The endpoint at the loop point var[]: LIED_OK, or LIED_E_MODEL naming
 * the index out of range (indices wrap around when wrap is set). */
int lied_pattern_at(const lied_pend *pe, const int64_t *var, int wrap, lied_endpoint *ep,
                    lied_err *e);
/* The loop points in order (the first variable outermost): start sets
 * var to the first point and returns 0 when the loops are empty; next
 * advances and returns 0 after the last. */
int lied_loop_start(const lied_loop *loop, int nloop, int64_t *var);
int lied_loop_next(const lied_loop *loop, int nloop, int64_t *var);
/* "i = 3, j = 7" */
void lied_loop_point(const lied_loop *loop, int nloop, const int64_t *var, char *buf, size_t cap);

#endif
