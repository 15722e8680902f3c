/* lua_analysis.c - analysis of a built model (src/analysis): model:steady
 * (der(x) = 0 by pseudo-transient continuation), model:linearize (A, B, C,
 * D and eigenvalues) and model:params (parameters of the instances with
 * their values). Every option is checked here; errors go through the one
 * mapping of lua_error.c (a bad name or value is a usage error, a failed
 * solve a model error). docs/analysis.md describes the methods. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analysis.h"
#include "binding/binding.h"
#include "core/text.h"
#include "solve/events.h"

#define NAME_MAX_LEN 512

/* Every key of the options table t must be one of names (NULL-terminated). */
static void check_keys(lua_State *L, int t, const char *what, const char *const *names) {
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int found = 0, n = 0;
    for (; names[n]; n++)
      if (k && strcmp(k, names[n]) == 0) found = 1;
    if (!found) {
      const char *key = luaL_tolstring(L, -1, NULL);
      lied_lua_push_suggestion(L, key, names, n);
      luaL_Buffer b;
      luaL_buffinit(L, &b);
      for (int i = 0; i < n; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, names[i]);
      }
      luaL_pushresult(&b);
      lied_lua_fail(L, LIED_E_USAGE, "%s: unknown option '%s'%s; options: %s", what, key,
                    lua_tostring(L, -2), lua_tostring(L, -1));
    }
  }
}

/* An optional finite number field (def when absent). */
static double opt_finite(lua_State *L, int t, const char *what, const char *k, double def,
                         int positive) {
  lua_getfield(L, t, k);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  double v = lua_tonumber(L, -1);
  if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v) || (positive && !(v > 0)))
    lied_lua_fail(L, LIED_E_USAGE, "%s: %s must be a %sfinite number, got %s", what, k,
                  positive ? "positive " : "", luaL_tolstring(L, -1, NULL));
  lua_pop(L, 1);
  return v;
}

/* The states the analysis starts from, into x: the start values, or with
 * opts.at = T the states at T of a run from the start (opts.run: its run
 * options, such as the model's experiment; out and memory are off). *t is
 * the model time of the analysis: opts.t, else T, else run.start, else 0. */
static void initial_states(lua_State *L, int self, int t, const char *what, lmodel *u,
                           double *x, double *time) {
  lied_sched *s = u->sys->sched;
  lua_getfield(L, t, "run");
  int has_run = !lua_isnil(L, -1);
  if (has_run && !lua_istable(L, -1))
    lied_lua_fail(L, LIED_E_USAGE, "%s: run must be a table of run options, got %s", what,
                  luaL_typename(L, -1));
  int run = lua_gettop(L);
  double start = has_run ? opt_finite(L, run, what, "start", 0, 0) : 0;
  lua_getfield(L, t, "at");
  int has_at = !lua_isnil(L, -1);
  lua_pop(L, 1);
  double at = opt_finite(L, t, what, "at", start, 0);
  if (has_at && at < start)
    lied_lua_fail(L, LIED_E_USAGE, "%s: at = %f is before the start of the run (%f)", what, at,
                  start);
  *time = opt_finite(L, t, what, "t", has_at ? at : start, 0);
  if (!has_at || at == start) {
    lied_sched_reset_states(s);
    lied_sched_gather_x(s, x);
    lied_err e = {0};
    if (lied_events_initial(s, *time, x, &e)) lied_lua_fail(L, e.code, "%s: %s", what, e.msg);
    lua_pop(L, 1);
    return;
  }
  /* self:run{run..., stop = at, out = "none", memory = false} */
  lua_getfield(L, self, "run");
  lua_pushvalue(L, self);
  lua_newtable(L);
  if (has_run) {
    lua_pushnil(L);
    while (lua_next(L, run)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, -4);
    }
  }
  lua_pushnumber(L, at);
  lua_setfield(L, -2, "stop");
  lua_pushliteral(L, "none");
  lua_setfield(L, -2, "out");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "memory");
  lua_call(L, 2, 3);
  if (!lua_isnil(L, -1))
    lied_lua_fail(L, LIED_E_SOLVER, "%s: the run to at = %f failed: %s", what, at,
                  luaL_tolstring(L, -1, NULL));
  lua_getfield(L, -2, "interrupted");
  if (lua_toboolean(L, -1))
    lied_lua_fail(L, LIED_E_SOLVER, "%s: the run to at = %f was interrupted", what, at);
  lua_pop(L, 5);
  lied_sched_gather_x(s, x);
}

