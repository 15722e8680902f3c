/* assert.h - LIED_ASSERT(cond): an invariant of lied's own code (an index
 * in a lane group, a lag, a halo's width, which group a ring slot holds),
 * where a mistake would give wrong numbers rather than a crash. Never for
 * user input: a bad model or option is an error with a message (err.h).
 *
 * On (LIED_ASSERTS defined: Debug and sanitizer builds, or -DLIED_ASSERTS=ON
 * in any build; CMakeLists.txt), a false condition prints
 *   lied: internal error: FILE:LINE: assertion failed: COND
 * on stderr and aborts. Off (Release, RelWithDebInfo), the condition is not
 * evaluated and no code is emitted: it stays only inside sizeof, so names
 * used in it alone still count as used. Code that exists only to compute
 * what an assertion checks goes between #ifdef LIED_ASSERTS and #endif. */
#ifndef LIED_CORE_ASSERT_H
#define LIED_CORE_ASSERT_H

#ifdef LIED_ASSERTS
_Noreturn void lied_assert_fail(const char *file, int line, const char *cond)
    __attribute__((cold));
#define LIED_ASSERT(cond) ((cond) ? (void)0 : lied_assert_fail(__FILE__, __LINE__, #cond))
#else
#define LIED_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#endif
