/* separator.c - Separator: drains the condensed water (fog, and ice below
 * the triple point) that a stream of moist air (tf.moist_air) carries. Of
 * the inflow m (state (p, h), water fraction X from the stream, liquid and
 * ice parts Xl, Xi at (p, h), the condensate Xc = Xl + Xi) the condensate
 * m_cond = m*Xc is drained and the air m_air = m - m_cond goes on with the
 * vapour only:
 *   X_out = Xv/(1 - Xc)      water fraction of the air going on
 *   x_out = Xv/(1 - X)       its humidity ratio (kg water per kg dry air)
 *   H_cond = m (Xl h_liq(T) + Xi h_ice(T)),  H_air = m*h - H_cond
 * (h_liq, h_ice: the condensate's enthalpies of moist_air.h for
 * tf.moist_air, of nasa_moist.h for tf.moist_air_nasa)
 * (enthalpy flows of the condensate and of the air; they add up to the
 * inflow's). With outlet = 1 the air leaves through the port outlet at the
 * inlet's pressure, with m_air, h = H_air/m_air and X_out (the drained
 * flow's rate of change is neglected in der_m_flow: outlet.der = (1 - Xc)
 * inlet.der); with outlet = 0 the Separator ends the stream like a Sink at
 * p0. Reversed flow (m < 0) drains nothing. With an outlet, the flow's
 * reversal and the fog's onset are kinks of the outflow (docs/events.md). */
#include <stdio.h>
#include "lib/thermofluid/deps.h"
#include "lib/thermofluid/moist_air.h"
#include "lib/thermofluid/gas_media.h"
#include "lib/thermofluid/nasa_moist.h"

typedef struct tf_separator {
  tf_in inlet;
  tf_out outlet;
  tf_med med;
  double p0, L;
  int has_outlet, pad_;
  double m_flow, T, m_cond, m_air, x_out, phi, H_cond, H_air; /* outputs */
  double keep; /* m_air/m: the part of the flow that goes on */
  double z_flow, z_fog; /* kink functions: m_flow, x - x_sat */
} tf_separator;

static void sep_r(const lied_env *env, tf_separator *s) {
  (void)env;
  s->inlet.r.r = s->p0 - s->inlet.state->p + s->L * s->inlet.der->der_m_flow;
}
static void sep_r_through(const lied_env *env, tf_separator *s) {
  (void)env;
  tf_pass_r(&s->inlet, &s->outlet, s->L);
}
static void sep_out(const lied_env *env, tf_separator *s) {
  const tf_state *in = s->inlet.state;
  const double X = s->inlet.X->X[0];
  char why[160];
  ma_state st;
  const int nasa = (int)s->med.par[0] == TF_NASA_MOIST_AIR; /* tf.moist_air_nasa */
  s->m_flow = in->m_flow;
  if ((nasa ? nma_phX : ma_phX)(in->p, in->h, X, &st, why, sizeof why)) {
    lied_block_fault(env, s, "inflow: %s", why);
    s->T = s->m_cond = s->m_air = s->x_out = s->phi = s->H_cond = s->H_air = s->keep = NAN;
    s->z_flow = s->z_fog = NAN;
    if (s->has_outlet) s->outlet.state.m_flow = s->outlet.state.h = s->outlet.X.X[0] = NAN;
    return;
  }
  const int on = in->m_flow > 0;
  const double Xl = on ? st.Xl : 0, Xi = on ? st.Xi : 0, Xc = Xl + Xi;
  /* the condensate's enthalpy per kg of moist air */
  const double hc = Xl * (nasa ? nma_h_liq(st.T) : ma_h_liq(st.T)) +
                    (Xi > 0 ? Xi * (nasa ? nma_h_ice(st.T) : ma_h_ice(st.T)) : 0);
  s->T = st.T;
  s->m_cond = in->m_flow * Xc;
  s->m_air = in->m_flow - s->m_cond;
  s->x_out = st.Xv / (1 - X);
  s->phi = st.phi;
  s->H_cond = in->m_flow * hc;
  s->H_air = in->m_flow * in->h - s->H_cond;
  s->keep = 1 - Xc;
  s->z_flow = in->m_flow;
  s->z_fog = isfinite(st.x_sat) ? st.x - st.x_sat : -1;
  if (s->has_outlet) {
    s->outlet.state.m_flow = s->m_air;
    s->outlet.state.h = (in->h - hc) / (1 - Xc);
    s->outlet.X.X[0] = (X - Xc) / (1 - Xc);
  }
}
static void sep_der(const lied_env *env, tf_separator *s) {
  (void)env;
  s->outlet.der.der_m_flow = s->keep * s->inlet.der->der_m_flow;
}
/* The air leaves at the inlet's pressure. */
static void sep_pressure(const lied_env *env, tf_separator *s) {
  (void)env;
  s->outlet.state.p = s->inlet.state->p;
}
LIED_BLOCK(sep_pressure_b, tf_separator, sep_pressure)
LIED_BLOCK(sep_r_b, tf_separator, sep_r)
LIED_BLOCK(sep_r_through_b, tf_separator, sep_r_through)
LIED_BLOCK(sep_out_b, tf_separator, sep_out)
LIED_BLOCK(sep_der_b, tf_separator, sep_der)

