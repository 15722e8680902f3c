/* lanering_run.c - a worker's rings of lane groups and the dynamic part of
 * coupled arrays run on them (see lanering.h; the plan is lanering.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "sched/lanering.h"
#include "sched/lanes.h"
#include "sched/probe.h"

#define W LIED_LANES
#define C LIED_LR_C

/* ---- a worker's rings -------------------------------------------------------- */

/* The reading pointers in every slot and lane of W's rings, once: lane l of
 * a slot reads lane l of the source's slot dK further on (the source's
 * lanes line up), of its halo, or of the zeros. Loading a group leaves
 * them (lied_lr_spec.is_ptr). */
static void set_pointers(const lied_lr *L, lied_lr_worker *Wk) {
  for (int q = 0; q < L->nptr_links; q++) {
    const lied_lr_link *lk = &L->ptr_links[q];
    const lied_lr_spec *rp = &L->specs[L->ptr_ring[q]];
    const lied_lr_spec *sp = lk->kind == LIED_LR_DIRECT ? &L->specs[lk->src_ring] : NULL;
    /* divisible: the lanes line up */
    LIED_ASSERT(!sp || (rp->group_start + lk->dist - sp->group_start) % C == 0);
    LIED_ASSERT(lk->kind != LIED_LR_HALO || lk->halo_off + (size_t)lk->rows * W <= L->halo_doubles);
    const int64_t dK = sp ? (rp->group_start + lk->dist - sp->group_start) / C : 0;
    for (int slot = 0; slot < L->nslots; slot++) {
      char *g = Wk->rings + rp->ring_off + (size_t)slot * rp->group_bytes +
                (size_t)lk->ptr_off * W;
      const char *to = lk->kind == LIED_LR_ZEROS ? (const char *)Wk->zeros
                       : lk->kind == LIED_LR_HALO
                           ? (const char *)(Wk->halo + lk->halo_off)
                           : Wk->rings + sp->ring_off +
                                 (size_t)((slot + dK) & (int64_t)(L->nslots - 1)) *
                                     sp->group_bytes +
                                 (size_t)lk->src_off * W;
      for (int l = 0; l < W; l++) {
        const char *tl = to + 8 * l;
        memcpy(g + 8 * l, &tl, sizeof tl);
      }
    }
  }
}

int lied_lr_worker_init(const lied_lr *L, lied_lr_worker *W_, lied_err *e) {
  memset(W_, 0, sizeof *W_);
  const int ns = L->sched->nsteps[LIED_PART_DYN];
  W_->rings = lied_xcalloc_lines(L->ring_bytes + 1, 1, "lanes: rings", e);
  W_->slot_group = lied_xmalloc(
      sizeof *W_->slot_group * ((size_t)L->nspecs * (size_t)L->nslots + 1), "lanes", e);
  W_->halo = lied_xcalloc_lines(L->halo_doubles + 1, sizeof *W_->halo, "lanes", e);
  W_->zeros = lied_xcalloc_lines((size_t)W * LIED_MAX_SIGNAL_VARS, sizeof *W_->zeros, "lanes", e);
  W_->lane_secs = lied_xcalloc((size_t)ns + 1, sizeof *W_->lane_secs, "lanes", e);
  W_->saved = lied_xcalloc(2 * L->maxfix + 1, sizeof *W_->saved, "lanes", e);
  W_->bases = lied_xcalloc(L->maxmem + 1, sizeof *W_->bases, "lanes", e);
  if (!W_->rings || !W_->slot_group || !W_->halo || !W_->zeros || !W_->lane_secs || !W_->saved ||
      !W_->bases) {
    lied_lr_worker_free(L, W_);
    return LIED_E_NOMEM;
  }
  for (size_t i = 0; i < (size_t)L->nspecs * (size_t)L->nslots; i++) W_->slot_group[i] = -1;
  set_pointers(L, W_);
  for (int j = 0; j < ns; j++) {
    const lied_section *sec = L->sched->steps[LIED_PART_DYN][j].sec;
    if ((L->steps[j].kind != LIED_LR_LANE && !L->steps[j].one_lane) || !sec) continue;
    lied_section *ls = &W_->lane_secs[j];
    *ls = *sec;
    ls->blk = lied_xcalloc((size_t)sec->nblk + 1, sizeof *ls->blk, "lanes", e);
    ls->pairs = lied_xcalloc((size_t)sec->k + 1, sizeof *ls->pairs, "lanes", e);
    if (!ls->blk || !ls->pairs) {
      lied_lr_worker_free(L, W_);
      return LIED_E_NOMEM;
    }
    ls->layout = LIED_LAYOUT_LANES;
    for (int k = 0; k < sec->nblk; k++)
      ls->blk[k] = (lied_sec_block){sec->blk[k].lanes, NULL, 0, sec->blk[k].lanes};
    for (int p = 0; p < sec->k; p++) {
      ls->pairs[p] = sec->pairs[p];
      ls->pairs[p].tstride = ls->pairs[p].rstride = LIED_LANE_STRIDE;
    }
  }
  return LIED_OK;
}

