/* newton.h - simplified Newton iteration for the implicit stages
 * X = psi + h gamma f(T, X): iteration matrix M = I - h gamma J, reused
 * across iterations, stages and steps (dense LU for small systems, sparse
 * LU for large ones). */
#ifndef LIED_SOLVE_NEWTON_H
#define LIED_SOLVE_NEWTON_H
#include "linsys/sparse.h"
#include "solve/jacobian.h"

/* Largest system factored densely when a sparse LU exists, and without one. */
#define LIED_DENSE_MAX 128
#define LIED_DENSE_MAX_NOSPARSE 2000

typedef struct lied_newton {
  uint64_t n;
  /* the sparse formulation (docs/solvers.md): naug unknowns of sparse
   * linear sections beside the n states; J is then the Jacobian of
   * [f; g] over [x; z] (n + naug square) and the iteration matrix
   * [I - hg F_x, -hg F_z; G_x, G_z], whose solve with [b; 0] gives
   * (I - hg df/dx)^-1 b without forming df/dx (dense for a network) */
  uint64_t naug;
  double *aug;         /* n + naug: a right-hand side [b; 0] */
  lied_jac J;
  int dense;           /* dense LU (n small) or sparse LU */
  double *lu;          /* dense: n * n factors */
  int *piv;
  double *escale;      /* dense: 2 n, the work of lied_newton_factor_rows */
  lied_splu *sp;       /* sparse */
  double *mval;        /* sparse: M in the storage pattern of J */
  double hg;           /* h gamma of the current factors; 0: none */
  int jac_current;     /* J was evaluated at the start of the current step */
  double eta;          /* convergence-rate estimate carried between solves */
  double theta_max;    /* slowest contraction in the last step */
  double kappa;        /* stop when eta * |update| <= kappa (weighted norm) */
  int maxit;
  double *fx, *dx;     /* work space */
  uint64_t worst;      /* state with the largest weighted update (messages) */
  long nit, nfail, nfact;
} lied_newton;

/* Set up for n states from the structural pattern (see jacobian.h).
 * LIED_OK; LIED_E_LIMIT when the system is too large for a dense LU and
 * this build has no sparse one; LIED_E_NOMEM. */
int lied_newton_init(lied_newton *N, uint64_t n, const uint64_t *rowptr,
                     const uint32_t *cols, double typ, lied_err *e);
void lied_newton_free(lied_newton *N);
/* The same for the sparse formulation: naug unknowns beside the n states,
 * the pattern (n + naug square) from lied_sched_sparsity_aug. Always the
 * sparse LU (only builds with one have sparse sections). */
int lied_newton_init_aug(lied_newton *N, uint64_t n, uint64_t naug, const uint64_t *rowptr,
                         const uint32_t *cols, double typ, lied_err *e);

/* Factor M = I - hg J. Returns LIED_OK, LIED_RETRY when M is singular (a
 * smaller step brings M towards I), or a negative status. */
int lied_newton_factor(lied_newton *N, double hg, lied_err *e);

/* As lied_newton_factor, a dense matrix factored with its rows and columns
 * equilibrated (lied_lu_factor_equilibrated: exact scaling by powers of 2,
 * the factors those of the matrix itself, so lied_newton_lsolve is as
 * before): for a matrix whose rows lie orders of magnitude apart (h J of
 * 1e18 beside the unit rows of held states), which the plain LU's pivot
 * threshold, relative to the largest entry, calls singular. A sparse
 * matrix is factored as lied_newton_factor does (KLU scales its rows). */
int lied_newton_factor_rows(lied_newton *N, double hg, lied_err *e);

/* b <- M^-1 b with the current factors. */
void lied_newton_lsolve(lied_newton *N, double *b);

/* Solve X = psi + hg f(T, X) from the predictor in X, with the weighted RMS
 * norm of inverse weights w. On success k = f(T, X) as implied by the stage
 * equation, (X - psi) / hg. Returns LIED_OK (converged), LIED_RETRY
 * (diverged or too slow: N->worst names the state), or the negative code of
 * f. */
int lied_newton_stage(lied_newton *N, lied_rhs_fn f, void *ctx, double T,
                      const double *psi, double hg, const double *w, double *X,
                      double *k);

/* Weighted RMS norm sqrt(mean((v_i w_i)^2)); *worst (if not NULL) receives
 * the index of the largest |v_i w_i|. NaN when some entry is not finite.
 * Summed as lied_vec_wrms (solve/vec.h) sums it, on this thread. */
double lied_wrms(uint64_t n, const double *v, const double *w, uint64_t *worst);

#endif
