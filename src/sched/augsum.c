/* augsum.c - the trees of partial sums of the implicit solvers' sparse
 * formulation (sched/aug.h): which sum nodes become trees, their unknowns
 * and rows, where they are evaluated; a tree's equations and its unknowns'
 * values at the model's point. */
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "core/sum.h"
#include "sched/augb.h"
#include "sched/spsec.h"

/* Unknown i of level l of value d: the sum of what it adds (contributions
 * at level 0, unknowns of level l - 1 above), from yw where given. */
static double partial(const lied_aug_tree *T, const double *yw, uint32_t d, uint32_t l,
                      uint32_t i) {
  const lied_sum *S = T->node;
  double acc = 0;
  if (l == 0) {
    for (uint32_t q = T->q[i]; q < T->q[i + 1]; q++) acc += S->in[q][d];
    return acc;
  }
  const double *below = yw + T->u0 + (uint64_t)d * T->per + T->lev[l - 1];
  const uint32_t n = T->lev[l] - T->lev[l - 1];
  for (uint32_t j = i * LIED_AUG_WIDTH; j < n && j < (i + 1) * LIED_AUG_WIDTH; j++)
    acc += below[j];
  return acc;
}

void lied_aug_tree_eval(const lied_aug_tree *T, const double *yw, double *gw, double *comp) {
  lied_sum *S = T->node;
  LIED_ASSERT(S->filled == S->k && T->nlev >= 2 && T->lev[T->nlev] == T->per);
  double *out = lied_sum_out(S);
  for (uint32_t d = 0; d < S->w; d++) {
    const uint64_t base = T->u0 + (uint64_t)d * T->per;
    for (uint32_t l = 0; l < T->nlev; l++)
      for (uint32_t i = 0; i < T->lev[l + 1] - T->lev[l]; i++)
        gw[base + T->lev[l] + i] = partial(T, yw, d, l, i) - yw[base + T->lev[l] + i];
    if (T->cutof && T->cutof[d] >= 0)
      comp[T->cutof[d]] = yw[base + T->per - 1];
    else
      out[d] = yw[base + T->per - 1];
  }
}

void lied_aug_tree_point(const lied_aug_tree *T, double *yw) {
  const lied_sum *S = T->node;
  for (uint32_t d = 0; d < S->w; d++) {
    const uint64_t base = T->u0 + (uint64_t)d * T->per;
    for (uint32_t l = 0; l < T->nlev; l++)
      for (uint32_t i = 0; i < T->lev[l + 1] - T->lev[l]; i++)
        yw[base + T->lev[l] + i] = partial(T, yw, d, l, i);
  }
}

/* Append to tmp[*nt ..) the set a reader of the double at p sees: the read
 * sets of the blocks writing it, or its state. */
static int gather_address(aug_build *B, const double *p, uint32_t bytes, uint64_t *nt,
                          int *unknown) {
  const lied_sb *b = B->b;
  comp_sets *cs = &B->cs;
  uint64_t i2;
  uint32_t off;
  const int s2 = lied_model_locate(b->m, b->order, b->norder, p, &i2, &off);
  if (s2 < 0) return LIED_OK; /* zeros of an optional input */
  const lied_template *t2 = &b->m->specs[s2].tpl;
  int any = 0;
  for (int r = lied_template_out_from(t2, off); r < t2->nouts && t2->outs[r].lo < off + bytes;
       r++) {
    const uint32_t u = lied_sb_encode(b, s2, t2->outs[r].block, i2);
    const uint32_t *set;
    uint32_t n;
    augb_read_set(B, u, &set, &n);
    LIED_TRY(lied_sets_reserve(cs, *nt + n, b->e));
    if (n) memcpy(cs->tmp + *nt, set, sizeof *set * n);
    *nt += n, any = 1;
  }
  for (int q = 0; !any && q < t2->nstates; q++)
    if (t2->states[q].x == off) {
      const int64_t x = lied_sets_state_index(b->s, s2, i2, q);
      LIED_TRY(lied_sets_reserve(cs, *nt + 1, b->e));
      if (x >= 0) cs->tmp[(*nt)++] = (uint32_t)x;
      any = 1;
    }
  if (!any && unknown) *unknown = 1; /* written by no block, not a state (a parameter, a tearing variable) */
  return LIED_OK;
}

