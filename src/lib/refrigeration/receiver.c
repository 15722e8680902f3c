/* receiver.c - Receiver (at a condenser's outlet: saturated liquid leaves
 * while it holds liquid) and Accumulator (at the suction: saturated vapour
 * leaves while it holds vapour): a rigid vessel of volume V whose refrigerant
 * charge M and internal energy U are states (docs/refrigeration.md,
 * "Receiver and Accumulator"). As thermofluid's Volume, it ends the stream
 * at its inlet (a sink at its pressure) and starts one at its outlet (it
 * owns the outlet's flow, with the inertance L):
 *   der(M) = m_in - m_out,  der(U) = m_in h_in - m_out h_out + Q
 *   (p, h) from (M/V, U/M) on the refrigerant's tables; T, x there
 *   level = (1 - x) rho/rho' (the liquid's share of V; 1 liquid, 0 vapour)
 * The outflow of a two-phase content is h_out = h' + x_out (h'' - h'):
 *   Receiver:    x_out = 0 while level >= b, x (1 - level/b) below
 *   Accumulator: x_out = 1 while 1 - level >= b, 1 - (1 - x)(1 - (1 - level)/b) above
 * b = level_mouth, the share of V over which the outlet's mouth draws both
 * phases (b = 0: a sharp change at the dome's edge); x_out is continuous and
 * reaches the content's own state at the dome's edges: an emptied receiver
 * passes vapour, a flooded accumulator liquid. A single-phase content
 * leaves as it is.
 * Kinks (docs/events.md), written by a block of the output part: the inlet
 * flow reversing (the upwind enthalpy: z_flow), the content crossing the
 * dome's edges (p(rho, u) and the level kink: z_liquid, z_vapour), the
 * level crossing the outlet's mouth (x_out's branch: z_mouth = level - b,
 * the accumulator's 1 - level - b; with b = 0 the outflow jumps at the
 * dome's edge instead, which z_vapour, z_liquid mark). */
#include "lib/refrigeration/refrigeration.h"
#include "lib/thermofluid/deps.h"

typedef struct rg_receiver {
  tf_in inlet;
  tf_out outlet;
  lied_real_in Q_in;
  lied_real_out level;
  tf_med med;
  double M, der_M;           /* state: the charge [kg] */
  double U, der_U;           /* state: internal energy [J] */
  double m_flow, der_m_flow; /* state: outlet flow */
  double dm_flow, res;       /* tearing pair */
  double V, p0, level0, b, L, L_in, Q;
  double p, h, rho, T, x, x_out, Q_used;
  double z_flow, z_phase[TF_PHASE_MAX], z_mouth; /* kink functions */
  int Q_from_input, accumulator;
} rg_receiver;

/* The outlet's quality of a two-phase content (level, x) at mouth b. */
static inline double outlet_quality(int accumulator, double b, double level, double x) {
  if (accumulator) return 1 - level >= b ? 1 : 1 - (1 - x) * (1 - (1 - level) / b);
  return level >= b ? 0 : x * (1 - level / b);
}

/* The content's state from (M, U) and what leaves: o = {rho, p, h, T, x,
 * x_out, level, h_out}; faults of self name the state where there is none. */
