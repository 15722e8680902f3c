/* frame.c - the planar frame connector, its port layouts, and the list of
 * classes of the mechanics library. */
#include "lib/mechanics/mechanics.h"
#include "lied/component.h"

const lied_connector pm_frame = {
    "frame",
    {"frame_b", "frame_a"},
    1, /* a frame_b may feed several frame_a: their forces are summed */
    NULL,
    4,
    {{"pos", LIED_DOWN, 0, 3, "x,y,phi", "m,m,rad"},
     {"vel", LIED_DOWN, 0, 3, "vx,vy,w", "m/s,m/s,rad/s"},
     {"acc", LIED_DOWN, 0, 3, "ax,ay,z", "m/s2,m/s2,rad/s2"},
     {"force", LIED_UP, LIED_SIG_SUM | LIED_SIG_OPTIONAL, 3, "fx,fy,t", "N,N,N.m"}},
    NULL,
    NULL,
    /* a singular section, or a joint's residual that its acceleration does
     * not reach (docs/mechanics.md) */
    "planar joint without inertia (a joint whose frame_b side carries no Body: put one "
    "somewhere below it; springs and dampers alone do not hold it)",
};

const lied_port_layout pm_out_layout = {
    &pm_frame, LIED_SOURCE,
    {offsetof(pm_frame_out, pos), offsetof(pm_frame_out, vel), offsetof(pm_frame_out, acc),
     offsetof(pm_frame_out, force)}};

const lied_port_layout pm_in_layout = {
    &pm_frame, LIED_SINK,
    {offsetof(pm_frame_in, pos), offsetof(pm_frame_in, vel), offsetof(pm_frame_in, acc),
     offsetof(pm_frame_in, force)}};

static const lied_class *const mechanics_classes[] = {
    &pm_fixed_class,  &pm_body_class,   &pm_fixed_translation_class, &pm_revolute_class,
    &pm_prismatic_class, &pm_spring_class, &pm_damper_class, &pm_spring_damper_class,
    &pm_elasto_gap_class, &pm_ball_class, NULL};

LIED_LIBRARY(mechanics,
             "planar multibody mechanics (frames, bodies, joints, springs), BouncingBall",
             mechanics_classes)
