/* test_erk.c - convergence order, rhs counting and error paths of solve/erk. */
#include "check.h"
#include "solve/erk.h"

#include <string.h>

enum { MAX_STATES = 2 };
static const double ORDER_SLACK = 0.2; /* |observed - nominal order| bound */
static const double T_END = 1.0;       /* length of every test integration */
static const int ERROR_CODE = 42;      /* what the failing rhs returns */

/* A test problem x' = f(t, x), x(0) = x0, with known solution at T_END. */
typedef struct problem {
  const char *name;
  size_t n;
  lied_rhs_fn f;
  double x0[MAX_STATES];
  void (*exact)(double t, double *x);
} problem;

/* x' = -x. */
static int rhs_decay(void *ctx, double t, const double *x, double *dxdt) {
  (void)ctx;
  (void)t;
  dxdt[0] = -x[0];
  return 0;
}
static void exact_decay(double t, double *x) { x[0] = exp(-t); }

/* x'' = -x as x0' = x1, x1' = -x0. */
static int rhs_oscillator(void *ctx, double t, const double *x, double *dxdt) {
  (void)ctx;
  (void)t;
  dxdt[0] = x[1];
  dxdt[1] = -x[0];
  return 0;
}
static void exact_oscillator(double t, double *x) {
  x[0] = cos(t);
  x[1] = -sin(t);
}

/* x' = -2 t x: time-dependent, so the nodes c_i matter. */
static int rhs_gauss(void *ctx, double t, const double *x, double *dxdt) {
  (void)ctx;
  dxdt[0] = -2.0 * t * x[0];
  return 0;
}
static void exact_gauss(double t, double *x) { x[0] = exp(-t * t); }

static const problem PROBLEMS[] = {
    {"decay", 1, rhs_decay, {1.0}, exact_decay},
    {"oscillator", 2, rhs_oscillator, {1.0, 0.0}, exact_oscillator},
    {"gauss", 1, rhs_gauss, {1.0}, exact_gauss},
};

/* Coarse step count N per nominal order, chosen (by scanning N = 4..1024) so
 * that on every problem the error is asymptotic, observed orders within 0.06
 * of nominal, yet above 1e-13, far from rounding, for both N and 2N steps. */
static const int STEPS_FOR_ORDER[] = {0, 64, 64, 64, 32, 32};
enum { MAX_TESTED_ORDER = 5 };

/* Integrate p over [0, T_END] in nsteps steps of tab; returns the max-norm
 * error at T_END (or INFINITY when init or a step fails) and the number of
 * right-hand side evaluations in *nrhs. */
static double run(const lied_tableau *tab, const problem *p, int nsteps,
                  long *nrhs) {
  lied_erk e;
  double x[MAX_STATES], want[MAX_STATES], err = 0.0;
  double h = T_END / nsteps;
  *nrhs = -1;
  if (lied_erk_init(&e, tab, p->n, NULL) != 0)
    return INFINITY;
  memcpy(x, p->x0, sizeof x);
  for (int i = 0; i < nsteps; i++)
    if (lied_erk_step(&e, p->f, NULL, i * h, h, x) != 0) {
      lied_erk_free(&e);
      return INFINITY;
    }
  *nrhs = e.nrhs;
  lied_erk_free(&e);
  p->exact(T_END, want);
  for (size_t m = 0; m < p->n; m++)
    err = fmax(err, fabs(x[m] - want[m]));
  return err;
}

/* Observed order log2(err(N) / err(2N)) within ORDER_SLACK of the nominal
 * order for every explicit table and problem; nrhs == steps * stages. */