void lied_lr_worker_free(const lied_lr *L, lied_lr_worker *W_) {
  const int ns = L->sched ? L->sched->nsteps[LIED_PART_DYN] : 0;
  for (int j = 0; W_->lane_secs && j < ns; j++) {
    free(W_->lane_secs[j].blk);
    free(W_->lane_secs[j].pairs);
  }
  free(W_->rings), free(W_->slot_group), free(W_->halo), free(W_->zeros), free(W_->lane_secs);
  free(W_->saved), free(W_->bases);
  memset(W_, 0, sizeof *W_);
}

/* Group K of ring spec p from its arena into g: the words it loads
 * (lied_lr_spec.load_words; reading pointers stay). */
static void load_group(const lied_lr_spec *p, int64_t K, char *g) {
  const int64_t i0 = p->group_start - C + C * K;
  const int64_t a = i0 > 0 ? i0 : 0, b = i0 + C < (int64_t)p->total ? i0 + C : (int64_t)p->total;
  LIED_ASSERT(a < b); /* a group of the spec's instances is asked for, not one beyond */
  lied_lanes_move(g, p->arena, p->words, p->load_words, p->nload, a, b, i0, 0);
}

/* A slot taken by group K of ring spec r. Nothing goes back to the arena:
 * what the steps write there is written again before it is read, in every
 * evaluation (lanering.c, drop_dynamic), and output points evaluate on
 * the arena. */
static char *take_slot(const lied_lr *L, lied_lr_worker *Wk, int r, int64_t K, int64_t *tag,
                       char *g) {
  Wk->overrun |= *tag > K; /* a group behind one still held: the ring is too short */
  LIED_ASSERT(*tag <= K);
  load_group(&L->specs[r], K, g);
  *tag = K;
  return g;
}

/* Group K of ring spec r in W's ring, loaded on first use. */
static inline char *group_of(const lied_lr *L, lied_lr_worker *Wk, int r, int64_t K) {
  LIED_ASSERT(r >= 0 && r < L->nspecs && K >= 0);
  const size_t slot = (size_t)K & (size_t)(L->nslots - 1);
  int64_t *tag = &Wk->slot_group[(size_t)r * (size_t)L->nslots + slot];
  char *g = Wk->rings + L->specs[r].ring_off + slot * L->specs[r].group_bytes;
  return *tag == K ? g : take_slot(L, Wk, r, K, tag, g);
}

/* The address of instance i of ring spec r (its lane of word 0). */
static char *inst_at(const lied_lr *L, lied_lr_worker *Wk, int r, int64_t i) {
  const lied_lr_spec *p = &L->specs[r];
  LIED_ASSERT(i >= 0 && (uint64_t)i < p->total);
  return group_of(L, Wk, r, lied_lr_group(p, i)) + 8 * lied_lr_lane(p, i);
}

void lied_lr_begin(const lied_lr *L, lied_lr_worker *Wk) {
  Wk->overrun = 0;
  for (size_t i = 0; i < (size_t)L->nspecs * (size_t)L->nslots; i++) Wk->slot_group[i] = -1;
}

