/* sched.c - from the classified block graph to a flat schedule: linear
 * sections ordered and batched, blocks batched by level, compaction into
 * constant / dynamic / output parts, alignment for chunked evaluation. The
 * graph is freed before returning. */
#include "sched/sched.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/sbuild.h"

#define PROBE_CHUNK LIED_LANES /* a probing chunk is one lane group (sched/lanes.h) */

typedef struct sec_tmp {
  uint32_t *ord;   /* members in evaluation order */
  int n;
  int *indeg;
  int *rstart, *rev, *heap; /* reverse local edges, ready heap */
  size_t caprev;
  /* pairs: spec, pair index, instance */
  int *pspec, *ppair;
  uint64_t *pinst;
  int np;
  int cap;
} sec_tmp;

static int local_index(const uint32_t *mem, int n, uint32_t v) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (mem[mid] == v) return mid;
    if (mem[mid] < v)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

static void heap_push(int *h, int *n, int v) {
  int i = (*n)++;
  while (i > 0 && h[(i - 1) / 2] > v) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = v;
}

static int heap_pop(int *h, int *n) {
  int top = h[0], v = h[--*n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1] < h[c]) c++;
    if (h[c] >= v) break;
    h[i] = h[c];
    i = c;
  }
  if (*n) h[i] = v;
  return top;
}


/* Order the members of section c (ignoring tearing edges) and collect its
 * tearing pairs; errors for loops that tearing does not break and for
 * tearing variables no member reads. */
