/* embed.c - the embedding API (lied/lied.h) on top of the Lua host: a
 * context is a Lua state running lied, driven through a few Lua functions
 * (below) called in protected mode; errors come back as a lied_status (the
 * code of lied's error object, LIED_ERROR for a plain Lua error) and a
 * message. */
#include <lauxlib.h>
#include <lualib.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lied/lied.h"
#include "binding/lua_lied.h"

struct lied_ctx {
  lua_State *L;
  volatile sig_atomic_t stop;
  int ready;      /* the driver loaded: lied_open succeeded */
  char *open_msg; /* why it did not */
  char *msg;
  double **columns; /* handed out by lied_result, freed with the result */
  size_t ncolumns, capcolumns;
};

/* The driver: one table of functions in the registry ("lied.embed"). State
 * lives in the table: model, sets, opts, built, result. */
static const char driver[] =
    "local lied = require 'lied'\n"
    "local E = {}\n"
    "function E.script_dir(path) require('lied.cli').add_script_dir(path) end\n"
    "local function reset(m) E.model, E.sets, E.opts, E.built, E.result, E.names = m, {}, {}, nil, nil, nil end\n"
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
    "function E.set(k, v) need_model(); E.sets[k] = v; E.built, E.result, E.names = nil, nil, nil end\n"
    "function E.build() need_model(); E.built = lied.build(E.model, E.sets) end\n"
    "local options = {}\n"
    "for _, o in ipairs(lied.core.run_options) do options[o.name] = o end\n"
    "function E.option(k, v)\n"
    "  need_model()\n"
    "  local o = options[k]\n"
    "  if not o or o.type == 'table' then\n"
    "    local names = {}\n"
    "    for n, oo in pairs(options) do if oo.type ~= 'table' then names[#names + 1] = n end end\n"
    "    table.sort(names)\n"
    "    local _, near = lied.core.suggest(k, names)\n"
    "    error(lied.core.error('usage', 'unknown run option \\'' .. k .. '\\'' .. near), 0)\n"
    "  end\n"
    "  local val\n"
    "  if o.type == 'string or list of strings' then -- appended (repeatable), checked\n"
    "    val = { table.unpack(E.opts[k] or {}) }\n"
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
    "  lied.core.check_run_options { [k] = val }\n"
    "  E.opts[k] = val\n"
    "end\n"
    "function E.run()\n"
    "  if not E.built then E.build() end\n"
    "  local exp = {}\n"
    "  for k, v in pairs(E.model.experiment or {}) do exp[k] = v end\n"
    "  for k, v in pairs(E.opts) do exp[k] = v end\n"
    "  if type(exp.out) == 'table' and #exp.out == 1 then exp.out = exp.out[1] end\n"
    "  exp.memory = true\n"
    "  E.result, E.names = nil, nil\n"
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
    "  E.names = E.names or E.result:names() -- once per result: every name is O(n) in all\n"
    "  return E.names[i]\n"
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

/* A bad argument: LIED_E_USAGE with a message naming the call and what was
 * wrong (issue 47: NULL arguments gave LIED_E_USAGE and an empty message). */
static lied_status usage(lied_ctx *c, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  set_msg(c, buf);
  return LIED_E_USAGE;
}

/* Every entry point: a context that lied_open made (LIED_E_USAGE without
 * one: no message can be kept; lied_errmsg(NULL) says so), whose driver
 * loaded (a failed lied_open keeps its reason). */
#define CHECK_CTX(c)                                                                    \
  do {                                                                                 \
    if (!(c)) return LIED_E_USAGE;                                                     \
    if (!(c)->ready) return usage((c), "%s: the context did not open: %s", __func__,   \
                                  (c)->open_msg ? (c)->open_msg : "");                 \
  } while (0)
#define CHECK_ARG(c, cond, ...) \
  do {                          \
    if (!(cond)) return usage((c), __VA_ARGS__); \
  } while (0)

static void free_columns(lied_ctx *c) {
  for (size_t i = 0; i < c->ncolumns; i++) free(c->columns[i]);
  free(c->columns);
  c->columns = NULL;
  c->ncolumns = c->capcolumns = 0;
}

/* The status of the error value on the top of the stack: lied's error
 * objects carry the name of their code (status = "LIED_E_PARAM"). */
static lied_status error_status(lua_State *L) {
  lied_status code = LIED_ERROR;
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushliteral(L, "status"); /* raw: a model's error table may have an __index that raises */
    lua_rawget(L, -2);
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
    set_msg(c, lied_lua_errtext(L, -1));
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
  if (!out) return LIED_E_USAGE; /* lied_open(NULL): nowhere to put the context */
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
  } else if (call(c, 0, 1) == LIED_OK) {
    lua_setfield(c->L, LUA_REGISTRYINDEX, "lied.embed");
    c->ready = 1;
    return LIED_OK;
  }
  c->open_msg = strdup(c->msg ? c->msg : "");
  return LIED_ERROR;
}

void lied_close(lied_ctx *c) {
  if (!c) return;
  free_columns(c);
  if (c->L) lua_close(c->L);
  free(c->open_msg);
  free(c->msg);
  free(c);
}

