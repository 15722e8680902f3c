/* esdirk.c - diagonally implicit Runge-Kutta steps (beuler, esdirk23) with
 * simplified Newton iteration, Jacobian and factorisation reuse. */
#include "solve/esdirk.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sched/aug.h"
#include "solve/stepper.h"

/* Evaluate J afresh at the next step when a Newton contraction was slower. */
static const double THETA_REFRESH = 0.2;
/* Refactor when h gamma moved by more than this fraction since the last
 * factorisation (the stale matrix still converges, more slowly). */
static const double HG_DRIFT = 0.2;

void lied_dirk_free(lied_dirk *d) {
  lied_newton_free(&d->N);
  free(d->k);
  free(d->X);
  free(d->psi);
  free(d->xnew);
  free(d->w);
  free(d->err);
  free(d->f0);
  free(d->ya);
  free(d->fa);
  memset(d, 0, sizeof *d);
}

int lied_dirk_init(lied_dirk *d, const lied_tableau *tab, lied_run *R) {
  memset(d, 0, sizeof *d);
  lied_err *e = R->e;
  uint64_t n = R->n;
  int s = tab->stages;
  d->tab = tab;
  d->R = R;
  d->n = n;
  d->s = s;
  d->explicit_first = tab->a[0] == 0.0;
  d->gamma = tab->a[(size_t)(s - 1) * (size_t)s + (size_t)(s - 1)];
  d->fsal = lied_tableau_fsal(tab) && d->explicit_first;
  d->need_jac = 1;
  /* Tolerance proportionality: a method that advances with order p below
   * its estimate's (no local extrapolation) has local errors O(h^(p+1)) and
   * would reach a global error of about tol^(p/(p+1)); testing the local
   * error against tol * rtol^(1/p) makes the global error proportional to
   * tol, as dopri45's is. Newton iterates to the same tolerance. */
  double scale = tab->bhat && tab->embedded_order > tab->order ? pow(R->rtol, 1.0 / tab->order)
                                                               : 1.0;
  d->rtol = R->rtol * scale;
  d->atol = R->atol * scale;
  uint64_t *rowptr = NULL;
  uint32_t *cols = NULL;
  /* the model's large sections solved sparsely: Newton over the states and
   * their unknowns (newton.h), whose Jacobian stays sparse */
  LIED_TRY(lied_run_aug(R));
  const uint64_t naug = R->aug ? R->aug->nz + R->aug->nw : 0;
  if (!naug) LIED_TRY(lied_run_sparsity(R, &rowptr, &cols));
  /* perturbations no smaller than the magnitude where atol takes over */
  int rc = naug ? lied_newton_init_aug(&d->N, n, naug, R->aug->rowptr, R->aug->cols,
                                       R->atol / R->rtol, e)
                : lied_newton_init(&d->N, n, rowptr, cols, R->atol / R->rtol, e);
  free(rowptr);
  free(cols);
  if (rc) return rc;
  if (naug) {
    d->ya = lied_xcalloc((size_t)(n + naug) + 1, sizeof *d->ya, "solver work space", e);
    d->fa = lied_xcalloc((size_t)(n + naug) + 1, sizeof *d->fa, "solver work space", e);
    if (!d->ya || !d->fa) {
      lied_dirk_free(d);
      return LIED_E_NOMEM;
    }
  }
  d->N.kappa = 0.03;
  d->k = lied_xcalloc((size_t)s * (size_t)n + 1, sizeof *d->k, "solver work space", e);
  d->X = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  d->psi = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  d->xnew = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  d->w = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  d->err = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  d->f0 = lied_xcalloc((size_t)n + 1, sizeof(double), "solver work space", e);
  if (!d->k || !d->X || !d->psi || !d->xnew || !d->w || !d->err || !d->f0) {
    lied_dirk_free(d);
    return LIED_E_NOMEM;
  }
  R->st->colours = d->N.J.ncolours;
  R->st->jac_nnz = d->N.J.nnz_f;
  return LIED_OK;
}

/* J at (t, x) from a fresh f(t, x) (which also becomes k[0] when the first
 * stage is explicit). */
