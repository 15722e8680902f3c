/* cell.c - Cell: a battery cell as an equivalent circuit (docs/electrical.md,
 * "Battery cells"). Between its pins p and n (both branches):
 *   v = OCV(SoC, T) + u1 + u2 + R0 i       i the current into p (charging)
 *   C1 der(u1) = i - u1/R1,  C2 der(u2) = i - u2/R2     two RC pairs
 *   3600 Q der(SoC) = i                                 coulomb counting
 *   Cth der(T) = Q_gen - Gth (T - heat.T)               its own heat capacity
 *   Q_gen = R0 i^2 + u1^2/R1 + u2^2/R2 + i T dOCV/dT    Joule + reversible heat
 * OCV is a map of SoC and T (lied.table, any grid); dOCV/dT is its
 * central difference over 2 dT_ocv (within a bilinear map's cell, its exact
 * slope). The current is the one part a linear section solves: i = (v - E)
 * / R0 with E = OCV + u1 + u2 explicit from the states, affine in the
 * potentials with the constant coefficient 1/R0. With energy = 1 the cell
 * also integrates the heat it produced, E_heat, and the chemical energy it
 * stored, E_chem (der = i (OCV - T dOCV/dT)): then i v = der(E_chem) +
 * der(C1 u1^2/2 + C2 u2^2/2) + Q_gen exactly. */
#include "lib/electrical/electrical.h"
#include "lib/thermal/thermal.h"
#include "lied/table.h"

#define LF(F) EL_LF(el_cell, F)
#define LIN(F) EL_LIN(el_cell, F)

/* the half-width of the difference that gives dOCV/dT [K] */
#define CELL_DT_OCV 0.5

/* Laid out by use, 64 bytes a group (an evaluation streams the cells of a pack through
 * memory several times: each pass should touch as few cache lines of a cell as it can):
 * what the linear section's passes and the sum nodes read and write; the states and their
 * derivatives (the state transfers); what the emf and der blocks compute; the parameters
 * they read; the rest, which an evaluation does not touch without energy = 1. One hint
 * serves the three lookups (they share the interval of SoC). */
typedef struct el_cell {
  el_lbranch p, n;  /* section: p.i.i is the cell's current i */
  th_branch heat;
  double E, R0;
  double SoC, der_SoC, u1, der_u1, u2, der_u2, T, der_T; /* states */
  double ocv_v, dUdT, Q_port, v, Q_joule, Q_rev, Q_gen, cap;
  double R1, C1, R2, C2, Cth, Gth;
  const lied_table *ocv;
  lied_table_hint at;
  double E_heat, der_E_heat, E_chem, der_E_chem; /* energy = 1 */
  double Q;
  int energy;
} el_cell;

/* E = OCV + u1 + u2 and dOCV/dT from the three values of the map */
static inline void cell_emf_eq(double o, double o_hi, double o_lo, double u1, double u2,
                               double *E, double *dUdT) {
  *dUdT = (o_hi - o_lo) / (2 * CELL_DT_OCV);
  *E = o + u1 + u2;
}
static inline void cell_current_eq(double vp, double vn, double E, double R0, double *ip,
                                   double *in) {
  *ip = (vp - vn - E) / R0;
  *in = -*ip;
}
static inline void cell_heat_eq(double Gth, double T, double Tport, double *Qport,
                                double *Qflow) {
  *Qport = Gth * (T - Tport);
  *Qflow = -*Qport;
}
/* the derivatives and heats; the two accumulators' derivatives (written when energy = 1) */
static inline void cell_der_eq(double E, double vp, double vn, double u1, double u2, double T,
                               double o, double dUdT, double Qport, double cap, double R0,
                               double R1, double C1, double R2, double C2, double Cth,
                               double *v, double *dSoC, double *du1, double *du2, double *dT,
                               double *Qj, double *Qr, double *Qg, double *dEh, double *dEc) {
  double i, in;
  cell_current_eq(vp, vn, E, R0, &i, &in); /* again: the section's members need not run twice */
  *v = vp - vn;
  *dSoC = i / cap;
  *du1 = (i - u1 / R1) / C1;
  *du2 = (i - u2 / R2) / C2;
  *Qj = R0 * i * i + u1 * u1 / R1 + u2 * u2 / R2;
  *Qr = i * T * dUdT;
  *Qg = *Qj + *Qr;
  *dT = (*Qg - Qport) / Cth;
  *dEh = *Qg;
  *dEc = i * (o - T * dUdT);
}

