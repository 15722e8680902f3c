/* test_tf_deps.c - the dependencies the thermofluid components declare
 * (docs/thermofluid.md, "What the blocks read and write") are what their
 * blocks compute from. Models using every class of the thermofluid and
 * turbo libraries (liquid, steam, moist air, gas; every signal input) run a
 * while, so that flows and temperatures differ, then every block of every
 * component is audited: each double it does not declare it reads - a
 * variable of a stream outside the ranges of its lied_meta_reads, a field of
 * its own component that another block writes and it does not list, a state
 * or tearing variable it does not list - is changed, the block run again,
 * and what it writes must keep its bits. A block declaring less than it
 * reads would let the scheduler run it before what it reads (wrong values)
 * or miss a loop. The other way: every variable of a stream a block
 * declares it reads must change what it writes in some model (else the
 * declaration is longer than the reading, and the scheduler would see a
 * loop the physics does not have); the models run flows both ways, with
 * the blends near zero flow on, and moist air in fog, so that what a block
 * reads only by the sign of a flow or in some phase counts. Also: the
 * engine's side of it, a reading pointer listed
 * twice with a range each, and the errors of lied_meta_reads. The undirected
 * streams (liquid with every component, the blends near zero flow active
 * everywhere; moist air through the adapters and a fan) likewise. And the
 * audit fails both ways: a sensor declaring it reads p of a stream while it
 * measures h is reported, that block alone, for h it reads and p it does
 * not. */
#include "lanes.h"
#include "core/table.h"
#include "lib/signals/signals.h"
#include "lib/rotational/rotational.h"
#include "lib/thermal/thermal.h"
#include "lib/thermofluid/thermofluid.h"
#include "lib/turbo/turbo.h"
#include "lib/undirected/undirected.h"
#include "lib/refrigeration/refrigeration.h"
extern const lied_class tf_rhx_counter_class, tf_rhx_cross_class; /* rhx.c */
#include "lib/thermofluid/deps.h"

/* ---- the audit ------------------------------------------------------------ */

/* v moved enough to change anything that reads it. */
static double moved(double v) { return v + (fabs(v) > 1 ? 1e-3 * fabs(v) : 1e-3); }

static int audited; /* candidates changed, over all models */
static int expecting, reported; /* a model whose mistakes are expected: counted, not failed */
static char reported_block[64];  /* the last block reported */
static const lied_class *seen[256]; /* the classes audited */
static int nseen;

/* Runs block b of instance inst with *d changed; 0 when what b writes kept
 * its bits (d restored, b run again). */
static int keeps(const lied_spec *sp, int b, char *inst, double *d, const lied_env *env) {
  const lied_template *t = &sp->tpl;
  const lied_tblock *blk = &t->blocks[b];
  char *before = malloc(sp->size);
  CHECK(before != NULL);
  if (!before) return 0;
  blk->fn(env, inst, 1, sp->size);
  memcpy(before, inst, sp->size);
  const double v = *d;
  *d = moved(v);
  blk->fn(env, inst, 1, sp->size);
  int same = 1;
  for (int k = 0; k < t->nouts; k++)
    if (t->outs[k].block == b)
      same &= memcmp(before + t->outs[k].lo, inst + t->outs[k].lo, t->outs[k].hi - t->outs[k].lo) == 0;
  *d = v;
  blk->fn(env, inst, 1, sp->size);
  free(before);
  audited++;
  return same;
}

/* The other way: every variable of a stream a block declares it reads must
 * change what it writes in some model (a declaration longer than what the
 * block reads would make the scheduler see a loop the physics does not
 * have). Per class, block, signal and variable: declared, and seen to count. */
typedef struct used {
  const char *cls, *block, *signal;
  int var, counts;
} used;
static used uses[4096];
static int nuses;
/* The class's name, the undirected two-phase exchangers' told apart from
 * the directed ones of the same name. */
#define URHX_PREFIX "undirected.TwoPhase"
static const char *class_name(const lied_class *c) {
  if (c == &tfu_rhx_counter_class) return URHX_PREFIX "CounterFlowHX";
  if (c == &tfu_rhx_cross_class) return URHX_PREFIX "CrossFlowHX";
  /* the refrigeration compressors apart from turbo's of the same names */
  if (c == &rg_compressor_class) return "refrigeration.Compressor";
  if (c == &rg_compressor_map_class) return "refrigeration.CompressorMap";
  return c->name;
}
static void note_use(const char *cls, const char *block, const char *signal, int var, int counts) {
  for (int i = 0; i < nuses; i++)
    if (uses[i].var == var && !strcmp(uses[i].cls, cls) && !strcmp(uses[i].block, block) &&
        !strcmp(uses[i].signal, signal)) {
      uses[i].counts |= counts;
      return;
    }
  CHECK(nuses < 4096);
  if (nuses < 4096) uses[nuses++] = (used){cls, block, signal, var, counts};
}

static void report(const lied_model *m, int s, int b, const char *what, int var) {
  if (!expecting) CHECK(0);
  reported++;
  snprintf(reported_block, sizeof reported_block, "%s", m->specs[s].tpl.blocks[b].name);
  char path[200];
  lied_model_path(m, s, 0, path, sizeof path);
  fprintf(stderr, "%s (%s) block %s: reads %s %d, which it does not declare\n", path,
          m->specs[s].cls->name, m->specs[s].tpl.blocks[b].name, what, var);
}

/* Does block b list the input at offset off as kind (a state, a tearing
 * variable), or depend on block p through an internal reference? */
static int lists(const lied_template *t, int b, int kind, uint32_t off) {
  for (uint32_t r = t->blocks[b].in0; r < t->blocks[b].in0 + t->blocks[b].nin; r++)
    if (t->refs[r].kind == kind && (kind == LIED_REF_INTERNAL ? t->refs[r].a : t->refs[r].offset) == off)
      return 1;
  return 0;
}

static void audit_block(const lied_model *m, int s, int b, const lied_env *env) {
  const lied_spec *sp = &m->specs[s];
  const lied_template *t = &sp->tpl;
  const lied_tblock *blk = &t->blocks[b];
  char *inst = lied_inst(sp, 0);
  /* the variables of a stream it reads in part (lied_meta_reads) */
  for (uint32_t r = blk->in0; r < blk->in0 + blk->nin; r++) {
    const lied_tref *ref = &t->refs[r];
    if (ref->kind != LIED_REF_PORT || ref->a == LIED_NO_PORT) continue;
    double *p = *(double **)(void *)(inst + ref->offset);
    if (p == lied_port_zeros) continue;
    const int nv = t->ports[ref->a].layout->conn->signals[ref->b].nvars;
    unsigned mask = 0;
    for (uint32_t q = blk->in0; q < blk->in0 + blk->nin; q++)
      if (t->refs[q].kind == LIED_REF_PORT && t->refs[q].offset == ref->offset)
        mask |= t->refs[q].nvars ? ((1u << t->refs[q].nvars) - 1) << t->refs[q].first
                                 : (1u << nv) - 1;
    for (int v = 0; v < nv && ref->nvars; v++)
      if (!(mask & 1u << v) && !keeps(sp, b, inst, p + v, env))
        report(m, s, b, "stream variable", v);
    const lied_signal *sig = &t->ports[ref->a].layout->conn->signals[ref->b];
    if (nv > 1) /* the declared ones, once per listing */
      for (int v = ref->nvars ? ref->first : 0; v < (ref->nvars ? ref->first + ref->nvars : nv); v++)
        note_use(class_name(sp->cls), blk->name, sig->name, v, !keeps(sp, b, inst, p + v, env));
  }
  /* its own component's fields other blocks write */
  for (int k = 0; k < t->nouts; k++) {
    const int pb = t->outs[k].block;
    if (pb == b || lists(t, b, LIED_REF_INTERNAL, (uint32_t)pb)) continue;
    for (uint32_t o = t->outs[k].lo; o + sizeof(double) <= t->outs[k].hi; o += sizeof(double))
      if (!keeps(sp, b, inst, (double *)(void *)(inst + o), env))
        report(m, s, b, "the field at byte", (int)o);
  }
  for (int q = 0; q < t->nstates; q++)
    if (!lists(t, b, LIED_REF_STATE, t->states[q].x) &&
        !keeps(sp, b, inst, (double *)(void *)(inst + t->states[q].x), env))
      report(m, s, b, "state", q);
  for (int q = 0; q < t->ntears; q++)
    if (!lists(t, b, LIED_REF_TEAR, t->tears[q].tear) &&
        !keeps(sp, b, inst, (double *)(void *)(inst + t->tears[q].tear), env))
      report(m, s, b, "tearing variable", q);
}

