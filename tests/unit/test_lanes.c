/* test_lanes.c - the lane machinery (sched/lanes.h): fused steps that run
 * the blocks' lane forms over groups of copies must give the same bits as
 * fused steps copy by copy on models whose copies need what lanes.c builds
 * around the lane forms: linear sections in lane form (the crane crab,
 * rigid and dialectic), framework sums of two, three and four contributions
 * (the crab, the arm, the line forces), a constant section factorised per
 * group (the spinner), distinct states in every copy and a partial last
 * group; the instances hold the same values afterwards. A singular section
 * in a later group is the same error, naming the same copy; a model with a
 * block that has no lane form runs copy by copy and says which block. That
 * every class's lane form computes what its block does is
 * test_lane_forms.c, driven by the class registry. */
#include "lanes.h"
#include "lib/mechanics/mechanics.h"
#include "testlib/testlib.h"
#include "sched/sched.h"
#include "solve/butcher.h"
#include "solve/fused.h"
#include "solve/sim.h"

/* The crane crab (examples/cranecrab.lua), rigid or dialectic joints. */
static const part crab_parts[] = {{"fixed", &pm_fixed_class},
                                  {"prismatic1", &pm_prismatic_class},
                                  {"body1", &pm_body_class},
                                  {"revolute2", &pm_revolute_class},
                                  {"rod2", &pm_fixed_translation_class},
                                  {"body2", &pm_body_class}};
static const char *const crab_conn[] = {
    "fixed.frame_b", "prismatic1.frame_a", "prismatic1.frame_b", "body1.frame_a",
    "prismatic1.frame_b", "revolute2.frame_a", "revolute2.frame_b", "rod2.frame_a",
    "rod2.frame_b", "body2.frame_a", NULL};
static const param crab_params[] = {{1, "e", {1, 0}, 2},    {2, "m", {1}, 1},
                                    {2, "I", {0.1}, 1},     {4, "r", {0.5, 1.5}, 2},
                                    {5, "m", {0.5}, 1},     {5, "I", {0.05}, 1},
                                    {0, NULL, {0}, 0}};
static const param dialectic_params[] = {{1, "e", {1, 0}, 2}, {2, "m", {1}, 1},
                                         {4, "r", {0.5, 1.5}, 2}, {5, "m", {0.5}, 1},
                                         {1, "T_D", {0.02}, 1}, {3, "T_D", {0.03}, 1},
                                         {3, "tau", {0.2}, 1}, {0, NULL, {0}, 0}};

/* An arm turning about a fixed pivot, with a slider along it (a prismatic
 * joint whose frame_a turns: its direction block runs every evaluation) and
 * two hubs on the pivot's frame (three contributions summed there). */
static const part arm_parts[] = {{"fixed", &pm_fixed_class},
                                 {"pivot", &pm_revolute_class},
                                 {"hub1", &pm_body_class},
                                 {"hub2", &pm_body_class},
                                 {"arm", &pm_fixed_translation_class},
                                 {"slider", &pm_prismatic_class},
                                 {"mass", &pm_body_class}};
static const char *const arm_conn[] = {
    "fixed.frame_b", "pivot.frame_a", "pivot.frame_b", "hub1.frame_a", "pivot.frame_b",
    "hub2.frame_a", "pivot.frame_b", "arm.frame_a", "arm.frame_b", "slider.frame_a",
    "slider.frame_b", "mass.frame_a", NULL};
static const param arm_params[] = {{4, "r", {1, 0.2}, 2}, {5, "e", {0.6, 0.8}, 2},
                                   {6, "m", {2}, 1},      {6, "I", {0.3}, 1},
                                   {2, "I", {0.2}, 1},    {3, "m", {0.7}, 1},
                                   {5, "F", {-0.4}, 1},   {0, NULL, {0}, 0}};

/* A body spun by a constant torque: a constant 1x1 section (factorised once
 * per copy). */
static const part spin_parts[] = {
    {"fixed", &pm_fixed_class}, {"joint", &pm_revolute_class}, {"wheel", &pm_body_class}};
static const char *const spin_conn[] = {"fixed.frame_b", "joint.frame_a", "joint.frame_b",
                                        "wheel.frame_a", NULL};
static const param spin_params[] = {
    {1, "tau", {0.5}, 1}, {2, "I", {0.2}, 1}, {0, NULL, {0}, 0}};

/* A cart on a slider held by a spring, a damper and a spring-damper (four
 * contributions summed at the slider's frame_b), rigid or dialectic. */
static const part line_parts[] = {{"fixed", &pm_fixed_class},     {"slide", &pm_prismatic_class},
                                  {"cart", &pm_body_class},       {"spring", &pm_spring_class},
                                  {"damper", &pm_damper_class},   {"both", &pm_spring_damper_class}};
static const char *const line_conn[] = {
    "fixed.frame_b", "slide.frame_a", "slide.frame_b", "cart.frame_a",
    "fixed.frame_b", "spring.frame_a", "slide.frame_b", "spring.frame_b",
    "fixed.frame_b", "damper.frame_a", "slide.frame_b", "damper.frame_b",
    "fixed.frame_b", "both.frame_a", "slide.frame_b", "both.frame_b", NULL};
static const param line_params[] = {{1, "e", {0.8, 0.6}, 2}, {3, "c", {10}, 1},
                                    {3, "s_unstretched", {0.3}, 1}, {4, "d", {0.7}, 1},
                                    {5, "c", {4}, 1},          {5, "d", {0.2}, 1},
                                    {5, "s_unstretched", {1.2}, 1}, {0, NULL, {0}, 0}};
