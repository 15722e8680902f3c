/* rhx.c - TwoPhaseCounterFlowHX and TwoPhaseCrossFlowHX: a refrigerant
 * (stream a: a medium with two phases and props_ph, tf.R134a ...) in N cells
 * against a secondary stream b (air, water, glycol: any medium) through a
 * wall of heat capacity C_w (evaporators, condensers, gas coolers).
 *
 * Refrigerant side: N cells of volume V_c = V_a/N at one pressure p, each
 * with its own mass M_i and internal energy U_i (states), so the charge
 * moves between the cells and the exchangers of a circuit as the phases
 * change. h_i = (U_i + p V_c)/M_i. Flows m_0 (the inlet's), m_1 .. m_N-1
 * between the cells and m_N (the outlet's, a state with inertance L, as a
 * Volume's):
 *   der(M_i) = m_i-1 - m_i
 *   der(U_i) = m_i-1 hf_i-1 - m_i h_i + q_i
 * hf_0 = the inlet's h (its own h_1 when m_0 < 0, as a Volume), hf_i = h_i
 * inside (faces carry the cell upstream in the nominal direction). The
 * inner flows and der(p) follow from the cells keeping their volume: with
 * a_i = V_c drho/dp|h, b_i = V_c drho/dh|p at (p, h_i),
 *   der(M_i) = a_i der(p) + b_i der(h_i) + (V_c rho(p, h_i) - M_i)/tau_p
 *   M_i der(h_i) = m_i-1 (hf_i-1 - h_i) + q_i + V_c der(p)
 * a sweep from the inlet gives each m_i as alpha_i + beta_i der(p); m_N
 * given fixes der(p). The last term relaxes the tables' density of a cell
 * to its mass (drift of the integration) in tau_p. Sums of M_i and U_i
 * change only by the flows at the ports and the heat: the charge is kept
 * to rounding whatever the solver's error.
 *
 * Heat: q_i = G_i (T_w,i - T_i) into cell i, G_i = alpha(x_i) A_a/N with
 * x_i = (h_i - h')/(h'' - h') at p (unclipped): alpha_liq below the dome,
 * alpha_2ph inside, alpha_vap above (and above the critical pressure),
 * blended by a smoothstep over x in [-dx, dx] and [1-dx, 1+dx].
 *
 * Secondary side: quasi-steady cells (its residence time, milliseconds for
 * air, is far below the wall's and the refrigerant's time constants): cell
 * i's stream of capacity rate C = |m| cp (cp at the inlet) and conductance
 * G_b = UA_b/N takes from a wall at T_w,i
 *   q_b,i = C (1 - exp(-G_b/C)) (T_in,i - T_w,i)
 * (the exact effectiveness of a stream along a wall of one temperature) and
 * leaves with h_in,i - q_b,i/|m|. Counter flow: stream b passes the cells
 * N .. 1 in series (the next cell's inlet temperature T_in,i - q_b,i/C, with
 * the inlet's cp as the effectiveness: no inversion of the medium's h per
 * cell); cross flow: each cell meets 1/N of stream b at its inlet state, the
 * outlet mixes them. Stream b's outlet temperature is T(p, h_out). Wall: (C_w/N) der(T_w,i) = q_b,i - q_i;
 * without capacity (C_w = 0) T_w,i is the series point of the two
 * conductances.
 *
 * Kinks (docs/events.md), written by a block of the output part: the
 * refrigerant's inflow reversing (its upwind enthalpy: z_in), stream b
 * reversing (|m| in its capacity rate: z_b), and the cells crossing the
 * dome's edges (T(p, h) and the density's derivatives switch there):
 * x (x - 1) of each cell's quality, zero at both edges; with more cells
 * than RHX_KINK_CELLS, cell i in the product of group i mod RHX_KINK_CELLS
 * (neighbours, which cross one after the other as a front moves along the
 * exchanger, in different groups), so that the 16 zero functions of a
 * component hold them. Above the critical pressure there is no dome (NaN:
 * never crosses). */
#include <stdio.h>
#include <string.h>
#include "lib/thermofluid/deps.h"
#include "lib/thermofluid/thermofluid.h"
#include "lib/thermofluid/rhx_laws.h"

#define RHX_MAXN 50
#define RHX_KINK_CELLS 14 /* zero functions of the cells (LIED_MAX_ZEROS less z_in, z_b) */
enum { RHX_COUNTER = 0, RHX_CROSS = 1 };