static int sep_init(void *self, lied_init *ctx) {
  tf_separator *s = self;
  if (tf_medium_init(&s->med, ctx)) return -1;
  if ((int)s->med.par[0] != TF_MOIST_AIR && (int)s->med.par[0] != TF_NASA_MOIST_AIR) {
    lied_init_error(ctx, "a Separator drains the water of moist air: its medium must be "
                    "tf.moist_air{...} or tf.moist_air_nasa{...}, not %s", s->med.fn->name);
    return -1;
  }
  return 0;
}

static void sep_meta(lied_meta *m, void *self) {
  tf_separator *s = self;
  tf_meta_in(m, "inlet", 0, &s->inlet, &s->med);
  if (s->has_outlet) tf_meta_out(m, "outlet", 0, &s->outlet, &s->med);
  lied_meta_var(m, "m_flow", "kg/s", &s->m_flow);
  lied_meta_var(m, "T", "K", &s->T);
  lied_meta_var(m, "m_cond", "kg/s", &s->m_cond);
  lied_meta_var(m, "m_air", "kg/s", &s->m_air);
  lied_meta_var(m, "x_out", "1", &s->x_out);
  lied_meta_var(m, "phi", "1", &s->phi);
  lied_meta_var(m, "H_cond", "W", &s->H_cond);
  lied_meta_var(m, "H_air", "W", &s->H_air);
  if (s->has_outlet) { /* the outflow's p a block of its own; its m_flow, h and X depend on all */
    lied_meta_block(m, "pressure", sep_pressure_b, 0, LIED_SIGS(&s->inlet.state),
                    LIED_SIGS(&s->outlet.state.p));
    tf_meta_reads(m, &s->inlet, TF_P);
    lied_meta_block(m, "output", sep_out_b, 0, LIED_SIGS(&s->inlet.state, &s->inlet.X),
                    LIED_SIGS(&s->m_flow, &s->T, &s->m_cond, &s->m_air, &s->x_out, &s->phi,
                              &s->H_cond, &s->H_air, &s->keep, &s->outlet.state.m_flow,
                              &s->outlet.state.h, &s->outlet.X, &s->z_flow, &s->z_fog));
    tf_meta_writes_m(m, &s->outlet);
    tf_meta_flow_kink(m, "z_flow", &s->z_flow);
    lied_meta_zero(m, "z_fog", &s->z_fog, LIED_ZC_BOTH | LIED_ZC_KINK);
    lied_meta_block(m, "der", sep_der_b, 0, LIED_SIGS(&s->keep, &s->inlet.der),
                    LIED_SIGS(&s->outlet.der));
    lied_meta_block(m, "r", sep_r_through_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&s->outlet.r, &s->inlet.der), LIED_SIGS(&s->inlet.r));
  } else {
    lied_meta_block(m, "r", sep_r_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&s->inlet.state, &s->inlet.der), LIED_SIGS(&s->inlet.r));
    tf_meta_reads(m, &s->inlet, TF_P);
    lied_meta_block(m, "output", sep_out_b, 0, LIED_SIGS(&s->inlet.state, &s->inlet.X),
                    LIED_SIGS(&s->m_flow, &s->T, &s->m_cond, &s->m_air, &s->x_out, &s->phi,
                              &s->H_cond, &s->H_air, &s->keep));
  }
}

static const lied_param sep_params[] = {
    {"p0", offsetof(tf_separator, p0), 1e5, "Pa",
     "pressure the air leaves to (outlet = 0; unused with an outlet)", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_separator, L), 0, "1/m", "inertance of the inlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    {"outlet", offsetof(tf_separator, has_outlet), 0, "1",
     "1: the dried air goes on through the port outlet; 0: the Separator ends the stream at p0",
     0, 1, LIED_PARAM_INT, 0},
    {"medium", offsetof(tf_separator, med.par), 0, "1",
     "tf.moist_air{X = ...} or tf.moist_air_nasa{X = ...} (required)",
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN},
};
const lied_class tf_separator_class = {
    "Separator", "thermofluid",
    "drains the condensed water (liquid and ice) of a moist-air stream: m_cond = m*(Xl + Xi); "
    "the air goes on with X_out = Xv/(1 - Xl - Xi) (humidity ratio x_out) through outlet (outlet = 1) or ends at p0 as a "
    "Sink (outlet = 0); outputs m_cond, m_air, x_out, phi, H_cond, H_air",
    sizeof(tf_separator), sep_params, sizeof sep_params / sizeof *sep_params, sep_init,
    sep_meta};
