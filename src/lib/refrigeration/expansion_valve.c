/* expansion_valve.c - ExpansionValve (an orifice whose opening is a signal:
 * an electronic expansion valve) and ThermostaticValve (its opening follows
 * the superheat at the bulb), both isenthalpic (docs/refrigeration.md,
 * "Expansion valves"). The orifice law, odd in the flow, with the density
 * at the inlet (liquid, two-phase or vapour, from the medium's tables):
 *   m = f A sqrt(2 rho1 dp)   ->   dp = m|m| / (2 rho1 (f A)^2)
 *   f = leakage + (1 - leakage) y,  y the opening clamped to [0, 1]
 * (A the flow area times the discharge coefficient; the leakage keeps a
 * closed valve a large, finite resistance). Thermostatic: y = (sh - sh_static)
 * / sh_range, sh the bulb's superheat: the input itself (T_bulb = 0) or a
 * state following it with the bulb's time constant,
 *   T_bulb der(sh_b) = superheat - sh_b.
 * The clamps at 0 and 1 are kinks: zero functions declared as kinks
 * (LIED_ZC_KINK, as thermofluid's Valve does), unless events = 0 (a model with state
 * events takes no fused steps and no lane forms: an array of valves). The outlet carries the inlet's flow and
 * enthalpy at the pressure lowered by dp. */
#include "lib/refrigeration/refrigeration.h"
#include "lib/thermofluid/deps.h"

typedef struct rg_valve {
  rg_two_port e; /* inlet, outlet, L */
  lied_real_in opening, superheat;
  tf_med med;
  double sh_b, der_sh_b; /* ThermostaticValve with T_bulb > 0: the bulb's superheat */
  double A, leakage, sh_static, sh_range, T_bulb;
  double y, f, dp, rho1, sh_used, z0, z1;
  int thermostatic, events;
} rg_valve;

static inline double clamp01(double y) { return y < 0 ? 0 : y > 1 ? 1 : y; }

/* The orifice of one copy at the raw opening u and the inflow (m, p, h). */
typedef struct orifice {
  double y, f, rho1, dp;
} orifice;
static inline void orifice_eq(const lied_env *env, const void *self, const tf_med *med, double A,
                              double leakage, double u, double m, double p, double h, orifice *o) {
  o->y = clamp01(u);
  o->f = leakage + (1 - leakage) * o->y;
  o->rho1 = tf_rho(med, p, h);
  TF_GUARD_PH(env, self, med, o->rho1, p, h, "inflow");
  const double fA = o->f * A;
  o->dp = m * fabs(m) / (2 * o->rho1 * fA * fA);
}
/* The raw opening: the signal, or the bulb's superheat scaled. */
static inline double valve_u(int thermostatic, double sh, double sh_static, double sh_range,
                             double opening) {
  return thermostatic ? (sh - sh_static) / sh_range : opening;
}

/* The outlet's pressure (its m_flow, h and X: the flow block). */
static void valve_pressure(const lied_env *env, rg_valve *v) {
  const tf_state *in = v->e.inlet.state;
  if (v->thermostatic) v->sh_used = v->T_bulb > 0 ? v->sh_b : v->superheat.y->y;
  const double u = valve_u(v->thermostatic, v->sh_used, v->sh_static, v->sh_range,
                           v->thermostatic ? 0 : v->opening.y->y);
  orifice o;
  orifice_eq(env, v, &v->med, v->A, v->leakage, u, in->m_flow, in->p, in->h, &o);
  v->y = o.y, v->f = o.f, v->rho1 = o.rho1, v->dp = o.dp;
  v->e.outlet.state.p = in->p - o.dp;
  v->z0 = u;
  v->z1 = u - 1;
}
static void valve_bulb(const lied_env *env, rg_valve *v) {
  (void)env;
  v->der_sh_b = (v->superheat.y->y - v->sh_b) / v->T_bulb;
}
TF_FLOW_PASS_LANES(valve_flow_b, rg_valve, e.inlet, e.outlet, med)
LIED_BLOCK(valve_pressure_b, rg_valve, valve_pressure)
LIED_BLOCK(valve_bulb_b, rg_valve, valve_bulb)

