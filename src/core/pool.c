/* pool.c - the thread pool of pool.h: POSIX threads, a generation counter
 * that announces a call, a count of ranges still running. Waiting spins
 * briefly (a call follows the previous one within microseconds during a
 * run), then sleeps on a condition variable. */
#define _GNU_SOURCE
#include "core/pool.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SPINS 500 /* polls before sleeping: 500 pauses, some 40 microseconds */

struct lied_pool {
  int n;
  pthread_t *th;        /* n - 1 threads: worker w is th[w - 1] */
  int started;          /* threads created */
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  atomic_ulong gen;     /* incremented for every call (and to quit) */
  atomic_int pending;   /* workers that have not finished the current call */
  int sleepers;         /* workers waiting on go (under mu) */
  int waiting;          /* the caller waits on done (under mu) */
  int quit;
  /* the current call, written before gen is incremented */
  lied_pool_fn fn;
  void *ctx;
  const uint64_t *bounds;
  int nranges;
  /* a call over grains (lied_pool_run_grains): the next grain's first item */
  int grains;
  uint64_t count, grain;
  atomic_ulong next;
};

typedef struct worker_arg {
  lied_pool *p;
  int w;
} worker_arg;

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Worker w runs grains until none is left. */
static void take_grains(lied_pool *p, int w) {
  for (;;) {
    const uint64_t a = atomic_fetch_add_explicit(&p->next, p->grain, memory_order_relaxed);
    if (a >= p->count) return;
    p->fn(p->ctx, w, a, p->count - a < p->grain ? p->count : a + p->grain);
  }
}

static void *worker(void *arg) {
  lied_pool *p = ((worker_arg *)arg)->p;
  const int w = ((worker_arg *)arg)->w;
  free(arg);
  /* no call was announced before the pool was complete: a thread that
   * starts late must still see the first one */
  unsigned long seen = 0;
  for (;;) {
    unsigned long g = seen;
    for (int i = 0; i < SPINS && (g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen;
         i++)
      relax();
    if (g == seen) {
      pthread_mutex_lock(&p->mu);
      p->sleepers++;
      while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen)
        pthread_cond_wait(&p->go, &p->mu);
      p->sleepers--;
      pthread_mutex_unlock(&p->mu);
    }
    seen = g;
    if (p->quit) return NULL;
    if (p->grains) take_grains(p, w);
    else if (w < p->nranges) p->fn(p->ctx, w, p->bounds[w], p->bounds[w + 1]);
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&p->mu);
      if (p->waiting) pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
}

/* Announce a call (or the end) to every worker. */
static void publish(lied_pool *p) {
  atomic_store_explicit(&p->pending, p->n - 1, memory_order_relaxed);
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
  if (p->sleepers) pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
}

static void wait_all(lied_pool *p) {
  for (int i = 0; i < SPINS; i++) {
    if (atomic_load_explicit(&p->pending, memory_order_acquire) == 0) return;
    relax();
  }
  pthread_mutex_lock(&p->mu);
  p->waiting = 1;
  while (atomic_load_explicit(&p->pending, memory_order_acquire) != 0)
    pthread_cond_wait(&p->done, &p->mu);
  p->waiting = 0;
  pthread_mutex_unlock(&p->mu);
}

int lied_pool_new(lied_pool **out, int n, lied_err *e) {
  *out = NULL;
  if (n < 1 || n > LIED_THREADS_MAX)
    return lied_errc(e, LIED_E_USAGE, "threads must be a whole number from 1 to %d, got %d",
                     LIED_THREADS_MAX, n);
  lied_pool *p = lied_xcalloc(1, sizeof *p, "thread pool", e);
  if (!p) return LIED_E_NOMEM;
  p->n = n;
  p->th = lied_xcalloc((size_t)n, sizeof *p->th, "thread pool", e);
  if (!p->th) {
    free(p);
    return LIED_E_NOMEM;
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
  atomic_init(&p->gen, 0);
  atomic_init(&p->pending, 0);
  atomic_init(&p->next, 0);
  for (int w = 1; w < n; w++) {
    worker_arg *a = lied_xmalloc(sizeof *a, "thread pool", e);
    if (!a) {
      lied_pool_free(p);
      return LIED_E_NOMEM;
    }
    *a = (worker_arg){p, w};
    int rc = pthread_create(&p->th[w - 1], NULL, worker, a);
    if (rc) {
      free(a);
      lied_pool_free(p);
      return lied_errc(e, LIED_ERROR, "thread pool: could not start thread %d of %d: %s", w + 1,
                       n, strerror(rc));
    }
    p->started = w;
  }
  *out = p;
  return LIED_OK;
}

void lied_pool_free(lied_pool *p) {
  if (!p) return;
  if (p->started) {
    /* the threads not started count as finished */
    p->quit = 1;
    publish(p);
    for (int w = 1; w <= p->started; w++) pthread_join(p->th[w - 1], NULL);
  }
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->go);
  pthread_mutex_destroy(&p->mu);
  free(p->th);
  free(p);
}

int lied_pool_size(const lied_pool *p) { return p ? p->n : 1; }

void lied_pool_run(lied_pool *p, const uint64_t *bounds, int nranges, lied_pool_fn fn,
                   void *ctx) {
  if (nranges < 1) return;
  if (!p || p->n == 1 || nranges == 1) {
    for (int r = 0; r < nranges; r++) fn(ctx, r, bounds[r], bounds[r + 1]);
    return;
  }
  p->fn = fn;
  p->ctx = ctx;
  p->bounds = bounds;
  p->nranges = nranges;
  p->grains = 0;
  publish(p);
  fn(ctx, 0, bounds[0], bounds[1]);
  wait_all(p);
}

void lied_pool_run_grains(lied_pool *p, uint64_t count, uint64_t grain, lied_pool_fn fn,
                          void *ctx) {
  if (grain < 1) grain = 1;
  if (!p || p->n == 1 || count <= grain) {
    for (uint64_t a = 0; a < count; a += grain) fn(ctx, 0, a, count - a < grain ? count : a + grain);
    return;
  }
  p->fn = fn;
  p->ctx = ctx;
  p->grains = 1;
  p->count = count;
  p->grain = grain;
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  publish(p);
  take_grains(p, 0);
  wait_all(p);
}

int lied_pool_split(uint64_t count, uint64_t grain, uint64_t min_items, int nmax,
                    uint64_t *bounds) {
  if (grain < 1) grain = 1;
  const uint64_t grains = (count + grain - 1) / grain;
  uint64_t r = nmax < 1 ? 1 : (uint64_t)nmax;
  if (min_items > 0 && count / min_items < r) r = count / min_items;
  if (r > grains) r = grains;
  if (r < 1) r = 1;
  for (uint64_t i = 0; i <= r; i++) {
    uint64_t b = grains * i / r * grain;
    bounds[i] = b < count ? b : count;
  }
  bounds[r] = count;
  return (int)r;
}

int lied_pool_cores(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n >= 1) return n > LIED_THREADS_MAX ? LIED_THREADS_MAX : n;
  }
  return 1;
}