enum { O_RHO, O_P, O_H, O_T, O_X, O_XOUT, O_LEVEL, O_HOUT, O_N };
static void recv_eq(const lied_env *env, const void *self, const tf_med *med, int accumulator,
                    double b, double V, double M, double U, double *o) {
  o[O_RHO] = M / V;
  const double u = U / M;
  o[O_P] = o[O_H] = o[O_T] = o[O_X] = o[O_XOUT] = o[O_LEVEL] = o[O_HOUT] = NAN;
  if (med->fn->from_rho_u(med->par + 1, o[O_RHO], u, &o[O_P], &o[O_H]) || !isfinite(o[O_P]) ||
      !isfinite(o[O_H])) {
    tf_fault_rho_u(env, self, med, o[O_RHO], u, "content (M/V, U/M)");
    return;
  }
  tf_props pr;
  tf_sat s;
  if (rg_props(env, self, med, o[O_P], o[O_H], &pr, "content")) return;
  o[O_T] = pr.T, o[O_X] = pr.x, o[O_XOUT] = pr.x, o[O_HOUT] = o[O_H];
  o[O_LEVEL] = pr.phase == 0 ? 1 : 0;
  if (pr.phase == 2 && !rg_sat(env, self, med, o[O_P], &s, "content")) {
    o[O_LEVEL] = (1 - pr.x) * o[O_RHO] / s.rhoL;
    o[O_XOUT] = outlet_quality(accumulator, b, o[O_LEVEL], pr.x);
    o[O_HOUT] = s.hL + o[O_XOUT] * (s.hV - s.hL);
  }
}
static void recv_thermo(const lied_env *env, rg_receiver *r) {
  double o[O_N];
  recv_eq(env, r, &r->med, r->accumulator, r->b, r->V, r->M, r->U, o);
  r->rho = o[O_RHO], r->p = o[O_P], r->h = o[O_H], r->T = o[O_T], r->x = o[O_X];
  r->x_out = o[O_XOUT];
  r->level.y.y = o[O_LEVEL];
  r->outlet.state = (tf_state){r->m_flow, o[O_P], o[O_HOUT]};
}
/* Mass and energy balance; reversed inlet flow leaves with the content's h. */
static inline void recv_balance_eq(double m_in, double h_stream, double h, double m_out,
                                   double h_out, double Q, double *der_M, double *der_U) {
  const double h_in = m_in >= 0 ? h_stream : h;
  *der_M = m_in - m_out;
  *der_U = m_in * h_in - m_out * h_out + Q;
}
static void recv_balance(const lied_env *env, rg_receiver *r) {
  (void)env;
  const tf_state *in = r->inlet.state;
  r->Q_used = r->Q_from_input ? r->Q_in.y->y : r->Q;
  recv_balance_eq(in->m_flow, in->h, r->h, r->m_flow, r->outlet.state.h, r->Q_used, &r->der_M,
                  &r->der_U);
}
static void recv_der(const lied_env *env, rg_receiver *r) {
  (void)env;
  r->outlet.der.der_m_flow = r->dm_flow;
  r->der_m_flow = r->dm_flow;
}
/* Outlet: the content behind it has r = 0. */
static void recv_res(const lied_env *env, rg_receiver *r) {
  (void)env;
  r->res = r->outlet.r->r + r->L * r->dm_flow;
}
/* Inlet: a sink at the content's pressure. */
static void recv_r_in(const lied_env *env, rg_receiver *r) {
  (void)env;
  r->inlet.r.r = r->p - r->inlet.state->p + r->L_in * r->inlet.der->der_m_flow;
}
/* The kink functions (nothing reads them). */
static void recv_kinks(const lied_env *env, rg_receiver *r) {
  (void)env;
  r->z_flow = r->inlet.state->m_flow;
  tf_phase_z(&r->med, r->p, r->h, r->z_phase);
  r->z_mouth = r->accumulator ? 1 - r->level.y.y - r->b : r->level.y.y - r->b;
}
LIED_BLOCK(recv_kinks_b, rg_receiver, recv_kinks)
LIED_BLOCK(recv_thermo_b, rg_receiver, recv_thermo)
LIED_BLOCK(recv_balance_b, rg_receiver, recv_balance)
LIED_BLOCK(recv_der_b, rg_receiver, recv_der)
LIED_BLOCK(recv_res_b, rg_receiver, recv_res)
LIED_BLOCK(recv_r_in_b, rg_receiver, recv_r_in)

