/* spplan.h - internal to src/sched: the structure of a sparse linear section
 * (sched/spsec.h) from the block graph: what each member reads inside the
 * section, which ranges are cut, and D(j), the unknowns member j depends on.
 * The schedule's plan (spplan.c) and the sparse formulation's Jacobian
 * pattern (sparsity.c) compute it alike, so their unknowns are numbered
 * alike: tearing variables 0 .. k - 1 in pair order, then the cuts. */
#ifndef LIED_SCHED_SPPLAN_H
#define LIED_SCHED_SPPLAN_H
#include "sched/sbuild.h"

/* What a member reads inside its section: a tearing variable (tear, a =
 * pair index), or output range ri (an entry of the template's outs) of
 * producer member a. */
typedef struct sp_read {
  int tear;
  int a;
  int ri;
} sp_read;

/* A range some member reads: producer member and range, its doubles; base
 * >= 0 once cut (its unknowns base .. base + nv - 1). */
typedef struct sp_cand {
  int mem, ri, nv;
  int base;
} sp_cand;

typedef struct lied_spplan {
  /* in */
  lied_sb *b;
  uint32_t comp;        /* the section's strong component */
  const uint32_t *cmem; /* its members, sorted by node */
  const uint32_t *ord;  /* ... in section order */
  const int *pos;       /* section order of the member at each sorted place */
  int n, k;             /* members, tearing pairs */
  const int *pspec, *ppair; /* pair p: spec, pair index, instance */
  const uint64_t *pinst;
  /* out */
  sp_read *rd; /* reads of member j: rd[rs[j] .. rs[j + 1]) */
  int *rs;
  int nrd, caprd;
  sp_cand *cand; /* sorted by (mem, ri); those of member j: cs[j] .. cs[j + 1] */
  int *cs;
  int ncand;
  int *dpool; /* D(j) = dpool[ds[j] .. ds[j + 1]), sorted */
  uint64_t *ds;
  uint64_t ndp, capdp;
  int nu; /* unknowns: k + the cuts' */
  uint8_t *inside; /* per member: reads only tearing variables, members' outputs, constants */
} lied_spplan;

/* Reads, candidates, D and cuts (the members in section order). */
int lied_spplan_structure(lied_spplan *P);
void lied_spplan_free(lied_spplan *P);
/* The candidate index of (mem, ri), or -1. */
int lied_spplan_find_cand(const lied_spplan *P, int mem, int ri);
/* The member writing the residual of pair p (-1: none, a bug). */
int lied_spplan_residual_member(const lied_spplan *P, int p);

#endif
