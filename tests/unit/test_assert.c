/* test_assert.c - LIED_ASSERT (core/assert.h). Where it is on (Debug and
 * sanitizer builds, LIED_ASSERTS): a false condition prints "lied: internal
 * error (...): FILE:LINE: FUNCTION: assertion 'COND' failed" and aborts, in this file and in
 * the engine (lied_lanes_move asked to move instances outside a group's
 * lanes); a true one does nothing. Where it is off: the condition is not
 * evaluated. lied_asserts_on (lied --version: "assertions on") says which. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "core/assert.h"
#include "sched/lanes.h"

#ifdef LIED_ASSERTS
/* Run fn in a child with stderr into a pipe: its stderr in buf, 1 when it
 * ended by SIGABRT. */
static int aborts(void (*fn)(void), char *buf, size_t cap) {
  int fd[2];
  if (pipe(fd)) return 0;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    fn();
    _exit(0);
  }
  close(fd[1]);
  size_t n = 0;
  ssize_t k;
  while (n + 1 < cap && (k = read(fd[0], buf + n, cap - 1 - n)) > 0) n += (size_t)k;
  buf[n] = 0;
  close(fd[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void false_here(void) {
  volatile int x = 1;
  LIED_ASSERT(x == 2);
}

static void bad_group(void) {
  static char group[8 * LIED_LANES], arena[8 * 64];
  const uint32_t w[] = {0};
  /* instances 10 .. 50 into the group from instance 0: beyond its lanes */
  lied_lanes_move(group, arena, 1, w, 1, 10, 50, 0, 0);
}

static void test_on(void) {
  char err[1024];
  CHECK(aborts(false_here, err, sizeof err));
  CHECK(strstr(err, "lied: internal error") == err);
  CHECK(strstr(err, "test_assert.c:") != NULL);
  CHECK(strstr(err, ": false_here: assertion 'x == 2' failed\n") != NULL);
  CHECK(aborts(bad_group, err, sizeof err));
  CHECK(strstr(err, "lied: internal error") == err);
  CHECK(strstr(err, "src/sched/lanemove.c:") != NULL);
  CHECK(strstr(err, ": lied_lanes_move: assertion '") != NULL);
  int n = 0;
  LIED_ASSERT(++n == 1); /* true: nothing, but evaluated */
  CHECK(n == 1);
  CHECK(lied_asserts_on()); /* the library says so too (lied --version) */
}
#else
static void test_on(void) {
  int n = 0;
  LIED_ASSERT(++n == 5); /* off: not evaluated */
  CHECK(n == 0);
  CHECK(!lied_asserts_on());
}
#endif

int main(void) {
  test_on();
  return CHECK_DONE();
}
