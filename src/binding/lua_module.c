/* lua_module.c - module lied.core: the C side of `require "lied"`. Puts
 * together the parts (classes, build, inspection, runs, results, errors) and
 * the module's own functions: solvers, glob, suggest, error. */
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "core/model.h"
#include "core/pool.h"
#include "linsys/sparse.h"
#include "binding/binding.h"
#include "core/text.h"
#include "solve/sim.h"

void lied_lua_setint(lua_State *L, const char *k, uint64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

void lied_lua_setnum(lua_State *L, const char *k, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, k);
}

void lied_lua_setbool(lua_State *L, const char *k, int v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, k);
}

void lied_lua_setstr(lua_State *L, const char *k, const char *v) {
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

void lied_lua_newtype(lua_State *L, const char *name, const luaL_Reg *methods,
                      lua_CFunction gc, lua_CFunction tostr) {
  luaL_newmetatable(L, name); /* sets __name */
  if (methods) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "methods");
    lua_setfield(L, -2, "__index");
  }
  if (gc) {
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__close");
  }
  lua_pushcfunction(L, tostr);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}

/* lied.core.solvers() -> list of {name, doc, order, adaptive, implicit} */
static int core_solvers(lua_State *L) {
  lua_newtable(L);
  for (int i = 0; i < lied_solver_count(); i++) {
    const lied_solver *s = lied_solver_at(i);
    lua_createtable(L, 0, 5);
    lied_lua_setstr(L, "name", s->name);
    lied_lua_setstr(L, "doc", s->doc);
    lied_lua_setint(L, "order", (uint64_t)s->order);
    lied_lua_setbool(L, "adaptive", s->adaptive);
    lied_lua_setbool(L, "implicit", s->implicit);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* lied.core.glob(pattern, name) -> boolean (* and ?; brackets are literal) */
static int core_glob(lua_State *L) {
  lua_pushboolean(L, lied_glob(luaL_checkstring(L, 1), luaL_checkstring(L, 2)));
  return 1;
}

/* lied.core.suggest(name, candidates) -> the closest candidate (edit
 * distance, as the engine's "did you mean" messages), or nil; and the
 * message part " (did you mean 'x'?)" or "". */
static int core_suggest(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  int n = (int)luaL_len(L, 2);
  const char **cand = lua_newuserdatauv(L, sizeof *cand * (size_t)(n > 0 ? n : 1), 0);
  int k = 0;
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, 2, i);
    if (lua_type(L, -1) == LUA_TSTRING) cand[k++] = lua_tostring(L, -1); /* anchored in t */
    lua_pop(L, 1);
  }
  const char *best = lied_suggest(name, cand, k);
  if (best)
    lua_pushstring(L, best);
  else
    lua_pushnil(L);
  lied_lua_push_suggestion(L, name, cand, k);
  return 2;
}

/* lied.core.check_stop(what): a Ctrl-C (SIGTERM, SIGHUP) since the last
 * check raises "what: interrupted" (the flag consumed); nothing otherwise.
 * For the long Lua parts of a command (writing a linearisation). */
static int core_check_stop(lua_State *L) {
  const char *what = luaL_checkstring(L, 1);
  volatile sig_atomic_t *f = lied_lua_stop_flag(L);
  if (f && *f) {
    *f = 0;
    return lied_lua_fail(L, LIED_ERROR, "%s: interrupted", what);
  }
  return 0;
}

static const luaL_Reg core_funcs[] = {{"solvers", core_solvers},
                                      {"check_stop", core_check_stop},
                                      {"glob", core_glob},
                                      {"suggest", core_suggest},
                                      {"error", lied_lua_core_error},
                                      {"errtext", lied_lua_core_errtext},
                                      {NULL, NULL}};

/* lied's Lua standard library (stdlib/: `require "cranecrab"`) is installed
 * beside lied's modules, in lied/stdlib/ (share/lua/5.4/lied/stdlib in an
 * install, the same under the build tree). Put it on package.path where
 * `lied` itself was found, so a stock Lua that requires lied finds it too
 * (the lied executable has it already; then this adds nothing). */
static void add_stdlib_path(lua_State *L) {
  int top = lua_gettop(L);
  const char *dir = getenv("LIED_STDLIB_DIR");
  if (dir && *dir) {
    lua_pushstring(L, dir);
  } else {
    if (lua_getglobal(L, "package") != LUA_TTABLE) goto done;
    lua_getfield(L, -1, "searchpath");
    lua_pushliteral(L, "lied");
    lua_getfield(L, -3, "path");
    if (lua_pcall(L, 2, 1, 0) != LUA_OK || !lua_isstring(L, -1)) goto done;
    /* .../lied/init.lua -> .../lied/stdlib */
    const char *init = lua_tostring(L, -1);
    const char *slash = strrchr(init, '/');
    if (!slash) goto done;
    lua_pushlstring(L, init, (size_t)(slash - init));
    lua_pushliteral(L, "/stdlib");
    lua_concat(L, 2);
  }
  dir = lua_tostring(L, -1);
  if (lua_getglobal(L, "package") != LUA_TTABLE) goto done;
  lua_getfield(L, -1, "path");
  const char *path = lua_tostring(L, -1);
  lua_pushfstring(L, "%s/?.lua", dir);
  int present = path && strstr(path, lua_tostring(L, -1)) != NULL;
  lua_pop(L, 1);
  if (!present) {
    lua_pushfstring(L, "%s;%s/?.lua;%s/?/init.lua", path ? path : "", dir, dir);
    lua_setfield(L, -3, "path");
  }
done:
  lua_settop(L, top);
}

int lied_lua_open_core(lua_State *L) {
  add_stdlib_path(L);
  luaL_newlib(L, core_funcs);
  lied_lua_open_errors(L);
  lied_lua_open_classes(L);
  lied_lua_open_build(L);
  lied_lua_open_results(L);
  lied_lua_open_run(L);
  lied_lua_open_dist(L);
  lied_lua_open_tables(L);
  lua_pushstring(L, LIED_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushboolean(L, lied_splu_available());
  lua_setfield(L, -2, "sparse_lu");
  lua_pushboolean(L, lied_asserts_on());
  lua_setfield(L, -2, "asserts");
  lua_pushinteger(L, lied_pool_cores());
  lua_setfield(L, -2, "cores");
  return 1;
}
