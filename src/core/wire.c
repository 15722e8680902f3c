/* wire.c - wiring of an instantiated model: each declared connection is
 * resolved once to (leaf spec, offset, multiplier, port), following port
 * aliases, and applied to every instance of its composite; sum nodes where a
 * branching connector's upstream signal has several contributions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model.h"
#include "core/text.h"
#include "core/sum.h"
#include "core/wire.h"

typedef lied_endpoint endpoint;

/* Port `path` of leaf spec x, or LIED_E_MODEL with the closest port name. */
static int leaf_port(const lied_model *m, int x, const char *path, endpoint *ep, lied_err *e) {
  const lied_spec *xs = &m->specs[x];
  int p = lied_template_port(&xs->tpl, path);
  if (p < 0) {
    const char *cand[256];
    int nc = 0;
    for (int i = 0; i < xs->tpl.nports && nc < 256; i++) cand[nc++] = xs->tpl.ports[i].name;
    char dym[300];
    return lied_errc(e, LIED_E_MODEL, "%s has no port '%s'%s", xs->cls->name, path,
                     lied_did_you_mean(dym, sizeof dym, path, cand, nc));
  }
  *ep = (endpoint){x, 0, 1, p};
  return LIED_OK;
}

/* The target of port alias `name` of composite xs, or NULL. */
static const char *alias_target(const lied_spec *xs, const char *name) {
  for (int a = 0; a < xs->naliases; a++)
    if (strcmp(xs->aliases[a].name, name) == 0) return xs->aliases[a].target;
  return NULL;
}

/* A plain name that is no alias of composite x: LIED_E_MODEL saying what it
 * is instead, or LIED_OK for the root without aliases, whose children's
 * ports are named without a dot only in error (the child step says why). */
static int not_an_alias(const lied_model *m, int x, const char *path, lied_err *e) {
  const lied_spec *xs = &m->specs[x];
  const size_t len = strcspn(path, "[");
  if (lied_model_child(m, x, path, len) >= 0)
    return lied_errc(e, LIED_E_MODEL, "'%s' is a component, not a port", path);
  if (xs->naliases || x != 0) return lied_errc(e, LIED_E_MODEL, "no port '%s'", path);
  return LIED_OK;
}

/* An endpoint: a leaf's port; for a composite, an alias or the port of a
 * child ("child[i].port"), instance index x * mult + loc of the leaf for
 * instance x of spec x. LIED_E_MODEL for names that are not ports. */
int lied_wire_resolve(const lied_model *m, int x, const char *path, endpoint *ep, int depth,
                      lied_err *e) {
  if (depth > 32) return lied_errc(e, LIED_E_MODEL, "port aliases nest too deep at '%s'", path);
  const lied_spec *xs = &m->specs[x];
  if (xs->cls) return leaf_port(m, x, path, ep, e);
  if (!strchr(path, '.')) {
    const char *target = alias_target(xs, path);
    if (target) return lied_wire_resolve(m, x, target, ep, depth + 1, e);
    LIED_TRY(not_an_alias(m, x, path, e));
  }
  const char *p = path;
  uint64_t j = 0;
  int c;
  LIED_TRY(lied_spec_step(m, x, &p, &j, &c, e));
  if (!*p) return lied_errc(e, LIED_E_MODEL, "'%s' is a component, not a port", path);
  endpoint sub;
  LIED_TRY(lied_wire_resolve(m, c, p, &sub, depth + 1, e));
  *ep = (endpoint){sub.spec, j * sub.mult + sub.loc, m->specs[c].count * sub.mult, sub.port};
  return LIED_OK;
}

static void describe(const lied_model *m, const int *order, int norder,
                     const void *p, char *buf, size_t cap) {
  uint64_t i;
  uint32_t off;
  int s = lied_model_locate(m, order, norder, p, &i, &off);
  if (s < 0) {
    snprintf(buf, cap, "(unknown)");
    return;
  }
  size_t n = lied_model_path(m, s, i, buf, cap);
  const lied_template *t = &m->specs[s].tpl;
  for (int q = 0; q < t->nports; q++) {
    const lied_port_layout *l = t->ports[q].layout;
    for (int j = 0; j < l->conn->nsignals; j++)
      if (l->offset[j] != LIED_ABSENT && t->ports[q].offset + l->offset[j] == off && n < cap) {
        snprintf(buf + n, cap - n, "%s%s", n ? "." : "", t->ports[q].name);
        return;
      }
  }
}

