/* test_fused.c - fused steps (solve/fused.h): fixed-step explicit
 * Runge-Kutta steps taken chunk by chunk of independent copies, one step or
 * a block of steps at a time, must give the same bits as lied_erk_step over
 * the whole state vector, for every explicit table, with a partial last
 * chunk, constant and state-dependent sections; a singular section in a
 * later chunk is an error naming the copy and the time, and leaves the state
 * unchanged; a block that fails or is stopped leaves it unchanged too, and
 * the simulator then reports what single steps report. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "testlib/testlib.h"
#include "sched/sched.h"
#include "solve/erk.h"
#include "solve/fused.h"
#include "solve/sim.h"

#include "hyperbola.h"

/* Ramp: der(x) = z with (1 - t) z = 1, singular at exactly t = 1. */
typedef struct ramp {
  double x, der_x, z, res;
} ramp;
static void ramp_eval(const lied_env *env, ramp *r) {
  r->res = (1 - env->t) * r->z - 1;
  r->der_x = r->z;
}
LIED_BLOCK(ramp_block, ramp, ramp_eval)
static void ramp_meta(lied_meta *m, void *self) {
  ramp *r = self;
  lied_meta_state(m, "x", "1", &r->x, &r->der_x);
  lied_meta_tear(m, "z", &r->z, "res", &r->res);
  lied_meta_block(m, "eval", ramp_block, 0, LIED_SIGS(&r->z, &lied_time),
                  LIED_SIGS(&r->res, &r->der_x));
}
static const lied_class ramp_class = {"Ramp", "test", "der(x) = 1/(1 - t)", sizeof(ramp),
                                      NULL, 0, NULL, ramp_meta};

/* Blow-up: der(x) = p x^2 from x = 1, infinite at t = 1/p (rk4 runs past
 * it and overflows a few steps later). */
typedef struct blow {
  double x, der_x, p;
} blow;
static void blow_eval(const lied_env *env, blow *b) {
  (void)env;
  b->der_x = b->p * b->x * b->x;
}
LIED_BLOCK(blow_block, blow, blow_eval)
static void blow_meta(lied_meta *m, void *self) {
  blow *b = self;
  lied_meta_state(m, "x", "1", &b->x, &b->der_x);
  lied_meta_block(m, "eval", blow_block, 0, LIED_SIGS(&b->x, &b->p), LIED_SIGS(&b->der_x));
}
static const lied_param blow_params[] = {
    {"x", offsetof(blow, x), 1, "1", "start value", -HUGE_VAL, HUGE_VAL, 0, 0},
    {"p", offsetof(blow, p), 1, "1", "rate", -HUGE_VAL, HUGE_VAL, 0, 0}};
static const lied_class blow_class = {"Blow", "test", "der(x) = p x^2", sizeof(blow),
                                      blow_params, 2, NULL, blow_meta};

/* n copies of a 2-mass chain (two state maps of two states, constant 2x2
 * sections) and of a hyperbola (one state, state-dependent 1x1 section). */