const char *lied_errmsg(const lied_ctx *c) {
  if (!c) return "no context: the lied_ctx is NULL (lied_open makes one)";
  return c->msg ? c->msg : "";
}

/* A chunk that is not Lua source text: lied loads text only (Lua does not
 * verify bytecode; a corrupted precompiled chunk crashed the loader), the
 * message of the command line's check. */
static void text_only_msg(lied_ctx *c, const char *name) {
  const char *m = lua_tostring(c->L, -1);
  if (m && strstr(m, "attempt to load a binary chunk")) {
    lua_pop(c->L, 1);
    lua_pushfstring(c->L, "%s: a binary (precompiled) Lua chunk; lied loads Lua source text only",
                    name);
  }
}

static lied_status load(lied_ctx *c, int rc, const char *name) {
  if (rc != LUA_OK) {
    /* a file that cannot be read is a usage error; a syntax error the model's */
    lied_status code = rc == LUA_ERRFILE ? LIED_E_USAGE : LIED_E_MODEL;
    text_only_msg(c, name);
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
  CHECK_CTX(c);
  CHECK_ARG(c, path, "lied_load_file: path is NULL");
  CHECK_ARG(c, *path, "lied_load_file: path is empty");
  push_fn(c, "script_dir");
  lua_pushstring(c->L, path);
  lied_status st = call(c, 1, 0);
  if (st != LIED_OK) return st;
  return load(c, luaL_loadfilex(c->L, path, "t"), path);
}

lied_status lied_load_string(lied_ctx *c, const char *source, const char *chunkname) {
  CHECK_CTX(c);
  CHECK_ARG(c, source, "lied_load_string: source is NULL");
  if (!chunkname) chunkname = "model";
  lua_pushfstring(c->L, "=%s", chunkname);
  int rc = luaL_loadbufferx(c->L, source, strlen(source), lua_tostring(c->L, -1), "t");
  lua_remove(c->L, -2); /* the chunk name */
  return load(c, rc, chunkname);
}

lied_status lied_set(lied_ctx *c, const char *name, double value) {
  CHECK_CTX(c);
  CHECK_ARG(c, name, "lied_set: name is NULL");
  CHECK_ARG(c, *name, "lied_set: name is empty");
  push_fn(c, "set");
  lua_pushstring(c->L, name);
  /* (the range first: converting NaN or a huge value to an integer is
   * undefined; found by fuzz_embed) */
  if (value > -9.0e15 && value < 9.0e15 && value == (double)(long long)value)
    lua_pushinteger(c->L, (lua_Integer)value); /* array sizes are integers */
  else
    lua_pushnumber(c->L, value);
  return call(c, 2, 0);
}

lied_status lied_build(lied_ctx *c) {
  CHECK_CTX(c);
  push_fn(c, "build");
  return call(c, 0, 0);
}

lied_status lied_option(lied_ctx *c, const char *name, const char *value) {
  CHECK_CTX(c);
  CHECK_ARG(c, name, "lied_option: name is NULL");
  CHECK_ARG(c, value, "lied_option %s: value is NULL", name);
  push_fn(c, "option");
  lua_pushstring(c->L, name);
  lua_pushstring(c->L, value);
  return call(c, 2, 0);
}

lied_status lied_run(lied_ctx *c) {
  CHECK_CTX(c);
  free_columns(c);
  push_fn(c, "run");
  return call(c, 0, 0);
}

lied_status lied_result(lied_ctx *c, const char *name, const double **values, size_t *n) {
  CHECK_CTX(c);
  CHECK_ARG(c, name, "lied_result: name is NULL");
  CHECK_ARG(c, values && n, "lied_result %s: %s is NULL", name, values ? "n" : "values");
  *values = NULL;
  *n = 0;
  push_fn(c, "column");
  lua_pushstring(c->L, name);
  lied_status st = call(c, 1, 1);
  if (st != LIED_OK) return st;
  size_t rows = (size_t)lua_rawlen(c->L, -1);
  double **cols = c->columns;
  if (c->ncolumns == c->capcolumns) { /* geometric: reading every column is linear */
    size_t cap = c->capcolumns ? 2 * c->capcolumns : 16;
    cols = realloc(c->columns, cap * sizeof *cols);
    if (cols) c->columns = cols, c->capcolumns = cap;
  }
  double *v = malloc((rows ? rows : 1) * sizeof *v);
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
  if (!c || !c->ready) return NULL;
  if (i >= (size_t)LUA_MAXINTEGER) return NULL; /* past the end of any list */
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
  CHECK_CTX(c);
  CHECK_ARG(c, name, "lied_value: name is NULL");
  CHECK_ARG(c, value, "lied_value %s: value is NULL", name);
  push_fn(c, "value");
  lua_pushstring(c->L, name);
  lied_status st = call(c, 1, 1);
  if (st != LIED_OK) return st;
  *value = lua_tonumber(c->L, -1);
  lua_pop(c->L, 1);
  return LIED_OK;
}

const char *lied_version(void) { return LIED_VERSION_STRING; }
