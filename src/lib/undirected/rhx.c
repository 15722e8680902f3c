/* rhx.c - undirected TwoPhaseCounterFlowHX and TwoPhaseCrossFlowHX: a
 * refrigerant (stream a, rear_a -> fore_a: a medium with two phases, tf.R134a
 * ...) in N cells against a secondary stream b (rear_b -> fore_b: air, water,
 * any medium) through a wall of heat capacity C_w > 0, either stream free to
 * run either way (the exchangers of a reversible heat pump, which are
 * condensers in one mode and evaporators in the other). The laws are those
 * of the directed exchangers (src/lib/thermofluid/rhx.c), written in the
 * undirected form of docs/thermofluid.md, "Undirected streams".
 *
 * Refrigerant side: a storage, as an undirected Volume: its rear ends a
 * segment (rear.r = w(m_0) (p - rear.p) + L_rear der), its fore starts one
 * and owns that segment's flow m_N (res = fore.r + L_fore dm - (1 - w(m_N))
 * (p - fore.p_back)). N cells of V_c = V_a/N at one pressure p (a state),
 * each with its mass M_i and internal energy U_i (states), h_i = (U_i + p
 * V_c)/M_i; forwards the stream leaves with h_N, rearwards with h_1. The
 * port flows enter with the enthalpy upwind by their own signs (the arriving
 * state's or the end cell's), so what the neighbours count is what the
 * cells count. The inner faces carry the cell upstream in the direction d of
 * the mean flow (d forwards when m_0 + m_N >= 0). The inner flows and der(p)
 * follow from the cells keeping their volume (rhx.c): a sweep from the
 * upstream end in direction d gives each inner flow as alpha + beta der(p),
 * and the other end's port flow fixes der(p). Faces cancel in the sums, so
 * the charge sum(M_i) and the energy sum(U_i) change only by the port flows
 * and the heat, through any reversal (to rounding: an integrator keeps
 * linear invariants). Switching d at m_0 + m_N = 0 moves only the inner
 * faces' enthalpies (a jump of der(h) there proportional to the inner flows,
 * which the cells' compression alone drives at that instant).
 *
 * Heat: q_i = G_i (T_w,i - T_i), G_i = alpha(x_i) A_a/N, the coefficient of
 * liquid, two-phase mixture and vapour blended by smoothsteps over the
 * dome's edges (rhx_laws.h), x_i the unclipped quality at p.
 *
 * Secondary side: a flow-through element (flow, forwards, rearwards, der, r
 * blocks; p and X pass unchanged), quasi-steady over a wall of temperatures
 * T_w,i: a stream of capacity rate C = |m| cp (cp of the inflow) along cell
 * i takes q_b,i = C (1 - exp(-G_b/C)) (T_in,i - T_w,i), G_b = UA_b/N. Counter
 * flow: forwards it meets cell N first, rearwards cell 1 first (a reversed
 * stream makes the exchanger parallel flow); cross flow: each cell meets
 * 1/N of it at the inflow's state. The forwards block computes the pass with
 * the forward inflow (rear_b's state) and sends fore_b the leaving enthalpy
 * h_in - sum q_b/|m|; the rearwards block the same with fore_b's arriving
 * rearward state; the wall takes the heats of the pass the flow's sign
 * picks. Wall: (C_w/N) der(T_w,i) = q_b,i - q_i. */
#include <stdio.h>
#include "lib/thermofluid/rhx_laws.h"
#include "lib/undirected/undirected.h"

#define URHX_MAXN 50
enum { URHX_COUNTER = 0, URHX_CROSS = 1 };

