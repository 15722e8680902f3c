/* err.c - error contexts, return-code names and checked allocation. */
#include "core/err.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *lied_status_name(int code) {
  switch (code) {
#define LIED_STATUS_NAME(name, value, doc) \
  case value: return #name;
    LIED_STATUS_LIST(LIED_STATUS_NAME)
#undef LIED_STATUS_NAME
  }
  return "LIED_UNKNOWN";
}

const char *lied_status_doc(int code) {
  switch (code) {
#define LIED_STATUS_DOC(name, value, doc) \
  case value: return doc;
    LIED_STATUS_LIST(LIED_STATUS_DOC)
#undef LIED_STATUS_DOC
  }
  return "unknown status";
}

static int verrc(lied_err *e, int code, const char *fmt, va_list ap) {
  if (!e) return code;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  e->code = code;
  return code;
}

int lied_errf(lied_err *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = verrc(e, LIED_ERROR, fmt, ap);
  va_end(ap);
  return rc;
}

int lied_errc(lied_err *e, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = verrc(e, code, fmt, ap);
  va_end(ap);
  return rc;
}

int lied_err_code(const lied_err *e) {
  return e && e->code < 0 ? e->code : LIED_ERROR;
}

int lied_err_prefix(lied_err *e, const char *fmt, ...) {
  if (!e) return LIED_ERROR;
  char pre[LIED_ERR_MAX], old[LIED_ERR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(pre, sizeof pre, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  snprintf(e->msg, sizeof e->msg, "%.1000s%.1000s", pre, old);
  return lied_err_code(e);
}

int lied_err_at(lied_err *e, double t) {
  if (!e) return LIED_ERROR;
  if (strncmp(e->msg, "at t = ", 7) == 0) return lied_err_code(e);
  return lied_err_prefix(e, "at t = %.17g: ", t);
}

void *lied_xmalloc(size_t n, const char *what, lied_err *e) {
  void *p = malloc(n ? n : 1);
  if (!p) lied_errc(e, LIED_E_NOMEM, "out of memory (%s: %zu bytes)", what, n);
  return p;
}

void *lied_xcalloc(size_t n, size_t size, const char *what, lied_err *e) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) lied_errc(e, LIED_E_NOMEM, "out of memory (%s: %zu x %zu bytes)", what, n, size);
  return p;
}

void *lied_xcalloc_lines(size_t n, size_t size, const char *what, lied_err *e) {
  if (!n) n = 1;
  if (!size) size = 1;
  const int fits = n <= (SIZE_MAX - LIED_LINE) / size;
  const size_t bytes = fits ? (n * size + LIED_LINE - 1) / LIED_LINE * LIED_LINE : 0;
  void *p = fits ? aligned_alloc(LIED_LINE, bytes) : NULL;
  if (!p) {
    lied_errc(e, LIED_E_NOMEM, "out of memory (%s: %zu x %zu bytes)", what, n, size);
    return NULL;
  }
  return memset(p, 0, bytes);
}

int lied_grow(void **p, int *cap, int need, size_t sz, lied_err *e) {
  if (need <= *cap) return LIED_OK;
  int nc = *cap ? *cap : 8;
  while (nc < need) nc *= 2;
  void *np = realloc(*p, (size_t)nc * sz);
  if (!np) return lied_errc(e, LIED_E_NOMEM, "out of memory (growing a table to %d)", nc);
  *p = np;
  *cap = nc;
  return LIED_OK;
}

char *lied_strdup(const char *s, lied_err *e) {
  size_t n = strlen(s) + 1;
  char *d = lied_xmalloc(n, "string", e);
  if (d) memcpy(d, s, n);
  return d;
}
