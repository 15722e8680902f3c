/* machines.c - the undirected Valve, Pump and Fan: two-port elements whose
 * laws (those of the directed library: src/lib/thermofluid/valve.c, pump.c,
 * fan.c) are written as the pressure rise from rear to fore for the signed
 * flow m, evaluated forwards with the forward inflow's density and rearwards
 * with the rearward inflow's (TFU_RISE_BLOCKS):
 *   Valve  rise = -dp_nom(m)/f^2, f = leakage + (1 - leakage)*phi(y), y the
 *          opening clamped to [0, 1] (the clamps are state events); odd in m
 *   Pump   rise = k_p*(omega*V_r/(2*pi) - m/rho); omega < 0 drives it backwards
 *   Fan    rise = dp_max*(n|n| - v|v|), n = omega/w_ref, v = m/(rho*V_flow_max)
 * All are continuous through zero flow (the valve odd, pump and fan smooth in
 * m): a reversal needs no event. */
#include "lib/undirected/undirected.h"

/* ---- Valve -------------------------------------------------------------------------- */

enum { CHAR_LINEAR = 1, CHAR_EQUAL_PERCENTAGE = 2 };

typedef struct tfu_valve {
  tfu_elem e;
  lied_real_in opening;
  double Kv, dp_ref, m_flow_ref, R, leakage;
  double y, f, z0, z1, z2; /* clamped opening, flow coefficient factor, zero functions */
  double rise_f, rise_b, dp;
  int characteristic, pad_;
} tfu_valve;

#define VALVE_DELTA 0.01 /* the equal-percentage law is linear below this opening */
static inline double valve_phi(int characteristic, double R, double y) {
  if (characteristic == CHAR_LINEAR) return y;
  return y >= VALVE_DELTA ? pow(R, y - 1) : y / VALVE_DELTA * pow(R, VALVE_DELTA - 1);
}
static void valve_opening(const lied_env *env, tfu_valve *v) {
  (void)env;
  const double u = v->opening.y->y;
  v->y = u < 0 ? 0 : u > 1 ? 1 : u;
  v->f = v->leakage + (1 - v->leakage) * valve_phi(v->characteristic, v->R, v->y);
  v->z0 = u;
  v->z1 = u - 1;
  v->z2 = v->y - VALVE_DELTA; /* the equal-percentage law's linear part: a kink (slopes 100 and ln R) */
}
/* The nominal law at full opening (Kv: the standard valve equation with the
 * inflow's density; else the reference point), over f^2. */
static inline double valve_rise(const tfu_valve *v, const tf_med *med, double m, double p,
                                double h) {
  const double nom = v->Kv > 0 ? 1.296e9 * m * fabs(m) / (tf_rho(med, p, h) * v->Kv * v->Kv)
                               : v->dp_ref * m * fabs(m) / (v->m_flow_ref * v->m_flow_ref);
  return -nom / (v->f * v->f);
}
TFU_RISE_BLOCKS(valve, tfu_valve, valve_rise)
static void valve_out(const lied_env *env, tfu_valve *v) {
  (void)env;
  v->dp = -(v->e.rear.flow->m_flow >= 0 ? v->rise_f : v->rise_b);
}
LIED_BLOCK(valve_opening_b, tfu_valve, valve_opening)
LIED_BLOCK(valve_out_b, tfu_valve, valve_out)

static int valve_init(void *self, lied_init *ctx) {
  tfu_valve *v = self;
  return tf_medium_init(&v->e.med, ctx);
}
static void valve_meta(lied_meta *m, void *self) {
  tfu_valve *v = self;
  tfu_elem_meta(m, &v->e, v->e.L > 0);
  lied_meta_real_in(m, "opening", 0, &v->opening);
  lied_meta_var(m, "m_flow", "kg/s", &v->e.fore.flow.m_flow);
  lied_meta_var(m, "dp", "Pa", &v->dp);
  lied_meta_var(m, "y", "1", &v->y);
  lied_meta_var(m, "f", "1", &v->f);
  lied_meta_block(m, "opening", valve_opening_b, 0, LIED_SIGS(&v->opening.y),
                  LIED_SIGS(&v->y, &v->f, &v->z0, &v->z1, &v->z2));
  tfu_rise_meta(m, &v->e, valve_fwd_b, valve_back_b, &v->rise_f, &v->rise_b,
                tfu_rho_reads(&v->e.med), LIED_SIGS(&v->f)); /* whatever Kv: copies may differ */
  lied_meta_block(m, "output", valve_out_b, 0,
                  LIED_SIGS(&v->e.rear.flow, &v->rise_f, &v->rise_b), LIED_SIGS(&v->dp));
  lied_meta_zero(m, "z_closed", &v->z0, LIED_ZC_BOTH | LIED_ZC_KINK);
  lied_meta_zero(m, "z_open", &v->z1, LIED_ZC_BOTH | LIED_ZC_KINK);
  if (v->characteristic == CHAR_EQUAL_PERCENTAGE)
    lied_meta_zero(m, "z_linear", &v->z2, LIED_ZC_BOTH | LIED_ZC_KINK);
}