static void port_name(const lied_model *m, int s, uint64_t i, int port,
                      char *buf, size_t cap) {
  size_t n = lied_model_path(m, s, i, buf, cap);
  if (n < cap)
    snprintf(buf + n, cap - n, "%s%s", n ? "." : "",
             m->specs[s].tpl.ports[port].name);
}

#define PTR_AT(inst, off) (*(const double **)(void *)((inst) + (off)))

/* ---- wiring ------------------------------------------------------------------ */

typedef struct wire_ctx {
  lied_model *m;
  lied_err *e;
  uint16_t **fan; /* per spec * max ports: fan-out counts of source ports */
  int maxports;
  int *order;
  int norder;
} wire_ctx;

static uint16_t *fan_of(wire_ctx *w, int s, int p) {
  uint16_t **slot = &w->fan[s * w->maxports + p];
  if (!*slot)
    *slot = lied_xcalloc(w->m->specs[s].total, sizeof(uint16_t), "fan-out counts", w->e);
  return *slot;
}

/* Orient a declared connection: *a becomes the SOURCE side. LIED_E_MODEL
 * for ports of different connectors or of the same side. */
static int orient(wire_ctx *w, const lied_conn_decl *d, endpoint *a, endpoint *b) {
  lied_model *m = w->m;
  const lied_port_layout *la = m->specs[a->spec].tpl.ports[a->port].layout;
  const lied_port_layout *lb = m->specs[b->spec].tpl.ports[b->port].layout;
  char where[300] = "";
  if (d->where) snprintf(where, sizeof where, "%s: ", d->where);
  if (la->conn != lb->conn) {
    const char *hint = la->conn->incompatible_hint ? la->conn->incompatible_hint
                                                   : lb->conn->incompatible_hint;
    return lied_errc(w->e, LIED_E_MODEL, "%sincompatible ports: %s is %s, %s is %s%s%s", where,
                     d->a, la->conn->name, d->b, lb->conn->name, hint ? "; " : "",
                     hint ? hint : "");
  }
  if (la->side == lb->side) {
    const char *side = la->conn->side_name[la->side];
    return lied_errc(w->e, LIED_E_MODEL,
                     "%scannot connect %s to %s: both are %s ports of %s (connect %s to %s)",
                     where, d->a, d->b, side, la->conn->name, la->conn->side_name[0],
                     la->conn->side_name[1]);
  }
  if (la->side == LIED_SINK) {
    endpoint t = *a;
    *a = *b;
    *b = t;
  }
  return LIED_OK;
}

/* One connection between instance is of the source and ik of the sink. */
typedef struct link {
  const lied_conn_decl *d;
  endpoint src, snk;
  uint64_t is, ik;
  char *si, *ki; /* the two instances */
  const lied_tport *sp, *kp;
} link;

static link make_link(const lied_model *m, const lied_conn_decl *d, endpoint src, endpoint snk,
                      uint64_t x) {
  lied_spec *ss = &m->specs[src.spec], *ks = &m->specs[snk.spec];
  link l = {d, src, snk, x * src.mult + src.loc, x * snk.mult + snk.loc, NULL, NULL,
            &ss->tpl.ports[src.port], &ks->tpl.ports[snk.port]};
  l.si = lied_inst(ss, l.is);
  l.ki = lied_inst(ks, l.ik);
  return l;
}

static int endpoints(wire_ctx *w, int s, const lied_conn_decl *d, endpoint *a, endpoint *b);
static int pattern_ends(wire_ctx *w, int s, const lied_conn_decl *d, lied_pend *pa, lied_pend *pb,
                        int *swap);

/* Does declaration d of composite s (oriented endpoints src, snk) make the
 * link of l, for some instance of s? */
