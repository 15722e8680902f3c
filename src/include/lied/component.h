/* lied/component.h - everything a component author includes: classes,
 * parameters, connectors, ports, variables, states, tearing pairs, blocks.
 *
 * A component is a C struct plus a lied_class describing it. The class's
 * `meta` function is the single source of structural truth: it declares the
 * ports, variables, states, tearing pairs and blocks of one instance by
 * address. lied calls it on demand with different crawlers (structure, names)
 * and keeps nothing of what it says longer than needed. See docs/components.md.
 */
#ifndef LIED_COMPONENT_H
#define LIED_COMPONENT_H
#include <stddef.h>
#include <stdint.h>
#include "lied/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- evaluation environment ------------------------------------------- */

/* Where a block reports that it cannot evaluate (lied_block_fault). */
typedef struct lied_fault lied_fault;

/* What a block may know besides its instance: the current time, and where
 * to report a fault. */
typedef struct lied_env {
  double t;
  lied_fault *fault;
} lied_env;

/* A block evaluates `count` instances of its class laid out `stride` bytes
 * apart from `base`. Write blocks with LIED_BLOCK, which generates this loop
 * around a per-instance function so the compiler can inline it. Blocks must
 * not allocate, call Lua, or fail: checks belong in the class's init. */
typedef void (*lied_block_fn)(const lied_env *env, char *base, size_t count,
                              size_t stride);

/* Define the batched block NAME from a per-instance function
 *   static void FN(const lied_env *env, TYPE *self);                        */
/* A block that meets a value outside its law's range of validity (a
 * medium state outside its tables, the logarithm of a negative ratio)
 * reports it here, writes whatever its outputs can hold (NaN is fine) and
 * returns: the evaluation completes, then the solver reports the first
 * fault of the evaluation as an error (LIED_E_RANGE) naming the component
 * of `self` (the instance, or in a lane form the lane's word of any field of
 * the group: group + o * LIED_LANES + 8 l) and the time. Adaptive solvers
 * reject a trial step that faults and retry a smaller one, as they do for a
 * singular section; elsewhere the run ends there. Allocates nothing; only
 * the first fault of an evaluation is kept; the message is cut at 200
 * bytes. */
