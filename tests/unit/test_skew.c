/* test_skew.c - skewed evaluation of coupled arrays (sched/skew.c): a chain
 * of sliders linked to their neighbours by springs (n sliders, n - 1
 * springs: arrays of different lengths, boundary copies with their own
 * sections and framework sums) is evaluated chunk by chunk with lagging
 * steps, and gives the same bits as level by level: derivatives, output
 * points and fixed-step runs; links to the neighbour two ahead too. A
 * periodic chain (the last linked to the first) and a component read by
 * every copy need lags as long as the arrays: they stay level by level. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "cases.h"
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "core/pool.h"
#include "sched/par.h"
#include "sched/sched.h"
#include "solve/sim.h"
#include "solve/wave.h"

extern const lied_class pm_fixed_class, pm_prismatic_class, pm_body_class, pm_spring_class;
extern const lied_class sig_gain_class, sig_integrator_class;

/* n sliders p[i] with bodies, springs s[i] from p[i] to p[i + k]
 * (i = 1 .. n - k; with wrap 1, i = 1 .. n and indices past n wrap to 1);
 * the sliders start at distinct positions. wrap 2: not periodic, but a
 * slider with a body outside the arrays hangs from the last slider (its
 * states in the last slider's section). */
static lied_system *chain(int64_t n, int64_t k, int wrap, unsigned flags, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  const int tail = wrap == 2;
  wrap = wrap == 1;
  const int64_t ns = wrap ? n : n - k;
  int g = lied_model_add(m, root, "g", &pm_fixed_class, (uint32_t)n, 1, NULL, e);
  int p = lied_model_add(m, root, "p", &pm_prismatic_class, (uint32_t)n, 1, NULL, e);
  int b = lied_model_add(m, root, "b", &pm_body_class, (uint32_t)n, 1, NULL, e);
  int s = lied_model_add(m, root, "s", &pm_spring_class, (uint32_t)ns, 1, NULL, e);
  CHECK(g > 0 && p > 0 && b > 0 && s > 0);
  double dir[2] = {1, 0};
  CHECK(lied_model_set_param(m, p, "e", dir, 2, e) == LIED_OK);
  for (int64_t i = 0; i < n; i++) {
    double x = 0.5 * (double)i + 0.01 * (double)((i * 37) % 11);
    CHECK(lied_model_set_param_at(m, p, (uint64_t)i, "s", &x, 1, e) == LIED_OK);
  }
  lied_loop all = {"i", 1, n, 1}, links = {"i", 1, ns, 1};
  char b4[64];
  snprintf(b4, sizeof b4, "p[i+%lld].frame_b", (long long)k);
  CHECK(lied_model_connect_each(m, root, "g[i].frame_b", "p[i].frame_a", "t:1", &all, 1, 0, e) == 0);
  CHECK(lied_model_connect_each(m, root, "p[i].frame_b", "b[i].frame_a", "t:2", &all, 1, 0, e) == 0);
  CHECK(lied_model_connect_each(m, root, "p[i].frame_b", "s[i].frame_a", "t:3", &links, 1, 0, e) == 0);
  CHECK(lied_model_connect_each(m, root, "s[i].frame_b", b4, "t:4", &links, 1, wrap, e) == 0);
  if (tail) {
    int tp = lied_model_add(m, root, "tp", &pm_prismatic_class, 1, 0, NULL, e);
    int tb = lied_model_add(m, root, "tb", &pm_body_class, 1, 0, NULL, e);
    CHECK(tp > 0 && tb > 0);
    CHECK(lied_model_set_param(m, tp, "e", dir, 2, e) == LIED_OK);
    char last[64];
    snprintf(last, sizeof last, "p[%lld].frame_b", (long long)n);
    CHECK(lied_model_connect(m, root, last, "tp.frame_a", "t:5", e) == 0);
    CHECK(lied_model_connect(m, root, "tp.frame_b", "tb.frame_a", "t:6", e) == 0);
  }
  return fx_build(m, flags, e);
}

/* Derivatives and output points of the two schedules at the same states,
 * then 40 rk4 steps: the same bits. */
