/* hx.c - CounterFlowHX and ParallelFlowHX: two streams a and b exchanging
 * heat through a wall of conductance UA [W/K] (a parameter or the signal
 * UA_in), discretised into N cells per stream (after TFS's discretised heat
 * exchangers). Cell i of each stream is a ConductionElement of volume V/N
 * (V_a, V_b) and fixed mass M_a = rho_a(p0_a, T0_a) V_a/N (M_b likewise: a
 * flow-through cell, thermofluid.h); cell i of a exchanges with cell i of b
 * (parallel flow) or cell N+1-i of b (counter flow), cells numbered along
 * each stream's nominal direction:
 *   q_i = (UA/N) (T_a,i - T_b,j)        heat from a to b in the pair
 *   M_a der(h_a,i) = |m_a| (h_a,i-1 - h_a,i) - q_i
 *   M_b der(h_b,j) = |m_b| (h_b,j-1 - h_b,j) + q_i
 * h_a,0 and h_b,0 are the inlets' enthalpies; each outlet carries its last
 * cell's enthalpy, the inlet's flow and pressure (no pressure drop: put a
 * PressureDrop in series). The wall stores no heat.
 *
 * CrossFlowHX (both streams unmixed): an N x N grid of elements (i, j);
 * stream a crosses it along i in N parallel rows of m_a/N, stream b along j
 * in N columns of m_b/N; element (i, j) holds a-cell and b-cell k =
 * j*N + i (states h_a[k+1], h_b[k+1]) of volumes V/N^2 (fixed masses
 * rho(p0, T0) V/N^2), exchanging
 *   q_k = (UA/N^2) (T_a,k - T_b,k);
 * upwind: a from (i-1, j), b from (i, j-1). Each outlet mixes its N rows
 * (columns), equal flows: h_out = mean of the last elements' h.
 *
 * With a wall heat capacity C_w > 0 every pair exchanges through a wall
 * element of capacity C_w/n (n cells per stream) and temperature T_w (a
 * state), half the resistance on each side:
 *   q_a = 2G (T_a - T_w), q_b = 2G (T_w - T_b), (C_w/n) der(T_w) = q_a - q_b
 * (at steady state the same conductance G).
 *
 * The signal output Q_out carries Q_flow, the heat flow out of stream a
 * (for controllers, and to integrate it in an energy balance). A mixture
 * (moist air) passes each side with its inlet's composition, at which its
 * cells' temperatures are computed. */
#include <stdio.h>
#include "lib/thermofluid/deps.h"

#define HX_MAXN 500  /* cells per stream (cross flow: N*N <= HX_MAXN) */
#define HX_MAXN_CROSS 22
enum { HX_PARALLEL = 0, HX_COUNTER = 1, HX_CROSS = 2 };

typedef struct tf_hx {
  tf_in inlet_a;
  tf_out outlet_a;
  tf_in inlet_b;
  tf_out outlet_b;
  lied_real_in UA_in;
  tf_med med_a, med_b;
  double UA, V_a, V_b, T0_a, T0_b, p0_a, p0_b, L_a, L_b;
  double C_w, T0_w;        /* wall heat capacity (0: none), its start temperature */
  double Q_flow, Q_b, T_a, T_b; /* heat flow out of a, into b; outlet temperatures */
  double Mc_a, Mc_b;            /* fixed mass of one cell of a, of b (init) */
  lied_real_out Q_out;          /* signal output: Q_flow */
  int N, UA_from_input, kind, pad_; /* kind: HX_PARALLEL, HX_COUNTER, HX_CROSS */
  double h_a[HX_MAXN], der_a[HX_MAXN], h_b[HX_MAXN], der_b[HX_MAXN];
  double T_w[HX_MAXN], der_w[HX_MAXN]; /* wall elements (C_w > 0) */
  double z_a, z_b; /* kink functions: the streams' flows (|m| in the cells) */
} tf_hx;

/* The outlet enthalpy of one side of a copy: its last cell, or for cross
 * flow the mean of the last elements of its N rows (side a: element
 * r N + N - 1 of row r) or columns (side b: (N - 1) N + r). Array element k
 * at [k * s]. */
static inline double hx_outlet_side(int N, int kind, int b, const double *h, size_t s) {
  if (kind != HX_CROSS) return h[(size_t)(N - 1) * s];
  double sum = 0;
  for (int r = 0; r < N; r++) sum += h[(size_t)(b ? (N - 1) * N + r : r * N + N - 1) * s];
  return sum / N;
}
static inline void hx_outlet_h(int N, int kind, const double *ha, const double *hb, size_t s,
                               double *hoa, double *hob) {
  *hoa = hx_outlet_side(N, kind, 0, ha, s);
  *hob = hx_outlet_side(N, kind, 1, hb, s);
}

/* The exchange of one pair through conductance G: without a wall (Cwc = 0)
 * q_a = q_b = G (T_a - T_b); with a wall element of capacity Cwc, see above. */
static inline void hx_pair(double G, double Cwc, double Ta, double Tb, const double *Tw,
                           double *dw, double *qa, double *qb) {
  if (Cwc > 0) {
    *qa = 2 * G * (Ta - *Tw);
    *qb = 2 * G * (*Tw - Tb);
    *dw = (*qa - *qb) / Cwc;
  } else {
    *qa = G * (Ta - Tb);
    *qb = *qa;
  }
}