static int makes_link(const lied_model *m, int s, endpoint src, endpoint snk, const link *l) {
  if (src.spec != l->src.spec || src.port != l->src.port || snk.spec != l->snk.spec ||
      snk.port != l->snk.port || l->is < src.loc || (l->is - src.loc) % src.mult)
    return 0;
  uint64_t x = (l->is - src.loc) / src.mult;
  return x < m->specs[s].total && x * snk.mult + snk.loc == l->ik;
}

/* The link l is already made: a connection declared twice (after
 * resolution: either order of its ends, port aliases, array elements,
 * several composite levels). LIED_E_MODEL naming both declarations. */
/* The first declaration, in declaration order, that makes link l (its spec
 * in *fs; for a pattern, the point " (at i = ...)" in point, 128 bytes), or
 * NULL. */
static const lied_conn_decl *first_declaration(wire_ctx *w, const link *l, int *fs,
                                               char *point) {
  lied_model *m = w->m;
  const lied_conn_decl *first = NULL;
  lied_err scratch = {0};
  lied_err *keep = w->e;
  w->e = &scratch; /* resolving the others must not overwrite the message */
  for (int s = 0; s < m->nspecs && !first; s++)
    for (int k = 0; k < m->specs[s].nconns && !first; k++) {
      const lied_conn_decl *d = &m->specs[s].conns[k];
      if (d == l->d && !d->nloop) break;
      endpoint a, b;
      if (d->nloop) { /* a pattern (also the one being wired: an earlier point) */
        lied_pend pa, pb;
        int swap;
        int64_t var[LIED_MAX_LOOP];
        if (!lied_loop_start(d->loop, d->nloop, var) || pattern_ends(w, s, d, &pa, &pb, &swap) < 0)
          continue;
        for (int ok = lied_loop_start(d->loop, d->nloop, var); ok && !first;
             ok = lied_loop_next(d->loop, d->nloop, var)) {
          if (lied_pattern_at(&pa, var, d->wrap, swap ? &b : &a, &scratch) ||
              lied_pattern_at(&pb, var, d->wrap, swap ? &a : &b, &scratch))
            continue;
          if (makes_link(m, s, a, b, l)) {
            first = d, *fs = s;
            lied_loop_point(d->loop, d->nloop, var, point + 5, 128 - 6);
            memcpy(point, " (at ", 5);
            strcat(point, ")");
          }
        }
        if (d == l->d) break;
        continue;
      }
      if (endpoints(w, s, d, &a, &b) < 0) continue;
      if (makes_link(m, s, a, b, l)) {
        first = d, *fs = s;
        break;
      }
    }
  w->e = keep;
  return first;
}

static int declared_twice(wire_ctx *w, const link *l) {
  lied_model *m = w->m;
  int fs = 0;
  char point[128] = "";
  const lied_conn_decl *first = first_declaration(w, l, &fs, point);
  char src[256], snk[256], here[512], there[512];
  port_name(m, l->src.spec, l->is, l->src.port, src, sizeof src);
  port_name(m, l->snk.spec, l->ik, l->snk.port, snk, sizeof snk);
  int s2 = 0;
  for (int s = 0; s < m->nspecs; s++)
    if (m->specs[s].nconns > 0 && l->d >= m->specs[s].conns &&
        l->d < m->specs[s].conns + m->specs[s].nconns)
      s2 = s;
  lied_spec_path(m, s2, here, sizeof here);
  if (s2 == 0) snprintf(here, sizeof here, "%s", m->specs[0].name);
  if (first) lied_spec_path(m, fs, there, sizeof there);
  if (first && fs == 0) snprintf(there, sizeof there, "%s", m->specs[0].name);
  return lied_errc(w->e, LIED_E_MODEL,
                   "%s%sconnection declared twice: connect {\"%.200s\", \"%.200s\"} in %s joins "
                   "%s and %s, already joined by connect {\"%.200s\", \"%.200s\"}%s in %s%s%s "
                   "(a second connection would count the same link twice)",
                   l->d->where ? l->d->where : "", l->d->where ? ": " : "", l->d->a, l->d->b,
                   here, src, snk, first ? first->a : "?", first ? first->b : "?", point,
                   first ? there : "?", first && first->where ? " at " : "",
                   first && first->where ? first->where : "");
}

