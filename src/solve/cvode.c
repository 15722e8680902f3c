/* cvode.c - the cvode solver: SUNDIALS CVODE (BDF, orders 1-5) one step at a
 * time, with lied's coloured finite-difference Jacobian in a sparse matrix
 * factored by KLU; outputs by CVODE's interpolation. Built only when
 * SUNDIALS was found (LIED_HAVE_CVODE). */
#include <cvode/cvode.h>
#include <float.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include "solve/events.h"
#include "sched/aug.h"
#include "solve/jacobian.h"
#include "solve/newton.h"
#include "solve/run.h"

/* CVODE's setup policy (cv_linsys; docs/solvers.md, "cvode's Newton
 * matrix"): a setup (a factorisation) when gamma moved by more than
 * CV_DGMAX since the last one or CV_MSBP steps after it, a fresh Jacobian
 * CV_MSBJ steps after the last: CVODE's defaults. A larger CV_DGMAX (1.0)
 * cut the factorisations of a day of examples/district_heating.lua at
 * 1,000 houses from 1,141 to 837, but CVODE's Newton test then accepts
 * iterates of a slower contraction: cvode at tol 1e-8 met 169 x tol on
 * test_kinks' ElastoGap (100 allowed) and left test_solvers_cli's
 * oscillator by more than 1e-7. */
#define CV_DGMAX 0.3
#define CV_MSBP 20
#define CV_MSBJ 51

typedef struct cv {
  lied_run *R;
  lied_jac jac;
  /* the sparse formulation (R->aug): the Newton matrix over [x; z; w]
   * (solve/newton.h) in CVODE's linear solver (ls_solve); ya, fa: [x; z; w]
   * and [f; g] at the Jacobian's point; nfact_seen: its factorisations
   * counted in the stats */
  lied_newton N;
  double gamma_set;    /* the gamma of CVODE's last setup (cv_linsys) */
  int keep_jac;        /* restarted at a kink: the next setup keeps the Jacobian */
  long nfact_seen;
  double *ya, *fa, *fx;
  int rhs_failed;      /* lied's message is in R->e */
  char msg[512];       /* CVODE's last error message */
  void *mem;           /* CVODE */
  N_Vector yout;       /* the state at an output point */
  double tret;         /* the time CVODE's last step reached */
  SUNContext ctx;      /* the SUNDIALS objects of the run (cv_free releases them) */
  N_Vector y, tmp;
  int watch;           /* the zero functions are watched at each step's end (cv_steps) */
  int kinks;           /* ... and some are kinks: a step may be taken again to end at one */
  double *xs;          /* the state at the start of the step (kinks: the step again) */
  double t_kink;       /* a kink the steps end at (INFINITY: none) */
  SUNMatrix A;
  SUNLinearSolver LS;
} cv;

static int cv_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *user) {
  cv *c = user;
  if (lied_run_rhs(c->R, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot))) {
    c->rhs_failed = 1;
    return -1;
  }
  return 0;
}

static int cv_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix A, void *user,
                  N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)t1, (void)t2, (void)t3;
  cv *c = user;
  lied_jac *J = &c->jac;
  long before = c->R->nrhs;
  if (lied_jac_eval(J, lied_run_rhs, c->R, t, N_VGetArrayPointer(y),
                    N_VGetArrayPointer(fy))) {
    c->rhs_failed = 1;
    return -1;
  }
  c->R->st->jac_rhs += c->R->nrhs - before;
  c->R->st->jacobians++;
  sunindextype *ip = SUNSparseMatrix_IndexPointers(A), *iv = SUNSparseMatrix_IndexValues(A);
  sunrealtype *d = SUNSparseMatrix_Data(A);
  for (uint64_t i = 0; i <= J->n; i++) ip[i] = (sunindextype)J->rowptr[i];
  for (uint64_t p = 0; p < J->nnz; p++) {
    iv[p] = (sunindextype)J->cols[p];
    d[p] = J->val[p];
  }
  return 0;
}

/* The Jacobian of [f; g] at [y; z*(y)], z* what the model solves for at
 * (t, y) (sparse formulation). */
static int cv_aug_jacobian(cv *c, double t, const double *x) {
  lied_run *R = c->R;
  long before = R->nrhs;
  LIED_TRY(lied_run_rhs(R, t, x, c->fx));
  lied_run_aug_point(R, c->ya);
  memcpy(c->ya, x, sizeof *x * R->n);
  LIED_TRY(lied_run_rhs_aug(R, t, c->ya, c->fa));
  LIED_TRY(lied_jac_eval(&c->N.J, lied_run_rhs_aug, R, t, c->ya, c->fa));
  R->st->jac_rhs += R->nrhs - before;
  R->st->jacobians++;
  return LIED_OK;
}