/* One instance between its ring and its arena (to_arena: into the arena):
 * the words blocks, the probe and the states write; the others (parameters,
 * reading pointers) are the same in both. A loop of its own, not
 * lied_lanes_move: for one instance that one's set-up per word run cost the
 * chain of 64 crabs 627 -> 790 instructions per crab-evaluation
 * (callgrind). */
static void sync_inst(const lied_lr *L, lied_lr_worker *Wk, int r, uint64_t i, int to_arena) {
  const lied_lr_spec *p = &L->specs[r];
  double *lane = (double *)(void *)inst_at(L, Wk, r, (int64_t)i);
  double *inst = (double *)(void *)(p->arena + i * p->words * 8);
  const uint32_t *sw = p->write_words, nsw = p->nwrite;
  if (to_arena)
    for (uint32_t q = 0; q < nsw; q++) inst[sw[q]] = lane[(size_t)sw[q] * W];
  else
    for (uint32_t q = 0; q < nsw; q++) lane[(size_t)sw[q] * W] = inst[sw[q]];
}

/* The halo of link lk for the n lanes from l0: source instances from si,
 * in at most two runs of lanes (the source's group and the next). The
 * longer run is one copy of the rows' whole span: the halo's rows are W
 * apart as the group's are, so copying (rows - 1) W + len doubles puts the
 * run's lanes in every row; the other lanes it writes are outside the
 * call's [l0, l0 + n) or the other run's, written row by row after it.
 * (Row by row throughout, as first written, the halos took 28 of the
 * chain's instructions per crab-evaluation: a library memcpy call per row
 * of 31 lanes and one per row of 1; the span copy for the first run only
 * left a call per row where the first run is the short one, a crab reading
 * the crab before it.) */
static void fill_halo(const lied_lr *L, lied_lr_worker *Wk, const lied_lr_link *lk, int64_t si,
                      int l0, uint64_t n, double *h) {
  const lied_lr_spec *p = &L->specs[lk->src_ring];
  const int rows = lk->rows;
  /* the halo's width: the signal within the source instance and the halo
   * within its area; the call's lanes within one group */
  LIED_ASSERT(lk->kind == LIED_LR_HALO && rows >= 1 && rows <= LIED_MAX_SIGNAL_VARS);
  LIED_ASSERT(lk->src_off / 8 + (uint32_t)rows <= p->words);
  LIED_ASSERT(h == Wk->halo + lk->halo_off && lk->halo_off + (size_t)rows * W <= L->halo_doubles);
  LIED_ASSERT(n >= 1 && l0 >= 0 && (uint64_t)l0 + n <= W);
  LIED_ASSERT(si >= 0 && (uint64_t)si + n <= p->total);
  const double *from[2];
  uint64_t at[2], len[2];
  int runs = 0;
  for (uint64_t done = 0; done < n && runs < 2; runs++) { /* n <= C: two runs at most */
    const int64_t i = si + (int64_t)done;
    const int ls = lied_lr_lane(p, i);
    len[runs] = (uint64_t)(C - ls);
    if (len[runs] > n - done) len[runs] = n - done;
    from[runs] = (const double *)(const void *)(group_of(L, Wk, lk->src_ring,
                                                         lied_lr_group(p, i)) +
                                                (size_t)lk->src_off * W + 8 * (size_t)ls);
    at[runs] = (uint64_t)l0 + done;
    done += len[runs];
  }
  LIED_ASSERT(len[0] + (runs == 2 ? len[1] : 0) == n);
  const int big = runs == 2 && len[1] > len[0];
  memcpy(h + at[big], from[big], sizeof *h * ((size_t)(rows - 1) * W + len[big]));
  if (runs < 2) return;
  const int o = !big;
  double *to = h + at[o];
  const double *g = from[o];
  if (len[o] == 1) { /* a shift by one copy (a chain's neighbour) */
    for (int r = 0; r < rows; r++) to[(size_t)r * W] = g[(size_t)r * W];
  } else {
    for (int r = 0; r < rows; r++)
      memcpy(to + (size_t)r * W, g + (size_t)r * W, sizeof *to * len[o]);
  }
}

