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
#include "solve/newton.h"

#define STEADY_GROWTH 10.0  /* largest growth of h per accepted step */
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
  lied_err *e;
} steady;

/* f(x) with the fixed states' derivatives set to 0 (so they never move and
 * the Jacobian's rows for them are 0: their rows of I - h J are the identity). */
static int rhs(void *ctx, double t, const double *x, double *dx) {
  steady *S = ctx;
  S->nrhs++;
  int rc = lied_sched_evaluate(S->s, t, x, dx, 0, S->e);
  if (rc) return rc < 0 ? rc : LIED_ERROR;
  if (S->fixed)
    for (uint64_t i = 0; i < S->s->nstates; i++)
      if (S->fixed[i]) dx[i] = 0;
  return LIED_OK;
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
  int rc = lied_jac_eval(&N->J, rhs, S, S->t, x, f);
  if (rc) return rc < 0 ? rc : LIED_ERROR;
  rc = lied_newton_factor(N, h >= STEADY_HMAX ? STEADY_HMAX : h, e);
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
  if (rc) { /* a trial point the model cannot evaluate: retry closer */
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
  return lied_errc(e, LIED_E_SOLVER,
                   "steady: no steady state found (%s); largest derivative der(%s) = %.6g, "
                   "pseudo-time step %.3g s; %s",
                   why, name, r, h, hint);
}

/* The departure of the step from its linearisation: |f(xn) - (f + J dx)|
 * against the larger of |f| and |f + J dx| (max norms): 0 for a linear
 * model, about 1 where the linearisation no longer predicts the step. */
static double nonlinearity(const lied_jac *J, const double *x, const double *xn,
                           const double *f, const double *fn) {
  double dev = 0, big = 0;
  for (uint64_t i = 0; i < J->n; i++) {
    double lin = f[i];
    for (uint64_t p = J->rowptr[i]; p < J->rowptr[i + 1]; p++)
      lin += J->val[p] * (xn[J->cols[p]] - x[J->cols[p]]);
    dev = fmax(dev, fabs(fn[i] - lin));
    big = fmax(big, fmax(fabs(f[i]), fabs(lin)));
  }
  return big > 0 ? dev / big : 0;
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
                   double *f, double *xn, double *fn, lied_steady_stats *st, lied_err *e) {
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
    if (o->stop && *o->stop) {
      char name[512];
      lied_sched_state_name(S->s, at, name, sizeof name);
      return lied_errc(e, LIED_ERROR,
                       "steady: interrupted after %d pseudo-time steps (largest derivative der(%s) "
                       "= %.6g, pseudo-time step %.3g s)",
                       it, name, r, h);
    }
    int rc = pseudo_step(S, N, h, x, f, xn, fn, e);
    if (rc < 0) return rc;
    double rn = rc == LIED_OK ? max_abs(n, fn, &at) : INFINITY;
    rho = rc == LIED_OK ? nonlinearity(&N->J, x, xn, f, fn) : INFINITY;
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
    st->steps++;
    double ser = rn > noise && !small ? r / rn : STEADY_GROWTH;
    double lin = rho < 0.05 ? STEADY_GROWTH : rho < 0.2 ? 4.0 : rho < STEADY_NONLINEAR ? 2.0 : 1.0;
    double grow = fmin(STEADY_GROWTH, fmax(ser, lin));
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

int lied_steady(lied_sched *s, const lied_steady_opts *o, double *x, lied_steady_stats *st,
                lied_err *e) {
  memset(st, 0, sizeof *st);
  const uint64_t n = s->nstates;
  LIED_TRY(check_opts(o, n, e));
  steady S = {s, o->t, NULL, 0, {0}, e};
  const double rtol = o->rtol > 0 ? o->rtol : 1e-10, atol = o->atol > 0 ? o->atol : 1e-10;
  lied_steady_opts ro = *o;
  ro.rtol = rtol;
  ro.atol = atol;
  uint64_t *rowptr = NULL;
  uint32_t *cols = NULL;
  lied_newton N;
  memset(&N, 0, sizeof N);
  double *work = NULL;
  int rc = n ? lied_sched_sparsity(s, &rowptr, &cols, e) : LIED_OK;
  if (!rc && n) rc = lied_newton_init(&N, n, rowptr, cols, 1.0, e);
  if (!rc && n) {
    work = lied_xmalloc(sizeof *work * 3 * (size_t)n, "steady state", e);
    S.fixed = o->nfixed ? lied_xcalloc((size_t)n, 1, "steady state", e) : NULL;
    if (!work || (o->nfixed && !S.fixed)) rc = LIED_E_NOMEM;
  }
  if (!rc && n) {
    double *f = work, *xn = work + n, *fn = work + 2 * n;
    for (int k = 0; k < o->nfixed; k++) S.fixed[o->fixed[k]] = 1;
    rc = rhs(&S, o->t, x, f);
    if (!rc) rc = lied_invariants_find(s, o->t, x, S.fixed, o->stop, &S.inv, &S.nrhs, e);
    if (rc == LIED_ERROR) { /* interrupted */
      char why[LIED_ERR_MAX];
      snprintf(why, sizeof why, "%s", e->msg);
      rc = lied_errc(e, LIED_ERROR, "steady: %s", why);
    }
    if (!rc) rc = iterate(&S, &N, &ro, x, f, xn, fn, st, e);
    uint64_t at;
    if (!rc) st->residual = max_abs(n, f, &at);
  }
  /* leave every variable consistent with the answer */
  if (!rc) rc = lied_sched_evaluate(s, o->t, x, NULL, 1, e);
  st->rhs = S.nrhs;
  lied_newton_free(&N);
  free(rowptr);
  free(cols);
  free(work);
  free(S.fixed);
  lied_invariants_free(&S.inv);
  return rc < 0 ? lied_err_code(e) : rc;
}
