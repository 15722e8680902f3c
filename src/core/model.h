/* model.h - the engine's model: declared spec tree, per-spec templates,
 * instance arenas, wiring, name lookup (internal to lied). */
#ifndef LIED_CORE_MODEL_H
#define LIED_CORE_MODEL_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "core/err.h"
#include "lied/component.h"

/* ---- templates: one structural crawl of a spec's prototype -------------- */

enum lied_ref_kind {
  LIED_REF_CONST = 0, /* parameter or anything not written during a run */
  LIED_REF_TIME,
  LIED_REF_STATE,    /* a = state index */
  LIED_REF_TEAR,     /* a = tearing pair index */
  LIED_REF_INTERNAL, /* a = producing block of the same instance */
  LIED_REF_PORT,     /* a = port index (LIED_NO_PORT: internal link), b = signal */
  LIED_REF_OUT,      /* an output of the block */
};

#define LIED_NO_PORT 0xFFFFu

typedef struct lied_tref {
  uint32_t offset; /* byte offset in the instance */
  uint8_t kind;
  uint16_t a, b;
  /* LIED_REF_PORT: the variables [first, first + nvars) of the signal are
   * read (lied_meta_reads; nvars 0: all of them; an internal link: its
   * width); LIED_REF_OUT: nvars doubles are written (lied_meta_writes; 0:
   * a whole port signal at a signal's start, else one) */
  uint8_t first, nvars;
} lied_tref;

typedef struct lied_tblock {
  const char *name;
  lied_block_fn fn;
  lied_block_fn lanes; /* lane form, or NULL (lied/component.h) */
  unsigned flags;
  uint32_t in0, nin, out0, nout; /* ranges in lied_template.refs */
} lied_tblock;

typedef struct lied_tport {
  char *name; /* "outlet" or "outlet[2]" */
  const lied_port_layout *layout;
  uint32_t offset;
  uint32_t data; /* lied_meta_port_data's offset, UINT32_MAX: none */
} lied_tport;

enum lied_var_kind {
  LIED_VAR_PLAIN, LIED_VAR_STATE, LIED_VAR_DER, LIED_VAR_TEAR, LIED_VAR_RES,
  LIED_VAR_PORT,      /* a port signal variable this component writes */
  LIED_VAR_PORT_READ, /* a port signal variable read through a pointer */
};

typedef struct lied_tvar {
  char *name;
  const char *unit;
  uint32_t offset; /* PORT_READ: offset of the pointer field */
  int kind;        /* enum lied_var_kind */
  int sub;         /* PORT_READ: index of the double behind the pointer */
  char *unit_owned;
} lied_tvar;

typedef struct lied_tstate {
  uint32_t x, der; /* offsets */
  int var;         /* index of the state's lied_tvar */
} lied_tstate;

typedef struct lied_ttear {
  uint32_t tear, res;
  int res_block; /* block writing the residual, -1 if none */
  int tear_var, res_var;
} lied_ttear;

typedef struct lied_trange {
  uint32_t lo, hi; /* [lo, hi) bytes written by block `block` */
  int block;
} lied_trange;

/* A zero-crossing function (lied_meta_zero). */
typedef struct lied_tzero {
  uint32_t offset;
  int dir; /* LIED_ZC_* */
  int var; /* its lied_tvar */
} lied_tzero;

typedef struct lied_template {
  /* events (lied/component.h): NULL / 0 when the class declares none */
  lied_next_fn next_event;
  lied_event_fn handler;
  lied_tzero *zeros;
  int nzeros;
  lied_tblock *blocks;
  int nblocks;
  lied_tref *refs;
  int nrefs;
  lied_tport *ports;
  int nports;
  lied_tvar *vars;
  int nvars;
  lied_tstate *states;
  int nstates;
  lied_ttear *tears;
  int ntears;
  lied_trange *outs; /* sorted by lo */
  int nouts;
} lied_template;

/* ---- the declared tree ---------------------------------------------------- */

/* Nesting depth of specs below the root (lied.flatten allows 100 levels):
 * the bound of the paths' work arrays (names.c, model.c). */
#define LIED_MAX_DEPTH 128

/* A loop variable of a connection pattern: first, first + step, ... up to
 * last (step > 0) or down to it (step < 0). */
#define LIED_MAX_LOOP 4
typedef struct lied_loop {
  char name[16];
  int64_t first, last, step;
} lied_loop;

