/* par.h - evaluating a schedule on several threads (docs/parallel.md).
 *
 * A run that has a thread pool (core/pool.h) attaches it to the schedule:
 * every worker gets a *view*, a copy of the schedule (lied_sched) with its
 * own probe work space, so the code that runs steps and sections for one
 * chunk of instances (eval.c, probe.c, lanes.c) runs unchanged on any
 * thread. The views share the steps, sections and instances; workers touch
 * disjoint instances (the chunks of independent copies, or the instances of
 * one step, which are independent: a step is one block over instances of one
 * level of the schedule). Counters of the views (factorisations) are added
 * to the schedule's after each call. A failure is reported as the serial
 * evaluation reports it: ranges are contiguous and increasing and each stops
 * at its first failure, so the failure of the lowest failing range is the
 * one with the lowest chunk index. */
#ifndef LIED_SCHED_PAR_H
#define LIED_SCHED_PAR_H
#include <stdint.h>
#include "core/pool.h"
#include "sched/sched.h"

/* Below this many instances per worker, one thread runs (dispatching costs
 * a few microseconds; 1024 crane crabs take about 40 microseconds per
 * evaluation). Measured in bench/parallel. */
#define LIED_PAR_GRAIN 1024

/* Coupled arrays in waves (solve/wave.c) share a sweep's steps between the
 * workers, not its chunks: from this many coordinates (crabs of a chain) on,
 * a run takes its threads (calibrated against one thread all the same).
 * Measured on the crab chain, 2 threads against 1: 0.9x at 128 to 512 crabs,
 * 1.1 to 1.4x at 1,024, 1.17x at 1,536. */
#define LIED_PAR_WAVE_MIN 1024

typedef struct lied_sched_par lied_sched_par;

/* Evaluations one at a time (lied_sched_evaluate, not fused blocks) pay a
 * dispatch and a wake-up per call, which costs more than it saves when an
 * evaluation is short (tens of microseconds; a sleeping worker takes that
 * long to wake on a virtual machine). The first LIED_PAR_WARM evaluations of
 * a run take one thread (first touches of memory), the next 2
 * LIED_PAR_CALIB alternate between the pool and one thread, timed; the
 * faster mode is kept for the rest of the run (lied_sched_par_calibrate).
 * Results are the same bits either way. */
#define LIED_PAR_WARM 2
#define LIED_PAR_CALIB 8

struct lied_sched_par {
  lied_pool *pool;
  int nw;             /* workers */
  int force;          /* share whatever the size (lied_sim_opts.par_force): the
                         least range is one chunk, no calibration */
  int off;            /* 1: evaluations take one thread (calibrated, or calibrating) */
  int ncal;           /* evaluations measured so far */
  double tcal[2];     /* their time: [0] one thread, [1] the pool */
  lied_sched *view;   /* nw views */
  lied_err *err;      /* nw */
  int *rc;            /* nw */
  uint64_t *at;       /* nw: where its failure is (range or grain start) */
  uint64_t *fault_at; /* nw: where its view's block fault was recorded */
  uint64_t *bounds;   /* nw + 1 */
};

/* The work of one range on one worker: instances (or chunks, as the caller
 * splits) [q0, q1) with the worker's view v. LIED_OK or a negative status
 * with a message in e. */
typedef int (*lied_par_fn)(lied_sched *v, void *ctx, int r, uint64_t q0, uint64_t q1,
                           lied_err *e);

/* Attach pool (its size is the number of workers; not owned) to s: views
 * and their work space. LIED_OK or LIED_E_NOMEM. */
int lied_sched_par_attach(lied_sched *s, lied_pool *pool, lied_err *e);
/* Detach and free the views; s runs on one thread again. */
void lied_sched_par_detach(lied_sched *s);

/* Whether s has something large enough to share between threads: a step,
 * section batch or aligned evaluation of at least 2 LIED_PAR_GRAIN
 * instances. */
int lied_sched_par_useful(const lied_sched *s);

/* The ranges [0, count) splits into for s's workers (whole chunks of
 * s->chunk instances, at least LIED_PAR_GRAIN instances each): their number
 * (1: run it on this thread), bounds in s->par->bounds. 1 without a pool. */
int lied_sched_par_split(lied_sched *s, uint64_t count);
/* The same, whatever the calibration of single evaluations says: for blocks
 * of fused steps, one dispatch per block of up to 64 steps. */
int lied_sched_par_split_blocks(lied_sched *s, uint64_t count);

/* Around one evaluation of lied_sched_evaluate: begin sets the mode the
 * evaluation takes and returns the time (0 once calibrated); end adds the
 * evaluation's time to its mode and decides after the last one. */
double lied_sched_par_cal_begin(lied_sched *s);
void lied_sched_par_cal_end(lied_sched *s, double t0);

/* Run fn over the nr ranges of s->par->bounds, range r on worker r with
 * view r, concurrently. Returns LIED_OK, or the status of the lowest range
 * that did not return LIED_OK (a failure's message copied into e; a
 * positive status, such as LIED_RETRY, as it is). */
int lied_sched_par_run(lied_sched *s, int nr, lied_par_fn fn, void *ctx, lied_err *e);

/* Chunks of independent copies go to whichever worker is free, in grains of
 * whole chunks, about LIED_PAR_GRAINS per worker (at least 8 chunks): on a
 * machine whose cores other programs share, a worker slowed down takes
 * fewer, where fixed halves wait for the slower one (bench/README.md,
 * "Threads": 2 threads at 262,144 crabs, 1.52x with halves, 1.87x in
 * grains). */
#define LIED_PAR_GRAINS 32

/* Run fn over [0, count) (instances, whole chunks of s->chunk) in grains
 * (lied_pool_run_grains) on every worker, each with its view; fn's result
 * for a grain must not depend on the worker.
 * A worker that fails skips its later grains; the status returned is the
 * lowest failing grain's (as one thread, running them in order, would stop
 * at it), the block fault the lowest grain's. */
int lied_sched_par_run_grains(lied_sched *s, uint64_t count, lied_par_fn fn, void *ctx,
                              lied_err *e);

#endif
