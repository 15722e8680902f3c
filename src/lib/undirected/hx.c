/* hx.c - undirected CounterFlowHX and ParallelFlowHX: two streams a
 * (rear_a -> fore_a) and b (rear_b -> fore_b) exchanging heat through a wall
 * of conductance UA (a parameter or the signal UA_in), N flow-through cells
 * per stream (after TFS's Undirected.HeatExchangers.DiscretizedCounterFlowHEX
 * and the directed exchangers of src/lib/thermofluid/hx.c). Cells are
 * numbered from rear to fore; cell i of a exchanges with cell j of b, j = i
 * (parallel) or j = N + 1 - i (counter: the streams' nominal directions
 * opposed). Each cell holds an enthalpy state with the fixed mass M = rho(p0,
 * T0) V/N of a flow-through cell (thermofluid.h) and is fed upwind by the sign
 * of its stream's flow:
 *   q_i = G_i (T_a,i - T_b,j),  G_i = UA/N
 *   M_a der(h_a,i) = |m_a| (h_a,up - h_a,i) - q_i
 *   M_b der(h_b,j) = |m_b| (h_b,up - h_b,j) + q_i
 * h_up is cell i - 1 (the rear's arriving forward state for i = 1) when the
 * flow runs forwards, cell i + 1 (the fore's arriving rearward state for
 * i = N) when it runs rearwards. A stream passes its flow, pressure and
 * composition both ways unchanged; forwards it leaves with cell N's
 * enthalpy, rearwards with cell 1's. A cell's temperature is the medium's at
 * the stream's pressure and composition blended by the forward weight (the
 * state of the flow that passes). So a reversal of either stream turns the
 * exchanger's arrangement round (counter flow becomes parallel flow) with
 * nothing switched: the enthalpy flows are continuous in m and balance
 * exactly. The conductance of a pair is one function (hx_G): a side with
 * phase-dependent coefficients would compute it from the pair's states. */
#include <stdio.h>
#include "lib/undirected/undirected.h"

#define HXU_MAXN 100

typedef struct tfu_hx_side {
  tfu_rear rear;
  tfu_fore fore;
  tf_med med;
  double L, V, T0, p0;
  double Mc;          /* fixed mass of one cell */
  double p, T_out;    /* the stream's (blended) pressure; the leaving flow's temperature */
  tfu_state at;       /* the state of the flow that passes (p, X for the cells) */
} tfu_hx_side;

typedef struct tfu_hx {
  tfu_hx_side a, b;
  lied_real_in UA_in;
  lied_real_out Q_out;
  double UA, m_reg, Q_flow;
  int N, counter, UA_from_input, pad_;
  double h_a[HXU_MAXN], der_a[HXU_MAXN], h_b[HXU_MAXN], der_b[HXU_MAXN];
  double T_a[HXU_MAXN], T_b[HXU_MAXN];
  double z_a, z_b; /* kink functions: the streams' flows (|m| and the upwind cell) */
} tfu_hx;

/* ---- one side: flow, forwards, rearwards, der, r -------------------------------------- */

static inline void side_flow(tfu_hx_side *s) { s->fore.flow = *s->rear.flow; }
/* The pressures pass in blocks of their own, so that what leaves a side's
 * cells does not depend on what sets its pressure (docs/thermofluid.md,
 * "What the blocks read and write"). */
