/* pattern.h - sparse patterns (CSR): transposition and column colouring,
 * for the finite-difference Jacobians of the solvers and the probe of sparse
 * linear sections. */
#ifndef LIED_LINSYS_PATTERN_H
#define LIED_LINSYS_PATTERN_H
#include <stdint.h>
#include "core/err.h"

/* Transpose a CSR pattern of n x n: column j holds rows crow[ctp[j] ..
 * ctp[j + 1]) in increasing order and, when cpos is not NULL, their
 * positions in the CSR arrays. Allocates *ctp, *crow (and *cpos).
 * LIED_OK or LIED_E_NOMEM. */
int lied_transpose(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                   uint64_t **ctp, uint32_t **crow, uint64_t **cpos, lied_err *e);

/* Greedy column colouring of the n x n CSR pattern: columns of one colour
 * share no row. colour[n] receives 0 .. *ncolours - 1. */
int lied_colour(uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                uint32_t *colour, uint32_t *ncolours, lied_err *e);

#endif
