/* augb.h - internal to sched/aug.c and augsum.c: the build of the
 * implicit solvers' sparse formulation (sched/aug.h), shared by the plan
 * (aug.c) and its trees of partial sums (augsum.c). */
#ifndef LIED_SCHED_AUGB_H
#define LIED_SCHED_AUGB_H
#include "sched/aug.h"
#include "sched/sbuild.h"
#include "sched/sets.h"

/* A dynamic block step by what it runs (augb_step_of's index). */
typedef struct aug_step_key {
  int spec, blk;
  const char *base; /* its first instance */
  int step;         /* its index in the dynamic part */
} aug_step_key;

typedef struct aug_build {
  lied_sb *b;
  lied_aug *A;
  comp_sets cs;       /* per component: its set (plain and dense components) */
  uint64_t *rset0;    /* per node: the set of what it computes (its rows) */
  uint32_t *rsetn;
  uint64_t *vset0;    /* per node: the set a reader of it sees */
  uint32_t *vsetn;
  uint8_t *own;       /* per node: it has a set of its own (sparse member, plain block) */
  int64_t *secz;      /* per component: the first unknown of its sparse section, or -1 */
  uint32_t *grow;     /* per unknown beyond the states: the node whose row set its row takes */
  uint32_t *wnode;    /* per explicit cut: its node (for the hooks) */
  uint64_t *trow0;    /* per explicit cut: the row set of a tree's unknown */
  uint32_t *trown;    /* (trow0 == UINT64_MAX: not a tree's, the node's row set) */
  uint64_t capw;
  uint32_t captree;
  aug_step_key *steps; /* the dynamic part's block steps by (spec, blk, base) */
  int nsteps;
} aug_build;

/* A sparse section's callback during an evaluation (spsec.h: after): the
 * trees of its members. */
typedef struct lied_aug_after {
  const lied_aug *A;
  const uint32_t *ord; /* its trees, by member */
  uint32_t n, cur;
  const double *w;
  double *gw, *comp; /* the section's computed cut values */
} aug_after;

/* The set a reader of node u sees. */
void augb_read_set(const aug_build *B, uint32_t u, const uint32_t **set, uint32_t *n);
/* tmp[0 .. nt) sorted and stored; its place in *s0, *sn. */
int augb_store(aug_build *B, uint64_t nt, uint64_t *s0, uint32_t *sn);
/* Room for ncut more explicit cuts, each of node v with the node's row set. */
int augb_more_cuts(aug_build *B, uint32_t v, uint64_t ncut);
/* The step of the dynamic part running instance inst of block blk of spec
 * spec (block steps only), or -1. A binary search in B->steps (a search
 * through the steps for each of the cuts grew as the square of the network:
 * 5.5 of 10 s of an implicit run's set-up at 20,000 houses). */
int augb_step_of(const aug_build *B, int spec, int blk, uint64_t inst);

/* augsum.c: is node v a sum node of the framework (core/sum.h)? */
int augb_is_sum(const lied_sb *b, uint32_t v);
/* Node v, a sum node whose set (setn unknowns) is too large and whose
 * contributions can be traced: to be cut as a tree (1), or not (0). */
int augb_wide_sum(aug_build *B, uint32_t v, uint32_t setn);
/* Sum node v cut as a tree of partial sums: its unknowns, their row sets,
 * the roots its readers see (its row and read sets). */
int augb_cut_sum(aug_build *B, uint32_t v);
/* The trees of members of sparse sections: section, member, the section's
 * cuts of the node's values; the sections' lists (A->sstart, sord). */
int augb_section_trees(aug_build *B);
/* The other trees by dynamic step (A->tstart, tord). */
int augb_tree_hooks(aug_build *B);

#endif
