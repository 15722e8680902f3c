/* test_threads.c - evaluation on several threads (docs/parallel.md): the
 * pool runs every range once on its worker; an aligned evaluation, a
 * general schedule (steps and section batches split over instances) and
 * fused steps give the same bits with 1, 2, 3 and 4 threads on distinct
 * copies (a partial last chunk, constant and state-dependent sections); a
 * singular section in two ranges is reported for the lowest copy whatever
 * the thread count, with the time; the thread count's validation (option
 * and LIED_THREADS); a run of a small model stays on one thread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "core/pool.h"
#include "testlib/testlib.h"
#include "sched/par.h"
#include "sched/sched.h"
#include "solve/fused.h"
#include "solve/sim.h"
#include "solve/newton.h"
#include "solve/threads.h"
#include "solve/vec.h"

/* ---- the pool ------------------------------------------------------------ */

typedef struct cover {
  uint32_t *hits; /* per item */
  int *worker;    /* per range: which range ran it */
} cover;

static void mark(void *ctx, int r, uint64_t a, uint64_t b) {
  cover *c = ctx;
  for (uint64_t i = a; i < b; i++) c->hits[i]++;
  c->worker[r] = r + 1;
}

typedef struct grains {
  uint32_t hits[1000];
  uint64_t last[4]; /* per worker: the start of its last grain + 1 */
  uint64_t count, grain;
  int bad;          /* a grain out of order on its worker, or not whole */
} grains;

static void grain_mark(void *ctx, int r, uint64_t a, uint64_t b) {
  grains *g = ctx;
  if (a + 1 <= g->last[r] || a % g->grain || b != (a + g->grain < g->count ? a + g->grain : g->count))
    g->bad = 1;
  g->last[r] = a + 1;
  for (uint64_t i = a; i < b && i < 1000; i++) g->hits[i]++;
}

static void test_pool(void) {
  lied_err e = {0};
  lied_pool *p;
  CHECK(lied_pool_new(&p, 0, &e) == LIED_E_USAGE);
  CHECK(strcmp(e.msg, "threads must be a whole number from 1 to 1024, got 0") == 0);
  CHECK(lied_pool_new(&p, 1025, &e) == LIED_E_USAGE);
  CHECK(lied_pool_cores() >= 1);
  uint64_t bounds[5];
  /* whole grains, at least min items each, as even as grains allow */
  CHECK(lied_pool_split(4100, 32, 1024, 4, bounds) == 4);
  CHECK(bounds[0] == 0 && bounds[1] == 1024 && bounds[2] == 2048 && bounds[3] == 3072 &&
        bounds[4] == 4100);
  CHECK(lied_pool_split(3000, 32, 1024, 4, bounds) == 2);
  CHECK(bounds[0] == 0 && bounds[1] == 1504 && bounds[2] == 3000);
  CHECK(lied_pool_split(16, 32, 1024, 4, bounds) == 1);
  CHECK(bounds[0] == 0 && bounds[1] == 16);
  CHECK(lied_pool_split(0, 32, 0, 4, bounds) == 1 && bounds[1] == 0);
  CHECK(lied_pool_split(100, 32, 0, 8, bounds) == 4); /* 4 grains */
  for (int n = 1; n <= 4; n++) {
    CHECK(lied_pool_new(&p, n, &e) == LIED_OK);
    CHECK(lied_pool_size(p) == n);
    uint32_t hits[1000];
    int worker[4];
    cover c = {hits, worker};
    /* many calls in a row: every range runs once per call */
    for (int call = 0; call < 2000; call++) {
      memset(hits, 0, sizeof hits);
      memset(worker, 0, sizeof worker);
      int nr = lied_pool_split(1000, 7, 0, n - call % n, bounds);
      lied_pool_run(p, bounds, nr, mark, &c);
      int ok = 1;
      for (int i = 0; i < 1000; i++) ok &= hits[i] == 1;
      for (int r = 0; r < nr; r++) ok &= worker[r] == r + 1;
      CHECK(ok);
      if (!ok) break;
    }
    /* grains on the same pool: every item once, each worker's grains in
     * increasing order, whole grains (the last one shorter); fewer items
     * than a grain; range calls in between */
    for (int call = 0; call < 500; call++) {
      if (call % 50 == 0) lied_pool_run(p, bounds, lied_pool_split(1000, 7, 0, n, bounds), mark, &c);
      const uint64_t count = call % 2 ? 1000 : 3 + (uint64_t)call, grain = 1 + (uint64_t)call % 13;
      grains g = {{0}, {0}, count, grain, 0};
      lied_pool_run_grains(p, count, grain, grain_mark, &g);
      int ok = !g.bad;
      for (uint64_t i = 0; i < count; i++) ok &= g.hits[i] == 1;
      for (uint64_t i = count; i < 1000; i++) ok &= g.hits[i] == 0;
      CHECK(ok);
      if (!ok) break;
    }
    lied_pool_free(p);
  }
  lied_pool_free(NULL);
  grains g = {{0}, {0}, 10, 4, 0};
  lied_pool_run_grains(NULL, 10, 4, grain_mark, &g); /* no pool: this thread, in order */
  CHECK(!g.bad && g.hits[0] == 1 && g.hits[9] == 1 && g.last[0] == 9);
}

