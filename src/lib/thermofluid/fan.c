/* fan.c - Fan: raises the pressure of a gas stream after the affinity laws,
 * with speed omega (a parameter or the signal omega_in):
 *   n = omega/w_ref, v = V_flow/V_flow_max, V_flow = m_flow/rho(inlet)
 *   dp = dp_max * (n|n| - v|v|)
 * a parabola through dp_max at zero flow and V_flow_max at zero head at the
 * reference speed, scaled by n^2 in pressure and n in flow. The outlet
 * carries the inlet's enthalpy (the temperature rise of the compression is
 * neglected); P = dp*V_flow is the power given to the gas. Default medium:
 * air of constant cp (tf.gas{}). */
#include "lib/thermofluid/deps.h"

typedef struct tf_fan {
  tf_in inlet;
  tf_out outlet;
  lied_real_in omega_in;
  tf_med med;
  double dp_max, V_flow_max, w_ref, omega, L;
  double dp, V_flow, P, w; /* w: the speed in use (as the Pump's) */
  int omega_from_input, pad_;
} tf_fan;

/* The outlet's pressure; the flow block passes m_flow, h and X. */
static void fan_pressure(const lied_env *env, tf_fan *f) {
  const tf_state *in = f->inlet.state;
  const double w = f->omega_from_input ? f->omega_in.y->y : f->omega;
  const double n = w / f->w_ref;
  f->w = w;
  tf_med mx;
  const tf_med *med = tf_med_at(&f->med, f->inlet.X, &mx);
  const double rho = tf_rho(med, in->p, in->h);
  TF_GUARD_PH(env, f, med, rho, in->p, in->h, "inflow");
  f->V_flow = in->m_flow / rho;
  const double v = f->V_flow / f->V_flow_max;
  f->dp = f->dp_max * (n * fabs(n) - v * fabs(v));
  f->P = f->dp * f->V_flow;
  f->outlet.state.p = in->p + f->dp;
}
TF_FLOW_PASS(fan_flow_b, tf_fan, inlet, outlet, med)
static void fan_der(const lied_env *env, tf_fan *f) {
  (void)env;
  tf_pass_der(&f->inlet, &f->outlet);
}
static void fan_r(const lied_env *env, tf_fan *f) {
  (void)env;
  tf_pass_r(&f->inlet, &f->outlet, f->L);
}
LIED_BLOCK(fan_pressure_b, tf_fan, fan_pressure)
LIED_BLOCK(fan_der_b, tf_fan, fan_der)
LIED_BLOCK(fan_r_b, tf_fan, fan_r)

static int fan_init(void *self, lied_init *ctx) {
  tf_fan *f = self;
  int zero = 1;
  for (int i = 0; i < TF_MEDIUM_LEN; i++) zero &= f->med.par[i] == 0;
  if (zero) { /* the default medium of a fan is air */
    const double air[TF_MEDIUM_LEN] = {TF_GAS, 287.05, 1005.45, 0, 0, 0};
    for (int i = 0; i < TF_MEDIUM_LEN; i++) f->med.par[i] = air[i];
  }
  return tf_medium_init(&f->med, ctx);
}

static void fan_meta(lied_meta *m, void *self) {
  tf_fan *f = self;
  tf_meta_in(m, "inlet", 0, &f->inlet, &f->med);
  tf_meta_out(m, "outlet", 0, &f->outlet, &f->med);
  if (f->omega_from_input) lied_meta_real_in(m, "omega_in", 0, &f->omega_in);
  lied_meta_var(m, "m_flow", "kg/s", &f->outlet.state.m_flow);
  lied_meta_var(m, "dp", "Pa", &f->dp);
  lied_meta_var(m, "V_flow", "m3/s", &f->V_flow);
  lied_meta_var(m, "P", "W", &f->P);
  lied_meta_var(m, "w", "rad/s", &f->w);
  const void *in[4] = {&f->inlet.state, NULL, NULL, NULL};
  int n = 1;
  if (f->omega_from_input) in[n++] = &f->omega_in.y;
  in[n] = TF_X(&f->med, f->inlet);
  lied_meta_block(m, "pressure", fan_pressure_b, 0, in,
                  LIED_SIGS(&f->outlet.state.p, &f->dp, &f->V_flow, &f->P, &f->w));
  tf_meta_reads(m, &f->inlet, tf_rho_reads(&f->med));
  tf_meta_flow_pass(m, fan_flow_b, &f->inlet, &f->outlet, &f->med);
  lied_meta_block(m, "der", fan_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&f->inlet.der),
                  LIED_SIGS(&f->outlet.der));
  lied_meta_block(m, "r", fan_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&f->outlet.r, &f->inlet.der), LIED_SIGS(&f->inlet.r));
}

static const lied_param fan_params[] = {
    {"dp_max", offsetof(tf_fan, dp_max), 500, "Pa", "pressure rise at zero flow, reference speed",
     0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"V_flow_max", offsetof(tf_fan, V_flow_max), 1, "m3/s",
     "volume flow at zero pressure rise, reference speed", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"w_ref", offsetof(tf_fan, w_ref), 314.159, "rad/s", "reference speed", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"omega", offsetof(tf_fan, omega), 314.159, "rad/s", "speed (unless omega_from_input)",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"omega_from_input", offsetof(tf_fan, omega_from_input), 0, "1",
     "1: speed from the signal input omega_in [rad/s]", 0, 1, LIED_PARAM_INT, 0},
    {"L", offsetof(tf_fan, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},
    {"medium", offsetof(tf_fan, med.par), 0, "1",
     "medium {kind, c1..c5}: tf.gas{...}, tf.air, ... (default tf.gas{}, air of constant cp)", TF_NOMIN, TF_NOMAX, 0,
     TF_MEDIUM_LEN},
};
const lied_class tf_fan_class = {
    "Fan", "thermofluid",
    "fan for gases: dp = dp_max*(n|n| - v|v|), n = omega/w_ref, v = V_flow/V_flow_max "
    "(affinity laws); speed from a parameter or the signal input omega_in",
    sizeof(tf_fan), fan_params, sizeof fan_params / sizeof *fan_params, fan_init, fan_meta};
