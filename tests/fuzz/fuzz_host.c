/* fuzz_host.c - libFuzzer harnesses for lied (docs/robustness.md, "Fuzzing").
 * One Lua state per process (as in the REPL, where the same state lives on
 * after every error); each input is handed to a Lua driver
 * (tests/fuzz/model_gen.lua or tests/fuzz/cli_args.lua) that turns the bytes
 * into API calls. Lua errors are expected; what must not happen is a crash,
 * a sanitizer report, a leak or a hang. A watchdog thread sets the stop flag
 * (the Ctrl-C path) when one input has run for more than a second. */
#include <lauxlib.h>
#include <lualib.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include "binding/lua_lied.h"

#ifndef LIED_FUZZ_DRIVER
#error "define LIED_FUZZ_DRIVER (path of the Lua driver)"
#endif

static lua_State *L;
static volatile sig_atomic_t stop_flag;
static volatile int busy;
static struct timespec started;

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void *watchdog(void *arg) {
  (void)arg;
  const struct timespec tick = {0, 50000000}; /* 50 ms */
  for (;;) {
    nanosleep(&tick, NULL);
    if (busy && since((const struct timespec *)&started) > 1.0) stop_flag = 1;
  }
  return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  /* the CLI writes CSV to stdout: keep it out of the fuzzer's log */
  int fd = open("/dev/null", O_WRONLY);
  if (fd >= 0) {
    dup2(fd, 1);
    close(fd);
  }
  L = lied_lua_new(&stop_flag);
  if (!L) abort();
  if (luaL_dofile(L, LIED_FUZZ_DRIVER) != LUA_OK) {
    fprintf(stderr, "fuzz driver: %s\n", lua_tostring(L, -1));
    abort();
  }
  if (!lua_isfunction(L, -1)) abort();
  lua_setfield(L, LUA_REGISTRYINDEX, "lied.fuzz.driver");
  pthread_t th;
  pthread_create(&th, NULL, watchdog, NULL);
  pthread_detach(th);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return -1;
  stop_flag = 0;
  clock_gettime(CLOCK_MONOTONIC, &started);
  busy = 1;
  int top = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, "lied.fuzz.driver");
  lua_pushlstring(L, (const char *)data, size);
  /* the driver catches the API's errors itself; an error escaping it is a
   * bug in the driver or a non-string error object from lied: both worth
   * seeing, but not crashes */
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    /* a driver's oracle found a wrong result: a finding, like a crash */
    if (msg && strncmp(msg, "ORACLE:", 7) == 0) {
      fprintf(stderr, "%s\n", msg);
      abort();
    }
    if (getenv("LIED_FUZZ_VERBOSE")) fprintf(stderr, "driver error: %s\n", msg ? msg : "?");
  }
  lua_settop(L, top);
  lua_gc(L, LUA_GCCOLLECT, 0); /* finalise built models now: leaks show per input */
  busy = 0;
  return 0;
}
