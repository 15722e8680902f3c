/* lua_run.c - model:run(opts) and the run options. The list of options
 * (name, type, command-line value, doc) is here and only here: model:run
 * checks every option against it, lied.core.run_options exports it to the
 * command line (lua/lied/cli.lua: parsing, --help) and the REPL (set(),
 * completion, messages). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "binding/binding.h"
#include "binding/run.h"
#include "dist/dist.h"
#include "core/pool.h"
#include "solve/sim.h"

/* Value types of run options. */
enum {
  OPT_NUMBER,   /* any finite number */
  OPT_POSITIVE, /* a positive finite number */
  OPT_INTERVAL, /* a positive finite number or "step" */
  OPT_CLIENTS,  /* a whole number from 0 to MAX_CLIENTS */
  OPT_STRING,
  OPT_OUT,      /* an output spec or a list of them */
  OPT_BOOLEAN,
  OPT_PROGRESS, /* a boolean or "auto" */
  OPT_TABLE,
  OPT_THREADS   /* a whole number from 1 to LIED_THREADS_MAX */
};
static const char *const type_names[] = {
    "number",  "positive number",           "positive number or \"step\"",
    "whole number from 0 to 1024", "string", "string or list of strings",
    "boolean", "boolean or \"auto\"",         "table", "whole number from 1 to 1024"};
_Static_assert(LIED_THREADS_MAX == 1024, "the type name of OPT_THREADS says 1024");
#define MAX_CLIENTS 1024
#define MAX_OUTS LIED_RUN_MAX_OUTS

typedef struct run_option {
  const char *name;
  int type;
  /* The command line's form: the value's name (--dt H); "" for a boolean
   * that is true by default (the flag --no-NAME); NULL: not an option of
   * the command line. */
  const char *arg;
  const char *what; /* positive numbers: what the value is, for messages */
  const char *doc;
} run_option;

/* Every option of a run (and of lied.simulate), in the order of --help. Add
 * new options here; model_run reads them. */
