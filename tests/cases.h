/* cases.h - a C unit test in named cases, each its own ctest, so a long test
 * runs on several cores and a failure names its case:
 *
 *   int main(int argc, char **argv) {
 *     CASES(argc, argv);
 *     if (CASE("windows")) { same_window(3000, 1, 0, 1); ... }
 *     if (CASE("waves")) { ... }
 *     return CASES_DONE();
 *   }
 *
 * tests/CMakeLists.txt finds the CASE("name") lines of a test's source and
 * adds one ctest per case, unit.test_NAME.case, run as `test_NAME case`;
 * without an argument every case runs. A name that matches no case fails
 * (a misspelt case would otherwise pass, having run nothing).
 *
 * SANITIZED is 1 in a build with AddressSanitizer, UndefinedBehaviorSanitizer
 * or ThreadSanitizer (LIED_SANITIZE, LIED_FUZZ): a case may take smaller
 * sizes there when the size adds no path (see its comment), since those
 * builds run the code 10 to 30 times slower. */
#ifndef LIED_TEST_CASES_H
#define LIED_TEST_CASES_H
#include <stdio.h>
#include <string.h>
#include "check.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static const char *cases_wanted; /* the case to run, or NULL: every case */
static int cases_matched;

#define CASES(argc, argv) (cases_wanted = (argc) > 1 ? (argv)[1] : NULL)

/* True when the case `name` is to run (announced on stdout). */
static inline int CASE(const char *name) {
  if (cases_wanted && strcmp(cases_wanted, name) != 0) return 0;
  cases_matched++;
  printf("case %s\n", name);
  fflush(stdout);
  return 1;
}

/* The summary (check.h) and the exit status; 1 when the case asked for
 * does not exist. */
#define CASES_DONE()                                                          \
  (cases_wanted && !cases_matched                                             \
       ? (fprintf(stderr, "no case '%s' in this test\n", cases_wanted), 1)    \
       : CHECK_DONE())

#endif
