/* lua_core.c - the C side of `require "lied"`: module lied.core with C
 * classes as userdata, models built from the declaration tree, runs and
 * results. */
#include "lua/lua_lied.h"
#include <lauxlib.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builder/system.h"
#include "lib/registry.h"
#include "record/progress.h"
#include "record/recorder.h"
#include "sched/lanes.h"
#include "sched/sched.h"
#include "linsys/sparse.h"
#include "solve/jacobian.h"
#include "solve/sim.h"

#define CLASS_MT "lied.Class"
#define MODEL_MT "lied.Model"
#define RESULT_MT "lied.Result"

/* ---- classes ------------------------------------------------------------- */

static void push_class(lua_State *L, const lied_class *c) {
  const lied_class **u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = c;
  luaL_setmetatable(L, CLASS_MT);
}

const lied_class *lied_lua_checkclass(lua_State *L, int idx) {
  return *(const lied_class **)luaL_checkudata(L, idx, CLASS_MT);
}

static int class_tostring(lua_State *L) {
  const lied_class *c = lied_lua_checkclass(L, 1);
  lua_pushfstring(L, "%s.%s (component class)", c->domain, c->name);
  return 1;
}

/* Fields: name, domain, doc, params (list of tables). */
static int class_index(lua_State *L) {
  const lied_class *c = lied_lua_checkclass(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "name") == 0)
    lua_pushstring(L, c->name);
  else if (strcmp(k, "domain") == 0)
    lua_pushstring(L, c->domain);
  else if (strcmp(k, "doc") == 0)
    lua_pushstring(L, c->doc ? c->doc : "");
  else if (strcmp(k, "params") == 0) {
    lua_createtable(L, c->nparams, 0);
    for (int i = 0; i < c->nparams; i++) {
      const lied_param *p = &c->params[i];
      lua_createtable(L, 0, 8);
      lua_pushstring(L, p->name);
      lua_setfield(L, -2, "name");
      if (p->len > 1) {
        lua_createtable(L, p->len, 0);
        for (int e = 0; e < p->len; e++) {
          lua_pushnumber(L, p->defs ? p->defs[e] : p->def);
          lua_rawseti(L, -2, e + 1);
        }
      } else {
        lua_pushnumber(L, p->def);
      }
      lua_setfield(L, -2, "default");
      lua_pushstring(L, p->unit ? p->unit : "");
      lua_setfield(L, -2, "unit");
      lua_pushstring(L, p->doc ? p->doc : "");
      lua_setfield(L, -2, "doc");
      lua_pushnumber(L, p->min);
      lua_setfield(L, -2, "min");
      lua_pushnumber(L, p->max);
      lua_setfield(L, -2, "max");
      lua_pushboolean(L, (p->flags & LIED_PARAM_MIN_OPEN) != 0);
      lua_setfield(L, -2, "min_open");
      lua_pushboolean(L, (p->flags & LIED_PARAM_MAX_OPEN) != 0);
      lua_setfield(L, -2, "max_open");
      lua_pushinteger(L, p->len > 1 ? p->len : 1);
      lua_setfield(L, -2, "len");
      lua_rawseti(L, -2, i + 1);
    }
  } else {
    /* methods installed by the Lua side (lied/init.lua) */
    luaL_getmetatable(L, CLASS_MT);
    lua_getfield(L, -1, "methods");
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, k);
      return 1;
    }
    lua_pushnil(L);
  }
  return 1;
}

/* lied.core.library(name) -> table name -> class, or nil, message */
static int core_library(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const lied_library *lib = lied_library_find(name);
  if (!lib) {
    lua_pushnil(L);
    lua_pushfstring(L, "no component library '%s'", name);
    return 2;
  }
  lua_newtable(L);
  for (int i = 0; lib->classes[i]; i++) {
    push_class(L, lib->classes[i]);
    lua_setfield(L, -2, lib->classes[i]->name);
  }
  return 1;
}

static int core_libraries(lua_State *L) {
  lua_newtable(L);
  for (int i = 0; lied_libraries[i]; i++) {
    lua_pushstring(L, lied_libraries[i]->doc);
    lua_setfield(L, -2, lied_libraries[i]->name);
  }
  return 1;
}

/* The class metatable, so the Lua side can add __call and methods. */
static int core_class_metatable(lua_State *L) {
  luaL_getmetatable(L, CLASS_MT);
  return 1;
}

