/* model.c - the declared tree: specs, parameters, connections, port aliases. */
#include "core/model.h"
#include "core/table.h"
#include "core/text.h"
#include "core/wire.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lied_model *lied_model_new(lied_err *e) {
  return lied_xcalloc(1, sizeof(lied_model), "model", e);
}

void lied_model_free(lied_model *m) {
  if (!m) return;
  for (int i = 0; i < m->nspecs; i++) {
    lied_spec *s = &m->specs[i];
    free(s->name);
    free(s->where);
    free(s->proto);
    free(s->arena);
    if (!s->tpl_shared) lied_template_free(&s->tpl);
    for (int c = 0; c < s->npcopies; c++) free(s->pcopies[c].v);
    free(s->pcopies);
    free(s->start);
    for (int c = 0; c < s->nconns; c++) {
      free(s->conns[c].a);
      free(s->conns[c].b);
      free(s->conns[c].where);
    }
    free(s->conns);
    for (int c = 0; c < s->naliases; c++) {
      free(s->aliases[c].name);
      free(s->aliases[c].target);
    }
    free(s->aliases);
  }
  free(m->specs);
  free(m->child_slots);
  for (int i = 0; i < m->ntables; i++) lied_table_release(m->tables[i]);
  free(m->tables);
  free(m->table_slots);
  free(m);
}

/* Declared path of a spec ("crab.body1"), for messages. */
void lied_spec_path(const lied_model *m, int s, char *buf, size_t cap) {
  int chain[LIED_MAX_DEPTH], n = 0;
  for (int p = s; p > 0 && n < LIED_MAX_DEPTH; p = m->specs[p].parent) chain[n++] = p;
  size_t len = 0;
  buf[0] = 0;
  for (int i = n - 1; i >= 0 && len < cap; i--)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i == n - 1 ? "" : ".",
                            m->specs[chain[i]].name);
  if (n == 0) snprintf(buf, cap, "%s", "(model)");
}

static void set_defaults(const lied_class *cls, char *proto) {
  for (int i = 0; i < cls->nparams; i++) {
    const lied_param *p = &cls->params[i];
    if (p->flags & LIED_PARAM_TABLES) continue; /* NULL: given or refused (build.c) */
    int len = p->len > 1 ? p->len : 1;
    for (int k = 0; k < len; k++) {
      double v = (len > 1 && p->defs) ? p->defs[k] : p->def;
      if (p->flags & LIED_PARAM_INT)
        ((int *)(void *)(proto + p->offset))[k] = (int)v;
      else
        ((double *)(void *)(proto + p->offset))[k] = v;
    }
  }
}

/* The next spec with its name and a zeroed prototype of `size` bytes (0: a
 * composite, none), not yet counted in m->nspecs: the caller fills in the
 * rest and counts it. NULL when out of memory. */
static lied_spec *spec_new(lied_model *m, const char *name, size_t size, lied_err *e) {
  if (lied_grow((void **)&m->specs, &m->capspecs, m->nspecs + 1, sizeof *m->specs, e))
    return NULL;
  lied_spec *s = &m->specs[m->nspecs];
  memset(s, 0, sizeof *s);
  s->parent = -1;
  s->first_child = s->next_sibling = s->last_child = -1;
  s->size = size;
  s->name = lied_strdup(name ? name : "", e);
  s->proto = size ? lied_xcalloc(1, size, "prototype", e) : NULL;
  if (!s->name || (size && !s->proto)) {
    free(s->name);
    free(s->proto);
    return NULL;
  }
  return s;
}

/* FNV-1a over the parent and the name. */
static size_t child_hash(int parent, const char *name, size_t len) {
  const uint64_t h0 = (LIED_FNV_BASIS ^ (uint64_t)(uint32_t)parent) * LIED_FNV_PRIME;
  const uint64_t h = lied_fnv1a(h0, name, len);
  return (size_t)(h ^ (h >> 29));
}

int lied_model_child(const lied_model *m, int parent, const char *name, size_t len) {
  if (!m->child_cap) return -1;
  const size_t mask = m->child_cap - 1;
  for (size_t i = child_hash(parent, name, len) & mask;; i = (i + 1) & mask) {
    uint32_t v = m->child_slots[i];
    if (!v) return -1;
    const lied_spec *c = &m->specs[v - 1];
    if (c->parent == parent && strncmp(c->name, name, len) == 0 && c->name[len] == 0)
      return (int)v - 1;
  }
}