static lied_system *copies_opt(uint32_t n, int no_replicate, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, n, 1, NULL, e);
  lied_model_add(m, arr, "g", &tl_ground_class, 1, 0, NULL, e);
  lied_model_add(m, arr, "j1", &tl_slider_class, 1, 0, NULL, e);
  lied_model_add(m, arr, "b1", &tl_mass_class, 1, 0, NULL, e);
  int j2 = lied_model_add(m, arr, "j2", &tl_slider_class, 1, 0, NULL, e);
  int b2 = lied_model_add(m, arr, "b2", &tl_mass_class, 1, 0, NULL, e);
  CHECK(lied_model_add(m, arr, "h", &hyp_class, 1, 0, NULL, e) > 0);
  double k = 7, mass = 0.25;
  CHECK(lied_model_set_param(m, j2, "k", &k, 1, e) == 0);
  CHECK(lied_model_set_param(m, b2, "m", &mass, 1, e) == 0);
  CHECK(lied_model_connect(m, arr, "g.flange_b", "j1.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j1.flange_b", "b1.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "b1.flange_b", "j2.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j2.flange_b", "b2.flange_a", NULL, e) == 0);
  return fx_build(m, no_replicate ? LIED_SCHED_NO_REPLICATE : 0, e);
}

static lied_system *copies(uint32_t n, lied_err *e) { return copies_opt(n, 0, e); }

typedef struct rhs_ctx {
  lied_system *m;
  lied_err *e;
} rhs_ctx;
static int rhs(void *ctx, double t, const double *x, double *dx) {
  rhs_ctx *c = ctx;
  return lied_sched_evaluate(c->m->sched, t, x, dx, 0, c->e);
}


/* 20 steps from t = 0.25 with h = 0.01 in blocks of `block` steps (the
 * last one shorter), fused against whole-vector steps over the fixed-step
 * loop's times. `fresh`: the constant sections are not factorised yet when
 * the first block starts (it takes its first step over every chunk first). */
static void same_bits(const char *table, int block, int fresh) {
  lied_err e = {0};
  const uint32_t n = 77; /* two full chunks and a partial one */
  lied_system *ma = copies(n, &e), *mb = copies(n, &e);
  CHECK(ma && mb);
  if (!ma || !mb) goto out;
  CHECK(lied_fused_applies(mb->sched));
  CHECK(mb->sched->chunk < n && n % mb->sched->chunk != 0);
  const uint64_t ns = ma->sched->nstates;
  CHECK(ns == 5 * (uint64_t)n);
  double *xa = calloc(ns, sizeof *xa), *xb = calloc(ns, sizeof *xb);
  const lied_tableau *tab = lied_tableau_find(table);
  CHECK(xa && xb && tab);
  lied_erk erk;
  lied_fused f;
  CHECK(lied_erk_init(&erk, tab, ns, &e) == 0);
  CHECK(lied_fused_init(&f, mb->sched, tab, 1, &e) == 0);
  if (xa && xb) {
    fx_fill(ma, xa);
    memcpy(xb, xa, sizeof *xa * ns);
    /* the constant part as an evaluation runs it first */
    CHECK(lied_sched_prepare(mb->sched, 0.25, &e) == LIED_OK);
    if (!fresh) CHECK(lied_sched_evaluate(mb->sched, 0.25, xb, NULL, 0, &e) == 0);
    int nconst = 0, factored = 0;
    for (int i = 0; i < mb->sched->nsecs; i++) {
      nconst += mb->sched->secs[i].constant;
      factored += mb->sched->secs[i].constant && mb->sched->secs[i].factored[0];
    }
    CHECK(nconst == 1 && factored == !fresh);
    double times[21];
    times[0] = 0.25;
    for (int j = 1; j <= 20; j++) times[j] = times[j - 1] + 0.01;
    rhs_ctx c = {ma, &e};
    for (int j = 0; j < 20; j++)
      CHECK(lied_erk_step(&erk, rhs, &c, times[j], times[j + 1] - times[j], xa) == 0);
    uint64_t ev0 = mb->sched->st.evaluations;
    for (int j = 0; j < 20; j += block)
      CHECK(lied_fused_steps(&f, times + j, 20 - j < block ? 20 - j : block, xb, NULL, &e) == 0);
    CHECK(memcmp(xa, xb, sizeof *xa * ns) == 0);
    for (uint64_t i = 0; i < ns; i++)
      if (xa[i] != xb[i]) { char nm[64]; lied_sched_state_name(mb->sched, i, nm, 64); fprintf(stderr, "%s block %d fresh %d: %s %.17g %.17g\n", table, block, fresh, nm, xa[i], xb[i]); break; }
    CHECK(mb->sched->st.evaluations - ev0 == 20 * (uint64_t)tab->stages);
    /* the states moved (the comparison is not of two untouched vectors) */
    fx_fill(mb, xb);
    CHECK(memcmp(xa, xb, sizeof *xa * ns) != 0);
  }
  lied_erk_free(&erk);
  lied_fused_free(&f);
  free(xa);
  free(xb);
out:
  lied_system_free(ma);
  lied_system_free(mb);
}

static void test_same_bits(void) {
  const char *tables[] = {"euler", "heun", "rk3", "rk4"};
  for (int ti = 0; ti < 4; ti++) {
    same_bits(tables[ti], 1, 0);
    same_bits(tables[ti], 7, 0);
  }
  same_bits("rk4", 20, 1);
  same_bits("rk4", 3, 1);
  same_bits("rk4", 1, 1);
}

static void test_singular_later_chunk(void) {
  lied_err e = {0};
  const uint32_t n = 77;
  lied_system *m = copies(n, &e);
  CHECK(m != NULL);
  if (!m) return;
  const uint64_t ns = m->sched->nstates;
  double *x = calloc(ns, sizeof *x), *x0 = calloc(ns, sizeof *x0);
  lied_fused f;
  CHECK(x && x0 && lied_fused_init(&f, m->sched, lied_tableau_find("rk4"), 1, &e) == 0);
  if (x && x0) {
    fx_fill(m, x);
    CHECK(lied_sched_evaluate(m->sched, 0, x, NULL, 0, &e) == 0); /* constant part, factors */
    /* a block that is stopped changes nothing */
    memcpy(x0, x, sizeof *x * ns);
    const double t3[] = {0, 0.1, 0.2, 0.3};
    volatile sig_atomic_t stop = 1;
    CHECK(lied_fused_steps(&f, t3, 3, x, &stop, &e) == LIED_RETRY);
    CHECK(memcmp(x, x0, sizeof *x * ns) == 0);
    stop = 0;
    CHECK(lied_fused_steps(&f, t3, 3, x, &stop, &e) == 0);
    CHECK(memcmp(x, x0, sizeof *x * ns) != 0);
    fx_fill(m, x);
    /* copy 70 (c[71], in the third chunk): the hyperbola's x = 0 */
    for (uint64_t i = 0; i < ns; i++) {
      char name[128];
      lied_sched_state_name(m->sched, i, name, sizeof name);
      if (strcmp(name, "c[71].h.x") == 0) x[i] = 0;
    }
    memcpy(x0, x, sizeof *x * ns);
    const double times[] = {1.5, 1.51, 1.52};
    CHECK(lied_fused_steps(&f, times, 1, x, NULL, &e) != 0);
    CHECK(strstr(e.msg, "at t = 1.5: singular linear section") != NULL);
    CHECK(strstr(e.msg, "c[71].h.z") != NULL);
    CHECK(memcmp(x, x0, sizeof *x * ns) == 0); /* the state is unchanged */
    CHECK(lied_fused_steps(&f, times, 2, x, NULL, &e) != 0); /* a block */
    CHECK(strstr(e.msg, "at t = 1.5: singular linear section") != NULL);
    CHECK(strstr(e.msg, "c[71].h.z") != NULL);
    CHECK(memcmp(x, x0, sizeof *x * ns) == 0); /* the state is unchanged */
  }
  lied_fused_free(&f);
  free(x);
  free(x0);
  lied_system_free(m);
}

/* A section that becomes singular at a stage of a step (rk4, h = 0.25: the
 * last stage of the step from 0.75 is at t = 1): the message names the stage
 * time once (the step's own "at t =" is not added on top), the first copy,
 * and the run keeps the time reached; fused and whole-vector steps alike. */
static void test_singular_mid_run(void) {
  for (int nofuse = 0; nofuse < 2; nofuse++) {
    lied_err e = {0};
    lied_model *m = lied_model_new(&e);
    int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, &e);
    CHECK(lied_model_add(m, root, "r", &ramp_class, 40, 1, NULL, &e) > 0);
    lied_system *sys = fx_build(m, 0, &e);
    CHECK(sys != NULL);
    if (!sys) return;
    CHECK(lied_fused_applies(sys->sched));
    lied_sim_opts o = {.start = 0, .stop = 2, .dt = 0.25, .solver = "rk4", .no_fuse = nofuse};
    lied_sim_stats st;
    CHECK(lied_simulate(sys->sched, &o, NULL, NULL, &st, &e) == LIED_E_SINGULAR);
    CHECK(strcmp(e.msg, "at t = 1: singular linear section (pivot 1 of 1); tearing "
                        "variables: r[1].z; section of r[1]") == 0);
    if (strcmp(e.msg, "at t = 1: singular linear section (pivot 1 of 1); tearing "
                      "variables: r[1].z; section of r[1]"))
      fprintf(stderr, "got: %s\n", e.msg);
    CHECK(st.steps == 3 && st.t_end == 0.75);
    lied_system_free(sys);
  }
  /* the prefix is added once, and only to messages without a time */
  lied_err e = {0};
  lied_errf(&e, "state x became nan");
  lied_err_at(&e, 0.5);
  lied_err_at(&e, 0.25);
  CHECK(strcmp(e.msg, "at t = 0.5: state x became nan") == 0);
}