/* Do the groups g[] of a piece of lane step t, from member 0's group K0 and
 * lane l0, hold what the plan says (each member's and pair's instance at
 * coordinate x on lane l0 of its group, each direct source's likewise) and
 * are they all still in their slots (none evicted by another the piece
 * loaded)? For LIED_ASSERT only (inline: no code without it). */
static inline int piece_groups_ok(const lied_lr *L, const lied_lr_worker *Wk, const lied_lr_step *t,
                           char *const *g, int64_t x, int64_t K0, int l0) {
  for (int k = 0; k < t->nmembers; k++) {
    const lied_lr_mem *mk = &t->members[k];
    const lied_lr_spec *p = &L->specs[mk->ring];
    const int q = t->member_group[k];
    if (t->group_ring[q] != mk->ring || lied_lr_lane(p, mk->first_inst + x) != l0 ||
        lied_lr_group(p, mk->first_inst + x) != K0 + t->group_dk[q])
      return 0;
  }
  for (int i = 0; i < t->nlinks; i++) {
    const lied_lr_link *lk = &t->links[i];
    const lied_lr_spec *p = &L->specs[lk->src_ring];
    const int64_t si = t->members[lk->member].first_inst + x + lk->dist;
    if (i < t->nhalos ? lk->kind != LIED_LR_HALO : lk->kind == LIED_LR_HALO) return 0;
    if (lk->kind == LIED_LR_DIRECT && lied_lr_lane(p, si) != l0) return 0;
  }
  for (int q = 0; q < t->ngroups; q++) {
    const int r = t->group_ring[q];
    const size_t slot = (size_t)(K0 + t->group_dk[q]) & (size_t)(L->nslots - 1);
    if (Wk->slot_group[(size_t)r * (size_t)L->nslots + slot] != K0 + t->group_dk[q] ||
        g[q] != Wk->rings + L->specs[r].ring_off + slot * L->specs[r].group_bytes)
      return 0;
  }
  return 1;
}

/* Lane step j at coordinates first + x .. + n (path 1 of lanering.h). */
static int lane_piece(const lied_lr *L, lied_lr_worker *Wk, lied_sched *v, int j,
                      enum lied_eval_mode mode, const lied_env *env, int64_t x, uint64_t n,
                      lied_err *e) {
  const lied_step *st = &v->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &L->steps[j];
  const lied_lr_spec *p0 = &L->specs[t->members[0].ring];
  const int64_t i0 = t->members[0].first_inst + x, K0 = lied_lr_group(p0, i0);
  const int l0 = lied_lr_lane(p0, i0);
  /* the piece: part of one group, in the step's regular part */
  LIED_ASSERT(t->kind == LIED_LR_LANE && n >= 1 && (uint64_t)l0 + n <= W);
  LIED_ASSERT(x >= (int64_t)t->reg_lo && (uint64_t)x + n <= t->reg_hi);
  char *g[LIED_LR_ENS];
  for (int q = 0; q < t->ngroups; q++)
    g[q] = group_of(L, Wk, t->group_ring[q], K0 + t->group_dk[q]);
  for (int q = 0; q < t->nhalos; q++) {
    const lied_lr_link *lk = &t->links[q];
    fill_halo(L, Wk, lk, t->members[lk->member].first_inst + x + lk->dist, l0, n,
              Wk->halo + lk->halo_off);
  }
  LIED_ASSERT(piece_groups_ok(L, Wk, t, g, x, K0, l0));
  if (!st->sec) {
    st->lanes(env, g[t->member_group[0]] + 8 * l0, (size_t)n, 0);
    return LIED_OK;
  }
  const lied_section *o = st->sec;
  lied_section *ls = &Wk->lane_secs[j];
  for (int k = 0; k < t->nmembers; k++) ls->blk[k].base = g[t->member_group[k]] + 8 * l0;
  for (int p = 0; p < o->k; p++) {
    char *a = g[t->pair_group[p]] + 8 * l0;
    ls->pairs[p].tear = (double *)(void *)(a + (size_t)t->pair_tear[p] * W);
    ls->pairs[p].res = (double *)(void *)(a + (size_t)t->pair_res[p] * W);
    ls->pairs[p].inst0 = o->pairs[p].inst0 + (uint64_t)x;
  }
  if (o->constant) {
    const size_t k = (size_t)o->k;
    if (x % C)
      return lied_errc(e, LIED_ERROR, "internal error: lane section batch at instance %lld",
                       (long long)x);
    ls->lu = o->lu + (size_t)x * k * k;
    ls->piv = o->piv + (size_t)x * k;
    ls->factored = o->factored + x / C;
  }
  return lied_probe_range(v, ls, mode, env, 0, n, e);
}

