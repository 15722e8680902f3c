/* lanemove.c - words between instances (one after another in an arena)
 * and lane groups (lied/component.h), for the groups of independent copies
 * (lanes.c) and the rings of coupled arrays (lanering_run.c). */
#include <string.h>
#include "core/assert.h"
#include "sched/lanes.h"

#define W LIED_LANES

/* Four doubles, and the 4 x 4 transpose that moves four words of four
 * instances (rows of the arena) into four lanes of four words (rows of a
 * group) and back: two rounds of shuffles, AVX2 where the processor has it
 * (pure moves: the same bits). */
#if defined(__GNUC__) && !defined(__clang__) /* __builtin_shuffle */
#define LR_VEC 1
typedef double lr_v4 __attribute__((vector_size(32)));
typedef long long lr_m4 __attribute__((vector_size(32)));

/* The 4 x 4 block of doubles at from (rows fs bytes apart) to `to` (rows ts
 * apart), transposed. */
static inline __attribute__((always_inline)) void lr_move4(char *to, size_t ts, const char *from,
                                                           size_t fs) {
  lr_v4 r0, r1, r2, r3;
  memcpy(&r0, from, sizeof r0);
  memcpy(&r1, from + fs, sizeof r1);
  memcpy(&r2, from + 2 * fs, sizeof r2);
  memcpy(&r3, from + 3 * fs, sizeof r3);
  const lr_v4 t0 = __builtin_shuffle(r0, r1, (lr_m4){0, 4, 2, 6});
  const lr_v4 t1 = __builtin_shuffle(r0, r1, (lr_m4){1, 5, 3, 7});
  const lr_v4 t2 = __builtin_shuffle(r2, r3, (lr_m4){0, 4, 2, 6});
  const lr_v4 t3 = __builtin_shuffle(r2, r3, (lr_m4){1, 5, 3, 7});
  const lr_v4 c0 = __builtin_shuffle(t0, t2, (lr_m4){0, 1, 4, 5});
  const lr_v4 c1 = __builtin_shuffle(t1, t3, (lr_m4){0, 1, 4, 5});
  const lr_v4 c2 = __builtin_shuffle(t0, t2, (lr_m4){2, 3, 6, 7});
  const lr_v4 c3 = __builtin_shuffle(t1, t3, (lr_m4){2, 3, 6, 7});
  memcpy(to, &c0, sizeof c0);
  memcpy(to + ts, &c1, sizeof c1);
  memcpy(to + 2 * ts, &c2, sizeof c2);
  memcpy(to + 3 * ts, &c3, sizeof c3);
}
#else
#define LR_VEC 0
#endif

/* See lanes.h. Four consecutive words and four instances at a time where
 * the list and the range allow, the rest word by word. */
LIED_LANE_FN void lied_lanes_move(char *g, char *arena, size_t nw, const uint32_t *w, uint32_t nwd,
                                  int64_t a, int64_t b, int64_t i0, int store) {
  const size_t rs = 8 * W, is = nw * 8; /* a group's row, an instance */
  /* the instances within the group's lanes */
  LIED_ASSERT(a >= 0 && a <= b && a >= i0 && b - i0 <= W && nwd <= nw);
  for (uint32_t q = 0; q < nwd;) {
    int64_t i = a;
    const uint32_t run = q + 4 <= nwd && w[q + 3] == w[q] + 3 ? 4 : 1;
    /* the words within an instance, increasing (a run of 4 is 4 in a row) */
    LIED_ASSERT(w[q + run - 1] < nw && (q == 0 || w[q] > w[q - 1]));
#if LR_VEC
    if (run == 4) {
      char *row = g + (size_t)w[q] * rs + (size_t)(a - i0) * 8;
      char *col = arena + (size_t)w[q] * 8 + (size_t)a * is;
      if (store)
        for (; i + 4 <= b; i += 4, row += 32, col += 4 * is) lr_move4(col, is, row, rs);
      else
        for (; i + 4 <= b; i += 4, row += 32, col += 4 * is) lr_move4(row, rs, col, is);
    }
#endif
    const int64_t from = i; /* what is left of these words, one at a time */
    for (uint32_t k = 0; k < run; k++) {
      char *row = g + (size_t)w[q + k] * rs, *col = arena + (size_t)w[q + k] * 8;
      for (i = from; i < b; i++) {
        char *lane = row + (size_t)(i - i0) * 8, *inst = col + (size_t)i * is;
        if (store) memcpy(inst, lane, 8);
        else memcpy(lane, inst, 8);
      }
    }
    q += run;
  }
}
