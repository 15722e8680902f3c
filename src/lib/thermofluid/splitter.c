/* splitter.c - Splitter: one inlet feeding N outlets (outlet1..outletN).
 * Outlets 1..N-1 own mass-flow states (their derivatives are tearing
 * variables, residuals r_k - r_N: all outlets see one total pressure);
 * outlet N takes the remainder of the inlet flow. */
#include <stdio.h>
#include "lib/thermofluid/deps.h"

typedef struct tf_splitter {
  tf_in inlet;
  tf_out outlet[TF_MAXN];
  int N;
  double L;
  double m_flow[TF_MAXN - 1], der_m_flow[TF_MAXN - 1]; /* states */
  double dm_flow[TF_MAXN - 1], res[TF_MAXN - 1];       /* tearing pairs */
  tf_med med; /* only its composition matters: mixtures pass X */
} tf_splitter;

/* Outlets carry the inlet's p (one block), and its h with their flows
 * (another): outlet N the remaining flow. */
static void splitter_pressure(const lied_env *env, tf_splitter *s) {
  (void)env;
  for (int k = 0; k < s->N; k++) s->outlet[k].state.p = s->inlet.state->p;
}
static void splitter_flow(const lied_env *env, tf_splitter *s) {
  (void)env;
  const tf_state *in = s->inlet.state;
  double rest = in->m_flow;
  for (int k = 0; k < s->N - 1; k++) {
    s->outlet[k].state.m_flow = s->m_flow[k];
    s->outlet[k].state.h = in->h;
    rest -= s->m_flow[k];
  }
  s->outlet[s->N - 1].state.m_flow = rest;
  s->outlet[s->N - 1].state.h = in->h;
  for (int k = 0; k < s->N; k++) tf_pass_X(&s->med, &s->inlet, &s->outlet[k]);
}
static void splitter_der(const lied_env *env, tf_splitter *s) {
  (void)env;
  double rest = s->inlet.der->der_m_flow;
  for (int k = 0; k < s->N - 1; k++) {
    s->outlet[k].der.der_m_flow = s->dm_flow[k];
    s->der_m_flow[k] = s->dm_flow[k];
    rest -= s->dm_flow[k];
  }
  s->outlet[s->N - 1].der.der_m_flow = rest;
}
static void splitter_r(const lied_env *env, tf_splitter *s) {
  (void)env;
  double rN = s->outlet[s->N - 1].r->r;
  for (int k = 0; k < s->N - 1; k++) s->res[k] = s->outlet[k].r->r - rN;
  s->inlet.r.r = rN + s->L * s->inlet.der->der_m_flow;
}
LIED_BLOCK(splitter_pressure_b, tf_splitter, splitter_pressure)
LIED_BLOCK(splitter_flow_b, tf_splitter, splitter_flow)
LIED_BLOCK(splitter_der_b, tf_splitter, splitter_der)
LIED_BLOCK(splitter_r_b, tf_splitter, splitter_r)

