/* template.c - the structural crawler: runs a class's meta on one prototype
 * instance and records ports, variables, states, tearing pairs and blocks as
 * offsets, so every copy of the spec shares one template. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model.h"

const double lied_time = 0.0;

/* Raw block as declared, before its references are classified. */
typedef struct raw_block {
  const char *name;
  lied_block_fn fn, lanes;
  unsigned flags;
  int in0, nin, out0, nout; /* ranges in raw addresses */
} raw_block;

struct lied_meta {
  lied_template *tpl;
  char *base;
  size_t size;
  lied_err *e;
  int failed;
  raw_block *raw;
  int nraw, capraw;
  const void **addr;
  int naddr, capaddr;
  /* per address: the variables read or written, lied_meta_reads / _writes
   * (first, nvars; nvars 0: the default) */
  uint8_t (*avar)[2];
  int capavar;
  int capblocks, capports, capvars, capstates, captears;
  uint32_t *links; /* offsets of internal pointer fields (sum nodes) */
  uint8_t *linkvars; /* ... and the doubles each reads */
  int nlinks, caplinks, caplinkvars;
  /* check mode (lied_template_check): compare with ref, record nothing.
   * Every lied_meta_* function must handle it first (m->ref set, m->tpl
   * NULL): templates are shared between specs and per-copy values are
   * checked through it. */
  const lied_template *ref;
  int cv, cp, cs, ct, cb; /* next var, port, state, tear, block of ref */
  int cz, cnext, chandler; /* zero functions, time events, handler seen */
  const char *differs;    /* what differs first, or NULL */
};

static uint32_t meta_off(const lied_meta *m, const void *p);

/* Check mode: the first difference from the reference template. */
static void differ(lied_meta *m, const char *what) {
  if (!m->differs) m->differs = what;
}

/* Check mode: the next variable of the reference is (name, p, kind). */
static void check_var(lied_meta *m, const char *name, const char *unit, const void *p, int kind) {
  if (m->cv >= m->ref->nvars) {
    differ(m, "more variables");
    return;
  }
  const lied_tvar *v = &m->ref->vars[m->cv++];
  if (v->offset != meta_off(m, p) || v->kind != kind || (name && strcmp(v->name, name) != 0) ||
      (unit && strcmp(v->unit, unit) != 0))
    differ(m, "another variable");
}

void lied_meta_link(lied_meta *m, const void *field, int nvars) {
  if (m->failed || m->ref) return;
  if (lied_grow((void **)&m->links, &m->caplinks, m->nlinks + 1, sizeof *m->links, m->e) ||
      lied_grow((void **)&m->linkvars, &m->caplinkvars, m->nlinks + 1, sizeof *m->linkvars,
                m->e)) {
    m->failed = 1;
    return;
  }
  m->linkvars[m->nlinks] = (uint8_t)(nvars > 0 && nvars <= LIED_MAX_SIGNAL_VARS ? nvars : 1);
  m->links[m->nlinks++] = meta_off(m, field);
}

static void meta_fail(lied_meta *m, const char *fmt, const char *what) {
  if (m->failed) return;
  m->failed = 1;
  lied_errc(m->e, LIED_E_MODEL, fmt, what);
}

/* A name a meta call was given: refused when NULL or empty (issue 47: a
 * plugin's NULL name crashed in strcmp), with the call that gave it. Every
 * lied_meta_* call checks its names before anything else, also in check
 * mode. 1 when refused. */
static int bad_name(lied_meta *m, const char *name, const char *call) {
  if (m->failed) return 1;
  if (name && *name) return 0;
  char what[96];
  snprintf(what, sizeof what, "%s: %s name", call, name ? "an empty" : "a NULL");
  meta_fail(m, "%s (every variable, port and zero-crossing function needs one)", what);
  return 1;
}

/* Offset of p inside the instance, or UINT32_MAX when p lies outside. */
static uint32_t meta_off(const lied_meta *m, const void *p) {
  const char *c = p;
  if (c < m->base || c >= m->base + m->size) return UINT32_MAX;
  return (uint32_t)(c - m->base);
}

static int add_var(lied_meta *m, const char *name, const char *unit,
                   const void *p, int kind) {
  lied_template *t = m->tpl;
  uint32_t off = meta_off(m, p);
  if (off == UINT32_MAX) {
    meta_fail(m, "variable %s is not inside the component", name);
    return -1;
  }
  for (int v = 0; v < t->nvars; v++) /* one name, one variable: lookups and records by name */
    if (strcmp(t->vars[v].name, name) == 0) {
      meta_fail(m, "two variables named %s (names must be unique within a component)", name);
      return -1;
    }
  if (lied_grow((void **)&t->vars, &m->capvars, t->nvars + 1, sizeof *t->vars,
                m->e)) {
    m->failed = 1;
    return -1;
  }
  char *nm = lied_strdup(name, m->e);
  if (!nm) {
    m->failed = 1;
    return -1;
  }
  t->vars[t->nvars] = (lied_tvar){nm, unit ? unit : "", off, kind, 0, NULL};
  return t->nvars++;
}

