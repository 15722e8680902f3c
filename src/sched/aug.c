/* aug.c - the implicit solvers' sparse formulation (sched/aug.h): its plan
 * (which outputs of dynamic blocks become unknowns, the pattern of [f; g]
 * over [x; z; w]) from the block graph, and evaluations at given unknowns.
 *
 * The pattern comes from sets of unknowns, as sparsity.c builds them, but
 * per node where it matters: every member of a sparse section has its own
 * set (the states it reads, what it reads outside the section, the section
 * unknowns of its D and the states behind the uncut ranges it reads), and a
 * reader outside a member takes that member's set and cuts. A plain block of
 * the dynamic part whose set grows beyond LIED_AUG_WIDTH becomes an explicit
 * cut: its outputs (but derivatives) get unknowns of their own, and its
 * readers see only those. Sparse sections exist only without replicated
 * copies and without a window (spplan.c), so neither is handled here. */
#include "sched/aug.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "core/assert.h"
#include "core/sum.h"
#include "sched/probe.h"
#include "sched/sbuild.h"
#include "sched/sets.h"
#include "sched/spplan.h"
#include "sched/spsec.h"

#include "sched/augb.h"



static void build_free(aug_build *B) {
  lied_sets_free(&B->cs);
  free(B->rset0), free(B->rsetn), free(B->vset0), free(B->vsetn), free(B->own);
  free(B->secz), free(B->grow), free(B->wnode), free(B->trow0), free(B->trown);
  free(B->steps);
}

/* The set a reader of node u sees. */
void augb_read_set(const aug_build *B, uint32_t u, const uint32_t **set, uint32_t *n) {
  const comp_sets *cs = &B->cs;
  if (B->own[u]) {
    *set = cs->pool + B->vset0[u], *n = B->vsetn[u];
  } else {
    const uint32_t c = B->b->comp[u];
    *set = cs->pool + cs->set0[c], *n = cs->setn[c];
  }
}

/* tmp[0 .. nt) sorted and stored; its place in *s0, *sn. */
int augb_store(aug_build *B, uint64_t nt, uint64_t *s0, uint32_t *sn) {
  comp_sets *cs = &B->cs;
  const uint64_t k0 = cs->set0[0];
  const uint32_t n0 = cs->setn[0];
  LIED_TRY(lied_sets_store(cs, 0, nt, B->b->e));
  *s0 = cs->set0[0], *sn = cs->setn[0];
  cs->set0[0] = k0, cs->setn[0] = n0;
  return LIED_OK;
}

/* Append to tmp[*nt ..) node v's direct state reads and the read sets of the
 * nodes it depends on outside component c. */
static int gather_outside(aug_build *B, uint32_t c, uint32_t v, uint64_t *nt) {
  const lied_sb *b = B->b;
  comp_sets *cs = &B->cs;
  const node_id id = lied_sb_decode(b, v);
  const lied_template *t = &b->m->specs[id.spec].tpl;
  const lied_tblock *bl = &t->blocks[id.blk];
  const lied_graph *g = &b->g;
  uint64_t need = *nt + bl->nin;
  for (uint32_t k = g->rowptr[v]; k < g->rowptr[v + 1]; k++) {
    const uint32_t *set;
    uint32_t n;
    if (b->comp[g->adj[k]] == c) continue;
    augb_read_set(B, g->adj[k], &set, &n);
    need += n;
  }
  LIED_TRY(lied_sets_reserve(cs, need, b->e));
  for (uint32_t r = bl->in0; r < bl->in0 + bl->nin; r++)
    if (t->refs[r].kind == LIED_REF_STATE) {
      int64_t x = lied_sets_state_index(b->s, id.spec, id.inst, t->refs[r].a);
      if (x >= 0) cs->tmp[(*nt)++] = (uint32_t)x;
    }
  for (uint32_t k = g->rowptr[v]; k < g->rowptr[v + 1]; k++) {
    const uint32_t *set;
    uint32_t n;
    if (b->comp[g->adj[k]] == c) continue;
    augb_read_set(B, g->adj[k], &set, &n);
    if (n) memcpy(cs->tmp + *nt, set, sizeof *set * n);
    *nt += n;
  }
  return LIED_OK;
}

/* Member j (node v) of a sparse section whose unknowns start at column z:
 * its read set, its row set and its own cuts (a reader outside a cut range
 * sees the cut's unknown). */
