/* test_alloc.c - lied_xcalloc_lines (the lane groups' allocations): every
 * block starts at a cache line and is zero, whatever the heap held before
 * (blocks of odd sizes allocated, written and freed in between); zero counts
 * and sizes give a usable block; a size that overflows fails with
 * LIED_E_NOMEM and a message naming what was asked for. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "core/err.h"

static void test_lines_and_zeros(void) {
  lied_err e = {0};
  void *keep[64] = {0};
  int misaligned = 0, dirty = 0;
  for (size_t k = 0; k < 64; k++) {
    /* odd-sized blocks, filled with ones, some freed: the heap's next free
     * addresses are anything modulo the line, and hold old bytes */
    char *junk = malloc(8 * k + 24);
    CHECK(junk != NULL);
    if (junk) memset(junk, 0xff, 8 * k + 24);
    const size_t n = 1 + 37 * k, size = k % 3 ? 8 : 1;
    unsigned char *p = lied_xcalloc_lines(n, size, "test block", &e);
    CHECK(p != NULL);
    if (!p) break;
    misaligned += (uintptr_t)p % LIED_LINE != 0;
    for (size_t i = 0; i < n * size; i++) dirty += p[i] != 0;
    memset(p, 0xff, n * size); /* freed dirty: the next blocks must be zero again */
    keep[k] = p;
    if (k % 2) free(keep[k - 1]), keep[k - 1] = NULL;
    free(junk);
  }
  CHECK(misaligned == 0);
  CHECK(dirty == 0);
  for (size_t k = 0; k < 64; k++) free(keep[k]);
}

static void test_edges(void) {
  lied_err e = {0};
  double *p = lied_xcalloc_lines(0, 0, "empty", &e);
  CHECK(p != NULL && (uintptr_t)p % LIED_LINE == 0);
  free(p);
  p = lied_xcalloc_lines(SIZE_MAX / 4, 8, "huge rings", &e);
  CHECK(p == NULL);
  CHECK(lied_err_code(&e) == LIED_E_NOMEM);
  CHECK(strstr(e.msg, "out of memory (huge rings:") != NULL);
  lied_err e2 = {0};
  p = lied_xcalloc_lines(3, SIZE_MAX - 8, "wide rows", &e2);
  CHECK(p == NULL && lied_err_code(&e2) == LIED_E_NOMEM);
  CHECK(strstr(e2.msg, "wide rows") != NULL);
}

int main(void) {
  test_lines_and_zeros();
  test_edges();
  return CHECK_DONE();
}
