/* graph.c - CSR dependency graphs, iterative strong components (Pearce), levels and cycles. */
#include "sched/graph.h"

#include <stdlib.h>
#include <string.h>
#include "core/assert.h"

/* Allocate count elements of size bytes each (at least one byte), or NULL on
 * overflow or exhaustion. */
static void *alloc_array(size_t count, size_t size, int zero) {
  if (count == 0)
    count = 1;
  if (count > SIZE_MAX / size)
    return NULL;
  return zero ? calloc(count, size) : malloc(count * size);
}

/* Allocate rowptr (n + 1, zeroed) and adj (nedges); see graph.h. */
int lied_graph_alloc(lied_graph *g, uint32_t n, uint32_t nedges, lied_err *e) {
  g->n = 0;
  g->rowptr = alloc_array((size_t)n + 1, sizeof *g->rowptr, 1);
  g->adj = alloc_array(nedges, sizeof *g->adj, 0);
  if (!g->rowptr || !g->adj) {
    free(g->rowptr);
    free(g->adj);
    g->rowptr = NULL;
    g->adj = NULL;
    return lied_errc(e, LIED_E_NOMEM, "out of memory building the block graph (%u nodes, %u edges)",
                     n, nedges);
  }
  g->n = n;
  return LIED_OK;
}

/* Release the arrays and zero the struct; idempotent. */
void lied_graph_free(lied_graph *g) {
  free(g->rowptr);
  free(g->adj);
  g->rowptr = NULL;
  g->adj = NULL;
  g->n = 0;
}

/* Pearce's iterative algorithm (PEA_FIND_SCC3 flavour). comp doubles as the
 * rindex array: 0 = unvisited, 1.. = visit index of a live node (lowered to
 * the smallest index reachable), and completed components take ids n, n-1, ...
 * which always exceed every live index. Work space is one block: a shared
 * stack of n words (DFS call stack growing up from 0, component stack growing
 * down from n; a live node is on at most one of them), the per-frame edge
 * cursor (n words) and a per-frame "still a root" bit (n bits). Components
 * are completed after everything they reach, so comp = n - id numbers them
 * in dependency order. */
/* Pearce's iterative search: the work space and counters of one run. */
typedef struct scc_run {
  const uint32_t *rowptr, *adj;
  uint32_t n;
  uint32_t *rindex;  /* per node: 0 unvisited, index while open, component when done */
  uint32_t *stk;     /* [0, d) call stack, [rs, n) component stack */
  uint32_t *cur;     /* edge cursor of call frame i */
  uint32_t *root;    /* bit i: frame i is still a root */
  uint32_t index, c, rs;
} scc_run;

static inline int is_root(const scc_run *r, uint32_t f) {
  return (r->root[f >> 5] >> (f & 31)) & 1u;
}
static inline void set_root(scc_run *r, uint32_t f) { r->root[f >> 5] |= 1u << (f & 31); }
static inline void clear_root(scc_run *r, uint32_t f) { r->root[f >> 5] &= ~(1u << (f & 31)); }

/* Frame f's node v is finished with lowlink rv: close its component if it
 * is a root (numbering it c, counting down), else push it on the component
 * stack. Returns the value the parent folds in. */
static uint32_t scc_finish(scc_run *r, uint32_t f, uint32_t v, uint32_t rv) {
  if (is_root(r, f)) {
    r->index--;
    while (r->rs < r->n && rv <= r->rindex[r->stk[r->rs]]) {
      r->rindex[r->stk[r->rs]] = r->c;
      r->rs++;
      r->index--;
    }
    r->rindex[v] = r->c;
    r->c--;
    return r->c + 1;
  }
  r->rindex[v] = rv;
  r->stk[--r->rs] = v;
  return rv;
}

/* Depth-first search from the unvisited node s without recursion. */
static void scc_visit(scc_run *r, uint32_t s) {
  uint32_t d = 1;
  r->stk[0] = s;
  r->cur[0] = r->rowptr[s];
  set_root(r, 0);
  r->rindex[s] = r->index++;
  while (d > 0) {
    const uint32_t f = d - 1, v = r->stk[f], end = r->rowptr[v + 1];
    uint32_t e = r->cur[f], rv = r->rindex[v];
    int descended = 0;
    for (; e < end; e++) {
      const uint32_t w = r->adj[e], rw = r->rindex[w];
      if (rw == 0) { /* descend into w; the parent resumes at edge e on return */
        r->rindex[v] = rv;
        r->cur[f] = e;
        r->stk[d] = w;
        r->cur[d] = r->rowptr[w];
        set_root(r, d);
        r->rindex[w] = r->index++;
        d++;
        descended = 1;
        break;
      }
      if (rw < rv) {
        rv = rw;
        clear_root(r, f);
      }
    }
    if (descended) continue;
    d = f;
    rv = scc_finish(r, f, v, rv);
    if (d > 0) { /* return to the parent: fold in w = v, then move past that edge */
      const uint32_t pf = d - 1, p = r->stk[pf];
      if (rv < r->rindex[p]) {
        r->rindex[p] = rv;
        clear_root(r, pf);
      }
      r->cur[pf]++;
    }
  }
}

