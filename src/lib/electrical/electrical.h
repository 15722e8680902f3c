/* electrical.h - electrical circuits in LIED form: the pin connector, its
 * port structs and the classes of src/lib/electrical/ (docs/electrical.md).
 *
 * Connector "pin", sides "node" (source) and "branch" (sink):
 *   v      {v}      DOWN  potential of the net [V]
 *   known  {known}  DOWN  1 when the potential is known explicitly (from
 *                         states, inputs and parameters), 0 when a linear
 *                         section solves it; optional: a junction Node has
 *                         no such signal and its readers see 0. Constant
 *                         (the schedule's constant part computes it once)
 *   i      {i}      UP    current from the net into the branch element at
 *                         this pin [A]; summed over every branch on one net
 *                         (sum node), 0 on a net without branches
 * Every net has exactly one owner, a node port: Ground (v = 0), a Node
 * (a junction: v is a tearing variable, Kirchhoff's current law its
 * residual; or with a capacitance to ground, v a state), or the node pin
 * of a voltage-defined element in series (VoltageSource, Capacitor, the
 * secondary of an IdealTransformer, the output of a DCDC converter, the n
 * pin of a CurrentSensor), which sets it from the potential of its branch
 * pin plus its own voltage. Every other pin on the net is a branch: it
 * reads the potential and returns the current it draws (resistors,
 * inductors, current sources, switches, diodes, cells, machines). */
#ifndef LIED_LIB_ELECTRICAL_H
#define LIED_LIB_ELECTRICAL_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"

#define EL_NOMIN (-HUGE_VAL)
#define EL_NOMAX (HUGE_VAL)

typedef struct el_v { double v; } el_v;         /* V */
typedef struct el_k { double known; } el_k;     /* 1: explicit, 0: solved */
typedef struct el_i { double i; } el_i;         /* A */

typedef struct el_node { /* source side: writes v (and known), reads the summed current */
  el_v v;
  el_k k;
  const el_i *i;
} el_node;

typedef struct el_branch { /* sink side: reads v (known when it checks), writes its current */
  const el_v *v;
  const el_k *k;
  el_i i;
} el_branch;

typedef struct el_lbranch { /* a branch that never reads known: 16 bytes */
  const el_v *v;
  el_i i;
} el_lbranch;

extern const lied_connector el_pin;
/* el_node_layout: a node that knows whether its potential is explicit;
 * el_junction_layout: a Node's (no known signal: its potential is solved);
 * el_branch_layout: a branch (el_branch) that does not read known;
 * el_lbranch_layout: the same for the compact struct el_lbranch;
 * el_branch_known_layout: a branch that reads it (the branch pin of an
 * element in series, which passes it on; a nonlinear element, which
 * refuses a potential a linear section solves). */
extern const lied_port_layout el_node_layout, el_junction_layout, el_branch_layout,
    el_lbranch_layout, el_branch_known_layout;

/* Lanes of field F of a TYPE group g, and of the signal read through F. */
#define EL_LF(TYPE, F) LIED_LANE(TYPE, g, F)
#define EL_LIN(TYPE, F) LIED_LANE_IN(TYPE, g, F)

extern const lied_class el_ground_class, el_node_class, el_resistor_class, el_capacitor_class,
    el_inductor_class, el_voltage_source_class, el_current_source_class,
    el_table_voltage_class, el_table_current_class, el_ideal_switch_class, el_diode_class,
    el_transformer_class, el_dcdc_class, el_voltage_sensor_class, el_current_sensor_class,
    el_power_sensor_class, el_dc_machine_class, el_cell_class;

#endif
