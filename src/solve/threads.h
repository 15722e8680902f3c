/* threads.h - internal to src/solve: the threads of a run (docs/parallel.md).
 * At a run's start: the number of threads (the option, else the environment
 * variable LIED_THREADS, else the cores available to the process), and,
 * when the model has something large enough to share (sched/par.h), a
 * thread pool attached to the schedule; at its end, both released. */
#ifndef LIED_SOLVE_THREADS_H
#define LIED_SOLVE_THREADS_H
#include "core/pool.h"
#include "solve/run.h"

/* The threads a run asks for: o->threads when set (>= 1), else
 * LIED_THREADS, else lied_pool_cores(). LIED_OK with *n set, or LIED_E_USAGE
 * for a bad value ("threads must be a whole number from 1 to 1024, got 0",
 * "LIED_THREADS must be ..."). */
int lied_threads_resolve(const lied_sim_opts *o, int *n, lied_err *e);

/* Start the run's threads (R->pool, attached to R->s) when more than one is
 * asked for and the model has work to share; otherwise nothing. LIED_OK,
 * LIED_E_USAGE (a bad count), LIED_E_NOMEM or LIED_ERROR with a message. */
int lied_threads_begin(lied_run *R);
/* Detach and end them (no-op without); the run's CPU time into R->st->cpu. */
void lied_threads_end(lied_run *R);

#endif