typedef struct tfu_rhx {
  tfu_rear rear_a;
  tfu_fore fore_a;
  tfu_rear rear_b;
  tfu_fore fore_b;
  lied_real_out Q_out;
  tf_med med_a, med_b;
  double V_a, A_a, alpha_liq, alpha_2ph, alpha_vap, dx, UA_b, C_w, T0_w, p0_a, T0_a, x0_a;
  double tau_p, L_rear, L_fore, L_b, m_reg;
  int N, kind;
  double p, der_p, m_flow, der_m_flow; /* states: pressure, the fore's flow */
  double dm_flow, res, r0;             /* tearing pair of the fore's flow; its explicit part */
  double Q_flow, Q_b, T_b, M_tot, U_tot, E_w; /* heat into a, out of b; b's leaving T; sums */
  double Qf, Qr, Tf, Tr;                      /* b's passes forwards and rearwards */
  double z_rear, z_fore, z_mean, z_b;         /* kink functions (the flows' signs) */
  double M[URHX_MAXN], der_M[URHX_MAXN], U[URHX_MAXN], der_U[URHX_MAXN];
  double T_w[URHX_MAXN], der_w[URHX_MAXN];
  double h[URHX_MAXN], T[URHX_MAXN], x[URHX_MAXN], q[URHX_MAXN];
  double rho[URHX_MAXN], drp[URHX_MAXN], drh[URHX_MAXN];
  double qf[URHX_MAXN], qr[URHX_MAXN]; /* heat out of b per cell, each direction's pass */
} tfu_rhx;

/* ---- the refrigerant cells --------------------------------------------------------- */

static void urhx_cells(const lied_env *env, tfu_rhx *x) {
  const tf_medium *f = x->med_a.fn;
  const double *c = x->med_a.par + 1, Vc = x->V_a / x->N;
  tf_sat st;
  const int sat = f->sat_p(c, x->p, &st) == 0; /* above the critical pressure: "vapour" */
  for (int i = 0; i < x->N; i++) {
    tf_props pr;
    x->h[i] = rhx_h(x->U[i], x->M[i], x->p, Vc);
    (void)f->props_ph(c, x->p, x->h[i], 1, &pr);
    x->T[i] = pr.T, x->rho[i] = pr.rho, x->drp[i] = pr.drho_dp, x->drh[i] = pr.drho_dh;
    x->x[i] = sat ? (x->h[i] - st.hL) / (st.hV - st.hL) : 1.0;
    if (!isfinite(pr.T + pr.rho + pr.drho_dp + pr.drho_dh)) {
      if (!(x->M[i] > 0))
        lied_block_fault(env, x, "refrigerant cell %d: mass %g kg is not positive", i + 1,
                         x->M[i]);
      else {
        char what[40];
        snprintf(what, sizeof what, "refrigerant cell %d", i + 1);
        tf_fault_ph(env, x, &x->med_a, x->p, x->h[i], what);
      }
    }
  }
}
/* The refrigerant's ports: the fore's flow and state, the rear's back. */
static void urhx_ports(const lied_env *env, tfu_rhx *x) {
  (void)env;
  const tf_X X0 = {{0}};
  x->fore_a.flow.m_flow = x->m_flow;
  x->fore_a.state = (tfu_state){x->p, x->h[x->N - 1], X0};
  x->rear_a.back = (tfu_state){x->p, x->h[0], X0};
}
static void urhx_r_rear(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->rear_a.r.r = tfu_w(x->rear_a.flow->m_flow, x->m_reg) * (x->p - x->rear_a.state->p) +
                  (x->L_rear > 0 ? x->L_rear * x->rear_a.der->der_m_flow : 0.0);
}
static void urhx_der(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->fore_a.der.der_m_flow = x->dm_flow;
  x->der_m_flow = x->dm_flow;
}
static void urhx_r0(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->r0 = (1.0 - tfu_w(x->m_flow, x->m_reg)) * (x->p - x->fore_a.back->p);
}
static void urhx_res(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->res = x->fore_a.r->r + x->L_fore * x->dm_flow - x->r0;
}

/* ---- the secondary stream ------------------------------------------------------------ */

/* One pass of stream b (flow m, inflow state in) along the wall: the heat
 * out of it per cell into q, its sum returned; the leaving enthalpy in
 * *h_out, its temperature in *T_out. fwd: the flow runs rear_b -> fore_b. */