static int member_read_set(aug_build *B, const lied_spplan *P, int j, uint32_t v, uint64_t z) {
  comp_sets *cs = &B->cs;
  uint64_t nt = B->rsetn[v], more = 0;
  for (int ci = P->cs[j]; ci < P->cs[j + 1]; ci++)
    if (P->cand[ci].base >= 0) more += (uint64_t)P->cand[ci].nv;
  LIED_TRY(lied_sets_reserve(cs, nt + more, B->b->e));
  if (nt) memcpy(cs->tmp, cs->pool + B->rset0[v], sizeof *cs->tmp * nt);
  for (int ci = P->cs[j]; ci < P->cs[j + 1]; ci++)
    for (int d = 0; P->cand[ci].base >= 0 && d < P->cand[ci].nv; d++)
      cs->tmp[nt++] = (uint32_t)(z + (uint64_t)(P->cand[ci].base + d));
  return augb_store(B, nt, &B->vset0[v], &B->vsetn[v]);
}

/* The members of sparse section component c (its unknowns from column
 * nx + z0): row sets, read sets (a member's and its own cuts' unknowns),
 * and the nodes of the section's equations' rows. */
static int sparse_members(aug_build *B, uint32_t c, lied_sec_order *t) {
  lied_sb *b = B->b;
  comp_sets *cs = &B->cs;
  const uint64_t z = B->A->nx + (uint64_t)B->secz[c]; /* column of the section's unknown 0 */
  LIED_TRY(lied_sb_section_order(b, c, t));
  const uint32_t *mem = b->cmem + b->cstart[c];
  int *pos = lied_xmalloc(sizeof *pos * ((size_t)t->n + 1), "sparsity", b->e);
  if (!pos) return LIED_E_NOMEM;
  for (int j = 0; j < t->n; j++) pos[lied_sb_local_index(mem, t->n, t->ord[j])] = j;
  lied_spplan P = {.b = b, .comp = c, .cmem = mem, .ord = t->ord, .pos = pos, .n = t->n,
                   .k = t->np, .pspec = t->pspec, .ppair = t->ppair, .pinst = t->pinst};
  int rc = lied_spplan_structure(&P);
  for (int j = 0; rc == LIED_OK && j < t->n; j++) {
    const uint32_t v = t->ord[j];
    uint64_t nt = 0;
    rc = gather_outside(B, c, v, &nt);
    for (int i = P.rs[j]; rc == LIED_OK && i < P.rs[j + 1]; i++) {
      const sp_read *r = &P.rd[i];
      const sp_cand *cd = r->tear ? NULL : &P.cand[lied_spplan_find_cand(&P, r->a, r->ri)];
      const uint32_t u = r->tear ? 0 : t->ord[r->a];
      const uint64_t add = r->tear ? 1 : cd->base >= 0 ? (uint64_t)cd->nv : B->rsetn[u];
      rc = lied_sets_reserve(cs, nt + add, b->e);
      if (rc) break;
      if (r->tear)
        cs->tmp[nt++] = (uint32_t)(z + (uint64_t)r->a);
      else if (cd->base >= 0)
        for (int d = 0; d < cd->nv; d++) cs->tmp[nt++] = (uint32_t)(z + (uint64_t)(cd->base + d));
      else if (add)
        memcpy(cs->tmp + nt, cs->pool + B->rset0[u], sizeof *cs->tmp * add), nt += add;
    }
    if (rc == LIED_OK) rc = augb_store(B, nt, &B->rset0[v], &B->rsetn[v]);
    /* a wide sum node inside the section (a node's currents): a tree, its
     * row set the roots (the row of a section's cut of its values too) */
    if (rc == LIED_OK && augb_wide_sum(B, v, B->rsetn[v])) rc = augb_cut_sum(B, v);
    if (rc == LIED_OK) rc = member_read_set(B, &P, j, v, z);
    B->own[v] = 1;
  }
  for (int p = 0; rc == LIED_OK && p < t->np; p++) {
    const int j = lied_spplan_residual_member(&P, p);
    LIED_ASSERT(j >= 0);
    B->grow[(uint64_t)B->secz[c] + (uint64_t)p] = t->ord[j];
  }
  for (int i = 0; rc == LIED_OK && i < P.ncand; i++)
    for (int d = 0; P.cand[i].base >= 0 && d < P.cand[i].nv; d++)
      B->grow[(uint64_t)B->secz[c] + (uint64_t)(P.cand[i].base + d)] = t->ord[P.cand[i].mem];
  free(pos);
  lied_spplan_free(&P);
  return rc;
}

