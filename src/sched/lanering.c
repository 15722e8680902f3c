/* lanering.c - the plan of the dynamic part of coupled arrays in lane form:
 * which steps run in lanes, the groups' starts, the reading pointers and
 * halos, the steps at the arrays' ends (see lanering.h; the rings and the
 * runs are lanering_run.c). */
#include "sched/lanering.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "sched/lanes.h"
#include "sched/probe.h"

#define W LIED_LANES
#define C LIED_LR_C

_Static_assert(LIED_PROBE_CHUNK == LIED_LANES,
               "skew.c aligns the steps' pieces to probing chunks, which must be lane groups");

static int unsupported(char *why, size_t cap, const char *reason) {
  snprintf(why, cap, "%s", reason);
  return LIED_UNSUPPORTED;
}

/* The same for a yes/no question: 0. */
static int no(char *why, size_t cap, const char *reason) {
  snprintf(why, cap, "%s", reason);
  return 0;
}


/* ---- the plan -------------------------------------------------------------- */

void lied_lr_free(lied_lr *L) {
  for (int i = 0; i < L->nspecs; i++) free(L->specs[i].is_ptr), free(L->specs[i].load_words);
  const int ns = L->sched ? L->sched->nsteps[LIED_PART_DYN] : 0;
  for (int j = 0; L->steps && j < ns; j++) {
    lied_lr_step *t = &L->steps[j];
    free(t->members), free(t->links);
    free(t->pair_ring), free(t->pair_inst), free(t->pair_tear), free(t->pair_res);
    free(t->sync_start), free(t->syncs), free(t->member_dup), free(t->fix_start), free(t->fixes);
    free(t->group_ring), free(t->member_group), free(t->pair_group), free(t->group_dk);
  }
  free(L->specs), free(L->ring_of), free(L->steps);
  free(L->lane_smap), free(L->lane_states), free(L->smap_ring);
  free(L->ptr_links), free(L->ptr_ring);
  memset(L, 0, sizeof *L);
}

typedef struct lr_build {
  lied_lr *L;
  const lied_model *m;
  int *order, norder;
  int64_t *group_start; /* per model spec: its ring's group_start, -1 unassigned */
  char *why;
  size_t cap;
  lied_err *e;
} lr_build;

/* The spec and instance holding p (-1: none). */
static int locate(const lr_build *B, const void *p, uint64_t *inst, uint32_t *off) {
  return lied_model_locate(B->m, B->order, B->norder, p, inst, off);
}

/* The members of step j (its block, or its section's blocks): spec and
 * instance at coordinate first, not yet in rings. LIED_OK, LIED_UNSUPPORTED
 * (why) or LIED_E_NOMEM. */
static int members(lr_build *B, int j) {
  const lied_step *st = &B->L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &B->L->steps[j];
  t->nmembers = st->sec ? st->sec->nblk : 1;
  t->members = lied_xcalloc((size_t)t->nmembers, sizeof *t->members, "lanes", B->e);
  if (!t->members) return LIED_E_NOMEM;
  for (int k = 0; k < t->nmembers; k++) {
    uint64_t lo = 0;
    uint32_t off;
    const int sp = locate(B, st->sec ? st->sec->blk[k].base : st->base, &lo, &off);
    if (sp < 0) return unsupported(B->why, B->cap, "a block runs outside the arenas");
    t->members[k] = (lied_lr_mem){st->sec ? sp : st->spec, -1, (int64_t)lo};
  }
  return LIED_OK;
}

/* The ring spec of model spec sp (made on first use). */
static int ring_spec(lr_build *B, int sp) {
  lied_lr *L = B->L;
  if (L->ring_of[sp] >= 0) return L->ring_of[sp];
  const lied_spec *s = &B->m->specs[sp];
  lied_lr_spec *p = &L->specs[L->nspecs];
  p->spec = sp;
  p->arena = s->arena;
  p->words = s->size / 8;
  p->total = s->total;
  p->group_bytes = p->words * 8 * W;
  p->group_start = B->group_start[sp];
  LIED_ASSERT(p->group_start >= 0 && p->group_start < C);
  p->is_ptr = lied_xcalloc(p->words + 1, 1, "lanes", B->e);
  p->load_words = lied_xcalloc(2 * p->words + 1, sizeof *p->load_words, "lanes", B->e);
  if (!p->is_ptr || !p->load_words) return -1;
  p->write_words = p->load_words + p->words;
  for (int r = 0; r < s->tpl.nrefs; r++)
    if (s->tpl.refs[r].kind == LIED_REF_PORT) p->is_ptr[s->tpl.refs[r].offset / 8] = 1;
  /* what the blocks, the probe and the states write goes back to the arena */
  uint8_t *wr = lied_xcalloc(p->words + 1, 1, "lanes", B->e);
  if (!wr) return -1;
  const lied_template *t = &s->tpl;
  for (int q = 0; q < t->nouts; q++)
    for (uint32_t w = t->outs[q].lo / 8; w < (t->outs[q].hi + 7) / 8 && w < p->words; w++)
      wr[w] = 1;
  for (int q = 0; q < t->nstates; q++) wr[t->states[q].x / 8] = 1;
  for (int q = 0; q < t->ntears; q++) wr[t->tears[q].tear / 8] = 1;
  for (size_t j = 0; j < p->words; j++) {
    if (p->is_ptr[j]) continue;
    p->load_words[p->nload++] = (uint32_t)j;
    if (wr[j]) p->write_words[p->nwrite++] = (uint32_t)j;
  }
  free(wr);
  L->ring_of[sp] = L->nspecs;
  return L->nspecs++;
}

/* Can step j run in lane groups with the group starts assigned so far? Then
 * assign its members' (1), else 0; *why says why not. */