/* The tables of the next model (their parameters give the index: 0, 1..),
 * NULL-terminated; audit() takes them and clears the list. */
static const lied_table_data *const *tables_next;

/* One copy of the parts, with the tables of tables_next (copies() of
 * lanes.h, the tables added first). */
static lied_system *copies_tables(const part *parts, int nparts, const char *const *conn,
                                  const param *params, lied_err *e) {
  if (!tables_next) return copies(1, parts, nparts, conn, params, e);
  lied_model *m = lied_model_new(e);
  for (int k = 0; tables_next[k]; k++) {
    lied_table *t = lied_table_new(tables_next[k], e);
    CHECK(t != NULL && lied_model_add_table(m, t, e) == k);
    if (t) lied_table_release(t);
  }
  tables_next = NULL;
  const int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  const int arr = lied_model_add(m, root, "c", NULL, 1, 1, NULL, e);
  int id[24];
  CHECK(nparts <= 24);
  for (int i = 0; i < nparts && i < 24; i++)
    id[i] = lied_model_add(m, arr, parts[i].name, parts[i].cls, 1, 0, NULL, e);
  for (int i = 0; params[i].name; i++)
    CHECK(lied_model_set_param(m, id[params[i].part], params[i].name, params[i].v, params[i].len,
                               e) == 0);
  for (int i = 0; conn[i]; i += 2)
    CHECK(lied_model_connect(m, arr, conn[i], conn[i + 1], NULL, e) == 0);
  return fx_build(m, 0, e);
}

/* One copy of the parts, run for stop seconds, then audited. */
static void audit(const char *name, const part *parts, int nparts, const char *const *conn,
                  const param *params, double stop) {
  lied_err e = {0};
  lied_system *sys = copies_tables(parts, nparts, conn, params, &e);
  CHECK(sys != NULL);
  if (!sys) {
    fprintf(stderr, "%s: %s\n", name, e.msg);
    return;
  }
  lied_sim_opts o = {0};
  o.stop = stop;
  o.solver = "esdirk23";
  o.threads = 1;
  lied_sim_stats st;
  const int rc = lied_simulate(sys->sched, &o, NULL, NULL, &st, &e);
  CHECK(rc == LIED_OK);
  if (rc) fprintf(stderr, "%s: %s\n", name, e.msg);
  CHECK(lied_sched_evaluate(sys->sched, stop, NULL, NULL, 1, &e) == LIED_OK);
  const lied_env env = {stop, NULL};
  const int before = audited;
  const lied_model *m = sys->model;
  for (int s = 0; s < m->nspecs; s++)
    if (m->specs[s].cls && m->specs[s].total) {
      for (int b = 0; b < m->specs[s].tpl.nblocks; b++) audit_block(m, s, b, &env);
      int known = 0;
      for (int k = 0; k < nseen; k++) known |= seen[k] == m->specs[s].cls;
      if (!known && nseen < 256) seen[nseen++] = m->specs[s].cls;
    }
  CHECK(audited - before > (expecting ? 5 : 50)); /* the audit changed something */
  lied_system_free(sys);
}

/* ---- the models ----------------------------------------------------------- */

/* A: liquid along one line with every two-port element, signal inputs
 * everywhere, a split and a junction, a volume, a check valve, a reservoir
 * and an open tank. */
static const part line_parts[] = {
    {"src", &tf_source_class},         {"pin", &sig_constant_class},
    {"tin", &sig_sine_class},          {"pump", &tf_pump_class},
    {"w", &sig_constant_class},        {"valve", &tf_valve_class},
    {"op", &sig_sine_class},           {"heater", &tf_heater_class},
    {"q", &sig_constant_class},        {"ts", &tf_t_sensor_class},
    {"ps", &tf_p_sensor_class},        {"ms", &tf_m_sensor_class},
    {"hs", &tf_h_sensor_class},        {"split", &tf_splitter_class},
    {"d1", &tf_pressure_drop_class},   {"pipe", &tf_pipe_class},
    {"d2", &tf_linquad_drop_class},    {"lam", &tf_laminar_drop_class},
    {"join", &tf_junction_class},      {"vol", &tf_volume_class},
    {"cv", &tf_check_valve_class},     {"res", &tf_reservoir_class},
    {"d3", &tf_pressure_drop_class},   {"tank", &tf_tank_in_class}};
static const char *const line_conn[] = {
    "pin.y", "src.p0_in", "tin.y", "src.T0_in", "src.outlet", "pump.inlet", "w.y", "pump.omega_in",
    "pump.outlet", "valve.inlet", "op.y", "valve.opening", "valve.outlet", "heater.inlet",
    "q.y", "heater.Q_in", "heater.outlet", "ts.inlet", "ts.outlet", "ps.inlet",
    "ps.outlet", "ms.inlet", "ms.outlet", "hs.inlet", "hs.outlet", "split.inlet",
    "split.outlet1", "d1.inlet", "d1.outlet", "pipe.inlet", "pipe.outlet", "join.inlet1",
    "split.outlet2", "d2.inlet", "d2.outlet", "lam.inlet", "lam.outlet", "join.inlet2",
    "join.outlet", "vol.inlet", "vol.outlet", "cv.inlet", "cv.outlet", "res.inlet",
    "pin.y", "res.p0_in", "tin.y", "res.T0_in", "res.outlet", "d3.inlet", "d3.outlet", "tank.inlet",
    NULL};
static const param line_params[] = {
    {0, "p0_from_input", {1}, 1},   {0, "T0_from_input", {1}, 1},  {0, "L", {1e4}, 1},
    {1, "k", {4e5}, 1},             {2, "offset", {330}, 1},       {2, "amplitude", {5}, 1},
    {3, "omega_from_input", {1}, 1}, {4, "k", {150}, 1},           {5, "Kv", {5}, 1},
    {6, "offset", {0.6}, 1},        {6, "amplitude", {0.2}, 1},    {7, "Q_from_input", {1}, 1},
    {8, "k", {2e4}, 1},             {13, "m_flow1", {0.1}, 1},     {13, "L", {1e3}, 1},
    {14, "L", {1e4}, 1},            {15, "L", {1e4}, 1},           {16, "k2", {2e4}, 1},
    {16, "k1", {1e3}, 1},           {17, "L", {1e4}, 1},           {18, "L", {1e3}, 1},
    {19, "V", {0.01}, 1},           {19, "p0", {3e5}, 1},          {19, "Q", {-5e3}, 1},
    {19, "L", {1e4}, 1},            {20, "dp_ref", {2e4}, 1},      {21, "p0_from_input", {1}, 1},
    {21, "T0_from_input", {1}, 1},  {21, "L", {1e4}, 1},           {21, "L_in", {1e3}, 1},
    {22, "L", {1e4}, 1},            {23, "L", {1e3}, 1},           {23, "p_env", {2e5}, 1},
    {0, NULL, {0}, 0}};

/* B: two streams through every exchanger (a wall in the parallel one), a
 * flowing cell on a heat port, an open tank draining into a sink. */