static const run_option options[] = {
    {"start", OPT_NUMBER, "T0", NULL, "start time (default: the model's experiment, else 0)"},
    {"stop", OPT_NUMBER, "T", NULL, "stop time (default: the model's experiment, else 1)"},
    {"solver", OPT_STRING, "NAME", NULL, "the solver, default rk4 (lied.core.solvers())"},
    {"dt", OPT_POSITIVE, "H", "step size",
     "fixed step (default (stop - start) / 1000); adaptive solvers: the first step (default: "
     "estimated)"},
    {"tol", OPT_POSITIVE, "TOL", "tolerance",
     "adaptive solvers: relative and absolute tolerance (default 1e-6); implicit solvers: "
     "also the Newton tolerance"},
    {"rtol", OPT_POSITIVE, "R", "relative tolerance", "the relative tolerance alone"},
    {"atol", OPT_POSITIVE, "A", "absolute tolerance", "the absolute tolerance alone"},
    {"hmax", OPT_POSITIVE, "H", "largest step",
     "adaptive solvers: largest step (default stop - start)"},
    {"interval", OPT_INTERVAL, "DT", "output interval",
     "output interval (default: a multiple of dt near (stop-start)/500; adaptive: "
     "(stop-start)/500); 'step': every accepted step"},
    {"vars", OPT_STRING, "LIST",
     NULL, "comma-separated names or glob patterns (default: all states)"},
    {"out", OPT_OUT, "PATH", NULL,
     "PATH.csv, PATH.mat (MAT v4, Modelica result layout), tcp:[HOST:]PORT (stream rows to "
     "TCP clients; host 127.0.0.1), '-' for CSV on stdout, or 'none'; a list of these (the "
     "command line: repeatable; default '-')"},
    {"clients", OPT_CLIENTS, "N", NULL, "with tcp: wait for N clients before starting"},
    {"fuse", OPT_BOOLEAN, "", NULL,
     "fused steps (default true); false, --no-fuse: fixed-step explicit solvers on models of "
     "independent copies (e.g. n crane crabs) or of coupled arrays (a chain, a pipe) step over "
     "the whole state vector instead of chunk by chunk of copies or in waves over the arrays "
     "(same results; for comparison)"},
    {"lanes", OPT_BOOLEAN, "", NULL,
     "lane forms (default true); false, --no-lanes: fused steps and steps in waves run the "
     "blocks copy by copy instead of in their lane forms over groups of 32 copies (same "
     "results; for comparison)"},
    {"threads", OPT_THREADS, "N", NULL,
     "threads evaluating the model (default: the environment variable LIED_THREADS, else the "
     "number of cores available); models too small to share run on one (same results for "
     "every count)"},
    {"threads_any", OPT_BOOLEAN, NULL, NULL,
     "with threads > 1: share every part of the model that can be shared, whatever its size "
     "(lied run --check: the threaded paths on small models; same results, slower)"},
    {"progress", OPT_PROGRESS, NULL, NULL,
     "progress bar on stderr: true, false or \"auto\" (default: when stderr is a terminal)"},
    {"progress_delay", OPT_NUMBER, NULL, NULL,
     "seconds a run takes before the progress bar shows (default 1)"},
    {"params", OPT_BOOLEAN, NULL, NULL,
     "the model's parameters with the results: MAT files hold them in data_1 (default; "
     "false: not), CSV files as '# name = value [unit]' lines before the header with true "
     "(the command line: --params); at most 100000 values"},
    {"memory", OPT_BOOLEAN, NULL, NULL,
     "default true: keep the rows in memory for the result (out = 'none': false)"},
    {"steady", OPT_STRING, "LIST", NULL,
     "a steady start: the states named (comma-separated names or glob patterns) start at "
     "their steady state, der = 0 solved for them with every other state at its start value "
     "(Modelica's initial equation der(x) = 0; docs/analysis.md); default 'none': every "
     "state at its start value"},
    {"set", OPT_TABLE, "PATH=VALUE", NULL,
     "parameter overrides {path = value} of lied.simulate; the command line: repeatable, "
     "n=1000, crab.body1.m=2"},
};
#define NOPTIONS ((int)(sizeof options / sizeof options[0]))

static const run_option *find_option(const char *name) {
  for (int i = 0; i < NOPTIONS; i++)
    if (strcmp(options[i].name, name) == 0) return &options[i];
  return NULL;
}

/* lied.core.run_options: list of {name, type, arg, doc} (arg: see
 * run_option; absent when the command line has no such option). */
