/* recorder.c - resolve recorded variables by name or glob, sample them. */
#include "core/finite.h"
#include "record/recorder.h"
#include "core/text.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The slot of name in r->slots: the one holding it, or the empty one where
 * it goes. */
static size_t *name_slot(const lied_recorder *r, const char *name) {
  size_t i = (size_t)lied_fnv1a(LIED_FNV_BASIS, name, strlen(name)) & (r->nslots - 1);
  while (r->slots[i] && strcmp(r->names[r->slots[i] - 1], name) != 0)
    i = (i + 1) & (r->nslots - 1);
  return &r->slots[i];
}

/* r->slots with room for one more name (made from the names selected so
 * far at the second item, rehashed as r->n grows). */
static int grow_slots(lied_recorder *r, lied_err *e) {
  if (2 * (r->n + 1) < r->nslots) return LIED_OK;
  size_t ns = r->nslots ? r->nslots : 64;
  while (2 * (r->n + 1) >= ns) ns *= 2;
  size_t *sl = lied_xcalloc(ns, sizeof *sl, "recorder", e);
  if (!sl) return LIED_E_NOMEM;
  free(r->slots);
  r->slots = sl, r->nslots = ns;
  for (size_t i = 0; i < r->n; i++) *name_slot(r, r->names[i]) = i + 1;
  return LIED_OK;
}

static int add_var(lied_recorder *r, const char *name, const char *unit,
                   const double *addr, lied_err *e) {
  size_t *slot = NULL;
  if (r->nitems > 0) { /* an item's walk names each variable once: the first needs no set */
    LIED_TRY(grow_slots(r, e));
    slot = name_slot(r, name);
    if (*slot) { /* selected by an earlier item: one column */
      r->item_dup[r->nitems]++;
      return LIED_OK;
    }
  }
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
  if (slot) *slot = r->n;
  return LIED_OK;
}

typedef struct glob_ctx {
  lied_recorder *r;
  const char *pat;
  int states_only;
  volatile sig_atomic_t *stop;
  lied_err *e;
  long matched;
  int rc; /* the failure that stopped the walk */
} glob_ctx;

static int on_var(void *ctx, const char *name, const char *unit,
                  const double *addr, int kind) {
  glob_ctx *g = ctx;
  if (g->states_only ? kind != LIED_VAR_STATE : !lied_glob(g->pat, name)) return 0;
  g->matched++;
  g->rc = add_var(g->r, name, unit, addr, g->e);
  return g->rc < 0; /* nonzero stops the walk */
}

/* Walk the model's variables with on_var: LIED_OK, the failure of a visit,
 * LIED_WALK_STOPPED (g->stop set), or LIED_E_NOMEM when the walk itself
 * failed (it has no error context). */
static int walk_vars(const lied_model *m, glob_ctx *g) {
  int rc = lied_model_each_var_matching(m, g->states_only ? NULL : g->pat, g->stop, on_var, g);
  if (g->rc < 0) return g->rc;
  if (rc == LIED_WALK_STOPPED) return rc;
  if (rc) return lied_errc(g->e, LIED_E_NOMEM, "out of memory (listing the model's variables)");
  return LIED_OK;
}

static int select_items(lied_recorder *r, const lied_model *m, const char *p, char *item,
                        volatile sig_atomic_t *stop, lied_err *e);

/* r->item_dup[r->nitems], the count of the item about to be selected, at 0. */
static int next_item_dup(lied_recorder *r, lied_err *e) {
  LIED_TRY(
      lied_grow((void **)&r->item_dup, &r->item_dup_cap, r->nitems + 1, sizeof *r->item_dup, e));
  r->item_dup[r->nitems] = 0;
  return LIED_OK;
}

/* Note item text, which selected the variables from r->n - before on. */
static int add_item(lied_recorder *r, const char *text, size_t before, lied_err *e) {
  LIED_TRY(lied_grow((void **)&r->items, &r->items_cap, r->nitems + 1, sizeof *r->items, e));
  LIED_TRY(lied_grow((void **)&r->item_n, &r->item_n_cap, r->nitems + 1, sizeof *r->item_n, e));
  if (!(r->items[r->nitems] = lied_strdup(text, e))) return LIED_E_NOMEM;
  r->item_n[r->nitems++] = r->n - before;
  return LIED_OK;
}

int lied_recorder_check_list(const char *list, lied_err *e) {
  /* given, and empty (or commas alone, ",,"): not the default (issue 47) */
  if (list && !list[strspn(list, " \t,")])
    return lied_errc(e, LIED_E_USAGE,
                     "the variable list is empty (give names or patterns, \"t1.*,p1.m_flow\"; "
                     "leave it out for every state)");
  return LIED_OK;
}

int lied_recorder_select(lied_recorder *r, const lied_model *m, const char *list,
                         volatile sig_atomic_t *stop, lied_err *e) {
  LIED_TRY(lied_recorder_check_list(list, e));
  if (!list) {
    glob_ctx g = {r, NULL, 1, stop, e, 0, LIED_OK};
    size_t before = r->n;
    LIED_TRY(next_item_dup(r, e));
    const int rc = walk_vars(m, &g);
    return rc ? rc : add_item(r, "", before, e);
  }
  const char *p = list;
  /* work space for the longest item (names of any length) */
  char *item = lied_xmalloc(strlen(list) + 1, "variable list", e);
  if (!item) return LIED_E_NOMEM;
  int rc = select_items(r, m, p, item, stop, e);
  free(item);
  return rc;
}

