/* lied/thermal.h - lumped heat transfer in LIED form (after
 * Modelica.Thermal.HeatTransfer): the heat connector, its port structs and
 * the classes of src/lib/thermal/ (see docs/thermal.md).
 *
 * Connector "heat", sides "node" (source) and "branch" (sink):
 *   T       {T}       DOWN  temperature of the node [K], explicit from states
 *   Q_flow  {Q_flow}  UP    heat flow from the node into the branch [W];
 *                           summed over every branch on one node (sum node),
 *                           0 at a node without branches
 * A node (HeatCapacitor, FixedTemperature, PrescribedTemperature, a
 * thermofluid ConductionElement's heatPort) computes its temperature from
 * states or parameters; a branch (ThermalConductor, Convection,
 * BodyRadiation, FixedHeatFlow, PrescribedHeatFlow, TemperatureSensor, the
 * port_a of a HeatFlowSensor) reads temperatures and returns the heat flow
 * it draws. Q_flow is Modelica's port.Q_flow of the branch component. No
 * linear section is involved.
 *
 * Public API (installed as <lied/thermal.h>): a component library of its
 * own (a plugin, docs/components.md) declares heat ports with these structs
 * and layouts and links to lied's libraries; in lied's tree
 * "lib/thermal/thermal.h" includes this header. */
#ifndef LIED_LIB_THERMAL_H
#define LIED_LIB_THERMAL_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"

#define TH_NOMIN (-HUGE_VAL)
#define TH_NOMAX (HUGE_VAL)

typedef struct th_temp { double T; } th_temp;
typedef struct th_flow { double Q_flow; } th_flow;

typedef struct th_node { /* source side: writes T, reads the summed Q_flow */
  th_temp T;
  const th_flow *Q;
} th_node;

typedef struct th_branch { /* sink side: reads T, writes Q_flow */
  const th_temp *T;
  th_flow Q;
} th_branch;

extern const lied_connector th_heat;
extern const lied_port_layout th_node_layout, th_branch_layout;

extern const lied_class th_heat_capacitor_class, th_fixed_temperature_class,
    th_prescribed_temperature_class, th_conductor_class, th_convection_class,
    th_radiation_class, th_fixed_heat_flow_class, th_prescribed_heat_flow_class,
    th_temperature_sensor_class, th_heat_flow_sensor_class;

#endif