/* Doubles node v writes that may be cut: its outputs but state derivatives
 * and residuals (ranges of its template's outs). */
static uint32_t cuttable(const lied_sb *b, uint32_t v, const lied_trange **r0, int *nr) {
  const node_id id = lied_sb_decode(b, v);
  const lied_template *t = &b->m->specs[id.spec].tpl;
  uint32_t n = 0;
  *r0 = t->outs, *nr = t->nouts;
  for (int r = 0; r < t->nouts; r++) {
    if (t->outs[r].block != id.blk) continue;
    int skip = 0;
    for (int q = 0; q < t->nstates; q++) skip |= t->outs[r].lo == t->states[q].der;
    for (int q = 0; q < t->ntears; q++) skip |= t->outs[r].lo == t->tears[q].res;
    if (!skip) n += (t->outs[r].hi - t->outs[r].lo) / (uint32_t)sizeof(double);
  }
  return n;
}

/* A plain block of the dynamic part whose set is too large: its outputs
 * become explicit cuts (unknowns from the current nw on); its read set is
 * theirs. */
/* Room for ncut more explicit cuts, each of node v with the node's row set. */
int augb_more_cuts(aug_build *B, uint32_t v, uint64_t ncut) {
  lied_aug *A = B->A;
  if (A->nw + ncut > B->capw) {
    uint64_t nc = (A->nw + ncut) * 2 + 64;
    uint32_t *w = realloc(B->wnode, sizeof *w * nc);
    if (w) B->wnode = w;
    uint32_t *g = realloc(B->grow, sizeof *g * (A->nz + nc));
    if (g) B->grow = g;
    uint64_t *r0 = realloc(B->trow0, sizeof *r0 * nc);
    if (r0) B->trow0 = r0;
    uint32_t *rn = realloc(B->trown, sizeof *rn * nc);
    if (rn) B->trown = rn;
    if (!w || !g || !r0 || !rn)
      return lied_errc(B->b->e, LIED_E_NOMEM, "out of memory (sparse formulation)");
    B->capw = nc;
  }
  for (uint64_t w = A->nw; w < A->nw + ncut; w++) {
    B->wnode[w] = v;
    B->grow[A->nz + w] = v;
    B->trow0[w] = UINT64_MAX, B->trown[w] = 0;
  }
  return LIED_OK;
}

static int cut_block(aug_build *B, uint32_t v, uint32_t ncut) {
  lied_aug *A = B->A;
  comp_sets *cs = &B->cs;
  LIED_TRY(augb_more_cuts(B, v, ncut));
  LIED_TRY(lied_sets_reserve(cs, ncut, B->b->e));
  for (uint32_t d = 0; d < ncut; d++) cs->tmp[d] = (uint32_t)(A->nx + A->nz + A->nw + d);
  A->nw += ncut;
  return augb_store(B, ncut, &B->vset0[v], &B->vsetn[v]);
}

/* Every node's sets, in dependency order. */
static int build_sets(aug_build *B) {
  lied_sb *b = B->b;
  comp_sets *cs = &B->cs;
  lied_sec_order t = {0};
  int rc = LIED_OK;
  for (uint32_t c = 0; rc == LIED_OK && c < b->ncomp; c++) {
    cs->set0[c] = 0, cs->setn[c] = 0;
    if (B->secz[c] >= 0) {
      rc = sparse_members(B, c, &t);
      continue;
    }
    uint64_t nt = 0;
    for (uint32_t i = b->cstart[c]; rc == LIED_OK && i < b->cstart[c + 1]; i++)
      rc = gather_outside(B, c, b->cmem[i], &nt);
    if (rc == LIED_OK) rc = lied_sets_store(cs, c, nt, b->e);
    const uint32_t v = b->cmem[b->cstart[c]];
    const int plain = b->cstart[c + 1] - b->cstart[c] == 1 && !(b->cflag[c] & CF_SECTION);
    const int dyn = (b->cflag[c] & (CF_DYN | CF_NEED)) == (CF_DYN | CF_NEED);
    if (rc == LIED_OK && plain) { /* a set of its own, cut when too large */
      B->own[v] = 1;
      B->rset0[v] = B->vset0[v] = cs->set0[c];
      B->rsetn[v] = B->vsetn[v] = cs->setn[c];
      const lied_trange *r0;
      int nr;
      const uint32_t ncut = cuttable(b, v, &r0, &nr);
      if (dyn && ncut && cs->setn[c] > LIED_AUG_WIDTH)
        rc = augb_wide_sum(B, v, cs->setn[c]) ? augb_cut_sum(B, v) : cut_block(B, v, ncut);
    }
  }
  lied_sec_order_free(&t);
  return rc;
}

