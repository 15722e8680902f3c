/* junction.c - Junction: N inlets (inlet1..inletN) mixed into one outlet.
 * The outlet flow is the sum of the inlet flows; pressure and enthalpy mix
 * with weights w_i = (|m_i| + d) / (sum |m_j| + N*d), where
 *   d = eps * (1 - S/eps)^2 for S = sum |m_j| < eps, else 0
 * fades the regularisation out (continuously, with its slope): from a total
 * flow of eps on the mixing is by mass, so with all flows positive the
 * enthalpy flow out, m*h, is exactly sum m_i h_i (energy is conserved). Each
 * inlet's pressure mismatch goes into its inertial pressure. No states. */
#include <stdio.h>
#include "lib/thermofluid/deps.h"

typedef struct tf_junction {
  tf_in inlet[TF_MAXN];
  tf_out outlet;
  int N;
  double eps, L;
  tf_med med;
  double T; /* mixed temperature (output) */
  double z[TF_MAXN]; /* kink functions: the inlets' flows (|m| in the weights) */
} tf_junction;

/* The regularisation d of the mixing weights |m_k| + d. */
static inline double junction_d(const tf_junction *j) {
  double S = 0;
  for (int k = 0; k < j->N; k++) S += fabs(j->inlet[k].state->m_flow);
  const double f = S < j->eps ? 1.0 - S / j->eps : 0.0;
  return j->eps * f * f;
}
/* The mixed pressure and, in a block of its own, the flow with the mixed
 * h and X (the same weights, summed in the same order). */
static void junction_pressure(const lied_env *env, tf_junction *j) {
  (void)env;
  const double d = junction_d(j);
  double wsum = 0, p = 0;
  for (int k = 0; k < j->N; k++) {
    const tf_state *in = j->inlet[k].state;
    double w = fabs(in->m_flow) + d;
    wsum += w;
    p += w * in->p;
  }
  j->outlet.state.p = p / wsum;
}
static void junction_flow(const lied_env *env, tf_junction *j) {
  (void)env;
  double m = 0, wsum = 0, h = 0, X[TF_NX] = {0};
  const int nX = tf_nX(&j->med);
  const double d = junction_d(j);
  for (int k = 0; k < j->N; k++) {
    const tf_state *in = j->inlet[k].state;
    double w = fabs(in->m_flow) + d;
    m += in->m_flow;
    wsum += w;
    h += w * in->h;
    for (int c = 0; c < nX; c++) X[c] += w * j->inlet[k].X->X[c];
  }
  j->outlet.state.m_flow = m;
  j->outlet.state.h = h / wsum;
  for (int c = 0; c < nX; c++) j->outlet.X.X[c] = X[c] / wsum;
}
static void junction_der(const lied_env *env, tf_junction *j) {
  (void)env;
  double d = 0;
  for (int k = 0; k < j->N; k++) d += j->inlet[k].der->der_m_flow;
  j->outlet.der.der_m_flow = d;
}
/* Total pressure is common: p_i + r_i = p_mix + r_out (+ L*der_out). */
static void junction_r(const lied_env *env, tf_junction *j) {
  (void)env;
  double r = j->outlet.r->r + j->L * j->outlet.der.der_m_flow;
  for (int k = 0; k < j->N; k++)
    j->inlet[k].r.r = r + j->outlet.state.p - j->inlet[k].state->p;
}
static void junction_out(const lied_env *env, tf_junction *j) {
  tf_med mx;
  const tf_med *med = tf_med_at(&j->med, &j->outlet.X, &mx);
  j->T = tf_T(med, j->outlet.state.p, j->outlet.state.h);
  TF_GUARD_PH(env, j, med, j->T, j->outlet.state.p, j->outlet.state.h, "mixed stream");
}
LIED_BLOCK(junction_pressure_b, tf_junction, junction_pressure)
LIED_BLOCK(junction_flow_b, tf_junction, junction_flow)
/* Kinks (docs/events.md): each inlet's |m_flow| in the mixing weights. */
static void junction_kinks(const lied_env *env, tf_junction *j) {
  (void)env;
  for (int k = 0; k < j->N; k++) j->z[k] = j->inlet[k].state->m_flow;
}
LIED_BLOCK(junction_kinks_b, tf_junction, junction_kinks)
LIED_BLOCK(junction_der_b, tf_junction, junction_der)
LIED_BLOCK(junction_r_b, tf_junction, junction_r)
LIED_BLOCK(junction_out_b, tf_junction, junction_out)

static int junction_init(void *self, lied_init *ctx) {
  tf_junction *j = self;
  return tf_medium_init(&j->med, ctx);
}

