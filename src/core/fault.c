/* fault.c - lied_block_fault: a block records that it cannot evaluate. */
#include "core/fault.h"
#include <stdarg.h>
#include <stdio.h>

static void fault_v(const lied_env *env, const void *self, int model, const char *fmt,
                    va_list ap) {
  lied_fault *f = env ? env->fault : NULL;
  if (!f || f->where) return; /* no channel (a block called by hand), or not the first */
  vsnprintf(f->msg, sizeof f->msg, fmt ? fmt : "fault", ap);
  f->model = model;
  f->where = self ? self : (const void *)f; /* never NULL once set */
}

void lied_block_fault(const lied_env *env, const void *self, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fault_v(env, self, 0, fmt, ap);
  va_end(ap);
}

void lied_block_fault_model(const lied_env *env, const void *self, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fault_v(env, self, 1, fmt, ap);
  va_end(ap);
}
