/* lua_table.c - tables and maps (lied/table.h) as Lua values: lied.core.table
 * makes one from the lists lua/lied/table.lua prepares; a table parameter
 * of a component takes it (lua_build.c), the model keeping a reference. */
#include <math.h>
#include <string.h>
#include "core/table.h"
#include "binding/binding.h"

typedef struct ltable {
  lied_table *t;
} ltable;

lied_table *lied_lua_totable(lua_State *L, int idx) {
  ltable *u = luaL_testudata(L, idx, TABLE_MT);
  return u ? u->t : NULL;
}

static lied_table *checktable(lua_State *L, int idx) {
  lied_table *t = lied_lua_totable(L, idx);
  if (!t) luaL_typeerror(L, idx, "lied.table");
  return t;
}

/* The numbers of list field k of table t into a new userdata (left on the
 * stack); *n its length. */
static double *numbers(lua_State *L, int t, const char *k, size_t *n, const char *name) {
  lua_getfield(L, t, k);
  if (!lua_istable(L, -1))
    lied_lua_fail(L, LIED_E_PARAM, "%s: %s must be a list of numbers, got %s", name, k,
                  luaL_typename(L, -1));
  const lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
  if (len > INT32_MAX) lied_lua_fail(L, LIED_E_LIMIT, "%s: %s: too many values", name, k);
  double *v = lua_newuserdatauv(L, sizeof(double) * (size_t)(len + 1), 0);
  for (lua_Integer i = 1; i <= len; i++) {
    if (lua_rawgeti(L, -2, i) != LUA_TNUMBER)
      lied_lua_fail(L, LIED_E_PARAM, "%s: %s[%I] must be a number, got %s", name, k, i,
                    luaL_typename(L, -1));
    v[i - 1] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_remove(L, -2);
  *n = (size_t)len;
  return v;
}

/* The code of string field k of table t among names (NULL-terminated). */
static int option(lua_State *L, int t, const char *k, const char *const *names, const int *codes,
                  const char *name, const char *choices) {
  lua_getfield(L, t, k);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  for (int i = 0; s && names[i]; i++)
    if (strcmp(s, names[i]) == 0) {
      lua_pop(L, 1);
      return codes[i];
    }
  return lied_lua_fail(L, LIED_E_PARAM, "%s: %s must be %s, got %s", name, k, choices,
                       s ? lua_pushfstring(L, "\"%s\"", s) : luaL_typename(L, -1));
}

/* lied.core.table{rank, x1, x2, v, interpolation, extrapolation, name} ->
 * a table (lied.Table). v is row-major for a map. */
static int core_table(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "name");
  const char *name = lua_isstring(L, -1) ? lua_tostring(L, -1) : "table";
  lua_getfield(L, 1, "rank");
  lied_table_data d = {0};
  d.rank = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  static const char *const interp[] = {"linear", "cubic", "constant", NULL};
  static const int interp_code[] = {LIED_TABLE_LINEAR, LIED_TABLE_SMOOTH, LIED_TABLE_CONSTANT};
  static const char *const extrap[] = {"hold", "linear", "periodic", "error", NULL};
  static const int extrap_code[] = {LIED_TABLE_HOLD, LIED_TABLE_EXTEND, LIED_TABLE_PERIODIC,
                                    LIED_TABLE_ERROR};
  d.interp = option(L, 1, "interpolation", interp, interp_code, name,
                    "\"linear\", \"cubic\" or \"constant\"");
  d.extrap = option(L, 1, "extrapolation", extrap, extrap_code, name,
                    "\"hold\", \"linear\", \"periodic\" or \"error\"");
  size_t nv;
  d.x1 = numbers(L, 1, "x1", &d.n1, name);
  if (d.rank == 2) d.x2 = numbers(L, 1, "x2", &d.n2, name);
  d.v = numbers(L, 1, "v", &nv, name);
  if (nv != d.n1 * (d.rank == 2 ? d.n2 : 1))
    return lied_lua_fail(L, LIED_E_PARAM, "%s: %zu values for %zu x %zu breakpoints", name, nv,
                         d.n1, d.rank == 2 ? d.n2 : (size_t)1);
  d.name = name;
  lied_err e = {0};
  ltable *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->t = NULL;
  luaL_setmetatable(L, TABLE_MT);
  if (!(u->t = lied_table_new(&d, &e))) return lied_lua_raise(L, &e);
  return 1;
}

/* lied.core.table_rank(v) -> 1 or 2 for a table, else nil. */
static int core_table_rank(lua_State *L) {
  lied_table *t = lied_lua_totable(L, 1);
  if (!t) return 0;
  lua_pushinteger(L, lied_table_rank(t));
  return 1;
}

