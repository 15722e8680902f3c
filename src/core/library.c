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
#include <ctype.h>
#include <dlfcn.h>
#include <math.h>
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

/* ---- the descriptor, checked field by field -------------------------------- */

#define MAX_CLASSES 4096
#define MAX_PARAMS 4096
#define MAX_INSTANCE ((size_t)1 << 30) /* bytes of one instance */
#define MAX_VECTOR (1 << 20)           /* doubles of one vector parameter */

static int identifier(const char *s) {
  if (!s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

/* Refuse with a message naming the library, the class and the field. */
#define BAD_CLASS(...)                                                                   \
  do {                                                                                   \
    char what_[200];                                                                     \
    snprintf(what_, sizeof what_, __VA_ARGS__);                                          \
    snprintf(msg, n, "component library '%s', class %d ('%s'): %s", lib->name, k + 1,     \
             c->name ? c->name : "(no name)", what_);                                    \
    return -1;                                                                           \
  } while (0)

/* One parameter of class c (index k in the library): a name lied can use,
 * its storage inside the instance and aligned for its type (a double, or an
 * int with LIED_PARAM_INT), a range and a vector length that make sense. */
static int check_param(const lied_library *lib, int k, const lied_class *c, int j, char *msg,
                       size_t n) {
  const lied_param *p = &c->params[j];
  if (!p->name) BAD_CLASS("params[%d].name is NULL (nparams = %d: is the list that long?)", j, c->nparams);
  if (!identifier(p->name))
    BAD_CLASS("params[%d].name '%s' is not a name (letters, digits, _)", j, p->name);
  for (int i = 0; i < j; i++)
    if (strcmp(c->params[i].name, p->name) == 0)
      BAD_CLASS("params[%d] and params[%d] are both named '%s'", i, j, p->name);
  if (p->len < 0 || p->len > MAX_VECTOR)
    BAD_CLASS("parameter '%s': len = %d (0 or 1 for a scalar, up to %d for a vector)", p->name,
              p->len, MAX_VECTOR);
  const int is_int = (p->flags & LIED_PARAM_INT) != 0; /* stored as int */
  const size_t elem = is_int ? sizeof(int) : sizeof(double);
  const size_t bytes = elem * (size_t)(p->len > 1 ? p->len : 1);
  if (p->offset % (is_int ? _Alignof(int) : _Alignof(double)) != 0)
    BAD_CLASS("parameter '%s': offset %zu is not aligned for %s (use offsetof)", p->name,
              p->offset, is_int ? "an int" : "a double");
  if (p->offset > c->size || bytes > c->size - p->offset)
    BAD_CLASS("parameter '%s': offset %zu + %zu bytes lies beyond the instance (size %zu)",
              p->name, p->offset, bytes, c->size);
  if (isnan(p->min) || isnan(p->max) || p->min > p->max)
    BAD_CLASS("parameter '%s': the range [%g, %g] is empty", p->name, p->min, p->max);
  return 0;
}

/* Every class of lib: its name, instance size, meta function and
 * parameters; no two classes of one name. (The list must be
 * NULL-terminated and params must hold nparams entries: what lies beyond
 * them cannot be checked, only what they hold.) */
static int check_classes(const lied_library *lib, char *msg, size_t n) {
  int k = 0;
  for (; lib->classes[k]; k++) {
    const lied_class *c = lib->classes[k];
    if (k == MAX_CLASSES) BAD_CLASS("more than %d classes (is the list NULL-terminated?)", MAX_CLASSES);
    if (!c->name) BAD_CLASS("name is NULL");
    if (!identifier(c->name)) BAD_CLASS("name '%s' is not a name (letters, digits, _)", c->name);
    for (int i = 0; i < k; i++)
      if (strcmp(lib->classes[i]->name, c->name) == 0)
        BAD_CLASS("classes %d and %d are both named '%s'", i + 1, k + 1, c->name);
    if (!c->domain) BAD_CLASS("domain is NULL");
    if (c->size == 0 || c->size > MAX_INSTANCE)
      BAD_CLASS("size = %zu (sizeof the instance struct, at most %zu)", c->size, MAX_INSTANCE);
    if (!c->meta) BAD_CLASS("meta is NULL (every class declares its structure)");
    if (c->nparams < 0 || c->nparams > MAX_PARAMS)
      BAD_CLASS("nparams = %d (0 to %d)", c->nparams, MAX_PARAMS);
    if (c->nparams > 0 && !c->params) BAD_CLASS("params is NULL with nparams = %d", c->nparams);
    for (int j = 0; j < c->nparams; j++)
      if (check_param(lib, k, c, j, msg, n)) return -1;
  }
  return 0;
}
#undef BAD_CLASS

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
      snprintf(msg, n, "component library '%s': the descriptor has no %s", name,
               lib->name ? "class list (classes is NULL)" : "name (name is NULL)");
      return -1;
    }
    if (!identifier(lib->name)) {
      snprintf(msg, n, "component library '%s': the name is not a C identifier", lib->name);
      return -1;
    }
    if (check_classes(lib, msg, n)) return -1;
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
  char msg[512];
  if (!lib) return -1; /* nothing to register (lied_library_luaopen says why) */
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