static inline void side_p(tfu_hx_side *s) { s->fore.state.p = s->rear.state->p; }
static inline void side_p_back(tfu_hx_side *s) { s->rear.back.p = s->fore.back->p; }
static inline void side_fwd(tfu_hx_side *s, double h_last) {
  s->fore.state.h = h_last;
  s->fore.state.X = s->rear.state->X;
}
static inline void side_back(tfu_hx_side *s, double h_first) {
  s->rear.back.h = h_first;
  s->rear.back.X = s->fore.back->X;
}
static inline void side_der(tfu_hx_side *s) { s->fore.der = *s->rear.der; }
static inline void side_r(tfu_hx_side *s) {
  s->rear.r.r = s->fore.r->r + s->L * s->rear.der->der_m_flow;
}
#define HX_SIDE_BLOCKS(X)                                                                     \
  static void hx_flow_##X(const lied_env *env, tfu_hx *x) { (void)env, side_flow(&x->X); }    \
  static void hx_p_##X(const lied_env *env, tfu_hx *x) { (void)env, side_p(&x->X); }          \
  static void hx_p_back_##X(const lied_env *env, tfu_hx *x) { (void)env, side_p_back(&x->X); } \
  static void hx_fwd_##X(const lied_env *env, tfu_hx *x) {                                    \
    (void)env, side_fwd(&x->X, x->h_##X[x->N - 1]);                                           \
  }                                                                                           \
  static void hx_back_##X(const lied_env *env, tfu_hx *x) { (void)env, side_back(&x->X, x->h_##X[0]); } \
  static void hx_der_##X(const lied_env *env, tfu_hx *x) { (void)env, side_der(&x->X); }      \
  static void hx_r_##X(const lied_env *env, tfu_hx *x) { (void)env, side_r(&x->X); }          \
  LIED_BLOCK(hx_flow_##X##_b, tfu_hx, hx_flow_##X)                                            \
  LIED_BLOCK(hx_p_##X##_b, tfu_hx, hx_p_##X)                                                  \
  LIED_BLOCK(hx_p_back_##X##_b, tfu_hx, hx_p_back_##X)                                        \
  LIED_BLOCK(hx_fwd_##X##_b, tfu_hx, hx_fwd_##X)                                              \
  LIED_BLOCK(hx_back_##X##_b, tfu_hx, hx_back_##X)                                            \
  LIED_BLOCK(hx_der_##X##_b, tfu_hx, hx_der_##X)                                              \
  LIED_BLOCK(hx_r_##X##_b, tfu_hx, hx_r_##X)
HX_SIDE_BLOCKS(a)
HX_SIDE_BLOCKS(b)

/* ---- the cells -------------------------------------------------------------------------- */

/* The conductance of pair i. */
static inline double hx_G(const tfu_hx *x, double UA, int i) {
  (void)i;
  return UA / x->N;
}
/* The state of the flow through a side (pressure, composition) and its cells'
 * temperatures. */
static void side_temps(const lied_env *env, const tfu_hx *x, tfu_hx_side *s, const double *h,
                       double *T, const char *what) {
  tfu_blend_state(tfu_w(s->rear.flow->m_flow, x->m_reg), s->rear.state, s->fore.back, &s->at);
  s->p = s->at.p;
  tf_med mx;
  const tf_med *med = tfu_med_at(&s->med, &s->at, &mx);
  for (int i = 0; i < x->N; i++) {
    T[i] = tf_T(med, s->p, h[i]);
    TF_GUARD_PH(env, x, med, T[i], s->p, h[i], what);
  }
}
/* der(h_i) of one side's cells, less the heat q_i (sign: +1 into the side). */
static inline void side_cells(const tfu_hx_side *s, int N, const double *h, double *der) {
  const double m = s->rear.flow->m_flow, am = fabs(m);
  for (int i = 0; i < N; i++) {
    const double up = m >= 0 ? (i ? h[i - 1] : s->rear.state->h) : (i < N - 1 ? h[i + 1] : s->fore.back->h);
    der[i] = am * (up - h[i]);
  }
}
static void hx_cells(const lied_env *env, tfu_hx *x) {
  const int N = x->N;
  const double UA = x->UA_from_input ? x->UA_in.y->y : x->UA;
  side_temps(env, x, &x->a, x->h_a, x->T_a, "stream a cell");
  side_temps(env, x, &x->b, x->h_b, x->T_b, "stream b cell");
  side_cells(&x->a, N, x->h_a, x->der_a);
  side_cells(&x->b, N, x->h_b, x->der_b);
  double Q = 0;
  for (int i = 0; i < N; i++) {
    const int j = x->counter ? N - 1 - i : i;
    const double q = hx_G(x, UA, i) * (x->T_a[i] - x->T_b[j]);
    Q += q;
    x->der_a[i] = (x->der_a[i] - q) / x->a.Mc;
    x->der_b[j] = (x->der_b[j] + q) / x->b.Mc;
  }
  x->Q_flow = Q;
  x->Q_out.y.y = Q;
}
static void hx_out(const lied_env *env, tfu_hx *x) {
  (void)env;
  const int N = x->N;
  x->a.T_out = x->a.rear.flow->m_flow >= 0 ? x->T_a[N - 1] : x->T_a[0];
  x->b.T_out = x->b.rear.flow->m_flow >= 0 ? x->T_b[N - 1] : x->T_b[0];
}
/* The kinks (docs/events.md): |m| and the upwind neighbour of every cell
 * switch where a stream reverses. The cells' phase boundaries (steam) are
 * not declared (2 per cell would pass the 16 zero functions of a component). */
static void hx_kinks(const lied_env *env, tfu_hx *x) {
  (void)env;
  x->z_a = x->a.rear.flow->m_flow;
  x->z_b = x->b.rear.flow->m_flow;
}
LIED_BLOCK(hx_kinks_b, tfu_hx, hx_kinks)
LIED_BLOCK(hx_cells_b, tfu_hx, hx_cells)
LIED_BLOCK(hx_out_b, tfu_hx, hx_out)

/* ---- init and meta ------------------------------------------------------------------- */

static int side_init(tfu_hx_side *s, lied_init *ctx, int N, double *h, const char *which) {
  if (tf_medium_init(&s->med, ctx)) return -1;
  char what[48];
  snprintf(what, sizeof what, "start state of stream %s (p0_%s, T0_%s)", which, which, which);
  if (tf_medium_check_pT(&s->med, ctx, s->p0, s->T0, what)) return -1;
  const double h0 = tf_h(&s->med, s->p0, s->T0);
  snprintf(what, sizeof what, "V_%s / N", which);
  if (tf_cell_mass_init(&s->med, ctx, s->p0, s->T0, s->V / N, what, &s->Mc)) return -1;
  for (int i = 0; i < N; i++) h[i] = h0;
  return 0;
}
static int hx_init_kind(void *self, lied_init *ctx, int counter) {
  tfu_hx *x = self;
  x->counter = counter;
  if (side_init(&x->a, ctx, x->N, x->h_a, "a") || side_init(&x->b, ctx, x->N, x->h_b, "b"))
    return -1;
  return 0;
}
static int hx_init_counter(void *self, lied_init *ctx) { return hx_init_kind(self, ctx, 1); }
static int hx_init_parallel(void *self, lied_init *ctx) { return hx_init_kind(self, ctx, 0); }

/* One side's ports and blocks; the block names are kept by address (literals). */
typedef struct hx_side_names {
  const char *rear, *fore, *flow, *pf, *pb, *fwd, *back, *der, *r, *M, *T, *p;
} hx_side_names;
static const hx_side_names side_a = {"rear_a", "fore_a", "flow_a", "pressure_a",
                                     "pressure_back_a", "forwards_a", "rearwards_a", "der_a",
                                     "r_a", "M_a", "T_a", "p_a"};
static const hx_side_names side_b = {"rear_b", "fore_b", "flow_b", "pressure_b",
                                     "pressure_back_b", "forwards_b", "rearwards_b", "der_b",
                                     "r_b", "M_b", "T_b", "p_b"};
/* One side's blocks: flow, pressure (fwd, back: what it passes on), forwards
 * and rearwards (the enthalpy of the last or first cell, X), der and r. */
typedef struct hx_side_blocks {
  lied_block_fn flow, pf, pb, fwd, back, der, r;
} hx_side_blocks;
static void side_meta(lied_meta *m, tfu_hx_side *s, const hx_side_names *nm,
                      const hx_side_blocks *bl, double *h_first, double *h_last) {
  tfu_meta_rear(m, nm->rear, 0, &s->rear);
  tfu_meta_fore(m, nm->fore, 0, &s->fore);
  lied_meta_block(m, nm->flow, bl->flow, 0, LIED_SIGS(&s->rear.flow), LIED_SIGS(&s->fore.flow));
  lied_meta_block(m, nm->pf, bl->pf, 0, LIED_SIGS(&s->rear.state), LIED_SIGS(&s->fore.state.p));
  lied_meta_writes(m, &s->fore.state.p, 1);
  tfu_meta_reads(m, &s->rear.state, TFU_P);
  lied_meta_block(m, nm->pb, bl->pb, 0, LIED_SIGS(&s->fore.back), LIED_SIGS(&s->rear.back.p));
  lied_meta_writes(m, &s->rear.back.p, 1);
  tfu_meta_reads(m, &s->fore.back, TFU_P);
  lied_meta_block(m, nm->fwd, bl->fwd, 0, LIED_SIGS(&s->rear.state, h_last),
                  LIED_SIGS(&s->fore.state.h));
  lied_meta_writes(m, &s->fore.state.h, 2);
  tfu_meta_reads(m, &s->rear.state, TFU_X);
  lied_meta_block(m, nm->back, bl->back, 0, LIED_SIGS(&s->fore.back, h_first),
                  LIED_SIGS(&s->rear.back.h));
  lied_meta_writes(m, &s->rear.back.h, 2);
  tfu_meta_reads(m, &s->fore.back, TFU_X);
  lied_meta_block(m, nm->der, bl->der, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->rear.der),
                  LIED_SIGS(&s->fore.der));
  lied_meta_block(m, nm->r, bl->r, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->fore.r, &s->rear.der),
                  LIED_SIGS(&s->rear.r));
  lied_meta_var(m, nm->M, "kg", &s->Mc);
  lied_meta_var(m, nm->T, "K", &s->T_out);
  lied_meta_var(m, nm->p, "Pa", &s->p);
}

static void hx_meta(lied_meta *m, void *self) {
  tfu_hx *x = self;
  const int N = x->N;
  char name[24];
  static const hx_side_blocks blocks_a = {hx_flow_a_b, hx_p_a_b, hx_p_back_a_b, hx_fwd_a_b,
                                          hx_back_a_b, hx_der_a_b, hx_r_a_b};
  static const hx_side_blocks blocks_b = {hx_flow_b_b, hx_p_b_b, hx_p_back_b_b, hx_fwd_b_b,
                                          hx_back_b_b, hx_der_b_b, hx_r_b_b};
  side_meta(m, &x->a, &side_a, &blocks_a, &x->h_a[0], &x->h_a[N - 1]);
  side_meta(m, &x->b, &side_b, &blocks_b, &x->h_b[0], &x->h_b[N - 1]);
  if (x->UA_from_input) lied_meta_real_in(m, "UA_in", 0, &x->UA_in);
  lied_meta_real_out(m, "Q_out", 0, &x->Q_out);
  lied_meta_var(m, "Q_flow", "W", &x->Q_flow);
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "h_a[%d]", i + 1);
    lied_meta_state(m, name, "J/kg", &x->h_a[i], &x->der_a[i]);
    snprintf(name, sizeof name, "h_b[%d]", i + 1);
    lied_meta_state(m, name, "J/kg", &x->h_b[i], &x->der_b[i]);
  }
  const void *ci[2 * HXU_MAXN + 8], *co[4 * HXU_MAXN + 8];
  int nci = 0, nco = 0;
  ci[nci++] = &x->a.rear.flow, ci[nci++] = &x->a.rear.state, ci[nci++] = &x->a.fore.back;
  ci[nci++] = &x->b.rear.flow, ci[nci++] = &x->b.rear.state, ci[nci++] = &x->b.fore.back;
  if (x->UA_from_input) ci[nci++] = &x->UA_in.y;
  for (int i = 0; i < N; i++) {
    ci[nci++] = &x->h_a[i], ci[nci++] = &x->h_b[i];
    co[nco++] = &x->der_a[i], co[nco++] = &x->der_b[i];
    co[nco++] = &x->T_a[i], co[nco++] = &x->T_b[i];
  }
  co[nco++] = &x->Q_flow, co[nco++] = &x->Q_out.y;
  co[nco++] = &x->a.at, co[nco++] = &x->b.at, co[nco++] = &x->a.p, co[nco++] = &x->b.p;
  ci[nci] = co[nco] = NULL;
  lied_meta_block(m, "cells", hx_cells_b, 0, ci, co);
  /* both directions' states (the blend near zero flow, the upwind ends) */
  const int va = TFU_P | TFU_H | tfu_X_reads(&x->a.med), vb = TFU_P | TFU_H | tfu_X_reads(&x->b.med);
  tfu_meta_reads(m, &x->a.rear.state, va), tfu_meta_reads(m, &x->a.fore.back, va);
  tfu_meta_reads(m, &x->b.rear.state, vb), tfu_meta_reads(m, &x->b.fore.back, vb);
  const void *oi[2 * HXU_MAXN + 4];
  int noi = 0;
  oi[noi++] = &x->a.rear.flow, oi[noi++] = &x->b.rear.flow;
  for (int i = 0; i < N; i++) oi[noi++] = &x->T_a[i], oi[noi++] = &x->T_b[i];
  oi[noi] = NULL;
  lied_meta_block(m, "output", hx_out_b, 0, oi, LIED_SIGS(&x->a.T_out, &x->b.T_out));
  lied_meta_block(m, "kinks", hx_kinks_b, 0, LIED_SIGS(&x->a.rear.flow, &x->b.rear.flow),
                  LIED_SIGS(&x->z_a, &x->z_b));
  tf_meta_flow_kink(m, "z_a", &x->z_a);
  tf_meta_flow_kink(m, "z_b", &x->z_b);
}

#define SIDE_PARAMS(X, x)                                                                      \
  {"V_" #x, offsetof(tfu_hx, X.V), 1e-3, "m3", "fluid volume of stream " #x, 0, TF_NOMAX,      \
   LIED_PARAM_MIN_OPEN, 0},                                                                    \
  {"T0_" #x, offsetof(tfu_hx, X.T0), 293.15, "K", "start temperature of stream " #x, 0,        \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                          \
  {"p0_" #x, offsetof(tfu_hx, X.p0), 1e5, "Pa",                                                \
   "pressure of stream " #x "'s start state (its cells' fixed mass)", 0, TF_NOMAX,             \
   LIED_PARAM_MIN_OPEN, 0},                                                                    \
  {"L_" #x, offsetof(tfu_hx, X.L), 0, "1/m", "inertance of stream " #x, 0, TF_NOMAX, 0, 0},   \
  {"medium_" #x, offsetof(tfu_hx, X.med.par), 0, "1",                                          \
   "medium of stream " #x " (default tf.water)", TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}
static const lied_param hx_params[] = {
    {"N", offsetof(tfu_hx, N), 10, "1", "cells per stream", 1, HXU_MAXN, LIED_PARAM_INT, 0},
    {"UA", offsetof(tfu_hx, UA), 1000, "W/K", "conductance (unless UA_from_input)", 0, TF_NOMAX,
     0, 0},
    {"UA_from_input", offsetof(tfu_hx, UA_from_input), 0, "1",
     "1: conductance from the signal input UA_in [W/K]", 0, 1, LIED_PARAM_INT, 0},
    TFU_MREG_PARAM(tfu_hx),
    SIDE_PARAMS(a, a),
    SIDE_PARAMS(b, b),
};
#define HX_CLASS(VAR, NAME, DOC, INIT)                                                          \
  const lied_class VAR = {NAME, "undirected", DOC, sizeof(tfu_hx), hx_params,                   \
                          sizeof hx_params / sizeof *hx_params, INIT, hx_meta}
HX_CLASS(tfu_counter_hx_class, "CounterFlowHX",
         "undirected counter-flow heat exchanger: streams a and b in N cells each, cell i of a "
         "against cell N+1-i of b (nominal directions opposed), conductance UA; upwind by the "
         "sign of each flow, so a reversed stream makes it parallel flow",
         hx_init_counter);
HX_CLASS(tfu_parallel_hx_class, "ParallelFlowHX",
         "undirected parallel-flow heat exchanger: as CounterFlowHX with cell i of a against "
         "cell i of b",
         hx_init_parallel);
