/* valve.c - Valve (opening from a signal, linear or equal-percentage
 * characteristic) and CheckValve (one-way: open or closed by a state event,
 * or a smooth law). Both are
 * flow resistances computed explicitly from the mass flow, odd in it, with
 * an inertance L; the outlet carries the inlet's flow and enthalpy at the
 * pressure lowered by dp.
 *
 * Nominal law at full opening: with Kv > 0 [m3/h] the standard valve
 * equation, volume flow Kv*sqrt(dp/1 bar * 1000/rho):
 *   dp = 1.296e9 * m|m| / (rho * Kv^2)    (3600^2 * 1e5 / 1000; rho at the inlet)
 * otherwise the reference point (dp_ref at m_flow_ref):
 *   dp = dp_ref * m|m| / m_flow_ref^2
 * Valve: the flow coefficient is scaled by f = leakage + (1 - leakage)*phi(y),
 * y the opening clamped to [0, 1], phi(y) = y (linear) or R^(y - 1) (equal
 * percentage, rangeability R; linear to 0 below y = 0.01); dp = nominal/f^2.
 * The leakage keeps a closed valve a (large) finite resistance.
 * The opening's clamps at 0 (full closure) and 1 are kinks of the law, and
 * so is the equal-percentage characteristic's change to its linear part at
 * y = 0.01: kink functions (the opening, the opening - 1, y - 0.01;
 * LIED_ZC_KINK) make the adaptive solvers end a step there instead of
 * stepping across (docs/events.md).
 * CheckValve (events, the default): open, the nominal law; closed, the
 * leakage's resistance dp = nominal / leakage^2 (leakage times the forward
 * flow at the same dp). It closes when its flow falls through 0 and opens
 * when the (leakage) flow turns forward again: the zero function is the mass
 * flow, and dp is continuous at the switch (0 on both sides).
 * CheckValve with smooth = 1: dp = nominal * (1 + (1/leakage^2 - 1) * s),
 * s = 0 for m >= 0 and s = 1 - exp(-(m/m_flow_small)^2) for m < 0, no
 * events: increasing in m and once continuously differentiable. */
#include "lib/thermofluid/deps.h"

enum { CHAR_LINEAR = 1, CHAR_EQUAL_PERCENTAGE = 2 };

typedef struct tf_valve {
  tf_in inlet;
  tf_out outlet;
  lied_real_in opening;
  tf_med med;
  double Kv, dp_ref, m_flow_ref, R, leakage, m_flow_small, L;
  double dp, y, f; /* pressure drop, clamped opening, flow coefficient factor */
  int smooth;      /* CheckValve: 1 for the smooth law, 0 for events */
  double open;     /* CheckValve (events): discrete, 1 open, 0 closed */
  double z0, z1, z2; /* zero functions (Valve: opening, opening - 1, y - 0.01; CheckValve: m_flow) */
  int characteristic, check;
} tf_valve;

/* The nominal drop at full opening. */
static inline double valve_nominal(const tf_valve *v, double m, double p, double h) {
  tf_med mx;
  if (v->Kv > 0)
    return 1.296e9 * m * fabs(m) /
           (tf_rho(tf_med_at(&v->med, v->inlet.X, &mx), p, h) * v->Kv * v->Kv);
  return v->dp_ref * m * fabs(m) / (v->m_flow_ref * v->m_flow_ref);
}
static inline double clamp01(double y) { return y < 0 ? 0 : y > 1 ? 1 : y; }
#define VALVE_DELTA 0.01 /* the equal-percentage law is linear below this opening */
static inline double valve_phi(int characteristic, double R, double y) {
  if (characteristic == CHAR_LINEAR) return y;
  return y >= VALVE_DELTA ? pow(R, y - 1) : y / VALVE_DELTA * pow(R, VALVE_DELTA - 1);
}

/* The outlet's pressure (each law); the flow block passes m_flow, h and X. */
static void valve_pressure(const lied_env *env, tf_valve *v) {
  (void)env;
  const tf_state *in = v->inlet.state;
  v->y = clamp01(v->opening.y->y);
  v->f = v->leakage + (1 - v->leakage) * valve_phi(v->characteristic, v->R, v->y);
  v->dp = valve_nominal(v, in->m_flow, in->p, in->h) / (v->f * v->f);
  v->outlet.state.p = in->p - v->dp;
  v->z0 = v->opening.y->y;
  v->z1 = v->opening.y->y - 1;
  v->z2 = v->y - VALVE_DELTA;
}

