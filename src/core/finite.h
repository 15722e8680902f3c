/* finite.h - internal to lied: finding a state that is not finite (the
 * solvers' check after each step). */
#ifndef LIED_CORE_FINITE_H
#define LIED_CORE_FINITE_H
#include <stddef.h>

/* The index of the first of x[0 .. n) that is infinite or NaN, or n. */
size_t lied_first_nonfinite(const double *x, size_t n);

#endif
