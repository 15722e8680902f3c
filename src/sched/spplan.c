/* spplan.c - the plan of a sparse linear section (sched/spsec.h): which
 * member outputs become unknowns (cuts), the matrix pattern, its colouring,
 * the members each colour's probing pass runs, and the sparse LU's symbolic
 * analysis. Built from the block graph while it exists. */
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "linsys/pattern.h"
#include "sched/sbuild.h"
#include "sched/spplan.h"
#include "sched/spsec.h"

/* A tearing pair of the section by (spec, inst, pair), for look-up. */
typedef struct pair_key {
  int spec, pair;
  uint64_t inst;
  int p;
} pair_key;

static int key_less(const pair_key *x, const pair_key *y) {
  if (x->spec != y->spec) return x->spec < y->spec;
  if (x->inst != y->inst) return x->inst < y->inst;
  return x->pair < y->pair;
}

static int cmp_key(const void *a, const void *b) {
  const pair_key *x = a, *y = b;
  return key_less(x, y) ? -1 : key_less(y, x) ? 1 : 0;
}

/* The section pair index of (spec, inst, pair), or -1. */
static int find_pair(const pair_key *keys, int k, int spec, uint64_t inst, int pair) {
  const pair_key want = {spec, pair, inst, 0};
  int lo = 0, hi = k - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (key_less(&keys[mid], &want))
      lo = mid + 1;
    else if (key_less(&want, &keys[mid]))
      hi = mid - 1;
    else
      return keys[mid].p;
  }
  return -1;
}

static int push_read(lied_spplan *P, int tear, int a, int ri) {
  if (P->nrd == P->caprd) {
    int nc = P->caprd ? 2 * P->caprd : 1024;
    sp_read *r = realloc(P->rd, sizeof *r * (size_t)nc);
    if (!r) return lied_errc(P->b->e, LIED_E_NOMEM, "out of memory (sparse section)");
    P->rd = r, P->caprd = nc;
  }
  P->rd[P->nrd++] = (sp_read){tear, a, ri};
  return LIED_OK;
}

/* The section member of node u, or -1 when u is outside the section. */
static int member_of(const lied_spplan *P, uint32_t u) {
  if (P->b->comp[u] != P->comp) return -1;
  int li = lied_sb_local_index(P->cmem, P->n, u);
  return li < 0 ? -1 : P->pos[li];
}

/* Producer ranges of spec s2's instance i2 overlapping bytes [off, off + w)
 * that are members of the section: one read each. *inside: whether every
 * byte read is written by a member of the section. */
static int read_ranges(lied_spplan *P, int s2, uint64_t i2, uint32_t off, uint32_t w,
                       int *inside) {
  const lied_template *t2 = &P->b->m->specs[s2].tpl;
  uint32_t covered = 0;
  for (int r = lied_template_out_from(t2, off); r < t2->nouts && t2->outs[r].lo < off + w; r++) {
    uint32_t u = lied_sb_encode(P->b, s2, t2->outs[r].block, i2);
    int ju = u == UINT32_MAX ? -1 : member_of(P, u);
    if (ju < 0) continue;
    LIED_TRY(push_read(P, 0, ju, r));
    const uint32_t lo = t2->outs[r].lo > off ? t2->outs[r].lo : off;
    const uint32_t hi = t2->outs[r].hi < off + w ? t2->outs[r].hi : off + w;
    if (hi > lo) covered += hi - lo;
  }
  if (covered < w) *inside = 0;
  return LIED_OK;
}

