/* lua_dist.c - the processes of a run under mpirun, for the command line
 * (lua/lied/cli.lua; docs/distributed.md): lied.core.mpi() -> {rank, size,
 * built}, lied.core.mpi_abort(status). */
#include "binding/binding.h"
#include "dist/dist.h"

/* lied.core.mpi() -> {rank = r (0-based), size = P, built = lied has MPI} */
static int core_mpi(lua_State *L) {
  lua_createtable(L, 0, 3);
  lied_lua_setint(L, "rank", (uint64_t)lied_dist_rank());
  lied_lua_setint(L, "size", (uint64_t)lied_dist_size());
  lied_lua_setbool(L, "built", lied_dist_built());
  return 1;
}

/* lied.core.mpi_abort(status): end every process of the run (MPI_Abort)
 * with the exit status; with one process, exit. */
static int core_mpi_abort(lua_State *L) {
  lua_Integer code = luaL_checkinteger(L, 1);
  lied_dist_abort(code >= 0 && code <= 255 ? (int)code : 1);
}

static const luaL_Reg dist_funcs[] = {{"mpi", core_mpi}, {"mpi_abort", core_mpi_abort},
                                      {NULL, NULL}};

void lied_lua_open_dist(lua_State *L) {
  luaL_setfuncs(L, dist_funcs, 0);
  lied_lua_open_sweep(L);
}