static void child_put(lied_model *m, int id) {
  const lied_spec *s = &m->specs[id];
  const size_t mask = m->child_cap - 1;
  size_t i = child_hash(s->parent, s->name, strlen(s->name)) & mask;
  while (m->child_slots[i]) i = (i + 1) & mask;
  m->child_slots[i] = (uint32_t)id + 1;
}

/* Room in the child index for one more spec (rehash at half load). */
static int child_reserve(lied_model *m, lied_err *e) {
  if (2 * ((size_t)m->nspecs + 1) <= m->child_cap) return LIED_OK;
  size_t cap = m->child_cap ? 2 * m->child_cap : 64;
  uint32_t *slots = lied_xcalloc(cap, sizeof *slots, "child index", e);
  if (!slots) return LIED_E_NOMEM;
  free(m->child_slots);
  m->child_slots = slots;
  m->child_cap = cap;
  for (int k = 0; k < m->nspecs; k++)
    if (m->specs[k].parent >= 0) child_put(m, k);
  return LIED_OK;
}

int lied_model_add(lied_model *m, int parent, const char *name,
                   const lied_class *cls, uint32_t count, int is_array,
                   const char *where, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  if ((parent < 0) != (m->nspecs == 0))
    return lied_errc(e, LIED_E_USAGE, "internal: the root must be added first, alone");
  if (parent >= 0 && (parent >= m->nspecs || m->specs[parent].cls))
    return lied_errc(e, LIED_E_USAGE, "internal: parent %d is not a composite", parent);
  if (count == 0 && !is_array)
    return lied_errc(e, LIED_E_MODEL, "%s: a scalar component needs count 1", name);
  if (parent >= 0) {
    int depth = 1;
    for (int p = parent; p > 0; p = m->specs[p].parent) depth++;
    if (depth >= LIED_MAX_DEPTH)
      return lied_errc(e, LIED_E_MODEL, "%s: models nested more than %d levels deep", name,
                       LIED_MAX_DEPTH - 1);
    if (lied_model_child(m, parent, name, strlen(name)) >= 0)
      return lied_errc(e, LIED_E_MODEL, "duplicate component name '%s'", name);
  }
  LIED_TRY(child_reserve(m, e));
  size_t size = 0;
  if (cls) {
    size = cls->size < sizeof(double) ? sizeof(double) : cls->size;
    size = (size + 7u) & ~(size_t)7u;
  }
  lied_spec *s = spec_new(m, name, size, e);
  if (!s) return LIED_E_NOMEM;
  s->where = where ? lied_strdup(where, e) : NULL;
  if (where && !s->where) {
    free(s->name);
    free(s->proto);
    return LIED_E_NOMEM;
  }
  s->parent = parent;
  s->count = count;
  s->is_array = is_array;
  s->cls = cls;
  if (cls) set_defaults(cls, s->proto);
  int id = m->nspecs++;
  if (parent >= 0) {
    /* append as last child, keeping declaration order */
    lied_spec *ps = &m->specs[parent];
    if (ps->last_child >= 0)
      m->specs[ps->last_child].next_sibling = id;
    else
      ps->first_child = id;
    ps->last_child = id;
    child_put(m, id);
  }
  return id;
}

int lied_model_add_internal(lied_model *m, const char *name,
                            const lied_class *cls, uint64_t count, size_t size,
                            lied_err *e) {
  lied_spec *s = spec_new(m, name, (size + 7u) & ~(size_t)7u, e);
  if (!s) return LIED_E_NOMEM;
  s->count = (uint32_t)(count > UINT32_MAX ? UINT32_MAX : count);
  s->is_array = 1;
  s->total = count;
  s->cls = cls;
  s->internal = 1;
  return m->nspecs++;
}

const lied_param *lied_class_param(const lied_class *cls, const char *name) {
  for (int i = 0; i < cls->nparams; i++)
    if (strcmp(cls->params[i].name, name) == 0) return &cls->params[i];
  return NULL;
}

/* Check v against p's range; writes the reason into buf when out of range. */
static int param_check(const lied_param *p, double v, char *buf, size_t cap) {
  if (!isfinite(v)) return snprintf(buf, cap, "must be finite"), -1;
  if ((p->flags & LIED_PARAM_INT) && v != floor(v))
    return snprintf(buf, cap, "must be an integer"), -1;
  int lo_bad = (p->flags & LIED_PARAM_MIN_OPEN) ? !(v > p->min) : !(v >= p->min);
  int hi_bad = (p->flags & LIED_PARAM_MAX_OPEN) ? !(v < p->max) : !(v <= p->max);
  if (lo_bad || hi_bad) {
    const char *lo = (p->flags & LIED_PARAM_MIN_OPEN) ? ">" : ">=";
    const char *hi = (p->flags & LIED_PARAM_MAX_OPEN) ? "<" : "<=";
    if (isinf(p->max))
      snprintf(buf, cap, "must be %s %g", lo, p->min);
    else if (isinf(p->min))
      snprintf(buf, cap, "must be %s %g", hi, p->max);
    else
      snprintf(buf, cap, "must be %s %g and %s %g", lo, p->min, hi, p->max);
    return -1;
  }
  return 0;
}