typedef struct tf_rhx {
  tf_in inlet_a;
  tf_out outlet_a;
  tf_in inlet_b;
  tf_out outlet_b;
  lied_real_out Q_out;
  tf_med med_a, med_b;
  double V_a, A_a, alpha_liq, alpha_2ph, alpha_vap, dx, UA_b, C_w, T0_w, p0_a, T0_a, x0_a;
  double dx_edge; /* the compressibility's blend at the liquid edge (rhx_edge) */
  double tau_p, L, L_in, L_b;
  int N, kind;
  double p, der_p, m_flow, der_m_flow; /* states: pressure, outlet flow */
  double dm_flow, res;                 /* tearing pair of the outlet flow */
  double Q_flow, Q_b, T_b, M_tot, U_tot, E_w; /* heat into a, out of b; b's outlet T; sums */
  double M[RHX_MAXN], der_M[RHX_MAXN], U[RHX_MAXN], der_U[RHX_MAXN];
  double T_w[RHX_MAXN], der_w[RHX_MAXN];
  double h[RHX_MAXN], T[RHX_MAXN], x[RHX_MAXN], q[RHX_MAXN]; /* cells: h, T, quality, heat */
  double rho[RHX_MAXN], drp[RHX_MAXN], drh[RHX_MAXN]; /* cells: rho and its derivatives */
  double z_in, z_b, z_dome[RHX_KINK_CELLS];            /* kink functions */
} tf_rhx;

/* Report a cell whose (p, h) left the medium's range (cold path). */
static void rhx_fault_cell(const lied_env *env, const void *self, const tf_med *m, int i,
                           double M, double p, double h) {
  char what[48];
  if (!(M > 0)) {
    lied_block_fault(env, self, "refrigerant cell %d: mass %g kg is not positive", i + 1, M);
    return;
  }
  snprintf(what, sizeof what, "refrigerant cell %d", i + 1);
  tf_fault_ph(env, self, m, p, h, what);
}

/* The parameters and state of one copy; arrays element i at [i * s]. */
typedef struct rhx_copy {
  const tf_med *ma, *mb;
  const double *ia, *ib; /* inlet states (variable j at [j * is]) */
  size_t is, s;
  int N, kind;
  double V_a, A_a, al, a2, av, dx, UA_b, C_w, tau, p, m_out;
  const double *M, *U, *Tw, *T, *rho, *drp, *drh;
  double *h, *x, *q, *dM, *dU, *dw;
  double dxe; /* dx_edge */
} rhx_copy;
typedef struct rhx_out {
  double der_p, Q, Qb, Tb, hb, Mt, Ut, Ew;
} rhx_out;

/* Everything but the cells' properties (T, rho, drho/dp, drho/dh, already
 * computed): heat, wall, the sweep for the flows, the derivatives. The
 * block and the lane form call it copy by copy: the same bits.
 * Long: one pass over the cells (heat, wall, flow sweep, derivatives) that the block and its lane form share. */
static inline void rhx_eval(const lied_env *env, const void *self, const rhx_copy *c,
                            rhx_out *o) {
  const size_t s = c->s;
  const int N = c->N;
  const double Vc = c->V_a / N, m0 = c->ia[0], hin = c->ia[2 * c->is];
  const double mb = c->ib[0], pb = c->ib[c->is], hbin = c->ib[2 * c->is];
  /* saturation at p: above the critical pressure every cell is "vapour" */
  tf_sat st;
  const int sat = c->ma->fn->sat_p(c->ma->par + 1, c->p, &st) == 0;
  double Mt = 0, Ut = 0, Ew = 0;
  for (int i = 0; i < N; i++) {
    c->x[i * s] = sat ? (c->h[i * s] - st.hL) / (st.hV - st.hL) : 1.0;
    Mt += c->M[i * s], Ut += c->U[i * s];
  }
  /* secondary side and wall */
  const double cp = c->mb->fn->cp(c->mb->par + 1, pb, hbin);
  const double Tbin = tf_T(c->mb, pb, hbin);
  TF_GUARD_PH(env, self, c->mb, Tbin + cp, pb, hbin, "stream b inlet");
  const double mc = c->kind == RHX_CROSS ? fabs(mb) / N : fabs(mb);
  const double Ge = rhx_eff(mc * cp, c->UA_b / N), Cwc = c->C_w / N;
  double hb = hbin, Tin = Tbin, Qb = 0, Q = 0;
  for (int k = 0; k < N; k++) {
    const int i = c->kind == RHX_CROSS ? k : N - 1 - k; /* counter: b meets cell N first */
    const double G = rhx_alpha(c->x[i * s], c->dx, c->al, c->a2, c->av) * c->A_a / N;
    double Tw, qb, qa;
    if (Cwc > 0) {
      Tw = c->Tw[i * s];
      qb = Ge * (Tin - Tw);
      qa = G * (Tw - c->T[i * s]);
      c->dw[i * s] = (qb - qa) / Cwc;
      Ew += Cwc * Tw;
    } else {
      Tw = G + Ge > 0 ? (G * c->T[i * s] + Ge * Tin) / (G + Ge) : c->T[i * s];
      qb = Ge * (Tin - Tw);
      qa = qb;
    }
    c->q[i * s] = qa;
    Q += qa, Qb += qb;
    if (c->kind != RHX_CROSS && mc * cp > 0) hb -= qb / mc, Tin -= qb / (mc * cp);
  }
  if (c->kind == RHX_CROSS && mb != 0) hb = hbin - Qb / fabs(mb);
  /* the sweep: m_i = alpha + beta der(p); the cells' coefficients in dM, dU */
  double al = m0, be = 0;
  rhx_liquid liq = {0};
  for (int i = 0; i < N; i++) {
    const double hi = c->h[i * s], Mi = c->M[i * s];
    const double hf = i ? c->h[(i - 1) * s] : m0 >= 0 ? hin : hi;
    double drp = c->drp[i * s], drh = c->drh[i * s];
    if (sat) rhx_edge(c->ma->fn, c->ma->par + 1, c->p, &st, &liq, c->x[i * s], c->dxe, &drp, &drh);
    const double a = Vc * drp, b = Vc * drh;
    const double r = (Vc * c->rho[i * s] - Mi) / c->tau;
    c->dM[i * s] = al, c->dU[i * s] = be; /* m_i-1's coefficients */
    const double d0 = (al * (hf - hi) + c->q[i * s]) / Mi, d1 = (be * (hf - hi) + Vc) / Mi;
    al = al - b * d0 - r;
    be = be - a - b * d1;
  }
  const double P = (c->m_out - al) / be;
  /* back: the flows, the derivatives of M and U */
  for (int i = 0; i < N; i++) {
    const double hi = c->h[i * s];
    const double hf = i ? c->h[(i - 1) * s] : m0 >= 0 ? hin : hi;
    const double mi1 = i ? c->dM[i * s] + c->dU[i * s] * P : m0;
    const double mi = i < N - 1 ? c->dM[(i + 1) * s] + c->dU[(i + 1) * s] * P : c->m_out;
    c->dM[i * s] = mi1 - mi;
    c->dU[i * s] = mi1 * hf - mi * hi + c->q[i * s];
  }
  *o = (rhx_out){P, Q, Qb, tf_T(c->mb, pb, hb), hb, Mt, Ut, Ew};
}

