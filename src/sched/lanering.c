/* lanering.c - the plan of the dynamic part of coupled arrays in lane form:
 * which steps run in lanes, the groups' starts, the reading pointers and
 * halos, the steps at the arrays' ends (see lanering.h; the rings and the
 * runs are lanering_run.c). */
#include "sched/lanering.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  for (int i = 0; i < L->nsp; i++) free(L->sp[i].ptr), free(L->sp[i].ld);
  const int ns = L->s ? L->s->nsteps[LIED_PART_DYN] : 0;
  for (int j = 0; L->st && j < ns; j++) {
    lied_lr_step *t = &L->st[j];
    free(t->mem), free(t->link), free(t->prs), free(t->plo), free(t->ptear), free(t->pres);
    free(t->soff), free(t->sync), free(t->mdup), free(t->foff), free(t->fix);
    free(t->ens_rs), free(t->mem_e), free(t->pair_e), free(t->ens_dk);
  }
  free(L->sp), free(L->rs_of), free(L->st), free(L->lsm), free(L->lst), free(L->map_rs);
  free(L->pl), free(L->pl_rs);
  memset(L, 0, sizeof *L);
}

typedef struct lr_build {
  lied_lr *L;
  const lied_model *m;
  int *order, norder;
  int64_t *o; /* per model spec: group start, -1 unassigned */
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
  const lied_step *st = &B->L->s->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &B->L->st[j];
  t->nmem = st->sec ? st->sec->nblk : 1;
  t->mem = lied_xcalloc((size_t)t->nmem, sizeof *t->mem, "lanes", B->e);
  if (!t->mem) return LIED_E_NOMEM;
  for (int k = 0; k < t->nmem; k++) {
    uint64_t lo = 0;
    uint32_t off;
    const int sp = locate(B, st->sec ? st->sec->blk[k].base : st->base, &lo, &off);
    if (sp < 0) return unsupported(B->why, B->cap, "a block runs outside the arenas");
    t->mem[k] = (lied_lr_mem){st->sec ? sp : st->spec, -1, (int64_t)lo};
  }
  return LIED_OK;
}

/* The ring spec of model spec sp (made on first use). */
static int ring_spec(lr_build *B, int sp) {
  lied_lr *L = B->L;
  if (L->rs_of[sp] >= 0) return L->rs_of[sp];
  const lied_spec *s = &B->m->specs[sp];
  lied_lr_spec *p = &L->sp[L->nsp];
  p->spec = sp;
  p->arena = s->arena;
  p->words = s->size / 8;
  p->total = s->total;
  p->gb = p->words * 8 * W;
  p->o = B->o[sp];
  p->ptr = lied_xcalloc(p->words + 1, 1, "lanes", B->e);
  p->ld = lied_xcalloc(2 * p->words + 1, sizeof *p->ld, "lanes", B->e);
  if (!p->ptr || !p->ld) return -1;
  p->sw = p->ld + p->words;
  for (int r = 0; r < s->tpl.nrefs; r++)
    if (s->tpl.refs[r].kind == LIED_REF_PORT) p->ptr[s->tpl.refs[r].offset / 8] = 1;
  /* what the blocks, the probe and the states write goes back to the arena */
  uint8_t *wr = lied_xcalloc(p->words + 1, 1, "lanes", B->e);
  if (!wr) return -1;
  const lied_template *t = &s->tpl;
  for (int q = 0; q < t->nouts; q++)
    for (uint32_t o = t->outs[q].lo / 8; o < (t->outs[q].hi + 7) / 8 && o < p->words; o++) wr[o] = 1;
  for (int q = 0; q < t->nstates; q++) wr[t->states[q].x / 8] = 1;
  for (int q = 0; q < t->ntears; q++) wr[t->tears[q].tear / 8] = 1;
  for (size_t j = 0; j < p->words; j++) {
    if (p->ptr[j]) continue;
    p->ld[p->nld++] = (uint32_t)j;
    if (wr[j]) p->sw[p->nsw++] = (uint32_t)j;
  }
  free(wr);
  L->rs_of[sp] = L->nsp;
  return L->nsp++;
}

/* Can step j run in lane groups with the group starts assigned so far? Then
 * assign its members' (1), else 0; *why says why not. */