static void check_event_pressure(const lied_env *env, tf_valve *v) {
  (void)env;
  const tf_state *in = v->inlet.state;
  const double k = v->open != 0 ? 1 : 1 / (v->leakage * v->leakage);
  v->f = 1 / sqrt(k);
  v->dp = valve_nominal(v, in->m_flow, in->p, in->h) * k;
  v->outlet.state.p = in->p - v->dp;
  v->z0 = in->m_flow;
}
static void check_event(void *self, const lied_event *ev) {
  tf_valve *v = self;
  /* zero flow counts as closed, as the zero function's sign does */
  if (ev->initial || ev->crossed) v->open = v->inlet.state->m_flow > 0;
}
static void check_pressure(const lied_env *env, tf_valve *v) {
  (void)env;
  const tf_state *in = v->inlet.state;
  const double x = in->m_flow / v->m_flow_small;
  const double s = in->m_flow < 0 ? 1 - exp(-x * x) : 0;
  const double k = 1 + (1 / (v->leakage * v->leakage) - 1) * s;
  v->f = 1 / sqrt(k);
  v->dp = valve_nominal(v, in->m_flow, in->p, in->h) * k;
  v->outlet.state.p = in->p - v->dp;
}
TF_FLOW_PASS(valve_flow_b, tf_valve, inlet, outlet, med)
static void valve_der(const lied_env *env, tf_valve *v) {
  (void)env;
  tf_pass_der(&v->inlet, &v->outlet);
}
static void valve_r(const lied_env *env, tf_valve *v) {
  (void)env;
  tf_pass_r(&v->inlet, &v->outlet, v->L);
}
LIED_BLOCK(valve_pressure_b, tf_valve, valve_pressure)
LIED_BLOCK(check_pressure_b, tf_valve, check_pressure)
LIED_BLOCK(check_event_pressure_b, tf_valve, check_event_pressure)
LIED_BLOCK(valve_der_b, tf_valve, valve_der)
LIED_BLOCK(valve_r_b, tf_valve, valve_r)

static int valve_init_common(tf_valve *v, lied_init *ctx, int check) {
  v->check = check;
  if (tf_medium_init(&v->med, ctx)) return -1;
  if (!check && v->characteristic != CHAR_LINEAR && v->characteristic != CHAR_EQUAL_PERCENTAGE) {
    lied_init_error(ctx, "Valve: characteristic = %d is unknown (1 = linear, 2 = equal "
                    "percentage)", v->characteristic);
    return -1;
  }
  return 0;
}
static int valve_init(void *self, lied_init *ctx) { return valve_init_common(self, ctx, 0); }
static int check_init(void *self, lied_init *ctx) { return valve_init_common(self, ctx, 1); }

static void valve_meta(lied_meta *m, void *self) {
  tf_valve *v = self;
  tf_meta_in(m, "inlet", 0, &v->inlet, &v->med);
  tf_meta_out(m, "outlet", 0, &v->outlet, &v->med);
  lied_meta_var(m, "m_flow", "kg/s", &v->outlet.state.m_flow);
  lied_meta_var(m, "dp", "Pa", &v->dp);
  lied_meta_var(m, "f", "1", &v->f);
  /* with Kv the law has the inlet's density (with dp_ref, m_flow_ref it
   * reads m_flow alone, but the declaration does not depend on Kv, which
   * copies of an array may set apart: docs/thermofluid.md) */
  const int vars = tf_rho_reads(&v->med);
  const void *X_in = TF_X(&v->med, v->inlet);
  if (v->check && v->smooth != 0) {
    lied_meta_block(m, "pressure", check_pressure_b, 0,
                    LIED_SIGS(&v->inlet.state, X_in),
                    LIED_SIGS(&v->outlet.state.p, &v->dp, &v->f));
    tf_meta_reads(m, &v->inlet, vars);
  } else if (v->check) {
    lied_meta_var(m, "open", "1", &v->open);
    lied_meta_block(m, "pressure", check_event_pressure_b, 0,
                    LIED_SIGS(&v->inlet.state, &v->open, X_in),
                    LIED_SIGS(&v->outlet.state.p, &v->dp, &v->f, &v->z0));
    tf_meta_reads(m, &v->inlet, vars);
    lied_meta_zero(m, "z", &v->z0, LIED_ZC_BOTH);
    lied_meta_event(m, check_event);
  } else {
    lied_meta_real_in(m, "opening", 0, &v->opening);
    lied_meta_var(m, "y", "1", &v->y);
    lied_meta_block(m, "pressure", valve_pressure_b, 0,
                    LIED_SIGS(&v->inlet.state, &v->opening.y, X_in),
                    LIED_SIGS(&v->outlet.state.p, &v->dp, &v->y, &v->f, &v->z0, &v->z1, &v->z2));
    tf_meta_reads(m, &v->inlet, vars);
    lied_meta_zero(m, "z_closed", &v->z0, LIED_ZC_BOTH | LIED_ZC_KINK);
    lied_meta_zero(m, "z_open", &v->z1, LIED_ZC_BOTH | LIED_ZC_KINK);
    if (v->characteristic == CHAR_EQUAL_PERCENTAGE)
      lied_meta_zero(m, "z_linear", &v->z2, LIED_ZC_BOTH | LIED_ZC_KINK);
  }
  tf_meta_flow_pass(m, valve_flow_b, &v->inlet, &v->outlet, &v->med);
  lied_meta_block(m, "der", valve_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&v->inlet.der),
                  LIED_SIGS(&v->outlet.der));
  lied_meta_block(m, "r", valve_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&v->outlet.r, &v->inlet.der), LIED_SIGS(&v->inlet.r));
}

