/* names.c - hierarchical names generated on demand and resolved by name:
 * "crab[17].revolute2.phi" <-> (leaf spec, instance index, variable). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model.h"
#include "core/text.h"

size_t lied_model_path(const lied_model *m, int s, uint64_t i, char *buf,
                       size_t cap) {
  int chain[LIED_MAX_DEPTH], n = 0;
  uint64_t idx[LIED_MAX_DEPTH];
  for (int p = s; p > 0 && n < LIED_MAX_DEPTH; p = m->specs[p].parent) {
    const lied_spec *sp = &m->specs[p];
    idx[n] = i % sp->count;
    i /= sp->count;
    chain[n++] = p;
  }
  size_t len = 0;
  char tmp[32];
  for (int k = n - 1; k >= 0; k--) {
    const lied_spec *sp = &m->specs[chain[k]];
    tmp[0] = 0;
    uint64_t shown = idx[k] + 1 + sp->slice_first;
    if (sp->is_array) snprintf(tmp, sizeof tmp, "[%llu]", (unsigned long long)shown);
    int w = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
                     "%s%s%s", k == n - 1 ? "" : ".", sp->name, tmp);
    len += (size_t)(w > 0 ? w : 0);
  }
  if (cap && len >= cap) buf[cap - 1] = 0;
  if (cap && n == 0) buf[0] = 0;
  return len;
}

int lied_spec_step(const lied_model *m, int parent, const char **pp,
                   uint64_t *idx, int *child, lied_err *e) {
  const char *p = *pp;
  size_t len = strcspn(p, ".[");
  int c = lied_model_child(m, parent, p, len);
  if (c < 0) {
    const char *cand[256];
    int nc = 0;
    for (int k = m->specs[parent].first_child; k >= 0 && nc < 256;
         k = m->specs[k].next_sibling)
      cand[nc++] = m->specs[k].name;
    char nm[128];
    snprintf(nm, sizeof nm, "%.*s", (int)(len < 127 ? len : 127), p);
    char dym[300];
    return lied_errc(e, LIED_E_MODEL, "no component '%s'%s", nm,
                     lied_did_you_mean(dym, sizeof dym, nm, cand, nc));
  }
  const lied_spec *cs = &m->specs[c];
  p += len;
  uint64_t j = 0;
  if (*p == '[') {
    char *end;
    /* digits only: strtoull would take "-1" as 2^64 - 1 */
    unsigned long long v = p[1] >= '0' && p[1] <= '9' ? strtoull(p + 1, &end, 10) : 0;
    if (!(p[1] >= '0' && p[1] <= '9') || *end != ']')
      return lied_errc(e, LIED_E_MODEL, "bad index in '%s' (indices are whole numbers from 1)",
                       *pp);
    if (!cs->is_array)
      return lied_errc(e, LIED_E_MODEL, "'%s' is not an array", cs->name);
    if (cs->slice_global) { /* global indices */
      if (v < 1 || v > cs->slice_global)
        return lied_errc(e, LIED_E_MODEL,
                         "index %.*s out of range: %s has %llu elements (indices from 1)",
                         (int)(end - p - 1), p + 1, cs->name,
                         (unsigned long long)cs->slice_global);
      if (v - 1 < cs->slice_first || v - 1 - cs->slice_first >= cs->count)
        return lied_errc(e, LIED_E_MODEL,
                         "%s[%llu] is not in this process's slice %s[%llu..%llu] of the ensemble",
                         cs->name, v, cs->name, (unsigned long long)cs->slice_first + 1,
                         (unsigned long long)(cs->slice_first + cs->count));
      v -= cs->slice_first;
    } else if (v < 1 || v > cs->count)
      return lied_errc(e, LIED_E_MODEL,
                       "index %.*s out of range: %s has %u element%s (indices from 1)",
                       (int)(end - p - 1), p + 1, cs->name, cs->count, cs->count == 1 ? "" : "s");
    j = v - 1;
    p = end + 1;
  } else if (cs->is_array) {
    return lied_errc(e, LIED_E_MODEL, "'%s' is an array of %u: write %s[i]", cs->name,
                     cs->count, cs->name);
  }
  *idx = *idx * cs->count + j;
  if (*p == '.') p++;
  *pp = p;
  *child = c;
  return LIED_OK;
}

