/* assert.c - what a failed LIED_ASSERT does (core/assert.h). */
#include "core/assert.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LIED_ASSERTS
void lied_assert_fail(const char *file, int line, const char *cond) {
  const char *src = strstr(file, "/src/"); /* the path in the repository */
  if (src) file = src + 1;
  fprintf(stderr, "lied: internal error: %s:%d: assertion failed: %s\n", file, line, cond);
  fflush(stderr);
  abort();
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int lied_assert_off;
#endif