/* ---- blocks ------------------------------------------------------------------ */

static void rhx_copy_of(tf_rhx *x, const tf_med *mb, rhx_copy *c) {
  *c = (rhx_copy){&x->med_a, mb, &x->inlet_a.state->m_flow, &x->inlet_b.state->m_flow, 1, 1,
                  x->N, x->kind, x->V_a, x->A_a, x->alpha_liq, x->alpha_2ph, x->alpha_vap,
                  x->dx, x->UA_b, x->C_w, x->tau_p, x->p, x->m_flow, x->M, x->U, x->T_w, x->T,
                  x->rho, x->drp, x->drh, x->h, x->x, x->q, x->der_M, x->der_U, x->der_w,
                  x->dx_edge};
}
static void rhx_put(tf_rhx *x, const rhx_out *o) {
  const tf_state *b = x->inlet_b.state;
  x->der_p = o->der_p, x->Q_flow = o->Q, x->Q_b = o->Qb, x->T_b = o->Tb;
  x->M_tot = o->Mt, x->U_tot = o->Ut, x->E_w = o->Ew, x->Q_out.y.y = o->Q;
  x->outlet_b.state.m_flow = b->m_flow;
  x->outlet_b.state.h = o->hb;
  tf_pass_X(&x->med_b, &x->inlet_b, &x->outlet_b);
}

