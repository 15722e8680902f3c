/* binding.h - what the files of the Lua binding (module lied.core) share:
 * the userdata types, the one error mapping, small helpers. Private to
 * src/binding; the host's interface is lua_lied.h.
 *
 *   lua_class.c    C classes and component libraries
 *   lua_build.c    models: lied.core.build, the model userdata
 *   lua_inspect.c  model:info, vars, value, derivatives
 *   lua_run.c      model:run and the run options (lied.core.run_options)
 *   lua_analysis.c model:steady, linearize, params (src/analysis)
 *   lua_result.c   results of runs
 *   lua_table.c    tables and maps (lied.table)
 *   lua_error.c    error objects (kind "usage" or "model")
 *   lua_dist.c     the processes of a run under mpirun (src/dist)
 *   lua_module.c   lied_lua_open_core and the module's other functions */
#ifndef LIED_BINDING_BINDING_H
#define LIED_BINDING_BINDING_H
#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include "sched/system.h"
#include "core/err.h"
#include "binding/lua_lied.h"
#include "record/recorder.h"

/* Metatable names (also each type's __name). */
#define CLASS_MT "lied.Class"
#define MODEL_MT "lied.Model"
#define RESULT_MT "lied.Result"
#define ERROR_MT "lied.Error"
#define TABLE_MT "lied.Table"

/* ---- errors (lua_error.c) ------------------------------------------------ */

/* The one mapping of a lied_status to a Lua error: an error object (a table
 * with metatable lied.Error) {kind = "usage" for LIED_E_USAGE, else "model",
 * msg = the message, status = lied_status_name(code)}, whose __tostring is
 * msg. Pushes it. */
void lied_lua_push_error(lua_State *L, int code, const char *msg);
/* Raise the engine error e (its code and message). Does not return. */
int lied_lua_raise(lua_State *L, const lied_err *e);
/* Raise a formatted message (lua_pushfstring formats) with the given code
 * and no position prefix. Does not return. */
int lied_lua_fail(lua_State *L, int code, const char *fmt, ...);
/* " (did you mean 'x'?)" or "" for the closest of n candidates to name
 * (lied_suggest), pushed on the stack. */
void lied_lua_push_suggestion(lua_State *L, const char *name, const char *const *cand, int n);
/* The host's stop flag (SIGINT in the REPL and the CLI, a fuzzer's
 * watchdog), or NULL (lua_lied.h, lied_lua_new). */
volatile sig_atomic_t *lied_lua_stop_flag(lua_State *L);
/* Listings that walk every instance (vars, params) call this every few
 * thousand names: when the flag is set, it is consumed (as a run consumes
 * it) and "what: interrupted (n names so far)" raised. */
void lied_lua_check_stop(lua_State *L, const char *what, int64_t n);
/* The metatable of error objects and lied.core.error(kind, msg). */
void lied_lua_open_errors(lua_State *L);
int lied_lua_core_error(lua_State *L);
int lied_lua_core_errtext(lua_State *L);

/* ---- userdata ------------------------------------------------------------ */

typedef struct lmodel {
  lied_system *sys; /* built: sys->sched is set */
} lmodel;

typedef struct lresult {
  lied_memsink *mem;
} lresult;

/* A built model at idx (raises when freed). */
lmodel *lied_lua_checkmodel(lua_State *L, int idx);
lresult *lied_lua_checkresult(lua_State *L, int idx);
/* A new result userdata (nothing recorded yet) on the stack. */
lresult *lied_lua_newresult(lua_State *L);

/* A metatable `name` with __name, methods as __index (and field "methods"),
 * __gc and __close (when gc), __tostring. */
void lied_lua_newtype(lua_State *L, const char *name, const luaL_Reg *methods,
                      lua_CFunction gc, lua_CFunction tostr);

/* t[k] = v for the table t on the top of the stack. */
void lied_lua_setint(lua_State *L, const char *k, uint64_t v);
void lied_lua_setnum(lua_State *L, const char *k, double v);
void lied_lua_setbool(lua_State *L, const char *k, int v);
void lied_lua_setstr(lua_State *L, const char *k, const char *v);

/* Per-file parts of the module (each adds its functions to the table on the
 * top of the stack, and makes its metatables). */
void lied_lua_open_classes(lua_State *L);
void lied_lua_open_build(lua_State *L);
void lied_lua_open_results(lua_State *L);
void lied_lua_open_run(lua_State *L);
void lied_lua_open_dist(lua_State *L);
void lied_lua_open_tables(lua_State *L);
/* The table (lied/table.h) of a lied.Table at idx, or NULL. */
struct lied_table *lied_lua_totable(lua_State *L, int idx);
/* The value of a table parameter whose field is at `at`, for listings: a
 * string describing the table ("table cycle.csv: speed (1801 points, ...)"). */
void lied_lua_push_table_param(lua_State *L, const void *at);
/* lua_sweep.c: what lied.sweep moves between ranks (called by open_dist) */
void lied_lua_open_sweep(lua_State *L);
/* The model methods of lua_inspect.c, lua_run.c and lua_analysis.c. */
extern const luaL_Reg lied_lua_inspect_methods[];
extern const luaL_Reg lied_lua_run_methods[];
extern const luaL_Reg lied_lua_analysis_methods[];

#endif
