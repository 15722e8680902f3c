/* lua_build.c - models: lied.core.build turns the spec list of
 * lied.flatten into a built model (lied.Model userdata holding a
 * lied_system); its methods are in lua_inspect.c and lua_run.c. */
#include <string.h>
#include <time.h>
#include "binding/binding.h"
#include "core/clock.h"
#include "core/table.h"
#include "solve/events.h"

lmodel *lied_lua_checkmodel(lua_State *L, int idx) {
  lmodel *u = luaL_checkudata(L, idx, MODEL_MT);
  if (!u->sys || !u->sys->sched) luaL_error(L, "model was freed");
  return u;
}

static int model_gc(lua_State *L) {
  lmodel *u = luaL_checkudata(L, 1, MODEL_MT);
  lied_system_free(u->sys);
  u->sys = NULL;
  return 0;
}

static int model_tostring(lua_State *L) {
  lmodel *u = luaL_checkudata(L, 1, MODEL_MT);
  if (!u->sys || !u->sys->sched) {
    lua_pushliteral(L, "model (freed)");
    return 1;
  }
  lua_pushfstring(L, "model %s (%I components, %I states)", u->sys->model->specs[0].name,
                  (lua_Integer)u->sys->model->ncomponents,
                  (lua_Integer)u->sys->sched->nstates);
  return 1;
}

/* A string field of table t (NULL when absent or not a string: a number is
 * not converted, the converted copy would not outlive the pop). */
static const char *opt_field_str(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  lua_pop(L, 1);
  return s;
}

/* The counts of the arrays on the path of spec s, outermost first, into
 * cnt (at most LIED_MAX_DEPTH); returns how many. */
static int array_levels(const lied_model *m, int s, uint32_t *cnt) {
  int k = 0;
  for (int p = s; p > 0; p = m->specs[p].parent)
    if (m->specs[p].is_array) cnt[k++] = m->specs[p].count;
  for (int a = 0, b = k - 1; a < b; a++, b--) {
    uint32_t t = cnt[a];
    cnt[a] = cnt[b];
    cnt[b] = t;
  }
  return k;
}

/* The path of instance inst of leaf spec `spec` (LIED_ALL_COPIES: the
 * spec's declared path) into path. */
static void inst_path(const lied_model *m, int spec, uint64_t inst, char *path, size_t cap) {
  if (inst == LIED_ALL_COPIES)
    lied_spec_path(m, spec, path, cap);
  else
    lied_model_path(m, spec, inst, path, cap);
}

/* The value of table parameter p (lied/table.h) of instance inst of leaf
 * spec `spec` at stack index idx, a lied.table: its id in the model (one
 * per distinct table); a parameter error naming the instance and p when it
 * is not a table of p's rank or its numbers are wrong. */
static double table_value(lua_State *L, int idx, lied_model *m, int spec, uint64_t inst,
                          const lied_param *p, const char *where) {
  char path[512];
  lied_table *t = lied_lua_totable(L, idx);
  inst_path(m, spec, inst, path, sizeof path);
  if (!t)
    lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s must be a %s (lied.table {...}), got %s",
                  where ? where : "", where ? ": " : "", path, p->name,
                  (p->flags & LIED_PARAM_MAP) ? "map" : "table", luaL_typename(L, idx));
  lied_err e;
  int id = lied_model_add_table(m, t, &e);
  if (id < 0) {
    lied_err_prefix(&e, "%s%s%s: parameter %s: ", where ? where : "", where ? ": " : "", path,
                    p->name);
    lied_lua_raise(L, &e);
  }
  return id;
}

/* The len values of parameter p at stack index idx (a number, or a list
 * of len numbers; a table parameter: a lied.table) into v; a parameter
 * error naming instance inst of leaf spec `spec` (LIED_ALL_COPIES: the
 * spec) otherwise. */