typedef struct lied_conn_decl {
  char *a, *b;  /* dotted port paths relative to the composite */
  char *where;  /* "file:line" of the declaration, may be NULL */
  /* a connection pattern (lied.each): a and b hold index expressions in
   * the loop variables ("crab[i+1].frame_b"), one connection per point of
   * the loops; indices wrap around the array sizes when wrap is set */
  lied_loop loop[LIED_MAX_LOOP];
  int nloop, wrap;
} lied_conn_decl;

typedef struct lied_alias {
  char *name;   /* port name on the composite */
  char *target; /* dotted port path inside it */
} lied_alias;

/* Values of one parameter for some copies of a leaf spec, applied over the
 * prototype's when the arena is filled (lied_model_set_param_copies, _at). */
#define LIED_ALL_COPIES UINT64_MAX
typedef struct lied_pcopy {
  const lied_param *p;
  uint64_t inst; /* the instance, or LIED_ALL_COPIES: v holds total * len values */
  double *v;
} lied_pcopy;

typedef struct lied_spec {
  char *name;     /* child name in the parent ("" for the root) */
  int parent;     /* -1 for the root and for internal specs */
  int first_child, next_sibling, last_child;
  uint32_t count; /* copies at this level: array size, 1 for a scalar */
  int is_array;
  int internal;   /* framework node (sums), not part of the declared tree */
  uint64_t total; /* instances in the whole model */
  char *where;    /* declaration site, may be NULL */
  const lied_class *cls; /* NULL: composite */
  /* leaf */
  char *proto;    /* prototype instance: defaults + parameters + init */
  size_t size;    /* stride between instances */
  char *arena;    /* total * size bytes */
  lied_template tpl;
  int tpl_shared; /* tpl is another spec's (the same structure): not freed here */
  /* per-copy values: freed once applied (lied_model_instantiate) */
  lied_pcopy *pcopies;
  int npcopies, cappcopies;
  /* the states' start values per instance (total * tpl.nstates) when copies
   * differ in them; NULL: every copy starts from the prototype's */
  double *start;
  /* composite */
  lied_conn_decl *conns;
  int nconns, capconns;
  lied_alias *aliases;
  int naliases, capaliases;
  /* A top-level array sliced across MPI ranks (docs/distributed.md; 0:
   * not sliced): its copies are the global copies slice_first .. slice_first
   * + count - 1 (0-based) of slice_global. This rank owns own_first ..
   * own_first + own_count - 1 of them (global); the others are ghost copies
   * of its neighbours' (a coupled array), which the walk over variables
   * and lied_model_remote leave to their owners. */
  uint64_t slice_first, slice_global, own_first, own_count;
} lied_spec;

/* Parameters given as tables (lied/table.h): the flags, and the values such
 * a parameter takes in lied_model_set_param and its kin: one, the id
 * lied_model_add_table returned. */
#define LIED_PARAM_TABLES (LIED_PARAM_TABLE | LIED_PARAM_MAP)

typedef struct lied_model {
  lied_spec *specs;
  int nspecs, capspecs;
  int instantiated;      /* lied_model_instantiate succeeded: the tree is fixed */
  /* children by (parent, name): open addressing, spec id + 1 per slot (0:
   * empty), capacity a power of two at least twice the declared specs, so
   * lookups and duplicate checks stay O(1) for composites of 100,000s of
   * direct children */
  uint32_t *child_slots;
  size_t child_cap;
  uint64_t ncomponents;  /* leaf instances declared by the user */
  /* A slice of an ensemble or of coupled arrays (docs/distributed.md): the
   * first sliced top-level array (0: none); every sliced spec has its
   * slice_first and slice_global (lied_spec). Names show and take the
   * global indices (crab[slice_first + 1] is this model's first copy). */
  int slice_spec;
  /* the distinct tables of table parameters (lied_model_add_table): one
   * reference each, released with the model */
  struct lied_table **tables;
  int ntables, captables;
  uint32_t *table_slots; /* index by content hash (model.c), table_cap slots */
  size_t table_cap;
} lied_model;

/* ---- building the tree (lied_model_*: model.c) ------------------------ */

lied_model *lied_model_new(lied_err *e);
void lied_model_free(lied_model *m);

/* Return codes (core/err.h): LIED_OK or a negative lied_status with a
 * message in e. Name, structure and connection errors are LIED_E_MODEL, bad
 * parameter values (also those a class's init reports through
 * lied_init_error) LIED_E_PARAM, changes after lied_model_instantiate
 * LIED_E_USAGE, sizes beyond lied's limits LIED_E_LIMIT. */

/* Add a child spec under `parent` (-1 only for the root, which must come
 * first). cls == NULL makes a composite. Returns the spec id (>= 0) or a
 * negative status. */
