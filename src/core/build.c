/* build.c - instantiation: one prototype per declared component, copied into
 * a contiguous arena per spec; wiring of connections (with framework sums
 * where a branching connector's upstream signal has several contributions). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model.h"

const double lied_port_zeros[LIED_MAX_SIGNAL_VARS];

struct lied_init {
  lied_err *e;
  const char *path;
  int failed;
};

void lied_init_error(lied_init *ctx, const char *fmt, ...) {
  char msg[LIED_ERR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ctx->failed = 1;
  lied_errf(ctx->e, "%s: %s", ctx->path, msg);
}

/* ---- the sum node: a framework class ------------------------------------ */

/* k input pointers, then the w sums: sizeof(lied_sum) + k pointers + w
 * doubles per node (a planar force branch of two: 56 bytes). */
typedef struct lied_sum {
  uint32_t k, w; /* contributions, doubles per signal */
  uint32_t filled;
  uint32_t pad;
  const double *in[]; /* k pointers, then w doubles of output */
} lied_sum;

static inline double *sum_out(lied_sum *s) { return (double *)(void *)(s->in + s->k); }
static inline size_t sum_size(uint32_t k, uint32_t w) {
  return sizeof(lied_sum) + k * sizeof(const double *) + w * sizeof(double);
}

static void sum_eval(const lied_env *env, lied_sum *s) {
  (void)env;
  double *out = sum_out(s);
  for (uint32_t v = 0; v < s->w; v++) {
    double acc = 0;
    for (uint32_t j = 0; j < s->k; j++) acc += s->in[j][v];
    out[v] = acc;
  }
}
LIED_BLOCK(sum_block, lied_sum, sum_eval)

/* The common branch: two contributions of three values (a planar force). */
static void sum23_eval(const lied_env *env, lied_sum *s) {
  (void)env;
  const double *a = s->in[0], *b = s->in[1];
  double *out = (double *)(void *)(s->in + 2);
  out[0] = a[0] + b[0];
  out[1] = a[1] + b[1];
  out[2] = a[2] + b[2];
}
LIED_BLOCK(sum23_block, lied_sum, sum23_eval)

/* Lane forms (lied/component.h): k and w are those of lane 0 (the same in
 * every copy); in[j] holds lane 0 of contribution j; the sums follow the
 * k pointers, each LIED_LANES wide. Same order of additions as above. */
LIED_LANE_FN static void sum_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  uint32_t k, w;
  memcpy(&k, g + offsetof(lied_sum, k), sizeof k);
  memcpy(&w, g + offsetof(lied_sum, w), sizeof w);
  const double *const *in = (const double *const *)(const void *)(g + sizeof(lied_sum) * LIED_LANES);
  double *out = (double *)(void *)(g + (sizeof(lied_sum) + k * sizeof in[0]) * LIED_LANES);
  for (uint32_t v = 0; v < w; v++) {
    double *o = out + v * LIED_LANES;
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) o[l] = 0;
    for (uint32_t j = 0; j < k; j++) {
      const double *p = in[j * LIED_LANES] + v * LIED_LANES;
      LIED_LANE_LOOP
      for (size_t l = 0; l < n; l++) o[l] += p[l];
    }
  }
}

LIED_LANE_FN static void sum23_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *const *in = (const double *const *)(const void *)(g + sizeof(lied_sum) * LIED_LANES);
  const double *restrict a = in[0], *restrict b = in[LIED_LANES];
  double *restrict out = (double *)(void *)(g + (sizeof(lied_sum) + 2 * sizeof a) * LIED_LANES);
  for (size_t v = 0; v < 3 * LIED_LANES; v += LIED_LANES)
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) out[v + l] = a[v + l] + b[v + l];
}

static void sum_meta(lied_meta *m, void *self) {
  lied_sum *s = self;
  const int two3 = s->k == 2 && s->w == 3;
  for (uint32_t j = 0; j < s->k; j++) lied_meta_link(m, &s->in[j]);
  lied_meta_block_range(m, "sum", two3 ? sum23_block : sum_block, LIED_BLOCK_CONST_COEFF,
                        &s->in[0], s->k, sizeof s->in[0], LIED_SIGS(sum_out(s)));
  lied_meta_lanes(m, two3 ? sum23_lanes : sum_lanes);
}

