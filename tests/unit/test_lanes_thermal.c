/* test_lanes_thermal.c - lane forms of the thermal library and of the
 * thermofluid heat-transfer components: fused steps in lane form give the
 * same bits as fused steps copy by copy (as tests/unit/test_lanes.c for the
 * mechanics library), for a heat network with every class of lied.thermal
 * (nodes, branches summed at nodes, sensors, signal inputs) and for two
 * streams through a ConductionElement and a counter-flow and a parallel-flow
 * heat exchanger into sinks, with liquids (the exchangers' inline fast path)
 * and with air on one side and a wall capacity (the media tables), and a
 * cross-flow exchanger with a wall;
 * 77 copies (two full groups
 * and a partial one). */
#include "lanes.h"
#include "lib/signals/signals.h"
#include "lib/thermal/thermal.h"
#include "lib/thermofluid/thermofluid.h"

/* A heat network: two capacitors between a fixed and a prescribed
 * temperature, every branch class, three and four branches on one node. */
static const part net_parts[] = {
    {"amb", &th_fixed_temperature_class},   {"wall", &th_prescribed_temperature_class},
    {"ramp", &sig_ramp_class},              {"c1", &th_heat_capacitor_class},
    {"c2", &th_heat_capacitor_class},       {"g1", &th_conductor_class},
    {"g2", &th_conductor_class},            {"conv", &th_convection_class},
    {"gc", &sig_sine_class},                {"rad", &th_radiation_class},
    {"load", &th_fixed_heat_flow_class},    {"heater", &th_prescribed_heat_flow_class},
    {"q", &sig_sine_class},                 {"ts", &th_temperature_sensor_class},
    {"qs", &th_heat_flow_sensor_class},     {"g3", &th_conductor_class},
    {"conv2", &th_convection_class}};
static const char *const net_conn[] = {
    "ramp.y", "wall.T_in",   "amb.port", "g1.port_a", "c1.port", "g1.port_b",
    "c1.port", "g2.port_a",  "c2.port", "g2.port_b",  "c2.port", "conv.solid",
    "wall.port", "conv.fluid", "gc.y", "conv.Gc_in",  "c1.port", "rad.port_a",
    "amb.port", "rad.port_b", "c2.port", "load.port", "c1.port", "heater.port",
    "q.y", "heater.Q_flow_in", "c1.port", "ts.port",  "c2.port", "qs.port_a",
    "qs.port_b", "g3.port_a", "amb.port", "g3.port_b", "c1.port", "conv2.solid",
    "wall.port", "conv2.fluid", NULL};
static const param net_params[] = {
    {0, "T", {1.1}, 1},      {2, "offset", {1.5}, 1}, {2, "height", {0.5}, 1},
    {2, "duration", {0.1}, 1},
    {3, "C", {2.5}, 1},      {4, "C", {0.7}, 1},      {5, "G", {0.3}, 1},
    {6, "G", {1.1}, 1},      {7, "Gc_from_input", {1}, 1}, {8, "amplitude", {0.4}, 1},
    {8, "offset", {1}, 1},   {9, "Gr", {1e6}, 1},     {10, "Q_flow", {0.2}, 1},
    {10, "alpha", {0.5}, 1}, {10, "T_ref", {1.2}, 1}, {11, "alpha", {-0.1}, 1},
    {12, "amplitude", {0.3}, 1}, {12, "w", {5}, 1},  {15, "G", {0.9}, 1},
    {16, "Gc", {0.6}, 1},    {0, NULL, {0}, 0}};

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
static const param hx_params[] = {
    {0, "m_flow", {0.3}, 1},     {1, "T0_from_input", {1}, 1}, {1, "m_flow_from_input", {1}, 1},
    {2, "V", {1e-4}, 1},         {3, "N", {5}, 1},             {3, "UA_from_input", {1}, 1},
    {4, "N", {3}, 1},            {4, "UA", {40}, 1},           {4, "V_b", {2e-4}, 1},
    {6, "p0_from_input", {1}, 1}, {7, "C", {3}, 1},            {8, "G", {20}, 1},
    {9, "amplitude", {30}, 1},   {9, "offset", {100}, 1},      {10, "k", {2e5}, 1},
    {11, "offset", {320}, 1},    {11, "amplitude", {5}, 1},    {12, "offset", {0.2}, 1},
    {12, "height", {0.1}, 1},    {12, "duration", {0.05}, 1},  {0, NULL, {0}, 0}};

/* The same with air on the parallel exchanger's side b: its lane form
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

int main(void) {
  const variant v[] = {
      {"heat network", net_parts, (int)(sizeof net_parts / sizeof *net_parts), net_conn,
       net_params, NULL},
      {"heat exchangers", hx_parts, (int)(sizeof hx_parts / sizeof *hx_parts), hx_conn,
       hx_params, NULL},
      {"heat exchangers, air", hx_parts, (int)(sizeof hx_parts / sizeof *hx_parts), hx_conn,
       hx_gas_params, NULL},
      {"cross flow", cross_parts, 5, cross_conn, cross_params, NULL},
  };
  for (int i = 0; i < 4; i++) {
    lanes_same_bits(&v[i], "rk4");
    lanes_same_bits(&v[i], "euler");
  }
  return CHECK_DONE();
}
