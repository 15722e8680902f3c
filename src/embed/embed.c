/* embed.c - the embedding API (lied/lied.h) on top of the Lua host: a
 * context is a Lua state running lied, driven through a few Lua functions
 * (below) called in protected mode; errors come back as a lied_status (the
 * code of lied's error object, LIED_ERROR for a plain Lua error) and a
 * message. */
#include <lauxlib.h>
#include <lualib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "lied/lied.h"
#include "binding/lua_lied.h"

struct lied_ctx {
  lua_State *L;
  volatile sig_atomic_t stop;
  char *msg;
  double **columns; /* handed out by lied_result, freed with the result */
  size_t ncolumns;
};

/* The driver: one table of functions in the registry ("lied.embed"). State
 * lives in the table: model, sets, opts, built, result. */
static const char driver[] =
    "local lied = require 'lied'\n"
    "local E = {}\n"
    "function E.script_dir(path) require('lied.cli').add_script_dir(path) end\n"
    "local function reset(m) E.model, E.sets, E.opts, E.built, E.result = m, {}, {}, nil, nil end\n"
    "function E.load(chunk, name)\n"
    "  local m = chunk()\n"
    "  if not lied.ismodel(m) then\n"
    "    error(string.format('%s: the chunk must return a model (lied.model \"Name\" {...}), got %s',\n"
    "      name, type(m)), 0)\n"
    "  end\n"
    "  reset(m)\n"
    "end\n"
    "local function need_model()\n"
    "  if not E.model then error(lied.core.error('usage', 'no model loaded'), 0) end\n"
    "end\n"
    "function E.set(k, v) need_model(); E.sets[k] = v; E.built, E.result = nil, nil end\n"
    "function E.build() need_model(); E.built = lied.build(E.model, E.sets) end\n"
    "local options = {}\n"
    "for _, o in ipairs(lied.core.run_options) do options[o.name] = o end\n"
    "function E.option(k, v)\n"
    "  local o = options[k]\n"
    "  if not o or o.type == 'table' then\n"
    "    local names = {}\n"
    "    for n, oo in pairs(options) do if oo.type ~= 'table' then names[#names + 1] = n end end\n"
    "    table.sort(names)\n"
    "    local _, near = lied.core.suggest(k, names)\n"
    "    error(lied.core.error('usage', 'unknown run option \\'' .. k .. '\\'' .. near), 0)\n"
    "  end\n"
    "  local val\n"
    "  if o.type == 'string or list of strings' then\n"
    "    val = E.opts[k] or {}\n"
    "    val[#val + 1] = v\n"
    "  elseif o.type == 'string' then val = v\n"
    "  elseif o.type:find('boolean', 1, true) and (v == 'true' or v == 'false') then val = v == 'true'\n"
    "  elseif o.type:find('\"', 1, true) and not tonumber(v) then val = v\n"
    "  else\n"
    "    val = tonumber(v)\n"
    "    if not val then\n"
    "      error(lied.core.error('usage', string.format('run option %s expects a %s, got \\'%s\\'',\n"
    "        k, o.type, v)), 0)\n"
    "    end\n"
    "  end\n"
    "  E.opts[k] = val\n"
    "end\n"
    "function E.run()\n"
    "  if not E.built then E.build() end\n"
    "  local exp = {}\n"
    "  for k, v in pairs(E.model.experiment or {}) do exp[k] = v end\n"
    "  for k, v in pairs(E.opts) do exp[k] = v end\n"
    "  if type(exp.out) == 'table' and #exp.out == 1 then exp.out = exp.out[1] end\n"
    "  exp.memory = true\n"
    "  E.result = nil\n"
    "  local res, _, err = E.built:run(exp)\n"
    "  E.result = res\n"
    "  if err then error(err, 0) end\n"
    "end\n"
    "function E.column(name)\n"
    "  if not E.result then error(lied.core.error('usage', 'no result: run first'), 0) end\n"
    "  local c, msg = E.result:column(name)\n"
    "  if not c then error(lied.core.error('usage', msg), 0) end\n"
    "  return c\n"
    "end\n"
    "function E.name(i)\n"
    "  if not E.result then return nil end\n"
    "  return E.result:names()[i]\n"
    "end\n"
    "function E.value(name)\n"
    "  if not E.built then E.build() end\n"
    "  return (E.built:value(name))\n"
    "end\n"
    "return E\n";