static void test_convergence(void) {
  for (int k = 0; k < lied_tableau_count(); k++) {
    const lied_tableau *tab = lied_tableau_at(k);
    if (!tab->explicit_ || tab->order > MAX_TESTED_ORDER)
      continue;
    int n1 = STEPS_FOR_ORDER[tab->order], n2 = 2 * n1;
    for (size_t q = 0; q < sizeof PROBLEMS / sizeof PROBLEMS[0]; q++) {
      const problem *p = &PROBLEMS[q];
      long nrhs1, nrhs2;
      double e1 = run(tab, p, n1, &nrhs1), e2 = run(tab, p, n2, &nrhs2);
      double observed = log2(e1 / e2);
      CHECK(fabs(observed - tab->order) <= ORDER_SLACK);
      if (!(fabs(observed - tab->order) <= ORDER_SLACK))
        fprintf(stderr, "  %s on %s: errors %g, %g, observed order %.3f\n",
                tab->name, p->name, e1, e2, observed);
      CHECK(nrhs1 == (long)n1 * tab->stages);
      CHECK(nrhs2 == (long)n2 * tab->stages);
    }
  }
}

/* Context of a right-hand side that fails on its fail_at-th call. */
typedef struct failing {
  int calls, fail_at;
} failing;

/* x' = -x, but returns ERROR_CODE on call number fail_at (1-based). */
static int rhs_failing(void *ctx, double t, const double *x, double *dxdt) {
  failing *fl = ctx;
  (void)t;
  if (++fl->calls == fl->fail_at)
    return ERROR_CODE;
  dxdt[0] = -x[0];
  dxdt[1] = -x[1];
  return 0;
}

/* A system of no states: touches nothing. */
static int rhs_empty(void *ctx, double t, const double *x, double *dxdt) {
  (void)ctx;
  (void)t;
  (void)x;
  (void)dxdt;
  return 0;
}

/* A failure in any stage leaves x untouched and passes the code back. */
static void test_rhs_error(void) {
  for (int k = 0; k < lied_tableau_count(); k++) {
    const lied_tableau *tab = lied_tableau_at(k);
    if (!tab->explicit_)
      continue;
    for (int stage = 1; stage <= tab->stages; stage++) {
      lied_erk e;
      failing fl = {0, stage};
      double x[2] = {1.5, -2.5};
      CHECK(lied_erk_init(&e, tab, 2, NULL) == 0);
      CHECK(lied_erk_step(&e, rhs_failing, &fl, 0.0, 0.1, x) == ERROR_CODE);
      CHECK(x[0] == 1.5 && x[1] == -2.5);
      CHECK(e.nrhs == stage);
      fl.fail_at = 0; /* the next step succeeds and moves x */
      CHECK(lied_erk_step(&e, rhs_failing, &fl, 0.0, 0.1, x) == 0);
      CHECK(x[0] != 1.5 && x[1] != -2.5);
      lied_erk_free(&e);
    }
  }
}

/* init rejects implicit or missing tables, leaving e safe to free; free is
 * idempotent; n = 0 works. */
static void test_init(void) {
  static const double a[1] = {1.0}, b[1] = {1.0}, c[1] = {1.0};
  const lied_tableau implicit = {"beuler", "implicit Euler", 1, 1, 0, 0,
                                 a, b, c, NULL};
  lied_erk e;
  lied_err err = {0};
  CHECK(lied_erk_init(&e, &implicit, 1, &err) == LIED_E_USAGE);
  CHECK(err.code == LIED_E_USAGE && strstr(err.msg, "beuler") != NULL);
  lied_erk_free(&e);
  CHECK(lied_erk_init(&e, NULL, 1, &err) == LIED_E_USAGE);
  lied_erk_free(&e);
  CHECK(lied_erk_init(&e, lied_tableau_find("rk4"), 0, &err) == 0);
  CHECK(lied_erk_step(&e, rhs_empty, NULL, 0.0, 0.1, NULL) == 0);
  CHECK(e.nrhs == 4);
  lied_erk_free(&e);
  lied_erk_free(&e);
}

int main(void) {
  test_convergence();
  test_rhs_error();
  test_init();
  return CHECK_DONE();
}