/* A run that nobody observes (no recorder, no progress hook) takes blocks
 * of steps across output points: 200 steps with an output every 10 go in
 * blocks of 64 (and a last one of 8), and end in the same bits as
 * whole-vector steps; the step grid is the same. */
static void test_blocks_across_outputs(void) {
  lied_err e = {0};
  lied_system *m[2];
  double *x[2];
  lied_sim_stats st[2];
  for (int i = 0; i < 2; i++) {
    m[i] = copies(77, &e);
    CHECK(m[i] != NULL);
    if (!m[i]) return;
    lied_sim_opts o = {.start = 0, .stop = 2, .dt = 0.01, .interval = 0.1, .solver = "rk4",
                       .no_fuse = i};
    uint64_t ev0 = m[i]->sched->st.evaluations;
    CHECK(lied_simulate(m[i]->sched, &o, NULL, NULL, &st[i], &e) == 0);
    CHECK(st[i].steps == 200 && st[i].t_end == 2 && st[i].rhs == 800);
    CHECK(m[i]->sched->st.evaluations - ev0 == 801); /* and the final evaluation */
    x[i] = calloc(m[i]->sched->nstates, sizeof(double));
    CHECK(x[i] != NULL);
    if (x[i]) lied_sched_gather_x(m[i]->sched, x[i]);
  }
  if (x[0] && x[1]) {
    CHECK(memcmp(x[0], x[1], sizeof(double) * m[0]->sched->nstates) == 0);
    fx_fill(m[0], x[1]);
    CHECK(memcmp(x[0], x[1], sizeof(double) * m[0]->sched->nstates) != 0); /* it moved */
  }
  for (int i = 0; i < 2; i++) {
    free(x[i]);
    lied_system_free(m[i]);
  }
}

