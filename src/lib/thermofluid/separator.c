/* separator.c - Separator: ends a stream of moist air (tf.moist_air) like a
 * Sink at pressure p0, and drains the liquid water (fog) the air carries:
 * of the inflow m (state (p, h), water fraction X of the medium, liquid
 * part Xl at (p, h)) the condensate m_cond = m*Xl is drained and the air
 * m_air = m - m_cond leaves saturated or drier with the vapour only:
 *   x_out = Xv/(1 - X)                humidity ratio of the air leaving
 *   H_cond = m_cond * cp_liq * (T - 273.15),  H_air = m*h - H_cond
 * (enthalpy flows of the condensate and of the air; they add up to the
 * inflow's). The streams carry no composition (docs/thermofluid.md), so the
 * dried air ends here; reversed flow (m < 0) drains nothing. */
#include <stdio.h>
#include "lib/thermofluid/thermofluid.h"
#include "lib/thermofluid/moist_air.h"

typedef struct tf_separator {
  tf_in inlet;
  tf_med med;
  double p0, L;
  double m_flow, T, m_cond, m_air, x_out, phi, H_cond, H_air; /* outputs */
} tf_separator;

static void sep_r(const lied_env *env, tf_separator *s) {
  (void)env;
  s->inlet.r.r = s->p0 - s->inlet.state->p + s->L * s->inlet.der->der_m_flow;
}
static void sep_out(const lied_env *env, tf_separator *s) {
  const tf_state *in = s->inlet.state;
  const double X = s->med.par[1];
  char why[160];
  ma_state st;
  s->m_flow = in->m_flow;
  if (ma_phX(in->p, in->h, X, &st, why, sizeof why)) {
    lied_block_fault(env, s, "inflow: %s", why);
    s->T = s->m_cond = s->m_air = s->x_out = s->phi = s->H_cond = s->H_air = NAN;
    return;
  }
  const double m = in->m_flow > 0 ? in->m_flow : 0;
  s->T = st.T;
  s->m_cond = m * st.Xl;
  s->m_air = in->m_flow - s->m_cond;
  s->x_out = st.Xv / (1 - X);
  s->phi = st.phi;
  s->H_cond = s->m_cond * MA_CP_LIQ * (st.T - MA_T0);
  s->H_air = in->m_flow * in->h - s->H_cond;
}
LIED_BLOCK(sep_r_b, tf_separator, sep_r)
LIED_BLOCK(sep_out_b, tf_separator, sep_out)

static int sep_init(void *self, lied_init *ctx) {
  tf_separator *s = self;
  if (tf_medium_init(&s->med, ctx)) return -1;
  if ((int)s->med.par[0] != TF_MOIST_AIR) {
    lied_init_error(ctx, "a Separator drains the water of moist air: its medium must be "
                    "tf.moist_air{...}, not %s", s->med.fn->name);
    return -1;
  }
  return 0;
}

static void sep_meta(lied_meta *m, void *self) {
  tf_separator *s = self;
  lied_meta_port(m, "inlet", 0, &s->inlet, &tf_in_layout);
  lied_meta_var(m, "m_flow", "kg/s", &s->m_flow);
  lied_meta_var(m, "T", "K", &s->T);
  lied_meta_var(m, "m_cond", "kg/s", &s->m_cond);
  lied_meta_var(m, "m_air", "kg/s", &s->m_air);
  lied_meta_var(m, "x_out", "1", &s->x_out);
  lied_meta_var(m, "phi", "1", &s->phi);
  lied_meta_var(m, "H_cond", "W", &s->H_cond);
  lied_meta_var(m, "H_air", "W", &s->H_air);
  lied_meta_block(m, "r", sep_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->inlet.state, &s->inlet.der), LIED_SIGS(&s->inlet.r));
  lied_meta_block(m, "output", sep_out_b, 0, LIED_SIGS(&s->inlet.state),
                  LIED_SIGS(&s->m_flow, &s->T, &s->m_cond, &s->m_air, &s->x_out, &s->phi,
                            &s->H_cond, &s->H_air));
}

static const lied_param sep_params[] = {
    {"p0", offsetof(tf_separator, p0), 1e5, "Pa", "pressure the air leaves to", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_separator, L), 0, "1/m", "inertance of the inlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    {"medium", offsetof(tf_separator, med.par), 0, "1", "tf.moist_air{X = ...} (required)",
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN},
};
const lied_class tf_separator_class = {
    "Separator", "thermofluid",
    "ends a stream of moist air at p0 (as Sink) and drains its liquid water: m_cond = m*Xl; "
    "the air leaves with humidity ratio x_out = Xv/(1 - X); outputs m_cond, m_air, x_out, phi, "
    "H_cond, H_air",
    sizeof(tf_separator), sep_params, sizeof sep_params / sizeof *sep_params, sep_init,
    sep_meta};