void lied_meta_var(lied_meta *m, const char *name, const char *unit,
                   double *v) {
  if (bad_name(m, name, "lied_meta_var")) return;
  if (m->ref) { check_var(m, name, unit ? unit : "", v, LIED_VAR_PLAIN); return; }
  if (!m->failed) add_var(m, name, unit, v, LIED_VAR_PLAIN);
}

void lied_meta_state(lied_meta *m, const char *name, const char *unit,
                     double *x, double *der) {
  if (bad_name(m, name, "lied_meta_state")) return;
  if (m->ref) {
    check_var(m, name, unit ? unit : "", x, LIED_VAR_STATE);
    check_var(m, NULL, NULL, der, LIED_VAR_DER);
    if (m->cs >= m->ref->nstates) {
      differ(m, "more states");
      return;
    }
    const lied_tstate *st = &m->ref->states[m->cs++];
    if (st->x != meta_off(m, x) || st->der != meta_off(m, der)) differ(m, "another state");
    return;
  }
  if (m->failed) return;
  lied_template *t = m->tpl;
  char dname[256];
  snprintf(dname, sizeof dname, "der(%s)", name);
  int vx = add_var(m, name, unit, x, LIED_VAR_STATE);
  int vd = vx < 0 ? -1 : add_var(m, dname, "", der, LIED_VAR_DER);
  if (vd < 0) return;
  char dunit[128];
  if (!unit || !*unit || strcmp(unit, "1") == 0)
    snprintf(dunit, sizeof dunit, "1/s");
  else { /* m -> m/s, m/s -> m/s2, m/s2 -> m/s3 */
    size_t len = strlen(unit);
    if (len >= 2 && strcmp(unit + len - 2, "/s") == 0)
      snprintf(dunit, sizeof dunit, "%s2", unit);
    else if (len >= 3 && unit[len - 3] == '/' && unit[len - 2] == 's' && unit[len - 1] >= '2' &&
             unit[len - 1] < '9')
      snprintf(dunit, sizeof dunit, "%.*s%c", (int)(len - 1), unit, unit[len - 1] + 1);
    else
      snprintf(dunit, sizeof dunit, "%s/s", unit);
  }
  t->vars[vd].unit_owned = lied_strdup(dunit, m->e);
  if (!t->vars[vd].unit_owned) {
    m->failed = 1;
    return;
  }
  t->vars[vd].unit = t->vars[vd].unit_owned;
  if (lied_grow((void **)&t->states, &m->capstates, t->nstates + 1,
                sizeof *t->states, m->e)) {
    m->failed = 1;
    return;
  }
  t->states[t->nstates++] =
      (lied_tstate){meta_off(m, x), meta_off(m, der), vx};
}

void lied_meta_tear(lied_meta *m, const char *tear_name, double *tear,
                    const char *residual_name, double *residual) {
  if (bad_name(m, tear_name, "lied_meta_tear") || bad_name(m, residual_name, "lied_meta_tear"))
    return;
  if (m->ref) {
    check_var(m, tear_name, NULL, tear, LIED_VAR_TEAR);
    check_var(m, residual_name, NULL, residual, LIED_VAR_RES);
    if (m->ct >= m->ref->ntears) {
      differ(m, "more tearing pairs");
      return;
    }
    const lied_ttear *tp = &m->ref->tears[m->ct++];
    if (tp->tear != meta_off(m, tear) || tp->res != meta_off(m, residual))
      differ(m, "another tearing pair");
    return;
  }
  if (m->failed) return;
  lied_template *t = m->tpl;
  int vt = add_var(m, tear_name, "", tear, LIED_VAR_TEAR);
  int vr = vt < 0 ? -1 : add_var(m, residual_name, "", residual, LIED_VAR_RES);
  if (vr < 0) return;
  if (lied_grow((void **)&t->tears, &m->captears, t->ntears + 1,
                sizeof *t->tears, m->e)) {
    m->failed = 1;
    return;
  }
  t->tears[t->ntears++] =
      (lied_ttear){meta_off(m, tear), meta_off(m, residual), -1, vt, vr};
}

/* ---- events ---- */

void lied_meta_time_events(lied_meta *m, lied_next_fn next) {
  if (m->ref) {
    if (m->cnext++ || m->ref->next_event != next) differ(m, "other time events");
    return;
  }
  if (!next)
    meta_fail(m, "%s: lied_meta_time_events without a function", "time events");
  else if (m->tpl->next_event)
    meta_fail(m, "%s: lied_meta_time_events called twice", "time events");
  else if (!m->failed)
    m->tpl->next_event = next;
}

void lied_meta_event(lied_meta *m, lied_event_fn handler) {
  if (m->ref) {
    if (m->chandler++ || m->ref->handler != handler) differ(m, "another event handler");
    return;
  }
  if (!handler)
    meta_fail(m, "%s: lied_meta_event without a function", "event handler");
  else if (m->tpl->handler)
    meta_fail(m, "%s: lied_meta_event called twice", "event handler");
  else if (!m->failed)
    m->tpl->handler = handler;
}