/* The state vector's names as a list (on the stack). */
static void push_state_names(lua_State *L, const lied_sched *s) {
  lua_createtable(L, (int)s->nstates, 0);
  for (uint64_t i = 0; i < s->nstates; i++) {
    char name[NAME_MAX_LEN];
    lied_sched_state_name(s, i, name, sizeof name);
    lua_pushstring(L, name);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

/* A string or a list of strings at field k (pushed as a list), or nil. */
static int names_field(lua_State *L, int t, const char *what, const char *k) {
  lua_getfield(L, t, k);
  if (lua_isnil(L, -1)) return 0;
  if (lua_type(L, -1) == LUA_TSTRING) {
    lua_createtable(L, 1, 0);
    lua_insert(L, -2);
    lua_rawseti(L, -2, 1);
  }
  if (!lua_istable(L, -1))
    lied_lua_fail(L, LIED_E_USAGE, "%s: %s must be a name or a list of names, got %s", what, k,
                  luaL_typename(L, -1));
  lua_Integer n = luaL_len(L, -1);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    if (lua_type(L, -1) != LUA_TSTRING)
      lied_lua_fail(L, LIED_E_USAGE, "%s: %s[%d] must be a string, got %s", what, k, (int)i,
                    luaL_typename(L, -1));
    lua_pop(L, 1);
  }
  return (int)n;
}

/* A variable's address; a usage error naming the option when unknown. */
static const double *var_addr(lua_State *L, lmodel *u, const char *what, const char *k,
                              const char *name) {
  lied_err e;
  const double *a = lied_model_var(u->sys->model, name, NULL, &e);
  if (!a) lied_lua_fail(L, LIED_E_USAGE, "%s: %s: %s", what, k, e.msg);
  return a;
}

/* Argument 2 of steady and linearize: a table of options (an empty one
 * when absent) with only the keys named. */
static void options_arg(lua_State *L, const char *what, const char *const *keys) {
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_newtable(L);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  check_keys(L, 2, what, keys);
}

static const char *const steady_keys[] = {"fixed", "at", "run", "t", "tol", "maxit", NULL};

/* fixed = {names} of steady's table at idx: the states' indices, in a
 * userdata on the stack (NULL and 0 when none). */
static uint64_t *steady_fixed(lua_State *L, lmodel *u, int idx, const char *what, int *nfixed) {
  *nfixed = names_field(L, idx, what, "fixed");
  if (!*nfixed) return NULL;
  int list = lua_gettop(L);
  uint64_t *fixed = lua_newuserdatauv(L, sizeof *fixed * (size_t)*nfixed, 0);
  for (int i = 0; i < *nfixed; i++) {
    lua_rawgeti(L, list, i + 1);
    const char *name = lua_tostring(L, -1);
    const double *a = var_addr(L, u, what, "fixed", name);
    lied_err e;
    if (lied_state_index(u->sys->sched, a, name, &fixed[i], &e))
      lied_lua_fail(L, LIED_E_USAGE, "steady: fixed: %s", e.msg);
    lua_pop(L, 1);
  }
  return fixed;
}

/* The result of steady: t, names, values (a list) and states (by name) of
 * the steady state x, the statistics. */
static void push_steady(lua_State *L, const lied_sched *s, double t, const double *x,
                        const lied_steady_stats *st) {
  const size_t n = (size_t)s->nstates;
  lua_createtable(L, 0, 8);
  lied_lua_setnum(L, "t", t);
  push_state_names(L, s);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "names");
  int names = lua_gettop(L);
  lua_createtable(L, (int)n, 0);
  lua_createtable(L, 0, (int)n);
  for (size_t i = 0; i < n; i++) {
    lua_pushnumber(L, x[i]);
    lua_rawseti(L, -3, (lua_Integer)i + 1);
    lua_rawgeti(L, names, (lua_Integer)i + 1);
    lua_pushnumber(L, x[i]);
    lua_settable(L, -3);
  }
  lua_setfield(L, names - 1, "states");
  lua_setfield(L, names - 1, "values");
  lua_pop(L, 1);
  lied_lua_setnum(L, "residual", st->residual);
  lied_lua_setint(L, "steps", (uint64_t)st->steps);
  lied_lua_setint(L, "rejected", (uint64_t)st->rejected);
  lied_lua_setint(L, "rhs", (uint64_t)st->rhs);
  lied_lua_setint(L, "pivotings", (uint64_t)st->pivotings);
  lied_lua_setint(L, "jacobians", (uint64_t)st->jacobians);
}

