/* lua_inspect.c - looking into a built model: model:info (counts, sections,
 * schedule, Jacobian sparsity), model:vars, model:value,
 * model:derivatives. */
#include <stdlib.h>
#include <string.h>
#include "binding/binding.h"
#include "core/text.h"
#include "sched/lanering.h"
#include "core/sum.h"
#include "sched/aug.h"
#include "sched/lanes.h"
#include "sched/sched.h"
#include "solve/jacobian.h"

/* Push the whole name of state i, however long. */
static void push_state_name(lua_State *L, const lied_sched *s, uint64_t i) {
  char name[512];
  size_t len = lied_sched_state_name(s, i, name, sizeof name);
  if (len < sizeof name) {
    lua_pushstring(L, name);
    return;
  }
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, len + 1);
  lied_sched_state_name(s, i, p, len + 1);
  luaL_pushresultsize(&b, len);
}

/* info.jacobian (model:info(true)): structural sparsity of the derivatives
 * and its column colouring (unknowns: the states; with sparse sections the
 * implicit solvers' sparse formulation instead, sched/aug.h: unknowns,
 * section_unknowns, cuts); for at most 64 states and no sections also
 * pattern (one string per state, '*' where its derivative depends on that
 * state) and states (their names, in state-vector order). */
#define PATTERN_MAX 64
static void push_jacobian(lua_State *L, lied_sched *s) {
  lied_err e;
  uint64_t *rowptr = NULL, n = s->nstates;
  uint32_t *cols = NULL, *colour = NULL, ncol = 0;
  /* a model with sparse sections: the pattern the implicit solvers use,
   * that of their sparse formulation (its Jacobian over the states alone
   * is dense, and costs n^2 to list) */
  const int aug = s->naug > 0;
  uint64_t nz = 0, nw = 0, np = 0; /* section unknowns, explicit cuts, those of trees */
  if (aug) {
    lied_aug *A = NULL;
    if (lied_aug_new(s, &A, &e)) return;
    nz = A->nz, nw = A->nw;
    for (uint32_t k = 0; k < A->ntree; k++) np += (uint64_t)A->tree[k].per * A->tree[k].node->w;
    n = A->nx + nz + nw;
    rowptr = A->rowptr, cols = A->cols; /* kept: freed below with the rest */
    A->rowptr = NULL, A->cols = NULL;
    lied_aug_free(A);
  } else if (n > UINT32_MAX || lied_sched_sparsity(s, &rowptr, &cols, &e)) {
    return;
  }
  colour = malloc(sizeof *colour * ((size_t)n + 1));
  if (!colour || lied_colour(n, rowptr, cols, colour, &ncol, &e)) {
    free(rowptr), free(cols), free(colour);
    return;
  }
  uint64_t maxrow = 0;
  for (uint64_t i = 0; i < n; i++)
    if (rowptr[i + 1] - rowptr[i] > maxrow) maxrow = rowptr[i + 1] - rowptr[i];
  lua_createtable(L, 0, 7);
  lied_lua_setint(L, "nnz", rowptr[n]);
  lied_lua_setint(L, "unknowns", n);
  if (aug) {
    lied_lua_setint(L, "section_unknowns", nz);
    lied_lua_setint(L, "cuts", nw);
    lied_lua_setint(L, "partial_sums", np);
  }
  lied_lua_setint(L, "colours", ncol);
  lied_lua_setint(L, "max_row", maxrow);
  if (n <= PATTERN_MAX && !aug) {
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
      push_state_name(L, s, i);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "states");
  }
  lua_setfield(L, -2, "jacobian");
  free(rowptr), free(cols), free(colour);
}

/* The model's counts into the table on the top: components, declared
 * leaves, bytes of instances, blocks, states, tearing pairs. */
static void set_counts(lua_State *L, const lied_model *m, const lied_sched *s) {
  lied_lua_setint(L, "components", m->ncomponents);
  uint64_t blocks = 0, tears = 0;
  int nspecs = 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || sp->internal) continue;
    nspecs++;
    blocks += sp->total * (uint64_t)sp->tpl.nblocks;
    tears += sp->total * (uint64_t)sp->tpl.ntears;
  }
  lied_lua_setint(L, "declared", (uint64_t)nspecs);
  {
    uint64_t bytes = 0;
    for (int k = 0; k < m->nspecs; k++)
      if (m->specs[k].cls) bytes += m->specs[k].total * (uint64_t)m->specs[k].size;
    lied_lua_setint(L, "instance_bytes", bytes);
  }
  lied_lua_setint(L, "blocks", blocks);
  lied_lua_setint(L, "states", s->nstates);
  lied_lua_setint(L, "tearing_pairs", tears);
}

