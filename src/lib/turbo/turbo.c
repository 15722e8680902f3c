/* turbo.c - Compressor, Turbine and Fan with the characteristic and the
 * constant isentropic efficiency of ThermoFluid Stream's
 * dp_tau_const_isentrop (its Processes.Internal.TurboComponent), on a
 * rotational flange (docs/turbo.md):
 *   n = w/w_ref (0 for w_ref = 0: a turbine whose ratio does not depend on
 *   its speed), phi = m/m_ref,
 *   pr = n|n| - skew n phi - phi|phi| + 1, and k^(pr - 1) where that is < 1,
 *   p_out = pr p_in,
 *   dh_s = h(T_s) - h(T_in), s(p_out, T_s) = s(p_in, T_in) (the gas's laws),
 *   dh_e = dh_s/eta where the stream takes work (dh_s m > 0), eta dh_s else,
 *   dh = dh_e tanh(w/w_small),  tau = m dh_e tanh(w/w_small)/w  (m dh_e/w_small at w = 0),
 * so tau w = m dh exactly: the shaft's power is the stream's enthalpy gain.
 * At standstill the stream is throttled (dh = 0) and pushes the blades with
 * the torque m dh_e/w_small; above 20 w_small the law holds to rounding. */
#include <stdio.h>
#include "lib/turbo/turbo.h"
#include "lib/thermofluid/deps.h"

/* The pressure ratio of the characteristic at speed w and flow m. */
static inline double tb_pr(const tb_machine *c, double w, double m) {
  const double n = c->w_ref > 0 ? w / c->w_ref : 0, phi = m / c->m_ref;
  const double pr = n * fabs(n) - c->skew * n * phi - phi * fabs(phi) + 1;
  return pr < 1 ? pow(c->k, pr - 1) : pr;
}

void tb_inflow_of(tb_machine *c, tb_inflow *s) {
  s->m = c->inlet.state->m_flow, s->w = c->flange.w->w;
  s->med = tf_med_at(&c->med, c->inlet.X, &s->mx);
  s->g = &c->gas;
  if (c->moist) tf_gas_of(s->med, s->med->par[1], &s->gx), s->g = &s->gx;
}

void tb_begin(const lied_env *env, tb_machine *c, tb_inflow *s) {
  const tf_state *in = c->inlet.state;
  tb_inflow_of(c, s);
  c->T_in = tf_T(s->med, in->p, in->h);
  TF_GUARD_PH(env, c, s->med, c->T_in, in->p, in->h, "inflow");
}

/* The outlet pressure p_out = pr p_in (a block of its own: it reads the
 * inlet's m_flow and p and the speed, not the enthalpy). */
static void tb_pressure(const lied_env *env, tb_machine *c) {
  (void)env;
  const tf_state *in = c->inlet.state;
  c->w = c->flange.w->w;
  c->pr = tb_pr(c, c->w, in->m_flow);
  c->outlet.state.p = in->p * c->pr;
  c->dp = c->outlet.state.p - in->p;
}

/* The enthalpy change, computed from p_in and p_out = pr p_in (so it reads
 * the inlet's p too), and the torque. */
void tb_finish(const lied_env *env, tb_machine *c, const tb_inflow *s, double eta) {
  const tf_state *in = c->inlet.state;
  const double m = s->m, w = s->w, p2 = in->p * c->pr;
  const double T2s = tf_gas_T_ps(s->g, p2, tf_gas_s(s->g, in->p, c->T_in));
  c->dh_s = tf_gas_h(s->g, T2s) - tf_gas_h(s->g, c->T_in);
  if (!isfinite(c->dh_s) && isfinite(c->T_in))
    lied_block_fault(env, c,
                     "isentropic outflow: p = %.9g Pa (pressure ratio %.9g) from T = %.9g K: its "
                     "temperature is outside [200 K, 6000 K]",
                     p2, c->pr, c->T_in);
  const double dh_e = c->dh_s * m > 0 ? c->dh_s / eta : eta * c->dh_s;
  const double x = w / c->w_small, th = tanh(x);
  const double th_w = fabs(x) > 1e-4 ? th / w : (1 - x * x / 3) / c->w_small; /* tanh(x)/w */
  c->dh = dh_e * th;
  c->tau = m * dh_e * th_w;
  c->P = m * c->dh;
  c->flange.tau.tau = c->tau;
  c->outlet.state.m_flow = m;
  c->outlet.state.h = in->h + c->dh;
  tf_pass_X(&c->med, &c->inlet, &c->outlet);
}

