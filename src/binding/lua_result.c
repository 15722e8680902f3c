/* lua_result.c - the result of a run (lied.Result): the rows a memory sink
 * kept, by column, and result:save to a .csv or .mat file. */
#include <stdlib.h>
#include <string.h>
#include "binding/binding.h"

lresult *lied_lua_checkresult(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, RESULT_MT);
}

static int result_gc(lua_State *L) {
  lresult *r = luaL_checkudata(L, 1, RESULT_MT);
  if (r->mem) r->mem->base.destroy(&r->mem->base);
  r->mem = NULL;
  return 0;
}

lresult *lied_lua_newresult(lua_State *L) {
  lresult *res = lua_newuserdatauv(L, sizeof *res, 1); /* 1: the name index (column()) */
  res->mem = NULL;
  luaL_setmetatable(L, RESULT_MT);
  return res;
}

/* result:save(path): write the rows to a .csv or .mat file (issue 7). */
static int result_save(lua_State *L) {
  lresult *r = luaL_checkudata(L, 1, RESULT_MT);
  const char *path = luaL_checkstring(L, 2);
  int kind = lied_output_kind(path);
  if (kind != LIED_OUT_CSV && kind != LIED_OUT_MAT)
    return lied_lua_fail(L, LIED_E_USAGE, "save: use a .csv or .mat file name, got '%s'", path);
  if (!r->mem || r->mem->ncols == 0) return lied_lua_fail(L, LIED_E_USAGE, "save: nothing was recorded");
  lied_err e;
  lied_sink *s = lied_output_open(path, 0, NULL, &e);
  if (!s) return lied_lua_raise(L, &e);
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
  if (rc) return lied_lua_raise(L, &e);
  lua_pushinteger(L, (lua_Integer)m->nrows);
  return 1;
}

static int result_tostring(lua_State *L) {
  lresult *r = lied_lua_checkresult(L, 1);
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
  lresult *r = lied_lua_checkresult(L, 1);
  lua_newtable(L);
  for (size_t i = 0; r->mem && i + 1 < r->mem->ncols; i++) {
    lua_pushstring(L, r->mem->names[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int result_units(lua_State *L) {
  lresult *r = lied_lua_checkresult(L, 1);
  lua_newtable(L);
  for (size_t i = 0; r->mem && i + 1 < r->mem->ncols; i++) {
    lua_pushstring(L, r->mem->units[i]);
    lua_setfield(L, -2, r->mem->names[i]);
  }
  return 1;
}

static int result_nrows(lua_State *L) {
  lresult *r = lied_lua_checkresult(L, 1);
  lua_pushinteger(L, r->mem ? (lua_Integer)r->mem->nrows : 0);
  return 1;
}

/* The index (0-based, without time) of the column named by argument 2, or
 * ncols - 1 when none: through a table name -> index built at the first
 * lookup and kept as the result's user value, so that reading every column
 * by name is linear in their number (it searched the names: issue 47). */
static size_t column_of(lua_State *L, lresult *r) {
  if (r->mem->ncols == 0) return 0; /* nothing recorded yet: no index to keep */
  if (lua_getiuservalue(L, 1, 1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, (int)(r->mem->ncols - 1));
    for (size_t i = r->mem->ncols - 1; i-- > 0;) { /* the first of a repeated name wins */
      lua_pushinteger(L, (lua_Integer)i);
      lua_setfield(L, -2, r->mem->names[i]);
    }
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, 1, 1);
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  size_t i = lua_isinteger(L, -1) ? (size_t)lua_tointeger(L, -1) : r->mem->ncols - 1;
  lua_pop(L, 2);
  return i;
}

/* result:column(name or index, 0 = time) -> list of numbers */
static int result_column(lua_State *L) {
  lresult *r = lied_lua_checkresult(L, 1);
  if (!r->mem) return lied_lua_fail(L, LIED_E_USAGE, "nothing was recorded");
  size_t c = 0;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lua_Integer k = luaL_checkinteger(L, 2);
    if (k < 0 || (size_t)k >= r->mem->ncols) return lied_lua_fail(L, LIED_E_USAGE, "no column %d", (int)k);
    c = (size_t)k;
  } else {
    const char *name = luaL_checkstring(L, 2);
    if (strcmp(name, "time") != 0) {
      size_t i = column_of(L, r);
      if (i + 1 >= r->mem->ncols) {
        lied_lua_push_suggestion(L, name, (const char *const *)r->mem->names,
                                 (int)(r->mem->ncols - 1));
        lua_pushnil(L);
        lua_pushfstring(L, "'%s' was not recorded%s", name, lua_tostring(L, -2));
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

/* result:first_difference(other) -> nil when both hold the same names and
 * rows and every value (time included) is the same bits; else a table: the
 * first row (1-based) and column (0 = time) that differ in row order, then
 * column order, with name, t (this result's time at that row), a and b
 * (the two values), or `what` ("names", "rows": how many each holds) when
 * the shapes differ. For lied run --check (lua/lied/check.lua): bits, not
 * values, so -0 against 0 and two NaNs of other payloads differ. */
static int result_first_difference(lua_State *L) {
  lresult *ra = lied_lua_checkresult(L, 1), *rb = lied_lua_checkresult(L, 2);
  const lied_memsink *a = ra->mem, *b = rb->mem;
  const size_t na = a ? a->ncols : 0, nb = b ? b->ncols : 0;
  int names = na != nb;
  for (size_t c = 0; !names && c + 1 < na; c++) names = strcmp(a->names[c], b->names[c]) != 0;
  const size_t rows_a = a ? a->nrows : 0, rows_b = b ? b->nrows : 0;
  const size_t rows = rows_a < rows_b ? rows_a : rows_b;
  for (size_t i = 0; !names && i < rows; i++)
    for (size_t c = 0; c < na; c++) {
      const double x = lied_mem_at(a, i, c), y = lied_mem_at(b, i, c);
      if (memcmp(&x, &y, sizeof x) == 0) continue;
      lua_createtable(L, 0, 6);
      lied_lua_setint(L, "row", (uint64_t)i + 1);
      lied_lua_setint(L, "col", (uint64_t)c);
      lied_lua_setstr(L, "name", c ? a->names[c - 1] : "time");
      lied_lua_setnum(L, "t", lied_mem_at(a, i, 0));
      lied_lua_setnum(L, "a", x);
      lied_lua_setnum(L, "b", y);
      return 1;
    }
  if (!names && rows_a == rows_b) {
    lua_pushnil(L);
    return 1;
  }
  lua_createtable(L, 0, 3);
  lied_lua_setstr(L, "what", names ? "names" : "rows");
  lied_lua_setint(L, "rows_a", (uint64_t)rows_a);
  lied_lua_setint(L, "rows_b", (uint64_t)rows_b);
  return 1;
}

static const luaL_Reg result_methods[] = {{"names", result_names},   {"units", result_units},
                                          {"nrows", result_nrows},   {"column", result_column},
                                          {"save", result_save},
                                          {"first_difference", result_first_difference},
                                          {NULL, NULL}};

void lied_lua_open_results(lua_State *L) {
  lied_lua_newtype(L, RESULT_MT, result_methods, result_gc, result_tostring);
}
