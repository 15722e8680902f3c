/* hx_ntu.c - CounterFlowNTU, ParallelFlowNTU, CrossFlowNTU: heat
 * exchangers of the effectiveness-NTU method (after ThermoFluid Stream's
 * CounterFlowNTU and CrossFlowNTU; docs/thermofluid.md, "Effectiveness
 * exchangers"), without states: the outlets follow from the inlets.
 *   dT = T_a,in - T_b,in
 *   dH_a = h_a(p_a, T_a,in) - h_a(p_a, T_b,in)   (the most stream a can give)
 *   dH_b = h_b(p_b, T_a,in) - h_b(p_b, T_b,in)   (the most stream b can take)
 *   C_a = |m_a| dH_a/dT, C_b = |m_b| dH_b/dT      (mean heat capacity rates over
 *                                                  the inlets' span; cp at the
 *                                                  inlet where dT = 0)
 *   NTU = UA/C_min, Cr = C_min/C_max, eps(NTU, Cr) by the flow arrangement
 *   Q = eps C_min dT                               (from a to b)
 *   dh_a = -eps (C_min/C_a) dH_a,  dh_b = eps (C_min/C_b) dH_b
 * so m_a dh_a + m_b dh_b = 0: the heat leaving one stream enters the other,
 * with no division by a flow (a stagnant stream's outlet takes the other
 * inlet's temperature, carrying nothing).
 * Kinks (docs/events.md), written by the flow block, declared unless
 * kinks = 0: each stream reversing
 * (|m| in its capacity rate: z_a, z_b) and, in cross flow, the smaller
 * capacity rate changing sides (z_c = C_a - C_b: the approximation of the
 * effectiveness is not symmetric in the two; the counter- and parallel-flow
 * Q = eps C_min dT are one analytic function of C_a and C_b on both sides,
 * no kink). */
#include "lib/thermofluid/deps.h"

enum { NTU_PARALLEL = 0, NTU_COUNTER = 1, NTU_CROSS = 2 };
#define NTU_MAX 1e300 /* the NTU of a side that does not flow */

typedef struct tf_ntu {
  tf_in inlet_a;
  tf_out outlet_a;
  tf_in inlet_b;
  tf_out outlet_b;
  tf_med med_a, med_b;
  double UA, L_a, L_b;
  double Q_flow, eps, NTU, Cr, T_a, T_b; /* outputs: T_a, T_b at the outlets */
  double z_a, z_b, z_c;                  /* kink functions */
  int kind, kinks;
} tf_ntu;

/* The effectiveness of the arrangement (VDI Waermeatlas; Incropera and
 * DeWitt, Table 11.3; cross flow with both streams unmixed by the
 * approximation ThermoFluid Stream uses, exact as Cr -> 0). */
static double ntu_eps(int kind, double NTU, double Cr) {
  if (kind == NTU_PARALLEL) return (1 - exp(-NTU * (1 + Cr))) / (1 + Cr);
  if (kind == NTU_CROSS) {
    if (Cr < 1e-12) return 1 - exp(-NTU);
    return 1 - exp(pow(NTU, 0.22) / Cr * (exp(-Cr * pow(NTU, 0.78)) - 1));
  }
  const double x = NTU * (1 - Cr);
  if (x < 1e-9) return NTU / (1 + NTU); /* Cr = 1 (within 1e-9 of eps) */
  return (1 - exp(-x)) / (1 - Cr * exp(-x));
}

/* dH of a stream: h at the other inlet's temperature, less its own; and the
 * mean cp over the span (cp at the inlet for no span). */
static void ntu_side(const tf_med *m, const tf_state *in, double T_in, double T_other, double *dH,
                     double *cp) {
  *dH = tf_h(m, in->p, T_in) - tf_h(m, in->p, T_other);
  const double dT = T_in - T_other;
  *cp = fabs(dT) > 1e-9 * T_in ? *dH / dT : m->fn->cp(m->par + 1, in->p, in->h);
}