static void rhx_energy(const lied_env *env, tf_rhx *x) {
  const tf_medium *f = x->med_a.fn;
  const double Vc = x->V_a / x->N;
  for (int i = 0; i < x->N; i++) {
    tf_props pr;
    x->h[i] = rhx_h(x->U[i], x->M[i], x->p, Vc);
    (void)f->props_ph(x->med_a.par + 1, x->p, x->h[i], 1, &pr);
    x->T[i] = pr.T, x->rho[i] = pr.rho, x->drp[i] = pr.drho_dp, x->drh[i] = pr.drho_dh;
    if (!isfinite(pr.T + pr.rho + pr.drho_dp + pr.drho_dh))
      rhx_fault_cell(env, x, &x->med_a, i, x->M[i], x->p, x->h[i]);
  }
  tf_med mxb;
  rhx_copy c;
  rhx_copy_of(x, tf_med_at(&x->med_b, x->inlet_b.X, &mxb), &c);
  rhx_out o;
  rhx_eval(env, x, &c, &o);
  rhx_put(x, &o);
}
static void rhx_state(const lied_env *env, tf_rhx *x) {
  (void)env;
  const int n = x->N - 1;
  x->outlet_a.state = (tf_state){x->m_flow, x->p, rhx_h(x->U[n], x->M[n], x->p, x->V_a / x->N)};
}
static void rhx_der(const lied_env *env, tf_rhx *x) {
  (void)env;
  x->outlet_a.der.der_m_flow = x->dm_flow;
  x->der_m_flow = x->dm_flow;
}
static void rhx_res(const lied_env *env, tf_rhx *x) {
  (void)env;
  x->res = x->outlet_a.r->r + x->L * x->dm_flow;
}
static void rhx_r_in(const lied_env *env, tf_rhx *x) {
  (void)env;
  x->inlet_a.r.r = x->p - x->inlet_a.state->p + x->L_in * x->inlet_a.der->der_m_flow;
}
static void rhx_der_b(const lied_env *env, tf_rhx *x) {
  (void)env;
  tf_pass_der(&x->inlet_b, &x->outlet_b);
}
static void rhx_r_b(const lied_env *env, tf_rhx *x) {
  (void)env;
  tf_pass_r(&x->inlet_b, &x->outlet_b, x->L_b);
}
/* The kink functions (nothing reads them). */
static int rhx_kink_groups(int N) { return N < RHX_KINK_CELLS ? N : RHX_KINK_CELLS; }
static void rhx_kinks(const lied_env *env, tf_rhx *x) {
  (void)env;
  const int G = rhx_kink_groups(x->N);
  tf_sat st;
  const int sat = x->med_a.fn->sat_p(x->med_a.par + 1, x->p, &st) == 0;
  x->z_in = x->inlet_a.state->m_flow;
  x->z_b = x->inlet_b.state->m_flow;
  for (int k = 0; k < G; k++) x->z_dome[k] = sat ? 1 : NAN;
  for (int i = 0; sat && i < x->N; i++) {
    const double q = (x->h[i] - st.hL) / (st.hV - st.hL);
    x->z_dome[i % G] *= q * (q - 1);
  }
}
LIED_BLOCK(rhx_kinks_b, tf_rhx, rhx_kinks)
LIED_BLOCK(rhx_energy_b, tf_rhx, rhx_energy)
LIED_BLOCK(rhx_state_b, tf_rhx, rhx_state)
LIED_BLOCK(rhx_der_bk, tf_rhx, rhx_der)
LIED_BLOCK(rhx_res_b, tf_rhx, rhx_res)
LIED_BLOCK(rhx_r_in_b, tf_rhx, rhx_r_in)
LIED_BLOCK(rhx_der_b_b, tf_rhx, rhx_der_b)
LIED_BLOCK(rhx_r_b_b, tf_rhx, rhx_r_b)

/* ---- lane forms ---------------------------------------------------------------
 * The cells' properties cell by cell over the copies (the medium's
 * props_ph_lanes: the bits of props_ph), then each copy's rhx_eval. A copy's
 * first cell out of range is reported before what its rhx_eval reports, as
 * the block does. Copies of different N, kind or refrigerant go copy by copy. */