/* Runs whose output interval holds many steps take them in blocks; a block
 * that fails is taken again step by step, so fused runs fail with the
 * message, step count and time of whole-vector runs. Ramp: singular at the
 * last stage of the step from 0.9375 (h = 1/16, output every 0.5). The run
 * (rk4 unless `solver` says) fails with status `want`, the code in e. */
static void sim_fail_with(const char *solver, const lied_class *cls, int nofuse, double p,
                          int want, lied_sim_stats *st, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, 40, 1, NULL, e);
  CHECK(lied_model_add(m, arr, "a", cls, 1, 0, NULL, e) > 0);
  int b = lied_model_add(m, arr, "b", cls, 1, 0, NULL, e);
  if (p > 0) CHECK(lied_model_set_param(m, b, "p", &p, 1, e) == 0);
  lied_system *sys = fx_build(m, 0, e);
  CHECK(sys != NULL);
  if (!sys) return;
  CHECK(lied_fused_applies(sys->sched));
  lied_sim_opts o = {.start = 0, .stop = 3, .dt = 0.0625, .interval = 0.5,
                     .solver = solver, .no_fuse = nofuse};
  CHECK(lied_simulate(sys->sched, &o, NULL, NULL, st, e) == want);
  CHECK(e->code == want);
  if (e->code != want) fprintf(stderr, "%s: %s\n", solver, e->msg);
  lied_system_free(sys);
}

static void sim_fail(const lied_class *cls, int nofuse, double p, int want, lied_sim_stats *st,
                     lied_err *e) {
  sim_fail_with("rk4", cls, nofuse, p, want, st, e);
}

static void test_singular_in_block(void) {
  lied_err e1 = {0}, e2 = {0};
  lied_sim_stats s1, s2;
  sim_fail(&ramp_class, 0, 0, LIED_E_SINGULAR, &s1, &e1);
  sim_fail(&ramp_class, 1, 0, LIED_E_SINGULAR, &s2, &e2);
  CHECK(strcmp(e1.msg, "at t = 1: singular linear section (pivot 1 of 1); tearing "
                       "variables: c[1].a.z; section of c[1].a") == 0);
  CHECK(strcmp(e1.msg, e2.msg) == 0);
  CHECK(s1.steps == 15 && s1.t_end == 0.9375 && s2.steps == 15 && s2.t_end == 0.9375);
}