static const lied_class lied_sum_class = {
    "Sum", "lied", "framework node: sum of the contributions at a branch",
    sizeof(lied_sum), NULL, 0, NULL, sum_meta};

/* ---- port path resolution ------------------------------------------------ */

/* A port endpoint: leaf spec L, for instance x of the composite it was
 * resolved from, instance x * mult + loc of L; port index in L's template. */
typedef struct endpoint {
  int spec;
  uint64_t loc, mult;
  int port;
} endpoint;

static int resolve_port(const lied_model *m, int x, const char *path,
                        endpoint *ep, int depth, lied_err *e) {
  if (depth > 32) return lied_errf(e, "port aliases nest too deep at '%s'", path);
  const lied_spec *xs = &m->specs[x];
  if (xs->cls) {
    int p = lied_template_port(&xs->tpl, path);
    if (p < 0) {
      const char *cand[256];
      int nc = 0;
      for (int i = 0; i < xs->tpl.nports && nc < 256; i++) cand[nc++] = xs->tpl.ports[i].name;
      const char *sug = lied_suggest(path, cand, nc);
      return lied_errf(e, "%s has no port '%s'%s%s%s", xs->cls->name, path,
                       sug ? " (did you mean '" : "", sug ? sug : "",
                       sug ? "'?)" : "");
    }
    *ep = (endpoint){x, 0, 1, p};
    return 0;
  }
  if (!strchr(path, '.')) { /* a port of the composite: an alias */
    for (int a = 0; a < xs->naliases; a++)
      if (strcmp(xs->aliases[a].name, path) == 0)
        return resolve_port(m, x, xs->aliases[a].target, ep, depth + 1, e);
    int c = -1;
    for (int k = xs->first_child; k >= 0; k = m->specs[k].next_sibling)
      if (strncmp(m->specs[k].name, path, strcspn(path, "[")) == 0 &&
          m->specs[k].name[strcspn(path, "[")] == 0)
        c = k;
    if (c >= 0)
      return lied_errf(e, "'%s' is a component, not a port", path);
    if (xs->naliases || x != 0)
      return lied_errf(e, "no port '%s'", path);
  }
  const char *p = path;
  uint64_t j = 0;
  int c;
  if (lied_spec_step(m, x, &p, &j, &c, e)) return -1;
  if (!*p) return lied_errf(e, "'%s' is a component, not a port", path);
  endpoint sub;
  if (resolve_port(m, c, p, &sub, depth + 1, e)) return -1;
  *ep = (endpoint){sub.spec, j * sub.mult + sub.loc,
                   m->specs[c].count * sub.mult, sub.port};
  return 0;
}

/* ---- helpers --------------------------------------------------------------- */

int lied_model_locate(const lied_model *m, const int *order, int norder,
                      const void *p, uint64_t *inst, uint32_t *offset) {
  const char *c = p;
  int lo = 0, hi = norder - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const lied_spec *s = &m->specs[order[mid]];
    if (c < s->arena)
      hi = mid - 1;
    else if (c >= s->arena + s->total * s->size)
      lo = mid + 1;
    else {
      size_t d = (size_t)(c - s->arena);
      *inst = d / s->size;
      *offset = (uint32_t)(d % s->size);
      return order[mid];
    }
  }
  return -1;
}

/* Spec ids of all leaf specs with arenas, sorted by arena address. */
int *lied_model_arena_order(const lied_model *m, int *n, lied_err *e) {
  int *ids = lied_xmalloc(sizeof(int) * (size_t)(m->nspecs + 1), "order", e);
  if (!ids) return NULL;
  int k = 0;
  for (int s = 0; s < m->nspecs; s++)
    if (m->specs[s].cls && m->specs[s].total) ids[k++] = s;
  /* insertion sort: few specs */
  for (int i = 1; i < k; i++) {
    int v = ids[i], j = i;
    while (j > 0 && m->specs[ids[j - 1]].arena > m->specs[v].arena) {
      ids[j] = ids[j - 1];
      j--;
    }
    ids[j] = v;
  }
  *n = k;
  return ids;
}