static const lied_param valve_params[] = {
    {"Kv", offsetof(tfu_valve, Kv), 0, "m3/h",
     "flow coefficient at full opening (0: use dp_ref and m_flow_ref)", 0, TF_NOMAX, 0, 0},
    {"dp_ref", offsetof(tfu_valve, dp_ref), 1e5, "Pa",
     "pressure drop at m_flow_ref, fully open (when Kv = 0)", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN,
     0},
    {"m_flow_ref", offsetof(tfu_valve, m_flow_ref), 1, "kg/s",
     "mass flow at dp_ref, fully open (when Kv = 0)", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"characteristic", offsetof(tfu_valve, characteristic), 1, "1",
     "1: linear, 2: equal percentage", 1, 2, LIED_PARAM_INT, 0},
    {"R", offsetof(tfu_valve, R), 50, "1", "rangeability of the equal-percentage characteristic",
     1, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"leakage", offsetof(tfu_valve, leakage), 1e-4, "1",
     "flow coefficient of the closed valve, relative to the open one", 0, 1,
     LIED_PARAM_MIN_OPEN, 0},
    TFU_ELEM_L(tfu_valve),
    TFU_ELEM_MEDIUM(tfu_valve),
};
const lied_class tfu_valve_class = {
    "Valve", "undirected",
    "undirected valve: dp = dp_nom(m_flow)/f^2 (odd in the flow, the inflow's density each "
    "way), f = leakage + (1 - leakage)*phi(y), y the opening (signal input) clamped to "
    "[0, 1]; linear or equal-percentage characteristic, Kv or dp_ref/m_flow_ref",
    sizeof(tfu_valve), valve_params, sizeof valve_params / sizeof *valve_params, valve_init,
    valve_meta};

/* ---- Pump and Fan ------------------------------------------------------------------ */

typedef struct tfu_machine {
  tfu_elem e;
  lied_real_in omega_in;
  double a, b, c; /* Pump: k_p, V_r, (unused); Fan: dp_max, V_flow_max, w_ref */
  double omega, w; /* the speed parameter, the speed in use */
  double rise_f, rise_b, dp, V_flow, P;
  int omega_from_input, fan;
} tfu_machine;

static void machine_speed(const lied_env *env, tfu_machine *s) {
  (void)env;
  s->w = s->omega_from_input ? s->omega_in.y->y : s->omega;
}
static inline double pump_rise(const tfu_machine *s, const tf_med *med, double m, double p,
                               double h) {
  return s->a * (s->w * s->b / (2.0 * TF_PI) - m / tf_rho(med, p, h));
}
static inline double fan_rise(const tfu_machine *s, const tf_med *med, double m, double p,
                              double h) {
  const double n = s->w / s->c, v = m / (tf_rho(med, p, h) * s->b);
  return s->a * (n * fabs(n) - v * fabs(v));
}
TFU_RISE_BLOCKS(pump, tfu_machine, pump_rise)
TFU_RISE_BLOCKS(fan, tfu_machine, fan_rise)
/* Recorded: the head of the flow's direction, the volume flow at the upwind
 * inflow's density, the power given to the fluid. */
static void machine_out(const lied_env *env, tfu_machine *s) {
  const double m = s->e.rear.flow->m_flow;
  const int fwd = m >= 0;
  const tfu_state *in = fwd ? s->e.rear.state : s->e.fore.back;
  tf_med mx;
  const tf_med *med = tfu_med_at(&s->e.med, in, &mx);
  const double rho = tf_rho(med, in->p, in->h);
  TF_GUARD_PH(env, s, med, rho, in->p, in->h, "inflow");
  s->dp = fwd ? s->rise_f : s->rise_b;
  s->V_flow = m / rho;
  s->P = s->dp * s->V_flow;
}
LIED_BLOCK(machine_speed_b, tfu_machine, machine_speed)
LIED_BLOCK(machine_out_b, tfu_machine, machine_out)