/* b blows up first (p = 4: infinite at t = 0.25), inside the first block */
static void test_nonfinite_in_block(void) {
  lied_err e1 = {0}, e2 = {0};
  lied_sim_stats s1, s2;
  sim_fail(&blow_class, 0, 4, LIED_E_NONFINITE, &s1, &e1);
  sim_fail(&blow_class, 1, 4, LIED_E_NONFINITE, &s2, &e2);
  CHECK(strncmp(e1.msg, "at t = 0.", 9) == 0 && strstr(e1.msg, ": state c[1].b.x became ") != NULL);
  CHECK(strcmp(e1.msg, e2.msg) == 0);
  if (strcmp(e1.msg, e2.msg)) fprintf(stderr, "fused: %s\nwhole: %s\n", e1.msg, e2.msg);
  CHECK(s1.steps == s2.steps && s1.t_end == s2.t_end && s1.steps > 4 && s1.steps < 8);
}

/* The status of a failure is the kind set where it happened: a Newton
 * failure at a fixed step and a step size underflow are LIED_E_SOLVER. */
static void test_solver_status(void) {
  lied_err e = {0};
  lied_sim_stats st;
  sim_fail_with("beuler", &blow_class, 0, 4, LIED_E_SOLVER, &st, &e);
  CHECK(strstr(e.msg, "the Newton iteration of beuler does not converge") != NULL);
  const char *const adaptive[] = {"dopri45", "esdirk23"};
  for (int i = 0; i < 2; i++) {
    sim_fail_with(adaptive[i], &blow_class, 0, 4, LIED_E_SOLVER, &st, &e);
    CHECK(strstr(e.msg, "step size underflow") != NULL);
    CHECK(fabs(st.t_end - 0.25) < 1e-3); /* at the blow-up */
  }
}

/* Replicated scheduling: the schedule built from the graph of one copy is
 * the schedule built from the graph of all 77 (steps, sections, passes,
 * counts), and evaluates to the same bits. */
static void test_replicated_schedule(void) {
  lied_err e = {0};
  const uint32_t n = 77;
  lied_system *a = copies_opt(n, 0, &e), *b = copies_opt(n, 1, &e);
  CHECK(a && b);
  if (!a || !b) goto out;
  const lied_sched *sa = a->sched, *sb = b->sched;
  CHECK(sa->st.copies == n && sb->st.copies == 0);
  CHECK(sa->st.nodes == sb->st.nodes && sa->st.edges == sb->st.edges);
  /* per copy: ground 1 block, two sliders and two masses 4 each, hyperbola 1 */
  CHECK(sa->st.nodes == 18 * (uint64_t)n);
  CHECK(sa->st.sections == sb->st.sections && sa->st.tears == sb->st.tears);
  CHECK(sa->st.section_batches == sb->st.section_batches);
  CHECK(sa->st.constant_sections == sb->st.constant_sections);
  CHECK(sa->st.max_section == sb->st.max_section);
  CHECK(sa->st.column_blocks == sb->st.column_blocks);
  CHECK(sa->st.column_blocks_all == sb->st.column_blocks_all);
  CHECK(memcmp(sa->st.section_size, sb->st.section_size, sizeof sa->st.section_size) == 0);
  CHECK(sa->aligned && sb->aligned && sa->aligned_n == n && sb->aligned_n == n);
  for (int p = 0; p < LIED_NPARTS; p++) {
    CHECK(sa->st.blocks[p] == sb->st.blocks[p]);
    CHECK(sa->nsteps[p] == sb->nsteps[p]);
    for (int i = 0; i < sa->nsteps[p] && i < sb->nsteps[p]; i++) {
      const lied_step *x = &sa->steps[p][i], *y = &sb->steps[p][i];
      CHECK(x->fn == y->fn && x->stride == y->stride && x->count == y->count);
      CHECK(!x->sec == !y->sec);
      if (!x->sec || !y->sec) continue;
      const lied_section *u = x->sec, *v = y->sec;
      CHECK(u->nblk == v->nblk && u->k == v->k && u->count == v->count && u->count == n);
      CHECK(u->constant == v->constant && u->nfin == v->nfin);
      if (u->nblk != v->nblk || u->k != v->k || u->nfin != v->nfin) continue;
      for (int j = 0; j < u->nblk; j++) CHECK(u->blk[j].fn == v->blk[j].fn);
      for (int j = 0; j < u->nfin; j++) CHECK(u->fin[j] == v->fin[j]);
      for (int j = 0; j < u->k; j++) CHECK(u->cord[j] == v->cord[j]);
      for (int j = 0; j <= u->k; j++) CHECK(u->pstart[j] == v->pstart[j]);
      for (int j = 0; j < u->pstart[u->k]; j++) CHECK(u->pblk[j] == v->pblk[j]);
    }
  }
  const uint64_t ns = a->sched->nstates;
  CHECK(ns == b->sched->nstates);
  double *x = calloc(ns, sizeof *x), *da = calloc(ns, sizeof *da), *db = calloc(ns, sizeof *db);
  CHECK(x && da && db);
  if (x && da && db) {
    fx_fill(a, x);
    CHECK(lied_sched_evaluate(a->sched, 0.3, x, da, 1, &e) == 0);
    CHECK(lied_sched_evaluate(b->sched, 0.3, x, db, 1, &e) == 0);
    CHECK(memcmp(da, db, sizeof *da * ns) == 0);
  }
  free(x), free(da), free(db);
  /* the Jacobian pattern: copy 0's moved to every copy = the whole graph's */
  fx_same_sparsity(a, b);
out:
  lied_system_free(a);
  lied_system_free(b);
}

