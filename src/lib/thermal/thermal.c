/* thermal.c - the heat connector, its port layouts and the class list of
 * the thermal library (require "lied.thermal"). */
#include "lib/thermal/thermal.h"

const lied_connector th_heat = {
    "heat",
    {"node", "branch"},
    1, /* a node feeds any number of branches: their heat flows are summed */
    NULL,
    2,
    {{"T", LIED_DOWN, 0, 1, "T", "K"},
     {"Q_flow", LIED_UP, LIED_SIG_SUM | LIED_SIG_OPTIONAL, 1, "Q_flow", "W"}},
    "heat-port loop without a temperature node",
    "heat ports connect only to heat ports",
};
const lied_port_layout th_node_layout = {
    &th_heat, LIED_SOURCE, {offsetof(th_node, T), offsetof(th_node, Q)}, 0};
const lied_port_layout th_branch_layout = {
    &th_heat, LIED_SINK, {offsetof(th_branch, T), offsetof(th_branch, Q)}, 0};

static const lied_class *const thermal_classes[] = {
    &th_heat_capacitor_class,     &th_fixed_temperature_class, &th_prescribed_temperature_class,
    &th_conductor_class,          &th_convection_class,        &th_radiation_class,
    &th_fixed_heat_flow_class,    &th_prescribed_heat_flow_class,
    &th_temperature_sensor_class, &th_heat_flow_sensor_class,  NULL};

LIED_LIBRARY(thermal,
             "lumped heat transfer (after Modelica.Thermal.HeatTransfer): heat capacitors, "
             "conductors, convection, radiation, fixed and prescribed temperatures and heat "
             "flows, sensors",
             thermal_classes)