static void copy_values(lua_State *L, int idx, lied_model *m, int spec, uint64_t inst,
                        const lied_param *p, double *v) {
  if (p->flags & LIED_PARAM_TABLES) {
    v[0] = table_value(L, idx, m, spec, inst, p, NULL);
    return;
  }
  const int len = p->len > 1 ? p->len : 1;
  if (lua_type(L, idx) == LUA_TNUMBER && len == 1) {
    v[0] = lua_tonumber(L, idx);
    return;
  }
  lua_Integer got = lua_type(L, idx) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, idx) : -1;
  if (got == len) {
    for (int k = 0; k < len; k++) {
      int ty = lua_rawgeti(L, idx, k + 1);
      if (ty != LUA_TNUMBER) break;
      v[k] = lua_tonumber(L, -1);
      lua_pop(L, 1);
      if (k == len - 1) return;
    }
  }
  char path[512]; /* the declaration's file:line, then the copy's path */
  const char *where = m->specs[spec].where;
  int at = where ? snprintf(path, sizeof path, "%.200s: ", where) : 0;
  inst_path(m, spec, inst, path + at, sizeof path - (size_t)at);
  if (lied_lua_totable(L, idx))
    lied_lua_fail(L, LIED_E_PARAM, "%s: parameter %s must be %s, got a table (lied.table)", path,
                  p->name, len == 1 ? "a number" : "a list of numbers");
  if (len == 1)
    lied_lua_fail(L, LIED_E_PARAM, "%s: parameter %s must be a number, got %s", path, p->name,
                  luaL_typename(L, idx));
  lied_lua_fail(L, LIED_E_PARAM, "%s: parameter %s must be a list of %d numbers, got %s%s", path,
                p->name, len, got >= 0 ? "a table of " : luaL_typename(L, idx),
                got >= 0 ? lua_pushfstring(L, "%I values", got) : "");
}

/* copies = {param = function(i1, ..., iK)}: the value of every instance of
 * leaf spec id, i1 .. iK its 1-based indices in the arrays on its path. */
static void set_copies(lua_State *L, lied_model *m, int id, int tab, const char *where) {
  lied_err e;
  uint32_t cnt[LIED_MAX_DEPTH];
  const int K = array_levels(m, id, cnt);
  const uint64_t total = lied_spec_total(m, id);
  lua_pushnil(L);
  while (lua_next(L, tab)) {
    if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TFUNCTION)
      lied_lua_fail(L, LIED_E_MODEL, "copies = {param = function} needs names and functions");
    const char *pn = lua_tostring(L, -2);
    const lied_param *p = m->specs[id].cls ? lied_class_param(m->specs[id].cls, pn) : NULL;
    if (!p) { /* the message of a misspelt name */
      double z = 0;
      if (lied_model_set_param(m, id, pn, &z, 1, &e) < 0) {
        if (where) lied_err_prefix(&e, "%s: ", where);
        lied_lua_raise(L, &e);
      }
    }
    const int len = p->len > 1 ? p->len : 1;
    if (total > ((size_t)1 << 40) / sizeof(double) / (size_t)len)
      lied_lua_fail(L, LIED_E_LIMIT, "%s: too many per-copy values", pn);
    double *v = lua_newuserdatauv(L, sizeof(double) * (size_t)(total * (uint64_t)len) + 1, 0);
    const int fn = lua_gettop(L) - 1;
    uint32_t dig[LIED_MAX_DEPTH] = {0};
    for (uint64_t i = 0; i < total; i++) {
      lua_pushvalue(L, fn);
      for (int k = 0; k < K; k++) lua_pushinteger(L, (lua_Integer)dig[k] + 1);
      lua_call(L, K, 1);
      copy_values(L, -1, m, id, i, p, v + i * (uint64_t)len);
      lua_pop(L, 1);
      for (int k = K - 1; k >= 0 && ++dig[k] == cnt[k]; k--) dig[k] = 0;
    }
    if (lied_model_set_param_copies(m, id, pn, v, len, total, &e)) {
      if (where) lied_err_prefix(&e, "%s: ", where);
      lied_lua_raise(L, &e);
    }
    lua_pop(L, 2);
  }
}

/* at = {{name, idx = {i1, ..., iK}, value}}: values for the copies whose
 * index in array level k is ik (0: every index). */
