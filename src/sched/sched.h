/* sched.h - the schedule: flat lists of batched block runs and batched linear
 * sections in three parts (constant, dynamic, output), built from the model's
 * block graph, which is freed afterwards. */
#ifndef LIED_SCHED_SCHED_H
#define LIED_SCHED_SCHED_H
#include <stdint.h>
#include "core/fault.h"
#include "core/model.h"

enum { LIED_PART_CONST, LIED_PART_DYN, LIED_PART_OUT, LIED_NPARTS };

/* What an evaluation must leave consistent. Derivatives: after a section is
 * solved only the members whose results leave it during a derivative
 * evaluation run again (lied_section.fin). Outputs (output points, and the
 * constant part, which runs once): every member runs again, so every
 * variable of every section is consistent. */
enum lied_eval_mode { LIED_EVAL_DERIVATIVES, LIED_EVAL_OUTPUTS };

/* Where the values a step, section or state map addresses live. Instances:
 * instance q at base + q * stride (the arenas). Lanes: lane groups
 * (sched/lanes.h), where each variable of LIED_LANES copies is one array of
 * doubles, so copy q's value is LIED_LANE_STRIDE bytes after copy q - 1's;
 * probe and state transfers have code specialised for it. */
enum lied_layout { LIED_LAYOUT_INSTANCES = 0, LIED_LAYOUT_LANES = 1 };
#define LIED_LANE_STRIDE sizeof(double)

/* Instances per probing chunk (lied_sched.chunk) and per chunk of an aligned
 * evaluation. It is one lane group (lied/component.h, LIED_LANES) because a
 * lane copy of a constant section (sched/lanes.h) reads the per-chunk flag
 * factored[q0 / chunk] of the chunk it holds; lanes.c asserts it. */
#define LIED_PROBE_CHUNK LIED_LANES
/* Instances at each end of a coupled array that may be wired otherwise
 * (window.c, lied_sched.regular). */
#define LIED_REGULAR_ENDS 32

/* One block of a section template: run for instance q at base + q * stride. */
typedef struct lied_sec_block {
  lied_block_fn fn;
  char *base;
  size_t stride;
  lied_block_fn lanes; /* the block's lane form, or NULL (sched/lanes.h) */
} lied_sec_block;

/* One tearing pair of a section template. */
typedef struct lied_sec_pair {
  double *tear, *res; /* instance 0 of the batch */
  size_t tstride, rstride;
  int spec, pair;     /* for messages */
  uint64_t inst0;
} lied_sec_pair;

/* What the message of a singular section says besides its tearing
 * variables (singular.c): made when the schedule is built, read only when a
 * section fails. */
enum { LIED_SEC_SHOWN = 12 }; /* components named, then "and N more" */
typedef struct lied_sec_notes {
  int id;             /* the section's index in lied_sched.secs (lane copies share it) */
  /* the connector's singular_error of the first tearing variable's
   * component that has one ("flow path without inertance"), or NULL */
  const char *hint;
  /* pairs[0].inst0 when made: the section instance of a copy whose pairs
   * were moved (lane copies) is pairs[0].inst0 + q - pair0 */
  uint64_t pair0;
  uint64_t ncomp;     /* the components of its members, each once */
  int shown;          /* the first min(ncomp, LIED_SEC_SHOWN), in member order: */
  int spec[LIED_SEC_SHOWN];
  uint64_t inst[LIED_SEC_SHOWN]; /* ... of section instance 0 (instance q: inst + q) */
} lied_sec_notes;

/* `count` identical, independent linear sections solved together. */
typedef struct lied_section {
  int nblk, k;
  lied_sec_block *blk;
  lied_sec_pair *pairs;
  /* The final evaluation after the solve only needs the members whose outputs
   * leave the section during an evaluation of derivatives (derivatives and
   * signals read by later dynamic blocks) and what they read inside the
   * section: fin[0 .. nfin) in order. At output points every member runs. */
  int *fin, nfin;
  /* Column passes of the probe (sched.c, column_passes): pass i sets
   * tearing variable cord[i] to 1 and runs members pblk[pstart[i] ..
   * pstart[i + 1]) only: those downstream of it or of cord[i - 1]. */
  int *cord, *pstart, *pblk;
  uint64_t count;
  enum lied_layout layout; /* of the tearing pairs (lanes: strides LIED_LANE_STRIDE) */
  int constant; /* matrix independent of states and time: factorise once */
  /* constant sections: factored[c] != 0 once the instances of probing chunk
   * c (instances c * chunk ..) have their factors in lu, piv; per chunk, as
   * fused steps take every stage of one chunk before the next */
  uint8_t *factored;
  double *lu;   /* constant sections: count * k * k factors */
  int *piv;     /* count * k */
  /* non-NULL: solved sparsely (sched/spsec.h; count 1, no column passes,
   * no dense factors) */
  struct lied_spsec *sparse;
  lied_sec_notes *notes; /* for messages (singular.c); shared by lane copies */
} lied_section;

