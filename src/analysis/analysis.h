/* analysis.h - analysis of a scheduled model beyond simulation: steady
 * states (der(x) = 0) and linearisation (A, B, C, D and eigenvalues).
 * Layer: above solve (it uses the Jacobian machinery and the Newton matrix
 * of the implicit solvers), below record and the binding. */
#ifndef LIED_ANALYSIS_ANALYSIS_H
#define LIED_ANALYSIS_ANALYSIS_H
#include <stdint.h>
#include "core/err.h"
#include "sched/sched.h"

/* ---- steady state (steady.c) ---------------------------------------------- */

typedef struct lied_steady_opts {
  double t;              /* model time of the evaluations (sources that vary in time) */
  double rtol, atol;     /* convergence: the last Newton update within these; 0: 1e-10 */
  int maxit;             /* pseudo-time steps; 0: 500 */
  const uint64_t *fixed; /* state indices held at their values in x (their der not solved) */
  int nfixed;
} lied_steady_opts;

typedef struct lied_steady_stats {
  int steps;         /* accepted pseudo-time steps */
  int rejected;      /* steps retried with a smaller pseudo-time step */
  long rhs;          /* derivative evaluations, Jacobians included */
  double residual;   /* max |der(x_i)| at the solution (fixed states excluded) */
  double h;          /* the last pseudo-time step [s] */
} lied_steady_stats;

/* Solve der(x) = 0 from the states in x (length s->nstates: start values or
 * the end of a transient) by pseudo-transient continuation: backward-Euler
 * steps (I - h J) dx = h f(x) whose pseudo-time step h grows as the residual
 * falls (switched evolution relaxation), so the iteration starts as a damped
 * transient and ends as Newton's method. A linear invariant of the dynamics
 * (c^T f(x) = 0 for every x: water in communicating vessels) is kept exactly
 * by every step, so the solution is the equilibrium the transient from x
 * reaches. States in o->fixed keep their values. On success x holds the
 * steady state and the model's variables are consistent with it (output
 * part evaluated). LIED_OK, or a negative status: LIED_E_SOLVER when no
 * steady state was found (the message gives the residual and the state that
 * is furthest from equilibrium), LIED_E_USAGE for bad options. */
int lied_steady(lied_sched *s, const lied_steady_opts *o, double *x, lied_steady_stats *st,
                lied_err *e);

/* ---- linearisation (linearize.c) ------------------------------------------ */

/* The largest model lied_linearize writes as dense matrices. */
#define LIED_LINEAR_MAX 4096

/* der(x) = A dx + B du, y = C dx + D du around (t, x0, u0): row-major
 * A (n x n), B (n x ni), C (no x n), D (no x ni); y0 the outputs there. */
typedef struct lied_linear {
  uint64_t n;
  int ni, no;
  double *A, *B, *C, *D;
  double *y0;
  long rhs; /* model evaluations used */
} lied_linear;

/* Linearise the model at (t, x) by central differences (steps cbrt(eps)
 * * max(|v|, 1): exact to rounding for a linear model; for the states one
 * evaluation pair per colour of the Jacobian's column colouring). Inputs are
 * addresses of values the blocks read (parameters of instances: a signal
 * source's value, a reservoir's pressure); they are perturbed in place and
 * restored. Outputs are addresses of model variables. On success the model is
 * left evaluated at (t, x) with the inputs as they were. L is zeroed first;
 * free with lied_linear_free. */
int lied_linearize(lied_sched *s, double t, const double *x, double *const *inputs, int ni,
                   const double *const *outputs, int no, lied_linear *L, lied_err *e);
void lied_linear_free(lied_linear *L);

/* Eigenvalues of the n x n row-major matrix A (LAPACK dgeev): re[n], im[n],
 * complex pairs adjacent, sorted by real part, then imaginary part.
 * LIED_OK, LIED_E_SOLVER when the QR algorithm does not converge. */
int lied_eigenvalues(uint64_t n, const double *A, double *re, double *im, lied_err *e);

/* The state index of the state variable at address p, LIED_OK; or
 * LIED_E_USAGE when p is not a state ("what" names it in the message). */
int lied_state_index(const lied_sched *s, const double *p, const char *what, uint64_t *idx,
                     lied_err *e);

#endif