void lied_meta_zero(lied_meta *m, const char *name, double *z, int direction) {
  if (bad_name(m, name, "lied_meta_zero")) return;
  if (m->ref) {
    check_var(m, name, "", z, LIED_VAR_PLAIN);
    if (m->cz >= m->ref->nzeros) {
      differ(m, "more zero-crossing functions");
      return;
    }
    const lied_tzero *tz = &m->ref->zeros[m->cz++];
    if (tz->offset != meta_off(m, z) || tz->dir != direction)
      differ(m, "another zero-crossing function");
    return;
  }
  lied_template *t = m->tpl;
  const int way = direction & ~LIED_ZC_KINK;
  if (way != LIED_ZC_BOTH && way != LIED_ZC_UP && way != LIED_ZC_DOWN)
    meta_fail(m, "zero-crossing function %s: direction must be LIED_ZC_BOTH, UP or DOWN (or'ed "
                 "with LIED_ZC_KINK)", name);
  else if (t->nzeros == LIED_MAX_ZEROS)
    meta_fail(m, "zero-crossing function %s: more than LIED_MAX_ZEROS per component", name);
  if (m->failed) return;
  int v = add_var(m, name, "", z, LIED_VAR_PLAIN);
  if (v < 0) return;
  lied_tzero *nz = realloc(t->zeros, sizeof *nz * (size_t)(t->nzeros + 1));
  if (!nz) {
    m->failed = 1;
    lied_errc(m->e, LIED_E_NOMEM, "out of memory (zero-crossing function %s)", name);
    return;
  }
  t->zeros = nz;
  t->zeros[t->nzeros++] = (lied_tzero){t->vars[v].offset, direction, v};
}

/* Every zero function written by a block; zero functions other than kinks
 * need a handler. */
static int check_events(lied_meta *m) {
  const lied_template *t = m->tpl;
  for (int i = 0; i < t->nzeros; i++)
    if (lied_template_producer(t, t->zeros[i].offset) < 0)
      return lied_errc(m->e, LIED_E_MODEL,
                       "zero-crossing function %s is not an output of a block of the component",
                       t->vars[t->zeros[i].var].name);
  for (int i = 0; i < t->nzeros && !t->handler; i++)
    if (!(t->zeros[i].dir & LIED_ZC_KINK))
      return lied_errc(m->e, LIED_E_MODEL,
                       "zero-crossing function %s declared without an event handler "
                       "(lied_meta_event; a kink of the block's law: LIED_ZC_KINK)",
                       t->vars[t->zeros[i].var].name);
  return LIED_OK;
}

/* Split the idx-th comma-separated field of list into buf. */
static void field(const char *list, int idx, char *buf, size_t cap) {
  const char *p = list ? list : "";
  for (int i = 0; i < idx && p; i++) {
    p = strchr(p, ',');
    if (p) p++;
  }
  size_t n = 0;
  if (p)
    while (p[n] && p[n] != ',') n++;
  if (n >= cap) n = cap - 1;
  if (p) memcpy(buf, p, n);
  buf[n] = 0;
}

/* A port layout lied can read: a connector of at most LIED_MAX_SIGNALS
 * signals of at most LIED_MAX_SIGNAL_VARS doubles, a side. NULL, or what
 * is wrong. */
static const char *bad_layout(const lied_port_layout *l) {
  if (!l) return "its layout is NULL";
  if (!l->conn) return "its layout has no connector (conn is NULL)";
  if (l->side != LIED_SOURCE && l->side != LIED_SINK) return "its layout's side is not LIED_SOURCE or LIED_SINK";
  if (l->conn->nsignals < 0 || l->conn->nsignals > LIED_MAX_SIGNALS)
    return "its connector's nsignals is outside 0 .. LIED_MAX_SIGNALS";
  for (int j = 0; j < l->conn->nsignals; j++)
    if (l->conn->signals[j].nvars < 0 || l->conn->signals[j].nvars > LIED_MAX_SIGNAL_VARS)
      return "a signal of its connector has nvars outside 0 .. LIED_MAX_SIGNAL_VARS";
  return NULL;
}

/* The checking mode of lied_meta_port (lied_template_check): the port
 * must be the reference template's next, at the same place, with the same
 * layout and name; its variables are counted. */
static void check_port(lied_meta *m, const char *name, int index, void *port,
                       const lied_port_layout *layout) {
  char full[256];
  if (m->cp >= m->ref->nports) {
    differ(m, "more ports");
    return;
  }
  const lied_tport *tp = &m->ref->ports[m->cp++];
  if (index > 0) snprintf(full, sizeof full, "%s[%d]", name, index);
  if (tp->offset != meta_off(m, port) || tp->layout != layout ||
      strcmp(tp->name, index > 0 ? full : name) != 0) {
    differ(m, "another port");
    return;
  }
  for (int j = 0; j < layout->conn->nsignals; j++)
    if (layout->offset[j] != LIED_ABSENT) m->cv += layout->conn->signals[j].nvars;
}

/* The variables of port `full` (at port, laid out by layout): written
 * signals are this instance's storage; read ones are reached through the
 * pointer. Units live in the connector (static strings): each keeps a copy. */
