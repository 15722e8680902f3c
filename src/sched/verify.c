/* verify.c - the schedule's invariants, checked where LIED_ASSERT is on
 * (core/assert.h; Debug and sanitizer builds): the order of the steps and
 * of the sections' members against the block graph while it exists, and
 * the shape of the finished schedule (counts, bounds, state maps, the skew's
 * lags and margins). A mistake in any of them gives wrong numbers, not a
 * crash. Without LIED_ASSERTS they are not compiled (sbuild.h). */
#include <stdlib.h>
#include "core/assert.h"
#include "sched/sbuild.h"

#ifdef LIED_ASSERTS

/* The instance of p in the spec whose arena holds it (the graph's
 * instance: before a window is stretched, steps hold graph instances). */
static uint64_t inst_of(const lied_spec *sp, const char *p) {
  LIED_ASSERT(p >= sp->arena && (size_t)(p - sp->arena) % sp->size == 0);
  return (uint64_t)(p - sp->arena) / sp->size;
}

/* Mark step i of part `part` (position `key` in the order of all steps) on
 * its nodes: key[v], and for a section's members their place in the
 * section's order, pos[v]. */
static void mark_step(const lied_sb *b, const lied_step *st, uint32_t k, uint32_t *key,
                      int32_t *pos) {
  if (!st->sec) {
    const lied_spec *sp = &b->m->specs[st->spec];
    LIED_ASSERT(st->stride == sp->size && st->blk >= 0 && st->blk < sp->tpl.nblocks);
    const uint32_t v0 = lied_sb_encode(b, st->spec, st->blk, inst_of(sp, st->base));
    for (uint64_t q = 0; q < st->count; q++) key[v0 + q] = k, pos[v0 + q] = -1;
    return;
  }
  const lied_section *sec = st->sec;
  const uint32_t *first = b->secb[sec - b->s->secs].first;
  for (uint64_t q = 0; q < sec->count; q++)
    for (int m = 0; m < sec->nblk; m++) /* section q of the batch: instances advance by one */
      key[first[m] + q] = k, pos[first[m] + q] = m;
}

void lied_sb_verify_order(const lied_sb *b) {
  const lied_sched *s = b->s;
  uint32_t *key = malloc(sizeof *key * ((size_t)b->nnodes + 1));
  int32_t *pos = malloc(sizeof *pos * ((size_t)b->nnodes + 1));
  if (!key || !pos) { /* a check only: nothing to report */
    free(key), free(pos);
    return;
  }
  for (uint32_t v = 0; v < b->nnodes; v++) key[v] = UINT32_MAX;
  uint32_t k = 0;
  for (int p = 0; p < LIED_NPARTS; p++)
    for (int i = 0; i < s->nsteps[p]; i++) mark_step(b, &s->steps[p][i], k++, key, pos);
  for (uint32_t v = 0; v < b->nnodes; v++) {
    LIED_ASSERT(key[v] != UINT32_MAX); /* every block instance runs in one step */
    for (uint32_t e = b->g.rowptr[v]; e < b->g.rowptr[v + 1]; e++) {
      const uint32_t u = b->g.adj[e];
      if (b->comp[u] != b->comp[v]) {
        /* v reads u: u's level is below, u runs in an earlier step (parts
         * constant, dynamic, output in that order) */
        LIED_ASSERT(b->level[b->comp[u]] < b->level[b->comp[v]]);
        LIED_ASSERT(key[u] < key[v]);
      } else if (!IS_TEAR(b, e) && u != v) {
        /* inside a section: u is a member before v */
        LIED_ASSERT(key[u] == key[v] && pos[u] >= 0 && pos[u] < pos[v]);
      }
    }
  }
  free(key), free(pos);
}

/* Instances [first, first + n) of the spec holding base (stride bytes
 * apart) lie in its arena. */
static void in_arena(const lied_model *m, const char *base, size_t stride, uint64_t n) {
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->total || base < sp->arena || base >= sp->arena + sp->total * sp->size)
      continue;
    LIED_ASSERT(stride == sp->size && (size_t)(base - sp->arena) % sp->size == 0);
    LIED_ASSERT(inst_of(sp, base) + n <= sp->total);
    return;
  }
  LIED_ASSERT(!"a step's instances lie in an arena");
}

