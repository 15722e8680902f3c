/* assert.c - the report of a failed LIED_ASSERT (core/assert.h). */
#include "core/assert.h"
#include <stdio.h>
#include <stdlib.h>

void lied_assert_fail(const char *cond, const char *file, int line, const char *func) {
  fprintf(stderr, "lied: internal error (a bug of lied, please report it): %s:%d: %s: "
                  "assertion '%s' failed\n", file, line, func, cond);
  fflush(stderr);
  abort();
}

int lied_asserts_on(void) {
#ifdef LIED_ASSERTS
  return 1;
#else
  return 0;
#endif
}