/* A step: a batch of one block over `count` instances, or a section batch. */
typedef struct lied_step {
  lied_block_fn fn;
  char *base;
  size_t stride;
  uint64_t count;
  lied_section *sec; /* non-NULL: a section batch (fn unused) */
  lied_block_fn lanes; /* the block's lane form, or NULL (sched/lanes.h) */
  int spec, blk;     /* block steps: the spec and block they run (-1: a section) */
  /* skewed evaluation (skew.c): the step runs coordinates (instance indices
   * in the spec of its blocks) [c - lag, c - lag + chunk) at chunk c; its
   * own instances are coordinates first .. first + count - 1 */
  int64_t lag;
  uint64_t first;
  /* ... and with threads (skew.c): a range [A, B) of coordinates runs
   * [A + ml, B - mr) of this step on its own, the rest after all ranges */
  int64_t ml, mr;
} lied_step;

/* What one-thread dispatch (lied_sched_run) reads of a step, packed: two
 * to a cache line where a lied_step takes one and a half. A network of many
 * one-instance steps (bench/district: 15 per house) streams these every
 * evaluation; built by lied_sched_build from the final steps. */
typedef struct lied_run_step {
  lied_block_fn fn; /* NULL: the section batch sec */
  union {
    char *base;
    lied_section *sec;
  };
  size_t stride;
  uint64_t count;
} lied_run_step;

/* How to move states between the solver's vector and the instances. */
typedef struct lied_state_map {
  char *base;
  size_t stride;
  uint64_t count;
  int n;               /* states per instance */
  const lied_tstate *st;
  const char *proto;   /* start values live in the spec's prototype */
  const double *start; /* ... or per instance, n per instance (copies that differ) */
  uint64_t x0;         /* index of instance 0's first state */
  enum lied_layout layout; /* lanes: st[q].x and .der are offsets of lane arrays */
  /* skewed schedules (skew.c): at chunk c of the loop, states of instances
   * [c - lag_in, c - lag_in + chunk) may go in and derivatives of
   * [c - lag_out, c - lag_out + chunk) are complete (solve/wave.c);
   * lag_out >= lag_in */
  int64_t lag_in, lag_out;
} lied_state_map;

#define LIED_SEC_HIST 64 /* section sizes 1..63 counted, 64 means >= 64 */

typedef struct lied_sched_stats {
  uint64_t nodes, edges;     /* block instances, dependencies */
  uint64_t blocks[LIED_NPARTS];
  uint64_t steps[LIED_NPARTS];
  uint64_t sections;         /* linear sections */
  uint64_t section_size[LIED_SEC_HIST + 1];
  uint64_t section_batches;
  uint64_t tears;
  uint64_t constant_sections;
  int max_section;
  /* member runs of the probe's column passes, summed over sections: as
   * scheduled (downstream members only) and if every pass ran every member */
  uint64_t column_blocks, column_blocks_all;
  /* sections solved sparsely (sched/spsec.h): how many, their unknowns
   * (tearing variables and cuts), matrix nonzeros, colours, and the member
   * runs of their column passes; the members of constant ones whose values
   * the pass at zero unknowns restores instead of running them (spsec.h) */
  uint64_t sparse_sections, sparse_unknowns, sparse_nnz, sparse_colours, sparse_pass_members;
  uint64_t sparse_factor_nnz; /* predicted entries of the sections' factors (lied_splu_factor_nnz) */
  uint64_t sparse_fixed_members;
  /* > 0: the model is this many independent copies, scheduled from the
   * graph of one (sched.c, replicable) */
  uint64_t copies;
  /* > 0: coupled arrays scheduled from a window of this many instances per
   * array (window.c) */
  uint64_t window;
  /* > 0: the dynamic part is evaluated skewed (skew.c) and its largest lag is
   * this many instances */
  uint64_t skew_lag;
  /* > 0: explicit fixed steps run in waves (solve/wave.c), each stage this
   * many instances behind the one before */
  uint64_t wave_gap;
  /* counters during runs */
  uint64_t factorisations;   /* LU factorisations of section matrices */
  uint64_t evaluations;      /* derivative evaluations */
  uint64_t par_runs;         /* calls shared between threads (sched/par.h) */
} lied_sched_stats;