/* A cell's temperature; a state outside the medium's range is a fault of
 * the exchanger (self: the instance, or its copy's lane word). */
static inline double hx_T(const lied_env *env, const void *self, const tf_med *m, double p,
                          double h, const char *what) {
  const double T = tf_T(m, p, h);
  TF_GUARD_PH(env, self, m, T, p, h, what);
  return T;
}

/* The cells of one copy: arrays element i at [i * s] (s = 1 for a block,
 * LIED_LANES in a group), the inlet states' variables is apart. */
static inline void hx_energy_eq(const lied_env *env, const void *self, const tf_med *ma, const tf_med *mb, int N, int kind, double UA,
                                double Mca, double Mcb, double Cw, const double *ia,
                                const double *ib, size_t is, const double *ha, const double *hb,
                                const double *Tw, double *da, double *db, double *dw, size_t s,
                                double *Q, double *Qb, double *Ta_out, double *Tb_out) {
  const double m_a = ia[0], p_a = ia[is], hin_a = ia[2 * is];
  const double m_b = ib[0], p_b = ib[is], hin_b = ib[2 * is];
  double sum = 0, sum_b = 0, qa, qb;
  if (kind == HX_CROSS) {
    const int NN = N * N;
    const double G = UA / NN, mra = m_a / N, mcb = m_b / N;
    const double Cwc = Cw / NN;
    for (int k = 0; k < NN; k++) {
      const int i = k % N, j = k / N;
      const double hak = ha[(size_t)k * s], hbk = hb[(size_t)k * s];
      const double Ta = hx_T(env, self, ma, p_a, hak, "stream a cell"); /* a first: */
      const double Tb = hx_T(env, self, mb, p_b, hbk, "stream b cell"); /* the fault's order */
      hx_pair(G, Cwc, Ta, Tb, &Tw[(size_t)k * s], &dw[(size_t)k * s], &qa, &qb);
      const double hua = i ? ha[(size_t)(k - 1) * s] : hin_a;
      const double hub = j ? hb[(size_t)(k - N) * s] : hin_b;
      da[(size_t)k * s] = tf_cell_der(mra, hua, hak, -qa, Mca);
      db[(size_t)k * s] = tf_cell_der(mcb, hub, hbk, qb, Mcb);
      sum += qa;
      sum_b += qb;
    }
  } else {
    const double G = UA / N, Cwc = Cw / N;
    for (int i = 0; i < N; i++) {
      const int j = kind == HX_COUNTER ? N - 1 - i : i;
      const double hai = ha[(size_t)i * s], hbj = hb[(size_t)j * s];
      /* wall element i lies between cell i of a and cell j of b */
      const double Ta = hx_T(env, self, ma, p_a, hai, "stream a cell");
      const double Tb = hx_T(env, self, mb, p_b, hbj, "stream b cell");
      hx_pair(G, Cwc, Ta, Tb, &Tw[(size_t)i * s], &dw[(size_t)i * s], &qa, &qb);
      const double hua = i ? ha[(size_t)(i - 1) * s] : hin_a;
      const double hub = j ? hb[(size_t)(j - 1) * s] : hin_b;
      da[(size_t)i * s] = tf_cell_der(m_a, hua, hai, -qa, Mca);
      db[(size_t)j * s] = tf_cell_der(m_b, hub, hbj, qb, Mcb);
      sum += qa;
      sum_b += qb;
    }
  }
  double hoa, hob;
  hx_outlet_h(N, kind, ha, hb, s, &hoa, &hob);
  *Q = sum;
  *Qb = sum_b;
  *Ta_out = tf_T(ma, p_a, hoa);
  *Tb_out = tf_T(mb, p_b, hob);
}

static void hx_energy(const lied_env *env, tf_hx *x) {
  double UA = x->UA_from_input ? x->UA_in.y->y : x->UA;
  tf_med mxa, mxb;
  const tf_med *ma = tf_med_at(&x->med_a, x->inlet_a.X, &mxa);
  const tf_med *mb = tf_med_at(&x->med_b, x->inlet_b.X, &mxb);
  hx_energy_eq(env, x, ma, mb, x->N, x->kind, UA, x->Mc_a, x->Mc_b, x->C_w,
               &x->inlet_a.state->m_flow, &x->inlet_b.state->m_flow, 1, x->h_a, x->h_b, x->T_w,
               x->der_a, x->der_b, x->der_w, 1, &x->Q_flow, &x->Q_b, &x->T_a, &x->T_b);
  x->Q_out.y.y = x->Q_flow;
}
/* Each side's outlet apart (docs/thermofluid.md, "What the blocks read and
 * write"): the inlet's p; the inlet's m_flow and X with the outlet
 * enthalpy of the side's cells. */