static int section_order(lied_sb *b, uint32_t c, sec_tmp *t) {
  const uint32_t *mem = b->cmem + b->cstart[c];
  int n = (int)(b->cstart[c + 1] - b->cstart[c]);
  if (n > t->cap) {
    int nc = n * 2;
    uint32_t *o = realloc(t->ord, sizeof *o * (size_t)nc);
    if (o) t->ord = o;
    int *d = realloc(t->indeg, sizeof *d * (size_t)nc);
    if (d) t->indeg = d;
    int *ps = realloc(t->pspec, sizeof *ps * (size_t)nc * 4);
    if (ps) t->pspec = ps;
    int *pp = realloc(t->ppair, sizeof *pp * (size_t)nc * 4);
    if (pp) t->ppair = pp;
    uint64_t *pi = realloc(t->pinst, sizeof *pi * (size_t)nc * 4);
    if (pi) t->pinst = pi;
    int *rs = realloc(t->rstart, sizeof *rs * ((size_t)nc + 1));
    if (rs) t->rstart = rs;
    int *hp = realloc(t->heap, sizeof *hp * (size_t)nc);
    if (hp) t->heap = hp;
    if (!o || !d || !ps || !pp || !pi || !rs || !hp)
      return lied_errf(b->e, "out of memory (sections)");
    t->cap = nc;
  }
  int any_pair = 0;
  for (int i = 0; i < n && !any_pair; i++) {
    node_id id = lied_sb_decode(b, mem[i]);
    const lied_template *tp = &b->m->specs[id.spec].tpl;
    for (int q = 0; q < tp->ntears; q++) any_pair |= tp->tears[q].res_block == id.blk;
  }
  if (!any_pair)
    return lied_sb_loop_error(b, mem[0],
                      "algebraic loop without tearing (no component on it declares a "
                      "tearing pair)");
  /* local dependency edges, ignoring residual -> tearing edges */
  const lied_graph *g = &b->g;
  size_t ne = 0;
  for (int i = 0; i < n; i++) {
    t->indeg[i] = 0;
    t->rstart[i] = 0;
  }
  t->rstart[n] = 0;
  for (int i = 0; i < n; i++)
    for (uint32_t k = g->rowptr[mem[i]]; k < g->rowptr[mem[i] + 1]; k++)
      if (!IS_TEAR(b, k) && b->comp[g->adj[k]] == c) {
        t->indeg[i]++;
        t->rstart[local_index(mem, n, g->adj[k]) + 1]++;
        ne++;
      }
  if (ne > t->caprev) {
    int *r = realloc(t->rev, sizeof *r * ne * 2);
    if (!r) return lied_errf(b->e, "out of memory (sections)");
    t->rev = r;
    t->caprev = ne * 2;
  }
  for (int i = 0; i < n; i++) t->rstart[i + 1] += t->rstart[i];
  for (int i = 0; i < n; i++)
    for (uint32_t k = g->rowptr[mem[i]]; k < g->rowptr[mem[i] + 1]; k++)
      if (!IS_TEAR(b, k) && b->comp[g->adj[k]] == c)
        t->rev[t->rstart[local_index(mem, n, g->adj[k])]++] = i;
  for (int i = n; i > 0; i--) t->rstart[i] = t->rstart[i - 1];
  t->rstart[0] = 0;
  /* Kahn, choosing the smallest ready node id: deterministic, so identical
   * sections get identical orders. */
  int nh = 0;
  for (int i = 0; i < n; i++)
    if (t->indeg[i] == 0) heap_push(t->heap, &nh, i);
  t->n = 0;
  while (nh) {
    int p = heap_pop(t->heap, &nh);
    t->ord[t->n++] = mem[p];
    for (int r = t->rstart[p]; r < t->rstart[p + 1]; r++)
      if (--t->indeg[t->rev[r]] == 0) heap_push(t->heap, &nh, t->rev[r]);
  }
  if (t->n < n)
    for (int i = 0; i < n; i++)
      if (t->indeg[i] > 0)
        return lied_sb_loop_error(b, mem[i], "algebraic loop inside a linear section (a cycle that "
                                     "no tearing variable breaks)");
  /* tearing pairs: residual written by a member */
  t->np = 0;
  for (int i = 0; i < n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    const lied_template *tp = &b->m->specs[id.spec].tpl;
    for (int q = 0; q < tp->ntears; q++)
      if (tp->tears[q].res_block == id.blk) {
        if (t->np >= t->cap * 4) return lied_errf(b->e, "too many tearing pairs in a section");
        t->pspec[t->np] = id.spec, t->ppair[t->np] = q, t->pinst[t->np] = id.inst;
        t->np++;
      }
  }
  if (t->np == 0)
    return lied_sb_loop_error(b, mem[0],
                      "algebraic loop without tearing (no component on it declares a "
                      "tearing pair; a thermofluid flow loop needs a volume)");
  /* every tearing variable must be read inside the section */
  for (int p = 0; p < t->np; p++) {
    const lied_template *tp = &b->m->specs[t->pspec[p]].tpl;
    int read = 0;
    for (int i = 0; i < n && !read; i++) {
      node_id id = lied_sb_decode(b, t->ord[i]);
      if (id.spec != t->pspec[p] || id.inst != t->pinst[p]) continue;
      const lied_tblock *bl = &tp->blocks[id.blk];
      for (uint32_t r = bl->in0; r < bl->in0 + bl->nin; r++)
        if (tp->refs[r].kind == LIED_REF_TEAR && tp->refs[r].a == t->ppair[p]) read = 1;
    }
    if (!read) {
      char path[512];
      lied_model_path(b->m, t->pspec[p], t->pinst[p], path, sizeof path);
      return lied_errf(b->e,
                       "tearing count mismatch in a linear section of %d tearing pairs: "
                       "tearing variable %s.%s is not read by any block of the section",
                       t->np, path, tp->vars[tp->tears[t->ppair[p]].tear_var].name);
    }
  }
  return 0;
}

/* A section batch under construction. */
typedef struct open_sec {
  int si;          /* index in the schedule's sections (they may move) */
  uint32_t *first; /* member nodes of the batch's first section, in order */
  int n;
} open_sec;

/* ---- steps -------------------------------------------------------------------- */

typedef struct step_list {
  lied_step *v;
  int n, cap;
} step_list;

static int push_step(lied_sb *b, step_list *l, lied_step s) {
  if (lied_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v, b->e)) return -1;
  l->v[l->n++] = s;
  return 0;
}