/* Signal j of link l where a port lacks it (LIED_ABSENT): 1 when the link
 * has nothing to bind for it (the reading side, `reader`, lacks it; or the
 * writing side does and the reader, the signal being optional, reads
 * zeros), 0 when both ports have it, -1 (LIED_E_MODEL) when the reader
 * needs what the writer does not have. */
static int absent_signal(wire_ctx *w, const link *l, int j, int reader) {
  const lied_tport *rp = reader == LIED_SINK ? l->kp : l->sp;
  const lied_tport *wp = reader == LIED_SINK ? l->sp : l->kp;
  if (rp->layout->offset[j] == LIED_ABSENT) return 1;
  if (wp->layout->offset[j] != LIED_ABSENT) return 0;
  const lied_signal *sg = &rp->layout->conn->signals[j];
  char *ri = reader == LIED_SINK ? l->ki : l->si;
  if ((sg->flags & LIED_SIG_OPTIONAL) || (rp->layout->flags & LIED_PORT_OPTIONAL)) {
    PTR_AT(ri, rp->offset + rp->layout->offset[j]) = lied_port_zeros;
    return 1;
  }
  char a[256], b[256];
  const endpoint *re = reader == LIED_SINK ? &l->snk : &l->src, *we = reader == LIED_SINK ? &l->src : &l->snk;
  port_name(w->m, re->spec, reader == LIED_SINK ? l->ik : l->is, re->port, a, sizeof a);
  port_name(w->m, we->spec, reader == LIED_SINK ? l->is : l->ik, we->port, b, sizeof b);
  lied_errc(w->e, LIED_E_MODEL,
            "%s%sconnect {\"%s\", \"%s\"}: %s reads the signal %s (%s) of the %s connection, "
            "which %s does not have",
            l->d->where ? l->d->where : "", l->d->where ? ": " : "", l->d->a, l->d->b, a,
            sg->name, sg->vars, rp->layout->conn->name, b);
  return -1;
}

/* The sink's reading pointers of the DOWN signals, to the source's storage;
 * LIED_E_MODEL when one is already fed by something else, or by this same
 * source (a connection declared twice). */
static int set_down(wire_ctx *w, const link *l) {
  const lied_connector *c = l->sp->layout->conn;
  for (int j = 0; j < c->nsignals; j++) {
    if (c->signals[j].dir != LIED_DOWN) continue;
    int absent = absent_signal(w, l, j, LIED_SINK);
    if (absent < 0) return LIED_E_MODEL;
    if (absent) continue;
    const double **ptr = &PTR_AT(l->ki, l->kp->offset + l->kp->layout->offset[j]);
    const double *data = (const double *)(void *)(l->si + l->sp->offset + l->sp->layout->offset[j]);
    if (*ptr == data) return declared_twice(w, l);
    if (*ptr && *ptr != data) {
      char a[256], b[256], k[256];
      describe(w->m, w->order, w->norder, *ptr, a, sizeof a);
      port_name(w->m, l->src.spec, l->is, l->src.port, b, sizeof b);
      port_name(w->m, l->snk.spec, l->ik, l->snk.port, k, sizeof k);
      return lied_errc(w->e, LIED_E_MODEL, "%s%sinput connected twice: %s is fed by %s and %s",
                       l->d->where ? l->d->where : "", l->d->where ? ": " : "", k, a, b);
    }
    *ptr = data;
  }
  return LIED_OK;
}

/* Does the connector have a signal travelling upstream (whose contributions
 * a sum node adds, one input per connection)? */
static int has_up_signal(const lied_connector *c) {
  for (int j = 0; j < c->nsignals; j++)
    if (c->signals[j].dir == LIED_UP) return 1;
  return 0;
}

/* Count the connection at the source port; LIED_E_MODEL for a second one
 * where the connector does not branch; LIED_E_LIMIT beyond 65,535 where
 * the connections' upstream signals are summed (a sum node's inputs). A
 * connector with downstream signals only (a real signal feeding the inputs
 * of 100,000 houses) takes any number: the count stays at its limit. */
