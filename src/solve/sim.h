/* sim.h - a simulation run: fixed-step or adaptive, explicit or implicit
 * integration of the model's state vector, output at an interval or every
 * step, recorder, interruption, statistics. */
#ifndef LIED_SOLVE_SIM_H
#define LIED_SOLVE_SIM_H
#include <signal.h>
#include "core/err.h"
#include "sched/sched.h"

typedef struct lied_sim_opts {
  double start, stop;
  double dt;       /* fixed step; adaptive solvers: the first step (0: automatic);
                    * fixed-step default (stop - start) / 1000 */
  double interval; /* output interval; 0: a multiple of dt near (stop-start)/500
                    * (adaptive solvers: (stop - start) / 500) */
  int every_step;  /* adaptive solvers: output after every accepted step */
  double rtol, atol; /* error tolerances (adaptive) and Newton tolerance
                    * (implicit); 0: 1e-6 each */
  double hmax;     /* largest step of adaptive solvers; 0: stop - start */
  const char *solver;
  /* Fixed-step explicit solvers on a model of independent copies (aligned
   * schedule) take blocks of steps chunk by chunk of copies (solve/fused.h);
   * 1 steps over the whole state vector instead. Same results, bit for bit. */
  int no_fuse;
  /* Fused steps run the blocks' lane forms over groups of copies when every
   * block of the model's dynamic part has one (sched/lanes.h); 1 runs them
   * copy by copy instead. Same results, bit for bit. */
  int no_lanes;
  /* Threads (docs/parallel.md): 0, the default, takes the environment
   * variable LIED_THREADS, else the number of cores available to the
   * process; 1 to LIED_THREADS_MAX (core/pool.h) sets it. Models too small
   * to share run on one thread whatever this says. Same results, bit for
   * bit, for every count. */
  int threads;
  /* With more than one thread: share every part of the model that can be
   * shared, whatever its size (the sizes of sched/par.h and solve/wave.h,
   * below which a run keeps one thread, and the timing that chooses between
   * one thread and the pool, are not applied). For lied run --check, which
   * compares the threaded paths with one thread on small models; same
   * results, slower. */
  int par_force;
  /* Progress hook (issue 7): when not NULL, called with the current time at
   * every output point and every LIED_PROGRESS_STEPS steps; one test per step
   * when NULL. */
  void (*progress)(void *ctx, double t);
  void *progress_ctx;
  /* Halo hook (coupled arrays across MPI ranks, src/dist): when not NULL,
   * called before every evaluation of the model at a state x (every stage,
   * every output row) with the solver's own buffer, whose ghost entries it
   * may overwrite; a failure ends the run. Fixed-step explicit solvers only,
   * with no_fuse set (fused steps and waves evaluate chunk by chunk, not
   * through this hook): the caller (src/binding/lua_run.c) sees to both. */
  int (*halo)(void *ctx, double *x, lied_err *e);
  void *halo_ctx;
  /* The states to start from (length nstates; a steady start, src/analysis
   * start.c), or NULL: the model's start values. */
  const double *x0;
} lied_sim_opts;

typedef struct lied_sim_stats {
  long steps;          /* accepted steps */
  long rejected;       /* steps rejected by the error test or Newton failures */
  long rhs;            /* derivative evaluations (all, Jacobians included) */
  long jac_rhs;        /* ... of which for Jacobians */
  long jacobians;      /* Jacobians of the derivatives (finite differences) */
  long lu;             /* factorisations of the Newton iteration matrix */
  long newton;         /* Newton iterations */
  long newton_fails;   /* Newton convergence failures */
  long colours;        /* evaluations per Jacobian (column colouring) */
  unsigned long long jac_nnz; /* structural nonzeros of the Jacobian */
  long outputs;
  long events;         /* event instants (time, state, sampled; the start not counted) */
  long kinks;          /* kinks located (LIED_ZC_KINK crossings, adaptive solvers) */
  long zero_evals;     /* evaluations of the zero functions (events, kinks: after each
                          step, locating a crossing, at an event; not in rhs) */
  long restarts;       /* integrator restarts after an event, a kink or a step taken
                          again (the history, the first stage, the Jacobian dropped) */
  unsigned long long factorisations; /* of linear sections inside the model */
  double t_end;        /* time reached */
  double wall;         /* seconds spent integrating */
  int interrupted;
  int fused;           /* fixed-step explicit steps taken chunk by chunk (fused.h) */
  int waves;           /* > 0: ... in waves over coupled arrays (wave.h), this many
                          steps per sweep */
  uint64_t wave_gap;   /* ... each stage this many instances behind the one before */
  int lanes;           /* ... in lane form (blocks of two or more steps) */
  char no_lanes[200];  /* fused without lanes: why, else "" */
  int threads;         /* threads the run used (1: the model was too small to share) */
  int threads_asked;   /* ... the option's or LIED_THREADS' number, else the cores */
  double cpu;          /* CPU seconds of the process (every thread) during the run */
} lied_sim_stats;

/* Where a run reports its output points (the recorder, record/recorder.h,
 * provides one). begin() is called once before the first point; row() at
 * every output point, when the model's variables hold their values at t
 * (every section variable consistent); end() once after the run, on every
 * exit path (also after a failure or an interruption), so sinks stay valid.
 * Each returns LIED_OK or a negative status with a message. */
typedef struct lied_output {
  int (*begin)(void *ctx, lied_err *e);
  int (*row)(void *ctx, double t, lied_err *e);
  int (*end)(void *ctx, lied_err *e);
  void *ctx;
} lied_output;

/* A solver: explicit or implicit, fixed step or adaptive. */
typedef struct lied_solver {
  const char *name, *doc;
  int order;
  int adaptive, implicit;
  const struct lied_tableau *tab; /* NULL for cvode */
} lied_solver;

/* The solvers built into this binary (cvode only when SUNDIALS was found),
 * in the order of --help; NULL for a bad index or unknown name. */
int lied_solver_count(void);
const lied_solver *lied_solver_at(int i);
const lied_solver *lied_solver_find(const char *name);

#define LIED_PROGRESS_STEPS 64 /* steps between progress calls (a power of 2) */

/* LIED_OK when name (NULL: the default) names a solver; else LIED_E_USAGE
 * with a message listing them ("" is refused, not the default). */
int lied_solver_check(const char *name, lied_err *e);
/* Run the model from its start values. `stop_flag`, when not NULL, is polled
 * once per step (fused steps: per step and chunk of copies; an interrupted
 * block of fused steps is dropped): nonzero stops the run (results so far
 * are kept, flushed).
 * Returns LIED_OK, LIED_E_USAGE for invalid options (nothing was run), or another
 * negative status, equal to e->code, with a message naming the time: the
 * model's (a singular section, ...), LIED_E_NONFINITE (a state), LIED_E_SOLVER
 * (step size underflow, Newton failure at a fixed step, cvode), LIED_E_LIMIT,
 * LIED_E_NOMEM, or a sink's (LIED_E_IO). The recorder is flushed and its
 * sinks stay valid either way. */
int lied_simulate(lied_sched *s, const lied_sim_opts *o, const lied_output *out,
                  volatile sig_atomic_t *stop_flag, lied_sim_stats *st,
                  lied_err *e);

#endif