static void same_bits(int64_t n, int64_t k, int wrap, int want_skew) {
  lied_err e = {0};
  lied_system *a = chain(n, k, wrap, 0, &e), *b = chain(n, k, wrap, LIED_SCHED_NO_SKEW, &e);
  CHECK(a && b);
  if (!a || !b) {
    fprintf(stderr, "%s\n", e.msg);
    goto out;
  }
  CHECK(!a->sched->aligned && !b->sched->skewed);
  CHECK(a->sched->skewed == want_skew);
  CHECK((a->sched->st.skew_lag > 0) == want_skew);
  if (a->sched->skewed != want_skew)
    fprintf(stderr, "n %lld k %lld wrap %d: skewed %d\n", (long long)n, (long long)k, wrap,
            a->sched->skewed);
  const uint64_t ns = a->sched->nstates;
  CHECK(ns == b->sched->nstates);
  double *x = calloc(ns, sizeof *x), *da = calloc(ns, sizeof *da), *db = calloc(ns, sizeof *db);
  CHECK(x && da && db);
  if (x && da && db) {
    fx_fill(a, x);
    CHECK(lied_sched_evaluate(a->sched, 0.5, x, da, 0, &e) == LIED_OK);
    CHECK(lied_sched_evaluate(b->sched, 0.5, x, db, 0, &e) == LIED_OK);
    CHECK(memcmp(da, db, sizeof *da * ns) == 0);
    CHECK(lied_sched_evaluate(a->sched, 0.75, x, da, 1, &e) == LIED_OK);
    CHECK(lied_sched_evaluate(b->sched, 0.75, x, db, 1, &e) == LIED_OK);
    CHECK(memcmp(da, db, sizeof *da * ns) == 0);
    /* every spring's force is consistent at the output point */
    const double *fa = lied_model_var(a->model, "s[7].f", NULL, &e),
                 *fb = lied_model_var(b->model, "s[7].f", NULL, &e);
    CHECK(fa && fb);
    if (fa && fb) CHECK(*fa == *fb && *fa != 0);
    /* a run */
    lied_sim_opts o = {.start = 0, .stop = 0.4, .dt = 0.01, .solver = "rk4", .threads = 1};
    lied_sim_stats st;
    lied_sched_reset_states(a->sched);
    lied_sched_reset_states(b->sched);
    lied_sched_gather_x(a->sched, x); /* the start values */
    CHECK(lied_simulate(a->sched, &o, NULL, NULL, &st, &e) == LIED_OK);
    CHECK(lied_simulate(b->sched, &o, NULL, NULL, &st, &e) == LIED_OK);
    lied_sched_gather_x(a->sched, da);
    lied_sched_gather_x(b->sched, db);
    CHECK(memcmp(da, db, sizeof *da * ns) == 0);
    CHECK(memcmp(da, x, sizeof *da * ns) != 0); /* the run moved the chain */
  }
  free(x);
  free(da);
  free(db);
out:
  lied_system_free(a);
  lied_system_free(b);
}

/* With threads: ranges of coordinates skewed on their own, then the strips
 * between them; 2, 3 and 4 workers against level by level on one thread. */
static void same_bits_threads(int64_t n, int64_t k) {
  lied_err e = {0};
  lied_system *a = chain(n, k, 0, 0, &e), *b = chain(n, k, 0, LIED_SCHED_NO_SKEW, &e);
  CHECK(a && b && a->sched->skewed);
  if (!a || !b) goto out;
  const uint64_t ns = a->sched->nstates;
  double *x = calloc(ns, sizeof *x), *da = calloc(ns, sizeof *da), *db = calloc(ns, sizeof *db);
  CHECK(x && da && db);
  for (int t = 2; x && da && db && t <= 4; t++) {
    lied_pool *p = NULL;
    CHECK(lied_pool_new(&p, t, &e) == LIED_OK);
    CHECK(lied_sched_par_attach(a->sched, p, &e) == LIED_OK);
    fx_skip_calibration(a->sched); /* the pool from the start */
    CHECK(lied_sched_par_split(a->sched, a->sched->skew_coords) == t);
    for (int mode = 0; mode < 2; mode++) {
      fx_fill(a, x);
      x[(uint64_t)t * 7] += 0.25 * mode;
      memset(da, 0, sizeof *da * ns);
      CHECK(lied_sched_evaluate(a->sched, 0.5, x, da, mode, &e) == LIED_OK);
      CHECK(lied_sched_evaluate(b->sched, 0.5, x, db, mode, &e) == LIED_OK);
      CHECK(memcmp(da, db, sizeof *da * ns) == 0);
      if (memcmp(da, db, sizeof *da * ns))
        for (uint64_t i = 0; i < ns; i++)
          if (da[i] != db[i]) {
            char name[128];
            lied_sched_state_name(a->sched, i, name, sizeof name);
            fprintf(stderr, "threads %d: first difference at %s\n", t, name);
            break;
          }
    }
    lied_sched_par_detach(a->sched);
    lied_pool_free(p);
  }
  free(x);
  free(da);
  free(db);
out:
  lied_system_free(a);
  lied_system_free(b);
}