/* n arrays linked copy by copy replicate; linked across copies or with a
 * component outside the arrays, they do not (and are scheduled from the
 * whole graph). perm: j[i] moves b[i] (0), b[i + 1] (1), or b[1], b[3],
 * b[2] (2: copy 1 alone looks replicable). */
static lied_system *arrays(int perm, int extra, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, e);
  lied_model_add(m, root, "g", &tl_ground_class, 3, 1, NULL, e);
  lied_model_add(m, root, "j", &tl_slider_class, 3, 1, NULL, e);
  lied_model_add(m, root, "b", &tl_mass_class, 3, 1, NULL, e);
  if (extra) lied_model_add(m, root, "lone", &tl_ground_class, 1, 0, NULL, e);
  for (int i = 1; i <= 3; i++) {
    char a[32], c[32], d[32];
    snprintf(a, sizeof a, "g[%d].flange_b", i);
    snprintf(c, sizeof c, "j[%d].flange_a", i);
    CHECK(lied_model_connect(m, root, a, c, NULL, e) == 0);
    snprintf(c, sizeof c, "j[%d].flange_b", i);
    static const int target[3][3] = {{1, 2, 3}, {2, 3, 1}, {1, 3, 2}};
    snprintf(d, sizeof d, "b[%d].flange_a", target[perm][i - 1]);
    CHECK(lied_model_connect(m, root, c, d, NULL, e) == 0);
  }
  return fx_build(m, 0, e);
}

static void test_replicable_or_not(void) {
  lied_err e = {0};
  lied_system *m = arrays(0, 0, &e);
  CHECK(m && m->sched->st.copies == 3 && m->sched->st.nodes > 0);
  lied_system_free(m);
  m = arrays(1, 0, &e); /* j[i] moves b[i + 1] */
  CHECK(m && m->sched->st.copies == 0);
  lied_system_free(m);
  m = arrays(2, 0, &e); /* j[2] moves b[3]: found past copy 0 */
  CHECK(m && m->sched->st.copies == 0);
  lied_system_free(m);
  m = arrays(0, 1, &e); /* one more component, outside the arrays */
  CHECK(m && m->sched->st.copies == 0);
  lied_system_free(m);
}

/* A model that is not n independent copies takes no fused steps. */
static void test_not_aligned(void) {
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  int root = lied_model_add(m, -1, "S", NULL, 1, 0, NULL, &e);
  lied_model_add(m, root, "g", &tl_ground_class, 1, 0, NULL, &e);
  lied_model_add(m, root, "j", &tl_slider_class, 1, 0, NULL, &e);
  lied_model_add(m, root, "b", &tl_mass_class, 1, 0, NULL, &e);
  CHECK(lied_model_connect(m, root, "g.flange_b", "j.flange_a", NULL, &e) == 0);
  CHECK(lied_model_connect(m, root, "j.flange_b", "b.flange_a", NULL, &e) == 0);
  lied_system *sys = fx_build(m, 0, &e);
  CHECK(sys != NULL);
  if (!sys) return;
  CHECK(!lied_fused_applies(sys->sched));
  lied_system_free(sys);
}

int main(void) {
  test_same_bits();
  test_singular_later_chunk();
  test_blocks_across_outputs();
  test_singular_in_block();
  test_nonfinite_in_block();
  test_solver_status();
  test_not_aligned();
  test_singular_mid_run();
  test_replicated_schedule();
  test_replicable_or_not();
  return CHECK_DONE();
}
