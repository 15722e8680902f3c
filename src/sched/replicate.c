/* replicate.c - replicated scheduling: when the model is n >= 2
 * independent copies of one structure, the graph of copy 0 is scheduled and
 * the schedule stretched over every copy. */
#include "core/assert.h"
#include "sched/sbuild.h"

/* The number of instances every leaf spec has, or 0 when they differ. */
static uint64_t common_count(const lied_model *m) {
  uint64_t n = 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->total) continue;
    if (!n) n = sp->total;
    if (sp->total != n) return 0;
  }
  return n;
}

/* Does every instance i of sp read, through every port pointer, instance i
 * of the source (instance 0's pointer moved by i instances of the source),
 * or the same zeros? Checked pointer by pointer, without allocating. */
static int reads_own_copy(const lied_model *m, const int *order, int norder,
                          const lied_spec *sp, uint64_t n) {
  for (int r = 0; r < sp->tpl.nrefs; r++) {
    const lied_tref *ref = &sp->tpl.refs[r];
    if (ref->kind != LIED_REF_PORT) continue;
    const char *p0 = (const char *)PTR_AT(lied_inst(sp, 0), ref->offset);
    uint64_t q;
    uint32_t off;
    int s2 = lied_model_locate(m, order, norder, p0, &q, &off);
    if (s2 >= 0 && q != 0) return 0;
    const size_t step = s2 >= 0 ? m->specs[s2].size : 0;
    const char *inst = lied_inst(sp, 1);
    for (uint64_t k = 1; k < n; k++, inst += sp->size)
      if ((const char *)PTR_AT(inst, ref->offset) != p0 + k * step) return 0;
  }
  return 1;
}

/* The number n of copies when the model is n >= 2 independent copies of one
 * structure (an array of models and nothing else, as the scaling experiment
 * or an ensemble): every spec has n instances and every port of instance i
 * reads instance i of its source. 0 otherwise. Then the graph of copy 0
 * schedules them all (see lied_sched_build), in O(n) time and no per-copy
 * memory. */
uint64_t lied_sb_replicable(const lied_model *m, const int *order, int norder) {
  const uint64_t n = common_count(m);
  if (n < 2) return 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (sp->cls && sp->total && !reads_own_copy(m, order, norder, sp, n)) return 0;
  }
  return n;
}

/* The schedule of copy 0 for all n copies: every step and section batch
 * covers instances 0 .. n-1, and the counts are the model's. */
void lied_sb_replicate(lied_sched *s, uint64_t n) {
  LIED_ASSERT(n >= 2);
  for (int i = 0; i < s->nsecs; i++) s->secs[i].count *= n;
  for (int p = 0; p < LIED_NPARTS; p++) {
    for (int i = 0; i < s->nsteps[p]; i++) {
      lied_step *st = &s->steps[p][i];
      /* copy 0's steps cover one instance each (the graph holds copy 0) */
      LIED_ASSERT(st->sec ? st->sec->count % n == 0 : st->count == 1);
      st->count = st->sec ? st->sec->count : st->count * n;
    }
    s->st.blocks[p] *= n;
  }
  s->st.nodes *= n;
  s->st.edges *= n;
  s->st.sections *= n;
  s->st.tears *= n;
  for (int k = 0; k <= LIED_SEC_HIST; k++) s->st.section_size[k] *= n;
  s->st.copies = n;
}
