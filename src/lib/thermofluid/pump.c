/* pump.c - Pump with the simple characteristic
 * dp = k_p * (omega*V_r/(2*pi) - m_flow/rho); omega is a parameter or the
 * signal input omega_in. */
#include "lib/thermofluid/deps.h"

typedef struct tf_pump {
  tf_in inlet;
  tf_out outlet;
  lied_real_in omega_in;
  tf_med med;
  double k_p, V_r, omega, L;
  int omega_from_input;
  double dp, w; /* pressure rise, speed in use */
} tf_pump;

/* The outlet's pressure; the flow block passes m_flow, h and X. */
static void pump_pressure(const lied_env *env, tf_pump *p) {
  const tf_state *in = p->inlet.state;
  p->w = p->omega_from_input ? p->omega_in.y->y : p->omega;
  tf_med mx;
  const tf_med *med = tf_med_at(&p->med, p->inlet.X, &mx);
  double rho = tf_rho(med, in->p, in->h);
  TF_GUARD_PH(env, p, med, rho, in->p, in->h, "inflow");
  p->dp = p->k_p * (p->w * p->V_r / (2.0 * TF_PI) - in->m_flow / rho);
  p->outlet.state.p = in->p + p->dp;
}
TF_FLOW_PASS(pump_flow_b, tf_pump, inlet, outlet, med)
static void pump_der(const lied_env *env, tf_pump *p) {
  (void)env;
  tf_pass_der(&p->inlet, &p->outlet);
}
static void pump_r(const lied_env *env, tf_pump *p) {
  (void)env;
  tf_pass_r(&p->inlet, &p->outlet, p->L);
}
LIED_BLOCK(pump_pressure_b, tf_pump, pump_pressure)
LIED_BLOCK(pump_der_b, tf_pump, pump_der)
LIED_BLOCK(pump_r_b, tf_pump, pump_r)

static int pump_init(void *self, lied_init *ctx) {
  tf_pump *p = self;
  return tf_medium_init(&p->med, ctx);
}

static void pump_meta(lied_meta *m, void *self) {
  tf_pump *p = self;
  tf_meta_in(m, "inlet", 0, &p->inlet, &p->med);
  tf_meta_out(m, "outlet", 0, &p->outlet, &p->med);
  if (p->omega_from_input) lied_meta_real_in(m, "omega_in", 0, &p->omega_in);
  lied_meta_var(m, "m_flow", "kg/s", &p->outlet.state.m_flow);
  lied_meta_var(m, "dp", "Pa", &p->dp);
  lied_meta_var(m, "w", "rad/s", &p->w);
  const void *in[4] = {&p->inlet.state, NULL, NULL, NULL};
  int n = 1;
  if (p->omega_from_input) in[n++] = &p->omega_in.y;
  in[n] = TF_X(&p->med, p->inlet);
  lied_meta_block(m, "pressure", pump_pressure_b, 0, in,
                  LIED_SIGS(&p->outlet.state.p, &p->dp, &p->w));
  tf_meta_reads(m, &p->inlet, tf_rho_reads(&p->med));
  tf_meta_flow_pass(m, pump_flow_b, &p->inlet, &p->outlet, &p->med);
  lied_meta_block(m, "der", pump_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&p->inlet.der),
                  LIED_SIGS(&p->outlet.der));
  lied_meta_block(m, "r", pump_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&p->outlet.r, &p->inlet.der), LIED_SIGS(&p->inlet.r));
}

static const lied_param pump_params[] = {
    {"k_p", offsetof(tf_pump, k_p), 1e7, "Pa.s/m3", "slope of the characteristic", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"V_r", offsetof(tf_pump, V_r), 1e-4, "m3", "volume displaced per revolution", 0,
     TF_NOMAX, 0, 0},
    {"omega", offsetof(tf_pump, omega), 100, "rad/s", "speed (unless omega_from_input)",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"L", offsetof(tf_pump, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},
    {"omega_from_input", offsetof(tf_pump, omega_from_input), 0, "1",
     "1: speed from the signal input omega_in [rad/s]", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_pump),
};
const lied_class tf_pump_class = {
    "Pump", "thermofluid",
    "pump with the characteristic dp = k_p*(omega*V_r/(2*pi) - m_flow/rho); omega a "
    "parameter or the signal input omega_in",
    sizeof(tf_pump), pump_params, sizeof pump_params / sizeof *pump_params, pump_init,
    pump_meta};