int lied_scc(const lied_graph *g, uint32_t *comp, uint32_t *ncomp, lied_err *err) {
  const uint32_t n = g->n;
  *ncomp = 0;
  if (n == 0) return LIED_OK;
  const size_t nbits = ((size_t)n + 31) / 32;
  const size_t words = 2 * (size_t)n + nbits;
  uint32_t *work = (size_t)n > (SIZE_MAX / sizeof(uint32_t) - nbits) / 2
                       ? NULL
                       : malloc(words * sizeof *work);
  if (!work)
    return lied_errc(err, LIED_E_NOMEM, "out of memory (strong components of %u nodes)", n);
  scc_run r = {g->rowptr, g->adj, n, comp, work, work + n, work + 2 * (size_t)n, 1, n, n};
  memset(comp, 0, (size_t)n * sizeof *comp);
  for (uint32_t s = 0; s < n; s++)
    if (comp[s] == 0) scc_visit(&r, s);
  free(work);
  for (uint32_t v = 0; v < n; v++) comp[v] = n - comp[v];
  *ncomp = n - r.c;
  return LIED_OK;
}

/* Stable counting sort of the nodes by component into start/members. */
void lied_scc_members(const lied_graph *g, const uint32_t *comp, uint32_t ncomp,
                      uint32_t *start, uint32_t *members) {
  const uint32_t n = g->n;
  memset(start, 0, ((size_t)ncomp + 1) * sizeof *start);
  for (uint32_t v = 0; v < n; v++)
    start[comp[v] + 1]++;
  for (uint32_t c = 0; c < ncomp; c++)
    start[c + 1] += start[c];
  /* Place with start[c] as a cursor; afterwards start[c] is the old start[c+1]. */
  for (uint32_t v = 0; v < n; v++)
    members[start[comp[v]]++] = v;
  for (uint32_t c = ncomp; c > 0; c--)
    start[c] = start[c - 1];
  start[0] = 0;
}

/* Longest-path level per component; one pass in increasing component id,
 * valid because every dependency has a smaller id. */
void lied_scc_levels(const lied_graph *g, const uint32_t *comp, uint32_t ncomp,
                     const uint32_t *start, const uint32_t *members,
                     uint32_t *level) {
  const uint32_t *rowptr = g->rowptr, *adj = g->adj;
  for (uint32_t c = 0; c < ncomp; c++) {
    uint32_t lv = 0;
    for (uint32_t i = start[c]; i < start[c + 1]; i++) {
      const uint32_t v = members[i];
      for (uint32_t e = rowptr[v]; e < rowptr[v + 1]; e++) {
        const uint32_t cu = comp[adj[e]];
        LIED_ASSERT(cu <= c); /* components in dependency order: one pass suffices */
        if (cu != c && level[cu] >= lv)
          lv = level[cu] + 1;
      }
    }
    level[c] = lv;
  }
}

/* Nonzero when v has an edge to itself. */
int lied_graph_self_loop(const lied_graph *g, uint32_t v) {
  for (uint32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++)
    if (g->adj[e] == v)
      return 1;
  return 0;
}

/* Position of node w in the sorted array mem[0..k), or UINT32_MAX. When the
 * component is the whole graph (k == n) the mapping is the identity. */
static uint32_t local_index(const uint32_t *mem, uint32_t k, uint32_t n,
                            uint32_t w) {
  if (k == n)
    return w;
  uint32_t lo = 0, hi = k;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (mem[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < k && mem[lo] == w ? lo : UINT32_MAX;
}

/* Shortest cycle through v inside comp[v] by BFS; work space is three words
 * per member of the component (members, BFS parent, queue).
 * Long: one breadth-first search with its work space and the path read back. */
long lied_scc_cycle(const lied_graph *g, const uint32_t *comp, uint32_t v,
                    uint32_t *path, size_t maxlen) {
  const uint32_t n = g->n;
  if (v >= n)
    return 0;
  const uint32_t *rowptr = g->rowptr, *adj = g->adj;
  const uint32_t cv = comp[v];
  if (lied_graph_self_loop(g, v)) {
    if (maxlen > 0)
      path[0] = v;
    return 1;
  }
  uint32_t k = 0;
  for (uint32_t w = 0; w < n; w++)
    k += comp[w] == cv;
  if (k < 2)
    return 0;
  uint32_t *mem = alloc_array((size_t)k, 3 * sizeof *mem, 0);
  if (!mem)
    return LIED_E_NOMEM;
  uint32_t *parent = mem + k; /* local index of BFS parent, UINT32_MAX = unseen */
  uint32_t *queue = mem + 2 * (size_t)k; /* node ids */
  for (uint32_t w = 0, i = 0; w < n; w++)
    if (comp[w] == cv)
      mem[i++] = w;
  for (uint32_t i = 0; i < k; i++)
    parent[i] = UINT32_MAX;

  const uint32_t lv = local_index(mem, k, n, v);
  parent[lv] = lv;
  uint32_t qh = 0, qt = 0, last = UINT32_MAX;
  queue[qt++] = v;
  while (qh < qt && last == UINT32_MAX) {
    const uint32_t x = queue[qh++];
    const uint32_t lx = local_index(mem, k, n, x);
    for (uint32_t e = rowptr[x]; e < rowptr[x + 1]; e++) {
      const uint32_t w = adj[e];
      if (comp[w] != cv)
        continue;
      if (w == v) {
        last = lx; /* x -> v closes the first (shortest) cycle found */
        break;
      }
      const uint32_t lw = local_index(mem, k, n, w);
      if (parent[lw] == UINT32_MAX) {
        parent[lw] = lx;
        queue[qt++] = w;
      }
    }
  }
  long len = 0;
  if (last != UINT32_MAX) {
    len = 1;
    for (uint32_t i = last; i != lv; i = parent[i])
      len++;
    size_t pos = (size_t)len - 1;
    for (uint32_t i = last; i != lv; i = parent[i], pos--)
      if (pos < maxlen)
        path[pos] = mem[i];
    if (maxlen > 0)
      path[0] = v;
  }
  free(mem);
  return len;
}