typedef struct lied_sched lied_sched;
struct lied_sched {
  lied_step *steps[LIED_NPARTS];
  int nsteps[LIED_NPARTS];
  lied_run_step *run[LIED_NPARTS]; /* the steps packed (NULL: run from steps) */
  lied_section *secs;
  int nsecs;
  lied_state_map *smap;
  int nsmap;
  uint64_t nstates;
  int maxk;              /* largest section */
  size_t chunk;          /* instances per probing chunk: LIED_PROBE_CHUNK */
  double *work;          /* chunk * (maxk * maxk + 4 * maxk + 1) doubles */
  int *wpiv;             /* chunk * maxk */
  int const_done;        /* lied_sched_prepare ran the constant part */
  int aligned;           /* dynamic part runs chunk by chunk (see sched.c) */
  uint64_t aligned_n;    /* instances per step when aligned */
  int skewed;            /* not aligned, but the dynamic part runs chunk by chunk
                            with each step lagging (skew.c) */
  uint64_t skew_end;     /* skewed: chunks start below this instance index */
  uint64_t skew_coords;  /* ... coordinates of the steps' instances: 0 .. this - 1 */
  uint64_t skew_margin;  /* ... the largest ml + mr of a step */
  uint64_t skew_maxlag;  /* ... the largest lag */
  /* ... and waves (solve/wave.c: several stages in flight, stage g + 1
   * skew_stage instances behind stage g); 0: no waves */
  uint64_t skew_stage;
  int64_t *skew_spec_lag; /* while building: lag_in, lag_out per spec */
  /* per spec, or NULL: 1 when window.c found every reading pointer of its
   * instances [LIED_REGULAR_ENDS, total - LIED_REGULAR_ENDS) moving by one
   * source instance per copy (or staying); the lane rings (lanering.c)
   * scan only what lies outside */
  uint8_t *regular;
  lied_sched_stats st;
  lied_model *model;     /* the instances this schedule runs */
  int failed_sec;        /* the section of the last LIED_E_SINGULAR (-1: none) */
  uint64_t failed_inst;  /* ... and its instance */
  int failed_nonfinite;  /* ... whose probed matrix held a value that is not finite */
  struct lied_sched_par *par; /* a run's threads (sched/par.h); NULL: one thread */
  /* unknowns of the sparse sections of the dynamic part (sched/spsec.h;
   * the implicit solvers' sparse formulation, sched/aug.h) */
  uint64_t naug;
  lied_fault fault;      /* the first block fault of the evaluation (fault.c) */
};

/* The sizes of the probe's work space (lied_sched.work: the doubles
 * returned; wpiv: *nint ints), which every thread's view of the schedule
 * (sched/par.h) has too. */
size_t lied_sched_work_size(const lied_sched *s, size_t *nint);

/* lied_sched_build flags */
enum {
  /* schedule every instance even when the model is independent copies
   * (tests compare the two schedules) */
  LIED_SCHED_NO_REPLICATE = 1u,
  /* evaluate level by level even where the skewed evaluation applies (tests
   * compare the two) */
  LIED_SCHED_NO_SKEW = 2u,
  /* schedule the whole graph even where a window of coupled arrays would
   * do (window.c; tests compare the two) */
  LIED_SCHED_NO_WINDOW = 4u,
  /* solve every linear section densely, also large ones (sched/spsec.h;
   * tests compare the two) */
  LIED_SCHED_NO_SPARSE = 8u,
  /* solve every section of one instance sparsely, also small ones (tests) */
  LIED_SCHED_SPARSE_ALL = 16u,
  /* evaluate skewed (and take waves) wherever the skew applies, also arrays
   * shorter than two chunks and lags longer than half the arrays, where it
   * gains nothing (lied run --check: the skewed paths on small models) */
  LIED_SCHED_SKEW_ANY = 32u,
};

/* Build the schedule of an instantiated, wired model (core/model.h,
 * lied_model_instantiate) into *out; the schedule keeps a pointer to m and
 * must be freed before it. LIED_OK, or a negative status with a message
 * (structural errors name the component paths). */