/* SoC outside [0, 1]: discharged below 0 % or charged above 100 %, where the OCV map's
 * hold (or extrapolation) would go on giving a voltage and coulomb counting a charge the
 * cell has not: no state of a cell. Reported; the run stops (adaptive solvers first
 * retry shorter steps, so the time is where SoC leaves the range). */
static inline void cell_check_soc(const lied_env *env, const void *self, double SoC) {
  if (SoC < 0 || SoC > 1) /* NaN passes: a state gone NaN, which the solver names */
    lied_block_fault(env, self, "SoC = %g: the cell is %s (SoC must stay in [0, 1])", SoC,
                     SoC > 1 ? "charged above 100 %" : "discharged below 0 %");
}

/* the explicit part, from the states: the EMF, and the heat to the port */
static void cell_emf(const lied_env *env, el_cell *c) {
  cell_check_soc(env, c, c->SoC);
  const double hi = lied_table_lookup2(env, c, c->ocv, &c->at, c->SoC, c->T + CELL_DT_OCV);
  const double lo = lied_table_lookup2(env, c, c->ocv, &c->at, c->SoC, c->T - CELL_DT_OCV);
  c->ocv_v = lied_table_lookup2(env, c, c->ocv, &c->at, c->SoC, c->T);
  cell_emf_eq(c->ocv_v, hi, lo, c->u1, c->u2, &c->E, &c->dUdT);
  cell_heat_eq(c->Gth, c->T, c->heat.T->T, &c->Q_port, &c->heat.Q.Q_flow);
}
static void cell_current(const lied_env *env, el_cell *c) {
  (void)env;
  cell_current_eq(c->p.v->v, c->n.v->v, c->E, c->R0, &c->p.i.i, &c->n.i.i);
}
static inline void cell_der_one(el_cell *c, int energy) {
  double dEh, dEc;
  cell_der_eq(c->E, c->p.v->v, c->n.v->v, c->u1, c->u2, c->T, c->ocv_v, c->dUdT, c->Q_port,
              c->cap, c->R0, c->R1, c->C1, c->R2, c->C2, c->Cth, &c->v, &c->der_SoC, &c->der_u1,
              &c->der_u2, &c->der_T, &c->Q_joule, &c->Q_rev, &c->Q_gen, &dEh, &dEc);
  if (energy) c->der_E_heat = dEh, c->der_E_chem = dEc;
}
static void cell_der(const lied_env *env, el_cell *c) {
  (void)env;
  cell_der_one(c, 0);
}
static void cell_der_energy(const lied_env *env, el_cell *c) {
  (void)env;
  cell_der_one(c, 1);
}
LIED_BLOCK(cell_emf_b, el_cell, cell_emf)
LIED_BLOCK(cell_current_b, el_cell, cell_current)
LIED_BLOCK(cell_der_b, el_cell, cell_der)
LIED_BLOCK(cell_der_energy_b, el_cell, cell_der_energy)