TF_P_PASS(hx_pressure_a_b, tf_hx, inlet_a, outlet_a)
TF_P_PASS(hx_pressure_b_b, tf_hx, inlet_b, outlet_b)
#define HX_FLOW(S, B)                                                                      \
  static void hx_flow_##S(const lied_env *env, tf_hx *x) {                                 \
    (void)env;                                                                             \
    x->outlet_##S.state.m_flow = x->inlet_##S.state->m_flow;                               \
    x->outlet_##S.state.h = hx_outlet_side(x->N, x->kind, B, x->h_##S, 1);                 \
    tf_pass_X(&x->med_##S, &x->inlet_##S, &x->outlet_##S);                                 \
  }                                                                                        \
  LIED_BLOCK(hx_flow_##S##_b, tf_hx, hx_flow_##S)                                          \
  static void hx_flow_##S##_lanes(const lied_env *env, char *g, size_t n, size_t stride) { \
    (void)env, (void)stride;                                                               \
    const double *i_ = LIED_LANE_IN(tf_hx, g, inlet_##S.state);                            \
    const double *h_ = LIED_LANE(tf_hx, g, h_##S);                                         \
    double *o_ = LIED_LANE(tf_hx, g, outlet_##S.state);                                    \
    for (size_t l = 0; l < n; l++) {                                                       \
      TF_V(o_, 0, l) = TF_V(i_, 0, l);                                                     \
      TF_V(o_, 2, l) = hx_outlet_side(TF_LANE_INT(tf_hx, g, N, l),                         \
                                      TF_LANE_INT(tf_hx, g, kind, l), B, h_ + l, LIED_LANES); \
    }                                                                                      \
    tf_pass_X_lanes(n, LIED_LANE_IN(tf_hx, g, inlet_##S.X), LIED_LANE(tf_hx, g, outlet_##S.X)); \
  }
HX_FLOW(a, 0)
HX_FLOW(b, 1)
static void hx_der(const lied_env *env, tf_hx *x) {
  (void)env;
  tf_pass_der(&x->inlet_a, &x->outlet_a);
  tf_pass_der(&x->inlet_b, &x->outlet_b);
}
static void hx_r_a(const lied_env *env, tf_hx *x) {
  (void)env;
  tf_pass_r(&x->inlet_a, &x->outlet_a, x->L_a);
}
static void hx_r_b(const lied_env *env, tf_hx *x) {
  (void)env;
  tf_pass_r(&x->inlet_b, &x->outlet_b, x->L_b);
}
LIED_BLOCK(hx_energy_b, tf_hx, hx_energy)
/* Kinks (docs/events.md): each stream's |m_flow| where it reverses. The
 * cells' phase boundaries are not declared (2 per cell would pass the 16
 * zero functions a component may have). */
static void hx_kinks(const lied_env *env, tf_hx *x) {
  (void)env;
  x->z_a = x->inlet_a.state->m_flow;
  x->z_b = x->inlet_b.state->m_flow;
}
LIED_BLOCK(hx_kinks_b, tf_hx, hx_kinks)
LIED_BLOCK(hx_der_b, tf_hx, hx_der)
LIED_BLOCK(hx_r_a_b, tf_hx, hx_r_a)
LIED_BLOCK(hx_r_b_b, tf_hx, hx_r_b)

/* ---- lane forms ------------------------------------------------------------ */

/* Liquids on both sides (the usual case): the media's laws inline
 * (tf_liquid_T: the same operations as the medium's table),
 * cell by cell with the copies in the inner loop, which the compiler
 * evaluates several per instruction. par: the lanes of a medium vector
 * {kind, rho0, cp, beta, p_ref, T_ref}, element k at par[k * LIED_LANES]. */
#define HX_PAR(par, k, l) ((par)[(k) * LIED_LANES + (l)])
LIED_LANE_FN static void hx_energy_liquid(size_t n, int N, int kind, const double *G,
                                          const double *Mca, const double *Mcb,
                                          const double *ia, const double *ib, const double *pa,
                                          const double *pb, const double *ha, const double *hb,
                                          double *da, double *db, double *Q, double *Qb,
                                          double *Qo, double *Ta, double *Tb) {
  double sum[LIED_LANES];
  for (size_t l = 0; l < n; l++) sum[l] = 0;
  for (int i = 0; i < N; i++) {
    const int j = kind == HX_COUNTER ? N - 1 - i : i;
    const double *restrict hai = ha + (size_t)i * LIED_LANES;
    const double *restrict hbj = hb + (size_t)j * LIED_LANES;
    const double *restrict hua = i ? ha + (size_t)(i - 1) * LIED_LANES : ia + 2 * LIED_LANES;
    const double *restrict hub = j ? hb + (size_t)(j - 1) * LIED_LANES : ib + 2 * LIED_LANES;
    double *restrict dai = da + (size_t)i * LIED_LANES, *restrict dbj = db + (size_t)j * LIED_LANES;
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) {
      const double Tai = HX_PAR(pa, 5, l) + hai[l] / HX_PAR(pa, 2, l);
      const double Tbj = HX_PAR(pb, 5, l) + hbj[l] / HX_PAR(pb, 2, l);
      const double q = G[l] * (Tai - Tbj);
      dai[l] = tf_cell_der(TF_V(ia, 0, l), hua[l], hai[l], -q, Mca[l]);
      dbj[l] = tf_cell_der(TF_V(ib, 0, l), hub[l], hbj[l], q, Mcb[l]);
      sum[l] += q;
    }
  }
  const double *ha_last = ha + (size_t)(N - 1) * LIED_LANES, *hb_last = hb + (size_t)(N - 1) * LIED_LANES;
  for (size_t l = 0; l < n; l++) {
    Q[l] = sum[l];
    Qb[l] = sum[l];
    Qo[l] = sum[l];
    Ta[l] = HX_PAR(pa, 5, l) + ha_last[l] / HX_PAR(pa, 2, l);
    Tb[l] = HX_PAR(pb, 5, l) + hb_last[l] / HX_PAR(pb, 2, l);
  }
}

/* The copies' faults of hx_energy_media: fk[l] = 2 cell + side of copy l's
 * first state outside its medium's range (-1: none), at pressure fp[l] and
 * enthalpy fh[l]. */
static void hx_media_faults(const lied_env *env, char *g, size_t n, const int *fk,
                            const double *fp, const double *fh, const double *Xa,
                            const double *Xb) {
  for (size_t l = 0; l < n; l++)
    if (fk[l] >= 0) {
      tf_med m;
      if (fk[l] % 2)
        TF_LANE_MED_AT(tf_hx, g, med_b, l, Xb, &m);
      else
        TF_LANE_MED_AT(tf_hx, g, med_a, l, Xa, &m);
      tf_fault_ph(env, TF_LANE_WORD(tf_hx, g, Q_flow, l), &m, fp[l], fh[l],
                  fk[l] % 2 ? "stream b cell" : "stream a cell");
    }
}

/* The first state of each copy outside its medium's range, in cell k (as
 * hx_energy_eq meets them: stream a before b): fk[l] = 2 k + side, the
 * pressure and enthalpy in fp[l] and fh[l]; a copy already at fault keeps
 * its first. */
static void hx_cell_faults(size_t n, int k, const double *Ta, const double *Tb, const double *Pa,
                           const double *Pb, const double *hak, const double *hbk, int *fk,
                           double *fp, double *fh) {
  for (size_t l = 0; l < n; l++) {
    if (fk[l] >= 0) continue;
    if (!isfinite(Ta[l]))
      fk[l] = 2 * k, fp[l] = Pa[l], fh[l] = hak[l];
    else if (!isfinite(Tb[l]))
      fk[l] = 2 * k + 1, fp[l] = Pb[l], fh[l] = hbk[l];
  }
}

/* The heat flows (sum: stream a's, sum_b: b's) and the outlet
 * temperatures of the group's copies, from the media's lane forms. */
static void hx_media_outlets(char *g, size_t n, int N, int kind, const double *sum,
                             const double *sum_b, const double *pa, const tf_medium *const *fa,
                             const double *Pa, const double *pb, const tf_medium *const *fb,
                             const double *Pb) {
  const double *ha = LIED_LANE(tf_hx, g, h_a), *hb = LIED_LANE(tf_hx, g, h_b);
  double hoa[LIED_LANES], hob[LIED_LANES];
  double *Q = LIED_LANE(tf_hx, g, Q_flow), *Qb = LIED_LANE(tf_hx, g, Q_b),
         *Qo = LIED_LANE(tf_hx, g, Q_out.y.y);
  for (size_t l = 0; l < n; l++) {
    hx_outlet_h(N, kind, ha + l, hb + l, LIED_LANES, &hoa[l], &hob[l]);
    Q[l] = sum[l], Qb[l] = sum_b[l], Qo[l] = sum[l];
  }
  tf_T_lanes(n, pa, fa, Pa, hoa, LIED_LANE(tf_hx, g, T_a));
  tf_T_lanes(n, pb, fb, Pb, hob, LIED_LANE(tf_hx, g, T_b));
}

/* Any media, walls and cross flow, when the copies share N, kind and
 * UA_from_input: what hx_energy_eq computes copy by copy, cell by cell with
 * the copies in the inner loop and each cell's temperatures from the media's
 * lane forms (tf_T_lanes). A copy's first cell outside its medium's range
 * (a before b, cells in order, as hx_energy_eq meets them) is its fault. */
static void hx_energy_media(const lied_env *env, char *g, size_t n, int N, int kind,
                            int from_input) {
  const double *ia = LIED_LANE_IN(tf_hx, g, inlet_a.state);
  const double *ib = LIED_LANE_IN(tf_hx, g, inlet_b.state);
  const double *UA_in = LIED_LANE_IN(tf_hx, g, UA_in.y);
  const double *UA = LIED_LANE(tf_hx, g, UA), *Mca = LIED_LANE(tf_hx, g, Mc_a),
               *Mcb = LIED_LANE(tf_hx, g, Mc_b), *Cw = LIED_LANE(tf_hx, g, C_w);
  const tf_medium *const *fa = TF_LANE_FNS(tf_hx, g, med_a), *const *fb = TF_LANE_FNS(tf_hx, g, med_b);
  const double *Xa = LIED_LANE_IN(tf_hx, g, inlet_a.X), *Xb = LIED_LANE_IN(tf_hx, g, inlet_b.X);
  double bufa[TF_MEDIUM_LEN * LIED_LANES], bufb[TF_MEDIUM_LEN * LIED_LANES];
  const double *pa = tf_par_lanes_at(n, LIED_LANE(tf_hx, g, med_a.par), fa, Xa, bufa);
  const double *pb = tf_par_lanes_at(n, LIED_LANE(tf_hx, g, med_b.par), fb, Xb, bufb);
  const double *ha = LIED_LANE(tf_hx, g, h_a), *hb = LIED_LANE(tf_hx, g, h_b);
  double *da = LIED_LANE(tf_hx, g, der_a), *db = LIED_LANE(tf_hx, g, der_b);
  double *Tw = LIED_LANE(tf_hx, g, T_w), *dw = LIED_LANE(tf_hx, g, der_w);
  const double *Pa = ia + LIED_LANES, *Pb = ib + LIED_LANES; /* inlet pressures */
  const int cross = kind == HX_CROSS, NN = cross ? N * N : N;
  double G[LIED_LANES], Cwc[LIED_LANES], mfa[LIED_LANES], mfb[LIED_LANES];
  double sum[LIED_LANES], sum_b[LIED_LANES], Ta[LIED_LANES], Tb[LIED_LANES];
  double fp[LIED_LANES], fh[LIED_LANES];
  int fk[LIED_LANES]; /* first fault: 2 cell + side, or -1 */
  for (size_t l = 0; l < n; l++) {
    const double ua = from_input ? UA_in[l] : UA[l];
    if (cross)
      G[l] = ua / NN, mfa[l] = TF_V(ia, 0, l) / N, mfb[l] = TF_V(ib, 0, l) / N, Cwc[l] = Cw[l] / NN;
    else
      G[l] = ua / N, Cwc[l] = Cw[l] / N, mfa[l] = TF_V(ia, 0, l), mfb[l] = TF_V(ib, 0, l);
    sum[l] = 0, sum_b[l] = 0, fk[l] = -1;
  }
  for (int k = 0; k < NN; k++) {
    /* cell ka of a meets cell kb of b through wall element k; upwind cells */
    int ka = k, kb = k, up_a = k - 1, up_b = k - N;
    if (cross) {
      if (k % N == 0) up_a = -1;
      if (k / N == 0) up_b = -1;
    } else {
      kb = kind == HX_COUNTER ? N - 1 - k : k;
      up_b = kb - 1;
    }
    const double *hak = ha + (size_t)ka * LIED_LANES, *hbk = hb + (size_t)kb * LIED_LANES;
    const double *hua = up_a >= 0 ? ha + (size_t)up_a * LIED_LANES : ia + 2 * LIED_LANES;
    const double *hub = up_b >= 0 ? hb + (size_t)up_b * LIED_LANES : ib + 2 * LIED_LANES;
    double *dak = da + (size_t)ka * LIED_LANES, *dbk = db + (size_t)kb * LIED_LANES;
    double *Twk = Tw + (size_t)k * LIED_LANES, *dwk = dw + (size_t)k * LIED_LANES;
    tf_T_lanes(n, pa, fa, Pa, hak, Ta);
    tf_T_lanes(n, pb, fb, Pb, hbk, Tb);
    hx_cell_faults(n, k, Ta, Tb, Pa, Pb, hak, hbk, fk, fp, fh);
    for (size_t l = 0; l < n; l++) {
      double qa, qb;
      hx_pair(G[l], Cwc[l], Ta[l], Tb[l], &Twk[l], &dwk[l], &qa, &qb);
      dak[l] = tf_cell_der(mfa[l], hua[l], hak[l], -qa, Mca[l]);
      dbk[l] = tf_cell_der(mfb[l], hub[l], hbk[l], qb, Mcb[l]);
      sum[l] += qa;
      sum_b[l] += qb;
    }
  }
  hx_media_outlets(g, n, N, kind, sum, sum_b, pa, fa, Pa, pb, fb, Pb);
  hx_media_faults(env, g, n, fk, fp, fh, Xa, Xb);
}

static void hx_energy_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *ia = LIED_LANE_IN(tf_hx, g, inlet_a.state);
  const double *ib = LIED_LANE_IN(tf_hx, g, inlet_b.state);
  const double *UA_in = LIED_LANE_IN(tf_hx, g, UA_in.y);
  const double *UA = LIED_LANE(tf_hx, g, UA), *Ma = LIED_LANE(tf_hx, g, Mc_a),
               *Mb = LIED_LANE(tf_hx, g, Mc_b);
  const double *pa = LIED_LANE(tf_hx, g, med_a.par), *pb = LIED_LANE(tf_hx, g, med_b.par);
  double *ha = LIED_LANE(tf_hx, g, h_a), *hb = LIED_LANE(tf_hx, g, h_b);
  double *da = LIED_LANE(tf_hx, g, der_a), *db = LIED_LANE(tf_hx, g, der_b);
  double *Q = LIED_LANE(tf_hx, g, Q_flow), *Qb = LIED_LANE(tf_hx, g, Q_b),
         *Ta = LIED_LANE(tf_hx, g, T_a), *Tb = LIED_LANE(tf_hx, g, T_b),
         *Qo = LIED_LANE(tf_hx, g, Q_out.y.y);
  const double *Cw = LIED_LANE(tf_hx, g, C_w);
  double *Tw = LIED_LANE(tf_hx, g, T_w), *dw = LIED_LANE(tf_hx, g, der_w);
  /* the fast path when every copy has liquids, no wall and the same structure */
  const int N0 = TF_LANE_INT(tf_hx, g, N, 0), c0 = TF_LANE_INT(tf_hx, g, kind, 0),
            f0 = TF_LANE_INT(tf_hx, g, UA_from_input, 0);
  int same = 1, liquid = c0 != HX_CROSS; /* cross flow: the media path */
  for (size_t l = 0; l < n; l++) {
    same &= TF_LANE_INT(tf_hx, g, N, l) == N0 && TF_LANE_INT(tf_hx, g, kind, l) == c0 &&
            TF_LANE_INT(tf_hx, g, UA_from_input, l) == f0;
    liquid &= HX_PAR(pa, 0, l) == TF_LIQUID && HX_PAR(pb, 0, l) == TF_LIQUID && Cw[l] == 0;
  }
  if (same && !liquid) {
    hx_energy_media(env, g, n, N0, c0, f0);
    return;
  }
  if (same) {
    double G[LIED_LANES];
    for (size_t l = 0; l < n; l++) G[l] = (f0 ? UA_in[l] : UA[l]) / N0;
    hx_energy_liquid(n, N0, c0, G, Ma, Mb, ia, ib, pa, pb, ha, hb, da, db, Q, Qb, Qo, Ta, Tb);
    return;
  }
  const double *Xa = LIED_LANE_IN(tf_hx, g, inlet_a.X), *Xb = LIED_LANE_IN(tf_hx, g, inlet_b.X);
  for (size_t l = 0; l < n; l++) { /* copies of different shapes: one at a time */
    tf_med ma, mb;
    TF_LANE_MED_AT(tf_hx, g, med_a, l, Xa, &ma);
    TF_LANE_MED_AT(tf_hx, g, med_b, l, Xb, &mb);
    const int from_input = TF_LANE_INT(tf_hx, g, UA_from_input, l);
    hx_energy_eq(env, TF_LANE_WORD(tf_hx, g, Q_flow, l), &ma, &mb, TF_LANE_INT(tf_hx, g, N, l), TF_LANE_INT(tf_hx, g, kind, l),
                 from_input ? UA_in[l] : UA[l], Ma[l], Mb[l], Cw[l], ia + l, ib + l, LIED_LANES,
                 ha + l, hb + l, Tw + l, da + l, db + l, dw + l, LIED_LANES, &Q[l], &Qb[l],
                 &Ta[l], &Tb[l]);
    Qo[l] = Q[l];
  }
}
LIED_LANE_BODY void hx_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict ia = LIED_LANE_IN(tf_hx, g, inlet_a.der);
  const double *restrict ib = LIED_LANE_IN(tf_hx, g, inlet_b.der);
  double *restrict oa = LIED_LANE(tf_hx, g, outlet_a.der.der_m_flow);
  double *restrict ob = LIED_LANE(tf_hx, g, outlet_b.der.der_m_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) oa[l] = ia[l], ob[l] = ib[l];
}
LIED_LANE_FORM(hx_der_lanes)
TF_R_LANES(hx_r_a_lanes, tf_hx, inlet_a, outlet_a, L_a)
TF_R_LANES(hx_r_b_lanes, tf_hx, inlet_b, outlet_b, L_b)

/* Cells per stream. */
static int hx_cells(const tf_hx *x) {
  const int N = x->N < 1 ? 1 : x->N;
  return x->kind == HX_CROSS ? (N > HX_MAXN_CROSS ? HX_MAXN_CROSS * HX_MAXN_CROSS : N * N)
                             : (N > HX_MAXN ? HX_MAXN : N);
}

static int hx_init_common(tf_hx *x, lied_init *ctx, int kind) {
  x->kind = kind;
  if (tf_medium_init(&x->med_a, ctx) || tf_medium_init(&x->med_b, ctx)) return -1;
  if (tf_medium_check_pT(&x->med_a, ctx, x->p0_a, x->T0_a, "stream a: start state (p0_a, T0_a)") ||
      tf_medium_check_pT(&x->med_b, ctx, x->p0_b, x->T0_b, "stream b: start state (p0_b, T0_b)"))
    return -1;
  const double ha = tf_h(&x->med_a, x->p0_a, x->T0_a), hb = tf_h(&x->med_b, x->p0_b, x->T0_b);
  if (isnan(x->T0_w)) x->T0_w = 0.5 * (x->T0_a + x->T0_b);
  const int n = hx_cells(x);
  for (int i = 0; i < n; i++) x->h_a[i] = ha, x->h_b[i] = hb, x->T_w[i] = x->T0_w;
  if (tf_cell_mass_init(&x->med_a, ctx, x->p0_a, x->T0_a, x->V_a / n, "V_a / cells", &x->Mc_a) ||
      tf_cell_mass_init(&x->med_b, ctx, x->p0_b, x->T0_b, x->V_b / n, "V_b / cells", &x->Mc_b))
    return -1;
  return 0;
}
static int counter_init(void *self, lied_init *ctx) { return hx_init_common(self, ctx, HX_COUNTER); }
static int parallel_init(void *self, lied_init *ctx) { return hx_init_common(self, ctx, HX_PARALLEL); }
static int cross_init(void *self, lied_init *ctx) { return hx_init_common(self, ctx, HX_CROSS); }

/* The flow block of side b (0: a, 1: b) with its lane form. */
static void hx_meta_flow(lied_meta *m, tf_hx *x, int b, int N) {
  tf_in *in = b ? &x->inlet_b : &x->inlet_a;
  tf_out *out = b ? &x->outlet_b : &x->outlet_a;
  const tf_med *med = b ? &x->med_b : &x->med_a;
  const double *h = b ? x->h_b : x->h_a;
  const void *ins[HX_MAXN_CROSS + 3];
  int k = 0;
  ins[k++] = &in->state;
  if (tf_nX(med)) ins[k++] = &in->X;
  if (x->kind == HX_CROSS)
    for (int r = 0, n = x->N; r < n; r++) ins[k++] = &h[b ? (n - 1) * n + r : r * n + n - 1];
  else
    ins[k++] = &h[N - 1];
  ins[k] = NULL;
  lied_meta_block(m, b ? "flow_b" : "flow_a", b ? hx_flow_b_b : hx_flow_a_b, 0, ins,
                  LIED_SIGS(&out->state.m_flow, &out->state.h, TF_X(med, *out)));
  lied_meta_lanes(m, b ? hx_flow_b_lanes : hx_flow_a_lanes);
  tf_meta_writes_m(m, out);
  tf_meta_reads(m, in, TF_M);
}

/* The exchanger's ports, states (N cells per stream, the wall's when it
 * has a heat capacity) and variables. */
static void hx_meta_vars(lied_meta *m, tf_hx *x, int N) {
  tf_meta_in(m, "inlet_a", 0, &x->inlet_a, &x->med_a);
  tf_meta_out(m, "outlet_a", 0, &x->outlet_a, &x->med_a);
  tf_meta_in(m, "inlet_b", 0, &x->inlet_b, &x->med_b);
  tf_meta_out(m, "outlet_b", 0, &x->outlet_b, &x->med_b);
  if (x->UA_from_input) lied_meta_real_in(m, "UA_in", 0, &x->UA_in);
  lied_meta_real_out(m, "Q_out", 0, &x->Q_out);
  char name[32];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "h_a[%d]", i + 1);
    lied_meta_state(m, name, "J/kg", &x->h_a[i], &x->der_a[i]);
  }
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "h_b[%d]", i + 1);
    lied_meta_state(m, name, "J/kg", &x->h_b[i], &x->der_b[i]);
  }
  lied_meta_var(m, "Q_flow", "W", &x->Q_flow);
  lied_meta_var(m, "T_a", "K", &x->T_a);
  lied_meta_var(m, "T_b", "K", &x->T_b);
  lied_meta_var(m, "Q_b", "W", &x->Q_b);
  lied_meta_var(m, "M_a", "kg", &x->Mc_a);
  lied_meta_var(m, "M_b", "kg", &x->Mc_b);
  if (x->C_w > 0)
    for (int i = 0; i < N; i++) {
      snprintf(name, sizeof name, "T_w[%d]", i + 1);
      lied_meta_state(m, name, "K", &x->T_w[i], &x->der_w[i]);
    }
}