static void junction_meta(lied_meta *m, void *self) {
  tf_junction *j = self;
  char name[32];
  const void *in_p[TF_MAXN + 1], *in_state[3 * TF_MAXN + 1], *in_der[TF_MAXN + 1],
      *in_r[TF_MAXN + 3], *out_r[TF_MAXN + 1];
  int n = j->N, nr = 0, ns = 0;
  for (int k = 0; k < n; k++) {
    snprintf(name, sizeof name, "inlet%d", k + 1);
    tf_meta_in_any(m, name, 0, &j->inlet[k], &j->med);
    in_p[k] = &j->inlet[k].state;
    ns = tf_list_state(in_state, ns, &j->inlet[k], TF_M | TF_H);
    if (tf_nX(&j->med)) in_state[ns++] = &j->inlet[k].X;
    in_der[k] = &j->inlet[k].der;
    in_r[nr++] = &j->inlet[k].state;
    out_r[k] = &j->inlet[k].r;
  }
  tf_meta_out_any(m, "outlet", 0, &j->outlet, &j->med);
  lied_meta_var(m, "m_flow", "kg/s", &j->outlet.state.m_flow);
  lied_meta_var(m, "T", "K", &j->T);
  in_r[nr++] = &j->outlet.r;
  in_r[nr++] = &j->outlet.state.p;
  in_r[nr++] = &j->outlet.der;
  in_p[n] = in_state[ns] = in_der[n] = out_r[n] = in_r[nr] = NULL;
  /* the weights read each inlet's m_flow; the pressure its p, the flow its h */
  lied_meta_block(m, "pressure", junction_pressure_b, 0, in_p, LIED_SIGS(&j->outlet.state.p));
  for (int k = 0; k < n; k++) tf_meta_reads(m, &j->inlet[k], TF_M | TF_P);
  lied_meta_block(m, "flow", junction_flow_b, 0, in_state,
                  LIED_SIGS(&j->outlet.state.m_flow, &j->outlet.state.h, TF_X(&j->med, j->outlet)));
  tf_meta_writes_m(m, &j->outlet);
  for (int k = 0; k < n; k++) tf_meta_reads(m, &j->inlet[k], TF_M | TF_H);
  lied_meta_block(m, "der", junction_der_b, LIED_BLOCK_CONST_COEFF, in_der,
                  LIED_SIGS(&j->outlet.der));
  lied_meta_block(m, "r", junction_r_b, LIED_BLOCK_CONST_COEFF, in_r, out_r);
  for (int k = 0; k < n; k++) tf_meta_reads(m, &j->inlet[k], TF_P);
  lied_meta_block(m, "output", junction_out_b, 0,
                  LIED_SIGS(&j->outlet.state.p, &j->outlet.state.h, TF_X(&j->med, j->outlet)),
                  LIED_SIGS(&j->T));
  const void *kin[TF_MAXN + 1] = {NULL}, *kout[TF_MAXN + 1] = {NULL};
  for (int k = 0; k < n; k++) kin[k] = &j->inlet[k].state, kout[k] = &j->z[k];
  lied_meta_block(m, "kinks", junction_kinks_b, 0, kin, kout);
  for (int k = 0; k < n; k++) tf_meta_reads(m, &j->inlet[k], TF_M);
  for (int k = 0; k < n; k++) {
    snprintf(name, sizeof name, "z%d", k + 1);
    tf_meta_flow_kink(m, name, &j->z[k]);
  }
}

static const lied_param junction_params[] = {
    {"N", offsetof(tf_junction, N), 2, "1", "number of inlets", 2, TF_MAXN, LIED_PARAM_INT, 0},
    {"eps", offsetof(tf_junction, eps), 1e-6, "kg/s",
     "regularisation of the mixing weights below a total flow of eps (mass-weighted above)", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_junction, L), 0, "1/m", "inertance of the outlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    TF_MEDIUM_PARAM(tf_junction),
};
const lied_class tf_junction_class = {
    "Junction", "thermofluid",
    "N inlets (inlet1..inletN, N = 2..8) mixed into one outlet: m_flow = sum, p and h "
    "mixed with weights (|m_i| + d)/(sum|m_j| + N*d), d = eps*(1 - sum|m_j|/eps)^2 below a total "
    "flow of eps, else 0 (by mass); a mixture's X mixed with the same weights; "
    "inlet_i.r = outlet.r + p_mix - p_i",
    sizeof(tf_junction), junction_params, sizeof junction_params / sizeof *junction_params,
    junction_init, junction_meta};