/* model:steady{fixed = {names}, at = T, run = {run options}, t = T, tol,
 * maxit} -> {t, names = {...}, values = {...}, states = {name = value},
 * residual, steps, rejected, rhs, pivotings, jacobians} */
static int model_steady(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  lied_sched *s = u->sys->sched;
  const char *what = "steady";
  options_arg(L, what, steady_keys);
  lied_steady_opts o = {0};
  o.rtol = o.atol = opt_finite(L, 2, what, "tol", 0, 1);
  lua_getfield(L, 2, "maxit");
  if (!lua_isnil(L, -1)) {
    lua_Integer m = lua_tointeger(L, -1);
    if (!lua_isinteger(L, -1) || m < 1 || m > 1000000)
      lied_lua_fail(L, LIED_E_USAGE, "steady: maxit must be a whole number from 1 to 1000000, got %s",
                    luaL_tolstring(L, -1, NULL));
    o.maxit = (int)m;
  }
  lua_pop(L, 1);
  /* work space as userdata: freed by the GC when an error unwinds */
  double *x = lua_newuserdatauv(L, sizeof(double) * ((size_t)s->nstates + 1), 0);
  o.fixed = steady_fixed(L, u, 2, what, &o.nfixed);
  initial_states(L, 1, 2, what, u, x, &o.t);
  lied_steady_stats st;
  lied_err e;
  o.stop = lied_lua_stop_flag(L);
  int rc = lied_steady(s, &o, x, &st, &e);
  if (rc && o.stop && *o.stop) *o.stop = 0; /* consumed: the error says so */
  if (rc) return lied_lua_raise(L, &e);
  push_steady(L, s, o.t, x, &st);
  return 1;
}