static int core_isclass(lua_State *L) {
  lua_pushboolean(L, luaL_testudata(L, 1, CLASS_MT) != NULL);
  return 1;
}

/* ---- models -------------------------------------------------------------- */

typedef struct lmodel {
  lied_system *sys; /* built: sys->sched is set */
} lmodel;

static lmodel *check_model(lua_State *L, int idx) {
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

/* Raise the engine error as a Lua error with no position prefix. */
static int raise_err(lua_State *L, lied_err *e) {
  lua_pushstring(L, e->msg);
  return lua_error(L);
}

/* Raise a formatted message (lua_pushfstring formats) with no position
 * prefix: the message names the declaration site itself. */
static int raise_fmt(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  return lua_error(L);
}

/* lied.core.build(specs) -> model. specs[i] = {name, parent (index, 0 for
 * the root), class, count, array, params = {k = number or {numbers}},
 * connect = {{a, b, where}}, ports = {name = target}, where} */
static int core_build(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lmodel *u = lua_newuserdatauv(L, sizeof *u, 0);
  u->sys = NULL;
  luaL_setmetatable(L, MODEL_MT);
  int ud = lua_gettop(L);
  lied_err e = {0};
  lied_model *m = lied_model_new(&e);
  if (!m || !(u->sys = lied_system_new(m, &e))) return raise_err(L, &e);
  lua_Integer n = luaL_len(L, 1);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    int t = lua_gettop(L);
    const char *name = opt_field_str(L, t, "name");
    const char *where = opt_field_str(L, t, "where");
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
      return raise_fmt(L, "%s%s%s: array size %I out of range (at most %I)",
                       where ? where : "", where ? ": " : "", name ? name : "?", count,
                       (lua_Integer)UINT32_MAX);
    int id = lied_model_add(m, parent, name ? name : "", cls, (uint32_t)count, is_array,
                            where, &e);
    if (id < 0) return raise_err(L, &e);
    lua_getfield(L, t, "params");
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        /* lua_tostring would turn a number key into a string in place and
         * break lua_next: only string keys are parameter names */
        if (lua_type(L, -2) != LUA_TSTRING)
          return raise_fmt(L, "%s%s%s: parameter names must be strings, got %s",
                            where ? where : "", where ? ": " : "", name ? name : "?",
                            luaL_typename(L, -2));
        const char *pn = lua_tostring(L, -2);
        double v[64];
        int nv = 0;
        if (lua_istable(L, -1)) {
          lua_Integer len = luaL_len(L, -1);
          for (lua_Integer k = 1; k <= len && nv < 64; k++) {
            lua_rawgeti(L, -1, k);
            v[nv++] = lua_tonumber(L, -1);
            lua_pop(L, 1);
          }
        } else {
          v[nv++] = lua_tonumber(L, -1);
        }
        if (lied_model_set_param(m, id, pn, v, nv, &e)) {
          if (where) lied_err_prefix(&e, "%s: ", where);
          return raise_err(L, &e);
        }
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "connect");
    if (lua_istable(L, -1)) {
      lua_Integer nc = luaL_len(L, -1);
      for (lua_Integer k = 1; k <= nc; k++) {
        lua_rawgeti(L, -1, k);
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        lua_getfield(L, -3, "where");
        const char *a = lua_tostring(L, -3), *b = lua_tostring(L, -2);
        if (!a || !b) return luaL_error(L, "connect entries need two port paths");
        if (lied_model_connect(m, id, a, b, lua_tostring(L, -1), &e)) return raise_err(L, &e);
        lua_pop(L, 4);
      }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "ports");
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
          return raise_fmt(L, "%s%s%s: ports = {name = \"child.port\"} needs strings, got %s = %s",
                            where ? where : "", where ? ": " : "", name ? name : "?",
                            luaL_typename(L, -2), luaL_typename(L, -1));
        if (lied_model_alias(m, id, lua_tostring(L, -2), lua_tostring(L, -1), &e))
          return raise_err(L, &e);
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 2);
  }
  if (lied_system_build(u->sys, NULL, &e)) return raise_err(L, &e);
  lua_pushvalue(L, ud);
  return 1;
}