/* 30 steps of 0.005 s from t = 0.1, copy by copy and in lane form */
static void same_bits(const variant *v, const char *table, int fresh, int mixed) {
  lanes_compare(v, table, &(lanes_opts){.dt = 0.005, .fresh = fresh, .mixed = mixed, .distinct = 1});
}

static void test_same_bits(void) {
  const variant v[] = {
      {"crab", crab_parts, 6, crab_conn, crab_params, NULL},
      {"dialectic crab", crab_parts, 6, crab_conn, dialectic_params, NULL},
      {"arm", arm_parts, 7, arm_conn, arm_params, NULL},
      {"spinner", spin_parts, 3, spin_conn, spin_params, NULL},
      {"line forces", line_parts, 6, line_conn, line_params, NULL},
  };
  for (int i = 0; i < 5; i++) {
    same_bits(&v[i], "rk4", 0, 0);
    same_bits(&v[i], "euler", 0, 0);
  }
  same_bits(&v[3], "rk4", 1, 0);
  same_bits(&v[0], "heun", 1, 0);
  same_bits(&v[0], "rk4", 1, 1);
  same_bits(&v[1], "rk3", 0, 1);
}

/* Hyperbola: der(x) = t - z with x z = 1, a 1x1 section singular at x = 0;
 * with a lane form, as a component author writes one. */
typedef struct hyp {
  double x, der_x, z, res;
} hyp;
static inline void hyp_eq(double t, double x, double z, double *res, double *der_x) {
  *res = x * z - 1;
  *der_x = t - z;
}
static void hyp_eval(const lied_env *env, hyp *h) { hyp_eq(env->t, h->x, h->z, &h->res, &h->der_x); }
LIED_BLOCK(hyp_block, hyp, hyp_eval)
LIED_LANE_FN static void hyp_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *x = LIED_LANE(hyp, g, x), *z = LIED_LANE(hyp, g, z);
  double *res = LIED_LANE(hyp, g, res), *der_x = LIED_LANE(hyp, g, der_x);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) hyp_eq(env->t, x[l], z[l], &res[l], &der_x[l]);
}
static void hyp_meta(lied_meta *m, void *self) {
  hyp *h = self;
  lied_meta_state(m, "x", "1", &h->x, &h->der_x);
  lied_meta_tear(m, "z", &h->z, "res", &h->res);
  lied_meta_block(m, "eval", hyp_block, 0, LIED_SIGS(&h->x, &h->z, &lied_time),
                  LIED_SIGS(&h->res, &h->der_x));
  lied_meta_lanes(m, hyp_lanes);
}
static const lied_class hyp_class = {"Hyperbola", "test", "der(x) = t - 1/x", sizeof(hyp), NULL,
                                     0, NULL, hyp_meta};

/* Copy 71 (in the third group) starts at x = 0: both ways fail at the first
 * stage with the same message, and leave x as it was. */
static void test_singular(void) {
  const part parts[] = {{"h", &hyp_class}};
  const char *const none[] = {NULL};
  char msg[2][LIED_ERR_MAX];
  for (int lanes = 0; lanes < 2; lanes++) {
    lied_err e = {0};
    lied_system *m = copies(77, parts, 1, none, NULL, &e);
    CHECK(m != NULL);
    if (!m) return;
    double x[77], x0[77];
    for (int i = 0; i < 77; i++) x[i] = 1 + i / 77.0;
    lied_fused f;
    CHECK(lied_fused_init(&f, m->sched, lied_tableau_find("rk4"), lanes, &e) == 0);
    CHECK(f.lane == lanes);
    CHECK(lied_sched_evaluate(m->sched, 0, x, NULL, 0, &e) == 0);
    x[70] = 0;
    memcpy(x0, x, sizeof x);
    const double times[] = {0, 0.1, 0.2};
    CHECK(lied_fused_steps(&f, times, 2, x, NULL, &e) == LIED_E_SINGULAR);
    CHECK(memcmp(x, x0, sizeof x) == 0);
    snprintf(msg[lanes], sizeof msg[lanes], "%s", e.msg);
    lied_fused_free(&f);
    lied_system_free(m);
  }
  CHECK(strstr(msg[1], "singular linear section") != NULL);
  CHECK(strstr(msg[1], "c[71].h.z; section of c[71].h") != NULL); /* the lane copy's instance */
  CHECK(strcmp(msg[0], msg[1]) == 0);
}

/* testlib's classes have no lane forms: copy by copy, and why. */
static void test_no_lane_form(void) {
  const part parts[] = {{"g", &tl_ground_class}, {"j", &tl_slider_class}, {"b", &tl_mass_class}};
  const char *const conn[] = {"g.flange_b", "j.flange_a", "j.flange_b", "b.flange_a", NULL};
  lied_err e = {0};
  lied_system *m = copies(40, parts, 3, conn, NULL, &e);
  CHECK(m != NULL);
  if (!m) return;
  lied_fused f;
  CHECK(lied_fused_init(&f, m->sched, lied_tableau_find("rk4"), 1, &e) == 0);
  CHECK(!f.lane);
  CHECK(strstr(f.no_lanes, "has no lane form") != NULL);
  CHECK(strstr(f.no_lanes, "(c[1].") != NULL);
  lied_fused_free(&f);
  lied_system_free(m);
}

int main(void) {
  test_same_bits();
  test_singular();
  test_no_lane_form();
  return CHECK_DONE();
}