/* Can every contribution of sum node S be traced to the blocks writing it
 * or to a state? (Otherwise the node is cut whole, as any block.) */
static int traceable(aug_build *B, const lied_sum *S) {
  int unknown = 0;
  for (uint32_t k = 0; k < S->k && !unknown; k++) {
    uint64_t nt = 0;
    if (gather_address(B, S->in[k], S->w * (uint32_t)sizeof(double), &nt, &unknown)) return 0;
  }
  return !unknown;
}

/* Level 0 of sum node S's tree: groups of consecutive contributions whose
 * joint set stays within the width; group i's set at (g0[i], gn[i]), its
 * first contribution q[i]. *ng groups. */
static int tree_groups(aug_build *B, const lied_sum *S, uint32_t *q, uint64_t *g0, uint32_t *gn,
                       uint32_t *ng) {
  comp_sets *cs = &B->cs;
  const uint32_t bytes = S->w * (uint32_t)sizeof(double);
  uint32_t n = 0;
  uint64_t nt = 0;
  for (uint32_t k = 0; k < S->k; k++) {
    uint64_t s0;
    uint32_t sn, before = 0;
    if (k) { /* the group's set so far, then this contribution's */
      before = gn[n];
      nt = before;
      LIED_TRY(lied_sets_reserve(cs, nt, B->b->e));
      if (nt) memcpy(cs->tmp, cs->pool + g0[n], sizeof *cs->tmp * nt);
    } else {
      q[0] = 0, nt = 0;
    }
    LIED_TRY(gather_address(B, S->in[k], bytes, &nt, NULL));
    LIED_TRY(augb_store(B, nt, &s0, &sn));
    if (k && sn > LIED_AUG_WIDTH && sn > before) { /* too wide: a new group */
      nt = 0;
      LIED_TRY(gather_address(B, S->in[k], bytes, &nt, NULL));
      LIED_TRY(augb_store(B, nt, &s0, &sn));
      q[++n] = k;
    }
    g0[n] = s0, gn[n] = sn;
  }
  q[++n] = S->k;
  *ng = n;
  return LIED_OK;
}

/* Sum node v, whose set is too large, cut as a tree of partial sums
 * (sched/aug.h): its unknowns, their row sets, the roots its readers see. */
