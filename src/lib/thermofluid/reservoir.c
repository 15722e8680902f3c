/* reservoir.c - Reservoir: an infinite reservoir at pressure p0 and
 * temperature T0 (parameters or the signals p0_in, T0_in) with an inlet and
 * an outlet: the inlet ends a stream as a Sink at p0, the outlet starts one
 * as a Source at (p0, T0) with its own mass-flow state. In a closed loop it
 * fixes the pressure and the temperature of the water that leaves it (an
 * open expansion tank with an ideal heat sink); what flows in leaves the
 * model. */
#include "lib/thermofluid/deps.h"

typedef struct tf_reservoir {
  tf_in inlet;
  tf_out outlet;
  lied_real_in p0_in, T0_in;
  tf_med med;
  double p0, T0, L, L_in;
  double m_flow, der_m_flow; /* state: outflow */
  double dm_flow, res;       /* tearing pair */
  double h0, m_in, T_in;     /* recorded: inflow and its temperature */
  int p0_from_input, T0_from_input;
} tf_reservoir;

static inline double res_p(const tf_reservoir *s) {
  return s->p0_from_input ? s->p0_in.y->y : s->p0;
}
/* The outlet: the pressure p0, and the flow state with h(p0, T0). */
static void res_pressure(const lied_env *env, tf_reservoir *s) {
  (void)env;
  s->outlet.state.p = res_p(s);
}
static void res_flow(const lied_env *env, tf_reservoir *s) {
  double h = s->h0;
  if (s->T0_from_input) {
    const double p = res_p(s);
    h = tf_h(&s->med, p, s->T0_in.y->y);
    TF_GUARD_PT(env, s, &s->med, h, p, s->T0_in.y->y, "state (p0, T0_in)");
  }
  s->outlet.state.m_flow = s->m_flow;
  s->outlet.state.h = h;
}
static void res_der(const lied_env *env, tf_reservoir *s) {
  (void)env;
  s->outlet.der.der_m_flow = s->dm_flow;
  s->der_m_flow = s->dm_flow;
}
static void res_residual(const lied_env *env, tf_reservoir *s) {
  (void)env;
  s->res = s->outlet.r->r + s->L * s->dm_flow;
}
static void res_r(const lied_env *env, tf_reservoir *s) {
  (void)env;
  s->inlet.r.r = res_p(s) - s->inlet.state->p + s->L_in * s->inlet.der->der_m_flow;
}
static void res_out(const lied_env *env, tf_reservoir *s) {
  tf_med mx;
  const tf_med *med = tf_med_at(&s->med, s->inlet.X, &mx);
  s->m_in = s->inlet.state->m_flow;
  s->T_in = tf_T(med, s->inlet.state->p, s->inlet.state->h);
  TF_GUARD_PH(env, s, med, s->T_in, s->inlet.state->p, s->inlet.state->h, "inflow");
}
LIED_BLOCK(res_pressure_b, tf_reservoir, res_pressure)
LIED_BLOCK(res_flow_b, tf_reservoir, res_flow)
LIED_BLOCK(res_der_b, tf_reservoir, res_der)
LIED_BLOCK(res_residual_b, tf_reservoir, res_residual)
LIED_BLOCK(res_r_b, tf_reservoir, res_r)
LIED_BLOCK(res_out_b, tf_reservoir, res_out)

static int res_init(void *self, lied_init *ctx) {
  tf_reservoir *s = self;
  if (tf_medium_init(&s->med, ctx)) return -1;
  if (tf_medium_check_pT(&s->med, ctx, s->p0, s->T0, "state (p0, T0)")) return -1;
  s->h0 = tf_h(&s->med, s->p0, s->T0);
  tf_med_X(&s->med, &s->outlet.X); /* a constant of the run */
  return 0;
}

static void res_meta(lied_meta *m, void *self) {
  tf_reservoir *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  if (s->p0_from_input) lied_meta_real_in(m, "p0_in", 0, &s->p0_in);
  if (s->T0_from_input) lied_meta_real_in(m, "T0_in", 0, &s->T0_in);
  lied_meta_state(m, "m_flow", "kg/s", &s->m_flow, &s->der_m_flow);
  lied_meta_tear(m, "dm_flow", &s->dm_flow, "res", &s->res);
  lied_meta_var(m, "m_in", "kg/s", &s->m_in);
  lied_meta_var(m, "T_in", "K", &s->T_in);
  lied_meta_block(m, "pressure", res_pressure_b, 0,
                  s->p0_from_input ? LIED_SIGS(&s->p0_in.y) : LIED_NONE,
                  LIED_SIGS(&s->outlet.state.p));
  /* h(p0, T0_in) reads p0 where the medium's h depends on p */
  const void *in[4] = {&s->m_flow, NULL, NULL, NULL};
  int n = 1;
  if (s->T0_from_input) in[n++] = &s->T0_in.y;
  if (s->T0_from_input && s->p0_from_input && !s->med.fn->T_of_h) in[n++] = &s->p0_in.y;
  lied_meta_block(m, "flow", res_flow_b, 0, in,
                  LIED_SIGS(&s->outlet.state.m_flow, &s->outlet.state.h));
  tf_meta_writes_m(m, &s->outlet);
  lied_meta_block(m, "der", res_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->dm_flow),
                  LIED_SIGS(&s->outlet.der, &s->der_m_flow));
  lied_meta_block(m, "residual", res_residual_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->outlet.r, &s->dm_flow), LIED_SIGS(&s->res));
  const void *rin[4] = {&s->inlet.state, &s->inlet.der, NULL, NULL};
  if (s->p0_from_input) rin[2] = &s->p0_in.y;
  lied_meta_block(m, "r", res_r_b, LIED_BLOCK_CONST_COEFF, rin, LIED_SIGS(&s->inlet.r));
  tf_meta_reads(m, &s->inlet, TF_P);
  const int vars = TF_M | tf_T_reads(&s->med);
  const void *oin[4] = {NULL, NULL, NULL, NULL};
  n = tf_list_state(oin, 0, &s->inlet, vars);
  oin[n] = TF_X(&s->med, s->inlet);
  lied_meta_block(m, "output", res_out_b, 0, oin, LIED_SIGS(&s->m_in, &s->T_in));
  tf_meta_reads(m, &s->inlet, vars);
}

static const lied_param res_params[] = {
    {"p0", offsetof(tf_reservoir, p0), 1e5, "Pa", "reservoir pressure", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"T0", offsetof(tf_reservoir, T0), 293.15, "K", "reservoir temperature", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_reservoir, L), 0, "1/m", "inertance of the outlet", 0, TF_NOMAX, 0, 0},
    {"L_in", offsetof(tf_reservoir, L_in), 0, "1/m", "inertance of the inlet", 0, TF_NOMAX, 0, 0},
    {"m_flow", offsetof(tf_reservoir, m_flow), 0, "kg/s", "start value of the outflow",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"p0_from_input", offsetof(tf_reservoir, p0_from_input), 0, "1",
     "1: pressure from the signal input p0_in", 0, 1, LIED_PARAM_INT, 0},
    {"T0_from_input", offsetof(tf_reservoir, T0_from_input), 0, "1",
     "1: temperature from the signal input T0_in [K]", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_reservoir),
};
const lied_class tf_reservoir_class = {
    "Reservoir", "thermofluid",
    "infinite reservoir at p0 and T0 with an inlet (a Sink at p0) and an outlet (a Source at "
    "p0, T0 with the flow state m_flow); p0, T0 from parameters or signals",
    sizeof(tf_reservoir), res_params, sizeof res_params / sizeof *res_params, res_init,
    res_meta};
