/* sbuild.h - the schedule builder's working state while the block graph exists
 * (internal to src/sched: graphbuild.c, secorder.c, sections.c, passes.c,
 * steps.c, align.c, replicate.c, states.c, sched.c, sparsity.c, verify.c). Every
 * lied_sb_* function that returns int returns a lied_status (core/err.h),
 * its message in b->e. */
#ifndef LIED_SCHED_SBUILD_H
#define LIED_SCHED_SBUILD_H
#include "sched/graph.h"
#include "sched/sched.h"

#define PTR_AT(inst, off) (*(const double *const *)(const void *)((inst) + (off)))

/* Build-only data of one section batch, kept beside the schedule's
 * lied_section (same index) and freed once the passes are made. */
typedef struct lied_secb {
  uint32_t *first; /* member nodes of the batch's first section, in section order */
  uint8_t *mexp;   /* per member: its output is read outside (OR over the batch) */
} lied_secb;

/* Everything the builder needs while the graph exists. */
typedef struct lied_sb {
  lied_model *m;
  lied_sched *s;    /* the schedule being built */
  lied_err *e;
  int *order; /* arena order for locate */
  int norder;
  int *bspec;       /* spec ids that have blocks, increasing */
  uint64_t *nbase;  /* per bspec entry: first node id */
  int nbspec;
  uint32_t nnodes;
  uint64_t nedges;  /* edges of the graph (lied_sb_build_graph) */
  lied_graph g;
  uint8_t *flags;   /* per node: NF_* */
  uint8_t *tearbit; /* per edge: 1 bit, set for residual -> tearing edges */
  uint32_t *comp, ncomp;
  uint32_t *cstart, *cmem, *level;
  uint8_t *cflag;   /* per component: CF_* */
  /* Replicated scheduling (sched.c): the model is `copies` independent
   * copies of one structure and the graph holds copy 0 only (every spec with
   * blocks shows one instance). 0: the graph holds every instance. */
  uint64_t copies;
  /* Scheduling from a window (window.c): arrays of (nearly) equal length
   * whose copies away from the ends are wired alike are scheduled from a
   * graph holding instances [0, wcut) and [wcut + wshift, total) of each
   * such spec (wshrunk[spec]); graph instance g >= wcut is instance
   * g + wshift. wshift 0: no window. */
  uint64_t wcut, wshift, wmargin;
  uint8_t *wshrunk;
  unsigned flags_sched; /* LIED_SCHED_* of lied_sched_build */
  lied_secb *secb;  /* per section batch of the schedule (sections.c) */
  int capsecb;
} lied_sb;

/* Instances of a spec in the graph: all, copy 0 only, or the window's. */
static inline uint64_t lied_sb_count(const lied_sb *b, const lied_spec *s) {
  if (b->copies) return 1;
  return b->wshift && b->wshrunk[s - b->m->specs] ? s->total - b->wshift : s->total;
}

/* The model's instance of graph instance g of spec `spec`. */
static inline uint64_t lied_sb_real(const lied_sb *b, int spec, uint64_t g) {
  return b->wshift && b->wshrunk[spec] && g >= b->wcut ? g + b->wshift : g;
}

enum { NF_DYN = 1, NF_DER = 2, NF_XINST = 4 /* depends on another instance index */,
       NF_EXPORT = 8 /* a section block read by a dynamic block outside its section */,
       NF_XSTATE = 16 /* reads the state of another instance directly (no block between) */ };
enum { CF_DYN = 1, CF_NEED = 2, CF_SECTION = 4 };

typedef struct node_id {
  int spec;
  int blk;
  uint64_t inst;
} node_id;


/* Position of node v in the sorted member list mem[0 .. n), or -1. */
static inline int lied_sb_local_index(const uint32_t *mem, int n, uint32_t v) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (mem[mid] == v) return mid;
    if (mem[mid] < v)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* Is edge k a residual -> tearing edge? */
#define IS_TEAR(b, k) (((b)->tearbit[(k) >> 3] >> ((k) & 7)) & 1u)

/* Dependency callback: u is a node v depends on; tear marks a virtual
 * residual -> tearing edge. */
typedef void (*dep_fn)(void *ctx, uint32_t u, int tear);

/* Block node <-> (spec, block, instance). */
node_id lied_sb_decode(const lied_sb *b, uint32_t v);
uint32_t lied_sb_encode(const lied_sb *b, int spec, int blk, uint64_t inst);
/* Visit the dependencies of node v; returns its NF_* flags. */
int lied_sb_deps(const lied_sb *b, uint32_t v, dep_fn add, void *ctx);
/* The CSR graph of all block instances (b->order must be set). */
int lied_sb_build_graph(lied_sb *b);
/* Strong components, sections, dynamic/needed flags, exported section
 * blocks; structural errors with paths. */
