/* check.h - a tiny assertion header for lied's C unit tests. */
#ifndef LIED_TEST_CHECK_H
#define LIED_TEST_CHECK_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                            \
  do {                                                                         \
    check_count++;                                                             \
    if (!(cond)) {                                                             \
      check_failures++;                                                        \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                  \
  do {                                                                         \
    double check_a_ = (a), check_b_ = (b), check_t_ = (tol);                   \
    check_count++;                                                             \
    if (!(fabs(check_a_ - check_b_) <= check_t_)) {                            \
      check_failures++;                                                        \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, "     \
              "tol %g\n", __FILE__, __LINE__, #a, check_a_, #b, check_b_,      \
              check_t_);                                                       \
    }                                                                          \
  } while (0)

/* Print the summary line and return the exit status for main. */
#define CHECK_DONE()                                                           \
  (printf("%d passed, %d failed\n", check_count - check_failures,              \
          check_failures),                                                     \
   check_failures ? 1 : 0)

#endif