/* The reads of member j (node v) inside the section. */
static int member_reads(lied_spplan *P, const pair_key *keys, int j, uint32_t v) {
  lied_sb *b = P->b;
  const node_id id = lied_sb_decode(b, v);
  const lied_spec *s = &b->m->specs[id.spec];
  const lied_template *t = &s->tpl;
  const lied_tblock *blk = &t->blocks[id.blk];
  const char *inst = lied_inst(s, lied_sb_real(b, id.spec, id.inst));
  int inside = 1; /* every input a tearing variable, a member's output or constant */
  for (uint32_t r = blk->in0; r < blk->in0 + blk->nin; r++) {
    const lied_tref *ref = &t->refs[r];
    if (ref->kind == LIED_REF_TEAR) {
      int p = find_pair(keys, P->k, id.spec, id.inst, ref->a);
      if (p >= 0)
        LIED_TRY(push_read(P, 1, p, 0));
      else
        inside = 0;
    } else if (ref->kind == LIED_REF_INTERNAL) {
      LIED_TRY(read_ranges(P, id.spec, id.inst, ref->offset, sizeof(double), &inside));
    } else if (ref->kind == LIED_REF_PORT) {
      const double *p = PTR_AT(inst, ref->offset);
      uint64_t i2;
      uint32_t off2;
      int s2 = lied_model_locate(b->m, b->order, b->norder, p, &i2, &off2);
      if (s2 < 0) continue; /* zeros of an optional input */
      i2 = lied_sb_wmap(b, id.spec, id.inst, s2, i2);
      uint32_t skip;
      const uint32_t w = lied_tref_read_bytes(t, ref, &skip);
      LIED_TRY(read_ranges(P, s2, i2, off2 + skip, w, &inside));
    } else if (ref->kind != LIED_REF_CONST) {
      inside = 0; /* time, a state */
    }
  }
  P->inside[j] = (uint8_t)inside;
  return LIED_OK;
}


int lied_spplan_find_cand(const lied_spplan *P, int mem, int ri) {
  for (int c = P->cs[mem]; c < P->cs[mem + 1]; c++)
    if (P->cand[c].ri == ri) return c;
  return -1;
}

/* Every member's reads, and the ranges read (candidates for cuts). */
static int collect_reads(lied_spplan *P) {
  lied_err *e = P->b->e;
  const int n = P->n, k = P->k;
  pair_key *keys = lied_xmalloc(sizeof *keys * (size_t)(k ? k : 1), "sparse section", e);
  P->rs = lied_xmalloc(sizeof *P->rs * ((size_t)n + 1), "sparse section", e);
  P->cs = lied_xcalloc((size_t)n + 1, sizeof *P->cs, "sparse section", e);
  P->inside = lied_xcalloc((size_t)n + 1, 1, "sparse section", e);
  if (!keys || !P->rs || !P->cs || !P->inside) {
    free(keys);
    return LIED_E_NOMEM;
  }
  for (int p = 0; p < k; p++) keys[p] = (pair_key){P->pspec[p], P->ppair[p], P->pinst[p], p};
  qsort(keys, (size_t)k, sizeof *keys, cmp_key);
  int rc = LIED_OK;
  for (int j = 0; j < n && rc == LIED_OK; j++) {
    P->rs[j] = P->nrd;
    rc = member_reads(P, keys, j, P->ord[j]);
  }
  free(keys);
  if (rc) return rc;
  P->rs[n] = P->nrd;
  /* candidates: the distinct ranges read, by producer member (a counting
   * sort over the members, then each member's few ranges sorted and made
   * unique in place: a million reads cost a qsort a third of the plan) */
  P->cand = lied_xmalloc(sizeof *P->cand * ((size_t)P->nrd + 1), "sparse section", e);
  int *at = lied_xcalloc((size_t)n + 1, sizeof *at, "sparse section", e);
  if (!P->cand || !at) {
    free(at);
    return LIED_E_NOMEM;
  }
  for (int i = 0; i < P->nrd; i++)
    if (!P->rd[i].tear) at[P->rd[i].a + 1]++;
  for (int j = 0; j < n; j++) at[j + 1] += at[j];
  for (int i = 0; i < P->nrd; i++)
    if (!P->rd[i].tear) P->cand[at[P->rd[i].a]++] = (sp_cand){P->rd[i].a, P->rd[i].ri, 0, -1};
  int m = 0, lo = 0;
  for (int j = 0; j < n; j++) { /* member j's reads are cand[lo .. at[j]) */
    const int hi = at[j], m0 = m;
    for (int i = lo; i < hi; i++) {
      const sp_cand c = P->cand[i];
      int at_ = m;
      while (at_ > m0 && P->cand[at_ - 1].ri > c.ri) at_--;
      if (at_ > m0 && P->cand[at_ - 1].ri == c.ri) continue; /* seen */
      memmove(&P->cand[at_ + 1], &P->cand[at_], sizeof *P->cand * (size_t)(m - at_));
      P->cand[at_] = c;
      m++;
    }
    lo = hi;
  }
  free(at);
  P->ncand = m;
  for (int i = 0; i < m; i++) {
    const node_id id = lied_sb_decode(P->b, P->ord[P->cand[i].mem]);
    const lied_trange *r = &P->b->m->specs[id.spec].tpl.outs[P->cand[i].ri];
    P->cand[i].nv = (int)((r->hi - r->lo) / sizeof(double));
    P->cs[P->cand[i].mem + 1]++;
  }
  for (int j = 0; j < n; j++) P->cs[j + 1] += P->cs[j];
  return LIED_OK;
}

