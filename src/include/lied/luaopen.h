/* lied/luaopen.h - the Lua side of a component library, for a library that
 * writes its own luaopen_NAME instead of LIED_LIBRARY's (to add Lua
 * functions next to its classes). Needs the Lua 5.4 headers; component.h
 * does not.
 *
 *   #include "lied/luaopen.h"
 *   LIED_LIBRARY_DESCRIPTOR(myvalves, "valve laws", my_classes)
 *   LIED_EXPORT int luaopen_myvalves(lua_State *L) {
 *     LIED_LIBRARY_OPEN(L, myvalves);        // pushes the class table
 *     lua_pushcfunction(L, my_helper);
 *     lua_setfield(L, -2, "helper");
 *     return 1;
 *   }
 */
#ifndef LIED_LUAOPEN_H
#define LIED_LUAOPEN_H
#include <lua.h>
#include "lied/component.h"

/* Check the library's version against lied's, register it and push its
 * class table (lied.library(NAME), which also loads lied), or raise a Lua
 * error naming both versions. Evaluates to 1 (values pushed). */
#define LIED_LIBRARY_OPEN(L, NAME)                                              \
  lied_library_luaopen((L), &lied_library_##NAME, LIED_ABI_VERSION, LIED_VERSION_STRING)

#endif