static double urhx_pass(const lied_env *env, const tfu_rhx *x, double m, const tfu_state *in,
                        int fwd, double *q, double *h_out, double *T_out, const char *what) {
  tf_med mx;
  const tf_med *mb = tfu_med_at(&x->med_b, in, &mx);
  const int N = x->N, cross = x->kind == URHX_CROSS;
  const double cp = mb->fn->cp(mb->par + 1, in->p, in->h), T0 = tf_T(mb, in->p, in->h);
  TF_GUARD_PH(env, x, mb, T0 + cp, in->p, in->h, what);
  const double mc = cross ? fabs(m) / N : fabs(m), C = mc * cp;
  const double Ge = rhx_eff(C, x->UA_b / N);
  double Tin = T0, Q = 0;
  for (int k = 0; k < N; k++) {
    const int i = cross ? k : fwd ? N - 1 - k : k; /* counter: forwards meets cell N first */
    q[i] = Ge * (Tin - x->T_w[i]);
    Q += q[i];
    if (!cross && C > 0) Tin -= q[i] / C;
  }
  *h_out = m != 0 ? in->h - Q / fabs(m) : in->h;
  *T_out = tf_T(mb, in->p, *h_out);
  return Q;
}
static void urhx_flow_b(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->fore_b.flow = *x->rear_b.flow;
}
/* Stream b's pressures pass in blocks of their own (pressure_b,
 * pressure_back_b), so that what leaves its passes does not depend on what
 * sets its pressure (a valve's opening; docs/thermofluid.md, "What the
 * blocks read and write"). */
static void urhx_p_b(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->fore_b.state.p = x->rear_b.state->p;
}
static void urhx_p_back_b(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->rear_b.back.p = x->fore_b.back->p;
}
static void urhx_fwd_b(const lied_env *env, tfu_rhx *x) {
  const tfu_state *in = x->rear_b.state;
  double h;
  x->Qf = urhx_pass(env, x, x->rear_b.flow->m_flow, in, 1, x->qf, &h, &x->Tf, "stream b forward inflow");
  x->fore_b.state.h = h, x->fore_b.state.X = in->X;
}
static void urhx_back_b(const lied_env *env, tfu_rhx *x) {
  const tfu_state *in = x->fore_b.back;
  double h;
  x->Qr = urhx_pass(env, x, x->rear_b.flow->m_flow, in, 0, x->qr, &h, &x->Tr, "stream b rearward inflow");
  x->rear_b.back.h = h, x->rear_b.back.X = in->X;
}
static void urhx_der_b(const lied_env *env, tfu_rhx *x) {
  (void)env;
  tfu_pass_der(&x->rear_b, &x->fore_b);
}
static void urhx_r_b(const lied_env *env, tfu_rhx *x) {
  (void)env;
  tfu_pass_r(&x->rear_b, &x->fore_b, x->L_b);
}

/* ---- the balances ------------------------------------------------------------------- */

/* Heat, wall, the sweep for the inner flows and der(p), the derivatives of
 * M and U. The sweep runs over the cells c(k) in the direction d of the
 * mean flow; flows count positive in that direction.
 * Long: one pass over the cells (heat, wall, sweep, derivatives), as rhx.c's rhx_eval. */