static int count_fan(wire_ctx *w, const link *l, uint16_t *fan) {
  const lied_connector *c = l->sp->layout->conn;
  if (fan[l->is] == UINT16_MAX) {
    if (!has_up_signal(c)) return LIED_OK;
    return lied_errc(w->e, LIED_E_LIMIT,
                     "too many connections at one port (at most 65,535 where the "
                     "connector's upstream signals are summed)");
  }
  fan[l->is]++;
  if (fan[l->is] == 2 && !c->branching) {
    char a[256], b[256];
    port_name(w->m, l->src.spec, l->is, l->src.port, a, sizeof a);
    port_name(w->m, l->snk.spec, l->ik, l->snk.port, b, sizeof b);
    return lied_errc(w->e, LIED_E_MODEL,
                     "%s%sbranching is not allowed for %s connectors: %s feeds "
                     "more than one %s (%s is the second)%s%s",
                     l->d->where ? l->d->where : "", l->d->where ? ": " : "", c->name, a,
                     c->side_name[1], b, c->no_branching_hint ? "; " : "",
                     c->no_branching_hint ? c->no_branching_hint : "");
  }
  return LIED_OK;
}

/* The source's reading pointers of the UP signals, to the sink's storage
 * (the first contribution; more go through a sum node, wire_pass3). */
static int set_up(wire_ctx *w, const link *l) {
  const lied_connector *c = l->sp->layout->conn;
  for (int j = 0; j < c->nsignals; j++) {
    if (c->signals[j].dir != LIED_UP) continue;
    int absent = absent_signal(w, l, j, LIED_SOURCE);
    if (absent < 0) return LIED_E_MODEL;
    if (!absent)
      PTR_AT(l->si, l->sp->offset + l->sp->layout->offset[j]) =
          (const double *)(void *)(l->ki + l->kp->offset + l->kp->layout->offset[j]);
  }
  return LIED_OK;
}

/* Do the two ends agree on what they carry besides their signals (the
 * connector's compatible, on the data both ports declared)? */
static int check_compatible(wire_ctx *w, const link *l) {
  const lied_connector *c = l->sp->layout->conn;
  if (!c->compatible || l->sp->data == UINT32_MAX || l->kp->data == UINT32_MAX) return LIED_OK;
  char why[256] = "";
  if (c->compatible(l->si + l->sp->data, l->ki + l->kp->data, why, sizeof why) == 0)
    return LIED_OK;
  char a[256], b[256];
  port_name(w->m, l->src.spec, l->is, l->src.port, a, sizeof a);
  port_name(w->m, l->snk.spec, l->ik, l->snk.port, b, sizeof b);
  return lied_errc(w->e, LIED_E_MODEL, "%s%scannot connect %s to %s: %s",
                   l->d->where ? l->d->where : "", l->d->where ? ": " : "", a, b, why);
}

/* Pass 1 over every instance of composite comp: DOWN pointers, fan-out
 * counts, first UP contribution. */
static int wire_pass1(wire_ctx *w, int comp, const lied_conn_decl *d, endpoint src,
                      endpoint snk) {
  uint16_t *fan = fan_of(w, src.spec, src.port);
  if (!fan) return LIED_E_NOMEM;
  const uint64_t n = w->m->specs[comp].total;
  for (uint64_t x = 0; x < n; x++) {
    const link l = make_link(w->m, d, src, snk, x);
    LIED_TRY(set_down(w, &l)); /* first: a signal one end lacks has its own message */
    LIED_TRY(check_compatible(w, &l));
    LIED_TRY(count_fan(w, &l, fan));
    if (fan[l.is] == 1) LIED_TRY(set_up(w, &l));
  }
  return LIED_OK;
}