/* Parameter `name` of leaf spec `spec` taking n values, or LIED_E_MODEL /
 * LIED_E_PARAM naming the spec. */
static int param_lookup(lied_model *m, int spec, const char *name, int n,
                        const lied_param **out, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  lied_spec *s = &m->specs[spec];
  char path[512];
  lied_spec_path(m, spec, path, sizeof path);
  if (!s->cls) return lied_errc(e, LIED_E_MODEL, "%s: not a component with parameters", path);
  const lied_param *p = lied_class_param(s->cls, name);
  if (!p) {
    const char *cand[128];
    int nc = 0;
    for (int i = 0; i < s->cls->nparams && nc < 128; i++) cand[nc++] = s->cls->params[i].name;
    char dym[300];
    return lied_errc(e, LIED_E_MODEL, "%s: %s has no parameter '%s'%s", path, s->cls->name,
                     name, lied_did_you_mean(dym, sizeof dym, name, cand, nc));
  }
  int len = p->len > 1 ? p->len : 1;
  if (n != len)
    return lied_errc(e, LIED_E_PARAM, "%s: parameter %s takes %d value%s, got %d", path,
                     name, len, len > 1 ? "s" : "", n);
  *out = p;
  return LIED_OK;
}

/* Table parameter p of instance inst (LIED_ALL_COPIES: the spec) takes the
 * table with id v: one of the model's, of p's rank. */
static int table_check(const lied_model *m, int spec, uint64_t inst, const lied_param *p,
                       double v, lied_err *e) {
  const int want = (p->flags & LIED_PARAM_MAP) ? 2 : 1;
  const char *why = NULL;
  if (!(v >= 0 && v < m->ntables && v == floor(v)))
    why = "must be a table (lied.table {...})";
  else if (lied_table_rank(m->tables[(int)v]) != want)
    why = want == 2 ? "must be a 2-D map (lied.table {x1 = ..., x2 = ..., z = ...}), got a 1-D table"
                    : "must be a 1-D table (lied.table {x = ..., y = ...}), got a 2-D map";
  if (!why) return LIED_OK;
  char path[512];
  if (inst == LIED_ALL_COPIES)
    lied_spec_path(m, spec, path, sizeof path);
  else
    lied_model_path(m, spec, inst, path, sizeof path);
  return lied_errc(e, LIED_E_PARAM, "%s: parameter %s %s", path, p->name, why);
}

/* The model's table holding what t holds, or -1: the index by hash (open
 * addressing, id + 1 per slot), so a million copies given their own tables
 * cost a million lookups, not a million squared comparisons. */
static int table_find(const lied_model *m, const lied_table *t) {
  if (!m->table_cap) return -1;
  const size_t mask = m->table_cap - 1;
  for (size_t i = (size_t)lied_table_hash(t) & mask;; i = (i + 1) & mask) {
    uint32_t v = m->table_slots[i];
    if (!v) return -1;
    if (lied_table_same(m->tables[v - 1], t)) return (int)v - 1;
  }
}

static void table_put(lied_model *m, int id) {
  const size_t mask = m->table_cap - 1;
  size_t i = (size_t)lied_table_hash(m->tables[id]) & mask;
  while (m->table_slots[i]) i = (i + 1) & mask;
  m->table_slots[i] = (uint32_t)id + 1;
}

int lied_model_add_table(lied_model *m, lied_table *t, lied_err *e) {
  int id = table_find(m, t);
  if (id >= 0) return id;
  LIED_TRY(lied_table_check(t, e));
  LIED_TRY(lied_grow((void **)&m->tables, &m->captables, m->ntables + 1, sizeof *m->tables, e));
  if (2 * ((size_t)m->ntables + 1) > m->table_cap) { /* rehash at half load */
    size_t cap = m->table_cap ? 2 * m->table_cap : 16;
    uint32_t *slots = lied_xcalloc(cap, sizeof *slots, "table index", e);
    if (!slots) return LIED_E_NOMEM;
    free(m->table_slots);
    m->table_slots = slots;
    m->table_cap = cap;
    for (int k = 0; k < m->ntables; k++) table_put(m, k);
  }
  lied_table_retain(t);
  m->tables[m->ntables] = t;
  table_put(m, m->ntables);
  return m->ntables++;
}