static void urhx_energy(const lied_env *env, tfu_rhx *x) {
  (void)env;
  const int N = x->N;
  const double Vc = x->V_a / N, Cwc = x->C_w / N;
  const double m0 = x->rear_a.flow->m_flow, mN = x->m_flow;
  const int d = m0 + mN >= 0;
  const double *qb = x->rear_b.flow->m_flow >= 0 ? x->qf : x->qr;
  double Q = 0, Qb = 0, Mt = 0, Ut = 0, Ew = 0;
  for (int i = 0; i < N; i++) {
    const double G = rhx_alpha(x->x[i], x->dx, x->alpha_liq, x->alpha_2ph, x->alpha_vap) * x->A_a / N;
    x->q[i] = G * (x->T_w[i] - x->T[i]);
    x->der_w[i] = (qb[i] - x->q[i]) / Cwc;
    Q += x->q[i], Qb += qb[i];
    Mt += x->M[i], Ut += x->U[i], Ew += Cwc * x->T_w[i];
  }
  /* the sweep's ends: inflow at its start, outflow at its end, each port's arriving h */
  const double ms_in = d ? m0 : -mN, ms_out = d ? mN : -m0;
  const double ha_s = d ? x->rear_a.state->h : x->fore_a.back->h;
  const double ha_e = d ? x->fore_a.back->h : x->rear_a.state->h;
#define C_(k) (d ? (k) : N - 1 - (k))
  double al = ms_in, be = 0, alk[URHX_MAXN], bek[URHX_MAXN];
  for (int k = 0; k < N; k++) {
    const int c = C_(k);
    const double hc = x->h[c], Mc = x->M[c];
    const double hf = k ? x->h[C_(k - 1)] : ms_in >= 0 ? ha_s : hc;
    const double e = k == N - 1 && ms_out < 0 ? -ms_out * (ha_e - hc) : 0.0;
    const double a = Vc * x->drp[c], b = Vc * x->drh[c], r = (Vc * x->rho[c] - Mc) / x->tau_p;
    alk[k] = al, bek[k] = be; /* the inflow's coefficients */
    const double d0 = (al * (hf - hc) + x->q[c] + e) / Mc, d1 = (be * (hf - hc) + Vc) / Mc;
    al = al - b * d0 - r;
    be = be - a - b * d1;
  }
  const double P = (ms_out - al) / be;
  for (int k = 0; k < N; k++) {
    const int c = C_(k);
    const double hc = x->h[c];
    const double hf = k ? x->h[C_(k - 1)] : ms_in >= 0 ? ha_s : hc;
    const double mi = k ? alk[k] + bek[k] * P : ms_in;
    const double mo = k < N - 1 ? alk[k + 1] + bek[k + 1] * P : ms_out;
    const double ho = k < N - 1 || ms_out >= 0 ? hc : ha_e;
    x->der_M[c] = mi - mo;
    x->der_U[c] = mi * hf - mo * ho + x->q[c];
  }
#undef C_
  x->der_p = P;
  x->Q_flow = Q, x->Q_b = Qb, x->Q_out.y.y = Q;
  x->T_b = x->rear_b.flow->m_flow >= 0 ? x->Tf : x->Tr;
  x->M_tot = Mt, x->U_tot = Ut, x->E_w = Ew;
}

/* The kinks (docs/events.md): each port flow's upwind enthalpy switches
 * with its sign, the inner faces' with the mean flow's, the wall takes the
 * heats of stream b's pass by its sign (each a kink: the enthalpy flows
 * and the heats are continuous there). The cells' phase boundaries are not
 * declared (2 per cell would pass the 16 zero functions of a component). */
static void urhx_kinks(const lied_env *env, tfu_rhx *x) {
  (void)env;
  x->z_rear = x->rear_a.flow->m_flow;
  x->z_fore = x->m_flow;
  x->z_mean = x->rear_a.flow->m_flow + x->m_flow;
  x->z_b = x->rear_b.flow->m_flow;
}
LIED_BLOCK(urhx_kinks_b, tfu_rhx, urhx_kinks)
LIED_BLOCK(urhx_cells_b, tfu_rhx, urhx_cells)
LIED_BLOCK(urhx_ports_b, tfu_rhx, urhx_ports)
LIED_BLOCK(urhx_r_rear_b, tfu_rhx, urhx_r_rear)
LIED_BLOCK(urhx_der_bk, tfu_rhx, urhx_der)
LIED_BLOCK(urhx_r0_b, tfu_rhx, urhx_r0)
LIED_BLOCK(urhx_res_b, tfu_rhx, urhx_res)
LIED_BLOCK(urhx_flow_b_b, tfu_rhx, urhx_flow_b)
LIED_BLOCK(urhx_p_b_b, tfu_rhx, urhx_p_b)
LIED_BLOCK(urhx_p_back_b_b, tfu_rhx, urhx_p_back_b)
LIED_BLOCK(urhx_fwd_b_b, tfu_rhx, urhx_fwd_b)
LIED_BLOCK(urhx_back_b_b, tfu_rhx, urhx_back_b)
LIED_BLOCK(urhx_der_b_b, tfu_rhx, urhx_der_b)
LIED_BLOCK(urhx_r_b_b, tfu_rhx, urhx_r_b)
LIED_BLOCK(urhx_energy_b, tfu_rhx, urhx_energy)

