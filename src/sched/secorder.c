/* secorder.c - one linear section: the evaluation order of its members
 * (Kahn's algorithm over the edges inside it, tearing edges ignored) and its
 * tearing pairs, with the structural checks that need both. */
#include <stdlib.h>
#include "sched/sbuild.h"

static void heap_push(int *h, int *n, int v) {
  int i = (*n)++;
  while (i > 0 && h[(i - 1) / 2] > v) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = v;
}

static int heap_pop(int *h, int *n) {
  int top = h[0], v = h[--*n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1] < h[c]) c++;
    if (h[c] >= v) break;
    h[i] = h[c];
    i = c;
  }
  if (*n) h[i] = v;
  return top;
}

/* Room for a section of n members (and 4 n tearing pairs) in t. */
static int reserve(lied_sb *b, lied_sec_order *t, int n) {
  if (n <= t->cap) return LIED_OK;
  int nc = n * 2;
  uint32_t *o = realloc(t->ord, sizeof *o * (size_t)nc);
  if (o) t->ord = o;
  int *d = realloc(t->indeg, sizeof *d * (size_t)nc);
  if (d) t->indeg = d;
  int *ps = realloc(t->pspec, sizeof *ps * (size_t)nc * 4);
  if (ps) t->pspec = ps;
  int *pp = realloc(t->ppair, sizeof *pp * (size_t)nc * 4);
  if (pp) t->ppair = pp;
  uint64_t *pi = realloc(t->pinst, sizeof *pi * (size_t)nc * 4);
  if (pi) t->pinst = pi;
  int *rs = realloc(t->rstart, sizeof *rs * ((size_t)nc + 1));
  if (rs) t->rstart = rs;
  int *hp = realloc(t->heap, sizeof *hp * (size_t)nc);
  if (hp) t->heap = hp;
  if (!o || !d || !ps || !pp || !pi || !rs || !hp)
    return lied_errc(b->e, LIED_E_NOMEM, "out of memory (sections)");
  t->cap = nc;
  return LIED_OK;
}

/* Does any member of the n members mem write a residual? */
static int writes_residual(const lied_sb *b, const uint32_t *mem, int n) {
  for (int i = 0; i < n; i++) {
    node_id id = lied_sb_decode(b, mem[i]);
    const lied_template *tp = &b->m->specs[id.spec].tpl;
    for (int q = 0; q < tp->ntears; q++)
      if (tp->tears[q].res_block == id.blk) return 1;
  }
  return 0;
}

/* Is edge k of the graph a dependency inside component c (not a tearing
 * edge)? */
static int local_edge(const lied_sb *b, uint32_t k, uint32_t c) {
  return !IS_TEAR(b, k) && b->comp[b->g.adj[k]] == c;
}

/* The edges inside component c (members mem[0 .. n)), reversed, as CSR over
 * local indices (rstart, rev), and every member's in-degree (indeg). */
static int local_edges(lied_sb *b, uint32_t c, const uint32_t *mem, int n, lied_sec_order *t) {
  const lied_graph *g = &b->g;
  size_t ne = 0;
  for (int i = 0; i <= n; i++) t->rstart[i] = 0;
  for (int i = 0; i < n; i++) {
    t->indeg[i] = 0;
    for (uint32_t k = g->rowptr[mem[i]]; k < g->rowptr[mem[i] + 1]; k++)
      if (local_edge(b, k, c)) {
        t->indeg[i]++;
        t->rstart[lied_sb_local_index(mem, n, g->adj[k]) + 1]++;
        ne++;
      }
  }
  if (ne > t->caprev) {
    int *r = realloc(t->rev, sizeof *r * ne * 2);
    if (!r) return lied_errc(b->e, LIED_E_NOMEM, "out of memory (sections)");
    t->rev = r;
    t->caprev = ne * 2;
  }
  for (int i = 0; i < n; i++) t->rstart[i + 1] += t->rstart[i];
  for (int i = 0; i < n; i++)
    for (uint32_t k = g->rowptr[mem[i]]; k < g->rowptr[mem[i] + 1]; k++)
      if (local_edge(b, k, c)) t->rev[t->rstart[lied_sb_local_index(mem, n, g->adj[k])]++] = i;
  for (int i = n; i > 0; i--) t->rstart[i] = t->rstart[i - 1];
  t->rstart[0] = 0;
  return LIED_OK;
}

/* Kahn's algorithm, choosing the smallest ready node id: deterministic, so
 * identical sections get identical orders. LIED_E_MODEL when a cycle is
 * left (no tearing variable breaks it). */
