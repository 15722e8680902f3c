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
#include "sched/probe.h"
#include "sched/sbuild.h"

/* Instances [lo, hi) of block (spec, blk) run in dynamic step `step`, at
 * coordinates co .. co + hi - lo - 1. */
typedef struct skew_ent {
  int spec, blk;
  uint64_t lo, hi;
  uint64_t co;
  int step;
} skew_ent;

static int cmp_ent(const void *pa, const void *pb) {
  const skew_ent *a = pa, *b = pb;
  if (a->spec != b->spec) return a->spec < b->spec ? -1 : 1;
  if (a->blk != b->blk) return a->blk < b->blk ? -1 : 1;
  return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The entry holding node id, or NULL (not in the dynamic part). */
static const skew_ent *find(const skew_ent *ent, int n, node_id id) {
  int lo = 0, hi = n - 1, best = -1;
  while (lo <= hi) { /* the last entry <= (spec, blk, inst) */
    int mid = (lo + hi) / 2;
    const skew_ent *m = &ent[mid];
    int le = m->spec < id.spec ||
             (m->spec == id.spec && (m->blk < id.blk || (m->blk == id.blk && m->lo <= id.inst)));
    if (le) best = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  if (best < 0) return NULL;
  const skew_ent *m = &ent[best];
  return m->spec == id.spec && m->blk == id.blk && id.inst < m->hi ? m : NULL;
}

/* The instance index of p in its spec. */
static uint64_t inst_of(const lied_sb *b, const void *p) {
  uint64_t inst = 0;
  uint32_t off;
  lied_model_locate(b->m, b->order, b->norder, p, &inst, &off);
  return inst;
}

/* lag[j] from the dependencies of step j's nodes; 0, or -1 when a
 * dependency points forward (not expected: then no skew). */
static int step_lag(const lied_sb *b, const skew_ent *ent, int nent, const skew_ent *own,
                    const int64_t *lag, int64_t *out) {
  const lied_graph *g = &b->g;
  int64_t L = 0;
  for (uint64_t x = 0; x < own->hi - own->lo; x++) {
    uint32_t v = lied_sb_encode(b, own->spec, own->blk, own->lo + x);
    for (uint32_t k = g->rowptr[v]; k < g->rowptr[v + 1]; k++) {
      const skew_ent *p = find(ent, nent, lied_sb_decode(b, g->adj[k]));
      if (!p || p->step == own->step) continue; /* constant part; inside a section */
      if (p->step > own->step) return -1;
      const uint64_t y = p->co + (lied_sb_decode(b, g->adj[k]).inst - p->lo);
      int64_t need = lag[p->step] + (int64_t)y - (int64_t)(own->co + x);
      if (need > L) L = need;
    }
  }
  *out = L;
  return 0;
}

int lied_sb_skew(lied_sb *b) {
  lied_sched *s = b->s;
  s->skewed = 0;
  lied_step *st = s->steps[LIED_PART_DYN];
  const int ns = s->nsteps[LIED_PART_DYN];
  const uint64_t C = LIED_PROBE_CHUNK;
  if (s->aligned || b->copies || ns < 2) return LIED_OK;
  uint64_t most = 0;
  int nent = 0;
  for (int j = 0; j < ns; j++) {
    const uint64_t n = st[j].sec ? st[j].sec->count : st[j].count;
    if (n > most) most = n;
    nent += st[j].sec ? st[j].sec->nblk : 1;
  }
  if (most < 4 * C) return LIED_OK; /* a few chunks: nothing to keep in cache */
  skew_ent *ent = lied_xmalloc(sizeof *ent * (size_t)nent, "schedule: lags", b->e);
  int64_t *lag = lied_xcalloc((size_t)ns, sizeof *lag, "schedule: lags", b->e);
  if (!ent || !lag) {
    free(ent), free(lag);
    return LIED_E_NOMEM;
  }
  int k = 0;
  for (int j = 0; j < ns; j++) {
    if (!st[j].sec) {
      uint64_t lo = inst_of(b, st[j].base);
      ent[k++] = (skew_ent){st[j].spec, st[j].blk, lo, lo + st[j].count, lo, j};
      continue;
    }
    const lied_section *sec = st[j].sec;
    const uint32_t *first = b->secb[sec - s->secs].first;
    const uint64_t lo0 = lied_sb_decode(b, first[0]).inst;
    for (int m = 0; m < sec->nblk; m++) {
      node_id a = lied_sb_decode(b, first[m]);
      /* coordinates of the batch: the first member's instance indices
       * (another member's instance of the same section may have another
       * index in its own spec: a framework sum of the boundary copies) */
      ent[k++] = (skew_ent){a.spec, a.blk, a.inst, a.inst + sec->count, lo0, j};
    }
  }
  /* the steps' entries in step order (for the lags), then sorted for find */
  skew_ent *byst = lied_xmalloc(sizeof *byst * (size_t)nent, "schedule: lags", b->e);
  if (!byst) {
    free(ent), free(lag);
    return LIED_E_NOMEM;
  }
  for (int i = 0; i < nent; i++) byst[i] = ent[i];
  qsort(ent, (size_t)nent, sizeof *ent, cmp_ent);
  int ok = 1;
  int64_t most_lag = 0;
  for (int i = 0; i < nent && ok; i++) {
    int64_t L;
    if (step_lag(b, ent, nent, &byst[i], lag, &L)) ok = 0;
    /* members of one section batch: the largest of their needs */
    else if (L > lag[byst[i].step]) lag[byst[i].step] = L;
    if (i + 1 == nent || byst[i + 1].step != byst[i].step) { /* the step is complete */
      const int j = byst[i].step;
      /* a section batch's chunks of its own instances must start at whole
       * chunks (constant sections keep factors per chunk): lag + first is a
       * multiple of C */
      if (st[j].sec) {
        const int64_t first = (int64_t)byst[i].co;
        lag[j] = ((lag[j] + first + (int64_t)C - 1) / (int64_t)C) * (int64_t)C - first;
      }
      if (lag[j] > most_lag) most_lag = lag[j];
    }
  }
  /* worth it only when the lags are short against the arrays */
  if (ok && (uint64_t)most_lag <= most / 4) {
    int64_t end = 0;
    for (int i = 0; i < nent; i++) {
      const int j = byst[i].step;
      st[j].lag = lag[j];
      st[j].first = byst[i].co; /* the same for every member of a batch */
      const int64_t last = (int64_t)(byst[i].co + byst[i].hi - byst[i].lo);
      if (lag[j] + last > end) end = lag[j] + last;
    }
    s->skewed = 1;
    s->skew_end = (uint64_t)end;
    s->st.skew_lag = most_lag > 0 ? (uint64_t)most_lag : 1;
  }
  free(ent);
  free(byst);
  free(lag);
  return LIED_OK;
}

int lied_sched_run_skewed(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                          lied_err *e) {
  const lied_step *st = s->steps[LIED_PART_DYN];
  const int ns = s->nsteps[LIED_PART_DYN];
  const int64_t C = (int64_t)s->chunk;
  for (int64_t c = 0; c < (int64_t)s->skew_end; c += C)
    for (int j = 0; j < ns; j++) {
      /* coordinates [c - lag, c - lag + C) of the step's [first, first + n) */
      const int64_t n = (int64_t)(st[j].sec ? st[j].sec->count : st[j].count);
      int64_t a = c - st[j].lag - (int64_t)st[j].first, b = a + C;
      if (b <= 0 || a >= n) continue;
      if (a < 0) a = 0; /* block steps only: a section's a is a multiple of C */
      if (b > n) b = n;
      if (st[j].sec)
        LIED_TRY(lied_probe_range(s, st[j].sec, mode, env, (uint64_t)a, (uint64_t)(b - a), e));
      else
        st[j].fn(env, st[j].base + (uint64_t)a * st[j].stride, (size_t)(b - a), st[j].stride);
    }
  return LIED_OK;
}