static void port_vars(lied_meta *m, const char *full, void *port,
                      const lied_port_layout *layout) {
  lied_template *t = m->tpl;
  const lied_connector *c = layout->conn;
  for (int j = 0; j < c->nsignals; j++) {
    const lied_signal *sg = &c->signals[j];
    int writes = (sg->dir == LIED_DOWN) == (layout->side == LIED_SOURCE);
    if (layout->offset[j] == LIED_ABSENT) continue;
    for (int k = 0; k < sg->nvars; k++) {
      char vn[64], un[32], vname[400];
      field(sg->vars, k, vn, sizeof vn);
      field(sg->units, k, un, sizeof un);
      /* a connector of one value (real and Boolean signals): the port
       * names it ("speed.y", "r.u"), not "speed.y.y" */
      if (c->nsignals == 1 && sg->nvars == 1)
        snprintf(vname, sizeof vname, "%s", full);
      else
        snprintf(vname, sizeof vname, "%s.%s", full, vn);
      char *sp = (char *)port + layout->offset[j];
      int v = writes ? add_var(m, vname, "", sp + k * sizeof(double),
                               LIED_VAR_PORT)
                     : add_var(m, vname, "", sp, LIED_VAR_PORT_READ);
      if (v < 0) return;
      char *u = lied_strdup(un, m->e);
      if (!u) {
        m->failed = 1;
        return;
      }
      t->vars[v].unit_owned = u;
      t->vars[v].unit = u;
      t->vars[v].sub = writes ? 0 : k;
    }
  }
}

void lied_meta_port(lied_meta *m, const char *name, int index, void *port,
                    const lied_port_layout *layout) {
  if (bad_name(m, name, "lied_meta_port")) return;
  const char *why = bad_layout(layout);
  if (why) {
    char what[300];
    snprintf(what, sizeof what, "port %.200s: %s", name, why);
    meta_fail(m, "%s", what);
    return;
  }
  if (m->ref) {
    check_port(m, name, index, port, layout);
    return;
  }
  lied_template *t = m->tpl;
  char full[256];
  if (index > 0)
    snprintf(full, sizeof full, "%s[%d]", name, index);
  else
    snprintf(full, sizeof full, "%s", name);
  uint32_t off = meta_off(m, port);
  if (off == UINT32_MAX) {
    meta_fail(m, "port %s is not inside the component", full);
    return;
  }
  if (lied_grow((void **)&t->ports, &m->capports, t->nports + 1,
                sizeof *t->ports, m->e)) {
    m->failed = 1;
    return;
  }
  char *nm = lied_strdup(full, m->e);
  if (!nm) {
    m->failed = 1;
    return;
  }
  t->ports[t->nports++] = (lied_tport){nm, layout, off, UINT32_MAX};
  port_vars(m, full, port, layout);
}

void lied_meta_port_data(lied_meta *m, const void *data) {
  if (m->failed) return;
  const uint32_t off = meta_off(m, data);
  if (m->ref) {
    if (m->cp == 0 || m->ref->ports[m->cp - 1].data != off) differ(m, "another port's data");
    return;
  }
  lied_template *t = m->tpl;
  if (t->nports == 0 || off == UINT32_MAX) {
    meta_fail(m, "lied_meta_port_data: %s", t->nports ? "the data is not inside the component"
                                                       : "no port before it");
    return;
  }
  t->ports[t->nports - 1].data = off;
}

/* Record address p; LIED_OK, or LIED_E_NOMEM (the crawl has failed). */
static int meta_addr(lied_meta *m, const void *p) {
  if (lied_grow((void **)&m->addr, &m->capaddr, m->naddr + 1, sizeof *m->addr, m->e) ||
      lied_grow((void **)&m->avar, &m->capavar, m->naddr + 1, sizeof *m->avar, m->e)) {
    m->failed = 1;
    return LIED_E_NOMEM;
  }
  m->avar[m->naddr][0] = m->avar[m->naddr][1] = 0;
  m->addr[m->naddr++] = p;
  return LIED_OK;
}

/* Check mode: input address a reads what reference r says. */
static int same_input(const lied_meta *m, const lied_tref *r, const void *a) {
  if (a == (const void *)&lied_time) return r->kind == LIED_REF_TIME;
  uint32_t off = meta_off(m, a);
  if (off == UINT32_MAX) return r->kind == LIED_REF_CONST && r->offset == 0;
  return r->kind != LIED_REF_TIME && r->offset == off;
}

/* Check mode: the next block of the reference is this one. */
static void check_block(lied_meta *m, const char *name, lied_block_fn fn, unsigned flags,
                        const void *const *in,
                        const char *range, size_t nrange, size_t stride,
                        const void *const *out) {
  if (m->cb >= m->ref->nblocks) {
    differ(m, "more blocks");
    return;
  }
  const lied_tblock *b = &m->ref->blocks[m->cb++];
  uint32_t nin = 0, nout = 0;
  for (; in && in[nin]; nin++) {
  }
  for (; out && out[nout]; nout++) {
  }
  if (b->fn != fn || b->flags != flags || b->nin != nin + nrange || b->nout != nout ||
      strcmp(b->name, name ? name : "block") != 0) {
    differ(m, "another block");
    return;
  }
  const lied_tref *r = m->ref->refs + b->in0;
  for (uint32_t i = 0; i < nin; i++)
    if (!same_input(m, &r[i], in[i])) {
      differ(m, "other block inputs");
      return;
    }
  for (size_t i = 0; i < nrange; i++)
    if (!same_input(m, &r[nin + i], range + i * stride)) {
      differ(m, "other block inputs");
      return;
    }
  r = m->ref->refs + b->out0;
  for (uint32_t i = 0; i < nout; i++)
    if (r[i].offset != meta_off(m, out[i])) {
      differ(m, "other block outputs");
      return;
    }
}