static int lane_members(lr_build *B, int j, char *why, size_t cap) {
  const lied_step *st = &B->L->s->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &B->L->st[j];
  if (t->nmem > 64) return no(why, cap, "a section of more than 64 blocks");
  int64_t want = st->sec && st->sec->constant ? lied_lr_mod(-(int64_t)st->first) : -1;
  int by_chunks = want >= 0; /* want is the constant section's own chunks so far */
  for (int k = 0; k < t->nmem; k++) {
    const int spec = t->mem[k].spec;
    if (B->m->specs[spec].size % 8) return no(why, cap, "an instance size is not whole words");
    if (!(st->sec ? st->sec->blk[k].lanes : st->lanes)) {
      lied_lanes_why_not(B->m, spec, (uint64_t)t->mem[k].lo, st->sec ? st->sec->blk[k].fn : st->fn,
                         why, cap);
      return 0;
    }
    /* the lag that puts this member's pieces at its spec's group start */
    if (B->o[spec] < 0) continue;
    const int64_t r = lied_lr_mod(t->mem[k].lo - (int64_t)st->first - B->o[spec]);
    if (want >= 0 && r != want)
      return no(why, cap, by_chunks
                              ? "a section batch with a constant matrix keeps its factors per "
                                "chunk of its own copies, which do not line up with the lane groups"
                              : "members of a step do not line up with the lane groups");
    want = r, by_chunks = 0;
  }
  if (want >= 0 && lied_lr_mod(st->lag) != want) return no(why, cap, "a lag off the groups");
  for (int k = 0; k < t->nmem; k++) {
    const int64_t o = lied_lr_mod(t->mem[k].lo - (int64_t)st->first - st->lag);
    if (B->o[t->mem[k].spec] < 0) B->o[t->mem[k].spec] = o;
    if (o != B->o[t->mem[k].spec]) /* two members of one spec at other lanes */
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

/* The coordinates [*xa, *xb) around the middle of step j's n where the
 * pointer at offset off of member k (spec instance lo + x at coordinate x)
 * moves by one source instance (ssz bytes) per instance. Where the
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
  for (int q = 0; q < L->npl; q++) {
    const lied_lr_link *p = &L->pl[q];
    if (L->pl_rs[q] != rs || p->off != lk->off) continue;
    if (p->kind != lk->kind || p->src != lk->src || p->soff != lk->soff || p->d != lk->d)
      return unsupported(B->why, B->cap, "a pointer word reads other sources in other steps");
    lk->halo = p->halo;
    return LIED_OK;
  }
  if (L->npl == L->cappl) {
    const int cap = L->cappl ? 2 * L->cappl : 16;
    lied_lr_link *pl = realloc(L->pl, sizeof *pl * (size_t)cap);
    if (pl) L->pl = pl;
    int *prs = realloc(L->pl_rs, sizeof *prs * (size_t)cap);
    if (prs) L->pl_rs = prs;
    if (!pl || !prs) return lied_errc(B->e, LIED_E_NOMEM, "lanes: out of memory");
    L->cappl = cap;
  }
  if (lk->kind == LIED_LR_HALO) {
    lk->halo = L->halo_doubles;
    L->halo_doubles += (size_t)lk->rows * W;
    L->nhalo++;
  }
  L->pl_rs[L->npl] = rs;
  L->pl[L->npl++] = *lk;
  return LIED_OK;
}

/* The reading pointers of lane step j that its blocks read: links, from its
 * middle instance, and where they are regular (t->xa, t->xb: the ends may
 * be wired otherwise and run copy by copy). */
static int lane_links(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->s->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->st[j];
  const uint64_t n = lied_lr_count(st), mid = n / 2;
  int cap = 0;
  for (int k = 0; k < t->nmem; k++) cap += B->m->specs[L->sp[t->mem[k].rs].spec].tpl.nrefs;
  t->link = lied_xcalloc((size_t)cap + 1, sizeof *t->link, "lanes", B->e);
  if (!t->link) return LIED_E_NOMEM;
  t->xa = 0, t->xb = n;
  for (int k = 0; k < t->nmem; k++) {
    const lied_lr_spec *rp = &L->sp[t->mem[k].rs];
    const lied_spec *rsp = &B->m->specs[rp->spec];
    for (int b = 0; b < rsp->tpl.nblocks; b++) {
      if (!runs_block(rsp, st, k, b)) continue;
      const lied_tblock *tb = &rsp->tpl.blocks[b];
      for (uint32_t r = tb->in0; r < tb->in0 + tb->nin; r++) {
        const lied_tref *ref = &rsp->tpl.refs[r];
        if (ref->kind != LIED_REF_PORT) continue;
        int dup = 0; /* another member of this instance (a section) reads it already */
        for (int q = 0; q < t->nlink && !dup; q++)
          dup = L->sp[t->mem[t->link[q].mem].rs].spec == rp->spec &&
                t->mem[t->link[q].mem].lo == t->mem[k].lo && t->link[q].off == ref->offset;
        if (dup) continue;
        if (ref->offset % 8)
          return unsupported(B->why, B->cap, "a reading pointer that is not a whole word");
        lied_lr_link *lk = &t->link[t->nlink++];
        lk->mem = k;
        lk->off = ref->offset;
        const char *im = rp->arena + ((uint64_t)t->mem[k].lo + mid) * rp->words * 8;
        const void *pm = *(const void *const *)(const void *)(im + ref->offset);
        size_t ssz = 0;
        if (pm == (const void *)lied_port_zeros) {
          lk->kind = LIED_LR_ZEROS;
        } else {
          uint64_t si;
          uint32_t so;
          const int ss = locate(B, pm, &si, &so);
          if (ss < 0 || !B->m->specs[ss].cls || so % 8)
            return unsupported(B->why, B->cap, "a reading pointer leaves the arrays");
          lk->soff = so;
          lk->d = (int64_t)si - (t->mem[k].lo + (int64_t)mid);
          if (B->o[ss] < 0) B->o[ss] = lied_lr_mod(rp->o + lk->d);
          lk->src = ring_spec(B, ss);
          if (lk->src < 0) return LIED_E_NOMEM;
          lk->kind = lied_lr_mod(rp->o + lk->d) == B->o[ss] ? LIED_LR_DIRECT : LIED_LR_HALO;
          lk->rows = signal_rows(rsp, ref, &B->m->specs[ss], so);
          ssz = L->sp[lk->src].words * 8;
          if (lk->kind == LIED_LR_HALO) {
            if (st->sec) /* a member's source must not change during the probe */
              for (int q = 0; q < t->nmem; q++)
                if (L->sp[t->mem[q].rs].spec == ss)
                  return unsupported(B->why, B->cap, "a section reads its own members across groups");
          }
        }
        regular_run(L->s, rp, t->mem[k].lo, ref->offset, n, ssz, &t->xa, &t->xb);
        const int rc = share_link(B, t->mem[k].rs, lk);
        if (rc != LIED_OK) return rc;
      }
    }
  }
  /* halos first: a piece fills t->nhalo links and looks at no other */
  for (int q = 0; q < t->nlink; q++) {
    if (t->link[q].kind != LIED_LR_HALO) continue;
    const lied_lr_link h = t->link[q];
    memmove(&t->link[t->nhalo + 1], &t->link[t->nhalo], sizeof h * (size_t)(q - t->nhalo));
    t->link[t->nhalo++] = h;
  }
  if (t->xa > LIED_LR_END || n - t->xb > LIED_LR_END) {
    char path[200];
    const lied_lr_spec *rp = &L->sp[t->mem[0].rs];
    lied_model_path(B->m, rp->spec, (uint64_t)t->mem[0].lo + (t->xa > LIED_LR_END ? t->xa - 1 : t->xb),
                    path, sizeof path);
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

/* Step t's arrays of np tearing pairs (prs, plo, ptear, pres), made once. */
static int pairs_alloc(lr_build *B, lied_lr_step *t, int np) {
  if (t->prs) return LIED_OK;
  const size_t k = (size_t)np + 1;
  t->prs = lied_xcalloc(k, sizeof *t->prs, "lanes", B->e);
  t->plo = lied_xcalloc(k, sizeof *t->plo, "lanes", B->e);
  t->ptear = lied_xcalloc(k, sizeof *t->ptear, "lanes", B->e);
  t->pres = lied_xcalloc(k, sizeof *t->pres, "lanes", B->e);
  return t->prs && t->plo && t->ptear && t->pres ? LIED_OK : LIED_E_NOMEM;
}

/* Tearing pairs of lane section step j, in the rings at its lanes. */
static int lane_pairs(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->s->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->st[j];
  const lied_section *sec = st->sec;
  if (sec->sparse) return unsupported(B->why, B->cap, "a section solved sparsely");
  LIED_TRY(pairs_alloc(B, t, sec->k));
  const lied_lr_spec *m0 = &L->sp[t->mem[0].rs];
  const int l0 = lied_lr_lane(m0, t->mem[0].lo);
  for (int p = 0; p < sec->k; p++) {
    uint64_t it;
    uint32_t ot, orr;
    const int s1 = pair_place(B, &sec->pairs[p], &it, &ot, &orr);
    if (s1 < 0 || L->rs_of[s1] < 0 || lied_lr_lane(&L->sp[L->rs_of[s1]], (int64_t)it) != l0)
      return unsupported(B->why, B->cap, "a tearing pair off the groups");
    t->prs[p] = L->rs_of[s1];
    t->plo[p] = (int64_t)it;
    t->ptear[p] = ot;
    t->pres[p] = orr;
  }
  return LIED_OK;
}

/* Entry of group (rs, dk) in step t's list, added when new. */
static int ens_entry(lied_lr_step *t, int rs, int64_t dk) {
  for (int q = 0; q < t->nens; q++)
    if (t->ens_rs[q] == rs && t->ens_dk[q] == dk) return q;
  t->ens_rs[t->nens] = rs;
  t->ens_dk[t->nens] = dk;
  return t->nens++;
}

/* The groups a piece of lane step j touches, relative to its member 0's:
 * the lanes line up, so the distance is the same for every piece (taken at
 * the middle coordinate). */
static int lane_groups(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->s->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->st[j];
  const int np = st->sec ? st->sec->k : 0;
  const size_t cap = (size_t)(t->nmem + t->nlink + np) + 1;
  t->ens_rs = lied_xcalloc(cap, sizeof *t->ens_rs, "lanes", B->e);
  t->ens_dk = lied_xcalloc(cap, sizeof *t->ens_dk, "lanes", B->e);
  t->mem_e = lied_xcalloc((size_t)t->nmem + 1, sizeof *t->mem_e, "lanes", B->e);
  t->pair_e = lied_xcalloc((size_t)np + 1, sizeof *t->pair_e, "lanes", B->e);
  if (!t->ens_rs || !t->ens_dk || !t->mem_e || !t->pair_e) return LIED_E_NOMEM;
  const int64_t mid = (int64_t)(lied_lr_count(st) / 2);
  const int64_t K0 = lied_lr_group(&L->sp[t->mem[0].rs], t->mem[0].lo + mid);
  for (int k = 0; k < t->nmem; k++)
    t->mem_e[k] = ens_entry(t, t->mem[k].rs,
                            lied_lr_group(&L->sp[t->mem[k].rs], t->mem[k].lo + mid) - K0);
  for (int p = 0; p < np; p++)
    t->pair_e[p] = ens_entry(t, t->prs[p], lied_lr_group(&L->sp[t->prs[p]], t->plo[p] + mid) - K0);
  for (int q = 0; q < t->nlink; q++) {
    const lied_lr_link *lk = &t->link[q];
    if (lk->kind == LIED_LR_DIRECT)
      ens_entry(t, lk->src, lied_lr_group(&L->sp[lk->src], t->mem[lk->mem].lo + mid + lk->d) - K0);
  }
  return t->nens <= LIED_LR_ENS ? LIED_OK : unsupported(B->why, B->cap, "a step touches too many groups");
}

/* The coordinates of step j that may run copy by copy: [0, z1) and
 * [z2, n) (a piece that reaches into the irregular ends [0, xa), [xb, n)
 * lies within C of them). */
static void zones(const lied_lr_step *t, uint64_t n, uint64_t *z1, uint64_t *z2) {
  if (t->kind == LIED_LR_SCALAR) {
    *z1 = *z2 = n;
    return;
  }
  *z1 = t->xa ? t->xa + (uint64_t)C : 0;
  if (*z1 > n) *z1 = n;
  *z2 = t->xb < n ? (t->xb > (uint64_t)C ? t->xb - (uint64_t)C : 0) : n;
  if (*z2 < *z1) *z2 = *z1;
}

/* What step j reads in the rings where it runs copy by copy, per
 * coordinate x of its zones (index x, or z1 + x - z2 above). */
static int scalar_sync(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->s->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->st[j];
  const uint64_t n = lied_lr_count(st);
  uint64_t z1, z2;
  zones(t, n, &z1, &z2);
  t->z1 = z1, t->z2 = z2;
  const uint64_t nz = z1 + (n - z2);
  size_t cap = 0;
  for (int k = 0; k < t->nmem; k++) cap += (size_t)B->m->specs[t->mem[k].spec].tpl.nrefs;
  t->soff = lied_xcalloc(nz + 1, sizeof *t->soff, "lanes", B->e);
  t->sync = lied_xcalloc(nz * cap + 1, sizeof *t->sync, "lanes", B->e);
  t->mdup = lied_xcalloc((size_t)t->nmem + 1, 1, "lanes", B->e);
  if (!t->soff || !t->sync || !t->mdup) return LIED_E_NOMEM;
  uint64_t at = 0;
  for (uint64_t zi = 0; zi < nz; zi++) {
    const uint64_t x = zi < z1 ? zi : z2 + (zi - z1);
    t->soff[zi] = at;
    for (int k = 0; k < t->nmem; k++) {
      const lied_spec *rsp = &B->m->specs[t->mem[k].spec];
      const char *inst = rsp->arena + ((uint64_t)t->mem[k].lo + x) * rsp->size;
      for (int r = 0; r < rsp->tpl.nrefs; r++) {
        if (rsp->tpl.refs[r].kind != LIED_REF_PORT) continue;
        const void *p = *(const void *const *)(const void *)(inst + rsp->tpl.refs[r].offset);
        uint64_t si;
        uint32_t so;
        const int ss = p == (const void *)lied_port_zeros ? -1 : locate(B, p, &si, &so);
        if (ss < 0 || L->rs_of[ss] < 0) continue;
        const lied_lr_sync y = {L->rs_of[ss], si};
        int seen = 0; /* a member (moved anyway) or listed already */
        for (int q = 0; q < t->nmem && !seen; q++)
          seen = t->mem[q].rs == y.rs && (uint64_t)t->mem[q].lo + x == si;
        for (uint64_t q = t->soff[zi]; q < at && !seen; q++)
          seen = t->sync[q].rs == y.rs && t->sync[q].inst == si;
        if (!seen) t->sync[at++] = y;
      }
    }
  }
  t->soff[nz] = at;
  for (int k = 0; k < t->nmem; k++) /* two blocks of one instance: moved once */
    for (int q = 0; q < k && !t->mdup[k]; q++)
      t->mdup[k] = t->mem[q].rs == t->mem[k].rs && t->mem[q].lo == t->mem[k].lo;
  return LIED_OK;
}

/* May instances of model spec sp live in a ring? It has one, or it may get
 * one: whole words, and no states (a state map over a ring must line up
 * with its groups, lr_maps). */
static int ringable(const lr_build *B, int sp) {
  const lied_spec *s = &B->m->specs[sp];
  if (B->L->rs_of[sp] >= 0) return 1;
  if (!s->cls || s->size % 8) return 0;
  for (int m = 0; m < B->L->s->nsmap; m++)
    if (B->L->s->smap[m].base == s->arena) return 0;
  return 1;
}

/* The ring spec of sp for a copy run in one lane: a spec no lane step runs
 * or reads gets its ring here, its groups starting anywhere (0). */
static int one_ring(lr_build *B, int sp) {
  if (B->o[sp] < 0) B->o[sp] = 0;
  return ring_spec(B, sp);
}

/* Can copy-by-copy step j run each copy as a lane piece of one lane
 * (lanering_run.c, one_piece)? Every member has a lane form, the section
 * has no constant matrix (its factors are kept per chunk), and every
 * instance it runs, reads or tears is in a ring or may be (ringable). Then
 * t->one, with the reading pointers of each copy; else it stays on the
 * arena. With n = 1 a lane form reads only lane 0 of what a pointer points
 * to, so a pointer may point at any lane of any group: no halos, and
 * members need not line up. */
static int one_plan(lr_build *B, int j) {
  lied_lr *L = B->L;
  const lied_step *st = &L->s->steps[LIED_PART_DYN][j];
  lied_lr_step *t = &L->st[j];
  if (st->sec && st->sec->constant) return LIED_OK;
  for (int k = 0; k < t->nmem; k++)
    if (!(st->sec ? st->sec->blk[k].lanes : st->lanes) || !ringable(B, t->mem[k].spec))
      return LIED_OK;
  const uint64_t n = lied_lr_count(st);
  size_t cap = 1;
  for (int k = 0; k < t->nmem; k++) cap += (size_t)B->m->specs[t->mem[k].spec].tpl.nrefs;
  lied_lr_fix *fix = lied_xcalloc(cap * n, sizeof *fix, "lanes", B->e);
  uint64_t *foff = lied_xcalloc(n + 1, sizeof *foff, "lanes", B->e);
  const int np = st->sec ? st->sec->k : 0;
  int *pspec = lied_xcalloc((size_t)np + 1, sizeof *pspec, "lanes", B->e);
  if (!fix || !foff || !pspec) {
    free(fix), free(foff), free(pspec);
    return LIED_E_NOMEM;
  }
  int ok = 1;
  uint64_t at = 0;
  for (uint64_t x = 0; x < n && ok; x++) {
    foff[x] = at;
    for (int k = 0; k < t->nmem && ok; k++) {
      const lied_spec *rsp = &B->m->specs[t->mem[k].spec];
      const char *inst = rsp->arena + ((uint64_t)t->mem[k].lo + x) * rsp->size;
      for (int b = 0; b < rsp->tpl.nblocks && ok; b++) {
        if (!runs_block(rsp, st, k, b)) continue;
        const lied_tblock *tb = &rsp->tpl.blocks[b];
        for (uint32_t r = tb->in0; r < tb->in0 + tb->nin && ok; r++) {
          const lied_tref *ref = &rsp->tpl.refs[r];
          if (ref->kind != LIED_REF_PORT) continue;
          int dup = 0; /* another member of this instance reads it already */
          for (uint64_t q = foff[x]; q < at && !dup; q++)
            dup = t->mem[fix[q].mem].spec == t->mem[k].spec &&
                  t->mem[fix[q].mem].lo == t->mem[k].lo && fix[q].off == ref->offset;
          if (dup) continue;
          const void *p = *(const void *const *)(const void *)(inst + ref->offset);
          lied_lr_fix f = {k, ref->offset, -1, 0, 0};
          if (p != (const void *)lied_port_zeros) {
            uint64_t si;
            uint32_t so;
            f.rs = locate(B, p, &si, &so);
            ok = ref->offset % 8 == 0 && f.rs >= 0 && so % 8 == 0 && ringable(B, f.rs);
            f.soff = so, f.inst = (int64_t)si; /* f.rs: the model spec until all are ringable */
          }
          fix[at++] = f;
        }
      }
    }
  }
  foff[n] = at;
  if (ok && np && pairs_alloc(B, t, np) != LIED_OK) ok = -1; /* as lane_pairs has them */
  for (int p = 0; p < np && ok > 0; p++) {
    uint64_t it;
    uint32_t ot, orr;
    const int s1 = pair_place(B, &st->sec->pairs[p], &it, &ot, &orr);
    ok = s1 >= 0 && ringable(B, s1) && ot % 8 == 0 && orr % 8 == 0;
    if (ok) pspec[p] = s1, t->plo[p] = (int64_t)it, t->ptear[p] = ot, t->pres[p] = orr;
  }
  for (int k = 0; k < t->nmem && ok > 0; k++)
    if ((t->mem[k].rs = one_ring(B, t->mem[k].spec)) < 0) ok = -1;
  for (uint64_t q = 0; q < at && ok > 0; q++)
    if (fix[q].rs >= 0 && (fix[q].rs = one_ring(B, fix[q].rs)) < 0) ok = -1;
  for (int p = 0; p < np && ok > 0; p++)
    if ((t->prs[p] = one_ring(B, pspec[p])) < 0) ok = -1;
  free(pspec);
  if (ok <= 0) {
    free(fix), free(foff);
    return ok < 0 ? LIED_E_NOMEM : LIED_OK;
  }
  /* a pointer word a lane step reads holds, in every slot and lane, what
   * lied_lr_worker_init set: where that is the copy's source already (a
   * crab's own parts, whose lanes line up), no fix */
  uint64_t kept = 0;
  for (uint64_t x = 0; x < n; x++) {
    const uint64_t a = foff[x];
    foff[x] = kept;
    for (uint64_t q = a; q < foff[x + 1]; q++) {
      const lied_lr_fix *f = &fix[q];
      const lied_lr_mem *mk = &t->mem[f->mem];
      int held = 0;
      for (int p = 0; p < L->npl && !held; p++) {
        const lied_lr_link *lk = &L->pl[p];
        if (L->pl_rs[p] != mk->rs || lk->off != f->off) continue;
        held = f->rs < 0 ? lk->kind == LIED_LR_ZEROS
                         : lk->kind == LIED_LR_DIRECT && lk->src == f->rs && lk->soff == f->soff &&
                               f->inst == mk->lo + (int64_t)x + lk->d;
      }
      if (!held) fix[kept++] = *f;
    }
  }
  foff[n] = kept;
  for (uint64_t x = 0; x < n; x++)
    if (foff[x + 1] - foff[x] > L->maxfix) L->maxfix = foff[x + 1] - foff[x];
  if ((size_t)t->nmem > L->maxmem) L->maxmem = (size_t)t->nmem;
  t->one = 1, t->fix = fix, t->foff = foff;
  L->none++;
  return LIED_OK;
}

/* Ring geometry and the state maps over the rings. */
static int lr_maps(lr_build *B, uint64_t live) {
  lied_lr *L = B->L;
  const lied_sched *s = L->s;
  int64_t reach = 0;
  for (int j = 0; j < s->nsteps[LIED_PART_DYN]; j++)
    for (int q = 0; q < L->st[j].nlink; q++) {
      const int64_t d = L->st[j].link[q].d < 0 ? -L->st[j].link[q].d : L->st[j].link[q].d;
      if (d > reach) reach = d;
    }
  uint64_t need = (live + s->skew_maxlag + (uint64_t)reach) / (uint64_t)C + 4;
  uint64_t groups = 0; /* every group of the longest ring: nothing is ever evicted */
  for (int i = 0; i < L->nsp; i++) {
    const uint64_t g = (uint64_t)lied_lr_group(&L->sp[i], (int64_t)L->sp[i].total) + 1;
    if (g > groups) groups = g;
  }
  if (need > groups + 4) need = groups + 4;
  L->ng = 1;
  while ((uint64_t)L->ng < need) L->ng *= 2;
  for (int i = 0; i < L->nsp; i++) {
    L->sp[i].ring = L->ring_bytes;
    L->ring_bytes += (size_t)L->ng * L->sp[i].gb;
  }
  int nst = 0;
  for (int m = 0; m < s->nsmap; m++) nst += s->smap[m].n;
  L->lsm = lied_xcalloc((size_t)s->nsmap + 1, sizeof *L->lsm, "lanes", B->e);
  L->lst = lied_xcalloc((size_t)nst + 1, sizeof *L->lst, "lanes", B->e);
  L->map_rs = lied_xcalloc((size_t)s->nsmap + 1, sizeof *L->map_rs, "lanes", B->e);
  if (!L->lsm || !L->lst || !L->map_rs) return LIED_E_NOMEM;
  lied_tstate *t = L->lst;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    L->lsm[m] = *sm;
    L->map_rs[m] = -1;
    for (int k = 0; k < B->m->nspecs; k++)
      if (B->m->specs[k].cls && B->m->specs[k].arena == sm->base) L->map_rs[m] = L->rs_of[k];
    if (L->map_rs[m] < 0) continue;
    const lied_lr_spec *p = &L->sp[L->map_rs[m]];
    if (lied_lr_mod(-sm->lag_in) != p->o || lied_lr_mod(-sm->lag_out) != p->o)
      return unsupported(B->why, B->cap, "states off the groups");
    L->lsm[m].stride = LIED_LANE_STRIDE;
    L->lsm[m].layout = LIED_LAYOUT_LANES;
    L->lsm[m].st = t;
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
 * these words: a
 * group's slot holds another group's values there until a step writes
 * them, and no step reads them before (the schedule's order, and what a
 * later worker of a sweep on threads has always relied on: it loads the
 * groups the worker before it has not stored). */
static int drop_dynamic(lr_build *B, int r) {
  const lied_lr *L = B->L;
  const lied_sched *s = L->s;
  lied_lr_spec *p = &L->sp[r];
  const lied_template *tp = &B->m->specs[p->spec].tpl;
  uint64_t *n = lied_xcalloc(3 * p->words + 1, sizeof *n, "lanes", B->e);
  if (!n) return LIED_E_NOMEM;
  uint64_t *nb = n, *ns = n + p->words, *nt = n + 2 * p->words;
  for (int j = 0; j < s->nsteps[LIED_PART_DYN]; j++) {
    const lied_step *st = &s->steps[LIED_PART_DYN][j];
    const lied_lr_step *t = &L->st[j];
    const uint64_t cnt = lied_lr_count(st);
    for (int k = 0; k < t->nmem; k++) {
      if (t->mem[k].spec != p->spec) continue;
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
    if (L->map_rs[m] != r) continue;
    for (int q = 0; q < s->smap[m].n; q++)
      if (s->smap[m].st[q].x % 8 == 0 && s->smap[m].st[q].x / 8 < p->words)
        ns[s->smap[m].st[q].x / 8] += s->smap[m].count;
  }
  uint32_t kept = 0;
  for (uint32_t q = 0; q < p->nld; q++) {
    const uint32_t w = p->ld[q];
    if (nb[w] != p->total && ns[w] != p->total && nt[w] != p->total) p->ld[kept++] = w;
  }
  p->nld = kept;
  free(n);
  return LIED_OK;
}

/* The words each ring spec loads: all but the reading pointers and what
 * the dynamic part writes first (drop_dynamic). */
static int lr_loads(lr_build *B) {
  for (int r = 0; r < B->L->nsp; r++) LIED_TRY(drop_dynamic(B, r));
  return LIED_OK;
}

void lied_lr_longest_first(const lied_step *st, int ns, int *order) {
  for (int j = 0; j < ns; j++) order[j] = j;
  for (int a = 1; a < ns; a++) /* insertion: a few steps */
    for (int k = a; k > 0 && lied_lr_count(&st[order[k]]) > lied_lr_count(&st[order[k - 1]]); k--) {
      const int t = order[k];
      order[k] = order[k - 1], order[k - 1] = t;
    }
}

/* Steps longest first: the interior of the arrays chooses the groups. */
static int lr_steps(lr_build *B) {
  lied_lr *L = B->L;
  const lied_step *st = L->s->steps[LIED_PART_DYN];
  const int ns = L->s->nsteps[LIED_PART_DYN];
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
      L->st[j].kind = LIED_LR_LANE, L->nlane++;
    else if (lied_lr_count(&st[j]) <= LIED_LR_END)
      L->st[j].kind = LIED_LR_SCALAR, L->nscalar++;
    else
      rc = unsupported(B->why, B->cap, w2);
  }
  for (int a = 0; a < ns && rc == LIED_OK; a++) { /* the lane steps' members in rings */
    lied_lr_step *t = &L->st[order[a]];
    for (int k = 0; k < t->nmem && rc == LIED_OK && t->kind == LIED_LR_LANE; k++)
      if ((t->mem[k].rs = ring_spec(B, t->mem[k].spec)) < 0) rc = LIED_E_NOMEM;
  }
  for (int a = 0; a < ns && rc == LIED_OK; a++) {
    lied_lr_step *t = &L->st[order[a]];
    if (t->kind != LIED_LR_LANE) continue;
    rc = lane_links(B, order[a]);
    if (rc == LIED_OK && st[order[a]].sec) rc = lane_pairs(B, order[a]);
    if (rc == LIED_OK) rc = lane_groups(B, order[a]);
    if (rc == LIED_UNSUPPORTED && lied_lr_count(&st[order[a]]) <= LIED_LR_END) {
      /* an end wired otherwise than the interior, which chose the pointers */
      t->kind = LIED_LR_SCALAR, L->nlane--, L->nscalar++;
      free(t->link), t->link = NULL, t->nlink = t->nhalo = 0, t->nens = 0;
      rc = LIED_OK;
    }
  }
  for (int j = 0; j < ns && rc == LIED_OK; j++)
    if (L->st[j].kind == LIED_LR_SCALAR) rc = one_plan(B, j);
  for (int j = 0; j < ns && rc == LIED_OK; j++) {
    if (L->st[j].kind == LIED_LR_SCALAR)
      for (int k = 0; k < L->st[j].nmem; k++) L->st[j].mem[k].rs = L->rs_of[L->st[j].mem[k].spec];
    rc = scalar_sync(B, j);
  }
  free(order);
  return rc;
}

int lied_lr_init(lied_lr *L, lied_sched *s, uint64_t live, char *why, size_t cap, lied_err *e) {
  memset(L, 0, sizeof *L);
  L->s = s;
  if (cap) *why = 0;
  if (!s->skewed || !s->nsteps[LIED_PART_DYN])
    return unsupported(why, cap, "the model is not coupled arrays evaluated skewed");
  const lied_model *m = s->model;
  const int ns = s->nsteps[LIED_PART_DYN];
  lr_build B = {L, m, NULL, 0, NULL, why, cap, e};
  B.order = lied_model_arena_order(m, &B.norder, e);
  B.o = lied_xmalloc(sizeof *B.o * (size_t)m->nspecs + 1, "lanes", e);
  L->sp = lied_xcalloc((size_t)m->nspecs + 1, sizeof *L->sp, "lanes", e);
  L->rs_of = lied_xmalloc(sizeof *L->rs_of * (size_t)m->nspecs + 1, "lanes", e);
  L->st = lied_xcalloc((size_t)ns, sizeof *L->st, "lanes", e);
  int rc = B.order && B.o && L->sp && L->rs_of && L->st ? LIED_OK : LIED_E_NOMEM;
  for (int k = 0; rc == LIED_OK && k < m->nspecs; k++) B.o[k] = -1, L->rs_of[k] = -1;
  if (rc == LIED_OK) rc = lr_steps(&B);
  if (rc == LIED_OK) rc = lr_maps(&B, live);
  if (rc == LIED_OK) rc = lr_loads(&B);
  free(B.order);
  free(B.o);
  if (rc != LIED_OK) lied_lr_free(L);
  return rc;
}
