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
  lied_errc(ctx->e, LIED_E_PARAM, "%s: %s", ctx->path, msg);
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

/* Leaf spec s: the class's init on the prototype (LIED_E_PARAM when it
 * fails), its template, and its arena of prototype copies. */
static int instantiate_leaf(lied_model *m, int s, lied_err *e) {
  lied_spec *sp = &m->specs[s];
  char path[512], site[1024];
  lied_spec_path(m, s, path, sizeof path);
  snprintf(site, sizeof site, "%s%s%s", sp->where ? sp->where : "", sp->where ? ": " : "", path);
  if (sp->cls->init) {
    lied_init ctx = {e, site, 0};
    if (sp->cls->init(sp->proto, &ctx) || ctx.failed)
      return ctx.failed ? lied_err_code(e)
                        : lied_errc(e, LIED_E_PARAM, "%s: initialisation failed", path);
  }
  if (lied_template_crawl(&sp->tpl, sp->cls, sp->proto, sp->size, e) < 0)
    return lied_err_prefix(e, "%s (%s): ", path, sp->cls->name);
  if (sp->total > SIZE_MAX / sp->size)
    return lied_errc(e, LIED_E_LIMIT, "%s: too many instances", path);
  sp->arena = malloc(sp->total ? sp->total * sp->size : 1);
  if (!sp->arena)
    return lied_errc(e, LIED_E_NOMEM, "out of memory instantiating %s: %llu x %zu bytes", path,
                     (unsigned long long)sp->total, sp->size);
  for (uint64_t i = 0; i < sp->total; i++) memcpy(sp->arena + i * sp->size, sp->proto, sp->size);
  m->ncomponents += sp->total;
  return LIED_OK;
}

static int instantiate(lied_model *m, lied_err *e) {
  if (m->nspecs == 0) return lied_errc(e, LIED_E_MODEL, "empty model");
  m->ncomponents = 0;
  LIED_TRY(instance_totals(m, e));
  for (int s = 0; s < m->nspecs; s++)
    if (m->specs[s].cls) LIED_TRY(instantiate_leaf(m, s, e));
  return LIED_OK;
}

int lied_model_instantiate(lied_model *m, lied_err *e) {
  if (m->instantiated) return lied_errc(e, LIED_E_USAGE, "model is already built");
  LIED_TRY(instantiate(m, e));
  LIED_TRY(lied_model_wire(m, e));
  m->instantiated = 1;
  return LIED_OK;
}

