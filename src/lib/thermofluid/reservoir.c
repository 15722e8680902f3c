/* reservoir.c - Reservoir: an infinite reservoir at pressure p0 and
 * temperature T0 (parameters or the signals p0_in, T0_in) with an inlet and
 * an outlet: the inlet ends a stream as a Sink at p0, the outlet starts one
 * as a Source at (p0, T0) with its own mass-flow state. In a closed loop it
 * fixes the pressure and the temperature of the water that leaves it (an
 * open expansion tank with an ideal heat sink); what flows in leaves the
 * model. */
#include "lib/thermofluid/source.h"

/* The Source first: its blocks run on the Reservoir's instance as on their
 * own (the same address), and errors name the Reservoir. */
typedef struct tf_reservoir {
  tf_source src;
  tf_in inlet;
  double L_in;
  double m_in, T_in; /* recorded: inflow and its temperature */
} tf_reservoir;

/* inlet.r = p0 - inlet.p + L_in der_m_flow, as a Sink's */
static void res_r(const lied_env *env, tf_reservoir *s) {
  (void)env;
  const double p0 = s->src.p0_from_input ? s->src.p0_in.y->y : s->src.p0;
  s->inlet.r.r = p0 - s->inlet.state->p + s->L_in * s->inlet.der->der_m_flow;
}
static void res_out(const lied_env *env, tf_reservoir *s) {
  tf_med mx;
  const tf_med *med = tf_med_at(&s->src.med, s->inlet.X, &mx);
  s->m_in = s->inlet.state->m_flow;
  s->T_in = tf_T(med, s->inlet.state->p, s->inlet.state->h);
  TF_GUARD_PH(env, s, med, s->T_in, s->inlet.state->p, s->inlet.state->h, "inflow");
}
LIED_BLOCK(res_r_b, tf_reservoir, res_r)
LIED_BLOCK(res_out_b, tf_reservoir, res_out)

static int res_init(void *self, lied_init *ctx) {
  tf_reservoir *s = self;
  return tf_source_init(&s->src, ctx);
}

static void res_meta(lied_meta *m, void *self) {
  tf_reservoir *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->src.med);
  tf_source_meta(m, &s->src);
  lied_meta_var(m, "m_in", "kg/s", &s->m_in);
  lied_meta_var(m, "T_in", "K", &s->T_in);
  const void *rin[4] = {&s->inlet.state, &s->inlet.der, NULL, NULL};
  if (s->src.p0_from_input) rin[2] = &s->src.p0_in.y;
  lied_meta_block(m, "r", res_r_b, LIED_BLOCK_CONST_COEFF, rin, LIED_SIGS(&s->inlet.r));
  tf_meta_reads(m, &s->inlet, TF_P);
  const int vars = TF_M | tf_T_reads(&s->src.med);
  const void *oin[4] = {NULL, NULL, NULL, NULL};
  const int n = tf_list_state(oin, 0, &s->inlet, vars);
  oin[n] = TF_X(&s->src.med, s->inlet);
  lied_meta_block(m, "output", res_out_b, 0, oin, LIED_SIGS(&s->m_in, &s->T_in));
  tf_meta_reads(m, &s->inlet, vars);
}

static const lied_param res_params[] = {
    {"p0", offsetof(tf_reservoir, src.p0), 1e5, "Pa", "reservoir pressure", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"T0", offsetof(tf_reservoir, src.T0), 293.15, "K", "reservoir temperature", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_reservoir, src.L), 0, "1/m", "inertance of the outlet", 0, TF_NOMAX, 0, 0},
    {"L_in", offsetof(tf_reservoir, L_in), 0, "1/m", "inertance of the inlet", 0, TF_NOMAX, 0, 0},
    {"m_flow", offsetof(tf_reservoir, src.m_flow), 0, "kg/s", "start value of the outflow",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"p0_from_input", offsetof(tf_reservoir, src.p0_from_input), 0, "1",
     "1: pressure from the signal input p0_in", 0, 1, LIED_PARAM_INT, 0},
    {"T0_from_input", offsetof(tf_reservoir, src.T0_from_input), 0, "1",
     "1: temperature from the signal input T0_in [K]", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM_AT(tf_reservoir, src.med),
};
const lied_class tf_reservoir_class = {
    "Reservoir", "thermofluid",
    "infinite reservoir at p0 and T0 with an inlet (a Sink at p0) and an outlet (a Source at "
    "p0, T0 with the flow state m_flow); p0, T0 from parameters or signals",
    sizeof(tf_reservoir), res_params, sizeof res_params / sizeof *res_params, res_init,
    res_meta};
