/* junction.c - Junction: n_rear rear ports rear[k] (ends of segments) and
 * n_fore fore ports fore[k] (starts of segments) meeting at one point, after
 * TFS's Undirected.Topology.JunctionMN; any orientation: a splitter (one
 * rear, several fores), a mixer (several rears, one fore), a tee of two
 * fores (TFS's ConnectRearRear: n_rear = 0, n_fore = 2). Fore ports 1 ..
 * n_fore - 1 own the flows m_flow1.. of their segments; the last fore port
 * takes what the mass balance leaves. With q_j the flow into the junction
 * through port j (a rear's m_flow, a fore's -m_flow):
 *   mixing weights  w_j = max(q_j, 0) + d,  d = m_reg (1 - S/m_reg)^2 for the
 *                   total inflow S = sum max(q_j, 0) < m_reg, else 0
 *   port j sends out the mix of the other ports' arriving states (p, h, X)
 *                   with their weights (the unweighted mean when they all
 *                   weigh 0, where no flow leaves through j);
 *   total pressure  P_j + r_j - L*der(q_j) = C, the same at every port, with
 *                   P_j = w(q_j)*p_in,j + (1 - w(q_j))*p_out,j (TFS's regStep);
 *                   the last fore port fixes C, the others' balances are the
 *                   residuals.
 * Once a flow passes (S >= m_reg) every port through which it leaves sends
 * the mass-weighted mix of what enters: the enthalpy (and composition) flows
 * balance exactly. Leaving out a port's own arriving state from what it sends
 * back keeps the two directions free of cycles through the junction. */
#include <stdio.h>
#include "lib/undirected/undirected.h"

#define JN_MAX TF_MAXN /* ports in all */

typedef struct tfu_junction {
  tfu_rear rear[JN_MAX];
  tfu_fore fore[JN_MAX];
  tf_med med;
  int nr, nf;
  double L, m_reg;
  double m_flow[JN_MAX - 1], der_m_flow[JN_MAX - 1]; /* states: fore 1 .. n_fore-1 */
  double dm_flow[JN_MAX - 1], res[JN_MAX - 1];       /* tearing pairs */
  double q[JN_MAX], w[JN_MAX]; /* inflow through each port, its mixing weight */
  double P[JN_MAX];            /* the steady pressure in each port's total pressure */
  double p, h, T;              /* the mix of all (recorded) */
  double z[JN_MAX];            /* kink functions: the inflows q_j (their weights max(q_j, 0)) */
} tfu_junction;

/* The arriving state of port j: a rear's forward state, a fore's rearward. */
static inline const tfu_state *jn_in(const tfu_junction *j, int k) {
  return k < j->nr ? j->rear[k].state : j->fore[k - j->nr].back;
}

/* Flows and weights; the fore ports' flows. */
static void jn_weights(const lied_env *env, tfu_junction *j) {
  (void)env;
  const int nr = j->nr, nf = j->nf;
  double last = 0, S = 0;
  for (int k = 0; k < nr; k++) last += j->q[k] = j->rear[k].flow->m_flow;
  for (int k = 0; k < nf - 1; k++) {
    last -= j->m_flow[k], j->q[nr + k] = -j->m_flow[k];
    j->fore[k].flow.m_flow = j->m_flow[k];
  }
  j->fore[nf - 1].flow.m_flow = last;
  j->q[nr + nf - 1] = -last;
  for (int k = 0; k < nr + nf; k++) S += j->q[k] > 0 ? j->q[k] : 0.0;
  const double f = S < j->m_reg ? 1.0 - S / j->m_reg : 0.0, d = j->m_reg * f * f;
  for (int k = 0; k < nr + nf; k++) j->w[k] = (j->q[k] > 0 ? j->q[k] : 0.0) + d;
}