/* A block whose inputs are the NULL-terminated list `in` and then `nrange`
 * addresses from `range` on, `stride` bytes apart. */
static void meta_block(lied_meta *m, const char *name, lied_block_fn fn, unsigned flags,
                       const void *const *in, const char *range, size_t nrange, size_t stride,
                       const void *const *out) {
  if (m->failed) return;
  if (!fn) {
    meta_fail(m, "block %s: its function is NULL", name ? name : "block");
    return;
  }
  if (m->ref) {
    check_block(m, name, fn, flags, in, range, nrange, stride, out);
    return;
  }
  if (lied_grow((void **)&m->raw, &m->capraw, m->nraw + 1, sizeof *m->raw, m->e)) {
    m->failed = 1;
    return;
  }
  raw_block *b = &m->raw[m->nraw++];
  *b = (raw_block){name ? name : "block", fn, NULL, flags, m->naddr, 0, 0, 0};
  for (int i = 0; in && in[i]; i++, b->nin++)
    if (meta_addr(m, in[i])) return;
  for (size_t i = 0; i < nrange; i++, b->nin++)
    if (meta_addr(m, range + i * stride)) return;
  b->out0 = m->naddr;
  for (int i = 0; out && out[i]; i++, b->nout++)
    if (meta_addr(m, out[i])) return;
}

void lied_meta_block(lied_meta *m, const char *name, lied_block_fn fn,
                     unsigned flags, const void *const *in,
                     const void *const *out) {
  meta_block(m, name, fn, flags, in, NULL, 0, 0, out);
}

void lied_meta_lanes(lied_meta *m, lied_block_fn lanes) {
  if (m->failed) return;
  if (m->ref) {
    if (m->cb == 0 || m->ref->blocks[m->cb - 1].lanes != lanes) differ(m, "another lane form");
    return;
  }
  if (m->nraw == 0) {
    meta_fail(m, "%s: lied_meta_lanes before any block", "lane form");
    return;
  }
  m->raw[m->nraw - 1].lanes = lanes;
}

void lied_meta_block_range(lied_meta *m, const char *name, lied_block_fn fn, unsigned flags,
                           const void *in, size_t nin, size_t stride,
                           const void *const *out) {
  meta_block(m, name, fn, flags, NULL, in, nin, stride, out);
}

/* lied_meta_reads / lied_meta_writes: the variables of address a in the
 * last block's inputs (outputs: 1) are first .. first + nvars - 1. Check
 * mode: the reference's block records the same. */
static void meta_vars(lied_meta *m, const void *a, int first, int nvars, int outputs,
                      const char *what) {
  if (m->failed) return;
  if (nvars < 1 || first < 0 || first + nvars > LIED_MAX_SIGNAL_VARS) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s: variables %d .. %d are not those of a signal (at most %d)",
             what, first, first + nvars - 1, LIED_MAX_SIGNAL_VARS);
    meta_fail(m, "%s", msg);
    return;
  }
  if (m->ref) {
    if (m->cb == 0) {
      differ(m, "variables declared before any block");
      return;
    }
    const lied_tblock *b = &m->ref->blocks[m->cb - 1];
    const uint32_t r0 = outputs ? b->out0 : b->in0, rn = outputs ? b->nout : b->nin;
    for (uint32_t r = r0; r < r0 + rn; r++) { /* a pointer listed twice: one of its ranges */
      const lied_tref *t = &m->ref->refs[r];
      if (t->offset == meta_off(m, a) && t->nvars == nvars && t->first == (outputs ? 0 : first))
        return;
    }
    differ(m, "other variables");
    return;
  }
  if (m->nraw == 0) {
    meta_fail(m, "%s before any block", what);
    return;
  }
  const raw_block *b = &m->raw[m->nraw - 1];
  const int i0 = outputs ? b->out0 : b->in0, n = outputs ? b->nout : b->nin;
  int listed = 0;
  for (int i = i0; i < i0 + n; i++) { /* the first listing of a without its variables */
    if (m->addr[i] != a) continue;
    listed = 1;
    if (m->avar[i][1]) continue;
    m->avar[i][0] = (uint8_t)first;
    m->avar[i][1] = (uint8_t)nvars;
    return;
  }
  char msg[200];
  if (listed)
    snprintf(msg, sizeof msg, "%s: block %s has its variables already: list the address once "
             "per range", what, b->name);
  else
    snprintf(msg, sizeof msg, "%s: the address is not %s of block %s", what,
             outputs ? "an output" : "an input", b->name);
  meta_fail(m, "%s", msg);
}

void lied_meta_writes(lied_meta *m, const void *addr, int nvars) {
  meta_vars(m, addr, 0, nvars, 1, "lied_meta_writes");
}

void lied_meta_reads(lied_meta *m, const void *ptr, int first, int nvars) {
  meta_vars(m, ptr, first, nvars, 0, "lied_meta_reads");
}

/* Width in bytes of what a block writes at offset off: a whole port signal
 * when off is one, else one double. */