static int new_section(lied_sb *b, const sec_tmp *t, int constant,
                       lied_section **out) {
  lied_sched *s = b->s;
  if (s->nsecs % 64 == 0) {
    lied_section *ns = realloc(s->secs, sizeof *ns * (size_t)(s->nsecs + 64));
    if (!ns) return lied_errf(b->e, "out of memory (sections)");
    s->secs = ns;
  }
  lied_section *sec = &s->secs[s->nsecs];
  memset(sec, 0, sizeof *sec);
  sec->nblk = t->n;
  sec->k = t->np;
  sec->count = 1;
  sec->constant = constant;
  sec->blk = lied_xcalloc((size_t)t->n, sizeof *sec->blk, "section", b->e);
  sec->pairs = lied_xcalloc((size_t)t->np, sizeof *sec->pairs, "section", b->e);
  if (!sec->blk || !sec->pairs) {
    free(sec->blk);
    free(sec->pairs);
    return -1;
  }
  sec->mexp = lied_xcalloc((size_t)t->n, 1, "section", b->e);
  sec->first = lied_xmalloc(sizeof *sec->first * (size_t)t->n, "section", b->e);
  sec->fin = lied_xmalloc(sizeof *sec->fin * (size_t)t->n, "section", b->e);
  if (!sec->mexp || !sec->first || !sec->fin) {
    free(sec->blk), free(sec->pairs), free(sec->mexp), free(sec->first), free(sec->fin);
    return -1;
  }
  for (int i = 0; i < t->n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    const lied_spec *sp = &b->m->specs[id.spec];
    sec->blk[i] = (lied_sec_block){sp->tpl.blocks[id.blk].fn, lied_inst(sp, id.inst), sp->size,
                                   sp->tpl.blocks[id.blk].lanes};
    sec->first[i] = t->ord[i];
    sec->mexp[i] = (b->flags[t->ord[i]] & (NF_EXPORT | NF_DER)) != 0;
  }
  for (int p = 0; p < t->np; p++) {
    const lied_spec *sp = &b->m->specs[t->pspec[p]];
    const lied_ttear *tt = &sp->tpl.tears[t->ppair[p]];
    char *inst = lied_inst(sp, t->pinst[p]);
    sec->pairs[p] = (lied_sec_pair){(double *)(void *)(inst + tt->tear),
                                    (double *)(void *)(inst + tt->res), sp->size,
                                    sp->size, t->pspec[p], t->ppair[p], t->pinst[p]};
  }
  s->nsecs++;
  *out = sec;
  return 0;
}

/* Can section t (members in order) extend the open batch o? The same
 * members (spec, block) in the same order at instance indices advanced by
 * q, the same tearing pairs, and the same edges inside the section: member
 * i's k-th dependency lies inside for both or for neither, and inside it is
 * the batch's first section's node advanced by q (node ids are linear in the
 * instance index), with the same tearing bit. The batch's final members and
 * column passes come from its first section. */
static int extends(const lied_sb *b, const open_sec *o, const sec_tmp *t) {
  const lied_section *sec = &b->s->secs[o->si];
  if (o->n != t->n || sec->k != t->np) return 0;
  uint64_t q = sec->count;
  for (int i = 0; i < t->n; i++) {
    node_id a = lied_sb_decode(b, o->first[i]), c = lied_sb_decode(b, t->ord[i]);
    if (a.spec != c.spec || a.blk != c.blk || c.inst != a.inst + q) return 0;
  }
  const lied_graph *g = &b->g;
  const uint32_t ca = b->comp[o->first[0]], cc = b->comp[t->ord[0]];
  for (int i = 0; i < t->n; i++) {
    uint32_t va = o->first[i], vc = t->ord[i];
    uint32_t ka = g->rowptr[va], kc = g->rowptr[vc];
    if (g->rowptr[va + 1] - ka != g->rowptr[vc + 1] - kc) return 0;
    for (; ka < g->rowptr[va + 1]; ka++, kc++) {
      uint32_t ua = g->adj[ka], uc = g->adj[kc];
      int ina = b->comp[ua] == ca, inc = b->comp[uc] == cc;
      if (ina != inc || IS_TEAR(b, ka) != IS_TEAR(b, kc)) return 0;
      if (ina && (uint64_t)uc != (uint64_t)ua + q) return 0;
    }
  }
  for (int p = 0; p < t->np; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    if (sp->spec != t->pspec[p] || sp->pair != t->ppair[p] || t->pinst[p] != sp->inst0 + q)
      return 0;
  }
  return 1;
}

