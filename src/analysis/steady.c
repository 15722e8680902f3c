/* steady.c - steady states by pseudo-transient continuation (Kelley & Keyes,
 * "Convergence analysis of pseudo-transient continuation", SIAM J. Numer.
 * Anal. 35, 1998): backward-Euler steps with a pseudo-time step that grows
 * with the fall of the residual (switched evolution relaxation). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analysis.h"
#include "sched/aug.h"
#include "solve/newton.h"

#define STEADY_GROWTH 10.0  /* largest growth of h per accepted step */
#define STEADY_REPIVOT 10.0 /* the sparse LU pivots afresh when h moved by more */
#define STEADY_HMAX 1e30    /* h beyond which a step is Newton's */
#define STEADY_HBIG 1e8     /* converged only once h exceeds this [s] */
#define STEADY_SHRINK 0.25  /* h after a rejected step */
#define STEADY_NONLINEAR 0.5 /* a step departing more from its linearisation: too long */

typedef struct steady {
  lied_sched *s;
  double t;
  uint8_t *fixed; /* per state: held at its value */
  long nrhs;
  lied_invariants inv; /* the linear invariants, kept by every step */
  /* the implicit solvers' sparse formulation (sched/aug.h) for a model with
   * sparse sections: Newton over y = [x; z; w], whose Jacobian stays sparse
   * where df/dx is dense; NULL: over the states */
  lied_aug *aug;
  double *ya, *fa; /* y at the current point, [f; g] there */
  const double *at; /* the point of the last evaluation of f (NULL: unknown) */
  volatile sig_atomic_t *stop;
  int interrupted; /* an evaluation found the stop flag set */
  int jac_at_x;   /* the Jacobian is the one at the current point (a step was rejected) */
  double h_pivot; /* the pseudo-time step of the sparse LU's last pivoting (0: none) */
  int pivotings;  /* how many there were */
  int jacobians;  /* Jacobians evaluated */
  /* the last rejected trial point's failure (a block fault), while no step
   * has been accepted since: said when the iteration gives up */
  int faulted;
  lied_err fault;
  lied_err *e;
} steady;

/* The stop flag, checked before every evaluation of the model (so inside
 * every Jacobian, colour by colour): set, the evaluation fails with
 * LIED_ERROR and S->interrupted says why (the message is written by
 * interrupted(), which knows where the iteration is). */
static int stopped(steady *S) {
  if (!(S->stop && *S->stop)) return 0;
  S->interrupted = 1;
  return lied_errc(S->e, LIED_ERROR, "steady: interrupted");
}

/* f(x) with the fixed states' derivatives set to 0 (so they never move and
 * the Jacobian's rows for them are 0: their rows of I - h J are the identity). */
static int rhs(void *ctx, double t, const double *x, double *dx) {
  steady *S = ctx;
  LIED_TRY(stopped(S));
  S->nrhs++;
  S->at = NULL;
  int rc = lied_sched_evaluate(S->s, t, x, dx, 0, S->e);
  if (rc) return rc < 0 ? rc : LIED_ERROR;
  S->at = x;
  if (S->fixed)
    for (uint64_t i = 0; i < S->s->nstates; i++)
      if (S->fixed[i]) dx[i] = 0;
  return LIED_OK;
}

/* [f; g] at y = [x; z; w] (the sparse formulation), fixed states' rows 0. */
static int rhs_aug(void *ctx, double t, const double *y, double *out) {
  steady *S = ctx;
  LIED_TRY(stopped(S));
  S->nrhs++;
  S->at = NULL;
  int rc = lied_aug_eval(S->s, S->aug, t, y, out, S->e);
  if (rc) return rc < 0 ? rc : LIED_ERROR;
  if (S->fixed)
    for (uint64_t i = 0; i < S->s->nstates; i++)
      if (S->fixed[i]) out[i] = 0;
  return LIED_OK;
}

/* The Jacobian at x (f = f(x)): over the states, or over [x; z*(x); w*(x)],
 * the unknowns the model solves for at x (an evaluation at x first when
 * the last one was elsewhere). */
