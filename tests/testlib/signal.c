/* signal.c - real-signal test components (Solve) and deliberately broken
 * classes for error paths; the real-signal connector and the signal blocks
 * (Constant, Sine, Gain, Add, Integrator) are lied.signals' (the Lua module
 * lied.testlib keeps their names as aliases). */
#include <math.h>
#include <signal.h>
#include "testlib/testlib.h"
#include "lied/component.h"

/* ---- Solve: tearing pair z with residual c*z - u; y = z (a 1x1 section
 * fed from outside; with c = 0 it is singular) ---- */
typedef struct tl_solve {
  lied_real_in u;
  lied_real_out y;
  double z, res, c;
} tl_solve;
static void solve_res(const lied_env *env, tl_solve *s) {
  (void)env;
  s->res = s->c * s->z - s->u.y->y;
  s->y.y.y = s->z;
}
LIED_BLOCK(solve_res_b, tl_solve, solve_res)
static void solve_meta(lied_meta *m, void *self) {
  tl_solve *s = self;
  lied_meta_port(m, "u", 0, &s->u, &lied_real_in_layout);
  lied_meta_port(m, "y", 0, &s->y, &lied_real_out_layout);
  lied_meta_tear(m, "z", &s->z, "res", &s->res);
  lied_meta_block(m, "residual", solve_res_b, 0, LIED_SIGS(&s->z, &s->u.y, &s->c),
                  LIED_SIGS(&s->res, &s->y.y));
}
static const lied_param solve_params[] = {
    {"c", offsetof(tl_solve, c), 1, "1", "coefficient", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_solve_class = {"Solve", "testlib", "y solves c*y = u (1x1 section)",
                                   sizeof(tl_solve), solve_params, 1, NULL, solve_meta};

/* ---- Alarm: a state x with der(x) = -x whose block sends the process the
 * signal `signal` at its `after`-th run (0: never), once: a Ctrl-C or
 * SIGTERM at a point of a computation known by the work done (the
 * evaluations of the model), not by time (tests/cli/test_sigint.sh) ---- */
typedef struct tl_alarm {
  double x, der_x;
  double after, sig, runs;
} tl_alarm;
static void alarm_der(const lied_env *env, tl_alarm *a) {
  (void)env;
  a->der_x = -a->x;
  if (++a->runs == a->after) raise((int)a->sig);
}
LIED_BLOCK(alarm_der_b, tl_alarm, alarm_der)
static void alarm_meta(lied_meta *m, void *self) {
  tl_alarm *a = self;
  lied_meta_state(m, "x", "1", &a->x, &a->der_x);
  lied_meta_block(m, "der", alarm_der_b, 0, LIED_SIGS(&a->x), LIED_SIGS(&a->der_x));
}
static const lied_param alarm_params[] = {
    {"after", offsetof(tl_alarm, after), 0, "1", "runs of the block before the signal (0: none)",
     0, TL_NOMAX, 0, 0},
    {"signal", offsetof(tl_alarm, sig), 2, "1", "the signal (2: SIGINT, 15: SIGTERM)", 1, 31, 0,
     0},
    {"x", offsetof(tl_alarm, x), 1, "1", "start value of x", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_alarm_class = {"Alarm", "testlib",
                                   "der(x) = -x; signals the process at the block's after-th run",
                                   sizeof(tl_alarm), alarm_params, 3, NULL, alarm_meta};

/* ---- broken on purpose ---- */
/* residual ignores its tearing variable */
typedef struct tl_badres {
  lied_real_in u;
  double z, res;
} tl_badres;
static void badres_eval(const lied_env *env, tl_badres *b) {
  (void)env;
  b->res = b->u.y->y;
}
LIED_BLOCK(badres_b, tl_badres, badres_eval)
static void badres_meta(lied_meta *m, void *self) {
  tl_badres *b = self;
  lied_meta_port(m, "u", 0, &b->u, &lied_real_in_layout);
  lied_meta_tear(m, "z", &b->z, "res", &b->res);
  lied_meta_block(m, "residual", badres_b, 0, LIED_SIGS(&b->u.y), LIED_SIGS(&b->res));
}
const lied_class tl_badres_class = {"BadResidual", "testlib",
                                    "broken: residual independent of its tearing variable",
                                    sizeof(tl_badres), NULL, 0, NULL, badres_meta};

/* two tearing pairs, one tearing variable read by nobody */
typedef struct tl_unread {
  lied_real_in u;
  double z1, z2, r1, r2;
} tl_unread;
static void unread_eval(const lied_env *env, tl_unread *b) {
  (void)env;
  b->r1 = b->z1 - b->u.y->y;
  b->r2 = b->z1;
}
LIED_BLOCK(unread_b, tl_unread, unread_eval)
static void unread_meta(lied_meta *m, void *self) {
  tl_unread *b = self;
  lied_meta_port(m, "u", 0, &b->u, &lied_real_in_layout);
  lied_meta_tear(m, "z1", &b->z1, "r1", &b->r1);
  lied_meta_tear(m, "z2", &b->z2, "r2", &b->r2);
  lied_meta_block(m, "residuals", unread_b, 0, LIED_SIGS(&b->u.y, &b->z1),
                  LIED_SIGS(&b->r1, &b->r2));
}
const lied_class tl_unread_class = {"UnreadTear", "testlib",
                                    "broken: a tearing variable no block reads",
                                    sizeof(tl_unread), NULL, 0, NULL, unread_meta};

static const lied_class *const testlib_classes[] = {
    &tl_ground_class, &tl_slider_class,  &tl_mass_class,   &tl_solve_class,
    &tl_badres_class, &tl_unread_class, &tl_alarm_class, NULL};

LIED_LIBRARY(testlib,
             "small components for lied's own tests (1-D mechanics, signals)",
             testlib_classes)
