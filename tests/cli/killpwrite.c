/* killpwrite.c - preloaded by tests/cli/test_attack2.sh: the process kills
 * itself with SIGKILL right after its LIED_KILL_PWRITE-th call of pwrite
 * (0 or unset: never), so that a SIGKILL lands between two updates of a MAT
 * file's header at a known point rather than by chance. Built without
 * sanitizers (tests/CMakeLists.txt). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

/* The real call of `name`, then the count; SIGKILL at the chosen one. */
static ssize_t counted(const char *name, int fd, const void *buf, size_t n, off_t off) {
  static long count, after = -1;
  pwrite_fn real = (pwrite_fn)dlsym(RTLD_NEXT, name);
  if (after < 0) {
    const char *a = getenv("LIED_KILL_PWRITE");
    after = a ? atol(a) : 0;
  }
  ssize_t r = real ? real(fd, buf, n, off) : -1;
  if (after > 0 && ++count == after) raise(SIGKILL);
  return r;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
  return counted("pwrite", fd, buf, n, off);
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
  return counted("pwrite64", fd, buf, n, off);
}