static int lane_members(lr_build *B, int j, char *why, size_t cap) {
  const lied_step *st = &B->L->sched->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &B->L->steps[j];
  if (t->nmembers > 64) return no(why, cap, "a section of more than 64 blocks");
  int64_t want = st->sec && st->sec->constant ? lied_lr_mod(-(int64_t)st->first) : -1;
  int by_chunks = want >= 0; /* want is the constant section's own chunks so far */
  for (int k = 0; k < t->nmembers; k++) {
    const int spec = t->members[k].spec;
    const int64_t lo = t->members[k].first_inst;
    if (B->m->specs[spec].size % 8) return no(why, cap, "an instance size is not whole words");
    if (!(st->sec ? st->sec->blk[k].lanes : st->lanes)) {
      lied_lanes_why_not(B->m, spec, (uint64_t)lo, st->sec ? st->sec->blk[k].fn : st->fn, why,
                         cap);
      return 0;
    }
    /* the lag that puts this member's pieces at its spec's group start */
    if (B->group_start[spec] < 0) continue;
    const int64_t r = lied_lr_mod(lo - (int64_t)st->first - B->group_start[spec]);
    if (want >= 0 && r != want)
      return no(why, cap, by_chunks
                              ? "a section batch with a constant matrix keeps its factors per "
                                "chunk of its own copies, which do not line up with the lane groups"
                              : "members of a step do not line up with the lane groups");
    want = r, by_chunks = 0;
  }
  if (want >= 0 && lied_lr_mod(st->lag) != want) return no(why, cap, "a lag off the groups");
  for (int k = 0; k < t->nmembers; k++) {
    const int64_t o = lied_lr_mod(t->members[k].first_inst - (int64_t)st->first - st->lag);
    int64_t *start = &B->group_start[t->members[k].spec];
    if (*start < 0) *start = o;
    if (o != *start) /* two members of one spec at other lanes */
      return no(why, cap, "members do not line up");
  }
  return 1;
}

/* The signal variables a reading pointer reads (at most what is left of the
 * source instance). */
static int signal_rows(const lied_spec *rsp, const lied_tref *ref, const lied_spec *src,
                       uint32_t soff) {
  int rows = LIED_MAX_SIGNAL_VARS;
  if (ref->a != LIED_NO_PORT && ref->a < rsp->tpl.nports) {
    const lied_port_layout *lay = rsp->tpl.ports[ref->a].layout;
    if (lay && lay->conn && ref->b < lay->conn->nsignals) rows = lay->conn->signals[ref->b].nvars;
  }
  const int left = (int)((src->size - soff) / 8);
  return rows < left ? rows : left;
}

/* Does block b of spec sp run as member k of step st? */
static int runs_block(const lied_spec *sp, const lied_step *st, int k, int b) {
  return st->sec ? sp->tpl.blocks[b].fn == st->sec->blk[k].fn : b == st->blk;
}

/* The coordinates [*xa, *xb) around the middle of step j's n (within the
 * [*xa, *xb) given) where the pointer at offset off of member k (spec
 * instance lo + x at coordinate x) moves by one source instance (ssz bytes)
 * per instance. Where the
 * scheduler found the spec's pointers regular away from its ends
 * (s->regular, window.c) only the ends are read: at a million crabs, reading
 * every instance's pointers took 0.4 s of each run's start. */
static void regular_run(const lied_sched *s, const lied_lr_spec *rp, int64_t lo, uint32_t off,
                        uint64_t n, size_t ssz, uint64_t *xa, uint64_t *xb) {
  const uint64_t mid = n / 2;
  const size_t isz = rp->words * 8;
#define PTR_X(x) (*(const uintptr_t *)(const void *)(rp->arena + ((uint64_t)lo + (x)) * isz + off))
  const uintptr_t pm = PTR_X(mid);
  uint64_t a = mid, b = mid + 1;
  if (s->regular && s->regular[rp->spec] && rp->total > 2 * LIED_REGULAR_ENDS) {
    /* coordinates of the instances [ENDS, total - ENDS) */
    const int64_t va = (int64_t)LIED_REGULAR_ENDS - lo,
                  vb = (int64_t)(rp->total - LIED_REGULAR_ENDS) - lo;
    if (mid > 0 && va < (int64_t)mid && vb > (int64_t)mid && pm - PTR_X(mid - 1) == ssz) {
      a = va > (int64_t)*xa ? (uint64_t)va : *xa;
      b = vb < (int64_t)*xb ? (uint64_t)vb : *xb;
    }
  }
  while (a > *xa && PTR_X(a - 1) == pm - (mid - (a - 1)) * ssz) a--;
  while (b < *xb && PTR_X(b) == pm + (b - mid) * ssz) b++;
#undef PTR_X
  *xa = a, *xb = b;
}

/* The pointer word lk reads, shared by every step that reads it (its
 * pointers are set once per worker: lied_lr_worker_init); a halo gets its
 * lanes in the halo area. The same word must read the same source. */
static int share_link(lr_build *B, int rs, lied_lr_link *lk) {
  lied_lr *L = B->L;
  for (int q = 0; q < L->nptr_links; q++) {
    const lied_lr_link *p = &L->ptr_links[q];
    if (L->ptr_ring[q] != rs || p->ptr_off != lk->ptr_off) continue;
    if (p->kind != lk->kind || p->src_ring != lk->src_ring || p->src_off != lk->src_off ||
        p->dist != lk->dist)
      return unsupported(B->why, B->cap, "a pointer word reads other sources in other steps");
    lk->halo_off = p->halo_off;
    return LIED_OK;
  }
  if (L->nptr_links == L->cap_ptr_links) {
    const int cap = L->cap_ptr_links ? 2 * L->cap_ptr_links : 16;
    lied_lr_link *pl = realloc(L->ptr_links, sizeof *pl * (size_t)cap);
    if (pl) L->ptr_links = pl;
    int *prs = realloc(L->ptr_ring, sizeof *prs * (size_t)cap);
    if (prs) L->ptr_ring = prs;
    if (!pl || !prs) return lied_errc(B->e, LIED_E_NOMEM, "lanes: out of memory");
    L->cap_ptr_links = cap;
  }
  if (lk->kind == LIED_LR_HALO) {
    LIED_ASSERT(lk->rows >= 1 && lk->rows <= LIED_MAX_SIGNAL_VARS);
    lk->halo_off = L->halo_doubles;
    L->halo_doubles += (size_t)lk->rows * W;
    L->nhalo_links++;
  }
  L->ptr_ring[L->nptr_links] = rs;
  L->ptr_links[L->nptr_links++] = *lk;
  return LIED_OK;
}