static int refresh_jacobian(lied_dirk *d, double t, double h, const double *x) {
  lied_run *R = d->R;
  double *f0 = d->explicit_first ? d->k : d->f0;
  if (!(d->explicit_first && d->have_k0 && d->k0_fresh)) {
    LIED_TRY(lied_run_rhs(R, t, x, f0));
    if (d->explicit_first) d->have_k0 = d->k0_fresh = 1;
  }
  long before = R->nrhs;
  /* steps scaled to the tolerances and the step (jacobian.h) */
  if (d->N.naug) { /* over [x; z*(x)], z* what f(t, x) solves for */
    LIED_TRY(lied_run_rhs(R, t, x, d->fa));
    lied_run_aug_point(R, d->ya);
    memcpy(d->ya, x, sizeof *x * d->n);
    LIED_TRY(lied_run_rhs_aug(R, t, d->ya, d->fa));
    const lied_jac_scale sc = {d->rtol, d->atol, h, d->n};
    LIED_TRY(lied_jac_eval_scaled(&d->N.J, lied_run_rhs_aug, R, t, d->ya, d->fa, &sc));
  } else {
    const lied_jac_scale sc = {d->rtol, d->atol, h, 0};
    LIED_TRY(lied_jac_eval_scaled(&d->N.J, lied_run_rhs, R, t, x, f0, &sc));
  }
  R->st->jac_rhs += R->nrhs - before;
  R->st->jacobians++;
  d->N.jac_current = 1;
  d->N.hg = 0; /* refactor */
  d->need_jac = 0;
  return LIED_OK;
}

/* Long: one step's stages, each a Newton solve, and its error estimate in one loop. */
int lied_dirk_attempt(lied_dirk *d, double t, double h, const double *x, double *err,
                      uint64_t *worst) {
  const lied_tableau *tab = d->tab;
  lied_run *R = d->R;
  uint64_t n = d->n;
  int s = d->s;
  double hg = h * d->gamma;
  lied_weights(n, x, NULL, d->rtol, d->atol, d->w);
  d->N.theta_max = 0;
  for (;;) {
    if (d->explicit_first && !d->have_k0) {
      LIED_TRY(lied_run_rhs(R, t, x, d->k));
      d->have_k0 = d->k0_fresh = 1;
    }
    if (d->need_jac) LIED_TRY(refresh_jacobian(d, t, h, x));
    if (d->N.hg == 0 || fabs(hg / d->N.hg - 1) > HG_DRIFT) {
      int rc = lied_newton_factor(&d->N, hg, R->e);
      if (rc < 0) return rc;
      if (rc == LIED_RETRY) { /* singular: a smaller step brings M towards I */
        *worst = 0;
        return LIED_RETRY;
      }
    }
    int failed = 0;
    for (int i = d->explicit_first; i < s && !failed; i++) {
      const double *ai = tab->a + (size_t)i * (size_t)s;
      memcpy(d->psi, x, sizeof *x * n);
      for (int j = 0; j < i; j++) {
        double c = h * ai[j];
        const double *kj = d->k + (size_t)j * n;
        if (c != 0.0)
          for (uint64_t q = 0; q < n; q++) d->psi[q] += c * kj[q];
      }
      /* predictor: the previous stage's slope (for a first implicit stage,
       * the last step's) */
      const double *kp = d->k + (size_t)(i > 0 ? i - 1 : s - 1) * n;
      for (uint64_t q = 0; q < n; q++) d->X[q] = d->psi[q] + hg * kp[q];
      int rc = lied_newton_stage(&d->N, lied_run_rhs, R, t + tab->c[i] * h, d->psi, hg,
                                 d->w, d->X, d->k + (size_t)i * n);
      if (rc < 0) return rc;
      failed = rc == LIED_RETRY;
    }
    if (!failed) break;
    *worst = d->N.worst;
    if (d->N.jac_current) return LIED_RETRY;
    d->need_jac = 1; /* retry once with a fresh Jacobian */
  }
  if (d->N.theta_max > THETA_REFRESH && !d->N.jac_current) d->need_jac = 1;
  memcpy(d->xnew, x, sizeof *x * n);
  for (int j = 0; j < s; j++) {
    double c = h * tab->b[j];
    const double *kj = d->k + (size_t)j * n;
    if (c != 0.0)
      for (uint64_t q = 0; q < n; q++) d->xnew[q] += c * kj[q];
  }
  *err = 0;
  if (tab->bhat) {
    memset(d->err, 0, sizeof *x * n);
    for (int j = 0; j < s; j++) {
      double c = h * (tab->b[j] - tab->bhat[j]);
      const double *kj = d->k + (size_t)j * n;
      if (c != 0.0)
        for (uint64_t q = 0; q < n; q++) d->err[q] += c * kj[q];
    }
    lied_weights(n, x, d->xnew, d->rtol, d->atol, d->w);
    *err = lied_wrms(n, d->err, d->w, worst);
  }
  return LIED_OK;
}

void lied_dirk_accept(lied_dirk *d, double *x) {
  uint64_t n = d->n;
  memcpy(x, d->xnew, sizeof *x * n);
  if (d->fsal) { /* k[s-1] = f(t + h, x_new): the next step's first stage */
    memcpy(d->k, d->k + (size_t)(d->s - 1) * n, sizeof *x * n);
    d->have_k0 = 1;
    d->k0_fresh = 0;
  } else {
    d->have_k0 = 0;
  }
  d->N.jac_current = 0;
}

