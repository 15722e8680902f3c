/* lua_error.c - error objects: the one place where a lied_status becomes a
 * Lua error. An error object is a table {kind, msg, status} with metatable
 * lied.Error: kind "usage" (LIED_E_USAGE: a bad option or argument, nothing
 * was done) or "model" (any other failure: the model or the simulation);
 * tostring(err) and err .. "" give msg (docs/lua-api.md, "Errors"). */
#include <stdarg.h>
#include <string.h>
#include "core/model.h"
#include "binding/binding.h"
#include "binding/lua_lied.h"
#include "core/text.h"

static const char *kind_of(int code) {
  return code == LIED_E_USAGE ? "usage" : "model";
}

void lied_lua_push_error(lua_State *L, int code, const char *msg) {
  lua_createtable(L, 0, 3);
  lua_pushstring(L, kind_of(code));
  lua_setfield(L, -2, "kind");
  lua_pushstring(L, msg);
  lua_setfield(L, -2, "msg");
  lua_pushstring(L, lied_status_name(code));
  lua_setfield(L, -2, "status");
  luaL_setmetatable(L, ERROR_MT);
}

int lied_lua_raise(lua_State *L, const lied_err *e) {
  lied_lua_push_error(L, lied_err_code(e), e->msg);
  return lua_error(L);
}

int lied_lua_fail(lua_State *L, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lied_lua_push_error(L, code, msg);
  return lua_error(L);
}

void lied_lua_push_suggestion(lua_State *L, const char *name, const char *const *cand, int n) {
  char dym[300];
  lua_pushstring(L, lied_did_you_mean(dym, sizeof dym, name, cand, n));
}

/* Push the message of the error object at idx and return 1; return 0 (and
 * push nothing) when the value is not an error object. */
static int push_msg(lua_State *L, int idx) {
  if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return 0;
  luaL_getmetatable(L, ERROR_MT);
  int is_error = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  if (!is_error) return 0;
  lua_getfield(L, idx, "msg");
  luaL_tolstring(L, -1, NULL);
  lua_remove(L, -2);
  return 1;
}

static int error_tostring(lua_State *L) {
  if (!push_msg(L, 1)) lua_pushliteral(L, "?");
  return 1;
}

/* err .. s and s .. err: as with the message. */
static int error_concat(lua_State *L) {
  for (int i = 1; i <= 2; i++) {
    if (push_msg(L, i))
      lua_replace(L, i);
    else if (!lua_isstring(L, i))
      return luaL_error(L, "attempt to concatenate a %s value", luaL_typename(L, i));
  }
  lua_concat(L, 2);
  return 1;
}

void lied_lua_open_errors(lua_State *L) {
  luaL_newmetatable(L, ERROR_MT); /* sets __name */
  lua_pushcfunction(L, error_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, error_concat);
  lua_setfield(L, -2, "__concat");
  lua_pop(L, 1);
}

static int tolstring_1(lua_State *L) {
  luaL_tolstring(L, 1, NULL);
  return 1;
}

/* See lua_lied.h. A string or number is its text; a value with __tostring
 * is converted in protected mode (an error object's message; a
 * __tostring that raises or returns no string crashed the embedding API,
 * lua_pcall's caller converting it unprotected); anything else is named by
 * its type, as the stock lua interpreter does. */
const char *lied_lua_errtext(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  const int t = lua_type(L, idx);
  if (t == LUA_TSTRING || t == LUA_TNUMBER) {
    lua_pushvalue(L, idx);
    return lua_tostring(L, -1);
  }
  if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushcfunction(L, tolstring_1);
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
      return lua_tostring(L, -1);
    lua_pop(L, 1);
    return lua_pushfstring(L, "(error object is a %s value whose __tostring fails)",
                           luaL_typename(L, idx));
  }
  return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, idx));
}

/* lied.core.errtext(e) -> the text of an error value (lied_lua_errtext) */
int lied_lua_core_errtext(lua_State *L) {
  luaL_checkany(L, 1);
  lied_lua_errtext(L, 1);
  return 1;
}

/* lied.core.error(kind, msg) -> an error object ("usage" or "model") */
int lied_lua_core_error(lua_State *L) {
  static const char *const kinds[] = {"usage", "model", NULL};
  int k = luaL_checkoption(L, 1, NULL, kinds);
  lied_lua_push_error(L, k == 0 ? LIED_E_USAGE : LIED_ERROR, luaL_checkstring(L, 2));
  return 1;
}