static void rhx_energy_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const int N0 = TF_LANE_INT(tf_rhx, g, N, 0);
  const tf_medium *const *fa = TF_LANE_FNS(tf_rhx, g, med_a);
  const double *M = LIED_LANE(tf_rhx, g, M), *U = LIED_LANE(tf_rhx, g, U);
  const double *p = LIED_LANE(tf_rhx, g, p), *Va = LIED_LANE(tf_rhx, g, V_a);
  double *h = LIED_LANE(tf_rhx, g, h), *T = LIED_LANE(tf_rhx, g, T);
  double *rho = LIED_LANE(tf_rhx, g, rho), *drp = LIED_LANE(tf_rhx, g, drp),
         *drh = LIED_LANE(tf_rhx, g, drh);
  int same = 1, fk[LIED_LANES];
  for (size_t l = 0; l < n; l++) {
    same &= TF_LANE_INT(tf_rhx, g, N, l) == N0 && fa[l] == fa[0];
    fk[l] = -1;
  }
  for (int i = 0; i < (same ? N0 : 0); i++) {
    const size_t k = (size_t)i * LIED_LANES;
    double Vc[LIED_LANES];
    tf_props pr[LIED_LANES];
    for (size_t l = 0; l < n; l++) {
      Vc[l] = Va[l] / N0;
      h[k + l] = rhx_h(U[k + l], M[k + l], p[l], Vc[l]);
    }
    fa[0]->props_ph_lanes(LIED_LANE(tf_rhx, g, med_a.par) + LIED_LANES, LIED_LANES, n, p, h + k,
                          1, pr);
    for (size_t l = 0; l < n; l++) {
      T[k + l] = pr[l].T, rho[k + l] = pr[l].rho, drp[k + l] = pr[l].drho_dp,
      drh[k + l] = pr[l].drho_dh;
      if (fk[l] < 0 && !isfinite(pr[l].T + pr[l].rho + pr[l].drho_dp + pr[l].drho_dh)) fk[l] = i;
    }
  }
  const double *Xb = LIED_LANE_IN(tf_rhx, g, inlet_b.X);
  const double *ia = LIED_LANE_IN(tf_rhx, g, inlet_a.state);
  const double *ib = LIED_LANE_IN(tf_rhx, g, inlet_b.state);
  double *ob = LIED_LANE(tf_rhx, g, outlet_b.state);
  for (size_t l = 0; l < n; l++) {
    const void *self = TF_LANE_WORD(tf_rhx, g, Q_flow, l);
    tf_med ma, mb;
    TF_LANE_MED(tf_rhx, g, med_a, l, &ma);
    TF_LANE_MED_AT(tf_rhx, g, med_b, l, Xb, &mb);
    const int Nl = TF_LANE_INT(tf_rhx, g, N, l);
    const size_t W = LIED_LANES;
    if (!same) /* one copy at a time, as the block */
      for (int i = 0; i < Nl; i++) {
        tf_props pr;
        const size_t k = (size_t)i * W + l;
        h[k] = rhx_h(U[k], M[k], p[l], Va[l] / Nl);
        (void)ma.fn->props_ph(ma.par + 1, p[l], h[k], 1, &pr);
        T[k] = pr.T, rho[k] = pr.rho, drp[k] = pr.drho_dp, drh[k] = pr.drho_dh;
        if (fk[l] < 0 && !isfinite(pr.T + pr.rho + pr.drho_dp + pr.drho_dh)) fk[l] = i;
      }
    if (fk[l] >= 0) {
      const size_t k = (size_t)fk[l] * W + l;
      rhx_fault_cell(env, self, &ma, fk[l], M[k], p[l], h[k]);
    }
    rhx_copy c = {&ma, &mb, ia + l, ib + l, W, W, Nl, TF_LANE_INT(tf_rhx, g, kind, l), Va[l],
                  LIED_LANE(tf_rhx, g, A_a)[l], LIED_LANE(tf_rhx, g, alpha_liq)[l],
                  LIED_LANE(tf_rhx, g, alpha_2ph)[l], LIED_LANE(tf_rhx, g, alpha_vap)[l],
                  LIED_LANE(tf_rhx, g, dx)[l], LIED_LANE(tf_rhx, g, UA_b)[l],
                  LIED_LANE(tf_rhx, g, C_w)[l], LIED_LANE(tf_rhx, g, tau_p)[l], p[l],
                  LIED_LANE(tf_rhx, g, m_flow)[l], M + l, U + l, LIED_LANE(tf_rhx, g, T_w) + l,
                  T + l, rho + l, drp + l, drh + l, h + l, LIED_LANE(tf_rhx, g, x) + l,
                  LIED_LANE(tf_rhx, g, q) + l, LIED_LANE(tf_rhx, g, der_M) + l,
                  LIED_LANE(tf_rhx, g, der_U) + l, LIED_LANE(tf_rhx, g, der_w) + l,
                  LIED_LANE(tf_rhx, g, dx_edge)[l]};
    rhx_out o;
    rhx_eval(env, self, &c, &o);
    LIED_LANE(tf_rhx, g, der_p)[l] = o.der_p, LIED_LANE(tf_rhx, g, Q_flow)[l] = o.Q;
    LIED_LANE(tf_rhx, g, Q_b)[l] = o.Qb, LIED_LANE(tf_rhx, g, T_b)[l] = o.Tb;
    LIED_LANE(tf_rhx, g, M_tot)[l] = o.Mt, LIED_LANE(tf_rhx, g, U_tot)[l] = o.Ut;
    LIED_LANE(tf_rhx, g, E_w)[l] = o.Ew, LIED_LANE(tf_rhx, g, Q_out.y.y)[l] = o.Q;
    TF_V(ob, 0, l) = TF_V(ib, 0, l), TF_V(ob, 2, l) = o.hb;
  }
  tf_pass_X_lanes(n, Xb, LIED_LANE(tf_rhx, g, outlet_b.X));
}
static void rhx_state_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *M = LIED_LANE(tf_rhx, g, M), *U = LIED_LANE(tf_rhx, g, U);
  const double *p = LIED_LANE(tf_rhx, g, p), *Va = LIED_LANE(tf_rhx, g, V_a),
               *mf = LIED_LANE(tf_rhx, g, m_flow);
  double *o = LIED_LANE(tf_rhx, g, outlet_a.state);
  for (size_t l = 0; l < n; l++) {
    const int Nl = TF_LANE_INT(tf_rhx, g, N, l);
    const size_t k = (size_t)(Nl - 1) * LIED_LANES + l;
    TF_V(o, 0, l) = mf[l], TF_V(o, 1, l) = p[l], TF_V(o, 2, l) = rhx_h(U[k], M[k], p[l], Va[l] / Nl);
  }
}
LIED_LANE_BODY void rhx_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict d = LIED_LANE(tf_rhx, g, dm_flow);
  double *restrict o = LIED_LANE(tf_rhx, g, outlet_a.der.der_m_flow);
  double *restrict dd = LIED_LANE(tf_rhx, g, der_m_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = d[l], dd[l] = d[l];
}
LIED_LANE_FORM(rhx_der_lanes)
LIED_LANE_BODY void rhx_res_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict r = LIED_LANE_IN(tf_rhx, g, outlet_a.r);
  const double *restrict L = LIED_LANE(tf_rhx, g, L), *restrict d = LIED_LANE(tf_rhx, g, dm_flow);
  double *restrict o = LIED_LANE(tf_rhx, g, res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = r[l] + L[l] * d[l];
}
LIED_LANE_FORM(rhx_res_lanes)
LIED_LANE_BODY void rhx_r_in_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict i = LIED_LANE_IN(tf_rhx, g, inlet_a.state);
  const double *restrict d = LIED_LANE_IN(tf_rhx, g, inlet_a.der);
  const double *restrict p = LIED_LANE(tf_rhx, g, p), *restrict L = LIED_LANE(tf_rhx, g, L_in);
  double *restrict o = LIED_LANE(tf_rhx, g, inlet_a.r.r);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = p[l] - TF_V(i, 1, l) + L[l] * d[l];
}
LIED_LANE_FORM(rhx_r_in_lanes)
/* side b's outlet: its inlet's p (a block of its own) */
TF_P_PASS(rhx_pressure_b, tf_rhx, inlet_b, outlet_b)
TF_DER_LANES(rhx_der_b_lanes, tf_rhx, inlet_b, outlet_b)
TF_R_LANES(rhx_r_b_lanes, tf_rhx, inlet_b, outlet_b, L_b)

