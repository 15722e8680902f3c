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

#ifdef __cplusplus
extern "C" {
#endif

/* ---- evaluation environment ------------------------------------------- */

/* What a block may know besides its instance: the current time. */
typedef struct lied_env {
  double t;
} lied_env;

/* A block evaluates `count` instances of its class laid out `stride` bytes
 * apart from `base`. Write blocks with LIED_BLOCK, which generates this loop
 * around a per-instance function so the compiler can inline it. Blocks must
 * not allocate, call Lua, or fail: checks belong in the class's init. */
typedef void (*lied_block_fn)(const lied_env *env, char *base, size_t count,
                              size_t stride);

/* Define the batched block NAME from a per-instance function
 *   static void FN(const lied_env *env, TYPE *self);                        */
#define LIED_BLOCK(NAME, TYPE, FN)                                             \
  static void NAME(const lied_env *env, char *base, size_t count,              \
                   size_t stride) {                                            \
    for (size_t lied_i_ = 0; lied_i_ < count; lied_i_++)                       \
      FN(env, (TYPE *)(void *)(base + lied_i_ * stride));                      \
  }

/* ---- parameters --------------------------------------------------------- */

enum {
  LIED_PARAM_INT = 1u << 0,      /* stored as int, must be integral */
  LIED_PARAM_MIN_OPEN = 1u << 1, /* value > min (default: value >= min) */
  LIED_PARAM_MAX_OPEN = 1u << 2, /* value < max (default: value <= max) */
};

/* One parameter: a double (or int, or double[len]) at `offset` in the
 * instance. Start values of states are parameters too: point the offset at
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
} lied_connector;

enum { LIED_SOURCE = 0, LIED_SINK = 1 };

/* Where the signals of one side live in the author's port struct: for each
 * signal, the offset of its storage (the side writes it) or of a
 * `const T *` pointer to it (the side reads it). */
typedef struct lied_port_layout {
  const lied_connector *conn;
  int side; /* LIED_SOURCE or LIED_SINK */
  size_t offset[LIED_MAX_SIGNALS];
} lied_port_layout;

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
 * port name[index] (arrays of ports); 0 for a plain name. */
void lied_meta_port(lied_meta *m, const char *name, int index, void *port,
                    const lied_port_layout *layout);
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

#ifdef __cplusplus
}
#endif
#endif
