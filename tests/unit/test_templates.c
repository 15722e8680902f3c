/* test_templates.c - templates shared between specs of one class whose
 * prototypes declare the same structure (lied_template_check, build.c), and
 * kept apart where a parameter changes the structure; connection patterns
 * through the C API (lied_model_connect_each). */
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "sched/sched.h"

extern const lied_class pm_fixed_class, pm_prismatic_class, pm_body_class, pm_spring_class;

/* k ground/slider/mass triples g<i>, p<i>, b<i>; slider i gets T_D[i]. */
static lied_model *triples(int k, const double *T_D, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  for (int i = 0; i < k; i++) {
    char g[16], p[16], b[16], a1[40], a2[40], b1[40], b2[40];
    snprintf(g, sizeof g, "g%d", i);
    snprintf(p, sizeof p, "p%d", i);
    snprintf(b, sizeof b, "b%d", i);
    CHECK(lied_model_add(m, root, g, &pm_fixed_class, 1, 0, NULL, e) > 0);
    int ps = lied_model_add(m, root, p, &pm_prismatic_class, 1, 0, NULL, e);
    CHECK(lied_model_add(m, root, b, &pm_body_class, 1, 0, NULL, e) > 0);
    double dir[2] = {1, 0}, v = 0.1 * (i + 1);
    CHECK(lied_model_set_param(m, ps, "e", dir, 2, e) == LIED_OK);
    CHECK(lied_model_set_param(m, ps, "T_D", &T_D[i], 1, e) == LIED_OK);
    CHECK(lied_model_set_param(m, ps, "v", &v, 1, e) == LIED_OK);
    snprintf(a1, sizeof a1, "%s.frame_b", g);
    snprintf(a2, sizeof a2, "%s.frame_a", p);
    snprintf(b1, sizeof b1, "%s.frame_b", p);
    snprintf(b2, sizeof b2, "%s.frame_a", b);
    CHECK(lied_model_connect(m, root, a1, a2, NULL, e) == LIED_OK);
    CHECK(lied_model_connect(m, root, b1, b2, NULL, e) == LIED_OK);
  }
  return m;
}

static int spec_of(const lied_model *m, const char *name) {
  return lied_model_child(m, 0, name, strlen(name));
}

static void test_shared_templates(void) {
  lied_err e = {0};
  const double T_D[4] = {0, 0.01, 0, 0.01};
  lied_system *sys = fx_build(triples(4, T_D, &e), 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  const lied_model *m = sys->model;
  const lied_spec *p0 = &m->specs[spec_of(m, "p0")], *p1 = &m->specs[spec_of(m, "p1")];
  const lied_spec *p2 = &m->specs[spec_of(m, "p2")], *p3 = &m->specs[spec_of(m, "p3")];
  /* the first of each structure crawls, the others share */
  CHECK(!p0->tpl_shared && !p1->tpl_shared && p2->tpl_shared && p3->tpl_shared);
  CHECK(p2->tpl.blocks == p0->tpl.blocks && p3->tpl.blocks == p1->tpl.blocks);
  CHECK(p0->tpl.blocks != p1->tpl.blocks);
  /* T_D > 0 selects the dialectic blocks: another structure */
  int differ = p1->tpl.nblocks != p0->tpl.nblocks;
  for (int k = 0; !differ && k < p0->tpl.nblocks; k++) differ = p0->tpl.blocks[k].fn != p1->tpl.blocks[k].fn;
  CHECK(differ);
  CHECK(m->specs[spec_of(m, "b3")].tpl_shared && !m->specs[spec_of(m, "b0")].tpl_shared);
  /* every slider runs: the derivatives of the positions are the start velocities */
  double x[64], dx[64];
  CHECK(sys->sched->nstates <= 64);
  lied_sched_reset_states(sys->sched);
  lied_sched_gather_x(sys->sched, x);
  CHECK(lied_sched_evaluate(sys->sched, 0.0, x, dx, 1, &e) == LIED_OK);
  for (int i = 0; i < 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "p%d.s", i);
    const double *s = lied_model_var(m, name, NULL, &e);
    CHECK(s != NULL);
    /* der(s) is the variable after s in the slider: find it by name */
    snprintf(name, sizeof name, "p%d.der(s)", i);
    const double *ds = lied_model_var(m, name, NULL, &e);
    CHECK(ds != NULL);
    if (ds) CHECK_NEAR(*ds, 0.1 * (i + 1), 1e-15);
  }
  lied_system_free(sys);
}