/* Waves (solve/wave.c): every fixed-step explicit table, runs of several
 * sweeps (a partial last one) and of single steps (output at every step):
 * the same bits as whole-vector steps over the level-by-level schedule;
 * --no-fuse takes whole-vector steps over the skewed evaluation, the same
 * bits too; so do runs with 2 and 3 threads. */
static void same_bits_waves(int64_t n, int64_t k) {
  static const char *tables[] = {"euler", "heun", "rk3", "rk4"};
  lied_err e = {0};
  lied_system *a = chain(n, k, 0, 0, &e), *b = chain(n, k, 0, LIED_SCHED_NO_SKEW, &e);
  CHECK(a && b && a->sched->skewed);
  if (!a || !b) goto out;
  CHECK(a->sched->skew_stage >= a->sched->chunk && a->sched->skew_stage % a->sched->chunk == 0);
  CHECK(a->sched->st.wave_gap == a->sched->skew_stage && b->sched->st.wave_gap == 0);
  const uint64_t ns = a->sched->nstates;
  double *da = calloc(ns, sizeof *da), *db = calloc(ns, sizeof *db), *x0 = calloc(ns, sizeof *x0);
  CHECK(da && db && x0);
  for (int t = 0; da && db && x0 && t < 4; t++)
    for (int v = 0; v < 5; v++) {
      /* v: 0 blocks of steps, 1 single steps, 2 --no-fuse, 3 and 4: 2 and 3
       * threads asked for (output points evaluated on them) */
      /* 233 steps; under sanitizers 66, which still take every path: sweeps
       * of 7 steps and a partial one, the 64 steps of a model that fits the
       * stage budget whole and two more */
      const double stop = SANITIZED ? 0.2 : 0.7;
      lied_sim_opts o = {.start = 0, .stop = stop + 0.01 * t, .dt = 0.003, .solver = tables[t],
                         .threads = v >= 3 ? v - 1 : 1, .no_fuse = v == 2};
      if (v == 1) o.interval = o.dt; /* output at every step: blocks of one step */
      lied_sim_stats sa, sb;
      lied_sched_reset_states(a->sched);
      lied_sched_reset_states(b->sched);
      lied_sched_gather_x(a->sched, x0);
      CHECK(lied_simulate(a->sched, &o, NULL, NULL, &sa, &e) == LIED_OK);
      o.no_fuse = 0;
      CHECK(lied_simulate(b->sched, &o, NULL, NULL, &sb, &e) == LIED_OK);
      CHECK(sa.fused == (v != 2) && !sb.fused);
      CHECK(sa.lanes == (v != 2)); /* waves in lane form (sched/lanering.h) */
      if (sa.lanes != (v != 2)) fprintf(stderr, "waves: no lanes (%s)\n", sa.no_lanes);
      CHECK(sa.steps == sb.steps && sa.rhs == sb.rhs && sa.steps > (SANITIZED ? 64 : 200));
      CHECK(sa.threads == (v >= 3 && n > 4096 ? v - 1 : 1));
      lied_sched_gather_x(a->sched, da);
      lied_sched_gather_x(b->sched, db);
      CHECK(memcmp(da, db, sizeof *da * ns) == 0);
      CHECK(memcmp(da, x0, sizeof *da * ns) != 0);
      if (memcmp(da, db, sizeof *da * ns))
        fprintf(stderr, "waves: n %lld k %lld %s variant %d differ\n", (long long)n,
                (long long)k, tables[t], v);
    }
  free(da);
  free(db);
  free(x0);
out:
  lied_system_free(a);
  lied_system_free(b);
}

/* Waves on 2 and 3 workers (solve/wave.c: the stages of a sweep in one
 * contiguous block per worker, the first waiting for the worker before),
 * calibrated to the pool from the first block: the same bits as one
 * thread, for every explicit table, block lengths that split the stages
 * unevenly and a block longer than one sweep. */
/* The longest run of steps of the tests below: 64, a whole sweep of a
 * chain that fits the stage budget (up to 1,000 copies here), several of a
 * longer one (12 steps per sweep from 4,099 copies; on the pool 24 or 36).
 * Under sanitizers the longer chains take 40: still a whole sweep on one
 * thread and on the pool of 2 and 3 workers, and a partial one after it. */
#define LONG_RUN(len, n) (SANITIZED && (len) == 64 && (n) > 1000 ? 40 : (len))