static int is_constant_section(const lied_sb *b, const sec_tmp *t) {
  /* constant matrix if every block says so */
  for (int i = 0; i < t->n; i++) {
    node_id id = lied_sb_decode(b, t->ord[i]);
    if (!(b->m->specs[id.spec].tpl.blocks[id.blk].flags & LIED_BLOCK_CONST_COEFF)) return 0;
  }
  return 1;
}

#define MAX_OPEN 16

static int emit_steps(lied_sb *b) {
  lied_sched *s = b->s;
  lied_err *e = b->e;
  uint32_t maxlevel = 0;
  for (uint32_t c = 0; c < b->ncomp; c++)
    if (b->level[c] > maxlevel) maxlevel = b->level[c];
  uint64_t nkeys = (uint64_t)(maxlevel + 1) * LIED_NPARTS;
  /* counting sort of components by (part, level), stable in first-member id */
  uint32_t *cnt = lied_xcalloc(nkeys + 1, sizeof(uint32_t), "levels", e);
  uint32_t *items = lied_xmalloc(sizeof(uint32_t) * (size_t)(b->ncomp + 1), "levels", e);
  if (!cnt || !items) {
    free(cnt);
    free(items);
    return -1;
  }
#define KEY(c)                                                                      \
  ((uint64_t)((b->cflag[c] & CF_DYN) ? ((b->cflag[c] & CF_NEED) ? LIED_PART_DYN : LIED_PART_OUT) \
                                     : LIED_PART_CONST) *                                  \
       (maxlevel + 1) +                                                             \
   b->level[c])
  for (uint32_t v = 0; v < b->nnodes; v++) {
    uint32_t c = b->comp[v];
    if (b->cmem[b->cstart[c]] == v) cnt[KEY(c) + 1]++;
  }
  for (uint64_t k = 0; k < nkeys; k++) cnt[k + 1] += cnt[k];
  for (uint32_t v = 0; v < b->nnodes; v++) {
    uint32_t c = b->comp[v];
    if (b->cmem[b->cstart[c]] == v) items[cnt[KEY(c)]++] = c;
  }
  /* cnt[k] is now the end of key k */
  sec_tmp t = {0};
  open_sec open[MAX_OPEN];
  int nopen = 0, rc = 0;
  step_list parts[LIED_NPARTS] = {{0}};
  uint64_t begin = 0;
  for (uint64_t key = 0; key < nkeys && rc == 0; key++) {
    int part = (int)(key / (maxlevel + 1));
    step_list *l = &parts[part];
    for (int i = 0; i < nopen; i++) free(open[i].first);
    nopen = 0;
    int last_block_step = -1;
    for (uint64_t it = begin; it < cnt[key] && rc == 0; it++) {
      uint32_t c = items[it];
      if (!(b->cflag[c] & CF_SECTION)) {
        uint32_t v = b->cmem[b->cstart[c]];
        node_id id = lied_sb_decode(b, v);
        const lied_spec *sp = &b->m->specs[id.spec];
        s->st.blocks[part] += sp->internal ? 0 : 1;
        lied_block_fn fn = sp->tpl.blocks[id.blk].fn;
        char *base = lied_inst(sp, id.inst);
        if (last_block_step >= 0) {
          lied_step *ls = &l->v[last_block_step];
          if (ls->fn == fn && ls->stride == sp->size &&
              ls->base + ls->count * ls->stride == base) {
            ls->count++;
            continue;
          }
        }
        rc = push_step(b, l, (lied_step){fn, base, sp->size, 1, NULL, -1,
                                         sp->tpl.blocks[id.blk].lanes});
        last_block_step = l->n - 1;
        continue;
      }
      if ((rc = section_order(b, c, &t))) break;
      for (int i = 0; i < t.n; i++)
        if (!b->m->specs[lied_sb_decode(b, t.ord[i]).spec].internal) s->st.blocks[part]++;
      s->st.sections++;
      s->st.tears += (uint64_t)t.np;
      s->st.section_size[t.np < LIED_SEC_HIST ? t.np : LIED_SEC_HIST]++;
      if (t.np > s->st.max_section) s->st.max_section = t.np;
      int found = 0;
      for (int i = 0; i < nopen && !found; i++)
        if (extends(b, &open[i], &t)) {
          lied_section *bs = &s->secs[open[i].si];
          bs->count++;
          for (int j = 0; j < t.n; j++)
            bs->mexp[j] |= (b->flags[t.ord[j]] & (NF_EXPORT | NF_DER)) != 0;
          found = 1;
        }
      if (found) continue;
      lied_section *sec = NULL;
      int cst = is_constant_section(b, &t);
      if ((rc = new_section(b, &t, cst, &sec))) break;
      s->st.constant_sections += (uint64_t)cst;
      /* the step refers to the section by index: sections may move while
       * growing, so pointers are set after all are made */
      rc = push_step(b, l, (lied_step){NULL, NULL, 0, 0, NULL, s->nsecs - 1});
      if (rc) break;
      if (nopen == MAX_OPEN) {
        free(open[0].first);
        memmove(open, open + 1, sizeof *open * (MAX_OPEN - 1));
        nopen--;
      }
      open[nopen].si = (int)(sec - s->secs);
      open[nopen].n = t.n;
      open[nopen].first = lied_xmalloc(sizeof(uint32_t) * (size_t)t.n, "sections", e);
      if (!open[nopen].first) {
        rc = -1;
        break;
      }
      memcpy(open[nopen].first, t.ord, sizeof(uint32_t) * (size_t)t.n);
      nopen++;
    }
    begin = cnt[key];
  }
  for (int i = 0; i < nopen; i++) free(open[i].first);
  free(t.ord);
  free(t.indeg);
  free(t.pspec);
  free(t.ppair);
  free(t.pinst);
  free(t.rstart);
  free(t.rev);
  free(t.heap);
  free(cnt);
  free(items);
  for (int p = 0; p < LIED_NPARTS; p++) {
    for (int i = 0; i < parts[p].n; i++)
      if (parts[p].v[i].isec >= 0) {
        parts[p].v[i].sec = &s->secs[parts[p].v[i].isec];
        parts[p].v[i].count = parts[p].v[i].sec->count;
      }
    s->steps[p] = parts[p].v;
    s->nsteps[p] = parts[p].n;
    s->st.steps[p] = (uint64_t)parts[p].n;
  }
  s->st.section_batches = (uint64_t)s->nsecs;
  return rc;
}
#undef KEY