static int pump_init(void *self, lied_init *ctx) {
  tfu_machine *s = self;
  s->fan = 0;
  return tf_medium_init(&s->e.med, ctx);
}
static int fan_init(void *self, lied_init *ctx) {
  tfu_machine *s = self;
  s->fan = 1;
  int zero = 1;
  for (int i = 0; i < TF_MEDIUM_LEN; i++) zero &= s->e.med.par[i] == 0;
  if (zero) { /* the default medium of a fan is air */
    const double air[TF_MEDIUM_LEN] = {TF_GAS, 287.05, 1005.45, 0, 0, 0};
    for (int i = 0; i < TF_MEDIUM_LEN; i++) s->e.med.par[i] = air[i];
  }
  return tf_medium_init(&s->e.med, ctx);
}
static void machine_meta(lied_meta *m, void *self) {
  tfu_machine *s = self;
  tfu_elem_meta(m, &s->e, s->e.L > 0);
  if (s->omega_from_input) lied_meta_real_in(m, "omega_in", 0, &s->omega_in);
  lied_meta_var(m, "m_flow", "kg/s", &s->e.fore.flow.m_flow);
  lied_meta_var(m, "dp", "Pa", &s->dp);
  lied_meta_var(m, "w", "rad/s", &s->w);
  lied_meta_var(m, "V_flow", "m3/s", &s->V_flow);
  lied_meta_var(m, "P", "W", &s->P);
  lied_meta_block(m, "speed", machine_speed_b, 0,
                  s->omega_from_input ? LIED_SIGS(&s->omega_in.y) : LIED_NONE, LIED_SIGS(&s->w));
  if (s->fan)
    tfu_rise_meta(m, &s->e, fan_fwd_b, fan_back_b, &s->rise_f, &s->rise_b,
                  tfu_rho_reads(&s->e.med), LIED_SIGS(&s->w));
  else
    tfu_rise_meta(m, &s->e, pump_fwd_b, pump_back_b, &s->rise_f, &s->rise_b,
                  tfu_rho_reads(&s->e.med), LIED_SIGS(&s->w));
  /* V_flow with the density of the inflow, either way by the sign */
  const int vars = tfu_rho_reads(&s->e.med);
  const void *oi[8] = {&s->e.rear.flow, &s->rise_f, &s->rise_b};
  tfu_list(oi, tfu_list(oi, 3, &s->e.rear.state, vars), &s->e.fore.back, vars);
  lied_meta_block(m, "output", machine_out_b, 0, oi, LIED_SIGS(&s->dp, &s->V_flow, &s->P));
  tfu_meta_reads(m, &s->e.rear.state, vars);
  tfu_meta_reads(m, &s->e.fore.back, vars);
}

#define MACHINE_SPEED(DEF)                                                                    \
  {"omega", offsetof(tfu_machine, omega), DEF, "rad/s",                                       \
   "speed (unless omega_from_input); negative drives it backwards", TF_NOMIN, TF_NOMAX, 0,    \
   0},                                                                                        \
  {"omega_from_input", offsetof(tfu_machine, omega_from_input), 0, "1",                       \
   "1: speed from the signal input omega_in [rad/s]", 0, 1, LIED_PARAM_INT, 0},               \
  TFU_ELEM_L(tfu_machine)
static const lied_param pump_params[] = {
    {"k_p", offsetof(tfu_machine, a), 1e7, "Pa.s/m3", "slope of the characteristic", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"V_r", offsetof(tfu_machine, b), 1e-4, "m3", "volume displaced per revolution", 0,
     TF_NOMAX, 0, 0},
    MACHINE_SPEED(100),
    TFU_ELEM_MEDIUM(tfu_machine),
};
const lied_class tfu_pump_class = {
    "Pump", "undirected",
    "undirected pump: dp = k_p*(omega*V_r/(2*pi) - m_flow/rho) added forwards and taken "
    "rearwards (rho of the inflow each way); omega a parameter or the signal input omega_in, "
    "negative to drive it backwards",
    sizeof(tfu_machine), pump_params, sizeof pump_params / sizeof *pump_params, pump_init,
    machine_meta};

static const lied_param fan_params[] = {
    {"dp_max", offsetof(tfu_machine, a), 500, "Pa", "pressure rise at zero flow, reference speed",
     0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"V_flow_max", offsetof(tfu_machine, b), 1, "m3/s",
     "volume flow at zero pressure rise, reference speed", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"w_ref", offsetof(tfu_machine, c), 314.159, "rad/s", "reference speed", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    MACHINE_SPEED(314.159),
    {"medium", offsetof(tfu_machine, e.med.par), 0, "1",
     "medium {kind, c1..c5}: tf.gas{...} (default tf.air)", TF_NOMIN, TF_NOMAX, 0,
     TF_MEDIUM_LEN},
};
const lied_class tfu_fan_class = {
    "Fan", "undirected",
    "undirected fan for gases: dp = dp_max*(n|n| - v|v|), n = omega/w_ref, v = "
    "m_flow/(rho*V_flow_max) (affinity laws; rho of the inflow each way), added forwards and "
    "taken rearwards; omega < 0 drives it backwards",
    sizeof(tfu_machine), fan_params, sizeof fan_params / sizeof *fan_params, fan_init,
    machine_meta};