/* The mix of every port's arriving state but port `skip`'s (skip = -1: all). */
static inline void jn_mix(const tfu_junction *j, int skip, tfu_state *o) {
  const int n = j->nr + j->nf;
  double ws = 0, ps = 0, hs = 0, xs[TF_NX] = {0};
  for (int k = 0; k < n; k++) {
    if (k == skip) continue;
    const tfu_state *in = jn_in(j, k);
    ws += j->w[k], ps += j->w[k] * in->p, hs += j->w[k] * in->h;
    for (int c = 0; c < TF_NX; c++) xs[c] += j->w[k] * in->X.X[c];
  }
  if (!(ws > 0)) { /* the others all weigh 0: their plain mean */
    ws = ps = hs = 0;
    for (int c = 0; c < TF_NX; c++) xs[c] = 0;
    for (int k = 0; k < n; k++) {
      if (k == skip) continue;
      const tfu_state *in = jn_in(j, k);
      ws += 1, ps += in->p, hs += in->h;
      for (int c = 0; c < TF_NX; c++) xs[c] += in->X.X[c];
    }
  }
  o->p = ps / ws, o->h = hs / ws;
  for (int c = 0; c < TF_NX; c++) o->X.X[c] = xs[c] / ws;
}

/* Port k's outgoing state: two blocks per port, reading the others' states:
 * its pressure from their pressures, its enthalpy and composition from
 * theirs (the same weights: what leaves does not depend on the pressures
 * where the medium does not, docs/thermofluid.md, "What the blocks read and
 * write"). */
