/* recorder.c - resolve recorded variables by name or glob, sample them. */
#include "record/recorder.h"
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int add_var(lied_recorder *r, const char *name, const char *unit,
                   const double *addr, lied_err *e) {
  if (r->n == r->cap) {
    size_t nc = r->cap ? r->cap * 2 : 16;
    char **nn = realloc(r->names, nc * sizeof *nn);
    if (nn) r->names = nn;
    const char **nu = realloc(r->units, nc * sizeof *nu);
    if (nu) r->units = nu;
    const double **na = realloc(r->addr, nc * sizeof *na);
    if (na) r->addr = na;
    if (!nn || !nu || !na) return lied_errc(e, LIED_E_NOMEM, "out of memory (recorder)");
    r->cap = nc;
  }
  char *d = lied_strdup(name, e);
  if (!d) return LIED_E_NOMEM;
  r->names[r->n] = d;
  r->units[r->n] = unit ? unit : "";
  r->addr[r->n] = addr;
  r->n++;
  return LIED_OK;
}

typedef struct glob_ctx {
  lied_recorder *r;
  const char *pat;
  int states_only;
  lied_err *e;
  long matched;
  int rc; /* the failure that stopped the walk */
} glob_ctx;

static int on_var(void *ctx, const char *name, const char *unit,
                  const double *addr, int kind) {
  glob_ctx *g = ctx;
  if (g->states_only ? kind != LIED_VAR_STATE : fnmatch(g->pat, name, 0) != 0) return 0;
  g->matched++;
  g->rc = add_var(g->r, name, unit, addr, g->e);
  return g->rc < 0; /* nonzero stops the walk */
}

/* Walk the model's variables with on_var: LIED_OK, the failure of a visit,
 * or LIED_E_NOMEM when the walk itself failed (it has no error context). */
static int walk_vars(const lied_model *m, glob_ctx *g) {
  int rc = lied_model_each_var(m, on_var, g);
  if (g->rc < 0) return g->rc;
  if (rc) return lied_errc(g->e, LIED_E_NOMEM, "out of memory (listing the model's variables)");
  return LIED_OK;
}

static int select_items(lied_recorder *r, const lied_model *m, const char *p, char *item,
                        char *pat, lied_err *e);

int lied_recorder_select(lied_recorder *r, const lied_model *m, const char *list,
                         lied_err *e) {
  if (!list || !*list) {
    glob_ctx g = {r, NULL, 1, e, 0, LIED_OK};
    return walk_vars(m, &g);
  }
  const char *p = list;
  /* work space for the longest item and its pattern (names of any length) */
  char *item = lied_xmalloc(3 * strlen(list) + 3, "variable list", e);
  if (!item) return LIED_E_NOMEM;
  int rc = select_items(r, m, p, item, item + strlen(list) + 1, e);
  free(item);
  return rc;
}

static int select_items(lied_recorder *r, const lied_model *m, const char *p, char *item,
                        char *pat, lied_err *e) {
  while (*p) {
    size_t len = strcspn(p, ",");
    memcpy(item, p, len);
    item[len] = 0;
    p += len + (p[len] == ',');
    char *s = item;
    while (*s == ' ') s++;
    size_t l = strlen(s);
    while (l && s[l - 1] == ' ') s[--l] = 0;
    if (!*s) continue;
    if (strpbrk(s, "*?")) {
      /* brackets in names are array indices, not character classes */
      size_t k = 0;
      for (const char *c = s; *c; c++) {
        if (*c == '[' || *c == ']') pat[k++] = '\\';
        pat[k++] = *c;
      }
      pat[k] = 0;
      glob_ctx g = {r, pat, 0, e, 0, LIED_OK};
      LIED_TRY(walk_vars(m, &g));
      if (g.matched == 0) return lied_errc(e, LIED_E_USAGE, "no variable matches '%s'", s);
    } else {
      const char *unit = "";
      const double *a = lied_model_var(m, s, &unit, e);
      if (!a) return lied_err_code(e);
      LIED_TRY(add_var(r, s, unit, a, e));
    }
  }
  return LIED_OK;
}

int lied_recorder_add_sink(lied_recorder *r, lied_sink *s, int own, lied_err *e) {
  if (r->nsinks == LIED_MAX_SINKS) {
    if (own) s->destroy(s);
    return lied_errc(e, LIED_E_LIMIT, "too many sinks (at most %d)", LIED_MAX_SINKS);
  }
  r->owned[r->nsinks] = own;
  r->sinks[r->nsinks++] = s;
  return LIED_OK;
}

int lied_recorder_begin(lied_recorder *r, lied_err *e) {
  r->row = lied_xmalloc(sizeof(double) * (r->n + 1), "recorder row", e);
  if (!r->row) return LIED_E_NOMEM;
  for (int i = 0; i < r->nsinks; i++)
    LIED_TRY(r->sinks[i]->begin(r->sinks[i], r->n, r->names, r->units, e));
  return LIED_OK;
}

int lied_recorder_sample(lied_recorder *r, double t, lied_err *e) {
  for (size_t i = 0; i < r->n; i++) r->row[i] = *r->addr[i];
  for (int i = 0; i < r->nsinks; i++) LIED_TRY(r->sinks[i]->row(r->sinks[i], t, r->row, e));
  r->rows++;
  return LIED_OK;
}

int lied_recorder_end(lied_recorder *r, lied_err *e) {
  return lied_sinks_end(r->sinks, r->nsinks, e);
}

static int out_begin(void *ctx, lied_err *e) { return lied_recorder_begin(ctx, e); }
static int out_row(void *ctx, double t, lied_err *e) { return lied_recorder_sample(ctx, t, e); }
static int out_end(void *ctx, lied_err *e) {
  const lied_recorder *r = ctx;
  return r->row ? lied_recorder_end(ctx, e) : LIED_OK; /* begin() never ran */
}

lied_output lied_recorder_output(lied_recorder *r) {
  return (lied_output){out_begin, out_row, out_end, r};
}

void lied_recorder_free(lied_recorder *r) {
  for (size_t i = 0; i < r->n; i++) free(r->names[i]);
  free(r->names);
  free(r->units);
  free(r->addr);
  free(r->row);
  for (int i = 0; i < r->nsinks; i++)
    if (r->owned[i]) r->sinks[i]->destroy(r->sinks[i]);
  memset(r, 0, sizeof *r);
}