/* The sparse formulation's linear solver for CVODE, a "direct" one in
 * CVODE's matrix-based interface, so that CVODE's own rules decide when to
 * set it up (docs/solvers.md, "cvode's Newton matrix"): at the first step,
 * every CV_MSBP steps, after a failed step and when gamma moved by more than
 * CV_DGMAX since the last setup; a fresh Jacobian at CVODE's predicted state
 * when the last is CV_MSBJ steps old, or when the Newton iteration failed
 * with an older Jacobian (CVODE then retries the step at the same size: the
 * step is not cut). The matrix handed to CVODE is an empty one: the Newton
 * matrix K = [I - gamma F_x, -gamma F_y'; G_x, G_y'] is built and factored
 * (KLU) from the Jacobian of [f; g] (solve/newton.h); a solve is one sparse
 * solve, scaled by CVODE for the gamma of the factors (BDF). */
static int cv_linsys(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix A, sunbooleantype jok,
                     sunbooleantype *jcur, sunrealtype gamma, void *user, N_Vector t1,
                     N_Vector t2, N_Vector t3) {
  (void)fy, (void)A, (void)t1, (void)t2, (void)t3;
  cv *c = user;
  /* the first setup after a restart at a kink keeps the Jacobian (nothing
   * jumped; CVODE asks for a fresh one at every restart) */
  const int keep = c->keep_jac && c->N.J.njac > 0;
  c->keep_jac = 0;
  *jcur = SUNFALSE;
  if (!jok && !keep) {
    if (cv_aug_jacobian(c, t, N_VGetArrayPointer(y))) {
      c->rhs_failed = 1;
      return -1;
    }
    *jcur = SUNTRUE;
  }
  c->gamma_set = gamma;
  return 0;
}

static SUNLinearSolver_Type ls_type(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static int ls_setup(SUNLinearSolver S, SUNMatrix A) {
  (void)A;
  cv *c = S->content;
  int rc = lied_newton_factor(&c->N, c->gamma_set, c->R->e);
  if (rc < 0) {
    c->rhs_failed = 1;
    return -1;
  }
  return rc == LIED_RETRY ? 1 : 0; /* singular: recoverable, CVODE takes a smaller step */
}

static int ls_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol) {
  (void)A, (void)tol;
  cv *c = S->content;
  N_VScale(1.0, b, x);
  lied_newton_lsolve(&c->N, N_VGetArrayPointer(x));
  return 0;
}

static int ls_free(SUNLinearSolver S) {
  S->content = NULL;
  SUNLinSolFreeEmpty(S);
  return 0;
}

static void cv_err(int code, const char *module, const char *function, char *msg, void *user) {
  (void)code, (void)module;
  cv *c = user;
  snprintf(c->msg, sizeof c->msg, "%s: %s", function, msg);
}

/* The state at output point tout inside CVODE's last step (lied_dense_fn). */
static int cv_dense(void *ctx, double tout, const double **x) {
  cv *c = ctx;
  if (CVodeGetDky(c->mem, tout, 0, c->yout) != CV_SUCCESS)
    return lied_errc(c->R->e, LIED_E_SOLVER,
                     "at t = %.17g: cvode: no interpolation at %.17g: %s", c->tret, tout,
                     c->msg);
  *x = N_VGetArrayPointer(c->yout);
  return LIED_OK;
}

/* The state with the largest weighted local error estimate. */
static uint64_t worst_state(void *mem, N_Vector a, N_Vector b, uint64_t n) {
  uint64_t at = 0;
  if (CVodeGetEstLocalErrors(mem, a) != CV_SUCCESS || CVodeGetErrWeights(mem, b) != CV_SUCCESS)
    return 0;
  const double *e = N_VGetArrayPointer(a), *w = N_VGetArrayPointer(b);
  double big = -1;
  for (uint64_t i = 0; i < n; i++)
    if (fabs(e[i] * w[i]) > big) big = fabs(e[i] * w[i]), at = i;
  return at;
}

