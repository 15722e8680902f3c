/* text.c - "did you mean" suggestions and glob matching of names. */
#include "core/text.h"
#include <stdio.h>
#include <string.h>

uint64_t lied_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * LIED_FNV_PRIME;
  return h;
}

/* Levenshtein distance, capped for long names. */
static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63) return 99;
  int d[64][64];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      int x = d[i - 1][j] + 1, y = d[i][j - 1] + 1;
      d[i][j] = c < x ? (c < y ? c : y) : (x < y ? x : y);
    }
  return d[la][lb];
}

const char *lied_suggest(const char *name, const char *const *cand, int n) {
  const char *best = NULL;
  int bd = 99;
  for (int i = 0; i < n; i++) {
    /* never the name itself: "did you mean 'body2'?" for body2, a child
     * among the candidates of what was not found (issue 47) */
    if (strcmp(name, cand[i]) == 0) continue;
    int d = edit_distance(name, cand[i]);
    /* a prefix either way ("mass" for "m") counts as close */
    size_t lc = strlen(cand[i]), ln = strlen(name);
    if (lc && ln && strncmp(name, cand[i], lc < ln ? lc : ln) == 0 && d > 1) d = 1;
    if (d < bd) bd = d, best = cand[i];
  }
  int len = (int)strlen(name);
  return (best && bd <= (len < 4 ? 1 : len / 3 + 1)) ? best : NULL;
}

const char *lied_did_you_mean(char *buf, size_t cap, const char *name,
                              const char *const *cand, int n) {
  const char *s = lied_suggest(name, cand, n);
  if (s)
    snprintf(buf, cap, " (did you mean '%s'?)", s);
  else if (cap)
    buf[0] = 0;
  return buf;
}

/* Wildcard match (iterative, backtracking to the last star); prefix: s may
 * end anywhere in the pattern (once a star is passed, any rest of s can
 * match). */
static int glob_run(const char *p, const char *s, int prefix) {
  const char *star = NULL, *ss = NULL;
  while (*s) {
    if (*p == '?' || (*p && *p == *s && *p != '*')) {
      p++, s++;
    } else if (*p == '*') {
      star = p++;
      ss = s;
    } else if (star) {
      p = star + 1;
      s = ++ss;
    } else {
      return 0;
    }
  }
  if (prefix) return 1;
  while (*p == '*') p++;
  return *p == 0;
}

int lied_glob(const char *p, const char *s) { return glob_run(p, s, 0); }

int lied_glob_prefix(const char *p, const char *s) { return glob_run(p, s, 1); }

int lied_is_glob(const char *s) { return strpbrk(s, "*?") != NULL; }

const char *lied_list_next(const char **p, char *item) {
  const char *q = *p;
  if (!*q) return NULL;
  size_t len = strcspn(q, ",");
  *p = q + len + (q[len] == ',');
  while (len && *q == ' ') q++, len--;
  while (len && q[len - 1] == ' ') len--;
  memcpy(item, q, len);
  item[len] = 0;
  return item;
}