/* ---- init and meta ----------------------------------------------------------------- */

static int urhx_init(void *self, lied_init *ctx, int kind) {
  tfu_rhx *x = self;
  x->kind = kind;
  x->p = x->p0_a;
  const tf_rhx_start_in s = {x->V_a, x->p0_a, x->T0_a, x->x0_a, x->N};
  return tf_rhx_start(ctx, &x->med_a, &x->med_b, &s, &x->T0_w, x->M, x->U, x->T_w);
}
static int urhx_counter_init(void *self, lied_init *ctx) { return urhx_init(self, ctx, URHX_COUNTER); }
static int urhx_cross_init(void *self, lied_init *ctx) { return urhx_init(self, ctx, URHX_CROSS); }

/* Stream b's blocks: flow, its pressures, its two passes (h and X1 of what
 * leaves: they read of the inflow's state what its cp and T read, and X1),
 * der, r. */
static void urhx_meta_b(lied_meta *m, tfu_rhx *x, int N) {
  const void *fi[URHX_MAXN + 3], *bi[URHX_MAXN + 3], *fo[URHX_MAXN + 4], *bo[URHX_MAXN + 4];
  int nf = 0, nb = 0, mf = 0, mb = 0;
  fi[nf++] = &x->rear_b.flow, fi[nf++] = &x->rear_b.state;
  bi[nb++] = &x->rear_b.flow, bi[nb++] = &x->fore_b.back;
  fo[mf++] = &x->fore_b.state.h, fo[mf++] = &x->Qf, fo[mf++] = &x->Tf;
  bo[mb++] = &x->rear_b.back.h, bo[mb++] = &x->Qr, bo[mb++] = &x->Tr;
  for (int i = 0; i < N; i++) {
    fi[nf++] = bi[nb++] = &x->T_w[i];
    fo[mf++] = &x->qf[i], bo[mb++] = &x->qr[i];
  }
  fi[nf] = bi[nb] = fo[mf] = bo[mb] = NULL;
  lied_meta_block(m, "flow_b", urhx_flow_b_b, 0, LIED_SIGS(&x->rear_b.flow), LIED_SIGS(&x->fore_b.flow));
  const int vb = tfu_T_reads(&x->med_b) | TFU_X; /* cp, T(p, h); X1 passes */
  lied_meta_block(m, "pressure_b", urhx_p_b_b, 0, LIED_SIGS(&x->rear_b.state),
                  LIED_SIGS(&x->fore_b.state.p));
  lied_meta_writes(m, &x->fore_b.state.p, 1);
  tfu_meta_reads(m, &x->rear_b.state, TFU_P);
  lied_meta_block(m, "pressure_back_b", urhx_p_back_b_b, 0, LIED_SIGS(&x->fore_b.back),
                  LIED_SIGS(&x->rear_b.back.p));
  lied_meta_writes(m, &x->rear_b.back.p, 1);
  tfu_meta_reads(m, &x->fore_b.back, TFU_P);
  lied_meta_block(m, "forwards_b", urhx_fwd_b_b, 0, fi, fo);
  lied_meta_writes(m, &x->fore_b.state.h, 2);
  tfu_meta_reads(m, &x->rear_b.state, vb);
  lied_meta_block(m, "rearwards_b", urhx_back_b_b, 0, bi, bo);
  lied_meta_writes(m, &x->rear_b.back.h, 2);
  tfu_meta_reads(m, &x->fore_b.back, vb);
  lied_meta_block(m, "der_b", urhx_der_b_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&x->rear_b.der),
                  LIED_SIGS(&x->fore_b.der));
  lied_meta_block(m, "r_b", urhx_r_b_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->fore_b.r, &x->rear_b.der), LIED_SIGS(&x->rear_b.r));
}
/* The balances' block. */
static void urhx_meta_energy(lied_meta *m, tfu_rhx *x, int N) {
  const void *ei[12 * URHX_MAXN + 8], *eo[4 * URHX_MAXN + 10];
  int k = 0, o = 0;
  ei[k++] = &x->rear_a.flow, ei[k++] = &x->rear_a.state, ei[k++] = &x->fore_a.back;
  ei[k++] = &x->m_flow, ei[k++] = &x->rear_b.flow, ei[k++] = &x->Tf, ei[k++] = &x->Tr;
  for (int i = 0; i < N; i++) {
    ei[k++] = &x->M[i], ei[k++] = &x->U[i], ei[k++] = &x->T_w[i], ei[k++] = &x->h[i];
    ei[k++] = &x->T[i], ei[k++] = &x->x[i], ei[k++] = &x->rho[i], ei[k++] = &x->drp[i];
    ei[k++] = &x->drh[i], ei[k++] = &x->qf[i], ei[k++] = &x->qr[i];
    eo[o++] = &x->der_M[i], eo[o++] = &x->der_U[i], eo[o++] = &x->der_w[i], eo[o++] = &x->q[i];
  }
  eo[o++] = &x->der_p, eo[o++] = &x->Q_flow, eo[o++] = &x->Q_b, eo[o++] = &x->T_b;
  eo[o++] = &x->M_tot, eo[o++] = &x->U_tot, eo[o++] = &x->E_w, eo[o++] = &x->Q_out.y;
  ei[k] = eo[o] = NULL;
  lied_meta_block(m, "energy", urhx_energy_b, 0, ei, eo);
  tfu_meta_reads(m, &x->rear_a.state, TFU_H); /* the arriving enthalpies */
  tfu_meta_reads(m, &x->fore_a.back, TFU_H);
}