/* Does a link of step t already read the pointer at offset off of ring
 * spec rp's instance lo (another member of this instance, a section)? */
static int read_already(const lied_lr *L, const lied_lr_step *t, const lied_lr_spec *rp,
                        int64_t lo, uint32_t off) {
  for (int q = 0; q < t->nlinks; q++) {
    const lied_lr_mem *mq = &t->members[t->links[q].member];
    if (L->specs[mq->ring].spec == rp->spec && mq->first_inst == lo && t->links[q].ptr_off == off)
      return 1;
  }
  return 0;
}

/* Link lk of member k of lane step j (its ptr_off set): what the pointer of
 * the middle instance (instance lo + mid) reads, the zeros or a source
 * instance at distance dist, in the reader's lanes (direct) or not (a
 * halo); *ssz the source's instance size (0: the zeros). */
static int link_source(lr_build *B, int j, int k, const lied_tref *ref, uint64_t mid,
                       lied_lr_link *lk, size_t *ssz) {
  lied_lr *L = B->L;
  const lied_step *st = &L->sched->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &L->steps[j];
  const lied_lr_spec *rp = &L->specs[t->members[k].ring];
  const int64_t lo = t->members[k].first_inst;
  const char *im = rp->arena + ((uint64_t)lo + mid) * rp->words * 8;
  const void *pm = *(const void *const *)(const void *)(im + ref->offset);
  *ssz = 0;
  if (pm == (const void *)lied_port_zeros) {
    lk->kind = LIED_LR_ZEROS;
    return LIED_OK;
  }
  uint64_t si;
  uint32_t so;
  const int ss = locate(B, pm, &si, &so);
  if (ss < 0 || !B->m->specs[ss].cls || so % 8)
    return unsupported(B->why, B->cap, "a reading pointer leaves the arrays");
  lk->src_off = so;
  lk->dist = (int64_t)si - (lo + (int64_t)mid);
  /* the source's lanes line up with the reader's, or not (a halo) */
  const int64_t lane = lied_lr_mod(rp->group_start + lk->dist);
  if (B->group_start[ss] < 0) B->group_start[ss] = lane;
  lk->src_ring = ring_spec(B, ss);
  if (lk->src_ring < 0) return LIED_E_NOMEM;
  lk->kind = lane == B->group_start[ss] ? LIED_LR_DIRECT : LIED_LR_HALO;
  lk->rows = signal_rows(&B->m->specs[rp->spec], ref, &B->m->specs[ss], so);
  *ssz = L->specs[lk->src_ring].words * 8;
  if (lk->kind == LIED_LR_HALO && st->sec) /* a member's source must not change during the probe */
    for (int q = 0; q < t->nmembers; q++)
      if (L->specs[t->members[q].ring].spec == ss)
        return unsupported(B->why, B->cap, "a section reads its own members across groups");
  return LIED_OK;
}

/* The links of step t's halos first: a piece fills t->nhalos links and
 * looks at no other. */
static void halos_first(lied_lr_step *t) {
  for (int q = 0; q < t->nlinks; q++) {
    if (t->links[q].kind != LIED_LR_HALO) continue;
    const lied_lr_link h = t->links[q];
    memmove(&t->links[t->nhalos + 1], &t->links[t->nhalos], sizeof h * (size_t)(q - t->nhalos));
    t->links[t->nhalos++] = h;
  }
}

/* The reading pointers of lane step j that its blocks read: links, from its
 * middle instance, and where they are regular (t->reg_lo, t->reg_hi: the
 * ends may be wired otherwise and run copy by copy, at most LIED_LR_END
 * coordinates at either end). */
static int lane_links(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->steps[j];
  const uint64_t n = lied_lr_count(st), mid = n / 2;
  int cap = 0;
  for (int k = 0; k < t->nmembers; k++) cap += B->m->specs[t->members[k].spec].tpl.nrefs;
  t->links = lied_xcalloc((size_t)cap + 1, sizeof *t->links, "lanes", B->e);
  if (!t->links) return LIED_E_NOMEM;
  t->reg_lo = 0, t->reg_hi = n;
  for (int k = 0; k < t->nmembers; k++) {
    const lied_lr_spec *rp = &L->specs[t->members[k].ring];
    const lied_spec *rsp = &B->m->specs[rp->spec];
    const int64_t lo = t->members[k].first_inst;
    for (int b = 0; b < rsp->tpl.nblocks; b++) {
      if (!runs_block(rsp, st, k, b)) continue;
      const lied_tblock *tb = &rsp->tpl.blocks[b];
      for (uint32_t r = tb->in0; r < tb->in0 + tb->nin; r++) {
        const lied_tref *ref = &rsp->tpl.refs[r];
        if (ref->kind != LIED_REF_PORT || read_already(L, t, rp, lo, ref->offset)) continue;
        if (ref->offset % 8)
          return unsupported(B->why, B->cap, "a reading pointer that is not a whole word");
        lied_lr_link *lk = &t->links[t->nlinks++];
        lk->member = k;
        lk->ptr_off = ref->offset;
        size_t ssz;
        int rc = link_source(B, j, k, ref, mid, lk, &ssz);
        if (rc != LIED_OK) return rc;
        regular_run(L->sched, rp, lo, ref->offset, n, ssz, &t->reg_lo, &t->reg_hi);
        rc = share_link(B, t->members[k].ring, lk);
        if (rc != LIED_OK) return rc;
      }
    }
  }
  LIED_ASSERT(t->reg_lo <= t->reg_hi && t->reg_hi <= n);
  halos_first(t);
  if (t->reg_lo > LIED_LR_END || n - t->reg_hi > LIED_LR_END) {
    char path[200];
    const lied_lr_spec *rp = &L->specs[t->members[0].ring];
    const uint64_t x = t->reg_lo > LIED_LR_END ? t->reg_lo - 1 : t->reg_hi;
    lied_model_path(B->m, rp->spec, (uint64_t)t->members[0].first_inst + x, path, sizeof path);
    snprintf(B->why, B->cap, "the reading pointers of %s are not regular", path);
    return LIED_UNSUPPORTED;
  }
  return LIED_OK;
}

