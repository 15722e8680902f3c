/* pool.h - a small pool of threads that runs one function over a list of
 * ranges, range r on worker r (the caller is worker 0), or over grains handed
 * to whichever worker is free, and returns when all are done. With ranges
 * the assignment is fixed; with grains only the work space a grain uses
 * depends on timing, not what it computes. The caller combines the results
 * (errors: the lowest range or grain that failed) in item order. Created
 * once (a run's start), reused for every call: a call allocates nothing.
 * docs/parallel.md says why a pthread pool and not OpenMP. */
#ifndef LIED_CORE_POOL_H
#define LIED_CORE_POOL_H
#include <stdint.h>
#include "core/err.h"

#define LIED_THREADS_MAX 1024 /* the most threads --threads accepts */

typedef struct lied_pool lied_pool;

/* The work of range `r` of a call: items [begin, end). */
typedef void (*lied_pool_fn)(void *ctx, int r, uint64_t begin, uint64_t end);

/* A pool of n workers (1 <= n <= LIED_THREADS_MAX): n - 1 threads besides
 * the caller. LIED_OK, LIED_E_USAGE for a bad n, LIED_E_NOMEM or LIED_ERROR
 * (a thread could not be created) with a message. */
int lied_pool_new(lied_pool **out, int n, lied_err *e);
/* Ends the threads (after the call in progress, if any) and frees p; NULL
 * is a no-op. */
void lied_pool_free(lied_pool *p);
int lied_pool_size(const lied_pool *p);

/* Run fn over ranges r = 0 .. nranges - 1 (nranges <= the pool's size),
 * range r being [bounds[r], bounds[r + 1]), on worker r, concurrently; the
 * caller runs range 0. Returns when every range is done (all writes of the
 * workers are then visible to the caller). Not reentrant: one call at a
 * time, and fn must not call the pool. */
void lied_pool_run(lied_pool *p, const uint64_t *bounds, int nranges, lied_pool_fn fn,
                   void *ctx);

/* Run fn over [0, count) in grains of `grain` items ([a, a + grain), the
 * last one shorter), handed out in increasing order to whichever worker is
 * free (the caller is worker 0): a worker slowed by the machine takes fewer.
 * Each worker takes its grains in increasing order; which worker runs a
 * grain depends on timing, so fn's result for a grain must not depend on
 * the worker (work space only). Returns when every grain is done. */
void lied_pool_run_grains(lied_pool *p, uint64_t count, uint64_t grain, lied_pool_fn fn,
                          void *ctx);

/* Split [0, count) into at most nmax ranges of whole grains (multiples of
 * `grain` items; the last range ends at count), with at least min_items
 * items each, as evenly as whole grains allow: bounds[0 .. r] for the r
 * ranges returned (>= 1; 1 means "too small to share"). */
int lied_pool_split(uint64_t count, uint64_t grain, uint64_t min_items, int nmax,
                    uint64_t *bounds);

/* The number of cores this process may run on (sched_getaffinity), >= 1. */
int lied_pool_cores(void);

#endif