/* Lane forms (lied/component.h): the same operations, copy by copy. */
#define RL(FIELD) LIED_LANE(rg_receiver, g, FIELD)
static void recv_thermo_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  double *out = RL(outlet.state);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(rg_receiver, g, med, l, &med);
    double o[O_N];
    recv_eq(env, TF_LANE_WORD(rg_receiver, g, rho, l), &med,
            TF_LANE_INT(rg_receiver, g, accumulator, l), RL(b)[l], RL(V)[l], RL(M)[l], RL(U)[l], o);
    RL(rho)[l] = o[O_RHO], RL(p)[l] = o[O_P], RL(h)[l] = o[O_H], RL(T)[l] = o[O_T];
    RL(x)[l] = o[O_X], RL(x_out)[l] = o[O_XOUT], RL(level.y.y)[l] = o[O_LEVEL];
    TF_V(out, 0, l) = RL(m_flow)[l], TF_V(out, 1, l) = o[O_P], TF_V(out, 2, l) = o[O_HOUT];
  }
}
static void recv_balance_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *in = LIED_LANE_IN(rg_receiver, g, inlet.state);
  const double *q_in = LIED_LANE_IN(rg_receiver, g, Q_in.y);
  const double *out = RL(outlet.state);
  for (size_t l = 0; l < n; l++) {
    RL(Q_used)[l] = TF_LANE_INT(rg_receiver, g, Q_from_input, l) ? q_in[l] : RL(Q)[l];
    recv_balance_eq(TF_V(in, 0, l), TF_V(in, 2, l), RL(h)[l], RL(m_flow)[l], TF_V(out, 2, l),
                    RL(Q_used)[l], &RL(der_M)[l], &RL(der_U)[l]);
  }
}
LIED_LANE_BODY void recv_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict d = RL(dm_flow);
  double *restrict o = RL(outlet.der.der_m_flow), *restrict x = RL(der_m_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = d[l], x[l] = d[l];
}
LIED_LANE_FORM(recv_der_lanes)
LIED_LANE_BODY void recv_res_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict r = LIED_LANE_IN(rg_receiver, g, outlet.r);
  const double *restrict d = RL(dm_flow), *restrict L = RL(L);
  double *restrict o = RL(res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = r[l] + L[l] * d[l];
}
LIED_LANE_FORM(recv_res_lanes)
LIED_LANE_BODY void recv_r_in_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict in = LIED_LANE_IN(rg_receiver, g, inlet.state);
  const double *restrict d = LIED_LANE_IN(rg_receiver, g, inlet.der);
  const double *restrict p = RL(p), *restrict L = RL(L_in);
  double *restrict o = RL(inlet.r.r);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = p[l] - TF_V(in, 1, l) + L[l] * d[l];
}
LIED_LANE_FORM(recv_r_in_lanes)
#undef RL

/* The charge and energy of a vessel of saturated liquid (share level0 of V)
 * and vapour at p0. */
static int recv_init_common(rg_receiver *r, lied_init *ctx, int accumulator) {
  r->accumulator = accumulator;
  if (rg_medium_init(&r->med, ctx)) return -1;
  tf_sat s;
  if (r->med.fn->sat_p(r->med.par + 1, r->p0, &s)) {
    lied_init_error(ctx, "p0 = %g Pa has no saturated states in %s (above the critical pressure "
                    "or outside the table)", r->p0, r->med.fn->name);
    return -1;
  }
  const double mL = r->level0 * r->V * s.rhoL, mV = (1 - r->level0) * r->V * s.rhoV;
  r->M = mL + mV;
  r->U = mL * s.hL + mV * s.hV - r->p0 * r->V;
  return 0;
}
static int recv_init(void *self, lied_init *ctx) { return recv_init_common(self, ctx, 0); }
static int acc_init(void *self, lied_init *ctx) { return recv_init_common(self, ctx, 1); }

static void recv_meta(lied_meta *m, void *self) {
  rg_receiver *r = self;
  tf_meta_in(m, "inlet", 0, &r->inlet, &r->med);
  tf_meta_out(m, "outlet", 0, &r->outlet, &r->med);
  if (r->Q_from_input) lied_meta_real_in(m, "Q_in", 0, &r->Q_in);
  lied_meta_real_out(m, "level", 0, &r->level);
  lied_meta_state(m, "M", "kg", &r->M, &r->der_M);
  lied_meta_state(m, "U", "J", &r->U, &r->der_U);
  lied_meta_state(m, "m_flow", "kg/s", &r->m_flow, &r->der_m_flow);
  lied_meta_tear(m, "dm_flow", &r->dm_flow, "res", &r->res);
  lied_meta_var(m, "p", "Pa", &r->p);
  lied_meta_var(m, "h", "J/kg", &r->h);
  lied_meta_var(m, "rho", "kg/m3", &r->rho);
  lied_meta_var(m, "T", "K", &r->T);
  lied_meta_var(m, "x", "1", &r->x);
  lied_meta_var(m, "x_out", "1", &r->x_out);
  lied_meta_var(m, "Q", "W", &r->Q_used);
  lied_meta_block(m, "thermo", recv_thermo_b, 0, LIED_SIGS(&r->M, &r->U, &r->m_flow),
                  LIED_SIGS(&r->rho, &r->p, &r->h, &r->T, &r->x, &r->x_out, &r->level.y,
                            &r->outlet.state));
  lied_meta_lanes(m, recv_thermo_lanes);
  /* of the inlet's state the balance reads m and h (listed twice), r_in p */
  lied_meta_block(m, "balance", recv_balance_b, 0,
                  LIED_SIGS(&r->inlet.state, &r->inlet.state, &r->m_flow, &r->h,
                            &r->outlet.state.h, r->Q_from_input ? &r->Q_in.y : NULL),
                  LIED_SIGS(&r->der_M, &r->der_U, &r->Q_used));
  lied_meta_lanes(m, recv_balance_lanes);
  tf_meta_reads(m, &r->inlet, TF_M | TF_H);
  lied_meta_block(m, "der", recv_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&r->dm_flow),
                  LIED_SIGS(&r->outlet.der, &r->der_m_flow));
  lied_meta_lanes(m, recv_der_lanes);
  lied_meta_block(m, "residual", recv_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&r->outlet.r, &r->dm_flow), LIED_SIGS(&r->res));
  lied_meta_lanes(m, recv_res_lanes);
  lied_meta_block(m, "r_in", recv_r_in_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&r->p, &r->inlet.state, &r->inlet.der), LIED_SIGS(&r->inlet.r));
  lied_meta_lanes(m, recv_r_in_lanes);
  tf_meta_reads(m, &r->inlet, TF_P);
  lied_meta_block(m, "kinks", recv_kinks_b, 0, LIED_SIGS(&r->inlet.state, &r->p, &r->h, &r->level.y),
                  LIED_SIGS(&r->z_flow, &r->z_phase[0], &r->z_phase[1], &r->z_mouth));
  tf_meta_reads(m, &r->inlet, TF_M);
  tf_meta_flow_kink(m, "z_flow", &r->z_flow);
  tf_meta_phase_kinks(m, &r->med, r->z_phase);
  lied_meta_zero(m, "z_mouth", &r->z_mouth, LIED_ZC_BOTH | LIED_ZC_KINK);
}

