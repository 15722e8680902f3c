/* core.c - the shared object lied/core.so: module lied.core for a stock
 * Lua 5.4 (`require "lied"` with lied's directories on LUA_PATH and
 * LUA_CPATH). The module itself is in liblied_lua (lied_lua_open_core); this
 * object only gives it the name Lua looks for. It links no Lua library: the
 * interpreter that loads it provides the Lua API. */
#include "binding/lua_lied.h"

LIED_EXPORT int luaopen_lied_core(lua_State *L);
LIED_EXPORT int luaopen_lied_core(lua_State *L) { return lied_lua_open_core(L); }
