/* err.c - error formatting and checked allocation. */
#include "core/err.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lied_errf(lied_err *e, const char *fmt, ...) {
  if (!e) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return -1;
}

int lied_err_prefix(lied_err *e, const char *fmt, ...) {
  if (!e) return -1;
  char pre[LIED_ERR_MAX], old[LIED_ERR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(pre, sizeof pre, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  snprintf(e->msg, sizeof e->msg, "%.1000s%.1000s", pre, old);
  return -1;
}

int lied_err_at(lied_err *e, double t) {
  if (!e) return -1;
  if (strncmp(e->msg, "at t = ", 7) == 0) return -1;
  return lied_err_prefix(e, "at t = %.17g: ", t);
}

void *lied_xmalloc(size_t n, const char *what, lied_err *e) {
  void *p = malloc(n ? n : 1);
  if (!p) lied_errf(e, "out of memory (%s: %zu bytes)", what, n);
  return p;
}

void *lied_xcalloc(size_t n, size_t size, const char *what, lied_err *e) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) lied_errf(e, "out of memory (%s: %zu x %zu bytes)", what, n, size);
  return p;
}

int lied_grow(void **p, int *cap, int need, size_t sz, lied_err *e) {
  if (need <= *cap) return 0;
  int nc = *cap ? *cap : 8;
  while (nc < need) nc *= 2;
  void *np = realloc(*p, (size_t)nc * sz);
  if (!np) return lied_errf(e, "out of memory (growing a table to %d)", nc);
  *p = np;
  *cap = nc;
  return 0;
}

char *lied_strdup(const char *s, lied_err *e) {
  size_t n = strlen(s) + 1;
  char *d = lied_xmalloc(n, "string", e);
  if (d) memcpy(d, s, n);
  return d;
}