/* Describe the port signal storage at address p ("s.outlet[1]"). */
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
      if (t->ports[q].offset + l->offset[j] == off && n < cap) {
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

/* Orient a declared connection: src is the SOURCE side. */
static int orient(wire_ctx *w, int comp, const lied_conn_decl *d, endpoint *a,
                  endpoint *b) {
  lied_model *m = w->m;
  const lied_port_layout *la = m->specs[a->spec].tpl.ports[a->port].layout;
  const lied_port_layout *lb = m->specs[b->spec].tpl.ports[b->port].layout;
  char where[300] = "";
  if (d->where) snprintf(where, sizeof where, "%s: ", d->where);
  if (la->conn != lb->conn) {
    const char *hint = la->conn->incompatible_hint ? la->conn->incompatible_hint
                                                   : lb->conn->incompatible_hint;
    return lied_errf(w->e, "%sincompatible ports: %s is %s, %s is %s%s%s", where,
                     d->a, la->conn->name, d->b, lb->conn->name, hint ? "; " : "",
                     hint ? hint : "");
  }
  if (la->side == lb->side) {
    const char *side = la->conn->side_name[la->side];
    return lied_errf(w->e,
                     "%scannot connect %s to %s: both are %s ports of %s (connect %s to %s)",
                     where, d->a, d->b, side, la->conn->name, la->conn->side_name[0],
                     la->conn->side_name[1]);
  }
  if (la->side == LIED_SINK) {
    endpoint t = *a;
    *a = *b;
    *b = t;
  }
  (void)comp;
  return 0;
}

/* Pass 1: DOWN pointers, first UP contribution, fan-out counts. */
static int wire_pass1(wire_ctx *w, int comp, const lied_conn_decl *d,
                      endpoint src, endpoint snk) {
  lied_model *m = w->m;
  lied_spec *ss = &m->specs[src.spec], *ks = &m->specs[snk.spec];
  const lied_tport *sp = &ss->tpl.ports[src.port], *kp = &ks->tpl.ports[snk.port];
  const lied_connector *c = sp->layout->conn;
  uint16_t *fan = fan_of(w, src.spec, src.port);
  if (!fan) return -1;
  uint64_t n = m->specs[comp].total;
  for (uint64_t x = 0; x < n; x++) {
    uint64_t is = x * src.mult + src.loc, ik = x * snk.mult + snk.loc;
    char *si = lied_inst(ss, is), *ki = lied_inst(ks, ik);
    for (int j = 0; j < c->nsignals; j++) {
      const lied_signal *sg = &c->signals[j];
      if (sg->dir == LIED_DOWN) {
        const double **ptr = &PTR_AT(ki, kp->offset + kp->layout->offset[j]);
        const double *data = (const double *)(void *)(si + sp->offset + sp->layout->offset[j]);
        if (*ptr && *ptr != data) {
          char a[256], b[256], k[256];
          describe(m, w->order, w->norder, *ptr, a, sizeof a);
          port_name(m, src.spec, is, src.port, b, sizeof b);
          port_name(m, snk.spec, ik, snk.port, k, sizeof k);
          return lied_errf(w->e, "%s%sinput connected twice: %s is fed by %s and %s",
                           d->where ? d->where : "", d->where ? ": " : "", k, a, b);
        }
        *ptr = data;
      }
    }
    if (fan[is] == UINT16_MAX)
      return lied_errf(w->e, "too many connections at one port");
    fan[is]++;
    if (fan[is] == 2 && !c->branching) {
      char a[256], b[256];
      port_name(m, src.spec, is, src.port, a, sizeof a);
      port_name(m, snk.spec, ik, snk.port, b, sizeof b);
      return lied_errf(w->e, "%s%sbranching is not allowed for %s connectors: %s feeds "
                       "more than one %s (%s is the second)%s%s",
                       d->where ? d->where : "", d->where ? ": " : "", c->name, a,
                       c->side_name[1], b, c->no_branching_hint ? "; " : "",
                       c->no_branching_hint ? c->no_branching_hint : "");
    }
    if (fan[is] == 1)
      for (int j = 0; j < c->nsignals; j++) {
        const lied_signal *sg = &c->signals[j];
        if (sg->dir == LIED_UP)
          PTR_AT(si, sp->offset + sp->layout->offset[j]) =
              (const double *)(void *)(ki + kp->offset + kp->layout->offset[j]);
      }
  }
  return 0;
}

/* Pass 3: UP contributions of branched sources go into their sum nodes. */
static int wire_pass3(wire_ctx *w, int comp, endpoint src, endpoint snk) {
  lied_model *m = w->m;
  lied_spec *ss = &m->specs[src.spec], *ks = &m->specs[snk.spec];
  const lied_tport *sp = &ss->tpl.ports[src.port], *kp = &ks->tpl.ports[snk.port];
  const lied_connector *c = sp->layout->conn;
  uint16_t *fan = w->fan[src.spec * w->maxports + src.port];
  uint64_t n = m->specs[comp].total;
  for (uint64_t x = 0; x < n; x++) {
    uint64_t is = x * src.mult + src.loc, ik = x * snk.mult + snk.loc;
    if (fan[is] < 2) continue;
    char *si = lied_inst(ss, is), *ki = lied_inst(ks, ik);
    for (int j = 0; j < c->nsignals; j++) {
      if (c->signals[j].dir != LIED_UP) continue;
      const double *out = PTR_AT(si, sp->offset + sp->layout->offset[j]);
      /* the source reads the sums of its node, behind the node's fan[is] inputs */
      lied_sum *sum = (lied_sum *)(void *)((char *)(uintptr_t)out - sum_size(fan[is], 0));
      sum->in[sum->filled++] =
          (const double *)(void *)(ki + kp->offset + kp->layout->offset[j]);
    }
  }
  return 0;
}

/* Pass 2: create sum nodes for every (source spec, port, signal, k). */
static int make_sums(wire_ctx *w) {
  lied_model *m = w->m;
  int nuser = m->nspecs;
  for (int s = 0; s < nuser; s++) {
    for (int p = 0; p < w->maxports; p++) {
      uint16_t *fan = w->fan[s * w->maxports + p];
      if (!fan) continue;
      lied_spec *ss = &m->specs[s];
      const lied_tport *sp = &ss->tpl.ports[p];
      const lied_connector *c = sp->layout->conn;
      for (int j = 0; j < c->nsignals; j++) {
        const lied_signal *sg = &c->signals[j];
        if (sg->dir != LIED_UP) continue;
        /* distinct k values, smallest first */
        uint32_t k = 1;
        for (;;) {
          uint32_t next = UINT32_MAX;
          uint64_t cnt = 0;
          for (uint64_t i = 0; i < ss->total; i++) {
            if (fan[i] > k && fan[i] < next) next = fan[i], cnt = 0;
            if (fan[i] == next) cnt++;
          }
          if (next == UINT32_MAX) break;
          k = next;
          if (!(sg->flags & LIED_SIG_SUM))
            return lied_errf(w->e, "signal %s of %s cannot take several contributions",
                             sg->name, c->name);
          char path[512], name[600];
          lied_spec_path(m, s, path, sizeof path);
          snprintf(name, sizeof name, "(sum at %s.%s)", path, sp->name);
          int id = lied_model_add_internal(m, name, &lied_sum_class, cnt,
                                           sum_size(k, (uint32_t)sg->nvars), w->e);
          if (id < 0) return -1;
          lied_spec *sum = &m->specs[id];
          ss = &m->specs[s];
          sp = &ss->tpl.ports[p];
          lied_sum *proto = (lied_sum *)(void *)sum->proto;
          proto->k = k;
          proto->w = (uint32_t)sg->nvars;
          if (lied_template_crawl(&sum->tpl, sum->cls, sum->proto, sum->size, w->e))
            return -1;
          sum->arena = lied_xmalloc(sum->total * sum->size, "sum nodes", w->e);
          if (!sum->arena) return -1;
          uint64_t q = 0;
          for (uint64_t i = 0; i < ss->total; i++) {
            if (fan[i] != k) continue;
            char *inst = lied_inst(sum, q++);
            memcpy(inst, sum->proto, sum->size);
            PTR_AT(lied_inst(ss, i), sp->offset + sp->layout->offset[j]) =
                sum_out((lied_sum *)(void *)inst);
          }
        }
      }
    }
  }
  return 0;
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
        if (writes) continue;
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
          return lied_errf(e, "%s%sunconnected %s: %s (every %s %s needs a connection)",
                           sp->where ? sp->where : "", sp->where ? ": " : "",
                           c->side_name[tp->layout->side], name, c->name,
                           c->side_name[tp->layout->side]);
        }
      }
    }
  }
  return 0;
}