int lied_model_add(lied_model *m, int parent, const char *name,
                   const lied_class *cls, uint32_t count, int is_array,
                   const char *where, lied_err *e);
/* Set a parameter of a leaf spec (vector parameters: n values). */
int lied_model_set_param(lied_model *m, int spec, const char *name,
                         const double *v, int n, lied_err *e);
/* Per-copy values of a leaf spec's parameter: v holds n values (n values
 * of a vector parameter together) for each of the spec's instances in
 * order (n * count of instances along its path), or for the one instance
 * inst. Applied when the arena is filled: the values of every copy, then
 * those of one copy, each in the order given; a copy whose values differ
 * from the prototype's gets the class's init and a check that its
 * structure (meta) is the prototype's. */
int lied_model_set_param_copies(lied_model *m, int spec, const char *name,
                                const double *v, int n, uint64_t ncopies, lied_err *e);
int lied_model_set_param_at(lied_model *m, int spec, uint64_t inst, const char *name,
                            const double *v, int n, lied_err *e);
/* Write values v of parameter p into instance inst (a table parameter: the
 * table whose id v[0] is). */
void lied_param_put(const lied_model *m, char *inst, const lied_param *p, const double *v);
/* A table for table parameters: the model takes a reference to t, or to the
 * one it has that holds the same (one copy per distinct table). Returns its
 * id (>= 0), or LIED_E_PARAM with lied_table_check's message when its
 * numbers are wrong (the caller names the component and the parameter),
 * LIED_E_NOMEM. */
int lied_model_add_table(lied_model *m, struct lied_table *t, lied_err *e);
/* Instances of spec s in the whole model (the counts along its path). */
uint64_t lied_spec_total(const lied_model *m, int s);
int lied_model_connect(lied_model *m, int spec, const char *a, const char *b,
                       const char *where, lied_err *e);
/* A connection pattern: one connection of a and b (paths with index
 * expressions in the loop variables, such as "crab[i+1].frame_b") per
 * point of the nloop (1 .. LIED_MAX_LOOP) loops; the expressions are checked
 * here, the paths when the model is wired. */
int lied_model_connect_each(lied_model *m, int spec, const char *a, const char *b,
                            const char *where, const lied_loop *loop, int nloop, int wrap,
                            lied_err *e);
int lied_model_alias(lied_model *m, int spec, const char *name,
                     const char *target, lied_err *e);

/* Instantiate and wire (build.c): prototypes, templates, arenas, reading
 * pointers, sum nodes. After success the declared tree is immutable; the
 * scheduler (sched/sched.h) orders the blocks; lied_system_build
 * (sched/system.h) runs both. */
int lied_model_instantiate(lied_model *m, lied_err *e);
/* The wiring step of lied_model_instantiate (wire.c), once the arenas
 * exist: reading pointers, sum nodes, unconnected readers checked. */
int lied_model_wire(lied_model *m, lied_err *e);

/* The child of composite `parent` called name[0 .. len), or -1 (O(1)). */
int lied_model_child(const lied_model *m, int parent, const char *name, size_t len);

/* Declared path of a spec ("crab.body1"), for messages. */
void lied_spec_path(const lied_model *m, int s, char *buf, size_t cap);
const lied_param *lied_class_param(const lied_class *cls, const char *name);
/* One step of a dotted path from composite `parent`: "name" or "name[i]"
 * (1-based), advancing *pp past it and the following '.'; *idx becomes
 * *idx * count + i. */
int lied_spec_step(const lied_model *m, int parent, const char **pp,
                   uint64_t *idx, int *child, lied_err *e);

/* A framework spec outside the declared tree (model.c; sum nodes): its id,
 * or LIED_E_NOMEM. */
int lied_model_add_internal(lied_model *m, const char *name,
                            const lied_class *cls, uint64_t count, size_t size,
                            lied_err *e);
/* Leaf spec ids with arenas sorted by address, for lied_model_locate. */
int *lied_model_arena_order(const lied_model *m, int *n, lied_err *e);

/* ---- names (names.c) ----------------------------------------------------- */

/* Make the model a slice of an ensemble (or of coupled arrays): spec (a
 * direct child of the root, an array) holds copies first .. first + count
 * - 1 of global (0-based), all owned. Called for each sliced array. */
int lied_model_set_slice(lied_model *m, int spec, uint64_t first, uint64_t global,
                         lied_err *e);
/* Of a sliced spec's copies, this rank owns own_first .. own_first +
 * own_count - 1 (global, 0-based); the others are ghost copies. */
