/* undirected.c - the undirected thermofluid connector and the library's class
 * list. */
#include "lib/undirected/undirected.h"

const lied_connector tfu_stream = {
    "undirected thermofluid",
    {"fore", "rear"},
    0,
    "use a Junction",
    5,
    {{"flow", LIED_DOWN, 0, 1, "m_flow", "kg/s"},
     {"state", LIED_DOWN, 0, 2 + TF_NX, "p,h,X1", "Pa,J/kg,1"},
     {"der", LIED_DOWN, 0, 1, "der_m_flow", "kg/s2"},
     {"r", LIED_UP, 0, 1, "r", "Pa"},
     {"back", LIED_UP, 0, 2 + TF_NX, "p_back,h_back,X1_back", "Pa,J/kg,1"}},
    "flow loop without a volume",
    "undirected ports connect only to undirected ports (a directed stream goes through "
    "ConnectInletFore or ConnectRearOutlet)",
    "flow path without inertance (give one of its elements an inertance L > 0)",
};
_Static_assert(TF_NX == 1, "the state signals name one mass fraction, X1");

const lied_port_layout tfu_fore_layout = {
    &tfu_stream, LIED_SOURCE,
    {offsetof(tfu_fore, flow), offsetof(tfu_fore, state), offsetof(tfu_fore, der),
     offsetof(tfu_fore, r), offsetof(tfu_fore, back)}};
const lied_port_layout tfu_rear_layout = {
    &tfu_stream, LIED_SINK,
    {offsetof(tfu_rear, flow), offsetof(tfu_rear, state), offsetof(tfu_rear, der),
     offsetof(tfu_rear, r), offsetof(tfu_rear, back)}};

static const lied_class *const undirected_classes[] = {
    &tfu_boundary_rear_class, &tfu_boundary_fore_class, &tfu_pressure_drop_class,
    &tfu_linquad_drop_class,  &tfu_laminar_drop_class,  &tfu_volume_class,
    &tfu_volume_n_class,      &tfu_junction_class,      &tfu_valve_class,
    &tfu_pump_class,          &tfu_fan_class,           &tfu_t_sensor_class,
    &tfu_p_sensor_class,      &tfu_m_sensor_class,      &tfu_h_sensor_class,
    &tfu_inlet_fore_class,    &tfu_rear_outlet_class,   &tfu_counter_hx_class,
    &tfu_parallel_hx_class,   &tfu_rhx_counter_class,   &tfu_rhx_cross_class,
    NULL};

LIED_LIBRARY(undirected,
             "undirected thermofluid streams in LIED form (after ThermoFluid Stream's "
             "Undirected package): each port carries a state each way, the mass flow is free "
             "in sign; boundaries, flow resistances, volumes, junctions, a valve, a pump, a fan, "
             "heat exchangers (also two-phase), sensors, adapters to and from directed streams",
             undirected_classes)
