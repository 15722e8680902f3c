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
  test_suggest();
  return CHECK_DONE();
}
