/* tank.c - open tanks: TankOut starts a stream at its bottom (a Source whose
 * pressure is p_env + rho*g*level), TankIn ends one (a Sink at that pressure).
 * Both integrate their level: der(level) = (m_in - m_out) / (rho*A). */
#include "lib/thermofluid/deps.h"

/* Parameters both tanks share, in the same order. */
#define TANK_PARAMS(TYPE)                                                              \
  {"A", offsetof(TYPE, A), 1, "m2", "cross-section area", 0, TF_NOMAX,                 \
   LIED_PARAM_MIN_OPEN, 0},                                                            \
  {"level", offsetof(TYPE, level), 1, "m", "start value of the liquid level", 0,       \
   TF_NOMAX, 0, 0},                                                                    \
  {"p_env", offsetof(TYPE, p_env), 1e5, "Pa", "ambient pressure on the surface", 0,    \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                  \
  {"g", offsetof(TYPE, g), 9.81, "m/s2", "gravity", 0, TF_NOMAX, 0, 0},                \
  {"T0", offsetof(TYPE, T0), 293.15, "K", "temperature of the liquid", 0, TF_NOMAX,    \
   LIED_PARAM_MIN_OPEN, 0},                                                            \
  {"L", offsetof(TYPE, L), 0, "1/m", "inertance of the port (length / area)", 0,       \
   TF_NOMAX, 0, 0},                                                                    \
  TF_MEDIUM_PARAM(TYPE)

/* ---- TankOut ---- */
/* An open tank holds a liquid of one substance. */
static int tf_tank_medium(const tf_med *med, lied_init *ctx) {
  if (!tf_nX(med)) return 0;
  lied_init_error(ctx, "an open tank holds a liquid: %s (a medium with mass fractions) is not "
                  "one; use a Volume", med->fn->name);
  return -1;
}

typedef struct tf_tank_out {
  tf_out outlet;
  tf_med med;
  double A, level, p_env, g, T0, L;
  double der_level;
  double m_flow, der_m_flow; /* state: outflow */
  double dm_flow, res;       /* tearing pair */
  double rho, h0;            /* from the medium at (p_env, T0) */
} tf_tank_out;

static void tank_out_state(const lied_env *env, tf_tank_out *t) {
  (void)env;
  t->outlet.state =
      (tf_state){t->m_flow, t->p_env + t->rho * t->g * t->level, t->h0};
  t->der_level = -t->m_flow / (t->rho * t->A);
}
static void tank_out_der(const lied_env *env, tf_tank_out *t) {
  (void)env;
  t->outlet.der.der_m_flow = t->dm_flow;
  t->der_m_flow = t->dm_flow;
}
static void tank_out_res(const lied_env *env, tf_tank_out *t) {
  (void)env;
  t->res = t->outlet.r->r + t->L * t->dm_flow;
}
LIED_BLOCK(tank_out_state_b, tf_tank_out, tank_out_state)
LIED_BLOCK(tank_out_der_b, tf_tank_out, tank_out_der)
LIED_BLOCK(tank_out_res_b, tf_tank_out, tank_out_res)

static int tank_out_init(void *self, lied_init *ctx) {
  tf_tank_out *t = self;
  if (tf_medium_init(&t->med, ctx) || tf_tank_medium(&t->med, ctx)) return -1;
  if (tf_medium_check_pT(&t->med, ctx, t->p_env, t->T0, "state (p_env, T0)")) return -1;
  t->h0 = tf_h(&t->med, t->p_env, t->T0);
  t->rho = tf_rho(&t->med, t->p_env, t->h0);
  return 0;
}

static void tank_out_meta(lied_meta *m, void *self) {
  tf_tank_out *t = self;
  lied_meta_port(m, "outlet", 0, &t->outlet, &tf_out_layout);
  lied_meta_state(m, "level", "m", &t->level, &t->der_level);
  lied_meta_state(m, "m_flow", "kg/s", &t->m_flow, &t->der_m_flow);
  lied_meta_tear(m, "dm_flow", &t->dm_flow, "res", &t->res);
  lied_meta_block(m, "state", tank_out_state_b, 0, LIED_SIGS(&t->level, &t->m_flow),
                  LIED_SIGS(&t->outlet.state, &t->der_level));
  lied_meta_block(m, "der", tank_out_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&t->dm_flow),
                  LIED_SIGS(&t->outlet.der, &t->der_m_flow));
  lied_meta_block(m, "residual", tank_out_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&t->outlet.r, &t->dm_flow), LIED_SIGS(&t->res));
}

