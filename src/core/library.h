/* library.h - the registry of component libraries (lied/component.h,
 * "libraries"): engine side. The Lua binding installs the opener that
 * lied_library_luaopen calls (the engine never calls Lua itself). */
#ifndef LIED_CORE_LIBRARY_H
#define LIED_CORE_LIBRARY_H
#include "lied/component.h"

typedef int (*lied_library_opener)(struct lua_State *L, const lied_library *lib, int abi,
                                   const char *version);
void lied_library_set_opener(lied_library_opener fn);

#endif