static void set_int(lua_State *L, const char *k, uint64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

/* info.jacobian (model:info(true)): structural sparsity of the derivatives
 * and its column colouring; for at most 64 states also pattern (one string
 * per state, '*' where its derivative depends on that state) and states
 * (their names, in state-vector order). */
#define PATTERN_MAX 64
static void push_jacobian(lua_State *L, lied_sched *s) {
  lied_err e;
  uint64_t *rowptr = NULL, n = s->nstates;
  uint32_t *cols = NULL, *colour = NULL, ncol = 0;
  if (n > UINT32_MAX || lied_sched_sparsity(s, &rowptr, &cols, &e)) return;
  colour = malloc(sizeof *colour * ((size_t)n + 1));
  if (!colour || lied_colour(n, rowptr, cols, colour, &ncol, &e)) {
    free(rowptr), free(cols), free(colour);
    return;
  }
  uint64_t maxrow = 0;
  for (uint64_t i = 0; i < n; i++)
    if (rowptr[i + 1] - rowptr[i] > maxrow) maxrow = rowptr[i + 1] - rowptr[i];
  lua_createtable(L, 0, 4);
  set_int(L, "nnz", rowptr[n]);
  set_int(L, "colours", ncol);
  set_int(L, "max_row", maxrow);
  if (n <= PATTERN_MAX) {
    lua_createtable(L, (int)n, 0);
    char row[PATTERN_MAX + 1];
    for (uint64_t i = 0; i < n; i++) {
      memset(row, '.', (size_t)n);
      row[n] = 0;
      for (uint64_t k = rowptr[i]; k < rowptr[i + 1]; k++) row[cols[k]] = '*';
      lua_pushstring(L, row);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "pattern");
    lua_createtable(L, (int)n, 0);
    for (uint64_t i = 0; i < n; i++) {
      char name[512];
      lied_sched_state_name(s, i, name, sizeof name);
      lua_pushstring(L, name);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "states");
  }
  lua_setfield(L, -2, "jacobian");
  free(rowptr), free(cols), free(colour);
}

/* model:info([jacobian]) -> table of counts (with jacobian = {nnz, colours,
 * max_row, pattern} when the argument is true: rebuilds the block graph) */
static int model_info(lua_State *L) {
  lmodel *u = check_model(L, 1);
  lied_model *m = u->sys->model;
  lied_sched *s = u->sys->sched;
  int want_jacobian = lua_toboolean(L, 2);
  const lied_sched_stats *st = &s->st;
  lua_newtable(L);
  set_int(L, "components", m->ncomponents);
  uint64_t blocks = 0, tears = 0;
  int nspecs = 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || sp->internal) continue;
    nspecs++;
    blocks += sp->total * (uint64_t)sp->tpl.nblocks;
    tears += sp->total * (uint64_t)sp->tpl.ntears;
  }
  set_int(L, "declared", (uint64_t)nspecs);
  {
    uint64_t bytes = 0;
    for (int k = 0; k < m->nspecs; k++)
      if (m->specs[k].cls) bytes += m->specs[k].total * (uint64_t)m->specs[k].size;
    set_int(L, "instance_bytes", bytes);
  }
  set_int(L, "blocks", blocks);
  set_int(L, "states", s->nstates);
  set_int(L, "tearing_pairs", tears);
  set_int(L, "sections", st->sections);
  set_int(L, "section_batches", st->section_batches);
  set_int(L, "constant_sections", st->constant_sections);
  set_int(L, "max_section", (uint64_t)st->max_section);
  set_int(L, "column_blocks", st->column_blocks);
  set_int(L, "column_blocks_all", st->column_blocks_all);
  set_int(L, "copies", st->copies);
  set_int(L, "graph_nodes", st->nodes);
  set_int(L, "graph_edges", st->edges);
  set_int(L, "constant_blocks", st->blocks[LIED_PART_CONST]);
  set_int(L, "dynamic_blocks", st->blocks[LIED_PART_DYN]);
  set_int(L, "output_blocks", st->blocks[LIED_PART_OUT]);
  set_int(L, "constant_steps", st->steps[LIED_PART_CONST]);
  set_int(L, "dynamic_steps", st->steps[LIED_PART_DYN]);
  set_int(L, "output_steps", st->steps[LIED_PART_OUT]);
  set_int(L, "factorisations", st->factorisations);
  set_int(L, "evaluations", st->evaluations);
  lua_pushboolean(L, s->aligned);
  lua_setfield(L, -2, "chunked");
  if (s->aligned) { /* can fused steps run in lane form? (sched/lanes.h) */
    lied_lanes lanes;
    char why[200];
    lied_err le;
    int rc = lied_lanes_init(&lanes, s, why, sizeof why, &le);
    if (rc == LIED_OK) lied_lanes_free(&lanes);
    lua_pushboolean(L, rc == LIED_OK);
    lua_setfield(L, -2, "lanes");
    if (rc == LIED_UNSUPPORTED) {
      lua_pushstring(L, why);
      lua_setfield(L, -2, "no_lanes");
    }
  }
  lua_pushnumber(L, u->sys->t_instantiate);
  lua_setfield(L, -2, "t_instantiate");
  lua_pushnumber(L, u->sys->t_schedule);
  lua_setfield(L, -2, "t_schedule");
  lua_newtable(L);
  for (int k = 1; k <= LIED_SEC_HIST; k++)
    if (st->section_size[k]) {
      lua_pushinteger(L, (lua_Integer)st->section_size[k]);
      lua_rawseti(L, -2, k);
    }
  lua_setfield(L, -2, "section_sizes");
  if (want_jacobian) push_jacobian(L, s);
  return 1;
}