/* Lane forms (lied/component.h): the same operations, copy by copy. */
static void valve_pressure_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *in = LIED_LANE_IN(rg_valve, g, e.inlet.state);
  const double *op = LIED_LANE_IN(rg_valve, g, opening.y), *shi = LIED_LANE_IN(rg_valve, g, superheat.y);
  const double *sh_b = LIED_LANE(rg_valve, g, sh_b), *T_bulb = LIED_LANE(rg_valve, g, T_bulb);
  const double *sh_static = LIED_LANE(rg_valve, g, sh_static), *sh_range = LIED_LANE(rg_valve, g, sh_range);
  const double *A = LIED_LANE(rg_valve, g, A), *leakage = LIED_LANE(rg_valve, g, leakage);
  double *y = LIED_LANE(rg_valve, g, y), *f = LIED_LANE(rg_valve, g, f), *dp = LIED_LANE(rg_valve, g, dp);
  double *rho1 = LIED_LANE(rg_valve, g, rho1), *sh_used = LIED_LANE(rg_valve, g, sh_used);
  double *z0 = LIED_LANE(rg_valve, g, z0), *z1 = LIED_LANE(rg_valve, g, z1);
  double *out = LIED_LANE(rg_valve, g, e.outlet.state.p);
  for (size_t l = 0; l < n; l++) {
    const int th = TF_LANE_INT(rg_valve, g, thermostatic, l);
    if (th) sh_used[l] = T_bulb[l] > 0 ? sh_b[l] : shi[l];
    const double u = valve_u(th, sh_used[l], sh_static[l], sh_range[l], th ? 0 : op[l]);
    tf_med med;
    TF_LANE_MED(rg_valve, g, med, l, &med);
    orifice o;
    orifice_eq(env, TF_LANE_WORD(rg_valve, g, y, l), &med, A[l], leakage[l], u, TF_V(in, 0, l),
               TF_V(in, 1, l), TF_V(in, 2, l), &o);
    y[l] = o.y, f[l] = o.f, rho1[l] = o.rho1, dp[l] = o.dp;
    out[l] = TF_V(in, 1, l) - o.dp;
    z0[l] = u;
    z1[l] = u - 1;
  }
}
LIED_LANE_BODY void valve_bulb_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict shi = LIED_LANE_IN(rg_valve, g, superheat.y);
  const double *restrict sh_b = LIED_LANE(rg_valve, g, sh_b), *restrict T = LIED_LANE(rg_valve, g, T_bulb);
  double *restrict d = LIED_LANE(rg_valve, g, der_sh_b);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) d[l] = (shi[l] - sh_b[l]) / T[l];
}
LIED_LANE_FORM(valve_bulb_lanes)

static int valve_init(void *self, lied_init *ctx) {
  rg_valve *v = self;
  v->thermostatic = 0;
  return rg_medium_init(&v->med, ctx);
}
static int txv_init(void *self, lied_init *ctx) {
  rg_valve *v = self;
  v->thermostatic = 1;
  return rg_medium_init(&v->med, ctx);
}

