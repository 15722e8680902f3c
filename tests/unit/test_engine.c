/* test_engine.c - the engine without Lua: declare through the C model API,
 * instantiate, schedule, probe sections, name lookup. */
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "testlib/testlib.h"
#include "sched/sched.h"
#include "solve/sim.h"

extern const lied_class tl_solve_class, sig_sine_class, sig_constant_class;

/* root composite with `n` copies of a 2-chain: ground-j1-b1-j2-b2 */
static lied_model *chains(uint32_t n, double k1, double k2, double m1, double m2,
                          double s1, double s2, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, n, 1, NULL, e);
  int g = lied_model_add(m, arr, "g", &tl_ground_class, 1, 0, NULL, e);
  int j1 = lied_model_add(m, arr, "j1", &tl_slider_class, 1, 0, NULL, e);
  int b1 = lied_model_add(m, arr, "b1", &tl_mass_class, 1, 0, NULL, e);
  int j2 = lied_model_add(m, arr, "j2", &tl_slider_class, 1, 0, NULL, e);
  int b2 = lied_model_add(m, arr, "b2", &tl_mass_class, 1, 0, NULL, e);
  CHECK(g > 0 && b2 > 0);
  CHECK(lied_model_set_param(m, j1, "k", &k1, 1, e) == 0);
  CHECK(lied_model_set_param(m, j2, "k", &k2, 1, e) == 0);
  CHECK(lied_model_set_param(m, b1, "m", &m1, 1, e) == 0);
  CHECK(lied_model_set_param(m, b2, "m", &m2, 1, e) == 0);
  CHECK(lied_model_set_param(m, j1, "s", &s1, 1, e) == 0);
  CHECK(lied_model_set_param(m, j2, "s", &s2, 1, e) == 0);
  CHECK(lied_model_connect(m, arr, "g.flange_b", "j1.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j1.flange_b", "b1.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "b1.flange_b", "j2.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j2.flange_b", "b2.flange_a", NULL, e) == 0);
  return m;
}

static void test_batched_sections(void) {
  lied_err e = {0};
  const uint32_t n = 100;
  lied_system *m = fx_build(chains(n, 3, 5, 2, 0.5, 0.1, -0.2, &e), 0, &e);
  CHECK(m != NULL);
  if (!m) return;
  const lied_sched_stats *st = &m->sched->st;
  CHECK(st->sections == n);
  CHECK(st->section_batches == 1);
  CHECK(st->max_section == 2);
  CHECK(st->section_size[2] == n);
  CHECK(st->constant_sections == 1);
  CHECK(m->sched->nstates == 4 * n);
  CHECK(m->model->ncomponents == 5 * n);
  /* every dynamic step is batched over the n chains */
  for (int i = 0; i < m->sched->nsteps[LIED_PART_DYN]; i++)
    CHECK(m->sched->steps[LIED_PART_DYN][i].count == n);

  /* derivatives: M a = F with x1 = s1, x2 = s1 + s2 */
  double x[400], dx[400];
  lied_sched_gather_x(m->sched, x);
  CHECK(lied_sched_evaluate(m->sched, 0, x, dx, 1, &e) == 0);
  double s1 = 0.1, s2 = -0.2, k1 = 3, k2 = 5, m1 = 2, m2 = 0.5;
  double a1 = (-k1 * s1 + k2 * s2) / m1;
  double a2 = -k2 * s2 / m2; /* absolute acceleration of b2 */
  for (uint32_t i = 0; i < n; i++) {
    /* state layout: per spec, per instance: (s, v) */
    CHECK_NEAR(dx[2 * i + 1], a1, 1e-12);
  }
  char name[256];
  lied_sched_state_name(m->sched, 2 * n + 7, name, sizeof name);
  CHECK(strcmp(name, "c[4].j2.v") == 0);
  CHECK_NEAR(dx[2 * n + 7], a2 - a1, 1e-12);
  /* constant matrix: factorised once for the whole batch, then reused */
  uint64_t f0 = m->sched->st.factorisations;
  CHECK(f0 == n);
  CHECK(lied_sched_evaluate(m->sched, 0.5, x, dx, 0, &e) == 0);
  CHECK(m->sched->st.factorisations == f0);
  /* with or without the output part: the same derivatives */
  double dx2[400];
  CHECK(lied_sched_evaluate(m->sched, 0.5, x, dx2, 1, &e) == 0);
  for (uint32_t i = 0; i < 4 * n; i++) CHECK_NEAR(dx2[i], dx[i], 1e-15);

  /* names on demand and lookup */
  const char *unit = NULL;
  const double *p = lied_model_var(m->model, "c[42].b2.flange_a.f", &unit, &e);
  CHECK(p != NULL && strcmp(unit, "N") == 0);
  if (p) CHECK_NEAR(*p, m2 * a2, 1e-12);
  CHECK(lied_model_var(m->model, "c[101].b2.flange_a.f", NULL, &e) == NULL);
  CHECK(strstr(e.msg, "out of range") != NULL);
  int spec;
  uint64_t inst;
  const char *rest;
  CHECK(lied_model_find(m->model, "c[17].j1.s", &spec, &inst, &rest, &e) == 0);
  CHECK(inst == 16 && strcmp(rest, "s") == 0);
  size_t len = lied_model_path(m->model, spec, 99, name, sizeof name);
  CHECK(strcmp(name, "c[100].j1") == 0 && len == strlen(name));
  /* structural sparsity: der(s) depends on v; der(v) on all four states of
   * its own chain, nothing of the other chains */
  uint64_t *rp = NULL;
  uint32_t *cols = NULL;
  CHECK(lied_sched_sparsity(m->sched, &rp, &cols, &e) == 0);
  if (rp && cols) {
    /* states: j1 of chain i at 2i (s), 2i+1 (v); j2 at 2n + 2i, 2n + 2i + 1 */
    uint64_t i = 17, x1 = 2 * i, v1 = x1 + 1, x2 = 2 * n + 2 * i, v2 = x2 + 1;
    CHECK(rp[x1 + 1] - rp[x1] == 1 && cols[rp[x1]] == v1);
    CHECK(rp[v1 + 1] - rp[v1] == 4);
    CHECK(cols[rp[v1]] == x1 && cols[rp[v1] + 1] == v1 && cols[rp[v1] + 2] == x2 &&
          cols[rp[v1] + 3] == v2);
    CHECK(rp[v2 + 1] - rp[v2] == 4);
    /* block granularity: j2.vel also reads j1.v through the flange */
    CHECK(rp[4 * n] == (uint64_t)n * (1 + 4 + 2 + 4));
  }
  free(rp);
  free(cols);
  /* the schedule is untouched: evaluations still agree */
  CHECK(lied_sched_evaluate(m->sched, 0, x, dx, 0, &e) == 0);
  CHECK_NEAR(dx[1], a1, 1e-12);
  lied_system_free(m);
}

static void test_probe_nonconstant_and_singular(void) {
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, &e);
  int src = lied_model_add(m, root, "src", &sig_sine_class, 1, 0, NULL, &e);
  CHECK(lied_model_set_param(m, src, "w", &(double){1}, 1, &e) == 0); /* sin(t) */
  int x = lied_model_add(m, root, "x", &tl_solve_class, 1, 0, NULL, &e);
  double c = 4;
  CHECK(lied_model_set_param(m, x, "c", &c, 1, &e) == 0);
  CHECK(lied_model_connect(m, root, "src.y", "x.u", NULL, &e) == 0);
  lied_system *sys = fx_build(m, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  CHECK(sys->sched->st.constant_sections == 0);
  CHECK(lied_sched_evaluate(sys->sched, 0.3, NULL, NULL, 1, &e) == 0);
  CHECK(lied_sched_evaluate(sys->sched, 0.7, NULL, NULL, 1, &e) == 0);
  CHECK(sys->sched->st.factorisations == 2); /* not constant: every evaluation */
  const double *y = lied_model_var(sys->model, "x.y", NULL, &e);
  CHECK(y != NULL);
  if (y) CHECK_NEAR(*y, sin(0.7) / 4, 1e-15);
  /* a singular section is an error with the time and the tearing variable */
  lied_system_free(sys);

  m = lied_model_new(&e);
  root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, &e);
  src = lied_model_add(m, root, "src", &sig_sine_class, 1, 0, NULL, &e);
  CHECK(lied_model_set_param(m, src, "w", &(double){1}, 1, &e) == 0); /* sin(t) */
  x = lied_model_add(m, root, "x", &tl_solve_class, 1, 0, NULL, &e);
  c = 0;
  CHECK(lied_model_set_param(m, x, "c", &c, 1, &e) == 0);
  CHECK(lied_model_connect(m, root, "src.y", "x.u", NULL, &e) == 0);
  sys = fx_build(m, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  CHECK(lied_sched_evaluate(sys->sched, 1.25, NULL, NULL, 1, &e) != 0);
  CHECK(strstr(e.msg, "at t = 1.25: singular linear section") != NULL);
  CHECK(strstr(e.msg, "tearing variables: x.z") != NULL);
  lied_system_free(sys);
}

static void test_structural_errors(void) {
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, &e);
  CHECK(lied_model_add(m, root, "a", &tl_mass_class, 1, 0, NULL, &e) > 0);
  CHECK(lied_model_add(m, root, "a", &tl_mass_class, 1, 0, NULL, &e) < 0);
  CHECK(strstr(e.msg, "duplicate component name 'a'") != NULL);
  double bad = -2;
  CHECK(lied_model_set_param(m, 1, "m", &bad, 1, &e) < 0);
  CHECK(strstr(e.msg, "a: parameter m = -2 [kg] must be > 0") != NULL);
  lied_system *sys = fx_build(m, 0, &e);
  CHECK(sys == NULL);
  CHECK(strstr(e.msg, "unconnected flange_a: a.flange_a") != NULL);
  
}