LIED_LANE_FN static void cell_emf_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  if (n > LIED_LANES) n = LIED_LANES;
  const double *restrict SoC = LF(SoC), *restrict T = LF(T);
  const double *restrict u1 = LF(u1), *restrict u2 = LF(u2);
  double *restrict o = LF(ocv_v), *restrict E = LF(E), *restrict dUdT = LF(dUdT);
  double hi[LIED_LANES], lo[LIED_LANES], Th[LIED_LANES] = {0}, Tl[LIED_LANES] = {0};
  for (size_t l = 0; l < n; l++) Th[l] = T[l] + CELL_DT_OCV, Tl[l] = T[l] - CELL_DT_OCV;
  const lied_table *const *tab = LIED_LANE_TABLE(el_cell, g, ocv);
  lied_table_hint *at = LIED_LANE_HINT(el_cell, g, at);
  lied_table_lookup2_lanes(env, tab, at, SoC, Th, hi, n);
  lied_table_lookup2_lanes(env, tab, at, SoC, Tl, lo, n);
  lied_table_lookup2_lanes(env, tab, at, SoC, T, o, n);
  for (size_t l = 0; l < n; l++) cell_emf_eq(o[l], hi[l], lo[l], u1[l], u2[l], &E[l], &dUdT[l]);
  const double *restrict Tp = LIN(heat.T), *restrict G = LF(Gth);
  double *restrict Qp = LF(Q_port), *restrict Qf = LF(heat.Q.Q_flow);
  for (size_t l = 0; l < n; l++) cell_heat_eq(G[l], T[l], Tp[l], &Qp[l], &Qf[l]);
  for (size_t l = 0; l < n; l++) cell_check_soc(env, &SoC[l], SoC[l]);
}
LIED_LANE_BODY void cell_current_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(p.v), *restrict vn = LIN(n.v);
  const double *restrict E = LF(E), *restrict R0 = LF(R0);
  double *restrict ip = LF(p.i.i), *restrict in = LF(n.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) cell_current_eq(vp[l], vn[l], E[l], R0[l], &ip[l], &in[l]);
}
LIED_LANE_FORM(cell_current_lanes)
LIED_LANE_BODY void cell_der_lanes_k(const lied_env *env, char *g, size_t n, size_t stride,
                                     int energy) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(p.v), *restrict vn = LIN(n.v);
  const double *restrict E = LF(E), *restrict u1 = LF(u1), *restrict u2 = LF(u2);
  const double *restrict T = LF(T), *restrict o = LF(ocv_v), *restrict dUdT = LF(dUdT);
  const double *restrict Qp = LF(Q_port), *restrict cap = LF(cap), *restrict R0 = LF(R0);
  const double *restrict R1 = LF(R1), *restrict C1 = LF(C1), *restrict R2 = LF(R2);
  const double *restrict C2 = LF(C2), *restrict Cth = LF(Cth);
  double *restrict v = LF(v), *restrict dSoC = LF(der_SoC), *restrict du1 = LF(der_u1);
  double *restrict du2 = LF(der_u2), *restrict dT = LF(der_T), *restrict Qj = LF(Q_joule);
  double *restrict Qr = LF(Q_rev), *restrict Qg = LF(Q_gen), *restrict dEh = LF(der_E_heat);
  double *restrict dEc = LF(der_E_chem);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    double eh, ec;
    cell_der_eq(E[l], vp[l], vn[l], u1[l], u2[l], T[l], o[l], dUdT[l], Qp[l], cap[l], R0[l],
                R1[l], C1[l], R2[l], C2[l], Cth[l], &v[l], &dSoC[l], &du1[l], &du2[l], &dT[l],
                &Qj[l], &Qr[l], &Qg[l], &eh, &ec);
    if (energy) dEh[l] = eh, dEc[l] = ec;
  }
}
LIED_LANE_BODY void cell_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  cell_der_lanes_k(env, g, n, stride, 0);
}
LIED_LANE_FORM(cell_der_lanes)
LIED_LANE_BODY void cell_der_energy_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  cell_der_lanes_k(env, g, n, stride, 1);
}
LIED_LANE_FORM(cell_der_energy_lanes)

static void cell_meta(lied_meta *m, void *self) {
  el_cell *c = self;
  lied_meta_port(m, "p", 0, &c->p, &el_lbranch_layout);
  lied_meta_port(m, "n", 0, &c->n, &el_lbranch_layout);
  lied_meta_port(m, "heat", 0, &c->heat, &th_branch_layout);
  lied_meta_state(m, "SoC", "1", &c->SoC, &c->der_SoC);
  lied_meta_state(m, "u1", "V", &c->u1, &c->der_u1);
  lied_meta_state(m, "u2", "V", &c->u2, &c->der_u2);
  lied_meta_state(m, "T", "K", &c->T, &c->der_T);
  if (c->energy) {
    lied_meta_state(m, "E_heat", "J", &c->E_heat, &c->der_E_heat);
    lied_meta_state(m, "E_chem", "J", &c->E_chem, &c->der_E_chem);
  }
  lied_meta_var(m, "OCV", "V", &c->ocv_v);
  lied_meta_var(m, "dOCV_dT", "V/K", &c->dUdT);
  lied_meta_var(m, "E", "V", &c->E);
  lied_meta_var(m, "i", "A", &c->p.i.i); /* the current: p.i under its own name */
  lied_meta_var(m, "v", "V", &c->v);
  lied_meta_var(m, "Q_port", "W", &c->Q_port);
  lied_meta_var(m, "Q_joule", "W", &c->Q_joule);
  lied_meta_var(m, "Q_rev", "W", &c->Q_rev);
  lied_meta_var(m, "Q_gen", "W", &c->Q_gen);
  lied_meta_block(m, "emf", cell_emf_b, 0,
                  LIED_SIGS(&c->SoC, &c->T, &c->u1, &c->u2, &c->heat.T, &c->Gth),
                  LIED_SIGS(&c->ocv_v, &c->dUdT, &c->E, &c->Q_port, &c->heat.Q));
  lied_meta_lanes(m, cell_emf_lanes);
  lied_meta_block(m, "current", cell_current_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&c->p.v, &c->n.v, &c->E, &c->R0), LIED_SIGS(&c->p.i, &c->n.i));
  lied_meta_lanes(m, cell_current_lanes);
  const void *const der_in[] = {&c->E, &c->p.v, &c->n.v, &c->u1, &c->u2, &c->T,  &c->ocv_v,
                                &c->dUdT, &c->Q_port, &c->cap, &c->R0, &c->R1, &c->C1,
                                &c->R2, &c->C2, &c->Cth, NULL};
  if (c->energy) {
    lied_meta_block(m, "der", cell_der_energy_b, 0, der_in,
                    LIED_SIGS(&c->v, &c->der_SoC, &c->der_u1, &c->der_u2, &c->der_T,
                              &c->Q_joule, &c->Q_rev, &c->Q_gen, &c->der_E_heat,
                              &c->der_E_chem));
    lied_meta_lanes(m, cell_der_energy_lanes);
  } else {
    lied_meta_block(m, "der", cell_der_b, 0, der_in,
                    LIED_SIGS(&c->v, &c->der_SoC, &c->der_u1, &c->der_u2, &c->der_T,
                              &c->Q_joule, &c->Q_rev, &c->Q_gen));
    lied_meta_lanes(m, cell_der_lanes);
  }
}