int lied_model_find(const lied_model *m, const char *path, int *spec,
                    uint64_t *inst, const char **rest, lied_err *e) {
  if (m->nspecs == 0) return lied_errc(e, LIED_E_MODEL, "empty model");
  int cur = 0;
  uint64_t idx = 0;
  const char *p = path;
  if (m->specs[0].cls) { /* the root itself is a component */
    *spec = 0, *inst = 0, *rest = p;
    return LIED_OK;
  }
  while (*p) {
    int c;
    if (lied_spec_step(m, cur, &p, &idx, &c, e) < 0)
      return lied_err_prefix(e, "%s: ", path);
    cur = c;
    if (m->specs[c].cls) {
      *spec = c, *inst = idx, *rest = p;
      return LIED_OK;
    }
  }
  return lied_errc(e, LIED_E_MODEL, "%s: names a composite, not a variable", path);
}

/* Address of template variable v of instance inst (after wiring). */
static const double *var_addr(const lied_spec *s, const lied_tvar *v,
                              uint64_t inst) {
  char *base = lied_inst(s, inst);
  if (v->kind == LIED_VAR_PORT_READ) {
    const double *p = *(const double *const *)(void *)(base + v->offset);
    return p ? p + v->sub : NULL;
  }
  return (const double *)(void *)(base + v->offset);
}

const double *lied_model_var(const lied_model *m, const char *path,
                             const char **unit, lied_err *e) {
  int s;
  uint64_t i;
  const char *rest;
  if (lied_model_find(m, path, &s, &i, &rest, e)) return NULL;
  const lied_spec *sp = &m->specs[s];
  const lied_template *t = &sp->tpl;
  for (int v = 0; v < t->nvars; v++)
    if (strcmp(t->vars[v].name, rest) == 0) {
      if (unit) *unit = t->vars[v].unit;
      const double *a = var_addr(sp, &t->vars[v], i);
      if (!a) lied_errc(e, LIED_E_MODEL, "%s: not connected", path);
      return a;
    }
  const char *cand[512];
  int nc = 0;
  for (int v = 0; v < t->nvars && nc < 512; v++) cand[nc++] = t->vars[v].name;
  char dym[300];
  lied_errc(e, LIED_E_MODEL, "%s: %s has no variable '%s'%s", path, sp->cls->name, rest,
            lied_did_you_mean(dym, sizeof dym, rest, cand, nc));
  return NULL;
}

/* The names are built in buf, which grows to the longest name (names are
 * never cut: a cut name would repeat in a CSV header). */
typedef struct walk_ctx {
  const lied_model *m;
  lied_var_visit fn;
  void *ctx;
  char *buf;
  size_t cap;
  const char *pat; /* or NULL: components no name under which can match are skipped */
  const volatile sig_atomic_t *stop; /* or NULL */
  uint64_t steps;                    /* copies walked, for the stop flag's checks */
} walk_ctx;

/* Room for need more bytes after len; -1 when out of memory. */
static int room(walk_ctx *w, size_t len, size_t need) {
  if (len + need < w->cap) return 0;
  size_t nc = w->cap ? w->cap : 1024;
  while (nc <= len + need) nc *= 2;
  char *nb = realloc(w->buf, nc);
  if (!nb) return -1;
  w->buf = nb;
  w->cap = nc;
  return 0;
}