static void same_bits_waves_pool(int64_t n, int64_t k) {
  static const char *tables[] = {"euler", "heun", "rk3", "rk4"};
  static const int lens[] = {1, 2, 5, 7, 64};
  lied_err e = {0};
  lied_system *a = chain(n, k, 0, 0, &e);
  CHECK(a && a->sched->skewed);
  if (!a) return;
  const uint64_t ns = a->sched->nstates;
  double *x1 = calloc(ns, sizeof *x1), *xp = calloc(ns, sizeof *xp), times[65];
  CHECK(x1 && xp);
  for (int t = 2; x1 && xp && t <= 3; t++) {
    lied_pool *p = NULL;
    CHECK(lied_pool_new(&p, t, &e) == LIED_OK);
    for (int tb = 0; tb < 4; tb++)
      for (int l = 0; l < 5; l++) {
        const int len = LONG_RUN(lens[l], n);
        for (int j = 0; j <= len; j++) times[j] = 0.1 + 0.003 * j;
        lied_wave w1, wp;
        /* one thread */
        CHECK(lied_wave_init(&w1, a->sched, lied_tableau_find(tables[tb]), 0, &e) == LIED_OK);
        fx_fill(a, x1);
        CHECK(lied_wave_steps(&w1, times, len, x1, NULL, &e) == LIED_OK);
        lied_wave_free(&w1);
        /* the pool from the first block; the steps split evenly, or as if
         * worker 0 were three times as fast as the others, or a third */
        for (int v = 0; v < 3; v++) {
          CHECK(lied_sched_par_attach(a->sched, p, &e) == LIED_OK);
          CHECK(lied_wave_init(&wp, a->sched, lied_tableau_find(tables[tb]), 0, &e) == LIED_OK);
          CHECK(wp.nw == t && wp.cap > wp.most);
          wp.ncal = LIED_WAVE_WARM + 2 * LIED_WAVE_CALIB;
          wp.pool = 1;
          for (int r = 0; v && r < t; r++) wp.rate[r] = r == 0 ? (v == 1 ? 3 : 1) : (v == 1 ? 1 : 3);
          fx_fill(a, xp);
          CHECK(lied_wave_steps(&wp, times, len, xp, NULL, &e) == LIED_OK);
          if (v && len == 7) /* one sweep: its split followed the rates */
            CHECK(v == 1 ? wp.split[1] > wp.split[2] - wp.split[1]
                         : wp.split[1] < wp.split[2] - wp.split[1]);
          lied_wave_free(&wp);
          lied_sched_par_detach(a->sched);
          CHECK(memcmp(x1, xp, sizeof *x1 * ns) == 0);
          if (memcmp(x1, xp, sizeof *x1 * ns))
            fprintf(stderr, "waves on %d workers (%d): %s, %d steps differ\n", t, v, tables[tb],
                    len);
        }
      }
    lied_pool_free(p);
  }
  free(x1);
  free(xp);
  lied_system_free(a);
}

/* Long arrays (LIED_WAVE_TRUST coordinates and more) take the pool from the
 * first sweep, without timing sweeps on one thread first: no calibration
 * counted, the workers' rates measured by the first sweep, the same bits. */
static void waves_trust(int64_t n) {
  lied_err e = {0};
  lied_system *a = chain(n, 1, 0, 0, &e);
  CHECK(a && a->sched->skewed && a->sched->skew_coords >= LIED_WAVE_TRUST);
  if (!a) return;
  const uint64_t ns = a->sched->nstates;
  double *x1 = calloc(ns, sizeof *x1), *xp = calloc(ns, sizeof *xp), times[8];
  lied_pool *p = NULL;
  CHECK(x1 && xp && lied_pool_new(&p, 2, &e) == LIED_OK);
  for (int j = 0; j <= 7; j++) times[j] = 0.1 + 0.003 * j;
  lied_wave w1, wp;
  if (x1 && xp && p) {
    CHECK(lied_wave_init(&w1, a->sched, lied_tableau_find("rk4"), 1, &e) == LIED_OK);
    /* what the lane forms and the stage sums sweep starts at a cache line
     * (core/err.h, lied_xcalloc_lines) */
    CHECK(w1.nlw == 1 && (uintptr_t)w1.lw[0].rings % LIED_LINE == 0 &&
          (uintptr_t)w1.lw[0].halo % LIED_LINE == 0 && (uintptr_t)w1.lw[0].zeros % LIED_LINE == 0);
    CHECK((uintptr_t)w1.k % LIED_LINE == 0 && (uintptr_t)w1.y % LIED_LINE == 0 &&
          (uintptr_t)w1.xnew % LIED_LINE == 0 && (uintptr_t)a->sched->work % LIED_LINE == 0);
    fx_fill(a, x1);
    CHECK(lied_wave_steps(&w1, times, 7, x1, NULL, &e) == LIED_OK);
    lied_wave_free(&w1);
    CHECK(lied_sched_par_attach(a->sched, p, &e) == LIED_OK);
    CHECK(lied_wave_init(&wp, a->sched, lied_tableau_find("rk4"), 1, &e) == LIED_OK);
    fx_fill(a, xp);
    CHECK(lied_wave_steps(&wp, times, 7, xp, NULL, &e) == LIED_OK);
    CHECK(wp.ncal == 0 && wp.rate[0] > 0 && wp.rate[1] > 0);
    lied_wave_free(&wp);
    lied_sched_par_detach(a->sched);
    CHECK(memcmp(x1, xp, sizeof *x1 * ns) == 0);
  }
  lied_pool_free(p);
  free(x1);
  free(xp);
  lied_system_free(a);
}

