/* fused.h - internal to src/solve: fixed-step explicit Runge-Kutta fused
 * with an aligned schedule ("fused steps"). When the model is n independent
 * copies of one structure (sched.h: aligned), the derivatives of copy q
 * depend on the states of copy q only, so steps can be taken chunk by chunk
 * of copies: every stage of every step of a block of steps runs for one
 * chunk while its instance data is in cache, then the next chunk, instead of
 * streaming every instance through memory once per stage (temporal
 * blocking). The arithmetic is that of lied_erk_step (same lied_rk_combine,
 * same stage times), so the results are the same bits. */
#ifndef LIED_SOLVE_FUSED_H
#define LIED_SOLVE_FUSED_H
#include <signal.h>
#include <stdint.h>
#include "sched/lanes.h"
#include "sched/sched.h"
#include "solve/butcher.h"

/* The work space of one worker (one per thread of the run, sched/par.h;
 * one without threads): its chunks of copies go through it. */
typedef struct lied_fused_ws {
  lied_sched *s;  /* the schedule, or the worker's view of it (par.h) */
  double *k;      /* stages x width x chunk: stage derivatives of one chunk */
  double *y;      /* width x chunk: a stage's states of one state map, then
                     the chunk's new state */
  double *cur;    /* width x chunk: the chunk's state during a block */
  lied_lanes lanes; /* lane groups of the worker's chunk (when f->lane) */
} lied_fused_ws;

typedef struct lied_fused {
  lied_sched *s;
  const lied_tableau *tab;
  uint64_t n;     /* states */
  size_t width;   /* states per copy (over every state map) */
  double *xnew;   /* n: the new state, copied to x when every chunk succeeded */
  double cut, left; /* stage times >= cut are evaluated at left (a time
                       event's left limit, solve/events.h); INFINITY: none */
  int lane;       /* the chunks run in lane form (sched/lanes.h) */
  lied_fused_ws *ws; /* nws work spaces: one per worker */
  int nws;
  char no_lanes[200]; /* why not, when lanes were asked for and not used */
  /* the current block (lied_fused_steps), for the workers */
  const double *times, *x;
  int nsteps, check, block_lanes;
  volatile sig_atomic_t *stop;
} lied_fused;

/* Whether a schedule can take fused steps: aligned, with states. */
int lied_fused_applies(const lied_sched *s);

/* Work space for an explicit table (n = the schedule's states), for every
 * worker of the threads attached to s (sched/par.h: each takes a range of
 * chunks of copies; none: one); with `lanes`, the lane form of the model
 * when it has one (else f->no_lanes says why). Threads attached later are
 * not used; threads attached before must stay attached until
 * lied_fused_free (the work spaces use their views). Returns LIED_OK,
 * LIED_E_USAGE for a table that is not explicit, or LIED_E_NOMEM (f is
 * then safe to free). */
int lied_fused_init(lied_fused *f, lied_sched *s, const lied_tableau *tab, int lanes,
                    lied_err *e);
void lied_fused_free(lied_fused *f);

/* Steps from times[0] to times[nsteps], step j from times[j] to
 * times[j + 1] (the fixed-step loop's times, so the bits are those of single
 * steps), each chunk of copies through all of them before the next: x
 * becomes the state at times[nsteps]. With threads (sched/par.h), ranges of
 * chunks run concurrently; a failure is the one of the lowest chunk that
 * failed, as on one thread. `stop`, when not NULL, is polled once
 * per step and chunk. Counts the evaluations in the schedule's statistics.
 * Allocates nothing. Returns LIED_OK; LIED_RETRY when stopped; a negative
 * status with a message when the model fails (a singular section) or, in
 * blocks of more than one step, a state is not finite after a step
 * (LIED_E_NONFINITE). x is unchanged unless LIED_OK is returned (the
 * fixed-step driver takes a failed block again one step at a time, for the
 * exact time and state of the failure; single steps do not check the state,
 * the driver does). */
int lied_fused_steps(lied_fused *f, const double *times, int nsteps, double *x,
                     volatile sig_atomic_t *stop, lied_err *e);

#endif
