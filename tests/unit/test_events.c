/* test_events.c - the event machinery of src/solve/events.c with classes
 * written here: a time event between grid points (landed on, two rows,
 * exact integral), chattering, an event that does not settle, a next
 * function that does not advance, the meta declarations' errors, and the
 * periodic-time helpers. */
#include <float.h>
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "solve/sim.h"

/* ---- a switched integrator: der(x) = (t >= t0 ? 1 : 0), one time event ---- */
typedef struct sw {
  double x, der_x, t0, rate;
} sw;
static void sw_eval(const lied_env *env, sw *c) { c->der_x = env->t >= c->t0 ? c->rate : 0; }
LIED_BLOCK(sw_block, sw, sw_eval)
static double sw_next(const void *self, double t) {
  const sw *c = self;
  return t < c->t0 ? c->t0 : INFINITY;
}
static double stuck_next(const void *self, double t) {
  (void)self;
  return t; /* not after t: refused */
}
static void sw_meta(lied_meta *m, void *self) {
  sw *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "rate", sw_block, 0, LIED_SIGS(&lied_time, &c->t0, &c->rate),
                  LIED_SIGS(&c->der_x));
  lied_meta_time_events(m, sw_next);
}
static void stuck_meta(lied_meta *m, void *self) {
  sw *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "rate", sw_block, 0, LIED_SIGS(&lied_time, &c->t0, &c->rate),
                  LIED_SIGS(&c->der_x));
  lied_meta_time_events(m, stuck_next);
}
static const lied_param sw_params[] = {
    {"t0", offsetof(sw, t0), 0.35, "s", "switch", -HUGE_VAL, HUGE_VAL, 0, 0, NULL},
    {"rate", offsetof(sw, rate), 1, "1", "rate", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class sw_class = {"Switched", "test", "", sizeof(sw), sw_params, 2, NULL, sw_meta};
static const lied_class stuck_class = {"Stuck", "test", "", sizeof(sw), sw_params, 2, NULL,
                                       stuck_meta};

/* ---- a relay: der(x) = -s, s = sign(x) switched at x = 0 (chatters) ---- */
typedef struct relay {
  double x, der_x, s, z;
} relay;
static void relay_eval(const lied_env *env, relay *c) {
  (void)env;
  c->der_x = -c->s;
  c->z = c->x;
}
LIED_BLOCK(relay_block, relay, relay_eval)
static void relay_event(void *self, const lied_event *ev) {
  relay *c = self;
  if (ev->initial || ev->crossed) c->s = c->x > 0 ? 1 : -1;
}
static void relay_meta(lied_meta *m, void *self) {
  relay *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "b", relay_block, 0, LIED_SIGS(&c->x, &c->s), LIED_SIGS(&c->der_x, &c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH);
  lied_meta_event(m, relay_event);
}
static const lied_param relay_params[] = {
    {"x", offsetof(relay, x), 1, "1", "start", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class relay_class = {"Relay", "test", "", sizeof(relay), relay_params, 1, NULL,
                                       relay_meta};

/* ---- a flip-flop: each event toggles d, and z = d - 1/2 crosses again ---- */
typedef struct flip {
  double d, z, t0;
} flip;
static void flip_eval(const lied_env *env, flip *c) {
  (void)env;
  c->z = c->d - 0.5;
}
LIED_BLOCK(flip_block, flip, flip_eval)
static double flip_next(const void *self, double t) {
  const flip *c = self;
  return t < c->t0 ? c->t0 : INFINITY;
}
static void flip_event(void *self, const lied_event *ev) {
  flip *c = self;
  if (ev->initial)
    c->d = 0;
  else
    c->d = 1 - c->d;
}
static void flip_meta(lied_meta *m, void *self) {
  flip *c = self;
  lied_meta_block(m, "b", flip_block, 0, LIED_SIGS(&c->d), LIED_SIGS(&c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH);
  lied_meta_time_events(m, flip_next);
  lied_meta_event(m, flip_event);
}
static const lied_param flip_params[] = {
    {"t0", offsetof(flip, t0), 0.5, "s", "first flip", -HUGE_VAL, HUGE_VAL, 0, 0, NULL}};
static const lied_class flip_class = {"Flip", "test", "", sizeof(flip), flip_params, 1, NULL,
                                      flip_meta};

/* ---- a section singular from t = 0.5 on: r = c(t) a - 1, der(x) = a ---- */
typedef struct sing {
  double x, der_x, a, r;
} sing;
static void sing_res(const lied_env *env, sing *c) { c->r = (env->t < 0.5 ? 1.0 : 0.0) * c->a - 1; }
static void sing_der(const lied_env *env, sing *c) {
  (void)env;
  c->der_x = c->a;
}
LIED_BLOCK(sing_res_block, sing, sing_res)
LIED_BLOCK(sing_der_block, sing, sing_der)
static void sing_meta(lied_meta *m, void *self) {
  sing *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_tear(m, "a", &c->a, "r", &c->r);
  lied_meta_block(m, "res", sing_res_block, 0, LIED_SIGS(&c->a, &lied_time), LIED_SIGS(&c->r));
  lied_meta_block(m, "der", sing_der_block, 0, LIED_SIGS(&c->a), LIED_SIGS(&c->der_x));
}
static const lied_class sing_class = {"Sing", "test", "", sizeof(sing), NULL, 0, NULL, sing_meta};

/* ---- a kink: der(x) = |1 - t|, x = t - t^2/2 up to t = 1, then
 * 1/2 + (t - 1)^2/2; z = 1 - t (LIED_ZC_KINK, no handler) ---- */
typedef struct kink {
  double x, der_x, z;
} kink;
static void kink_eval(const lied_env *env, kink *c) {
  c->z = 1 - env->t;
  c->der_x = fabs(c->z);
}
LIED_BLOCK(kink_block, kink, kink_eval)
static void kink_meta(lied_meta *m, void *self) {
  kink *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "b", kink_block, 0, LIED_SIGS(&lied_time), LIED_SIGS(&c->der_x, &c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH | LIED_ZC_KINK);
}
static const lied_class kink_class = {"Kink", "test", "", sizeof(kink), NULL, 0, NULL, kink_meta};

/* ---- classes whose meta is wrong ---- */
static void no_block_meta(lied_meta *m, void *self) {
  relay *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "b", relay_block, 0, LIED_SIGS(&c->x), LIED_SIGS(&c->der_x));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH); /* z is written by no block */
  lied_meta_event(m, relay_event);
}
static void no_handler_meta(lied_meta *m, void *self) {
  relay *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "b", relay_block, 0, LIED_SIGS(&c->x, &c->s), LIED_SIGS(&c->der_x, &c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_UP);
}
static void bad_dir_meta(lied_meta *m, void *self) {
  relay *c = self;
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_block(m, "b", relay_block, 0, LIED_SIGS(&c->x, &c->s), LIED_SIGS(&c->der_x, &c->z));
  lied_meta_zero(m, "z", &c->z, 7);
  lied_meta_event(m, relay_event);
}
static const lied_class no_block_class = {"NoBlock", "test", "", sizeof(relay), relay_params, 1,
                                          NULL, no_block_meta};
static const lied_class no_handler_class = {"NoHandler", "test", "", sizeof(relay), relay_params,
                                            1, NULL, no_handler_meta};
static const lied_class bad_dir_class = {"BadDir", "test", "", sizeof(relay), relay_params, 1,
                                         NULL, bad_dir_meta};

/* ---- helpers ---- */

static lied_system *one(const lied_class *cls, const char *name, lied_err *e) {
  lied_model *m = lied_model_new(e);
  if (!m) return NULL;
  int root = lied_model_add(m, -1, "M", NULL, 1, 0, NULL, e);
  lied_model_add(m, root, name, cls, 1, 0, NULL, e);
  return fx_build(m, 0, e);
}

/* An output that keeps the row times. */
typedef struct rows {
  double t[4096];
  int n;
} rows;
static int rows_begin(void *ctx, lied_err *e) {
  (void)e;
  ((rows *)ctx)->n = 0;
  return 0;
}
static int rows_row(void *ctx, double t, lied_err *e) {
  (void)e;
  rows *r = ctx;
  if (r->n < 4096) r->t[r->n++] = t;
  return 0;
}
static int rows_end(void *ctx, lied_err *e) {
  (void)ctx, (void)e;
  return 0;
}

static int run(lied_system *sys, const char *solver, double dt, double stop, rows *r,
               lied_sim_stats *st, lied_err *e) {
  lied_sim_opts o = {0};
  o.stop = stop;
  o.dt = dt;
  o.interval = 0.1;
  o.solver = solver;
  o.rtol = o.atol = 1e-10;
  lied_output out = {rows_begin, rows_row, rows_end, r};
  return lied_simulate(sys->sched, &o, r ? &out : NULL, NULL, st, e);
}

static int count(const rows *r, double t) {
  int k = 0;
  for (int i = 0; i < r->n; i++) k += r->t[i] == t;
  return k;
}

/* ---- tests ---- */

/* rk4 at dt = 0.1 with the switch at 0.35: the step across it is cut
 * there, so x(1) = 0.65 to rounding (before time events the stages
 * straddled the switch: an error of order dt). */
static void test_time_event_fixed_and_adaptive(void) {
  const char *solvers[] = {"rk4", "euler", "dopri45", "esdirk23", "beuler"};
  for (int i = 0; i < 5; i++) {
    lied_err e = {0};
    lied_system *sys = one(&sw_class, "s", &e);
    CHECK(sys != NULL);
    if (!sys) return;
    static rows r;
    lied_sim_stats st;
    CHECK(run(sys, solvers[i], 0.1, 1, &r, &st, &e) == LIED_OK);
    const double *x = lied_model_var(sys->model, "s.x", NULL, &e);
    CHECK(x != NULL);
    if (x) CHECK_NEAR(*x, 0.65, 1e-12);
    CHECK(count(&r, 0.35) == 2); /* before and after */
    CHECK(count(&r, 0.4) == 1);  /* the grid's output points stay */
    lied_system_free(sys);
  }
}

static void test_chattering(void) {
  const char *solvers[] = {"rk4", "dopri45"};
  for (int i = 0; i < 2; i++) {
    lied_err e = {0};
    lied_system *sys = one(&relay_class, "relay", &e);
    CHECK(sys != NULL);
    if (!sys) return;
    lied_sim_stats st;
    CHECK(run(sys, solvers[i], 0.01, 2, NULL, &st, &e) == LIED_E_SOLVER);
    CHECK(strstr(e.msg, "chattering: relay triggered") != NULL);
    CHECK(strstr(e.msg, "give it hysteresis or a delay") != NULL); /* a state event's hint */
    CHECK(strstr(e.msg, "at t = 1") != NULL || strstr(e.msg, "at t = 0.99999") != NULL);
    if (i == 0) fprintf(stderr, "  (%s)\n", e.msg);
    lied_system_free(sys);
  }
}

static void test_not_settling(void) {
  lied_err e = {0};
  lied_system *sys = one(&flip_class, "ff", &e);
  CHECK(sys != NULL);
  if (!sys) return;
  lied_sim_stats st;
  CHECK(run(sys, "rk4", 0.1, 1, NULL, &st, &e) == LIED_E_SOLVER);
  CHECK(strstr(e.msg, "at t = 0.5: the event does not settle: ff still switches after 16 rounds") !=
        NULL);
  lied_system_free(sys);
}

static void test_stuck_next(void) {
  lied_err e = {0};
  lied_system *sys = one(&stuck_class, "st", &e);
  CHECK(sys != NULL);
  if (!sys) return;
  lied_sim_stats st;
  CHECK(run(sys, "rk4", 0.1, 1, NULL, &st, &e) == LIED_E_MODEL);
  CHECK(strstr(e.msg, "at t = 0: st (Stuck): its next time event 0 is not after the current "
                      "time") != NULL);
  lied_system_free(sys);
}

/* A trial step that meets a singular section is rejected and retried
 * smaller; only at the smallest step is it an error, naming the section and
 * the time. */
static void test_singular_trial_steps(void) {
  const char *solvers[] = {"dopri45", "esdirk23"};
  for (int i = 0; i < 2; i++) {
    lied_err e = {0};
    lied_system *sys = one(&sing_class, "sg", &e);
    CHECK(sys != NULL);
    if (!sys) return;
    lied_sim_stats st;
    CHECK(run(sys, solvers[i], 0, 1, NULL, &st, &e) == LIED_E_SOLVER);
    CHECK(strstr(e.msg, "step size underflow") != NULL);
    CHECK(strstr(e.msg, "every trial step fails: at t = 0.5") != NULL);
    CHECK(strstr(e.msg, "singular linear section (pivot 1 of 1); tearing variables: sg.a") != NULL);
    CHECK(st.t_end < 0.5 && st.t_end > 0.5 - 1e-9);
    if (i == 0) fprintf(stderr, "  (%s)\n", e.msg);
    lied_system_free(sys);
  }
}

/* A kink needs no handler; the adaptive solvers locate it (a step ends at
 * t = 1, no rows there) and integrate through it to the closed form, the
 * fixed-step ones step across it (no kink counted). */
static void test_kink(void) {
  const char *solvers[] = {"dopri45", "esdirk23", "rk4"};
  for (int i = 0; i < 3; i++) {
    lied_err e = {0};
    lied_system *sys = one(&kink_class, "k", &e);
    CHECK(sys != NULL);
    if (!sys) return;
    lied_sim_stats st;
    rows r;
    CHECK(run(sys, solvers[i], 0.1, 2, &r, &st, &e) == LIED_OK);
    CHECK(st.kinks == (i < 2) && st.events == 0);
    CHECK(count(&r, 1.0) == 1); /* the output point, no second row */
    lied_sched_evaluate(sys->sched, 2, NULL, NULL, 1, &e);
    const kink *c = (const kink *)(const void *)lied_inst(&sys->model->specs[1], 0);
    CHECK(fabs(c->x - 1) < (i < 2 ? 1e-9 : 1e-3)); /* x(2) = 1/2 + 1/2 */
    lied_system_free(sys);
  }
}

static void test_meta_errors(void) {
  struct {
    const lied_class *cls;
    const char *msg;
  } cases[] = {
      {&no_block_class, "zero-crossing function z is not an output of a block of the component"},
      {&no_handler_class, "zero-crossing function z declared without an event handler"},
      {&bad_dir_class, "zero-crossing function z: direction must be LIED_ZC_BOTH, UP or DOWN"},
  };
  for (int i = 0; i < 3; i++) {
    lied_err e = {0};
    lied_model *m = lied_model_new(&e);
    int root = lied_model_add(m, -1, "M", NULL, 1, 0, NULL, &e);
    lied_model_add(m, root, "c", cases[i].cls, 1, 0, NULL, &e);
    lied_system *sys = lied_system_new(m, &e);
    lied_build_opts o = {0};
    CHECK(sys && lied_system_build(sys, &o, &e) == LIED_E_MODEL);
    CHECK(strstr(e.msg, cases[i].msg) != NULL);
    if (!strstr(e.msg, cases[i].msg)) fprintf(stderr, "got: %s\n", e.msg);
    lied_system_free(sys);
  }
}

/* lied_periodic_next and lied_periodic_index agree to the last bit: the
 * next time is after t, its index one more, the time just below it has
 * t's index. */
static void test_periodic(void) {
  unsigned long long s = 88172645463325252ull;
  int bad = 0;
  for (int i = 0; i < 200000; i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    double t0 = (double)(s % 2000) / 7.0 - 100.0;
    double period = 0.001 + (double)((s >> 20) % 100000) / 997.0;
    double t = t0 + (double)((s >> 40) % 100000) / 13.0 * period / 100.0;
    double k = lied_periodic_index(t, t0, period);
    double next = lied_periodic_next(t, t0, period);
    if (!(next > t)) bad++;
    if (lied_periodic_index(next, t0, period) != k + 1) bad++;
    if (lied_periodic_index(nextafter(next, -INFINITY), t0, period) != k) bad++;
    if (k >= 0 && !(t0 + k * period <= t)) bad++;
  }
  CHECK(bad == 0);
  CHECK(lied_periodic_index(-1, 0, 1) == -1);
  CHECK(lied_periodic_next(-1, 0, 1) == 0);
  CHECK(lied_periodic_next(0, 0, 0.1) == 0.1);
  CHECK(lied_periodic_index(0.3, 0, 0.1) == (0.1 + 0.1 + 0.1 <= 0.3 ? 3 : 2));
  CHECK(lied_periodic_next(1, 0, 0) == INFINITY);
  /* periods far below the resolution at t, huge and non-finite times: an
   * answer, at once (the fuzzer found an endless loop here); below the
   * resolution the answer is t itself, which the solver reports (INFINITY
   * stopped the events silently: a sampler of period 0.1 run from 1e16
   * never sampled) */
  const double big[][4] = {{1e300, 0, 1e-300, 1e300}, {1e17, 0, 1e-3, 1e17},
                           {4.5e15, -3, 0.1, 4.5e15}, {1e308, -1e308, 1e-320, 1e308},
                           {INFINITY, 0, 1, INFINITY}, {1, 0, INFINITY, INFINITY},
                           {NAN, 0, 1, INFINITY}, {1, 0, NAN, INFINITY}};
  for (int i = 0; i < 8; i++) {
    double k = lied_periodic_index(big[i][0], big[i][1], big[i][2]);
    double nx = lied_periodic_next(big[i][0], big[i][1], big[i][2]);
    CHECK(k == k && (k >= -1)); /* a number, not NaN */
    CHECK(nx == big[i][3]);
  }
}

int main(void) {
  test_time_event_fixed_and_adaptive();
  test_chattering();
  test_not_settling();
  test_stuck_next();
  test_singular_trial_steps();
  test_meta_errors();
  test_kink();
  test_periodic();
  return CHECK_DONE();
}
