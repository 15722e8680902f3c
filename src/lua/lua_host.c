/* lua_host.c - creating the Lua state lied runs in. */
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "lua/lua_lied.h"

int lied_lua_glob(const char *p, const char *s) {
  /* iterative wildcard match with backtracking to the last star */
  const char *star = NULL, *ss = NULL;
  while (*s) {
    if (*p == '?' || *p == *s) {
      p++, s++;
    } else if (*p == '*') {
      star = p++;
      ss = s;
    } else if (star) {
      p = star + 1;
      s = ++ss;
    } else {
      return 0;
    }
  }
  while (*p == '*') p++;
  return *p == 0;
}

static void set_path(lua_State *L) {
  const char *lua_dir = getenv("LIED_LUA_DIR");
  const char *std_dir = getenv("LIED_STDLIB_DIR");
  if (!lua_dir) lua_dir = LIED_LUA_DIR;
  if (!std_dir) std_dir = LIED_STDLIB_DIR;
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s/?.lua;%s/?/init.lua;./?.lua;./?/init.lua",
                  lua_dir, lua_dir, std_dir, std_dir);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
}

lua_State *lied_lua_new(volatile sig_atomic_t *stop) {
  lua_State *L = luaL_newstate();
  if (!L) return NULL;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_lied_core);
  lua_setfield(L, -2, "lied.core");
  lua_pop(L, 1);
  lua_pushlightuserdata(L, (void *)stop);
  lua_setfield(L, LUA_REGISTRYINDEX, "lied.stopflag");
  set_path(L);
  if (lied_lua_text_only(L) != 0) {
    lua_close(L);
    return NULL;
  }
  return L;
}
