/* fault.c - lied_block_fault: a block records that it cannot evaluate. */
#include "core/fault.h"
#include <stdarg.h>
#include <stdio.h>

void lied_block_fault(const lied_env *env, const void *self, const char *fmt, ...) {
  lied_fault *f = env ? env->fault : NULL;
  if (!f || f->where) return; /* no channel (a block called by hand), or not the first */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->msg, sizeof f->msg, fmt ? fmt : "fault", ap);
  va_end(ap);
  f->where = self ? self : (const void *)f; /* never NULL once set */
}
