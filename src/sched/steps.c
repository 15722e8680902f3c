/* steps.c - the schedule's three step lists from the classified block graph:
 * components bucketed by (part, level), blocks of consecutive instances
 * merged into one step, linear sections ordered and batched. */
#include <stdlib.h>
#include "sched/sbuild.h"

/* A part's steps while they are made. Section steps name their batch by
 * index (isec, -1 for a block): the schedule's sections move while they
 * grow, so the pointers are set once all are made (attach_steps). */
typedef struct step_list {
  lied_step *v;
  int *isec;
  int n, cap, capi;
} step_list;

static int push_step(lied_sb *b, step_list *l, lied_step s, int isec) {
  LIED_TRY(lied_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v, b->e));
  LIED_TRY(lied_grow((void **)&l->isec, &l->capi, l->n + 1, sizeof *l->isec, b->e));
  l->v[l->n] = s;
  l->isec[l->n++] = isec;
  return LIED_OK;
}

/* The part of component c: constant, dynamic (and needed), or output. */
static int part_of(const lied_sb *b, uint32_t c) {
  if (!(b->cflag[c] & CF_DYN)) return LIED_PART_CONST;
  return (b->cflag[c] & CF_NEED) ? LIED_PART_DYN : LIED_PART_OUT;
}

/* Components by key (part, level) = part * nlevels + level, stable in their
 * first member's node id: items[cnt[k - 1] .. cnt[k]) are those of key k
 * (cnt[-1] taken as 0). *cnt has nkeys + 1 entries; both are malloc'ed. */
static int sort_components(lied_sb *b, uint32_t nlevels, uint32_t **cnt_out,
                           uint32_t **items_out) {
  const uint64_t nkeys = (uint64_t)nlevels * LIED_NPARTS;
  uint32_t *cnt = lied_xcalloc(nkeys + 1, sizeof(uint32_t), "levels", b->e);
  uint32_t *items = lied_xmalloc(sizeof(uint32_t) * (size_t)(b->ncomp + 1), "levels", b->e);
  *cnt_out = cnt, *items_out = items;
  if (!cnt || !items) return LIED_E_NOMEM;
#define KEY(c) ((uint64_t)part_of(b, c) * nlevels + b->level[c])
  for (uint32_t v = 0; v < b->nnodes; v++) {
    uint32_t c = b->comp[v];
    if (b->cmem[b->cstart[c]] == v) cnt[KEY(c) + 1]++;
  }
  for (uint64_t k = 0; k < nkeys; k++) cnt[k + 1] += cnt[k];
  for (uint32_t v = 0; v < b->nnodes; v++) {
    uint32_t c = b->comp[v];
    if (b->cmem[b->cstart[c]] == v) items[cnt[KEY(c)]++] = c;
  }
#undef KEY
  return LIED_OK; /* cnt[k] is now the end of key k */
}

/* Block component c (one node): a new step, or one more instance of the
 * level's last block step when it runs the same block on the instance
 * before (*last: that step's index, -1 for none). */
static int emit_block(lied_sb *b, step_list *l, int part, uint32_t c, int *last) {
  node_id id = lied_sb_decode(b, b->cmem[b->cstart[c]]);
  const lied_spec *sp = &b->m->specs[id.spec];
  b->s->st.blocks[part] += sp->internal ? 0 : 1;
  lied_block_fn fn = sp->tpl.blocks[id.blk].fn;
  char *base = lied_inst(sp, id.inst);
  if (*last >= 0) {
    lied_step *ls = &l->v[*last];
    if (ls->fn == fn && ls->stride == sp->size && ls->base + ls->count * ls->stride == base) {
      ls->count++;
      return LIED_OK;
    }
  }
  lied_step st = {.fn = fn, .base = base, .stride = sp->size, .count = 1,
                  .lanes = sp->tpl.blocks[id.blk].lanes, .spec = id.spec, .blk = id.blk};
  LIED_TRY(push_step(b, l, st, -1));
  *last = l->n - 1;
  return LIED_OK;
}

/* Section component c: ordered, counted, and added to an open batch or made
 * a new batch with its own step. */
static int emit_section(lied_sb *b, step_list *l, int part, uint32_t c, lied_sec_order *t,
                        lied_sec_open *open) {
  lied_sched_stats *st = &b->s->st;
  LIED_TRY(lied_sb_section_order(b, c, t));
  for (int i = 0; i < t->n; i++)
    if (!b->m->specs[lied_sb_decode(b, t->ord[i]).spec].internal) st->blocks[part]++;
  st->sections++;
  st->tears += (uint64_t)t->np;
  st->section_size[t->np < LIED_SEC_HIST ? t->np : LIED_SEC_HIST]++;
  if (t->np > st->max_section) st->max_section = t->np;
  int isec;
  LIED_TRY(lied_sb_add_section(b, t, open, &isec));
  return isec < 0 ? LIED_OK : push_step(b, l, (lied_step){.spec = -1, .blk = -1}, isec);
}

/* Move the step lists into the schedule (also after a failure, so that
 * lied_sched_free frees them), section steps pointing at their batches. */
static void attach_steps(lied_sb *b, step_list *parts) {
  lied_sched *s = b->s;
  for (int p = 0; p < LIED_NPARTS; p++) {
    for (int i = 0; i < parts[p].n; i++)
      if (parts[p].isec[i] >= 0) {
        parts[p].v[i].sec = &s->secs[parts[p].isec[i]];
        parts[p].v[i].count = parts[p].v[i].sec->count;
      }
    free(parts[p].isec);
    s->steps[p] = parts[p].v;
    s->nsteps[p] = parts[p].n;
    s->st.steps[p] = (uint64_t)parts[p].n;
  }
  s->st.section_batches = (uint64_t)s->nsecs;
}

int lied_sb_emit_steps(lied_sb *b) {
  uint32_t maxlevel = 0;
  for (uint32_t c = 0; c < b->ncomp; c++)
    if (b->level[c] > maxlevel) maxlevel = b->level[c];
  const uint32_t nlevels = maxlevel + 1;
  uint32_t *cnt, *items;
  int rc = sort_components(b, nlevels, &cnt, &items);
  lied_sec_order t = {0};
  step_list parts[LIED_NPARTS] = {{0}};
  uint64_t begin = 0;
  for (uint64_t key = 0; key < (uint64_t)nlevels * LIED_NPARTS && rc == LIED_OK; key++) {
    /* components of one level are independent: blocks merge, sections batch */
    const int part = (int)(key / nlevels);
    lied_sec_open open = {.n = 0};
    int last = -1;
    for (uint64_t it = begin; it < cnt[key] && rc == LIED_OK; it++)
      rc = (b->cflag[items[it]] & CF_SECTION)
               ? emit_section(b, &parts[part], part, items[it], &t, &open)
               : emit_block(b, &parts[part], part, items[it], &last);
    begin = cnt[key];
  }
  lied_sec_order_free(&t);
  free(cnt);
  free(items);
  attach_steps(b, parts);
  return rc;
}
