/* test_lanes_rotational.c - the lane machinery on a rotational drive
 * train: fused steps in lane form give the same bits as fused steps copy by
 * copy (as tests/unit/test_lanes.c for mechanical copies) for a train whose
 * IdealGear makes a section of three nodes and whose flanges sum several
 * branches (Fixed, three Inertias, Springs, Dampers, a SpringDamper, a
 * Torque and a Speed source from signals, a SpeedSensor, a TorqueSensor);
 * 77 copies (two full groups and a partial one). Every class's lane form
 * against its block: test_lane_forms.c, driven by the class registry. */
#include "lanes.h"
#include "lib/rotational/rotational.h"
#include "lib/signals/signals.h"

static const part train_parts[] = {
    {"fixed", &ro_fixed_class},  {"s1", &ro_spring_class},      {"J1", &ro_inertia_class},
    {"d1", &ro_damper_class},    {"J2", &ro_inertia_class},     {"gear", &ro_ideal_gear_class},
    {"J3", &ro_inertia_class},   {"sd", &ro_spring_damper_class}, {"drive", &ro_torque_class},
    {"sine", &sig_sine_class},   {"spd", &ro_speed_class},      {"ramp", &sig_ramp_class},
    {"d2", &ro_damper_class},    {"ss", &ro_speed_sensor_class}, {"ts", &ro_torque_sensor_class},
    {"d3", &ro_damper_class},    {"s3", &ro_spring_class}};
static const char *const train_conn[] = {
    "fixed.flange", "s1.flange_a",  "J1.flange_a", "s1.flange_b",  "J1.flange_b", "d1.flange_a",
    "J2.flange_a", "d1.flange_b",   "J2.flange_b", "gear.flange_a", "J3.flange_a", "gear.flange_b",
    "J3.flange_b", "sd.flange_a",   "fixed.flange", "sd.flange_b",  "J1.flange_a", "drive.flange",
    "sine.y", "drive.u",            "ramp.y", "spd.u",              "spd.flange", "d2.flange_a",
    "J3.flange_b", "d2.flange_b",   "J2.flange_a", "ss.flange",     "J1.flange_b", "ts.flange_a",
    "ts.flange_b", "d3.flange_a",   "J2.flange_b", "d3.flange_b",   "ts.flange_b", "s3.flange_a",
    "J3.flange_a", "s3.flange_b",   NULL};
static const param train_params[] = {
    {1, "c", {30}, 1},          {2, "J", {0.4}, 1},          {3, "d", {0.7}, 1},
    {4, "J", {0.9}, 1},         {5, "ratio", {-2.5}, 1},     {6, "J", {0.3}, 1},
    {7, "c", {12}, 1},          {7, "d", {0.2}, 1},          {7, "phi_rel0", {0.1}, 1},
    {8, "tau", {1.5}, 1},       {9, "amplitude", {2}, 1},    {9, "w", {7}, 1},
    {10, "w_ref", {3}, 1},      {10, "T", {0.05}, 1},        {11, "height", {5}, 1},
    {11, "duration", {0.03}, 1}, {12, "d", {0.4}, 1},        {15, "d", {0.25}, 1},
    {16, "c", {5}, 1},          {0, NULL, {0}, 0}};

/* The gear needs w(J2) = ratio w(J3) in every copy (the fill is arbitrary):
 * J2's and J3's speeds are the k-th states so named, copy by copy. */
static void gear_speeds(const lied_system *sys, double *x) {
  const uint64_t ns = sys->sched->nstates;
  uint64_t k2 = 0, k3 = 0, *i2 = calloc(ns, sizeof *i2), *i3 = calloc(ns, sizeof *i3);
  CHECK(i2 && i3);
  char nm[96];
  for (uint64_t i = 0; i2 && i3 && i < ns; i++) {
    lied_sched_state_name(sys->sched, i, nm, sizeof nm);
    size_t len = strlen(nm);
    if (len > 5 && !strcmp(nm + len - 5, ".J2.w")) i2[k2++] = i;
    if (len > 5 && !strcmp(nm + len - 5, ".J3.w")) i3[k3++] = i;
  }
  CHECK(k2 == k3 && k2 == 77);
  for (uint64_t k = 0; k < k2 && k < k3; k++) x[i2[k]] = -2.5 * x[i3[k]];
  free(i2);
  free(i3);
}

int main(void) {
  const variant v = {"drive train", train_parts, (int)(sizeof train_parts / sizeof *train_parts),
                     train_conn, train_params, gear_speeds};
  lanes_same_bits(&v, "rk4");
  lanes_same_bits(&v, "euler");
  return CHECK_DONE();
}