/* The energy block: it reads every cell and writes every derivative; of the
 * inlets m_flow, h, and p where the medium's T depends on it. */
static void hx_meta_energy(lied_meta *m, tf_hx *x, int N) {
  const void *in[3 * HX_MAXN + 8], *out[3 * HX_MAXN + 8];
  int k = 0, o = 0;
  const int va = TF_M | tf_T_reads(&x->med_a), vb = TF_M | tf_T_reads(&x->med_b);
  k = tf_list_state(in, k, &x->inlet_a, va);
  k = tf_list_state(in, k, &x->inlet_b, vb);
  if (tf_nX(&x->med_a)) in[k++] = &x->inlet_a.X;
  if (tf_nX(&x->med_b)) in[k++] = &x->inlet_b.X;
  if (x->UA_from_input) in[k++] = &x->UA_in.y;
  for (int i = 0; i < N; i++) in[k++] = &x->h_a[i], in[k++] = &x->h_b[i];
  if (x->C_w > 0)
    for (int i = 0; i < N; i++) in[k++] = &x->T_w[i];
  in[k] = NULL;
  for (int i = 0; i < N; i++) out[o++] = &x->der_a[i], out[o++] = &x->der_b[i];
  if (x->C_w > 0)
    for (int i = 0; i < N; i++) out[o++] = &x->der_w[i];
  out[o++] = &x->Q_flow, out[o++] = &x->Q_b, out[o++] = &x->T_a, out[o++] = &x->T_b;
  out[o++] = &x->Q_out.y;
  out[o] = NULL;
  lied_meta_block(m, "energy", hx_energy_b, 0, in, out);
  lied_meta_lanes(m, hx_energy_lanes);
  tf_meta_reads(m, &x->inlet_a, va);
  tf_meta_reads(m, &x->inlet_b, vb);
}

