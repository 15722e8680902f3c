/* heater.c - Heater: adds the heat flow Q to the stream (Q < 0 cools). The
 * fluid in the element (volume V) has an enthalpy state, so zero flow is not
 * singular: M der(h) = |m_flow|*(h_in - h) + Q with the fixed mass
 * M = rho(p0, h(p0, T0))*V of a flow-through cell (thermofluid.h,
 * tf_cell_mass); outlet h = h. */
#include "lib/thermofluid/deps.h"

typedef struct tf_heater {
  tf_in inlet;
  tf_out outlet;
  lied_real_in Q_in;
  tf_med med;
  double Q, V, T0, p0, L;
  int Q_from_input;
  double h, der_h; /* state: enthalpy of the content */
  double T, Q_used;
  double M; /* fixed mass of the content (init) */
  double z_flow; /* kink function: |m_flow| reverses (docs/events.md) */
} tf_heater;

/* The outlet: the inlet's p; its m_flow and X with the content's h. */
TF_P_PASS(heater_pressure_b, tf_heater, inlet, outlet)
TF_CELL_FLOW(heater_flow_b, tf_heater, inlet, outlet, h, med)
/* Energy balance of the content (reversed flow: the inlet's h is used). */
static void heater_energy(const lied_env *env, tf_heater *e) {
  (void)env;
  const tf_state *in = e->inlet.state;
  e->Q_used = e->Q_from_input ? e->Q_in.y->y : e->Q;
  e->der_h = tf_cell_der(in->m_flow, in->h, e->h, e->Q_used, e->M);
}
static void heater_der(const lied_env *env, tf_heater *e) {
  (void)env;
  tf_pass_der(&e->inlet, &e->outlet);
}
static void heater_r(const lied_env *env, tf_heater *e) {
  (void)env;
  tf_pass_r(&e->inlet, &e->outlet, e->L);
}
static void heater_out(const lied_env *env, tf_heater *e) {
  tf_med mx;
  const tf_med *med = tf_med_at(&e->med, &e->outlet.X, &mx);
  e->T = tf_T(med, e->outlet.state.p, e->h);
  TF_GUARD_PH(env, e, med, e->T, e->outlet.state.p, e->h, "content");
}
static void heater_kink(const lied_env *env, tf_heater *e) {
  (void)env;
  e->z_flow = e->inlet.state->m_flow;
}
LIED_BLOCK(heater_kink_b, tf_heater, heater_kink)
LIED_BLOCK(heater_energy_b, tf_heater, heater_energy)
LIED_BLOCK(heater_der_b, tf_heater, heater_der)
LIED_BLOCK(heater_r_b, tf_heater, heater_r)
LIED_BLOCK(heater_out_b, tf_heater, heater_out)

/* ---- lane forms ------------------------------------------------------------ */
static void heater_energy_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *in = LIED_LANE_IN(tf_heater, g, inlet.state);
  const double *Qin = LIED_LANE_IN(tf_heater, g, Q_in.y); /* NULL without the input */
  const double *h = LIED_LANE(tf_heater, g, h), *M = LIED_LANE(tf_heater, g, M),
               *Q = LIED_LANE(tf_heater, g, Q);
  double *Qu = LIED_LANE(tf_heater, g, Q_used), *der = LIED_LANE(tf_heater, g, der_h);
  for (size_t l = 0; l < n; l++) {
    Qu[l] = TF_LANE_INT(tf_heater, g, Q_from_input, l) ? Qin[l] : Q[l];
    der[l] = tf_cell_der(TF_V(in, 0, l), TF_V(in, 2, l), h[l], Qu[l], M[l]);
  }
}
TF_DER_LANES(heater_der_lanes, tf_heater, inlet, outlet)
TF_R_LANES(heater_r_lanes, tf_heater, inlet, outlet, L)
/* T from the medium's lane form; a copy outside its range is its fault. */
static void heater_out_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *o = LIED_LANE(tf_heater, g, outlet.state);
  const double *h = LIED_LANE(tf_heater, g, h), *par = LIED_LANE(tf_heater, g, med.par);
  const double *X = LIED_LANE_IN(tf_heater, g, inlet.X) ? LIED_LANE(tf_heater, g, outlet.X) : NULL;
  const tf_medium *const *fns = TF_LANE_FNS(tf_heater, g, med);
  double *T = LIED_LANE(tf_heater, g, T), buf[TF_MEDIUM_LEN * LIED_LANES];
  tf_T_lanes(n, tf_par_lanes_at(n, par, fns, X, buf), fns, o + LIED_LANES, h, T); /* p */
  for (size_t l = 0; l < n; l++)
    if (!isfinite(T[l])) {
      tf_med med;
      TF_LANE_MED_AT(tf_heater, g, med, l, X, &med);
      tf_fault_ph(env, TF_LANE_WORD(tf_heater, g, h, l), &med, TF_V(o, 1, l), h[l], "content");
    }
}