/* pos[i]: the place in section order of member i of component c (members
 * sorted by node id, as in b->cmem). */
static void member_positions(const lied_sb *b, const lied_section *sec, int *pos) {
  uint32_t c = b->comp[sec->first[0]];
  const uint32_t *mem = b->cmem + b->cstart[c];
  for (int j = 0; j < sec->nblk; j++) pos[local_index(mem, sec->nblk, sec->first[j])] = j;
}

/* The members the final evaluation needs when only what leaves the section
 * matters: exports and, backwards, what they read inside the section
 * (tearing edges excluded: the tearing variables are set). */
static void final_members(const lied_sb *b, lied_section *sec, const int *pos) {
  uint32_t c = b->comp[sec->first[0]];
  const uint32_t *mem = b->cmem + b->cstart[c];
  for (int j = sec->nblk - 1; j >= 0; j--) {
    if (!sec->mexp[j]) continue;
    uint32_t v = sec->first[j];
    for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++) {
      uint32_t u = b->g.adj[k];
      if (IS_TEAR(b, k) || b->comp[u] != c) continue;
      sec->mexp[pos[local_index(mem, sec->nblk, u)]] = 1;
    }
  }
  sec->nfin = 0;
  for (int j = 0; j < sec->nblk; j++)
    if (sec->mexp[j]) sec->fin[sec->nfin++] = j;
}