/* The model spec holding tearing pair pr, or -1 when its tearing variable
 * and residual are not words of one instance that moves by one instance per
 * copy; *inst: that instance at the step's first coordinate, *ot and *orr:
 * the variable's and the residual's byte offsets in it. */
static int pair_place(const lr_build *B, const lied_sec_pair *pr, uint64_t *inst, uint32_t *ot,
                      uint32_t *orr) {
  uint64_t ir;
  const int s1 = locate(B, pr->tear, inst, ot), s2 = locate(B, pr->res, &ir, orr);
  if (s1 < 0 || s1 != s2 || *inst != ir || pr->tstride != B->m->specs[s1].size ||
      pr->rstride != pr->tstride)
    return -1;
  return s1;
}

/* Step t's arrays of np tearing pairs (pair_ring, pair_inst, pair_tear,
 * pair_res), made once. */
static int pairs_alloc(lr_build *B, lied_lr_step *t, int np) {
  if (t->pair_ring) return LIED_OK;
  const size_t k = (size_t)np + 1;
  t->pair_ring = lied_xcalloc(k, sizeof *t->pair_ring, "lanes", B->e);
  t->pair_inst = lied_xcalloc(k, sizeof *t->pair_inst, "lanes", B->e);
  t->pair_tear = lied_xcalloc(k, sizeof *t->pair_tear, "lanes", B->e);
  t->pair_res = lied_xcalloc(k, sizeof *t->pair_res, "lanes", B->e);
  return t->pair_ring && t->pair_inst && t->pair_tear && t->pair_res ? LIED_OK : LIED_E_NOMEM;
}

/* Tearing pairs of lane section step j, in the rings at its lanes. */
static int lane_pairs(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->steps[j];
  const lied_section *sec = st->sec;
  if (sec->sparse) return unsupported(B->why, B->cap, "a section solved sparsely");
  LIED_TRY(pairs_alloc(B, t, sec->k));
  const lied_lr_spec *m0 = &L->specs[t->members[0].ring];
  const int l0 = lied_lr_lane(m0, t->members[0].first_inst);
  for (int p = 0; p < sec->k; p++) {
    uint64_t it;
    uint32_t ot, orr;
    const int s1 = pair_place(B, &sec->pairs[p], &it, &ot, &orr);
    if (s1 < 0 || L->ring_of[s1] < 0 ||
        lied_lr_lane(&L->specs[L->ring_of[s1]], (int64_t)it) != l0)
      return unsupported(B->why, B->cap, "a tearing pair off the groups");
    t->pair_ring[p] = L->ring_of[s1];
    t->pair_inst[p] = (int64_t)it;
    t->pair_tear[p] = ot;
    t->pair_res[p] = orr;
  }
  return LIED_OK;
}

/* Entry of group (rs, dk) in step t's list, added when new. */
static int group_entry(lied_lr_step *t, int rs, int64_t dk) {
  for (int q = 0; q < t->ngroups; q++)
    if (t->group_ring[q] == rs && t->group_dk[q] == dk) return q;
  t->group_ring[t->ngroups] = rs;
  t->group_dk[t->ngroups] = dk;
  return t->ngroups++;
}

/* The groups a piece of lane step j touches, relative to its member 0's:
 * the lanes line up, so the distance is the same for every piece (taken at
 * the middle coordinate). */
static int lane_groups(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->steps[j];
  const int np = st->sec ? st->sec->k : 0;
  const size_t cap = (size_t)(t->nmembers + t->nlinks + np) + 1;
  t->group_ring = lied_xcalloc(cap, sizeof *t->group_ring, "lanes", B->e);
  t->group_dk = lied_xcalloc(cap, sizeof *t->group_dk, "lanes", B->e);
  t->member_group = lied_xcalloc((size_t)t->nmembers + 1, sizeof *t->member_group, "lanes", B->e);
  t->pair_group = lied_xcalloc((size_t)np + 1, sizeof *t->pair_group, "lanes", B->e);
  if (!t->group_ring || !t->group_dk || !t->member_group || !t->pair_group) return LIED_E_NOMEM;
  const int64_t mid = (int64_t)(lied_lr_count(st) / 2);
  /* the group of instance i of ring spec r, less member 0's at the middle */
#define DK(r, i) (lied_lr_group(&L->specs[r], (i) + mid) - K0)
  const int64_t K0 = lied_lr_group(&L->specs[t->members[0].ring], t->members[0].first_inst + mid);
  const int l0 = lied_lr_lane(&L->specs[t->members[0].ring], t->members[0].first_inst + mid);
  for (int k = 0; k < t->nmembers; k++) {
    const lied_lr_mem *mk = &t->members[k];
    /* the lanes line up (lane_members): the same lane in every member */
    LIED_ASSERT(lied_lr_lane(&L->specs[mk->ring], mk->first_inst + mid) == l0);
    t->member_group[k] = group_entry(t, mk->ring, DK(mk->ring, mk->first_inst));
  }
  for (int p = 0; p < np; p++) {
    LIED_ASSERT(lied_lr_lane(&L->specs[t->pair_ring[p]], t->pair_inst[p] + mid) == l0);
    t->pair_group[p] = group_entry(t, t->pair_ring[p], DK(t->pair_ring[p], t->pair_inst[p]));
  }
  for (int q = 0; q < t->nlinks; q++) {
    const lied_lr_link *lk = &t->links[q];
    const int64_t src = t->members[lk->member].first_inst + lk->dist;
    LIED_ASSERT(lk->kind != LIED_LR_DIRECT ||
                lied_lr_lane(&L->specs[lk->src_ring], src + mid) == l0);
    if (lk->kind == LIED_LR_DIRECT) group_entry(t, lk->src_ring, DK(lk->src_ring, src));
  }
#undef DK
  return t->ngroups <= LIED_LR_ENS ? LIED_OK
                                   : unsupported(B->why, B->cap, "a step touches too many groups");
}

