/* pattern.c - connection patterns (lied.each): paths whose array indices
 * are affine expressions in loop variables ("crab[i+1].prismatic1.frame_b",
 * "row[i].cell[2*j-1].port"), resolved once per composite to a base
 * endpoint and one instance step per index, so each point of the loops
 * costs a few multiplications and no string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/wire.h"

#define PAT_INT_MAX ((int64_t)1 << 24) /* numbers in expressions (loop bounds < 2^32): no overflow */

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static void var_list(const lied_loop *loop, int nloop, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  for (int k = 0; k < nloop && n < cap; k++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", k ? ", " : "", loop[k].name);
}

/* A whole number at *pp (advanced), below PAT_INT_MAX; -1 if none. */
static int64_t number(const char **pp, const char *end) {
  const char *p = *pp;
  if (p >= end || !is_digit(*p)) return -1;
  int64_t v = 0;
  while (p < end && is_digit(*p)) {
    v = v * 10 + (*p++ - '0');
    if (v >= PAT_INT_MAX) return -1;
  }
  *pp = p;
  return v;
}

/* The loop variable named at *pp (advanced), or -1 (*bad: not an identifier
 * at all, or one that is no loop variable). */
static int variable(const char **pp, const char *end, const lied_loop *loop, int nloop,
                    int *unknown) {
  const char *p = *pp;
  if (p >= end || !is_alpha(*p)) return -1;
  while (p < end && (is_alpha(*p) || is_digit(*p))) p++;
  for (int k = 0; k < nloop; k++)
    if (strlen(loop[k].name) == (size_t)(p - *pp) && strncmp(loop[k].name, *pp, (size_t)(p - *pp)) == 0) {
      *pp = p;
      return k;
    }
  *unknown = 1;
  return -1;
}

/* The affine expression [s, end): c0 + sum coef[k] var[k]. */
static int expression(const char *path, const char *s, const char *end, const lied_loop *loop,
                      int nloop, lied_pbracket *br, lied_err *e) {
  const char *p = s;
  memset(br->coef, 0, sizeof br->coef);
  br->c0 = 0;
  int unknown = 0;
  for (int first = 1; p < end; first = 0) {
    int64_t sign = 1;
    if (*p == '+' || *p == '-') {
      sign = *p == '-' ? -1 : 1;
      p++;
    } else if (!first) {
      goto bad;
    }
    int64_t n = number(&p, end);
    int v;
    if (n >= 0) {
      if (p < end && *p == '*') {
        p++;
        if ((v = variable(&p, end, loop, nloop, &unknown)) < 0) goto bad;
        br->coef[v] += sign * n;
      } else {
        br->c0 += sign * n;
      }
    } else if ((v = variable(&p, end, loop, nloop, &unknown)) >= 0) {
      if (p < end && *p == '*') {
        p++;
        if ((n = number(&p, end)) < 0) goto bad;
        br->coef[v] += sign * n;
      } else {
        br->coef[v] += sign;
      }
    } else {
      goto bad;
    }
    if (br->c0 > PAT_INT_MAX || br->c0 < -PAT_INT_MAX) goto bad;
    for (int k = 0; k < nloop; k++)
      if (br->coef[k] > PAT_INT_MAX || br->coef[k] < -PAT_INT_MAX) goto bad;
  }
  if (p == s) goto bad;
  return LIED_OK;
bad:;
  char vars[128];
  var_list(loop, nloop, vars, sizeof vars);
  if (unknown)
    return lied_errc(e, LIED_E_MODEL, "'%s': unknown index variable in [%.*s] (loop variables: %s)",
                     path, (int)(end - s), s, vars);
  return lied_errc(e, LIED_E_MODEL,
                   "'%s': bad index expression [%.*s] (whole numbers and the loop variables %s, "
                   "such as [i+1] or [2*i-1])",
                   path, (int)(end - s), s, vars);
}

int lied_pattern_parse(const char *path, const lied_loop *loop, int nloop, lied_pend *pe,
                       lied_err *e) {
  memset(pe, 0, sizeof *pe);
  pe->path = path;
  for (const char *p = strchr(path, '['); p; p = strchr(p + 1, '[')) {
    const char *end = strchr(p, ']');
    if (!end) return lied_errc(e, LIED_E_MODEL, "'%s': '[' without ']'", path);
    int digits = end > p + 1;
    for (const char *q = p + 1; q < end; q++) digits &= is_digit(*q);
    if (digits) continue; /* a plain index: resolved as written */
    if (pe->nb == LIED_PAT_BRACKETS)
      return lied_errc(e, LIED_E_MODEL, "'%s': more than %d index expressions", path,
                       LIED_PAT_BRACKETS);
    lied_pbracket *br = &pe->br[pe->nb++];
    br->pos = (size_t)(p + 1 - path);
    br->len = (size_t)(end - p - 1);
    LIED_TRY(expression(path, p + 1, end, loop, nloop, br, e));
  }
  return LIED_OK;
}

/* path with each index expression replaced by "1", bracket `two` (if >= 0)
 * by "2"; where each replaced index now starts into pos (may be NULL). */
static char *substitute(const lied_pend *pe, int two, size_t *pos, lied_err *e) {
  const char *path = pe->path;
  char *s = lied_xmalloc(strlen(path) + 1, "pattern", e);
  if (!s) return NULL;
  size_t o = 0, i = 0;
  for (int k = 0; k < pe->nb; k++) {
    memcpy(s + o, path + i, pe->br[k].pos - i);
    o += pe->br[k].pos - i;
    if (pos) pos[k] = o;
    s[o++] = k == two ? '2' : '1';
    i = pe->br[k].pos + pe->br[k].len;
  }
  strcpy(s + o, path + i);
  return s;
}

/* The array size of each index expression: walk the base path from comp
 * as the resolution does (components while the path has a dot). An
 * expression past the components indexes a port: LIED_E_MODEL. */
static int counts(const lied_model *m, int comp, const char *base, const size_t *pos,
                  lied_pend *pe, lied_err *e) {
  int x = comp;
  const char *p = base;
  uint64_t j = 0;
  int done[LIED_PAT_BRACKETS] = {0};
  while (!m->specs[x].cls && strchr(p, '.')) {
    const char *p0 = p;
    int c;
    LIED_TRY(lied_spec_step(m, x, &p, &j, &c, e));
    for (int k = 0; k < pe->nb; k++)
      if (base + pos[k] >= p0 && base + pos[k] < p) {
        pe->br[k].count = m->specs[c].count;
        done[k] = 1;
      }
    x = c;
  }
  for (int k = 0; k < pe->nb; k++)
    if (!done[k])
      return lied_errc(e, LIED_E_MODEL,
                       "'%s': index expressions select copies of components; the port index "
                       "[%.*s] must be a number",
                       pe->path, (int)pe->br[k].len, pe->path + pe->br[k].pos);
  return LIED_OK;
}

int lied_pattern_resolve(const lied_model *m, int comp, const char *path, const lied_loop *loop,
                         int nloop, lied_pend *pe, lied_err *e) {
  LIED_TRY(lied_pattern_parse(path, loop, nloop, pe, e));
  size_t pos[LIED_PAT_BRACKETS];
  char *base = substitute(pe, -1, pos, e);
  if (!base) return LIED_E_NOMEM;
  int rc = lied_wire_resolve(m, comp, base, &pe->ep0, 0, e);
  if (rc == LIED_OK) rc = counts(m, comp, base, pos, pe, e);
  free(base);
  for (int k = 0; rc == LIED_OK && k < pe->nb; k++) {
    pe->br[k].mult = 0;
    if (pe->br[k].count < 2) continue;
    char *v = substitute(pe, k, NULL, e);
    if (!v) return LIED_E_NOMEM;
    lied_endpoint ep;
    rc = lied_wire_resolve(m, comp, v, &ep, 0, e);
    free(v);
    if (rc == LIED_OK && (ep.spec != pe->ep0.spec || ep.port != pe->ep0.port || ep.loc <= pe->ep0.loc))
      rc = lied_errc(e, LIED_E_MODEL, "'%s': index [%.*s] does not select copies of one component",
                     path, (int)pe->br[k].len, path + pe->br[k].pos);
    if (rc == LIED_OK) pe->br[k].mult = ep.loc - pe->ep0.loc;
  }
  return rc;
}

int lied_pattern_at(const lied_pend *pe, const int64_t *var, int wrap, lied_endpoint *ep,
                    lied_err *e) {
  *ep = pe->ep0;
  for (int k = 0; k < pe->nb; k++) {
    const lied_pbracket *br = &pe->br[k];
    int64_t v = br->c0;
    for (int q = 0; q < LIED_MAX_LOOP; q++) v += br->coef[q] * var[q];
    if (wrap && br->count) v = ((v - 1) % br->count + br->count) % br->count + 1;
    if (v < 1 || v > (int64_t)br->count)
      return lied_errc(e, LIED_E_MODEL, "index [%.*s] = %lld is out of range in '%s' (%u cop%s%s)",
                       (int)br->len, pe->path + br->pos, (long long)v, pe->path, br->count,
                       br->count == 1 ? "y" : "ies",
                       wrap ? "" : "; wrap = true makes the indices periodic");
    ep->loc += (uint64_t)(v - 1) * br->mult;
  }
  return LIED_OK;
}

int lied_loop_start(const lied_loop *loop, int nloop, int64_t *var) {
  memset(var, 0, sizeof(int64_t) * LIED_MAX_LOOP);
  for (int k = 0; k < nloop; k++) {
    const lied_loop *l = &loop[k];
    if (l->step > 0 ? l->first > l->last : l->first < l->last) return 0;
    var[k] = l->first;
  }
  return 1;
}

int lied_loop_next(const lied_loop *loop, int nloop, int64_t *var) {
  for (int k = nloop - 1; k >= 0; k--) {
    const lied_loop *l = &loop[k];
    var[k] += l->step;
    if (l->step > 0 ? var[k] <= l->last : var[k] >= l->last) return 1;
    var[k] = l->first;
  }
  return 0;
}

void lied_loop_point(const lied_loop *loop, int nloop, const int64_t *var, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  for (int k = 0; k < nloop && n < cap; k++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s = %lld", k ? ", " : "", loop[k].name,
                          (long long)var[k]);
}