static int jacobian(steady *S, lied_jac *J, const double *x, const double *f, double *scratch) {
  if (!S->aug) return lied_jac_eval(J, rhs, S, S->t, x, f);
  const uint64_t n = S->s->nstates;
  if (S->at != x) LIED_TRY(rhs(S, S->t, x, scratch));
  lied_aug_point(S->s, S->aug, S->ya);
  memcpy(S->ya, x, sizeof *x * n);
  LIED_TRY(rhs_aug(S, S->t, S->ya, S->fa));
  return lied_jac_eval(J, rhs_aug, S, S->t, S->ya, S->fa);
}

static double max_abs(uint64_t n, const double *v, uint64_t *at) {
  double m = 0;
  *at = 0;
  for (uint64_t i = 0; i < n; i++)
    if (!(fabs(v[i]) <= m)) { /* NaN wins */
      m = fabs(v[i]);
      *at = i;
      if (isnan(m)) return m;
    }
  return m;
}

/* The first pseudo-time step: a relative change of about 1% per step of the
 * fastest-moving state (scale max(|x|, 1)). */
static double first_step(uint64_t n, const double *x, const double *f) {
  double rate = 0;
  for (uint64_t i = 0; i < n; i++) rate = fmax(rate, fabs(f[i]) / fmax(fabs(x[i]), 1.0));
  return rate > 0 ? 0.01 / rate : 1.0;
}

static int check_opts(const lied_steady_opts *o, uint64_t n, lied_err *e) {
  if (!isfinite(o->t)) return lied_errc(e, LIED_E_USAGE, "steady: time must be finite");
  if (o->rtol < 0 || o->atol < 0 || !isfinite(o->rtol) || !isfinite(o->atol))
    return lied_errc(e, LIED_E_USAGE, "steady: tolerances must be positive and finite");
  if (o->maxit < 0) return lied_errc(e, LIED_E_USAGE, "steady: maxit must be positive");
  for (int k = 0; k < o->nfixed; k++)
    if (o->fixed[k] >= n)
      return lied_errc(e, LIED_E_USAGE, "steady: fixed state index %llu out of range",
                       (unsigned long long)o->fixed[k]);
  return LIED_OK;
}

static void newton_solve(void *ctx, double *b) { lied_newton_lsolve(ctx, b); }

/* One pseudo-time step from x (f = f(x)) with step h into xn (fn = f(xn)):
 * LIED_OK, LIED_RETRY (singular iteration matrix, non-finite or growing
 * residual: retry smaller) or a negative status. */
static int pseudo_step(steady *S, lied_newton *N, double h, const double *x, const double *f,
                       double *xn, double *fn, lied_err *e) {
  const uint64_t n = S->s->nstates;
  /* after a rejected step the point is the same, and so is its Jacobian */
  if (!S->jac_at_x) {
    int rc = jacobian(S, &N->J, x, f, fn);
    if (rc) return rc < 0 ? rc : LIED_ERROR;
    S->jac_at_x = 1;
    S->jacobians++;
  }
  /* the states' rows of the sparse formulation's matrix scale with h, its
   * sections' rows do not: h moves by orders of magnitude over the
   * iteration, and the pivot order of one h may be poor for another, so
   * the sparse LU pivots afresh when h has moved by more than STEADY_REPIVOT
   * since it last pivoted; within that it keeps the order while its
   * condition estimate holds (sparse.c: RCOND_DROP), as the solvers do */
  if (N->sp && S->aug &&
      !(S->h_pivot > 0 && h <= STEADY_REPIVOT * S->h_pivot && h >= S->h_pivot / STEADY_REPIVOT)) {
    lied_splu_repivot(N->sp);
    S->h_pivot = h;
    S->pivotings++;
  }
  const double hf = h >= STEADY_HMAX ? STEADY_HMAX : h;
  int rc = lied_newton_factor(N, hf, e);
  /* rows orders of magnitude apart (h J of a closed valve's flow, 1e18, beside
   * the unit rows of held states) look singular to the LU's threshold: again
   * equilibrated (a network with every valve closed at a leakage of
   * 1e-5 found no steady start, its h held below STEADY_HBIG) */
  if (rc > 0) rc = lied_newton_factor_rows(N, hf, e);
  if (rc > 0) return LIED_RETRY;
  if (rc < 0) return lied_err_code(e);
  for (uint64_t i = 0; i < n; i++) xn[i] = h * f[i];
  lied_newton_lsolve(N, xn);
  for (uint64_t i = 0; i < n; i++) xn[i] += x[i];
  if (lied_invariants_correct(&S->inv, newton_solve, N, h, xn)) return LIED_RETRY;
  for (uint64_t i = 0; S->fixed && i < n; i++) /* exactly, whatever the correction's rounding */
    if (S->fixed[i]) xn[i] = x[i];
  lied_err save = *e;
  rc = rhs(S, S->t, xn, fn);
  if (S->interrupted) return rc;
  if (rc) { /* a trial point the model cannot evaluate: retry closer */
    S->fault = *e, S->faulted = 1;
    *e = save;
    return LIED_RETRY;
  }
  uint64_t at;
  return isnan(max_abs(n, fn, &at)) ? LIED_RETRY : LIED_OK;
}

