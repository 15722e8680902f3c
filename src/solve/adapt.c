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
  if ((why == WHY_ERROR || why == WHY_NEWTON) && R->rtol < 100 * DBL_EPSILON) /* unmeetable */
    snprintf(what + strlen(what), sizeof what - strlen(what),
             "; the relative tolerance %g is below what doubles resolve (give at least %g)",
             R->rtol, 100 * DBL_EPSILON);
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
    /* an infinite estimate of finite states: weights 1 / (atol + rtol |x|)
     * past the doubles (a tolerance of 1e-300), not a state gone bad */
    A->why = isnan(*err) ? WHY_NAN : WHY_ERROR;
    *h *= lied_ctrl_reject(&A->ctrl, *err);
    return LIED_RETRY;
  }
  return LIED_OK;
}

/* The step being planned: from t, of size h (hwant before it was cut to
 * land on something), ending at the stop time (last), at the time event
 * or the kink tl (at_time, at_kink); t_kink: a kink the step is taken
 * again to reach, h_kink the step size before that; across: kinks this
 * close after the step's start are not taken again to (events.h): after a
 * step taken again that ended at the kink without crossing it, the kink
 * function is within its rounding of 0 there (a room at 294 K moves by
 * less than an ulp in a step of 1e-10 s, and a controller's limit function
 * k (T_set - T) + x - y_min with it: located again just after the start of
 * every step, each taken again to end there without the state moving,
 * examples/district_heating.lua with esdirk23), so the next step cuts at a
 * kink within the retaken step's length on its dense output. */
typedef struct plan {
  double t, h, hwant, hmin, tl, t_kink, h_kink, across;
  int last, at_time, at_kink;
} plan;

/* land's results besides a failure's status (no status has these values) */
enum { PLAN_STEP = 0, PLAN_AGAIN = 1000 };

/* Cut P's step to land on the stop time, the next time event or the
 * kink: PLAN_STEP (take it), PLAN_AGAIN (plan again: a kink closer than a
 * step is stepped across; a time event closer than that happens at once,
 * the stepper restarted), or the status of a failure. */
static int land(adapt *A, plan *P, double *x) {
  lied_run *R = A->R;
  P->hmin = 16 * DBL_EPSILON * fmax(fabs(P->t), 1e-3 * R->span);
  P->hwant = P->h;
  P->last = P->at_time = P->at_kink = 0;
  if (P->t + P->h >= R->stop - P->hmin) {
    P->h = R->stop - P->t;
    P->last = 1;
  }
  P->tl = fmin(R->t_cut, P->t_kink); /* land on the time event or the kink */
  if (P->tl < R->stop && P->t + P->h >= P->tl - P->hmin) {
    P->h = P->tl - P->t;
    P->last = 0;
    P->at_time = P->tl == R->t_cut;
    P->at_kink = P->tl == P->t_kink;
    if (P->h < P->hmin && !P->at_time) { /* a kink closer than a step: step across it */
      P->t_kink = INFINITY;
      P->h = P->hwant;
      return PLAN_AGAIN;
    }
    if (P->h < P->hmin) { /* closer than a step can resolve: it happens here */
      P->t = R->t_cut;
      int rc = lied_run_points(R, P->t, x, NULL, NULL);
      if (rc || (rc = lied_events_fire(R->ev, P->t, x))) return rc;
      A->S->restart(A->S->self);
      R->st->restarts++;
      P->h = P->hwant;
      return PLAN_AGAIN;
    }
  }
  if (P->h < P->hmin) return underflow(R, P->t, P->h, A->why, A->worst, A->model_msg);
  return PLAN_STEP;
}

/* After a step accepted to P->t: where it ended at an event (fired), the
 * events handled and the stepper restarted, the step size from before a
 * kink taken again; else the controller's next step size (err: the step's
 * error estimate). */
