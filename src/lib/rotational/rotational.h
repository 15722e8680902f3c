/* rotational.h - one-dimensional rotational mechanics in LIED form (after
 * Modelica.Mechanics.Rotational): the flange connector, its port structs
 * and the classes of src/lib/rotational/ (see docs/rotational.md).
 * Self-contained: it includes lied/component.h only, so other libraries (a
 * turbomachine, an electric machine, a compressor) put a flange on their
 * components by including it.
 *
 * Connector "flange", sides "node" (source) and "branch" (sink):
 *   phi  {phi}  DOWN  angle of the node [rad], explicit from states
 *   w    {w}    DOWN  angular velocity [rad/s], explicit from states
 *   a    {a}    DOWN  angular acceleration [rad/s2]: affine in the tearing
 *                     variables (an Inertia's own is one)
 *   tau  {tau}  UP    torque the node applies to the branch at this flange
 *                     [N.m] (Modelica's flange.tau of the branch); summed
 *                     over every branch on one node, 0 at a node without
 *                     branches
 * A node (Fixed, Inertia, Speed, the flange_b of a TorqueSensor) owns the
 * motion of a rigid shaft and sets it from states or parameters; a branch
 * (springs, dampers, gears, clutches, brakes, torque sources, sensors, a
 * turbomachine's shaft) reads the motion of the nodes it connects and
 * returns the torque it takes from each: explicitly from angles and speeds
 * (springs, dampers, a slipping clutch, loads), or through a tearing
 * variable of its own whose residual is a kinematic constraint (an
 * IdealGear, a stuck clutch or brake). An Inertia's residual is its torque
 * balance J a + sum(tau) = 0. */
#ifndef LIED_LIB_ROTATIONAL_H
#define LIED_LIB_ROTATIONAL_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"

#define RO_NOMIN (-HUGE_VAL)
#define RO_NOMAX (HUGE_VAL)

typedef struct ro_phi { double phi; } ro_phi; /* rad */
typedef struct ro_w { double w; } ro_w;       /* rad/s */
typedef struct ro_a { double a; } ro_a;       /* rad/s2 */
typedef struct ro_tau { double tau; } ro_tau; /* N.m */

typedef struct ro_node { /* source side: writes the motion, reads the summed torque */
  ro_phi phi;
  ro_w w;
  ro_a a;
  const ro_tau *tau;
} ro_node;

typedef struct ro_branch { /* sink side: reads the motion, writes its torque */
  const ro_phi *phi;
  const ro_w *w;
  const ro_a *a;
  ro_tau tau;
} ro_branch;

extern const lied_connector ro_flange;
extern const lied_port_layout ro_node_layout, ro_branch_layout;

/* A branch that reads only the speed of its node (a load torque, a
 * turbomachine): declare its port with this and read flange.w->w; the
 * block that writes flange.tau lists &flange.w among its inputs. */
static inline void ro_meta_branch(lied_meta *m, const char *name, int index, ro_branch *port) {
  lied_meta_port(m, name, index, port, &ro_branch_layout);
}

extern const lied_class ro_fixed_class, ro_inertia_class, ro_speed_class, ro_torque_class,
    ro_spring_class, ro_damper_class, ro_spring_damper_class, ro_ideal_gear_class,
    ro_clutch_class, ro_brake_class, ro_speed_sensor_class, ro_torque_sensor_class;

#endif