static int select_items(lied_recorder *r, const lied_model *m, const char *p, char *item,
                        volatile sig_atomic_t *stop, lied_err *e) {
  for (const char *s; (s = lied_list_next(&p, item));) {
    if (!*s) continue;
    size_t before = r->n;
    LIED_TRY(next_item_dup(r, e));
    if (lied_is_glob(s)) {
      glob_ctx g = {r, s, 0, stop, e, 0, LIED_OK};
      const int rc = walk_vars(m, &g);
      if (rc) return rc;
      if (g.matched == 0 && !m->slice_spec)
        return lied_errc(e, LIED_E_USAGE, "no variable matches '%s'", s);
    } else if (!lied_model_remote(m, s)) {
      const char *unit = "";
      const double *a = lied_model_var(m, s, &unit, e);
      if (!a) return lied_err_code(e);
      LIED_TRY(add_var(r, s, unit, a, e));
    }
    LIED_TRY(add_item(r, s, before, e));
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
  /* the solvers check the states; a recorded variable that is not finite
   * (a power of 1e308 V over 1 Ohm) would reach the results without a word:
   * the run ends here, the rows before kept */
  const size_t bad = lied_first_nonfinite(r->row, r->n);
  if (bad < r->n)
    return lied_errc(e, LIED_E_NONFINITE, "at t = %.17g: variable %s became %g", t,
                     r->names[bad], r->row[bad]);
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
  for (int i = 0; i < r->nitems; i++) free(r->items[i]);
  free(r->items);
  free(r->item_n);
  free(r->item_dup);
  free(r->slots);
  for (int i = 0; i < r->nsinks; i++)
    if (r->owned[i]) r->sinks[i]->destroy(r->sinks[i]);
  memset(r, 0, sizeof *r);
}

/* ---- parameters ---------------------------------------------------------- */

void lied_params_free(lied_params *p) {
  for (size_t i = 0; p->names && i < p->n; i++) free(p->names[i]);
  free(p->names);
  free((void *)p->units);
  free(p->values);
  free(p->seg_n);
  memset(p, 0, sizeof *p);
}

int lied_params_collect(lied_params *p, const lied_model *m, size_t max, lied_err *e) {
  memset(p, 0, sizeof *p);
  size_t n = 0;
  for (int si = 0; si < m->nspecs; si++) {
    const lied_spec *sp = &m->specs[si];
    if (!sp->cls || sp->internal || !sp->arena) continue;
    size_t per = 0;
    for (int k = 0; k < sp->cls->nparams; k++)
      if (!(sp->cls->params[k].flags & LIED_PARAM_TABLES)) /* tables are not numbers */
        per += sp->cls->params[k].len > 1 ? (size_t)sp->cls->params[k].len : 1;
    if (sp->total > max || per * sp->total > max - n) return LIED_OK; /* too many: none */
    n += per * sp->total;
  }
  if (n == 0) return LIED_OK;
  p->names = lied_xcalloc(n, sizeof *p->names, "parameters", e);
  p->units = lied_xcalloc(n, sizeof *p->units, "parameters", e);
  p->values = lied_xcalloc(n, sizeof *p->values, "parameters", e);
  p->seg_n = lied_xcalloc((size_t)m->nspecs, sizeof *p->seg_n, "parameters", e);
  p->nseg = m->nspecs;
  if (!p->names || !p->units || !p->values || !p->seg_n) {
    lied_params_free(p);
    return LIED_E_NOMEM;
  }
  char path[512], name[600];
  for (int si = 0; si < m->nspecs; si++) {
    const lied_spec *sp = &m->specs[si];
    if (!sp->cls || sp->internal || !sp->arena) continue;
    size_t before = p->n;
    for (uint64_t i = 0; i < sp->total; i++) {
      lied_model_path(m, si, i, path, sizeof path);
      for (int k = 0; k < sp->cls->nparams; k++) {
        const lied_param *pr = &sp->cls->params[k];
        if (pr->flags & LIED_PARAM_TABLES) continue;
        const double *v = (const double *)(const void *)(lied_inst(sp, i) + pr->offset);
        int len = pr->len > 1 ? pr->len : 1;
        if (pr->len <= 1) { /* a state's start value has the state's name: the variable */
          snprintf(name, sizeof name, "%s.%s", path, pr->name);
          lied_err scratch;
          if (lied_model_var(m, name, NULL, &scratch)) continue;
        }
        for (int j = 0; j < len; j++) {
          if (pr->len > 1)
            snprintf(name, sizeof name, "%s.%s[%d]", path, pr->name, j + 1);
          else
            snprintf(name, sizeof name, "%s.%s", path, pr->name);
          p->names[p->n] = lied_strdup(name, e);
          if (!p->names[p->n]) {
            lied_params_free(p);
            return LIED_E_NOMEM;
          }
          p->units[p->n] = pr->unit ? pr->unit : "";
          p->values[p->n] = v[j];
          p->n++;
        }
      }
    }
    p->seg_n[si] = p->n - before;
  }
  return LIED_OK;
}
