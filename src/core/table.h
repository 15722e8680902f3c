/* table.h - tables and maps (lied/table.h): making, checking and sharing
 * them (internal to lied; components see lied/table.h only). */
#ifndef LIED_CORE_TABLE_H
#define LIED_CORE_TABLE_H
#include <stdint.h>
#include "core/err.h"
#include "lied/table.h"

/* What a table is made from: rank 1 (y(x): n1 breakpoints x1, n1 values)
 * or 2 (z(x1, x2): n1 x n2 values, row-major, z(x1[i], x2[j]) at i n2 + j),
 * interpolation and extrapolation (LIED_TABLE_*), a name for messages. */
typedef struct lied_table_data {
  int rank;
  int interp, extrap;
  size_t n1, n2;
  const double *x1, *x2, *v;
  const char *name;
} lied_table_data;

/* A new table holding copies of d's arrays, with one reference. Refuses
 * (LIED_E_PARAM) what cannot be laid out: a rank other than 1 or 2, an
 * unknown interpolation or extrapolation, no breakpoints, a map with fewer
 * than 2 along a dimension, constant interpolation on a map, sizes beyond
 * 2^31; the numbers are checked by lied_table_check. */
lied_table *lied_table_new(const lied_table_data *d, lied_err *e);
/* LIED_OK, or LIED_E_PARAM saying what is wrong with the numbers: a
 * breakpoint or value not finite, breakpoints not strictly increasing, a
 * periodic table of one breakpoint. The message starts with the table's
 * name. */
int lied_table_check(const lied_table *t, lied_err *e);
/* References: lied_table_new gives one; the last release frees. Thread-safe. */
void lied_table_retain(lied_table *t);
void lied_table_release(lied_table *t);
/* A hash of everything the table holds, and whether two hold the same
 * (rank, methods, breakpoints and values; not the name). */
uint64_t lied_table_hash(const lied_table *t);
int lied_table_same(const lied_table *a, const lied_table *b);

#endif