/* The instance data of every spec of sys, one after another (for
 * comparing what two runs leave in the arenas). */
static size_t arena_bytes(const lied_system *sys) {
  size_t n = 0;
  for (int i = 0; i < sys->model->nspecs; i++)
    if (sys->model->specs[i].cls) n += sys->model->specs[i].total * sys->model->specs[i].size;
  return n;
}

static void copy_arenas(const lied_system *sys, char *to) {
  for (int i = 0; i < sys->model->nspecs; i++) {
    const lied_spec *sp = &sys->model->specs[i];
    if (!sp->cls) continue;
    memcpy(to, sp->arena, sp->total * sp->size);
    to += sp->total * sp->size;
  }
}

/* Waves in lane form over rings of lane groups (sched/lanering.c) against
 * waves copy by copy: the same states to the bit, and the same instance
 * data left in the arenas (the last stage's values, pointers untouched),
 * on one thread and on the pool of 2 and 3 workers, for every explicit
 * table and blocks of 1, 5 and 64 steps (partial sweeps). The chain's
 * ends (a sum of three at the first and last slider, sums of four inside)
 * run copy by copy on the arenas, its interior in lanes; n not a multiple
 * of the group size leaves partial groups at both ends (the springs'
 * groups start one instance off the sliders'). */
static void same_bits_lanes(int64_t n, int64_t k, int wrap) {
  static const char *tables[] = {"euler", "heun", "rk3", "rk4"};
  static const int lens[] = {1, 5, 64};
  lied_err e = {0};
  lied_system *a = chain(n, k, wrap, 0, &e);
  CHECK(a && a->sched->skewed && a->sched->skew_stage > 0);
  if (!a || !a->sched->skewed) {
    lied_system_free(a);
    return;
  }
  const uint64_t ns = a->sched->nstates;
  const size_t nb = arena_bytes(a);
  double *x1 = calloc(ns, sizeof *x1), *x2 = calloc(ns, sizeof *x2), times[65];
  char *m1 = malloc(nb), *m2 = malloc(nb);
  CHECK(x1 && x2 && m1 && m2);
  for (int t = 1; x1 && x2 && m1 && m2 && t <= 3; t++) {
    lied_pool *p = NULL;
    if (t > 1) CHECK(lied_pool_new(&p, t, &e) == LIED_OK);
    for (int tb = 0; tb < 4; tb++)
      for (int l = 0; l < 3; l++) {
        const int len = LONG_RUN(lens[l], n);
        for (int j = 0; j <= len; j++) times[j] = 0.1 + 0.003 * j;
        lied_wave w;
        for (int lanes = 0; lanes < 2; lanes++) {
          if (p) CHECK(lied_sched_par_attach(a->sched, p, &e) == LIED_OK);
          CHECK(lied_wave_init(&w, a->sched, lied_tableau_find(tables[tb]), lanes, &e) == LIED_OK);
          CHECK(w.lane == lanes);
          if (w.lane != lanes) fprintf(stderr, "lanes: %s\n", w.no_lanes);
          if (p) { /* the pool from the first block */
            w.ncal = LIED_WAVE_WARM + 2 * LIED_WAVE_CALIB;
            w.pool = 1;
          }
          double *x = lanes ? x2 : x1;
          fx_fill(a, x);
          x[5] += 0.125 * lanes; /* a state of the first group, moved and moved back */
          x[5] -= 0.125 * lanes;
          CHECK(lied_wave_steps(&w, times, len, x, NULL, &e) == LIED_OK);
          copy_arenas(a, lanes ? m2 : m1);
          lied_wave_free(&w);
          if (p) lied_sched_par_detach(a->sched);
        }
        CHECK(memcmp(x1, x2, sizeof *x1 * ns) == 0);
        CHECK(memcmp(m1, m2, nb) == 0);
        if (memcmp(x1, x2, sizeof *x1 * ns) || memcmp(m1, m2, nb))
          fprintf(stderr, "lanes: n %lld k %lld wrap %d, %d threads, %s, %d steps differ\n",
                  (long long)n, (long long)k, wrap, t, tables[tb], len);
      }
    lied_pool_free(p);
  }
  free(x1), free(x2), free(m1), free(m2);
  lied_system_free(a);
}