/* The row set of the equation (or derivative) of node v, with column diag
 * when diag != UINT32_MAX: its length (pass 0) or its columns at cols. */
static uint64_t put_row(const aug_build *B, uint32_t v, uint32_t diag, uint32_t *cols) {
  const comp_sets *cs = &B->cs;
  const lied_aug *A = B->A;
  const uint32_t *set;
  uint32_t n;
  const uint64_t w = diag - A->nx - A->nz; /* an explicit cut's row: a tree's of its own */
  if (diag != UINT32_MAX && diag >= A->nx + A->nz && B->trow0[w] != UINT64_MAX) {
    set = cs->pool + B->trow0[w], n = B->trown[w];
  } else if (B->own[v]) {
    set = cs->pool + B->rset0[v], n = B->rsetn[v];
  } else {
    const uint32_t c = B->b->comp[v];
    set = cs->pool + cs->set0[c], n = cs->setn[c];
  }
  uint64_t m = 0;
  int put = diag == UINT32_MAX;
  for (uint32_t j = 0; j < n; j++) {
    if (!put && set[j] >= diag) {
      if (set[j] > diag) {
        if (cols) cols[m] = diag;
        m++;
      }
      put = 1;
    }
    if (cols) cols[m] = set[j];
    m++;
  }
  if (!put) {
    if (cols) cols[m] = diag;
    m++;
  }
  return m;
}

/* Rows: the derivatives, then the sections' equations, then the cuts'. */
static int build_pattern(aug_build *B) {
  const lied_sb *b = B->b;
  lied_aug *A = B->A;
  const lied_sched *s = b->s;
  const uint64_t N = A->nx + A->nz + A->nw;
  uint32_t *rnode = lied_xmalloc(sizeof *rnode * ((size_t)N + 1), "sparsity", b->e);
  A->rowptr = lied_xcalloc((size_t)N + 1, sizeof *A->rowptr, "sparsity", b->e);
  if (!rnode || !A->rowptr) {
    free(rnode);
    return LIED_E_NOMEM;
  }
  for (int sm = 0; sm < s->nsmap; sm++) {
    const lied_state_map *map = &s->smap[sm];
    int spec = -1;
    for (int k = 0; k < b->m->nspecs; k++)
      if (b->m->specs[k].arena == map->base) spec = k;
    const lied_template *t = &b->m->specs[spec].tpl;
    for (uint64_t inst = 0; inst < map->count; inst++)
      for (int q = 0; q < map->n; q++)
        rnode[map->x0 + inst * (uint64_t)map->n + (uint64_t)q] =
            lied_sb_encode(b, spec, lied_template_producer(t, map->st[q].der), inst);
  }
  for (uint64_t k = 0; k < A->nz + A->nw; k++) rnode[A->nx + k] = B->grow[k];
  for (uint64_t i = 0; i < N; i++)
    A->rowptr[i + 1] = A->rowptr[i] + put_row(B, rnode[i], i < A->nx ? UINT32_MAX : (uint32_t)i, NULL);
  A->cols = lied_xmalloc(sizeof *A->cols * ((size_t)A->rowptr[N] + 1), "sparsity", b->e);
  if (!A->cols) {
    free(rnode);
    return LIED_E_NOMEM;
  }
  for (uint64_t i = 0; i < N; i++)
    put_row(B, rnode[i], i < A->nx ? UINT32_MAX : (uint32_t)i, A->cols + A->rowptr[i]);
  free(rnode);
  return LIED_OK;
}

