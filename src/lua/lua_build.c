/* lua_build.c - models: lied.core.build turns the spec list of
 * lied.flatten into a built model (lied.Model userdata holding a
 * lied_system); its methods are in lua_inspect.c and lua_run.c. */
#include <string.h>
#include "lua/binding.h"

lmodel *lied_lua_checkmodel(lua_State *L, int idx) {
  lmodel *u = luaL_checkudata(L, idx, MODEL_MT);
  if (!u->sys || !u->sys->sched) luaL_error(L, "model was freed");
  return u;
}

static int model_gc(lua_State *L) {
  lmodel *u = luaL_checkudata(L, 1, MODEL_MT);
  lied_system_free(u->sys);
  u->sys = NULL;
  return 0;
}

static int model_tostring(lua_State *L) {
  lmodel *u = luaL_checkudata(L, 1, MODEL_MT);
  if (!u->sys || !u->sys->sched) {
    lua_pushliteral(L, "model (freed)");
    return 1;
  }
  lua_pushfstring(L, "model %s (%I components, %I states)", u->sys->model->specs[0].name,
                  (lua_Integer)u->sys->model->ncomponents,
                  (lua_Integer)u->sys->sched->nstates);
  return 1;
}

/* A string field of table t (NULL when absent or not a string: a number is
 * not converted, the converted copy would not outlive the pop). */
static const char *opt_field_str(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  lua_pop(L, 1);
  return s;
}

/* lied.core.build(specs) -> model. specs[i] = {name, parent (index, 0 for
 * the root), class, count, array, params = {k = number or {numbers}},
 * connect = {{a, b, where}}, ports = {name = target}, where} */
static int core_build(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lmodel *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->sys = NULL;
  luaL_setmetatable(L, MODEL_MT);
  int ud = lua_gettop(L);
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  if (!m || !(u->sys = lied_system_new(m, &e))) return lied_lua_raise(L, &e);
  lua_Integer n = luaL_len(L, 1);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    int t = lua_gettop(L);
    const char *name = opt_field_str(L, t, "name");
    const char *where = opt_field_str(L, t, "where");
    lua_getfield(L, t, "parent");
    int parent = (int)lua_tointeger(L, -1) - 1;
    lua_getfield(L, t, "count");
    lua_Integer count = lua_isnil(L, -1) ? 1 : lua_tointeger(L, -1);
    lua_getfield(L, t, "array");
    int is_array = lua_toboolean(L, -1);
    lua_getfield(L, t, "class");
    const lied_class *cls = lua_isnil(L, -1) ? NULL : lied_lua_checkclass(L, -1);
    lua_pop(L, 4);
    if (count < 0 || count > (lua_Integer)UINT32_MAX)
      return lied_lua_fail(L, LIED_E_MODEL, "%s%s%s: array size %I out of range (at most %I)",
                       where ? where : "", where ? ": " : "", name ? name : "?", count,
                       (lua_Integer)UINT32_MAX);
    int id = lied_model_add(m, parent, name ? name : "", cls, (uint32_t)count, is_array,
                            where, &e);
    if (id < 0) return lied_lua_raise(L, &e);
    lua_getfield(L, t, "params");
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        /* lua_tostring would turn a number key into a string in place and
         * break lua_next: only string keys are parameter names */
        if (lua_type(L, -2) != LUA_TSTRING)
          return lied_lua_fail(L, LIED_E_MODEL, "%s%s%s: parameter names must be strings, got %s",
                            where ? where : "", where ? ": " : "", name ? name : "?",
                            luaL_typename(L, -2));
        const char *pn = lua_tostring(L, -2);
        double vbuf[64], *v = vbuf;
        int nv = 0;
        if (lua_type(L, -1) == LUA_TTABLE) {
          lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
          if (len > (1 << 20))
            return lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s: %I values are too many",
                                 where ? where : "", where ? ": " : "", name ? name : "?", pn, len);
          if (len > 64) v = lua_newuserdatauv(L, sizeof(double) * (size_t)len, 0);
          for (lua_Integer k = 1; k <= len; k++) {
            lua_rawgeti(L, len > 64 ? -2 : -1, k);
            if (lua_type(L, -1) != LUA_TNUMBER)
              return lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s[%I] must be a number, got %s",
                                   where ? where : "", where ? ": " : "", name ? name : "?", pn, k,
                                   luaL_typename(L, -1));
            v[nv++] = lua_tonumber(L, -1);
            lua_pop(L, 1);
          }
        } else if (lua_type(L, -1) == LUA_TNUMBER) {
          v[nv++] = lua_tonumber(L, -1);
        } else {
          return lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s must be a number, got %s",
                               where ? where : "", where ? ": " : "", name ? name : "?", pn,
                               luaL_typename(L, -1));
        }
        if (lied_model_set_param(m, id, pn, v, nv, &e)) {
          if (where) lied_err_prefix(&e, "%s: ", where);
          return lied_lua_raise(L, &e);
        }
        lua_pop(L, v == vbuf ? 1 : 2);
      }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "connect");
    if (lua_istable(L, -1)) {
      lua_Integer nc = luaL_len(L, -1);
      for (lua_Integer k = 1; k <= nc; k++) {
        lua_rawgeti(L, -1, k);
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        lua_getfield(L, -3, "where");
        size_t na = 0, nb = 0;
        const char *a = lua_type(L, -3) == LUA_TSTRING ? lua_tolstring(L, -3, &na) : NULL;
        const char *b = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &nb) : NULL;
        if (!a || !b) return lied_lua_fail(L, LIED_E_MODEL, "connect entries need two port paths");
        if (strlen(a) != na || strlen(b) != nb)
          return lied_lua_fail(L, LIED_E_MODEL, "connect: a port path contains a NUL character");
        if (lied_model_connect(m, id, a, b, lua_tostring(L, -1), &e)) return lied_lua_raise(L, &e);
        lua_pop(L, 4);
      }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "ports");
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
          return lied_lua_fail(L, LIED_E_MODEL, "%s%s%s: ports = {name = \"child.port\"} needs strings, got %s = %s",
                            where ? where : "", where ? ": " : "", name ? name : "?",
                            luaL_typename(L, -2), luaL_typename(L, -1));
        if (lied_model_alias(m, id, lua_tostring(L, -2), lua_tostring(L, -1), &e))
          return lied_lua_raise(L, &e);
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 2);
  }
  if (lied_system_build(u->sys, NULL, &e)) return lied_lua_raise(L, &e);
  lua_pushvalue(L, ud);
  return 1;
}

static const luaL_Reg build_funcs[] = {{"build", core_build}, {NULL, NULL}};

void lied_lua_open_build(lua_State *L) {
  lied_lua_newtype(L, MODEL_MT, lied_lua_inspect_methods, model_gc, model_tostring);
  luaL_getmetatable(L, MODEL_MT);
  lua_getfield(L, -1, "methods");
  luaL_setfuncs(L, lied_lua_run_methods, 0);
  luaL_setfuncs(L, lied_lua_analysis_methods, 0);
  lua_pop(L, 2);
  luaL_setfuncs(L, build_funcs, 0);
}
