/* sections.c - batching linear sections: ordered sections with the same
 * member sequence at instance indices advancing by one, and the same edges
 * inside, become one section batch of the schedule. */
#include <stdlib.h>
#include <string.h>
#include "sched/sbuild.h"

/* Is every member's matrix contribution constant (LIED_BLOCK_CONST_COEFF)? */
static int is_constant_section(const lied_sb *b, const lied_sec_order *t) {
  for (int i = 0; i < t->n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    if (!(b->m->specs[id.spec].tpl.blocks[id.blk].flags & LIED_BLOCK_CONST_COEFF)) return 0;
  }
  return 1;
}

/* Is member node v's output read outside its section? */
static uint8_t exported(const lied_sb *b, uint32_t v) {
  return (b->flags[v] & (NF_EXPORT | NF_DER)) != 0;
}

/* A zeroed section at the end of the schedule's list, its build-only data
 * beside it; the caller fills both and counts it in s->nsecs. */
static int append_section(lied_sb *b, lied_section **sec, lied_secb **sb) {
  lied_sched *s = b->s;
  if (s->nsecs % 64 == 0) {
    lied_section *ns = realloc(s->secs, sizeof *ns * (size_t)(s->nsecs + 64));
    if (!ns) return lied_errc(b->e, LIED_E_NOMEM, "out of memory (sections)");
    s->secs = ns;
  }
  LIED_TRY(lied_grow((void **)&b->secb, &b->capsecb, s->nsecs + 1, sizeof *b->secb, b->e));
  *sec = memset(&s->secs[s->nsecs], 0, sizeof **sec);
  *sb = memset(&b->secb[s->nsecs], 0, sizeof **sb);
  return LIED_OK;
}

/* The arrays of a new section batch of t's size (freed with the schedule,
 * or with b->secb for the build-only ones, also on failure). */
static int alloc_section(lied_sb *b, const lied_sec_order *t, lied_section *sec,
                         lied_secb *sb) {
  sec->blk = lied_xcalloc((size_t)t->n, sizeof *sec->blk, "section", b->e);
  sec->pairs = lied_xcalloc((size_t)t->np, sizeof *sec->pairs, "section", b->e);
  sec->fin = lied_xmalloc(sizeof *sec->fin * (size_t)t->n, "section", b->e);
  sb->mexp = lied_xcalloc((size_t)t->n, 1, "section", b->e);
  sb->first = lied_xmalloc(sizeof *sb->first * (size_t)t->n, "section", b->e);
  if (sec->blk && sec->pairs && sec->fin && sb->mexp && sb->first) return LIED_OK;
  free(sec->blk), free(sec->pairs), free(sec->fin), free(sb->mexp), free(sb->first);
  return LIED_E_NOMEM;
}

/* A new section batch holding section t alone. */
static int new_section(lied_sb *b, const lied_sec_order *t) {
  lied_section *sec = NULL;
  lied_secb *sb = NULL;
  LIED_TRY(append_section(b, &sec, &sb));
  LIED_TRY(alloc_section(b, t, sec, sb));
  sec->nblk = t->n;
  sec->k = t->np;
  sec->count = 1;
  sec->constant = is_constant_section(b, t);
  for (int i = 0; i < t->n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    const lied_spec *sp = &b->m->specs[id.spec];
    sec->blk[i] = (lied_sec_block){sp->tpl.blocks[id.blk].fn, lied_inst(sp, id.inst), sp->size,
                                   sp->tpl.blocks[id.blk].lanes};
    sb->first[i] = t->ord[i];
    sb->mexp[i] = exported(b, t->ord[i]);
  }
  for (int p = 0; p < t->np; p++) {
    const lied_spec *sp = &b->m->specs[t->pspec[p]];
    const lied_ttear *tt = &sp->tpl.tears[t->ppair[p]];
    char *inst = lied_inst(sp, t->pinst[p]);
    sec->pairs[p] = (lied_sec_pair){(double *)(void *)(inst + tt->tear),
                                    (double *)(void *)(inst + tt->res), sp->size,
                                    sp->size, t->pspec[p], t->ppair[p], t->pinst[p]};
  }
  b->s->st.constant_sections += (uint64_t)sec->constant;
  b->s->nsecs++;
  return LIED_OK;
}

/* Do the edges of member nodes va (of the batch's first section, component
 * ca) and vc (of section t, component cc) match: each dependency inside for
 * both or for neither, inside it the first's moved by q, the same tearing
 * bits? */
static int same_edges(const lied_sb *b, uint32_t va, uint32_t vc, uint32_t ca, uint32_t cc,
                      uint64_t q) {
  const lied_graph *g = &b->g;
  uint32_t ka = g->rowptr[va], kc = g->rowptr[vc];
  if (g->rowptr[va + 1] - ka != g->rowptr[vc + 1] - kc) return 0;
  for (; ka < g->rowptr[va + 1]; ka++, kc++) {
    uint32_t ua = g->adj[ka], uc = g->adj[kc];
    int ina = b->comp[ua] == ca, inc = b->comp[uc] == cc;
    if (ina != inc || IS_TEAR(b, ka) != IS_TEAR(b, kc)) return 0;
    if (ina && (uint64_t)uc != (uint64_t)ua + q) return 0;
  }
  return 1;
}

/* Can section t (members in order) extend batch si? The same members
 * (spec, block) in the same order at instance indices advanced by q (the
 * batch's count), the same tearing pairs, and the same edges inside the
 * section (node ids are linear in the instance index). The batch's final
 * members and column passes come from its first section. */
static int extends(const lied_sb *b, int si, const lied_sec_order *t) {
  const lied_section *sec = &b->s->secs[si];
  const uint32_t *first = b->secb[si].first;
  if (sec->nblk != t->n || sec->k != t->np) return 0;
  uint64_t q = sec->count;
  for (int i = 0; i < t->n; i++) {
    node_id a = lied_sb_decode(b, first[i]), c = lied_sb_decode(b, t->ord[i]);
    if (a.spec != c.spec || a.blk != c.blk || c.inst != a.inst + q) return 0;
  }
  const uint32_t ca = b->comp[first[0]], cc = b->comp[t->ord[0]];
  for (int i = 0; i < t->n; i++)
    if (!same_edges(b, first[i], t->ord[i], ca, cc, q)) return 0;
  for (int p = 0; p < t->np; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    if (sp->spec != t->pspec[p] || sp->pair != t->ppair[p] || t->pinst[p] != sp->inst0 + q)
      return 0;
  }
  return 1;
}

int lied_sb_add_section(lied_sb *b, const lied_sec_order *t, lied_sec_open *open, int *isec) {
  *isec = -1;
  for (int i = 0; i < open->n; i++)
    if (extends(b, open->si[i], t)) {
      b->s->secs[open->si[i]].count++;
      uint8_t *mexp = b->secb[open->si[i]].mexp;
      for (int j = 0; j < t->n; j++) mexp[j] |= exported(b, t->ord[j]);
      return LIED_OK;
    }
  LIED_TRY(new_section(b, t));
  *isec = b->s->nsecs - 1;
  if (open->n == LIED_SB_OPEN) { /* the oldest batch is closed */
    memmove(open->si, open->si + 1, sizeof open->si[0] * (LIED_SB_OPEN - 1));
    open->n--;
  }
  open->si[open->n++] = *isec;
  return LIED_OK;
}
