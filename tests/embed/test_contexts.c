/* test_contexts.c - contexts of the embedding API on several threads at once
 * (lied/lied.h: contexts are independent). The threads start together, so
 * their first calls race for what the process shares: the solver list
 * (built once, src/solve/solvers.c), the registry of component libraries
 * (a plugin, the test library, loads while other threads read it;
 * src/core/library.c). Each runs the model with its own solver and must get
 * the bits a context on the main thread gets alone, afterwards. Built with
 * -fsanitize=thread (docs/robustness.md), ThreadSanitizer reports any race. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "lied/lied.h"

enum { NTHREADS = 4 };

static const char *model =
    "local lied = require 'lied'\n"
    "local tl = require 'lied.testlib'\n"
    "local S = require 'lied.signals'\n"
    "return lied.model 'Lag' {\n"
    "  src = tl.Constant { k = 2 },\n"
    "  lag = S.FirstOrder { T = 0.5, x = 1 },\n"
    "  connect = { { 'src.y', 'lag.u' } },\n"
    "  experiment = { stop = 1, dt = 1e-2 },\n"
    "}\n";

/* one solver per thread: fixed-step explicit, adaptive explicit, implicit */
static const char *const solvers[NTHREADS] = {"rk4", "dopri45", "esdirk23", "heun"};

typedef struct job {
  const char *solver;
  double x;      /* lag.x at the end */
  size_t rows;   /* rows recorded */
  char msg[256]; /* the failure, or "" */
} job;

static pthread_barrier_t start;

/* Open a context, run the model with j->solver, keep the last lag.x. */
static void run(job *j) {
  lied_ctx *c = NULL;
  const double *x = NULL;
  j->msg[0] = 0;
  j->rows = 0;
  if (lied_open(&c) || lied_load_string(c, model, "lag") || lied_option(c, "solver", j->solver) ||
      lied_run(c) || lied_result(c, "lag.x", &x, &j->rows))
    snprintf(j->msg, sizeof j->msg, "%s: %s", j->solver, c ? lied_errmsg(c) : "no context");
  else if (j->rows == 0)
    snprintf(j->msg, sizeof j->msg, "%s: no rows", j->solver);
  else
    j->x = x[j->rows - 1];
  lied_close(c);
}

static void *thread_main(void *arg) {
  pthread_barrier_wait(&start);
  run(arg);
  return NULL;
}

int main(void) {
  job jobs[NTHREADS];
  pthread_t th[NTHREADS];
  int failed = 0;
  pthread_barrier_init(&start, NULL, NTHREADS);
  for (int i = 0; i < NTHREADS; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].solver = solvers[i];
    if (pthread_create(&th[i], NULL, thread_main, &jobs[i]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }
  for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&start);
  /* the same runs, one after another on this thread: the same bits */
  for (int i = 0; i < NTHREADS; i++) {
    job alone = {.solver = solvers[i]};
    run(&alone);
    if (jobs[i].msg[0] || alone.msg[0]) {
      fprintf(stderr, "FAILED: %s%s\n", jobs[i].msg, alone.msg);
      failed++;
    } else if (jobs[i].rows != alone.rows || memcmp(&jobs[i].x, &alone.x, sizeof alone.x) != 0) {
      fprintf(stderr, "FAILED: %s on a thread: %zu rows, lag.x %.17g; alone: %zu rows, %.17g\n",
              solvers[i], jobs[i].rows, jobs[i].x, alone.rows, alone.x);
      failed++;
    } else if (!(fabs(alone.x - (2 - exp(-2))) < 1e-3)) { /* x = 2 - (2 - 1) e^(-t/T) */
      fprintf(stderr, "FAILED: %s: lag.x(1) = %.17g, not 2 - e^-2\n", solvers[i], alone.x);
      failed++;
    }
  }
  printf("contexts on %d threads: %d of %d runs differ or fail\n", NTHREADS, failed, NTHREADS);
  return failed != 0;
}
