/* assert.h - LIED_ASSERT(cond): an invariant of lied's own code, where a
 * mistake would give wrong numbers rather than a crash (index arithmetic of
 * the fast paths, the scheduler's orders). Checked in Debug and sanitizer
 * builds (CMake defines LIED_ASSERTS there; -DLIED_ASSERTS=ON forces it in
 * any build), compiled out elsewhere, where the condition is not evaluated.
 * A failed assertion is a bug of lied, never of the user's input: it prints
 * the file, line, function and condition and aborts (user input is checked
 * and reported with lied_err, core/err.h). */
#ifndef LIED_CORE_ASSERT_H
#define LIED_CORE_ASSERT_H

void lied_assert_fail(const char *cond, const char *file, int line, const char *func)
    __attribute__((noreturn));
/* 1 when the library was built with LIED_ASSERTS (lied --version says so) */
int lied_asserts_on(void);

#ifdef LIED_ASSERTS
#define LIED_ASSERT(cond) \
  ((cond) ? (void)0 : lied_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
/* sizeof: the operands count as used, nothing is evaluated */
#define LIED_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#endif