static inline tfu_state *jn_out_state(tfu_junction *j, int k) {
  return k < j->nr ? &j->rear[k].back : &j->fore[k - j->nr].state;
}
static inline void jn_out_p(tfu_junction *j, int k) {
  tfu_state o;
  jn_mix(j, k, &o);
  jn_out_state(j, k)->p = o.p;
}
static inline void jn_out_h(tfu_junction *j, int k) {
  tfu_state o;
  jn_mix(j, k, &o);
  jn_out_state(j, k)->h = o.h;
  jn_out_state(j, k)->X = o.X;
}
#define JN_OUT(K)                                                                     \
  static void jn_out##K(const lied_env *env, tfu_junction *j) {                       \
    (void)env;                                                                        \
    jn_out_p(j, K);                                                                   \
  }                                                                                   \
  static void jn_out_h##K(const lied_env *env, tfu_junction *j) {                     \
    (void)env;                                                                        \
    jn_out_h(j, K);                                                                   \
  }                                                                                   \
  LIED_BLOCK(jn_out##K##_b, tfu_junction, jn_out##K)                                  \
  LIED_BLOCK(jn_out_h##K##_b, tfu_junction, jn_out_h##K)
JN_OUT(0) JN_OUT(1) JN_OUT(2) JN_OUT(3) JN_OUT(4) JN_OUT(5) JN_OUT(6) JN_OUT(7)
static const lied_block_fn jn_out_blocks[JN_MAX] = {jn_out0_b, jn_out1_b, jn_out2_b, jn_out3_b,
                                                    jn_out4_b, jn_out5_b, jn_out6_b, jn_out7_b};
static const lied_block_fn jn_out_h_blocks[JN_MAX] = {
    jn_out_h0_b, jn_out_h1_b, jn_out_h2_b, jn_out_h3_b,
    jn_out_h4_b, jn_out_h5_b, jn_out_h6_b, jn_out_h7_b};
/* (block names are kept by address: literals) */
static const char *const jn_out_names[JN_MAX] = {"p_out1", "p_out2", "p_out3", "p_out4",
                                                 "p_out5", "p_out6", "p_out7", "p_out8"};
static const char *const jn_out_h_names[JN_MAX] = {"out1", "out2", "out3", "out4",
                                                   "out5", "out6", "out7", "out8"};
_Static_assert(JN_MAX == 8, "one output block per port");

/* P_j: the blend of what arrives and what leaves through port j. */
static inline double jn_port_p_out(const tfu_junction *j, int k) {
  return k < j->nr ? j->rear[k].back.p : j->fore[k - j->nr].state.p;
}
static void jn_pressures(const lied_env *env, tfu_junction *j) {
  (void)env;
  for (int k = 0; k < j->nr + j->nf; k++)
    j->P[k] = tfu_blend(tfu_w(j->q[k], j->m_reg), jn_in(j, k)->p, jn_port_p_out(j, k));
}
static void jn_der(const lied_env *env, tfu_junction *j) {
  (void)env;
  double last = 0;
  for (int k = 0; k < j->nr; k++) last += j->rear[k].der->der_m_flow;
  for (int k = 0; k < j->nf - 1; k++) {
    last -= j->dm_flow[k];
    j->fore[k].der.der_m_flow = j->dm_flow[k];
    j->der_m_flow[k] = j->dm_flow[k];
  }
  j->fore[j->nf - 1].der.der_m_flow = last;
}
/* P_j + r_j - L*der(q_j) = C; C from the last fore port. */
static void jn_r(const lied_env *env, tfu_junction *j) {
  (void)env;
  const int nr = j->nr, nf = j->nf;
  const tfu_fore *lf = &j->fore[nf - 1];
  const double C = lf->r->r + j->P[nr + nf - 1] + j->L * lf->der.der_m_flow;
  for (int k = 0; k < nf - 1; k++)
    j->res[k] = j->fore[k].r->r + j->P[nr + k] + j->L * j->dm_flow[k] - C;
  for (int k = 0; k < nr; k++) j->rear[k].r.r = C - j->P[k] + j->L * j->rear[k].der->der_m_flow;
}
static void jn_output(const lied_env *env, tfu_junction *j) {
  tfu_state s;
  jn_mix(j, -1, &s);
  j->p = s.p, j->h = s.h;
  tf_med mx;
  const tf_med *med = tfu_med_at(&j->med, &s, &mx);
  j->T = tf_T(med, j->p, j->h);
  TF_GUARD_PH(env, j, med, j->T, j->p, j->h, "mixed stream");
}
LIED_BLOCK(jn_weights_b, tfu_junction, jn_weights)
LIED_BLOCK(jn_pressures_b, tfu_junction, jn_pressures)
LIED_BLOCK(jn_der_b, tfu_junction, jn_der)
LIED_BLOCK(jn_r_b, tfu_junction, jn_r)
LIED_BLOCK(jn_output_b, tfu_junction, jn_output)

static int jn_init(void *self, lied_init *ctx) {
  tfu_junction *j = self;
  if (j->nf < 1) {
    lied_init_error(ctx, "a Junction needs a fore port (n_fore >= 1): the flows of its rear "
                    "ports are owned upstream, and the mass balance needs a flow it owns or "
                    "takes the rest of");
    return -1;
  }
  if (j->nr + j->nf < 2 || j->nr + j->nf > JN_MAX) {
    lied_init_error(ctx, "a Junction has 2 to %d ports: n_rear + n_fore = %d", JN_MAX,
                    j->nr + j->nf);
    return -1;
  }
  return tf_medium_init(&j->med, ctx);
}

/* The reading pointer of port k's arriving state, for block inputs. */
static inline const void *jn_in_sig(const tfu_junction *j, int k) {
  return k < j->nr ? (const void *)&j->rear[k].state : (const void *)&j->fore[k - j->nr].back;
}

/* The Junction's ports, its flow states (one per fore port but the last)
 * with their tearing pairs, and p, h, T. */
static void jn_meta_vars(lied_meta *m, tfu_junction *j) {
  const int nr = j->nr, nf = j->nf;
  char name[24], tear[24], res[24];
  for (int k = 0; k < nr; k++) tfu_meta_rear(m, "rear", k + 1, &j->rear[k]);
  for (int k = 0; k < nf; k++) tfu_meta_fore(m, "fore", k + 1, &j->fore[k]);
  for (int k = 0; k < nf - 1; k++) {
    snprintf(name, sizeof name, "m_flow%d", k + 1);
    snprintf(tear, sizeof tear, "dm_flow%d", k + 1);
    snprintf(res, sizeof res, "res%d", k + 1);
    lied_meta_state(m, name, "kg/s", &j->m_flow[k], &j->der_m_flow[k]);
    lied_meta_tear(m, tear, &j->dm_flow[k], res, &j->res[k]);
  }
  lied_meta_var(m, "p", "Pa", &j->p);
  lied_meta_var(m, "h", "J/kg", &j->h);
  lied_meta_var(m, "T", "K", &j->T);
}

/* The weights (the flows), one outgoing state per port from the other
 * ports' arriving states (its pressure and its h, X in two blocks), and the
 * ports' steady pressures. */
static void jn_meta_states(lied_meta *m, tfu_junction *j) {
  const int nr = j->nr, nf = j->nf, n = nr + nf;
  const void *wi[2 * JN_MAX + 1], *wo[3 * JN_MAX + 1];
  int nwi = 0, nwo = 0;
  for (int k = 0; k < nr; k++) wi[nwi++] = &j->rear[k].flow;
  for (int k = 0; k < nf - 1; k++) wi[nwi++] = &j->m_flow[k];
  for (int k = 0; k < n; k++) wo[nwo++] = &j->q[k], wo[nwo++] = &j->w[k];
  for (int k = 0; k < nf; k++) wo[nwo++] = &j->fore[k].flow;
  wi[nwi] = wo[nwo] = NULL;
  lied_meta_block(m, "weights", jn_weights_b, 0, nwi ? wi : LIED_NONE, wo);
  /* one outgoing state per port, from the other ports' arriving states: the
   * pressure from their pressures, h and X from their h and X */
  for (int part = 0; part < 2; part++)
    for (int k = 0; k < n; k++) {
      const void *oi[3 * JN_MAX + 1];
      int noi = 0;
      for (int i = 0; i < n; i++) {
        oi[noi++] = &j->w[i];
        if (i != k) oi[noi++] = jn_in_sig(j, i);
      }
      oi[noi] = NULL;
      const tfu_state *o = jn_out_state(j, k);
      lied_meta_block(m, part ? jn_out_h_names[k] : jn_out_names[k],
                      part ? jn_out_h_blocks[k] : jn_out_blocks[k], 0, oi,
                      LIED_SIGS(part ? (const void *)&o->h : (const void *)&o->p));
      lied_meta_writes(m, part ? (const void *)&o->h : (const void *)&o->p, part ? 2 : 1);
      for (int i = 0; i < n; i++)
        if (i != k) tfu_meta_reads(m, jn_in_sig(j, i), part ? TFU_H | TFU_X : TFU_P);
    }
  /* the ports' steady pressures */
  const void *pi[3 * JN_MAX + 1], *po[JN_MAX + 1];
  int npi = 0;
  for (int k = 0; k < n; k++) {
    pi[npi++] = &j->q[k], pi[npi++] = jn_in_sig(j, k);
    pi[npi++] = &jn_out_state(j, k)->p;
    po[k] = &j->P[k];
  }
  pi[npi] = po[n] = NULL;
  lied_meta_block(m, "pressures", jn_pressures_b, 0, pi, po);
  for (int k = 0; k < n; k++) tfu_meta_reads(m, jn_in_sig(j, k), TFU_P);
}

/* The linear section: mass balance of the derivatives (der), total
 * pressures (r). */
static void jn_meta_section(lied_meta *m, tfu_junction *j) {
  const int nr = j->nr, nf = j->nf, n = nr + nf;
  const void *di[2 * JN_MAX + 1], *dout[2 * JN_MAX + 1];
  int ndi = 0, ndo = 0;
  for (int k = 0; k < nr; k++) di[ndi++] = &j->rear[k].der;
  for (int k = 0; k < nf - 1; k++) di[ndi++] = &j->dm_flow[k], dout[ndo++] = &j->der_m_flow[k];
  for (int k = 0; k < nf; k++) dout[ndo++] = &j->fore[k].der;
  di[ndi] = dout[ndo] = NULL;
  lied_meta_block(m, "der", jn_der_b, LIED_BLOCK_CONST_COEFF, ndi ? di : LIED_NONE, dout);
  const void *ri[4 * JN_MAX + 1], *ro[2 * JN_MAX + 1];
  int nri = 0, nro = 0;
  for (int k = 0; k < n; k++) ri[nri++] = &j->P[k];
  for (int k = 0; k < nf; k++) ri[nri++] = &j->fore[k].r, ri[nri++] = &j->fore[k].der;
  for (int k = 0; k < nf - 1; k++) ri[nri++] = &j->dm_flow[k], ro[nro++] = &j->res[k];
  for (int k = 0; k < nr; k++) ri[nri++] = &j->rear[k].der, ro[nro++] = &j->rear[k].r;
  ri[nri] = ro[nro] = NULL;
  lied_meta_block(m, "r", jn_r_b, LIED_BLOCK_CONST_COEFF, ri, ro);
}

/* The kinks (docs/events.md): the mixing weights max(q_j, 0) kink where an
 * inflow reverses (d is continuous with its slope at S = m_reg). */
static void jn_kinks(const lied_env *env, tfu_junction *j) {
  (void)env;
  for (int k = 0; k < j->nr + j->nf; k++) j->z[k] = j->q[k];
}
LIED_BLOCK(jn_kinks_b, tfu_junction, jn_kinks)
static void jn_meta_kinks(lied_meta *m, tfu_junction *j) {
  static const char *const names[JN_MAX] = {"z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"};
  const int n = j->nr + j->nf;
  const void *ki[JN_MAX + 1], *ko[JN_MAX + 1];
  for (int k = 0; k < n; k++) ki[k] = &j->q[k], ko[k] = &j->z[k];
  ki[n] = ko[n] = NULL;
  lied_meta_block(m, "kinks", jn_kinks_b, 0, ki, ko);
  for (int k = 0; k < n; k++) tf_meta_flow_kink(m, names[k], &j->z[k]);
}

static void jn_meta(lied_meta *m, void *self) {
  tfu_junction *j = self;
  const int nr = j->nr, n = nr + j->nf;
  jn_meta_vars(m, j);
  jn_meta_states(m, j);
  jn_meta_section(m, j);
  const void *xi[2 * JN_MAX + 1];
  int nxi = 0;
  for (int k = 0; k < n; k++) xi[nxi++] = &j->w[k], xi[nxi++] = jn_in_sig(j, k);
  xi[nxi] = NULL;
  lied_meta_block(m, "output", jn_output_b, 0, xi, LIED_SIGS(&j->p, &j->h, &j->T));
  for (int k = 0; k < n; k++) tfu_meta_reads(m, jn_in_sig(j, k), TFU_P | TFU_H | tfu_X_reads(&j->med));
  jn_meta_kinks(m, j);
}

#define JN_M0(k)                                                                             \
  {"m_flow" #k, offsetof(tfu_junction, m_flow) + (k - 1) * sizeof(double), 0, "kg/s",        \
   "start value of the flow out of fore[" #k "] (if n_fore > " #k ")", TF_NOMIN, TF_NOMAX, 0, \
   0}
_Static_assert(JN_MAX - 1 == 7, "the m_flow1..m_flow7 parameters assume 8 ports");
static const lied_param jn_params[] = {
    {"n_rear", offsetof(tfu_junction, nr), 1, "1", "number of rear ports rear[1..n_rear]", 0,
     JN_MAX, LIED_PARAM_INT, 0},
    {"n_fore", offsetof(tfu_junction, nf), 2, "1", "number of fore ports fore[1..n_fore]", 0,
     JN_MAX, LIED_PARAM_INT, 0},
    {"L", offsetof(tfu_junction, L), 0, "1/m", "inertance of each port (length / area)", 0,
     TF_NOMAX, 0, 0},
    TFU_MREG_PARAM(tfu_junction),
    JN_M0(1), JN_M0(2), JN_M0(3), JN_M0(4), JN_M0(5), JN_M0(6), JN_M0(7),
    TF_MEDIUM_PARAM(tfu_junction),
};
const lied_class tfu_junction_class = {
    "Junction", "undirected",
    "n_rear rear and n_fore fore ports meeting (any orientation, 2..8 ports, n_fore >= 1); "
    "fore ports 1..n_fore-1 own their flows m_flow1.., the last takes the rest; each port "
    "sends out the mass-weighted mix of the others' arriving states; one total pressure",
    sizeof(tfu_junction), jn_params, sizeof jn_params / sizeof *jn_params, jn_init, jn_meta};
