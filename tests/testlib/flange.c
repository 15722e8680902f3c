/* flange.c - 1-D translational test components: Ground, Slider (a joint
 * with an optional spring-damper and applied force), Mass. */
#include "testlib/testlib.h"

const lied_connector tl_flange = {
    "flange1d",
    {"flange_b", "flange_a"},
    1,
    NULL,
    4,
    {{"pos", LIED_DOWN, 0, 1, "s", "m"},
     {"vel", LIED_DOWN, 0, 1, "v", "m/s"},
     {"acc", LIED_DOWN, 0, 1, "a", "m/s2"},
     {"force", LIED_UP, LIED_SIG_SUM | LIED_SIG_OPTIONAL, 1, "f", "N"}},
    NULL,
};
const lied_port_layout tl_out_layout = {
    &tl_flange, LIED_SOURCE,
    {offsetof(tl_out, pos), offsetof(tl_out, vel), offsetof(tl_out, acc),
     offsetof(tl_out, force)}};
const lied_port_layout tl_in_layout = {
    &tl_flange, LIED_SINK,
    {offsetof(tl_in, pos), offsetof(tl_in, vel), offsetof(tl_in, acc),
     offsetof(tl_in, force)}};

/* ---- Ground ---- */
typedef struct tl_ground {
  tl_out flange_b;
  double s0;
} tl_ground;

static void ground_eval(const lied_env *env, tl_ground *g) {
  (void)env;
  g->flange_b.pos.s = g->s0;
  g->flange_b.vel.v = 0;
  g->flange_b.acc.a = 0;
}
LIED_BLOCK(ground_block, tl_ground, ground_eval)

static void ground_meta(lied_meta *m, void *self) {
  tl_ground *g = self;
  lied_meta_port(m, "flange_b", 0, &g->flange_b, &tl_out_layout);
  lied_meta_block(m, "motion", ground_block, 0, LIED_SIGS(&g->s0),
                  LIED_SIGS(&g->flange_b.pos, &g->flange_b.vel, &g->flange_b.acc));
}

static const lied_param ground_params[] = {
    {"s0", offsetof(tl_ground, s0), 0, "m", "position of the ground", TL_NOMIN, TL_NOMAX, 0, 0},
};
const lied_class tl_ground_class = {"Ground", "testlib", "fixed 1-D ground (root)",
                                    sizeof(tl_ground), ground_params, 1, NULL, ground_meta};

/* ---- Slider: relative coordinate s between flange_a and flange_b ---- */
typedef struct tl_slider {
  tl_in flange_a;
  tl_out flange_b;
  double s, der_s, v, der_v;
  double a, res; /* tearing pair: relative acceleration, force balance */
  double k, d, F;
} tl_slider;

static void slider_pos(const lied_env *env, tl_slider *j) {
  (void)env;
  j->flange_b.pos.s = j->flange_a.pos->s + j->s;
}
static void slider_vel(const lied_env *env, tl_slider *j) {
  (void)env;
  j->flange_b.vel.v = j->flange_a.vel->v + j->v;
  j->der_s = j->v;
}
static void slider_acc(const lied_env *env, tl_slider *j) {
  (void)env;
  j->flange_b.acc.a = j->flange_a.acc->a + j->a;
  j->der_v = j->a;
}
static void slider_force(const lied_env *env, tl_slider *j) {
  (void)env;
  double fb = j->flange_b.force->f;
  j->flange_a.force.f = fb;
  /* the joint's spring-damper and applied force must supply what flange_b needs */
  j->res = fb - (j->F - j->k * j->s - j->d * j->v);
}
LIED_BLOCK(slider_pos_b, tl_slider, slider_pos)
LIED_BLOCK(slider_vel_b, tl_slider, slider_vel)
LIED_BLOCK(slider_acc_b, tl_slider, slider_acc)
LIED_BLOCK(slider_force_b, tl_slider, slider_force)