/* d[0 .. len) sorted and made unique (D sets are a few entries: insertion
 * sort; qsort for the rare long one); the new length. */
static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}
static size_t sort_unique(int *d, size_t len) {
  if (len > 32) {
    qsort(d, len, sizeof *d, cmp_int);
  } else {
    for (size_t i = 1; i < len; i++) {
      int v = d[i];
      size_t k = i;
      for (; k > 0 && d[k - 1] > v; k--) d[k] = d[k - 1];
      d[k] = v;
    }
  }
  size_t m = 0;
  for (size_t i = 0; i < len; i++)
    if (!m || d[m - 1] != d[i]) d[m++] = d[i];
  return m;
}

static int pool_reserve(lied_spplan *P, uint64_t more) {
  if (P->ndp + more <= P->capdp) return LIED_OK;
  uint64_t nc = P->capdp ? P->capdp : 4096;
  while (nc < P->ndp + more) nc *= 2;
  int *d = realloc(P->dpool, sizeof *d * (size_t)nc);
  if (!d) return lied_errc(P->b->e, LIED_E_NOMEM, "out of memory (sparse section)");
  P->dpool = d, P->capdp = nc;
  return LIED_OK;
}

/* D(j) for every member in section order, cutting the outputs of members
 * whose D grows beyond LIED_SPARSE_WIDTH. */
static int propagate(lied_spplan *P) {
  const int n = P->n;
  P->ds = lied_xmalloc(sizeof *P->ds * ((size_t)n + 1), "sparse section", P->b->e);
  if (!P->ds) return LIED_E_NOMEM;
  P->nu = P->k;
  for (int j = 0; j < n; j++) {
    P->ds[j] = P->ndp;
    for (int i = P->rs[j]; i < P->rs[j + 1]; i++) {
      const sp_read *r = &P->rd[i];
      if (r->tear) {
        LIED_TRY(pool_reserve(P, 1));
        P->dpool[P->ndp++] = r->a;
        continue;
      }
      LIED_ASSERT(r->a < j); /* producers come first in section order */
      const sp_cand *c = &P->cand[lied_spplan_find_cand(P, r->a, r->ri)];
      if (c->base >= 0) {
        LIED_TRY(pool_reserve(P, (uint64_t)c->nv));
        for (int d = 0; d < c->nv; d++) P->dpool[P->ndp++] = c->base + d;
      } else {
        const uint64_t a = P->ds[r->a], len = P->ds[r->a + 1] - a;
        LIED_TRY(pool_reserve(P, len));
        memcpy(P->dpool + P->ndp, P->dpool + a, sizeof(int) * (size_t)len);
        P->ndp += len;
      }
    }
    int *d = P->dpool + P->ds[j];
    const size_t m = sort_unique(d, (size_t)(P->ndp - P->ds[j]));
    P->ndp = P->ds[j] + m;
    P->ds[j + 1] = P->ndp;
    if (m > LIED_SPARSE_WIDTH)
      for (int c = P->cs[j]; c < P->cs[j + 1]; c++) {
        P->cand[c].base = P->nu;
        P->nu += P->cand[c].nv;
      }
  }
  return LIED_OK;
}

int lied_spplan_residual_member(const lied_spplan *P, int p) {
  const lied_spec *spec = &P->b->m->specs[P->pspec[p]];
  uint32_t v =
      lied_sb_encode(P->b, P->pspec[p], spec->tpl.tears[P->ppair[p]].res_block, P->pinst[p]);
  return member_of(P, v);
}

/* Row r: D(member) with the diagonal r, sorted, into cols (returns the count). */
static uint64_t put_row(const lied_spplan *P, int mem, int r, uint32_t *cols) {
  const int *d = P->dpool + P->ds[mem];
  const uint64_t len = P->ds[mem + 1] - P->ds[mem];
  uint64_t m = 0;
  int diag = 0;
  for (uint64_t i = 0; i < len; i++) {
    if (!diag && d[i] >= r) {
      if (d[i] > r) cols[m++] = (uint32_t)r;
      diag = 1;
    }
    cols[m++] = (uint32_t)d[i];
  }
  if (!diag) cols[m++] = (uint32_t)r;
  return m;
}

