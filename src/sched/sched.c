/* sched.c - building a schedule: the block graph of a wired model (or of
 * copy 0 of independent copies), its classification, steps and sections,
 * alignment, state maps and the probe's work space; the graph is freed
 * before returning. The stages live in graphbuild.c, steps.c, secorder.c,
 * sections.c, passes.c, align.c, replicate.c and states.c. */
#include "sched/sched.h"
#include <stdlib.h>
#include "sched/sbuild.h"
#include "sched/spsec.h"

/* Has a linear section of the graph LIED_SPARSE_MIN_TEARS tearing pairs or
 * more (members writing residuals, counted before the sections are ordered)? */
static int large_section(const lied_sb *b) {
  uint32_t *pairs = lied_xcalloc((size_t)b->ncomp + 1, sizeof *pairs, "sections", b->e);
  if (!pairs) return 0; /* the ordinary path reports the shortage */
  int large = 0;
  for (uint32_t v = 0; v < b->nnodes && !large; v++) {
    const uint32_t c = b->comp[v];
    if (!(b->cflag[c] & CF_SECTION)) continue;
    const node_id id = lied_sb_decode(b, v);
    const lied_template *t = &b->m->specs[id.spec].tpl;
    for (int q = 0; q < t->ntears; q++) pairs[c] += t->tears[q].res_block == id.blk;
    large = pairs[c] >= LIED_SPARSE_MIN_TEARS;
  }
  free(pairs);
  return large;
}

/* The block graph and everything built from it while it exists; 1 when
 * the window's schedule does not hold (window.c): build again without. */
static int from_graph(lied_sb *b, unsigned flags) {
  lied_sched *s = b->s;
  b->order = lied_model_arena_order(b->m, &b->norder, b->e);
  if (!b->order) return LIED_E_NOMEM;
  if (!(flags & LIED_SCHED_NO_REPLICATE)) b->copies = lied_sb_replicable(b->m, b->order, b->norder);
  if (!b->copies && !(flags & LIED_SCHED_NO_WINDOW)) LIED_TRY(lied_sb_window(b));
  LIED_TRY(lied_sb_build_graph(b));
  s->st.nodes = b->nnodes;
  s->st.edges = b->nedges;
  LIED_TRY(lied_sb_classify(b));
  /* the node flags and level arrays are still needed; the graph too (cycles) */
  /* a section large enough to be solved sparsely spans its arrays: a
   * window cannot hold it (and its dense passes would cost O(n^2)) */
  if (b->wshift && large_section(b)) return 1;
  LIED_TRY(lied_sb_emit_steps(b));
  lied_sb_verify_order(b); /* LIED_ASSERT builds only */
  if (b->copies) lied_sb_replicate(s, b->copies);
  LIED_TRY(lied_sb_section_passes(b));
  lied_sb_check_alignment(b);
#ifdef LIED_BENCH_NO_SKEW /* a build for measuring what skewing gains (bench/README.md) */
  flags |= LIED_SCHED_NO_SKEW;
#endif
  if (!(flags & LIED_SCHED_NO_SKEW)) LIED_TRY(lied_sb_skew(b)); /* with the graph */
  return b->wshift ? lied_sb_window_stretch(b) : LIED_OK;
}

size_t lied_sched_work_size(const lied_sched *s, size_t *nint) {
  const size_t k = (size_t)s->maxk;
  *nint = s->chunk * (k + 1);
  return s->chunk * (k * k + 4 * k + 1);
}

/* The probe's work space for chunks of LIED_PROBE_CHUNK instances, and the
 * factors of constant sections (per instance, and a flag per chunk). */
