/* badversion.c - a component library that claims to be built against
 * another lied version (and ABI): require "badversion" must refuse it. */
#include "lied/component.h"

static const lied_class *const classes[] = {NULL};
static const lied_library lib = {"badversion", "built against lied 0.0.1", classes};

LIED_EXPORT int luaopen_badversion(struct lua_State *L);
LIED_EXPORT int luaopen_badversion(struct lua_State *L) {
  return lied_library_luaopen(L, &lib, LIED_ABI_VERSION + 1, "0.0.1");
}