static const part hx_parts[] = {
    {"mfa", &tf_mass_flow_source_class}, {"ma", &sig_sine_class},
    {"cond", &tf_conduction_class},      {"g", &th_conductor_class},
    {"amb", &th_fixed_temperature_class}, {"hx", &tf_counter_hx_class},
    {"px", &tf_parallel_hx_class},       {"cx", &tf_cross_hx_class},
    {"ntu", &tf_counter_ntu_class},      {"pn", &tf_parallel_ntu_class},
    {"cn", &tf_cross_ntu_class},         {"ska", &tf_sink_class},
    {"mfb", &tf_mass_flow_source_class}, {"tb", &sig_sine_class},
    {"skb", &tf_sink_class},             {"pb", &sig_constant_class},
    {"ua", &sig_constant_class},         {"tko", &tf_tank_out_class},
    {"dt", &tf_pressure_drop_class},     {"skt", &tf_sink_class}};
static const char *const hx_conn[] = {
    "ma.y", "mfa.m_flow_in", "mfa.outlet", "cond.inlet", "cond.heatPort", "g.port_a",
    "g.port_b", "amb.port", "cond.outlet", "hx.inlet_a", "hx.outlet_a", "px.inlet_a",
    "px.outlet_a", "cx.inlet_a", "cx.outlet_a", "ntu.inlet_a", "ntu.outlet_a", "pn.inlet_a",
    "pn.outlet_a", "cn.inlet_a", "cn.outlet_a", "ska.inlet",
    "tb.y", "mfb.T0_in", "mfb.outlet", "hx.inlet_b", "hx.outlet_b", "px.inlet_b",
    "px.outlet_b", "cx.inlet_b", "cx.outlet_b", "ntu.inlet_b", "ntu.outlet_b", "pn.inlet_b",
    "pn.outlet_b", "cn.inlet_b", "cn.outlet_b", "skb.inlet", "pb.y", "skb.p0_in",
    "ua.y", "hx.UA_in", "tko.outlet", "dt.inlet", "dt.outlet", "skt.inlet", NULL};
static const param hx_params[] = {
    {0, "m_flow_from_input", {1}, 1}, {0, "T0", {350}, 1},     {1, "offset", {0.3}, 1},
    {1, "amplitude", {0.1}, 1},      {2, "V", {1e-3}, 1},       {3, "G", {200}, 1},
    {5, "N", {4}, 1},                {5, "UA_from_input", {1}, 1}, {6, "N", {3}, 1},
    {6, "C_w", {2e3}, 1},            {7, "N", {2}, 1},          {8, "UA", {500}, 1},
    {9, "UA", {300}, 1},             {10, "UA", {400}, 1},      {12, "T0_from_input", {1}, 1},
    {12, "m_flow", {0.2}, 1},        {13, "offset", {290}, 1},  {13, "amplitude", {4}, 1},
    {14, "p0_from_input", {1}, 1},   {15, "k", {1e5}, 1},       {16, "k", {800}, 1},
    {17, "level", {2}, 1},           {17, "m_flow", {0.1}, 1},  {18, "L", {1e4}, 1},
    {0, NULL, {0}, 0}};

/* C: water and steam (IF97; T depends on p): the line's elements. */
#define STEAM {3, 0, 0, 0, 0, 0}, 6
static const part steam_parts[] = {
    {"src", &tf_source_class},   {"pump", &tf_pump_class},   {"valve", &tf_valve_class},
    {"op", &sig_constant_class}, {"heater", &tf_heater_class}, {"ts", &tf_t_sensor_class},
    {"d", &tf_pressure_drop_class}, {"cond", &tf_conduction_class}, {"g", &th_conductor_class},
    {"amb", &th_fixed_temperature_class}, {"vol", &tf_volume_class}, {"ntu", &tf_counter_ntu_class},
    {"mfb", &tf_mass_flow_source_class}, {"skb", &tf_sink_class}, {"snk", &tf_sink_class}};
static const char *const steam_conn[] = {
    "src.outlet", "pump.inlet", "pump.outlet", "valve.inlet", "op.y", "valve.opening",
    "valve.outlet", "heater.inlet", "heater.outlet", "ts.inlet", "ts.outlet", "d.inlet",
    "d.outlet", "cond.inlet", "cond.heatPort", "g.port_a", "g.port_b", "amb.port",
    "cond.outlet", "vol.inlet", "vol.outlet", "ntu.inlet_a", "ntu.outlet_a", "snk.inlet",
    "mfb.outlet", "ntu.inlet_b", "ntu.outlet_b", "skb.inlet", NULL};
static const param steam_params[] = {
    {0, "medium", STEAM},  {0, "p0", {5e5}, 1},   {0, "T0", {330}, 1},   {0, "L", {1e4}, 1},
    {1, "medium", STEAM},  {2, "medium", STEAM},  {2, "Kv", {5}, 1},     {3, "k", {0.7}, 1},
    {4, "medium", STEAM},  {4, "Q", {2e4}, 1},    {4, "p0", {5e5}, 1},   {5, "medium", STEAM},
    {6, "medium", STEAM},  {6, "L", {1e4}, 1},    {7, "medium", STEAM},  {7, "p0", {5e5}, 1},
    {8, "G", {100}, 1},    {10, "medium", STEAM}, {10, "p0", {4e5}, 1},  {10, "T0", {330}, 1},
    {10, "V", {0.01}, 1},  {10, "L", {1e4}, 1},  {11, "medium_a", STEAM}, {11, "UA", {300}, 1}, {12, "m_flow", {0.1}, 1},
    {14, "medium", STEAM}, {14, "p0", {3e5}, 1},  {0, NULL, {0}, 0}};

/* D: moist air (T depends on p, the streams carry X): a fan, a cooler that
 * condenses, a separator, sensors, a split and a junction, a volume, an
 * exchanger with a liquid. */
#define MOIST {4, 0.03, 0, 0, 0, 0}, 6
#define AIR {2, 287.05, 1005.45, 0, 0, 0}, 6
static const part moist_parts[] = {
    {"src", &tf_source_class},  {"fan", &tf_fan_class},       {"w", &sig_sine_class},
    {"cool", &tf_heater_class}, {"sep", &tf_separator_class}, {"xs", &tf_x_sensor_class},
    {"ts", &tf_t_sensor_class}, {"split", &tf_splitter_class}, {"d1", &tf_pressure_drop_class},
    {"d2", &tf_pressure_drop_class}, {"join", &tf_junction_class}, {"vol", &tf_volume_class},
    {"ntu", &tf_cross_ntu_class}, {"mfb", &tf_mass_flow_source_class}, {"skb", &tf_sink_class},
    {"snk", &tf_sink_class},    {"gsrc", &tf_source_class},  {"gsep", &tf_separator_class},
    {"gfan", &tf_fan_class},    {"gsnk", &tf_sink_class},    {"gin", &tf_source_class}};
static const char *const moist_conn[] = {
    "src.outlet", "fan.inlet", "w.y", "fan.omega_in", "fan.outlet", "cool.inlet", "cool.outlet",
    "sep.inlet", "sep.outlet", "xs.inlet", "xs.outlet", "ts.inlet", "ts.outlet", "split.inlet",
    "split.outlet1", "d1.inlet", "split.outlet2", "d2.inlet", "d1.outlet", "join.inlet1",
    "d2.outlet", "join.inlet2", "join.outlet", "vol.inlet", "vol.outlet", "ntu.inlet_a",
    "ntu.outlet_a", "snk.inlet", "mfb.outlet", "ntu.inlet_b", "ntu.outlet_b", "skb.inlet",
    "gsrc.outlet", "gsep.inlet", "gin.outlet", "gfan.inlet", "gfan.outlet", "gsnk.inlet", NULL};
