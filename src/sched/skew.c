/* skew.c - skewed evaluation of coupled arrays.
 *
 * An aligned dynamic part (align.c: independent copies) runs chunk by chunk:
 * every step over chunk 0, then over chunk 1, ..., so one chunk's data stays
 * in cache. A model of coupled arrays (a chain of bodies, a discretised
 * pipe) is not aligned: instance q of a step reads instances q + d of
 * earlier steps (a spring reads the next crab's cart). It can still run
 * chunk by chunk if every step lags behind the chunk by enough instances
 * that what it reads was computed in this chunk or before: step j runs its
 * instances [c - lag_j, c + C - lag_j) when the loop is at chunk c (C
 * instances), and a dependency of its instance x on instance y of step i
 * (i before j) is met when y + lag_i <= x + lag_j. So
 *   lag_j = max(0, max over dependencies (lag_i + y - x)),
 * rounded up to whole chunks (constant sections keep their factors per
 * chunk of their instances). The lags come from the block graph, edge by
 * edge, in step order; coordinates are indices inside each step (its
 * first instance is 0), so arrays of different lengths (n crabs, n - 1
 * springs) need nothing special. A model whose lags are large (a component
 * that every instance reads, whose readers must wait for all of it) gains
 * nothing: it stays level by level. The result is the same bits: every
 * instance runs the same code on the same inputs, only the order between
 * instances changes. */
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "sched/lanering.h"
#include "sched/par.h"
#include "sched/probe.h"
#include "sched/sbuild.h"

/* Instances [lo, hi) of one block run in dynamic step `step`, at
 * coordinates co .. co + hi - lo - 1; their nodes are n0 .. n0 + hi - lo - 1
 * (node ids are linear in the instance index). */
typedef struct skew_ent {
  uint64_t lo, hi;
  uint64_t co;
  uint32_t n0;
  int step;
  int cut; /* scheduled from a window (window.c): coordinates from b->wcut on
              are S further on in the model */
} skew_ent;

/* The model's coordinate of coordinate c of entry p (window.c). */
static int64_t model_co(const lied_sb *b, const skew_ent *p, uint64_t c) {
  return (int64_t)(p->cut && c >= b->wcut ? c + b->wshift : c);
}

static int cmp_ent(const void *pa, const void *pb) {
  const skew_ent *a = pa, *b = pb;
  return (a->n0 > b->n0) - (a->n0 < b->n0);
}

/* The entry holding node u (entries sorted by n0, disjoint), or NULL (not
 * in the dynamic part); *hint is the last answer, tried first. */
