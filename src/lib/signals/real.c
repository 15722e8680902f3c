/* real.c - the real-signal and Boolean-signal connectors of the public API
 * (lied/component.h) and the signal library's class list. */
#include "lib/signals/signals.h"

const lied_connector lied_real_connector = {
    "real", {"output", "input"}, 1, NULL, 1, {{"value", LIED_DOWN, 0, 1, "y", ""}}, NULL,
    "real signal ports connect only to real signal ports"};
const lied_port_layout lied_real_out_layout = {&lied_real_connector, LIED_SOURCE,
                                               {offsetof(lied_real_out, y)}, 0};
const lied_port_layout lied_real_in_layout = {&lied_real_connector, LIED_SINK,
                                              {offsetof(lied_real_in, y)}, 0};
const lied_port_layout lied_real_in_optional_layout = {
    &lied_real_connector, LIED_SINK, {offsetof(lied_real_in, y)}, LIED_PORT_OPTIONAL};

const lied_connector lied_bool_connector = {
    "boolean", {"output", "input"}, 1, NULL, 1, {{"value", LIED_DOWN, 0, 1, "y", "1"}}, NULL,
    "Boolean signal ports connect only to Boolean signal ports (signals.BooleanToReal converts)"};
const lied_port_layout lied_bool_out_layout = {&lied_bool_connector, LIED_SOURCE,
                                               {offsetof(lied_bool_out, y)}, 0};
const lied_port_layout lied_bool_in_layout = {&lied_bool_connector, LIED_SINK,
                                              {offsetof(lied_bool_in, y)}, 0};

static const lied_class *const signals_classes[] = {
    &sig_constant_class, &sig_step_class,     &sig_ramp_class,        &sig_sine_class,
    &sig_pulse_class,    &sig_timetable_class, &sig_table1d_class, &sig_table2d_class, &sig_gain_class,       &sig_add_class,
    &sig_product_class,  &sig_division_class, &sig_min_class,         &sig_max_class,
    &sig_limiter_class,  &sig_first_order_class, &sig_integrator_class, &sig_pi_class,
    &sig_pid_class,      &sig_hysteresis_class, &sig_sample_hold_class, &sig_unit_delay_class,
    &sig_discrete_pi_class, &sig_bconst_class, &sig_greater_class, &sig_less_class,
    &sig_greater_thr_class, &sig_less_thr_class, &sig_and_class, &sig_or_class, &sig_xor_class,
    &sig_not_class, &sig_switch_class, &sig_lswitch_class, &sig_b2r_class, &sig_on_delay_class,
    &sig_off_delay_class, &sig_rising_class, &sig_falling_class, &sig_bhold_class, &sig_sm_class,
    NULL};

LIED_LIBRARY(signals,
             "real signals for every domain: sources (Constant, Step, Ramp, Sine, Pulse, TimeTable), "
    "tables (Table1D, Table2D), "
    "math (Gain, Add, Product, Division, Min, Max, Limiter), FirstOrder, Integrator, PI, PID, "
    "Hysteresis, sampled blocks (SampleHold, UnitDelay, DiscretePI), logic on Boolean signals "
    "(BooleanConstant, Greater, Less, GreaterThreshold, LessThreshold, And, Or, Xor, Not, Switch, "
    "LogicalSwitch, BooleanToReal, OnDelay, OffDelay, RisingEdge, FallingEdge, "
    "BooleanSampleHold, StateMachine)",
             signals_classes)