static int walk(walk_ctx *w, int s, uint64_t parent_idx, size_t len) {
  const lied_spec *sp = &w->m->specs[s];
  if (s > 0 && sp->is_array && w->pat) { /* no copy can match when "...name" cannot: */
    if (room(w, len, strlen(sp->name) + 2)) return LIED_E_NOMEM; /* one test, not count */
    snprintf(w->buf + len, w->cap - len, "%s%s", len ? "." : "", sp->name);
    const int may = lied_glob_prefix(w->pat, w->buf);
    w->buf[len] = 0;
    if (!may) return 0;
  }
  for (uint64_t j = 0; j < sp->count; j++) {
    if (++w->steps % 4096 == 0 && w->stop && *w->stop) return LIED_WALK_STOPPED;
    uint64_t idx = parent_idx * sp->count + j;
    size_t l = len;
    if (sp->slice_global && (j + sp->slice_first < sp->own_first ||
                             j + sp->slice_first - sp->own_first >= sp->own_count))
      continue; /* a ghost copy: its owner lists it */
    if (s > 0) {
      if (room(w, len, strlen(sp->name) + 32)) return LIED_E_NOMEM;
      int n = snprintf(w->buf + len, w->cap - len, "%s%s", len ? "." : "", sp->name);
      l += (size_t)(n > 0 ? n : 0);
      if (sp->is_array)
        l += (size_t)snprintf(w->buf + l, w->cap - l, "[%llu]",
                              (unsigned long long)(j + 1 + sp->slice_first));
      if (w->pat && !lied_glob_prefix(w->pat, w->buf)) continue;
    }
    if (sp->cls) {
      const lied_template *t = &sp->tpl;
      for (int v = 0; v < t->nvars; v++) {
        /* read-side port variables are aliases of the source's storage:
         * listed under this component's name too (body2.frame_a.x) */
        if (room(w, l, strlen(t->vars[v].name) + 2)) return LIED_E_NOMEM;
        snprintf(w->buf + l, w->cap - l, "%s%s", l ? "." : "", t->vars[v].name);
        int rc = w->fn(w->ctx, w->buf, t->vars[v].unit,
                       var_addr(sp, &t->vars[v], idx), t->vars[v].kind);
        if (rc) return rc;
      }
    } else {
      for (int c = sp->first_child; c >= 0; c = w->m->specs[c].next_sibling) {
        int rc = walk(w, c, idx, l);
        if (rc) return rc;
      }
    }
    if (w->buf) w->buf[len] = 0;
  }
  return 0;
}

int lied_model_each_var(const lied_model *m, lied_var_visit fn, void *ctx) {
  return lied_model_each_var_matching(m, NULL, NULL, fn, ctx);
}

int lied_model_each_var_matching(const lied_model *m, const char *pattern,
                                 const volatile sig_atomic_t *stop, lied_var_visit fn, void *ctx) {
  if (m->nspecs == 0) return 0;
  walk_ctx w = {m, fn, ctx, NULL, 0, pattern, stop, 0};
  if (room(&w, 0, 1)) return LIED_E_NOMEM;
  w.buf[0] = 0;
  int rc = walk(&w, 0, 0, 0);
  free(w.buf);
  return rc;
}

int lied_model_set_slice(lied_model *m, int spec, uint64_t first, uint64_t global,
                         lied_err *e) {
  if (spec <= 0 || spec >= m->nspecs || m->specs[spec].parent != 0 || !m->specs[spec].is_array ||
      first + m->specs[spec].count > global)
    return lied_errc(e, LIED_E_USAGE,
                     "a slice of an ensemble is a range of the copies of an array at the top "
                     "level of the model");
  if (!m->slice_spec) m->slice_spec = spec;
  lied_spec *sp = &m->specs[spec];
  sp->slice_first = first;
  sp->slice_global = global;
  sp->own_first = first;
  sp->own_count = sp->count;
  return LIED_OK;
}

int lied_model_set_owned(lied_model *m, int spec, uint64_t own_first, uint64_t own_count,
                         lied_err *e) {
  if (spec <= 0 || spec >= m->nspecs || !m->specs[spec].slice_global ||
      own_first < m->specs[spec].slice_first ||
      own_first + own_count > m->specs[spec].slice_first + m->specs[spec].count)
    return lied_errc(e, LIED_E_USAGE,
                     "the copies a rank owns are a range of its slice of a top-level array");
  m->specs[spec].own_first = own_first;
  m->specs[spec].own_count = own_count;
  return LIED_OK;
}

int lied_model_remote(const lied_model *m, const char *path) {
  if (!m->slice_spec || m->nspecs == 0 || m->specs[0].cls) return 0;
  size_t len = strcspn(path, ".[");
  int c = lied_model_child(m, 0, path, len);
  if (c < 0 || !m->specs[c].slice_global || path[len] != '[') return 0;
  const lied_spec *sp = &m->specs[c];
  const char *p = path + len + 1;
  if (!(*p >= '0' && *p <= '9')) return 0;
  char *end;
  unsigned long long v = strtoull(p, &end, 10);
  if (*end != ']' || v < 1 || v > sp->slice_global) return 0;
  return v - 1 < sp->own_first || v - 1 - sp->own_first >= sp->own_count;
}