/* B->steps: the dynamic part's block steps by (spec, block, first instance). */
static int cmp_step_key(const void *pa, const void *pb) {
  const aug_step_key *a = pa, *b = pb;
  if (a->spec != b->spec) return a->spec < b->spec ? -1 : 1;
  if (a->blk != b->blk) return a->blk < b->blk ? -1 : 1;
  return a->base < b->base ? -1 : a->base > b->base;
}

static int index_steps(aug_build *B) {
  const lied_sched *s = B->b->s;
  const int n = s->nsteps[LIED_PART_DYN];
  const lied_step *st = s->steps[LIED_PART_DYN];
  B->steps = lied_xmalloc(sizeof *B->steps * ((size_t)n + 1), "sparse formulation", B->b->e);
  if (!B->steps) return LIED_E_NOMEM;
  int m = 0;
  for (int i = 0; i < n; i++)
    if (!st[i].sec) B->steps[m++] = (aug_step_key){st[i].spec, st[i].blk, st[i].base, i};
  qsort(B->steps, (size_t)m, sizeof *B->steps, cmp_step_key);
  B->nsteps = m;
  return LIED_OK;
}

int augb_step_of(const aug_build *B, int spec, int blk, uint64_t inst) {
  LIED_ASSERT(B->steps != NULL);
  const lied_step *st = B->b->s->steps[LIED_PART_DYN];
  const aug_step_key key = {spec, blk, lied_inst(&B->b->m->specs[spec], inst), -1};
  /* the first key after (spec, blk, the instance); the step that holds it lies before */
  int lo = 0, hi = B->nsteps;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (cmp_step_key(&key, &B->steps[mid]) < 0) hi = mid;
    else lo = mid + 1;
  }
  for (int k = lo - 1; k >= 0 && B->steps[k].spec == spec && B->steps[k].blk == blk; k--) {
    const lied_step *t = &st[B->steps[k].step];
    const char *a = key.base;
    if (t->stride ? a < t->base + t->count * t->stride && (size_t)(a - t->base) % t->stride == 0
                  : a == t->base)
      return B->steps[k].step;
  }
  return -1;
}

/* The hooks of the explicit cuts: addresses, and per dynamic step the
 * cuts its block writes. */
static int build_hooks(aug_build *B) {
  const lied_sb *b = B->b;
  lied_aug *A = B->A;
  const lied_sched *s = b->s;
  A->nsteps = s->nsteps[LIED_PART_DYN];
  A->at = lied_xmalloc(sizeof *A->at * ((size_t)A->nw + 1), "sparse formulation", b->e);
  A->hstart = lied_xcalloc((size_t)A->nsteps + 2, sizeof *A->hstart, "sparse formulation", b->e);
  A->hook = lied_xmalloc(sizeof *A->hook * ((size_t)A->nw + 1), "sparse formulation", b->e);
  int *stp = lied_xmalloc(sizeof *stp * ((size_t)A->nw + 1), "sparse formulation", b->e);
  if (!A->at || !A->hstart || !A->hook || !stp) {
    free(stp);
    return LIED_E_NOMEM;
  }
  for (uint64_t w = 0; w < A->nw;) { /* a cut block's doubles are consecutive unknowns */
    const uint32_t v = B->wnode[w];
    if (augb_is_sum(b, v) && B->trow0[w] != UINT64_MAX) { /* a tree's: tree_hooks */
      A->at[w] = NULL, stp[w++] = -1;
      continue;
    }
    const node_id id = lied_sb_decode(b, v);
    const lied_spec *sp = &b->m->specs[id.spec];
    char *inst = lied_inst(sp, id.inst);
    const int i = augb_step_of(B, id.spec, id.blk, id.inst);
    if (i < 0) {
      free(stp);
      return lied_errc(b->e, LIED_ERROR, "sparse formulation: a cut block is in no dynamic step");
    }
    const lied_trange *r0;
    int nr;
    (void)cuttable(b, v, &r0, &nr);
    for (int r = 0; r < nr; r++) {
      if (r0[r].block != id.blk) continue;
      int skip = 0;
      for (int q = 0; q < sp->tpl.nstates; q++) skip |= r0[r].lo == sp->tpl.states[q].der;
      for (int q = 0; q < sp->tpl.ntears; q++) skip |= r0[r].lo == sp->tpl.tears[q].res;
      for (uint32_t o = r0[r].lo; !skip && o < r0[r].hi; o += (uint32_t)sizeof(double)) {
        LIED_ASSERT(w < A->nw && B->wnode[w] == v);
        A->at[w] = (double *)(void *)(inst + o);
        stp[w++] = i;
        A->hstart[i + 1]++;
      }
    }
  }
  for (int i = 0; i < A->nsteps; i++) A->hstart[i + 1] += A->hstart[i];
  for (uint64_t w = 0; w < A->nw; w++)
    if (stp[w] >= 0) A->hook[A->hstart[stp[w]]++] = (uint32_t)w;
  for (int i = A->nsteps; i > 0; i--) A->hstart[i] = A->hstart[i - 1];
  A->hstart[0] = 0;
  free(stp);
  return LIED_OK;
}

