/* graphbuild.c - the block graph of a wired model (CSR, one node per block
 * instance), its strong components and their classification: sections,
 * algebraic loops, dynamic and needed parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/sbuild.h"

node_id lied_sb_decode(const lied_sb *b, uint32_t v) {
  int lo = 0, hi = b->nbspec - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (b->nbase[mid] <= v)
      lo = mid;
    else
      hi = mid - 1;
  }
  const lied_spec *s = &b->m->specs[b->bspec[lo]];
  uint64_t r = v - b->nbase[lo];
  const uint64_t cnt = lied_sb_count(b, s);
  return (node_id){b->bspec[lo], (int)(r / cnt), r % cnt};
}

uint32_t lied_sb_encode(const lied_sb *b, int spec, int blk, uint64_t inst) {
  int lo = 0, hi = b->nbspec - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (b->bspec[mid] == spec)
      return (uint32_t)(b->nbase[mid] + (uint64_t)blk * lied_sb_count(b, &b->m->specs[spec]) +
                        inst);
    if (b->bspec[mid] < spec)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return UINT32_MAX;
}

/* Dependencies of node v: calls add(ctx, u, is_tear) for each. Returns the
 * node flags (NF_DYN when it reads states, time or tearing variables). */

int lied_sb_deps(const lied_sb *b, uint32_t v, dep_fn add, void *ctx) {
  node_id id = lied_sb_decode(b, v);
  const lied_spec *s = &b->m->specs[id.spec];
  const lied_template *t = &s->tpl;
  const lied_tblock *blk = &t->blocks[id.blk];
  const char *inst = lied_inst(s, lied_sb_real(b, id.spec, id.inst));
  int fl = 0;
  for (uint32_t r = blk->in0; r < blk->in0 + blk->nin; r++) {
    const lied_tref *ref = &t->refs[r];
    switch (ref->kind) {
    case LIED_REF_TIME:
    case LIED_REF_STATE:
      fl |= NF_DYN;
      break;
    case LIED_REF_TEAR:
      fl |= NF_DYN;
      if (add) add(ctx, lied_sb_encode(b, id.spec, t->tears[ref->a].res_block, id.inst), 1);
      break;
    case LIED_REF_INTERNAL:
      if (add) add(ctx, lied_sb_encode(b, id.spec, ref->a, id.inst), 0);
      break;
    case LIED_REF_PORT: {
      const double *p = PTR_AT(inst, ref->offset);
      uint64_t i2;
      uint32_t off2, skip;
      int s2 = lied_model_locate(b->m, b->order, b->norder, p, &i2, &off2);
      if (s2 < 0) break; /* zeros of an optional input */
      i2 = lied_sb_wmap(b, id.spec, id.inst, s2, i2);
      const lied_template *t2 = &b->m->specs[s2].tpl;
      /* every block writing a variable the reference reads (dependencies
       * per variable: lied_meta_reads, lied_meta_writes) */
      const uint32_t w = lied_tref_read_bytes(t, ref, &skip), lo = off2 + skip;
      int any = 0;
      for (int r2 = lied_template_out_from(t2, lo); r2 < t2->nouts && t2->outs[r2].lo < lo + w;
           r2++) {
        any = 1;
        if (i2 != id.inst) fl |= NF_XINST;
        if (add) add(ctx, lied_sb_encode(b, s2, t2->outs[r2].block, i2), 0);
      }
      if (!any && (s2 != id.spec || i2 != id.inst)) {
        for (int q = 0; q < t2->nstates; q++)
          if (t2->states[q].x == lo) fl |= NF_XSTATE;
      }
      break;
    }
    default:
      break;
    }
  }
  for (uint32_t r = blk->out0; r < blk->out0 + blk->nout; r++)
    for (int q = 0; q < t->nstates; q++)
      if (t->refs[r].offset == t->states[q].der) fl |= NF_DER;
  return fl;
}

typedef struct fill_ctx {
  uint32_t *adj;
  uint8_t *tearbit;
  uint32_t n;
} fill_ctx;

static void fill_dep(void *ctx, uint32_t u, int tear) {
  fill_ctx *f = ctx;
  if (tear) f->tearbit[f->n >> 3] |= (uint8_t)(1u << (f->n & 7));
  f->adj[f->n++] = u;
}