/* Each side's outlet pressure is its inlet's; the flow block (both sides'
 * m_flow, h and X: the enthalpies depend on both inlets) reads no pressure
 * where the media's T does not depend on it. */
TF_P_PASS(ntu_pressure_a_b, tf_ntu, inlet_a, outlet_a)
TF_P_PASS(ntu_pressure_b_b, tf_ntu, inlet_b, outlet_b)
static void ntu_flow(const lied_env *env, tf_ntu *x) {
  const tf_state *a = x->inlet_a.state, *b = x->inlet_b.state;
  tf_med ma_, mb_;
  const tf_med *ma = tf_med_at(&x->med_a, x->inlet_a.X, &ma_);
  const tf_med *mb = tf_med_at(&x->med_b, x->inlet_b.X, &mb_);
  const double Ta = tf_T(ma, a->p, a->h), Tb = tf_T(mb, b->p, b->h);
  TF_GUARD_PH(env, x, ma, Ta, a->p, a->h, "inflow a");
  TF_GUARD_PH(env, x, mb, Tb, b->p, b->h, "inflow b");
  double dHa, dHb, cpa, cpb;
  ntu_side(ma, a, Ta, Tb, &dHa, &cpa);
  ntu_side(mb, b, Tb, Ta, &dHb, &cpb);
  dHb = -dHb; /* h_b(T_a) - h_b(T_b): the most b can take */
  /* each stream at the other's inlet temperature: within its medium's range? */
  TF_GUARD_PT(env, x, ma, dHa, a->p, Tb, "stream a at stream b's inlet temperature");
  TF_GUARD_PT(env, x, mb, dHb, b->p, Ta, "stream b at stream a's inlet temperature");
  const double Ca = fabs(a->m_flow) * cpa, Cb = fabs(b->m_flow) * cpb;
  const double Cmin = Ca < Cb ? Ca : Cb, Cmax = Ca < Cb ? Cb : Ca;
  x->z_a = a->m_flow, x->z_b = b->m_flow, x->z_c = Ca - Cb;
  double dha = 0, dhb = 0;
  x->Cr = Cmax > 0 ? Cmin / Cmax : 0;
  /* NTU -> infinity as a side stops: held at NTU_MAX, so that a recorded NTU
   * stays finite (a recorded variable that is not finite ends a run) */
  x->NTU = Cmin > x->UA / NTU_MAX ? x->UA / Cmin : NTU_MAX;
  x->eps = Cmin > 0 ? ntu_eps(x->kind, x->NTU, x->Cr) : 1;
  x->Q_flow = x->eps * Cmin * (Ta - Tb);
  /* each stream's share of the most it can exchange: C_min/C (1 for the
   * smaller; Cr for the larger; both 1 without flow) */
  dha = -x->eps * (Ca > 0 ? Cmin / Ca : 1) * dHa;
  dhb = x->eps * (Cb > 0 ? Cmin / Cb : 1) * dHb;
  x->outlet_a.state.m_flow = a->m_flow;
  x->outlet_a.state.h = a->h + dha;
  x->outlet_b.state.m_flow = b->m_flow;
  x->outlet_b.state.h = b->h + dhb;
  tf_pass_X(&x->med_a, &x->inlet_a, &x->outlet_a);
  tf_pass_X(&x->med_b, &x->inlet_b, &x->outlet_b);
}
/* The outlets' temperatures (recorded; nothing reads them). */
static void ntu_temps(const lied_env *env, tf_ntu *x) {
  tf_med ma_, mb_;
  const tf_med *ma = tf_med_at(&x->med_a, x->inlet_a.X, &ma_);
  const tf_med *mb = tf_med_at(&x->med_b, x->inlet_b.X, &mb_);
  const tf_state *a = &x->outlet_a.state, *b = &x->outlet_b.state;
  x->T_a = tf_T(ma, a->p, a->h);
  x->T_b = tf_T(mb, b->p, b->h);
  TF_GUARD_PH(env, x, ma, x->T_a, a->p, a->h, "outflow a");
  TF_GUARD_PH(env, x, mb, x->T_b, b->p, b->h, "outflow b");
}
static void ntu_der(const lied_env *env, tf_ntu *x) {
  (void)env;
  tf_pass_der(&x->inlet_a, &x->outlet_a);
  tf_pass_der(&x->inlet_b, &x->outlet_b);
}
static void ntu_r_a(const lied_env *env, tf_ntu *x) {
  (void)env;
  tf_pass_r(&x->inlet_a, &x->outlet_a, x->L_a);
}
static void ntu_r_b(const lied_env *env, tf_ntu *x) {
  (void)env;
  tf_pass_r(&x->inlet_b, &x->outlet_b, x->L_b);
}
LIED_BLOCK(ntu_flow_b, tf_ntu, ntu_flow)
LIED_BLOCK(ntu_temps_b, tf_ntu, ntu_temps)
LIED_BLOCK(ntu_der_b, tf_ntu, ntu_der)
LIED_BLOCK(ntu_r_a_b, tf_ntu, ntu_r_a)
LIED_BLOCK(ntu_r_b_b, tf_ntu, ntu_r_b)