static const param moist_params[] = {
    {0, "medium", MOIST},  {0, "T0", {300}, 1},   {0, "L", {1e3}, 1},    {1, "medium", MOIST},
    {1, "omega_from_input", {1}, 1}, {2, "offset", {300}, 1}, {2, "amplitude", {10}, 1},
    {3, "medium", MOIST},  {3, "Q", {100}, 1},   {3, "T0", {300}, 1},   {4, "medium", MOIST},
    {4, "outlet", {1}, 1}, {5, "medium", MOIST},  {6, "medium", MOIST},  {7, "medium", MOIST},
    {7, "m_flow1", {0.05}, 1}, {7, "L", {1e2}, 1}, {8, "medium", MOIST}, {8, "L", {1e3}, 1},
    {9, "medium", MOIST},  {9, "L", {1e3}, 1},    {10, "medium", MOIST}, {11, "medium", MOIST},
    {11, "V", {0.05}, 1},  {11, "T0", {290}, 1},  {11, "L", {1e3}, 1},   {12, "medium_a", MOIST},
    {12, "UA", {100}, 1},  {13, "m_flow", {0.1}, 1}, {13, "T0", {285}, 1}, {15, "medium", MOIST},
    {15, "p0", {0.99e5}, 1}, {16, "medium", MOIST}, {16, "L", {1e3}, 1}, {16, "T0", {280}, 1},
    {17, "medium", MOIST}, {17, "p0", {0.99e5}, 1}, {19, "medium", AIR}, {20, "medium", AIR},
    {20, "L", {1e3}, 1},   {0, NULL, {0}, 0}};

/* E: a gas turbine (turbo library): compressor, combustor, turbine on a
 * shaft driven by a starter. */
static const part turbo_parts[] = {
    {"intake", &tf_source_class}, {"comp", &tb_compressor_class}, {"comb", &tf_heater_class},
    {"turb", &tb_turbine_class},  {"exh", &tf_sink_class},        {"shaft", &ro_inertia_class},
    {"starter", &ro_torque_class}, {"u", &sig_constant_class},     {"fan", &tb_fan_class}};
static const char *const turbo_conn[] = {
    "intake.outlet", "comp.inlet", "comp.outlet", "comb.inlet", "comb.outlet", "turb.inlet",
    "turb.outlet", "fan.inlet", "fan.outlet", "exh.inlet", "shaft.flange_a", "comp.flange",
    "shaft.flange_a", "turb.flange", "shaft.flange_a", "fan.flange", "shaft.flange_b",
    "starter.flange", "u.y", "starter.u", NULL};
#define NASA_AIR {5, 0.7552, 0.2314, 0.0129, 0.0005, 0}, 6
static const param turbo_params[] = {
    {0, "medium", NASA_AIR}, {0, "L", {2e4}, 1}, {0, "T0", {288.15}, 1}, {2, "medium", NASA_AIR},
    {2, "Q", {3e4}, 1},      {2, "V", {0.02}, 1}, {3, "m_ref", {0.45}, 1}, {3, "medium", NASA_AIR},
    {4, "medium", NASA_AIR}, {5, "J", {0.02}, 1}, {5, "w", {1000}, 1},     {7, "k", {5}, 1},
    {8, "medium", NASA_AIR}, {0, NULL, {0}, 0}};

/* E2: the turbomachines of maps (the maps of tests/validation/
 * test_turbo_maps.lua): a compressor and a turbine, each between a source
 * and a sink, on the lines of their flow maps, on a shaft. */
static const double map_speeds[] = {1500, 2500, 3500};
static const double map_cr[] = {1.0, 1.5, 2.0, 2.5}, map_tr[] = {1.2, 1.6, 2.2, 3.0};
static const double map_cf[] = {0.8, 0.6, 0.3, 0.1, 1.4, 1.2, 0.9, 0.5, 2.0, 1.8, 1.6, 1.2};
static const double map_ce[] = {0.60, 0.70, 0.72, 0.65, 0.65, 0.80, 0.82, 0.75, 0.60, 0.78, 0.84, 0.80};
static const double map_tf[] = {0.20, 0.32, 0.40, 0.42, 0.18, 0.30, 0.39, 0.415, 0.15, 0.27, 0.37, 0.41};
static const double map_te[] = {0.70, 0.80, 0.82, 0.78, 0.75, 0.86, 0.88, 0.85, 0.72, 0.84, 0.89, 0.87};
#define MAP_DATA(R, Z, NAME) {2, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, 3, 4, map_speeds, R, Z, NAME}
static const lied_table_data map_cflow = MAP_DATA(map_cr, map_cf, "cflow"),
                             map_ceff = MAP_DATA(map_cr, map_ce, "ceff"),
                             map_tflow = MAP_DATA(map_tr, map_tf, "tflow"),
                             map_teff = MAP_DATA(map_tr, map_te, "teff");
static const lied_table_data *const map_tables[] = {&map_cflow, &map_ceff, &map_tflow, &map_teff,
                                                    NULL};
static const part maps_parts[] = {
    {"src", &tf_source_class},   {"comp", &tb_compressor_map_class}, {"snk", &tf_sink_class},
    {"tsrc", &tf_source_class},  {"turb", &tb_turbine_map_class},    {"tsnk", &tf_sink_class},
    {"shaft", &ro_inertia_class}, {"tin", &sig_sine_class}};
static const char *const maps_conn[] = {
    "src.outlet", "comp.inlet", "comp.outlet", "snk.inlet", "tsrc.outlet", "turb.inlet",
    "turb.outlet", "tsnk.inlet", "shaft.flange_a", "comp.flange", "shaft.flange_a", "turb.flange",
    "tin.y", "src.T0_in", NULL};
static const param maps_params[] = {
    {0, "medium", NASA_AIR}, {0, "L", {2e4}, 1},      {0, "T0_from_input", {1}, 1},
    {1, "medium", NASA_AIR}, {1, "flow", {0}, 1},     {1, "eff", {1}, 1},
    {2, "medium", NASA_AIR}, {2, "p0", {1.5e5}, 1},   {3, "medium", NASA_AIR},
    {3, "p0", {1.6e5}, 1},   {3, "T0", {600}, 1},     {3, "L", {2e4}, 1},
    {4, "medium", NASA_AIR}, {4, "flow", {2}, 1},     {4, "eff", {3}, 1},
    {5, "medium", NASA_AIR}, {6, "J", {5}, 1},        {6, "w", {2500}, 1},
    {7, "offset", {288}, 1}, {7, "amplitude", {5}, 1}, {0, NULL, {0}, 0}};

/* R: a refrigerant (R134a; T, rho and the saturation depend on p and h):
 * an expansion valve set by a signal into an evaporating heater, the four
 * sensors, a thermostatic valve whose superheat input is the sensor's. The
 * media's kind is the registry's (set in main). */
static const part ref_parts[] = {
    {"src", &tf_source_class},    {"ev", &rg_expansion_valve_class}, {"op", &sig_sine_class},
    {"evap", &tf_heater_class},   {"sh", &rg_superheat_class},       {"sc", &rg_subcooling_class},
    {"q", &rg_quality_class},     {"qe", &rg_quality_class},         {"ts", &rg_tsat_class},
    {"txv", &rg_thermostatic_valve_class}, {"snk", &tf_sink_class}};
static const char *const ref_conn[] = {
    "src.outlet", "ev.inlet", "op.y", "ev.opening", "ev.outlet", "evap.inlet", "evap.outlet",
    "sh.inlet", "sh.outlet", "sc.inlet", "sc.outlet", "q.inlet", "q.outlet", "qe.inlet",
    "qe.outlet", "ts.inlet", "ts.outlet", "txv.inlet", "sh.y", "txv.superheat", "txv.outlet",
    "snk.inlet", NULL};
static param ref_params[] = {
    {0, "medium", {0}, 6},       {0, "p0", {8e5}, 1},         {0, "T0", {295}, 1},
    {0, "L", {1e5}, 1},          {2, "offset", {0.5}, 1},     {2, "amplitude", {0.1}, 1},
    {3, "medium", {0}, 6},       {3, "Q", {3.5e3}, 1},        {3, "V", {1e-4}, 1},
    {3, "p0", {3e5}, 1},         {3, "T0", {280}, 1},         {7, "extended", {1}, 1},
    {9, "A", {4e-6}, 1},         {9, "sh_range", {20}, 1},    {10, "medium", {0}, 6},
    {10, "p0", {2e5}, 1},        {0, NULL, {0}, 0}};