int lied_sched_build(lied_sched **out, lied_model *m, unsigned flags, lied_err *e);
void lied_sched_free(lied_sched *s);

/* A section whose coefficients depend on parameters only and make it
 * singular whatever the state is an error of the model, reported at build
 * (one evaluation at the start values, for models with such sections; run
 * statistics and the factorisations of a run are not affected): the
 * connector's singular_error ("flow path without inertance") or a general
 * message, the components of the section, its tearing variables. Other
 * failures of that evaluation are left to the run. Before it the constant
 * part runs once (for every model): a fault a block reports there with
 * lied_block_fault_model is a build error "PATH: MESSAGE". */
int lied_sched_check_constant(lied_sched *s, lied_err *e);
/* The start of a run without its rows at (t, x): the event handlers'
 * initial calls (solve/events.h, lied_events_initial). */
typedef int (*lied_start_fn)(lied_sched *s, double t, double *x, lied_err *e);
/* The same check, where a section that may change with the modes of its
 * elements (lied_sched_section_modal) and is singular in the modes they
 * hold before any handler ran is judged after start (when not NULL) has
 * chosen them from the start values, as a run does: a brake slipping on a
 * prescribed speed is no error, one stuck on it is. */
int lied_sched_check_start(lied_sched *s, lied_start_fn start, lied_err *e);

/* The messages of singular sections (singular.c). */
/* Each section's notes (lied_sec_notes), once the schedule is final. */
int lied_sched_note_sections(lied_sched *s, lied_err *e);
/* The singular_error of the first connector of t's ports that has one, or
 * NULL. */
const char *lied_sched_port_hint(const lied_template *t);
/* "a, b, c" (or "a, ..., l and 40 more"): the components of instance q of
 * section sec into buf (cap bytes; "" without notes). */
void lied_sched_section_components(const lied_sched *s, const lied_section *sec, uint64_t q,
                                   char *buf, size_t cap);
/* "path.name" of variable var of section sec's pair p, instance q. */
void lied_sched_pair_var(const lied_sched *s, const lied_section *sec, int p, uint64_t q,
                         int var, char *buf, size_t cap);
/* "a.x, b.y": its tearing variables, at most LIED_SEC_SHOWN and as many as
 * fit, then ", ...". */
void lied_sched_section_tears(const lied_sched *s, const lied_section *sec, uint64_t q, char *buf,
                              size_t cap);
/* LIED_E_SINGULAR for instance q of section sec at time t, failed_sec,
 * failed_inst and failed_nonfinite set: "at t = T: singular linear section
 * (DETAIL); tearing variables: a.x, b.y; section of a, b, c; NOTE" (the
 * tearing variables shortened to leave room for the rest). NOTE: that the
 * largest residual at zero tearing variables, bmax, is too large for the
 * probes, else the section's domain's hint (none when it has none). When
 * the probed values are not finite (nonfinite: the first in words, else
 * NULL): "at t = T: the linear section cannot be solved: NONFINITE (a
 * parameter or ...); tearing variables: ...; section of ..." without a
 * hint. Allocates nothing: for the probes' error paths. */
int lied_sched_singular(lied_sched *s, const lied_section *sec, uint64_t q, double t,
                        const char *detail, const char *nonfinite, double bmax, lied_err *e);

/* A block fault recorded during the last evaluation (lied_block_fault):
 * LIED_E_RANGE with "at t = T: PATH: MESSAGE" (PATH the component of the
 * faulting instance), and the fault cleared; LIED_OK when there is none.
 * Evaluations of the schedule call it; code that runs parts or chunks
 * itself (fused steps) calls it after each. */
int lied_sched_fault(lied_sched *s, double t, lied_err *e);
/* The path of the component of the recorded fault into path (cap bytes). */
int lied_sched_fault_path(lied_sched *s, char *path, size_t cap, lied_err *e);
static inline lied_env lied_sched_env(lied_sched *s, double t) {
  return (lied_env){t, &s->fault};
}

/* Run one part at time env->t, leaving what mode says consistent. Returns
 * LIED_OK, or LIED_E_SINGULAR with a message naming the tearing variables
 * and the time. Allocates nothing. */
int lied_sched_run(lied_sched *s, int part, enum lied_eval_mode mode, const lied_env *env,
                   lied_err *e);

/* One evaluation of the dynamic part at (env->t, x): states in, derivatives
 * out (dx may be NULL). Chunked over instances when the schedule is aligned. */
int lied_sched_eval(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                    const double *x, double *dx, lied_err *e);

