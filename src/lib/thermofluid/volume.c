/* volume.c - Volume: a rigid volume V of compressible medium (liquid with
 * beta > 0, gas, or water and steam, also two-phase) with mass and energy
 * balance and an optional heat flow Q into the content. It ends the stream
 * at its inlet (like a Sink at its own pressure) and starts one at its
 * outlet (like a Source: it owns the outlet's mass-flow state). Every flow
 * loop needs one. With outlet_vapour = 1 a two-phase content leaves as
 * saturated vapour (a drum's steam outlet). A mixture's components have
 * mass states MX1.. (the content's X = MX/M, which leaves at the outlet).
 * Kinks (docs/events.md): the inlet flow reversing (the upwind enthalpy),
 * the content crossing a phase boundary of its medium (z_liquid, z_vapour:
 * also where a saturated-vapour outlet starts; z_fog). */
#include <stdio.h>
#include "lib/thermofluid/deps.h"

typedef struct tf_volume {
  tf_in inlet;
  tf_out outlet;
  lied_real_in Q_in;
  tf_med med;
  double V, p0, T0, x0, L, L_in, Q;
  int Q_from_input, outlet_vapour;
  double M, der_M;           /* state: mass [kg] */
  double U, der_U;           /* state: internal energy [J] */
  double m_flow, der_m_flow; /* state: outlet flow */
  double MX[TF_NX], der_MX[TF_NX]; /* states of mixtures: component masses [kg] */
  double dm_flow, res;       /* tearing pair */
  double p, h, rho, T;       /* thermodynamic state of the content */
  double Q_used;             /* heat flow into the content */
  double z_flow, z_phase[TF_PHASE_MAX]; /* kink functions */
} tf_volume;

/* Content state from the conserved quantities (M, U). */
static void volume_thermo(const lied_env *env, tf_volume *v) {
  v->rho = v->M / v->V;
  for (int c = 0; c < tf_nX(&v->med); c++) v->outlet.X.X[c] = v->MX[c] / v->M;
  tf_med mx;
  const tf_med *med = tf_med_at(&v->med, &v->outlet.X, &mx);
  med->fn->from_rho_u(med->par + 1, v->rho, v->U / v->M, &v->p, &v->h);
  if (!isfinite(v->p) || !isfinite(v->h))
    tf_fault_rho_u(env, v, med, v->rho, v->U / v->M, "content (M/V, U/M)");
  double h_out = v->h, hl, hv;
  if (v->outlet_vapour && v->med.fn->sat_h && !v->med.fn->sat_h(v->med.par + 1, v->p, &hl, &hv) &&
      v->h > hl && v->h < hv)
    h_out = hv;
  v->outlet.state = (tf_state){v->m_flow, v->p, h_out};
}
/* Mass and energy balance; reversed inlet flow leaves with the content's h. */
static void volume_balance(const lied_env *env, tf_volume *v) {
  (void)env;
  const tf_state *in = v->inlet.state;
  double h_in = in->m_flow >= 0 ? in->h : v->h;
  v->der_M = in->m_flow - v->m_flow;
  for (int c = 0; c < tf_nX(&v->med); c++)
    v->der_MX[c] = in->m_flow * (in->m_flow >= 0 ? v->inlet.X->X[c] : v->outlet.X.X[c]) -
                   v->m_flow * v->outlet.X.X[c];
  v->Q_used = v->Q_from_input ? v->Q_in.y->y : v->Q;
  v->der_U = in->m_flow * h_in - v->m_flow * v->outlet.state.h + v->Q_used;
}
static void volume_der(const lied_env *env, tf_volume *v) {
  (void)env;
  v->outlet.der.der_m_flow = v->dm_flow;
  v->der_m_flow = v->dm_flow;
}
/* Outlet: the content behind it has r = 0. */
static void volume_res(const lied_env *env, tf_volume *v) {
  (void)env;
  v->res = v->outlet.r->r + v->L * v->dm_flow;
}
/* Inlet: like a Sink at the content's pressure. */
static void volume_r_in(const lied_env *env, tf_volume *v) {
  (void)env;
  v->inlet.r.r = v->p - v->inlet.state->p + v->L_in * v->inlet.der->der_m_flow;
}
static void volume_out(const lied_env *env, tf_volume *v) {
  (void)env;
  tf_med mx;
  v->T = tf_T(tf_med_at(&v->med, &v->outlet.X, &mx), v->p, v->h);
}
static void volume_kinks(const lied_env *env, tf_volume *v) {
  (void)env;
  tf_med mx;
  v->z_flow = v->inlet.state->m_flow;
  tf_phase_z(tf_med_at(&v->med, &v->outlet.X, &mx), v->p, v->h, v->z_phase);
}
LIED_BLOCK(volume_thermo_b, tf_volume, volume_thermo)
LIED_BLOCK(volume_kinks_b, tf_volume, volume_kinks)
LIED_BLOCK(volume_balance_b, tf_volume, volume_balance)
LIED_BLOCK(volume_der_b, tf_volume, volume_der)
LIED_BLOCK(volume_res_b, tf_volume, volume_res)
LIED_BLOCK(volume_r_in_b, tf_volume, volume_r_in)
LIED_BLOCK(volume_out_b, tf_volume, volume_out)

/* Start values of M and U from (p0, T0), or from (p0, x0) on the
 * saturation line of a two-phase medium. */
static int volume_init(void *self, lied_init *ctx) {
  tf_volume *v = self;
  return tf_content_start(&v->med, ctx, v->V, v->p0, v->T0, v->x0, &v->M, &v->U, v->MX);
}