static void set_at(lua_State *L, lied_model *m, int id, int tab) {
  lied_err e;
  uint32_t cnt[LIED_MAX_DEPTH], dig[LIED_MAX_DEPTH], fixed[LIED_MAX_DEPTH];
  const int K = array_levels(m, id, cnt);
  const lua_Integer n = luaL_len(L, tab);
  for (lua_Integer j = 1; j <= n; j++) {
    lua_rawgeti(L, tab, j);
    const int t = lua_gettop(L);
    lua_getfield(L, t, "name");
    const char *pn = lua_tostring(L, -1);
    const lied_param *p = pn && m->specs[id].cls ? lied_class_param(m->specs[id].cls, pn) : NULL;
    if (!p) lied_lua_fail(L, LIED_E_MODEL, "internal: at entry without a parameter");
    lua_getfield(L, t, "idx");
    if (!lua_istable(L, -1) || luaL_len(L, -1) != K)
      lied_lua_fail(L, LIED_E_MODEL, "internal: at entry %s needs %d indices", pn, K);
    for (int k = 0; k < K; k++) {
      lua_rawgeti(L, -1, k + 1);
      lua_Integer x = lua_tointeger(L, -1);
      lua_pop(L, 1);
      if (x < 0 || x > (lua_Integer)cnt[k])
        lied_lua_fail(L, LIED_E_MODEL, "%s: index %I out of range (%u copies)", pn, x, cnt[k]);
      fixed[k] = (uint32_t)x;
      dig[k] = x ? (uint32_t)x - 1 : 0;
    }
    lua_getfield(L, t, "value");
    const int len = p->len > 1 ? p->len : 1;
    double v[LIED_MAX_DEPTH > 64 ? LIED_MAX_DEPTH : 64];
    if (len > (int)(sizeof v / sizeof *v)) lied_lua_fail(L, LIED_E_PARAM, "%s: too many values", pn);
    copy_values(L, -1, m, id, LIED_ALL_COPIES, p, v);
    int empty = 0;
    for (int k = 0; k < K; k++) empty |= cnt[k] == 0;
    while (!empty) {
      uint64_t inst = 0;
      for (int k = 0; k < K; k++) inst = inst * cnt[k] + dig[k];
      if (lied_model_set_param_at(m, id, inst, pn, v, len, &e)) lied_lua_raise(L, &e);
      int k = K - 1;
      for (; k >= 0; k--) {
        if (fixed[k]) continue;
        if (++dig[k] < cnt[k]) break;
        dig[k] = 0;
      }
      if (k < 0) break;
    }
    lua_pop(L, 4);
  }
}

/* An integer field of table t, or a model error. */
static int64_t int_field(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  int ok;
  lua_Integer v = lua_tointegerx(L, -1, &ok);
  if (!ok) lied_lua_fail(L, LIED_E_MODEL, "lied.each: loop %s must be a whole number", k);
  lua_pop(L, 1);
  return (int64_t)v;
}

/* each = {loops = {{name, first, last, step}}, wrap}: a connection pattern. */
static int connect_each(lua_State *L, lied_model *m, int id, const char *a, const char *b,
                        const char *where, int each, lied_err *e) {
  lied_loop loop[LIED_MAX_LOOP];
  memset(loop, 0, sizeof loop);
  lua_getfield(L, each, "loops");
  const int lt = lua_gettop(L);
  lua_Integer n = lua_istable(L, lt) ? luaL_len(L, lt) : 0;
  if (n > LIED_MAX_LOOP) n = LIED_MAX_LOOP + 1; /* the engine says why */
  for (lua_Integer k = 1; k <= n && k <= LIED_MAX_LOOP; k++) {
    lua_rawgeti(L, lt, k);
    const int t = lua_gettop(L);
    const char *nm = opt_field_str(L, t, "name");
    snprintf(loop[k - 1].name, sizeof loop[k - 1].name, "%s", nm ? nm : "");
    if (nm && strlen(nm) >= sizeof loop[k - 1].name) loop[k - 1].name[0] = '-';
    loop[k - 1].first = int_field(L, t, "first");
    loop[k - 1].last = int_field(L, t, "last");
    loop[k - 1].step = int_field(L, t, "step");
    lua_pop(L, 1);
  }
  lua_getfield(L, each, "wrap");
  int wrap = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return lied_model_connect_each(m, id, a, b, where, loop, (int)n, wrap, e);
}

/* A slice of coupled arrays (lied.flatten under mpirun, lua/lied/halo.lua):
 * specs with own_first hold the global copies slice_first + 1 .. of
 * slice_global, of which own_first + 1 .. own_first + own_count are this
 * rank's (the rest ghosts). Set after the build: the connections, per-copy
 * values and --set of the spec list use the local indices. */