/* Pass 3: UP contributions of branched sources go into their sum nodes. */
static int wire_pass3(wire_ctx *w, int comp, const lied_conn_decl *d, endpoint src,
                      endpoint snk) {
  const uint16_t *fan = w->fan[src.spec * w->maxports + src.port];
  const uint64_t n = w->m->specs[comp].total;
  for (uint64_t x = 0; x < n; x++) {
    const link l = make_link(w->m, d, src, snk, x);
    if (fan[l.is] < 2) continue;
    const lied_connector *c = l.sp->layout->conn;
    int down = 0;
    for (int j = 0; j < c->nsignals; j++) down |= c->signals[j].dir == LIED_DOWN;
    for (int j = 0; j < c->nsignals; j++) {
      if (c->signals[j].dir != LIED_UP || l.sp->layout->offset[j] == LIED_ABSENT ||
          l.kp->layout->offset[j] == LIED_ABSENT)
        continue;
      const double *out = PTR_AT(l.si, l.sp->offset + l.sp->layout->offset[j]);
      /* the source reads the sums of its node, behind the node's fan[is] inputs */
      lied_sum *sum = (lied_sum *)(void *)((char *)(uintptr_t)out - lied_sum_size(fan[l.is], 0));
      const double *in = (const double *)(void *)(l.ki + l.kp->offset + l.kp->layout->offset[j]);
      /* a connector without DOWN signals: set_down cannot see a connection
       * declared twice; the node would add the same contribution twice */
      for (uint32_t q = 0; !down && q < sum->filled; q++)
        if (sum->in[q] == in) return declared_twice(w, &l);
      sum->in[sum->filled++] = in;
    }
  }
  return LIED_OK;
}

/* The sum nodes of the cnt instances of source spec s whose port p has k
 * contributions: one internal spec, its template, its arena of prototype
 * copies; the sources read their node's sums (signal j). */
static int add_sums(wire_ctx *w, int s, int p, int j, uint32_t k, uint64_t cnt) {
  lied_model *m = w->m;
  const uint16_t *fan = w->fan[s * w->maxports + p];
  const lied_signal *sg = &m->specs[s].tpl.ports[p].layout->conn->signals[j];
  char path[512], name[600];
  lied_spec_path(m, s, path, sizeof path);
  snprintf(name, sizeof name, "(sum at %s.%s)", path, m->specs[s].tpl.ports[p].name);
  int id = lied_model_add_internal(m, name, &lied_sum_class, cnt,
                                   lied_sum_size(k, (uint32_t)sg->nvars), w->e);
  if (id < 0) return id;
  lied_spec *sum = &m->specs[id], *ss = &m->specs[s]; /* the specs may have moved */
  const lied_tport *sp = &ss->tpl.ports[p];
  lied_sum *proto = (lied_sum *)(void *)sum->proto;
  proto->k = k;
  proto->w = (uint32_t)sg->nvars;
  LIED_TRY(lied_template_crawl(&sum->tpl, sum->cls, sum->proto, sum->size, w->e));
  sum->arena = lied_xmalloc(sum->total * sum->size, "sum nodes", w->e);
  if (!sum->arena) return LIED_E_NOMEM;
  uint64_t q = 0;
  for (uint64_t i = 0; i < ss->total; i++) {
    if (fan[i] != k) continue;
    char *inst = lied_inst(sum, q++);
    memcpy(inst, sum->proto, sum->size);
    PTR_AT(lied_inst(ss, i), sp->offset + sp->layout->offset[j]) =
        lied_sum_out((lied_sum *)(void *)inst);
  }
  return LIED_OK;
}

/* Sum nodes for UP signal j of port p of spec s: one spec per distinct
 * fan-out k >= 2, smallest first. LIED_E_MODEL when the signal does not
 * add up. */
static int sums_for_signal(wire_ctx *w, int s, int p, int j) {
  const uint16_t *fan = w->fan[s * w->maxports + p];
  const uint64_t total = w->m->specs[s].total;
  const lied_connector *c = w->m->specs[s].tpl.ports[p].layout->conn;
  for (uint32_t k = 1;;) {
    uint32_t next = UINT32_MAX;
    uint64_t cnt = 0;
    for (uint64_t i = 0; i < total; i++) {
      if (fan[i] > k && fan[i] < next) next = fan[i], cnt = 0;
      if (fan[i] == next) cnt++;
    }
    if (next == UINT32_MAX) return LIED_OK;
    k = next;
    if (!(c->signals[j].flags & LIED_SIG_SUM))
      return lied_errc(w->e, LIED_E_MODEL, "signal %s of %s cannot take several contributions",
                       c->signals[j].name, c->name);
    LIED_TRY(add_sums(w, s, p, j, k, cnt));
  }
}

