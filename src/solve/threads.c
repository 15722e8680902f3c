/* threads.c - the threads of a run: how many, and the pool (threads.h). */
#include "solve/threads.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include "core/assert.h"
#include "sched/par.h"

int lied_threads_resolve(const lied_sim_opts *o, int *n, lied_err *e) {
  if (o->threads != 0) {
    if (o->threads < 1 || o->threads > LIED_THREADS_MAX)
      return lied_errc(e, LIED_E_USAGE, "threads must be a whole number from 1 to %d, got %d",
                       LIED_THREADS_MAX, o->threads);
    *n = o->threads;
    return LIED_OK;
  }
  const char *env = getenv("LIED_THREADS");
  if (env && *env) {
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    if (errno || *end || !isdigit((unsigned char)*env) || v < 1 || v > LIED_THREADS_MAX)
      return lied_errc(e, LIED_E_USAGE,
                       "LIED_THREADS must be a whole number from 1 to %d, got '%.64s'",
                       LIED_THREADS_MAX, env);
    *n = (int)v;
    return LIED_OK;
  }
  *n = lied_pool_cores();
  return LIED_OK;
}

static double cpu_now(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int lied_threads_begin(lied_run *R) {
  R->cpu0 = cpu_now();
  int n = 1;
  LIED_TRY(lied_threads_resolve(R->o, &n, R->e));
  R->st->threads = 1, R->st->threads_asked = n;
  if (n < 2 || (!R->o->par_force && !lied_sched_par_useful(R->s))) return LIED_OK;
  LIED_TRY(lied_pool_new(&R->pool, n, R->e));
  int rc = lied_sched_par_attach(R->s, R->pool, R->e);
  if (rc) {
    lied_pool_free(R->pool);
    R->pool = NULL;
    return rc;
  }
  LIED_ASSERT(R->s->par && R->s->par->nw == n);
  R->s->par->force = R->o->par_force;
  R->st->threads = n;
  return LIED_OK;
}

void lied_threads_end(lied_run *R) {
  R->st->cpu = cpu_now() - R->cpu0;
  if (!R->pool) return;
  lied_sched_par_detach(R->s);
  lied_pool_free(R->pool);
  R->pool = NULL;
}
