/* lua_lied.h - the Lua host: lied.core module and interpreter setup. */
#ifndef LIED_LUA_LUA_LIED_H
#define LIED_LUA_LUA_LIED_H
#include <lua.h>
#include <signal.h>
#include "lied/component.h"

/* Open module lied.core (pushes its table): preloaded by lied_lua_new; the
 * shared object lied/core.so (src/binding/modules/core.c) is the same module for
 * a stock Lua 5.4. */
int lied_lua_open_core(lua_State *L);

/* A new Lua state with the standard libraries, lied.core preloaded, and
 * package.path / package.cpath covering lied's Lua files found relative to
 * the executable (lied_lua_set_paths). `stop` (may be NULL)
 * is the flag that Ctrl-C sets and simulations poll. NULL when out of memory. */
lua_State *lied_lua_new(volatile sig_atomic_t *stop);

/* Set package.path and package.cpath, in this order: LIED_LUA_DIR (a
 * directory holding lied/init.lua, for development), lied's own Lua
 * directories found relative to the running executable (install layout
 * bin/../share/lua/5.4, or the build tree's share/lua/5.4) and the stdlib
 * beside them, each directory of LIED_PATH (colon-separated; DIR/?.lua,
 * DIR/?/init.lua, DIR/?.so), then what Lua itself set from LUA_PATH_5_4 /
 * LUA_PATH and LUA_CPATH_5_4 / LUA_CPATH (or its defaults). */
void lied_lua_set_paths(lua_State *L);

/* Make load, loadfile, dofile and require's Lua searcher refuse binary
 * chunks (lua_textonly.c); lied_lua_new does it. 0, or -1 out of memory. */
int lied_lua_text_only(lua_State *L);

const lied_class *lied_lua_checkclass(lua_State *L, int idx);

/* Push the text of the error value at idx and return it: a string or
 * number as it is, a value with __tostring converted in protected mode, else
 * "(error object is a table value)". Never raises (but for memory): what
 * reports errors (the command line, the REPL, the embedding API) turns
 * whatever a model file raised into a message. */
const char *lied_lua_errtext(lua_State *L, int idx);


#endif