/* The coordinates of step j that may run copy by copy: [0, lo) and [hi, n)
 * (a piece that reaches into the irregular ends [0, reg_lo), [reg_hi, n)
 * lies within C of them). */
static void zones(const lied_lr_step *t, uint64_t n, uint64_t *lo, uint64_t *hi) {
  if (t->kind == LIED_LR_SCALAR) {
    *lo = *hi = n;
    return;
  }
  *lo = t->reg_lo ? t->reg_lo + (uint64_t)C : 0;
  if (*lo > n) *lo = n;
  *hi = t->reg_hi < n ? (t->reg_hi > (uint64_t)C ? t->reg_hi - (uint64_t)C : 0) : n;
  if (*hi < *lo) *hi = *lo;
}

/* What step j reads in the rings where it runs copy by copy, per
 * coordinate x of its zones (index x, or end_lo + x - end_hi above). */
static int scalar_sync(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->steps[j];
  const uint64_t n = lied_lr_count(st);
  zones(t, n, &t->end_lo, &t->end_hi);
  const uint64_t z1 = t->end_lo, z2 = t->end_hi, nz = z1 + (n - z2);
  LIED_ASSERT(z1 <= z2 && z2 <= n);
  size_t cap = 0;
  for (int k = 0; k < t->nmembers; k++) cap += (size_t)B->m->specs[t->members[k].spec].tpl.nrefs;
  t->sync_start = lied_xcalloc(nz + 1, sizeof *t->sync_start, "lanes", B->e);
  t->syncs = lied_xcalloc(nz * cap + 1, sizeof *t->syncs, "lanes", B->e);
  t->member_dup = lied_xcalloc((size_t)t->nmembers + 1, 1, "lanes", B->e);
  if (!t->sync_start || !t->syncs || !t->member_dup) return LIED_E_NOMEM;
  uint64_t at = 0;
  for (uint64_t zi = 0; zi < nz; zi++) {
    const uint64_t x = zi < z1 ? zi : z2 + (zi - z1);
    t->sync_start[zi] = at;
    for (int k = 0; k < t->nmembers; k++) {
      const lied_spec *rsp = &B->m->specs[t->members[k].spec];
      const char *inst = rsp->arena + ((uint64_t)t->members[k].first_inst + x) * rsp->size;
      for (int r = 0; r < rsp->tpl.nrefs; r++) {
        if (rsp->tpl.refs[r].kind != LIED_REF_PORT) continue;
        const void *p = *(const void *const *)(const void *)(inst + rsp->tpl.refs[r].offset);
        uint64_t si;
        uint32_t so;
        const int ss = p == (const void *)lied_port_zeros ? -1 : locate(B, p, &si, &so);
        if (ss < 0 || L->ring_of[ss] < 0) continue;
        const lied_lr_sync y = {L->ring_of[ss], si};
        int seen = 0; /* a member (moved anyway) or listed already */
        for (int q = 0; q < t->nmembers && !seen; q++)
          seen = t->members[q].ring == y.ring && (uint64_t)t->members[q].first_inst + x == si;
        for (uint64_t q = t->sync_start[zi]; q < at && !seen; q++)
          seen = t->syncs[q].ring == y.ring && t->syncs[q].inst == si;
        if (!seen) t->syncs[at++] = y;
      }
    }
  }
  t->sync_start[nz] = at;
  for (int k = 0; k < t->nmembers; k++) /* two blocks of one instance: moved once */
    for (int q = 0; q < k && !t->member_dup[k]; q++)
      t->member_dup[k] = t->members[q].ring == t->members[k].ring &&
                         t->members[q].first_inst == t->members[k].first_inst;
  return LIED_OK;
}

/* May instances of model spec sp live in a ring? It has one, or it may get
 * one: whole words, and no states (a state map over a ring must line up
 * with its groups, lr_maps). */
static int ringable(const lr_build *B, int sp) {
  const lied_spec *s = &B->m->specs[sp];
  if (B->L->ring_of[sp] >= 0) return 1;
  if (!s->cls || s->size % 8) return 0;
  for (int m = 0; m < B->L->sched->nsmap; m++)
    if (B->L->sched->smap[m].base == s->arena) return 0;
  return 1;
}

/* The ring spec of sp for a copy run in one lane: a spec no lane step runs
 * or reads gets its ring here, its groups starting anywhere (0). */
static int one_ring(lr_build *B, int sp) {
  if (B->group_start[sp] < 0) B->group_start[sp] = 0;
  return ring_spec(B, sp);
}

/* The reading pointers of every copy x of step j (n of them): fix[start[x]
 * .. start[x + 1]), a member's pointer once per instance, its source as a
 * model spec (src_ring -1: the zeros). 0 when a pointer is not a whole
 * word or reads outside what may live in rings. */
static int one_fixes(const lr_build *B, int j, uint64_t n, lied_lr_fix *fix, uint64_t *start) {
  const lied_step *st = &B->L->sched->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &B->L->steps[j];
  int ok = 1;
  uint64_t at = 0;
  for (uint64_t x = 0; x < n && ok; x++) {
    start[x] = at;
    for (int k = 0; k < t->nmembers && ok; k++) {
      const lied_lr_mem *mk = &t->members[k];
      const lied_spec *rsp = &B->m->specs[mk->spec];
      const char *inst = rsp->arena + ((uint64_t)mk->first_inst + x) * rsp->size;
      for (int b = 0; b < rsp->tpl.nblocks && ok; b++) {
        if (!runs_block(rsp, st, k, b)) continue;
        const lied_tblock *tb = &rsp->tpl.blocks[b];
        for (uint32_t r = tb->in0; r < tb->in0 + tb->nin && ok; r++) {
          const lied_tref *ref = &rsp->tpl.refs[r];
          if (ref->kind != LIED_REF_PORT) continue;
          int dup = 0; /* another member of this instance reads it already */
          for (uint64_t q = start[x]; q < at && !dup; q++) {
            const lied_lr_mem *mq = &t->members[fix[q].member];
            dup = mq->spec == mk->spec && mq->first_inst == mk->first_inst &&
                  fix[q].ptr_off == ref->offset;
          }
          if (dup) continue;
          const void *p = *(const void *const *)(const void *)(inst + ref->offset);
          lied_lr_fix f = {k, ref->offset, -1, 0, 0};
          if (p != (const void *)lied_port_zeros) {
            uint64_t si;
            uint32_t so;
            /* src_ring: the model spec until all are ringable */
            f.src_ring = locate(B, p, &si, &so);
            ok = ref->offset % 8 == 0 && f.src_ring >= 0 && so % 8 == 0 && ringable(B, f.src_ring);
            f.src_off = so, f.src_inst = (int64_t)si;
          }
          fix[at++] = f;
        }
      }
    }
  }
  start[n] = at;
  return ok;
}