/* R2: the two-phase exchangers (the refrigerant's pressure a state): R134a
 * through a valve into a counter-flow then a cross-flow one, air through
 * both the other way round. */
static const part rhx_parts[] = {
    {"src", &tf_source_class},      {"ev", &rg_expansion_valve_class}, {"op", &sig_sine_class},
    {"e1", &tf_rhx_counter_class},  {"e2", &tf_rhx_cross_class},       {"snk", &tf_sink_class},
    {"air", &tf_mass_flow_source_class}, {"ma", &sig_sine_class},      {"ask", &tf_sink_class}};
static const char *const rhx_conn[] = {
    "src.outlet", "ev.inlet", "op.y", "ev.opening", "ev.outlet", "e1.inlet_a", "e1.outlet_a",
    "e2.inlet_a", "e2.outlet_a", "snk.inlet", "ma.y", "air.m_flow_in", "air.outlet", "e2.inlet_b",
    "e2.outlet_b", "e1.inlet_b", "e1.outlet_b", "ask.inlet", NULL};
static param rhx_params[] = {
    {0, "medium", {0}, 6},      {0, "p0", {8e5}, 1},        {0, "T0", {295}, 1},
    {0, "L", {1e5}, 1},         {2, "offset", {0.5}, 1},    {2, "amplitude", {0.1}, 1},
    {3, "N", {4}, 1},           {3, "p0_a", {3e5}, 1},      {3, "x0_a", {0.5}, 1},
    {3, "L", {1e4}, 1},         {3, "m_flow", {0.02}, 1},   {3, "medium_b", AIR},
    {3, "C_w", {2000}, 1},      {4, "N", {2}, 1},           {4, "p0_a", {2.9e5}, 1},
    {4, "x0_a", {0.9}, 1},      {4, "L", {1e4}, 1},         {4, "m_flow", {0.02}, 1},
    {4, "medium_b", AIR},       {5, "medium", {0}, 6},      {5, "p0", {2.5e5}, 1},
    {6, "m_flow_from_input", {1}, 1}, {6, "T0", {303}, 1},  {6, "medium", AIR},
    {7, "offset", {0.5}, 1},    {7, "amplitude", {0.1}, 1}, {8, "medium", AIR},
    {0, NULL, {0}, 0}};

/* R3: a refrigeration circuit's line (R134a): superheated vapour from a
 * source through a compressor (its speed a signal) into a receiver cooled
 * by a signal, an expansion valve (a signal), an accumulator heated, a
 * sink; and a compressor of maps on a shaft between a source and a sink. */
static const part circ_parts[] = {
    {"src", &tf_source_class},    {"comp", &rg_compressor_class}, {"w", &sig_sine_class},
    {"rcv", &rg_receiver_class},  {"q", &sig_sine_class},         {"ev", &rg_expansion_valve_class},
    {"op", &sig_sine_class},      {"acc", &rg_accumulator_class}, {"snk", &tf_sink_class},
    {"msrc", &tf_source_class},   {"cmap", &rg_compressor_map_class}, {"shaft", &ro_inertia_class},
    {"msnk", &tf_sink_class}};
static const char *const circ_conn[] = {
    "src.outlet", "comp.inlet", "w.y", "comp.speed", "comp.outlet", "rcv.inlet", "q.y", "rcv.Q_in",
    "rcv.outlet", "ev.inlet", "op.y", "ev.opening", "ev.outlet", "acc.inlet", "acc.outlet",
    "snk.inlet", "msrc.outlet", "cmap.inlet", "shaft.flange_a", "cmap.flange", "cmap.outlet",
    "msnk.inlet", NULL};
static const double cmap_pr[] = {1, 3, 5}, cmap_w[] = {100, 300, 500};
static const double cmap_es[] = {0.6, 0.7, 0.65, 0.62, 0.72, 0.68, 0.6, 0.7, 0.66};
static const double cmap_ev[] = {0.95, 0.9, 0.85, 0.93, 0.88, 0.83, 0.9, 0.86, 0.8};
static const lied_table_data cmap_eta_s = {2, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, 3, 3, cmap_pr,
                                           cmap_w, cmap_es, "eta_s"},
                             cmap_eta_v = {2, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, 3, 3, cmap_pr,
                                           cmap_w, cmap_ev, "eta_v"};
static const lied_table_data *const cmap_tables[] = {&cmap_eta_s, &cmap_eta_v, NULL};
static param circ_params[] = {
    {0, "medium", {0}, 6},     {0, "p0", {3e5}, 1},       {0, "T0", {285}, 1},
    {0, "L", {1e5}, 1},        {0, "m_flow", {0.0119}, 1}, {1, "V_d", {2e-5}, 1},
    {1, "medium", {0}, 6},     {2, "offset", {300}, 1},   {2, "amplitude", {20}, 1},
    {3, "medium", {0}, 6},     {3, "p0", {1e6}, 1},       {3, "Q_from_input", {1}, 1},
    {3, "L", {1e6}, 1},        {3, "m_flow", {0.0125}, 1}, {3, "level_mouth", {0.55}, 1},
    {4, "offset", {-2e3}, 1},  {4, "amplitude", {500}, 1}, {5, "medium", {0}, 6},
    {5, "A", {3e-7}, 1},       {6, "offset", {0.6}, 1},   {6, "amplitude", {0.2}, 1},
    {7, "medium", {0}, 6},     {7, "p0", {3e5}, 1},       {7, "Q", {2e3}, 1},
    {7, "L", {1e6}, 1},        {7, "m_flow", {0.0125}, 1}, {7, "level_mouth", {0.85}, 1},
    {8, "medium", {0}, 6},     {8, "p0", {2.9e5}, 1},     {9, "medium", {0}, 6},
    {9, "p0", {3e5}, 1},       {9, "T0", {285}, 1},       {9, "L", {1e5}, 1},
    {9, "m_flow", {0.01166}, 1}, {10, "medium", {0}, 6},   {10, "V_d", {2e-5}, 1},
    {10, "shaft", {1}, 1},     {10, "eta_s_map", {0}, 1}, {10, "eta_v_map", {1}, 1},
    {10, "pr_v", {3}, 1},      {11, "J", {5}, 1},         {11, "w", {300}, 1},
    {12, "medium", {0}, 6},    {12, "p0", {9e5}, 1},      {0, NULL, {0}, 0}};

/* F: undirected liquid with every component (m_flow_reg = 100: every blend
 * between the two directions and the junction's regularised weights in use,
 * so both directions' states count): pump, valve, junction, drops, an
 * exchanger, a volume with two rear ports, the four sensors. */
static const part und_parts[] = {
    {"a", &tfu_boundary_rear_class}, {"pin", &sig_constant_class},
    {"tin", &sig_sine_class},        {"pump", &tfu_pump_class},
    {"w", &sig_sine_class},          {"valve", &tfu_valve_class},
    {"op", &sig_sine_class},         {"j", &tfu_junction_class},
    {"d1", &tfu_pressure_drop_class}, {"d2", &tfu_linquad_drop_class},
    {"hx", &tfu_counter_hx_class},   {"ua", &sig_constant_class},
    {"vol", &tfu_volume_n_class},    {"q", &sig_constant_class},
    {"lam", &tfu_laminar_drop_class}, {"ts", &tfu_t_sensor_class},
    {"ps", &tfu_p_sensor_class},     {"ms", &tfu_m_sensor_class},
    {"hs", &tfu_h_sensor_class},     {"endf", &tfu_boundary_fore_class},
    {"b", &tfu_boundary_rear_class}, {"bf", &tfu_boundary_fore_class},
    {"px", &tfu_parallel_hx_class},  {"c", &tfu_boundary_rear_class}};