void lied_dirk_interp(const lied_dirk *d, const double *x, double h, double theta,
                      double *out) {
  /* cubic Hermite on x, f(t, x) = k[0], x_new, f(t + h, x_new) = k[s - 1] */
  double t2 = theta * theta, t3 = t2 * theta;
  double h00 = 2 * t3 - 3 * t2 + 1, h10 = (t3 - 2 * t2 + theta) * h;
  double h01 = -2 * t3 + 3 * t2, h11 = (t3 - t2) * h;
  const double *k0 = d->k, *k1 = d->k + (size_t)(d->s - 1) * d->n;
  for (uint64_t q = 0; q < d->n; q++)
    out[q] = h00 * x[q] + h10 * k0[q] + h01 * d->xnew[q] + h11 * k1[q];
}

int lied_dirk_step(lied_dirk *d, double t, double h, double *x) {
  double err;
  uint64_t worst = 0;
  int rc = lied_dirk_attempt(d, t, h, x, &err, &worst);
  if (rc < 0) return lied_err_at(d->R->e, t);
  if (rc == LIED_RETRY) {
    char name[512];
    lied_run_state_name(d->R, worst, name, sizeof name);
    return lied_errc(d->R->e, LIED_E_SOLVER,
                     "at t = %.17g: the Newton iteration of %s does not converge with step "
                     "%g (largest update in state %s); use a smaller --dt or an adaptive "
                     "implicit solver",
                     t, d->tab->name, h, name);
  }
  lied_dirk_accept(d, x);
  return LIED_OK;
}

void lied_dirk_stats(const lied_dirk *d, lied_sim_stats *st) {
  st->newton = d->N.nit;
  st->newton_fails = d->N.nfail;
  st->lu = d->N.nfact;
}

/* ---- as a stepper (stepper.h): adaptive, and fixed step ----------------- */

static int adirk_attempt(void *self, double t, double h, const double *x, double *err,
                         uint64_t *worst) {
  return lied_dirk_attempt(self, t, h, x, err, worst);
}
static void adirk_interp(void *self, const double *x, double h, double theta, double *out) {
  lied_dirk_interp(self, x, h, theta, out);
}
static void adirk_accept(void *self, double *x) { lied_dirk_accept(self, x); }
static void dirk_stats(void *self, lied_sim_stats *st) { lied_dirk_stats(self, st); }
static const double *adirk_candidate(void *self) { return ((lied_dirk *)self)->xnew; }
/* After an event: a fresh first stage and Jacobian at the next step. */
static void dirk_restart(void *self) {
  lied_dirk *d = self;
  d->have_k0 = d->k0_fresh = 0;
  d->need_jac = 1;
}
static void dirk_free(void *self) {
  lied_dirk_free(self);
  free(self);
}

/* One fixed step (max_block 1). */
static int fdirk_steps(void *self, const double *times, int nsteps, double *x) {
  (void)nsteps;
  return lied_dirk_step(self, times[0], times[1] - times[0], x);
}

/* A lied_dirk for the run, on the heap. */
static int dirk_new(lied_dirk **d, const lied_tableau *tab, lied_run *R) {
  *d = lied_xcalloc(1, sizeof **d, "solver", R->e);
  if (!*d) return LIED_E_NOMEM;
  int rc = lied_dirk_init(*d, tab, R);
  if (rc) {
    free(*d);
    *d = NULL;
  }
  return rc;
}

int lied_adirk_new(lied_stepper *st, const lied_tableau *tab, lied_run *R) {
  if (!tab->bhat || tab->a[0] != 0.0)
    return lied_errc(R->e, LIED_E_USAGE,
                     "solver %s: an adaptive implicit method needs embedded weights "
                     "and an explicit first stage",
                     tab->name);
  lied_dirk *d;
  LIED_TRY(dirk_new(&d, tab, R));
  if (!d->fsal) {
    dirk_free(d);
    return lied_errc(R->e, LIED_E_USAGE, "solver %s: dense output needs a stiffly accurate method",
                     tab->name);
  }
  int q = tab->embedded_order < tab->order ? tab->embedded_order : tab->order;
  *st = (lied_stepper){.self = d, .err_order = q + 1, .implicit = 1, .attempt = adirk_attempt,
                       .interp = adirk_interp, .accept = adirk_accept,
                       .candidate = adirk_candidate, .restart = dirk_restart, .stats = dirk_stats,
                       .free = dirk_free};
  return LIED_OK;
}

int lied_fdirk_new(lied_stepper *st, const lied_tableau *tab, lied_run *R) {
  lied_dirk *d;
  LIED_TRY(dirk_new(&d, tab, R));
  *st = (lied_stepper){.self = d, .steps = fdirk_steps, .max_block = 1, .restart = dirk_restart,
                       .stats = dirk_stats, .free = dirk_free};
  return LIED_OK;
}