static int set_coupled_slices(lua_State *L, lied_model *m, lua_Integer n, lied_err *e) {
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    int t = lua_gettop(L);
    lua_getfield(L, t, "own_first");
    lua_getfield(L, t, "own_count");
    lua_getfield(L, t, "slice_first");
    lua_getfield(L, t, "slice_global");
    int rc = LIED_OK;
    if (lua_type(L, t + 1) == LUA_TNUMBER) {
      lua_Integer of = lua_tointeger(L, t + 1), oc = lua_tointeger(L, t + 2);
      lua_Integer first = lua_tointeger(L, t + 3), global = lua_tointeger(L, t + 4);
      if (of < 0 || oc < 0 || first < 0 || global < 1)
        rc = lied_errc(e, LIED_E_USAGE, "spec %d: bad slice of coupled arrays", (int)i);
      if (!rc) rc = lied_model_set_slice(m, (int)i - 1, (uint64_t)first, (uint64_t)global, e);
      if (!rc) rc = lied_model_set_owned(m, (int)i - 1, (uint64_t)of, (uint64_t)oc, e);
    }
    lua_settop(L, t - 1);
    if (rc) return rc;
  }
  return LIED_OK;
}

/* The "file:line: name" that starts the messages about a spec: three
 * arguments for "%s%s%s". */
#define SPEC_AT(where, name) (where) ? (where) : "", (where) ? ": " : "", (name) ? (name) : "?"

/* Add the spec of the table at t (name, parent, count, array, class; the
 * slice of an ensemble) to m; its id. Raises on a bad array size, a
 * rejected spec or a bad slice. */
static int add_spec(lua_State *L, lied_model *m, int t, const char *name, const char *where) {
  lied_err e = {0};
  lua_getfield(L, t, "parent");
  int parent = (int)lua_tointeger(L, -1) - 1;
  lua_getfield(L, t, "count");
  lua_Integer count = lua_isnil(L, -1) ? 1 : lua_tointeger(L, -1);
  lua_getfield(L, t, "array");
  int is_array = lua_toboolean(L, -1);
  lua_getfield(L, t, "class");
  const lied_class *cls = lua_isnil(L, -1) ? NULL : lied_lua_checkclass(L, -1);
  lua_pop(L, 4);
  if (count < 0 || count > (lua_Integer)UINT32_MAX)
    lied_lua_fail(L, LIED_E_MODEL, "%s%s%s: array size %I out of range (at most %I)",
                  SPEC_AT(where, name), count, (lua_Integer)UINT32_MAX);
  int id = lied_model_add(m, parent, name ? name : "", cls, (uint32_t)count, is_array, where, &e);
  if (id < 0) lied_lua_raise(L, &e);
  /* a slice of an ensemble (lied.flatten under mpirun): the copies
   * slice_first + 1 .. slice_first + count of slice_global (coupled
   * arrays, with own_first: set after the build, set_coupled_slices) */
  lua_getfield(L, t, "own_first");
  int coupled = lua_type(L, -1) == LUA_TNUMBER;
  lua_pop(L, 1);
  if (!coupled && lua_getfield(L, t, "slice_first") == LUA_TNUMBER) {
    lua_getfield(L, t, "slice_global");
    lua_Integer first = lua_tointeger(L, -2), global = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (first < 0 || global < 1 || lied_model_set_slice(m, id, (uint64_t)first, (uint64_t)global, &e))
      lied_lua_fail(L, LIED_E_USAGE, "%s: bad slice of the ensemble", name ? name : "?");
  }
  if (!coupled) lua_pop(L, 1);
  return id;
}

/* The values of parameter pn on the top of the stack (a number or a list)
 * into vbuf (64 values), or into a userdata left on the stack above it for
 * a longer list; their count. Raises on a value that is not a number. */
static int param_values(lua_State *L, const char *pn, double vbuf[64], double **v,
                        const char *name, const char *where) {
  int nv = 0;
  *v = vbuf;
  if (lua_type(L, -1) == LUA_TNUMBER) {
    vbuf[nv++] = lua_tonumber(L, -1);
    return nv;
  }
  if (lua_type(L, -1) != LUA_TTABLE)
    lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s must be a number, got %s",
                  SPEC_AT(where, name), pn, luaL_typename(L, -1));
  lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
  if (len > (1 << 20))
    lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s: %I values are too many",
                  SPEC_AT(where, name), pn, len);
  if (len > 64) *v = lua_newuserdatauv(L, sizeof(double) * (size_t)len, 0);
  for (lua_Integer k = 1; k <= len; k++) {
    lua_rawgeti(L, len > 64 ? -2 : -1, k);
    if (lua_type(L, -1) != LUA_TNUMBER)
      lied_lua_fail(L, LIED_E_PARAM, "%s%s%s: parameter %s[%I] must be a number, got %s",
                    SPEC_AT(where, name), pn, k, luaL_typename(L, -1));
    (*v)[nv++] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  return nv;
}