/* ---- scheduling from a window (sched/window.c) --------------------------- */

/* Pointers into two models built alike: the same spec, instance and
 * offset (each model's arenas sorted by address for lied_model_locate). */
typedef struct two_models {
  const lied_model *m[2];
  int *order[2], norder[2];
} two_models;

static int same_place(const two_models *w, const void *p, const void *q) {
  uint64_t i[2];
  uint32_t o[2];
  int s0 = lied_model_locate(w->m[0], w->order[0], w->norder[0], p, &i[0], &o[0]);
  int s1 = lied_model_locate(w->m[1], w->order[1], w->norder[1], q, &i[1], &o[1]);
  return s0 == s1 && (s0 < 0 ? p == q : i[0] == i[1] && o[0] == o[1]);
}

static void same_section(const two_models *w, const lied_section *u, const lied_section *v) {
  CHECK(u->nblk == v->nblk && u->k == v->k && u->count == v->count && u->nfin == v->nfin);
  CHECK(u->constant == v->constant && u->layout == v->layout);
  if (u->nblk != v->nblk || u->k != v->k || u->nfin != v->nfin) return;
  for (int j = 0; j < u->nblk; j++)
    CHECK(u->blk[j].fn == v->blk[j].fn && same_place(w, u->blk[j].base, v->blk[j].base) &&
          u->blk[j].stride == v->blk[j].stride && u->blk[j].lanes == v->blk[j].lanes);
  for (int j = 0; j < u->k; j++) {
    const lied_sec_pair *x = &u->pairs[j], *y = &v->pairs[j];
    CHECK(same_place(w, x->tear, y->tear) && same_place(w, x->res, y->res));
    CHECK(x->tstride == y->tstride);
    CHECK(x->rstride == y->rstride && x->spec == y->spec && x->pair == y->pair);
    CHECK(x->inst0 == y->inst0);
  }
  for (int j = 0; j < u->nfin; j++) CHECK(u->fin[j] == v->fin[j]);
  for (int j = 0; j < u->k; j++) CHECK(u->cord[j] == v->cord[j]);
  for (int j = 0; j <= u->k; j++) CHECK(u->pstart[j] == v->pstart[j]);
  for (int j = 0; j < u->pstart[u->k]; j++) CHECK(u->pblk[j] == v->pblk[j]);
}

/* Schedule a (from a window, or not) is schedule b (the whole graph's):
 * every step, section, pass, lag, state map and count. */
static void same_schedule(const lied_sched *a, const lied_sched *b) {
  lied_err e = {0};
  two_models w = {{a->model, b->model}, {NULL, NULL}, {0, 0}};
  w.order[0] = lied_model_arena_order(a->model, &w.norder[0], &e);
  w.order[1] = lied_model_arena_order(b->model, &w.norder[1], &e);
  CHECK(w.order[0] && w.order[1] && w.norder[0] == w.norder[1]);
  lied_sched_stats sa = a->st, sb = b->st;
  sa.window = sb.window = 0;
  CHECK(memcmp(&sa, &sb, sizeof sa) == 0);
  CHECK(a->aligned == b->aligned && a->aligned_n == b->aligned_n);
  CHECK(a->skewed == b->skewed && a->skew_end == b->skew_end);
  CHECK(a->skew_coords == b->skew_coords && a->skew_margin == b->skew_margin);
  CHECK(a->skew_maxlag == b->skew_maxlag && a->skew_stage == b->skew_stage);
  CHECK(a->nstates == b->nstates && a->nsmap == b->nsmap && a->maxk == b->maxk);
  for (int i = 0; i < a->nsmap && i < b->nsmap; i++)
    CHECK(a->smap[i].lag_in == b->smap[i].lag_in && a->smap[i].lag_out == b->smap[i].lag_out);
  for (int p = 0; p < LIED_NPARTS; p++) {
    CHECK(a->nsteps[p] == b->nsteps[p]);
    for (int i = 0; i < a->nsteps[p] && i < b->nsteps[p]; i++) {
      const lied_step *x = &a->steps[p][i], *y = &b->steps[p][i];
      CHECK(x->fn == y->fn && same_place(&w, x->base, y->base) && x->stride == y->stride);
      CHECK(x->count == y->count && x->spec == y->spec && x->blk == y->blk);
      CHECK(x->lag == y->lag && x->first == y->first && x->ml == y->ml && x->mr == y->mr);
      CHECK(!x->sec == !y->sec);
      if (x->sec && y->sec) same_section(&w, x->sec, y->sec);
    }
  }
  free(w.order[0]);
  free(w.order[1]);
}