static int wire(lied_model *m, lied_err *e) {
  int nuser = m->nspecs;
  wire_ctx w = {m, e, NULL, 1, NULL, 0};
  for (int s = 0; s < nuser; s++)
    if (m->specs[s].cls && m->specs[s].tpl.nports > w.maxports)
      w.maxports = m->specs[s].tpl.nports;
  w.fan = lied_xcalloc((size_t)nuser * (size_t)w.maxports, sizeof *w.fan, "fan", e);
  w.order = lied_model_arena_order(m, &w.norder, e);
  int rc = (!w.fan || !w.order) ? -1 : 0;
  for (int pass = 1; pass <= 3 && rc == 0; pass++) {
    if (pass == 2) {
      rc = make_sums(&w);
      continue;
    }
    for (int s = 0; s < nuser && rc == 0; s++) {
      lied_spec *sp = &m->specs[s];
      for (int k = 0; k < sp->nconns && rc == 0; k++) {
        const lied_conn_decl *d = &sp->conns[k];
        endpoint a, b;
        char cpath[512];
        if (resolve_port(m, s, d->a, &a, 0, e) || resolve_port(m, s, d->b, &b, 0, e)) {
          lied_spec_path(m, s, cpath, sizeof cpath);
          lied_err_prefix(e, "%s%sin %s, connect {\"%s\", \"%s\"}: ",
                          d->where ? d->where : "", d->where ? ": " : "", cpath,
                          d->a, d->b);
          rc = -1;
          break;
        }
        if (orient(&w, s, d, &a, &b)) {
          rc = -1;
          break;
        }
        rc = pass == 1 ? wire_pass1(&w, s, d, a, b) : wire_pass3(&w, s, a, b);
      }
    }
  }
  if (rc == 0) rc = check_unconnected(m, nuser, e);
  if (w.fan)
    for (int i = 0; i < nuser * w.maxports; i++) free(w.fan[i]);
  free(w.fan);
  free(w.order);
  return rc;
}