/* params = {k = number or {numbers}} of the spec table at t. */
static void set_params(lua_State *L, lied_model *m, int id, int t, const char *name,
                       const char *where) {
  lied_err e = {0};
  lua_getfield(L, t, "params");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      /* lua_tostring would turn a number key into a string in place and
       * break lua_next: only string keys are parameter names */
      if (lua_type(L, -2) != LUA_TSTRING)
        lied_lua_fail(L, LIED_E_MODEL, "%s%s%s: parameter names must be strings, got %s",
                      SPEC_AT(where, name), luaL_typename(L, -2));
      const char *pn = lua_tostring(L, -2);
      double vbuf[64], *v = vbuf;
      int nv = 0;
      const lied_class *cls = m->specs[id].cls;
      const lied_param *pp = cls ? lied_class_param(cls, pn) : NULL;
      if (pp && ((pp->flags & LIED_PARAM_TABLES) || lied_lua_totable(L, -1))) {
        /* a table parameter takes a lied.table, any other not */
        if (pp->flags & LIED_PARAM_TABLES)
          v[nv++] = table_value(L, lua_gettop(L), m, id, LIED_ALL_COPIES, pp, where);
        else
          copy_values(L, lua_gettop(L), m, id, LIED_ALL_COPIES, pp, v);
      } else {
        nv = param_values(L, pn, vbuf, &v, name, where);
      }
      if (lied_model_set_param(m, id, pn, v, nv, &e)) {
        if (where) lied_err_prefix(&e, "%s: ", where);
        lied_lua_raise(L, &e);
      }
      lua_pop(L, v == vbuf ? 1 : 2);
    }
  }
  lua_pop(L, 1);
}

/* connect = {{a, b, where, each = {...}}} of the spec table at t. */
static void connect_spec(lua_State *L, lied_model *m, int id, int t) {
  lied_err e = {0};
  lua_getfield(L, t, "connect");
  if (lua_istable(L, -1)) {
    lua_Integer nc = luaL_len(L, -1);
    for (lua_Integer k = 1; k <= nc; k++) {
      lua_rawgeti(L, -1, k);
      lua_rawgeti(L, -1, 1);
      lua_rawgeti(L, -2, 2);
      lua_getfield(L, -3, "where");
      size_t na = 0, nb = 0;
      const char *a = lua_type(L, -3) == LUA_TSTRING ? lua_tolstring(L, -3, &na) : NULL;
      const char *b = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &nb) : NULL;
      if (!a || !b) lied_lua_fail(L, LIED_E_MODEL, "connect entries need two port paths");
      if (strlen(a) != na || strlen(b) != nb)
        lied_lua_fail(L, LIED_E_MODEL, "connect: a port path contains a NUL character");
      if (lua_getfield(L, -4, "each") == LUA_TTABLE) {
        if (connect_each(L, m, id, a, b, lua_tostring(L, -2), lua_gettop(L), &e))
          lied_lua_raise(L, &e);
      } else if (lied_model_connect(m, id, a, b, lua_tostring(L, -2), &e)) {
        lied_lua_raise(L, &e);
      }
      lua_pop(L, 5);
    }
  }
  lua_pop(L, 1);
}