static uint32_t out_width(const lied_template *t, uint32_t off) {
  for (int p = 0; p < t->nports; p++) {
    const lied_port_layout *l = t->ports[p].layout;
    for (int j = 0; j < l->conn->nsignals; j++) {
      const lied_signal *sg = &l->conn->signals[j];
      int writes = (sg->dir == LIED_DOWN) == (l->side == LIED_SOURCE);
      if (writes && l->offset[j] != LIED_ABSENT && t->ports[p].offset + l->offset[j] == off)
        return (uint32_t)(sg->nvars * sizeof(double));
    }
  }
  return sizeof(double);
}

/* Is off the reading pointer of a port signal? Sets *port, *sig. */
static int is_port_read(const lied_template *t, uint32_t off, int *port,
                        int *sig) {
  for (int p = 0; p < t->nports; p++) {
    const lied_port_layout *l = t->ports[p].layout;
    for (int j = 0; j < l->conn->nsignals; j++) {
      const lied_signal *sg = &l->conn->signals[j];
      int writes = (sg->dir == LIED_DOWN) == (l->side == LIED_SOURCE);
      if (!writes && l->offset[j] != LIED_ABSENT && t->ports[p].offset + l->offset[j] == off) {
        *port = p;
        *sig = j;
        return 1;
      }
    }
  }
  return 0;
}

/* Is off an internal link's pointer field? Its width in doubles, or 0. */
static int is_link(const lied_meta *m, uint32_t off) {
  for (int i = 0; i < m->nlinks; i++)
    if (m->links[i] == off) return m->linkvars[i];
  return 0;
}

/* The port signal whose storage (written by this component) holds byte
 * off: its port p, signal s and start; 0 when none. */
static int written_signal(const lied_template *t, uint32_t off, int *port, int *sig,
                          uint32_t *start) {
  for (int p = 0; p < t->nports; p++) {
    const lied_port_layout *l = t->ports[p].layout;
    for (int j = 0; j < l->conn->nsignals; j++) {
      const lied_signal *sg = &l->conn->signals[j];
      int writes = (sg->dir == LIED_DOWN) == (l->side == LIED_SOURCE);
      if (!writes || l->offset[j] == LIED_ABSENT) continue;
      const uint32_t lo = t->ports[p].offset + (uint32_t)l->offset[j];
      if (off >= lo && off < lo + (uint32_t)(sg->nvars * sizeof(double))) {
        *port = p, *sig = j, *start = lo;
        return 1;
      }
    }
  }
  return 0;
}