typedef struct vars_ctx {
  lua_State *L;
  const char *pat;
  lua_Integer n;
} vars_ctx;

static int on_var(void *ctx, const char *name, const char *unit, const double *addr,
                  int kind) {
  vars_ctx *v = ctx;
  (void)addr;
  if (v->pat && !lied_lua_glob(v->pat, name)) return 0;
  static const char *const kinds[] = {"variable", "state",    "derivative", "tearing",
                                      "residual", "port",     "port"};
  lua_createtable(v->L, 0, 3);
  lua_pushstring(v->L, name);
  lua_setfield(v->L, -2, "name");
  lua_pushstring(v->L, unit ? unit : "");
  lua_setfield(v->L, -2, "unit");
  lua_pushstring(v->L, kinds[kind]);
  lua_setfield(v->L, -2, "kind");
  lua_rawseti(v->L, -2, ++v->n);
  return 0;
}

/* model:vars([pattern]) -> list of {name, unit, kind} */
static int model_vars(lua_State *L) {
  lmodel *u = check_model(L, 1);
  vars_ctx v = {L, luaL_optstring(L, 2, NULL), 0};
  lua_newtable(L);
  lied_model_each_var(u->sys->model, on_var, &v);
  return 1;
}

/* model:value(name) -> current value, unit */
static int model_value(lua_State *L) {
  lmodel *u = check_model(L, 1);
  lied_err e;
  const char *unit = "";
  const double *a = lied_model_var(u->sys->model, luaL_checkstring(L, 2), &unit, &e);
  if (!a) return raise_err(L, &e);
  lua_pushnumber(L, *a);
  lua_pushstring(L, unit);
  return 2;
}

/* model:derivatives([t]) -> {state name = derivative} at the start values
 * (after the evaluation, model:value reads every consistent variable). */
static int model_derivatives(lua_State *L) {
  lmodel *u = check_model(L, 1);
  lied_sched *s = u->sys->sched;
  double t = luaL_optnumber(L, 2, 0.0);
  lied_err e;
  size_t n = (size_t)s->nstates;
  double *x = lied_xcalloc(n + 1, sizeof(double), "states", &e);
  double *dx = x ? lied_xcalloc(n + 1, sizeof(double), "states", &e) : NULL;
  if (!x || !dx) {
    free(x);
    return raise_err(L, &e);
  }
  lied_sched_reset_states(s);
  lied_sched_gather_x(s, x);
  if (lied_sched_evaluate(s, t, x, dx, 1, &e)) {
    free(x);
    free(dx);
    return raise_err(L, &e);
  }
  lua_createtable(L, 0, (int)n);
  for (size_t i = 0; i < n; i++) {
    char name[512];
    lied_sched_state_name(s, i, name, sizeof name);
    lua_pushnumber(L, dx[i]);
    lua_setfield(L, -2, name);
  }
  free(x);
  free(dx);
  return 1;
}

/* ---- runs and results ---------------------------------------------------- */

typedef struct lresult {
  lied_memsink *mem;
} lresult;

static lresult *check_result(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, RESULT_MT);
}

static int result_gc(lua_State *L) {
  lresult *r = luaL_checkudata(L, 1, RESULT_MT);
  if (r->mem) r->mem->base.destroy(&r->mem->base);
  r->mem = NULL;
  return 0;
}

static double opt_num(lua_State *L, int t, const char *k, double def) {
  lua_getfield(L, t, k);
  double v = lua_isnil(L, -1) ? def : luaL_checknumber(L, -1);
  lua_pop(L, 1);
  return v;
}