/* The matrix pattern: rows of the residuals, then of the cuts. */
static int build_pattern(lied_spplan *P, lied_spsec *sp) {
  lied_err *e = P->b->e;
  const int nu = P->nu, k = P->k;
  int *rmem = lied_xmalloc(sizeof *rmem * (size_t)nu, "sparse section", e);
  sp->rowptr = lied_xmalloc(sizeof *sp->rowptr * ((size_t)nu + 1), "sparse section", e);
  if (!rmem || !sp->rowptr) {
    free(rmem);
    return LIED_E_NOMEM;
  }
  for (int p = 0; p < k; p++) {
    rmem[p] = lied_spplan_residual_member(P, p);
    LIED_ASSERT(rmem[p] >= 0);
  }
  for (int c = 0; c < P->ncand; c++)
    for (int d = 0; P->cand[c].base >= 0 && d < P->cand[c].nv; d++)
      rmem[P->cand[c].base + d] = P->cand[c].mem;
  uint64_t nnz = 0;
  for (int r = 0; r < nu; r++) nnz += P->ds[rmem[r] + 1] - P->ds[rmem[r]] + 1;
  sp->cols = lied_xmalloc(sizeof *sp->cols * ((size_t)nnz + 1), "sparse section", e);
  if (!sp->cols) {
    free(rmem);
    return LIED_E_NOMEM;
  }
  uint64_t at = 0;
  for (int r = 0; r < nu; r++) {
    sp->rowptr[r] = at;
    at += put_row(P, rmem[r], r, sp->cols + at);
  }
  sp->rowptr[nu] = at;
  sp->nnz = at;
  free(rmem);
  return LIED_OK;
}

/* Colours, their columns, and each colour's pass: the members whose D holds
 * a column of that colour or of the colour before (which puts those back).
 * Long: colouring, the colours' columns and their passes, built in one sweep. */
static int build_passes(lied_spplan *P, lied_spsec *sp) {
  lied_err *e = P->b->e;
  const int nu = P->nu, n = P->n;
  uint32_t *colour = lied_xmalloc(sizeof *colour * (size_t)nu, "sparse section", e);
  uint32_t ncol = 0;
  if (!colour) return LIED_E_NOMEM;
  int rc = lied_colour((uint64_t)nu, sp->rowptr, sp->cols, colour, &ncol, e);
  int *rstart = NULL, *rmem = NULL, *stamp = NULL;
  if (rc) goto out;
  sp->ncolour = (int)ncol;
  sp->gstart = lied_xcalloc(ncol + 2, sizeof *sp->gstart, "sparse section", e);
  sp->gcol = lied_xmalloc(sizeof *sp->gcol * (size_t)nu, "sparse section", e);
  rstart = lied_xcalloc(ncol + 2, sizeof *rstart, "sparse section", e);
  stamp = lied_xcalloc(ncol + 1, sizeof *stamp, "sparse section", e);
  rc = sp->gstart && sp->gcol && rstart && stamp ? LIED_OK : LIED_E_NOMEM;
  if (rc) goto out;
  for (int j = 0; j < nu; j++) sp->gstart[colour[j] + 1]++;
  for (uint32_t g = 0; g < ncol; g++) sp->gstart[g + 1] += sp->gstart[g];
  for (int j = 0; j < nu; j++) sp->gcol[sp->gstart[colour[j]]++] = j;
  for (uint32_t g = ncol; g > 0; g--) sp->gstart[g] = sp->gstart[g - 1];
  sp->gstart[0] = 0;
  /* reach(g): members whose D holds a column of colour g (stamp: once per member) */
  uint64_t nreach = 0;
  for (int j = 0; j < n; j++)
    for (uint64_t i = P->ds[j]; i < P->ds[j + 1]; i++) {
      uint32_t g = colour[P->dpool[i]];
      if (stamp[g] != j + 1) stamp[g] = j + 1, rstart[g + 1]++, nreach++;
    }
  for (uint32_t g = 0; g < ncol; g++) rstart[g + 1] += rstart[g];
  rmem = lied_xmalloc(sizeof *rmem * ((size_t)nreach + 1), "sparse section", e);
  sp->pstart = lied_xmalloc(sizeof *sp->pstart * ((size_t)ncol + 1), "sparse section", e);
  sp->pmem = lied_xmalloc(sizeof *sp->pmem * (2 * (size_t)nreach + 1), "sparse section", e);
  rc = rmem && sp->pstart && sp->pmem ? LIED_OK : LIED_E_NOMEM;
  if (rc) goto out;
  memset(stamp, 0, sizeof *stamp * (ncol + 1));
  for (int j = 0; j < n; j++) /* members in section order: each list sorted */
    for (uint64_t i = P->ds[j]; i < P->ds[j + 1]; i++) {
      uint32_t g = colour[P->dpool[i]];
      if (stamp[g] != j + 1) stamp[g] = j + 1, rmem[rstart[g]++] = j;
    }
  for (uint32_t g = ncol; g > 0; g--) rstart[g] = rstart[g - 1];
  rstart[0] = 0;
  int np = 0;
  for (uint32_t g = 0; g < ncol; g++) { /* merge reach(g) and reach(g - 1) */
    sp->pstart[g] = np;
    int a = rstart[g], ae = rstart[g + 1];
    int c = g ? rstart[g - 1] : ae, ce = g ? rstart[g] : ae;
    while (a < ae || c < ce) {
      int va = a < ae ? rmem[a] : n, vc = c < ce ? rmem[c] : n;
      int v = va < vc ? va : vc;
      sp->pmem[np++] = v;
      a += va == v, c += vc == v;
    }
  }
  sp->pstart[ncol] = np;
  P->b->s->st.sparse_pass_members += (uint64_t)np;
out:
  free(colour);
  free(rstart);
  free(rmem);
  free(stamp);
  return rc;
}