static int kahn(lied_sb *b, const uint32_t *mem, int n, lied_sec_order *t) {
  int nh = 0;
  for (int i = 0; i < n; i++)
    if (t->indeg[i] == 0) heap_push(t->heap, &nh, i);
  t->n = 0;
  while (nh) {
    int p = heap_pop(t->heap, &nh);
    t->ord[t->n++] = mem[p];
    for (int r = t->rstart[p]; r < t->rstart[p + 1]; r++)
      if (--t->indeg[t->rev[r]] == 0) heap_push(t->heap, &nh, t->rev[r]);
  }
  for (int i = 0; t->n < n && i < n; i++)
    if (t->indeg[i] > 0)
      return lied_sb_loop_error(b, mem[i], "algebraic loop inside a linear section (a cycle that "
                                           "no tearing variable breaks)");
  return LIED_OK;
}

/* The tearing pairs whose residual a member writes, in member order. */
static int collect_pairs(lied_sb *b, lied_sec_order *t) {
  t->np = 0;
  for (int i = 0; i < t->n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    const lied_template *tp = &b->m->specs[id.spec].tpl;
    for (int q = 0; q < tp->ntears; q++)
      if (tp->tears[q].res_block == id.blk) {
        if (t->np >= t->cap * 4)
          return lied_errc(b->e, LIED_E_LIMIT, "too many tearing pairs in a section");
        t->pspec[t->np] = id.spec, t->ppair[t->np] = q, t->pinst[t->np] = id.inst;
        t->np++;
      }
  }
  if (t->np == 0)
    return lied_sb_loop_error(b, t->ord[0],
                              "algebraic loop without tearing (no component on it declares a "
                              "tearing pair; a thermofluid flow loop needs a volume)");
  return LIED_OK;
}

/* A tearing variable read inside the section: (spec, instance, pair). */
typedef struct tear_key {
  int spec, pair;
  uint64_t inst;
} tear_key;

static int cmp_tear_key(const void *a, const void *b) {
  const tear_key *x = a, *y = b;
  if (x->spec != y->spec) return x->spec < y->spec ? -1 : 1;
  if (x->inst != y->inst) return x->inst < y->inst ? -1 : 1;
  return x->pair < y->pair ? -1 : x->pair > y->pair;
}

/* Every tearing variable must be read inside the section, by a block of
 * its own instance: the tearing variables the members read, sorted, then
 * each pair looked up (O(n log n): a district network's section holds
 * 100,000 pairs among a million members). */
static int check_tears_read(lied_sb *b, const lied_sec_order *t) {
  size_t nk = 0, cap = 0;
  tear_key *keys = NULL;
  for (int i = 0; i < t->n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    const lied_template *tp = &b->m->specs[id.spec].tpl;
    const lied_tblock *bl = &tp->blocks[id.blk];
    for (uint32_t r = bl->in0; r < bl->in0 + bl->nin; r++) {
      if (tp->refs[r].kind != LIED_REF_TEAR) continue;
      if (nk == cap) {
        cap = cap ? 2 * cap : 256;
        tear_key *k2 = realloc(keys, sizeof *k2 * cap);
        if (!k2) {
          free(keys);
          return lied_errc(b->e, LIED_E_NOMEM, "out of memory (sections)");
        }
        keys = k2;
      }
      keys[nk++] = (tear_key){id.spec, tp->refs[r].a, id.inst};
    }
  }
  if (nk) qsort(keys, nk, sizeof *keys, cmp_tear_key);
  for (int p = 0; p < t->np; p++) {
    const tear_key want = {t->pspec[p], t->ppair[p], t->pinst[p]};
    if (nk && bsearch(&want, keys, nk, sizeof *keys, cmp_tear_key)) continue;
    free(keys);
    const lied_template *tp = &b->m->specs[t->pspec[p]].tpl;
    char path[512];
    lied_model_path(b->m, t->pspec[p], lied_sb_real(b, t->pspec[p], t->pinst[p]), path,
                    sizeof path);
    return lied_errc(b->e, LIED_E_MODEL,
                     "tearing count mismatch in a linear section of %d tearing pairs: "
                     "tearing variable %s.%s is not read by any block of the section",
                     t->np, path, tp->vars[tp->tears[t->ppair[p]].tear_var].name);
  }
  free(keys);
  return LIED_OK;
}

int lied_sb_section_order(lied_sb *b, uint32_t c, lied_sec_order *t) {
  const uint32_t *mem = b->cmem + b->cstart[c];
  int n = (int)(b->cstart[c + 1] - b->cstart[c]);
  LIED_TRY(reserve(b, t, n));
  if (!writes_residual(b, mem, n))
    return lied_sb_loop_error(b, mem[0],
                              "algebraic loop without tearing (no component on it declares a "
                              "tearing pair)");
  LIED_TRY(local_edges(b, c, mem, n, t));
  LIED_TRY(kahn(b, mem, n, t));
  LIED_TRY(collect_pairs(b, t));
  return check_tears_read(b, t);
}

void lied_sec_order_free(lied_sec_order *t) {
  free(t->ord);
  free(t->indeg);
  free(t->pspec);
  free(t->ppair);
  free(t->pinst);
  free(t->rstart);
  free(t->rev);
  free(t->heap);
}