/* Stop flag set by the host's SIGINT handler (see lua_lied.h). */
static volatile sig_atomic_t *stop_flag(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, "lied.stopflag");
  volatile sig_atomic_t *f = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return f;
}

/* Output specs of opts.out: a string or a list of strings (issue 7). Pushes
 * nothing; fills specs[] (strings anchored in opts) and returns the count, or
 * raises for an invalid spec. */
#define MAX_OUTS 16
static int run_outputs(lua_State *L, int t, const char *specs[MAX_OUTS]) {
  int n = 0;
  lua_getfield(L, t, "out");
  if (lua_istable(L, -1)) {
    lua_Integer len = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= len; i++) {
      lua_rawgeti(L, -1, i);
      const char *s = lua_tostring(L, -1);
      lua_pop(L, 1);
      if (!s) return luaL_error(L, "out[%d] must be a string", (int)i);
      if (n == MAX_OUTS) return luaL_error(L, "at most %d outputs", MAX_OUTS);
      specs[n++] = s;
    }
  } else if (!lua_isnil(L, -1)) {
    const char *s = lua_tostring(L, -1);
    if (!s) return luaL_error(L, "out must be a string or a list of strings");
    specs[n++] = s;
  }
  lua_pop(L, 1);
  int k = 0;
  for (int i = 0; i < n; i++) {
    int kind = lied_output_kind(specs[i]);
    if (kind == LIED_OUT_BAD)
      return luaL_error(L, "output '%s': use a .csv or .mat file, '-' (CSV on stdout), "
                           "'tcp:PORT' or 'none'", specs[i]);
    if (kind != LIED_OUT_NONE) specs[k++] = specs[i];
  }
  return k;
}

/* Every key of the run options must be one model_run reads (a misspelt
 * option is an error, not silently ignored); `set` is what lied.simulate
 * keeps its overrides in. Add new options here. */
static void check_run_keys(lua_State *L, int t) {
  static const char *const known[] = {"start", "stop", "dt", "interval", "tol", "rtol", "atol",
                                      "hmax", "solver", "vars", "out", "clients",
                                      "progress", "progress_delay", "memory", "fuse", "lanes", "set", NULL};
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    int ok = 0;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (int i = 0; known[i] && !ok; i++) ok = strcmp(known[i], lua_tostring(L, -1)) == 0;
    if (!ok) {
      luaL_Buffer b;
      luaL_buffinit(L, &b);
      for (int i = 0; known[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, known[i]);
      }
      luaL_pushresult(&b);
      const char *list = lua_tostring(L, -1);
      const char *key = luaL_tolstring(L, -2, NULL);
      raise_fmt(L, "run: unknown option '%s' (options: %s)", key, list);
    }
  }
  static const char *const strs[] = {"solver", "vars", NULL};
  for (int i = 0; strs[i]; i++) {
    lua_getfield(L, t, strs[i]);
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING)
      raise_fmt(L, "run: option %s must be a string, got %s", strs[i], luaL_typename(L, -1));
    lua_pop(L, 1);
  }
}

/* Times and steps a run can represent: finite start and stop, and no more
 * than 2^53 steps or output points (beyond that t + dt == t: the run would
 * stand still or never end). */
static void check_run_span(lua_State *L, const lied_sim_opts *o) {
  if (!isfinite(o->start) || !isfinite(o->stop) || !isfinite(o->stop - o->start))
    raise_fmt(L, "run: the interval [%f, %f] must be finite", o->start, o->stop);
  double span = o->stop - o->start, lim = 9007199254740992.0; /* 2^53 */
  if (o->dt > 0 && span / o->dt > lim)
    raise_fmt(L, "run: step size %f is too small for the interval [%f, %f] "
                 "(more than 2^53 steps)", o->dt, o->start, o->stop);
  if (o->interval > 0 && span / o->interval > lim)
    raise_fmt(L, "run: output interval %f is too small for [%f, %f] (more than 2^53 output points)",
              o->interval, o->start, o->stop);
}

/* model:run(opts) -> result, stats. opts: start, stop, dt, interval (or
 * "step"), solver, tol, rtol, atol, hmax, vars, out ("-", path.csv,
 * path.mat, "tcp:[HOST:]PORT", "none", or a list of these), clients (TCP clients to wait for), progress ("auto" =
 * default: on stderr when it is a terminal; true; false), progress_delay
 * (seconds, default 1), memory (default true), fuse (default true; false:
 * fixed-step explicit solvers step over the whole state vector, see fused.h),
 * lanes (default true; false: fused steps run copy by copy, see lanes.h).
 * A simulation failure returns result-so-far, stats, message. */