/* Copy-by-copy step j at coordinates first + x .. + n, each copy a lane
 * piece of one lane in the rings (path 2 of lanering.h): its reading
 * pointers set in its lanes to the sources' lanes for the call and put back
 * after, in reverse order (the words belong to the slot: a lane step reads
 * them in another group the slot holds later). */
static int one_piece(const lied_lr *L, lied_lr_worker *Wk, lied_sched *v, int j,
                     enum lied_eval_mode mode, const lied_env *env, int64_t x, uint64_t n,
                     lied_err *e) {
  const lied_step *st = &v->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &L->steps[j];
  char **base = Wk->bases, **saved = Wk->saved;
  int rc = LIED_OK;
  LIED_ASSERT(t->one_lane && t->kind == LIED_LR_SCALAR && (size_t)t->nmembers <= L->maxmem);
  for (uint64_t y = (uint64_t)x; y < (uint64_t)x + n && rc == LIED_OK; y++) {
    for (int k = 0; k < t->nmembers; k++)
      base[k] = inst_at(L, Wk, t->members[k].ring, t->members[k].first_inst + (int64_t)y);
    const lied_lr_fix *f = t->fixes + t->fix_start[y];
    const size_t nf = (size_t)(t->fix_start[y + 1] - t->fix_start[y]);
    LIED_ASSERT(nf <= L->maxfix);
    for (size_t q = 0; q < nf; q++) {
      char *to = f[q].src_ring < 0
                     ? (char *)Wk->zeros
                     : inst_at(L, Wk, f[q].src_ring, f[q].src_inst) + (size_t)f[q].src_off * W;
      char *w = base[f[q].member] + (size_t)f[q].ptr_off * W;
      saved[2 * q] = w;
      memcpy(&saved[2 * q + 1], w, sizeof to);
      memcpy(w, &to, sizeof to);
    }
#ifdef LIED_ASSERTS
    /* the copy's members are still where inst_at found them (a source
     * loaded after them did not take their slots) */
    for (int k = 0; k < t->nmembers; k++)
      LIED_ASSERT(base[k] ==
                  inst_at(L, Wk, t->members[k].ring, t->members[k].first_inst + (int64_t)y));
#endif
    if (!st->sec) {
      st->lanes(env, base[0], 1, 0);
    } else {
      const lied_section *o = st->sec;
      lied_section *ls = &Wk->lane_secs[j];
      for (int k = 0; k < t->nmembers; k++) ls->blk[k].base = base[k];
      for (int p = 0; p < o->k; p++) {
        char *a = inst_at(L, Wk, t->pair_ring[p], t->pair_inst[p] + (int64_t)y);
        ls->pairs[p].tear = (double *)(void *)(a + (size_t)t->pair_tear[p] * W);
        ls->pairs[p].res = (double *)(void *)(a + (size_t)t->pair_res[p] * W);
        ls->pairs[p].inst0 = o->pairs[p].inst0 + y;
      }
      rc = lied_probe_range(v, ls, mode, env, 0, 1, e);
    }
    for (size_t q = nf; q-- > 0;) memcpy(saved[2 * q], &saved[2 * q + 1], sizeof saved[0]);
  }
  return rc;
}

/* Copy-by-copy step j at coordinates first + x .. + n, on the arena (path 3
 * of lanering.h). */
