/* sbuild.h - the schedule builder's working state while the block graph exists
 * (internal to src/sched: graphbuild.c, sched.c, sparsity.c). */
#ifndef LIED_SCHED_SBUILD_H
#define LIED_SCHED_SBUILD_H
#include "sched/graph.h"
#include "sched/sched.h"

#define PTR_AT(inst, off) (*(const double *const *)(const void *)((inst) + (off)))

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
} lied_sb;

/* Instances of a spec in the graph: all, or copy 0 only. */
static inline uint64_t lied_sb_count(const lied_sb *b, const lied_spec *s) {
  return b->copies ? 1 : s->total;
}

enum { NF_DYN = 1, NF_DER = 2, NF_XINST = 4 /* depends on another instance index */,
       NF_EXPORT = 8 /* a section block read by a dynamic block outside its section */ };
enum { CF_DYN = 1, CF_NEED = 2, CF_SECTION = 4 };

typedef struct node_id {
  int spec;
  int blk;
  uint64_t inst;
} node_id;


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

#endif