/* ---- init and meta --------------------------------------------------------------- */

/* The refrigerant side's start (both exchangers): the default refrigerant
 * (R134a) for a medium_a left empty, both media set up, the checks of the
 * refrigerant and the start state, every cell at (p0_a, h0) of mass rho V_a/N,
 * the wall at T0_w (default the refrigerant's start temperature). */
int tf_rhx_start(lied_init *ctx, tf_med *med_a, tf_med *med_b, const tf_rhx_start_in *s,
                 double *T0_w, double *M, double *U, double *T_w) {
  int zero = 1;
  for (int k = 0; k < TF_MEDIUM_LEN; k++) zero &= med_a->par[k] == 0;
  if (zero) { /* the default refrigerant */
    const tf_medium *r = tf_medium_find("R134a");
    if (r) med_a->par[0] = tf_medium_kind(r);
  }
  if (tf_medium_init(med_a, ctx) || tf_medium_init(med_b, ctx)) return -1;
  const tf_medium *f = med_a->fn;
  if (!f->props_ph || !f->props_ph_lanes || !f->sat_p || tf_nX(med_a)) {
    lied_init_error(ctx, "medium_a: the refrigerant side needs a medium with two phases and "
                    "their properties (tf.R134a, tf.R1234yf, tf.R290, tf.R744), not %s", f->name);
    return -1;
  }
  double h0;
  const double *c = med_a->par + 1;
  if (s->x0_a >= 0) {
    tf_sat st;
    if (f->sat_p(c, s->p0_a, &st)) {
      lied_init_error(ctx, "x0_a = %g: p0_a = %g Pa has no two-phase states in %s", s->x0_a,
                      s->p0_a, f->name);
      return -1;
    }
    h0 = st.hL + s->x0_a * (st.hV - st.hL);
  } else {
    if (tf_medium_check_pT(med_a, ctx, s->p0_a, s->T0_a, "start state (p0_a, T0_a)")) return -1;
    h0 = tf_h(med_a, s->p0_a, s->T0_a);
  }
  tf_props pr;
  if (f->props_ph(c, s->p0_a, h0, 0, &pr) || !(pr.rho > 0)) {
    lied_init_error(ctx, "start state p0_a = %g Pa, h = %g J/kg has no properties in %s",
                    s->p0_a, h0, f->name);
    return -1;
  }
  if (isnan(*T0_w)) *T0_w = pr.T;
  const double Vc = s->V_a / s->N;
  for (int i = 0; i < s->N; i++) {
    M[i] = pr.rho * Vc;
    U[i] = M[i] * h0 - s->p0_a * Vc;
    T_w[i] = *T0_w;
  }
  return 0;
}
static int rhx_init(void *self, lied_init *ctx, int kind) {
  tf_rhx *x = self;
  x->kind = kind;
  x->p = x->p0_a;
  const tf_rhx_start_in s = {x->V_a, x->p0_a, x->T0_a, x->x0_a, x->N};
  return tf_rhx_start(ctx, &x->med_a, &x->med_b, &s, &x->T0_w, x->M, x->U, x->T_w);
}
static int rhx_counter_init(void *self, lied_init *ctx) { return rhx_init(self, ctx, RHX_COUNTER); }
static int rhx_cross_init(void *self, lied_init *ctx) { return rhx_init(self, ctx, RHX_CROSS); }

