/* broken.c - component libraries with one defect each (issue 47, item 5),
 * compiled once per defect with -DBROKEN=k into broken_k.so
 * (tests/CMakeLists.txt); tests/plugins/test_broken_plugins.lua requires
 * each and checks the refusal names the library, the class and the field.
 * Defects 1 to 16 are in the descriptor (refused when the library loads),
 * 17 to 22 in what the class's meta declares (refused when a model using it
 * is built). The class is otherwise a valid one: a first-order lag. */
#include <stddef.h>
#include "lied/component.h"

#ifndef BROKEN
#error "compile with -DBROKEN=k"
#endif
#define NAME_(k) broken_##k
#define NAME(k) NAME_(k)
#define STR_(x) #x
#define STR(x) STR_(x)
#define LIB NAME(BROKEN)

typedef struct lag {
  lied_real_out y;
  double x, der_x, T;
  int order;
} lag;

static void lag_block(const lied_env *env, lag *o) {
  (void)env;
  o->der_x = -o->x / o->T;
  o->y.y.y = o->x;
}
LIED_BLOCK(lag_b, lag, lag_block)

static void lag_meta(lied_meta *m, void *self) {
  lag *o = self;
#if BROKEN == 19
  lied_meta_port(m, "y", 0, &o->y, NULL); /* a port without a layout */
#elif BROKEN == 21
  lied_meta_port(m, NULL, 0, &o->y, &lied_real_out_layout); /* a port without a name */
#else
  lied_meta_real_out(m, "y", 0, &o->y);
#endif
#if BROKEN == 17
  lied_meta_var(m, NULL, "s", &o->T); /* a variable without a name */
#elif BROKEN == 18
  lied_meta_var(m, "x", "m", &o->T); /* a second variable named x (the state's) */
#elif BROKEN == 22
  lied_meta_zero(m, "", &o->T, LIED_ZC_BOTH); /* an empty name */
#endif
  lied_meta_state(m, "x", "m", &o->x, &o->der_x);
#if BROKEN == 20
  lied_meta_block(m, "lag", NULL, 0, LIED_SIGS(&o->x), LIED_SIGS(&o->der_x, &o->y.y));
#else
  lied_meta_block(m, "lag", lag_b, 0, LIED_SIGS(&o->x), LIED_SIGS(&o->der_x, &o->y.y));
#endif
}

/* params[1] and [2] are zero (past the one entry the author meant) */
static const lied_param params[3] = {
#if BROKEN == 4
    {"T", sizeof(lag) + 8, 1, "s", "time constant", 0, 1e9, 0, 0, NULL}, /* beyond the instance */
#elif BROKEN == 5
    {"T", offsetof(lag, T), 1, "s", "time constant", 0, 1e9, 0, 1000, NULL}, /* 1000 doubles */
#elif BROKEN == 7
    {NULL, offsetof(lag, T), 1, "s", "time constant", 0, 1e9, 0, 0, NULL},
#elif BROKEN == 10
    {"T", offsetof(lag, T) + 4, 1, "s", "time constant", 0, 1e9, 0, 0, NULL}, /* misaligned */
#elif BROKEN == 15
    {"T", offsetof(lag, T), 1, "s", "time constant", 1, 0, 0, 0, NULL}, /* min > max */
#else
    {"T", offsetof(lag, T), 1, "s", "time constant", 0, 1e9, LIED_PARAM_MIN_OPEN, 0, NULL},
#endif
};
#if BROKEN == 8
static const lied_param two[2] = {
    {"T", offsetof(lag, T), 1, "s", "time constant", 0, 1e9, 0, 0, NULL},
    {"T", offsetof(lag, x), 1, "s", "the same name", 0, 1e9, 0, 0, NULL},
};
#endif

static const lied_class cls = {
#if BROKEN == 1
    NULL,
#elif BROKEN == 14
    "my lag",
#else
    "Lag",
#endif
#if BROKEN == 16
    NULL,
#else
    "broken",
#endif
    "a first-order lag",
#if BROKEN == 3
    0,
#else
    sizeof(lag),
#endif
#if BROKEN == 8
    two, 2,
#elif BROKEN == 9
    NULL, 2,
#elif BROKEN == 6
    params, 3, /* the list holds one */
#else
    params, 1,
#endif
    NULL,
#if BROKEN == 2
    NULL,
#else
    lag_meta,
#endif
};

#if BROKEN == 13
static const lied_class *const classes[] = {&cls, &cls, NULL};
#else
static const lied_class *const classes[] = {&cls, NULL};
#endif

#if BROKEN == 12
static const lied_library lib = {STR(LIB), "a library without classes", NULL};
#else
static const lied_library lib = {STR(LIB), "a library with a defect", classes};
#endif

#define LUAOPEN_(k) luaopen_broken_##k
#define LUAOPEN(k) LUAOPEN_(k)
LIED_EXPORT int LUAOPEN(BROKEN)(struct lua_State *L);
LIED_EXPORT int LUAOPEN(BROKEN)(struct lua_State *L) {
#if BROKEN == 11
  (void)lib;
  return lied_library_luaopen(L, NULL, LIED_ABI_VERSION, LIED_VERSION_STRING); /* no descriptor */
#else
  return lied_library_luaopen(L, &lib, LIED_ABI_VERSION, LIED_VERSION_STRING);
#endif
}

/* what a variant leaves out is still referenced (no unused warnings) */
static const struct {
  void (*meta)(lied_meta *, void *);
  lied_block_fn block;
  const lied_param *params;
  const lied_class *const *classes;
} used __attribute__((unused)) = {lag_meta, lag_b, params, classes};