/* ports = {name = "child.port"} of the spec table at t. */
static void set_ports(lua_State *L, lied_model *m, int id, int t, const char *name,
                      const char *where) {
  lied_err e = {0};
  lua_getfield(L, t, "ports");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
        lied_lua_fail(L, LIED_E_MODEL,
                      "%s%s%s: ports = {name = \"child.port\"} needs strings, got %s = %s",
                      SPEC_AT(where, name), luaL_typename(L, -2), luaL_typename(L, -1));
      if (lied_model_alias(m, id, lua_tostring(L, -2), lua_tostring(L, -1), &e))
        lied_lua_raise(L, &e);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* lied.core.build(specs [, opts]) -> model; opts: sched_flags below.
 * specs[i] = {name, parent (index, 0 for
 * the root), class, count, array, params = {k = number or {numbers}},
 * copies = {param = function(i1, ..., iK)} (per-copy values, called with
 * the indices of every instance), at = {{name, idx, value}} (values of
 * some copies), connect = {{a, b, where}}, ports = {name = target}, where,
 * slice_first, slice_global (the top-level array of a slice of an ensemble:
 * docs/distributed.md), own_first, own_count (of a slice of coupled arrays:
 * the copies this rank owns, global, 0-based)} */
/* The schedule flags of lied.core.build's options table at idx (none, or
 * {sparse = false, skew = false, window = false, replicate = false}: the
 * plain paths, for tests and comparisons; sparse = "always": every section
 * of one instance solved sparsely, however small; skew_any = true: the skew
 * and waves on short arrays too, lied run --check). */
static unsigned sched_flags(lua_State *L, int idx) {
  static const struct {
    const char *name;
    unsigned flag;
  } off[] = {{"sparse", LIED_SCHED_NO_SPARSE},
             {"skew", LIED_SCHED_NO_SKEW},
             {"window", LIED_SCHED_NO_WINDOW},
             {"replicate", LIED_SCHED_NO_REPLICATE},
             {"skew_any", LIED_SCHED_SKEW_ANY}}; /* this one: set by true */
  unsigned flags = 0;
  if (lua_isnoneornil(L, idx)) return 0;
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    size_t i = 0;
    while (i < sizeof off / sizeof off[0] &&
           !(lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), off[i].name) == 0))
      i++;
    if (i == sizeof off / sizeof off[0])
      lied_lua_fail(L, LIED_E_USAGE,
                    "build: unknown schedule option %s (sparse, skew, window, replicate, "
                    "skew_any)",
                    lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2));
    if (off[i].flag == LIED_SCHED_NO_SPARSE && lua_type(L, -1) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -1), "always") == 0)
      flags |= LIED_SCHED_SPARSE_ALL;
    else if (!lua_isboolean(L, -1))
      lied_lua_fail(L, LIED_E_USAGE, "build: schedule option %s must be true or false%s, got %s",
                    off[i].name, off[i].flag == LIED_SCHED_NO_SPARSE ? " (or \"always\")" : "",
                    luaL_typename(L, -1));
    else if (lua_toboolean(L, -1) == (off[i].flag == LIED_SCHED_SKEW_ANY))
      flags |= off[i].flag;
    lua_pop(L, 1);
  }
  return flags;
}

static int core_build(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const lied_build_opts bo = {sched_flags(L, 2), lied_events_initial};
  lua_settop(L, 3);
  lmodel *u = lua_newuserdatauv(L, sizeof *u, 1);
  u->sys = NULL;
  luaL_setmetatable(L, MODEL_MT);
  int ud = lua_gettop(L);
  /* the overrides it is built with (lied.build's), which a run's option set
   * must agree with (lua_run.c) */
  if (lua_type(L, 3) == LUA_TTABLE) {
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, ud, 1);
  }
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  if (!m || !(u->sys = lied_system_new(m, &e))) return lied_lua_raise(L, &e);
  lua_Integer n = luaL_len(L, 1);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    int t = lua_gettop(L);
    const char *name = opt_field_str(L, t, "name");
    const char *where = opt_field_str(L, t, "where");
    int id = add_spec(L, m, t, name, where);
    set_params(L, m, id, t, name, where);
    if (lua_getfield(L, t, "copies") == LUA_TTABLE) set_copies(L, m, id, lua_gettop(L), where);
    lua_pop(L, 1);
    if (lua_getfield(L, t, "at") == LUA_TTABLE) set_at(L, m, id, lua_gettop(L));
    lua_pop(L, 1);
    connect_spec(L, m, id, t);
    set_ports(L, m, id, t, name, where);
    lua_pop(L, 1);
  }
  if (lied_system_build(u->sys, &bo, &e)) return lied_lua_raise(L, &e);
  if (set_coupled_slices(L, m, n, &e)) return lied_lua_raise(L, &e);
  lua_pushvalue(L, ud);
  return 1;
}

/* lied.core.clock() -> seconds of a monotonic wall clock (for timing set-up
 * phases; os.clock is processor time). */
static int core_clock(lua_State *L) {
  lua_pushnumber(L, lied_wall());
  return 1;
}

static const luaL_Reg build_funcs[] = {{"build", core_build}, {"clock", core_clock}, {NULL, NULL}};

void lied_lua_open_build(lua_State *L) {
  lied_lua_newtype(L, MODEL_MT, lied_lua_inspect_methods, model_gc, model_tostring);
  luaL_getmetatable(L, MODEL_MT);
  lua_getfield(L, -1, "methods");
  luaL_setfuncs(L, lied_lua_run_methods, 0);
  luaL_setfuncs(L, lied_lua_analysis_methods, 0);
  lua_pop(L, 2);
  luaL_setfuncs(L, build_funcs, 0);
}