static void push_options(lua_State *L) {
  lua_createtable(L, NOPTIONS, 0);
  for (int i = 0; i < NOPTIONS; i++) {
    const run_option *o = &options[i];
    lua_createtable(L, 0, 4);
    lied_lua_setstr(L, "name", o->name);
    lied_lua_setstr(L, "type", type_names[o->type]);
    if (o->arg) lied_lua_setstr(L, "arg", o->arg);
    lied_lua_setstr(L, "doc", o->doc);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Raise the usage error for an unknown option (the key on the top). */
static int unknown_option(lua_State *L) {
  const char *key = luaL_tolstring(L, -1, NULL);
  const char *names[NOPTIONS];
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; i < NOPTIONS; i++) {
    names[i] = options[i].name;
    if (i) luaL_addstring(&b, ", ");
    luaL_addstring(&b, names[i]);
  }
  luaL_pushresult(&b);
  lied_lua_push_suggestion(L, key, names, NOPTIONS);
  return lied_lua_fail(L, LIED_E_USAGE, "run: unknown option '%s'%s; options: %s", key,
                       lua_tostring(L, -1), lua_tostring(L, -2));
}

/* Check the value (on the top of the stack) of option o. */
static void check_value(lua_State *L, const run_option *o) {
  int t = lua_type(L, -1);
  const char *s = t == LUA_TSTRING ? lua_tostring(L, -1) : "";
  int type_ok;
  switch (o->type) {
    case OPT_NUMBER:
    case OPT_POSITIVE:
    case OPT_CLIENTS:
    case OPT_THREADS: type_ok = t == LUA_TNUMBER; break;
    case OPT_INTERVAL: type_ok = t == LUA_TNUMBER || strcmp(s, "step") == 0; break;
    case OPT_STRING: type_ok = t == LUA_TSTRING; break;
    case OPT_BOOLEAN: type_ok = t == LUA_TBOOLEAN; break;
    case OPT_PROGRESS: type_ok = t == LUA_TBOOLEAN || strcmp(s, "auto") == 0; break;
    case OPT_TABLE: type_ok = t == LUA_TTABLE; break;
    default: return; /* OPT_OUT: run_outputs checks it */
  }
  if (!type_ok)
    lied_lua_fail(L, LIED_E_USAGE, "run: option %s must be a %s, got %s", o->name,
                  type_names[o->type], luaL_typename(L, -1));
  /* the strings whose engine takes NULL for the default: given empty, they
   * are a mistake, and an unknown solver is known now (lied.simulate, the
   * REPL's set check options when they are given; issue 47) */
  lied_err e;
  if ((!strcmp(o->name, "solver") && lied_solver_check(s, &e)) ||
      (!strcmp(o->name, "vars") && lied_recorder_check_list(s, &e)))
    lied_lua_raise(L, &e);
  if (t != LUA_TNUMBER) return;
  double v = lua_tonumber(L, -1);
  /* start, stop, progress_delay: NaN and infinities were kept (the REPL's
   * set("stop", 0/0), a model's experiment, lied_option) and refused at the
   * run, far from where they were given */
  if (o->type == OPT_NUMBER && !isfinite(v))
    lied_lua_fail(L, LIED_E_USAGE, "run: option %s must be a finite number, got %s", o->name,
                  luaL_tolstring(L, -1, NULL));
  if ((o->type == OPT_POSITIVE || o->type == OPT_INTERVAL) && !(v > 0 && isfinite(v)))
    lied_lua_fail(L, LIED_E_USAGE, "run: %s must be positive and finite, got %s", o->what,
                  luaL_tolstring(L, -1, NULL));
  if (o->type == OPT_THREADS && !(v >= 1 && v <= LIED_THREADS_MAX && v == floor(v)))
    lied_lua_fail(L, LIED_E_USAGE, "run: threads must be a whole number from 1 to %d, got %s",
                  LIED_THREADS_MAX, luaL_tolstring(L, -1, NULL));
  if (o->type == OPT_CLIENTS && !(v >= 0 && v <= MAX_CLIENTS && v == floor(v)))
    lied_lua_fail(L, LIED_E_USAGE, "run: clients must be from 0 to %d and whole, got %s",
                  MAX_CLIENTS, luaL_tolstring(L, -1, NULL));
}

/* Every key of the run options must be an option, every value of its type
 * (a misspelt option is an error, not silently ignored). */
static void check_options(lua_State *L, int t) {
  lua_pushnil(L);
  while (lua_next(L, t)) {
    const run_option *o = lua_type(L, -2) == LUA_TSTRING ? find_option(lua_tostring(L, -2)) : NULL;
    if (!o) {
      lua_pop(L, 1);
      unknown_option(L);
    }
    check_value(L, o);
    lua_pop(L, 1);
  }
}

/* Times and steps a run can represent: finite start and stop, and no more
 * than 2^53 steps or output points (beyond that t + dt == t: the run would
 * stand still or never end). */
static void check_run_span(lua_State *L, const lied_sim_opts *o) {
  if (!isfinite(o->start) || !isfinite(o->stop) || !isfinite(o->stop - o->start))
    lied_lua_fail(L, LIED_E_USAGE, "run: the interval [%f, %f] must be finite", o->start,
                  o->stop);
  /* first: an empty interval is that, whatever the step (at 1e20 the step
   * check spoke of the step size: issue 47) */
  if (!(o->stop > o->start)) {
    char msg[128]; /* (lua_pushfstring has no %.17g) */
    snprintf(msg, sizeof msg, "stop time %.17g must be after start time %.17g", o->stop, o->start);
    lied_lua_fail(L, LIED_E_USAGE, "%s", msg);
  }
  double span = o->stop - o->start, lim = 9007199254740992.0; /* 2^53 */
  /* Time must be able to advance: near T = max(|start|, |stop|) doubles are
   * res apart; the span must hold 2^20 of them (a million distinguishable
   * times: otherwise adaptive steps stand still and fixed steps are mostly
   * rounding), every step and output interval 16 of them. Spans below
   * 1e-100 s underflow in the solvers' products of steps. */
  double T = fmax(fabs(o->start), fabs(o->stop));
  double res = nextafter(T, INFINITY) - T;
  char msg[512];
  if (span > 0 && (span < 1048576.0 * res || span < 1e-100)) {
    snprintf(msg, sizeof msg,
             "run: the interval [%.17g, %.17g] is too short to simulate: %s (at least %.3g s "
             "here)",
             o->start, o->stop,
             span < 1e-100 ? "spans below 1e-100 s underflow in the solvers"
                           : "its length is below 2^20 times the resolution of times near its "
                             "ends, so steps could not advance time",
             fmax(1048576.0 * res, 1e-100));
    lied_lua_fail(L, LIED_E_USAGE, "%s", msg);
  }
  const struct { double v; const char *what; } steps[] = {
      {o->dt, "step size (dt)"}, {o->interval, "output interval"}, {o->hmax, "largest step (hmax)"}};
  for (int k = 0; k < 3; k++)
    if (steps[k].v > 0 && steps[k].v < 16.0 * res) {
      snprintf(msg, sizeof msg,
               "run: %s %g cannot advance time near t = %.17g, where times are %g apart (use at "
               "least %g)",
               steps[k].what, steps[k].v, T, res, 16.0 * res);
      lied_lua_fail(L, LIED_E_USAGE, "%s", msg);
    }
  if (o->dt > 0 && span / o->dt > lim)
    lied_lua_fail(L, LIED_E_USAGE,
                  "run: step size %f is too small for the interval [%f, %f] "
                  "(more than 2^53 steps)",
                  o->dt, o->start, o->stop);
  if (o->interval > 0 && span / o->interval > lim)
    lied_lua_fail(L, LIED_E_USAGE,
                  "run: output interval %f is too small for [%f, %f] (more than 2^53 output "
                  "points)",
                  o->interval, o->start, o->stop);
}

/* Checked option values: a number (def when absent), a string or NULL. */
static double num(lua_State *L, int t, const char *k, double def) {
  lua_getfield(L, t, k);
  double v = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : def;
  lua_pop(L, 1);
  return v;
}

static const char *str(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  lua_pop(L, 1);
  return s; /* anchored in the options table */
}

/* -1 when absent (or "auto"), else 0 or 1. */
static int boolean(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  int v = lua_isboolean(L, -1) ? lua_toboolean(L, -1) : -1;
  lua_pop(L, 1);
  return v;
}

/* Output specs of opts.out: a string or a list of strings (issue 7). Fills
 * specs[] (strings anchored in opts) and returns the count without "none",
 * or raises for an invalid spec. */
static int run_outputs(lua_State *L, int t, const char *specs[MAX_OUTS]) {
  int n = 0;
  lua_getfield(L, t, "out");
  if (lua_istable(L, -1)) {
    lua_Integer len = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= len; i++) {
      lua_rawgeti(L, -1, i);
      const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
      lua_pop(L, 1);
      if (!s) lied_lua_fail(L, LIED_E_USAGE, "out[%d] must be a string", (int)i);
      if (n == MAX_OUTS) lied_lua_fail(L, LIED_E_USAGE, "at most %d outputs", MAX_OUTS);
      specs[n++] = s;
    }
  } else if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING)
      lied_lua_fail(L, LIED_E_USAGE, "out must be a string or a list of strings");
    specs[n++] = lua_tostring(L, -1);
  }
  lua_pop(L, 1);
  int k = 0, stdout_at = 0;
  for (int i = 0; i < n; i++) {
    lied_err e;
    int kind = lied_output_check(specs[i], &e);
    if (kind < 0) lied_lua_raise(L, &e);
    /* two CSV streams interleaved on one standard output (files named twice
     * are refused by their lock, lied_output_fopen) */
    if (kind == LIED_OUT_STDOUT && stdout_at)
      lied_lua_fail(L, LIED_E_USAGE,
                    "output '-' is given twice (outputs %d and %d): standard output takes one "
                    "CSV stream", stdout_at, i + 1);
    if (kind == LIED_OUT_STDOUT) stdout_at = i + 1;
    if (kind != LIED_OUT_NONE) specs[k++] = specs[i];
  }
  return k;
}