/* Derivatives and output points of two systems at the same states. */
static void same_evaluations(lied_system *a, lied_system *b) {
  lied_err e = {0};
  const uint64_t ns = a->sched->nstates;
  double *x = calloc(ns, sizeof *x), *da = calloc(ns, sizeof *da), *db = calloc(ns, sizeof *db);
  CHECK(x && da && db);
  for (int mode = 0; x && da && db && mode < 2; mode++) {
    fx_fill(a, x);
    CHECK(lied_sched_evaluate(a->sched, 0.5, x, da, mode, &e) == LIED_OK);
    CHECK(lied_sched_evaluate(b->sched, 0.5, x, db, mode, &e) == LIED_OK);
    CHECK(memcmp(da, db, sizeof *da * ns) == 0);
  }
  free(x), free(da), free(db);
}

/* a (built with or without a window, as want_window says) against b (the
 * whole graph): the same schedule, derivatives, output points and Jacobian
 * pattern. Frees both. */
static void as_whole_graph(lied_system *a, lied_system *b, int want_window) {
  CHECK(a && b);
  if (a && b) {
    CHECK((a->sched->st.window > 0) == want_window && b->sched->st.window == 0);
    same_schedule(a->sched, b->sched);
    same_evaluations(a, b);
    fx_same_sparsity(a, b);
  }
  lied_system_free(a);
  lied_system_free(b);
}

/* The slider chain scheduled from a window and from the whole graph. */
static void same_window(int64_t n, int64_t k, int wrap, int want_window) {
  lied_err e = {0};
  lied_system *a = chain(n, k, wrap, 0, &e), *b = chain(n, k, wrap, LIED_SCHED_NO_WINDOW, &e);
  if (a && (a->sched->st.window > 0) != want_window)
    fprintf(stderr, "n %lld k %lld wrap %d: window %llu\n", (long long)n, (long long)k, wrap,
            (unsigned long long)a->sched->st.window);
  if (a && want_window)
    CHECK(a->sched->st.window < (uint64_t)n / 2 && a->sched->skewed == (wrap == 0));
  as_whole_graph(a, b, want_window);
}

/* n integrators x[i] fed by gains g[i] reading the next integrator, and one
 * gain h outside the arrays reading x[1] and feeding x[n]: scheduled from a
 * window, but the last copy's derivative depends on the first copy's state
 * through h, so its Jacobian pattern comes from the whole graph. */
static lied_system *with_outsider(int64_t n, unsigned flags, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  lied_loop links = {"i", 1, n - 1, 1};
  int g = lied_model_add(m, root, "g", &sig_gain_class, (uint32_t)(n - 1), 1, NULL, e);
  int x = lied_model_add(m, root, "x", &sig_integrator_class, (uint32_t)n, 1, NULL, e);
  int h = lied_model_add(m, root, "h", &sig_gain_class, 1, 0, NULL, e);
  CHECK(g > 0 && x > 0 && h > 0);
  CHECK(lied_model_connect_each(m, root, "x[i+1].y", "g[i].u", "t:1", &links, 1, 0, e) == 0);
  CHECK(lied_model_connect_each(m, root, "g[i].y", "x[i].u", "t:2", &links, 1, 0, e) == 0);
  char last[64];
  snprintf(last, sizeof last, "x[%lld].u", (long long)n);
  CHECK(lied_model_connect(m, root, "x[1].y", "h.u", "t:3", e) == 0);
  CHECK(lied_model_connect(m, root, "h.y", last, "t:4", e) == 0);
  return fx_build(m, flags, e);
}

static void window_outsider(int64_t n) {
  lied_err e = {0};
  as_whole_graph(with_outsider(n, 0, &e), with_outsider(n, LIED_SCHED_NO_WINDOW, &e), 1);
}

/* n gains passing a signal from copy to copy (g[i + 1].u = g[i].y), each
 * feeding an integrator: the level of g[i] is i, so no window holds. With
 * hub, n sliders instead whose frames all meet one fixed frame: a sum node
 * reads every copy. */