/* Two sections with the same members in the same order, instance indices
 * advancing by one, but different edges inside: in copy 2 the gain's second
 * input is the section's own o2, in copy 1 a constant. They must not share a
 * batch (whose final members and column passes are derived from its first
 * section); each solves to z1 = z2 = 1 with zero residuals. (Found in
 * review: batched, copy 2 solved to z2 = 2 with r1 = 2.) */
typedef struct ts {
  lied_real_out o1, o2;
  lied_real_in in1, inb, inc, ind;
  double z1, z2, r1, r2;
} ts;
static void ts_e1(const lied_env *env, ts *s) { (void)env, s->o1.y.y = s->z1; }
static void ts_e2(const lied_env *env, ts *s) { (void)env, s->o2.y.y = s->z2; }
static void ts_q1(const lied_env *env, ts *s) { (void)env, s->r1 = s->in1.y->y + s->inb.y->y - 3; }
static void ts_q2(const lied_env *env, ts *s) { (void)env, s->r2 = s->inc.y->y + s->ind.y->y - 2; }
LIED_BLOCK(ts_e1b, ts, ts_e1)
LIED_BLOCK(ts_e2b, ts, ts_e2)
LIED_BLOCK(ts_q1b, ts, ts_q1)
LIED_BLOCK(ts_q2b, ts, ts_q2)
static void ts_meta(lied_meta *m, void *self) {
  ts *s = self;
  lied_meta_port(m, "o1", 0, &s->o1, &lied_real_out_layout);
  lied_meta_port(m, "o2", 0, &s->o2, &lied_real_out_layout);
  lied_meta_port(m, "in1", 0, &s->in1, &lied_real_in_layout);
  lied_meta_port(m, "inb", 0, &s->inb, &lied_real_in_layout);
  lied_meta_port(m, "inc", 0, &s->inc, &lied_real_in_layout);
  lied_meta_port(m, "ind", 0, &s->ind, &lied_real_in_layout);
  lied_meta_tear(m, "z1", &s->z1, "r1", &s->r1);
  lied_meta_tear(m, "z2", &s->z2, "r2", &s->r2);
  lied_meta_block(m, "e1", ts_e1b, 0, LIED_SIGS(&s->z1), LIED_SIGS(&s->o1.y));
  lied_meta_block(m, "e2", ts_e2b, 0, LIED_SIGS(&s->z2), LIED_SIGS(&s->o2.y));
  lied_meta_block(m, "q1", ts_q1b, 0, LIED_SIGS(&s->in1.y, &s->inb.y), LIED_SIGS(&s->r1));
  lied_meta_block(m, "q2", ts_q2b, 0, LIED_SIGS(&s->inc.y, &s->ind.y), LIED_SIGS(&s->r2));
}
static const lied_class ts_class = {"TS", "test", "two tearing pairs", sizeof(ts), NULL, 0,
                                    NULL, ts_meta};