int augb_cut_sum(aug_build *B, uint32_t v) {
  lied_aug *A = B->A;
  comp_sets *cs = &B->cs;
  const lied_sb *b = B->b;
  const node_id id = lied_sb_decode(b, v);
  lied_sum *S = (lied_sum *)(void *)lied_inst(&b->m->specs[id.spec], lied_sb_real(b, id.spec, id.inst));
  LIED_ASSERT(S->filled == S->k && S->k >= 2);
  if (A->ntree == B->captree) {
    const uint32_t nc = B->captree * 2 + 8;
    lied_aug_tree *t = realloc(A->tree, sizeof *t * nc);
    if (!t) return lied_errc(b->e, LIED_E_NOMEM, "out of memory (sparse formulation)");
    A->tree = t, B->captree = nc;
  }
  lied_aug_tree *T = &A->tree[A->ntree];
  *T = (lied_aug_tree){.node = S, .u0 = A->nw, .sec = -1, .mem = -1};
  T->q = lied_xmalloc(sizeof *T->q * ((size_t)S->k + 1), "sparse formulation", b->e);
  uint64_t *g0 = lied_xmalloc(sizeof *g0 * ((size_t)S->k + 1), "sparse formulation", b->e);
  uint32_t *gn = lied_xmalloc(sizeof *gn * ((size_t)S->k + 1), "sparse formulation", b->e);
  uint32_t ng = 0;
  int rc = T->q && g0 && gn ? LIED_OK : LIED_E_NOMEM;
  A->ntree++; /* owns T->q from here */
  if (rc == LIED_OK) rc = tree_groups(B, S, T->q, g0, gn, &ng);
  /* levels: ng unknowns, then WIDTH to one above, up to one */
  for (uint32_t n = ng; rc == LIED_OK; n = (n + LIED_AUG_WIDTH - 1) / LIED_AUG_WIDTH) {
    T->lev[T->nlev + 1] = T->lev[T->nlev] + n;
    T->nlev++;
    if (n == 1 && T->nlev >= 2) break;
    LIED_ASSERT(T->nlev < LIED_AUG_TREE_LEVELS);
  }
  T->per = T->lev[T->nlev];
  const uint64_t ncut = (uint64_t)T->per * S->w;
  if (rc == LIED_OK) rc = augb_more_cuts(B, v, ncut);
  for (uint32_t d = 0; rc == LIED_OK && d < S->w; d++) {
    const uint64_t base = A->nw + (uint64_t)d * T->per, col = A->nx + A->nz + base;
    for (uint32_t i = 0; i < ng; i++) B->trow0[base + i] = g0[i], B->trown[base + i] = gn[i];
    for (uint32_t l = 1; rc == LIED_OK && l < T->nlev; l++)
      for (uint32_t i = 0; rc == LIED_OK && i < T->lev[l + 1] - T->lev[l]; i++) {
        const uint32_t n = T->lev[l] - T->lev[l - 1];
        uint64_t nt = 0;
        rc = lied_sets_reserve(cs, LIED_AUG_WIDTH, b->e);
        for (uint32_t j = i * LIED_AUG_WIDTH; rc == LIED_OK && j < n && j < (i + 1) * LIED_AUG_WIDTH; j++)
          cs->tmp[nt++] = (uint32_t)(col + T->lev[l - 1] + j);
        if (rc == LIED_OK) rc = augb_store(B, nt, &B->trow0[base + T->lev[l] + i], &B->trown[base + T->lev[l] + i]);
      }
  }
  if (rc == LIED_OK) rc = lied_sets_reserve(cs, S->w, b->e);
  for (uint32_t d = 0; rc == LIED_OK && d < S->w; d++)
    cs->tmp[d] = (uint32_t)(A->nx + A->nz + A->nw + (uint64_t)d * T->per + T->per - 1);
  if (rc == LIED_OK) {
    A->nw += ncut;
    rc = augb_store(B, S->w, &B->vset0[v], &B->vsetn[v]);
    B->rset0[v] = B->vset0[v], B->rsetn[v] = B->vsetn[v];
  }
  free(g0), free(gn);
  return rc;
}

/* Node v, a sum node whose set is too large and whose contributions can be
 * traced: cut as a tree (1), or left as it is (0). */
int augb_wide_sum(aug_build *B, uint32_t v, uint32_t setn) {
  const lied_sb *b = B->b;
  if (setn <= LIED_AUG_WIDTH || !augb_is_sum(b, v)) return 0;
  const node_id id = lied_sb_decode(b, v);
  const lied_sum *S =
      (const lied_sum *)(const void *)lied_inst(&b->m->specs[id.spec], lied_sb_real(b, id.spec, id.inst));
  return S->k >= 2 && traceable(B, S);
}

/* Is node v a sum node of the framework (core/sum.h)? */
int augb_is_sum(const lied_sb *b, uint32_t v) {
  return b->m->specs[lied_sb_decode(b, v).spec].cls == &lied_sum_class;
}


/* The trees of partial sums by dynamic step: tord[tstart[i] ..
 * tstart[i + 1]) after step i. */