static int scalar_piece(const lied_lr *L, lied_lr_worker *Wk, lied_sched *v, int j,
                        enum lied_eval_mode mode, const lied_env *env, int64_t x, uint64_t n,
                        lied_err *e) {
  const lied_step *st = &v->steps[LIED_PART_DYN][j];
  const lied_lr_step *t = &L->steps[j];
  for (uint64_t y = (uint64_t)x; y < (uint64_t)x + n; y++) {
    LIED_ASSERT(y < t->end_lo || y >= t->end_hi); /* a copy-by-copy end */
    const uint64_t zi = y < t->end_lo ? y : t->end_lo + (y - t->end_hi);
    for (uint64_t q = t->sync_start[zi]; q < t->sync_start[zi + 1]; q++)
      sync_inst(L, Wk, t->syncs[q].ring, t->syncs[q].inst, 1);
    for (int k = 0; k < t->nmembers; k++)
      if (t->members[k].ring >= 0 && !t->member_dup[k])
        sync_inst(L, Wk, t->members[k].ring, (uint64_t)t->members[k].first_inst + y, 1);
  }
  int rc = LIED_OK;
  if (st->sec)
    rc = lied_probe_range(v, st->sec, mode, env, (uint64_t)x, n, e);
  else
    st->fn(env, st->base + (size_t)x * st->stride, (size_t)n, st->stride);
  for (uint64_t y = (uint64_t)x; y < (uint64_t)x + n; y++)
    for (int k = 0; k < t->nmembers; k++)
      if (t->members[k].ring >= 0 && !t->member_dup[k])
        sync_inst(L, Wk, t->members[k].ring, (uint64_t)t->members[k].first_inst + y, 0);
  return rc;
}

int lied_lr_run_at(const lied_lr *L, lied_lr_worker *Wk, lied_sched *v, enum lied_eval_mode mode,
                   const lied_env *env, int64_t c, lied_err *e) {
  const lied_step *st = v->steps[LIED_PART_DYN];
  const int ns = v->nsteps[LIED_PART_DYN];
  for (int j = 0; j < ns; j++) {
    const int64_t first = (int64_t)st[j].first, hi = first + (int64_t)lied_lr_count(&st[j]);
    int64_t a = c - st[j].lag, b = a + C;
    if (a < first) a = first;
    if (b > hi) b = hi;
    if (a >= b) continue;
    const lied_lr_step *t = &L->steps[j];
    const int64_t x = a - first;
    const uint64_t n = (uint64_t)(b - a);
    const int lane =
        t->kind == LIED_LR_LANE && x >= (int64_t)t->reg_lo && b - first <= (int64_t)t->reg_hi;
    const int rc = lane          ? lane_piece(L, Wk, v, j, mode, env, x, n, e)
                   : t->one_lane ? one_piece(L, Wk, v, j, mode, env, x, n, e)
                                 : scalar_piece(L, Wk, v, j, mode, env, x, n, e);
    if (rc != LIED_OK) return rc;
  }
  if (Wk->overrun)
    return lied_errc(e, LIED_ERROR, "internal error: the lane rings are too short for the "
                                    "stages in flight (%d groups)", L->nslots);
  return LIED_OK;
}

char *lied_lr_map_at(const lied_lr *L, lied_lr_worker *Wk, int m, uint64_t q) {
  LIED_ASSERT(q < L->lane_smap[m].count);
  if (L->smap_ring[m] < 0) return L->lane_smap[m].base + q * L->lane_smap[m].stride;
  return inst_at(L, Wk, L->smap_ring[m], (int64_t)q);
}

const void *lied_lr_instance(const lied_lr *L, const lied_lr_worker *Wk, const void *p) {
  const char *c = p;
  for (int r = 0; r < L->nspecs; r++) {
    const lied_lr_spec *sp = &L->specs[r];
    const char *ring = Wk->rings + sp->ring_off;
    const size_t gb = sp->group_bytes;
    if (c < ring || c >= ring + (size_t)L->nslots * gb) continue;
    const size_t slot = (size_t)(c - ring) / gb;
    const int64_t K = Wk->slot_group[(size_t)r * (size_t)L->nslots + slot];
    const int64_t i = sp->group_start - C + C * K + (int64_t)(((size_t)(c - ring) % gb / 8) % W);
    return K < 0 ? p : sp->arena + (size_t)i * sp->words * 8;
  }
  return p;
}