static int model_run(lua_State *L) {
  lmodel *u = check_model(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  lied_sim_opts o = {0};
  o.start = opt_num(L, 2, "start", 0);
  o.stop = opt_num(L, 2, "stop", 1);
  o.dt = opt_num(L, 2, "dt", 0);
  lua_getfield(L, 2, "interval"); /* a number, or "step": every accepted step */
  o.every_step = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "step") == 0;
  lua_pop(L, 1);
  o.interval = o.every_step ? 0 : opt_num(L, 2, "interval", 0);
  o.rtol = o.atol = opt_num(L, 2, "tol", 0); /* tol sets both; rtol, atol override */
  o.rtol = opt_num(L, 2, "rtol", o.rtol);
  o.atol = opt_num(L, 2, "atol", o.atol);
  o.hmax = opt_num(L, 2, "hmax", 0);
  o.solver = opt_field_str(L, 2, "solver");
  const char *vars = opt_field_str(L, 2, "vars");
  const char *outs[MAX_OUTS];
  int nouts = run_outputs(L, 2, outs);
  double nclients = opt_num(L, 2, "clients", 0);
  if (!(nclients >= 0 && nclients <= 1024))
    return raise_fmt(L, "run: clients must be from 0 to 1024, got %f", nclients);
  int clients = (int)nclients;
  double pdelay = opt_num(L, 2, "progress_delay", 1);
  lua_getfield(L, 2, "progress");
  int progress = lua_isboolean(L, -1) ? lua_toboolean(L, -1) : -1; /* -1: auto */
  lua_pop(L, 1);
  lua_getfield(L, 2, "memory");
  int memory = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, 2, "fuse");
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    return raise_fmt(L, "run: option fuse must be a boolean, got %s", luaL_typename(L, -1));
  o.no_fuse = lua_isboolean(L, -1) && !lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, 2, "lanes");
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    return raise_fmt(L, "run: option lanes must be a boolean, got %s", luaL_typename(L, -1));
  o.no_lanes = lua_isboolean(L, -1) && !lua_toboolean(L, -1);
  lua_pop(L, 1);
  const char *out1 = opt_field_str(L, 2, "out");
  if (out1 && strcmp(out1, "none") == 0) memory = 0; /* out = "none" records nothing */
  check_run_keys(L, 2);
  check_run_span(L, &o);
  lresult *res = lua_newuserdatauv(L, sizeof *res, 0);
  res->mem = NULL;
  luaL_setmetatable(L, RESULT_MT);
  int ridx = lua_gettop(L);
  lied_err e;
  e.msg[0] = 0;
  lied_recorder rec;
  memset(&rec, 0, sizeof rec);
  int record = nouts > 0 || memory;
  if (record && lied_recorder_select(&rec, u->sys->model, vars, &e)) {
    lied_recorder_free(&rec);
    return raise_err(L, &e);
  }
  if (memory) {
    res->mem = lied_mem_sink(&e);
    if (!res->mem || lied_recorder_add_sink(&rec, &res->mem->base, 0, &e)) {
      lied_recorder_free(&rec);
      return raise_err(L, &e);
    }
  }
  volatile sig_atomic_t *flag = stop_flag(L);
  int to_stdout = 0;
  if (nouts > 0) {
    lied_sink *out = nouts == 1 ? NULL : lied_mux_sink(&e);
    if (nouts > 1 && !out) {
      lied_recorder_free(&rec);
      return raise_err(L, &e);
    }
    for (int i = 0; i < nouts; i++) {
      to_stdout |= lied_output_kind(outs[i]) == LIED_OUT_STDOUT;
      lied_sink *s = lied_output_open(outs[i], clients, flag, &e);
      if (!s || (out && lied_mux_add(out, s, &e))) {
        if (out) out->destroy(out);
        lied_recorder_free(&rec);
        return raise_err(L, &e);
      }
      if (!out) out = s;
    }
    if (lied_recorder_add_sink(&rec, out, 1, &e)) {
      lied_recorder_free(&rec);
      return raise_err(L, &e);
    }
  }
  if (progress < 0)
    progress = isatty(STDERR_FILENO) && !(to_stdout && isatty(STDOUT_FILENO));
  lied_progress bar;
  if (progress) {
    lied_progress_init(&bar, stderr, isatty(STDERR_FILENO), o.start, o.stop, pdelay);
    o.progress = lied_progress_update;
    o.progress_ctx = &bar;
  }
  lied_sim_stats st;
  if (flag) *flag = 0;
  lied_output out = lied_recorder_output(&rec);
  int rc = lied_simulate(u->sys->sched, &o, rec.nsinks ? &out : NULL, flag, &st, &e);
  if (flag) *flag = 0; /* consumed: st.interrupted tells */
  if (progress) lied_progress_finish(&bar, st.t_end, st.interrupted);
  lied_recorder_free(&rec);
  if (rc == LIED_E_USAGE) return raise_err(L, &e);
  lua_pushvalue(L, ridx);
  lua_createtable(L, 0, 20);
  set_int(L, "steps", (uint64_t)st.steps);
  set_int(L, "rhs", (uint64_t)st.rhs);
  set_int(L, "rejected", (uint64_t)st.rejected);
  set_int(L, "jac_rhs", (uint64_t)st.jac_rhs);
  set_int(L, "jacobians", (uint64_t)st.jacobians);
  set_int(L, "lu", (uint64_t)st.lu);
  set_int(L, "newton", (uint64_t)st.newton);
  set_int(L, "newton_fails", (uint64_t)st.newton_fails);
  set_int(L, "colours", (uint64_t)st.colours);
  set_int(L, "jac_nnz", st.jac_nnz);
  set_int(L, "outputs", (uint64_t)st.outputs);
  set_int(L, "factorisations", st.factorisations);
  lua_pushnumber(L, st.t_end);
  lua_setfield(L, -2, "t_end");
  lua_pushnumber(L, st.wall);
  lua_setfield(L, -2, "wall");
  lua_pushboolean(L, st.interrupted);
  lua_setfield(L, -2, "interrupted");
  lua_pushboolean(L, st.fused);
  lua_setfield(L, -2, "fused");
  lua_pushboolean(L, st.lanes);
  lua_setfield(L, -2, "lanes");
  if (st.no_lanes[0]) {
    lua_pushstring(L, st.no_lanes);
    lua_setfield(L, -2, "no_lanes");
  }
  if (rc) {
    lua_pushstring(L, e.msg);
    return 3;
  }
  return 2;
}