static void hx_meta(lied_meta *m, void *self) {
  tf_hx *x = self;
  const int N = hx_cells(x); /* cells per stream */
  hx_meta_vars(m, x, N);
  hx_meta_energy(m, x, N);
  /* each side's outlet: its inlet's p; its inlet's m_flow and X with its
   * last cells (cross flow: the last elements of the rows, columns) */
  tf_meta_p_pass(m, "pressure_a", hx_pressure_a_b, hx_pressure_a_b_lanes, &x->inlet_a,
                 &x->outlet_a);
  hx_meta_flow(m, x, 0, N);
  tf_meta_p_pass(m, "pressure_b", hx_pressure_b_b, hx_pressure_b_b_lanes, &x->inlet_b,
                 &x->outlet_b);
  hx_meta_flow(m, x, 1, N);
  lied_meta_block(m, "der", hx_der_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->inlet_a.der, &x->inlet_b.der),
                  LIED_SIGS(&x->outlet_a.der, &x->outlet_b.der));
  lied_meta_lanes(m, hx_der_lanes);
  lied_meta_block(m, "r_a", hx_r_a_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->outlet_a.r, &x->inlet_a.der), LIED_SIGS(&x->inlet_a.r));
  lied_meta_lanes(m, hx_r_a_lanes);
  lied_meta_block(m, "r_b", hx_r_b_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->outlet_b.r, &x->inlet_b.der), LIED_SIGS(&x->inlet_b.r));
  lied_meta_lanes(m, hx_r_b_lanes);
  lied_meta_block(m, "kinks", hx_kinks_b, 0, LIED_SIGS(&x->inlet_a.state, &x->inlet_b.state),
                  LIED_SIGS(&x->z_a, &x->z_b));
  tf_meta_reads(m, &x->inlet_a, TF_M);
  tf_meta_reads(m, &x->inlet_b, TF_M);
  tf_meta_flow_kink(m, "z_a", &x->z_a);
  tf_meta_flow_kink(m, "z_b", &x->z_b);
}