static int ntu_init(tf_ntu *x, lied_init *ctx, int kind) {
  x->kind = kind;
  return tf_medium_init(&x->med_a, ctx) || tf_medium_init(&x->med_b, ctx) ? -1 : 0;
}
static int counter_init(void *self, lied_init *ctx) { return ntu_init(self, ctx, NTU_COUNTER); }
static int parallel_init(void *self, lied_init *ctx) { return ntu_init(self, ctx, NTU_PARALLEL); }
static int cross_init(void *self, lied_init *ctx) { return ntu_init(self, ctx, NTU_CROSS); }

static void ntu_meta(lied_meta *m, void *self) {
  tf_ntu *x = self;
  tf_meta_in(m, "inlet_a", 0, &x->inlet_a, &x->med_a);
  tf_meta_out(m, "outlet_a", 0, &x->outlet_a, &x->med_a);
  tf_meta_in(m, "inlet_b", 0, &x->inlet_b, &x->med_b);
  tf_meta_out(m, "outlet_b", 0, &x->outlet_b, &x->med_b);
  lied_meta_var(m, "Q_flow", "W", &x->Q_flow);
  lied_meta_var(m, "eps", "1", &x->eps);
  lied_meta_var(m, "NTU", "1", &x->NTU);
  lied_meta_var(m, "Cr", "1", &x->Cr);
  lied_meta_var(m, "T_a", "K", &x->T_a);
  lied_meta_var(m, "T_b", "K", &x->T_b);
  tf_meta_p_pass(m, "pressure_a", ntu_pressure_a_b, ntu_pressure_a_b_lanes, &x->inlet_a,
                 &x->outlet_a);
  tf_meta_p_pass(m, "pressure_b", ntu_pressure_b_b, ntu_pressure_b_b_lanes, &x->inlet_b,
                 &x->outlet_b);
  const int va = TF_M | tf_T_reads(&x->med_a), vb = TF_M | tf_T_reads(&x->med_b);
  const void *in[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  int n = tf_list_state(in, 0, &x->inlet_a, va);
  n = tf_list_state(in, n, &x->inlet_b, vb);
  if (tf_nX(&x->med_a)) in[n++] = &x->inlet_a.X;
  if (tf_nX(&x->med_b)) in[n++] = &x->inlet_b.X;
  const void *out[14] = {&x->outlet_a.state.m_flow, &x->outlet_a.state.h,
                         &x->outlet_b.state.m_flow, &x->outlet_b.state.h, &x->Q_flow, &x->eps,
                         &x->NTU, &x->Cr, &x->z_a, &x->z_b, &x->z_c, NULL, NULL, NULL};
  n = 11;
  if (tf_nX(&x->med_a)) out[n++] = &x->outlet_a.X;
  if (tf_nX(&x->med_b)) out[n++] = &x->outlet_b.X;
  lied_meta_block(m, "flow", ntu_flow_b, 0, in, out);
  tf_meta_writes_m(m, &x->outlet_a);
  tf_meta_writes_m(m, &x->outlet_b);
  tf_meta_reads(m, &x->inlet_a, va);
  tf_meta_reads(m, &x->inlet_b, vb);
  const void *tin[7] = {&x->outlet_a.state.p, &x->outlet_a.state.h, &x->outlet_b.state.p,
                        &x->outlet_b.state.h, NULL, NULL, NULL};
  n = 4;
  if (tf_nX(&x->med_a)) tin[n++] = &x->inlet_a.X;
  if (tf_nX(&x->med_b)) tin[n++] = &x->inlet_b.X;
  if (x->kinks) {
    tf_meta_flow_kink(m, "z_a", &x->z_a);
    tf_meta_flow_kink(m, "z_b", &x->z_b);
    if (x->kind == NTU_CROSS) lied_meta_zero(m, "z_c", &x->z_c, LIED_ZC_BOTH | LIED_ZC_KINK);
  }
  lied_meta_block(m, "temperatures", ntu_temps_b, 0, tin, LIED_SIGS(&x->T_a, &x->T_b));
  lied_meta_block(m, "der", ntu_der_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->inlet_a.der, &x->inlet_b.der),
                  LIED_SIGS(&x->outlet_a.der, &x->outlet_b.der));
  lied_meta_block(m, "r_a", ntu_r_a_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->outlet_a.r, &x->inlet_a.der), LIED_SIGS(&x->inlet_a.r));
  lied_meta_block(m, "r_b", ntu_r_b_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->outlet_b.r, &x->inlet_b.der), LIED_SIGS(&x->inlet_b.r));
}