int lied_sb_build_graph(lied_sb *b) {
  lied_model *m = b->m;
  lied_err *e = b->e;
  b->bspec = lied_xmalloc(sizeof(int) * (size_t)m->nspecs, "specs", e);
  b->nbase = lied_xmalloc(sizeof(uint64_t) * (size_t)m->nspecs, "specs", e);
  if (!b->bspec || !b->nbase) return LIED_E_NOMEM;
  uint64_t n = 0;
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (!sp->cls || !sp->tpl.nblocks || !sp->total) continue;
    b->bspec[b->nbspec] = s;
    b->nbase[b->nbspec++] = n;
    n += (uint64_t)sp->tpl.nblocks * lied_sb_count(b, sp);
  }
  if (n >= UINT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "model too large: %llu block instances (limit %u)",
                     (unsigned long long)n, UINT32_MAX - 1);
  b->nnodes = (uint32_t)n;
  b->flags = lied_xcalloc(n, 1, "node flags", e);
  if (!b->flags) return LIED_E_NOMEM;
  /* one resolution pass into an upper bound (every input reference gives at
   * most one edge), then shrink */
  uint64_t ub = 0;
  for (int i = 0; i < b->nbspec; i++) {
    const lied_template *t = &m->specs[b->bspec[i]].tpl;
    uint64_t refs = 0;
    for (int k = 0; k < t->nblocks; k++)
      for (uint32_t r = t->blocks[k].in0; r < t->blocks[k].in0 + t->blocks[k].nin; r++) {
        const lied_tref *ref = &t->refs[r];
        uint32_t skip;
        /* a port reference: one edge per block writing a variable it reads */
        refs += ref->kind == LIED_REF_PORT ? lied_tref_read_bytes(t, ref, &skip) / sizeof(double)
                : ref->kind == LIED_REF_INTERNAL || ref->kind == LIED_REF_TEAR;
      }
    ub += refs * lied_sb_count(b, &m->specs[b->bspec[i]]);
  }
  if (ub >= UINT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "model too large: %llu dependencies (limit %u)",
                     (unsigned long long)ub, UINT32_MAX - 1);
  LIED_TRY(lied_graph_alloc(&b->g, b->nnodes, (uint32_t)ub, e));
  b->tearbit = lied_xcalloc(ub / 8 + 1, 1, "graph", e);
  if (!b->tearbit) return LIED_E_NOMEM;
  fill_ctx f = {b->g.adj, b->tearbit, 0};
  for (uint32_t v = 0; v < b->nnodes; v++) {
    b->g.rowptr[v] = f.n;
    b->flags[v] = (uint8_t)lied_sb_deps(b, v, fill_dep, &f);
  }
  b->g.rowptr[b->nnodes] = f.n;
  uint64_t ne = f.n;
  if (ne < ub) {
    uint32_t *adj = realloc(b->g.adj, sizeof *adj * (ne ? ne : 1));
    if (adj) b->g.adj = adj;
  }
  b->nedges = ne;
  return LIED_OK;
}

/* "crab[3].revolute2 (Revolute) block kinetic" */
void lied_sb_node_name(const lied_sb *b, uint32_t v, char *buf, size_t cap) {
  node_id id = lied_sb_decode(b, v);
  const lied_spec *s = &b->m->specs[id.spec];
  size_t n = lied_model_path(b->m, id.spec, lied_sb_real(b, id.spec, id.inst), buf, cap);
  if (n < cap)
    snprintf(buf + n, cap - n, " (%s.%s)", s->cls->name, s->tpl.blocks[id.blk].name);
}

/* The connector whose loop_error applies to every component on the cycle. */
static const lied_connector *loop_connector(const lied_sb *b, const uint32_t *path,
                                            long len) {
  node_id id0 = lied_sb_decode(b, path[0]);
  const lied_template *t0 = &b->m->specs[id0.spec].tpl;
  for (int p = 0; p < t0->nports; p++) {
    const lied_connector *c = t0->ports[p].layout->conn;
    if (!c->loop_error) continue;
    int all = 1;
    for (long i = 1; i < len && all; i++) {
      const lied_template *t = &b->m->specs[lied_sb_decode(b, path[i]).spec].tpl;
      int has = 0;
      for (int q = 0; q < t->nports; q++) has |= t->ports[q].layout->conn == c;
      all = has;
    }
    if (all) return c;
  }
  return NULL;
}