static void splitter_meta(lied_meta *m, void *self) {
  tf_splitter *s = self;
  int n = s->N;
  char name[32], tear[32], res[32];
  const void *in_state[TF_MAXN + 3], *out_state[3 * TF_MAXN + 1], *out_p[TF_MAXN + 1];
  const void *in_der[TF_MAXN + 1], *out_der[2 * TF_MAXN + 1];
  const void *in_r[TF_MAXN + 2], *out_r[TF_MAXN + 1];
  int nis = 0, nos = 0, nid = 0, nod = 0, nir = 0, nor = 0;
  tf_meta_in_any(m, "inlet", 0, &s->inlet, &s->med);
  in_state[nis++] = &s->inlet.state; /* m_flow and h: listed twice */
  in_state[nis++] = &s->inlet.state;
  in_der[nid++] = &s->inlet.der;
  in_r[nir++] = &s->inlet.der;
  for (int k = 0; k < n; k++) {
    snprintf(name, sizeof name, "outlet%d", k + 1);
    tf_meta_out_any(m, name, 0, &s->outlet[k], &s->med);
    out_p[k] = &s->outlet[k].state.p;
    out_state[nos++] = &s->outlet[k].state.m_flow;
    out_state[nos++] = &s->outlet[k].state.h;
    if (tf_nX(&s->med)) out_state[nos++] = &s->outlet[k].X;
    out_der[nod++] = &s->outlet[k].der;
    in_r[nir++] = &s->outlet[k].r;
  }
  for (int k = 0; k < n - 1; k++) {
    snprintf(name, sizeof name, "m_flow%d", k + 1);
    snprintf(tear, sizeof tear, "dm_flow%d", k + 1);
    snprintf(res, sizeof res, "res%d", k + 1);
    lied_meta_state(m, name, "kg/s", &s->m_flow[k], &s->der_m_flow[k]);
    lied_meta_tear(m, tear, &s->dm_flow[k], res, &s->res[k]);
    in_state[nis++] = &s->m_flow[k];
    in_der[nid++] = &s->dm_flow[k];
    out_der[nod++] = &s->der_m_flow[k];
    out_r[nor++] = &s->res[k];
  }
  out_r[nor++] = &s->inlet.r;
  if (tf_nX(&s->med)) in_state[nis++] = &s->inlet.X;
  in_state[nis] = out_state[nos] = in_der[nid] = out_der[nod] = in_r[nir] = out_r[nor] = NULL;
  out_p[n] = NULL;
  lied_meta_block(m, "pressure", splitter_pressure_b, 0, LIED_SIGS(&s->inlet.state), out_p);
  tf_meta_reads(m, &s->inlet, TF_P);
  lied_meta_block(m, "flow", splitter_flow_b, 0, in_state, out_state);
  tf_meta_reads(m, &s->inlet, TF_M | TF_H);
  for (int k = 0; k < n; k++) tf_meta_writes_m(m, &s->outlet[k]);
  lied_meta_block(m, "der", splitter_der_b, LIED_BLOCK_CONST_COEFF, in_der, out_der);
  lied_meta_block(m, "r", splitter_r_b, LIED_BLOCK_CONST_COEFF, in_r, out_r);
}

_Static_assert(TF_MAXN == 8, "the m_flow1..m_flow7 parameters assume TF_MAXN = 8");

static const lied_param splitter_params[] = {
    {"N", offsetof(tf_splitter, N), 2, "1", "number of outlets", 2, TF_MAXN, LIED_PARAM_INT, 0},
    {"L", offsetof(tf_splitter, L), 0, "1/m", "inertance of the inlet (length / area)", 0,
     TF_NOMAX, 0, 0},
    {"m_flow1", offsetof(tf_splitter, m_flow) + 0 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet1 (if N > 1)", TF_NOMIN, TF_NOMAX, 0, 0},
    {"m_flow2", offsetof(tf_splitter, m_flow) + 1 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet2 (if N > 2)", TF_NOMIN, TF_NOMAX, 0, 0},
    {"m_flow3", offsetof(tf_splitter, m_flow) + 2 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet3 (if N > 3)", TF_NOMIN, TF_NOMAX, 0, 0},
    {"m_flow4", offsetof(tf_splitter, m_flow) + 3 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet4 (if N > 4)", TF_NOMIN, TF_NOMAX, 0, 0},
    {"m_flow5", offsetof(tf_splitter, m_flow) + 4 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet5 (if N > 5)", TF_NOMIN, TF_NOMAX, 0, 0},
    {"m_flow6", offsetof(tf_splitter, m_flow) + 5 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet6 (if N > 6)", TF_NOMIN, TF_NOMAX, 0, 0},
    {"m_flow7", offsetof(tf_splitter, m_flow) + 6 * sizeof(double), 0, "kg/s",
     "start value of the flow of outlet7 (if N > 7)", TF_NOMIN, TF_NOMAX, 0, 0},
    TF_MEDIUM_PARAM(tf_splitter),
};

static int splitter_init(void *self, lied_init *ctx) {
  tf_splitter *s = self;
  return tf_medium_init(&s->med, ctx);
}
const lied_class tf_splitter_class = {
    "Splitter", "thermofluid",
    "one inlet to N outlets (outlet1..outletN, N = 2..8); outlets 1..N-1 own mass-flow "
    "states m_flow1.., outletN takes the rest; residuals r_k - r_N; a mixture's X passes "
    "to every outlet (give it the medium)",
    sizeof(tf_splitter), splitter_params, sizeof splitter_params / sizeof *splitter_params,
    splitter_init, splitter_meta};