static const skew_ent *find(const skew_ent *ent, int n, uint32_t u, int *hint) {
  const skew_ent *h = &ent[*hint];
  if (u >= h->n0 && u - h->n0 < h->hi - h->lo) return h;
  int lo = 0, hi = n - 1, best = -1;
  while (lo <= hi) { /* the last entry with n0 <= u */
    int mid = (lo + hi) / 2;
    if (ent[mid].n0 <= u) best = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  if (best < 0 || u - ent[best].n0 >= ent[best].hi - ent[best].lo) return NULL;
  *hint = best;
  return &ent[best];
}

/* The instance index of p in its spec. */
static uint64_t inst_of(const lied_sb *b, const void *p) {
  uint64_t inst = 0;
  uint32_t off;
  lied_model_locate(b->m, b->order, b->norder, p, &inst, &off);
  return inst;
}

/* What step `own` needs from the dependencies of its nodes: its lag, and
 * its margins (threads, below) ml and mr; 0, or -1 when a dependency points
 * forward (not expected: then no skew). */
typedef struct skew_need {
  int64_t lag, ml, mr;
  int64_t lo; /* the least lag_i + y - x over its dependencies (waves) */
} skew_need;

static int step_needs(const lied_sb *b, const skew_ent *ent, int nent, const skew_ent *own,
                      const skew_need *have, skew_need *out) {
  const lied_graph *g = &b->g;
  skew_need N = {0, 0, 0, INT64_MAX};
  int hint = 0;
  for (uint64_t x = 0; x < own->hi - own->lo; x++) {
    const uint32_t v = own->n0 + (uint32_t)x;
    const uint64_t xg = own->co + x;
    for (uint32_t k = g->rowptr[v]; k < g->rowptr[v + 1]; k++) {
      const uint32_t u = g->adj[k];
      const skew_ent *p = find(ent, nent, u, &hint);
      if (!p || p->step == own->step) continue; /* constant part; inside a section */
      LIED_ASSERT(p->step < own->step); /* the steps' order: what a step reads comes before */
      if (p->step > own->step) return -1;
      const skew_need *h = &have[p->step];
      /* y - x: between two arrays' copies as the window has it (it keeps
       * their distances), else in the model's coordinates (window.c) */
      const uint64_t yg = p->co + (u - p->n0);
      const int64_t d = p->cut == own->cut ? (int64_t)yg - (int64_t)xg
                                           : model_co(b, p, yg) - model_co(b, own, xg);
      if (h->lag + d > N.lag) N.lag = h->lag + d;
      if (h->ml - d > N.ml) N.ml = h->ml - d;
      if (h->mr + d > N.mr) N.mr = h->mr + d;
      if (h->lag + d < N.lo) N.lo = h->lag + d;
    }
  }
  *out = N;
  return 0;
}

/* The smallest v >= need with v = r (mod C). */
static int64_t round_to(int64_t need, int64_t r, int64_t C) {
  int64_t m = ((r - need) % C + C) % C;
  return need + m;
}

/* Does block k of t read a state of its instance / write a derivative? */
static int reads_state(const lied_template *t, int k) {
  const lied_tblock *blk = &t->blocks[k];
  for (uint32_t r = blk->in0; r < blk->in0 + blk->nin; r++)
    if (t->refs[r].kind == LIED_REF_STATE) return 1;
  return 0;
}

static int writes_der(const lied_template *t, int k) {
  const lied_tblock *blk = &t->blocks[k];
  for (uint32_t r = blk->out0; r < blk->out0 + blk->nout; r++)
    for (int q = 0; q < t->nstates; q++)
      if (t->refs[r].offset == t->states[q].der) return 1;
  return 0;
}

/* Waves (solve/wave.c): several stages of explicit Runge-Kutta steps in
 * flight, stage g + 1 running D instances behind stage g, states going in
 * and derivatives coming out chunk by chunk. Per spec with states, the
 * position of its states' chunk behind the loop's chunk: lag_in, at or
 * before the first step that reads them; lag_out, after the last that
 * writes a derivative (a block's coordinate of instance q is q + co - lo).
 * D keeps stage g + 1 from overwriting what stage g still reads: for each
 * dependency of step j on y = x + d of step i, D >= lag_j - lag_i - d
 * (stage g reads y at x's chunk, stage g + 1 writes it at its own); for
 * states and derivatives, D >= lag_out - lag_in, >= the last reader's
 * position - lag_in and >= lag_out - the first writer's; and D >= one
 * chunk. A block that reads another instance's state directly (no block
 * between: NF_XSTATE) has no dependency to go by: no waves. Sets
 * s->skew_stage (0: no waves) and s->skew_spec_lag. */
static int wave_lags(lied_sb *b, const skew_ent *byst, int nent, const skew_need *need) {
  lied_sched *s = b->s;
  const lied_model *m = b->m;
  const int64_t C = (int64_t)LIED_PROBE_CHUNK;
  s->skew_stage = 0;
  for (int i = 0; i < nent; i++)
    for (uint64_t x = 0; x < byst[i].hi - byst[i].lo; x++)
      if (b->flags[byst[i].n0 + x] & NF_XSTATE) return LIED_OK;
  /* per spec: least and largest reader position, least and largest writer */
  int64_t *L = lied_xmalloc(sizeof *L * 4 * (size_t)m->nspecs, "schedule: waves", b->e);
  if (!L) return LIED_E_NOMEM;
  for (int sp = 0; sp < m->nspecs; sp++)
    L[4 * sp] = L[4 * sp + 2] = INT64_MAX, L[4 * sp + 1] = L[4 * sp + 3] = INT64_MIN;
  int64_t D = C;
  for (int i = 0; i < nent; i++) {
    const int j = byst[i].step;
    if (need[j].lo != INT64_MAX && s->steps[LIED_PART_DYN][j].lag - need[j].lo > D)
      D = s->steps[LIED_PART_DYN][j].lag - need[j].lo;
    const node_id id = lied_sb_decode(b, byst[i].n0);
    const lied_template *t = &m->specs[id.spec].tpl;
    if (!t->nstates) continue;
    /* in the model's coordinates (window.c: a member outside the arrays in
     * a batch of copies after the cut keeps its own instance index) */
    const int64_t pos = s->steps[LIED_PART_DYN][j].lag + model_co(b, &byst[i], byst[i].co) -
                        (int64_t)lied_sb_real(b, id.spec, byst[i].lo);
    int64_t *l = &L[4 * id.spec];
    if (reads_state(t, id.blk)) {
      if (pos < l[0]) l[0] = pos;
      if (pos > l[1]) l[1] = pos;
    }
    if (writes_der(t, id.blk)) {
      if (pos < l[2]) l[2] = pos;
      if (pos > l[3]) l[3] = pos;
    }
  }
  for (int sp = 0; sp < m->nspecs; sp++) {
    int64_t *l = &L[4 * sp];
    if (l[0] == INT64_MAX) l[0] = l[1] = l[2] == INT64_MAX ? 0 : l[2]; /* no reader */
    if (l[2] == INT64_MAX) l[2] = l[3] = l[0];                          /* no writer */
    const int64_t in = l[0], out = l[3] > in ? l[3] : in;
    if (out - in > D) D = out - in;
    if (l[1] - in > D) D = l[1] - in;
    if (out - l[2] > D) D = out - l[2];
    L[2 * sp] = in, L[2 * sp + 1] = out; /* in place: sp <= 2 sp */
  }
  int64_t *lag = realloc(L, sizeof *L * 2 * (size_t)m->nspecs);
  s->skew_spec_lag = lag ? lag : L;
  s->skew_stage = (uint64_t)((D + C - 1) / C * C);
  for (int sp = 0; sp < m->nspecs; sp++) /* a state goes in before its derivative comes out */
    LIED_ASSERT(s->skew_spec_lag[2 * sp + 1] >= s->skew_spec_lag[2 * sp]);
  LIED_ASSERT(s->skew_stage >= (uint64_t)C);
  s->st.wave_gap = s->skew_stage;
  return LIED_OK;
}

/* The lags of the steps (need[], zero on entry) in step order; res[j] >= 0:
 * step j's lag is rounded up to res[j] modulo the chunk (lane groups,
 * align_lanes), else a constant section's to its own whole chunks. 0 when a
 * dependency points forward (no skew). */
static int lags(const lied_sb *b, const skew_ent *ent, const skew_ent *byst, int nent,
                skew_need *need, const int64_t *res, int64_t *most_lag, int64_t *most_margin) {
  const lied_step *st = b->s->steps[LIED_PART_DYN];
  const int64_t C = (int64_t)LIED_PROBE_CHUNK;
  *most_lag = *most_margin = 0;
  for (int i = 0; i < nent; i++) {
    skew_need N;
    skew_need *h = &need[byst[i].step];
    if (step_needs(b, ent, nent, &byst[i], need, &N)) return 0;
    /* members of one section batch: the largest of their needs */
    if (N.lag > h->lag) h->lag = N.lag;
    if (N.ml > h->ml) h->ml = N.ml;
    if (N.mr > h->mr) h->mr = N.mr;
    if (i == 0 || byst[i - 1].step != byst[i].step || N.lo < h->lo) h->lo = N.lo;
    if (i + 1 < nent && byst[i + 1].step == byst[i].step) continue;
    /* the step is complete. A constant section batch's chunks of its own
     * instances start at whole chunks (it keeps factors per chunk): its
     * coordinates first + C k are where chunks and ranges of threads
     * start. Lane groups want the pieces of every step of a spec to start
     * at the same instance modulo C (align_lanes). */
    const lied_step *sj = &st[byst[i].step];
    const int64_t first = (int64_t)byst[i].co;
    if (res && res[byst[i].step] >= 0) {
      h->lag = round_to(h->lag, res[byst[i].step], C);
    } else if (sj->sec && sj->sec->constant) {
      h->lag = round_to(h->lag, -first, C);
    }
    if (sj->sec && sj->sec->constant) {
      h->ml = round_to(h->ml, first, C);
      h->mr = round_to(h->mr, -first, C);
    }
    LIED_ASSERT(h->lag >= 0 && h->ml >= 0 && h->mr >= 0);
    LIED_ASSERT(!res || res[byst[i].step] < 0 || lied_lr_mod(h->lag) == res[byst[i].step]);
    LIED_ASSERT(!(sj->sec && sj->sec->constant) || lied_lr_mod(h->lag + first) == 0);
    if (h->lag > *most_lag) *most_lag = h->lag;
    if (h->ml + h->mr > *most_margin) *most_margin = h->ml + h->mr;
  }
  return 1;
}

#ifdef LIED_ASSERTS
/* Do the steps' lags and margins as set meet every dependency (as lags
 * computes them)? For LIED_ASSERT only. */
static int lags_hold(const lied_sb *b, const skew_ent *ent, const skew_ent *byst,
                            int nent) {
  const lied_step *st = b->s->steps[LIED_PART_DYN];
  const int ns = b->s->nsteps[LIED_PART_DYN];
  skew_need *have = malloc(sizeof *have * (size_t)(ns + 1));
  if (!have) return 1; /* a check only */
  for (int j = 0; j < ns; j++) have[j] = (skew_need){st[j].lag, st[j].ml, st[j].mr, 0};
  int ok = 1;
  for (int i = 0; i < nent && ok; i++) {
    skew_need N;
    const skew_need *h = &have[byst[i].step];
    ok = !step_needs(b, ent, nent, &byst[i], have, &N) && N.lag <= h->lag && N.ml <= h->ml &&
         N.mr <= h->mr;
  }
  free(have);
  return ok;
}
#endif

/* Would the dynamic part run in lane groups (sched/lanering.h)? Every step
 * longer than an array's end piece has lane forms. */
static int lanes_wanted(const lied_step *st, int ns) {
  for (int j = 0; j < ns; j++) {
    if (lied_lr_count(&st[j]) <= LIED_LR_END) continue;
    if (!st[j].sec && !st[j].lanes) return 0;
    for (int m = 0; st[j].sec && m < st[j].sec->nblk; m++)
      if (!st[j].sec->blk[m].lanes) return 0;
  }
  return 1;
}

/* The lag residues (modulo the chunk C) that put the pieces of every step of
 * a spec at the same instance modulo C, so that each piece is one lane
 * group of each spec it runs (sched/lanering.c): step j runs instance
 * lo_m + x - first of member m at coordinate x = c - lag, so its lag must be
 * lo_m - first - o (mod C) for the spec's group start o. The longest steps
 * choose first (the interior of the arrays); a step whose members disagree
 * (an array's end, a constant section whose own chunks disagree) keeps
 * res -1. */
static int align_lanes(const lied_sb *b, const skew_ent *byst, int nent, const skew_need *need,
                       int64_t *res) {
  const lied_step *st = b->s->steps[LIED_PART_DYN];
  const int ns = b->s->nsteps[LIED_PART_DYN];
  int64_t *o = lied_xmalloc(sizeof *o * (size_t)b->m->nspecs, "schedule: lanes", b->e);
  int *order = lied_xmalloc(sizeof *order * (size_t)ns, "schedule: lanes", b->e);
  int *at = lied_xmalloc(sizeof *at * (size_t)(ns + 1), "schedule: lanes", b->e);
  if (!o || !order || !at) {
    free(o), free(order), free(at);
    return LIED_E_NOMEM;
  }
  for (int k = 0; k < b->m->nspecs; k++) o[k] = -1;
  for (int j = 0; j <= ns; j++) at[j] = nent;
  for (int i = nent - 1; i >= 0; i--) at[byst[i].step] = i; /* a step's first entry */
  for (int j = 0; j < ns; j++) res[j] = -1;
  lied_lr_longest_first(st, ns, order);
  for (int a = 0; a < ns; a++) {
    const int j = order[a];
    int64_t want = st[j].sec && st[j].sec->constant ? lied_lr_mod(-(int64_t)byst[at[j]].co) : -1;
    int agree = 1;
    for (int i = at[j]; i < nent && byst[i].step == j; i++) {
      const int sp = lied_sb_decode(b, byst[i].n0).spec;
      if (o[sp] < 0) continue;
      const int64_t r = lied_lr_mod((int64_t)byst[i].lo - (int64_t)byst[i].co - o[sp]);
      if (want >= 0 && r != want) agree = 0;
      want = r;
    }
    if (!agree) continue;
    if (want < 0) want = lied_lr_mod(need[j].lag);
    res[j] = want;
    for (int i = at[j]; i < nent && byst[i].step == j; i++) {
      const int sp = lied_sb_decode(b, byst[i].n0).spec;
      if (o[sp] < 0) o[sp] = lied_lr_mod((int64_t)byst[i].lo - (int64_t)byst[i].co - want);
    }
  }
  free(o), free(order), free(at);
  return LIED_OK;
}

/* The most instances of a dynamic step (*most) and the steps' entries, a
 * section's members each (*nent); 0 when the schedule holds a section
 * solved sparsely: one instance spanning its network (sched/spsec.h),
 * whose members' lags would span the arrays. */
static int skew_extent(const lied_sb *b, uint64_t *most, int *nent) {
  const lied_step *st = b->s->steps[LIED_PART_DYN];
  *most = 0, *nent = 0;
  for (int j = 0; j < b->s->nsteps[LIED_PART_DYN]; j++) {
    const uint64_t n = st[j].sec ? st[j].sec->count : st[j].count;
    if (n > *most) *most = n;
    *nent += st[j].sec ? st[j].sec->nblk : 1;
    if (st[j].sec && st[j].sec->sparse) return 0;
  }
  return 1;
}

/* ent[]: the entries of the dynamic steps in step order, a block step one,
 * a section one per member. */
static void skew_entries(const lied_sb *b, skew_ent *ent) {
  const lied_sched *s = b->s;
  const lied_step *st = s->steps[LIED_PART_DYN];
  int k = 0;
  for (int j = 0; j < s->nsteps[LIED_PART_DYN]; j++) {
    if (!st[j].sec) {
      uint64_t lo = inst_of(b, st[j].base);
      ent[k++] = (skew_ent){lo, lo + st[j].count, lo,
                            lied_sb_encode(b, st[j].spec, st[j].blk, lo), j,
                            b->wshift && b->wshrunk[st[j].spec]};
      continue;
    }
    const lied_section *sec = st[j].sec;
    const uint32_t *first = b->secb[sec - s->secs].first;
    const node_id id0 = lied_sb_decode(b, first[0]);
    const uint64_t lo0 = id0.inst;
    const int cut = b->wshift && b->wshrunk[id0.spec];
    for (int m = 0; m < sec->nblk; m++) {
      node_id a = lied_sb_decode(b, first[m]);
      /* coordinates of the batch: the first member's instance indices
       * (another member's instance of the same section may have another
       * index in its own spec: a framework sum of the boundary copies) */
      ent[k++] = (skew_ent){a.inst, a.inst + sec->count, lo0, first[m], j, cut};
    }
  }
}

/* The lags found (need) into the steps and the schedule: skewed, its end,
 * coordinates, margin and longest lag; then the waves' lags. */
static int skew_apply(lied_sb *b, const skew_ent *ent, const skew_ent *byst, int nent,
                      const skew_need *need, int64_t most_lag, int64_t most_margin) {
  lied_sched *s = b->s;
  lied_step *st = s->steps[LIED_PART_DYN];
  int64_t end = 0, cend = 0;
  for (int i = 0; i < nent; i++) {
    const int j = byst[i].step;
    st[j].lag = need[j].lag;
    st[j].ml = need[j].ml;
    st[j].mr = need[j].mr;
    st[j].first = byst[i].co; /* the same for every member of a batch */
    const int64_t last = (int64_t)(byst[i].co + byst[i].hi - byst[i].lo);
    if (need[j].lag + last > end) end = need[j].lag + last;
    if (last > cend) cend = last;
  }
#ifdef LIED_ASSERTS
  LIED_ASSERT(lags_hold(b, ent, byst, nent));
#endif
  s->skewed = 1;
  s->skew_end = (uint64_t)end;
  s->skew_coords = (uint64_t)cend;
  s->skew_margin = (uint64_t)most_margin;
  s->skew_maxlag = (uint64_t)most_lag;
  s->st.skew_lag = most_lag > 0 ? (uint64_t)most_lag : 1;
  return wave_lags(b, byst, nent, need);
}

int lied_sb_skew(lied_sb *b) {
  lied_sched *s = b->s;
  s->skewed = 0;
  const lied_step *st = s->steps[LIED_PART_DYN];
  const int ns = s->nsteps[LIED_PART_DYN];
  const uint64_t C = LIED_PROBE_CHUNK;
  if (s->aligned || b->copies || ns < 2) return LIED_OK;
  uint64_t most;
  int nent;
  if (!skew_extent(b, &most, &nent)) return LIED_OK;
  most += b->wshift; /* a window's arrays (window.c) are this much longer */
  const int any = (b->flags_sched & LIED_SCHED_SKEW_ANY) != 0; /* sched.h */
  if (most < 2 * C && !any) return LIED_OK; /* one chunk: nothing to skew */
  skew_ent *ent = lied_xmalloc(sizeof *ent * (size_t)nent, "schedule: lags", b->e);
  skew_need *need = lied_xcalloc((size_t)ns, sizeof *need, "schedule: lags", b->e);
  /* the steps' entries in step order (for the lags), then sorted for find */
  skew_ent *byst = lied_xmalloc(sizeof *byst * (size_t)nent, "schedule: lags", b->e);
  if (!ent || !need || !byst) {
    free(ent), free(need), free(byst);
    return LIED_E_NOMEM;
  }
  skew_entries(b, ent);
  for (int i = 0; i < nent; i++) byst[i] = ent[i];
  qsort(ent, (size_t)nent, sizeof *ent, cmp_ent);
  int ok = 1, rc = LIED_OK;
  int64_t most_lag = 0, most_margin = 0;
  int64_t *res = lanes_wanted(st, ns) ? lied_xmalloc(sizeof *res * (size_t)ns, "schedule: lags", b->e)
                                      : NULL;
  ok = lags(b, ent, byst, nent, need, NULL, &most_lag, &most_margin);
  if (ok && res && align_lanes(b, byst, nent, need, res) == LIED_OK) {
    memset(need, 0, sizeof *need * (size_t)ns);
    ok = lags(b, ent, byst, nent, need, res, &most_lag, &most_margin);
  }
  free(res);
  /* worth it only when the lags are short against the arrays (at most half:
   * a chain of 64 crabs, lags 32, takes waves in lane form) */
  if (ok && ((uint64_t)most_lag <= most / 2 || any))
    rc = skew_apply(b, ent, byst, nent, need, most_lag, most_margin);
  free(ent);
  free(byst);
  free(need);
  return rc;
}

/* Instances [a, b) (coordinates) of dynamic step j. */
static int run_piece(lied_sched *s, const lied_step *st, enum lied_eval_mode mode,
                     const lied_env *env, int64_t a, int64_t b, lied_err *e) {
  const uint64_t q0 = (uint64_t)(a - (int64_t)st->first), n = (uint64_t)(b - a);
  /* within the step's instances, at most one chunk */
  LIED_ASSERT(a >= (int64_t)st->first && a < b && n <= s->chunk);
  LIED_ASSERT(q0 + n <= (st->sec ? st->sec->count : st->count));
  if (st->sec) {
    /* the lags and margins keep a batch's pieces at whole chunks of its own
     * instances (constant sections' factors are kept per chunk) */
    if (st->sec->constant && q0 % s->chunk)
      return lied_errc(e, LIED_ERROR, "internal error: skewed section batch at instance %llu",
                       (unsigned long long)q0);
    return lied_probe_range(s, st->sec, mode, env, q0, n, e);
  }
  st->fn(env, st->base + q0 * st->stride, (size_t)n, st->stride);
  return LIED_OK;
}

/* The chunk loop from chunk c0 to c1 (exclusive): step j runs coordinates
 * [c - lag, c - lag + C) of its own, and with `left` only those >= A + ml,
 * with `right` only those < B - mr. */
static int run_chunks(lied_sched *s, enum lied_eval_mode mode, const lied_env *env, int64_t c0,
                      int64_t c1, int64_t A, int64_t B, int left, int right, lied_err *e) {
  const lied_step *st = s->steps[LIED_PART_DYN];
  const int ns = s->nsteps[LIED_PART_DYN];
  const int64_t C = (int64_t)s->chunk;
  for (int64_t c = c0; c < c1; c += C)
    for (int j = 0; j < ns; j++) {
      const int64_t first = (int64_t)st[j].first;
      int64_t lo = first, hi = first + (int64_t)(st[j].sec ? st[j].sec->count : st[j].count);
      if (left && A + st[j].ml > lo) lo = A + st[j].ml;
      if (right && B - st[j].mr < hi) hi = B - st[j].mr;
      int64_t a = c - st[j].lag, b = a + C;
      if (a < lo) a = lo; /* a section's lo and c - lag are first + C k */
      if (b > hi) b = hi;
      if (a < b) LIED_TRY(run_piece(s, &st[j], mode, env, a, b, e));
    }
  return LIED_OK;
}

int lied_sched_run_skewed_at(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                             int64_t c, lied_err *e) {
  return run_chunks(s, mode, env, c, c + 1, 0, 0, 0, 0, e);
}

int lied_sched_run_skewed(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                          lied_err *e) {
  return run_chunks(s, mode, env, 0, (int64_t)s->skew_end, 0, 0, 0, 0, e);
}

/* ---- threads ----------------------------------------------------------------
 * Ranges [A, B) of coordinates (whole chunks) on the workers. A worker runs,
 * skewed, the part of its range no other range's work reaches: step j's
 * coordinates [A + ml_j, B - mr_j) (the first range from 0, the last to the
 * end), where the margins come from the dependencies as the lags do (a
 * dependency of x on y = x + d of an earlier step i needs ml_j >= ml_i - d
 * and mr_j >= mr_i + d, so what a worker reads is its own). Then, all
 * workers done, the strips around each inner bound B, [B - mr_j, B + ml_j)
 * step by step (strips read the ranges and their own earlier steps), one
 * bound per worker. Ranges must be longer than twice the margins; else one
 * thread runs it skewed. */
typedef struct skew_call {
  enum lied_eval_mode mode;
  const lied_env *env;
  int nr;
} skew_call;

static int skew_range(lied_sched *v, void *ctx, int r, uint64_t q0, uint64_t q1, lied_err *e) {
  const skew_call *c = ctx;
  const lied_env env = lied_sched_env(v, c->env->t); /* the view's fault slot */
  const int left = r > 0, right = r < c->nr - 1;
  const int64_t A = (int64_t)q0, B = (int64_t)q1, C = (int64_t)v->chunk;
  const int64_t c0 = left ? A : 0;
  const int64_t c1 = right ? B + (int64_t)v->skew_maxlag + C : (int64_t)v->skew_end;
  return run_chunks(v, c->mode, &env, c0, c1, A, B, left, right, e);
}

static int skew_strip(lied_sched *v, void *ctx, int r, uint64_t q0, uint64_t q1, lied_err *e) {
  (void)r, (void)q0;
  const skew_call *c = ctx;
  const lied_env env = lied_sched_env(v, c->env->t);
  const lied_step *st = v->steps[LIED_PART_DYN];
  const int ns = v->nsteps[LIED_PART_DYN];
  const int64_t B = (int64_t)q1, C = (int64_t)v->chunk;
  for (int j = 0; j < ns; j++) {
    const int64_t first = (int64_t)st[j].first;
    int64_t lo = B - st[j].mr, hi = B + st[j].ml;
    const int64_t end = first + (int64_t)(st[j].sec ? st[j].sec->count : st[j].count);
    if (lo < first) lo = first;
    if (hi > end) hi = end;
    for (int64_t a = lo; a < hi; a += C) /* sections: lo is first + C k */
      LIED_TRY(run_piece(v, &st[j], c->mode, &env, a, a + C < hi ? a + C : hi, e));
  }
  return LIED_OK;
}

int lied_sched_run_skewed_par(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                              lied_err *e) {
  int nr = lied_sched_par_split(s, s->skew_coords);
  const uint64_t *bd = s->par ? s->par->bounds : NULL;
  for (int r = 0; nr > 1 && r < nr; r++)
    if (bd[r + 1] - bd[r] < 2 * s->skew_margin + 2 * s->chunk) nr = 1;
  if (nr < 2) return lied_sched_run_skewed(s, mode, env, e);
  skew_call c = {mode, env, nr};
  LIED_TRY(lied_sched_par_run(s, nr, skew_range, &c, e));
  /* the strips: bound r + 1 of range r, on worker r (bounds as they are) */
  return lied_sched_par_run(s, nr - 1, skew_strip, &c, e);
}