/* Why the iteration ends without an answer, and what to try. */
static int not_found(steady *S, const char *why, const double *f, double h, double rho,
                     lied_err *e) {
  uint64_t at;
  double r = max_abs(S->s->nstates, f, &at);
  char name[512];
  lied_sched_state_name(S->s, at, name, sizeof name);
  const char *hint =
      h < 1e-6 && rho > STEADY_NONLINEAR
          ? "the model is strongly nonlinear around this state (a pseudo-time step of its "
            "transient departs from the linearised one by more than half): start from a "
            "transient (at = T), or closer to the equilibrium"
      : h >= STEADY_HBIG
          ? "the residual stays: the model may have no equilibrium (a force without a "
            "counterforce, a flow without a return), or a continuum of them that no "
            "invariant pins down: fix states"
          : "start from a transient (at = T), fix states, or give more steps (maxit)";
  if (S->faulted) /* the model refused the trial points: that is the reason */
    return lied_errc(e, LIED_E_SOLVER,
                     "steady: no steady state found (%s); largest derivative der(%s) = %.6g, "
                     "pseudo-time step %.3g s; the last trial point: %s",
                     why, name, r, h, S->fault.msg);
  return lied_errc(e, LIED_E_SOLVER,
                   "steady: no steady state found (%s); largest derivative der(%s) = %.6g, "
                   "pseudo-time step %.3g s; %s",
                   why, name, r, h, hint);
}

/* The departure of the step from its linearisation: |f(xn) - (f + J dx)|
 * against the larger of |f| and |f + J dx| (max norms): 0 for a linear
 * model, about 1 where the linearisation no longer predicts the step.
 * Over the sparse formulation df/dx is not formed; the step's equations
 * (I - h J) dx = h f - h C y (y: the invariants' correction) give
 * f + J dx = dx / h + C y, a held state's 0. */
static double nonlinearity(const steady *S, const lied_jac *J, double h, const double *x,
                           const double *xn, const double *f, const double *fn,
                           double *lin) {
  const uint64_t n = S->s->nstates;
  if (S->aug) {
    for (uint64_t i = 0; i < n; i++) lin[i] = (xn[i] - x[i]) / h;
    lied_invariants_add_last(&S->inv, lin);
    for (uint64_t i = 0; S->fixed && i < n; i++)
      if (S->fixed[i]) lin[i] = 0;
  } else
    for (uint64_t i = 0; i < n; i++) {
      lin[i] = f[i];
      for (uint64_t p = J->rowptr[i]; p < J->rowptr[i + 1]; p++)
        lin[i] += J->val[p] * (xn[J->cols[p]] - x[J->cols[p]]);
    }
  double dev = 0, big = 0;
  for (uint64_t i = 0; i < n; i++) {
    dev = fmax(dev, fabs(fn[i] - lin[i]));
    big = fmax(big, fmax(fabs(f[i]), fabs(lin[i])));
  }
  return big > 0 ? dev / big : 0;
}

/* The message of a set stop flag after `steps` pseudo-time steps at the
 * point whose derivatives are f (NULL: none evaluated yet; `where`: what
 * was under way), h the pseudo-time step. */