/* Declarations: ports, states per cell, blocks.
 * Long: the declarations in the order the template records them, one per line. */
static void urhx_meta(lied_meta *m, void *self) {
  tfu_rhx *x = self;
  const int N = x->N < 1 ? 1 : x->N > URHX_MAXN ? URHX_MAXN : x->N;
  tfu_meta_rear(m, "rear_a", 0, &x->rear_a);
  tfu_meta_fore(m, "fore_a", 0, &x->fore_a);
  tfu_meta_rear(m, "rear_b", 0, &x->rear_b);
  tfu_meta_fore(m, "fore_b", 0, &x->fore_b);
  lied_meta_real_out(m, "Q_out", 0, &x->Q_out);
  lied_meta_state(m, "p", "Pa", &x->p, &x->der_p);
  lied_meta_state(m, "m_flow", "kg/s", &x->m_flow, &x->der_m_flow);
  lied_meta_tear(m, "dm_flow", &x->dm_flow, "res", &x->res);
  double *const var[] = {x->M, x->U, x->T_w, x->h, x->T, x->x, x->q};
  double *const der[] = {x->der_M, x->der_U, x->der_w};
  double *const sums[] = {&x->Q_flow, &x->Q_b, &x->T_b, &x->M_tot, &x->U_tot, &x->E_w};
  tf_rhx_meta_cells(m, N, 1, var, der, sums);
  /* the cells' properties */
  const void *ci[2 * URHX_MAXN + 2], *co[6 * URHX_MAXN + 1];
  int k = 0, o = 0;
  ci[k++] = &x->p;
  for (int i = 0; i < N; i++) ci[k++] = &x->M[i], ci[k++] = &x->U[i];
  for (int i = 0; i < N; i++) {
    co[o++] = &x->h[i], co[o++] = &x->T[i], co[o++] = &x->x[i];
    co[o++] = &x->rho[i], co[o++] = &x->drp[i], co[o++] = &x->drh[i];
  }
  ci[k] = co[o] = NULL;
  lied_meta_block(m, "cells", urhx_cells_b, 0, ci, co);
  lied_meta_block(m, "ports", urhx_ports_b, 0, LIED_SIGS(&x->p, &x->m_flow, &x->h[0], &x->h[N - 1]),
                  LIED_SIGS(&x->fore_a.flow, &x->fore_a.state, &x->rear_a.back));
  if (x->L_rear > 0)
    lied_meta_block(m, "r_rear", urhx_r_rear_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&x->p, &x->rear_a.flow, &x->rear_a.state, &x->rear_a.der),
                    LIED_SIGS(&x->rear_a.r));
  else
    lied_meta_block(m, "r_rear", urhx_r_rear_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&x->p, &x->rear_a.flow, &x->rear_a.state), LIED_SIGS(&x->rear_a.r));
  tfu_meta_reads(m, &x->rear_a.state, TFU_P);
  lied_meta_block(m, "der", urhx_der_bk, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&x->dm_flow),
                  LIED_SIGS(&x->fore_a.der, &x->der_m_flow));
  lied_meta_block(m, "r0", urhx_r0_b, 0, LIED_SIGS(&x->p, &x->m_flow, &x->fore_a.back),
                  LIED_SIGS(&x->r0));
  tfu_meta_reads(m, &x->fore_a.back, TFU_P);
  lied_meta_block(m, "residual", urhx_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&x->fore_a.r, &x->dm_flow, &x->r0), LIED_SIGS(&x->res));
  urhx_meta_b(m, x, N);
  urhx_meta_energy(m, x, N);
  lied_meta_block(m, "kinks", urhx_kinks_b, 0,
                  LIED_SIGS(&x->rear_a.flow, &x->m_flow, &x->rear_b.flow),
                  LIED_SIGS(&x->z_rear, &x->z_fore, &x->z_mean, &x->z_b));
  tf_meta_flow_kink(m, "z_rear", &x->z_rear);
  tf_meta_flow_kink(m, "z_fore", &x->z_fore);
  tf_meta_flow_kink(m, "z_mean", &x->z_mean);
  tf_meta_flow_kink(m, "z_b", &x->z_b);
}