/* The schedule's statistics into the table on the top. */
static void set_sched_stats(lua_State *L, const lied_sched_stats *st) {
  lied_lua_setint(L, "sections", st->sections);
  lied_lua_setint(L, "section_batches", st->section_batches);
  lied_lua_setint(L, "constant_sections", st->constant_sections);
  lied_lua_setint(L, "max_section", (uint64_t)st->max_section);
  lied_lua_setint(L, "column_blocks", st->column_blocks);
  lied_lua_setint(L, "column_blocks_all", st->column_blocks_all);
  lied_lua_setint(L, "sparse_sections", st->sparse_sections);
  lied_lua_setint(L, "sparse_unknowns", st->sparse_unknowns);
  lied_lua_setint(L, "sparse_nonzeros", st->sparse_nnz);
  lied_lua_setint(L, "sparse_colours", st->sparse_colours);
  lied_lua_setint(L, "sparse_factor_nonzeros", st->sparse_factor_nnz);
  lied_lua_setint(L, "sparse_pass_members", st->sparse_pass_members);
  lied_lua_setint(L, "sparse_fixed_members", st->sparse_fixed_members);
  lied_lua_setint(L, "copies", st->copies);
  lied_lua_setint(L, "window", st->window);
  lied_lua_setint(L, "skew_lag", st->skew_lag);
  lied_lua_setint(L, "wave_gap", st->wave_gap);
  lied_lua_setint(L, "graph_nodes", st->nodes);
  lied_lua_setint(L, "graph_edges", st->edges);
  lied_lua_setint(L, "constant_blocks", st->blocks[LIED_PART_CONST]);
  lied_lua_setint(L, "dynamic_blocks", st->blocks[LIED_PART_DYN]);
  lied_lua_setint(L, "output_blocks", st->blocks[LIED_PART_OUT]);
  lied_lua_setint(L, "constant_steps", st->steps[LIED_PART_CONST]);
  lied_lua_setint(L, "dynamic_steps", st->steps[LIED_PART_DYN]);
  lied_lua_setint(L, "output_steps", st->steps[LIED_PART_OUT]);
  lied_lua_setint(L, "factorisations", st->factorisations);
  lied_lua_setint(L, "evaluations", st->evaluations);
  lied_lua_setint(L, "par_runs", st->par_runs);
}

/* model:info([jacobian]) -> table of counts (with jacobian = {nnz, colours,
 * max_row, pattern} when the argument is true: rebuilds the block graph) */
static int model_info(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  lied_sched *s = u->sys->sched;
  int want_jacobian = lua_toboolean(L, 2);
  const lied_sched_stats *st = &s->st;
  lua_newtable(L);
  set_counts(L, u->sys->model, s);
  set_sched_stats(L, st);
  lua_pushboolean(L, s->aligned);
  lua_setfield(L, -2, "chunked");
  int planned = 0, rc = LIED_OK; /* a plan of lane forms, for models that can have one */
  char why[200];
  lied_err le;
  if (s->aligned) { /* can fused steps run in lane form? (sched/lanes.h) */
    lied_lanes lanes;
    planned = 1, rc = lied_lanes_init(&lanes, s, why, sizeof why, &le);
    if (rc == LIED_OK) lied_lanes_free(&lanes);
  } else if (s->skewed && s->skew_stage > 0) { /* can waves? (sched/lanering.h) */
    lied_lr lr;
    planned = 1, rc = lied_lr_init(&lr, s, 0, why, sizeof why, &le);
    if (rc == LIED_OK) {
      lied_lua_setint(L, "lane_steps", (uint64_t)lr.nlane_steps);
      lied_lua_setint(L, "end_steps", (uint64_t)lr.nend_steps);
      lied_lua_setint(L, "end_lanes", (uint64_t)lr.nend_lanes);
      lied_lua_setint(L, "halos", (uint64_t)lr.nhalo_links);
      lied_lr_free(&lr);
    }
  }
  if (planned) lied_lua_setbool(L, "lanes", rc == LIED_OK);
  if (planned && rc == LIED_UNSUPPORTED) lied_lua_setstr(L, "no_lanes", why);
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
  if (v->pat && !lied_glob(v->pat, name)) return 0;
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

/* model:vars([pattern]) -> list of {name, unit, kind}; interrupted by the
 * stop flag (a model of millions of components has tens of millions) */
static int model_vars(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  vars_ctx v = {L, luaL_optstring(L, 2, NULL), 0};
  lua_newtable(L);
  const int rc =
      lied_model_each_var_matching(u->sys->model, v.pat, lied_lua_stop_flag(L), on_var, &v);
  if (rc == LIED_WALK_STOPPED) lied_lua_check_stop(L, "vars", v.n);
  if (rc == LIED_E_NOMEM) lied_lua_fail(L, LIED_E_NOMEM, "vars: out of memory");
  return 1;
}

/* When name is "component.param", a parameter of that instance: push its
 * value (a list for vectors) and unit, return 1; else 0. */
static int push_param(lua_State *L, const lied_model *m, const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name) return 0;
  lua_pushlstring(L, name, (size_t)(dot - name));
  int spec;
  uint64_t inst;
  const char *rest;
  lied_err e;
  int found = lied_model_find(m, lua_tostring(L, -1), &spec, &inst, &rest, &e) == LIED_OK;
  lua_pop(L, 1);
  if (!found || rest[0] || !m->specs[spec].cls) return 0;
  const lied_param *p = lied_class_param(m->specs[spec].cls, dot + 1);
  if (!p) return 0;
  const char *at = lied_inst(&m->specs[spec], inst) + p->offset;
  if (p->flags & LIED_PARAM_TABLES) {
    lied_lua_push_table_param(L, at);
    lua_pushstring(L, "");
    return 1;
  }
  int len = p->len > 1 ? p->len : 1;
  if (len > 1) lua_createtable(L, len, 0);
  for (int k = 0; k < len; k++) {
    if (p->flags & LIED_PARAM_INT)
      lua_pushinteger(L, ((const int *)(const void *)at)[k]);
    else
      lua_pushnumber(L, ((const double *)(const void *)at)[k]);
    if (len > 1) lua_rawseti(L, -2, k + 1);
  }
  lua_pushstring(L, p->unit ? p->unit : "");
  return 1;
}

