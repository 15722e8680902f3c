/* source.c - Source: a reservoir at pressure p0 and temperature T0 that
 * starts a stream; it owns the stream's mass-flow state. */
#include "lib/thermofluid/source.h"

/* Outlet: the reservoir's pressure p0; the flow state with h(p0, T0). */
static inline double source_p(const tf_source *s) {
  return s->p0_from_input ? s->p0_in.y->y : s->p0;
}
static void source_pressure(const lied_env *env, tf_source *s) {
  (void)env;
  s->outlet.state.p = source_p(s);
}
static void source_flow(const lied_env *env, tf_source *s) {
  double h = s->h0;
  if (s->T0_from_input) {
    const double p = source_p(s);
    h = tf_h(&s->med, p, s->T0_in.y->y);
    TF_GUARD_PT(env, s, &s->med, h, p, s->T0_in.y->y, "state (p0, T0_in)");
  }
  s->outlet.state.m_flow = s->m_flow;
  s->outlet.state.h = h;
}
static void source_der(const lied_env *env, tf_source *s) {
  (void)env;
  s->outlet.der.der_m_flow = s->dm_flow;
  s->der_m_flow = s->dm_flow;
}
/* The reservoir behind the source has r = 0. */
static void source_res(const lied_env *env, tf_source *s) {
  (void)env;
  s->res = s->outlet.r->r + s->L * s->dm_flow;
}
LIED_BLOCK(source_pressure_b, tf_source, source_pressure)
LIED_BLOCK(source_flow_b, tf_source, source_flow)
LIED_BLOCK(source_der_b, tf_source, source_der)
LIED_BLOCK(source_res_b, tf_source, source_res)

int tf_source_init(tf_source *s, lied_init *ctx) {
  if (tf_medium_init(&s->med, ctx)) return -1;
  if (tf_medium_check_pT(&s->med, ctx, s->p0, s->T0, "state (p0, T0)")) return -1;
  s->h0 = tf_h(&s->med, s->p0, s->T0);
  tf_med_X(&s->med, &s->outlet.X); /* a constant of the run */
  return 0;
}

void tf_source_meta(lied_meta *m, tf_source *s) {
  tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  if (s->p0_from_input) lied_meta_real_in(m, "p0_in", 0, &s->p0_in);
  if (s->T0_from_input) lied_meta_real_in(m, "T0_in", 0, &s->T0_in);
  lied_meta_state(m, "m_flow", "kg/s", &s->m_flow, &s->der_m_flow);
  lied_meta_tear(m, "dm_flow", &s->dm_flow, "res", &s->res);
  lied_meta_block(m, "pressure", source_pressure_b, 0,
                  s->p0_from_input ? LIED_SIGS(&s->p0_in.y) : LIED_NONE,
                  LIED_SIGS(&s->outlet.state.p));
  /* h(p0, T0_in) reads p0 where the medium's h depends on p */
  const void *in[4] = {&s->m_flow, NULL, NULL, NULL};
  int n = 1;
  if (s->T0_from_input) in[n++] = &s->T0_in.y;
  if (s->T0_from_input && s->p0_from_input && !s->med.fn->T_of_h) in[n++] = &s->p0_in.y;
  lied_meta_block(m, "flow", source_flow_b, 0, in,
                  LIED_SIGS(&s->outlet.state.m_flow, &s->outlet.state.h));
  tf_meta_writes_m(m, &s->outlet);
  lied_meta_block(m, "der", source_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->dm_flow),
                  LIED_SIGS(&s->outlet.der, &s->der_m_flow));
  lied_meta_block(m, "residual", source_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->outlet.r, &s->dm_flow), LIED_SIGS(&s->res));
}

static int source_init(void *self, lied_init *ctx) { return tf_source_init(self, ctx); }
static void source_meta(lied_meta *m, void *self) { tf_source_meta(m, self); }

static const lied_param source_params[] = {
    {"p0", offsetof(tf_source, p0), 1e5, "Pa", "reservoir pressure", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"T0", offsetof(tf_source, T0), 293.15, "K", "reservoir temperature", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_source, L), 0, "1/m", "inertance of the outlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    {"m_flow", offsetof(tf_source, m_flow), 0, "kg/s", "start value of the mass flow",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"p0_from_input", offsetof(tf_source, p0_from_input), 0, "1",
     "1: pressure from the signal input p0_in (then p0 is unused)", 0, 1, LIED_PARAM_INT, 0},
    {"T0_from_input", offsetof(tf_source, T0_from_input), 0, "1",
     "1: temperature from the signal input T0_in [K]", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_source),
};
const lied_class tf_source_class = {
    "Source", "thermofluid",
    "reservoir at pressure p0 and temperature T0 starting a stream; owns the mass-flow "
    "state m_flow, residual outlet.r + L*der(m_flow) = 0; a mixture leaves with the "
    "medium's composition X",
    sizeof(tf_source), source_params, sizeof source_params / sizeof *source_params,
    source_init, source_meta};
