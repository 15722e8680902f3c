/* lua_lied.h - the Lua host: lied.core module and interpreter setup. */
#ifndef LIED_LUA_LUA_LIED_H
#define LIED_LUA_LUA_LIED_H
#include <lua.h>
#include <signal.h>
#include "lied/component.h"

/* Open module lied.core (pushes its table). */
int luaopen_lied_core(lua_State *L);

/* A new Lua state with the standard libraries, lied.core preloaded, and
 * package.path covering lied's Lua sources and stdlib. `stop` (may be NULL)
 * is the flag that Ctrl-C sets and simulations poll. NULL when out of memory. */
lua_State *lied_lua_new(volatile sig_atomic_t *stop);

/* Make load, loadfile, dofile and require's Lua searcher refuse binary
 * chunks (lua_textonly.c); lied_lua_new does it. 0, or -1 out of memory. */
int lied_lua_text_only(lua_State *L);

const lied_class *lied_lua_checkclass(lua_State *L, int idx);

/* Glob match with * and ?; brackets are literal (array indices). */
int lied_lua_glob(const char *pat, const char *name);

#endif