/* The cells' states and variables and the sums (both exchangers). */
void tf_rhx_meta_cells(lied_meta *m, int N, int wall, double *const var[7], double *const der[3],
                       double *const sums[6]) {
  char name[32];
  static const char *const cell[] = {"M", "U", "T_w", "h", "T", "x", "q"};
  static const char *const unit[] = {"kg", "J", "K", "J/kg", "K", "1", "W"};
  for (int v = 0; v < 7; v++)
    for (int i = 0; i < N; i++) {
      if (v == 2 && !wall) break;
      snprintf(name, sizeof name, "%s[%d]", cell[v], i + 1);
      if (v < 3)
        lied_meta_state(m, name, unit[v], &var[v][i], &der[v][i]);
      else
        lied_meta_var(m, name, unit[v], &var[v][i]);
    }
  static const char *const sn[] = {"Q_flow", "Q_b", "T_b", "M", "U", "E_w"};
  static const char *const su[] = {"W", "W", "K", "kg", "J", "J"};
  for (int k = 0; k < 6; k++) lied_meta_var(m, sn[k], su[k], sums[k]);
}

/* The energy block: every cell's derivatives and properties, side b's
 * outflow, from both inflows, the pressure, the flow and the cells. */
static void rhx_meta_energy(lied_meta *m, tf_rhx *x, int N, int wall) {
  const void *in[3 * RHX_MAXN + 10], *out[7 * RHX_MAXN + 12];
  int k = 0, o = 0;
  /* of the refrigerant's inflow m and h; of side b's m, h, p(T) */
  const int vb = TF_M | tf_T_reads(&x->med_b);
  k = tf_list_state(in, k, &x->inlet_a, TF_M | TF_H);
  k = tf_list_state(in, k, &x->inlet_b, vb);
  in[k++] = &x->p;
  in[k++] = &x->m_flow;
  if (tf_nX(&x->med_b)) in[k++] = &x->inlet_b.X;
  for (int i = 0; i < N; i++) {
    in[k++] = &x->M[i], in[k++] = &x->U[i];
    if (wall) in[k++] = &x->T_w[i];
  }
  in[k] = NULL;
  for (int i = 0; i < N; i++) {
    out[o++] = &x->der_M[i], out[o++] = &x->der_U[i], out[o++] = &x->h[i];
    out[o++] = &x->T[i], out[o++] = &x->x[i], out[o++] = &x->q[i];
    if (wall) out[o++] = &x->der_w[i];
  }
  out[o++] = &x->der_p, out[o++] = &x->Q_flow, out[o++] = &x->Q_b, out[o++] = &x->T_b;
  out[o++] = &x->M_tot, out[o++] = &x->U_tot, out[o++] = &x->E_w, out[o++] = &x->Q_out.y;
  out[o++] = &x->outlet_b.state.m_flow, out[o++] = &x->outlet_b.state.h;
  if (tf_nX(&x->med_b)) out[o++] = &x->outlet_b.X;
  out[o] = NULL;
  lied_meta_block(m, "energy", rhx_energy_b, 0, in, out);
  lied_meta_lanes(m, rhx_energy_lanes);
  tf_meta_writes_m(m, &x->outlet_b);
  tf_meta_reads(m, &x->inlet_a, TF_M | TF_H);
  tf_meta_reads(m, &x->inlet_b, vb);
}

/* The kinks block and its zero functions: z_in, z_b (the flows), z_dome1 ..
 * (the cells' qualities). */
static void rhx_meta_kinks(lied_meta *m, tf_rhx *x, int N) {
  const int G = rhx_kink_groups(N);
  const void *in[RHX_MAXN + 4], *out[RHX_KINK_CELLS + 3];
  int k = 0;
  in[k++] = &x->inlet_a.state, in[k++] = &x->inlet_b.state, in[k++] = &x->p;
  for (int i = 0; i < N; i++) in[k++] = &x->h[i];
  in[k] = NULL;
  out[0] = &x->z_in, out[1] = &x->z_b;
  for (int g = 0; g < G; g++) out[2 + g] = &x->z_dome[g];
  out[2 + G] = NULL;
  lied_meta_block(m, "kinks", rhx_kinks_b, 0, in, out);
  tf_meta_reads(m, &x->inlet_a, TF_M);
  tf_meta_reads(m, &x->inlet_b, TF_M);
  tf_meta_flow_kink(m, "z_in", &x->z_in);
  tf_meta_flow_kink(m, "z_b", &x->z_b);
  for (int g = 0; g < G; g++) {
    char name[24];
    snprintf(name, sizeof name, "z_dome%d", g + 1);
    lied_meta_zero(m, name, &x->z_dome[g], LIED_ZC_BOTH | LIED_ZC_KINK);
  }
}