static void volume_meta(lied_meta *m, void *self) {
  tf_volume *v = self;
  const int nX = tf_nX(&v->med);
  tf_meta_in(m, "inlet", 0, &v->inlet, &v->med);
  tf_meta_out(m, "outlet", 0, &v->outlet, &v->med);
  if (v->Q_from_input) lied_meta_real_in(m, "Q_in", 0, &v->Q_in);
  lied_meta_state(m, "M", "kg", &v->M, &v->der_M);
  lied_meta_state(m, "U", "J", &v->U, &v->der_U);
  lied_meta_state(m, "m_flow", "kg/s", &v->m_flow, &v->der_m_flow);
  for (int c = 0; c < nX; c++) {
    char name[24];
    snprintf(name, sizeof name, "MX%d", c + 1);
    lied_meta_state(m, name, "kg", &v->MX[c], &v->der_MX[c]);
    snprintf(name, sizeof name, "X%d", c + 1);
    lied_meta_var(m, name, "1", &v->outlet.X.X[c]);
  }
  lied_meta_tear(m, "dm_flow", &v->dm_flow, "res", &v->res);
  lied_meta_var(m, "p", "Pa", &v->p);
  lied_meta_var(m, "h", "J/kg", &v->h);
  lied_meta_var(m, "rho", "kg/m3", &v->rho);
  lied_meta_var(m, "T", "K", &v->T);
  lied_meta_var(m, "Q", "W", &v->Q_used);
  const void *tin[3 + TF_NX + 1] = {&v->M, &v->U, &v->m_flow};
  for (int c = 0; c < nX; c++) tin[3 + c] = &v->MX[c];
  lied_meta_block(m, "thermo", volume_thermo_b, 0, tin,
                  LIED_SIGS(&v->rho, &v->p, &v->h, &v->outlet.state, TF_X(&v->med, v->outlet)));
  /* the balances read the inlet's m_flow and h (listed twice), the inlet's
   * pressure only the inlet's r */
  const void *in[9] = {&v->inlet.state, &v->inlet.state, &v->m_flow, &v->h, &v->outlet.state};
  int n = 5;
  if (v->Q_from_input) in[n++] = &v->Q_in.y;
  if (nX) in[n++] = &v->inlet.X, in[n++] = &v->outlet.X;
  const void *out[3 + TF_NX + 1] = {&v->der_M, &v->der_U, &v->Q_used};
  for (int c = 0; c < nX; c++) out[3 + c] = &v->der_MX[c];
  lied_meta_block(m, "balance", volume_balance_b, 0, in, out);
  tf_meta_reads(m, &v->inlet, TF_M | TF_H);
  lied_meta_block(m, "der", volume_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&v->dm_flow),
                  LIED_SIGS(&v->outlet.der, &v->der_m_flow));
  lied_meta_block(m, "residual", volume_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&v->outlet.r, &v->dm_flow), LIED_SIGS(&v->res));
  lied_meta_block(m, "r_in", volume_r_in_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&v->p, &v->inlet.state, &v->inlet.der), LIED_SIGS(&v->inlet.r));
  tf_meta_reads(m, &v->inlet, TF_P);
  lied_meta_block(m, "output", volume_out_b, 0,
                  LIED_SIGS(&v->p, &v->h, TF_X(&v->med, v->outlet)), LIED_SIGS(&v->T));
  lied_meta_block(m, "kinks", volume_kinks_b, 0,
                  LIED_SIGS(&v->inlet.state, &v->p, &v->h, TF_X(&v->med, v->outlet)),
                  LIED_SIGS(&v->z_flow, &v->z_phase[0], &v->z_phase[1]));
  tf_meta_reads(m, &v->inlet, TF_M);
  tf_meta_flow_kink(m, "z_flow", &v->z_flow);
  tf_meta_phase_kinks(m, &v->med, v->z_phase);
}

static const lied_param volume_params[] = {
    {"V", offsetof(tf_volume, V), 1e-3, "m3", "volume", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"p0", offsetof(tf_volume, p0), 1e5, "Pa", "start pressure", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"T0", offsetof(tf_volume, T0), 293.15, "K", "start temperature (unless x0 >= 0)", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"x0", offsetof(tf_volume, x0), -1, "1",
     "start quality on the saturation line at p0 (two-phase media; -1: start at T0)", -1, 1, 0,
     0},
    {"Q", offsetof(tf_volume, Q), 0, "W", "heat flow into the content (unless Q_from_input)",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"Q_from_input", offsetof(tf_volume, Q_from_input), 0, "1",
     "1: heat flow from the signal input Q_in [W]", 0, 1, LIED_PARAM_INT, 0},
    {"outlet_vapour", offsetof(tf_volume, outlet_vapour), 0, "1",
     "1: a two-phase content leaves as saturated vapour (steam outlet of a drum)", 0, 1,
     LIED_PARAM_INT, 0},
    {"L", offsetof(tf_volume, L), 0, "1/m", "inertance of the outlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    {"L_in", offsetof(tf_volume, L_in), 0, "1/m", "inertance of the inlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    {"m_flow", offsetof(tf_volume, m_flow), 0, "kg/s", "start value of the outlet flow",
     TF_NOMIN, TF_NOMAX, 0, 0},
    TF_MEDIUM_PARAM(tf_volume),
};
const lied_class tf_volume_class = {
    "Volume", "thermofluid",
    "rigid volume V of compressible medium with mass and energy balance (states M, U), "
    "also two-phase water and steam, heat flow Q; a sink at its inlet, a source at its outlet "
    "(owns m_flow); breaks flow loops; a mixture's component masses are states MX1.. (X = MX/M "
    "leaves at the outlet)",
    sizeof(tf_volume), volume_params, sizeof volume_params / sizeof *volume_params,
    volume_init, volume_meta};