/* ---- instantiation ----------------------------------------------------------- */

static int instantiate(lied_model *m, lied_err *e) {
  if (m->nspecs == 0) return lied_errf(e, "empty model");
  m->specs[0].total = 1;
  m->ncomponents = 0;
  for (int s = 1; s < m->nspecs; s++) {
    lied_spec *sp = &m->specs[s];
    uint64_t pt = m->specs[sp->parent].total;
    if (sp->count && pt > UINT64_MAX / sp->count)
      return lied_errf(e, "model too large");
    sp->total = pt * sp->count;
  }
  for (int s = 0; s < m->nspecs; s++) {
    lied_spec *sp = &m->specs[s];
    if (!sp->cls) continue;
    char path[512], site[1024];
    lied_spec_path(m, s, path, sizeof path);
    snprintf(site, sizeof site, "%s%s%s", sp->where ? sp->where : "", sp->where ? ": " : "",
             path);
    if (sp->cls->init) {
      lied_init ctx = {e, site, 0};
      if (sp->cls->init(sp->proto, &ctx) || ctx.failed) {
        if (!ctx.failed) lied_errf(e, "%s: initialisation failed", path);
        return -1;
      }
    }
    if (lied_template_crawl(&sp->tpl, sp->cls, sp->proto, sp->size, e))
      return lied_err_prefix(e, "%s (%s): ", path, sp->cls->name);
    if (sp->total > SIZE_MAX / sp->size)
      return lied_errf(e, "%s: too many instances", path);
    sp->arena = malloc(sp->total ? sp->total * sp->size : 1);
    if (!sp->arena)
      return lied_errf(e, "out of memory instantiating %s: %llu x %zu bytes", path,
                       (unsigned long long)sp->total, sp->size);
    for (uint64_t i = 0; i < sp->total; i++)
      memcpy(sp->arena + i * sp->size, sp->proto, sp->size);
    m->ncomponents += sp->total;
  }
  return 0;
}

int lied_model_instantiate(lied_model *m, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  if (instantiate(m, e) || wire(m, e)) return lied_err_code(e);
  m->instantiated = 1;
  return LIED_OK;
}