/* result:save(path): write the rows to a .csv or .mat file (issue 7). */
static int result_save(lua_State *L) {
  lresult *r = luaL_checkudata(L, 1, RESULT_MT);
  const char *path = luaL_checkstring(L, 2);
  int kind = lied_output_kind(path);
  if (kind != LIED_OUT_CSV && kind != LIED_OUT_MAT)
    return luaL_error(L, "save: use a .csv or .mat file name, got '%s'", path);
  if (!r->mem || r->mem->ncols == 0) return luaL_error(L, "save: nothing was recorded");
  lied_err e;
  lied_sink *s = lied_output_open(path, 0, NULL, &e);
  if (!s) return raise_err(L, &e);
  lied_memsink *m = r->mem;
  double *row = malloc(sizeof(double) * m->ncols);
  int rc = row ? s->begin(s, m->ncols - 1, m->names, (const char *const *)m->units, &e)
               : lied_errf(&e, "out of memory (a row of %zu values)", m->ncols);
  for (size_t i = 0; rc == 0 && i < m->nrows; i++) {
    for (size_t c = 0; c < m->ncols; c++) row[c] = lied_mem_at(m, i, c);
    rc = s->row(s, row[0], row + 1, &e);
  }
  lied_err tmp;
  if (row && s->end(s, rc ? &tmp : &e)) rc = -1;
  s->destroy(s);
  free(row);
  if (rc) return raise_err(L, &e);
  lua_pushinteger(L, (lua_Integer)m->nrows);
  return 1;
}

static int result_tostring(lua_State *L) {
  lresult *r = check_result(L, 1);
  if (!r->mem) {
    lua_pushliteral(L, "result (nothing recorded)");
    return 1;
  }
  lua_pushfstring(L, "result (%I rows, %I variables)", (lua_Integer)r->mem->nrows,
                  (lua_Integer)(r->mem->ncols ? r->mem->ncols - 1 : 0));
  return 1;
}

