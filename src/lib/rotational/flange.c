/* flange.c - the rotational flange connector, its port layouts, and the list
 * of classes of the rotational library (docs/rotational.md). */
#include "lib/rotational/rotational.h"

const lied_connector ro_flange = {
    "flange",
    {"node", "branch"},
    1, /* a node feeds any number of branches: their torques are summed */
    NULL,
    4,
    {{"phi", LIED_DOWN, 0, 1, "phi", "rad"},
     {"w", LIED_DOWN, 0, 1, "w", "rad/s"},
     {"a", LIED_DOWN, 0, 1, "a", "rad/s2"},
     {"tau", LIED_UP, LIED_SIG_SUM | LIED_SIG_OPTIONAL, 1, "tau", "N.m"}},
    "rotational loop without a node",
    "flanges connect only to flanges",
    /* also the hint of a singular section during a run (a node that a clutch
     * left when it slipped) and of a residual that no tearing variable
     * reaches (a gear between two speed sources) */
    "shaft without inertia, or a motion prescribed twice (a node whose torque balance has no "
    "inertia: give it an Inertia J > 0 or couple it rigidly to one, which a slipping or free "
    "clutch does not; a gear or a stuck clutch between two prescribed motions (Speed, Fixed), "
    "or a stuck brake on one: remove one of them, or put an Inertia and a Spring between "
    "them)",
};

const lied_port_layout ro_node_layout = {
    &ro_flange, LIED_SOURCE,
    {offsetof(ro_node, phi), offsetof(ro_node, w), offsetof(ro_node, a), offsetof(ro_node, tau)},
    0};

const lied_port_layout ro_branch_layout = {
    &ro_flange, LIED_SINK,
    {offsetof(ro_branch, phi), offsetof(ro_branch, w), offsetof(ro_branch, a),
     offsetof(ro_branch, tau)},
    0};

static const lied_class *const rotational_classes[] = {
    &ro_fixed_class,  &ro_inertia_class,      &ro_speed_class,         &ro_torque_class,
    &ro_spring_class, &ro_damper_class,       &ro_spring_damper_class, &ro_ideal_gear_class,
    &ro_clutch_class, &ro_brake_class,        &ro_speed_sensor_class,  &ro_torque_sensor_class,
    NULL};

LIED_LIBRARY(rotational,
             "one-dimensional rotational mechanics (inertias, springs, gears, clutches, "
             "brakes, torque and speed sources, sensors)",
             rotational_classes)