/* The values v of p for instance inst (LIED_ALL_COPIES: the spec) in range,
 * or LIED_E_PARAM naming the instance. */
static int values_check(const lied_model *m, int spec, uint64_t inst, const lied_param *p,
                        const double *v, lied_err *e) {
  if (p->flags & LIED_PARAM_TABLES) return table_check(m, spec, inst, p, v[0], e);
  int len = p->len > 1 ? p->len : 1;
  for (int k = 0; k < len; k++) {
    char why[128];
    if (!param_check(p, v[k], why, sizeof why)) continue;
    char path[512];
    if (inst == LIED_ALL_COPIES)
      lied_spec_path(m, spec, path, sizeof path);
    else
      lied_model_path(m, spec, inst, path, sizeof path);
    /* a NaN is "nan" whatever its sign bit (0/0 in Lua sets it: printf's "-nan") */
    return lied_errc(e, LIED_E_PARAM, "%s: parameter %s = %g [%s] %s", path, p->name,
                     isnan(v[k]) ? fabs(v[k]) : v[k], p->unit ? p->unit : "", why);
  }
  return LIED_OK;
}

void lied_param_put(const lied_model *m, char *inst, const lied_param *p, const double *v) {
  if (p->flags & LIED_PARAM_TABLES) {
    const lied_table *t = m->tables[(int)v[0]]; /* checked by values_check */
    memcpy(inst + p->offset, &t, sizeof t);
    return;
  }
  int len = p->len > 1 ? p->len : 1;
  for (int k = 0; k < len; k++) {
    if (p->flags & LIED_PARAM_INT)
      ((int *)(void *)(inst + p->offset))[k] = (int)v[k];
    else
      ((double *)(void *)(inst + p->offset))[k] = v[k];
  }
}

int lied_model_set_param(lied_model *m, int spec, const char *name,
                         const double *v, int n, lied_err *e) {
  const lied_param *p;
  LIED_TRY(param_lookup(m, spec, name, n, &p, e));
  LIED_TRY(values_check(m, spec, LIED_ALL_COPIES, p, v, e));
  lied_param_put(m, m->specs[spec].proto, p, v);
  return LIED_OK;
}

uint64_t lied_spec_total(const lied_model *m, int s) {
  uint64_t t = 1;
  for (int p = s; p > 0; p = m->specs[p].parent) {
    uint32_t c = m->specs[p].count;
    if (c && t > UINT64_MAX / c) return UINT64_MAX;
    t *= c;
  }
  return t;
}

/* Append a per-copy entry of nv values (copied) to leaf spec `spec`. */
static int pcopy_add(lied_model *m, int spec, const lied_param *p, uint64_t inst,
                     const double *v, size_t nv, lied_err *e) {
  lied_spec *s = &m->specs[spec];
  LIED_TRY(lied_grow((void **)&s->pcopies, &s->cappcopies, s->npcopies + 1, sizeof *s->pcopies,
                     e));
  double *c = lied_xmalloc(nv * sizeof *c, "per-copy values", e);
  if (!c) return LIED_E_NOMEM;
  memcpy(c, v, nv * sizeof *c);
  s->pcopies[s->npcopies++] = (lied_pcopy){p, inst, c};
  return LIED_OK;
}

int lied_model_set_param_copies(lied_model *m, int spec, const char *name,
                                const double *v, int n, uint64_t ncopies, lied_err *e) {
  const lied_param *p;
  LIED_TRY(param_lookup(m, spec, name, n, &p, e));
  const uint64_t total = lied_spec_total(m, spec);
  if (ncopies != total) {
    char path[512];
    lied_spec_path(m, spec, path, sizeof path);
    return lied_errc(e, LIED_E_PARAM, "%s: parameter %s: %llu per-copy values for %llu copies",
                     path, name, (unsigned long long)ncopies, (unsigned long long)total);
  }
  if (total > SIZE_MAX / sizeof(double) / (size_t)n)
    return lied_errc(e, LIED_E_LIMIT, "too many per-copy values");
  for (uint64_t i = 0; i < total; i++) LIED_TRY(values_check(m, spec, i, p, v + i * (uint64_t)n, e));
  return pcopy_add(m, spec, p, LIED_ALL_COPIES, v, (size_t)total * (size_t)n, e);
}