/* result:names() -> list of recorded names (without "time") */
static int result_names(lua_State *L) {
  lresult *r = check_result(L, 1);
  lua_newtable(L);
  for (size_t i = 0; r->mem && i + 1 < r->mem->ncols; i++) {
    lua_pushstring(L, r->mem->names[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int result_units(lua_State *L) {
  lresult *r = check_result(L, 1);
  lua_newtable(L);
  for (size_t i = 0; r->mem && i + 1 < r->mem->ncols; i++) {
    lua_pushstring(L, r->mem->units[i]);
    lua_setfield(L, -2, r->mem->names[i]);
  }
  return 1;
}

static int result_nrows(lua_State *L) {
  lresult *r = check_result(L, 1);
  lua_pushinteger(L, r->mem ? (lua_Integer)r->mem->nrows : 0);
  return 1;
}

/* result:column(name or index, 0 = time) -> list of numbers */
static int result_column(lua_State *L) {
  lresult *r = check_result(L, 1);
  if (!r->mem) return luaL_error(L, "nothing was recorded");
  size_t c = 0;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lua_Integer k = luaL_checkinteger(L, 2);
    if (k < 0 || (size_t)k >= r->mem->ncols) return luaL_error(L, "no column %d", (int)k);
    c = (size_t)k;
  } else {
    const char *name = luaL_checkstring(L, 2);
    if (strcmp(name, "time") != 0) {
      size_t i;
      for (i = 0; i + 1 < r->mem->ncols; i++)
        if (strcmp(r->mem->names[i], name) == 0) break;
      if (i + 1 >= r->mem->ncols) {
        lua_pushnil(L);
        lua_pushfstring(L, "'%s' was not recorded", name);
        return 2;
      }
      c = i + 1;
    }
  }
  lua_createtable(L, (int)r->mem->nrows, 0);
  for (size_t i = 0; i < r->mem->nrows; i++) {
    lua_pushnumber(L, lied_mem_at(r->mem, i, c));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* lied.core.solvers() -> list of {name, doc, order, adaptive, implicit} */
static int core_solvers(lua_State *L) {
  lua_newtable(L);
  for (int i = 0; i < lied_solver_count(); i++) {
    const lied_solver *s = lied_solver_at(i);
    lua_createtable(L, 0, 5);
    lua_pushstring(L, s->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, s->doc);
    lua_setfield(L, -2, "doc");
    lua_pushinteger(L, s->order);
    lua_setfield(L, -2, "order");
    lua_pushboolean(L, s->adaptive);
    lua_setfield(L, -2, "adaptive");
    lua_pushboolean(L, s->implicit);
    lua_setfield(L, -2, "implicit");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int core_glob(lua_State *L) {
  lua_pushboolean(L, lied_lua_glob(luaL_checkstring(L, 1), luaL_checkstring(L, 2)));
  return 1;
}

static const luaL_Reg core_funcs[] = {
    {"library", core_library},   {"libraries", core_libraries},
    {"build", core_build},       {"class_metatable", core_class_metatable},
    {"isclass", core_isclass},   {"solvers", core_solvers},
    {"glob", core_glob},         {NULL, NULL}};

static const luaL_Reg model_methods[] = {{"info", model_info},   {"vars", model_vars},
                                         {"value", model_value}, {"run", model_run},
                                         {"derivatives", model_derivatives},
                                         {NULL, NULL}};
static const luaL_Reg result_methods[] = {{"names", result_names},
                                          {"units", result_units},
                                          {"nrows", result_nrows},
                                          {"column", result_column},
                                          {"save", result_save},
                                          {NULL, NULL}};

static void new_type(lua_State *L, const char *name, const luaL_Reg *methods,
                     lua_CFunction gc, lua_CFunction tostr) {
  luaL_newmetatable(L, name);
  if (methods) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "methods");
    lua_setfield(L, -2, "__index");
  }
  if (gc) {
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__close");
  }
  lua_pushcfunction(L, tostr);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}

int luaopen_lied_core(lua_State *L) {
  luaL_newmetatable(L, CLASS_MT);
  lua_pushcfunction(L, class_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, class_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_newtable(L);
  lua_setfield(L, -2, "methods");
  lua_pop(L, 1);
  new_type(L, MODEL_MT, model_methods, model_gc, model_tostring);
  new_type(L, RESULT_MT, result_methods, result_gc, result_tostring);
  luaL_newlib(L, core_funcs);
  lua_pushstring(L, LIED_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushboolean(L, lied_splu_available());
  lua_setfield(L, -2, "sparse_lu");
  return 1;
}