/* The probe's column passes. Setting tearing variable p to 1 changes only
 * the members downstream of p: those reading it (a tearing edge to p's
 * residual block; conservative when one block writes several residuals) or
 * reading such a member inside the section. The others keep the values of
 * the pass with every tearing variable at 0. So pass i (tearing variable
 * cord[i]) runs, in section order, the members downstream of cord[i] or of
 * cord[i - 1] (which puts the latter's back to their base values); tearing
 * variables with fewer downstream members go first. */
static int column_passes(const lied_sb *b, lied_section *sec, const int *pos) {
  const int n = sec->nblk, k = sec->k;
  uint32_t c = b->comp[sec->first[0]];
  const uint32_t *mem = b->cmem + b->cstart[c];
  uint8_t *down = lied_xcalloc((size_t)k * (size_t)n, 1, "section passes", b->e);
  int *cnt = lied_xcalloc((size_t)k, sizeof *cnt, "section passes", b->e);
  sec->cord = lied_xmalloc(sizeof *sec->cord * (size_t)k, "section passes", b->e);
  sec->pstart = lied_xmalloc(sizeof *sec->pstart * ((size_t)k + 1), "section passes", b->e);
  sec->pblk = lied_xmalloc(sizeof *sec->pblk * (size_t)k * (size_t)n, "section passes", b->e);
  if (!down || !cnt || !sec->cord || !sec->pstart || !sec->pblk) {
    free(down), free(cnt);
    return -1;
  }
  for (int p = 0; p < k; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    const lied_spec *spec = &b->m->specs[sp->spec];
    uint32_t res = lied_sb_encode(b, sp->spec, spec->tpl.tears[sp->pair].res_block, sp->inst0);
    uint8_t *d = down + (size_t)p * (size_t)n;
    for (int j = 0; j < n; j++) {
      uint32_t v = sec->first[j];
      for (uint32_t e = b->g.rowptr[v]; e < b->g.rowptr[v + 1] && !d[j]; e++) {
        uint32_t u = b->g.adj[e];
        if (IS_TEAR(b, e))
          d[j] = u == res;
        else if (b->comp[u] == c)
          d[j] = d[pos[local_index(mem, n, u)]];
      }
      cnt[p] += d[j];
    }
  }
  for (int i = 0; i < k; i++) { /* stable insertion sort by count */
    int p = i;
    int j = i;
    for (; j > 0 && cnt[sec->cord[j - 1]] > cnt[p]; j--) sec->cord[j] = sec->cord[j - 1];
    sec->cord[j] = p;
  }
  int np = 0;
  sec->pstart[0] = 0;
  for (int i = 0; i < k; i++) {
    const uint8_t *cur = down + (size_t)sec->cord[i] * (size_t)n;
    const uint8_t *prev = i ? down + (size_t)sec->cord[i - 1] * (size_t)n : cur;
    for (int j = 0; j < n; j++)
      if (cur[j] || prev[j]) sec->pblk[np++] = j;
    sec->pstart[i + 1] = np;
  }
  int *shrunk = realloc(sec->pblk, sizeof *sec->pblk * (size_t)(np ? np : 1));
  if (shrunk) sec->pblk = shrunk;
  free(down);
  free(cnt);
  return 0;
}

/* For each section batch (built from its first section): the final
 * members and the column passes; then the building arrays go. */