int augb_tree_hooks(aug_build *B) {
  const lied_sb *b = B->b;
  lied_aug *A = B->A;
  A->tstart = lied_xcalloc((size_t)A->nsteps + 2, sizeof *A->tstart, "sparse formulation", b->e);
  A->tord = lied_xmalloc(sizeof *A->tord * ((size_t)A->ntree + 1), "sparse formulation", b->e);
  int *stp = lied_xmalloc(sizeof *stp * ((size_t)A->ntree + 1), "sparse formulation", b->e);
  int rc = A->tstart && A->tord && stp ? LIED_OK : LIED_E_NOMEM;
  for (uint32_t k = 0; rc == LIED_OK && k < A->ntree; k++) {
    const node_id id = lied_sb_decode(b, B->wnode[A->tree[k].u0]);
    stp[k] = A->tree[k].sec >= 0 ? -1 : augb_step_of(B, id.spec, id.blk, id.inst);
    if (A->tree[k].sec >= 0)
      continue;
    else if (stp[k] < 0)
      rc = lied_errc(b->e, LIED_ERROR, "sparse formulation: a cut sum node is in no dynamic step");
    else
      A->tstart[stp[k] + 1]++;
  }
  if (rc == LIED_OK) {
    for (int i = 0; i < A->nsteps; i++) A->tstart[i + 1] += A->tstart[i];
    for (uint32_t k = 0; k < A->ntree; k++)
      if (stp[k] >= 0) A->tord[A->tstart[stp[k]]++] = k;
    for (int i = A->nsteps; i > 0; i--) A->tstart[i] = A->tstart[i - 1];
    A->tstart[0] = 0;
  }
  free(stp);
  return rc;
}

/* Trees of members of sparse sections: the section and the member (by its
 * instance: one block per member), and the sections' lists by member. */
int augb_section_trees(aug_build *B) {
  const lied_sb *b = B->b;
  const lied_sched *s = b->s;
  lied_aug *A = B->A;
  A->sstart = lied_xcalloc((size_t)s->nsecs + 2, sizeof *A->sstart, "sparse formulation", b->e);
  A->sord = lied_xmalloc(sizeof *A->sord * ((size_t)A->ntree + 1), "sparse formulation", b->e);
  A->after = lied_xcalloc((size_t)s->nsecs + 1, sizeof *A->after, "sparse formulation", b->e);
  if (!A->sstart || !A->sord || !A->after) return LIED_E_NOMEM;
  for (uint32_t k = 0; k < A->ntree; k++) {
    lied_aug_tree *T = &A->tree[k];
    if (B->secz[b->comp[B->wnode[T->u0]]] < 0) continue;
    for (int i = 0; T->sec < 0 && i < s->nsecs; i++) {
      const lied_section *sec = &s->secs[i];
      if (!sec->sparse || sec->sparse->z0 != B->secz[b->comp[B->wnode[T->u0]]]) continue;
      for (int j = 0; j < sec->nblk; j++)
        if (sec->blk[j].base == (char *)T->node) T->sec = i, T->mem = j;
    }
    if (T->sec < 0)
      return lied_errc(b->e, LIED_ERROR, "sparse formulation: a cut sum node is in no section");
    A->sstart[T->sec + 1]++;
    const lied_spsec *sp = s->secs[T->sec].sparse;
    const double *out = lied_sum_out(T->node);
    for (uint32_t d = 0; d < T->node->w; d++)
      for (int c = 0; c < sp->ncut; c++)
        if (sp->cut_at[c] == out + d) {
          if (!T->cutof) {
            T->cutof = lied_xmalloc(sizeof *T->cutof * T->node->w, "sparse formulation", b->e);
            if (!T->cutof) return LIED_E_NOMEM;
            for (uint32_t q = 0; q < T->node->w; q++) T->cutof[q] = -1;
          }
          T->cutof[d] = c;
        }
  }
  for (int i = 0; i < s->nsecs; i++) A->sstart[i + 1] += A->sstart[i];
  uint32_t *fill = lied_xmalloc(sizeof *fill * ((size_t)s->nsecs + 1), "sparse formulation", b->e);
  if (!fill) return LIED_E_NOMEM;
  memcpy(fill, A->sstart, sizeof *fill * (size_t)s->nsecs);
  for (uint32_t k = 0; k < A->ntree; k++) /* trees are made in member order */
    if (A->tree[k].sec >= 0) A->sord[fill[A->tree[k].sec]++] = k;
  free(fill);
  for (int i = 0; i < s->nsecs; i++)
    for (uint32_t q = A->sstart[i] + 1; q < A->sstart[i + 1]; q++)
      LIED_ASSERT(A->tree[A->sord[q - 1]].mem <= A->tree[A->sord[q]].mem);
  return LIED_OK;
}