/* The np tearing pairs of step j's section, as lane_pairs has them, their
 * model specs in pspec: 1, 0 when one is not ringable whole words, -1 out
 * of memory. */
static int one_pairs(lr_build *B, int j, int np, int *pspec) {
  const lied_step *st = &B->L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &B->L->steps[j];
  if (np && pairs_alloc(B, t, np) != LIED_OK) return -1;
  int ok = 1;
  for (int p = 0; p < np && ok; p++) {
    uint64_t it;
    uint32_t ot, orr;
    const int s1 = pair_place(B, &st->sec->pairs[p], &it, &ot, &orr);
    ok = s1 >= 0 && ringable(B, s1) && ot % 8 == 0 && orr % 8 == 0;
    if (ok) pspec[p] = s1, t->pair_inst[p] = (int64_t)it, t->pair_tear[p] = ot;
    if (ok) t->pair_res[p] = orr;
  }
  return ok;
}

/* The rings of step t's members, of the sources of its nfix fixes and of
 * its np pairs (model specs until now): 1, or -1 out of memory. */
static int one_rings(lr_build *B, lied_lr_step *t, lied_lr_fix *fix, uint64_t nfix, int np,
                     const int *pspec) {
  for (int k = 0; k < t->nmembers; k++)
    if ((t->members[k].ring = one_ring(B, t->members[k].spec)) < 0) return -1;
  for (uint64_t q = 0; q < nfix; q++)
    if (fix[q].src_ring >= 0 && (fix[q].src_ring = one_ring(B, fix[q].src_ring)) < 0) return -1;
  for (int p = 0; p < np; p++)
    if ((t->pair_ring[p] = one_ring(B, pspec[p])) < 0) return -1;
  return 1;
}

/* A pointer word a lane step reads holds, in every slot and lane, what
 * lied_lr_worker_init set: where that is the copy's source already (a
 * crab's own parts, whose lanes line up), no fix. Drops those from the n
 * copies' fixes (start: as one_fixes). */
static void drop_held(const lied_lr *L, const lied_lr_step *t, uint64_t n, lied_lr_fix *fix,
                      uint64_t *start) {
  uint64_t kept = 0;
  for (uint64_t x = 0; x < n; x++) {
    const uint64_t a = start[x];
    start[x] = kept;
    for (uint64_t q = a; q < start[x + 1]; q++) {
      const lied_lr_fix *f = &fix[q];
      const lied_lr_mem *mk = &t->members[f->member];
      int held = 0;
      for (int p = 0; p < L->nptr_links && !held; p++) {
        const lied_lr_link *lk = &L->ptr_links[p];
        if (L->ptr_ring[p] != mk->ring || lk->ptr_off != f->ptr_off) continue;
        held = f->src_ring < 0 ? lk->kind == LIED_LR_ZEROS
                               : lk->kind == LIED_LR_DIRECT && lk->src_ring == f->src_ring &&
                                     lk->src_off == f->src_off &&
                                     f->src_inst == mk->first_inst + (int64_t)x + lk->dist;
      }
      if (!held) fix[kept++] = *f;
    }
  }
  start[n] = kept;
}

/* Can copy-by-copy step j run each copy as a lane piece of one lane (path
 * 2 of lanering.h; lanering_run.c, one_piece)? Every member has a lane
 * form, the section has no constant matrix (its factors are kept per
 * chunk), and every instance it runs, reads or tears is in a ring or may be
 * (ringable). Then t->one_lane, with the reading pointers of each copy;
 * else it stays on the arena (path 3). */
static int one_plan(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->sched->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->steps[j];
  if (st->sec && st->sec->constant) return LIED_OK;
  for (int k = 0; k < t->nmembers; k++)
    if (!(st->sec ? st->sec->blk[k].lanes : st->lanes) || !ringable(B, t->members[k].spec))
      return LIED_OK;
  const uint64_t n = lied_lr_count(st);
  size_t cap = 1;
  for (int k = 0; k < t->nmembers; k++) cap += (size_t)B->m->specs[t->members[k].spec].tpl.nrefs;
  lied_lr_fix *fix = lied_xcalloc(cap * n, sizeof *fix, "lanes", B->e);
  uint64_t *start = lied_xcalloc(n + 1, sizeof *start, "lanes", B->e);
  const int np = st->sec ? st->sec->k : 0;
  int *pspec = lied_xcalloc((size_t)np + 1, sizeof *pspec, "lanes", B->e);
  if (!fix || !start || !pspec) {
    free(fix), free(start), free(pspec);
    return LIED_E_NOMEM;
  }
  int ok = one_fixes(B, j, n, fix, start);
  if (ok) ok = one_pairs(B, j, np, pspec);
  if (ok > 0) ok = one_rings(B, t, fix, start[n], np, pspec);
  free(pspec);
  if (ok <= 0) {
    free(fix), free(start);
    return ok < 0 ? LIED_E_NOMEM : LIED_OK;
  }
  drop_held(L, t, n, fix, start);
  for (uint64_t x = 0; x < n; x++)
    if (start[x + 1] - start[x] > L->maxfix) L->maxfix = start[x + 1] - start[x];
  if ((size_t)t->nmembers > L->maxmem) L->maxmem = (size_t)t->nmembers;
  t->one_lane = 1, t->fixes = fix, t->fix_start = start;
  L->nend_lanes++;
  return LIED_OK;
}