/* The cuts' addresses and each member's hooks. */
static int build_hooks(lied_spplan *P, lied_spsec *sp) {
  lied_err *e = P->b->e;
  sp->ncut = P->nu - P->k;
  sp->cut_at = lied_xmalloc(sizeof *sp->cut_at * ((size_t)sp->ncut + 1), "sparse section", e);
  sp->hstart = lied_xcalloc((size_t)P->n + 1, sizeof *sp->hstart, "sparse section", e);
  sp->hook = lied_xmalloc(sizeof *sp->hook * ((size_t)sp->ncut + 1), "sparse section", e);
  if (!sp->cut_at || !sp->hstart || !sp->hook) return LIED_E_NOMEM;
  int nh = 0;
  for (int j = 0; j < P->n; j++) {
    sp->hstart[j] = nh;
    const node_id id = lied_sb_decode(P->b, P->ord[j]);
    const lied_spec *s = &P->b->m->specs[id.spec];
    char *inst = lied_inst(s, lied_sb_real(P->b, id.spec, id.inst));
    for (int c = P->cs[j]; c < P->cs[j + 1]; c++) {
      const sp_cand *cd = &P->cand[c];
      if (cd->base < 0) continue;
      const lied_trange *r = &s->tpl.outs[cd->ri];
      for (int d = 0; d < cd->nv; d++) {
        const int cut = cd->base + d - P->k;
        sp->cut_at[cut] = (double *)(void *)(inst + r->lo + sizeof(double) * (size_t)d);
        sp->hook[nh++] = cut;
      }
    }
  }
  sp->hstart[P->n] = nh;
  LIED_ASSERT(nh == sp->ncut);
  return LIED_OK;
}

/* The members whose values in the pass with every unknown at 0 are the
 * same at every evaluation of a constant section (sched/spsec.h, "fixed"):
 * every input a tearing variable (0 in that pass), a constant or an output
 * of such a member (a cut's reads see its unknown, 0). The other members
 * form the pass (sp->run). What the pass restores: the ranges of fixed
 * members that other members read (a cut's holding its unknown), every
 * output of a fixed member writing a residual, and the computed values of
 * the cuts they hook. The rest of what they write (a state derivative) is
 * read by no member of the pass, and the final run after the solve
 * computes it again with what it reads. */