/* The address of a parameter of an instance, "src.value" (scalars only). */
static double *input_addr(lua_State *L, lmodel *u, const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name || !dot[1])
    lied_lua_fail(L, LIED_E_USAGE,
                  "linearize: input '%s' must name a parameter of a component, such as "
                  "\"src.value\"",
                  name);
  lua_pushlstring(L, name, (size_t)(dot - name));
  const char *comp = lua_tostring(L, -1);
  int spec;
  uint64_t inst;
  const char *rest;
  lied_err e;
  if (lied_model_find(u->sys->model, comp, &spec, &inst, &rest, &e))
    lied_lua_fail(L, LIED_E_USAGE, "linearize: input '%s': %s", name, e.msg);
  const lied_spec *sp = &u->sys->model->specs[spec];
  const lied_param *p = rest[0] ? NULL : lied_class_param(sp->cls, dot + 1);
  if (!p) {
    const char *cand[64];
    int nc = 0;
    for (int i = 0; i < sp->cls->nparams && nc < 64; i++) cand[nc++] = sp->cls->params[i].name;
    lied_lua_push_suggestion(L, dot + 1, cand, nc);
    lied_lua_fail(L, LIED_E_USAGE, "linearize: input '%s': %s (%s) has no parameter '%s'%s",
                  name, comp, sp->cls->name, dot + 1, lua_tostring(L, -1));
  }
  if (p->flags & LIED_PARAM_TABLES)
    lied_lua_fail(L, LIED_E_USAGE, "linearize: input '%s' is a table parameter; inputs are scalars",
                  name);
  if (p->len > 1)
    lied_lua_fail(L, LIED_E_USAGE,
                  "linearize: input '%s' is a vector parameter (%d values); inputs are scalars",
                  name, p->len);
  /* an int is 4 bytes: perturbed as a double it took the next field with it (a
   * refrigeration Compressor's shaft = 0 read its flange's NULL pointer: SIGSEGV) */
  if (p->flags & LIED_PARAM_INT)
    lied_lua_fail(L, LIED_E_USAGE,
                  "linearize: input '%s' is a whole-number parameter (a choice of structure or "
                  "mode); inputs are real parameters",
                  name);
  /* a state's start value: the state itself, which every evaluation sets from x */
  for (int i = 0; i < sp->tpl.nstates; i++)
    if (sp->tpl.states[i].x == p->offset)
      lied_lua_fail(L, LIED_E_USAGE,
                    "linearize: input '%s' is the start value of the state %s.%s, whose "
                    "derivatives are A's column; inputs are parameters",
                    name, comp, sp->tpl.vars[sp->tpl.states[i].var].name);
  lua_pop(L, 1);
  return (double *)(void *)(lied_inst(sp, inst) + p->offset);
}