/* Run the constant part once, every section variable consistent (parameters
 * do not change during a run; the first call does it, later ones return at
 * once). Every evaluation calls it first; code that runs parts or chunks
 * itself (fused steps, tests) calls it before them. */
int lied_sched_prepare(lied_sched *s, double t, lied_err *e);

/* Values the constant part reads changed (parameters set in place between
 * runs, the inputs of a linearisation): the next evaluation runs the
 * constant part again and refactorises constant sections. */
void lied_sched_invalidate(lied_sched *s);

/* Evaluate the model once at (t, x): derivatives into dx (may be NULL) and,
 * if outputs, also the output-only part, every section variable consistent
 * (output points). x may be NULL (the states already in the instances). */
int lied_sched_evaluate(lied_sched *s, double t, const double *x, double *dx, int outputs,
                        lied_err *e);

/* The evaluation at the start of a run before the event handlers' initial
 * calls have chosen the modes (solve/events.c): as lied_sched_evaluate with
 * outputs, level by level on one thread, except that a constant section
 * whose matrix may change with the modes of its elements
 * (lied_sched_section_modal) and is singular in the modes they hold (a
 * brake stuck on a prescribed speed before its handler saw the speed) is no
 * error: its tearing variables are NaN and what they reach is NaN
 * (*unsolved = 1; block faults are then dropped). A singular section of
 * any other kind, and values that are not finite, fail as in
 * lied_sched_evaluate. Constant sections are factorised again after it. */
int lied_sched_evaluate_start(lied_sched *s, double t, const double *x, int *unsolved,
                              lied_err *e);
/* Whether the matrix of section sec may change at events: one of its
 * tearing variables belongs to an instance with an event handler. */
int lied_sched_section_modal(const lied_sched *s, const lied_section *sec);
/* Whether a probe's status rc is that of a constant, modal section singular
 * in the modes its elements hold (values that are not finite excluded): no
 * error before the handlers have chosen the modes at the start. */
int lied_sched_modal_singular(const lied_sched *s, const lied_section *sec, int rc);

/* The dynamic part of a skewed schedule (skew.c), chunk by chunk, each step
 * lagging by its lag; states already in the instances. Allocates nothing. */
int lied_sched_run_skewed(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                          lied_err *e);
/* One chunk of that loop: at chunk c, step j runs its coordinates
 * [c - lag_j, c - lag_j + chunk) (solve/wave.c runs the chunks itself). */
int lied_sched_run_skewed_at(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                             int64_t c, lied_err *e);
/* The same on the run's threads (ranges, then the strips between them). */
int lied_sched_run_skewed_par(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                              lied_err *e);

/* The dynamic part for instances [q0, q0 + n) of an aligned schedule
 * (n <= chunk), states already in the instances. Allocates nothing. */
int lied_sched_run_chunk(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                         uint64_t q0, uint64_t n, lied_err *e);
/* The same for a list of steps st[0 .. ns) (the dynamic part, or its lane
 * copy over lane groups, sched/lanes.h, whose stride 0 makes q0 moot). */
int lied_sched_run_steps(lied_sched *s, const lied_step *st, int ns, enum lied_eval_mode mode,
                         const lied_env *env, uint64_t q0, uint64_t n, lied_err *e);

/* Copy states between x (length nstates) and the instances. */
void lied_sched_scatter(const lied_sched *s, const double *x);
void lied_sched_gather_x(const lied_sched *s, double *x);
/* Put every state back to its start value (from the prototypes). */
void lied_sched_reset_states(const lied_sched *s);
void lied_sched_gather_der(const lied_sched *s, double *dx);

/* Structural sparsity of the derivative function: for each state i, the
 * states its derivative depends on are cols[rowptr[i] .. rowptr[i + 1]),
 * sorted. Rebuilds the block graph of the built model temporarily (the
 * schedule keeps none). *rowptr (nstates + 1) and *cols are malloc'ed; the
 * caller frees them. Returns LIED_OK, or LIED_E_LIMIT (2^32 - 1 states and
 * more), LIED_E_NOMEM or a structural error, with a message. */
int lied_sched_sparsity(lied_sched *s, uint64_t **rowptr, uint32_t **cols,
                        lied_err *e);

/* Name of state index i ("crab[2].revolute2.phi") into buf. */
/* The name of state i in buf (cut at cap); the length of the whole name. */
size_t lied_sched_state_name(const lied_sched *s, uint64_t i, char *buf, size_t cap);

#endif
