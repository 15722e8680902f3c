/* vec.h - internal to src/solve: the solvers' operations on whole state
 * vectors (stage sums, the weighted error norm) on the run's threads
 * (core/pool.h; NULL: this thread) for long vectors, with the same bits for
 * every thread count: the stage sums are per element; the norm of a vector
 * of at least LIED_VEC_MIN entries is summed in LIED_VEC_SEGMENTS fixed
 * segments (their bounds depend on n only), each left to right, then the
 * segments' sums in order, whoever computed them. */
#ifndef LIED_SOLVE_VEC_H
#define LIED_SOLVE_VEC_H
#include <stddef.h>
#include <stdint.h>
#include "core/pool.h"

#define LIED_VEC_MIN 65536   /* shorter vectors: one thread, one sum */
#define LIED_VEC_SEGMENTS 64 /* partial sums of the norm of a longer one */

/* lied_rk_combine (erk.h) over ranges of the vector on the pool's threads. */
void lied_vec_combine(lied_pool *p, size_t n, const double *x, double h, const double *w, int nk,
                      const double *k, size_t kstride, double *out);

/* Weighted RMS norm sqrt(mean((v_i w_i)^2)); *worst (if not NULL) the index
 * of the largest |v_i w_i| (the first one; the first NaN when there is
 * one). NaN when some entry is not finite. */
double lied_vec_wrms(lied_pool *p, uint64_t n, const double *v, const double *w,
                     uint64_t *worst);

#endif