static const char *const und_conn[] = {
    "pin.y", "a.p0_in", "tin.y", "a.T0_in", "a.fore", "pump.rear", "w.y", "pump.omega_in",
    "pump.fore", "valve.rear", "op.y", "valve.opening", "valve.fore", "j.rear[1]", "j.fore[1]",
    "d1.rear", "d1.fore", "hx.rear_a", "hx.fore_a", "vol.rear[1]", "j.fore[2]", "d2.rear",
    "d2.fore", "vol.rear[2]", "ua.y", "hx.UA_in", "q.y", "vol.Q_in", "vol.fore[1]", "lam.rear",
    "lam.fore", "ts.rear", "ts.fore", "ps.rear", "ps.fore", "ms.rear", "ms.fore", "hs.rear",
    "hs.fore", "endf.rear", "b.fore", "hx.rear_b", "hx.fore_b", "px.rear_a", "px.fore_a",
    "bf.rear", "c.fore", "px.rear_b", "px.fore_b", "vol.rear[3]", NULL};
#define MREG {100}, 1
static const param und_params[] = {
    {0, "p0_from_input", {1}, 1}, {0, "T0_from_input", {1}, 1}, {0, "L", {1e4}, 1},
    {0, "m_flow_reg", MREG},      {1, "k", {3e5}, 1},           {2, "offset", {330}, 1},
    {2, "amplitude", {5}, 1},     {3, "omega_from_input", {1}, 1}, {4, "offset", {150}, 1},
    {4, "amplitude", {20}, 1},    {5, "Kv", {5}, 1},            {6, "offset", {0.6}, 1},
    {6, "amplitude", {0.2}, 1},   {7, "n_rear", {1}, 1},        {7, "n_fore", {2}, 1},
    {7, "L", {1e3}, 1},           {7, "m_flow_reg", MREG},      {7, "m_flow1", {0.1}, 1},
    {8, "L", {1e4}, 1},           {9, "k1", {1e3}, 1},          {9, "k2", {2e4}, 1},
    {9, "L", {1e4}, 1},           {10, "N", {4}, 1},            {10, "UA_from_input", {1}, 1},
    {10, "T0_b", {290}, 1},       {10, "m_flow_reg", MREG},     {11, "k", {800}, 1},
    {12, "n_rear", {3}, 1},       {12, "n_fore", {1}, 1},       {12, "V", {0.01}, 1},
    {12, "p0", {2e5}, 1},         {12, "Q_from_input", {1}, 1}, {12, "L_fore", {1e4}, 1},
    {12, "m_flow_reg", MREG},     {13, "k", {-5e3}, 1},         {14, "L", {1e3}, 1},
    {15, "m_flow_reg", MREG},     {16, "m_flow_reg", MREG},     {17, "m_flow_reg", MREG},
    {18, "m_flow_reg", MREG},     {19, "m_flow_reg", MREG},     {20, "p0", {1.5e5}, 1},
    {20, "T0", {290}, 1},         {20, "L", {1e4}, 1},          {21, "m_flow_reg", MREG},
    {22, "N", {3}, 1},            {22, "m_flow_reg", MREG},     {23, "p0", {2.2e5}, 1},
    {23, "T0", {350}, 1},         {23, "L", {1e4}, 1},          {0, NULL, {0}, 0}};

/* G: moist air through the adapters: a directed source, into undirected
 * streams (fan, sensor, drops, volume), out to a directed sink. */
static const part mix_parts[] = {
    {"src", &tf_source_class},         {"tin", &sig_sine_class},
    {"i2f", &tfu_inlet_fore_class},    {"fan", &tfu_fan_class},
    {"w", &sig_sine_class},            {"ts", &tfu_t_sensor_class},
    {"d1", &tfu_pressure_drop_class},  {"v", &tfu_volume_class},
    {"d2", &tfu_linquad_drop_class},   {"r2o", &tfu_rear_outlet_class},
    {"d3", &tf_linquad_drop_class},    {"snk", &tf_sink_class},
    {"hs", &tfu_h_sensor_class}};
static const char *const mix_conn[] = {
    "tin.y", "src.T0_in", "src.outlet", "i2f.inlet", "i2f.fore", "fan.rear", "w.y",
    "fan.omega_in", "fan.fore", "ts.rear", "ts.fore", "d1.rear", "d1.fore", "v.rear", "v.fore",
    "hs.rear", "hs.fore", "d2.rear", "d2.fore", "r2o.rear", "r2o.outlet", "d3.inlet", "d3.outlet",
    "snk.inlet", NULL};
static const param mix_params[] = {
    {0, "medium", MOIST},         {0, "p0", {1.02e5}, 1},      {0, "T0_from_input", {1}, 1},
    {0, "L", {1e3}, 1},           {1, "offset", {300}, 1},     {1, "amplitude", {5}, 1},
    {2, "medium", MOIST},         {2, "L", {1e3}, 1},          {2, "m_flow_reg", MREG},
    {3, "medium", MOIST},         {3, "omega_from_input", {1}, 1}, {4, "offset", {300}, 1},
    {4, "amplitude", {20}, 1},    {5, "medium", MOIST},        {5, "m_flow_reg", MREG},
    {6, "medium", MOIST},         {6, "v_ref", {1}, 1},        {6, "L", {1e3}, 1},
    {7, "medium", MOIST},         {7, "V", {0.05}, 1},         {7, "p0", {1.01e5}, 1},
    {7, "T0", {290}, 1},          {7, "m_flow_reg", MREG},     {8, "medium", MOIST},
    {8, "k1", {1e2}, 1},          {8, "k2", {1e3}, 1},         {8, "L", {1e3}, 1},
    {9, "medium", MOIST},         {10, "medium", MOIST},       {10, "k1", {1e2}, 1},
    {10, "k2", {1e3}, 1},         {10, "L", {1e3}, 1},         {11, "medium", MOIST},
    {12, "medium", MOIST},        {12, "m_flow_reg", MREG},    {0, NULL, {0}, 0}};

/* H: flows reversed (a fan and a pump driven backwards, a stream running
 * rearwards), so that what arrives rearwards counts where a component takes
 * it upwind by the sign; moist air in fog (T depends on p), a volume with a
 * port of each direction, blends on in the exchanger and the junction. Fan,
 * volume, exchanger, volume of n ports, junction in moist air; a parallel
 * exchanger between the moist stream and a liquid pumped backwards. */
static const part rev_parts[] = {
    {"a", &tfu_boundary_rear_class}, {"fan", &tfu_fan_class},
    {"v", &tfu_volume_class},        {"hx", &tfu_counter_hx_class},
    {"vn", &tfu_volume_n_class},     {"j", &tfu_junction_class},
    {"bf", &tfu_boundary_fore_class}, {"b", &tfu_boundary_rear_class},
    {"bf2", &tfu_boundary_fore_class}, {"la", &tfu_boundary_rear_class},
    {"pump", &tfu_pump_class},       {"lb", &tfu_boundary_fore_class},
    {"px", &tfu_parallel_hx_class},  {"c", &tfu_boundary_rear_class}};
static const char *const rev_conn[] = {
    "a.fore", "fan.rear", "fan.fore", "v.rear", "v.fore", "hx.rear_a", "hx.fore_a", "vn.rear[1]",
    "c.fore", "vn.rear[2]", "vn.fore[1]", "j.rear[1]", "j.fore[1]", "bf.rear", "b.fore",
    "hx.rear_b", "hx.fore_b", "px.rear_a", "px.fore_a", "bf2.rear", "la.fore", "pump.rear",
    "pump.fore", "px.rear_b", "px.fore_b", "lb.rear", NULL};