typedef struct tg {
  lied_real_in u1, u2;
  lied_real_out y;
} tg;
static void tg_eval(const lied_env *env, tg *g) { (void)env, g->y.y.y = g->u1.y->y + g->u2.y->y; }
LIED_BLOCK(tg_block, tg, tg_eval)
static void tg_meta(lied_meta *m, void *self) {
  tg *g = self;
  lied_meta_port(m, "u1", 0, &g->u1, &lied_real_in_layout);
  lied_meta_port(m, "u2", 0, &g->u2, &lied_real_in_layout);
  lied_meta_port(m, "y", 0, &g->y, &lied_real_out_layout);
  lied_meta_block(m, "g", tg_block, 0, LIED_SIGS(&g->u1.y, &g->u2.y), LIED_SIGS(&g->y.y));
}
static const lied_class tg_class = {"TG", "test", "y = u1 + u2", sizeof(tg), NULL, 0, NULL,
                                    tg_meta};

static void test_batch_needs_equal_edges(void) {
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, &e);
  lied_model_add(m, root, "s", &ts_class, 2, 1, NULL, &e);
  lied_model_add(m, root, "g", &tg_class, 2, 1, NULL, &e);
  lied_model_add(m, root, "c", &sig_constant_class, 2, 1, NULL, &e);
  lied_model_add(m, root, "cc", &sig_constant_class, 2, 1, NULL, &e);
  static const char *const links[][2] = {{"s[%d].o1", "g[%d].u1"}, {"g[%d].y", "s[%d].in1"},
                                         {"s[%d].o2", "s[%d].inb"}, {"s[%d].o1", "s[%d].inc"},
                                         {"cc[%d].y", "s[%d].ind"}};
  for (int i = 1; i <= 2; i++)
    for (int l = 0; l < 5; l++) {
      char a[32], b[32];
      snprintf(a, sizeof a, links[l][0], i);
      snprintf(b, sizeof b, links[l][1], i);
      CHECK(lied_model_connect(m, root, a, b, NULL, &e) == 0);
    }
  CHECK(lied_model_connect(m, root, "c[1].y", "g[1].u2", NULL, &e) == 0);
  CHECK(lied_model_connect(m, root, "s[2].o2", "g[2].u2", NULL, &e) == 0);
  lied_system *sys = fx_build(m, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  CHECK(sys->sched->st.sections == 2 && sys->sched->st.section_batches == 2);
  CHECK(lied_sched_evaluate(sys->sched, 0, NULL, NULL, 1, &e) == 0);
  for (int i = 1; i <= 2; i++) {
    static const char *const vars[] = {"s[%d].z1", "s[%d].z2", "s[%d].r1", "s[%d].r2"};
    static const double want[] = {1, 1, 0, 0};
    for (int v = 0; v < 4; v++) {
      char p[32];
      snprintf(p, sizeof p, vars[v], i);
      const double *x = lied_model_var(sys->model, p, NULL, &e);
      CHECK(x != NULL);
      if (x) CHECK_NEAR(*x, want[v], 1e-14);
    }
  }
  lied_system_free(sys);
}

int main(void) {
  test_batched_sections();
  test_probe_nonconstant_and_singular();
  test_structural_errors();
  test_batch_needs_equal_edges();
  return CHECK_DONE();
}