/* lied.core.table_check(t) -> true, or nil and what is wrong with its numbers. */
static int core_table_check(lua_State *L) {
  lied_err e = {0};
  if (lied_table_check(checktable(L, 1), &e) == LIED_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, e.msg);
  return 2;
}

static int table_gc(lua_State *L) {
  ltable *u = luaL_checkudata(L, 1, TABLE_MT);
  lied_table_release(u->t);
  u->t = NULL;
  return 0;
}

static const char *const interp_names[] = {"linear", "cubic", "constant"};
static const char *const extrap_names[] = {"hold", "linear", "periodic", "error"};

static void push_description(lua_State *L, const lied_table *t) {
  if (lied_table_rank(t) == 1)
    lua_pushfstring(L, "table %s (%I points, %s, extrapolation %s)", lied_table_name(t),
                    (lua_Integer)lied_table_size(t, 0), interp_names[lied_table_interpolation(t)],
                    extrap_names[lied_table_extrapolation(t)]);
  else
    lua_pushfstring(L, "map %s (%I x %I points, %s, extrapolation %s)", lied_table_name(t),
                    (lua_Integer)lied_table_size(t, 0), (lua_Integer)lied_table_size(t, 1),
                    lied_table_interpolation(t) == LIED_TABLE_SMOOTH ? "bicubic" : "bilinear",
                    extrap_names[lied_table_extrapolation(t)]);
}

static int table_tostring(lua_State *L) {
  push_description(L, checktable(L, 1));
  return 1;
}

void lied_lua_push_table_param(lua_State *L, const void *at) {
  const lied_table *t;
  memcpy(&t, at, sizeof t);
  if (t)
    push_description(L, t);
  else
    lua_pushliteral(L, "no table");
}

/* t(x) or t(x1, x2): the value (what a block's lookup gives); outside the
 * breakpoints of a table whose extrapolation is "error", an error. */
static int table_call(lua_State *L) {
  lied_table *t = checktable(L, 1);
  lied_table_hint h = {0, 0};
  const int rank = lied_table_rank(t);
  double x1 = luaL_checknumber(L, 2), x2 = rank == 2 ? luaL_checknumber(L, 3) : 0;
  double y = rank == 2 ? lied_table_lookup2(NULL, NULL, t, &h, x1, x2)
                       : lied_table_lookup(NULL, NULL, t, &h, x1);
  if (isnan(y) && !isnan(x1) && !isnan(x2) && lied_table_extrapolation(t) == LIED_TABLE_ERROR)
    return lied_lua_fail(L, LIED_E_RANGE, "%s: (%g%s%s) outside the breakpoints", lied_table_name(t),
                         x1, rank == 2 ? ", " : "", rank == 2 ? lua_tostring(L, 3) : "");
  lua_pushnumber(L, y);
  return 1;
}

/* t:info() -> {rank, size = {n1[, n2]}, name, interpolation, extrapolation,
 * x1 = {...}, x2 = {...}, v = {...}} */
static int table_info(lua_State *L) {
  lied_table *t = checktable(L, 1);
  const int rank = lied_table_rank(t);
  lua_createtable(L, 0, 8);
  lied_lua_setint(L, "rank", (uint64_t)rank);
  lied_lua_setstr(L, "name", lied_table_name(t));
  lied_lua_setstr(L, "interpolation", interp_names[lied_table_interpolation(t)]);
  lied_lua_setstr(L, "extrapolation", extrap_names[lied_table_extrapolation(t)]);
  size_t nv = 1;
  for (int d = 0; d < rank; d++) {
    const size_t n = lied_table_size(t, d);
    const double *b = lied_table_breaks(t, d);
    nv *= n;
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
      lua_pushnumber(L, b[k]);
      lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_setfield(L, -2, d ? "x2" : "x1");
  }
  const double *v = lied_table_values(t);
  lua_createtable(L, (int)nv, 0);
  for (size_t k = 0; k < nv; k++) {
    lua_pushnumber(L, v[k]);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  lua_setfield(L, -2, "v");
  return 1;
}

static const luaL_Reg table_methods[] = {{"info", table_info}, {NULL, NULL}};
static const luaL_Reg table_funcs[] = {{"table", core_table},
                                       {"table_rank", core_table_rank},
                                       {"table_check", core_table_check},
                                       {NULL, NULL}};

void lied_lua_open_tables(lua_State *L) {
  lied_lua_newtype(L, TABLE_MT, table_methods, table_gc, table_tostring);
  luaL_getmetatable(L, TABLE_MT);
  lua_pushcfunction(L, table_call);
  lua_setfield(L, -2, "__call");
  lua_pop(L, 1);
  luaL_setfuncs(L, table_funcs, 0);
}
