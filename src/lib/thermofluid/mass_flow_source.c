/* mass_flow_source.c - MassFlowSource: starts a stream with a prescribed
 * mass flow m_flow (a parameter or the signal m_flow_in) at temperature T0
 * (or T0_in) and pressure p0. The flow is imposed, so the source owns no
 * flow state and no tearing pair: it absorbs whatever pressure the stream
 * needs (the inertial pressure returned to it is not used), and
 * der_m_flow = 0 (a signal's rate of change is not taken into account). */
#include "lib/thermofluid/deps.h"

typedef struct tf_mfsrc {
  tf_out outlet;
  lied_real_in m_in, T0_in;
  tf_med med;
  double m_flow, T0, p0;
  double h0;
  int m_from_input, T0_from_input;
} tf_mfsrc;

/* The outlet: the pressure p0 (a constant of the run), and the flow with
 * h(p0, T0) (docs/thermofluid.md, "What the blocks read and write"). */
static void mfsrc_pressure(const lied_env *env, tf_mfsrc *s) {
  (void)env;
  s->outlet.state.p = s->p0;
}
static void mfsrc_flow(const lied_env *env, tf_mfsrc *s) {
  double m = s->m_from_input ? s->m_in.y->y : s->m_flow;
  double h = s->h0;
  if (s->T0_from_input) {
    h = tf_h(&s->med, s->p0, s->T0_in.y->y);
    TF_GUARD_PT(env, s, &s->med, h, s->p0, s->T0_in.y->y, "state (p0, T0_in)");
  }
  s->outlet.state.m_flow = m;
  s->outlet.state.h = h;
}
static void mfsrc_der(const lied_env *env, tf_mfsrc *s) {
  (void)env;
  s->outlet.der.der_m_flow = 0;
}
LIED_BLOCK(mfsrc_pressure_b, tf_mfsrc, mfsrc_pressure)
LIED_BLOCK(mfsrc_flow_b, tf_mfsrc, mfsrc_flow)
LIED_BLOCK(mfsrc_der_b, tf_mfsrc, mfsrc_der)

LIED_LANE_BODY void mfsrc_pressure_lanes_n(const lied_env *env, char *g, size_t n,
                                           size_t stride) {
  (void)env, (void)stride;
  const double *restrict p0 = LIED_LANE(tf_mfsrc, g, p0);
  double *restrict o = LIED_LANE(tf_mfsrc, g, outlet.state.p);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = p0[l];
}
LIED_LANE_FORM(mfsrc_pressure_lanes)
static void mfsrc_flow_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *m_in = LIED_LANE_IN(tf_mfsrc, g, m_in.y);
  const double *T_in = LIED_LANE_IN(tf_mfsrc, g, T0_in.y);
  const double *m = LIED_LANE(tf_mfsrc, g, m_flow), *p0 = LIED_LANE(tf_mfsrc, g, p0),
               *h0 = LIED_LANE(tf_mfsrc, g, h0);
  double *o = LIED_LANE(tf_mfsrc, g, outlet.state);
  for (size_t l = 0; l < n; l++) {
    double mm = TF_LANE_INT(tf_mfsrc, g, m_from_input, l) ? m_in[l] : m[l];
    double h = h0[l];
    if (TF_LANE_INT(tf_mfsrc, g, T0_from_input, l)) {
      tf_med med;
      TF_LANE_MED(tf_mfsrc, g, med, l, &med);
      h = tf_h(&med, p0[l], T_in[l]);
      TF_GUARD_PT(env, TF_LANE_WORD(tf_mfsrc, g, h0, l), &med, h, p0[l], T_in[l],
                  "state (p0, T0_in)");
    }
    TF_V(o, 0, l) = mm, TF_V(o, 2, l) = h;
  }
}
LIED_LANE_BODY void mfsrc_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  double *restrict o = LIED_LANE(tf_mfsrc, g, outlet.der.der_m_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = 0;
}
LIED_LANE_FORM(mfsrc_der_lanes)

static int mfsrc_init(void *self, lied_init *ctx) {
  tf_mfsrc *s = self;
  if (tf_medium_init(&s->med, ctx)) return -1;
  if (tf_medium_check_pT(&s->med, ctx, s->p0, s->T0, "state (p0, T0)")) return -1;
  s->h0 = tf_h(&s->med, s->p0, s->T0);
  tf_med_X(&s->med, &s->outlet.X); /* a constant of the run */
  return 0;
}

static void mfsrc_meta(lied_meta *m, void *self) {
  tf_mfsrc *s = self;
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  if (s->m_from_input) lied_meta_real_in(m, "m_flow_in", 0, &s->m_in);
  if (s->T0_from_input) lied_meta_real_in(m, "T0_in", 0, &s->T0_in);
  const void *in[3] = {NULL, NULL, NULL};
  int k = 0;
  if (s->m_from_input) in[k++] = &s->m_in.y;
  if (s->T0_from_input) in[k++] = &s->T0_in.y;
  if (k == 0) in[k++] = &s->m_flow; /* a parameter: the block runs once */
  lied_meta_block(m, "pressure", mfsrc_pressure_b, 0, LIED_NONE, LIED_SIGS(&s->outlet.state.p));
  lied_meta_lanes(m, mfsrc_pressure_lanes);
  lied_meta_block(m, "flow", mfsrc_flow_b, 0, in,
                  LIED_SIGS(&s->outlet.state.m_flow, &s->outlet.state.h));
  lied_meta_lanes(m, mfsrc_flow_lanes);
  tf_meta_writes_m(m, &s->outlet);
  lied_meta_block(m, "der", mfsrc_der_b, 0, LIED_NONE, LIED_SIGS(&s->outlet.der));
  lied_meta_lanes(m, mfsrc_der_lanes);
}

static const lied_param mfsrc_params[] = {
    {"m_flow", offsetof(tf_mfsrc, m_flow), 0, "kg/s", "mass flow (unless m_flow_from_input)",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"T0", offsetof(tf_mfsrc, T0), 293.15, "K", "temperature of the fluid (unless "
     "T0_from_input)", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"p0", offsetof(tf_mfsrc, p0), 1e5, "Pa", "pressure at the outlet", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"m_flow_from_input", offsetof(tf_mfsrc, m_from_input), 0, "1",
     "1: mass flow from the signal input m_flow_in [kg/s]", 0, 1, LIED_PARAM_INT, 0},
    {"T0_from_input", offsetof(tf_mfsrc, T0_from_input), 0, "1",
     "1: temperature from the signal input T0_in [K]", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_mfsrc),
};
const lied_class tf_mass_flow_source_class = {
    "MassFlowSource", "thermofluid",
    "starts a stream with the prescribed mass flow m_flow at temperature T0 and pressure p0; "
    "no flow state (the flow is imposed); a mixture leaves with the medium's composition X",
    sizeof(tf_mfsrc), mfsrc_params, sizeof mfsrc_params / sizeof *mfsrc_params, mfsrc_init,
    mfsrc_meta};