int lied_model_set_owned(lied_model *m, int spec, uint64_t own_first, uint64_t own_count,
                         lied_err *e);
/* 1 when path names a copy of a sliced array that this rank does not own
 * (another rank has it; a ghost copy here), else 0 (also for bad paths). */
int lied_model_remote(const lied_model *m, const char *path);

/* Write the path of instance i of leaf spec s ("crab[3].revolute2") into buf.
 * Returns the length that the full path needs (like snprintf). */
size_t lied_model_path(const lied_model *m, int s, uint64_t i, char *buf,
                       size_t cap);

/* Resolve a dotted path relative to the root to a leaf instance. On success
 * sets *spec, *inst and *rest (the remainder after the component, "" if
 * none). Returns LIED_OK or LIED_E_MODEL with a message. */
int lied_model_find(const lied_model *m, const char *path, int *spec,
                    uint64_t *inst, const char **rest, lied_err *e);

/* Resolve a variable path to its address (after build); NULL with
 * LIED_E_MODEL in e when it names none (or an unconnected input). */
const double *lied_model_var(const lied_model *m, const char *path,
                             const char **unit, lied_err *e);

/* Call fn for every variable of the model (after build), in declaration
 * order; names are built on the fly. Stops early when fn returns nonzero
 * and returns that value; else 0. Allocates nothing. */
typedef int (*lied_var_visit)(void *ctx, const char *name, const char *unit,
                              const double *addr, int kind);
int lied_model_each_var(const lied_model *m, lied_var_visit fn, void *ctx);
/* The same for the variables whose names may match the glob pattern (NULL:
 * all): components under which no name can match are skipped without
 * visiting their variables (fn still tests each name it gets). When *stop
 * (stop may be NULL) is set, returns LIED_WALK_STOPPED within a few
 * thousand copies: an array of billions of copies takes minutes to walk. */
#define LIED_WALK_STOPPED 0x57
int lied_model_each_var_matching(const lied_model *m, const char *pattern,
                                 const volatile sig_atomic_t *stop, lied_var_visit fn, void *ctx);


/* ---- templates (template.c) ---------------------------------------------- */

/* Crawl the class's meta on `inst` into tpl (all offsets relative to inst). */
int lied_template_crawl(lied_template *tpl, const lied_class *cls, void *inst,
                        size_t size, lied_err *e);
void lied_template_free(lied_template *tpl);
/* Run the class's meta on `inst` and compare what it declares with tpl
 * (crawled from another instance of the class), allocating nothing:
 * LIED_OK when the structure is the same, LIED_E_PARAM otherwise. */
int lied_template_check(const lied_template *tpl, const lied_class *cls, void *inst,
                        size_t size, lied_err *e);
/* Internal (sum nodes): the field at `field` holds a pointer to an input of
 * nvars doubles. */
void lied_meta_link(lied_meta *m, const void *field, int nvars);
/* Internal (sum nodes): a block whose inputs are the `nin` addresses `in`,
 * in + stride, ... (any number, where lied_meta_block takes a list). */
void lied_meta_block_range(lied_meta *m, const char *name, lied_block_fn fn, unsigned flags,
                           const void *in, size_t nin, size_t stride,
                           const void *const *out);
/* Block writing the byte at offset, or -1. */
int lied_template_producer(const lied_template *tpl, uint32_t offset);
/* The index in tpl->outs of the first output range ending after byte off
 * (the range holding off, if any), or tpl->nouts: the ranges a read of bytes
 * [off, off + w) overlaps are the following ones while their lo < off + w. */
int lied_template_out_from(const lied_template *tpl, uint32_t off);
/* Bytes read through input reference r of a block of template t: the
 * signal variables it reads (lied_meta_reads), at byte *skip after the
 * address its pointer holds. */
uint32_t lied_tref_read_bytes(const lied_template *t, const lied_tref *r, uint32_t *skip);
int lied_template_port(const lied_template *tpl, const char *name);

/* Leaf spec and instance holding address p, or -1 (binary search over arenas;
 * `order` is the spec ids sorted by arena address). */
int lied_model_locate(const lied_model *m, const int *order, int norder,
                      const void *p, uint64_t *inst, uint32_t *offset);

/* What an unconnected optional reading pointer points to. */
extern const double lied_port_zeros[LIED_MAX_SIGNAL_VARS];

static inline char *lied_inst(const lied_spec *s, uint64_t i) {
  return s->arena + (size_t)i * s->size;
}

#endif