static const lied_param ntu_params[] = {
    {"UA", offsetof(tf_ntu, UA), 1000, "W/K", "overall conductance (k_NTU A)", 0, TF_NOMAX, 0, 0},
    {"L_a", offsetof(tf_ntu, L_a), 0, "1/m", "inertance of stream a", 0, TF_NOMAX, 0, 0},
    {"L_b", offsetof(tf_ntu, L_b), 0, "1/m", "inertance of stream b", 0, TF_NOMAX, 0, 0},
    {"medium_a", offsetof(tf_ntu, med_a.par), 0, "1", "medium of stream a (default tf.water)",
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN},
    {"medium_b", offsetof(tf_ntu, med_b.par), 0, "1", "medium of stream b (default tf.water)",
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN},
    {"kinks", offsetof(tf_ntu, kinks), 1, "1",
     "1: the kinks (a stream reversing; cross flow: C_min changing sides) are kink functions "
     "z_a, z_b, z_c for the adaptive solvers (docs/events.md); 0: stepped across",
     0, 1, LIED_PARAM_INT, 0},
};
#define NTU_NPARAMS ((int)(sizeof ntu_params / sizeof *ntu_params))

const lied_class tf_counter_ntu_class = {
    "CounterFlowNTU", "thermofluid",
    "counter-flow heat exchanger of the effectiveness-NTU method (no states): eps = (1 - "
    "exp(-NTU (1 - Cr)))/(1 - Cr exp(-NTU (1 - Cr)))",
    sizeof(tf_ntu), ntu_params, NTU_NPARAMS, counter_init, ntu_meta};
const lied_class tf_parallel_ntu_class = {
    "ParallelFlowNTU", "thermofluid",
    "parallel-flow heat exchanger of the effectiveness-NTU method (no states): eps = (1 - "
    "exp(-NTU (1 + Cr)))/(1 + Cr)",
    sizeof(tf_ntu), ntu_params, NTU_NPARAMS, parallel_init, ntu_meta};
const lied_class tf_cross_ntu_class = {
    "CrossFlowNTU", "thermofluid",
    "cross-flow heat exchanger, both streams unmixed, of the effectiveness-NTU method (no "
    "states): eps = 1 - exp(NTU^0.22/Cr (exp(-Cr NTU^0.78) - 1))",
    sizeof(tf_ntu), ntu_params, NTU_NPARAMS, cross_init, ntu_meta};
