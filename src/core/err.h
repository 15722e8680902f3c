/* err.h - error messages carried back to the caller (no global state). */
#ifndef LIED_CORE_ERR_H
#define LIED_CORE_ERR_H
#include <stddef.h>

#define LIED_ERR_MAX 2048

/* An error context: functions that fail write a message here and return -1. */
typedef struct lied_err {
  char msg[LIED_ERR_MAX];
} lied_err;

/* Format the message (replacing any earlier one); returns -1. */
int lied_errf(lied_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prefix the current message with a formatted context ("crab[3]: ..."). */
int lied_err_prefix(lied_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prefix "at t = T: " unless the message already starts with a time (an
 * evaluation failure names the stage time it happened at, which is more
 * precise than the step's start). Returns -1. */
int lied_err_at(lied_err *e, double t);

/* Checked allocation helpers: on failure they write "out of memory (what)". */
void *lied_xmalloc(size_t n, const char *what, lied_err *e);
void *lied_xcalloc(size_t n, size_t size, const char *what, lied_err *e);
/* Grow *p (of *cap elements of size sz) to hold at least need elements. */
int lied_grow(void **p, int *cap, int need, size_t sz, lied_err *e);
char *lied_strdup(const char *s, lied_err *e);

#endif
