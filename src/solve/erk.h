/* erk.h - fixed-step explicit Runge-Kutta driven by a Butcher table. */
#ifndef LIED_SOLVE_ERK_H
#define LIED_SOLVE_ERK_H
#include <stddef.h>
#include "core/err.h"
#include "solve/butcher.h"

/* Right-hand side x' = f(t, x): write dxdt[0..n). Return LIED_OK or a
 * nonzero code (a negative lied_status), which the stepper passes back
 * unchanged. */
typedef int (*lied_rhs_fn)(void *ctx, double t, const double *x, double *dxdt);

/* Work space of one explicit Runge-Kutta integrator for n states. */
typedef struct lied_erk {
  const lied_tableau *tab;
  size_t n;
  double *k;    /* stages * n stage derivatives */
  double *xtmp; /* n */
  long nrhs;    /* right-hand side evaluations so far */
  struct lied_pool *pool; /* the run's threads for the stage sums (solve/vec.h), or NULL */
} lied_erk;

/* Prepare work space for an explicit table. Returns LIED_OK, LIED_E_USAGE
 * when tab is missing or not explicit, or LIED_E_NOMEM (rk is then safe to
 * free). */
int lied_erk_init(lied_erk *rk, const lied_tableau *tab, size_t n, lied_err *e);
void lied_erk_free(lied_erk *rk);

/* One step of size h from (t, x): x is replaced by the new state. Allocates
 * nothing. Returns LIED_OK, or the first nonzero code from f (x is then
 * unchanged). */
int lied_erk_step(lied_erk *rk, lied_rhs_fn f, void *ctx, double t, double h,
                  double *x);

/* out = x + h * (w[j0] k_j0 + w[j1] k_j1 + ...) over the nonzero weights
 * among the first nk, summed in order of j; stage j's vector starts at
 * k + j * kstride. out must not alias x or k. Every fixed-step explicit
 * path (this stepper and the chunked one, solve/fused.c) forms its stages
 * with it, so both give the same bits. */
void lied_rk_combine(size_t n, const double *x, double h, const double *w, int nk,
                     const double *k, size_t kstride, double *out);

#endif
