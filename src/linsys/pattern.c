/* pattern.c - sparse patterns: the transpose of a CSR pattern, and column
 * colouring (Curtis, Powell and Reid): columns that share no row get the
 * same colour, so one perturbed evaluation per colour yields all their
 * finite differences (the Jacobians of the solvers, the sparse linear
 * sections' probe). */
#include <stdlib.h>
#include <string.h>
#include "linsys/pattern.h"

int lied_transpose(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                   uint64_t **ctp, uint32_t **crow, uint64_t **cpos, lied_err *e) {
  uint64_t nnz = rowptr[n];
  uint64_t *p = lied_xcalloc((size_t)n + 2, sizeof *p, "Jacobian pattern", e);
  uint32_t *r = lied_xmalloc(sizeof *r * ((size_t)nnz + 1), "Jacobian pattern", e);
  uint64_t *q = cpos ? lied_xmalloc(sizeof *q * ((size_t)nnz + 1), "Jacobian pattern", e)
                     : NULL;
  if (!p || !r || (cpos && !q)) {
    free(p);
    free(r);
    free(q);
    return LIED_E_NOMEM;
  }
  for (uint64_t k = 0; k < nnz; k++) p[cols[k] + 2]++;
  for (uint64_t j = 0; j < n; j++) p[j + 2] += p[j + 1];
  /* p[j + 1] is now the start of column j; fill, advancing it to the end */
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t k = rowptr[i]; k < rowptr[i + 1]; k++) {
      uint64_t at = p[cols[k] + 1]++;
      r[at] = (uint32_t)i;
      if (q) q[at] = k;
    }
  *ctp = p; /* p[j] .. p[j + 1] is column j */
  *crow = r;
  if (cpos) *cpos = q;
  return LIED_OK;
}

int lied_colour(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                uint32_t *colour, uint32_t *ncolours, lied_err *e) {
  uint64_t *ctp;
  uint32_t *crow;
  LIED_TRY(lied_transpose(n, rowptr, cols, &ctp, &crow, NULL, e));
  /* stamp[c] == j + 1: colour c is used by a neighbour of column j */
  uint32_t *stamp = lied_xcalloc((size_t)n + 1, sizeof *stamp, "colouring", e);
  if (!stamp) {
    free(ctp);
    free(crow);
    return LIED_E_NOMEM;
  }
  uint32_t used = 0;
  for (uint64_t j = 0; j < n; j++) colour[j] = UINT32_MAX;
  for (uint64_t j = 0; j < n; j++) {
    /* seen: the colours stamped for j; once every colour in use is, j
     * takes a new one and the rest of its rows can change nothing (a dense
     * pattern: one row per column, O(n^2) in all instead of O(n^3)) */
    uint32_t seen = 0;
    for (uint64_t a = ctp[j]; a < ctp[j + 1] && seen < used; a++) {
      uint32_t row = crow[a];
      for (uint64_t b = rowptr[row]; b < rowptr[row + 1]; b++) {
        uint32_t c = colour[cols[b]];
        if (c != UINT32_MAX && stamp[c] != (uint32_t)j + 1) {
          stamp[c] = (uint32_t)j + 1;
          seen++;
        }
      }
    }
    uint32_t c = 0;
    while (c < used && stamp[c] == (uint32_t)j + 1) c++;
    colour[j] = c;
    if (c == used) used++;
  }
  *ncolours = used;
  free(stamp);
  free(ctp);
  free(crow);
  return LIED_OK;
}
