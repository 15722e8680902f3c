/* conduction.c - ConductionElement: a flowing volume V with a heat port (a
 * node of the heat connector, docs/thermal.md). Its content has an
 * enthalpy state h, fed by the upwind enthalpy and by the heat that the
 * branches on heatPort deliver (minus the heat flow they draw):
 *   heatPort.T = T(p, h)
 *   M der(h) = |m_flow|*(h_in - h) + Q,  Q = -heatPort.Q_flow
 * with the fixed mass M = rho(p0, h(p0, T0))*V of a flow-through cell
 * (thermofluid.h, tf_cell_mass)
 *   outlet: (m_flow, p, h) of the inlet with the content's h
 * As a Heater whose Q comes from the heat port (after TFS's
 * ConductionElement; the conductance lives in the branch, e.g. a
 * ThermalConductor or Convection between the element and a wall). */
#include "lib/thermofluid/deps.h"

typedef struct tf_cond {
  tf_in inlet;
  tf_out outlet;
  th_node heatPort;
  tf_med med;
  double V, T0, p0, L;
  double M;        /* fixed mass of the content (init) */
  double h, der_h; /* state */
  double T, Q;     /* content temperature, heat flow into the fluid */
  double z_flow, z_phase[TF_PHASE_MAX]; /* kink functions (docs/events.md) */
} tf_cond;

/* The outlet: the inlet's p; its m_flow and X with the content's h. */
TF_P_PASS(cond_pressure_b, tf_cond, inlet, outlet)
TF_CELL_FLOW(cond_flow_b, tf_cond, inlet, outlet, h, med)
/* T(p, h) at the outlet's p (the inlet's, from the pressure block: read
 * only where the medium's T depends on it) */
static void cond_temp(const lied_env *env, tf_cond *e) {
  tf_med mx;
  const tf_med *med = tf_med_at(&e->med, e->inlet.X, &mx);
  e->T = tf_T(med, e->outlet.state.p, e->h);
  TF_GUARD_PH(env, e, med, e->T, e->outlet.state.p, e->h, "content");
  e->heatPort.T.T = e->T;
}
static inline void cond_energy_eq(double m, double h_in, double h, double Qport, double M,
                                  double *Q, double *der_h) {
  *Q = -Qport;
  *der_h = tf_cell_der(m, h_in, h, *Q, M);
}
static void cond_energy(const lied_env *env, tf_cond *e) {
  (void)env;
  const tf_state *in = e->inlet.state;
  cond_energy_eq(in->m_flow, in->h, e->h, e->heatPort.Q->Q_flow, e->M, &e->Q, &e->der_h);
}
static void cond_der(const lied_env *env, tf_cond *e) {
  (void)env;
  tf_pass_der(&e->inlet, &e->outlet);
}
static void cond_r(const lied_env *env, tf_cond *e) {
  (void)env;
  tf_pass_r(&e->inlet, &e->outlet, e->L);
}
/* Kinks: |m_flow| at the flow's reversal, T(p, h) at the medium's phase
 * boundaries. */
static void cond_kinks(const lied_env *env, tf_cond *e) {
  (void)env;
  tf_med mx;
  e->z_flow = e->inlet.state->m_flow;
  tf_phase_z(tf_med_at(&e->med, e->inlet.X, &mx), e->inlet.state->p, e->h, e->z_phase);
}
LIED_BLOCK(cond_kinks_b, tf_cond, cond_kinks)
LIED_BLOCK(cond_temp_b, tf_cond, cond_temp)
LIED_BLOCK(cond_energy_b, tf_cond, cond_energy)
LIED_BLOCK(cond_der_b, tf_cond, cond_der)
LIED_BLOCK(cond_r_b, tf_cond, cond_r)

/* ---- lane forms ------------------------------------------------------------ */
static void cond_temp_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *p = LIED_LANE(tf_cond, g, outlet.state.p);
  const double *h = LIED_LANE(tf_cond, g, h), *par = LIED_LANE(tf_cond, g, med.par);
  const double *X = LIED_LANE_IN(tf_cond, g, inlet.X);
  const tf_medium *const *fns = TF_LANE_FNS(tf_cond, g, med);
  double *T = LIED_LANE(tf_cond, g, T), *Tp = LIED_LANE(tf_cond, g, heatPort.T.T);
  double buf[TF_MEDIUM_LEN * LIED_LANES];
  tf_T_lanes(n, tf_par_lanes_at(n, par, fns, X, buf), fns, p, h, T);
  for (size_t l = 0; l < n; l++) {
    if (!isfinite(T[l])) {
      tf_med med;
      TF_LANE_MED_AT(tf_cond, g, med, l, X, &med);
      tf_fault_ph(env, TF_LANE_WORD(tf_cond, g, h, l), &med, p[l], h[l], "content");
    }
    Tp[l] = T[l];
  }
}
LIED_LANE_BODY void cond_energy_lanes_n(const lied_env *env, char *g, size_t n,
                                        size_t stride) {
  (void)env, (void)stride;
  const double *restrict in = LIED_LANE_IN(tf_cond, g, inlet.state);
  const double *restrict Qp = LIED_LANE_IN(tf_cond, g, heatPort.Q);
  const double *restrict h = LIED_LANE(tf_cond, g, h), *restrict M = LIED_LANE(tf_cond, g, M);
  double *restrict Q = LIED_LANE(tf_cond, g, Q), *restrict der_h = LIED_LANE(tf_cond, g, der_h);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    cond_energy_eq(TF_V(in, 0, l), TF_V(in, 2, l), h[l], Qp[l], M[l], &Q[l], &der_h[l]);
}
LIED_LANE_FORM(cond_energy_lanes)
TF_DER_LANES(cond_der_lanes, tf_cond, inlet, outlet)
TF_R_LANES(cond_r_lanes, tf_cond, inlet, outlet, L)