static void verify_section(const lied_sched *s, const lied_section *sec) {
  /* a dense section fits the work space (maxk: dense sections only) */
  LIED_ASSERT(sec->nblk >= 1 && sec->k >= 1 && sec->count >= 1 && (sec->sparse || sec->k <= s->maxk));
  for (int m = 0; m < sec->nblk; m++) in_arena(s->model, sec->blk[m].base, sec->blk[m].stride,
                                               sec->count);
  for (int p = 0; p < sec->k; p++) {
    const lied_sec_pair *pr = &sec->pairs[p];
    LIED_ASSERT(pr->spec >= 0 && pr->spec < s->model->nspecs);
    LIED_ASSERT(pr->inst0 + sec->count <= s->model->specs[pr->spec].total);
  }
  for (int i = 0; i < sec->nfin; i++)
    LIED_ASSERT(sec->fin[i] >= 0 && sec->fin[i] < sec->nblk && (i == 0 || sec->fin[i - 1] < sec->fin[i]));
  /* a sparse section (sched/spsec.h): one instance, no column passes */
  LIED_ASSERT(!sec->sparse || sec->count == 1);
  if (sec->sparse) return;
  /* the column passes: every tearing variable once, members in range */
  uint64_t seen = 0;
  for (int i = 0; i < sec->k; i++) {
    LIED_ASSERT(sec->cord[i] >= 0 && sec->cord[i] < sec->k);
    LIED_ASSERT(sec->k > 64 || !(seen >> sec->cord[i] & 1));
    if (sec->cord[i] < 64) seen |= (uint64_t)1 << sec->cord[i];
    LIED_ASSERT(sec->pstart[i] <= sec->pstart[i + 1]);
  }
  for (int q = 0; q < sec->pstart[sec->k]; q++)
    LIED_ASSERT(sec->pblk[q] >= 0 && sec->pblk[q] < sec->nblk);
}

void lied_sched_verify(const lied_sched *s) {
  const lied_model *m = s->model;
  for (int p = 0; p < LIED_NPARTS; p++)
    for (int i = 0; i < s->nsteps[p]; i++) {
      const lied_step *st = &s->steps[p][i];
      LIED_ASSERT(st->count >= 1);
      if (st->sec) {
        LIED_ASSERT(st->sec >= s->secs && st->sec < s->secs + s->nsecs);
        LIED_ASSERT(st->count == st->sec->count);
        verify_section(s, st->sec);
      } else {
        LIED_ASSERT(st->fn && st->spec >= 0 && st->spec < m->nspecs);
        in_arena(m, st->base, st->stride, st->count);
      }
      if (s->st.copies) LIED_ASSERT(st->count % s->st.copies == 0);
    }
  /* the state maps: one after another in the state vector, every state once */
  uint64_t x = 0;
  for (int i = 0; i < s->nsmap; i++) {
    const lied_state_map *sm = &s->smap[i];
    LIED_ASSERT(sm->x0 == x && sm->n >= 1 && sm->lag_out >= sm->lag_in);
    in_arena(m, sm->base, sm->stride, sm->count);
    x += sm->count * (uint64_t)sm->n;
  }
  LIED_ASSERT(x == s->nstates);
  const lied_step *dyn = s->steps[LIED_PART_DYN];
  const int nd = s->nsteps[LIED_PART_DYN];
  for (int j = 0; s->aligned && j < nd; j++) LIED_ASSERT(dyn[j].count == s->aligned_n);
  if (!s->skewed) return;
  /* the skew: every step's coordinates within the loop, its lag and margins
   * within the largest; a constant section's chunks at whole chunks of its
   * own instances (its factors are kept per chunk) */
  const int64_t C = (int64_t)s->chunk;
  LIED_ASSERT(!s->aligned && s->skew_stage % s->chunk == 0);
  for (int j = 0; j < nd; j++) {
    const lied_step *st = &dyn[j];
    LIED_ASSERT(st->lag >= 0 && (uint64_t)st->lag <= s->skew_maxlag);
    LIED_ASSERT(st->ml >= 0 && st->mr >= 0 && (uint64_t)(st->ml + st->mr) <= s->skew_margin);
    LIED_ASSERT(st->first + st->count <= s->skew_coords);
    LIED_ASSERT((uint64_t)st->lag + st->first + st->count <= s->skew_end);
    if (st->sec && st->sec->constant)
      LIED_ASSERT((st->lag + (int64_t)st->first) % C == 0 && (st->ml - (int64_t)st->first) % C == 0 &&
                  (st->mr + (int64_t)st->first) % C == 0);
  }
}

#else
typedef int lied_verify_off; /* ISO C wants a translation unit to declare something */
#endif