static int section_passes(lied_sb *b) {
  lied_sched *s = b->s;
  int *pos = NULL, cap = 0, rc = 0;
  for (int i = 0; i < s->nsecs && !rc; i++) {
    lied_section *sec = &s->secs[i];
    rc = lied_grow((void **)&pos, &cap, sec->nblk, sizeof *pos, b->e);
    if (rc) break;
    member_positions(b, sec, pos);
    final_members(b, sec, pos);
    rc = column_passes(b, sec, pos);
    if (rc) break;
    s->st.column_blocks += (uint64_t)sec->pstart[sec->k] * sec->count;
    s->st.column_blocks_all += (uint64_t)sec->nblk * (uint64_t)sec->k * sec->count;
  }
  for (int i = 0; i < s->nsecs; i++) {
    free(s->secs[i].first);
    free(s->secs[i].mexp);
    s->secs[i].first = NULL;
    s->secs[i].mexp = NULL;
  }
  free(pos);
  return rc;
}

/* ---- alignment ----------------------------------------------------------------- */

/* The dynamic part is "aligned" when every step covers instances 0..n-1 of
 * its specs and every dependency inside the part links equal instance
 * indices (n independent copies of one structure, such as n crane crabs).
 * Then an evaluation can run all steps chunk by chunk of instances, keeping
 * each chunk's data in cache (loop interchange). */
static void check_alignment(lied_sb *b) {
  lied_sched *s = b->s;
  s->aligned = 0;
  if (s->nsteps[LIED_PART_DYN] == 0) return;
  const lied_step *st = s->steps[LIED_PART_DYN];
  uint64_t n = st[0].sec ? st[0].sec->count : st[0].count;
  if (n < 2) return;
  for (int i = 0; i < s->nsteps[LIED_PART_DYN]; i++) {
    uint64_t inst;
    uint32_t off;
    if (st[i].sec) {
      const lied_section *sec = st[i].sec;
      if (sec->count != n) return;
      for (int k = 0; k < sec->nblk; k++)
        if (lied_model_locate(b->m, b->order, b->norder, sec->blk[k].base, &inst, &off) < 0 ||
            inst != 0 || off != 0)
          return;
      for (int p = 0; p < sec->k; p++)
        if (sec->pairs[p].inst0 != 0) return;
    } else {
      if (st[i].count != n) return;
      if (lied_model_locate(b->m, b->order, b->norder, st[i].base, &inst, &off) < 0 ||
          inst != 0 || off != 0)
        return;
    }
  }
  const uint8_t dyn = CF_DYN | CF_NEED;
  for (uint32_t v = 0; v < b->nnodes; v++) {
    if (!(b->flags[v] & NF_XINST)) continue; /* every dependency has its index */
    if ((b->cflag[b->comp[v]] & dyn) != dyn) continue;
    node_id a = lied_sb_decode(b, v);
    for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++) {
      uint32_t u = b->g.adj[k];
      if ((b->cflag[b->comp[u]] & dyn) != dyn) continue;
      if (lied_sb_decode(b, u).inst != a.inst) return;
    }
  }
  s->aligned = 1;
  s->aligned_n = n;
}

/* ---- states ---------------------------------------------------------------- */

static int map_states(lied_sb *b) {
  lied_model *m = b->m;
  lied_sched *s = b->s;
  int n = 0;
  for (int i = 0; i < m->nspecs; i++)
    if (m->specs[i].cls && m->specs[i].tpl.nstates && m->specs[i].total) n++;
  s->smap = lied_xcalloc((size_t)n + 1, sizeof *s->smap, "state map", b->e);
  if (!s->smap) return -1;
  uint64_t x = 0;
  for (int i = 0; i < m->nspecs; i++) {
    lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->tpl.nstates || !sp->total) continue;
    s->smap[s->nsmap++] = (lied_state_map){sp->arena, sp->size, sp->total,
                                           sp->tpl.nstates, sp->tpl.states, sp->proto, x};
    x += sp->total * (uint64_t)sp->tpl.nstates;
  }
  s->nstates = x;
  return 0;
}

/* ---- replicated scheduling ----------------------------------------------------- */