/* ---- models -------------------------------------------------------------- */

#include "hyperbola.h"

/* n copies of a 2-mass chain (constant 2x2 sections) and a hyperbola
 * (state-dependent 1x1 section); with `extra`, one more hyperbola outside
 * the array, which makes the schedule general (not aligned). */
static lied_system *copies(uint32_t n, int extra, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, n, 1, NULL, e);
  lied_model_add(m, arr, "g", &tl_ground_class, 1, 0, NULL, e);
  lied_model_add(m, arr, "j1", &tl_slider_class, 1, 0, NULL, e);
  lied_model_add(m, arr, "b1", &tl_mass_class, 1, 0, NULL, e);
  int j2 = lied_model_add(m, arr, "j2", &tl_slider_class, 1, 0, NULL, e);
  int b2 = lied_model_add(m, arr, "b2", &tl_mass_class, 1, 0, NULL, e);
  CHECK(lied_model_add(m, arr, "h", &hyp_class, 1, 0, NULL, e) > 0);
  if (extra) CHECK(lied_model_add(m, root, "x", &hyp_class, 1, 0, NULL, e) > 0);
  double k = 7, mass = 0.25;
  CHECK(lied_model_set_param(m, j2, "k", &k, 1, e) == 0);
  CHECK(lied_model_set_param(m, b2, "m", &mass, 1, e) == 0);
  CHECK(lied_model_connect(m, arr, "g.flange_b", "j1.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j1.flange_b", "b1.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "b1.flange_b", "j2.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j2.flange_b", "b2.flange_a", NULL, e) == 0);
  return fx_build(m, 0, e);
}

#define N 4100 /* 128 full chunks and a partial one: 4 ranges of >= 1024 */

/* The state index of `name`, or UINT64_MAX. */
static uint64_t state_index(const lied_sched *s, const char *name) {
  for (uint64_t i = 0; i < s->nstates; i++) {
    char buf[128];
    lied_sched_state_name(s, i, buf, sizeof buf);
    if (strcmp(buf, name) == 0) return i;
  }
  return UINT64_MAX;
}

/* The calibration of single evaluations: warm-up evaluations on one thread,
 * then one thread and the pool in turn, both timed; the faster is kept, and
 * fused blocks split whatever it says. */
static void test_calibration(void) {
  lied_err e = {0};
  lied_system *m = copies(N, 0, &e);
  CHECK(m != NULL);
  if (!m) return;
  const uint64_t ns = m->sched->nstates;
  double *x = calloc(ns, sizeof *x), *dx = calloc(ns, sizeof *dx), *d1 = calloc(ns, sizeof *d1);
  lied_pool *p = NULL;
  CHECK(x && dx && d1 && lied_pool_new(&p, 2, &e) == LIED_OK);
  if (x && dx && d1 && p) {
    fx_fill(m, x);
    CHECK(lied_sched_evaluate(m->sched, 0.25, x, d1, 0, &e) == LIED_OK); /* one thread */
    CHECK(lied_sched_par_attach(m->sched, p, &e) == LIED_OK);
    lied_sched_par *P = m->sched->par;
    for (int i = 0; i < LIED_PAR_WARM + 2 * LIED_PAR_CALIB; i++) {
      CHECK(P->ncal == i);
      CHECK(lied_sched_evaluate(m->sched, 0.25, x, dx, 0, &e) == LIED_OK);
      CHECK(memcmp(d1, dx, sizeof *dx * ns) == 0); /* the same bits in either mode */
      if (i < LIED_PAR_WARM) CHECK(P->off == 1 && P->tcal[0] == 0 && P->tcal[1] == 0);
    }
    CHECK(P->tcal[0] > 0 && P->tcal[1] > 0);
    CHECK(P->off == (P->tcal[1] >= P->tcal[0]));
    CHECK(lied_sched_par_split(m->sched, N) == (P->off ? 1 : 2));
    CHECK(lied_sched_par_split_blocks(m->sched, N) == 2);
    /* decided: later evaluations are not timed */
    CHECK(lied_sched_evaluate(m->sched, 0.25, x, dx, 0, &e) == LIED_OK);
    CHECK(P->ncal == LIED_PAR_WARM + 2 * LIED_PAR_CALIB);
    lied_sched_par_detach(m->sched);
  }
  lied_pool_free(p);
  free(x);
  free(dx);
  free(d1);
  lied_system_free(m);
}

/* Derivatives at distinct states (and after a second evaluation, so the
 * constant factors are reused), with `threads` threads attached. */
static int derivatives(lied_system *m, int threads, double *x, double *dx, lied_err *e) {
  lied_pool *p = NULL;
  if (threads > 1) {
    CHECK(lied_pool_new(&p, threads, e) == LIED_OK);
    CHECK(lied_sched_par_attach(m->sched, p, e) == LIED_OK);
    fx_skip_calibration(m->sched);
    CHECK(lied_sched_par_split(m->sched, N) == (threads < 4 ? threads : 4));
  }
  fx_fill(m, x);
  lied_sched_invalidate(m->sched);
  int rc = lied_sched_evaluate(m->sched, 0.25, x, dx, 0, e);
  if (rc == LIED_OK) rc = lied_sched_evaluate(m->sched, 0.5, x, dx, 1, e);
  lied_sched_par_detach(m->sched);
  lied_pool_free(p);
  return rc;
}

static void test_same_bits_eval(int extra) {
  lied_err e = {0};
  lied_system *m = copies(N, extra, &e);
  CHECK(m != NULL);
  if (!m) return;
  CHECK(m->sched->aligned == !extra);
  const uint64_t ns = m->sched->nstates;
  CHECK(ns == 5 * (uint64_t)N + (extra ? 1 : 0));
  double *x = calloc(ns, sizeof *x), *d1 = calloc(ns, sizeof *d1), *dk = calloc(ns, sizeof *dk);
  CHECK(x && d1 && dk);
  if (x && d1 && dk) {
    CHECK(derivatives(m, 1, x, d1, &e) == LIED_OK);
    uint64_t f1 = m->sched->st.factorisations;
    for (int t = 2; t <= 4; t++) {
      memset(dk, 0, sizeof *dk * ns);
      uint64_t f0 = m->sched->st.factorisations;
      CHECK(derivatives(m, t, x, dk, &e) == LIED_OK);
      CHECK(memcmp(d1, dk, sizeof *dk * ns) == 0);
      /* the workers' factorisations are counted */
      CHECK(m->sched->st.factorisations - f0 == f1);
    }
    /* the derivatives differ between copies (distinct states) */
    CHECK(d1[state_index(m->sched, "c[1].h.x")] != d1[state_index(m->sched, "c[4000].h.x")]);
  }
  free(x);
  free(d1);
  free(dk);
  lied_system_free(m);
}

/* A singular hyperbola in copies 1501 and 3501 (ranges 1 and 3 of 4, 0 and
 * 1 of 2): the message names c[1501] for every thread count. */
static void test_first_error(int extra) {
  lied_err e = {0};
  lied_system *m = copies(N, extra, &e);
  CHECK(m != NULL);
  if (!m) return;
  const uint64_t ns = m->sched->nstates;
  double *x = calloc(ns, sizeof *x), *dx = calloc(ns, sizeof *dx);
  CHECK(x && dx);
  const uint64_t i1 = state_index(m->sched, "c[1501].h.x"),
                 i2 = state_index(m->sched, "c[3501].h.x");
  CHECK(i1 < ns && i2 < ns);
  for (int t = 1; x && dx && t <= 4; t++) {
    lied_pool *p = NULL;
    if (t > 1) {
      CHECK(lied_pool_new(&p, t, &e) == LIED_OK);
      CHECK(lied_sched_par_attach(m->sched, p, &e) == LIED_OK);
      fx_skip_calibration(m->sched);
    }
    fx_fill(m, x);
    x[i1] = x[i2] = 0;
    memset(&e, 0, sizeof e);
    CHECK(lied_sched_evaluate(m->sched, 0.75, x, dx, 0, &e) == LIED_E_SINGULAR);
    CHECK(strcmp(e.msg, "at t = 0.75: singular linear section (pivot 1 of 1); tearing "
                        "variables: c[1501].h.z; section of c[1501].h") == 0);
    lied_sched_par_detach(m->sched);
    lied_pool_free(p);
  }
  free(x);
  free(dx);
  lied_system_free(m);
}

/* Blocks of fused steps (lanes on and off) with 2..4 threads against one. */
static void test_fused(void) {
  lied_err e = {0};
  lied_system *m = copies(N, 0, &e);
  CHECK(m != NULL);
  if (!m) return;
  const uint64_t ns = m->sched->nstates;
  double *x1 = calloc(ns, sizeof *x1), *xk = calloc(ns, sizeof *xk);
  const lied_tableau *tab = lied_tableau_find("rk4");
  double times[13];
  for (int j = 0; j <= 12; j++) times[j] = 0.25 + 0.01 * j;
  for (int lanes = 0; x1 && xk && lanes < 2; lanes++) {
    for (int t = 1; t <= 4; t++) {
      lied_pool *p = NULL;
      if (t > 1) {
        CHECK(lied_pool_new(&p, t, &e) == LIED_OK);
        CHECK(lied_sched_par_attach(m->sched, p, &e) == LIED_OK);
      }
      lied_fused f;
      CHECK(lied_fused_init(&f, m->sched, tab, lanes, &e) == LIED_OK);
      CHECK(f.nws == t);
      double *x = t == 1 ? x1 : xk;
      fx_fill(m, x);
      lied_sched_invalidate(m->sched);
      CHECK(lied_sched_prepare(m->sched, 0.25, &e) == LIED_OK);
      CHECK(lied_fused_steps(&f, times, 1, x, NULL, &e) == LIED_OK);
      CHECK(lied_fused_steps(&f, times + 1, 11, x, NULL, &e) == LIED_OK);
      if (t > 1) CHECK(memcmp(x1, xk, sizeof *x1 * ns) == 0);
      /* singular copies in two grains: the block fails at the lower one
       * whichever worker meets which first, x kept */
      double *x0 = calloc(ns, sizeof *x0);
      CHECK(x0 != NULL);
      double *xe = calloc(ns, sizeof *xe);
      CHECK(x0 && xe);
      if (x0 && xe) {
        memcpy(xe, x, sizeof *x * ns);
        xe[state_index(m->sched, "c[1501].h.x")] = 0;
        xe[state_index(m->sched, "c[4001].h.x")] = 0;
        memcpy(x0, xe, sizeof *x * ns);
        CHECK(lied_fused_steps(&f, times, 4, xe, NULL, &e) == LIED_E_SINGULAR);
        CHECK(strstr(e.msg, "at t = 0.25: singular linear section") &&
              strstr(e.msg, "c[1501].h.z; section of c[1501].h"));
        CHECK(memcmp(xe, x0, sizeof *x * ns) == 0);
      }
      free(x0);
      free(xe);
      lied_fused_free(&f);
      lied_sched_par_detach(m->sched);
      lied_pool_free(p);
    }
  }
  free(x1);
  free(xk);
  lied_system_free(m);
}

/* ---- vector operations ------------------------------------------------------ */

/* Stage sums and the weighted norm with 1..4 threads: the same bits; the
 * norm against a sum in long double; the largest entry and the first NaN. */
static void test_vec(void) {
  lied_err e = {0};
  const uint64_t n = 100003; /* over LIED_VEC_MIN, not a multiple of the segments */
  double *x = malloc(sizeof *x * n), *k = malloc(sizeof *k * 3 * n), *w = malloc(sizeof *w * n);
  double *o1 = malloc(sizeof *o1 * n), *ok = malloc(sizeof *ok * n);
  CHECK(x && k && w && o1 && ok);
  if (!(x && k && w && o1 && ok)) return;
  uint64_t r = 12345;
  for (uint64_t i = 0; i < 3 * n; i++) {
    r = r * 6364136223846793005u + 1442695040888963407u;
    double u = (double)(r >> 11) / 9007199254740992.0;
    if (i < n) x[i] = u - 0.5, w[i] = 1 + u;
    k[i] = 3 * u - 1;
  }
  x[77777] = 40; /* the largest |v w| */
  const double cw[3] = {0.25, 0, 0.75};
  long double ref = 0;
  for (uint64_t i = 0; i < n; i++) ref += (long double)(x[i] * w[i]) * (x[i] * w[i]);
  const double want = sqrt((double)(ref / n));
  uint64_t at1 = 0, atk = 0;
  lied_vec_combine(NULL, n, x, 0.1, cw, 3, k, n, o1);
  const double n1 = lied_vec_wrms(NULL, n, x, w, &at1);
  CHECK(at1 == 77777);
  CHECK(fabs(n1 - want) <= 1e-14 * want);
  CHECK(o1[5] == x[5] + 0.1 * (0.25 * k[5] + 0.75 * k[2 * n + 5]));
  CHECK(n1 == lied_wrms(n, x, w, NULL));
  for (int t = 2; t <= 4; t++) {
    lied_pool *p;
    CHECK(lied_pool_new(&p, t, &e) == LIED_OK);
    memset(ok, 0, sizeof *ok * n);
    lied_vec_combine(p, n, x, 0.1, cw, 3, k, n, ok);
    CHECK(memcmp(o1, ok, sizeof *ok * n) == 0);
    const double nk = lied_vec_wrms(p, n, x, w, &atk);
    CHECK(memcmp(&n1, &nk, sizeof nk) == 0 && atk == 77777);
    const double a = x[90000], b = x[95000];
    x[90000] = NAN, x[95000] = NAN;
    CHECK(isnan(lied_vec_wrms(p, n, x, w, &atk)) && atk == 90000);
    x[90000] = a, x[95000] = b;
    lied_pool_free(p);
  }
  free(x);
  free(k);
  free(w);
  free(o1);
  free(ok);
}

/* ---- runs: the thread count ------------------------------------------------ */

static void test_resolve(void) {
  lied_err e = {0};
  lied_sim_opts o = {0};
  int n = 0;
  unsetenv("LIED_THREADS");
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_OK && n == lied_pool_cores());
  o.threads = 3;
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_OK && n == 3);
  setenv("LIED_THREADS", "5", 1); /* the option wins */
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_OK && n == 3);
  o.threads = 0;
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_OK && n == 5);
  const char *bad[] = {"0", "-2", "2.5", "abc", "1025", "99999999999999999999", " 2"};
  for (int i = 0; i < 7; i++) {
    setenv("LIED_THREADS", bad[i], 1);
    char want[200];
    snprintf(want, sizeof want, "LIED_THREADS must be a whole number from 1 to 1024, got '%s'",
             bad[i]);
    CHECK(lied_threads_resolve(&o, &n, &e) == LIED_E_USAGE);
    CHECK(strcmp(e.msg, want) == 0);
  }
  setenv("LIED_THREADS", "", 1); /* empty: unset */
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_OK && n == lied_pool_cores());
  unsetenv("LIED_THREADS");
  o.threads = -1;
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_E_USAGE);
  CHECK(strcmp(e.msg, "threads must be a whole number from 1 to 1024, got -1") == 0);
  o.threads = 1025;
  CHECK(lied_threads_resolve(&o, &n, &e) == LIED_E_USAGE);
}