/* Ring geometry and the state maps over the rings. */
static int lr_maps(lr_build *B, uint64_t live) {
  lied_lr *L = B->L;
  const lied_sched *s = L->sched;
  int64_t reach = 0;
  for (int j = 0; j < s->nsteps[LIED_PART_DYN]; j++)
    for (int q = 0; q < L->steps[j].nlinks; q++) {
      const int64_t d = L->steps[j].links[q].dist;
      if ((d < 0 ? -d : d) > reach) reach = d < 0 ? -d : d;
    }
  uint64_t need = (live + s->skew_maxlag + (uint64_t)reach) / (uint64_t)C + 4;
  uint64_t groups = 0; /* every group of the longest ring: nothing is ever evicted */
  for (int i = 0; i < L->nspecs; i++) {
    const uint64_t g = (uint64_t)lied_lr_group(&L->specs[i], (int64_t)L->specs[i].total) + 1;
    if (g > groups) groups = g;
  }
  if (need > groups + 4) need = groups + 4;
  L->nslots = 1;
  while ((uint64_t)L->nslots < need) L->nslots *= 2;
  LIED_ASSERT(L->nslots >= 1 && (L->nslots & (L->nslots - 1)) == 0);
  for (int i = 0; i < L->nspecs; i++) {
    L->specs[i].ring_off = L->ring_bytes;
    L->ring_bytes += (size_t)L->nslots * L->specs[i].group_bytes;
  }
  int nst = 0;
  for (int m = 0; m < s->nsmap; m++) nst += s->smap[m].n;
  L->lane_smap = lied_xcalloc((size_t)s->nsmap + 1, sizeof *L->lane_smap, "lanes", B->e);
  L->lane_states = lied_xcalloc((size_t)nst + 1, sizeof *L->lane_states, "lanes", B->e);
  L->smap_ring = lied_xcalloc((size_t)s->nsmap + 1, sizeof *L->smap_ring, "lanes", B->e);
  if (!L->lane_smap || !L->lane_states || !L->smap_ring) return LIED_E_NOMEM;
  lied_tstate *t = L->lane_states;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    L->lane_smap[m] = *sm;
    L->smap_ring[m] = -1;
    for (int k = 0; k < B->m->nspecs; k++)
      if (B->m->specs[k].cls && B->m->specs[k].arena == sm->base) L->smap_ring[m] = L->ring_of[k];
    if (L->smap_ring[m] < 0) continue;
    const lied_lr_spec *p = &L->specs[L->smap_ring[m]];
    if (lied_lr_mod(-sm->lag_in) != p->group_start || lied_lr_mod(-sm->lag_out) != p->group_start)
      return unsupported(B->why, B->cap, "states off the groups");
    L->lane_smap[m].stride = LIED_LANE_STRIDE;
    L->lane_smap[m].layout = LIED_LAYOUT_LANES;
    L->lane_smap[m].st = t;
    for (int q = 0; q < sm->n; q++, t++) {
      if (sm->st[q].x % 8 || sm->st[q].der % 8)
        return unsupported(B->why, B->cap, "a state that is not a whole word");
      *t = (lied_tstate){sm->st[q].x * W, sm->st[q].der * W, sm->st[q].var};
    }
  }
  return LIED_OK;
}

/* Ring spec r's loads without the words the dynamic part writes in every
 * instance in every evaluation, before anything reads them: a block's
 * outputs where the steps running that block cover every instance, the
 * states (moved in at every stage), the tearing variables (set by the
 * probe). n[0..2] count the instances whose word the blocks, the states
 * and the probe write; each source writes an instance's word once, so a
 * count reaching the spec's total is every instance. The rings do not load
 * these words: a group's slot holds another group's values there until a
 * step writes them, and no step reads them before (the schedule's order, and what a
 * later worker of a sweep on threads has always relied on: it loads the
 * groups the worker before it has not stored). */
static int drop_dynamic(lr_build *B, int r) {
  const lied_lr *L = B->L;
  const lied_sched *s = L->sched;
  lied_lr_spec *p = &L->specs[r];
  const lied_template *tp = &B->m->specs[p->spec].tpl;
  uint64_t *n = lied_xcalloc(3 * p->words + 1, sizeof *n, "lanes", B->e);
  if (!n) return LIED_E_NOMEM;
  uint64_t *nb = n, *ns = n + p->words, *nt = n + 2 * p->words;
  for (int j = 0; j < s->nsteps[LIED_PART_DYN]; j++) {
    const lied_step *st = &s->steps[LIED_PART_DYN][j];
    const lied_lr_step *t = &L->steps[j];
    const uint64_t cnt = lied_lr_count(st);
    for (int k = 0; k < t->nmembers; k++) {
      if (t->members[k].spec != p->spec) continue;
      int blk = -1, same = 0; /* the member's block; a block's function named twice: none */
      for (int b = 0; b < tp->nblocks; b++)
        if (runs_block(&B->m->specs[p->spec], st, k, b)) blk = b, same++;
      if (same != 1) continue;
      for (int q = 0; q < tp->nouts; q++)
        if (tp->outs[q].block == blk)
          for (uint32_t w = (tp->outs[q].lo + 7) / 8; w < tp->outs[q].hi / 8 && w < p->words; w++)
            nb[w] += cnt;
    }
    for (int q = 0; st->sec && q < st->sec->k; q++) {
      const lied_sec_pair *pr = &st->sec->pairs[q];
      if (pr->spec == p->spec && pr->pair >= 0 && pr->pair < tp->ntears &&
          tp->tears[pr->pair].tear % 8 == 0 && tp->tears[pr->pair].tear / 8 < p->words)
        nt[tp->tears[pr->pair].tear / 8] += cnt;
    }
  }
  for (int m = 0; m < s->nsmap; m++) {
    if (L->smap_ring[m] != r) continue;
    for (int q = 0; q < s->smap[m].n; q++)
      if (s->smap[m].st[q].x % 8 == 0 && s->smap[m].st[q].x / 8 < p->words)
        ns[s->smap[m].st[q].x / 8] += s->smap[m].count;
  }
  uint32_t kept = 0;
  for (uint32_t q = 0; q < p->nload; q++) {
    const uint32_t w = p->load_words[q];
    if (nb[w] != p->total && ns[w] != p->total && nt[w] != p->total) p->load_words[kept++] = w;
  }
  p->nload = kept;
  free(n);
  return LIED_OK;
}

