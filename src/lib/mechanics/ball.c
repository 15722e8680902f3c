/* ball.c - BouncingBall: a point mass falling under gravity onto a rigid
 * floor at y = 0, the impacts handled by a state event (the event
 * alternative to an ElastoGap contact, docs/events.md): when y falls through
 * 0 the velocity is reversed and scaled by the restitution coefficient e.
 * A rebound slower than v_rest leaves the ball resting on the floor (else
 * the impacts would accumulate at a finite time, the Zeno point). */
#include "lib/mechanics/mechanics.h"

typedef struct pm_ball {
  double y, der_y, v, der_v; /* states: height, velocity */
  double g, e, v_rest;
  double resting; /* discrete: 1 once the ball rests on the floor */
  double z;       /* zero function: the height */
} pm_ball;

static void ball_eval(const lied_env *env, pm_ball *b) {
  (void)env;
  b->der_y = b->resting != 0 ? 0 : b->v;
  b->der_v = b->resting != 0 ? 0 : -b->g;
  b->z = b->y;
}
LIED_BLOCK(ball_block, pm_ball, ball_eval)

static void ball_rest(pm_ball *b) {
  b->resting = 1;
  b->y = 0;
  b->v = 0;
}

static void ball_event(void *self, const lied_event *ev) {
  pm_ball *b = self;
  if (ev->initial) {
    b->resting = 0;
    if (b->y <= 0 && b->v <= 0) ball_rest(b);
  } else if (ev->crossed && b->v < 0) { /* an impact: re-initialise v */
    b->v = -b->e * b->v;
    if (b->v < b->v_rest) ball_rest(b);
  }
}

static void ball_meta(lied_meta *m, void *self) {
  pm_ball *b = self;
  lied_meta_state(m, "y", "m", &b->y, &b->der_y);
  lied_meta_state(m, "v", "m/s", &b->v, &b->der_v);
  lied_meta_var(m, "resting", "1", &b->resting);
  lied_meta_block(m, "motion", ball_block, 0, LIED_SIGS(&b->y, &b->v, &b->resting),
                  LIED_SIGS(&b->der_y, &b->der_v, &b->z));
  lied_meta_zero(m, "z", &b->z, LIED_ZC_DOWN);
  lied_meta_event(m, ball_event);
}

static const lied_param ball_params[] = {
    {"y", offsetof(pm_ball, y), 1, "m", "start height above the floor", -HUGE_VAL, HUGE_VAL, 0, 0},
    {"v", offsetof(pm_ball, v), 0, "m/s", "start velocity (up)", -HUGE_VAL, HUGE_VAL, 0, 0},
    {"g", offsetof(pm_ball, g), 9.81, "m/s2", "gravity", 0, HUGE_VAL, 0, 0},
    {"e", offsetof(pm_ball, e), 0.8, "1", "coefficient of restitution", 0, 1, 0, 0},
    {"v_rest", offsetof(pm_ball, v_rest), 1e-3, "m/s",
     "rebounds slower than this leave the ball resting on the floor", 0, HUGE_VAL, 0, 0},
};
const lied_class pm_ball_class = {
    "BouncingBall", "mechanics",
    "point mass falling onto a rigid floor at y = 0; impacts reverse v scaled by e (a state event)",
    sizeof(pm_ball), ball_params, 5, NULL, ball_meta};