/* Runs: the same final state with 1 and 3 threads; a small model stays on
 * one thread; a bad count is a usage error before anything runs. */
static void test_runs(void) {
  lied_err e = {0};
  double *xs[2] = {NULL, NULL};
  for (int k = 0; k < 2; k++) {
    lied_system *m = copies(N, 0, &e);
    CHECK(m != NULL);
    if (!m) return;
    lied_sim_opts o = {.start = 0, .stop = 0.5, .dt = 0.01, .solver = "rk4",
                       .threads = k ? 3 : 1};
    lied_sim_stats st;
    CHECK(lied_simulate(m->sched, &o, NULL, NULL, &st, &e) == LIED_OK);
    CHECK(st.threads == (k ? 3 : 1) && st.fused);
    CHECK(m->sched->par == NULL); /* detached after the run */
    xs[k] = calloc(m->sched->nstates, sizeof *xs[k]);
    if (xs[k]) lied_sched_gather_x(m->sched, xs[k]);
    o.threads = 1025;
    CHECK(lied_simulate(m->sched, &o, NULL, NULL, &st, &e) == LIED_E_USAGE);
    CHECK(strcmp(e.msg, "threads must be a whole number from 1 to 1024, got 1025") == 0);
    /* dopri45 (aligned evaluations of the whole vector) */
    o = (lied_sim_opts){.start = 0, .stop = 0.2, .solver = "dopri45", .threads = k ? 2 : 1};
    CHECK(lied_simulate(m->sched, &o, NULL, NULL, &st, &e) == LIED_OK);
    CHECK(st.threads == (k ? 2 : 1));
    lied_system_free(m);
  }
  CHECK(xs[0] && xs[1] && memcmp(xs[0], xs[1], sizeof(double) * 5 * N) == 0);
  free(xs[0]);
  free(xs[1]);
  lied_system *m = copies(16, 0, &e);
  CHECK(m != NULL);
  if (!m) return;
  lied_sim_opts o = {.start = 0, .stop = 0.1, .dt = 0.01, .solver = "rk4", .threads = 4};
  lied_sim_stats st;
  CHECK(lied_simulate(m->sched, &o, NULL, NULL, &st, &e) == LIED_OK);
  CHECK(st.threads == 1);
  lied_system_free(m);
}

int main(void) {
  test_pool();
  test_calibration();
  test_same_bits_eval(0);
  test_same_bits_eval(1);
  test_first_error(0);
  test_first_error(1);
  test_fused();
  test_vec();
  test_resolve();
  test_runs();
  return CHECK_DONE();
}
