/* lua_sweep.c - what lied.sweep (lua/lied/analysis.lua; docs/distributed.md,
 * "Sweeps") moves between the ranks of mpirun: byte strings, and results
 * taken apart into rows and put together again, the doubles as they are
 * (the same bits on rank 0 as on the rank that ran the point).
 *   lied.core.mpi_send(to, s)            s to rank `to`
 *   lied.core.mpi_recv(from) -> s         what rank `from` sent
 *   lied.core.mpi_first_failure(failed) -> r       collective: the lowest rank
 *                                        passing true, or -1
 *   lied.core.mpi_wait_end(r)             wait for failing rank r to end all
 *   lied.core.result_rows(res, first, count) -> s   rows first .. first+count-1
 *                                        (1-based; time and every column)
 *   lied.core.result_new(names, units) -> res       an empty result
 *   lied.core.result_append(res, s)       rows from result_rows */
#include <stdlib.h>
#include <string.h>
#include "dist/dist.h"
#include "binding/binding.h"

static int core_mpi_send(lua_State *L) {
  lua_Integer to = luaL_checkinteger(L, 1);
  size_t n;
  const char *s = luaL_checklstring(L, 2, &n);
  if (to < 0 || to > 1 << 30) return lied_lua_fail(L, LIED_E_USAGE, "send: no rank %d", (int)to);
  lied_err e;
  if (lied_dist_send((int)to, s, n, &e)) return lied_lua_raise(L, &e);
  return 0;
}

static int core_mpi_recv(lua_State *L) {
  lua_Integer from = luaL_checkinteger(L, 1);
  if (from < 0 || from > 1 << 30) return lied_lua_fail(L, LIED_E_USAGE, "receive: no rank %d", (int)from);
  char *p;
  uint64_t n;
  lied_err e;
  if (lied_dist_recv((int)from, &p, &n, &e)) return lied_lua_raise(L, &e);
  lua_pushlstring(L, p, (size_t)n);
  free(p);
  return 1;
}

static int core_mpi_first_failure(lua_State *L) {
  lua_pushinteger(L, lied_dist_first_failure(lua_toboolean(L, 1)));
  return 1;
}

static int core_mpi_wait_end(lua_State *L) {
  lied_dist_wait_end((int)luaL_checkinteger(L, 1));
  return 0;
}

static int core_result_rows(lua_State *L) {
  lresult *r = lied_lua_checkresult(L, 1);
  lua_Integer first = luaL_checkinteger(L, 2), count = luaL_checkinteger(L, 3);
  const lied_memsink *m = r->mem;
  size_t nrows = m ? m->nrows : 0;
  if (first < 1 || count < 0 || (size_t)(first - 1) > nrows || (size_t)count > nrows - (size_t)(first - 1))
    return lied_lua_fail(L, LIED_E_USAGE, "result_rows: rows %d..%d of a result of %d rows",
                         (int)first, (int)(first + count - 1), (int)nrows);
  if (count == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  luaL_Buffer b;
  size_t bytes = sizeof(double) * m->ncols * (size_t)count;
  double *d = (double *)(void *)luaL_buffinitsize(L, &b, bytes);
  for (size_t i = 0; i < (size_t)count; i++)
    for (size_t c = 0; c < m->ncols; c++)
      d[i * m->ncols + c] = lied_mem_at(m, (size_t)(first - 1) + i, c);
  luaL_pushresultsize(&b, bytes);
  return 1;
}

/* lied.core.result_new(names, units): names a list, units a list of the
 * same length (or a table name -> unit, as res:units() gives) */
static int core_result_new(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_Integer n = luaL_len(L, 1);
  lresult *res = lied_lua_newresult(L);
  int ridx = lua_gettop(L);
  if (n == 0) return 1; /* nothing recorded */
  lied_err e;
  res->mem = lied_mem_sink(&e);
  if (!res->mem) return lied_lua_raise(L, &e);
  char **names = lua_newuserdatauv(L, sizeof(char *) * (size_t)n * 2, 0);
  char **units = names + n;
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    if (lua_type(L, -1) != LUA_TSTRING)
      return lied_lua_fail(L, LIED_E_USAGE, "result_new: name %d is not a string", (int)i);
    names[i - 1] = (char *)lua_tostring(L, -1);
    lua_rawgeti(L, 2, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_getfield(L, 2, names[i - 1]);
    }
    units[i - 1] = (char *)(lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "");
    /* the strings stay referenced from the tables until begin copies them */
    lua_pop(L, 2);
  }
  if (res->mem->base.begin(&res->mem->base, (size_t)n, names, (const char *const *)units, &e))
    return lied_lua_raise(L, &e);
  lua_settop(L, ridx);
  return 1;
}

static int core_result_append(lua_State *L) {
  lresult *r = lied_lua_checkresult(L, 1);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  if (len == 0) return 0;
  lied_memsink *m = r->mem;
  if (!m || len % (sizeof(double) * m->ncols) != 0)
    return lied_lua_fail(L, LIED_E_USAGE, "result_append: %d bytes are not rows of %d columns",
                         (int)len, m ? (int)m->ncols : 0);
  size_t rows = len / (sizeof(double) * m->ncols);
  double *row = malloc(sizeof(double) * m->ncols);
  if (!row) return lied_lua_fail(L, LIED_E_NOMEM, "out of memory (a row of %d values)", (int)m->ncols);
  lied_err e;
  int rc = LIED_OK;
  for (size_t i = 0; i < rows && rc == LIED_OK; i++) {
    memcpy(row, s + i * sizeof(double) * m->ncols, sizeof(double) * m->ncols);
    rc = m->base.row(&m->base, row[0], row + 1, &e);
  }
  free(row);
  if (rc) return lied_lua_raise(L, &e);
  return 0;
}

static const luaL_Reg sweep_funcs[] = {{"mpi_send", core_mpi_send},
                                       {"mpi_recv", core_mpi_recv},
                                       {"mpi_first_failure", core_mpi_first_failure},
                                       {"mpi_wait_end", core_mpi_wait_end},
                                       {"result_rows", core_result_rows},
                                       {"result_new", core_result_new},
                                       {"result_append", core_result_append},
                                       {NULL, NULL}};

void lied_lua_open_sweep(lua_State *L) { luaL_setfuncs(L, sweep_funcs, 0); }