/* Pass 2: sum nodes for every (source spec, port, UP signal, fan-out). */
static int make_sums(wire_ctx *w) {
  const int nuser = w->m->nspecs;
  for (int s = 0; s < nuser; s++)
    for (int p = 0; p < w->maxports; p++) {
      if (!w->fan[s * w->maxports + p]) continue;
      const lied_connector *c = w->m->specs[s].tpl.ports[p].layout->conn;
      for (int j = 0; j < c->nsignals; j++)
        if (c->signals[j].dir == LIED_UP &&
            w->m->specs[s].tpl.ports[p].layout->offset[j] != LIED_ABSENT)
          LIED_TRY(sums_for_signal(w, s, p, j));
    }
  return LIED_OK;
}

/* Every reading pointer must be connected, or optional (then zeros). */
static int check_unconnected(lied_model *m, int nuser, lied_err *e) {
  for (int s = 0; s < nuser; s++) {
    lied_spec *sp = &m->specs[s];
    if (!sp->cls) continue;
    for (int p = 0; p < sp->tpl.nports; p++) {
      const lied_tport *tp = &sp->tpl.ports[p];
      const lied_connector *c = tp->layout->conn;
      for (int j = 0; j < c->nsignals; j++) {
        const lied_signal *sg = &c->signals[j];
        int writes = (sg->dir == LIED_DOWN) == (tp->layout->side == LIED_SOURCE);
        if (writes || tp->layout->offset[j] == LIED_ABSENT) continue;
        uint32_t off = tp->offset + (uint32_t)tp->layout->offset[j];
        for (uint64_t i = 0; i < sp->total; i++) {
          const double **ptr = &PTR_AT(lied_inst(sp, i), off);
          if (*ptr) continue;
          if ((sg->flags & LIED_SIG_OPTIONAL) || (tp->layout->flags & LIED_PORT_OPTIONAL)) {
            *ptr = lied_port_zeros;
            continue;
          }
          char name[512];
          port_name(m, s, i, p, name, sizeof name);
          return lied_errc(e, LIED_E_MODEL,
                           "%s%sunconnected %s: %s (every %s %s needs a connection)",
                           sp->where ? sp->where : "", sp->where ? ": " : "",
                           c->side_name[tp->layout->side], name, c->name,
                           c->side_name[tp->layout->side]);
        }
      }
    }
  }
  return LIED_OK;
}

/* The oriented endpoints of connection d of composite s, or LIED_E_MODEL
 * prefixed with the connection. */
static int endpoints(wire_ctx *w, int s, const lied_conn_decl *d, endpoint *a, endpoint *b) {
  if (lied_wire_resolve(w->m, s, d->a, a, 0, w->e) < 0 ||
      lied_wire_resolve(w->m, s, d->b, b, 0, w->e) < 0) {
    char cpath[512];
    lied_spec_path(w->m, s, cpath, sizeof cpath);
    return lied_err_prefix(w->e, "%s%sin %s, connect {\"%s\", \"%s\"}: ",
                           d->where ? d->where : "", d->where ? ": " : "", cpath, d->a, d->b);
  }
  return orient(w, d, a, b);
}

/* The path of composite s for messages, the model's name for the root. */
static void comp_name(const lied_model *m, int s, char *buf, size_t cap) {
  if (s == 0)
    snprintf(buf, cap, "%s", m->specs[0].name);
  else
    lied_spec_path(m, s, buf, cap);
}

/* The two ends of connection pattern d of composite s, resolved; *swap
 * when the second is the source. LIED_E_MODEL prefixed with the pattern. */
