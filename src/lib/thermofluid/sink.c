/* sink.c - Sink: a reservoir at pressure p0 that ends a stream. */
#include "lib/thermofluid/deps.h"

typedef struct tf_sink {
  tf_in inlet;
  lied_real_in p0_in;
  double p0, L;
  int p0_from_input;
  double m_flow, T; /* recorded copies */
  tf_med med;
} tf_sink;

/* inlet.r = (p0 - inlet.p) + L * der_m_flow: the reservoir's pressure
 * minus the arriving steady pressure is the inertial pressure. */
static void sink_r(const lied_env *env, tf_sink *s) {
  (void)env;
  double p0 = s->p0_from_input ? s->p0_in.y->y : s->p0;
  s->inlet.r.r = p0 - s->inlet.state->p + s->L * s->inlet.der->der_m_flow;
}
static void sink_out(const lied_env *env, tf_sink *s) {
  tf_med mx;
  const tf_med *med = tf_med_at(&s->med, s->inlet.X, &mx);
  s->m_flow = s->inlet.state->m_flow;
  s->T = tf_T(med, s->inlet.state->p, s->inlet.state->h);
  TF_GUARD_PH(env, s, med, s->T, s->inlet.state->p, s->inlet.state->h, "inflow");
}
LIED_BLOCK(sink_r_b, tf_sink, sink_r)
LIED_BLOCK(sink_out_b, tf_sink, sink_out)

/* Lane forms (lied/component.h): the same operations, copy by copy. */
static void sink_r_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *in = LIED_LANE_IN(tf_sink, g, inlet.state);
  const double *d = LIED_LANE_IN(tf_sink, g, inlet.der);
  const double *p_in = LIED_LANE_IN(tf_sink, g, p0_in.y);
  const double *p0 = LIED_LANE(tf_sink, g, p0), *L = LIED_LANE(tf_sink, g, L);
  double *r = LIED_LANE(tf_sink, g, inlet.r.r);
  for (size_t l = 0; l < n; l++) {
    double p = TF_LANE_INT(tf_sink, g, p0_from_input, l) ? p_in[l] : p0[l];
    r[l] = p - TF_V(in, 1, l) + L[l] * d[l];
  }
}
static void sink_out_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *in = LIED_LANE_IN(tf_sink, g, inlet.state), *X = LIED_LANE_IN(tf_sink, g, inlet.X);
  double *m = LIED_LANE(tf_sink, g, m_flow), *T = LIED_LANE(tf_sink, g, T);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED_AT(tf_sink, g, med, l, X, &med);
    m[l] = TF_V(in, 0, l);
    T[l] = tf_T(&med, TF_V(in, 1, l), TF_V(in, 2, l));
    TF_GUARD_PH(env, TF_LANE_WORD(tf_sink, g, T, l), &med, T[l], TF_V(in, 1, l), TF_V(in, 2, l),
                "inflow");
  }
}

static int sink_init(void *self, lied_init *ctx) {
  tf_sink *s = self;
  return tf_medium_init(&s->med, ctx);
}

static void sink_meta(lied_meta *m, void *self) {
  tf_sink *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  if (s->p0_from_input) lied_meta_real_in(m, "p0_in", 0, &s->p0_in);
  lied_meta_var(m, "m_flow", "kg/s", &s->m_flow);
  lied_meta_var(m, "T", "K", &s->T);
  const void *in[5] = {&s->inlet.state, &s->inlet.der, NULL, NULL, NULL};
  if (s->p0_from_input) in[2] = &s->p0_in.y;
  lied_meta_block(m, "r", sink_r_b, LIED_BLOCK_CONST_COEFF, in, LIED_SIGS(&s->inlet.r));
  lied_meta_lanes(m, sink_r_lanes);
  tf_meta_reads(m, &s->inlet, TF_P);
  const int vars = TF_M | tf_T_reads(&s->med);
  const void *out_in[4] = {NULL, NULL, NULL, NULL};
  int n = tf_list_state(out_in, 0, &s->inlet, vars);
  out_in[n] = TF_X(&s->med, s->inlet);
  lied_meta_block(m, "output", sink_out_b, 0, out_in, LIED_SIGS(&s->m_flow, &s->T));
  lied_meta_lanes(m, sink_out_lanes);
  tf_meta_reads(m, &s->inlet, vars);
}

static const lied_param sink_params[] = {
    {"p0", offsetof(tf_sink, p0), 1e5, "Pa", "reservoir pressure", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_sink, L), 0, "1/m", "inertance of the inlet (length / area)", 0, TF_NOMAX,
     0, 0},
    {"p0_from_input", offsetof(tf_sink, p0_from_input), 0, "1",
     "1: pressure from the signal input p0_in (then p0 is unused)", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_sink),
};
const lied_class tf_sink_class = {
    "Sink", "thermofluid",
    "reservoir at pressure p0 ending a stream: inlet.r = p0 - inlet.p + L*der_m_flow",
    sizeof(tf_sink), sink_params, sizeof sink_params / sizeof *sink_params, sink_init,
    sink_meta};