static void slider_meta(lied_meta *m, void *self) {
  tl_slider *j = self;
  lied_meta_port(m, "flange_a", 0, &j->flange_a, &tl_in_layout);
  lied_meta_port(m, "flange_b", 0, &j->flange_b, &tl_out_layout);
  lied_meta_state(m, "s", "m", &j->s, &j->der_s);
  lied_meta_state(m, "v", "m/s", &j->v, &j->der_v);
  lied_meta_tear(m, "a", &j->a, "res", &j->res);
  lied_meta_block(m, "pos", slider_pos_b, 0, LIED_SIGS(&j->flange_a.pos, &j->s),
                  LIED_SIGS(&j->flange_b.pos));
  lied_meta_block(m, "vel", slider_vel_b, 0, LIED_SIGS(&j->flange_a.vel, &j->v),
                  LIED_SIGS(&j->flange_b.vel, &j->der_s));
  lied_meta_block(m, "acc", slider_acc_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&j->flange_a.acc, &j->a), LIED_SIGS(&j->flange_b.acc, &j->der_v));
  lied_meta_block(m, "force", slider_force_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&j->flange_b.force, &j->s, &j->v),
                  LIED_SIGS(&j->flange_a.force, &j->res));
}

static const lied_param slider_params[] = {
    {"k", offsetof(tl_slider, k), 0, "N/m", "spring stiffness", 0, TL_NOMAX, 0, 0},
    {"d", offsetof(tl_slider, d), 0, "N.s/m", "damping", 0, TL_NOMAX, 0, 0},
    {"F", offsetof(tl_slider, F), 0, "N", "applied force", TL_NOMIN, TL_NOMAX, 0, 0},
    {"s", offsetof(tl_slider, s), 0, "m", "start value of s", TL_NOMIN, TL_NOMAX, 0, 0},
    {"v", offsetof(tl_slider, v), 0, "m/s", "start value of v", TL_NOMIN, TL_NOMAX, 0, 0},
};
const lied_class tl_slider_class = {
    "Slider", "testlib",
    "1-D joint with relative position s, a spring k, damper d and applied force F",
    sizeof(tl_slider), slider_params, 5, NULL, slider_meta};

/* ---- Mass: passes motion through, adds its inertial force ---- */
typedef struct tl_mass {
  tl_in flange_a;
  tl_out flange_b;
  double m;
} tl_mass;

static void mass_pos(const lied_env *env, tl_mass *b) {
  (void)env;
  b->flange_b.pos.s = b->flange_a.pos->s;
}
static void mass_vel(const lied_env *env, tl_mass *b) {
  (void)env;
  b->flange_b.vel.v = b->flange_a.vel->v;
}
static void mass_acc(const lied_env *env, tl_mass *b) {
  (void)env;
  b->flange_b.acc.a = b->flange_a.acc->a;
}
static void mass_force(const lied_env *env, tl_mass *b) {
  (void)env;
  b->flange_a.force.f = b->m * b->flange_a.acc->a + b->flange_b.force->f;
}
LIED_BLOCK(mass_pos_b, tl_mass, mass_pos)
LIED_BLOCK(mass_vel_b, tl_mass, mass_vel)
LIED_BLOCK(mass_acc_b, tl_mass, mass_acc)
LIED_BLOCK(mass_force_b, tl_mass, mass_force)

static void mass_meta(lied_meta *m, void *self) {
  tl_mass *b = self;
  lied_meta_port(m, "flange_a", 0, &b->flange_a, &tl_in_layout);
  lied_meta_port(m, "flange_b", 0, &b->flange_b, &tl_out_layout);
  lied_meta_block(m, "pos", mass_pos_b, 0, LIED_SIGS(&b->flange_a.pos), LIED_SIGS(&b->flange_b.pos));
  lied_meta_block(m, "vel", mass_vel_b, 0, LIED_SIGS(&b->flange_a.vel), LIED_SIGS(&b->flange_b.vel));
  lied_meta_block(m, "acc", mass_acc_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&b->flange_a.acc),
                  LIED_SIGS(&b->flange_b.acc));
  lied_meta_block(m, "force", mass_force_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->flange_a.acc, &b->flange_b.force),
                  LIED_SIGS(&b->flange_a.force));
}

static const lied_param mass_params[] = {
    {"m", offsetof(tl_mass, m), 1, "kg", "mass", 0, TL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
};
const lied_class tl_mass_class = {"Mass", "testlib", "point mass on a 1-D flange",
                                  sizeof(tl_mass), mass_params, 1, NULL, mass_meta};
