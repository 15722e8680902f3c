/* esdirk.h - diagonally implicit Runge-Kutta steps driven by a Butcher
 * table (beuler, esdirk23): Newton iteration on each implicit stage with a
 * reused Jacobian and iteration matrix, embedded error estimate, dense
 * output. */
#ifndef LIED_SOLVE_ESDIRK_H
#define LIED_SOLVE_ESDIRK_H
#include "solve/newton.h"
#include "solve/run.h"

typedef struct lied_dirk {
  const lied_tableau *tab;
  lied_run *R;
  uint64_t n;
  int s;
  double gamma;      /* the diagonal entry of the implicit stages */
  int explicit_first;/* a_11 = 0: the first stage is f(t, x) */
  int fsal;          /* the last stage of a step is f(t + h, x_new) */
  int have_k0;       /* k[0] = f(t, x) at the step start (explicit first) */
  int k0_fresh;      /* ... evaluated, not implied by the stage equation */
  int need_jac;      /* evaluate J at the next step start */
  double rtol, atol; /* tolerances of the error test and of Newton */
  double *k;         /* s * n stage derivatives */
  double *X, *psi, *xnew, *w, *err, *f0;
  /* the sparse formulation (N.naug > 0): [x; z] and [f; g] at the
   * Jacobian's point, n + naug each */
  double *ya, *fa;
  lied_newton N;
} lied_dirk;

/* Set up for the run R (structural sparsity, colouring, LU). LIED_OK or a
 * negative status (d is then safe to free). */
int lied_dirk_init(lied_dirk *d, const lied_tableau *tab, lied_run *R);
void lied_dirk_free(lied_dirk *d);

/* A candidate step of size h from (t, x) into d->xnew; with embedded
 * weights, *err is its weighted error norm and *worst the state with the
 * largest error (or, on Newton failure, the largest update). Returns
 * LIED_OK, LIED_RETRY (Newton failure with a fresh Jacobian, or a singular
 * iteration matrix: try a smaller step) or a negative status. */
int lied_dirk_attempt(lied_dirk *d, double t, double h, const double *x, double *err,
                      uint64_t *worst);
/* Make the candidate the new x. */
void lied_dirk_accept(lied_dirk *d, double *x);
/* Cubic Hermite dense output of the candidate at t + theta h. */
void lied_dirk_interp(const lied_dirk *d, const double *x, double h, double theta,
                      double *out);

/* Newton and LU counters into st. */
void lied_dirk_stats(const lied_dirk *d, lied_sim_stats *st);

/* One fixed step (x replaced); a Newton failure is an error naming the
 * state and the time (LIED_E_SOLVER). */
int lied_dirk_step(lied_dirk *d, double t, double h, double *x);

#endif