int lied_sb_loop_error(lied_sb *b, uint32_t v, const char *what) {
  enum { MAXP = 16 };
  uint32_t path[MAXP];
  long len = lied_scc_cycle(&b->g, b->comp, v, path, MAXP);
  if (len <= 0) len = 1, path[0] = v;
  long shown = len < MAXP ? len : MAXP;
  /* the cycle runs against the dependencies: print it in data-flow order */
  for (long i = 0; i < shown / 2; i++) {
    uint32_t tmp = path[i];
    path[i] = path[shown - 1 - i];
    path[shown - 1 - i] = tmp;
  }
  const lied_connector *c = len <= MAXP ? loop_connector(b, path, shown) : NULL;
  char msg[LIED_ERR_MAX];
  size_t n = (size_t)snprintf(msg, sizeof msg, "%s: ", c ? c->loop_error : what);
  char first[300] = "", prev[300] = "";
  for (long i = 0; i <= shown && n < sizeof msg; i++) {
    char nm[300];
    if (i == shown && len > MAXP) {
      n += (size_t)snprintf(msg + n, sizeof msg - n, " -> ...");
      break;
    }
    uint32_t node = path[i % shown];
    if (c) { /* component paths only */
      node_id id = lied_sb_decode(b, node);
      lied_model_path(b->m, id.spec, lied_sb_real(b, id.spec, id.inst), nm, sizeof nm);
      if (i == shown) snprintf(nm, sizeof nm, "%s", first);
      if (strcmp(nm, prev) == 0 && i < shown) continue;
      if (i == shown && strcmp(prev, first) == 0) break;
    } else {
      lied_sb_node_name(b, node, nm, sizeof nm);
    }
    if (i == 0) snprintf(first, sizeof first, "%s", nm);
    n += (size_t)snprintf(msg + n, sizeof msg - n, "%s%s", i ? " -> " : "", nm);
    snprintf(prev, sizeof prev, "%s", nm);
  }
  return lied_errc(b->e, LIED_E_MODEL, "%s", msg);
}

/* ---- classification -------------------------------------------------------- */

/* Strong components of the graph, their members and levels. */
static int components(lied_sb *b) {
  lied_err *e = b->e;
  const uint32_t n = b->nnodes;
  b->comp = lied_xmalloc(sizeof(uint32_t) * ((size_t)n + 1), "components", e);
  if (!b->comp) return LIED_E_NOMEM;
  LIED_TRY(lied_scc(&b->g, b->comp, &b->ncomp, e));
  b->cstart = lied_xmalloc(sizeof(uint32_t) * ((size_t)b->ncomp + 1), "components", e);
  b->cmem = lied_xmalloc(sizeof(uint32_t) * ((size_t)n + 1), "components", e);
  b->level = lied_xmalloc(sizeof(uint32_t) * ((size_t)b->ncomp + 1), "levels", e);
  b->cflag = lied_xcalloc((size_t)b->ncomp + 1, 1, "components", e);
  if (!b->cstart || !b->cmem || !b->level || !b->cflag) return LIED_E_NOMEM;
  lied_scc_members(&b->g, b->comp, b->ncomp, b->cstart, b->cmem);
  lied_scc_levels(&b->g, b->comp, b->ncomp, b->cstart, b->cmem, b->level);
  return LIED_OK;
}

/* CF_SECTION for cycles, CF_DYN forwards (a component reading states, time
 * or tearing variables, or anything dynamic), in dependency order. */
static void flag_dynamic(lied_sb *b) {
  for (uint32_t c = 0; c < b->ncomp; c++) {
    uint32_t s0 = b->cstart[c], s1 = b->cstart[c + 1];
    if (s1 - s0 > 1 || lied_graph_self_loop(&b->g, b->cmem[s0])) b->cflag[c] |= CF_SECTION;
    for (uint32_t i = s0; i < s1; i++) {
      uint32_t v = b->cmem[i];
      if (b->flags[v] & NF_DYN) b->cflag[c] |= CF_DYN;
      for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++)
        if (b->cflag[b->comp[b->g.adj[k]]] & CF_DYN) b->cflag[c] |= CF_DYN;
    }
  }
}

/* CF_NEED backwards: a component writing a derivative, or read by a needed
 * one. */
static void flag_needed(lied_sb *b) {
  for (uint32_t c = b->ncomp; c-- > 0;) {
    uint32_t s0 = b->cstart[c], s1 = b->cstart[c + 1];
    for (uint32_t i = s0; i < s1; i++)
      if (b->flags[b->cmem[i]] & NF_DER) b->cflag[c] |= CF_NEED;
    if (!(b->cflag[c] & CF_NEED)) continue;
    for (uint32_t i = s0; i < s1; i++) {
      uint32_t v = b->cmem[i];
      for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++)
        b->cflag[b->comp[b->g.adj[k]]] |= CF_NEED;
    }
  }
}