/* Start enthalpy from (p0, T0) (p0 = 1 bar by default). */
static int heater_init(void *self, lied_init *ctx) {
  tf_heater *e = self;
  if (tf_medium_init(&e->med, ctx)) return -1;
  if (tf_medium_check_pT(&e->med, ctx, e->p0, e->T0, "start state (p0, T0)")) return -1;
  e->h = tf_h(&e->med, e->p0, e->T0);
  if (tf_cell_mass_init(&e->med, ctx, e->p0, e->T0, e->V, "V", &e->M)) return -1;
  return 0;
}

static void heater_meta(lied_meta *m, void *self) {
  tf_heater *e = self;
  tf_meta_in(m, "inlet", 0, &e->inlet, &e->med);
  tf_meta_out(m, "outlet", 0, &e->outlet, &e->med);
  if (e->Q_from_input) lied_meta_real_in(m, "Q_in", 0, &e->Q_in);
  lied_meta_state(m, "h", "J/kg", &e->h, &e->der_h);
  lied_meta_var(m, "m_flow", "kg/s", &e->outlet.state.m_flow);
  lied_meta_var(m, "T", "K", &e->T);
  lied_meta_var(m, "Q", "W", &e->Q_used);
  lied_meta_var(m, "M", "kg", &e->M);
  tf_meta_p_pass(m, "pressure", heater_pressure_b, heater_pressure_b_lanes, &e->inlet,
                 &e->outlet);
  tf_meta_cell_flow(m, heater_flow_b, heater_flow_b_lanes, &e->inlet, &e->outlet, &e->h,
                    &e->med);
  const void *in[5] = {&e->inlet.state, &e->inlet.state, &e->h, NULL, NULL};
  if (e->Q_from_input) in[3] = &e->Q_in.y;
  lied_meta_block(m, "energy", heater_energy_b, 0, in, LIED_SIGS(&e->der_h, &e->Q_used));
  lied_meta_lanes(m, heater_energy_lanes);
  tf_meta_reads(m, &e->inlet, TF_M | TF_H);
  lied_meta_block(m, "der", heater_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->inlet.der),
                  LIED_SIGS(&e->outlet.der));
  lied_meta_lanes(m, heater_der_lanes);
  lied_meta_block(m, "r", heater_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&e->outlet.r, &e->inlet.der), LIED_SIGS(&e->inlet.r));
  lied_meta_lanes(m, heater_r_lanes);
  lied_meta_block(m, "output", heater_out_b, 0,
                  LIED_SIGS(&e->outlet.state.p, &e->h, TF_X(&e->med, e->outlet)),
                  LIED_SIGS(&e->T));
  lied_meta_lanes(m, heater_out_lanes);
  lied_meta_block(m, "kink", heater_kink_b, 0, LIED_SIGS(&e->inlet.state), LIED_SIGS(&e->z_flow));
  tf_meta_reads(m, &e->inlet, TF_M);
  tf_meta_flow_kink(m, "z_flow", &e->z_flow);
}

static const lied_param heater_params[] = {
    {"Q", offsetof(tf_heater, Q), 0, "W", "heat flow into the stream (unless Q_from_input)",
     TF_NOMIN, TF_NOMAX, 0, 0},
    {"V", offsetof(tf_heater, V), 1e-3, "m3", "fluid volume of the element (thermal inertia)",
     0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"T0", offsetof(tf_heater, T0), 293.15, "K", "start temperature of the content", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"p0", offsetof(tf_heater, p0), 1e5, "Pa", "pressure of the start state, h = h(p0, T0) (the stream sets p later)", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"L", offsetof(tf_heater, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},
    {"Q_from_input", offsetof(tf_heater, Q_from_input), 0, "1",
     "1: heat flow from the signal input Q_in [W]", 0, 1, LIED_PARAM_INT, 0},
    TF_MEDIUM_PARAM(tf_heater),
};
const lied_class tf_heater_class = {
    "Heater", "thermofluid",
    "adds the heat flow Q to the stream through a small volume V: M der(h) = "
    "|m_flow|*(h_in - h) + Q, fixed mass M = rho(p0, T0)*V; Q from a parameter or the signal input Q_in",
    sizeof(tf_heater), heater_params, sizeof heater_params / sizeof *heater_params,
    heater_init, heater_meta};
