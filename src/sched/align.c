/* align.c - is the dynamic part "aligned": does every step cover instances
 * 0 .. n-1 of its specs and every dependency inside the part link equal
 * instance indices (n independent copies of one structure, such as n crane
 * crabs)? Then an evaluation can run all steps chunk by chunk of instances,
 * keeping each chunk's data in cache (loop interchange). */
#include "core/assert.h"
#include "sched/sbuild.h"

/* Is p the start of instance 0 of a spec? */
static int at_instance0(const lied_sb *b, const void *p) {
  uint64_t inst;
  uint32_t off;
  return lied_model_locate(b->m, b->order, b->norder, p, &inst, &off) >= 0 && inst == 0 &&
         off == 0;
}

/* Does step st cover instances 0 .. n-1 (members and tearing pairs of a
 * section batch alike)? */
static int covers(const lied_sb *b, const lied_step *st, uint64_t n) {
  if (!st->sec) return st->count == n && at_instance0(b, st->base);
  const lied_section *sec = st->sec;
  if (sec->count != n) return 0;
  for (int k = 0; k < sec->nblk; k++)
    if (!at_instance0(b, sec->blk[k].base)) return 0;
  for (int p = 0; p < sec->k; p++)
    if (sec->pairs[p].inst0 != 0) return 0;
  return 1;
}

/* Does every dependency between dynamic components link equal instance
 * indices? Only nodes flagged NF_XINST have other ones. */
static int same_instances(const lied_sb *b) {
  const uint8_t dyn = CF_DYN | CF_NEED;
  for (uint32_t v = 0; v < b->nnodes; v++) {
    if (!(b->flags[v] & NF_XINST)) continue;
    if ((b->cflag[b->comp[v]] & dyn) != dyn) continue;
    node_id a = lied_sb_decode(b, v);
    for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++) {
      uint32_t u = b->g.adj[k];
      if ((b->cflag[b->comp[u]] & dyn) != dyn) continue;
      if (lied_sb_decode(b, u).inst != a.inst) return 0;
    }
  }
  return 1;
}

void lied_sb_check_alignment(lied_sb *b) {
  lied_sched *s = b->s;
  s->aligned = 0;
  if (s->nsteps[LIED_PART_DYN] == 0) return;
  const lied_step *st = s->steps[LIED_PART_DYN];
  uint64_t n = st[0].sec ? st[0].sec->count : st[0].count;
  if (n < 2) return;
  for (int i = 0; i < s->nsteps[LIED_PART_DYN]; i++)
    if (!covers(b, &st[i], n)) return;
  if (!same_instances(b)) return;
  LIED_ASSERT(!s->skewed);
  s->aligned = 1;
  s->aligned_n = n;
}
