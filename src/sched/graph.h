/* graph.h - compact (CSR) dependency graphs and iterative strong components. */
#ifndef LIED_SCHED_GRAPH_H
#define LIED_SCHED_GRAPH_H
#include <stddef.h>
#include <stdint.h>
#include "core/err.h"

/* A directed graph in compressed sparse row form. The edges of node v are
 * adj[rowptr[v] .. rowptr[v+1]); in lied an edge v -> u means "v depends on u"
 * (v reads something u writes). Node ids are 32-bit: up to 4,294,967,294 nodes
 * and as many edges. */
typedef struct lied_graph {
  uint32_t n;       /* number of nodes */
  uint32_t *rowptr; /* n + 1 entries */
  uint32_t *adj;    /* rowptr[n] entries */
} lied_graph;

/* Allocate rowptr (n + 1, zeroed) and adj (nedges). Returns LIED_OK, or
 * LIED_E_NOMEM with a message in e (g is then left empty and safe to free). */
int lied_graph_alloc(lied_graph *g, uint32_t n, uint32_t nedges, lied_err *e);

/* Release the arrays; safe to call twice and on a zeroed struct. */
void lied_graph_free(lied_graph *g);

/* Strongly connected components without recursion (Pearce's space-efficient
 * variant of Tarjan's algorithm). On success comp[v] holds the component of v,
 * numbered in dependency order: if v -> u and comp[u] != comp[v] then
 * comp[u] < comp[v], so increasing component ids are a valid evaluation order.
 * *ncomp receives the number of components (>= 1 when n > 0, 0 when
 * n == 0). Returns LIED_OK, or LIED_E_NOMEM with a message in e when its
 * O(n) work space cannot be allocated. */
int lied_scc(const lied_graph *g, uint32_t *comp, uint32_t *ncomp, lied_err *e);

/* Group the nodes by component: start has ncomp + 1 entries, members n; the
 * nodes of component c are members[start[c] .. start[c+1]) in increasing node
 * order (a stable counting sort). */
void lied_scc_members(const lied_graph *g, const uint32_t *comp, uint32_t ncomp,
                      uint32_t *start, uint32_t *members);

/* Level of each component in the condensed DAG: 0 for a component that depends
 * on no other component, else 1 + the largest level of those it depends on.
 * Components of equal level are independent of each other. Needs the output of
 * lied_scc_members. */
void lied_scc_levels(const lied_graph *g, const uint32_t *comp, uint32_t ncomp,
                     const uint32_t *start, const uint32_t *members,
                     uint32_t *level);

/* Nonzero when v has an edge to itself. */
int lied_graph_self_loop(const lied_graph *g, uint32_t v);

/* Find a simple cycle through node v that stays inside v's component (for
 * error messages). Writes the cycle's nodes, v first, following edges
 * (path[i] -> path[i+1], last -> v), at most maxlen of them; returns the cycle
 * length (which may exceed maxlen: then only the first maxlen are written), 0
 * when there is no such cycle, or LIED_E_NOMEM when out of memory (it only
 * serves messages, so it writes none of its own). */
long lied_scc_cycle(const lied_graph *g, const uint32_t *comp, uint32_t v,
                    uint32_t *path, size_t maxlen);

#endif