/* CVODE with lied's sparse Jacobian and KLU over the state vector R->x. */
static int cv_setup(cv *c) {
  lied_run *R = c->R;
  lied_err *e = R->e;
  const uint64_t n = R->n;
  if (SUNContext_Create(NULL, &c->ctx) != 0) c->ctx = NULL;
  if (c->ctx) {
    c->y = N_VMake_Serial((sunindextype)n, R->x, c->ctx);
    c->yout = N_VNew_Serial((sunindextype)n, c->ctx);
    c->tmp = N_VNew_Serial((sunindextype)n, c->ctx);
    c->A = R->aug ? SUNMatNewEmpty(c->ctx) /* K is the solver's (ls_setup) */
                  : SUNSparseMatrix((sunindextype)n, (sunindextype)n,
                                    (sunindextype)c->jac.nnz, CSR_MAT, c->ctx);
    c->mem = CVodeCreate(CV_BDF, c->ctx);
  }
  /* a model whose zero functions are all kinks has them not watched at all:
   * a step whose crossings are kinks alone stands wherever they lie
   * (events.c, kinks_stand), so evaluating them (one evaluation of the whole
   * model a step) would only count them (docs/events.md, "cvode steps across
   * kinks") */
  c->watch = R->ev && R->ev->nzero > R->ev->nkink;
  c->kinks = c->watch && R->ev->nkink;
  c->xs = c->kinks ? malloc(sizeof(double) * n) : NULL;
  if (!c->ctx || !c->y || !c->yout || !c->tmp || !c->A || !c->mem ||
      (c->kinks && !c->xs))
    return lied_errc(e, LIED_E_NOMEM, "cvode: out of memory (%llu states)",
                     (unsigned long long)n);
  CVodeSetErrHandlerFn(c->mem, cv_err, c);
  if (CVodeInit(c->mem, cv_rhs, R->t, c->y) != CV_SUCCESS ||
      CVodeSStolerances(c->mem, R->rtol, R->atol) != CV_SUCCESS ||
      CVodeSetUserData(c->mem, c) != CV_SUCCESS)
    return lied_errc(e, LIED_E_SOLVER, "cvode: setup failed: %s", c->msg);
  if (R->aug) { /* the sparse formulation's own solver */
    c->LS = SUNLinSolNewEmpty(c->ctx);
    if (c->LS) {
      c->LS->content = c;
      c->LS->ops->gettype = ls_type;
      c->LS->ops->setup = ls_setup;
      c->LS->ops->solve = ls_solve;
      c->LS->ops->free = ls_free;
    }
    if (!c->LS || CVodeSetLinearSolver(c->mem, c->LS, c->A) != CV_SUCCESS ||
        CVodeSetLinSysFn(c->mem, cv_linsys) != CV_SUCCESS)
      return lied_errc(e, LIED_E_SOLVER, "cvode: linear solver setup failed: %s", c->msg);
  } else {
    c->LS = SUNLinSol_KLU(c->y, c->A, c->ctx);
    if (!c->LS || CVodeSetLinearSolver(c->mem, c->LS, c->A) != CV_SUCCESS ||
        CVodeSetJacFn(c->mem, cv_jac) != CV_SUCCESS)
      return lied_errc(e, LIED_E_SOLVER, "cvode: linear solver setup failed: %s", c->msg);
  }
  if (CVodeSetDeltaGammaMaxLSetup(c->mem, CV_DGMAX) != CV_SUCCESS ||
      CVodeSetLSetupFrequency(c->mem, CV_MSBP) != CV_SUCCESS ||
      CVodeSetJacEvalFrequency(c->mem, CV_MSBJ) != CV_SUCCESS)
    return lied_errc(e, LIED_E_SOLVER, "cvode: linear solver setup failed: %s", c->msg);
  CVodeSetMaxStep(c->mem, R->hmax); /* limited by zero functions (events.h) */
  CVodeSetMaxNumSteps(c->mem, -1); /* no limit: Ctrl-C stops a long run */
  if (R->o->dt > 0) CVodeSetInitStep(c->mem, R->o->dt);
  return LIED_OK;
}

static void cv_free(cv *c) {
  if (c->mem) CVodeFree(&c->mem);
  if (c->LS) SUNLinSolFree(c->LS);
  if (c->A) SUNMatDestroy(c->A);
  if (c->y) N_VDestroy(c->y);
  if (c->yout) N_VDestroy(c->yout);
  if (c->tmp) N_VDestroy(c->tmp);
  free(c->xs);
  if (c->ctx) SUNContext_Free(&c->ctx);
  lied_jac_free(&c->jac);
  lied_newton_free(&c->N);
  free(c->ya), free(c->fa), free(c->fx);
}

/* A failed CVODE step: lied's own message (the derivatives failed) or
 * CVODE's, naming the state with the largest local error. */