static void tb_work(const lied_env *env, tb_machine *c) {
  tb_inflow s;
  tb_begin(env, c, &s);
  tb_finish(env, c, &s, c->eta);
}
/* The outflow's temperature (for recording; nothing reads it). */
static void tb_out(const lied_env *env, tb_machine *c) {
  tf_med mx;
  const tf_med *med = tf_med_at(&c->med, c->inlet.X, &mx);
  const tf_state *o = &c->outlet.state;
  c->T_out = tf_T(med, o->p, o->h);
  TF_GUARD_PH(env, c, med, c->T_out, o->p, o->h, "outflow");
}
static void tb_der(const lied_env *env, tb_machine *c) {
  (void)env;
  tf_pass_der(&c->inlet, &c->outlet);
}
static void tb_r(const lied_env *env, tb_machine *c) {
  (void)env;
  tf_pass_r(&c->inlet, &c->outlet, c->L);
}
/* The kink function z_eta = dh_s m (written in the output part, read by
 * nothing): the efficiency law switches between dh_s/eta and eta dh_s where
 * dh_s m changes sign, and the characteristic between its quadratic law and
 * k^(pr - 1) at pr = 1, where dh_s = 0 (the isentropic change of a gas
 * vanishes exactly at pr = 1): one function holds both. */
static void tb_kinks(const lied_env *env, tb_machine *c) {
  (void)env;
  c->z_eta = c->dh_s * c->inlet.state->m_flow;
}
LIED_BLOCK(tb_kinks_b, tb_machine, tb_kinks)
LIED_BLOCK(tb_pressure_b, tb_machine, tb_pressure)
LIED_BLOCK(tb_work_b, tb_machine, tb_work)
LIED_BLOCK(tb_out_b, tb_machine, tb_out)
LIED_BLOCK(tb_der_b, tb_machine, tb_der)
LIED_BLOCK(tb_r_b, tb_machine, tb_r)

int tb_init_medium(tb_machine *c, lied_init *ctx) {
  int zero = 1;
  for (int i = 0; i < TF_MEDIUM_LEN; i++) zero &= c->med.par[i] == 0;
  if (zero) { /* the default medium is dry air of NASA polynomials (tf.air) */
    c->med.par[0] = TF_NASA_GAS;
    for (int i = 0; i < NASA_NSP; i++) c->med.par[1 + i] = nasa_dry_air_Y[i];
  }
  if (tf_medium_init(&c->med, ctx)) return -1;
  if (tf_gas_of(&c->med, c->med.par[1], &c->gas)) {
    lied_init_error(ctx, "the medium of a turbomachine must be a gas (tf.air, tf.ideal_gas{...}, "
                    "tf.combustion_products{...}, tf.moist_air_nasa{...}, tf.gas{...}), not %s",
                    c->med.fn->name);
    return -1;
  }
  c->moist = (int)c->med.par[0] == TF_NASA_MOIST_AIR;
  return 0;
}
static int tb_init(void *self, lied_init *ctx) { return tb_init_medium(self, ctx); }

void tb_meta_common(lied_meta *m, tb_machine *c) {
  tf_meta_in(m, "inlet", 0, &c->inlet, &c->med);
  tf_meta_out(m, "outlet", 0, &c->outlet, &c->med);
  lied_meta_port(m, "flange", 0, &c->flange, &ro_branch_layout);
  lied_meta_var(m, "m_flow", "kg/s", &c->outlet.state.m_flow);
  lied_meta_var(m, "pr", "1", &c->pr);
  lied_meta_var(m, "dp", "Pa", &c->dp);
  lied_meta_var(m, "dh", "J/kg", &c->dh);
  lied_meta_var(m, "dh_s", "J/kg", &c->dh_s);
  lied_meta_var(m, "tau", "N.m", &c->tau);
  lied_meta_var(m, "P", "W", &c->P);
  lied_meta_var(m, "w", "rad/s", &c->w);
  lied_meta_var(m, "T_in", "K", &c->T_in);
  lied_meta_var(m, "T_out", "K", &c->T_out);
  lied_meta_block(m, "out", tb_out_b, 0,
                  LIED_SIGS(&c->outlet.state.p, &c->outlet.state.h, TF_X(&c->med, c->inlet)),
                  LIED_SIGS(&c->T_out));
  lied_meta_block(m, "der", tb_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&c->inlet.der),
                  LIED_SIGS(&c->outlet.der));
  lied_meta_block(m, "r", tb_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&c->outlet.r, &c->inlet.der),
                  LIED_SIGS(&c->inlet.r));
}

void tb_meta_kinks(lied_meta *m, tb_machine *c) {
  lied_meta_block(m, "kinks", tb_kinks_b, 0, LIED_SIGS(&c->inlet.state, &c->dh_s),
                  LIED_SIGS(&c->z_eta));
  tf_meta_reads(m, &c->inlet, TF_M);
  lied_meta_zero(m, "z_eta", &c->z_eta, LIED_ZC_BOTH | LIED_ZC_KINK);
}

