/* sparsity.c - which states each derivative depends on, from the block
 * graph rebuilt on demand (for implicit solvers' Jacobians). A model of
 * independent copies (replicate.c) rebuilds the graph of copy 0 and moves
 * its pattern to every copy; coupled arrays scheduled from a window
 * (window.c) rebuild the window's graph and move the pattern of the copy
 * after the cut to the cut-out copies. */
#include <stdlib.h>
#include <string.h>
#include "sched/sbuild.h"
#include "sched/sets.h"

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Index in the state vector of state q of instance inst of spec, or -1
 * (with a window: inst is the graph's instance, and so is the index). */
int64_t lied_sets_state_index(const lied_sched *s, int spec, uint64_t inst, int q) {
  const lied_model *m = s->model;
  for (int i = 0; i < s->nsmap; i++)
    if (s->smap[i].base == m->specs[spec].arena)
      return (int64_t)(s->smap[i].x0 + inst * (uint64_t)s->smap[i].n + (uint64_t)q);
  return -1;
}

/* The state map holding state index x; state index x of copy 0 moved to
 * copy `copy` (its state map holds copy 0's states at x0 .. x0 + n - 1 and
 * copy k's n * k further on). */
static int map_of(const lied_sched *s, uint32_t x) {
  int i = 0;
  while (i + 1 < s->nsmap && s->smap[i + 1].x0 <= x) i++;
  return i;
}
static uint32_t in_copy(const lied_sched *s, uint32_t x, uint64_t copy) {
  return (uint32_t)(x + copy * (uint64_t)s->smap[map_of(s, x)].n);
}

/* With a window: the graph instance standing for instance inst of spec
 * (a cut-out copy: the graph's copy after the cut, moved). */
static uint64_t graph_instance(const lied_sb *b, int spec, uint64_t inst) {
  if (!b->wshift || !b->wshrunk[spec] || inst < b->wcut) return inst;
  return inst >= b->wcut + b->wshift ? inst - b->wshift : b->wcut;
}

void lied_sets_free(comp_sets *cs) {
  free(cs->set0);
  free(cs->setn);
  free(cs->pool);
  free(cs->tmp);
  free(cs->marray);
}

/* With a window: which state maps are the arrays' (specs the window
 * shrinks), found once rather than per column. */
static int mark_array_maps(const lied_sb *b, comp_sets *cs) {
  const lied_sched *s = b->s;
  cs->marray = lied_xcalloc((size_t)s->nsmap + 1, 1, "sparsity", b->e);
  if (!cs->marray) return LIED_E_NOMEM;
  for (int i = 0; i < s->nsmap; i++)
    for (int k = 0; k < b->m->nspecs; k++)
      if (b->m->specs[k].arena == s->smap[i].base) cs->marray[i] = b->wshrunk[k];
  return LIED_OK;
}

/* A window's state index x (graph instances) in the row of a copy `shift`
 * instances from the graph instance it stands for: states of the arrays
 * move with the copy, the others stay (no array's state reaches a row
 * through a component outside the arrays: window_sets_local). */
static uint32_t from_window(const lied_sched *s, const comp_sets *cs, uint32_t x, int64_t shift) {
  const int i = map_of(s, x);
  return cs->marray[i] ? (uint32_t)((int64_t)x + shift * s->smap[i].n) : x;
}


int lied_sets_reserve(comp_sets *cs, uint64_t need, lied_err *e) {
  if (need <= cs->captmp) return LIED_OK;
  uint64_t nc = need * 2 + 16;
  uint32_t *t = realloc(cs->tmp, sizeof *t * nc);
  if (!t) return lied_errc(e, LIED_E_NOMEM, "out of memory (sparsity)");
  cs->tmp = t, cs->captmp = nc;
  return LIED_OK;
}

/* Into tmp from *nt on: node v's direct state reads, then the sets of the
 * other components it depends on (their sets are complete: components are
 * numbered in dependency order). */
static int gather_node(const lied_sb *b, comp_sets *cs, uint32_t c, uint32_t v, uint64_t *nt) {
  node_id id = lied_sb_decode(b, v);
  const lied_template *t = &b->m->specs[id.spec].tpl;
  const lied_tblock *bl = &t->blocks[id.blk];
  const lied_graph *g = &b->g;
  uint64_t need = *nt + bl->nin;
  for (uint32_t k = g->rowptr[v]; k < g->rowptr[v + 1]; k++) need += cs->setn[b->comp[g->adj[k]]];
  LIED_TRY(lied_sets_reserve(cs, need, b->e));
  for (uint32_t r = bl->in0; r < bl->in0 + bl->nin; r++)
    if (t->refs[r].kind == LIED_REF_STATE) {
      int64_t x = lied_sets_state_index(b->s, id.spec, id.inst, t->refs[r].a);
      if (x >= 0) cs->tmp[(*nt)++] = (uint32_t)x;
    }
  for (uint32_t k = g->rowptr[v]; k < g->rowptr[v + 1]; k++) {
    uint32_t cu = b->comp[g->adj[k]];
    if (cu == c) continue;
    if (cs->setn[cu]) memcpy(cs->tmp + *nt, cs->pool + cs->set0[cu], sizeof *cs->tmp * cs->setn[cu]);
    *nt += cs->setn[cu];
  }
  return LIED_OK;
}


int lied_sets_store(comp_sets *cs, uint32_t c, uint64_t nt, lied_err *e) {
  uint32_t *tmp = cs->tmp;
  if (nt > 1) qsort(tmp, (size_t)nt, sizeof *tmp, cmp_u32);
  uint64_t u = 0;
  for (uint64_t i = 0; i < nt; i++)
    if (u == 0 || tmp[i] != tmp[u - 1]) tmp[u++] = tmp[i];
  if (cs->npool + u > cs->cappool) {
    uint64_t nc = (cs->npool + u) * 2 + 64;
    uint32_t *np = realloc(cs->pool, sizeof *cs->pool * nc);
    if (!np)
      return lied_errc(e, LIED_E_NOMEM, "out of memory (sparsity: %llu entries)",
                       (unsigned long long)nc);
    cs->pool = np, cs->cappool = nc;
  }
  if (u) memcpy(cs->pool + cs->npool, tmp, sizeof *tmp * u); /* tmp, pool may be NULL when empty */
  cs->set0[c] = cs->npool;
  cs->setn[c] = (uint32_t)u;
  cs->npool += u;
  return LIED_OK;
}

/* Every component's set, in dependency order. */
static int component_sets(const lied_sb *b, comp_sets *cs) {
  cs->set0 = lied_xmalloc(sizeof *cs->set0 * ((size_t)b->ncomp + 1), "sparsity", b->e);
  cs->setn = lied_xcalloc((size_t)b->ncomp + 1, sizeof *cs->setn, "sparsity", b->e);
  if (!cs->set0 || !cs->setn) return LIED_E_NOMEM;
  for (uint32_t c = 0; c < b->ncomp; c++) {
    uint64_t nt = 0;
    for (uint32_t i = b->cstart[c]; i < b->cstart[c + 1]; i++)
      LIED_TRY(gather_node(b, cs, c, b->cmem[i], &nt));
    LIED_TRY(lied_sets_store(cs, c, nt, b->e));
  }
  return LIED_OK;
}

/* Visit every derivative: pass 0 writes row i's length into rowptr[i + 1],
 * pass 1 its columns (the set of the component whose block writes it;
 * copy 0's moved to the derivative's copy when the graph is copy 0's). */
static void rows(const lied_sb *b, const comp_sets *cs, int pass, uint64_t *rowptr,
                 uint32_t *cols) {
  const lied_sched *s = b->s;
  const lied_model *m = b->m;
  for (int sm = 0; sm < s->nsmap; sm++) {
    const lied_state_map *map = &s->smap[sm];
    int spec = -1;
    for (int k = 0; k < m->nspecs; k++)
      if (m->specs[k].arena == map->base) spec = k;
    const lied_template *t = &m->specs[spec].tpl;
    for (uint64_t inst = 0; inst < map->count; inst++)
      for (int q = 0; q < map->n; q++) {
        uint64_t i = map->x0 + inst * (uint64_t)map->n + (uint64_t)q;
        int blk = lied_template_producer(t, map->st[q].der);
        const uint64_t g = b->copies ? 0 : graph_instance(b, spec, inst);
        uint32_t c = b->comp[lied_sb_encode(b, spec, blk, g)];
        const uint32_t *set = cs->setn[c] ? cs->pool + cs->set0[c] : NULL;
        if (pass == 0)
          rowptr[i + 1] = cs->setn[c];
        else if (b->wshift) /* the order stays */
          for (uint32_t j = 0; j < cs->setn[c]; j++)
            cols[rowptr[i] + j] = from_window(s, cs, set[j], (int64_t)inst - (int64_t)g);
        else if (!b->copies && cs->setn[c]) /* (no set: the pool may be NULL) */
          memcpy(cols + rowptr[i], set, sizeof *cols * cs->setn[c]);
        else /* the order stays */
          for (uint32_t j = 0; j < cs->setn[c]; j++) cols[rowptr[i] + j] = in_copy(s, set[j], inst);
      }
  }
}

/* The CSR pattern of the derivatives from the component sets. */
static int pattern(const lied_sb *b, const comp_sets *cs, uint64_t **rowptr, uint32_t **cols) {
  const uint64_t n = b->s->nstates;
  *rowptr = lied_xcalloc(n + 1, sizeof **rowptr, "sparsity", b->e);
  if (!*rowptr) return LIED_E_NOMEM;
  rows(b, cs, 0, *rowptr, NULL);
  for (uint64_t i = 0; i < n; i++) (*rowptr)[i + 1] += (*rowptr)[i];
  *cols = lied_xmalloc(sizeof **cols * ((*rowptr)[n] + 1), "sparsity", b->e);
  if (!*cols) return LIED_E_NOMEM;
  rows(b, cs, 1, *rowptr, *cols);
  return LIED_OK;
}

/* With a window, may a row's states be moved with its copy? Not when a
 * component outside the arrays depends on an array's state: a copy's
 * derivative could reach a fixed copy's state through it. */
static int window_sets_local(const lied_sb *b, const comp_sets *cs) {
  for (uint32_t c = 0; c < b->ncomp; c++) {
    if (b->wshrunk[lied_sb_decode(b, b->cmem[b->cstart[c]]).spec]) continue;
    for (uint32_t j = 0; j < cs->setn[c]; j++)
      if (cs->marray[map_of(b->s, cs->pool[cs->set0[c] + j])]) return 0;
  }
  return 1;
}

int lied_sched_sparsity(lied_sched *s, uint64_t **rowptr_out, uint32_t **cols_out,
                        lied_err *e) {
  if (s->nstates >= UINT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "too many states for a Jacobian pattern: %llu (limit %u)",
                     (unsigned long long)s->nstates, UINT32_MAX - 1);
  uint64_t *rowptr = NULL;
  uint32_t *cols = NULL;
  int rc, window = s->st.window > 0;
  for (;;) { /* from the schedule's window, or from the whole graph */
    lied_sb b = {.m = s->model, .s = s, .e = e, .copies = s->st.copies};
    comp_sets cs = {0};
    b.order = lied_model_arena_order(s->model, &b.norder, e);
    rc = b.order ? LIED_OK : LIED_E_NOMEM;
    if (rc == LIED_OK && window) rc = lied_sb_window(&b);
    if (rc == LIED_OK) rc = lied_sb_build_graph(&b);
    if (rc == LIED_OK) rc = lied_sb_classify(&b);
    if (rc == LIED_OK) rc = component_sets(&b, &cs);
    if (rc == LIED_OK && b.wshift) rc = mark_array_maps(&b, &cs);
    const int again = rc == LIED_OK && b.wshift && !window_sets_local(&b, &cs);
    if (rc == LIED_OK && !again) rc = pattern(&b, &cs, &rowptr, &cols);
    lied_sb_free(&b);
    lied_sets_free(&cs);
    if (!again) break;
    window = 0;
  }
  if (rc != LIED_OK) {
    free(rowptr);
    free(cols);
    return rc;
  }
  *rowptr_out = rowptr;
  *cols_out = cols;
  return LIED_OK;
}
