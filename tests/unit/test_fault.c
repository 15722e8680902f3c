/* test_fault.c - the block fault channel (lied_block_fault): a block that
 * meets a value outside its law's range reports it, and the run ends with
 * LIED_E_RANGE naming the component of the faulting copy and the stage time,
 * on every path a block runs on (whole-vector steps, fused steps copy by
 * copy and in lane form, waves over coupled copies copy by copy and in lane
 * form, threads, the adaptive solvers' retries, direct evaluations), the
 * first fault of an evaluation winning. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "core/pool.h"
#include "sched/par.h"
#include "sched/sched.h"
#include "solve/erk.h"
#include "solve/fused.h"
#include "solve/sim.h"
#include "solve/wave.h"

/* Root: der(x) = -1, y = sqrt(x); x < 0 is a fault of the block. */
typedef struct root {
  double x, der_x, y;
} root;
static inline void root_law(const lied_env *env, const void *where, double x, double *der_x,
                            double *y) {
  if (x < 0) lied_block_fault(env, where, "sqrt of x = %g", x);
  *y = sqrt(x);
  *der_x = -1;
}
static void root_eval(const lied_env *env, root *r) {
  root_law(env, r, r->x, &r->der_x, &r->y);
}
LIED_BLOCK(root_block, root, root_eval)
/* the lane form: word o of lane l at g[o * LIED_LANES + l] */
static void root_lanes(const lied_env *env, char *base, size_t count, size_t stride) {
  (void)stride;
  double *g = (double *)(void *)base;
  for (size_t l = 0; l < count; l++)
    root_law(env, &g[l], g[l], &g[LIED_LANES + l], &g[2 * LIED_LANES + l]);
}
static void root_meta(lied_meta *m, void *self) {
  root *r = self;
  lied_meta_state(m, "x", "1", &r->x, &r->der_x);
  lied_meta_var(m, "y", "1", &r->y);
  lied_meta_block(m, "eval", root_block, 0, LIED_SIGS(&r->x), LIED_SIGS(&r->y, &r->der_x));
  lied_meta_lanes(m, root_lanes);
}
static const lied_param root_params[] = {
    {"x", offsetof(root, x), 1, "1", "start value", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class root_class = {"Root", "test", "der(x) = -1, y = sqrt(x)", sizeof(root),
                                      root_params, 1, NULL, root_meta};

/* n copies r[1..n] starting at x = 1, copy `late` at 0.27 and copy `later`
 * (0: none) at 0.275: with rk4 and h = 0.1 both reach x < 0 first in the
 * last stage of the step from 0.2 (x = 0.07 - 0.1 and 0.075 - 0.1). */
static lied_system *roots(uint32_t n, uint64_t late, uint64_t later, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int top = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int r = lied_model_add(m, top, "r", &root_class, n, 1, NULL, e);
  CHECK(r > 0);
  double x0 = 0.27, x1 = 0.275;
  CHECK(lied_model_set_param_at(m, r, late - 1, "x", &x0, 1, e) == 0);
  if (later) CHECK(lied_model_set_param_at(m, r, later - 1, "x", &x1, 1, e) == 0);
  return fx_build(m, 0, e);
}

static void run(uint32_t n, uint64_t late, uint64_t later, lied_sim_opts o, int want,
                const char *msg, lied_sim_stats *st) {
  lied_err e = {0};
  lied_system *sys = roots(n, late, later, &e);
  CHECK(sys != NULL);
  if (!sys) {
    fprintf(stderr, "%s\n", e.msg);
    return;
  }
  int rc = lied_simulate(sys->sched, &o, NULL, NULL, st, &e);
  CHECK(rc == want);
  CHECK(strstr(e.msg, msg) != NULL);
  if (rc != want || !strstr(e.msg, msg))
    fprintf(stderr, "%s n=%u threads=%d fuse=%d lanes=%d: got %d: %s\n", o.solver, n, o.threads,
            !o.no_fuse, !o.no_lanes, rc, e.msg);
  lied_system_free(sys);
}

/* The message a direct call of a stepper left in e (what, lanes: for the
 * report). */
static void same_msg(const lied_err *e, const char *want, const char *what, int lanes) {
  CHECK(strcmp(e->msg, want) == 0);
  if (strcmp(e->msg, want)) fprintf(stderr, "%s, lanes %d: %s\n", what, lanes, e->msg);
}

/* fixed steps: the stage time, the copy, the block's message, on every path */
static void test_fixed_paths(void) {
  const char *want = "at t = 0.30000000000000004: r[71]: sqrt of x = -0.03";
  for (int path = 0; path < 3; path++) {
    lied_sim_opts o = {.start = 0, .stop = 1, .dt = 0.1, .solver = "rk4", .threads = 1,
                       .no_fuse = path == 0, .no_lanes = path == 1};
    lied_sim_stats st;
    run(77, 71, 0, o, LIED_E_RANGE, want, &st);
    CHECK(st.t_end == 0.2 || (path == 0 && fabs(st.t_end - 0.2) < 1e-15));
    /* two copies fault in the same stage: the lower one is named */
    run(77, 71, 9, o, LIED_E_RANGE, "r[9]: sqrt of x = -0.025", &st);
  }
  /* threads: ranges of chunks on two workers; the fault in the second range
   * and one in the first: the first range's, as one thread reports */
  for (int threads = 1; threads <= 2; threads++)
    for (int lanes = 0; lanes < 2; lanes++) {
      lied_sim_opts o = {.start = 0, .stop = 1, .dt = 0.1, .solver = "rk4",
                         .threads = threads, .no_lanes = !lanes};
      lied_sim_stats st;
      run(4100, 3500, 0, o, LIED_E_RANGE, "at t = 0.30000000000000004: r[3500]: sqrt of x = -0.03",
          &st);
      run(4100, 3500, 1501, o, LIED_E_RANGE, "r[1501]: sqrt of x = -0.025", &st);
    }
}

/* a block of fused steps in lane form (the simulator redoes a failed block
 * step by step to report, so this calls it directly): the lane's word is
 * mapped back to its copy */
static void test_lane_block(void) {
  for (int lanes = 0; lanes < 2; lanes++) {
    lied_err e = {0};
    lied_system *sys = roots(77, 71, 0, &e);
    CHECK(sys != NULL);
    if (!sys) return;
    const uint64_t ns = sys->sched->nstates;
    double *x = calloc(ns, sizeof *x);
    lied_fused f;
    CHECK(x && lied_fused_init(&f, sys->sched, lied_tableau_find("rk4"), lanes, &e) == 0);
    if (x) {
      lied_sched_gather_x(sys->sched, x); /* the start values */
      CHECK(lied_sched_evaluate(sys->sched, 0, x, NULL, 0, &e) == 0);
      const double times[] = {0, 0.1, 0.2, 0.30000000000000004, 0.4};
      CHECK(lied_fused_steps(&f, times, 4, x, NULL, &e) == LIED_E_RANGE);
      CHECK(f.block_lanes == lanes);
      same_msg(&e, "at t = 0.30000000000000004: r[71]: sqrt of x = -0.03", "fused", lanes);
    }
    lied_fused_free(&f);
    free(x);
    lied_system_free(sys);
  }
}

/* adaptive solvers: a faulting trial step is rejected and retried smaller,
 * and the run ends at the boundary with the fault as the reason */
static void test_adaptive(void) {
  const char *solvers[] = {"dopri45", "esdirk23"};
  for (int i = 0; i < 2; i++) {
    lied_sim_opts o = {.start = 0, .stop = 1, .solver = solvers[i], .threads = 1};
    lied_sim_stats st;
    run(5, 3, 0, o, LIED_E_SOLVER, "r[3]: sqrt of x = -", &st);
    CHECK(st.rejected > 0);
    CHECK(fabs(st.t_end - 0.27) < 1e-6);
  }
}

/* direct evaluations; the fault is cleared once reported */
static void test_evaluate(void) {
  lied_err e = {0};
  lied_system *sys = roots(3, 2, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  double x[3] = {1, -4, 1}, dx[3];
  CHECK(lied_sched_evaluate(sys->sched, 2.5, x, dx, 0, &e) == LIED_E_RANGE);
  CHECK(strcmp(e.msg, "at t = 2.5: r[2]: sqrt of x = -4") == 0);
  x[1] = 4;
  CHECK(lied_sched_evaluate(sys->sched, 2.5, x, dx, 1, &e) == LIED_OK);
  CHECK(dx[0] == -1 && dx[1] == -1 && dx[2] == -1);
  /* a block called outside a schedule (no channel) just computes */
  root r = {.x = -1};
  lied_env env = {0, NULL};
  root_eval(&env, &r);
  CHECK(isnan(r.y) && r.der_x == -1);
  lied_system_free(sys);
}

/* a whole-vector evaluation on two workers (the slots of the workers' views
 * merged in range order): faults in both ranges, the lower copy named */
static void test_evaluate_threads(void) {
  lied_err e = {0};
  lied_system *sys = roots(4100, 1, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  lied_sched *s = sys->sched;
  double *x = calloc(4100, sizeof *x), *dx = calloc(4100, sizeof *dx);
  lied_pool *p = NULL;
  CHECK(x && dx && lied_pool_new(&p, 2, &e) == LIED_OK && lied_sched_par_attach(s, p, &e) == 0);
  if (x && dx && s->par) {
    fx_skip_calibration(s); /* the pool from the first evaluation */
    CHECK(lied_sched_par_split(s, 4100) == 2);
    for (int i = 0; i < 4100; i++) x[i] = 1;
    x[3499] = -2; /* r[3500], second range */
    CHECK(lied_sched_evaluate(s, 1, x, dx, 0, &e) == LIED_E_RANGE);
    CHECK(strcmp(e.msg, "at t = 1: r[3500]: sqrt of x = -2") == 0);
    x[1500] = -1; /* r[1501], first range */
    CHECK(lied_sched_evaluate(s, 1, x, dx, 0, &e) == LIED_E_RANGE);
    CHECK(strcmp(e.msg, "at t = 1: r[1501]: sqrt of x = -1") == 0);
    if (strcmp(e.msg, "at t = 1: r[1501]: sqrt of x = -1")) fprintf(stderr, "%s\n", e.msg);
    x[1500] = x[3499] = 1;
    CHECK(lied_sched_evaluate(s, 1, x, dx, 0, &e) == LIED_OK);
  }
  lied_sched_par_detach(s);
  lied_pool_free(p);
  free(x);
  free(dx);
  lied_system_free(sys);
}

/* Coupled copies (waves over a skewed schedule, in lane form and copy by
 * copy): leak i has y = sqrt(x) (the fault) and der(x) = -1 + 0 u, where u
 * reads leak i + 1's y, so the derivative step lags one copy behind the
 * output step and reads it through a halo in lane form (sched/lanering.c).
 * A fault in a lane group is mapped back to its copy. */
typedef struct leak {
  double x, der_x;
  lied_real_in u;
  lied_real_out y;
} leak;
static void leak_out(const lied_env *env, leak *r) {
  if (r->x < 0) lied_block_fault(env, r, "sqrt of x = %g", r->x);
  r->y.y.y = sqrt(r->x);
}
LIED_BLOCK(leak_out_block, leak, leak_out)
static void leak_out_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  double *x = LIED_LANE(leak, g, x), *y = LIED_LANE(leak, g, y.y.y);
  for (size_t l = 0; l < n; l++) {
    if (x[l] < 0) lied_block_fault(env, &x[l], "sqrt of x = %g", x[l]);
    y[l] = sqrt(x[l]);
  }
}
static void leak_der(const lied_env *env, leak *r) {
  (void)env;
  r->der_x = -1 + 0 * r->u.y->y;
}
LIED_BLOCK(leak_der_block, leak, leak_der)
static void leak_der_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *u = LIED_LANE_IN(leak, g, u.y);
  double *d = LIED_LANE(leak, g, der_x);
  for (size_t l = 0; l < n; l++) d[l] = -1 + 0 * u[l];
}
static void leak_meta(lied_meta *m, void *self) {
  leak *r = self;
  lied_meta_state(m, "x", "1", &r->x, &r->der_x);
  lied_meta_real_in_optional(m, "u", 0, &r->u);
  lied_meta_real_out(m, "y", 0, &r->y);
  lied_meta_block(m, "out", leak_out_block, 0, LIED_SIGS(&r->x), LIED_SIGS(&r->y.y));
  lied_meta_lanes(m, leak_out_lanes);
  lied_meta_block(m, "der", leak_der_block, 0, LIED_SIGS(&r->u.y), LIED_SIGS(&r->der_x));
  lied_meta_lanes(m, leak_der_lanes);
}
static const lied_param leak_params[] = {
    {"x", offsetof(leak, x), 1, "1", "start value", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class leak_class = {"Leak", "test", "y = sqrt(x), der(x) = -1", sizeof(leak),
                                      leak_params, 1, NULL, leak_meta};

static void test_lane_waves(void) {
  for (int lanes = 0; lanes < 2; lanes++) {
    lied_err e = {0};
    lied_model *m = lied_model_new(&e);
    int top = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, &e);
    int r = lied_model_add(m, top, "leak", &leak_class, 300, 1, NULL, &e);
    CHECK(r > 0);
    double x0 = 0.27;
    CHECK(lied_model_set_param_at(m, r, 70, "x", &x0, 1, &e) == 0);
    lied_loop links = {"i", 1, 299, 1};
    CHECK(lied_model_connect_each(m, top, "leak[i+1].y", "leak[i].u", "t:1", &links, 1, 0, &e) == 0);
    lied_system *sys = fx_build(m, 0, &e);
    CHECK(sys && sys->sched->skewed && sys->sched->skew_stage > 0);
    if (!sys || !sys->sched->skewed) {
      fprintf(stderr, "%s\n", e.msg);
      lied_system_free(sys);
      return;
    }
    const uint64_t ns = sys->sched->nstates;
    double *x = calloc(ns, sizeof *x);
    lied_wave w;
    CHECK(x && lied_wave_init(&w, sys->sched, lied_tableau_find("rk4"), lanes, &e) == 0);
    CHECK(w.lane == lanes);
    if (x) {
      lied_sched_gather_x(sys->sched, x); /* the start values */
      const double times[] = {0, 0.1, 0.2, 0.30000000000000004, 0.4};
      CHECK(lied_wave_steps(&w, times, 4, x, NULL, &e) == LIED_E_RANGE);
      same_msg(&e, "at t = 0.30000000000000004: leak[71]: sqrt of x = -0.03", "waves", lanes);
    }
    lied_wave_free(&w);
    free(x);
    lied_system_free(sys);
  }
}

int main(void) {
  test_fixed_paths();
  test_lane_block();
  test_lane_waves();
  test_adaptive();
  test_evaluate();
  test_evaluate_threads();
  return CHECK_DONE();
}