/* secz: the component of each sparse section of the dynamic part, found
 * by its first tearing pair's residual block; work arrays. */
static int prepare(aug_build *B) {
  lied_sb *b = B->b;
  const lied_sched *s = b->s;
  comp_sets *cs = &B->cs;
  const size_t nn = (size_t)b->nnodes + 1;
  cs->set0 = lied_xmalloc(sizeof *cs->set0 * ((size_t)b->ncomp + 1), "sparsity", b->e);
  cs->setn = lied_xcalloc((size_t)b->ncomp + 1, sizeof *cs->setn, "sparsity", b->e);
  B->secz = lied_xmalloc(sizeof *B->secz * ((size_t)b->ncomp + 1), "sparsity", b->e);
  B->grow = lied_xcalloc((size_t)s->naug + 1, sizeof *B->grow, "sparsity", b->e);
  B->own = lied_xcalloc(nn, 1, "sparsity", b->e);
  B->rset0 = lied_xcalloc(nn, sizeof *B->rset0, "sparsity", b->e);
  B->rsetn = lied_xcalloc(nn, sizeof *B->rsetn, "sparsity", b->e);
  B->vset0 = lied_xcalloc(nn, sizeof *B->vset0, "sparsity", b->e);
  B->vsetn = lied_xcalloc(nn, sizeof *B->vsetn, "sparsity", b->e);
  if (!cs->set0 || !cs->setn || !B->secz || !B->grow || !B->own || !B->rset0 || !B->rsetn ||
      !B->vset0 || !B->vsetn)
    return LIED_E_NOMEM;
  for (uint32_t c = 0; c < b->ncomp; c++) B->secz[c] = -1;
  for (int i = 0; i < s->nsecs; i++) {
    const lied_section *sec = &s->secs[i];
    if (!sec->sparse || sec->sparse->z0 < 0) continue;
    const lied_sec_pair *p0 = &sec->pairs[0];
    const lied_spec *sp = &b->m->specs[p0->spec];
    const uint32_t v = lied_sb_encode(b, p0->spec, sp->tpl.tears[p0->pair].res_block, p0->inst0);
    if (v == UINT32_MAX)
      return lied_errc(b->e, LIED_ERROR, "sparse formulation: a sparse section not found");
    B->secz[b->comp[v]] = sec->sparse->z0;
  }
  return LIED_OK;
}

int lied_aug_new(lied_sched *s, lied_aug **out, lied_err *e) {
  *out = NULL;
  lied_aug *A = lied_xcalloc(1, sizeof *A, "sparse formulation", e);
  if (!A) return LIED_E_NOMEM;
  A->nx = s->nstates;
  A->nz = s->naug;
  lied_sb b = {.m = s->model, .s = s, .e = e};
  aug_build B = {.b = &b, .A = A};
  b.order = lied_model_arena_order(s->model, &b.norder, e);
  int rc = b.order ? LIED_OK : LIED_E_NOMEM;
  if (rc == LIED_OK) rc = lied_sb_build_graph(&b);
  if (rc == LIED_OK) rc = lied_sb_classify(&b);
  if (rc == LIED_OK) rc = prepare(&B);
  if (rc == LIED_OK) rc = build_sets(&B);
  if (rc == LIED_OK && A->nx + A->nz + A->nw >= UINT32_MAX)
    rc = lied_errc(e, LIED_E_LIMIT, "too many unknowns for a Jacobian pattern: %llu",
                   (unsigned long long)(A->nx + A->nz + A->nw));
  if (rc == LIED_OK) rc = build_pattern(&B);
  if (rc == LIED_OK) rc = index_steps(&B);
  if (rc == LIED_OK) rc = build_hooks(&B);
  if (rc == LIED_OK) rc = augb_section_trees(&B);
  if (rc == LIED_OK) rc = augb_tree_hooks(&B);
  build_free(&B);
  lied_sb_free(&b);
  if (rc != LIED_OK) {
    lied_aug_free(A);
    return rc;
  }
  *out = A;
  return LIED_OK;
}

