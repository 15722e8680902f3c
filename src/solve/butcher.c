/* butcher.c - the Runge-Kutta tables of butcher.def as static data. */
#include "solve/butcher.h"

#include <stddef.h>
#include <string.h>

/* Strip one pair of parentheses: LIED_BT_LIST (1.0, 2.0) -> 1.0, 2.0. */
#define LIED_BT_LIST(...) __VA_ARGS__
#define LIED_BT_LEN(arr) (sizeof(arr) / sizeof((arr)[0]))

/* Pass 1: one set of coefficient arrays per method, sizes checked. */
#define LIED_BT_ARRAYS(id, s, C, A, B)                                         \
  static const double lied_bt_##id##_c[] = {LIED_BT_LIST C};                  \
  static const double lied_bt_##id##_a[] = {LIED_BT_LIST A};                  \
  static const double lied_bt_##id##_b[] = {LIED_BT_LIST B};                  \
  _Static_assert(LIED_BT_LEN(lied_bt_##id##_c) == (s),                       \
                 #id ": c needs stages entries");                              \
  _Static_assert(LIED_BT_LEN(lied_bt_##id##_a) == (size_t)(s) * (s),          \
                 #id ": a needs stages * stages entries");                     \
  _Static_assert(LIED_BT_LEN(lied_bt_##id##_b) == (s),                       \
                 #id ": b needs stages entries");

#define LIED_ERK(id, doc, s, p, C, A, B) LIED_BT_ARRAYS(id, s, C, A, B)
#define LIED_ERK_EMBEDDED(id, doc, s, p, q, C, A, B, BHAT)                     \
  LIED_BT_ARRAYS(id, s, C, A, B)                                               \
  static const double lied_bt_##id##_bhat[] = {LIED_BT_LIST BHAT};            \
  _Static_assert(LIED_BT_LEN(lied_bt_##id##_bhat) == (s),                     \
                 #id ": bhat needs stages entries");
#define LIED_ERK_DENSE(id, doc, s, p, q, C, A, B, BHAT, D, DENSE)              \
  LIED_ERK_EMBEDDED(id, doc, s, p, q, C, A, B, BHAT)                           \
  static const double lied_bt_##id##_dense[] = {LIED_BT_LIST DENSE};          \
  _Static_assert(LIED_BT_LEN(lied_bt_##id##_dense) == (size_t)(s) * (D),      \
                 #id ": dense needs stages * degree entries");
#define LIED_DIRK(id, doc, s, p, C, A, B) LIED_BT_ARRAYS(id, s, C, A, B)
#define LIED_DIRK_EMBEDDED(id, doc, s, p, q, C, A, B, BHAT)                    \
  LIED_ERK_EMBEDDED(id, doc, s, p, q, C, A, B, BHAT)
#include "solve/butcher.def"
#undef LIED_ERK
#undef LIED_ERK_EMBEDDED
#undef LIED_ERK_DENSE
#undef LIED_DIRK
#undef LIED_DIRK_EMBEDDED

/* Pass 2: the table of methods, in the order of butcher.def. */
#define LIED_ERK(id, doc, s, p, C, A, B)                                       \
  {#id, doc, s, p, 0, 1, lied_bt_##id##_a, lied_bt_##id##_b, lied_bt_##id##_c, \
   NULL},
#define LIED_ERK_EMBEDDED(id, doc, s, p, q, C, A, B, BHAT)                     \
  {#id, doc, s, p, q, 1, lied_bt_##id##_a, lied_bt_##id##_b, lied_bt_##id##_c, \
   lied_bt_##id##_bhat},
#define LIED_ERK_DENSE(id, doc, s, p, q, C, A, B, BHAT, D, DENSE)              \
  {#id, doc, s, p, q, 1, lied_bt_##id##_a, lied_bt_##id##_b, lied_bt_##id##_c, \
   lied_bt_##id##_bhat, D, lied_bt_##id##_dense},
#define LIED_DIRK(id, doc, s, p, C, A, B)                                      \
  {#id, doc, s, p, 0, 0, lied_bt_##id##_a, lied_bt_##id##_b, lied_bt_##id##_c, \
   NULL},
#define LIED_DIRK_EMBEDDED(id, doc, s, p, q, C, A, B, BHAT)                    \
  {#id, doc, s, p, q, 0, lied_bt_##id##_a, lied_bt_##id##_b, lied_bt_##id##_c, \
   lied_bt_##id##_bhat},
static const lied_tableau lied_tableaux[] = {
#include "solve/butcher.def"
};
#undef LIED_ERK
#undef LIED_ERK_EMBEDDED
#undef LIED_ERK_DENSE
#undef LIED_DIRK
#undef LIED_DIRK_EMBEDDED

enum { LIED_TABLEAU_COUNT = (int)LIED_BT_LEN(lied_tableaux) };

/* See butcher.h. A NULL name finds nothing. */
const lied_tableau *lied_tableau_find(const char *name) {
  if (!name)
    return NULL;
  for (int i = 0; i < LIED_TABLEAU_COUNT; i++)
    if (strcmp(lied_tableaux[i].name, name) == 0)
      return &lied_tableaux[i];
  return NULL;
}

/* See butcher.h. */
int lied_tableau_count(void) { return LIED_TABLEAU_COUNT; }

/* See butcher.h; NULL when i is out of range. */
const lied_tableau *lied_tableau_at(int i) {
  if (i < 0 || i >= LIED_TABLEAU_COUNT)
    return NULL;
  return &lied_tableaux[i];
}

/* See butcher.h. */
int lied_tableau_fsal(const lied_tableau *t) {
  const int s = t->stages;
  int fsal = t->c[s - 1] == 1.0;
  for (int j = 0; j < s; j++) fsal &= t->a[(size_t)(s - 1) * (size_t)s + (size_t)j] == t->b[j];
  return fsal;
}