static int pattern_ends(wire_ctx *w, int s, const lied_conn_decl *d, lied_pend *pa, lied_pend *pb,
                        int *swap) {
  if (lied_pattern_resolve(w->m, s, d->a, d->loop, d->nloop, pa, w->e) < 0 ||
      lied_pattern_resolve(w->m, s, d->b, d->loop, d->nloop, pb, w->e) < 0) {
    char cpath[512];
    comp_name(w->m, s, cpath, sizeof cpath);
    return lied_err_prefix(w->e, "%s%sin %s, connect pattern {\"%s\", \"%s\"}: ",
                           d->where ? d->where : "", d->where ? ": " : "", cpath, d->a, d->b);
  }
  endpoint a = pa->ep0, b = pb->ep0;
  LIED_TRY(orient(w, d, &a, &b));
  *swap = w->m->specs[pa->ep0.spec].tpl.ports[pa->ep0.port].layout->side == LIED_SINK;
  return LIED_OK;
}

/* Pass 1 or 3 of connection pattern d of composite s: every point of its
 * loops, the two ends computed from the resolved pattern (no string). */
static int pattern_pass(wire_ctx *w, int s, const lied_conn_decl *d, int pass) {
  lied_pend pa, pb;
  int swap;
  int64_t var[LIED_MAX_LOOP];
  if (!lied_loop_start(d->loop, d->nloop, var)) return LIED_OK; /* no point: nothing to resolve */
  LIED_TRY(pattern_ends(w, s, d, &pa, &pb, &swap));
  for (int ok = 1; ok; ok = lied_loop_next(d->loop, d->nloop, var)) {
    endpoint a, b;
    if (lied_pattern_at(&pa, var, d->wrap, swap ? &b : &a, w->e) < 0 ||
        lied_pattern_at(&pb, var, d->wrap, swap ? &a : &b, w->e) < 0) {
      char cpath[512], pt[128];
      comp_name(w->m, s, cpath, sizeof cpath);
      lied_loop_point(d->loop, d->nloop, var, pt, sizeof pt);
      return lied_err_prefix(w->e, "%s%sin %s, connect pattern {\"%s\", \"%s\"} at %s: ",
                             d->where ? d->where : "", d->where ? ": " : "", cpath, d->a, d->b, pt);
    }
    LIED_TRY(pass == 1 ? wire_pass1(w, s, d, a, b) : wire_pass3(w, s, d, a, b));
  }
  return LIED_OK;
}

/* Pass 1 or 3 over every declared connection of the user's specs. */
static int connection_pass(wire_ctx *w, int nuser, int pass) {
  for (int s = 0; s < nuser; s++) {
    const lied_spec *sp = &w->m->specs[s];
    for (int k = 0; k < sp->nconns; k++) {
      const lied_conn_decl *d = &sp->conns[k];
      if (d->nloop) {
        LIED_TRY(pattern_pass(w, s, d, pass));
        continue;
      }
      endpoint a, b;
      LIED_TRY(endpoints(w, s, d, &a, &b));
      LIED_TRY(pass == 1 ? wire_pass1(w, s, d, a, b) : wire_pass3(w, s, d, a, b));
    }
  }
  return LIED_OK;
}

/* Wiring: reading pointers set (pass 1), sum nodes at branches (pass 2),
 * their inputs (pass 3), unconnected readers checked. */
int lied_model_wire(lied_model *m, lied_err *e) {
  const int nuser = m->nspecs;
  wire_ctx w = {m, e, NULL, 1, NULL, 0};
  for (int s = 0; s < nuser; s++)
    if (m->specs[s].cls && m->specs[s].tpl.nports > w.maxports)
      w.maxports = m->specs[s].tpl.nports;
  w.fan = lied_xcalloc((size_t)nuser * (size_t)w.maxports, sizeof *w.fan, "fan", e);
  w.order = lied_model_arena_order(m, &w.norder, e);
  int rc = (!w.fan || !w.order) ? LIED_E_NOMEM : LIED_OK;
  if (rc == LIED_OK) rc = connection_pass(&w, nuser, 1);
  if (rc == LIED_OK) rc = make_sums(&w);
  if (rc == LIED_OK) rc = connection_pass(&w, nuser, 3);
  if (rc == LIED_OK) rc = check_unconnected(m, nuser, e);
  if (w.fan)
    for (int i = 0; i < nuser * w.maxports; i++) free(w.fan[i]);
  free(w.fan);
  free(w.order);
  return rc;
}