void lied_block_fault(const lied_env *env, const void *self, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for a fault of the model rather than of a state: a block of the
 * constant part (it reads parameters and constant signals only) that finds
 * the model's structure wrong, e.g. a nonlinear law on a potential that a
 * linear section solves. The constant part runs once when the model is
 * built, and such a fault is then a build error (LIED_E_MODEL, "PATH:
 * MESSAGE"); met later, it is reported as lied_block_fault's. */
void lied_block_fault_model(const lied_env *env, const void *self, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define LIED_BLOCK(NAME, TYPE, FN)                                             \
  static void NAME(const lied_env *env, char *base, size_t count,              \
                   size_t stride) {                                            \
    for (size_t lied_i_ = 0; lied_i_ < count; lied_i_++)                       \
      FN(env, (TYPE *)(void *)(base + lied_i_ * stride));                      \
  }

/* ---- lane form (optional) ----------------------------------------------- */

/* When a model is many independent copies of one structure (an array of
 * models and nothing else, such as n crane crabs) and its fixed-step
 * explicit solver takes fused steps, lied can evaluate LIED_LANES copies
 * of a block per call, laid out as a group ("structure of arrays"): the
 * 8-byte word at byte offset o of copy l is at base + o * LIED_LANES + 8 l,
 * so one field of all copies is one contiguous array, and the compiler can
 * evaluate several copies per instruction. A block's lane form is declared
 * with lied_meta_lanes right after the block and called as
 *   lanes(env, group, count, 0)      count <= LIED_LANES copies
 * A reading pointer field holds, in the group, the address of lane 0 of the
 * signal it reads: variable j of copy l is at p[j * LIED_LANES + l]. The lane
 * form must compute exactly what the block computes, copy by copy (write
 * the equations once, as a static inline function both call); tests compare
 * the two bit for bit. Blocks without a lane form keep their model on the
 * ordinary layout. See docs/components.md, "Lane forms". */
#define LIED_LANES 32

/* Put before a loop over the lanes: tells the compiler the lanes are
 * independent (no lane reads what another writes), so it evaluates several
 * per instruction without checking the arrays for overlap first. (GCC only:
 * clang's equivalent warns wherever instrumentation, as in the sanitizer
 * builds, prevents vectorising; clang checks for overlap at run time.) It
 * also keeps the loop a loop: over a full group (a constant 32 lanes) GCC
 * would otherwise write out all eight four-lane iterations, and the lane
 * forms a chain's evaluation runs, with the probe, no longer fitted the
 * 32 KB first-level instruction cache (docs/components.md). */
#if defined(__GNUC__) && !defined(__clang__)
#define LIED_LANE_LOOP _Pragma("GCC ivdep") _Pragma("GCC unroll 2")
#else
#define LIED_LANE_LOOP
#endif

/* Put before a lane form's definition: on x86-64 with GCC and glibc, the
 * function is compiled twice, for the baseline (SSE2, two doubles per
 * instruction) and for x86-64-v3 (AVX2, four), and the loader picks the one
 * the processor runs. Without FMA contraction (ISO C mode), both compute
 * the same bits as the block. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__) && \
    !defined(LIED_NO_CLONES)
#define LIED_LANE_FN __attribute__((target_clones("default", "arch=x86-64-v3")))
#else
#define LIED_LANE_FN
#endif

/* A lane form in two copies, one for full groups (count == LIED_LANES, the
 * common case: its loops have a constant trip count, so the compiler drops
 * their remainder code and the checks before them; the mechanics' body
 * force takes 30 % fewer instructions) and one for any count. Write the body
 * as
 *   LIED_LANE_BODY void NAME_n(const lied_env *env, char *g, size_t n, size_t stride) {...}
 * and follow it with LIED_LANE_FORM(NAME), which defines the lane form NAME
 * (LIED_LANE_FN included). */
#if defined(__GNUC__)
#define LIED_LANE_BODY static inline __attribute__((always_inline))
#else
#define LIED_LANE_BODY static inline
#endif
#define LIED_LANE_FORM(NAME)                                                               \
  LIED_LANE_FN static void NAME(const lied_env *env, char *g, size_t n, size_t stride) {   \
    if (n == LIED_LANES)                                                                   \
      NAME##_n(env, g, LIED_LANES, stride);                                                \
    else                                                                                   \
      NAME##_n(env, g, n < LIED_LANES ? n : LIED_LANES, stride);                           \
  }

/* The lanes of double field FIELD of a TYPE group at base. */
#define LIED_LANE(TYPE, base, FIELD)                                           \
  ((double *)(void *)((base) + offsetof(TYPE, FIELD) * LIED_LANES))
/* Lane 0 of the signal the reading pointer field FIELD points to. */
#define LIED_LANE_IN(TYPE, base, FIELD)                                        \
  (*(const double *const *)(const void *)((base) +                           \
                                          offsetof(TYPE, FIELD) * LIED_LANES))

/* ---- parameters --------------------------------------------------------- */

enum {
  LIED_PARAM_INT = 1u << 0,      /* stored as int, must be integral */
  LIED_PARAM_MIN_OPEN = 1u << 1, /* value > min (default: value >= min) */
  LIED_PARAM_MAX_OPEN = 1u << 2, /* value < max (default: value <= max) */
  LIED_PARAM_TABLE = 1u << 3,    /* a 1-D table y(x): a `const lied_table *` field */
  LIED_PARAM_MAP = 1u << 4,      /* a 2-D map z(x1, x2): the same (lied/table.h) */
};

/* One parameter: a double (or int, or double[len], or a table) at `offset`
 * in the instance. Start values of states are parameters too: point the offset at
 * the state variable itself. Use min = -HUGE_VAL / max = HUGE_VAL for none. */
typedef struct lied_param {
  const char *name;
  size_t offset;
  double def;        /* default (every element when len > 1) */
  const char *unit;  /* "kg", "m/s", "1" for dimensionless */
  const char *doc;
  double min, max;   /* valid range */
  unsigned flags;    /* LIED_PARAM_* */
  int len;           /* 0 or 1: scalar; n > 1: a vector of n doubles */
  const double *defs; /* vectors: len defaults (NULL: every element is def) */
} lied_param;

/* ---- connectors and ports ---------------------------------------------- */

#define LIED_MAX_SIGNALS 6
#define LIED_MAX_SIGNAL_VARS 8

enum {
  LIED_DOWN = 0, /* written by the source side, read by the sink side */
  LIED_UP = 1,   /* written by the sink side, read by the source side */
};
enum {
  LIED_SIG_SUM = 1u << 0,      /* UP signal: contributions of several sinks are summed */
  LIED_SIG_OPTIONAL = 1u << 1, /* a reader left unconnected sees zeros */
};

/* One signal of a connector: a group of doubles computed together. */
typedef struct lied_signal {
  const char *name;  /* "pos", "force" */
  int dir;           /* LIED_DOWN or LIED_UP */
  unsigned flags;    /* LIED_SIG_* */
  int nvars;         /* number of doubles, <= LIED_MAX_SIGNAL_VARS */
  const char *vars;  /* comma-separated names: "x,y,phi" */
  const char *units; /* comma-separated units: "m,m,rad" */
} lied_signal;

/* A domain's connector: a triplet or more of signals between a source side
 * (writes the DOWN signals) and a sink side (writes the UP signals). */
typedef struct lied_connector {
  const char *name;         /* "thermofluid", "frame" */
  const char *side_name[2]; /* [source, sink]: "outlet", "inlet" */
  int branching;            /* 1: one source may feed several sinks */
  const char *no_branching_hint; /* message suffix when branching is refused */
  int nsignals;
  lied_signal signals[LIED_MAX_SIGNALS];
  /* Optional: message for an algebraic loop whose components all have
   * ports of this connector, e.g. "flow loop without a volume"; the
   * scheduler appends the component paths "a -> b -> c -> a". */
  const char *loop_error;
  /* Optional: appended ("; hint") to the message for a connection between
   * a port of this connector and a port of another one. */
  const char *incompatible_hint;
  /* Optional: the message for a linear section, among whose tearing
   * variables one belongs to a component with a port of this connector,
   * that is singular whatever the state (its coefficients depend on
   * parameters only, and they make it singular), e.g. "flow path without
   * inertance". Reported when the model is built. */
  const char *singular_error;
  /* Optional: whether two connected ports agree on what they carry besides
   * their signals (a thermofluid stream: its medium), from the data each
   * declared with lied_meta_port_data (compared when both did): 0, or -1
   * with the reason in why; the connection is then refused with it, both
   * ports named. */
  int (*compatible)(const void *source, const void *sink, char *why, size_t cap);
} lied_connector;

enum { LIED_SOURCE = 0, LIED_SINK = 1 };

/* Where the signals of one side live in the author's port struct: for each
 * signal, the offset of its storage (the side writes it) or of a
 * `const T *` pointer to it (the side reads it). */
enum {
  /* Every signal this side reads may be left unconnected: it then reads
   * zeros (as LIED_SIG_OPTIONAL, but for the ports of this layout only). */
  LIED_PORT_OPTIONAL = 1u << 0,
};

/* A layout's offset for a signal its ports do not have (for instance the
 * mass fractions of a thermofluid stream whose medium has none): no
 * variables, no storage, nothing to connect. Connected to a port that has
 * it, the reading side sees zeros when the signal is optional (as if left
 * unconnected); otherwise the connection is an error naming both ports. */
#define LIED_ABSENT ((size_t)-1)

typedef struct lied_port_layout {
  const lied_connector *conn;
  int side; /* LIED_SOURCE or LIED_SINK */
  size_t offset[LIED_MAX_SIGNALS]; /* or LIED_ABSENT */
  unsigned flags; /* LIED_PORT_* */
} lied_port_layout;

/* ---- real signals ---------------------------------------------------------
 * The one connector for real-valued signals, shared by every library: a
 * signal output of any library (require "lied.signals": sources, math,
 * controllers) feeds a signal input of any other (a joint's drive, a pump's
 * speed). One double travels downstream; an output may feed any number of
 * inputs. Connector "real", sides "output" (source) and "input" (sink).
 *
 *   typedef struct my_pump { lied_real_in omega; lied_real_out y; ... } my_pump;
 *   ... in a block:  double w = p->omega.y->y;   p->y.y.y = 2 * w;
 *   ... in meta:     lied_meta_real_in(m, "omega", &p->omega);
 *                    lied_meta_real_out(m, "y", &p->y);
 *                    lied_meta_block(m, "b", b, 0, LIED_SIGS(&p->omega.y), LIED_SIGS(&p->y.y));
 *
 * An input declared with lied_meta_real_in must be connected (an error
 * names it otherwise); one declared with lied_meta_real_in_optional reads 0
 * when left unconnected (a drive input: free joint). Recorded as NAME (a connector of one value: the port names it). */
typedef struct lied_real { double y; } lied_real;
typedef struct lied_real_out { lied_real y; } lied_real_out;     /* writes y */
typedef struct lied_real_in { const lied_real *y; } lied_real_in; /* reads *y */

extern const lied_connector lied_real_connector;
extern const lied_port_layout lied_real_out_layout, lied_real_in_layout,
    lied_real_in_optional_layout;

/* ---- Boolean signals -------------------------------------------------------
 * A connector of their own, "boolean" (sides "output", "input"), so that a
 * Boolean output cannot drive a real input by mistake (signals.BooleanToReal
 * converts). The value is a double holding exactly 0 (false) or 1 (true),
 * recorded under the port's name like a real signal; read it as `p->u.y->y != 0`.
 * Boolean outputs change only at events: a block that writes one from its
 * discrete variables (set by its event handler) or from other Boolean
 * inputs. A block that must notice when a Boolean input changes declares a
 * zero function on it (u - 0.5, LIED_ZC_BOTH): the change at an event makes
 * it cross, and its handler runs in the next round of the same event
 * (docs/events.md). */
typedef struct lied_bool_out { lied_real y; } lied_bool_out;     /* writes y: 0 or 1 */
typedef struct lied_bool_in { const lied_real *y; } lied_bool_in; /* reads *y */

extern const lied_connector lied_bool_connector;
extern const lied_port_layout lied_bool_out_layout, lied_bool_in_layout;

/* ---- classes ------------------------------------------------------------ */

typedef struct lied_meta lied_meta;
typedef struct lied_init lied_init;

typedef struct lied_class {
  const char *name;   /* "Revolute" */
  const char *domain; /* "mechanics" */
  const char *doc;    /* first line is the summary */
  size_t size;        /* sizeof the instance struct */
  const lied_param *params;
  int nparams;
  /* Optional: check parameter combinations and derive constants, once per
   * declared component (all copies of an array share the result). Return 0,
   * or report with lied_init_error and return -1. */
  int (*init)(void *self, lied_init *ctx);
  /* Declare the structure of `self` (see lied_meta_* below). */
  void (*meta)(lied_meta *m, void *self);
} lied_class;

/* Report an init failure; the message gets the component path prepended. */
void lied_init_error(lied_init *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- meta declarations (call only from a class's meta) ------------------ */

/* Special address for a block input: the block reads env->t. */
extern const double lied_time;

/* A NULL-terminated list of addresses for lied_meta_block. */
#define LIED_SIGS(...) ((const void *const[]){__VA_ARGS__, NULL})
#define LIED_NONE ((const void *const[]){NULL})

enum {
  /* The block's outputs are affine in its inputs from inside a linear
   * section with coefficients that depend on parameters only (for instance
   * r_in = r_out + L * der_m_flow). A section made only of such blocks has
   * a constant matrix, factorised once per run. */
  LIED_BLOCK_CONST_COEFF = 1u << 0,
};

/* A port: `port` points at the author's port struct. `index` >= 1 names the
 * port name[index] (arrays of ports); 0 for a plain name. lied_meta_port_data
 * after it: what that port carries besides its signals (data inside the
 * component, such as a thermofluid port's medium), which the connector's
 * `compatible` compares for every connection of the port. */
void lied_meta_port(lied_meta *m, const char *name, int index, void *port,
                    const lied_port_layout *layout);
void lied_meta_port_data(lied_meta *m, const void *data);
/* Real-signal ports (see "real signals" above); `index` as for
 * lied_meta_port. */
static inline void lied_meta_real_out(lied_meta *m, const char *name, int index,
                                      lied_real_out *port) {
  lied_meta_port(m, name, index, port, &lied_real_out_layout);
}
static inline void lied_meta_real_in(lied_meta *m, const char *name, int index,
                                     lied_real_in *port) {
  lied_meta_port(m, name, index, port, &lied_real_in_layout);
}
static inline void lied_meta_real_in_optional(lied_meta *m, const char *name, int index,
                                              lied_real_in *port) {
  lied_meta_port(m, name, index, port, &lied_real_in_optional_layout);
}
/* Boolean-signal ports (see "Boolean signals" above). */
static inline void lied_meta_bool_out(lied_meta *m, const char *name, int index,
                                      lied_bool_out *port) {
  lied_meta_port(m, name, index, port, &lied_bool_out_layout);
}
static inline void lied_meta_bool_in(lied_meta *m, const char *name, int index,
                                     lied_bool_in *port) {
  lied_meta_port(m, name, index, port, &lied_bool_in_layout);
}
/* A named variable (for recording and name lookup). */
void lied_meta_var(lied_meta *m, const char *name, const char *unit, double *v);
/* A state x and its derivative der; the derivative is named der(name). */
void lied_meta_state(lied_meta *m, const char *name, const char *unit,
                     double *x, double *der);
/* A tearing pair: the tearing variable and its affine residual. */
void lied_meta_tear(lied_meta *m, const char *tear_name, double *tear,
                    const char *residual_name, double *residual);
/* A block: `in` and `out` are NULL-terminated lists of addresses (use
 * LIED_SIGS). Inputs may be: a port's reading pointer field, a variable or
 * port signal written by another block of this component, a state, a
 * tearing variable, &lied_time, or anything else (then a constant).
 * Outputs: port signal storage and variables. */
void lied_meta_block(lied_meta *m, const char *name, lied_block_fn fn,
                     unsigned flags, const void *const *in,
                     const void *const *out);
/* The lane form of the block declared last (see "lane form" above). */
void lied_meta_lanes(lied_meta *m, lied_block_fn lanes);

/* Dependencies per variable. A block that lists a port signal among its
 * outputs writes the whole signal, and one that lists a port's reading
 * pointer among its inputs reads the whole signal, unless it says less:
 *
 *   lied_meta_writes(m, addr, nvars): the block declared last writes only
 *     the nvars variables from addr on (addr one of its outputs, inside a
 *     signal of one of its ports); other blocks of the component write the
 *     signal's other variables (every variable of a signal the component
 *     writes must be written by one of its blocks). A variable inside a
 *     signal other than its first is one variable without this call.
 *   lied_meta_reads(m, ptr, first, nvars): the block declared last reads
 *     only the variables first .. first + nvars - 1 (0-based) of the signal
 *     behind the reading pointer field ptr (one of its inputs). A block
 *     that reads variables apart (the first and the third) lists ptr once
 *     per range and calls this once per listing, in order.
 *
 * The scheduler then follows dependencies variable by variable, so that it
 * finds no loop where the physics has none: a valve whose outlet pressure
 * depends on its opening signal but whose outlet enthalpy does not lets a
 * temperature sensor downstream feed the controller that sets the opening
 * (docs/components.md, "Dependencies per variable"). */
void lied_meta_writes(lied_meta *m, const void *addr, int nvars);
void lied_meta_reads(lied_meta *m, const void *ptr, int first, int nvars);

/* ---- events ----------------------------------------------------------------
 * A model's inputs may jump (a Step), kink (the end of a Ramp), or switch
 * when a variable crosses a threshold (a thermostat). lied's solvers land
 * exactly on such events and restart there, so no step straddles one
 * (docs/events.md). A class declares, in its meta:
 *
 *  - time events: lied_meta_time_events(m, next), where next(self, t) is
 *    the first time strictly after t at which the instance's outputs jump
 *    or kink (INFINITY: none), asked at the start of a run and after each
 *    call of the instance's handler (which may have scheduled one). Solvers end a step exactly there; the stages
 *    at that step's end see the time just before it (the largest double
 *    below), so a block computing `t >= t0 ? high : low` needs nothing else.
 *  - state events: lied_meta_zero(m, name, &z, direction) declares a
 *    zero-crossing function z (recorded as NAME), a variable written by one
 *    of the class's blocks. The solver locates the time at which z crosses
 *    zero in the declared direction to well below the step, and stops there.
 *  - kinks: a direction or'ed with LIED_ZC_KINK declares where the block's
 *    own law kinks or switches branch (a limit, max/min, abs, a piecewise
 *    law): z crosses zero there. It needs no handler (it gets crossed bits
 *    if it has one). The adaptive solvers (dopri45, esdirk23, cvode) end a
 *    step exactly there, taking the step that crossed it again, so no step
 *    straddles the kink; the fixed-step solvers keep their grid and do not
 *    look at kinks. No rows are written at a kink (nothing jumps).
 *  - a handler: lied_meta_event(m, fn). fn(self, ev) runs at the start of a
 *    run (ev->initial: set the discrete variables from the parameters), at
 *    the instance's time events (ev->time) and when one of its zero
 *    functions crossed (ev->crossed, bit k for the k-th lied_meta_zero). It
 *    may change the instance's discrete variables (plain fields that blocks
 *    read, declared with lied_meta_var to record them) and assign its own
 *    states (re-initialisation, e.g. a velocity reversed at an impact). It
 *    must not allocate or fail. Its inputs hold their values at ev->t,
 *    after every jump of the instant: the model at ev->t, then the
 *    handlers of crossed zero functions (in rounds), then those of the
 *    time events due (samples; docs/events.md, "The order at an event").
 *    A time event at the start time is due at the start (ev->time after
 *    every initial call): ev->initial sets only the values before it.
 *
 * At an event the recorder writes two rows at the same time: the values
 * just before and just after (the Modelica result convention). */
enum {
  LIED_ZC_BOTH = 0, /* a change of sign either way */
  LIED_ZC_UP = 1,   /* from <= 0 to > 0 */
  LIED_ZC_DOWN = 2, /* from > 0 to <= 0 */
  LIED_ZC_KINK = 4, /* or'ed with one of the above: a kink of the block's law */
};

typedef struct lied_event {
  double t;         /* the time of the event */
  int initial;      /* the start of a run */
  int time;         /* this instance's time event is due */
  unsigned crossed; /* bit k: the k-th zero function of the instance crossed */
} lied_event;

typedef double (*lied_next_fn)(const void *self, double t);
typedef void (*lied_event_fn)(void *self, const lied_event *ev);

/* At most this many zero functions per instance. */
#define LIED_MAX_ZEROS 16

void lied_meta_time_events(lied_meta *m, lied_next_fn next);
void lied_meta_zero(lied_meta *m, const char *name, double *z, int direction);
void lied_meta_event(lied_meta *m, lied_event_fn handler);

/* For next functions of periodic events: the first time t0 + k * period
 * (k an integer >= 0) strictly after t; t itself when the period is below
 * the resolution of the times near t (the solver then reports that the
 * block's next time event is not after the current time). Blocks that
 * switch at these times should decide with lied_periodic_index, which
 * agrees with it exactly. */
double lied_periodic_next(double t, double t0, double period);
/* The k >= 0 of the last time t0 + k * period at or before t, -1 before t0. */
double lied_periodic_index(double t, double t0, double period);

/* ---- libraries ------------------------------------------------------------
 * A component library describes itself with one descriptor (as luaL_Reg and
 * luaopen_* do for Lua modules) and registers it with LIED_LIBRARY, built in
 * or compiled separately into a shared object (a plugin):
 *
 *   static const lied_class *const my_classes[] = {&my_valve_class, NULL};
 *   LIED_LIBRARY(myvalves, "valve laws", my_classes)
 *
 * This defines the descriptor (static), registers it when the code is loaded
 * (a constructor: lied_library_register) and defines the Lua entry point
 * luaopen_myvalves, so that a shared object myvalves.so on package.cpath is
 * loaded by `require "myvalves"` (in lied, or in a stock Lua 5.4 with lied's
 * modules on its paths), which returns the table of its classes, the same
 * as lied.library("myvalves"). The built-in libraries (mechanics,
 * thermofluid, signals, testlib) register the same way; their Lua modules
 * (require "lied.mechanics") add Lua functions to that table. No list to
 * edit: a new library is a new LIED_LIBRARY line. NAME must be a C
 * identifier and is the name lied.library and require use.
 *
 * A library compiled against another lied version or ABI is refused at load
 * with a message naming both versions (lied_library_check). */
typedef struct lied_library {
  const char *name; /* "mechanics": lied.library "mechanics" */
  const char *doc;
  const lied_class *const *classes; /* NULL-terminated */
} lied_library;

/* Add lib to the libraries lied knows by name, if it was compiled against
 * this lied (abi and version: the LIED_ABI_VERSION and LIED_VERSION_STRING
 * the library saw). Registering the same descriptor twice is a no-op.
 * Returns 0, or -1 (nothing registered) when the check fails or another
 * library of that name is registered: then lied_library_check says why. */
int lied_library_register(const lied_library *lib, int abi, const char *version);
/* 0 when a library `name` compiled with abi and version may be registered;
 * else -1 and a message in msg (at most n bytes, always terminated). lib
 * may be NULL (then only the versions are checked). */
int lied_library_check(const lied_library *lib, const char *name, int abi,
                       const char *version, char *msg, size_t n);
/* A registered library by name, or NULL. */
const lied_library *lied_library_find(const char *name);
/* The registered libraries, in the order they registered: i in [0, count). */
int lied_library_count(void);
const lied_library *lied_library_at(int i);

/* The Lua entry point of a library (what luaopen_NAME calls): checks, then
 * registers lib and returns its class table (lied.library(name)), or raises
 * the check's message as a Lua error. Needs no Lua header: the Lua side is
 * lied/luaopen.h. Implemented by the Lua binding (liblied_lua), which a
 * plugin links. */
struct lua_State;
int lied_library_luaopen(struct lua_State *L, const lied_library *lib, int abi,
                         const char *version);

#if defined(__GNUC__)
#define LIED_EXPORT __attribute__((visibility("default")))
#define LIED_CONSTRUCTOR __attribute__((constructor))
#else
#error "LIED_LIBRARY needs GCC or clang (constructor and visibility attributes)"
#endif

/* The descriptor lied_library_NAME and its registration, without the Lua
 * entry point: for a library that writes its own luaopen_NAME (to add Lua
 * functions to its module) with LIED_LIBRARY_OPEN of lied/luaopen.h. */
#define LIED_LIBRARY_DESCRIPTOR(NAME, DOC, CLASSES)                             \
  static const lied_library lied_library_##NAME = {#NAME, DOC, CLASSES};        \
  LIED_CONSTRUCTOR static void lied_library_register_##NAME(void) {             \
    (void)lied_library_register(&lied_library_##NAME, LIED_ABI_VERSION,        \
                                LIED_VERSION_STRING);                           \
  }

#define LIED_LIBRARY(NAME, DOC, CLASSES)                                        \
  LIED_LIBRARY_DESCRIPTOR(NAME, DOC, CLASSES)                                   \
  LIED_EXPORT int luaopen_##NAME(struct lua_State *L);                          \
  LIED_EXPORT int luaopen_##NAME(struct lua_State *L) {                         \
    return lied_library_luaopen(L, &lied_library_##NAME, LIED_ABI_VERSION,      \
                                LIED_VERSION_STRING);                           \
  }

#ifdef __cplusplus
}
#endif
#endif