/* NF_EXPORT: section blocks read by dynamic blocks outside their section. */
static void flag_exports(lied_sb *b) {
  for (uint32_t v = 0; v < b->nnodes; v++) {
    if ((b->cflag[b->comp[v]] & (CF_DYN | CF_NEED)) != (CF_DYN | CF_NEED)) continue;
    for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++) {
      uint32_t u = b->g.adj[k];
      if (b->comp[u] != b->comp[v] && (b->cflag[b->comp[u]] & CF_SECTION))
        b->flags[u] |= NF_EXPORT;
    }
  }
}

/* "; it reads a, b" into buf (cap bytes): the components whose blocks node
 * v reads (not its own, nor the framework's sum nodes), each once, at most
 * 6 (then ", ..."); "" when there are none. */
static void reads_of(const lied_sb *b, uint32_t v, char *buf, size_t cap) {
  enum { MOST = 6 };
  const node_id self = lied_sb_decode(b, v);
  node_id seen[MOST];
  int shown = 0;
  size_t n = 0;
  buf[0] = 0;
  for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1] && n < cap; k++) {
    const node_id id = lied_sb_decode(b, b->g.adj[k]);
    int dup = IS_TEAR(b, k) || b->m->specs[id.spec].internal ||
              (id.spec == self.spec && id.inst == self.inst);
    for (int i = 0; i < shown && !dup; i++) dup = seen[i].spec == id.spec && seen[i].inst == id.inst;
    if (dup) continue;
    if (shown == MOST) {
      snprintf(buf + n, cap - n, ", ...");
      break;
    }
    seen[shown] = id;
    char path[512];
    lied_model_path(b->m, id.spec, lied_sb_real(b, id.spec, id.inst), path, sizeof path);
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", shown++ ? ", " : "; it reads ", path);
  }
}

/* A residual must depend on the tearing variables: its block lies in a
 * section. LIED_E_MODEL naming the first that does not, what it reads and
 * its domain's hint (a connector's singular_error: a gear between two
 * prescribed motions, a flow path between two given pressures). */
static int check_residuals(lied_sb *b) {
  for (int i = 0; i < b->nbspec; i++) {
    const lied_spec *sp = &b->m->specs[b->bspec[i]];
    for (int q = 0; q < sp->tpl.ntears; q++)
      for (uint64_t k = 0; k < lied_sb_count(b, sp); k++) {
        uint32_t v = lied_sb_encode(b, b->bspec[i], sp->tpl.tears[q].res_block, k);
        if (b->cflag[b->comp[v]] & CF_SECTION) continue;
        char path[512], reads[700];
        lied_model_path(b->m, b->bspec[i], lied_sb_real(b, b->bspec[i], k), path, sizeof path);
        reads_of(b, v, reads, sizeof reads);
        const char *hint = lied_sched_port_hint(&sp->tpl);
        return lied_errc(b->e, LIED_E_MODEL,
                         "%s: residual %s does not depend on the tearing variables "
                         "(tearing pair %s, %s of %s)%s%s%s",
                         path, sp->tpl.vars[sp->tpl.tears[q].res_var].name,
                         sp->tpl.vars[sp->tpl.tears[q].tear_var].name,
                         sp->tpl.vars[sp->tpl.tears[q].res_var].name, sp->cls->name, reads,
                         hint ? "; " : "", hint ? hint : "");
      }
  }
  return LIED_OK;
}

int lied_sb_classify(lied_sb *b) {
  LIED_TRY(components(b));
  flag_dynamic(b);
  flag_needed(b);
  flag_exports(b);
  return check_residuals(b);
}

void lied_sb_free(lied_sb *b) {
  for (int i = 0; b->secb && i < b->s->nsecs; i++) {
    free(b->secb[i].first);
    free(b->secb[i].mexp);
  }
  free(b->secb);
  free(b->wshrunk);
  free(b->order);
  free(b->bspec);
  free(b->nbase);
  free(b->flags);
  free(b->tearbit);
  free(b->comp);
  free(b->cstart);
  free(b->cmem);
  free(b->level);
  free(b->cflag);
  lied_graph_free(&b->g);
}