void lied_aug_free(lied_aug *A) {
  if (!A) return;
  free(A->rowptr), free(A->cols), free(A->at), free(A->hstart), free(A->hook);
  for (uint32_t k = 0; k < A->ntree; k++) free(A->tree[k].q), free(A->tree[k].cutof);
  free(A->tree), free(A->tstart), free(A->tord), free(A->sstart), free(A->sord), free(A->after);
  free(A);
}

static void after_member(void *ctx, int j) {
  aug_after *f = ctx;
  for (; f->cur < f->n && f->A->tree[f->ord[f->cur]].mem == j; f->cur++)
    lied_aug_tree_eval(&f->A->tree[f->ord[f->cur]], f->w, f->gw, f->comp);
}

/* The sparse sections' unknowns and equations: at y and out from nx on, or
 * solved again (A NULL); their trees of partial sums. */
static void fix_sections(lied_sched *s, const lied_aug *A, const double *y, double *out) {
  for (int i = 0; i < s->nsecs; i++) {
    lied_spsec *sp = s->secs[i].sparse;
    if (!sp || sp->z0 < 0) continue;
    sp->fz = A ? y + A->nx + sp->z0 : NULL;
    sp->fg = A ? out + A->nx + sp->z0 : NULL;
    sp->after = NULL, sp->actx = NULL;
    if (!A || A->sstart[i] == A->sstart[i + 1]) continue;
    A->after[i] = (aug_after){.A = A, .ord = A->sord + A->sstart[i],
                              .n = A->sstart[i + 1] - A->sstart[i],
                              .w = y + A->nx + A->nz, .gw = out + A->nx + A->nz, .comp = sp->comp};
    sp->after = after_member, sp->actx = &A->after[i];
  }
}

int lied_aug_eval(lied_sched *s, const lied_aug *A, double t, const double *y, double *out,
                  lied_err *e) {
  const lied_env env = lied_sched_env(s, t);
  LIED_TRY(lied_sched_prepare(s, t, e));
  lied_sched_scatter(s, y);
  const double *w = y + A->nx + A->nz;
  double *gw = out + A->nx + A->nz;
  fix_sections(s, A, y, out);
  int rc = LIED_OK;
  const lied_step *st = s->steps[LIED_PART_DYN];
  for (int i = 0; rc == LIED_OK && i < s->nsteps[LIED_PART_DYN]; i++) {
    if (st[i].sec)
      rc = lied_probe_section(s, st[i].sec, LIED_EVAL_DERIVATIVES, &env, e);
    else
      st[i].fn(&env, st[i].base, (size_t)st[i].count, st[i].stride);
    for (uint32_t h = A->hstart[i]; h < A->hstart[i + 1]; h++) {
      const uint32_t c = A->hook[h];
      gw[c] = *A->at[c] - w[c];
      *A->at[c] = w[c];
    }
    for (uint32_t k = A->tstart[i]; k < A->tstart[i + 1]; k++)
      lied_aug_tree_eval(&A->tree[A->tord[k]], w, gw, NULL);
  }
  fix_sections(s, NULL, NULL, NULL);
  s->st.evaluations++;
  if (rc == LIED_OK) lied_sched_gather_der(s, out);
  LIED_TRY(lied_sched_fault(s, t, e));
  return rc;
}

void lied_aug_point(const lied_sched *s, const lied_aug *A, double *y) {
  for (int i = 0; i < s->nsecs; i++) {
    const lied_spsec *sp = s->secs[i].sparse;
    if (sp && sp->z0 >= 0) memcpy(y + A->nx + sp->z0, sp->x, sizeof *y * (size_t)sp->nu);
  }
  for (uint64_t c = 0; c < A->nw; c++)
    if (A->at[c]) y[A->nx + A->nz + c] = *A->at[c];
  for (uint32_t k = 0; k < A->ntree; k++) lied_aug_tree_point(&A->tree[k], y + A->nx + A->nz);
}