/* lied_model_connect_each: a chain of 5 bodies on sliders linked by 4
 * springs, spring i from slider i to slider i+1; a bad expression and an
 * index out of range are errors naming the pattern and the point. */
static void test_connect_each(void) {
  lied_err e = {0};
  const double T_D[5] = {0};
  lied_model *m = triples(5, T_D, &e);
  int sp = lied_model_add(m, 0, "spring", &pm_spring_class, 4, 1, NULL, &e);
  CHECK(sp > 0);
  lied_model_free(m);
  /* an array of sliders instead, so one pattern covers them */
  m = lied_model_new(&e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, &e);
  int g = lied_model_add(m, root, "g", &pm_fixed_class, 5, 1, NULL, &e);
  int p = lied_model_add(m, root, "p", &pm_prismatic_class, 5, 1, NULL, &e);
  int b = lied_model_add(m, root, "b", &pm_body_class, 5, 1, NULL, &e);
  int s = lied_model_add(m, root, "s", &pm_spring_class, 4, 1, NULL, &e);
  CHECK(g > 0 && p > 0 && b > 0 && s > 0);
  double dir[2] = {1, 0};
  CHECK(lied_model_set_param(m, p, "e", dir, 2, &e) == LIED_OK);
  for (uint64_t i = 0; i < 5; i++) {
    double x = (double)((i + 1) * (i + 1));
    CHECK(lied_model_set_param_at(m, p, i, "s", &x, 1, &e) == LIED_OK);
  }
  lied_loop all = {"i", 1, 5, 1}, links = {"i", 1, 4, 1};
  CHECK(lied_model_connect_each(m, root, "g[i].frame_b", "p[i].frame_a", "here:1", &all, 1, 0, &e) == 0);
  CHECK(lied_model_connect_each(m, root, "p[i].frame_b", "b[i].frame_a", "here:2", &all, 1, 0, &e) == 0);
  CHECK(lied_model_connect_each(m, root, "p[i].frame_b", "s[i].frame_a", "here:3", &links, 1, 0, &e) == 0);
  CHECK(lied_model_connect_each(m, root, "s[i].frame_b", "p[i+1].frame_b", "here:4", &links, 1, 0, &e) == 0);
  CHECK(lied_model_connect_each(m, root, "p[i*].frame_b", "s[i].frame_a", "here:5", &links, 1, 0, &e) ==
        LIED_E_MODEL);
  CHECK(strstr(e.msg, "here:5: 'p[i*].frame_b': bad index expression [i*]") != NULL);
  lied_loop two[2] = {{"i", 1, 2, 1}, {"i", 1, 2, 1}};
  CHECK(lied_model_connect_each(m, root, "p[i].frame_b", "s[i].frame_a", "here:6", two, 2, 0, &e) ==
        LIED_E_MODEL);
  CHECK(strstr(e.msg, "loop variable 'i' given twice") != NULL);
  lied_system *sys = fx_build(m, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  double x[64], dx[64];
  lied_sched_reset_states(sys->sched);
  lied_sched_gather_x(sys->sched, x);
  CHECK(lied_sched_evaluate(sys->sched, 0.0, x, dx, 1, &e) == LIED_OK);
  for (int i = 1; i <= 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "s[%d].s", i);
    const double *len = lied_model_var(sys->model, name, NULL, &e);
    CHECK(len != NULL);
    if (len) CHECK_NEAR(*len, (double)((i + 1) * (i + 1) - i * i), 1e-12);
  }
  lied_system_free(sys);

  /* out of range at a point: spring 4 would join slider 5 and slider 6 */
  m = lied_model_new(&e);
  root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, &e);
  lied_model_add(m, root, "p", &pm_prismatic_class, 2, 1, NULL, &e);
  lied_model_add(m, root, "s", &pm_spring_class, 2, 1, NULL, &e);
  lied_loop over = {"i", 1, 2, 1};
  CHECK(lied_model_connect_each(m, root, "s[i].frame_b", "p[i+1].frame_b", "there:7", &over, 1, 0, &e) == 0);
  CHECK(fx_build(m, 0, &e) == NULL);
  CHECK(strstr(e.msg, "there:7: in Top, connect pattern {\"s[i].frame_b\", \"p[i+1].frame_b\"} at i = 2: "
                      "index [i+1] = 3 is out of range in 'p[i+1].frame_b' (2 copies") != NULL);
}

int main(void) {
  test_shared_templates();
  test_connect_each();
  return CHECK_DONE();
}