static int alloc_work(lied_sched *s, lied_err *e) {
  s->maxk = 0; /* dense sections only */
  s->naug = 0;
  for (int i = 0; i < s->nsteps[LIED_PART_DYN]; i++) {
    lied_section *sec = s->steps[LIED_PART_DYN][i].sec;
    if (sec && sec->sparse && sec->sparse->z0 < 0) {
      sec->sparse->z0 = (int64_t)s->naug;
      s->naug += (uint64_t)sec->sparse->nu;
    }
  }
  for (int i = 0; i < s->nsecs; i++)
    if (!s->secs[i].sparse && s->secs[i].k > s->maxk) s->maxk = s->secs[i].k;
  s->chunk = LIED_PROBE_CHUNK;
  size_t nint, ndbl = lied_sched_work_size(s, &nint);
  s->work = lied_xcalloc_lines(ndbl, sizeof(double), "probe", e);
  s->wpiv = lied_xmalloc(sizeof(int) * nint, "probe", e);
  if (!s->work || !s->wpiv) return LIED_E_NOMEM;
  for (int i = 0; i < s->nsecs; i++) {
    lied_section *sec = &s->secs[i];
    if (!sec->constant || sec->sparse) continue;
    size_t kk = (size_t)sec->k;
    sec->lu = lied_xmalloc(sizeof(double) * sec->count * kk * kk, "section factors", e);
    sec->piv = lied_xmalloc(sizeof(int) * sec->count * kk, "section factors", e);
    sec->factored = lied_xcalloc(sec->count / s->chunk + 1, 1, "section factors", e);
    if (!sec->lu || !sec->piv || !sec->factored) return LIED_E_NOMEM;
  }
  return LIED_OK;
}

/* The steps packed for one-thread dispatch (lied_run_step), once they are
 * final (replicated, skewed, stretched). */
static int pack_steps(lied_sched *s, lied_err *e) {
  for (int p = 0; p < LIED_NPARTS; p++) {
    const int n = s->nsteps[p];
    if (!n) continue;
    s->run[p] = lied_xmalloc(sizeof *s->run[p] * (size_t)n, "schedule", e);
    if (!s->run[p]) return LIED_E_NOMEM;
    for (int i = 0; i < n; i++) {
      const lied_step *st = &s->steps[p][i];
      lied_run_step *r = &s->run[p][i];
      if (st->sec)
        *r = (lied_run_step){.fn = NULL, .sec = st->sec};
      else
        *r = (lied_run_step){.fn = st->fn, .base = st->base, .stride = st->stride,
                             .count = st->count};
    }
  }
  return LIED_OK;
}

int lied_sched_build(lied_sched **out, lied_model *m, unsigned flags, lied_err *e) {
  *out = NULL;
  lied_sched *s;
  lied_sb b;
  int rc;
  for (;;) {
    s = lied_xcalloc(1, sizeof *s, "schedule", e);
    if (!s) return LIED_E_NOMEM;
    s->model = m;
    s->failed_sec = -1;
    b = (lied_sb){.m = m, .s = s, .e = e, .flags_sched = flags};
    rc = from_graph(&b, flags);
    lied_sb_free(&b);
    if (rc != 1) break;
    lied_sched_free(s); /* the window's schedule did not hold */
    flags |= LIED_SCHED_NO_WINDOW;
  }
  if (rc == LIED_OK) rc = lied_sb_map_states(&b);
  /* states must follow the same instance indexing */
  for (int i = 0; rc == LIED_OK && s->aligned && i < s->nsmap; i++)
    if (s->smap[i].count != s->aligned_n) s->aligned = 0;
  free(s->skew_spec_lag); /* now in the state maps */
  s->skew_spec_lag = NULL;
  if (rc == LIED_OK) rc = lied_sched_note_sections(s, e); /* for messages */
  if (rc == LIED_OK) rc = alloc_work(s, e);
  if (rc == LIED_OK) rc = pack_steps(s, e);
  if (rc == LIED_OK) lied_sched_verify(s); /* LIED_ASSERT builds only */
  if (rc != LIED_OK) {
    lied_sched_free(s);
    return rc;
  }
  *out = s;
  return LIED_OK;
}

void lied_sched_free(lied_sched *s) {
  if (!s) return;
  for (int i = 0; i < s->nsecs; i++) {
    free(s->secs[i].blk);
    free(s->secs[i].pairs);
    free(s->secs[i].lu);
    free(s->secs[i].piv);
    free(s->secs[i].factored);
    free(s->secs[i].fin);
    free(s->secs[i].cord);
    free(s->secs[i].pstart);
    free(s->secs[i].pblk);
    lied_spsec_free(s->secs[i].sparse);
    free(s->secs[i].notes);
  }
  free(s->secs);
  for (int p = 0; p < LIED_NPARTS; p++) free(s->steps[p]);
  for (int p = 0; p < LIED_NPARTS; p++) free(s->run[p]);
  free(s->smap);
  free(s->skew_spec_lag);
  free(s->regular);
  free(s->work);
  free(s->wpiv);
  free(s);
}