static int interrupted(const steady *S, int steps, const double *f, double h, const char *where) {
  char der[640] = "";
  if (f) {
    uint64_t at;
    double r = max_abs(S->s->nstates, f, &at);
    char name[512];
    lied_sched_state_name(S->s, at, name, sizeof name);
    if (h > 0)
      snprintf(der, sizeof der, " (largest derivative der(%s) = %.6g, pseudo-time step %.3g s)",
               name, r, h);
    else
      snprintf(der, sizeof der, " (largest derivative der(%s) = %.6g)", name, r);
  }
  return lied_errc(S->e, LIED_ERROR,
                   "steady: interrupted after %d pseudo-time steps and %ld evaluations of the "
                   "model%s%s",
                   steps, S->nrhs, where, der);
}

/* Pseudo-time steps until the update of a step whose h exceeds STEADY_HBIG
 * (a Newton step, nearly) is within the tolerances. The step size follows
 * how well each step's linearisation predicted it (a trust region in
 * pseudo-time): it grows tenfold while the model behaves linearly over the
 * step, and by the fall of the residual (switched evolution relaxation);
 * a step that departs from its linearisation by more than half while the
 * residual grows is retried with a quarter of h. So a transient whose
 * residual rises at first (a flow accelerating) is followed at the steps
 * it allows, and the end game is Newton's method. */
static int iterate(steady *S, lied_newton *N, const lied_steady_opts *o, double *x,
                   double *f, double *xn, double *fn, double *lin, lied_steady_stats *st,
                   lied_err *e) {
  const uint64_t n = S->s->nstates;
  const int maxit = o->maxit ? o->maxit : 500;
  uint64_t at;
  double r = max_abs(n, f, &at);
  double h = first_step(n, x, f), rho = 0;
  /* a residual at rounding level (of the start's) counts as no residual:
   * steps that only stir the rounding noise are accepted and h grows */
  const double noise = 1e-12 * r;
  for (int it = 0; it < maxit; it++) {
    if (r == 0) break;
    int rc = stopped(S);
    if (!rc) rc = pseudo_step(S, N, h, x, f, xn, fn, e);
    if (rc < 0 && S->interrupted) return interrupted(S, it, f, h, "");
    if (rc < 0) return rc;
    double rn = rc == LIED_OK ? max_abs(n, fn, &at) : INFINITY;
    rho = rc == LIED_OK ? nonlinearity(S, &N->J, h, x, xn, f, fn, lin) : INFINITY;
    /* the update, weighted like the solvers' error test */
    double du = 0;
    for (uint64_t i = 0; rc == LIED_OK && i < n; i++)
      du = fmax(du, fabs(xn[i] - x[i]) / (o->atol + o->rtol * fabs(xn[i])));
    /* an update within the tolerances is accepted whatever the residual
     * does: near the solution the residual is rounding noise */
    int small = rc == LIED_OK && du <= 1.0;
    if (!small && (rc == LIED_RETRY || (rho > STEADY_NONLINEAR && !(rn <= r || rn <= noise)))) {
      st->rejected++;
      h *= STEADY_SHRINK;
      if (h < 1e-14 * fmax(first_step(n, x, f), DBL_MIN))
        return not_found(S, "the pseudo-time step became too small", f, h, rho, e);
      continue;
    }
    memcpy(x, xn, sizeof *x * n);
    memcpy(f, fn, sizeof *f * n);
    S->jac_at_x = 0;
    S->faulted = 0;
    if (S->at == xn) S->at = x; /* the model was last evaluated there */
    st->steps++;
    double ser = rn > noise && !small ? r / rn : STEADY_GROWTH;
    double glin = rho < 0.05 ? STEADY_GROWTH : rho < 0.2 ? 4.0 : rho < STEADY_NONLINEAR ? 2.0 : 1.0;
    double grow = fmin(STEADY_GROWTH, fmax(ser, glin));
    r = rn;
    st->h = h;
    if (h >= STEADY_HBIG && du <= 1.0) return LIED_OK;
    h = fmin(h * fmax(grow, 1.0), STEADY_HMAX);
  }
  if (r == 0) return LIED_OK;
  char why[64];
  snprintf(why, sizeof why, "%d pseudo-time steps", maxit);
  return not_found(S, why, f, h, rho, e);
}