#define RECV_PARAMS(LEVEL0, MOUTH, MOUTH_DOC)                                                    \
  {"V", offsetof(rg_receiver, V), 1e-3, "m3", "volume", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0, NULL}, \
  {"p0", offsetof(rg_receiver, p0), 1e6, "Pa", "start pressure (saturated content)", 0,        \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0, NULL},                                                     \
  {"level0", offsetof(rg_receiver, level0), LEVEL0, "1",                                        \
   "start level: the saturated liquid's share of V at p0 (the rest saturated vapour)", 0, 1, 0, \
   0, NULL},                                                                                    \
  {"level_mouth", offsetof(rg_receiver, b), MOUTH, "1", MOUTH_DOC, 0, 1, 0, 0, NULL},           \
  {"Q", offsetof(rg_receiver, Q), 0, "W", "heat flow into the content (unless Q_from_input)",   \
   TF_NOMIN, TF_NOMAX, 0, 0, NULL},                                                             \
  {"Q_from_input", offsetof(rg_receiver, Q_from_input), 0, "1",                                 \
   "1: heat flow from the signal input Q_in [W]", 0, 1, LIED_PARAM_INT, 0, NULL},               \
  {"L", offsetof(rg_receiver, L), 0, "1/m", "inertance of the outlet (length / area)", 0,      \
   TF_NOMAX, 0, 0, NULL},                                                                       \
  {"L_in", offsetof(rg_receiver, L_in), 0, "1/m", "inertance of the inlet (length / area)", 0,  \
   TF_NOMAX, 0, 0, NULL},                                                                       \
  {"m_flow", offsetof(rg_receiver, m_flow), 0, "kg/s", "start value of the outlet flow",       \
   TF_NOMIN, TF_NOMAX, 0, 0, NULL},                                                             \
  RG_MEDIUM_PARAM(rg_receiver)

static const lied_param recv_params[] = {
    RECV_PARAMS(0.5, 0.02, "level below which vapour enters the outlet (its mouth near the bottom)")};
static const lied_param acc_params[] = {
    RECV_PARAMS(0.2, 0.02, "share of V above the level below which liquid enters the outlet (its "
                "mouth near the top)")};
const lied_class rg_receiver_class = {
    "Receiver", "thermofluid",
    "refrigerant receiver: a rigid vessel (charge M and energy U as states) whose outlet draws "
    "saturated liquid while it holds liquid; level output (the liquid's share of V)",
    sizeof(rg_receiver), recv_params, sizeof recv_params / sizeof *recv_params, recv_init,
    recv_meta};
const lied_class rg_accumulator_class = {
    "Accumulator", "thermofluid",
    "suction accumulator: a rigid vessel (charge M and energy U as states) whose outlet draws "
    "saturated vapour while it holds vapour; level output (the liquid's share of V)",
    sizeof(rg_receiver), acc_params, sizeof acc_params / sizeof *acc_params, acc_init, recv_meta};