/* The parameters every exchanger has, after N and UA. */
#define HX_COMMON_PARAMS \
    {"UA_from_input", offsetof(tf_hx, UA_from_input), 0, "1", \
     "1: conductance from the signal input UA_in [W/K]", 0, 1, LIED_PARAM_INT, 0}, \
    {"V_a", offsetof(tf_hx, V_a), 1e-3, "m3", "fluid volume of stream a", 0, TF_NOMAX, \
     LIED_PARAM_MIN_OPEN, 0}, \
    {"V_b", offsetof(tf_hx, V_b), 1e-3, "m3", "fluid volume of stream b", 0, TF_NOMAX, \
     LIED_PARAM_MIN_OPEN, 0}, \
    {"T0_a", offsetof(tf_hx, T0_a), 293.15, "K", "start temperature of stream a's cells", 0, \
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0}, \
    {"T0_b", offsetof(tf_hx, T0_b), 293.15, "K", "start temperature of stream b's cells", 0, \
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0}, \
    {"p0_a", offsetof(tf_hx, p0_a), 1e5, "Pa", "pressure of stream a's start state", 0, \
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0}, \
    {"p0_b", offsetof(tf_hx, p0_b), 1e5, "Pa", "pressure of stream b's start state", 0, \
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0}, \
    {"L_a", offsetof(tf_hx, L_a), 0, "1/m", "inertance of stream a", 0, TF_NOMAX, 0, 0}, \
    {"L_b", offsetof(tf_hx, L_b), 0, "1/m", "inertance of stream b", 0, TF_NOMAX, 0, 0}, \
    {"C_w", offsetof(tf_hx, C_w), 0, "J/K", "heat capacity of the wall (0: none), split evenly", \
     0, TF_NOMAX, 0, 0}, \
    {"T0_w", offsetof(tf_hx, T0_w), NAN, "K", \
     "start temperature of the wall (default the mean of T0_a and T0_b)", 0, TF_NOMAX, \
     LIED_PARAM_MIN_OPEN, 0}, \
    {"medium_a", offsetof(tf_hx, med_a.par), 0, "1", "medium of stream a (default tf.water)", \
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}, \
    {"medium_b", offsetof(tf_hx, med_b.par), 0, "1", "medium of stream b (default tf.water)", \
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN},