static uint64_t fixed_values(const lied_spplan *P, lied_spsec *sp, const uint8_t *fixed,
                             const uint8_t *want, const uint8_t *resm, int fill) {
  uint64_t m = 0;
  for (int j = 0; j < P->n; j++) {
    if (!fixed[j]) continue;
    const node_id id = lied_sb_decode(P->b, P->ord[j]);
    const lied_spec *s = &P->b->m->specs[id.spec];
    char *inst = lied_inst(s, lied_sb_real(P->b, id.spec, id.inst));
    for (int r = 0; r < s->tpl.nouts; r++) {
      if (s->tpl.outs[r].block != id.blk) continue;
      const int c = lied_spplan_find_cand(P, j, r);
      if (!resm[j] && (c < 0 || !want[c])) continue;
      for (uint32_t o = s->tpl.outs[r].lo; o < s->tpl.outs[r].hi; o += sizeof(double), m++)
        if (fill) sp->fix_at[m] = (double *)(void *)(inst + o);
    }
    for (int h = sp->hstart[j]; h < sp->hstart[j + 1]; h++, m++)
      if (fill) sp->fix_at[m] = &sp->comp[sp->hook[h]];
  }
  return m;
}

static int build_fixed(lied_spplan *P, lied_spsec *sp) {
  lied_err *e = P->b->e;
  const int n = P->n;
  uint8_t *fixed = lied_xcalloc((size_t)n + 1, 1, "sparse section", e);
  uint8_t *resm = lied_xcalloc((size_t)n + 1, 1, "sparse section", e);
  uint8_t *want = lied_xcalloc((size_t)P->ncand + 1, 1, "sparse section", e);
  int rc = fixed && resm && want ? LIED_OK : LIED_E_NOMEM;
  for (int j = 0; j < n && !rc; j++) {
    int f = P->inside[j];
    for (int i = P->rs[j]; i < P->rs[j + 1] && f; i++)
      if (!P->rd[i].tear && !fixed[P->rd[i].a]) f = 0;
    fixed[j] = (uint8_t)f;
    if (!f) {
      sp->nrun++;
      for (int i = P->rs[j]; i < P->rs[j + 1]; i++)
        if (!P->rd[i].tear && fixed[P->rd[i].a])
          want[lied_spplan_find_cand(P, P->rd[i].a, P->rd[i].ri)] = 1;
    }
  }
  for (int p = 0; p < P->k && !rc; p++) {
    const int m = lied_spplan_residual_member(P, p);
    if (m >= 0) resm[m] = 1;
  }
  uint64_t nfix = rc ? 0 : fixed_values(P, sp, fixed, want, resm, 0);
  if (!rc) {
    sp->run = lied_xmalloc(sizeof *sp->run * ((size_t)sp->nrun + 1), "sparse section", e);
    sp->runs = lied_xmalloc(sizeof *sp->runs * ((size_t)sp->nrun + 1), "sparse section", e);
    sp->fix_at = lied_xmalloc(sizeof *sp->fix_at * ((size_t)nfix + 1), "sparse section", e);
    sp->fix_val = lied_xcalloc((size_t)nfix + 1, sizeof *sp->fix_val, "sparse section", e);
    rc = sp->run && sp->runs && sp->fix_at && sp->fix_val ? LIED_OK : LIED_E_NOMEM;
  }
  if (!rc) {
    sp->nfix = (int)fixed_values(P, sp, fixed, want, resm, 1);
    LIED_ASSERT((uint64_t)sp->nfix == nfix);
    int r = 0;
    for (int j = 0; j < n; j++)
      if (!fixed[j]) sp->run[r++] = j;
    LIED_ASSERT(r == sp->nrun);
    P->b->s->st.sparse_fixed_members += (uint64_t)(n - sp->nrun);
  }
  free(fixed);
  free(resm);
  free(want);
  return rc;
}

int lied_spplan_structure(lied_spplan *P) {
  LIED_TRY(collect_reads(P));
  return propagate(P);
}

void lied_spplan_free(lied_spplan *P) {
  free(P->inside);
  free(P->rd);
  free(P->rs);
  free(P->cand);
  free(P->cs);
  free(P->dpool);
  free(P->ds);
}

