/* pin.c - the electrical pin connector, its port layouts and the list of
 * classes of the electrical library (docs/electrical.md). */
#include "lib/electrical/electrical.h"

const lied_connector el_pin = {
    "pin",
    {"node", "branch"},
    1, /* a net feeds any number of branches: their currents are summed */
    NULL,
    3,
    {{"v", LIED_DOWN, 0, 1, "v", "V"},
     {"known", LIED_DOWN, LIED_SIG_OPTIONAL, 1, "known", "1"},
     {"i", LIED_UP, LIED_SIG_SUM | LIED_SIG_OPTIONAL, 1, "i", "A"}},
    "loop of voltage sources and capacitors (elements in series that set each other's "
    "potential without a node between them)",
    "pins connect only to pins",
    "electrical network without a unique solution (a loop of voltage sources, capacitors and "
    "closed ideal switches, or a cut set of current sources, inductors and open ideal "
    "switches, which leaves a node's potential free)",
};

const lied_port_layout el_node_layout = {
    &el_pin, LIED_SOURCE, {offsetof(el_node, v), offsetof(el_node, k), offsetof(el_node, i)}, 0};
const lied_port_layout el_junction_layout = {
    &el_pin, LIED_SOURCE, {offsetof(el_node, v), LIED_ABSENT, offsetof(el_node, i)}, 0};
const lied_port_layout el_branch_layout = {
    &el_pin, LIED_SINK, {offsetof(el_branch, v), LIED_ABSENT, offsetof(el_branch, i)}, 0};
const lied_port_layout el_lbranch_layout = {
    &el_pin, LIED_SINK, {offsetof(el_lbranch, v), LIED_ABSENT, offsetof(el_lbranch, i)}, 0};
const lied_port_layout el_branch_known_layout = {
    &el_pin, LIED_SINK, {offsetof(el_branch, v), offsetof(el_branch, k), offsetof(el_branch, i)},
    0};

static const lied_class *const electrical_classes[] = {
    &el_ground_class,         &el_node_class,           &el_resistor_class,
    &el_capacitor_class,      &el_inductor_class,       &el_voltage_source_class,
    &el_current_source_class, &el_table_voltage_class,  &el_table_current_class,
    &el_ideal_switch_class,   &el_diode_class,          &el_transformer_class,
    &el_dcdc_class,           &el_voltage_sensor_class, &el_current_sensor_class,
    &el_power_sensor_class,   &el_dc_machine_class,     &el_cell_class,
    NULL};

LIED_LIBRARY(electrical,
             "electrical circuits in LIED form: ground, nodes, resistors, capacitors, inductors, "
             "sources, switches, diodes, transformers, DC/DC converters, sensors, DC machines, "
             "battery cells",
             electrical_classes)
