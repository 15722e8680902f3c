/* library.c - the registry of component libraries: every LIED_LIBRARY
 * registers itself when its code is loaded (built in: when lied's shared
 * libraries load; a plugin: when `require` loads its shared object), after
 * the version check. Registration happens in constructors, before main and
 * before any thread, so the registry takes no lock. */
#include "core/library.h"
#include <stdio.h>
#include <string.h>

#define MAX_LIBRARIES 256

static const lied_library *libraries[MAX_LIBRARIES];
static int nlibraries;
static lied_library_opener opener;

int lied_library_check(const lied_library *lib, const char *name, int abi, const char *version,
                       char *msg, size_t n) {
  if (!name) name = lib ? lib->name : "?";
  if (abi != LIED_ABI_VERSION || !version || strcmp(version, LIED_VERSION_STRING) != 0) {
    snprintf(msg, n,
             "component library '%s' was built against lied %s (ABI %d); this is lied %s "
             "(ABI %d): rebuild the library against this version",
             name, version ? version : "?", abi, LIED_VERSION_STRING, LIED_ABI_VERSION);
    return -1;
  }
  if (lib) {
    if (!lib->name || !lib->classes) {
      snprintf(msg, n, "component library '%s': the descriptor has no name or no class list",
               name);
      return -1;
    }
    const lied_library *other = lied_library_find(lib->name);
    if (other && other != lib) {
      snprintf(msg, n,
               "component library '%s' is already loaded from another file (two libraries "
               "of one name)",
               lib->name);
      return -1;
    }
    if (!other && nlibraries == MAX_LIBRARIES) {
      snprintf(msg, n, "component library '%s': more than %d libraries", lib->name,
               MAX_LIBRARIES);
      return -1;
    }
  }
  if (n) msg[0] = 0;
  return 0;
}

int lied_library_register(const lied_library *lib, int abi, const char *version) {
  char msg[256];
  if (lied_library_check(lib, NULL, abi, version, msg, sizeof msg) != 0) return -1;
  if (lied_library_find(lib->name) == lib) return 0;
  libraries[nlibraries++] = lib;
  return 0;
}

const lied_library *lied_library_find(const char *name) {
  for (int i = 0; i < nlibraries; i++)
    if (strcmp(libraries[i]->name, name) == 0) return libraries[i];
  return NULL;
}

int lied_library_count(void) { return nlibraries; }

const lied_library *lied_library_at(int i) {
  return i >= 0 && i < nlibraries ? libraries[i] : NULL;
}

void lied_library_set_opener(lied_library_opener fn) { opener = fn; }

int lied_library_luaopen(struct lua_State *L, const lied_library *lib, int abi,
                         const char *version) {
  /* the Lua binding is loaded with any plugin (it links liblied_lua) */
  if (!opener) {
    fprintf(stderr, "lied: component library '%s' opened without lied's Lua binding "
                    "(link the library with lied::plugin / lied-plugin.pc)\n",
            lib ? lib->name : "?");
    return 0;
  }
  return opener(L, lib, abi, version);
}