static int cv_failed(cv *c, int flag, double t) {
  lied_run *R = c->R;
  double tc = t;
  CVodeGetCurrentTime(c->mem, &tc);
  if (c->rhs_failed) return lied_err_at(R->e, tc);
  char name[512];
  lied_run_state_name(R, worst_state(c->mem, c->yout, c->tmp, R->n), name, sizeof name);
  return lied_errc(R->e, LIED_E_SOLVER,
                   "at t = %.17g: cvode failed (%s; largest local error in state %s)", tc,
                   c->msg[0] ? c->msg : CVodeGetReturnFlagName(flag), name);
}

static void cv_stats(cv *c, lied_sim_stats *st);

/* CVODE stops exactly at the next time event (events.h) or kink, or at
 * stop. */
static int cv_stop_time(cv *c) {
  lied_run *R = c->R;
  const double ts = fmin(fmin(R->t_cut, c->t_kink), R->stop);
  if (CVodeSetStopTime(c->mem, ts) != CV_SUCCESS)
    return lied_errc(R->e, LIED_E_SOLVER, "cvode: cannot set the stop time: %s", c->msg);
  return LIED_OK;
}

/* After an event at t: CVODE starts afresh from the state there (its
 * counters restart too: add them to the run's first). */
static int cv_restart(cv *c, double t, int kink) {
  lied_run *R = c->R;
  cv_stats(c, R->st);
  R->st->restarts++;
  /* At a kink nothing jumps and the derivatives are continuous: the first
   * step is the step CVODE would have taken next (estimated afresh, order 1
   * from a tiny step, every restart cost the network about 100 steps);
   * after a jump CVODE estimates it (or takes --dt). */
  double h = 0;
  if (!kink || CVodeGetCurrentStep(c->mem, &h) != CV_SUCCESS || !(h > 0))
    h = R->o->dt > 0 ? R->o->dt : 0;
  CVodeSetInitStep(c->mem, h);
  if (CVodeReInit(c->mem, t, c->y) != CV_SUCCESS)
    return lied_errc(R->e, LIED_E_SOLVER, "at t = %.17g: cvode: restart failed: %s", t, c->msg);
  c->keep_jac = kink;
  return cv_stop_time(c);
}

/* After a step to t (CVODE's at tret; event: one at t): the event handled
 * and CVODE restarted, or its next stop time. A kink at the end of CVODE's
 * step changes nothing: its history stays (a kink cut inside the step
 * needs CVODE at the cut). */
static int cv_next(cv *c, double t, double tret, int event) {
  lied_events *V = c->R->ev;
  if (event) {
    LIED_TRY(lied_events_fire(V, t, c->R->x));
    if (!V->quiet || t != tret) return cv_restart(c, t, V->tkink == t);
  }
  return cv_stop_time(c);
}

/* One CVODE step after another to the stop time, output points from
 * CVODE's interpolation; a zero crossing inside a step cuts it (the state
 * there from the interpolation). A step that crossed a kink is taken again
 * from its start (CVODE restarted there) to end at the kink. Zero functions
 * that are all kinks are not watched (c->watch, cv_setup). */
static int cv_steps(cv *c) {
  lied_run *R = c->R;
  lied_events *V = R->ev;
  const int watch = c->watch, kinks = c->kinks;
  double t = R->t;
  /* retaken: the length of the step last taken again to end at a kink;
   * across: kinks this close after the step's start are stepped across
   * (located on the dense output, no step taken again): the retaken step
   * ended at the kink without crossing it (a solution a rounding apart, a
   * kink function leaving 0 slowly crosses a little later), else each step
   * would end 1e-10 s short of a crossing that moves on with it
   * (examples/district_heating.lua: 180,000 steps on one PI's limit) */
  double retaken = 0, across = 0;
  int rc = cv_stop_time(c);
  while (!rc && !lied_run_stopped(R)) {
    double tret = t;
    if (kinks) memcpy(c->xs, R->x, sizeof(double) * R->n);
    int flag = CVode(c->mem, R->stop, c->y, &tret, CV_ONE_STEP);
    if (flag < 0) {
      rc = cv_failed(c, flag, t);
      break;
    }
    R->st->steps++;
    c->tret = tret;
    const double *xe = NULL;
    double te = tret;
    const int at_kink = tret >= c->t_kink;
    if (watch) {
      const double hmin = 16 * DBL_EPSILON * fmax(fabs(t), 1e-3 * R->span);
      rc = lied_events_locate(V, t, tret, R->x, cv_dense, c, at_kink,
                              kinks ? fmax(hmin, across) : INFINITY,
                              INFINITY, &te, &xe);
      across = 0;
      if (rc < 0) break;
      if (rc == 2) { /* a kink: from t again, to end there */
        memcpy(R->x, c->xs, sizeof(double) * R->n);
        c->t_kink = te;
        retaken = tret - t;
        rc = cv_restart(c, t, 1);
        continue;
      }
      if (at_kink && rc == 0) across = retaken;
      rc = LIED_OK;
    }
    if ((rc = lied_run_points(R, te, NULL, cv_dense, c))) break;
    if (xe) memcpy(R->x, xe, sizeof(double) * R->n);
    t = te;
    if ((rc = lied_run_stepped(R, t, R->x))) break;
    if (at_kink) c->t_kink = INFINITY;
    const int event = (xe || t >= R->t_cut) && t < R->stop;
    if (!event && t >= R->stop) break;
    rc = cv_next(c, t, tret, event);
  }
  R->t = t;
  return rc;
}

