/* test_text.c - name matching: glob patterns (brackets literal) and the
 * "did you mean" suggestion shared by the engine and the binding. */
#include <string.h>
#include "check.h"
#include "core/text.h"

static void test_glob(void) {
  CHECK(lied_glob("crab[3].*", "crab[3].body1.x"));
  CHECK(!lied_glob("crab[3].*", "crab3.body1.x")); /* brackets are literal */
  CHECK(!lied_glob("crab[3].*", "crab[13].body1.x"));
  CHECK(lied_glob("crab[?].body?.x", "crab[7].body2.x"));
  CHECK(lied_glob("*", ""));
  CHECK(lied_glob("*.x", "a.b.c.x"));
  CHECK(!lied_glob("*.x", "a.b.c.y"));
  CHECK(lied_glob("a*b*c", "aXXbYYc"));
  CHECK(!lied_glob("a*b*c", "aXXbYY"));
  CHECK(lied_glob("t1.level", "t1.level"));
  CHECK(!lied_glob("t1.level", "t1.levels"));
  CHECK(!lied_glob("", "x"));
  CHECK(lied_is_glob("a*") && lied_is_glob("a?") && !lied_is_glob("a[1]"));
}

/* lied_glob_prefix (the names' walk skips components under which nothing
 * can match): exhaustively over short patterns of a, b, '.', '*', '?' and
 * names of a, b, '.': a prefix of a matching name is never refused, and a
 * prefix accepted has some completion that matches. */
static int completes(const char *p, char *t, size_t len, size_t more) {
  if (lied_glob(p, t)) return 1;
  if (!more) return 0;
  static const char abc[] = "ab.";
  for (int c = 0; c < 3; c++) {
    t[len] = abc[c], t[len + 1] = 0;
    if (completes(p, t, len + 1, more - 1)) return t[len] = 0, 1;
  }
  t[len] = 0;
  return 0;
}

static int power(int b, int e) {
  int v = 1;
  while (e-- > 0) v *= b;
  return v;
}

/* The string of len letters numbered code, in base letters of abc. */
static void spell(char *s, int len, int code, const char *abc, int base) {
  for (int k = 0; k < len; k++, code /= base) s[k] = abc[code % base];
  s[len] = 0;
}

static void test_glob_prefix(void) {
  CHECK(lied_glob_prefix("crab[1].*", "crab[1]"));
  CHECK(lied_glob_prefix("crab[1].*", "crab["));
  CHECK(!lied_glob_prefix("crab[1].*", "crab[10]"));
  CHECK(!lied_glob_prefix("crab[1].*", "spring[1]"));
  CHECK(lied_glob_prefix("*.s", "spring[1]"));
  CHECK(lied_glob_prefix("crab[?].body1.x", "crab[7]"));
  CHECK(!lied_glob_prefix("crab[?].body1.x", "crab[17]"));
  static const char sym[] = "ab.*?", abc[] = "ab.";
  char p[8], t[16];
  int bad = 0;
  for (int lp = 0; lp <= 4; lp++)
    for (int cp = 0; cp < power(5, lp); cp++) {
      spell(p, lp, cp, sym, 5);
      for (int lt = 0; lt <= 4; lt++)
        for (int ct = 0; ct < power(3, lt); ct++) {
          spell(t, lt, ct, abc, 3);
          const int want = completes(p, t, (size_t)lt, (size_t)lp + 1);
          bad += lied_glob_prefix(p, t) != want;
        }
    }
  CHECK(bad == 0);
}

static void test_suggest(void) {
  const char *cand[] = {"level", "outlet", "inlet", "m_flow"};
  CHECK(strcmp(lied_suggest("levl", cand, 4), "level") == 0);
  CHECK(strcmp(lied_suggest("outlt", cand, 4), "outlet") == 0);
  CHECK(lied_suggest("zzzzzz", cand, 4) == NULL);
  char buf[64];
  CHECK(strcmp(lied_did_you_mean(buf, sizeof buf, "inlte", cand, 4),
               " (did you mean 'inlet'?)") == 0);
  CHECK(strcmp(lied_did_you_mean(buf, sizeof buf, "qqqqqq", cand, 4), "") == 0);
  CHECK(lied_suggest("x", cand, 0) == NULL);
}

int main(void) {
  test_glob();
  test_glob_prefix();
  test_suggest();
  return CHECK_DONE();
}