/* model:value(name) -> current value, unit (of a variable or a parameter) */
static int model_value(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  lied_err e;
  const char *unit = "";
  const char *name = luaL_checkstring(L, 2);
  const double *a = lied_model_var(u->sys->model, name, &unit, &e);
  if (!a && push_param(L, u->sys->model, name)) return 2;
  if (!a) return lied_lua_raise(L, &e);
  lua_pushnumber(L, *a);
  lua_pushstring(L, unit);
  return 2;
}

/* model:derivatives([t]) -> {state name = derivative} at the start values
 * (after the evaluation, model:value reads every consistent variable). */
static int model_derivatives(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  lied_sched *s = u->sys->sched;
  double t = luaL_optnumber(L, 2, 0.0);
  lied_err e;
  size_t n = (size_t)s->nstates;
  double *x = lied_xcalloc(n + 1, sizeof(double), "states", &e);
  double *dx = x ? lied_xcalloc(n + 1, sizeof(double), "states", &e) : NULL;
  if (!x || !dx) {
    free(x);
    return lied_lua_raise(L, &e);
  }
  lied_sched_reset_states(s);
  lied_sched_gather_x(s, x);
  if (lied_sched_evaluate(s, t, x, dx, 1, &e)) {
    free(x);
    free(dx);
    return lied_lua_raise(L, &e);
  }
  lua_createtable(L, 0, (int)n);
  for (size_t i = 0; i < n; i++) {
    push_state_name(L, s, i);
    lua_pushnumber(L, dx[i]);
    lua_rawset(L, -3);
  }
  free(x);
  free(dx);
  return 1;
}

/* model:component(name) -> the path of the component a variable or port
 * path names ("crab[2].body1" of "crab[2].body1.frame_a.x") and the rest
 * ("frame_a.x"); nil and a message when it names no component. */
static int model_component(lua_State *L) {
  lmodel *u = lied_lua_checkmodel(L, 1);
  const char *name = luaL_checkstring(L, 2), *rest;
  int spec;
  uint64_t inst;
  lied_err e;
  if (lied_model_find(u->sys->model, name, &spec, &inst, &rest, &e) != LIED_OK) {
    lua_pushnil(L);
    lua_pushstring(L, e.msg);
    return 2;
  }
  size_t len = (size_t)(rest - name);
  if (len && name[len - 1] == '.') len--;
  lua_pushlstring(L, name, len);
  lua_pushstring(L, rest);
  return 2;
}

const luaL_Reg lied_lua_inspect_methods[] = {{"info", model_info},
                                             {"component", model_component},
                                             {"vars", model_vars},
                                             {"value", model_value},
                                             {"derivatives", model_derivatives},
                                             {NULL, NULL}};