static void push_stats(lua_State *L, const lied_sim_stats *st) {
  lua_createtable(L, 0, 20);
  lied_lua_setint(L, "steps", (uint64_t)st->steps);
  lied_lua_setint(L, "rhs", (uint64_t)st->rhs);
  lied_lua_setint(L, "rejected", (uint64_t)st->rejected);
  lied_lua_setint(L, "jac_rhs", (uint64_t)st->jac_rhs);
  lied_lua_setint(L, "jacobians", (uint64_t)st->jacobians);
  lied_lua_setint(L, "zero_evals", (uint64_t)st->zero_evals);
  lied_lua_setint(L, "lu", (uint64_t)st->lu);
  lied_lua_setint(L, "newton", (uint64_t)st->newton);
  lied_lua_setint(L, "newton_fails", (uint64_t)st->newton_fails);
  lied_lua_setint(L, "colours", (uint64_t)st->colours);
  lied_lua_setint(L, "jac_nnz", st->jac_nnz);
  lied_lua_setint(L, "outputs", (uint64_t)st->outputs);
  lied_lua_setint(L, "events", (uint64_t)st->events);
  lied_lua_setint(L, "kinks", (uint64_t)st->kinks);
  lied_lua_setint(L, "restarts", (uint64_t)st->restarts);
  lied_lua_setint(L, "factorisations", st->factorisations);
  lied_lua_setnum(L, "t_end", st->t_end);
  lied_lua_setnum(L, "wall", st->wall);
  lied_lua_setbool(L, "interrupted", st->interrupted);
  lied_lua_setbool(L, "fused", st->fused);
  lied_lua_setbool(L, "lanes", st->lanes);
  lied_lua_setint(L, "waves", (uint64_t)st->waves);
  lied_lua_setint(L, "wave_gap", st->wave_gap);
  if (st->no_lanes[0]) lied_lua_setstr(L, "no_lanes", st->no_lanes);
  lied_lua_setint(L, "threads", (uint64_t)st->threads);
  lied_lua_setint(L, "threads_asked", (uint64_t)st->threads_asked);
  lied_lua_setnum(L, "cpu", st->cpu);
}