/* Add CVODE's counters since its last (re)start to st. */
static void cv_stats(cv *c, lied_sim_stats *st) {
  long v = 0;
  if (CVodeGetNumErrTestFails(c->mem, &v) == CV_SUCCESS) st->rejected += v;
  if (CVodeGetNumNonlinSolvConvFails(c->mem, &v) == CV_SUCCESS) {
    st->rejected += v;
    st->newton_fails += v;
  }
  if (CVodeGetNumNonlinSolvIters(c->mem, &v) == CV_SUCCESS) st->newton += v;
  if (!c->R->aug && CVodeGetNumLinSolvSetups(c->mem, &v) == CV_SUCCESS) st->lu += v;
  st->lu += c->N.nfact - c->nfact_seen; /* the sparse formulation's (ls_setup) */
  c->nfact_seen = c->N.nfact;
}

/* The dense output of a run without states: the (empty) state itself. */
static int cv_no_state_at(void *ctx, double tout, const double **x) {
  (void)tout;
  *x = ((lied_run *)ctx)->x;
  return LIED_OK;
}

/* A model without states has nothing to integrate; its zero functions
 * (functions of time: a comparison on a Ramp) are checked over steps no
 * longer than hmax and their crossings located, as in the other solvers. */
static int cv_no_states(lied_run *R) {
  double t = R->t;
  int rc = LIED_OK;
  while (!rc && t < R->stop && !lied_run_stopped(R)) {
    double t1 = fmin(fmin(R->t_cut, R->stop), t + R->hmax), te;
    const double *xe = NULL;
    if (R->ev) {
      rc = lied_events_locate(R->ev, t, t1, R->x, cv_no_state_at, R, 0, INFINITY, 0, &te, &xe);
      if (rc < 0) break;
      rc = LIED_OK;
      if (xe) t1 = te;
    }
    if ((rc = lied_run_points(R, t1, R->x, NULL, NULL))) break;
    t = t1;
    if ((xe || t >= R->t_cut) && t < R->stop) rc = lied_events_fire(R->ev, t, R->x);
  }
  R->t = t;
  return rc;
}

int lied_run_cvode(lied_run *R) {
  if (R->n == 0) return cv_no_states(R);
  cv c;
  memset(&c, 0, sizeof c);
  c.R = R;
  c.t_kink = INFINITY;
  uint64_t *rowptr = NULL;
  uint32_t *cols = NULL;
  LIED_TRY(lied_run_aug(R));
  int rc;
  if (R->aug) { /* the sparse formulation (sched/aug.h) */
    const uint64_t na = R->n + R->aug->nz + R->aug->nw;
    rc = lied_newton_init_aug(&c.N, R->n, na - R->n, R->aug->rowptr, R->aug->cols,
                              R->atol / R->rtol, R->e);
    c.ya = lied_xcalloc((size_t)na + 1, sizeof *c.ya, "solver work space", R->e);
    c.fa = lied_xcalloc((size_t)na + 1, sizeof *c.fa, "solver work space", R->e);
    c.fx = lied_xcalloc((size_t)R->n + 1, sizeof *c.fx, "solver work space", R->e);
    if (!rc && (!c.ya || !c.fa || !c.fx)) rc = LIED_E_NOMEM;
    if (rc) {
      cv_free(&c);
      return rc;
    }
    R->st->colours = c.N.J.ncolours;
    R->st->jac_nnz = c.N.J.nnz_f;
  } else {
    LIED_TRY(lied_run_sparsity(R, &rowptr, &cols));
    rc = lied_jac_init(&c.jac, R->n, rowptr, cols, R->atol / R->rtol, R->e);
    free(rowptr);
    free(cols);
    if (rc) return rc;
    R->st->colours = c.jac.ncolours;
    R->st->jac_nnz = c.jac.nnz_f;
  }
  rc = cv_setup(&c);
  if (!rc) {
    rc = cv_steps(&c);
    cv_stats(&c, R->st);
  }
  cv_free(&c);
  return rc;
}
