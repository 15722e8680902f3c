/* test_lanes_thermal.c - lane forms on the media's other paths: fused steps
 * in lane form give the same bits as fused steps copy by copy for two
 * streams through a ConductionElement and a counter-flow and a
 * parallel-flow heat exchanger into sinks with air on one side and a wall
 * capacity (the media tables of an ideal gas), and for a cross-flow
 * exchanger with a wall between air streams; 77 copies (two full groups and
 * a partial one). The classes' lane forms against their blocks at their
 * defaults (a liquid) are test_lane_forms.c, driven by the class registry;
 * steam and moist air tests/lua/test_media_lanes.lua. */
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "lib/signals/signals.h"
#include "lib/thermal/thermal.h"
#include "lib/thermofluid/thermofluid.h"
#include "sched/sched.h"
#include "solve/butcher.h"
#include "solve/fused.h"
#include "solve/sim.h"

typedef struct part {
  const char *name;
  const lied_class *cls;
} part;
typedef struct param {
  int part;
  const char *name;
  double v[6];
  int len;
} param;

static lied_system *copies(uint32_t n, const part *parts, int nparts, const char *const *conn,
                          const param *params, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, n, 1, NULL, e);
  int id[24];
  for (int i = 0; i < nparts; i++)
    id[i] = lied_model_add(m, arr, parts[i].name, parts[i].cls, 1, 0, NULL, e);
  for (int i = 0; params && params[i].name; i++)
    CHECK(lied_model_set_param(m, id[params[i].part], params[i].name, params[i].v, params[i].len,
                               e) == 0);
  for (int i = 0; conn[i]; i += 2)
    CHECK(lied_model_connect(m, arr, conn[i], conn[i + 1], NULL, e) == 0);
  return fx_build(m, 0, e);
}

/* Two streams: a -> ConductionElement -> counter-flow HX side a -> parallel
 * HX side a -> sink; b -> counter HX side b -> parallel HX side b -> sink
 * with its pressure from a signal; the ConductionElement's heat port
 * exchanges with a capacitor; the counter HX's UA from a signal. */
static const part hx_parts[] = {
    {"a", &tf_mass_flow_source_class}, {"b", &tf_mass_flow_source_class},
    {"ce", &tf_conduction_class},      {"hx", &tf_counter_hx_class},
    {"px", &tf_parallel_hx_class},     {"ka", &tf_sink_class},
    {"kb", &tf_sink_class},            {"cap", &th_heat_capacitor_class},
    {"g", &th_conductor_class},        {"ua", &sig_sine_class},
    {"pb", &sig_constant_class},       {"tb", &sig_sine_class},
    {"mb", &sig_ramp_class}};
static const char *const hx_conn[] = {
    "a.outlet", "ce.inlet", "ce.outlet", "hx.inlet_a", "hx.outlet_a", "px.inlet_a",
    "px.outlet_a", "ka.inlet", "b.outlet", "hx.inlet_b", "hx.outlet_b", "px.inlet_b",
    "px.outlet_b", "kb.inlet", "ce.heatPort", "g.port_a", "cap.port", "g.port_b",
    "ua.y", "hx.UA_in", "pb.y", "kb.p0_in", "tb.y", "b.T0_in", "mb.y", "b.m_flow_in", NULL};
/* Air on the parallel exchanger's side b: its lane form
 * evaluates the media through their tables, copy by copy. */
static const param hx_gas_params[] = {
    {0, "m_flow", {0.3}, 1},     {1, "T0_from_input", {1}, 1}, {1, "m_flow_from_input", {1}, 1},
    {2, "V", {1e-4}, 1},         {3, "N", {5}, 1},             {3, "UA_from_input", {1}, 1},
    {4, "N", {3}, 1},            {4, "UA", {40}, 1},           {4, "V_b", {2e-4}, 1},
    {4, "medium_b", {2, 287.05, 1005.45, 0, 0, 0}, 6}, {3, "C_w", {5}, 1},
    {6, "p0_from_input", {1}, 1}, {7, "C", {3}, 1},            {8, "G", {20}, 1},
    {9, "amplitude", {30}, 1},   {9, "offset", {100}, 1},      {10, "k", {2e5}, 1},
    {11, "offset", {320}, 1},    {11, "amplitude", {5}, 1},    {12, "offset", {0.2}, 1},
    {12, "height", {0.1}, 1},    {12, "duration", {0.05}, 1},  {0, NULL, {0}, 0}};

/* A cross-flow exchanger (a grid of 3 x 3 elements) between a liquid and air. */
static const part cross_parts[] = {{"a", &tf_mass_flow_source_class},
                                   {"b", &tf_mass_flow_source_class},
                                   {"x", &tf_cross_hx_class},
                                   {"ka", &tf_sink_class},
                                   {"kb", &tf_sink_class}};
static const char *const cross_conn[] = {"a.outlet", "x.inlet_a", "x.outlet_a", "ka.inlet",
                                         "b.outlet", "x.inlet_b", "x.outlet_b", "kb.inlet", NULL};