static lied_system *passed_on(int64_t n, int hub, unsigned flags, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  lied_loop all = {"i", 1, n, 1}, links = {"i", 1, n - 1, 1};
  if (hub) {
    int g = lied_model_add(m, root, "g", &pm_fixed_class, 1, 0, NULL, e);
    int p = lied_model_add(m, root, "p", &pm_prismatic_class, (uint32_t)n, 1, NULL, e);
    int b = lied_model_add(m, root, "b", &pm_body_class, (uint32_t)n, 1, NULL, e);
    CHECK(g > 0 && p > 0 && b > 0);
    double dir[2] = {1, 0};
    CHECK(lied_model_set_param(m, p, "e", dir, 2, e) == LIED_OK);
    CHECK(lied_model_connect_each(m, root, "g.frame_b", "p[i].frame_a", "t:1", &all, 1, 0, e) == 0);
    CHECK(lied_model_connect_each(m, root, "p[i].frame_b", "b[i].frame_a", "t:2", &all, 1, 0, e) == 0);
  } else {
    int g = lied_model_add(m, root, "g", &sig_gain_class, (uint32_t)n, 1, NULL, e);
    int x = lied_model_add(m, root, "x", &sig_integrator_class, (uint32_t)n, 1, NULL, e);
    CHECK(g > 0 && x > 0);
    CHECK(lied_model_connect(m, root, "x[1].y", "g[1].u", "t:1", e) == 0);
    CHECK(lied_model_connect_each(m, root, "g[i].y", "g[i+1].u", "t:2", &links, 1, 0, e) == 0);
    CHECK(lied_model_connect_each(m, root, "g[i].y", "x[i].u", "t:3", &all, 1, 0, e) == 0);
  }
  return fx_build(m, flags, e);
}

static void no_window(int64_t n, int hub) {
  lied_err e = {0};
  as_whole_graph(passed_on(n, hub, 0, &e), passed_on(n, hub, LIED_SCHED_NO_WINDOW, &e), 0);
}

int main(int argc, char **argv) {
  CASES(argc, argv);
  if (CASE("windows")) {
    same_window(3000, 1, 0, 1);  /* n sliders, n - 1 springs, n - 2 sums */
    same_window(2001, 2, 0, 1);  /* links two ahead */
    same_window(6007, 3, 0, 1);
    same_window(1024, 1, 0, 1);  /* a small window */
    same_window(3000, 1, 1, 0);  /* periodic: the last link reads copy 0 */
    same_window(3000, 1, 2, 1);  /* a slider outside the arrays at the end (level by level) */
  }
  if (CASE("no_window")) {
    no_window(3000, 0);          /* a signal passed on from copy to copy */
    no_window(3000, 1);          /* a component reading every copy */
    window_outsider(2000);       /* ... and its Jacobian pattern */
  }
  if (CASE("bits")) {
    same_bits(300, 1, 0, 1);  /* 9 chunks and a partial one */
    same_bits(1000, 2, 0, 1); /* links two ahead */
    same_bits(301, 1, 1, 0);  /* periodic: lags as long as the chain */
    same_bits(40, 1, 0, 0);   /* too few chunks to matter */
    same_bits(63, 1, 0, 0);   /* under two chunks */
    same_bits(64, 1, 0, 1);   /* two chunks, lags of one: half the arrays */
  }
  if (CASE("threads")) {
    same_bits_threads(5000, 1);
    same_bits_threads(5000, 3);
  }
  /* the long cases in parts of similar length, so that ctest runs them on
   * several cores */
  if (CASE("waves_pool")) same_bits_waves_pool(5000, 1);
  if (CASE("waves_pool_3")) {
    same_bits_waves_pool(6001, 3);
    waves_trust(LIED_WAVE_TRUST + 100);
  }
  if (CASE("waves")) {
    same_bits_waves(64, 1);
    same_bits_waves(300, 1);
    same_bits_waves(1001, 3);
  }
  if (CASE("waves_4099")) same_bits_waves(4099, 2);
  if (CASE("lanes")) {
    same_bits_lanes(1000, 1, 0); /* partial groups at both ends */
    same_bits_lanes(64, 1, 0);   /* the shortest chain in waves: ends in every chunk */
    same_bits_lanes(100, 1, 0);
    same_bits_lanes(4099, 2, 0); /* links two ahead */
  }
  if (CASE("lanes_6001")) same_bits_lanes(6001, 3, 0); /* three ahead */
  if (CASE("lanes_5000")) same_bits_lanes(5000, 1, 0); /* on the pool: 2 and 3 workers share it */
  return CASES_DONE();
}