/* The run options of the table at index t (checked by check_options) as a
 * lied_run_spec for model m; raises a usage error for a span that cannot be
 * simulated, or for what a run under mpirun cannot do. */
static void run_spec(lua_State *L, int t, const lied_model *m, lied_run_spec *sp) {
  memset(sp, 0, sizeof *sp);
  lied_sim_opts *o = &sp->sim;
  o->start = num(L, t, "start", 0);
  o->stop = num(L, t, "stop", 1);
  o->dt = num(L, t, "dt", 0);
  o->every_step = str(L, t, "interval") != NULL; /* a number, or "step" */
  o->interval = num(L, t, "interval", 0);
  o->rtol = o->atol = num(L, t, "tol", 0); /* tol sets both; rtol, atol override */
  o->rtol = num(L, t, "rtol", o->rtol);
  o->atol = num(L, t, "atol", o->atol);
  o->hmax = num(L, t, "hmax", 0);
  o->solver = str(L, t, "solver");
  o->no_fuse = boolean(L, t, "fuse") == 0;
  o->no_lanes = boolean(L, t, "lanes") == 0;
  o->threads = (int)num(L, t, "threads", 0);
  o->par_force = boolean(L, t, "threads_any") == 1;
  sp->vars = str(L, t, "vars");
  sp->steady = str(L, t, "steady");
  if (sp->steady && !strcmp(sp->steady, "none")) sp->steady = NULL; /* the default, named */
  sp->clients = (int)num(L, t, "clients", 0);
  sp->progress_delay = num(L, t, "progress_delay", 1);
  sp->progress = boolean(L, t, "progress"); /* -1: auto */
  sp->params = boolean(L, t, "params");      /* -1: the default */
  sp->memory = boolean(L, t, "memory");
  const char *out1 = str(L, t, "out");
  /* out = "none" records nothing, unless memory = true says to keep the rows */
  if (sp->memory < 0) sp->memory = !(out1 && strcmp(out1, "none") == 0);
  sp->nouts = run_outputs(L, t, sp->outs);
  check_run_span(L, o);
  sp->stop = lied_lua_stop_flag(L);
  /* a slice of an ensemble under mpirun (docs/distributed.md): every rank
   * runs its copies, rank 0 writes the outputs of all; rows are gathered at
   * the same output times on every rank, no rows are kept in memory */
  sp->dist = m->slice_spec && lied_dist_size() > 1;
  if (!sp->dist) return;
  if (sp->steady)
    lied_lua_fail(L, LIED_E_USAGE,
                  "run: steady is not available under mpirun (the ranks solve their states "
                  "apart)");
  if (o->every_step)
    lied_lua_fail(L, LIED_E_USAGE,
                  "run: interval = \"step\" is not available under mpirun (the ranks' steps "
                  "differ); give an output interval");
  lied_err ev; /* state events: refused (docs/distributed.md, "Events") */
  const lied_solver *sv = lied_solver_find(o->solver && *o->solver ? o->solver : "rk4");
  if (lied_dist_check_events(m, sv && sv->adaptive, &ev)) lied_lua_raise(L, &ev);
  sp->memory = 0;
}