static const param cross_params[] = {
    {0, "m_flow", {0.3}, 1}, {1, "m_flow", {0.2}, 1}, {1, "medium", {2, 287.05, 1005.45, 0, 0, 0}, 6},
    {2, "N", {3}, 1},        {2, "UA", {30}, 1},      {2, "medium_b", {2, 287.05, 1005.45, 0, 0, 0}, 6},
    {4, "medium", {2, 287.05, 1005.45, 0, 0, 0}, 6}, {2, "C_w", {2}, 1}, {0, NULL, {0}, 0}};

typedef struct variant {
  const char *name;
  const part *parts;
  int nparts;
  const char *const *conn;
  const param *params;
} variant;

static int same_instances(const lied_system *sa_, const lied_system *sb_) {
  const lied_model *a = sa_->model, *b = sb_->model;
  int diff = 0;
  for (int s = 0; s < a->nspecs; s++) {
    const lied_spec *sa = &a->specs[s], *sb = &b->specs[s];
    if (!sa->cls || !sa->total) continue;
    for (int v = 0; v < sa->tpl.nvars; v++) {
      if (sa->tpl.vars[v].kind == LIED_VAR_PORT_READ) continue;
      const uint32_t off = sa->tpl.vars[v].offset;
      for (uint64_t q = 0; q < sa->total; q++)
        diff += memcmp(lied_inst(sa, q) + off, lied_inst(sb, q) + off, sizeof(double)) != 0;
    }
  }
  return diff == 0;
}

/* 30 steps in blocks of 7 from t = 0.1, copy by copy (a) and in lane form (b). */
static void same_bits(const variant *v, const char *table) {
  lied_err e = {0};
  const uint32_t n = 77;
  lied_system *ma = copies(n, v->parts, v->nparts, v->conn, v->params, &e);
  lied_system *mb = copies(n, v->parts, v->nparts, v->conn, v->params, &e);
  CHECK(ma && mb);
  if (!ma || !mb) goto out;
  const uint64_t ns = ma->sched->nstates;
  double *xa = calloc(ns, sizeof *xa), *xb = calloc(ns, sizeof *xb), *x0 = calloc(ns, sizeof *x0);
  const lied_tableau *tab = lied_tableau_find(table);
  lied_fused fa, fb;
  CHECK(xa && xb && x0 && tab);
  CHECK(lied_fused_init(&fa, ma->sched, tab, 0, &e) == 0);
  CHECK(lied_fused_init(&fb, mb->sched, tab, 1, &e) == 0);
  CHECK(!fa.lane);
  CHECK(fb.lane);
  if (!fb.lane) fprintf(stderr, "%s: no lanes: %s\n", v->name, fb.no_lanes);
  if (xa && xb && x0) {
    fx_fill(ma, xa);
    memcpy(xb, xa, sizeof *xa * ns);
    memcpy(x0, xa, sizeof *xa * ns);
    CHECK(lied_sched_evaluate(ma->sched, 0.1, xa, NULL, 0, &e) == 0);
    CHECK(lied_sched_evaluate(mb->sched, 0.1, xb, NULL, 0, &e) == 0);
    double times[31];
    times[0] = 0.1;
    for (int j = 1; j <= 30; j++) times[j] = times[j - 1] + 0.002;
    for (int j = 0, b; j < 30; j += b) {
      b = 7;
      if (b > 30 - j) b = 30 - j;
      int rc = lied_fused_steps(&fa, times + j, b, xa, NULL, &e);
      if (rc) fprintf(stderr, "%s: %s\n", v->name, e.msg);
      CHECK(rc == 0);
      CHECK(lied_fused_steps(&fb, times + j, b, xb, NULL, &e) == 0);
    }
    CHECK(memcmp(xa, xb, sizeof *xa * ns) == 0);
    for (uint64_t i = 0; i < ns; i++)
      if (xa[i] != xb[i]) {
        char nm[96];
        lied_sched_state_name(mb->sched, i, nm, sizeof nm);
        fprintf(stderr, "%s %s: %s %.17g (copy by copy) %.17g (lanes)\n", v->name, table, nm,
                xa[i], xb[i]);
        break;
      }
    CHECK(same_instances(ma, mb));
    int moved = 0;
    for (uint64_t i = 0; i < ns; i++) moved += xb[i] != x0[i];
    CHECK(moved > (int)(ns / 2));
    for (uint64_t i = 0; i < ns; i++) CHECK(isfinite(xb[i]));
  }
  lied_fused_free(&fa);
  lied_fused_free(&fb);
  free(xa);
  free(xb);
  free(x0);
out:
  lied_system_free(ma);
  lied_system_free(mb);
}

int main(void) {
  const variant v[] = {
      {"heat exchangers, air", hx_parts, (int)(sizeof hx_parts / sizeof *hx_parts), hx_conn,
       hx_gas_params},
      {"cross flow", cross_parts, 5, cross_conn, cross_params},
  };
  for (int i = 0; i < 2; i++) {
    same_bits(&v[i], "rk4");
    same_bits(&v[i], "euler");
  }
  return CHECK_DONE();
}