static void set_msg(lied_ctx *c, const char *m) {
  free(c->msg);
  c->msg = strdup(m ? m : "");
}

static void free_columns(lied_ctx *c) {
  for (size_t i = 0; i < c->ncolumns; i++) free(c->columns[i]);
  free(c->columns);
  c->columns = NULL;
  c->ncolumns = 0;
}

/* The status of the error value on the top of the stack: lied's error
 * objects carry the name of their code (status = "LIED_E_PARAM"). */
static lied_status error_status(lua_State *L) {
  lied_status code = LIED_ERROR;
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_getfield(L, -1, "status");
    const char *name = lua_tostring(L, -1);
#define LIED_STATUS_MATCH(n, v, doc) \
  if (name && strcmp(name, #n) == 0) code = n;
    LIED_STATUS_LIST(LIED_STATUS_MATCH)
#undef LIED_STATUS_MATCH
    lua_pop(L, 1);
    if (code >= 0) code = LIED_ERROR;
  }
  return code;
}

/* Call driver function fn with nargs arguments on the stack (pushed after
 * the function), keeping nres results. */
static lied_status call(lied_ctx *c, int nargs, int nres) {
  lua_State *L = c->L;
  c->stop = 0;
  if (lua_pcall(L, nargs, nres, 0) != LUA_OK) {
    lied_status code = error_status(L);
    set_msg(c, luaL_tolstring(L, -1, NULL));
    lua_pop(L, 2);
    return code;
  }
  set_msg(c, "");
  return LIED_OK;
}

static void push_fn(lied_ctx *c, const char *name) {
  lua_getfield(c->L, LUA_REGISTRYINDEX, "lied.embed");
  lua_getfield(c->L, -1, name);
  lua_remove(c->L, -2);
}

lied_status lied_open(lied_ctx **out) {
  *out = NULL;
  lied_ctx *c = calloc(1, sizeof *c);
  if (!c) return LIED_E_NOMEM;
  c->L = lied_lua_new(&c->stop);
  if (!c->L) {
    free(c);
    return LIED_E_NOMEM;
  }
  *out = c;
  if (luaL_loadbuffer(c->L, driver, sizeof driver - 1, "=lied.embed") != LUA_OK) {
    set_msg(c, lua_tostring(c->L, -1));
    lua_pop(c->L, 1);
    return LIED_ERROR;
  }
  lied_status st = call(c, 0, 1);
  if (st != LIED_OK) return st;
  lua_setfield(c->L, LUA_REGISTRYINDEX, "lied.embed");
  return LIED_OK;
}

void lied_close(lied_ctx *c) {
  if (!c) return;
  free_columns(c);
  if (c->L) lua_close(c->L);
  free(c->msg);
  free(c);
}

const char *lied_errmsg(const lied_ctx *c) { return c && c->msg ? c->msg : ""; }

static lied_status load(lied_ctx *c, int rc, const char *name) {
  if (rc != LUA_OK) {
    /* a file that cannot be read is a usage error; a syntax error the model's */
    lied_status code = rc == LUA_ERRFILE ? LIED_E_USAGE : LIED_E_MODEL;
    set_msg(c, lua_tostring(c->L, -1));
    lua_pop(c->L, 1);
    return code;
  }
  free_columns(c);
  push_fn(c, "load");
  lua_insert(c->L, -2);
  lua_pushstring(c->L, name);
  return call(c, 2, 0);
}

lied_status lied_load_file(lied_ctx *c, const char *path) {
  if (!c || !path) return LIED_E_USAGE;
  push_fn(c, "script_dir");
  lua_pushstring(c->L, path);
  lied_status st = call(c, 1, 0);
  if (st != LIED_OK) return st;
  return load(c, luaL_loadfile(c->L, path), path);
}

lied_status lied_load_string(lied_ctx *c, const char *source, const char *chunkname) {
  if (!c || !source) return LIED_E_USAGE;
  if (!chunkname) chunkname = "model";
  lua_pushfstring(c->L, "=%s", chunkname);
  int rc = luaL_loadbuffer(c->L, source, strlen(source), lua_tostring(c->L, -1));
  lua_remove(c->L, -2); /* the chunk name */
  return load(c, rc, chunkname);
}

lied_status lied_set(lied_ctx *c, const char *name, double value) {
  if (!c || !name) return LIED_E_USAGE;
  push_fn(c, "set");
  lua_pushstring(c->L, name);
  if (value == (double)(long long)value && value > -9.0e15 && value < 9.0e15)
    lua_pushinteger(c->L, (lua_Integer)value); /* array sizes are integers */
  else
    lua_pushnumber(c->L, value);
  return call(c, 2, 0);
}

lied_status lied_build(lied_ctx *c) {
  if (!c) return LIED_E_USAGE;
  push_fn(c, "build");
  return call(c, 0, 0);
}

lied_status lied_option(lied_ctx *c, const char *name, const char *value) {
  if (!c || !name || !value) return LIED_E_USAGE;
  push_fn(c, "option");
  lua_pushstring(c->L, name);
  lua_pushstring(c->L, value);
  return call(c, 2, 0);
}

lied_status lied_run(lied_ctx *c) {
  if (!c) return LIED_E_USAGE;
  free_columns(c);
  push_fn(c, "run");
  return call(c, 0, 0);
}

lied_status lied_result(lied_ctx *c, const char *name, const double **values, size_t *n) {
  if (!c || !name || !values || !n) return LIED_E_USAGE;
  *values = NULL;
  *n = 0;
  push_fn(c, "column");
  lua_pushstring(c->L, name);
  lied_status st = call(c, 1, 1);
  if (st != LIED_OK) return st;
  size_t rows = (size_t)lua_rawlen(c->L, -1);
  double **cols = realloc(c->columns, (c->ncolumns + 1) * sizeof *cols);
  double *v = malloc((rows ? rows : 1) * sizeof *v);
  if (cols) c->columns = cols;
  if (!cols || !v) {
    free(v);
    lua_pop(c->L, 1);
    set_msg(c, "out of memory");
    return LIED_E_NOMEM;
  }
  for (size_t i = 0; i < rows; i++) {
    lua_rawgeti(c->L, -1, (lua_Integer)i + 1);
    v[i] = lua_tonumber(c->L, -1);
    lua_pop(c->L, 1);
  }
  lua_pop(c->L, 1);
  c->columns[c->ncolumns++] = v;
  *values = v;
  *n = rows;
  return LIED_OK;
}

const char *lied_result_name(lied_ctx *c, size_t i) {
  if (!c) return NULL;
  push_fn(c, "name");
  lua_pushinteger(c->L, (lua_Integer)i + 1);
  if (call(c, 1, 1) != LIED_OK) return NULL;
  /* anchored in the result's name list, kept in the registry by the driver */
  const char *s = lua_tostring(c->L, -1);
  if (s) {
    lua_pushvalue(c->L, -1);
    lua_setfield(c->L, LUA_REGISTRYINDEX, "lied.embed.name");
    s = lua_tostring(c->L, -1);
  }
  lua_pop(c->L, 1);
  return s;
}

lied_status lied_value(lied_ctx *c, const char *name, double *value) {
  if (!c || !name || !value) return LIED_E_USAGE;
  push_fn(c, "value");
  lua_pushstring(c->L, name);
  lied_status st = call(c, 1, 1);
  if (st != LIED_OK) return st;
  *value = lua_tonumber(c->L, -1);
  lua_pop(c->L, 1);
  return LIED_OK;
}

const char *lied_version(void) { return LIED_VERSION_STRING; }