/* The words each ring spec loads: all but the reading pointers and what
 * the dynamic part writes first (drop_dynamic). */
static int lr_loads(lr_build *B) {
  for (int r = 0; r < B->L->nspecs; r++) LIED_TRY(drop_dynamic(B, r));
  return LIED_OK;
}

void lied_lr_longest_first(const lied_step *st, int ns, int *order) {
  for (int j = 0; j < ns; j++) order[j] = j;
  for (int a = 1; a < ns; a++) /* insertion: a few steps */
    for (int k = a; k > 0 && lied_lr_count(&st[order[k]]) > lied_lr_count(&st[order[k - 1]]);
         k--) {
      const int t = order[k];
      order[k] = order[k - 1], order[k - 1] = t;
    }
}

/* How each step runs (the three paths of lanering.h): steps longest first,
 * so the interior of the arrays chooses the groups; lane steps (path 1)
 * with their links, pairs and groups, falling back to copy by copy where an
 * end is wired otherwise; the copy-by-copy steps in lanes of one copy where
 * they can (path 2), else on the arena (path 3); then what every step reads
 * in the rings where it runs copy by copy. */
static int lr_steps(lr_build *B) {
  lied_lr *L = B->L;
  const lied_step *st = L->sched->steps[LIED_PART_DYN];
  const int ns = L->sched->nsteps[LIED_PART_DYN];
  int *order = lied_xmalloc(sizeof *order * (size_t)(ns + 1), "lanes", B->e);
  if (!order) return LIED_E_NOMEM;
  lied_lr_longest_first(st, ns, order);
  int rc = LIED_OK;
  for (int a = 0; a < ns && rc == LIED_OK; a++) {
    const int j = order[a];
    char w2[200] = "";
    rc = members(B, j);
    if (rc != LIED_OK) break;
    if (lane_members(B, j, w2, sizeof w2))
      L->steps[j].kind = LIED_LR_LANE, L->nlane_steps++;
    else if (lied_lr_count(&st[j]) <= LIED_LR_END)
      L->steps[j].kind = LIED_LR_SCALAR, L->nend_steps++;
    else
      rc = unsupported(B->why, B->cap, w2);
  }
  for (int a = 0; a < ns && rc == LIED_OK; a++) { /* the lane steps' members in rings */
    lied_lr_step *t = &L->steps[order[a]];
    for (int k = 0; k < t->nmembers && rc == LIED_OK && t->kind == LIED_LR_LANE; k++)
      if ((t->members[k].ring = ring_spec(B, t->members[k].spec)) < 0) rc = LIED_E_NOMEM;
  }
  for (int a = 0; a < ns && rc == LIED_OK; a++) {
    lied_lr_step *t = &L->steps[order[a]];
    if (t->kind != LIED_LR_LANE) continue;
    rc = lane_links(B, order[a]);
    if (rc == LIED_OK && st[order[a]].sec) rc = lane_pairs(B, order[a]);
    if (rc == LIED_OK) rc = lane_groups(B, order[a]);
    if (rc == LIED_UNSUPPORTED && lied_lr_count(&st[order[a]]) <= LIED_LR_END) {
      /* an end wired otherwise than the interior, which chose the pointers */
      t->kind = LIED_LR_SCALAR, L->nlane_steps--, L->nend_steps++;
      free(t->links), t->links = NULL, t->nlinks = t->nhalos = 0, t->ngroups = 0;
      rc = LIED_OK;
    }
  }
  for (int j = 0; j < ns && rc == LIED_OK; j++)
    if (L->steps[j].kind == LIED_LR_SCALAR) rc = one_plan(B, j);
  for (int j = 0; j < ns && rc == LIED_OK; j++) {
    lied_lr_step *t = &L->steps[j];
    LIED_ASSERT(t->kind == LIED_LR_LANE || t->kind == LIED_LR_SCALAR);
    LIED_ASSERT(!t->one_lane || t->kind == LIED_LR_SCALAR);
    if (t->kind == LIED_LR_SCALAR)
      for (int k = 0; k < t->nmembers; k++) t->members[k].ring = L->ring_of[t->members[k].spec];
    rc = scalar_sync(B, j);
  }
  free(order);
  return rc;
}

int lied_lr_init(lied_lr *L, lied_sched *s, uint64_t live, char *why, size_t cap, lied_err *e) {
  memset(L, 0, sizeof *L);
  L->sched = s;
  if (cap) *why = 0;
  if (!s->skewed || !s->nsteps[LIED_PART_DYN])
    return unsupported(why, cap, "the model is not coupled arrays evaluated skewed");
  const lied_model *m = s->model;
  const int ns = s->nsteps[LIED_PART_DYN];
  lr_build B = {L, m, NULL, 0, NULL, why, cap, e};
  B.order = lied_model_arena_order(m, &B.norder, e);
  B.group_start = lied_xmalloc(sizeof *B.group_start * (size_t)m->nspecs + 1, "lanes", e);
  L->specs = lied_xcalloc((size_t)m->nspecs + 1, sizeof *L->specs, "lanes", e);
  L->ring_of = lied_xmalloc(sizeof *L->ring_of * (size_t)m->nspecs + 1, "lanes", e);
  L->steps = lied_xcalloc((size_t)ns, sizeof *L->steps, "lanes", e);
  int rc = B.order && B.group_start && L->specs && L->ring_of && L->steps ? LIED_OK
                                                                          : LIED_E_NOMEM;
  for (int k = 0; rc == LIED_OK && k < m->nspecs; k++) B.group_start[k] = -1, L->ring_of[k] = -1;
  if (rc == LIED_OK) rc = lr_steps(&B);
  if (rc == LIED_OK) rc = lr_maps(&B, live);
  if (rc == LIED_OK) rc = lr_loads(&B);
  free(B.order);
  free(B.group_start);
  if (rc != LIED_OK) lied_lr_free(L);
  return rc;
}
