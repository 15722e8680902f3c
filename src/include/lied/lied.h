/* lied/lied.h - simulate lied models from C: the embedding API. No Lua
 * knowledge needed: a context holds the model (a Lua file or string, as for
 * `lied run`), its parameter overrides, its run options and the last
 * result. Every function that can fail returns a lied_status (lied/status.h:
 * LIED_OK is 0, failures are negative) and keeps the message, which
 * lied_errmsg returns. Link with pkg-config lied, or lied::lied in CMake.
 *
 *   lied_ctx *c;
 *   if (lied_open(&c) != LIED_OK) return 1;
 *   if (lied_load_file(c, "vessels.lua") || lied_set(c, "p1.L", 4000) ||
 *       lied_build(c) || lied_option(c, "stop", "100") || lied_run(c)) {
 *     fprintf(stderr, "%s\n", lied_errmsg(c));
 *   } else {
 *     const double *t, *level; size_t n;
 *     lied_result(c, "time", &t, &n);
 *     lied_result(c, "t1.level", &level, &n);
 *   }
 *   lied_close(c);
 *
 * A context is used by one thread at a time; contexts are independent.
 *
 * Every entry point checks its arguments: a NULL or empty argument is
 * LIED_E_USAGE with a message naming the call and the argument ("lied_set:
 * name is NULL"); with a NULL context there is nowhere to keep a message
 * (lied_errmsg(NULL) says so). Models are Lua source text: a precompiled or
 * corrupted chunk is refused (LIED_E_MODEL). No call is quadratic in the
 * model's size: reading every name, column and value of a result is linear
 * in the number of columns. */
#ifndef LIED_LIED_H
#define LIED_LIED_H
#include <stddef.h>
#include "lied/status.h"
#include "lied/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lied_ctx lied_ctx;

/* A new context in *ctx: LIED_OK; LIED_E_USAGE for ctx NULL; LIED_E_NOMEM
 * (*ctx NULL); LIED_ERROR when lied's Lua files are not found (an
 * install's share/lua/5.4/lied, found relative to liblied, LIED_LUA_DIR or
 * LUA_PATH): *ctx then holds a context whose lied_errmsg says why and whose
 * other calls refuse with that reason; close it. */
lied_status lied_open(lied_ctx **ctx);
void lied_close(lied_ctx *ctx);

/* The message of the last failure ("" after a success). Valid until the
 * next call on ctx. For ctx NULL, a message saying so. */
const char *lied_errmsg(const lied_ctx *ctx);

/* Load a model: a Lua file, or Lua source (chunkname names it in messages),
 * that returns a model (lied.model "Name" {...}). The file's directory is
 * searched first by its `require`s. Forgets overrides, options, the built
 * model and results of a previous model. */
lied_status lied_load_file(lied_ctx *ctx, const char *path);
lied_status lied_load_string(lied_ctx *ctx, const char *source, const char *chunkname);

/* Override a parameter before lied_build ("n", "crab.body1.m"; as --set). */
lied_status lied_set(lied_ctx *ctx, const char *name, double value);

/* Instantiate and schedule the model with the overrides (structural errors
 * are reported here, with component paths). */
lied_status lied_build(lied_ctx *ctx);

/* Set a run option by name, its value written as on the command line
 * (lied run --help): "stop" "5", "solver" "esdirk23", "dt" "1e-3",
 * "vars" "t1.*,t2.level", "out" "run.mat", "fuse" "false"; "out" is
 * repeatable like the command line's --out (each call adds an output), the
 * others take the last value. Unknown options, malformed values (a number
 * that is not finite, an output that is neither a .csv or .mat file, tcp:,
 * '-' nor 'none', '-' twice) and values given empty ("solver" "") are
 * LIED_E_USAGE, here rather than at the run, and leave the options as they
 * were; so is any option before a model is loaded. Options default to the
 * model's experiment table. */
lied_status lied_option(lied_ctx *ctx, const char *name, const char *value);

/* Run the built model (lied_build first; building is done here when it was
 * not). The rows are kept in memory for lied_result. On a failure during
 * the run the rows up to it are kept and the status says what failed. */
lied_status lied_run(lied_ctx *ctx);

/* The recorded column `name` ("time", or a variable name as in `lied vars`)
 * of the last run: *values (owned by ctx, valid until the next lied_run,
 * lied_load_* or lied_close) and *n rows. LIED_E_USAGE when not recorded. */
lied_status lied_result(lied_ctx *ctx, const char *name, const double **values, size_t *n);

/* The names of the recorded columns of the last run, time excluded: the
 * i-th (0-based), or NULL past the end. */
const char *lied_result_name(lied_ctx *ctx, size_t i);

/* The current value of any variable of the built model (after a run: at
 * its end). */
lied_status lied_value(lied_ctx *ctx, const char *name, double *value);

/* lied's version, "0.1.0". */
const char *lied_version(void);

#ifdef __cplusplus
}
#endif
#endif
