/* sparsity.c - which states each derivative depends on, from the block
 * graph rebuilt on demand (for implicit solvers' Jacobians). A model of
 * independent copies (sched.c, replicable) rebuilds the graph of copy 0 and
 * moves its pattern to every copy. */
#include <stdlib.h>
#include <string.h>
#include "sched/sbuild.h"

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Index in the state vector of state q of instance inst of spec, or -1. */
static int64_t state_index(const lied_sched *s, int spec, uint64_t inst, int q) {
  const lied_model *m = s->model;
  for (int i = 0; i < s->nsmap; i++)
    if (s->smap[i].base == m->specs[spec].arena)
      return (int64_t)(s->smap[i].x0 + inst * (uint64_t)s->smap[i].n + (uint64_t)q);
  return -1;
}

/* State index x of copy 0 moved to copy `copy`: its state map holds copy 0's
 * states at x0 .. x0 + n - 1 and copy k's n * k further on. */
static uint32_t in_copy(const lied_sched *s, uint32_t x, uint64_t copy) {
  int i = 0;
  while (i + 1 < s->nsmap && s->smap[i + 1].x0 <= x) i++;
  return (uint32_t)(x + copy * (uint64_t)s->smap[i].n);
}

int lied_sched_sparsity(lied_sched *s, uint64_t **rowptr_out, uint32_t **cols_out,
                        lied_err *e) {
  lied_model *m = s->model;
  if (s->nstates >= UINT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "too many states for a Jacobian pattern: %llu (limit %u)",
                     (unsigned long long)s->nstates, UINT32_MAX - 1);
  lied_sb b = {.m = m, .s = s, .e = e, .copies = s->st.copies};
  uint64_t *set0 = NULL; /* per component: start of its set in pool */
  uint32_t *setn = NULL, *pool = NULL, *tmp = NULL;
  uint64_t npool = 0, cappool = 0, captmp = 0;
  uint64_t *rowptr = NULL;
  uint32_t *cols = NULL;
  b.order = lied_model_arena_order(m, &b.norder, e);
  int rc = !b.order ? -1 : 0;
  if (!rc) rc = lied_sb_build_graph(&b);
  if (!rc) rc = lied_sb_classify(&b);
  if (!rc) {
    set0 = lied_xmalloc(sizeof *set0 * ((size_t)b.ncomp + 1), "sparsity", e);
    setn = lied_xcalloc((size_t)b.ncomp + 1, sizeof *setn, "sparsity", e);
    if (!set0 || !setn) rc = -1;
  }
  for (uint32_t c = 0; c < b.ncomp && !rc; c++) {
    uint64_t nt = 0;
    for (uint32_t i = b.cstart[c]; i < b.cstart[c + 1] && !rc; i++) {
      uint32_t v = b.cmem[i];
      node_id id = lied_sb_decode(&b, v);
      const lied_template *t = &m->specs[id.spec].tpl;
      const lied_tblock *bl = &t->blocks[id.blk];
      /* direct state reads, then the sets of the components it depends on */
      uint64_t need = nt + bl->nin;
      for (uint32_t k = b.g.rowptr[v]; k < b.g.rowptr[v + 1]; k++)
        need += setn[b.comp[b.g.adj[k]]];
      if (need > captmp) {
        uint64_t nc = need * 2 + 16;
        uint32_t *nt2 = realloc(tmp, sizeof *tmp * nc);
        if (!nt2) {
          rc = lied_errf(e, "out of memory (sparsity)");
          break;
        }
        tmp = nt2, captmp = nc;
      }
      for (uint32_t r = bl->in0; r < bl->in0 + bl->nin; r++)
        if (t->refs[r].kind == LIED_REF_STATE) {
          int64_t x = state_index(s, id.spec, id.inst, t->refs[r].a);
          if (x >= 0) tmp[nt++] = (uint32_t)x;
        }
      for (uint32_t k = b.g.rowptr[v]; k < b.g.rowptr[v + 1]; k++) {
        uint32_t cu = b.comp[b.g.adj[k]];
        if (cu == c) continue;
        if (setn[cu]) memcpy(tmp + nt, pool + set0[cu], sizeof *tmp * setn[cu]);
        nt += setn[cu];
      }
    }
    if (rc) break;
    if (nt > 1) qsort(tmp, (size_t)nt, sizeof *tmp, cmp_u32);
    uint64_t u = 0;
    for (uint64_t i = 0; i < nt; i++)
      if (u == 0 || tmp[i] != tmp[u - 1]) tmp[u++] = tmp[i];
    if (npool + u > cappool) {
      uint64_t nc = (npool + u) * 2 + 64;
      uint32_t *np = realloc(pool, sizeof *pool * nc);
      if (!np) {
        rc = lied_errf(e, "out of memory (sparsity: %llu entries)", (unsigned long long)nc);
        break;
      }
      pool = np, cappool = nc;
    }
    if (u) memcpy(pool + npool, tmp, sizeof *tmp * u); /* tmp, pool may be NULL when empty */
    set0[c] = npool;
    setn[c] = (uint32_t)u;
    npool += u;
  }
  uint64_t n = s->nstates, nnz = 0;
  if (!rc) {
    rowptr = lied_xcalloc(n + 1, sizeof *rowptr, "sparsity", e);
    if (!rowptr) rc = -1;
  }
  /* derivative i: the set of the component whose block writes it */
  for (int pass = 0; pass < 2 && !rc; pass++) {
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
          uint32_t c = b.comp[lied_sb_encode(&b, spec, blk, b.copies ? 0 : inst)];
          if (pass == 0) {
            rowptr[i + 1] = setn[c];
          } else if (!b.copies) {
            memcpy(cols + rowptr[i], pool + set0[c], sizeof *cols * setn[c]);
          } else { /* copy 0's set moved to this copy; the order stays */
            for (uint32_t j = 0; j < setn[c]; j++)
              cols[rowptr[i] + j] = in_copy(s, pool[set0[c] + j], inst);
          }
        }
    }
    if (pass == 0) {
      for (uint64_t i = 0; i < n; i++) rowptr[i + 1] += rowptr[i];
      nnz = rowptr[n];
      cols = lied_xmalloc(sizeof *cols * (nnz + 1), "sparsity", e);
      if (!cols) rc = -1;
    }
  }
  lied_sb_free(&b);
  free(set0);
  free(setn);
  free(pool);
  free(tmp);
  if (rc) {
    free(rowptr);
    free(cols);
    return -1;
  }
  *rowptr_out = rowptr;
  *cols_out = cols;
  return 0;
}
