/* lua_host.c - creating the Lua state lied runs in. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "binding/lua_lied.h"
#include "binding/binding.h"

/* Relative paths from the executable's directory to lied's Lua modules and
 * C modules in an install (set by CMake from the install directories; no
 * absolute path is compiled in). */
#ifndef LIED_REL_LUADIR
#define LIED_REL_LUADIR "../share/lua/5.4"
#endif
#ifndef LIED_REL_LIB_LUADIR
#define LIED_REL_LIB_LUADIR "../share/lua/5.4"
#endif
#ifndef LIED_REL_LIB_LUACDIR
#define LIED_REL_LIB_LUACDIR "lua/5.4"
#endif
#ifndef LIED_REL_LUACDIR
#define LIED_REL_LUACDIR "../lib/lua/5.4"
#endif

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory of the running executable into buf, or 0. */
static int exe_dir(char *buf, size_t n) {
  ssize_t k = readlink("/proc/self/exe", buf, n - 1);
  if (k <= 0 || (size_t)k >= n - 1) return 0;
  buf[k] = 0;
  char *slash = strrchr(buf, '/');
  if (!slash) return 0;
  *slash = 0;
  return 1;
}

/* The directory of the shared library holding this code (liblied_lua), or
 * 0: how a program embedding lied (lied/lied.h) finds the install. */
static int lib_dir(char *buf, size_t n) {
  Dl_info info;
  if (!dladdr((void *)lied_lua_set_paths, &info) || !info.dli_fname) return 0;
  if (!realpath(info.dli_fname, buf)) return 0;
  char *slash = strrchr(buf, '/');
  if (!slash) return 0;
  *slash = 0;
  (void)n;
  return 1;
}

/* Try dir/rel as lied's Lua directory (holding lied/init.lua). */
static int try_dir(const char *dir, const char *rel, const char *crel, char *luadir,
                   char *cdir, size_t n) {
  char probe[PATH_MAX + 64];
  snprintf(probe, sizeof probe, "%s/%s/lied/init.lua", dir, rel);
  if (!is_file(probe)) return 0;
  /* both without "dir/.." parts, for readable messages */
  char path[PATH_MAX + 64], real[PATH_MAX];
  const char *rels[2] = {rel, crel};
  char *outs[2] = {luadir, cdir};
  for (int k = 0; k < 2; k++) {
    snprintf(path, sizeof path, "%s/%s", dir, rels[k]);
    const char *src = realpath(path, real) ? real : path;
    size_t len = strlen(src);
    if (len >= n) return 0;
    memcpy(outs[k], src, len + 1);
  }
  return 1;
}

/* lied's Lua directory (holding lied/init.lua) and C module directory:
 * relative to the executable in the install layout, then relative to
 * liblied_lua, then a share/lua/5.4 in the executable's or the library's
 * directory or up to three directories above (the build tree, where test
 * programs live in subdirectories). */
static int find_lua_dirs(char *luadir, char *cdir, size_t n) {
  char exe[PATH_MAX], lib[PATH_MAX];
  int have_exe = exe_dir(exe, sizeof exe), have_lib = lib_dir(lib, sizeof lib);
  if (have_exe && try_dir(exe, LIED_REL_LUADIR, LIED_REL_LUACDIR, luadir, cdir, n)) return 1;
  if (have_lib && try_dir(lib, LIED_REL_LIB_LUADIR, LIED_REL_LIB_LUACDIR, luadir, cdir, n))
    return 1;
  for (int k = 0; k < 2; k++) {
    const char *base = k == 0 ? (have_exe ? exe : NULL) : (have_lib ? lib : NULL);
    if (!base) continue;
    char up[32] = ".";
    for (int level = 0; level <= 3; level++) {
      char dir[PATH_MAX + 32];
      snprintf(dir, sizeof dir, "%s/%s", base, up);
      if (try_dir(dir, "share/lua/5.4", "lib/lua/5.4", luadir, cdir, n)) return 1;
      strcat(up, "/..");
    }
  }
  return 0;
}

/* Append the templates of directory dir (its length len) to buffers b and c. */
static void add_dir(luaL_Buffer *b, const char *dir, size_t len) {
  luaL_addlstring(b, dir, len);
  luaL_addstring(b, "/?.lua;");
  luaL_addlstring(b, dir, len);
  luaL_addstring(b, "/?/init.lua;");
}

void lied_lua_set_paths(lua_State *L) {
  char luadir[PATH_MAX], cdir[PATH_MAX];
  int found = find_lua_dirs(luadir, cdir, sizeof luadir);
  const char *dev = getenv("LIED_LUA_DIR");
  const char *std_dir = getenv("LIED_STDLIB_DIR");
  const char *extra = getenv("LIED_PATH");
  luaL_Buffer b;

  lua_getglobal(L, "package");
  /* package.path */
  luaL_buffinit(L, &b);
  if (dev && *dev) add_dir(&b, dev, strlen(dev));
  if (found) add_dir(&b, luadir, strlen(luadir));
  if (std_dir && *std_dir) {
    add_dir(&b, std_dir, strlen(std_dir));
  } else if (dev && *dev) {
    luaL_addstring(&b, dev);
    luaL_addstring(&b, "/../stdlib/?.lua;");
    luaL_addstring(&b, dev);
    luaL_addstring(&b, "/../stdlib/?/init.lua;");
  } else if (found) {
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s/lied/stdlib", luadir);
    add_dir(&b, tmp, strlen(tmp));
  }
  for (const char *p = extra; p && *p;) {
    const char *e = strchr(p, ':');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len) add_dir(&b, p, len);
    p = e ? e + 1 : p + len;
  }
  lua_getfield(L, -2, "path"); /* Lua's, from LUA_PATH_5_4 / LUA_PATH */
  luaL_addvalue(&b);
  luaL_pushresult(&b);
  lua_setfield(L, -2, "path");
  /* package.cpath */
  luaL_buffinit(L, &b);
  if (found) {
    luaL_addstring(&b, cdir);
    luaL_addstring(&b, "/?.so;");
  }
  for (const char *p = extra; p && *p;) {
    const char *e = strchr(p, ':');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len) {
      luaL_addlstring(&b, p, len);
      luaL_addstring(&b, "/?.so;");
    }
    p = e ? e + 1 : p + len;
  }
  lua_getfield(L, -2, "cpath");
  luaL_addvalue(&b);
  luaL_pushresult(&b);
  lua_setfield(L, -2, "cpath");
  lua_pop(L, 1);
}

volatile sig_atomic_t *lied_lua_stop_flag(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, "lied.stopflag");
  volatile sig_atomic_t *f = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return f;
}

void lied_lua_check_stop(lua_State *L, const char *what, int64_t n) {
  volatile sig_atomic_t *f = lied_lua_stop_flag(L);
  if (!f || !*f) return;
  *f = 0;
  lied_lua_fail(L, LIED_ERROR, "%s: interrupted (%I names so far)", what, (lua_Integer)n);
}

lua_State *lied_lua_new(volatile sig_atomic_t *stop) {
  lua_State *L = luaL_newstate();
  if (!L) return NULL;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, lied_lua_open_core);
  lua_setfield(L, -2, "lied.core");
  lua_pop(L, 1);
  lua_pushlightuserdata(L, (void *)stop);
  lua_setfield(L, LUA_REGISTRYINDEX, "lied.stopflag");
  lied_lua_set_paths(L);
  if (lied_lua_text_only(L) != 0) {
    lua_close(L);
    return NULL;
  }
  return L;
}
