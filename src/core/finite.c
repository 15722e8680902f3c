/* finite.c - the solvers' check that every state stayed finite, run once
 * per step over all of them: blocks of 32 values are tested with a
 * branch-free reduction the compiler vectorises (exponent bits all ones:
 * infinite or NaN), and only a block that fails is searched value by value.
 * A loop of isfinite() tests with an early exit stays scalar: it was 8 of
 * the crab chain's instructions per crab-evaluation. */
#include "core/finite.h"
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "lied/component.h" /* LIED_LANE_FN */

#define BLOCK 32
#define EXP UINT64_C(0x7ff0000000000000)

LIED_LANE_FN size_t lied_first_nonfinite(const double *x, size_t n) {
  size_t i = 0;
  for (; i + BLOCK <= n; i += BLOCK) {
    uint64_t bad = 0;
    for (size_t j = 0; j < BLOCK; j++) {
      uint64_t u;
      memcpy(&u, x + i + j, sizeof u);
      bad |= (u & EXP) == EXP;
    }
    if (bad) break;
  }
  for (; i < n; i++)
    if (!isfinite(x[i])) return i;
  return n;
}