/* Are the values at a and b the same override: one value, or numbers that
 * compare equal, or lists of such numbers? */
static int same_override(lua_State *L, int a, int b) {
  a = lua_absindex(L, a), b = lua_absindex(L, b);
  if (lua_rawequal(L, a, b)) return 1;
  if (lua_type(L, a) == LUA_TNUMBER && lua_type(L, b) == LUA_TNUMBER)
    return lua_compare(L, a, b, LUA_OPEQ);
  if (lua_type(L, a) != LUA_TTABLE || lua_type(L, b) != LUA_TTABLE) return 0;
  const lua_Unsigned n = lua_rawlen(L, a);
  if (lua_rawlen(L, b) != n) return 0;
  int same = 1;
  for (lua_Unsigned i = 1; i <= n && same; i++) {
    lua_rawgeti(L, a, (lua_Integer)i);
    lua_rawgeti(L, b, (lua_Integer)i);
    same = lua_type(L, -1) == LUA_TNUMBER && lua_type(L, -2) == LUA_TNUMBER &&
           lua_compare(L, -1, -2, LUA_OPEQ);
    lua_pop(L, 2);
  }
  return same;
}

/* Push the text of an override's value at i: a list as {a, b, ...} (its
 * first 8 values), anything else as tostring gives it. */
static const char *override_text(lua_State *L, int i) {
  i = lua_absindex(L, i);
  if (lua_type(L, i) != LUA_TTABLE) return luaL_tolstring(L, i, NULL);
  luaL_Buffer B;
  luaL_buffinit(L, &B);
  luaL_addchar(&B, '{');
  const lua_Unsigned n = lua_rawlen(L, i);
  for (lua_Unsigned k = 1; k <= n && k <= 8; k++) {
    if (k > 1) luaL_addstring(&B, ", ");
    lua_rawgeti(L, i, (lua_Integer)k);
    luaL_tolstring(L, -1, NULL);
    lua_remove(L, -2);
    luaL_addvalue(&B);
  }
  if (n > 8) luaL_addstring(&B, ", ...");
  luaL_addchar(&B, '}');
  luaL_pushresult(&B);
  return lua_tostring(L, -1);
}

