/* signal.c - real-signal test components (Constant, Sine, Gain, Add,
 * Integrator, LinearSolve) and deliberately broken classes for error paths. */
#include <math.h>
#include "lib/testlib/testlib.h"
#include "lied/component.h"

const lied_connector tl_signal = {
    "real", {"output", "input"}, 1, NULL, 1, {{"value", LIED_DOWN, 0, 1, "y", ""}}, NULL};
const lied_port_layout tl_rout_layout = {&tl_signal, LIED_SOURCE, {offsetof(tl_rout, y)}};
const lied_port_layout tl_rin_layout = {&tl_signal, LIED_SINK, {offsetof(tl_rin, y)}};

/* ---- Constant ---- */
typedef struct tl_const {
  tl_rout y;
  double k;
} tl_const;
static void const_eval(const lied_env *env, tl_const *c) {
  (void)env;
  c->y.y.y = c->k;
}
LIED_BLOCK(const_b, tl_const, const_eval)
static void const_meta(lied_meta *m, void *self) {
  tl_const *c = self;
  lied_meta_port(m, "y", 0, &c->y, &tl_rout_layout);
  lied_meta_block(m, "value", const_b, 0, LIED_SIGS(&c->k), LIED_SIGS(&c->y.y));
}
static const lied_param const_params[] = {
    {"k", offsetof(tl_const, k), 1, "1", "value", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_const_class = {"Constant", "testlib", "constant signal y = k",
                                   sizeof(tl_const), const_params, 1, NULL, const_meta};

/* ---- Sine: y = A sin(w t) ---- */
typedef struct tl_sine {
  tl_rout y;
  double A, w;
} tl_sine;
static void sine_eval(const lied_env *env, tl_sine *c) { c->y.y.y = c->A * sin(c->w * env->t); }
LIED_BLOCK(sine_b, tl_sine, sine_eval)
static void sine_meta(lied_meta *m, void *self) {
  tl_sine *c = self;
  lied_meta_port(m, "y", 0, &c->y, &tl_rout_layout);
  lied_meta_block(m, "value", sine_b, 0, LIED_SIGS(&lied_time), LIED_SIGS(&c->y.y));
}
static const lied_param sine_params[] = {
    {"A", offsetof(tl_sine, A), 1, "1", "amplitude", TL_NOMIN, TL_NOMAX, 0, 0},
    {"w", offsetof(tl_sine, w), 1, "rad/s", "angular frequency", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_sine_class = {"Sine", "testlib", "y = A sin(w t)", sizeof(tl_sine),
                                  sine_params, 2, NULL, sine_meta};

/* ---- Gain: y = k u ---- */
typedef struct tl_gain {
  tl_rin u;
  tl_rout y;
  double k;
} tl_gain;
static void gain_eval(const lied_env *env, tl_gain *c) {
  (void)env;
  c->y.y.y = c->k * c->u.y->y;
}
LIED_BLOCK(gain_b, tl_gain, gain_eval)
static void gain_meta(lied_meta *m, void *self) {
  tl_gain *c = self;
  lied_meta_port(m, "u", 0, &c->u, &tl_rin_layout);
  lied_meta_port(m, "y", 0, &c->y, &tl_rout_layout);
  lied_meta_block(m, "gain", gain_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&c->u.y), LIED_SIGS(&c->y.y));
}
static const lied_param gain_params[] = {
    {"k", offsetof(tl_gain, k), 1, "1", "gain", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_gain_class = {"Gain", "testlib", "y = k u", sizeof(tl_gain), gain_params,
                                  1, NULL, gain_meta};

/* ---- Add: y = u1 + u2 ---- */
typedef struct tl_add {
  tl_rin u1, u2;
  tl_rout y;
} tl_add;
static void add_eval(const lied_env *env, tl_add *c) {
  (void)env;
  c->y.y.y = c->u1.y->y + c->u2.y->y;
}
LIED_BLOCK(add_b, tl_add, add_eval)
static void add_meta(lied_meta *m, void *self) {
  tl_add *c = self;
  lied_meta_port(m, "u1", 0, &c->u1, &tl_rin_layout);
  lied_meta_port(m, "u2", 0, &c->u2, &tl_rin_layout);
  lied_meta_port(m, "y", 0, &c->y, &tl_rout_layout);
  lied_meta_block(m, "add", add_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&c->u1.y, &c->u2.y),
                  LIED_SIGS(&c->y.y));
}
const lied_class tl_add_class = {"Add", "testlib", "y = u1 + u2", sizeof(tl_add), NULL, 0,
                                 NULL, add_meta};

/* ---- Integrator: der(x) = u, y = x ---- */
typedef struct tl_integ {
  tl_rin u;
  tl_rout y;
  double x, der_x;
} tl_integ;
static void integ_out(const lied_env *env, tl_integ *c) {
  (void)env;
  c->y.y.y = c->x;
}
static void integ_der(const lied_env *env, tl_integ *c) {
  (void)env;
  c->der_x = c->u.y->y;
}
LIED_BLOCK(integ_out_b, tl_integ, integ_out)
LIED_BLOCK(integ_der_b, tl_integ, integ_der)
static void integ_meta(lied_meta *m, void *self) {
  tl_integ *c = self;
  lied_meta_port(m, "u", 0, &c->u, &tl_rin_layout);
  lied_meta_port(m, "y", 0, &c->y, &tl_rout_layout);
  lied_meta_state(m, "x", "", &c->x, &c->der_x);
  lied_meta_block(m, "output", integ_out_b, 0, LIED_SIGS(&c->x), LIED_SIGS(&c->y.y));
  lied_meta_block(m, "derivative", integ_der_b, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->der_x));
}
static const lied_param integ_params[] = {
    {"x", offsetof(tl_integ, x), 0, "1", "start value", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_integ_class = {"Integrator", "testlib", "der(x) = u, y = x",
                                   sizeof(tl_integ), integ_params, 1, NULL, integ_meta};

/* ---- Solve: tearing pair z with residual c*z - u; y = z (a 1x1 section
 * fed from outside; with c = 0 it is singular) ---- */
typedef struct tl_solve {
  tl_rin u;
  tl_rout y;
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
  lied_meta_port(m, "u", 0, &s->u, &tl_rin_layout);
  lied_meta_port(m, "y", 0, &s->y, &tl_rout_layout);
  lied_meta_tear(m, "z", &s->z, "res", &s->res);
  lied_meta_block(m, "residual", solve_res_b, 0, LIED_SIGS(&s->z, &s->u.y, &s->c),
                  LIED_SIGS(&s->res, &s->y.y));
}
static const lied_param solve_params[] = {
    {"c", offsetof(tl_solve, c), 1, "1", "coefficient", TL_NOMIN, TL_NOMAX, 0, 0}};
const lied_class tl_solve_class = {"Solve", "testlib", "y solves c*y = u (1x1 section)",
                                   sizeof(tl_solve), solve_params, 1, NULL, solve_meta};

/* ---- broken on purpose ---- */
/* residual ignores its tearing variable */
typedef struct tl_badres {
  tl_rin u;
  double z, res;
} tl_badres;
static void badres_eval(const lied_env *env, tl_badres *b) {
  (void)env;
  b->res = b->u.y->y;
}
LIED_BLOCK(badres_b, tl_badres, badres_eval)
static void badres_meta(lied_meta *m, void *self) {
  tl_badres *b = self;
  lied_meta_port(m, "u", 0, &b->u, &tl_rin_layout);
  lied_meta_tear(m, "z", &b->z, "res", &b->res);
  lied_meta_block(m, "residual", badres_b, 0, LIED_SIGS(&b->u.y), LIED_SIGS(&b->res));
}
const lied_class tl_badres_class = {"BadResidual", "testlib",
                                    "broken: residual independent of its tearing variable",
                                    sizeof(tl_badres), NULL, 0, NULL, badres_meta};

/* two tearing pairs, one tearing variable read by nobody */
typedef struct tl_unread {
  tl_rin u;
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
  lied_meta_port(m, "u", 0, &b->u, &tl_rin_layout);
  lied_meta_tear(m, "z1", &b->z1, "r1", &b->r1);
  lied_meta_tear(m, "z2", &b->z2, "r2", &b->r2);
  lied_meta_block(m, "residuals", unread_b, 0, LIED_SIGS(&b->u.y, &b->z1),
                  LIED_SIGS(&b->r1, &b->r2));
}
const lied_class tl_unread_class = {"UnreadTear", "testlib",
                                    "broken: a tearing variable no block reads",
                                    sizeof(tl_unread), NULL, 0, NULL, unread_meta};

static const lied_class *const testlib_classes[] = {
    &tl_ground_class, &tl_slider_class, &tl_mass_class,  &tl_const_class,
    &tl_sine_class,   &tl_gain_class,   &tl_add_class,   &tl_integ_class,
    &tl_solve_class,  &tl_badres_class, &tl_unread_class, NULL};

const lied_library lied_lib_testlib = {
    "testlib", "small components for lied's own tests (1-D mechanics, signals)",
    testlib_classes};