static const lied_param urhx_params[] = {
    RHX_PARAMS_CELLS(tfu_rhx, URHX_MAXN),
    {"C_w", offsetof(tfu_rhx, C_w), 1000, "J/K", "heat capacity of the wall, split evenly", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    RHX_PARAMS_START(tfu_rhx),
    {"L_rear", offsetof(tfu_rhx, L_rear), 0, "1/m", "inertance of the refrigerant's rear port",
     0, TF_NOMAX, 0, 0},
    {"L_fore", offsetof(tfu_rhx, L_fore), 0, "1/m",
     "inertance of the refrigerant's fore port (the segment it starts)", 0, TF_NOMAX, 0, 0},
    {"L_b", offsetof(tfu_rhx, L_b), 0, "1/m", "inertance of stream b", 0, TF_NOMAX, 0, 0},
    {"m_flow", offsetof(tfu_rhx, m_flow), 0, "kg/s",
     "start value of the refrigerant's flow out of the fore port", TF_NOMIN, TF_NOMAX, 0, 0},
    TFU_MREG_PARAM(tfu_rhx),
    RHX_PARAMS_MEDIA(tfu_rhx),
};
const lied_class tfu_rhx_counter_class = {
    "TwoPhaseCounterFlowHX", "undirected",
    "refrigerant (stream a, rear_a -> fore_a: N cells with mass and energy states at one "
    "pressure; its rear ends a segment, its fore owns one) against stream b (rear_b -> fore_b) "
    "in counter flow through a wall of capacity C_w; either stream may run either way (a "
    "reversed one makes it parallel flow)",
    sizeof(tfu_rhx), urhx_params, sizeof urhx_params / sizeof *urhx_params, urhx_counter_init,
    urhx_meta};
const lied_class tfu_rhx_cross_class = {
    "TwoPhaseCrossFlowHX", "undirected",
    "as the undirected TwoPhaseCounterFlowHX with stream b in cross flow (1/N of it over each "
    "cell, mixed as it leaves)",
    sizeof(tfu_rhx), urhx_params, sizeof urhx_params / sizeof *urhx_params, urhx_cross_init,
    urhx_meta};