static const param rev_params[] = {
    {0, "medium", MOIST},     {0, "T0", {285}, 1},      {0, "L", {1e3}, 1},
    {1, "medium", MOIST},     {1, "omega", {-300}, 1},  {2, "medium", MOIST},
    {2, "V", {0.05}, 1},      {2, "T0", {285}, 1},      {2, "L_fore", {1e3}, 1},
    {3, "medium_a", MOIST},   {3, "medium_b", MOIST},   {3, "N", {3}, 1},
    {3, "T0_a", {285}, 1},    {3, "T0_b", {280}, 1},    {3, "m_flow_reg", MREG},
    {4, "medium", MOIST},     {4, "n_rear", {2}, 1},    {4, "n_fore", {1}, 1},
    {4, "V", {0.05}, 1},      {4, "L_fore", {1e3}, 1},  {4, "T0", {285}, 1},
    {5, "medium", MOIST},     {5, "n_rear", {1}, 1},    {5, "n_fore", {1}, 1},
    {5, "L", {1e3}, 1},       {5, "m_flow_reg", MREG},  {6, "medium", MOIST},
    {6, "T0", {280}, 1},      {6, "p0", {1.02e5}, 1},   {7, "medium", MOIST},     {7, "T0", {280}, 1},
    {7, "L", {1e3}, 1},       {8, "medium", MOIST},     {8, "p0", {1.002e5}, 1},
    {8, "T0", {283}, 1},      {9, "L", {1e4}, 1},       {10, "omega", {-100}, 1},
    {12, "medium_a", MOIST},  {12, "N", {3}, 1},        {12, "T0_a", {283}, 1},
    {12, "m_flow_reg", MREG},
    {13, "medium", MOIST},    {13, "p0", {1.01e5}, 1},  {13, "T0", {282}, 1},
    {13, "L", {1e3}, 1},      {0, NULL, {0}, 0}};

/* I: the undirected two-phase exchangers: R134a vapour from a rear
 * boundary through a counter-flow then a cross-flow one to a fore
 * boundary, air through both the other way round. */
static const part urhx_parts[] = {
    {"a", &tfu_boundary_rear_class},  {"e1", &tfu_rhx_counter_class},
    {"e2", &tfu_rhx_cross_class},     {"af", &tfu_boundary_fore_class},
    {"b", &tfu_boundary_rear_class},  {"bf", &tfu_boundary_fore_class}};
static const char *const urhx_conn[] = {
    "a.fore", "e1.rear_a", "e1.fore_a", "e2.rear_a", "e2.fore_a", "af.rear", "b.fore",
    "e2.rear_b", "e2.fore_b", "e1.rear_b", "e1.fore_b", "bf.rear", NULL};
static param urhx_params[] = {
    {0, "medium", {0}, 6},      {0, "p0", {3.1e5}, 1},      {0, "T0", {285}, 1},
    {0, "L", {1e4}, 1},         {1, "N", {3}, 1},           {1, "p0_a", {3e5}, 1},
    {1, "T0_a", {283}, 1},      {1, "medium_a", {0}, 6},    {1, "medium_b", AIR},
    {2, "N", {2}, 1},           {2, "p0_a", {2.95e5}, 1},   {2, "T0_a", {283}, 1},
    {2, "medium_a", {0}, 6},    {2, "medium_b", AIR},       {3, "medium", {0}, 6},
    {3, "p0", {2.9e5}, 1},      {3, "T0", {283}, 1},        {4, "medium", AIR},
    {4, "p0", {1.02e5}, 1},     {4, "T0", {300}, 1},        {4, "L", {1e4}, 1},
    {5, "medium", AIR},         {5, "p0", {1.0e5}, 1},      {5, "T0", {300}, 1},
    {1, "L_fore", {1e4}, 1},    {2, "L_fore", {1e4}, 1},    {1, "L_b", {1e4}, 1},
    {2, "L_b", {1e4}, 1},       {0, NULL, {0}, 0}};

/* ---- the audit fails both ways: a sensor that reads h and declares p --- */

typedef struct bad_sensor {
  tf_in inlet;
  tf_out outlet;
  tf_med med;
  double y;
} bad_sensor;
TF_P_PASS_BLOCK(bad_pressure_b, bad_sensor, inlet, outlet)
TF_FLOW_PASS(bad_flow_b, bad_sensor, inlet, outlet, med)
static void bad_measure(const lied_env *env, bad_sensor *s) {
  (void)env;
  s->y = s->inlet.state->h; /* declared below as reading p */
}
static void bad_der(const lied_env *env, bad_sensor *s) {
  (void)env;
  tf_pass_der(&s->inlet, &s->outlet);
}
static void bad_r(const lied_env *env, bad_sensor *s) {
  (void)env;
  s->inlet.r.r = s->outlet.r->r;
}
LIED_BLOCK(bad_measure_b, bad_sensor, bad_measure)
LIED_BLOCK(bad_der_b, bad_sensor, bad_der)
LIED_BLOCK(bad_r_b, bad_sensor, bad_r)
static int bad_init(void *self, lied_init *ctx) {
  return tf_medium_init(&((bad_sensor *)self)->med, ctx);
}
static void bad_meta(lied_meta *m, void *self) {
  bad_sensor *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  lied_meta_var(m, "y", "J/kg", &s->y);
  tf_meta_p_pass(m, "pressure", bad_pressure_b, NULL, &s->inlet, &s->outlet);
  tf_meta_flow_pass(m, bad_flow_b, &s->inlet, &s->outlet, &s->med);
  lied_meta_block(m, "measure", bad_measure_b, 0, LIED_SIGS(&s->inlet.state), LIED_SIGS(&s->y));
  tf_meta_reads(m, &s->inlet, TF_P);
  lied_meta_block(m, "der", bad_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->inlet.der),
                  LIED_SIGS(&s->outlet.der));
  lied_meta_block(m, "r", bad_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->outlet.r),
                  LIED_SIGS(&s->inlet.r));
}
static const lied_param bad_params[] = {TF_MEDIUM_PARAM(bad_sensor)};
static const lied_class bad_class = {"BadSensor", "test", "measures h, declares p",
                                     sizeof(bad_sensor), bad_params, 1, bad_init, bad_meta};
static const part bad_parts[] = {{"src", &tf_source_class}, {"tin", &sig_sine_class},
                                 {"bad", &bad_class},       {"snk", &tf_sink_class}};
static const char *const bad_conn[] = {"tin.y", "src.T0_in", "src.outlet", "bad.inlet",
                                       "bad.outlet", "snk.inlet", NULL};
static const param bad_params_v[] = {{0, "T0_from_input", {1}, 1}, {0, "L", {1e4}, 1},
                                     {1, "offset", {330}, 1},      {1, "amplitude", {5}, 1},
                                     {0, NULL, {0}, 0}};

/* ---- the engine: a pointer listed twice ---------------------------------- */

typedef struct two_reads {
  tf_in inlet;
  double y;
} two_reads;
static void two_eval(const lied_env *env, two_reads *c) {
  (void)env;
  c->y = c->inlet.state->m_flow + c->inlet.state->h;
}
LIED_BLOCK(two_eval_b, two_reads, two_eval)
static int two_mode; /* 0: two ranges; 1: one listing, two calls; 2: beyond the signal */
static void two_meta(lied_meta *m, void *self) {
  two_reads *c = self;
  lied_meta_port(m, "inlet", 0, &c->inlet, &tf_in_layout);
  lied_meta_var(m, "y", "1", &c->y);
  lied_meta_block(m, "eval", two_eval_b, 0,
                  two_mode == 1 ? LIED_SIGS(&c->inlet.state) : LIED_SIGS(&c->inlet.state, &c->inlet.state),
                  LIED_SIGS(&c->y));
  lied_meta_reads(m, &c->inlet.state, 0, 1);
  lied_meta_reads(m, &c->inlet.state, 2, two_mode == 2 ? 2 : 1);
}
static const lied_class two_class = {"TwoReads", "test", "reads m_flow and h of a stream",
                                     sizeof(two_reads), NULL, 0, NULL, two_meta};

