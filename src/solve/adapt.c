/* adapt.c - the adaptive driver: PI step-size control with rejections,
 * outputs at exact points by dense output (steps are never shortened for
 * them), failures naming the time and the state. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve/events.h"
#include "solve/newton.h"
#include "solve/stepper.h"

enum { WHY_ERROR, WHY_NEWTON, WHY_NAN, WHY_MODEL };

/* Hairer and Wanner's starting step (I, II.4): from |x|, |f(x)| and the
 * change of f along an explicit Euler step, for an error O(h^k). */
static int initial_step(lied_run *R, int k, double t, const double *x, double *h) {
  uint64_t n = R->n;
  double *f0 = lied_xcalloc(4 * (size_t)n + 1, sizeof(double), "solver work space", R->e);
  if (!f0) return LIED_E_NOMEM;
  double *w = f0 + n, *x1 = w + n, *f1 = x1 + n;
  int rc = lied_run_rhs(R, t, x, f0);
  double h0 = 0, d1 = 0;
  if (!rc) {
    lied_weights(n, x, NULL, R->rtol, R->atol, w);
    double d0 = lied_wrms(n, x, w, NULL);
    d1 = lied_wrms(n, f0, w, NULL);
    h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 * R->span : 0.01 * d0 / d1;
    if (!isfinite(h0)) h0 = 1e-6 * R->span;
    h0 = fmin(h0, R->hmax);
    for (uint64_t i = 0; i < n; i++) x1[i] = x[i] + h0 * f0[i];
    rc = lied_run_rhs(R, t + h0, x1, f1);
  }
  if (!rc) {
    for (uint64_t i = 0; i < n; i++) f1[i] -= f0[i];
    double d2 = lied_wrms(n, f1, w, NULL) / h0;
    double dm = fmax(d1, d2);
    double h1 = dm <= 1e-15 ? fmax(1e-6 * R->span, h0 * 1e-3) : pow(0.01 / dm, 1.0 / k);
    *h = fmin(fmin(100 * h0, h1), R->hmax);
    if (!isfinite(*h) || *h <= 0) *h = 1e-6 * R->span;
  }
  free(f0);
  return rc ? lied_err_at(R->e, t) : LIED_OK;
}

static int underflow(lied_run *R, double t, double h, int why, uint64_t worst,
                     const char *model_msg) {
  char name[512];
  lied_run_state_name(R, worst, name, sizeof name);
  static const char *const reason[] = {
      "the error estimate stays above the tolerance (largest in state %s)",
      "the Newton iteration does not converge (largest update in state %s)",
      "state %s is not finite in every trial step",
      "every trial step fails: %s"};
  char what[LIED_ERR_MAX];
  if (why == WHY_MODEL)
    snprintf(what, sizeof what, reason[why], model_msg);
  else
    snprintf(what, sizeof what, reason[why], name);
  return lied_errc(R->e, LIED_E_SOLVER, "at t = %.17g: step size underflow (h = %g): %s", t, h,
                   what);
}

/* The dense output of the step being taken, for the output points inside
 * it (lied_dense_fn). */
typedef struct dense_ctx {
  lied_stepper *S;
  const double *x; /* the state at the step's start */
  double t, h;
  double *xout;
} dense_ctx;

static int dense_at(void *ctx, double tout, const double **x) {
  dense_ctx *d = ctx;
  d->S->interp(d->S->self, d->x, d->h, (tout - d->t) / d->h, d->xout);
  *x = d->xout;
  return LIED_OK;
}

/* The step controller's state between attempts. */
typedef struct adapt {
  lied_run *R;
  lied_stepper *S;
  lied_ctrl ctrl;
  int why;        /* why the last attempt was rejected (messages) */
  uint64_t worst; /* the state it names */
  char model_msg[1024]; /* WHY_MODEL: the model's message */
} adapt;

/* Failures of the model during a trial step that a smaller step may avoid:
 * a linear section singular at a state the step overshot to, a value that
 * is not finite there, a block fault (a medium state out of its range). */
static int retryable(int status) {
  return status == LIED_E_SINGULAR || status == LIED_E_NONFINITE || status == LIED_E_RANGE;
}

/* Attempt a step of size h from (t, x): LIED_OK with the error estimate in
 * *err (accepted), LIED_RETRY with *h reduced (rejected by the error test or
 * a Newton failure), or a negative status. */
static int attempt(adapt *A, double t, const double *x, double *h, double *err) {
  lied_run *R = A->R;
  int a = A->S->attempt(A->S->self, t, *h, x, err, &A->worst);
  if (a < 0 && retryable(a)) { /* reject the trial step, keep the message */
    snprintf(A->model_msg, sizeof A->model_msg, "%.1000s", R->e->msg);
    R->st->rejected++;
    A->why = WHY_MODEL;
    A->ctrl.rejected = 1;
    A->S->restart(A->S->self);
    *h *= 0.25;
    return LIED_RETRY;
  }
  if (a < 0) return lied_err_at(R->e, t);
  if (a == LIED_RETRY) {
    R->st->rejected++;
    A->why = WHY_NEWTON;
    A->ctrl.rejected = 1;
    *h *= 0.25;
    return LIED_RETRY;
  }
  if (!(*err <= 1.0)) {
    R->st->rejected++;
    A->why = isfinite(*err) ? WHY_ERROR : WHY_NAN;
    *h *= lied_ctrl_reject(&A->ctrl, *err);
    return LIED_RETRY;
  }
  return LIED_OK;
}