int lied_model_set_param_at(lied_model *m, int spec, uint64_t inst, const char *name,
                            const double *v, int n, lied_err *e) {
  const lied_param *p;
  LIED_TRY(param_lookup(m, spec, name, n, &p, e));
  if (inst >= lied_spec_total(m, spec)) {
    char path[512];
    lied_spec_path(m, spec, path, sizeof path);
    return lied_errc(e, LIED_E_MODEL, "%s: copy %llu out of range (%llu copies)", path,
                     (unsigned long long)inst + 1, (unsigned long long)lied_spec_total(m, spec));
  }
  LIED_TRY(values_check(m, spec, inst, p, v, e));
  return pcopy_add(m, spec, p, inst, v, (size_t)n, e);
}

int lied_model_connect(lied_model *m, int spec, const char *a, const char *b,
                       const char *where, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  lied_spec *s = &m->specs[spec];
  if (s->cls) return lied_errc(e, LIED_E_MODEL, "connections belong to composite models");
  LIED_TRY(lied_grow((void **)&s->conns, &s->capconns, s->nconns + 1, sizeof *s->conns, e));
  lied_conn_decl *c = &s->conns[s->nconns];
  c->a = lied_strdup(a, e);
  c->b = lied_strdup(b, e);
  c->where = where ? lied_strdup(where, e) : NULL;
  c->nloop = c->wrap = 0;
  if (!c->a || !c->b || (where && !c->where)) {
    free(c->a);
    free(c->b);
    free(c->where);
    return LIED_E_NOMEM;
  }
  s->nconns++;
  return LIED_OK;
}

int lied_model_connect_each(lied_model *m, int spec, const char *a, const char *b,
                            const char *where, const lied_loop *loop, int nloop, int wrap,
                            lied_err *e) {
  const char *at = where ? where : "", *sep = where ? ": " : "";
  if (nloop < 1 || nloop > LIED_MAX_LOOP)
    return lied_errc(e, LIED_E_MODEL, "%s%sa connection pattern takes 1 to %d loop variables, got %d",
                     at, sep, LIED_MAX_LOOP, nloop);
  for (int k = 0; k < nloop; k++) {
    const lied_loop *l = &loop[k];
    const char *nm = l->name;
    int ok = (nm[0] >= 'a' && nm[0] <= 'z') || (nm[0] >= 'A' && nm[0] <= 'Z') || nm[0] == '_';
    for (const char *q = nm; *q && ok; q++)
      ok = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_' || (*q >= '0' && *q <= '9');
    if (!ok || memchr(nm, 0, sizeof l->name) == NULL)
      return lied_errc(e, LIED_E_MODEL, "%s%sloop variable '%.15s' is not a short identifier", at,
                       sep, nm);
    for (int q = 0; q < k; q++)
      if (strcmp(loop[q].name, nm) == 0)
        return lied_errc(e, LIED_E_MODEL, "%s%sloop variable '%s' given twice", at, sep, nm);
    const int64_t lim = (int64_t)1 << 32;
    if (l->step == 0)
      return lied_errc(e, LIED_E_MODEL, "%s%sloop %s: the step must not be 0", at, sep, nm);
    if (l->first > lim || l->first < -lim || l->last > lim || l->last < -lim || l->step > lim ||
        l->step < -lim)
      return lied_errc(e, LIED_E_MODEL, "%s%sloop %s: bounds and step beyond 2^32", at, sep, nm);
  }
  lied_pend pe;
  if (lied_pattern_parse(a, loop, nloop, &pe, e) || lied_pattern_parse(b, loop, nloop, &pe, e))
    return lied_err_prefix(e, "%s%s", at, sep);
  LIED_TRY(lied_model_connect(m, spec, a, b, where, e));
  lied_conn_decl *c = &m->specs[spec].conns[m->specs[spec].nconns - 1];
  memcpy(c->loop, loop, sizeof *loop * (size_t)nloop);
  c->nloop = nloop;
  c->wrap = wrap;
  return LIED_OK;
}

int lied_model_alias(lied_model *m, int spec, const char *name,
                     const char *target, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  lied_spec *s = &m->specs[spec];
  if (s->cls) return lied_errc(e, LIED_E_MODEL, "port aliases belong to composite models");
  LIED_TRY(lied_grow((void **)&s->aliases, &s->capaliases, s->naliases + 1, sizeof *s->aliases,
                     e));
  lied_alias *a = &s->aliases[s->naliases];
  a->name = lied_strdup(name, e);
  a->target = lied_strdup(target, e);
  if (!a->name || !a->target) {
    free(a->name);
    free(a->target);
    return LIED_E_NOMEM;
  }
  s->naliases++;
  return LIED_OK;
}