static int next_step(adapt *A, plan *P, double *x, int event, int cut, double err) {
  lied_run *R = A->R;
  A->why = WHY_ERROR;
  if (event && P->t < R->stop) {
    int rc = lied_events_fire(R->ev, P->t, x);
    if (rc) return rc;
    /* a kink at the step's end changes nothing (the derivatives are
     * continuous): the first stage and the Jacobian stay; cut inside the
     * step (on the dense output) the first stage is not there */
    if (!R->ev->quiet || cut) {
      A->S->restart(A->S->self);
      R->st->restarts++;
    }
    /* after a kink the step size from before it was taken again */
    P->h = fmin(P->at_kink && P->h_kink > P->hwant ? P->h_kink : P->hwant, R->hmax);
    return LIED_OK;
  }
  double fac = lied_ctrl_accept(&A->ctrl, err);
  /* implicit: keep h (and the factorisation) when it would grow a little */
  if (A->S->implicit && fac >= 1.0 && fac <= 1.2) fac = 1.0;
  P->h = fmin(P->h * fac, R->hmax);
  /* a step taken again to a kink that no longer crosses at its end
   * (rounding about 0): the step size from before, not the shortened one */
  if (P->at_kink && P->h_kink > P->h) P->h = fmin(P->h_kink, R->hmax);
  return LIED_OK;
}

/* Steps from R->t to the stop time (or a stop request), output points from
 * the stepper's dense output; steps end exactly at time events and at the
 * zero crossings located inside them (events.h), where the events are
 * handled and the stepper restarts. A step that crossed a kink is taken
 * again to end there (t_kink), so no accepted step straddles one. */
static int integrate(adapt *A, dense_ctx *dense, double h) {
  lied_run *R = A->R;
  lied_stepper *S = A->S;
  lied_events *V = R->ev;
  double *x = R->x;
  plan P = {.t = R->t, .h = h, .t_kink = INFINITY, .h_kink = 0, .across = 0};
  int rc = LIED_OK;
  while (!rc && !lied_run_stopped(R)) {
    rc = land(A, &P, x);
    if (rc == PLAN_AGAIN) {
      rc = LIED_OK;
      continue;
    }
    if (rc) break;
    double err = 0;
    rc = attempt(A, P.t, x, &P.h, &err);
    if (rc == LIED_RETRY) {
      rc = LIED_OK;
      continue;
    }
    if (rc) break;
    double tnew = P.last ? R->stop : P.at_time || P.at_kink ? P.tl : P.t + P.h;
    dense->t = P.t;
    dense->h = P.h;
    const double *xe = NULL;
    double te = tnew;
    const double tend = tnew;
    if (V && V->nzero) { /* a zero crossing inside the step cuts it */
      rc = lied_events_locate(V, P.t, tnew, S->candidate(S->self), dense_at, dense, P.at_kink,
                              fmax(P.hmin, P.across), 0, &te, &xe);
      P.across = 0;
      if (rc < 0) break;
      if (rc == 2) { /* a kink: the step again, to end there */
        if (!(P.t_kink < INFINITY)) P.h_kink = P.h;
        P.t_kink = te;
        P.h = te - P.t;
        rc = LIED_OK;
        continue;
      }
      if (rc == 1) tnew = te, P.last = 0, P.at_time = R->t_cut <= te;
      if (P.at_kink && rc == 0) P.across = P.h;
      rc = LIED_OK;
    }
    if ((rc = lied_run_points(R, tnew, NULL, dense_at, dense))) break;
    S->accept(S->self, x);
    if (xe) memcpy(x, xe, sizeof *x * R->n);
    P.t = tnew;
    if (P.at_kink) P.t_kink = INFINITY;
    R->st->steps++;
    if ((rc = lied_run_stepped(R, P.t, x)) || P.last) break;
    rc = next_step(A, &P, x, xe || P.at_time, xe && te < tend, err);
  }
  R->t = P.t;
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