static void tb_meta(lied_meta *m, void *self) {
  tb_machine *c = self;
  tb_meta_common(m, c);
  lied_meta_block(m, "pressure", tb_pressure_b, 0, LIED_SIGS(&c->inlet.state, &c->flange.w),
                  LIED_SIGS(&c->outlet.state.p, &c->pr, &c->dp, &c->w));
  tf_meta_reads(m, &c->inlet, TF_M | TF_P);
  lied_meta_block(m, "work", tb_work_b, 0,
                  LIED_SIGS(&c->inlet.state, &c->flange.w, &c->pr, TF_X(&c->med, c->inlet)),
                  LIED_SIGS(&c->outlet.state.m_flow, &c->outlet.state.h, &c->flange.tau, &c->dh,
                            &c->dh_s, &c->tau, &c->P, &c->T_in, TF_X(&c->med, c->outlet)));
  tf_meta_writes_m(m, &c->outlet);
  tb_meta_kinks(m, c);
}

/* The parameters, with each class's defaults (those of ThermoFluid Stream's
 * SimpleAirCycle). */
#define TB_PARAMS(W_REF, SKEW, M_REF, K, ETA)                                                   \
  {"w_ref", offsetof(tb_machine, w_ref), W_REF, "rad/s",                                        \
   "reference speed: pr = 2 at w_ref and no flow (0: the ratio does not depend on the speed)",   \
   0, TF_NOMAX, 0, 0},                                                                          \
  {"m_ref", offsetof(tb_machine, m_ref), M_REF, "kg/s",                                         \
   "reference flow: pr = 0 (before the k law) at m_ref and no speed", 0, TF_NOMAX,              \
   LIED_PARAM_MIN_OPEN, 0},                                                                     \
  {"skew", offsetof(tb_machine, skew), SKEW, "1", "skewness of the characteristic's mixed term",  \
   TF_NOMIN, TF_NOMAX, 0, 0},                                                                   \
  {"k", offsetof(tb_machine, k), K, "1", "base of the characteristic where pr < 1: k^(pr - 1)", 1, \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                           \
  {"eta", offsetof(tb_machine, eta), ETA, "1", "isentropic efficiency", 0, 1,                    \
   LIED_PARAM_MIN_OPEN, 0},                                                                     \
  {"w_small", offsetof(tb_machine, w_small), 50, "rad/s",                                       \
   "speed below which the work fades out (dh scaled by tanh(w/w_small); the standstill torque "  \
   "m dh_e/w_small)",                                                                           \
   0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                        \
  {"L", offsetof(tb_machine, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},     \
  {"medium", offsetof(tb_machine, med.par), 0, "1",                                             \
   "medium {kind, c1..c5}: a gas (default tf.air)", TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}

static const lied_param compressor_params[] = {TB_PARAMS(2500, 1, 1, 2, 0.9)};
static const lied_param turbine_params[] = {TB_PARAMS(0, -0.2, 0.36, 2, 0.93)};
static const lied_param fan_params[] = {TB_PARAMS(500, 1, 0.21, 2, 0.7)};
#define TB_NPARAMS ((int)(sizeof compressor_params / sizeof *compressor_params))

const lied_class tb_compressor_class = {
    "Compressor", "turbo",
    "gas compressor on a shaft: pressure ratio from a characteristic of speed and flow, "
    "constant isentropic efficiency, torque tau = m dh / w (tau w = m dh)",
    sizeof(tb_machine), compressor_params, TB_NPARAMS, tb_init, tb_meta};
const lied_class tb_turbine_class = {
    "Turbine", "turbo",
    "gas turbine on a shaft: pressure ratio below 1 from a characteristic of flow (and speed), "
    "constant isentropic efficiency, torque tau = m dh / w (negative: it drives the shaft)",
    sizeof(tb_machine), turbine_params, TB_NPARAMS, tb_init, tb_meta};
const lied_class tb_fan_class = {
    "Fan", "turbo",
    "fan on a shaft: a low-ratio compressor (the same laws, a fan's defaults)",
    sizeof(tb_machine), fan_params, TB_NPARAMS, tb_init, tb_meta};

static const lied_class *const turbo_classes[] = {&tb_compressor_class, &tb_turbine_class,
                                                  &tb_fan_class, &tb_compressor_map_class,
                                                  &tb_turbine_map_class, NULL};
LIED_LIBRARY(turbo, "turbomachines on shafts: Compressor, Turbine, Fan (thermofluid streams, "
             "rotational flanges), CompressorMap, TurbineMap (performance maps)", turbo_classes)
