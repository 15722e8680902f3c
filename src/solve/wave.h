/* wave.h - internal to src/solve: fixed-step explicit Runge-Kutta over a
 * skewed schedule ("waves"). A model of coupled arrays (sched.h: skewed)
 * evaluates chunk by chunk with each step lagging behind the chunk
 * (sched/skew.c); one evaluation keeps a chunk's data in cache across its
 * steps, but a Runge-Kutta step of s stages would still stream every
 * instance through memory s times. Waves take every stage of a block of
 * steps in one sweep over the chunks: stage g + 1 runs skew_stage instances
 * behind stage g (far enough that g has finished with what g + 1
 * overwrites, and that g's derivatives of the states g + 1 moves in are
 * complete), states go into the instances and derivatives come out chunk by
 * chunk with the stage sums of lied_erk_step at each chunk. The same
 * arithmetic on the same values in another order: the same bits as the
 * whole-vector stepper (tests/unit/test_skew.c). With threads, the stages
 * of a sweep are cut into one contiguous block per worker (wave.c: its
 * length in proportion to the worker's measured rate), so that
 * each chunk's instance data moves between cores once per sweep, not once
 * per stage (docs/parallel.md, "Waves on threads"). */
#ifndef LIED_SOLVE_WAVE_H
#define LIED_SOLVE_WAVE_H
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include "sched/lanering.h"
#include "sched/sched.h"
#include "solve/butcher.h"

/* About what the instance data of the stages in flight may span: the
 * second-level cache of the development machine (bench/README.md, "Waves"). */
#ifndef LIED_WAVE_BYTES /* (-DLIED_WAVE_BYTES=... to measure others) */
#define LIED_WAVE_BYTES (1u << 20)
#endif

/* With threads, the first sweeps of a run are timed on one thread and on the
 * pool in turn and the faster is kept: LIED_WAVE_WARM on one thread (first
 * touches), then LIED_WAVE_CALIB on each. A sweep over every instance takes
 * much longer than one evaluation (a second at 262,144 crabs), so fewer are
 * timed than for single evaluations (sched/par.h). */
#define LIED_WAVE_WARM 1
#define LIED_WAVE_CALIB 2
/* From this many coordinates on, sweeps take the pool without timing: its
 * gain there is large (1.8x at 262,144 crabs), timing costs whole sweeps on
 * one thread (a run of 256 steps over 1,048,576 crabs spent 21 of them so),
 * sweeps of a step each were tried and time the pool badly (each worker
 * loads and stores every lane group per step: 1.3x), and the measured split
 * (wave_split) gives a core the host slows fewer steps anyway. */
#define LIED_WAVE_TRUST 16384

typedef struct lied_wave {
  lied_sched *s;
  const lied_tableau *tab;
  uint64_t n;      /* states */
  /* Stage derivatives, per worker a ring per stage: instance q of state map
   * m at ring + rbase[m] + (q mod rlen[m]) x (its states per instance), the
   * stages kstride apart. A stage's derivatives live from its chunk until
   * the step's last stage has passed it: within the stages in flight of one
   * worker (most steps), so rlen covers those (or the whole map). */
  double *k;       /* nw x stages x kstride */
  size_t kstride;
  size_t *rbase;   /* per state map */
  uint64_t *rlen;  /* per state map: instances in its ring */
  double *xnew;    /* n: the block's state, copied to x when it succeeded */
  double *y;       /* per worker, ylen: one chunk of one state map's stage
                      states or new states */
  size_t ylen;
  int nw;          /* workers the sweeps may take (1: this thread) */
  _Atomic int64_t *done; /* threads: per stage of the sweep, the chunk after
                            the last it finished */
  atomic_int quit; /* threads: a worker failed or was stopped */
  int ncal;        /* threads: sweeps timed so far (wave.c: calibration) */
  double tcal[2];  /* ... their time per stage: [0] one thread, [1] the pool */
  int pool;        /* ... calibrated: sweeps on the pool */
  int64_t begin, end; /* the chunks of one stage: begin, begin + C, ... < end */
  int most;        /* steps per sweep on one thread (their stages in flight
                      fit LIED_WAVE_BYTES); nw times as many on nw workers */
  int cap;         /* threads: the most steps one worker's rings hold */
  int *split;      /* threads, nw + 1: worker r takes steps split[r] .. split[r + 1] */
  double *rate;    /* threads, nw: steps per second of work of each worker,
                      measured, which sets the next sweep's split */
  double *work;    /* threads, nw: a sweep's time of each worker but waiting */
  double cut, left; /* stage times >= cut are evaluated at left (solve/events.h) */
  /* lane forms over rings of lane groups (sched/lanering.h): lane set when
   * asked for and the model has them, else no_lanes says why */
  int lane;
  lied_lr lr;
  lied_lr_worker *lw; /* per worker: nlw made */
  int nlw;
  char no_lanes[200];
  /* the current block */
  const double *times, *x;
  int nsteps, check;
  volatile sig_atomic_t *stop;
} lied_wave;

/* Whether a schedule can take steps in waves: skewed, with the lags of
 * waves (sched.h: skew_stage), states, no zero functions or event
 * handlers. */
int lied_wave_applies(const lied_sched *s);

/* Work space for an explicit table: LIED_OK, LIED_E_USAGE (not explicit)
 * or LIED_E_NOMEM (w is then safe to free). */
int lied_wave_init(lied_wave *w, lied_sched *s, const lied_tableau *tab, int lanes, lied_err *e);
void lied_wave_free(lied_wave *w);

/* nsteps steps, step j from times[j] to times[j + 1]; x becomes the state
 * at times[nsteps]. With nsteps > 1 every new state is checked (not finite:
 * LIED_E_NONFINITE) and *stop polled (LIED_RETRY); on any failure x is
 * unchanged. Allocates nothing. */
int lied_wave_steps(lied_wave *w, const double *times, int nsteps, double *x,
                    volatile sig_atomic_t *stop, lied_err *e);

#endif