/* The number n of copies when the model is n >= 2 independent copies of one
 * structure (an array of models and nothing else, as the scaling experiment
 * or an ensemble): every spec has n instances and every port of instance i
 * reads instance i of its source (or, unconnected, the same zeros), checked
 * pointer by pointer: instance i's pointer must be instance 0's moved by i
 * instances of the source. 0 otherwise. Then the graph of copy 0 schedules
 * them all (see lied_sched_build), in O(n) time and no per-copy memory. */
static uint64_t replicable(const lied_model *m, const int *order, int norder) {
  uint64_t n = 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->total) continue;
    if (!n) n = sp->total;
    if (sp->total != n) return 0;
  }
  if (n < 2) return 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->total) continue;
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
  }
  return n;
}

/* The schedule of copy 0 for all n copies: every step and section batch
 * covers instances 0 .. n-1, and the counts are the model's. */
static void replicate(lied_sched *s, uint64_t n) {
  for (int i = 0; i < s->nsecs; i++) s->secs[i].count *= n;
  for (int p = 0; p < LIED_NPARTS; p++) {
    for (int i = 0; i < s->nsteps[p]; i++) {
      lied_step *st = &s->steps[p][i];
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

/* ---- driver ------------------------------------------------------------------ */

int lied_sched_build(lied_sched **out, lied_model *m, unsigned flags, lied_err *e) {
  *out = NULL;
  lied_sched *s = lied_xcalloc(1, sizeof *s, "schedule", e);
  if (!s) return LIED_E_NOMEM;
  s->model = m;
  lied_sb b = {.m = m, .s = s, .e = e};
  b.order = lied_model_arena_order(m, &b.norder, e);
  int rc = !b.order ? LIED_E_NOMEM : LIED_OK;
  if (!rc && !(flags & LIED_SCHED_NO_REPLICATE)) b.copies = replicable(m, b.order, b.norder);
  if (!rc) rc = lied_sb_build_graph(&b);
  if (!rc) {
    s->st.nodes = b.nnodes;
    s->st.edges = b.nedges;
  }
  if (!rc) rc = lied_sb_classify(&b);
  /* the node flags and level arrays are still needed; the graph too (cycles) */
  if (!rc) rc = emit_steps(&b);
  if (!rc && b.copies) replicate(s, b.copies);
  if (!rc) rc = section_passes(&b);
  if (!rc) check_alignment(&b);
  lied_sb_free(&b);
  if (!rc) rc = map_states(&b);
  /* states must follow the same instance indexing */
  for (int i = 0; !rc && s->aligned && i < s->nsmap; i++)
    if (s->smap[i].count != s->aligned_n) s->aligned = 0;
  if (!rc) {
    s->maxk = s->st.max_section;
    s->chunk = PROBE_CHUNK;
    size_t k = (size_t)s->maxk;
    s->work = lied_xmalloc(sizeof(double) * s->chunk * (k * k + 2 * k + 1), "probe", e);
    s->wpiv = lied_xmalloc(sizeof(int) * s->chunk * (k + 1), "probe", e);
    if (!s->work || !s->wpiv) rc = LIED_E_NOMEM;
    for (int i = 0; i < s->nsecs && !rc; i++) {
      lied_section *sec = &s->secs[i];
      if (!sec->constant) continue;
      size_t kk = (size_t)sec->k;
      sec->lu = lied_xmalloc(sizeof(double) * sec->count * kk * kk, "section factors", e);
      sec->piv = lied_xmalloc(sizeof(int) * sec->count * kk, "section factors", e);
      sec->factored = lied_xcalloc(sec->count / s->chunk + 1, 1, "section factors", e);
      if (!sec->lu || !sec->piv || !sec->factored) rc = LIED_E_NOMEM;
    }
  }
  if (rc) {
    lied_sched_free(s);
    return lied_err_code(e);
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
    free(s->secs[i].first);
    free(s->secs[i].mexp);
  }
  free(s->secs);
  for (int p = 0; p < LIED_NPARTS; p++) free(s->steps[p]);
  free(s->smap);
  free(s->work);
  free(s->wpiv);
  free(s);
}