static int build(lied_spplan *P, lied_spsec *sp) {
  lied_err *e = P->b->e;
  LIED_TRY(lied_spplan_structure(P));
  sp->k = P->k;
  sp->nu = P->nu;
  LIED_TRY(build_pattern(P, sp));
  LIED_TRY(build_passes(P, sp));
  LIED_TRY(build_hooks(P, sp));
  LIED_TRY(lied_transpose((uint64_t)sp->nu, sp->rowptr, sp->cols, &sp->ctp, &sp->crow, &sp->cpos,
                          e));
  sp->val = lied_xcalloc((size_t)sp->nnz + 1, sizeof *sp->val, "sparse section", e);
  sp->b = lied_xcalloc((size_t)sp->nu, sizeof *sp->b, "sparse section", e);
  sp->x = lied_xcalloc((size_t)sp->nu, sizeof *sp->x, "sparse section", e);
  sp->comp = lied_xcalloc((size_t)sp->ncut + 1, sizeof *sp->comp, "sparse section", e);
  sp->u = lied_xcalloc((size_t)sp->ncut + 1, sizeof *sp->u, "sparse section", e);
  if (!sp->val || !sp->b || !sp->x || !sp->comp || !sp->u) return LIED_E_NOMEM;
  sp->lu = lied_splu_new((uint64_t)sp->nu, sp->rowptr, sp->cols, e);
  if (!sp->lu) return lied_err_code(e);
  lied_sched_stats *st = &P->b->s->st;
  st->sparse_sections++;
  st->sparse_unknowns += (uint64_t)sp->nu;
  st->sparse_nnz += sp->nnz;
  st->sparse_colours += (uint64_t)sp->ncolour;
  st->sparse_factor_nnz += lied_splu_factor_nnz(sp->lu);
  return LIED_OK;
}

int lied_sb_sparse_wanted(const lied_sb *b, const lied_section *sec) {
  const int min = b->flags_sched & LIED_SCHED_SPARSE_ALL ? 1 : LIED_SPARSE_MIN_TEARS;
  return sec->count == 1 && sec->k >= min && !b->copies && !b->wshift &&
         lied_splu_available() && !(b->flags_sched & LIED_SCHED_NO_SPARSE);
}

int lied_sb_sparse_plan(lied_sb *b, int isec, const int *pos) {
  lied_section *sec = &b->s->secs[isec];
  const lied_secb *sb = &b->secb[isec];
  const uint32_t c = b->comp[sb->first[0]];
  const size_t k = (size_t)sec->k;
  int *pspec = lied_xmalloc(sizeof *pspec * (k + 1), "sparse section", b->e);
  int *ppair = lied_xmalloc(sizeof *ppair * (k + 1), "sparse section", b->e);
  uint64_t *pinst = lied_xmalloc(sizeof *pinst * (k + 1), "sparse section", b->e);
  lied_spsec *sp = lied_xcalloc(1, sizeof *sp, "sparse section", b->e);
  int rc = pspec && ppair && pinst && sp ? LIED_OK : LIED_E_NOMEM;
  lied_spplan P = {.b = b, .comp = c, .cmem = b->cmem + b->cstart[c], .ord = sb->first,
                   .pos = pos, .n = sec->nblk, .k = sec->k, .pspec = pspec, .ppair = ppair,
                   .pinst = pinst};
  if (!rc) {
    sp->z0 = -1;
    for (size_t p = 0; p < k; p++)
      pspec[p] = sec->pairs[p].spec, ppair[p] = sec->pairs[p].pair, pinst[p] = sec->pairs[p].inst0;
    rc = build(&P, sp);
    if (!rc && sec->constant) rc = build_fixed(&P, sp);
  }
  lied_spplan_free(&P);
  free(pspec), free(ppair), free(pinst);
  if (rc) {
    lied_spsec_free(sp);
    return rc;
  }
  sec->sparse = sp;
  return LIED_OK;
}

void lied_spsec_free(lied_spsec *sp) {
  if (!sp) return;
  free(sp->cut_at);
  free(sp->hstart);
  free(sp->hook);
  free(sp->rowptr);
  free(sp->cols);
  free(sp->val);
  free(sp->ctp);
  free(sp->crow);
  free(sp->cpos);
  free(sp->gstart);
  free(sp->gcol);
  free(sp->pstart);
  free(sp->pmem);
  lied_splu_free(sp->lu);
  free(sp->b);
  free(sp->x);
  free(sp->comp);
  free(sp->u);
  free(sp->run);
  free(sp->runs);
  free(sp->fix_at);
  free(sp->fix_val);
  free(sp);
}
