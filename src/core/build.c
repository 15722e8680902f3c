/* build.c - instantiation: one prototype per declared component, copied into
 * a contiguous arena per spec, then wired (wire.c); locating addresses in
 * the arenas. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model.h"

const double lied_port_zeros[LIED_MAX_SIGNAL_VARS];

struct lied_init {
  lied_err *e;
  const char *path; /* the site, or NULL: made from (m, spec, inst) when needed */
  int failed;
  const lied_model *m;
  int spec;
  uint64_t inst;
};

/* "file:line: crab[7].body2" of instance inst of leaf spec s into site. */
static void copy_site(const lied_model *m, int s, uint64_t inst, char *site, size_t cap) {
  const lied_spec *sp = &m->specs[s];
  char path[512];
  lied_model_path(m, s, inst, path, sizeof path);
  snprintf(site, cap, "%s%s%s", sp->where ? sp->where : "", sp->where ? ": " : "", path);
}

void lied_init_error(lied_init *ctx, const char *fmt, ...) {
  char msg[LIED_ERR_MAX], site[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ctx->failed = 1;
  if (!ctx->path) copy_site(ctx->m, ctx->spec, ctx->inst, site, sizeof site);
  lied_errc(ctx->e, LIED_E_PARAM, "%s: %s", ctx->path ? ctx->path : site, msg);
}

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

typedef struct arena_key {
  const char *arena;
  int id;
} arena_key;
static int cmp_arena(const void *a, const void *b) {
  const char *x = ((const arena_key *)a)->arena, *y = ((const arena_key *)b)->arena;
  return (x > y) - (x < y);
}

/* Spec ids of all leaf specs with arenas, sorted by arena address. */
int *lied_model_arena_order(const lied_model *m, int *n, lied_err *e) {
  int *ids = lied_xmalloc(sizeof(int) * (size_t)(m->nspecs + 1), "order", e);
  if (!ids) return NULL;
  int k = 0;
  for (int s = 0; s < m->nspecs; s++)
    if (m->specs[s].cls && m->specs[s].total) ids[k++] = s;
  /* a composite may have 100,000s of leaf children: O(k log k) */
  arena_key *key = lied_xmalloc(sizeof *key * (size_t)(k + 1), "order", e);
  if (!key) {
    free(ids);
    return NULL;
  }
  for (int i = 0; i < k; i++) key[i] = (arena_key){m->specs[ids[i]].arena, ids[i]};
  qsort(key, (size_t)k, sizeof *key, cmp_arena);
  for (int i = 0; i < k; i++) ids[i] = key[i].id;
  free(key);
  *n = k;
  return ids;
}

/* Describe the port signal storage at address p ("s.outlet[1]"). */
/* ---- instantiation ----------------------------------------------------------- */

/* Instances of every spec in the whole model: the product of the counts on
 * its path. LIED_E_LIMIT beyond 2^64. */
static int instance_totals(lied_model *m, lied_err *e) {
  m->specs[0].total = 1;
  for (int s = 1; s < m->nspecs; s++) {
    lied_spec *sp = &m->specs[s];
    uint64_t pt = m->specs[sp->parent].total;
    if (sp->count && pt > UINT64_MAX / sp->count)
      return lied_errc(e, LIED_E_LIMIT, "model too large");
    sp->total = pt * sp->count;
  }
  return LIED_OK;
}

static int cmp_pcopy(const void *a, const void *b) {
  const lied_pcopy *x = *(const lied_pcopy *const *)a, *y = *(const lied_pcopy *const *)b;
  if (x->inst != y->inst) return x->inst < y->inst ? -1 : 1;
  return (x > y) - (x < y); /* stable: in the order given */
}

/* Instance i of leaf spec s from the raw prototype (before init) with its
 * per-copy values: the values of every copy (dense), then its own (the
 * sparse entries *sp .. end with inst == i). When they change nothing the
 * arena keeps the prototype; otherwise init and a structure check. */
static int make_copy(lied_model *m, int s, uint64_t i, const char *raw, char *buf,
                     lied_pcopy *const *dense, int ndense, lied_pcopy *const **sp,
                     lied_pcopy *const *end, lied_err *e) {
  lied_spec *sp_ = &m->specs[s];
  memcpy(buf, raw, sp_->size);
  for (int k = 0; k < ndense; k++) {
    const lied_param *p = dense[k]->p;
    lied_param_put(m, buf, p, dense[k]->v + i * (uint64_t)(p->len > 1 ? p->len : 1));
  }
  for (; *sp < end && (**sp)->inst == i; (*sp)++) lied_param_put(m, buf, (**sp)->p, (**sp)->v);
  if (memcmp(buf, raw, sp_->size) == 0) return LIED_OK;
  /* the copy's path and site are made only for a message: 100,000 houses
   * with values of their own spent a third of their instantiation on them */
  char site[1024];
  if (sp_->cls->init) {
    lied_init ctx = {e, NULL, 0, m, s, i};
    if (sp_->cls->init(buf, &ctx) || ctx.failed) {
      if (ctx.failed) return lied_err_code(e);
      copy_site(m, s, i, site, sizeof site);
      return lied_errc(e, LIED_E_PARAM, "%s: initialisation failed", site);
    }
  }
  if (lied_template_check(&sp_->tpl, sp_->cls, buf, sp_->size, e) < 0) {
    copy_site(m, s, i, site, sizeof site);
    return lied_err_prefix(e, "%s: ", site);
  }
  memcpy(lied_inst(sp_, i), buf, sp_->size);
  return LIED_OK;
}

/* The per-copy values of leaf spec s over its arena of prototype copies
 * (raw: the prototype before init), then the start values of its states
 * per instance; the entries are freed. */
static int apply_copies(lied_model *m, int s, const char *raw, lied_err *e) {
  lied_spec *sp = &m->specs[s];
  const int n = sp->npcopies;
  lied_pcopy **ord = lied_xmalloc(sizeof *ord * (size_t)n, "per-copy values", e);
  char *buf = lied_xmalloc(sp->size, "per-copy values", e);
  int rc = (!ord || !buf) ? LIED_E_NOMEM : LIED_OK;
  int ndense = 0;
  if (rc == LIED_OK) {
    for (int k = 0; k < n; k++) ord[k] = &sp->pcopies[k];
    qsort(ord, (size_t)n, sizeof *ord, cmp_pcopy); /* LIED_ALL_COPIES sorts last */
    while (ndense < n && ord[n - 1 - ndense]->inst == LIED_ALL_COPIES) ndense++;
    /* dense entries in the order given, after the sparse ones */
    lied_pcopy **dense = ord + (n - ndense);
    lied_pcopy *const *cur = ord, *const *end = ord + (n - ndense);
    if (ndense) {
      for (uint64_t i = 0; i < sp->total && rc == LIED_OK; i++)
        rc = make_copy(m, s, i, raw, buf, dense, ndense, &cur, end, e);
    } else {
      while (cur < end && rc == LIED_OK)
        rc = make_copy(m, s, (*cur)->inst, raw, buf, NULL, 0, &cur, end, e);
    }
  }
  if (rc == LIED_OK && sp->tpl.nstates) {
    const int q = sp->tpl.nstates;
    if (sp->total > SIZE_MAX / sizeof(double) / (size_t)q) rc = lied_errc(e, LIED_E_LIMIT, "too many states");
    else if (!(sp->start = lied_xmalloc(sizeof(double) * (size_t)sp->total * (size_t)q,
                                        "start values", e)))
      rc = LIED_E_NOMEM;
    for (uint64_t i = 0; rc == LIED_OK && i < sp->total; i++)
      for (int k = 0; k < q; k++)
        sp->start[i * (uint64_t)q + (uint64_t)k] =
            *(const double *)(const void *)(lied_inst(sp, i) + sp->tpl.states[k].x);
  }
  free(ord);
  free(buf);
  for (int k = 0; k < n; k++) free(sp->pcopies[k].v);
  free(sp->pcopies);
  sp->pcopies = NULL;
  sp->npcopies = sp->cappcopies = 0;
  return rc;
}

/* Templates already crawled, by class: a spec whose prototype declares the
 * structure of one of them shares it (a composite of 100,000 bodies has one
 * body template, not 100,000). Open addressing on the class pointer, a few
 * templates per class, the most recent first. */
#define TC_WAYS 4
typedef struct tc_entry {
  const lied_class *cls;
  int owner[TC_WAYS]; /* specs holding the templates */
  int n, next;
} tc_entry;
typedef struct tcache {
  tc_entry *e;
  size_t cap, used;
} tcache;

static tc_entry *tc_find(tcache *c, const lied_class *cls, lied_err *e) {
  if (2 * (c->used + 1) > c->cap) { /* grow */
    size_t cap = c->cap ? 2 * c->cap : 64;
    tc_entry *ne = lied_xcalloc(cap, sizeof *ne, "template cache", e);
    if (!ne) return NULL;
    for (size_t i = 0; i < c->cap; i++) {
      if (!c->e[i].cls) continue;
      size_t h = ((uintptr_t)c->e[i].cls >> 4) & (cap - 1);
      while (ne[h].cls) h = (h + 1) & (cap - 1);
      ne[h] = c->e[i];
    }
    free(c->e);
    c->e = ne;
    c->cap = cap;
  }
  size_t h = ((uintptr_t)cls >> 4) & (c->cap - 1);
  while (c->e[h].cls && c->e[h].cls != cls) h = (h + 1) & (c->cap - 1);
  if (!c->e[h].cls) {
    c->e[h].cls = cls;
    c->used++;
  }
  return &c->e[h];
}

/* The template of leaf spec s: shared with an earlier spec of its class
 * whose structure its prototype declares too (lied_template_check), or
 * crawled. */
static int spec_template(lied_model *m, int s, tcache *tc, lied_err *e) {
  lied_spec *sp = &m->specs[s];
  tc_entry *t = tc_find(tc, sp->cls, e);
  if (!t) return LIED_E_NOMEM;
  lied_err scratch = {0};
  for (int k = 0; k < t->n; k++) {
    const lied_spec *o = &m->specs[t->owner[k]];
    if (o->size == sp->size &&
        lied_template_check(&o->tpl, sp->cls, sp->proto, sp->size, &scratch) == LIED_OK) {
      sp->tpl = o->tpl;
      sp->tpl_shared = 1;
      return LIED_OK;
    }
  }
  LIED_TRY(lied_template_crawl(&sp->tpl, sp->cls, sp->proto, sp->size, e));
  t->owner[t->next] = s;
  t->next = (t->next + 1) % TC_WAYS;
  if (t->n < TC_WAYS) t->n++;
  return LIED_OK;
}

/* LIED_E_PARAM naming the first table parameter of leaf spec sp that was
 * not given (every copy has one when the prototype has: per-copy values
 * replace tables by tables). */
static int missing_tables(const lied_spec *sp, const char *site, lied_err *e) {
  for (int k = 0; k < sp->cls->nparams; k++) {
    const lied_param *p = &sp->cls->params[k];
    const void *t;
    if (!(p->flags & LIED_PARAM_TABLES)) continue;
    memcpy(&t, sp->proto + p->offset, sizeof t);
    if (!t)
      return lied_errc(e, LIED_E_PARAM, "%s: parameter %s: no %s given (%s = lied.table {...})",
                       site, p->name, (p->flags & LIED_PARAM_MAP) ? "map" : "table", p->name);
  }
  return LIED_OK;
}

/* Leaf spec s: the class's init on the prototype (LIED_E_PARAM when it
 * fails), its template, its arena of prototype copies and the copies'
 * own parameter values. */
static int instantiate_leaf(lied_model *m, int s, tcache *tc, lied_err *e) {
  lied_spec *sp = &m->specs[s];
  char path[512], site[1024];
  lied_spec_path(m, s, path, sizeof path);
  snprintf(site, sizeof site, "%s%s%s", sp->where ? sp->where : "", sp->where ? ": " : "", path);
  char *raw = NULL;
  if (sp->npcopies && sp->total) {
    /* the prototype takes the first copy's values of the parameters every
     * copy has its own value of: its structure (a medium's ports, a
     * parameter-selected input) is then that of a copy */
    for (int k = 0; k < sp->npcopies; k++)
      if (sp->pcopies[k].inst == LIED_ALL_COPIES)
        lied_param_put(m, sp->proto, sp->pcopies[k].p, sp->pcopies[k].v);
    if (!(raw = lied_xmalloc(sp->size, "prototype", e))) return LIED_E_NOMEM;
    memcpy(raw, sp->proto, sp->size);
  }
  int rc = missing_tables(sp, site, e);
  if (rc == LIED_OK && sp->cls->init) {
    lied_init ctx = {e, site, 0, m, s, 0};
    if (sp->cls->init(sp->proto, &ctx) || ctx.failed)
      rc = ctx.failed ? lied_err_code(e)
                      : lied_errc(e, LIED_E_PARAM, "%s: initialisation failed", path);
  }
  if (rc == LIED_OK && spec_template(m, s, tc, e) < 0)
    rc = lied_err_prefix(e, "%s (%s): ", path, sp->cls->name);
  if (rc == LIED_OK && sp->total > SIZE_MAX / sp->size)
    rc = lied_errc(e, LIED_E_LIMIT, "%s: too many instances", path);
  if (rc == LIED_OK && !(sp->arena = malloc(sp->total ? sp->total * sp->size : 1)))
    rc = lied_errc(e, LIED_E_NOMEM, "out of memory instantiating %s: %llu x %zu bytes", path,
                   (unsigned long long)sp->total, sp->size);
  if (rc == LIED_OK) {
    for (uint64_t i = 0; i < sp->total; i++)
      memcpy(sp->arena + i * sp->size, sp->proto, sp->size);
    m->ncomponents += sp->total;
    if (raw) rc = apply_copies(m, s, raw, e);
  }
  free(raw);
  return rc;
}

static int instantiate(lied_model *m, lied_err *e) {
  if (m->nspecs == 0) return lied_errc(e, LIED_E_MODEL, "empty model");
  m->ncomponents = 0;
  LIED_TRY(instance_totals(m, e));
  tcache tc = {0};
  int rc = LIED_OK;
  for (int s = 0; s < m->nspecs && rc == LIED_OK; s++)
    if (m->specs[s].cls) rc = instantiate_leaf(m, s, &tc, e);
  free(tc.e);
  return rc;
}

int lied_model_instantiate(lied_model *m, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  LIED_TRY(instantiate(m, e));
  LIED_TRY(lied_model_wire(m, e));
  m->instantiated = 1;
  return LIED_OK;
}

