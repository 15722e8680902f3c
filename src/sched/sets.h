/* sets.h - internal to src/sched: sorted sets of unknowns (state indices,
 * and for the sparse formulation also section unknowns and cuts) per strong
 * component of the block graph, kept in one pool; sparsity.c and aug.c
 * build the Jacobians' patterns from them. */
#ifndef LIED_SCHED_SETS_H
#define LIED_SCHED_SETS_H
#include "sched/sbuild.h"

/* Per component c of the graph, the sorted set: pool[set0[c] .. set0[c] +
 * setn[c]). tmp is work space. */
typedef struct comp_sets {
  uint64_t *set0;
  uint32_t *setn, *pool, *tmp;
  uint64_t npool, cappool, captmp;
  uint8_t *marray; /* with a window: per state map, 1 for an array's states */
} comp_sets;

void lied_sets_free(comp_sets *cs);
/* Room for need entries in tmp. */
int lied_sets_reserve(comp_sets *cs, uint64_t need, lied_err *e);
/* tmp[0 .. nt) sorted, without repeats, appended to the pool as component
 * c's set (set0[c], setn[c]). */
int lied_sets_store(comp_sets *cs, uint32_t c, uint64_t nt, lied_err *e);
/* Index in the state vector of state q of instance inst of spec, or -1. */
int64_t lied_sets_state_index(const lied_sched *s, int spec, uint64_t inst, int q);

#endif
