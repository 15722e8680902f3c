/* test_check.c - lied_sched_check_constant: a linear section whose matrix
 * depends on parameters only and is singular is refused when the model is
 * built, with the generic message (no connector message), the section's
 * components and tearing variables; a regular one builds and its first run
 * still counts its one factorisation. A section whose matrix depends on a
 * state fails during the run, naming the section's component, and says
 * when its matrix was not finite (src/sched/singular.c). */
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "solve/sim.h"

/* r = c a - 1 (c a parameter), der(x) = a */
typedef struct cs {
  double x, der_x, a, r, c;
} cs;
static void cs_res(const lied_env *env, cs *p) {
  (void)env;
  p->r = p->c * p->a - 1;
}
static void cs_der(const lied_env *env, cs *p) {
  (void)env;
  p->der_x = p->a;
}
LIED_BLOCK(cs_res_block, cs, cs_res)
LIED_BLOCK(cs_der_block, cs, cs_der)
static void cs_meta(lied_meta *m, void *self) {
  cs *p = self;
  lied_meta_state(m, "x", "1", &p->x, &p->der_x);
  lied_meta_tear(m, "a", &p->a, "r", &p->r);
  lied_meta_block(m, "res", cs_res_block, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&p->a, &p->c),
                  LIED_SIGS(&p->r));
  lied_meta_block(m, "der", cs_der_block, 0, LIED_SIGS(&p->a), LIED_SIGS(&p->der_x));
}
static const lied_param cs_params[] = {
    {"c", offsetof(cs, c), 1, "1", "coefficient", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class cs_class = {"ConstSec", "test", "", sizeof(cs), cs_params, 1, NULL,
                                    cs_meta};

/* r = x a - 1: the matrix is the state x */
static void ss_res(const lied_env *env, cs *p) {
  (void)env;
  p->r = p->x * p->a - 1;
}
LIED_BLOCK(ss_res_block, cs, ss_res)
static void ss_meta(lied_meta *m, void *self) {
  cs *p = self;
  lied_meta_state(m, "x", "1", &p->x, &p->der_x);
  lied_meta_tear(m, "a", &p->a, "r", &p->r);
  lied_meta_block(m, "res", ss_res_block, 0, LIED_SIGS(&p->a, &p->x), LIED_SIGS(&p->r));
  lied_meta_block(m, "der", cs_der_block, 0, LIED_SIGS(&p->a), LIED_SIGS(&p->der_x));
}
static const lied_class ss_class = {"StateSec", "test", "", sizeof(cs), NULL, 0, NULL, ss_meta};

/* The state section at x = 0 (singular) and x = inf (not finite): the
 * messages of the run's probe. */
static void test_state_section(void) {
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  int root = lied_model_add(m, -1, "M", NULL, 1, 0, NULL, &e);
  CHECK(lied_model_add(m, root, "k", &ss_class, 1, 0, NULL, &e) > 0);
  lied_system *sys = lied_system_new(m, &e);
  lied_build_opts o = {0};
  CHECK(sys && lied_system_build(sys, &o, &e) == LIED_OK);
  if (!sys || !sys->sched) return;
  double x = 0, dx;
  CHECK(lied_sched_evaluate(sys->sched, 0.5, &x, &dx, 0, &e) == LIED_E_SINGULAR);
  CHECK(strcmp(e.msg, "at t = 0.5: singular linear section (pivot 1 of 1); tearing variables: "
                      "k.a; section of k") == 0);
  x = INFINITY;
  memset(&e, 0, sizeof e);
  CHECK(lied_sched_evaluate(sys->sched, 0.75, &x, &dx, 0, &e) == LIED_E_SINGULAR);
  CHECK(strncmp(e.msg, "at t = 0.75: the linear section cannot be solved: the residual k.r is ",
                70) == 0);
  CHECK(strstr(e.msg, " with the tearing variables at 0 (a parameter or a start value too large "
                      "or too small for doubles?); tearing variables: k.a; section of k") != NULL);
  if (strstr(e.msg, "cannot be solved") == NULL) fprintf(stderr, "got: %s\n", e.msg);
  lied_system_free(sys);
}

static lied_system *build(double c, lied_err *e, int *rc) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "M", NULL, 1, 0, NULL, e);
  int k = lied_model_add(m, root, "k", &cs_class, 1, 0, NULL, e);
  lied_model_set_param(m, k, "c", &c, 1, e);
  lied_system *sys = lied_system_new(m, e);
  lied_build_opts o = {0};
  *rc = sys ? lied_system_build(sys, &o, e) : LIED_E_NOMEM;
  return sys;
}

int main(void) {
  lied_err e = {0};
  int rc;
  lied_system *sys = build(0, &e, &rc);
  CHECK(rc == LIED_E_MODEL);
  CHECK(strcmp(e.msg, "singular linear section: the linear section of k is singular whatever "
                      "the state (its matrix depends on parameters only); tearing variables: "
                      "k.a") == 0);
  if (rc != LIED_E_MODEL) fprintf(stderr, "%s\n", e.msg);
  lied_system_free(sys);

  memset(&e, 0, sizeof e);
  sys = build(2, &e, &rc);
  CHECK(rc == LIED_OK);
  CHECK(sys && sys->sched->st.factorisations == 0); /* the check leaves no trace */
  lied_sim_opts o = {0};
  o.stop = 1;
  o.dt = 0.5;
  lied_sim_stats st;
  CHECK(sys && lied_simulate(sys->sched, &o, NULL, NULL, &st, &e) == LIED_OK);
  CHECK(st.factorisations == 1);
  const double *x = sys ? lied_model_var(sys->model, "k.x", NULL, &e) : NULL;
  CHECK(x && fabs(*x - 0.5) < 1e-15); /* der(x) = a = 1/c */
  lied_system_free(sys);
  test_state_section();
  return CHECK_DONE();
}