#define VALVE_LAW_PARAMS                                                                    \
  {"Kv", offsetof(tf_valve, Kv), 0, "m3/h",                                                 \
   "flow coefficient at full opening (0: use dp_ref and m_flow_ref)", 0, TF_NOMAX, 0, 0},   \
  {"dp_ref", offsetof(tf_valve, dp_ref), 1e5, "Pa",                                         \
   "pressure drop at m_flow_ref, fully open (when Kv = 0)", 0, TF_NOMAX,                    \
   LIED_PARAM_MIN_OPEN, 0},                                                                 \
  {"m_flow_ref", offsetof(tf_valve, m_flow_ref), 1, "kg/s",                                 \
   "mass flow at dp_ref, fully open (when Kv = 0)", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},   \
  {"L", offsetof(tf_valve, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0}
static const lied_param valve_params[] = {
    VALVE_LAW_PARAMS,
    {"characteristic", offsetof(tf_valve, characteristic), 1, "1",
     "1: linear, 2: equal percentage", 1, 2, LIED_PARAM_INT, 0},
    {"R", offsetof(tf_valve, R), 50, "1", "rangeability of the equal-percentage characteristic",
     1, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"leakage", offsetof(tf_valve, leakage), 1e-4, "1",
     "flow coefficient of the closed valve, relative to the open one", 0, 1,
     LIED_PARAM_MIN_OPEN, 0},
    TF_MEDIUM_PARAM(tf_valve),
};
static const lied_param check_params[] = {
    VALVE_LAW_PARAMS,
    {"leakage", offsetof(tf_valve, leakage), 1e-3, "1",
     "reverse flow coefficient, relative to the forward one", 0, 1, LIED_PARAM_MIN_OPEN, 0},
    {"m_flow_small", offsetof(tf_valve, m_flow_small), 1e-4, "kg/s",
     "smooth = 1: width of the smooth closing for reverse flow (keep it below the leakage flow)",
     0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"smooth", offsetof(tf_valve, smooth), 0, "1",
     "0: open/closed switched by events at zero flow; 1: the smooth law (no events)", 0, 1,
     LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_valve),
};
const lied_class tf_valve_class = {
    "Valve", "thermofluid",
    "valve whose opening (signal input, clamped to [0, 1]) scales its flow coefficient: "
    "linear or equal-percentage characteristic, Kv or dp_ref/m_flow_ref, a small leakage",
    sizeof(tf_valve), valve_params, sizeof valve_params / sizeof *valve_params, valve_init,
    valve_meta};
const lied_class tf_check_valve_class = {
    "CheckValve", "thermofluid",
    "one-way valve: the nominal law while open, the leakage's resistance while closed, "
    "switched by a state event when the flow crosses zero (smooth = 1: a smooth law instead)",
    sizeof(tf_valve), check_params, sizeof check_params / sizeof *check_params, check_init,
    valve_meta};