static void engine(void) {
  for (two_mode = 0; two_mode < 3; two_mode++) {
    lied_err e = {0};
    lied_template t;
    two_reads c;
    memset(&c, 0, sizeof c);
    const int rc = lied_template_crawl(&t, &two_class, &c, sizeof c, &e);
    if (two_mode == 0) {
      CHECK(rc == LIED_OK);
      if (rc) continue;
      const lied_tblock *b = &t.blocks[0];
      CHECK(b->nin == 2);
      CHECK(t.refs[b->in0].first == 0 && t.refs[b->in0].nvars == 1);
      CHECK(t.refs[b->in0 + 1].first == 2 && t.refs[b->in0 + 1].nvars == 1);
      CHECK(lied_template_check(&t, &two_class, &c, sizeof c, &e) == LIED_OK);
      lied_template_free(&t);
    } else if (two_mode == 1) {
      CHECK(rc == LIED_E_MODEL);
      CHECK(strstr(e.msg, "lied_meta_reads: block eval has its variables already: list the "
                          "address once per range") != NULL);
    } else {
      CHECK(rc == LIED_E_MODEL);
      CHECK(strstr(e.msg, "block eval reads variables 3 .. 4 of inlet.state, which has 3 "
                          "(m_flow,p,h)") != NULL);
    }
    if (rc && two_mode == 0) fprintf(stderr, "%s\n", e.msg);
  }
}

int main(void) {
  engine();
  audit("liquid line", line_parts, 24, line_conn, line_params, 5);
  audit("exchangers", hx_parts, (int)(sizeof hx_parts / sizeof *hx_parts), hx_conn, hx_params, 5);
  audit("steam", steam_parts, (int)(sizeof steam_parts / sizeof *steam_parts), steam_conn,
        steam_params, 5);
  audit("moist air", moist_parts, (int)(sizeof moist_parts / sizeof *moist_parts), moist_conn,
        moist_params, 2);
  audit("gas turbine", turbo_parts, (int)(sizeof turbo_parts / sizeof *turbo_parts), turbo_conn,
        turbo_params, 1);
  tables_next = map_tables;
  audit("turbomachines of maps", maps_parts, (int)(sizeof maps_parts / sizeof *maps_parts),
        maps_conn, maps_params, 1);
  const tf_medium *r134a = tf_medium_find("R134a");
  CHECK(r134a != NULL);
  for (int i = 0; r134a && ref_params[i].name; i++)
    if (!strcmp(ref_params[i].name, "medium")) ref_params[i].v[0] = tf_medium_kind(r134a);
  for (int i = 0; r134a && rhx_params[i].name; i++)
    if (!strcmp(rhx_params[i].name, "medium") && rhx_params[i].v[0] == 0) /* not the air's */
      rhx_params[i].v[0] = tf_medium_kind(r134a);
  audit("two-phase exchangers", rhx_parts, (int)(sizeof rhx_parts / sizeof *rhx_parts), rhx_conn,
        rhx_params, 2);
  for (int i = 0; r134a && urhx_params[i].name; i++)
    if ((!strcmp(urhx_params[i].name, "medium") || !strcmp(urhx_params[i].name, "medium_a")) &&
        urhx_params[i].len == 6 && urhx_params[i].v[0] == 0)
      urhx_params[i].v[0] = tf_medium_kind(r134a);
  audit("undirected two-phase exchangers", urhx_parts,
        (int)(sizeof urhx_parts / sizeof *urhx_parts), urhx_conn, urhx_params, 2);
  /* the same with the refrigerant's boundaries' pressures swapped: it runs
   * rearwards (fore_a's arriving state then counts: r0's p_back, the
   * energy's upwind h) */
  param urhx_rev[sizeof urhx_params / sizeof *urhx_params];
  memcpy(urhx_rev, urhx_params, sizeof urhx_rev);
  for (int i = 0; urhx_rev[i].name; i++)
    if (!strcmp(urhx_rev[i].name, "p0") && (urhx_rev[i].part == 0 || urhx_rev[i].part == 3))
      urhx_rev[i].v[0] = urhx_rev[i].part == 0 ? 2.9e5 : 3.1e5;
  audit("undirected two-phase exchangers, refrigerant rearwards", urhx_parts,
        (int)(sizeof urhx_parts / sizeof *urhx_parts), urhx_conn, urhx_rev, 2);
  audit("refrigerant", ref_parts, (int)(sizeof ref_parts / sizeof *ref_parts), ref_conn,
        ref_params, 2);
  for (int i = 0; r134a && circ_params[i].name; i++)
    if (!strcmp(circ_params[i].name, "medium")) circ_params[i].v[0] = tf_medium_kind(r134a);
  tables_next = cmap_tables;
  audit("refrigeration circuit", circ_parts, (int)(sizeof circ_parts / sizeof *circ_parts),
        circ_conn, circ_params, 2);
  audit("undirected liquid", und_parts, (int)(sizeof und_parts / sizeof *und_parts), und_conn,
        und_params, 5);
  audit("undirected moist air", mix_parts, (int)(sizeof mix_parts / sizeof *mix_parts), mix_conn,
        mix_params, 2);
  audit("reversed flows", rev_parts, (int)(sizeof rev_parts / sizeof *rev_parts), rev_conn,
        rev_params, 2);
  /* every class with a stream of the three libraries was audited (the
   * thermofluid library's signal sources, the signals library's, excepted) */
  for (int i = 0; i < lied_library_count(); i++) {
    const lied_library *lib = lied_library_at(i);
    if (strcmp(lib->name, "thermofluid") && strcmp(lib->name, "undirected") &&
        strcmp(lib->name, "turbo") && strcmp(lib->name, "refrigeration"))
      continue;
    for (const lied_class *const *c = lib->classes; *c; c++) {
      static const char *const sources[] = {"Constant", "Step", "Ramp", "Sine"};
      int known = 0;
      for (int k = 0; k < 4; k++) known |= !strcmp((*c)->name, sources[k]);
      for (int k = 0; k < nseen; k++) known |= seen[k] == *c;
      CHECK(known);
      if (!known) fprintf(stderr, "%s.%s: in no audited model\n", lib->name, (*c)->name);
    }
  }
  /* the audit fails where a declaration is short: the one block, once */
  expecting = 1;
  audit("a sensor declaring too little", bad_parts, 4, bad_conn, bad_params_v, 1);
  expecting = 0;
  CHECK(reported == 1 && strcmp(reported_block, "measure") == 0);
  /* declared and read, yet without effect in these models: a turbomachine's
   * isentropic enthalpy change is computed from p_in and p_out = pr p_in
   * (the entropy at p_in, the temperature at that entropy and p_out); for
   * an ideal gas p cancels, but the block reads it */
  static const char *const cancels[][3] = {
      {"Compressor", "work", "state"},    {"Turbine", "work", "state"}, {"Fan", "work", "state"},
      {"CompressorMap", "work", "state"}, {"TurbineMap", "work", "state"}};
  int unused = 0, bad_unused = 0;
  for (int i = 0; i < nuses; i++) {
    if (!strcmp(uses[i].cls, "BadSensor")) { /* its measure's p alone */
      bad_unused += !uses[i].counts;
      CHECK(uses[i].counts == !(!strcmp(uses[i].block, "measure") && uses[i].var == 1));
      continue;
    }
    int allowed = 0;
    for (size_t k = 0; k < sizeof cancels / sizeof *cancels; k++)
      allowed |= uses[i].var == 1 && !strcmp(uses[i].cls, cancels[k][0]) &&
                 !strcmp(uses[i].block, cancels[k][1]) && !strcmp(uses[i].signal, cancels[k][2]);
    if (!uses[i].counts && !allowed) {
      unused++;
      fprintf(stderr, "%s block %s: declares it reads variable %d of %s, which changed nothing\n",
              uses[i].cls, uses[i].block, uses[i].var, uses[i].signal);
    }
  }
  CHECK(unused == 0);
  CHECK(bad_unused == 1); /* p, declared and not read, found too */
  printf("%d declared reads of stream variables, %d changed nothing (and BadSensor's %d)\n",
         nuses, unused, bad_unused);
  printf("%d candidates changed; the short declaration reported %d time(s)\n", audited, reported);
  return CHECK_DONE();
}