static const lied_param tank_out_params[] = {
    TANK_PARAMS(tf_tank_out),
    {"m_flow", offsetof(tf_tank_out, m_flow), 0, "kg/s", "start value of the outflow",
     TF_NOMIN, TF_NOMAX, 0, 0},
};
const lied_class tf_tank_out_class = {
    "TankOut", "thermofluid",
    "open tank drained at its bottom: starts a stream at p_env + rho*g*level and owns "
    "its mass-flow state m_flow; der(level) = -m_flow/(rho*A)",
    sizeof(tf_tank_out), tank_out_params, sizeof tank_out_params / sizeof *tank_out_params,
    tank_out_init, tank_out_meta};

/* ---- TankIn ---- */
typedef struct tf_tank_in {
  tf_in inlet;
  tf_med med;
  double A, level, p_env, g, T0, L;
  double der_level, m_flow;
  double rho;
} tf_tank_in;

static void tank_in_level(const lied_env *env, tf_tank_in *t) {
  (void)env;
  t->m_flow = t->inlet.state->m_flow;
  t->der_level = t->m_flow / (t->rho * t->A);
}
/* The tank's bottom pressure minus the arriving steady pressure. */
static void tank_in_r(const lied_env *env, tf_tank_in *t) {
  (void)env;
  t->inlet.r.r = t->p_env + t->rho * t->g * t->level - t->inlet.state->p +
                 t->L * t->inlet.der->der_m_flow;
}
LIED_BLOCK(tank_in_level_b, tf_tank_in, tank_in_level)
LIED_BLOCK(tank_in_r_b, tf_tank_in, tank_in_r)

static int tank_in_init(void *self, lied_init *ctx) {
  tf_tank_in *t = self;
  if (tf_medium_init(&t->med, ctx) || tf_tank_medium(&t->med, ctx)) return -1;
  if (tf_medium_check_pT(&t->med, ctx, t->p_env, t->T0, "state (p_env, T0)")) return -1;
  t->rho = tf_rho(&t->med, t->p_env, tf_h(&t->med, t->p_env, t->T0));
  return 0;
}

static void tank_in_meta(lied_meta *m, void *self) {
  tf_tank_in *t = self;
  lied_meta_port(m, "inlet", 0, &t->inlet, &tf_in_layout);
  lied_meta_state(m, "level", "m", &t->level, &t->der_level);
  lied_meta_var(m, "m_flow", "kg/s", &t->m_flow);
  lied_meta_block(m, "level", tank_in_level_b, 0, LIED_SIGS(&t->inlet.state),
                  LIED_SIGS(&t->der_level, &t->m_flow));
  tf_meta_reads(m, &t->inlet, TF_M);
  lied_meta_block(m, "r", tank_in_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&t->inlet.state, &t->inlet.der, &t->level), LIED_SIGS(&t->inlet.r));
  tf_meta_reads(m, &t->inlet, TF_P);
}

static const lied_param tank_in_params[] = {TANK_PARAMS(tf_tank_in)};
const lied_class tf_tank_in_class = {
    "TankIn", "thermofluid",
    "open tank filled at its bottom: ends a stream at p_env + rho*g*level; "
    "der(level) = m_flow/(rho*A)",
    sizeof(tf_tank_in), tank_in_params, sizeof tank_in_params / sizeof *tank_in_params,
    tank_in_init, tank_in_meta};