int lied_sb_classify(lied_sb *b);
/* "crab[3].revolute2 (Revolute.kinetic)" */
void lied_sb_node_name(const lied_sb *b, uint32_t v, char *buf, size_t cap);
/* An algebraic-loop error through node v, listing the cycle. */
int lied_sb_loop_error(lied_sb *b, uint32_t v, const char *what);
void lied_sb_free(lied_sb *b);

/* ---- sections (secorder.c, sections.c, passes.c) ------------------------- */

/* One linear section as ordered by lied_sb_section_order: members and
 * tearing pairs, with the work space that ordering needs (reused from one
 * section to the next; lied_sec_order_free releases it). */
typedef struct lied_sec_order {
  uint32_t *ord; /* members in evaluation order */
  int n;
  int *pspec, *ppair; /* tearing pairs: spec, pair index, instance */
  uint64_t *pinst;
  int np;
  int cap;                   /* capacity of the member arrays (pairs: 4 * cap) */
  int *indeg, *rstart, *rev, *heap; /* local edges (reversed), ready heap */
  size_t caprev;
} lied_sec_order;

/* Order the members of section component c (Kahn over the edges inside it,
 * tearing edges ignored, smallest node first) and collect its tearing pairs.
 * LIED_E_MODEL for a loop that no tearing variable breaks and for a tearing
 * variable no member reads; LIED_E_LIMIT, LIED_E_NOMEM. */
int lied_sb_section_order(lied_sb *b, uint32_t c, lied_sec_order *t);
void lied_sec_order_free(lied_sec_order *t);

/* The section batches that later sections of one (part, level) may join. */
#define LIED_SB_OPEN 16
typedef struct lied_sec_open {
  int si[LIED_SB_OPEN]; /* schedule section indices, oldest first */
  int n;
} lied_sec_open;

/* Add ordered section t to the schedule: it joins an open batch it extends
 * (*isec = -1), or becomes a new batch, opened, with index *isec. */
int lied_sb_add_section(lied_sb *b, const lied_sec_order *t, lied_sec_open *open, int *isec);

/* For each section batch (from its first section): the final members and
 * the column passes of the probe. The build-only data (b->secb) goes with
 * lied_sb_free. */
int lied_sb_section_passes(lied_sb *b);
/* Is section batch sec to be solved sparsely (sched/spsec.h)? */
int lied_sb_sparse_wanted(const lied_sb *b, const lied_section *sec);
/* Its plan (sec->sparse), from the graph; pos as in passes.c (section
 * order of the component's members, sorted by node). */
int lied_sb_sparse_plan(lied_sb *b, int isec, const int *pos);

/* ---- the rest of the schedule ------------------------------------------- */

/* The three step lists of the schedule from the classified graph (steps.c). */
int lied_sb_emit_steps(lied_sb *b);
/* Skewed evaluation (skew.c): when the dynamic part is not aligned but its
 * dependencies link nearby instance indices (coupled arrays: a chain, a
 * pipe), the lag of every dynamic step, and s->skewed. */
int lied_sb_skew(lied_sb *b);
/* Set s->aligned when the dynamic part can run chunk by chunk (align.c). */
void lied_sb_check_alignment(lied_sb *b);
/* The number of independent copies the model is, or 0 (replicate.c). */
uint64_t lied_sb_replicable(const lied_model *m, const int *order, int norder);
/* Stretch copy 0's schedule over n copies (replicate.c). */
void lied_sb_replicate(lied_sched *s, uint64_t n);
/* Scheduling from a window (window.c): decide whether the model's arrays
 * are wired alike away from their ends and set b->wcut, wshift, wshrunk
 * (b->order must be set); LIED_OK also when no window applies. */
int lied_sb_window(lied_sb *b);
/* Graph instance of instance q of spec tspec, read by graph instance rg of
 * spec rspec (the identity without a window; lied_sb_window has checked
 * every read of the graph's instances maps). */
uint64_t lied_sb_wmap(const lied_sb *b, int rspec, uint64_t rg, int tspec, uint64_t q);
/* The window's schedule stretched over the whole arrays: LIED_OK, or 1 when
 * the window's schedule is not the same across its cut (then schedule the
 * whole graph). */
int lied_sb_window_stretch(lied_sb *b);
/* The schedule's state maps and state count (states.c). */
int lied_sb_map_states(lied_sb *b);

/* Where LIED_ASSERT is on (core/assert.h), check the steps' and the
 * sections' order against the graph (before the schedule is replicated or
 * stretched), and the finished schedule's invariants (verify.c); otherwise
 * nothing. */
#ifdef LIED_ASSERTS
void lied_sb_verify_order(const lied_sb *b);
void lied_sched_verify(const lied_sched *s);
#else
#define lied_sb_verify_order(b) ((void)(b))
#define lied_sched_verify(s) ((void)(s))
#endif

#endif
