/* err.h - error contexts: a message and its lied_status code, carried back
 * to the caller (no global state). */
#ifndef LIED_CORE_ERR_H
#define LIED_CORE_ERR_H
#include <stddef.h>
#include "lied/status.h"

#define LIED_ERR_MAX 2048

/* An error context. A function that fails writes a message here, sets code
 * to a negative lied_status (lied/status.h) and returns that code.
 *
 * Convention for every function of the engine that returns int status:
 * LIED_OK (0) on success; a positive code for an outcome the caller handles
 * (LIED_RETRY, LIED_UNSUPPORTED: the message says why); a negative code on
 * failure, equal to e->code. Callers propagate a failure with LIED_TRY or
 * `return rc`, never by inventing a new code, so the kind set at the origin
 * (usage, model, memory, ...) reaches the Lua binding intact. */
typedef struct lied_err {
  int code;
  char msg[LIED_ERR_MAX];
} lied_err;

/* Format the message (replacing any earlier one) with code LIED_ERROR;
 * returns LIED_ERROR. */
int lied_errf(lied_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Format the message with the given (negative or positive) code; returns it. */
int lied_errc(lied_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefix the current message with a formatted context ("crab[3]: ...");
 * returns the current code. */
int lied_err_prefix(lied_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefix "at t = T: " unless the message already starts with a time (an
 * evaluation failure names the stage time it happened at, which is more
 * precise than the step's start). Returns the current code. */
int lied_err_at(lied_err *e, double t);

/* The code of the last failure written into e (LIED_ERROR when a caller
 * reports a failure nobody described: a bug, but never success). */
int lied_err_code(const lied_err *e);

/* Propagate a failure: evaluate the status expression once, return it from
 * the enclosing function when it is negative. */
#define LIED_TRY(expr)                                                                   \
  do {                                                                                   \
    int lied_try_rc_ = (expr);                                                           \
    if (lied_try_rc_ < 0) return lied_try_rc_;                                           \
  } while (0)

/* Checked allocation helpers: on failure they write "out of memory (what)"
 * with code LIED_E_NOMEM and return NULL. */
void *lied_xmalloc(size_t n, const char *what, lied_err *e);
void *lied_xcalloc(size_t n, size_t size, const char *what, lied_err *e);
/* As lied_xcalloc, starting at a cache line (LIED_LINE bytes; free() frees
 * it): the arrays evaluated in lane form, whose rows of LIED_LANES doubles
 * must each be whole cache lines. Where a group started off a line, every
 * row spanned one line more and every fourth four-double load was split
 * between two; which happened depended on what the heap held before (the
 * length of the model file's path): the crab chain ran 8 to 10 % slower
 * (bench/README.md, "Cache lines"). */
#define LIED_LINE 64
void *lied_xcalloc_lines(size_t n, size_t size, const char *what, lied_err *e);
/* Grow *p (of *cap elements of size sz) to hold at least need elements;
 * LIED_OK or LIED_E_NOMEM. */
int lied_grow(void **p, int *cap, int need, size_t sz, lied_err *e);
char *lied_strdup(const char *s, lied_err *e);

#endif