/* rows x cols row-major matrix m as a list of rows. */
static void push_matrix(lua_State *L, const double *m, uint64_t rows, uint64_t cols) {
  lua_createtable(L, (int)rows, 0);
  for (uint64_t i = 0; i < rows; i++) {
    lua_createtable(L, (int)cols, 0);
    for (uint64_t j = 0; j < cols; j++) {
      lua_pushnumber(L, m[i * cols + j]);
      lua_rawseti(L, -2, (lua_Integer)j + 1);
    }
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

static const char *const lin_keys[] = {"inputs", "outputs", "at", "run", "t", "eig", NULL};

/* Free the lied_linear of a userdata (error unwinding or the end). */
static int linear_gc(lua_State *L) {
  lied_linear_free(lua_touserdata(L, 1));
  return 0;
}

/* The inputs (parameters) and outputs (variables) named by the table at
 * idx of linearize: their name lists pushed (at *inl and *outl) and their
 * addresses, in userdata pushed after them. */
static void lin_signals(lua_State *L, lmodel *u, int idx, const char *what, int *ni, int *no,
                        int *inl, int *outl, double ***in, const double ***outs) {
  *ni = names_field(L, idx, what, "inputs");
  if (!*ni) lua_newtable(L);
  *inl = lua_gettop(L);
  *no = names_field(L, idx, what, "outputs");
  if (!*no) lua_newtable(L);
  *outl = lua_gettop(L);
  *in = lua_newuserdatauv(L, sizeof **in * (size_t)(*ni + 1), 0);
  *outs = lua_newuserdatauv(L, sizeof **outs * (size_t)(*no + 1), 0);
  for (int i = 0; i < *ni; i++) {
    lua_rawgeti(L, *inl, i + 1);
    (*in)[i] = input_addr(L, u, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  for (int i = 0; i < *no; i++) {
    lua_rawgeti(L, *outl, i + 1);
    (*outs)[i] = var_addr(L, u, what, "outputs", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
}

/* {v[0], ..., v[n - 1]} pushed. */
static void push_list(lua_State *L, const double *v, uint64_t n) {
  lua_createtable(L, (int)n, 0);
  for (uint64_t i = 0; i < n; i++) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

/* The eigenvalues re[i] + i im[i] as {{re, im}, ...}, pushed. */
static void push_eigenvalues(lua_State *L, const double *re, const double *im, uint64_t n) {
  lua_createtable(L, (int)n, 0);
  for (uint64_t i = 0; i < n; i++) {
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, re[i]);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, im[i]);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

/* The entries where the model is not smooth: a list of {matrix, row,
 * column (names), kind ("kink" or "second derivative"), forward, backward}
 * (the states' names at the top of the stack; inl, outl: the inputs' and
 * outputs' name lists). */
static void push_nonsmooth(lua_State *L, const lied_linear *lin, int inl, int outl) {
  int states = lua_gettop(L) + 1;
  lua_getfield(L, -1, "states");
  lua_createtable(L, (int)lin->nns, 0);
  for (uint64_t k = 0; k < lin->nns; k++) {
    const lied_nonsmooth *q = &lin->ns[k];
    const int rows = q->matrix == 'A' || q->matrix == 'B' ? states : outl;
    const int cols = q->matrix == 'A' || q->matrix == 'C' ? states : inl;
    lua_createtable(L, 0, 6);
    lua_pushlstring(L, &q->matrix, 1);
    lua_setfield(L, -2, "matrix");
    lua_rawgeti(L, rows, (lua_Integer)q->row + 1);
    lua_setfield(L, -2, "row");
    lua_rawgeti(L, cols, (lua_Integer)q->col + 1);
    lua_setfield(L, -2, "column");
    lua_pushstring(L, q->kind == LIED_KINK ? "kink" : "second derivative");
    lua_setfield(L, -2, "kind");
    lied_lua_setnum(L, "forward", q->fwd);
    lied_lua_setnum(L, "backward", q->bwd);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  lua_remove(L, states);
}

/* The result of linearize at (t, x): the states, the inputs and outputs
 * (name lists at inl, outl), A, B, C, D, y0, the eigenvalues (re: NULL
 * when not asked for), the right-hand sides evaluated. */
static void push_linear(lua_State *L, const lied_sched *s, double t, const double *x, int inl,
                        int outl, const lied_linear *lin, int ni, int no, const double *re,
                        const double *im) {
  const uint64_t n = s->nstates;
  lua_createtable(L, 0, 14);
  lied_lua_setnum(L, "t", t);
  push_state_names(L, s);
  lua_setfield(L, -2, "states");
  push_list(L, x, n);
  lua_setfield(L, -2, "x");
  lua_pushvalue(L, inl);
  lua_setfield(L, -2, "inputs");
  lua_pushvalue(L, outl);
  lua_setfield(L, -2, "outputs");
  push_matrix(L, lin->A, n, n);
  lua_setfield(L, -2, "A");
  push_matrix(L, lin->B, n, (uint64_t)ni);
  lua_setfield(L, -2, "B");
  push_matrix(L, lin->C, (uint64_t)no, n);
  lua_setfield(L, -2, "C");
  push_matrix(L, lin->D, (uint64_t)no, (uint64_t)ni);
  lua_setfield(L, -2, "D");
  push_list(L, lin->y0, (uint64_t)no);
  lua_setfield(L, -2, "y0");
  if (re) {
    push_eigenvalues(L, re, im, n);
    lua_setfield(L, -2, "eigenvalues");
  }
  push_nonsmooth(L, lin, inl, outl);
  lua_setfield(L, -2, "nonsmooth");
  lied_lua_setint(L, "rhs", (uint64_t)lin->rhs);
}

/* model:linearize{inputs = {params}, outputs = {vars}, at = T, run = {...},
 * t = T, eig = true} -> {t, states, x, inputs, outputs, A, B, C, D, y0,
 * eigenvalues = {{re, im}, ...}, nonsmooth = {...}, rhs} */
static int model_linearize(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  lied_sched *s = u->sys->sched;
  const char *what = "linearize";
  options_arg(L, what, lin_keys);
  lua_getfield(L, 2, "eig");
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    lied_lua_fail(L, LIED_E_USAGE, "linearize: eig must be a boolean, got %s",
                  luaL_typename(L, -1));
  int want_eig = lua_isnil(L, -1) || lua_toboolean(L, -1);
  lua_pop(L, 1);
  uint64_t n = s->nstates;
  if (n > LIED_LINEAR_MAX)
    return lied_lua_fail(L, LIED_E_LIMIT,
                         "linearize: %I states; at most %d for dense matrices (LIED_LINEAR_MAX)",
                         (lua_Integer)n, LIED_LINEAR_MAX);
  int ni, no, inl, outl;
  double **in;
  const double **outs;
  lin_signals(L, u, 2, what, &ni, &no, &inl, &outl, &in, &outs);
  double *x = lua_newuserdatauv(L, sizeof(double) * ((size_t)n + 1), 0);
  double t;
  initial_states(L, 1, 2, what, u, x, &t);
  lied_linear *lin = lua_newuserdatauv(L, sizeof *lin, 0);
  memset(lin, 0, sizeof *lin);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, linear_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lied_err e;
  volatile sig_atomic_t *stop = lied_lua_stop_flag(L);
  int rc = lied_linearize(s, t, x, in, ni, outs, no, stop, lin, &e);
  if (rc && stop && *stop) *stop = 0; /* consumed: the error says so */
  if (rc) return lied_lua_raise(L, &e);
  double *re = NULL, *im = NULL;
  if (want_eig) {
    re = lua_newuserdatauv(L, sizeof(double) * 2 * ((size_t)n + 1), 0);
    im = re + n + 1;
    if (lied_eigenvalues(n, lin->A, re, im, &e)) return lied_lua_raise(L, &e);
  }
  push_linear(L, s, t, x, inl, outl, lin, ni, no, re, im);
  return 1;
}

/* model:params([pattern [, limit]]) -> list of {name, value, unit, doc}
 * (value a number or, for vector parameters, a list), the parameters of
 * every instance matching the glob, at most limit (default 10000), and
 * the number that matched in all; interrupted by the stop flag. */
static int model_params(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  const char *pat = luaL_optstring(L, 2, NULL);
  lua_Integer limit = luaL_optinteger(L, 3, 10000);
  const lied_model *m = u->sys->model;
  lua_newtable(L);
  lua_Integer k = 0, matched = 0;
  char path[NAME_MAX_LEN], name[2 * NAME_MAX_LEN];
  for (int si = 0; si < m->nspecs; si++) {
    const lied_spec *sp = &m->specs[si];
    if (!sp->cls || sp->internal || !sp->arena) continue;
    for (uint64_t i = 0; i < sp->total; i++) {
      if (i % 1024 == 1023) lied_lua_check_stop(L, "params", matched);
      lied_model_path(m, si, i, path, sizeof path);
      for (int p = 0; p < sp->cls->nparams; p++) {
        const lied_param *pr = &sp->cls->params[p];
        snprintf(name, sizeof name, "%s.%s", path, pr->name);
        if (pat && !lied_glob(pat, name)) continue;
        matched++;
        if (k >= limit) continue;
        const char *at = lied_inst(sp, i) + pr->offset;
        lua_createtable(L, 0, 4);
        lied_lua_setstr(L, "name", name);
        const int len = (pr->flags & LIED_PARAM_TABLES) ? 0 : pr->len > 1 ? pr->len : 1;
        if (len == 0) lied_lua_push_table_param(L, at);
        if (len > 1) lua_createtable(L, len, 0);
        for (int j = 0; j < len; j++) { /* integer parameters are stored as int */
          if (pr->flags & LIED_PARAM_INT)
            lua_pushinteger(L, ((const int *)(const void *)at)[j]);
          else
            lua_pushnumber(L, ((const double *)(const void *)at)[j]);
          if (len > 1) lua_rawseti(L, -2, j + 1);
        }
        lua_setfield(L, -2, "value");
        lied_lua_setstr(L, "unit", pr->unit ? pr->unit : "");
        lied_lua_setstr(L, "doc", pr->doc ? pr->doc : "");
        lua_rawseti(L, -2, ++k);
      }
    }
  }
  lua_pushinteger(L, matched);
  return 2;
}

const luaL_Reg lied_lua_analysis_methods[] = {{"steady", model_steady},
                                              {"linearize", model_linearize},
                                              {"params", model_params},
                                              {NULL, NULL}};
