/* analysis.h - analysis of a scheduled model beyond simulation: steady
 * states (der(x) = 0) and linearisation (A, B, C, D and eigenvalues).
 * Layer: above solve (it uses the Jacobian machinery and the Newton matrix
 * of the implicit solvers), below record and the binding. */
#ifndef LIED_ANALYSIS_ANALYSIS_H
#define LIED_ANALYSIS_ANALYSIS_H
#include <signal.h>
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
  /* Ctrl-C: when not NULL and set, the analysis ends at the next evaluation
   * with LIED_ERROR, "steady: interrupted ..." (the flag is left set: the
   * caller consumes it) */
  volatile sig_atomic_t *stop;
} lied_steady_opts;

typedef struct lied_steady_stats {
  int steps;         /* accepted pseudo-time steps */
  int rejected;      /* steps retried with a smaller pseudo-time step */
  long rhs;          /* derivative evaluations, Jacobians included */
  int pivotings;     /* sparse LU factorisations with fresh pivoting (sparse formulation) */
  int jacobians;     /* Jacobians evaluated: one per point, a rejected step keeps its point's */
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

/* ---- a run's steady start (start.c) ------------------------------------- */

typedef struct lied_start_opts {
  double t;           /* the start time */
  const char *states; /* comma-separated names or glob patterns of the states solved */
  double tol;         /* steady's tolerance; 0: its default (1e-10) */
  volatile sig_atomic_t *stop; /* as steady's */
} lied_start_opts;

typedef struct lied_start_stats {
  long free;      /* states solved (the others held at their start values) */
  int steps;      /* steady's pseudo-time steps */
  long rhs;       /* its evaluations, Jacobians included */
  double residual; /* max |der| of the states solved */
} lied_start_stats;

/* The states at the start of a run (x, length s->nstates) with the states
 * o->states selects at their steady state: the start values (the handlers'
 * initial call made), then der = 0 solved by lied_steady for the selected
 * states, every other state held at its start value. LIED_OK; LIED_E_USAGE
 * when nothing matches; steady's failure with "steady start (LIST): ". */
int lied_steady_start(lied_sched *s, const lied_start_opts *o, double *x, lied_start_stats *st,
                      lied_err *e);

/* ---- linear invariants (invariants.c) ------------------------------------- */

/* The largest model whose invariants are sought (a dense n x (n + 1)
 * factorisation: about 2 s at the limit). */
#define LIED_INVARIANTS_MAX 2000

/* The linear invariants c^T f(x) = 0 of the dynamics: k orthonormal columns
 * C (n x k, column-major) and their values C^T x0 at the start (c0; work
 * space after it), W and piv work space of the correction. */
typedef struct lied_invariants {
  uint64_t n;
  int k;
  double *C, *c0, *W;
  int *piv;
} lied_invariants;

/* Find them at (t, x0) from f(x0) and the differences of f over a relative
 * change of 1e-3 of each state (n + 1 evaluations, counted in *nrhs; a set
 * stop flag ends them: LIED_ERROR, "interrupted"); held
 * states (`fixed`, may be NULL) are invariants. k = 0 when the model has
 * more than LIED_INVARIANTS_MAX states or cannot be evaluated at a changed
 * state. LIED_OK or LIED_E_NOMEM. */
int lied_invariants_find(lied_sched *s, double t, const double *x0, const uint8_t *fixed,
                         volatile sig_atomic_t *stop, lied_invariants *I, long *nrhs,
                         lied_err *e);
/* After a pseudo-time step (I - h J) dx = h f from x to xn = x + dx (the
 * factors applied by solve): xn moved back onto C^T x = C^T x0 along
 * W = (I - h J)^-1 h C, where the step's equations are degenerate, so the
 * step keeps its other equations: (I - h J) dx = h f - h C y, with y the
 * k numbers that put C^T xn back. LIED_OK, or LIED_RETRY when C^T W is
 * singular (retry with another h). */
int lied_invariants_correct(const lied_invariants *I, void (*solve)(void *ctx, double *b),
                            void *ctx, double h, double *xn);
/* v += C y, y the k numbers of the last correction (v unchanged when there
 * are no invariants or no correction was made). */
void lied_invariants_add_last(const lied_invariants *I, double *v);
void lied_invariants_free(lied_invariants *I);

/* ---- linearisation (linearize.c) ------------------------------------------ */

/* The largest model lied_linearize writes as dense matrices. */
#define LIED_LINEAR_MAX 4096

/* An entry of A, B, C or D at which the model is not smooth in its value:
 * it kinks there (LIED_KINK: the one-sided slopes fwd and bwd disagree; the
 * entry is their mean) or its second derivative jumps (LIED_SECOND: a law
 * m|m| at m = 0; the entry is extrapolated, docs/analysis.md). */
enum { LIED_SMOOTH = 0, LIED_KINK = 1, LIED_SECOND = 2 };
typedef struct lied_nonsmooth {
  char matrix; /* 'A', 'B', 'C', 'D' */
  int kind;    /* LIED_KINK, LIED_SECOND */
  uint64_t row, col;
  double fwd, bwd; /* the one-sided slopes */
} lied_nonsmooth;

/* der(x) = A dx + B du, y = C dx + D du around (t, x0, u0): row-major
 * A (n x n), B (n x ni), C (no x n), D (no x ni); y0 the outputs there;
 * ns[0 .. nns) the entries that are not smooth. */
typedef struct lied_linear {
  uint64_t n;
  int ni, no;
  double *A, *B, *C, *D;
  double *y0;
  lied_nonsmooth *ns;
  uint64_t nns, cap;
  long rhs; /* model evaluations used */
} lied_linear;

/* Linearise the model at (t, x) (a set stop flag ends it at the next
 * evaluation: LIED_ERROR, "linearize: interrupted ...") by central differences (steps h =
 * cbrt(eps) * max(|v|, 1): exact to rounding for a linear model; for the
 * states four evaluations per colour of the Jacobian's column colouring, at
 * v -+ h and v -+ h/2, whose one-sided slopes and two central differences
 * tell smooth entries from kinks and jumps of the second derivative, L->ns;
 * the latter are extrapolated from h and h/2). Inputs are
 * addresses of values the blocks read (parameters of instances: a signal
 * source's value, a reservoir's pressure); they are perturbed in place and
 * restored. Outputs are addresses of model variables. On success the model is
 * left evaluated at (t, x) with the inputs as they were. L is zeroed first;
 * free with lied_linear_free. */
int lied_linearize(lied_sched *s, double t, const double *x, double *const *inputs, int ni,
                   const double *const *outputs, int no, volatile sig_atomic_t *stop,
                   lied_linear *L, lied_err *e);
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