static int cell_init(void *self, lied_init *ctx) {
  el_cell *c = self;
  if (lied_table_rank(c->ocv) != 2) {
    lied_init_error(ctx, "Cell: ocv must be a map of SoC and T");
    return -1;
  }
  c->cap = 3600 * c->Q;
  return 0;
}

#define POS LIED_PARAM_MIN_OPEN
static const lied_param cell_params[] = {
    {"ocv", offsetof(el_cell, ocv), 0, "", "open-circuit voltage [V] over SoC [1] and T [K] (a "
     "lied.table map)", 0, 0, LIED_PARAM_MAP, 0},
    {"Q", offsetof(el_cell, Q), 5, "A.h", "capacity", 0, EL_NOMAX, POS, 0},
    {"R0", offsetof(el_cell, R0), 2e-3, "Ohm", "series resistance", 0, EL_NOMAX, POS, 0},
    {"R1", offsetof(el_cell, R1), 1e-3, "Ohm", "resistance of the first RC pair", 0, EL_NOMAX,
     POS, 0},
    {"C1", offsetof(el_cell, C1), 1e4, "F", "capacitance of the first RC pair", 0, EL_NOMAX, POS,
     0},
    {"R2", offsetof(el_cell, R2), 1e-3, "Ohm", "resistance of the second RC pair", 0, EL_NOMAX,
     POS, 0},
    {"C2", offsetof(el_cell, C2), 1e5, "F", "capacitance of the second RC pair", 0, EL_NOMAX,
     POS, 0},
    {"Cth", offsetof(el_cell, Cth), 100, "J/K", "heat capacity", 0, EL_NOMAX, POS, 0},
    {"Gth", offsetof(el_cell, Gth), 1, "W/K", "thermal conductance to the heat port", 0,
     EL_NOMAX, 0, 0},
    {"SoC", offsetof(el_cell, SoC), 1, "1", "start state of charge", 0, 1, 0, 0},
    {"u1", offsetof(el_cell, u1), 0, "V", "start voltage of the first RC pair", EL_NOMIN,
     EL_NOMAX, 0, 0},
    {"u2", offsetof(el_cell, u2), 0, "V", "start voltage of the second RC pair", EL_NOMIN,
     EL_NOMAX, 0, 0},
    {"T", offsetof(el_cell, T), 298.15, "K", "start temperature", 0, EL_NOMAX, POS, 0},
    {"energy", offsetof(el_cell, energy), 0, "1",
     "1: integrate the heat produced (E_heat) and the chemical energy stored (E_chem)", 0, 1,
     LIED_PARAM_INT, 0},
};
#undef POS
const lied_class el_cell_class = {
    "Cell", "electrical",
    "battery cell, equivalent circuit: v = OCV(SoC, T) + u1 + u2 + R0 i, two RC pairs, coulomb "
    "counting, its heat capacity Cth with the Joule and reversible heat, Gth to its heat port",
    sizeof(el_cell), cell_params, 14, cell_init, cell_meta};