/* Steps from R->t to the stop time (or a stop request), output points from
 * the stepper's dense output; steps end exactly at time events and at the
 * zero crossings located inside them (events.h), where the events are
 * handled and the stepper restarts. A step that crossed a kink is taken
 * again to end there (t_kink), so no accepted step straddles one.
 * Long: the step loop of the adaptive driver: steps, dense output, events and restarts. */
static int integrate(adapt *A, dense_ctx *dense, double h) {
  lied_run *R = A->R;
  lied_stepper *S = A->S;
  lied_events *V = R->ev;
  double *x = R->x, t = R->t, t_kink = INFINITY;
  double h_kink = 0; /* the step size before a step was taken again to a kink */
  int rc = LIED_OK;
  while (!rc && !lied_run_stopped(R)) {
    double hmin = 16 * DBL_EPSILON * fmax(fabs(t), 1e-3 * R->span);
    const double hwant = h;
    int last = 0, at_time = 0, at_kink = 0;
    if (t + h >= R->stop - hmin) {
      h = R->stop - t;
      last = 1;
    }
    const double tl = fmin(R->t_cut, t_kink); /* land on the time event or the kink */
    if (tl < R->stop && t + h >= tl - hmin) {
      h = tl - t;
      last = 0;
      at_time = tl == R->t_cut;
      at_kink = tl == t_kink;
      if (h < hmin && !at_time) { /* a kink closer than a step: step across it */
        t_kink = INFINITY;
        h = hwant;
        continue;
      }
      if (h < hmin) { /* closer than a step can resolve: it happens here */
        t = R->t_cut;
        if ((rc = lied_run_points(R, t, x, NULL, NULL)) || (rc = lied_events_fire(V, t, x)))
          break;
        S->restart(S->self);
        h = hwant;
        continue;
      }
    }
    if (h < hmin) {
      rc = underflow(R, t, h, A->why, A->worst, A->model_msg);
      break;
    }
    double err = 0;
    rc = attempt(A, t, x, &h, &err);
    if (rc == LIED_RETRY) {
      rc = LIED_OK;
      continue;
    }
    if (rc) break;
    double tnew = last ? R->stop : at_time || at_kink ? tl : t + h;
    dense->t = t;
    dense->h = h;
    const double *xe = NULL;
    double te = tnew;
    if (V && V->nzero) { /* a zero crossing inside the step cuts it */
      rc = lied_events_locate(V, t, tnew, S->candidate(S->self), dense_at, dense, at_kink,
                              hmin, &te, &xe);
      if (rc < 0) break;
      if (rc == 2) { /* a kink: the step again, to end there */
        if (!(t_kink < INFINITY)) h_kink = h;
        t_kink = te;
        h = te - t;
        rc = LIED_OK;
        continue;
      }
      if (rc == 1) tnew = te, last = 0, at_time = R->t_cut <= te;
      rc = LIED_OK;
    }
    if ((rc = lied_run_points(R, tnew, NULL, dense_at, dense))) break;
    S->accept(S->self, x);
    if (xe) memcpy(x, xe, sizeof *x * R->n);
    t = tnew;
    if (at_kink) t_kink = INFINITY;
    R->st->steps++;
    if ((rc = lied_run_stepped(R, t, x)) || last) break;
    if ((xe || at_time) && t < R->stop) {
      if ((rc = lied_events_fire(V, t, x))) break;
      S->restart(S->self);
      /* after a kink the step size from before it was taken again */
      h = fmin(at_kink && h_kink > hwant ? h_kink : hwant, R->hmax);
      A->why = WHY_ERROR;
      continue;
    }
    double fac = lied_ctrl_accept(&A->ctrl, err);
    /* implicit: keep h (and the factorisation) when it would grow a little */
    if (S->implicit && fac >= 1.0 && fac <= 1.2) fac = 1.0;
    h = fmin(h * fac, R->hmax);
    /* a step taken again to a kink that no longer crosses at its end
     * (rounding about 0): the step size from before, not the shortened one */
    if (at_kink && h_kink > h) h = fmin(h_kink, R->hmax);
    A->why = WHY_ERROR;
  }
  R->t = t;
  return rc;
}

int lied_run_adaptive(lied_run *R, const lied_solver *sv) {
  lied_stepper S;
  LIED_TRY((sv->implicit ? lied_adirk_new : lied_aerk_new)(&S, sv->tab, R));
  double h = R->o->dt;
  dense_ctx dense = {&S, R->x, 0, 0, NULL};
  dense.xout = lied_xcalloc((size_t)R->n + 1, sizeof(double), "solver work space", R->e);
  int rc = dense.xout ? LIED_OK : LIED_E_NOMEM;
  if (!rc && !(h > 0)) rc = initial_step(R, S.err_order, R->t, R->x, &h);
  adapt A = {R, &S, {0}, WHY_ERROR, 0};
  lied_ctrl_init(&A.ctrl, S.err_order, S.implicit);
  if (!rc) rc = integrate(&A, &dense, fmin(h, R->hmax));
  if (S.stats) S.stats(S.self, R->st);
  S.free(S.self);
  free(dense.xout);
  return rc;
}