/* The exchanger's declarations: parameters, ports, states per cell, blocks. */
static void rhx_meta(lied_meta *m, void *self) {
  tf_rhx *x = self;
  const int N = x->N < 1 ? 1 : x->N > RHX_MAXN ? RHX_MAXN : x->N, wall = x->C_w > 0;
  tf_meta_in(m, "inlet_a", 0, &x->inlet_a, &x->med_a);
  tf_meta_out(m, "outlet_a", 0, &x->outlet_a, &x->med_a);
  tf_meta_in(m, "inlet_b", 0, &x->inlet_b, &x->med_b);
  tf_meta_out(m, "outlet_b", 0, &x->outlet_b, &x->med_b);
  lied_meta_real_out(m, "Q_out", 0, &x->Q_out);
  lied_meta_state(m, "p", "Pa", &x->p, &x->der_p);
  lied_meta_state(m, "m_flow", "kg/s", &x->m_flow, &x->der_m_flow);
  lied_meta_tear(m, "dm_flow", &x->dm_flow, "res", &x->res);
  double *const var[] = {x->M, x->U, x->T_w, x->h, x->T, x->x, x->q};
  double *const der[] = {x->der_M, x->der_U, x->der_w};
  double *const sums[] = {&x->Q_flow, &x->Q_b, &x->T_b, &x->M_tot, &x->U_tot, &x->E_w};
  tf_rhx_meta_cells(m, N, wall, var, der, sums);
  rhx_meta_energy(m, x, N, wall);
  tf_meta_p_pass(m, "pressure_b", rhx_pressure_b, rhx_pressure_b_lanes, &x->inlet_b, &x->outlet_b);
  lied_meta_block(m, "state", rhx_state_b, 0,
                  LIED_SIGS(&x->p, &x->m_flow, &x->M[N - 1], &x->U[N - 1]),
                  LIED_SIGS(&x->outlet_a.state));
  lied_meta_lanes(m, rhx_state_lanes);
  lied_meta_block(m, "der", rhx_der_bk, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&x->dm_flow),
                  LIED_SIGS(&x->outlet_a.der, &x->der_m_flow));
  lied_meta_lanes(m, rhx_der_lanes);
  lied_meta_block(m, "residual", rhx_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->outlet_a.r, &x->dm_flow), LIED_SIGS(&x->res));
  lied_meta_lanes(m, rhx_res_lanes);
  lied_meta_block(m, "r_in", rhx_r_in_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->p, &x->inlet_a.state, &x->inlet_a.der), LIED_SIGS(&x->inlet_a.r));
  lied_meta_lanes(m, rhx_r_in_lanes);
  tf_meta_reads(m, &x->inlet_a, TF_P);
  lied_meta_block(m, "der_b", rhx_der_b_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&x->inlet_b.der),
                  LIED_SIGS(&x->outlet_b.der));
  lied_meta_lanes(m, rhx_der_b_lanes);
  lied_meta_block(m, "r_b", rhx_r_b_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->outlet_b.r, &x->inlet_b.der), LIED_SIGS(&x->inlet_b.r));
  lied_meta_lanes(m, rhx_r_b_lanes);
  rhx_meta_kinks(m, x, N);
}

static const lied_param rhx_params[] = {
    RHX_PARAMS_CELLS(tf_rhx, RHX_MAXN),
    {"dx_edge", offsetof(tf_rhx, dx_edge), 0, "1",
     "width in quality inside the dome over which the cells' compressibility blends from the "
     "saturated liquid's (0: none; der(p) jumps at the liquid edge, docs/events.md)",
     0, 0.5, 0, 0},
    {"C_w", offsetof(tf_rhx, C_w), 1000, "J/K",
     "heat capacity of the wall, split evenly (0: none; the wall temperature then algebraic)", 0,
     TF_NOMAX, 0, 0},
    RHX_PARAMS_START(tf_rhx),
    {"L", offsetof(tf_rhx, L), 0, "1/m", "inertance of the refrigerant outlet", 0, TF_NOMAX, 0,
     0},
    {"L_in", offsetof(tf_rhx, L_in), 0, "1/m", "inertance of the refrigerant inlet", 0,
     TF_NOMAX, 0, 0},
    {"L_b", offsetof(tf_rhx, L_b), 0, "1/m", "inertance of stream b", 0, TF_NOMAX, 0, 0},
    {"m_flow", offsetof(tf_rhx, m_flow), 0, "kg/s", "start value of the refrigerant outlet flow",
     TF_NOMIN, TF_NOMAX, 0, 0},
    RHX_PARAMS_MEDIA(tf_rhx),
};
const lied_class tf_rhx_counter_class = {
    "TwoPhaseCounterFlowHX", "thermofluid",
    "refrigerant (stream a, N cells with mass and energy states at one pressure; a sink at its "
    "inlet, a source at its outlet) against stream b in counter flow through a wall of capacity "
    "C_w; heat transfer coefficients of liquid, two-phase mixture and vapour",
    sizeof(tf_rhx), rhx_params, sizeof rhx_params / sizeof *rhx_params, rhx_counter_init,
    rhx_meta};
const lied_class tf_rhx_cross_class = {
    "TwoPhaseCrossFlowHX", "thermofluid",
    "refrigerant (stream a, N cells with mass and energy states at one pressure; a sink at its "
    "inlet, a source at its outlet) against stream b in cross flow (1/N of stream b over each "
    "cell, mixed at the outlet) through a wall of capacity C_w; heat transfer coefficients of "
    "liquid, two-phase mixture and vapour",
    sizeof(tf_rhx), rhx_params, sizeof rhx_params / sizeof *rhx_params, rhx_cross_init,
    rhx_meta};
