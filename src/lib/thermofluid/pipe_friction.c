/* pipe_friction.c - Pipe: the pressure drop of a straight round pipe of
 * length l, diameter d and wall roughness ks (docs/thermofluid.md, "Pipe
 * friction"), Darcy-Weisbach dp = f (l/d) rho v^2/2 with an explicit
 * friction factor:
 *   laminar (Re <= 2300):   f = 64/Re
 *   turbulent (Re >= 4000): Haaland (1983),
 *                           1/sqrt(f) = -1.8 log10((ks/d/3.7)^1.11 + 6.9/Re)
 *   between: f Re blended by the smoothstep s = 3x^2 - 2x^3, x = (Re - 2300)/1700
 * Re = |m| d/(A mu) with the dynamic viscosity mu a parameter (the media
 * have none). Written with g = f Re, dp = g mu l m/(2 rho A d^2): no division
 * by the flow, odd in it, g = 64 down to standstill. */
#include "lib/thermofluid/deps.h"

typedef struct tf_pipe {
  tf_in inlet;
  tf_out outlet;
  tf_med med;
  double l, d, ks, mu, L;
  double dp, Re, f; /* outputs */
} tf_pipe;

#define PIPE_RE_LAM 2300.0
#define PIPE_RE_TURB 4000.0

/* Haaland's friction factor at Re, relative roughness r. */
static inline double haaland(double Re, double r) {
  const double a = -1.8 * log10(pow(r / 3.7, 1.11) + 6.9 / Re);
  return 1 / (a * a);
}
/* g = f Re over every regime. */
static inline double pipe_g(double Re, double r) {
  if (Re <= PIPE_RE_LAM) return 64.0;
  if (Re >= PIPE_RE_TURB) return Re * haaland(Re, r);
  const double x = (Re - PIPE_RE_LAM) / (PIPE_RE_TURB - PIPE_RE_LAM), s = x * x * (3 - 2 * x);
  return (1 - s) * 64.0 + s * Re * haaland(Re, r);
}

/* The outlet's pressure (the flow block passes m_flow, h and X). */
static void pipe_pressure(const lied_env *env, tf_pipe *q) {
  const tf_state *in = q->inlet.state;
  tf_med mx;
  const tf_med *med = tf_med_at(&q->med, q->inlet.X, &mx);
  const double rho = tf_rho(med, in->p, in->h);
  TF_GUARD_PH(env, q, med, rho, in->p, in->h, "inflow");
  const double A = 0.25 * TF_PI * q->d * q->d, m = in->m_flow;
  q->Re = fabs(m) * q->d / (A * q->mu);
  const double g = pipe_g(q->Re, q->ks / q->d);
  q->f = q->Re > 0 ? g / q->Re : 0;
  q->dp = g * q->mu * q->l * m / (2 * rho * A * q->d * q->d);
  q->outlet.state.p = in->p - q->dp;
}
TF_FLOW_PASS(pipe_flow_b, tf_pipe, inlet, outlet, med)
static void pipe_der(const lied_env *env, tf_pipe *q) {
  (void)env;
  tf_pass_der(&q->inlet, &q->outlet);
}
static void pipe_r(const lied_env *env, tf_pipe *q) {
  (void)env;
  tf_pass_r(&q->inlet, &q->outlet, q->L);
}
LIED_BLOCK(pipe_pressure_b, tf_pipe, pipe_pressure)
LIED_BLOCK(pipe_der_b, tf_pipe, pipe_der)
LIED_BLOCK(pipe_r_b, tf_pipe, pipe_r)

static int pipe_init(void *self, lied_init *ctx) {
  tf_pipe *q = self;
  return tf_medium_init(&q->med, ctx);
}

static void pipe_meta(lied_meta *m, void *self) {
  tf_pipe *q = self;
  tf_meta_in(m, "inlet", 0, &q->inlet, &q->med);
  tf_meta_out(m, "outlet", 0, &q->outlet, &q->med);
  lied_meta_var(m, "m_flow", "kg/s", &q->outlet.state.m_flow);
  lied_meta_var(m, "dp", "Pa", &q->dp);
  lied_meta_var(m, "Re", "1", &q->Re);
  lied_meta_var(m, "f", "1", &q->f);
  lied_meta_block(m, "pressure", pipe_pressure_b, 0,
                  LIED_SIGS(&q->inlet.state, TF_X(&q->med, q->inlet)),
                  LIED_SIGS(&q->outlet.state.p, &q->dp, &q->Re, &q->f));
  tf_meta_reads(m, &q->inlet, tf_rho_reads(&q->med));
  tf_meta_flow_pass(m, pipe_flow_b, &q->inlet, &q->outlet, &q->med);
  lied_meta_block(m, "der", pipe_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&q->inlet.der),
                  LIED_SIGS(&q->outlet.der));
  lied_meta_block(m, "r", pipe_r_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&q->outlet.r, &q->inlet.der),
                  LIED_SIGS(&q->inlet.r));
}

static const lied_param pipe_params[] = {
    {"l", offsetof(tf_pipe, l), 1, "m", "length", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"d", offsetof(tf_pipe, d), 0.05, "m", "inner diameter", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"ks", offsetof(tf_pipe, ks), 1.5e-6, "m", "wall roughness (drawn tubing 1.5e-6, steel 4.5e-5)",
     0, TF_NOMAX, 0, 0},
    {"mu", offsetof(tf_pipe, mu), 1e-3, "Pa.s",
     "dynamic viscosity of the fluid (water 1e-3, air 1.8e-5)", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_pipe, L), 0, "1/m", "inertance (l / A for the pipe's own: give it)", 0,
     TF_NOMAX, 0, 0},
    TF_MEDIUM_PARAM(tf_pipe),
};
const lied_class tf_pipe_class = {
    "Pipe", "thermofluid",
    "straight round pipe: dp = f (l/d) rho v^2/2, f = 64/Re laminar, Haaland turbulent, a "
    "smooth blend between Re 2300 and 4000; roughness ks, viscosity mu",
    sizeof(tf_pipe), pipe_params, sizeof pipe_params / sizeof *pipe_params, pipe_init, pipe_meta};