static int cond_init(void *self, lied_init *ctx) {
  tf_cond *e = self;
  if (tf_medium_init(&e->med, ctx)) return -1;
  if (tf_medium_check_pT(&e->med, ctx, e->p0, e->T0, "start state (p0, T0)")) return -1;
  e->h = tf_h(&e->med, e->p0, e->T0);
  if (tf_cell_mass_init(&e->med, ctx, e->p0, e->T0, e->V, "V", &e->M)) return -1;
  return 0;
}

static void cond_meta(lied_meta *m, void *self) {
  tf_cond *e = self;
  tf_meta_in(m, "inlet", 0, &e->inlet, &e->med);
  tf_meta_out(m, "outlet", 0, &e->outlet, &e->med);
  lied_meta_port(m, "heatPort", 0, &e->heatPort, &th_node_layout);
  lied_meta_state(m, "h", "J/kg", &e->h, &e->der_h);
  lied_meta_var(m, "m_flow", "kg/s", &e->outlet.state.m_flow);
  lied_meta_var(m, "T", "K", &e->T);
  lied_meta_var(m, "Q", "W", &e->Q);
  lied_meta_var(m, "M", "kg", &e->M);
  tf_meta_p_pass(m, "pressure", cond_pressure_b, cond_pressure_b_lanes, &e->inlet, &e->outlet);
  tf_meta_cell_flow(m, cond_flow_b, cond_flow_b_lanes, &e->inlet, &e->outlet, &e->h, &e->med);
  lied_meta_block(m, "temperature", cond_temp_b, 0,
                  e->med.fn->T_of_h ? LIED_SIGS(&e->h, TF_X(&e->med, e->inlet))
                                    : LIED_SIGS(&e->outlet.state.p, &e->h, TF_X(&e->med, e->inlet)),
                  LIED_SIGS(&e->T, &e->heatPort.T));
  lied_meta_lanes(m, cond_temp_lanes);
  lied_meta_block(m, "energy", cond_energy_b, 0,
                  LIED_SIGS(&e->inlet.state, &e->inlet.state, &e->h, &e->heatPort.Q),
                  LIED_SIGS(&e->der_h, &e->Q));
  lied_meta_lanes(m, cond_energy_lanes);
  tf_meta_reads(m, &e->inlet, TF_M | TF_H);
  lied_meta_block(m, "der", cond_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->inlet.der),
                  LIED_SIGS(&e->outlet.der));
  lied_meta_lanes(m, cond_der_lanes);
  lied_meta_block(m, "r", cond_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&e->outlet.r, &e->inlet.der), LIED_SIGS(&e->inlet.r));
  lied_meta_lanes(m, cond_r_lanes);
  lied_meta_block(m, "kinks", cond_kinks_b, 0,
                  LIED_SIGS(&e->inlet.state, &e->h, TF_X(&e->med, e->inlet)),
                  LIED_SIGS(&e->z_flow, &e->z_phase[0], &e->z_phase[1]));
  tf_meta_reads(m, &e->inlet, TF_M | TF_P);
  tf_meta_flow_kink(m, "z_flow", &e->z_flow);
  tf_meta_phase_kinks(m, &e->med, e->z_phase);
}

static const lied_param cond_params[] = {
    {"V", offsetof(tf_cond, V), 1e-3, "m3", "fluid volume of the element", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"T0", offsetof(tf_cond, T0), 293.15, "K", "start temperature of the content", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    {"p0", offsetof(tf_cond, p0), 1e5, "Pa", "pressure of the start state, h = h(p0, T0) (the stream sets p later)", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_cond, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},
    TF_MEDIUM_PARAM(tf_cond),
};
const lied_class tf_conduction_class = {
    "ConductionElement", "thermofluid",
    "flowing volume V with a heat port (a node): heatPort.T = T(p, h), der(h) = "
    "(|m_flow|*(h_in - h) - heatPort.Q_flow)/M, fixed mass M = rho(p0, T0)*V",
    sizeof(tf_cond), cond_params, sizeof cond_params / sizeof *cond_params, cond_init,
    cond_meta};
