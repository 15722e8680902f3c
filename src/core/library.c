/* library.c - the registry of component libraries: every LIED_LIBRARY
 * registers itself when its code is loaded (built in: when lied's shared
 * libraries load; a plugin: when `require` loads its shared object), after
 * the version check. A plugin may load on one thread while contexts on
 * others read the registry (lied/lied.h: contexts are independent), so the
 * registry is append-only: registrations take a lock, and publish a slot by
 * a release store of the count after writing it; readers load the count
 * with acquire and read only the slots below it, without a lock
 * (tests/embed/test_contexts.c runs contexts on several threads). A
 * registered library stays loaded for the rest of the process (pin). */
#define _GNU_SOURCE /* dladdr */
#include "core/library.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define MAX_LIBRARIES 256

static const lied_library *libraries[MAX_LIBRARIES];
static atomic_int nlibraries;
static pthread_mutex_t registering = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(lied_library_opener) opener;

/* The number of published slots (acquire: their contents are visible). */
static int published(void) { return atomic_load_explicit(&nlibraries, memory_order_acquire); }

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
    if (!other && published() == MAX_LIBRARIES) {
      snprintf(msg, n, "component library '%s': more than %d libraries", lib->name,
               MAX_LIBRARIES);
      return -1;
    }
  }
  if (n) msg[0] = 0;
  return 0;
}

/* Keep the shared object that holds lib loaded until the process ends. The
 * registry is the process's, but a plugin is loaded by one Lua state
 * (require), whose end unloads it (lua_close: dlclose): the registry, and
 * models of other contexts built from its classes, would point into
 * unmapped memory. RTLD_NOLOAD | RTLD_NODELETE only marks the loaded object
 * (nothing for lied's own libraries, which stay anyway). */
static void pin(const lied_library *lib) {
  Dl_info info;
  if (dladdr(lib, &info) && info.dli_fname)
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

int lied_library_register(const lied_library *lib, int abi, const char *version) {
  char msg[256];
  pthread_mutex_lock(&registering); /* one writer: check and append together */
  int rc = lied_library_check(lib, NULL, abi, version, msg, sizeof msg);
  if (rc == 0 && lied_library_find(lib->name) != lib) {
    const int n = atomic_load_explicit(&nlibraries, memory_order_relaxed);
    libraries[n] = lib;
    atomic_store_explicit(&nlibraries, n + 1, memory_order_release);
    pin(lib);
  }
  pthread_mutex_unlock(&registering);
  return rc == 0 ? 0 : -1;
}

const lied_library *lied_library_find(const char *name) {
  const int n = published();
  for (int i = 0; i < n; i++)
    if (strcmp(libraries[i]->name, name) == 0) return libraries[i];
  return NULL;
}

int lied_library_count(void) { return published(); }

const lied_library *lied_library_at(int i) {
  return i >= 0 && i < published() ? libraries[i] : NULL;
}

void lied_library_set_opener(lied_library_opener fn) {
  atomic_store_explicit(&opener, fn, memory_order_release);
}

int lied_library_luaopen(struct lua_State *L, const lied_library *lib, int abi,
                         const char *version) {
  /* the Lua binding is loaded with any plugin (it links liblied_lua) */
  lied_library_opener open = atomic_load_explicit(&opener, memory_order_acquire);
  if (!open) {
    fprintf(stderr, "lied: component library '%s' opened without lied's Lua binding "
                    "(link the library with lied::plugin / lied-plugin.pc)\n",
            lib ? lib->name : "?");
    return 0;
  }
  return open(L, lib, abi, version);
}