static const lied_param hx_params[] = {
    {"N", offsetof(tf_hx, N), 10, "1", "number of cells per stream (1..500)", 1, HX_MAXN,
     LIED_PARAM_INT, 0},
    {"UA", offsetof(tf_hx, UA), 1000, "W/K", "total heat transfer conductance (unless "
     "UA_from_input), split evenly over the cells", 0, TF_NOMAX, 0, 0},
    HX_COMMON_PARAMS
};
static const lied_param cross_params[] = {
    {"N", offsetof(tf_hx, N), 5, "1",
     "elements per side of the N x N grid (1..22): N*N cells per stream", 1, HX_MAXN_CROSS,
     LIED_PARAM_INT, 0},
    {"UA", offsetof(tf_hx, UA), 1000, "W/K", "total heat transfer conductance (unless "
     "UA_from_input), split evenly over the N*N elements", 0, TF_NOMAX, 0, 0},
    HX_COMMON_PARAMS
};
const lied_class tf_cross_hx_class = {
    "CrossFlowHX", "thermofluid",
    "cross-flow heat exchanger, both streams unmixed: an N x N grid of elements, stream a along "
    "the rows, b along the columns, conductance UA/N^2 in each element; outlets mixed",
    sizeof(tf_hx), cross_params, sizeof cross_params / sizeof *cross_params, cross_init,
    hx_meta};
const lied_class tf_counter_hx_class = {
    "CounterFlowHX", "thermofluid",
    "counter-flow heat exchanger between streams a and b: N cells per stream, conductance "
    "UA/N between cell i of a and cell N+1-i of b",
    sizeof(tf_hx), hx_params, sizeof hx_params / sizeof *hx_params, counter_init, hx_meta};
const lied_class tf_parallel_hx_class = {
    "ParallelFlowHX", "thermofluid",
    "parallel-flow heat exchanger between streams a and b: N cells per stream, conductance "
    "UA/N between cell i of a and cell i of b",
    sizeof(tf_hx), hx_params, sizeof hx_params / sizeof *hx_params, parallel_init, hx_meta};
