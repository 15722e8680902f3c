/* test_lanes_thermal.c - lane forms on the media's other paths: fused steps
 * in lane form give the same bits as fused steps copy by copy for two
 * streams through a ConductionElement and a counter-flow and a
 * parallel-flow heat exchanger into sinks with air on one side and a wall
 * capacity (the media tables of an ideal gas), and for a cross-flow
 * exchanger with a wall between a liquid and air; 77 copies (two full groups
 * and a partial one). The classes' lane forms against their blocks at their
 * defaults (a liquid) are test_lane_forms.c, driven by the class registry;
 * steam and moist air tests/lua/test_media_lanes.lua. */
#include "lanes.h"
#include "lib/signals/signals.h"
#include "lib/thermal/thermal.h"
#include "lib/thermofluid/thermofluid.h"

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
    {1, "medium", {2, 287.05, 1005.45, 0, 0, 0}, 6}, /* side b air throughout (one medium a stream) */
    {3, "medium_b", {2, 287.05, 1005.45, 0, 0, 0}, 6}, {6, "medium", {2, 287.05, 1005.45, 0, 0, 0}, 6},
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

int main(void) {
  const variant v[] = {
      {"heat exchangers, air", hx_parts, (int)(sizeof hx_parts / sizeof *hx_parts), hx_conn,
       hx_gas_params, NULL},
      {"cross flow", cross_parts, 5, cross_conn, cross_params, NULL},
  };
  for (int i = 0; i < 2; i++) {
    lanes_same_bits(&v[i], "rk4");
    lanes_same_bits(&v[i], "euler");
  }
  return CHECK_DONE();
}