/* The Newton matrix over the states (their structural pattern), or over
 * the sparse formulation for a model with sparse sections and more states
 * than a dense LU takes: its derivatives by the states are dense where a
 * section couples them (a network), [f; g] by [x; z; w] stays sparse and
 * has few colours (district heating at 1,000 houses: 41 instead of 4,001). */
static int newton_setup(steady *S, lied_newton *N, lied_err *e) {
  lied_sched *s = S->s;
  const uint64_t n = s->nstates;
  int rc = LIED_OK;
  if (s->naug && n > LIED_DENSE_MAX && lied_splu_available()) {
    rc = lied_aug_new(s, &S->aug, e);
    if (!rc) {
      const uint64_t na = n + S->aug->nz + S->aug->nw;
      rc = lied_newton_init_aug(N, n, na - n, S->aug->rowptr, S->aug->cols, 1.0, e);
      S->ya = lied_xcalloc((size_t)na + 1, sizeof *S->ya, "steady state", e);
      S->fa = lied_xcalloc((size_t)na + 1, sizeof *S->fa, "steady state", e);
      if (!rc && (!S->ya || !S->fa)) rc = LIED_E_NOMEM;
    }
    return rc;
  }
  uint64_t *rowptr = NULL;
  uint32_t *cols = NULL;
  rc = lied_sched_sparsity(s, &rowptr, &cols, e);
  if (!rc) rc = lied_newton_init(N, n, rowptr, cols, 1.0, e);
  free(rowptr);
  free(cols);
  return rc;
}

int lied_steady(lied_sched *s, const lied_steady_opts *o, double *x, lied_steady_stats *st,
                lied_err *e) {
  memset(st, 0, sizeof *st);
  const uint64_t n = s->nstates;
  LIED_TRY(check_opts(o, n, e));
  steady S = {.s = s, .t = o->t, .stop = o->stop, .e = e};
  const double rtol = o->rtol > 0 ? o->rtol : 1e-10, atol = o->atol > 0 ? o->atol : 1e-10;
  lied_steady_opts ro = *o;
  ro.rtol = rtol;
  ro.atol = atol;
  lied_newton N;
  memset(&N, 0, sizeof N);
  double *work = NULL;
  int rc = n ? newton_setup(&S, &N, e) : LIED_OK;
  if (!rc && n) {
    work = lied_xmalloc(sizeof *work * 4 * (size_t)n, "steady state", e);
    S.fixed = o->nfixed ? lied_xcalloc((size_t)n, 1, "steady state", e) : NULL;
    if (!work || (o->nfixed && !S.fixed)) rc = LIED_E_NOMEM;
  }
  if (!rc && n) {
    double *f = work, *xn = work + n, *fn = work + 2 * n, *lin = work + 3 * n;
    for (int k = 0; k < o->nfixed; k++) S.fixed[o->fixed[k]] = 1;
    rc = rhs(&S, o->t, x, f);
    if (rc && S.interrupted) rc = interrupted(&S, 0, NULL, 0, "");
    if (!rc) {
      rc = lied_invariants_find(s, o->t, x, S.fixed, o->stop, &S.inv, &S.nrhs, e);
      S.at = NULL; /* its evaluations were elsewhere */
      if (rc == LIED_ERROR && o->stop && *o->stop)
        rc = interrupted(&S, 0, f, 0, ", finding the invariants");
    }
    if (!rc) rc = iterate(&S, &N, &ro, x, f, xn, fn, lin, st, e);
    uint64_t at;
    if (!rc) st->residual = max_abs(n, f, &at);
  }
  /* leave every variable consistent with the answer */
  if (!rc) rc = lied_sched_evaluate(s, o->t, x, NULL, 1, e);
  st->rhs = S.nrhs;
  st->pivotings = S.pivotings;
  st->jacobians = S.jacobians;
  lied_newton_free(&N);
  lied_aug_free(S.aug);
  free(S.ya);
  free(S.fa);
  free(work);
  free(S.fixed);
  lied_invariants_free(&S.inv);
  return rc < 0 ? lied_err_code(e) : rc;
}