/* The option set on a built model: its overrides took effect when it was
 * built (lied.simulate passes them on, and lied.build recorded them), so
 * every one given must be one it was built with; any other (a new value, a
 * path that does not exist) would be ignored, and is an error. */
static void check_set(lua_State *L, int model, int opts) {
  const int top = lua_gettop(L);
  if (lua_getfield(L, opts, "set") != LUA_TTABLE) {
    lua_settop(L, top);
    return;
  }
  const int set = lua_gettop(L);
  lua_getiuservalue(L, model, 1);
  const int with = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, set)) {
    int same = 0;
    if (lua_type(L, with) == LUA_TTABLE) {
      lua_pushvalue(L, -2);
      lua_gettable(L, with);
      same = same_override(L, -1, -2);
      lua_pop(L, 1);
    }
    if (!same) {
      const char *val = override_text(L, -1);
      const char *key = luaL_tolstring(L, -3, NULL);
      lied_lua_fail(L, LIED_E_USAGE,
                    "run: set: '%s' = %s is not an override this model was built with; "
                    "overrides take effect when a model is built: lied.simulate(model, {set = "
                    "{...}}), lied.build(model, overrides), the REPL's run{set = {...}}",
                    key, val);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, top);
}

/* model:run(opts) -> result, stats: the options are those of the table
 * `options` above, the run is assembled in C (run.c). Invalid options raise
 * a usage error before anything is opened or run; a failure before the
 * simulation raises; a failure of the simulation returns result-so-far,
 * stats, message. */
static int model_run(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  check_options(L, 2);
  check_set(L, 1, 2);
  lied_run_spec spec;
  run_spec(L, 2, u->sys->model, &spec);
  lresult *res = lied_lua_newresult(L);
  lied_run_out out;
  lied_err e = {0};
  const int rc = lied_run_system(u->sys, &spec, &out, &e);
  res->mem = out.mem;
  if (rc == LIED_WALK_STOPPED) { /* Ctrl-C while a pattern walked the names */
    lied_lua_check_stop(L, "run (choosing the variables to record)", out.names);
    return lied_lua_fail(L, LIED_ERROR, "run: interrupted (choosing the variables to record)");
  }
  if (rc && (!out.ran || rc == LIED_E_USAGE)) return lied_lua_raise(L, &e);
  push_stats(L, &out.stats);
  if (spec.steady) {
    lied_lua_setint(L, "steady_states", (uint64_t)out.start.free);
    lied_lua_setint(L, "steady_steps", (uint64_t)out.start.steps);
    lied_lua_setint(L, "steady_rhs", (uint64_t)out.start.rhs);
    lied_lua_setnum(L, "steady_residual", out.start.residual);
    lied_lua_setnum(L, "steady_wall", out.start_wall);
  }
  if (out.stats.interrupted && out.signal) lied_lua_setint(L, "signal", (uint64_t)out.signal);
  if (rc) {
    lua_pushstring(L, e.msg);
    return 3;
  }
  return 2;
}

const luaL_Reg lied_lua_run_methods[] = {{"run", model_run}, {NULL, NULL}};

/* lied.core.check_run_options(t) -> true: the checks of model:run on the
 * names and values of t (a usage error), without running; for options kept
 * for later (lied.simulate, the REPL's set). */
static int check_run_options(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  check_options(L, 1);
  const char *outs[MAX_OUTS];
  run_outputs(L, 1, outs);
  lua_pushboolean(L, 1);
  return 1;
}

void lied_lua_open_run(lua_State *L) {
  push_options(L);
  lua_setfield(L, -2, "run_options");
  lua_pushcfunction(L, check_run_options);
  lua_setfield(L, -2, "check_run_options");
}