static int cmp_range(const void *a, const void *b) {
  const lied_trange *x = a, *y = b;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

int lied_template_out_from(const lied_template *t, uint32_t off) {
  int lo = 0, hi = t->nouts;
  while (lo < hi) { /* the first range with hi > off */
    int mid = (lo + hi) / 2;
    if (t->outs[mid].hi <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint32_t lied_tref_read_bytes(const lied_template *t, const lied_tref *r, uint32_t *skip) {
  *skip = (uint32_t)(r->first * sizeof(double));
  if (r->a == LIED_NO_PORT || r->nvars) return (uint32_t)((r->nvars ? r->nvars : 1) * sizeof(double));
  return (uint32_t)(t->ports[r->a].layout->conn->signals[r->b].nvars * sizeof(double));
}

int lied_template_producer(const lied_template *t, uint32_t off) {
  int lo = 0, hi = t->nouts - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (off < t->outs[mid].lo)
      hi = mid - 1;
    else if (off >= t->outs[mid].hi)
      lo = mid + 1;
    else
      return t->outs[mid].block;
  }
  return -1;
}

int lied_template_port(const lied_template *t, const char *name) {
  for (int p = 0; p < t->nports; p++)
    if (strcmp(t->ports[p].name, name) == 0) return p;
  return -1;
}

/* Turn raw blocks into classified references. */
/* Check one output of block r at offset off: inside the component, not a
 * port's reading side, not a state or tearing variable (those are the
 * solver's and the probe's to write). */
static int check_output(const lied_meta *m, const raw_block *r, uint32_t off) {
  const lied_template *t = m->tpl;
  lied_err *e = m->e;
  int p, s;
  if (off == UINT32_MAX)
    return lied_errc(e, LIED_E_MODEL, "block %s writes outside the component", r->name);
  if (is_port_read(t, off, &p, &s))
    return lied_errc(e, LIED_E_MODEL, "block %s writes %s.%s, which the port reads", r->name,
                     t->ports[p].name, t->ports[p].layout->conn->signals[s].name);
  for (int q = 0; q < t->nstates; q++)
    if (t->states[q].x == off)
      return lied_errc(e, LIED_E_MODEL, "block %s writes state %s (write its derivative)",
                       r->name, t->vars[t->states[q].var].name);
  for (int q = 0; q < t->ntears; q++)
    if (t->tears[q].tear == off)
      return lied_errc(e, LIED_E_MODEL, "block %s writes tearing variable %s", r->name,
                       t->vars[t->tears[q].tear_var].name);
  return LIED_OK;
}

/* The output ranges of every block, sorted, checked for overlaps. */
static int collect_outputs(lied_meta *m) {
  lied_template *t = m->tpl;
  for (int b = 0; b < m->nraw; b++) {
    const raw_block *r = &m->raw[b];
    for (int i = 0; i < r->nout; i++) {
      uint32_t off = meta_off(m, m->addr[r->out0 + i]);
      LIED_TRY(check_output(m, r, off));
      uint32_t w = out_width(t, off);
      const int nv = m->avar[r->out0 + i][1];
      if (nv) { /* lied_meta_writes: inside one of the port signals it writes, or its own */
        int p, s;
        uint32_t start;
        w = (uint32_t)(nv * sizeof(double));
        if (written_signal(t, off, &p, &s, &start) &&
            off + w > start + t->ports[p].layout->conn->signals[s].nvars * sizeof(double))
          return lied_errc(m->e, LIED_E_MODEL,
                           "block %s writes %d variables from %s.%s variable %u on: past the "
                           "signal's end", r->name, nv, t->ports[p].name,
                           t->ports[p].layout->conn->signals[s].name,
                           (unsigned)((off - start) / sizeof(double)) + 1);
        if (off + w > m->size)
          return lied_errc(m->e, LIED_E_MODEL, "block %s writes past the component's end",
                           r->name);
      }
      t->outs[t->nouts++] = (lied_trange){off, off + w, b};
    }
  }
  qsort(t->outs, (size_t)t->nouts, sizeof *t->outs, cmp_range);
  for (int i = 1; i < t->nouts; i++)
    if (t->outs[i].lo < t->outs[i - 1].hi)
      return lied_errc(m->e, LIED_E_MODEL, "blocks %s and %s write the same variable",
                       m->raw[t->outs[i - 1].block].name, m->raw[t->outs[i].block].name);
  return LIED_OK;
}

/* Every variable of a port signal the component writes in part is written
 * (lied_meta_writes split it between blocks; none may be left out). */
static int check_signals_covered(lied_meta *m) {
  lied_template *t = m->tpl;
  for (int p = 0; p < t->nports; p++) {
    const lied_port_layout *l = t->ports[p].layout;
    for (int j = 0; j < l->conn->nsignals; j++) {
      const lied_signal *sg = &l->conn->signals[j];
      int writes = (sg->dir == LIED_DOWN) == (l->side == LIED_SOURCE);
      if (!writes || l->offset[j] == LIED_ABSENT) continue;
      const uint32_t lo = t->ports[p].offset + (uint32_t)l->offset[j];
      int any = 0, missing = -1;
      for (int v = 0; v < sg->nvars; v++) {
        const int w = lied_template_producer(t, lo + (uint32_t)(v * sizeof(double))) >= 0;
        any |= w;
        if (!w && missing < 0) missing = v;
      }
      if (any && missing >= 0)
        return lied_errc(m->e, LIED_E_MODEL,
                         "%s.%s is written in part: variable %d of %d (of %s) by no block",
                         t->ports[p].name, sg->name, missing + 1, sg->nvars, sg->vars);
    }
  }
  return LIED_OK;
}

/* Every residual and every derivative has a producing block. */
static int check_producers(lied_meta *m) {
  lied_template *t = m->tpl;
  for (int q = 0; q < t->ntears; q++) {
    t->tears[q].res_block = lied_template_producer(t, t->tears[q].res);
    if (t->tears[q].res_block < 0)
      return lied_errc(m->e, LIED_E_MODEL,
                       "residual %s of tearing pair (%s, %s) is written by no block",
                       t->vars[t->tears[q].res_var].name, t->vars[t->tears[q].tear_var].name,
                       t->vars[t->tears[q].res_var].name);
  }
  for (int q = 0; q < t->nstates; q++)
    if (lied_template_producer(t, t->states[q].der) < 0)
      return lied_errc(m->e, LIED_E_MODEL, "derivative of state %s is written by no block",
                       t->vars[t->states[q].var].name);
  return LIED_OK;
}

/* What input address a (number ia in the raw list) of block b reads: time,
 * a constant, a port's signal, an internal link, a state, a tearing variable
 * or another block's output (reading its own output is an error). */
static int classify_input(const lied_meta *m, int b, int ia, lied_tref *out) {
  const void *a = m->addr[ia];
  const lied_template *t = m->tpl;
  lied_tref ref = {0, LIED_REF_CONST, 0, 0};
  uint32_t off = meta_off(m, a);
  int p, s;
  if (a == (const void *)&lied_time) {
    ref.kind = LIED_REF_TIME;
  } else if (off == UINT32_MAX) {
    ref.kind = LIED_REF_CONST;
  } else if (is_port_read(t, off, &p, &s)) {
    ref = (lied_tref){off, LIED_REF_PORT, (uint16_t)p, (uint16_t)s, 0, 0};
  } else if (is_link(m, off)) {
    ref = (lied_tref){off, LIED_REF_PORT, LIED_NO_PORT, 0, 0, (uint8_t)is_link(m, off)};
  } else {
    ref.offset = off;
    for (int q = 0; q < t->nstates; q++)
      if (t->states[q].x == off) ref = (lied_tref){off, LIED_REF_STATE, (uint16_t)q, 0};
    for (int q = 0; q < t->ntears; q++)
      if (t->tears[q].tear == off) ref = (lied_tref){off, LIED_REF_TEAR, (uint16_t)q, 0};
    if (ref.kind == LIED_REF_CONST) {
      int pb = lied_template_producer(t, off);
      if (pb == b)
        return lied_errc(m->e, LIED_E_MODEL, "block %s reads its own output", m->raw[b].name);
      if (pb >= 0) ref = (lied_tref){off, LIED_REF_INTERNAL, (uint16_t)pb, 0};
    }
  }
  const int nv = m->avar[ia][1];
  if (nv) { /* lied_meta_reads: a port's reading pointer, within its signal */
    if (ref.kind != LIED_REF_PORT || ref.a == LIED_NO_PORT)
      return lied_errc(m->e, LIED_E_MODEL,
                       "block %s: lied_meta_reads names an input that is not a port's reading "
                       "pointer", m->raw[b].name);
    const lied_signal *sg = &t->ports[ref.a].layout->conn->signals[ref.b];
    if (m->avar[ia][0] + nv > sg->nvars)
      return lied_errc(m->e, LIED_E_MODEL,
                       "block %s reads variables %d .. %d of %s.%s, which has %d (%s)",
                       m->raw[b].name, m->avar[ia][0] + 1, m->avar[ia][0] + nv,
                       t->ports[ref.a].name, sg->name, sg->nvars, sg->vars);
    ref.first = m->avar[ia][0];
    ref.nvars = (uint8_t)nv;
  }
  *out = ref;
  return LIED_OK;
}

/* The template's blocks and their classified input and output references. */
static int classify(lied_meta *m) {
  lied_template *t = m->tpl;
  lied_err *e = m->e;
  t->nblocks = m->nraw;
  t->blocks = lied_xcalloc((size_t)m->nraw + 1, sizeof *t->blocks, "blocks", e);
  t->refs = lied_xcalloc((size_t)m->naddr + 1, sizeof *t->refs, "refs", e);
  int nout = 0;
  for (int b = 0; b < m->nraw; b++) nout += m->raw[b].nout;
  t->outs = lied_xcalloc((size_t)nout + 1, sizeof *t->outs, "outputs", e);
  if (!t->blocks || !t->refs || !t->outs) return LIED_E_NOMEM;
  /* outputs first, so inputs can find their producers */
  LIED_TRY(collect_outputs(m));
  LIED_TRY(check_signals_covered(m));
  LIED_TRY(check_producers(m));
  int n = 0;
  for (int b = 0; b < m->nraw; b++) {
    const raw_block *r = &m->raw[b];
    lied_tblock *tb = &t->blocks[b];
    *tb = (lied_tblock){r->name, r->fn, r->lanes, r->flags, (uint32_t)n, (uint32_t)r->nin,
                        0, (uint32_t)r->nout};
    for (int i = 0; i < r->nin; i++)
      LIED_TRY(classify_input(m, b, r->in0 + i, &t->refs[n++]));
    tb->out0 = (uint32_t)n;
    for (int i = 0; i < r->nout; i++)
      t->refs[n++] = (lied_tref){meta_off(m, m->addr[r->out0 + i]), LIED_REF_OUT, 0, 0, 0,
                                 m->avar[r->out0 + i][1]};
  }
  t->nrefs = n;
  return LIED_OK;
}

int lied_template_crawl(lied_template *tpl, const lied_class *cls, void *inst,
                        size_t size, lied_err *e) {
  memset(tpl, 0, sizeof *tpl);
  lied_meta m = {.tpl = tpl, .base = inst, .size = size, .e = e};
  cls->meta(&m, inst);
  int rc = m.failed ? lied_err_code(e) : classify(&m);
  if (!rc) rc = check_events(&m);
  free(m.raw);
  free(m.addr);
  free(m.avar);
  free(m.links);
  free(m.linkvars);
  if (rc) lied_template_free(tpl);
  return rc;
}

void lied_template_free(lied_template *t) {
  for (int i = 0; i < t->nports; i++) free(t->ports[i].name);
  for (int i = 0; i < t->nvars; i++) {
    free(t->vars[i].name);
    free(t->vars[i].unit_owned);
  }
  free(t->ports);
  free(t->vars);
  free(t->blocks);
  free(t->refs);
  free(t->states);
  free(t->tears);
  free(t->outs);
  free(t->zeros);
  memset(t, 0, sizeof *t);
}

int lied_template_check(const lied_template *tpl, const lied_class *cls, void *inst,
                        size_t size, lied_err *e) {
  lied_meta m = {.base = inst, .size = size, .e = e, .ref = tpl};
  cls->meta(&m, inst);
  if (!m.differs && (m.cv != tpl->nvars || m.cp != tpl->nports || m.cs != tpl->nstates ||
                     m.ct != tpl->ntears || m.cb != tpl->nblocks || m.cz != tpl->nzeros ||
                     (tpl->next_event && !m.cnext) || (tpl->handler && !m.chandler)))
    m.differs = "fewer ports, variables, states, blocks or events";
  if (!m.differs) return LIED_OK;
  return lied_errc(e, LIED_E_PARAM,
                   "with its per-copy parameter values, %s declares another structure than "
                   "for the other copies (%s): a parameter that selects structure takes one "
                   "value for every copy",
                   cls->name, m.differs);
}