static void valve_meta(lied_meta *m, void *self) {
  rg_valve *v = self;
  const int bulb = v->thermostatic && v->T_bulb > 0;
  tf_meta_in(m, "inlet", 0, &v->e.inlet, &v->med);
  tf_meta_out(m, "outlet", 0, &v->e.outlet, &v->med);
  lied_meta_var(m, "m_flow", "kg/s", &v->e.outlet.state.m_flow);
  lied_meta_var(m, "dp", "Pa", &v->dp);
  lied_meta_var(m, "y", "1", &v->y);
  lied_meta_var(m, "f", "1", &v->f);
  lied_meta_var(m, "rho1", "kg/m3", &v->rho1);
  const void *u;
  if (v->thermostatic) {
    lied_meta_real_in(m, "superheat", 0, &v->superheat);
    lied_meta_var(m, "sh_used", "K", &v->sh_used);
    if (bulb) {
      lied_meta_state(m, "sh_b", "K", &v->sh_b, &v->der_sh_b);
      lied_meta_block(m, "bulb", valve_bulb_b, 0, LIED_SIGS(&v->superheat.y, &v->sh_b),
                      LIED_SIGS(&v->der_sh_b));
      lied_meta_lanes(m, valve_bulb_lanes);
    }
    u = bulb ? (const void *)&v->sh_b : &v->superheat.y;
  } else {
    lied_meta_real_in(m, "opening", 0, &v->opening);
    u = &v->opening.y;
  }
  /* the pressure with the inlet's density: m_flow, p and h of the inflow */
  lied_meta_block(m, "pressure", valve_pressure_b, 0, LIED_SIGS(&v->e.inlet.state, u),
                  LIED_SIGS(&v->e.outlet.state.p, &v->dp, &v->y, &v->f, &v->rho1, &v->z0, &v->z1,
                            v->thermostatic ? &v->sh_used : NULL));
  lied_meta_lanes(m, valve_pressure_lanes);
  tf_meta_reads(m, &v->e.inlet, tf_rho_reads(&v->med));
  tf_meta_flow_pass(m, valve_flow_b, &v->e.inlet, &v->e.outlet, &v->med);
  lied_meta_lanes(m, valve_flow_b_lanes);
  if (v->events) {
    lied_meta_zero(m, "z_closed", &v->z0, LIED_ZC_BOTH | LIED_ZC_KINK);
    lied_meta_zero(m, "z_open", &v->z1, LIED_ZC_BOTH | LIED_ZC_KINK);
  }
  rg_meta_pass(m, &v->e, 1);
}

#define ORIFICE_PARAMS                                                                           \
  {"A", offsetof(rg_valve, A), 1e-6, "m2",                                                      \
   "flow area at full opening times the discharge coefficient", 0, TF_NOMAX,                    \
   LIED_PARAM_MIN_OPEN, 0, NULL},                                                               \
  {"leakage", offsetof(rg_valve, leakage), 1e-4, "1",                                           \
   "flow area of the closed valve, relative to the open one", 0, 1, LIED_PARAM_MIN_OPEN, 0,     \
   NULL},                                                                                       \
  {"events", offsetof(rg_valve, events), 1, "1",                                               \
   "1: the opening's clamps at 0 and 1 are state events; 0: none (arrays of copies then keep "   \
   "fused steps and lane forms)",                                                               \
   0, 1, LIED_PARAM_INT, 0, NULL},                                                              \
  {"L", offsetof(rg_valve, e.L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0, NULL}, \
  RG_MEDIUM_PARAM(rg_valve)

static const lied_param valve_params[] = {ORIFICE_PARAMS};
static const lied_param txv_params[] = {
    {"sh_static", offsetof(rg_valve, sh_static), 3, "K",
     "static superheat: the bulb's superheat at which the valve starts to open", TF_NOMIN,
     TF_NOMAX, 0, 0, NULL},
    {"sh_range", offsetof(rg_valve, sh_range), 4, "K",
     "superheat above sh_static that opens the valve fully", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0,
     NULL},
    {"T_bulb", offsetof(rg_valve, T_bulb), 0, "s",
     "time constant of the bulb (0: the superheat input acts at once)", 0, TF_NOMAX, 0, 0, NULL},
    {"sh_b", offsetof(rg_valve, sh_b), 5, "K", "start value of the bulb's superheat (T_bulb > 0)",
     TF_NOMIN, TF_NOMAX, 0, 0, NULL},
    ORIFICE_PARAMS,
};
const lied_class rg_expansion_valve_class = {
    "ExpansionValve", "thermofluid",
    "isenthalpic orifice, dp = m|m|/(2 rho1 (f A)^2), f = leakage + (1 - leakage) y, the opening "
    "y a signal input (clamped to [0, 1]): an electronic expansion valve",
    sizeof(rg_valve), valve_params, sizeof valve_params / sizeof *valve_params, valve_init,
    valve_meta};
const lied_class rg_thermostatic_valve_class = {
    "ThermostaticValve", "thermofluid",
    "the ExpansionValve's orifice opened by the superheat at its bulb (signal input superheat [K], "
    "through the bulb's time constant T_bulb): y = (sh - sh_static)/sh_range clamped to [0, 1]",
    sizeof(rg_valve), txv_params, sizeof txv_params / sizeof *txv_params, txv_init, valve_meta};
