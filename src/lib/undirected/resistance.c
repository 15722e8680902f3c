/* resistance.c - undirected flow resistances with the laws of the directed
 * library (src/lib/thermofluid/pressure_drop.c), all odd in the mass flow:
 *   PressureDrop          dp = 0.5*dp_ref*(u + u|u|), u = m/(rho*v_ref)
 *   LinearQuadraticDrop   dp = k1*m + k2*m|m|
 *   LaminarDrop           dp = 128*mu*l*m/(pi*d^4*rho)
 * Forwards the fore's pressure is the rear's less dp(m, rho of the forward
 * inflow); rearwards the rear's p_back is the fore's p_back plus dp(m, rho of
 * the rearward inflow) (for m < 0 a drop of the rearward flow). Enthalpy and
 * composition pass unchanged both ways; rear.r = fore.r + L*der_m_flow. At
 * zero flow dp = 0 both ways: smooth through a reversal (the segment's ends
 * blend the two directions, docs/thermofluid.md). */
#include "lib/undirected/undirected.h"

enum { LAW_REF = 1, LAW_LINQUAD, LAW_LAMINAR };

typedef struct tfu_drop {
  tfu_elem e;
  double a, b, c;       /* law parameters, see the classes' tables */
  double rise_f, rise_b; /* -dp(m) with the forward and the rearward inflow's state */
  double dp;            /* the drop of the flow's direction (recorded) */
  int law, pad_;
} tfu_drop;

/* The laws' drop for the signed flow m and the inflow's state (p, h) in med. */
static inline double dp_ref_eq(double dp_ref, double v_ref, double m, double rho) {
  const double u = m / (rho * v_ref);
  return 0.5 * dp_ref * (u + u * fabs(u));
}
static inline double dp_linquad_eq(double k1, double k2, double m) { return k1 * m + k2 * m * fabs(m); }
static inline double dp_laminar_eq(double l, double dd, double mu, double m, double rho) {
  const double d4 = dd * dd * dd * dd;
  return 128.0 * mu * l * m / (TF_PI * d4 * rho);
}
static inline double drop_rise_eq(int law, double a, double b, double c, const tf_med *med,
                                  double m, double p, double h) {
  switch (law) {
    case LAW_REF: return -dp_ref_eq(a, b, m, tf_rho(med, p, h));
    case LAW_LINQUAD: return -dp_linquad_eq(a, b, m);
    default: return -dp_laminar_eq(a, b, c, m, tf_rho(med, p, h));
  }
}
static inline double drop_rise(const tfu_drop *d, const tf_med *med, double m, double p,
                               double h) {
  return drop_rise_eq(d->law, d->a, d->b, d->c, med, m, p, h);
}
TFU_RISE_BLOCKS(drop, tfu_drop, drop_rise)

/* Lane forms of the two explicit blocks (the same operations copy by copy):
 * in the lanes of the inflow's state signal (p, h, X1), out those of the
 * outgoing one's pressure (h, X1: the blocks carry), sign +1 forwards (p + rise), -1 rearwards (p - rise). With
 * the liquid and the PressureDrop law in every copy the density is the
 * liquid's law written out (tf_liquid_rho), so the loop vectorises. */
LIED_LANE_BODY void drop_dir_lanes(const lied_env *env, char *g, size_t n, const double *in,
                                   double *out, double *rise, int sign) {
  const double *restrict m = LIED_LANE_IN(tfu_drop, g, e.rear.flow);
  const double *restrict a = LIED_LANE(tfu_drop, g, a), *restrict b = LIED_LANE(tfu_drop, g, b);
  const double *restrict par = LIED_LANE(tfu_drop, g, e.med.par);
  int fast = tfu_lanes_liquid(par, n);
  for (size_t l = 0; l < n; l++) fast &= TF_LANE_INT(tfu_drop, g, law, l) == LAW_REF;
  if (fast) {
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) {
      const double c[5] = {par[LIED_LANES + l], 0, par[3 * LIED_LANES + l], par[4 * LIED_LANES + l], 0};
      rise[l] = -dp_ref_eq(a[l], b[l], m[l], tf_liquid_rho(c, TF_V(in, 0, l)));
    }
  } else {
    const double *c = LIED_LANE(tfu_drop, g, c);
    for (size_t l = 0; l < n; l++) {
      tf_med med;
      TF_LANE_MED_AT(tfu_drop, g, e.med, l, in + 2 * LIED_LANES, &med);
      rise[l] = drop_rise_eq(TF_LANE_INT(tfu_drop, g, law, l), a[l], b[l], c[l], &med, m[l],
                             TF_V(in, 0, l), TF_V(in, 1, l));
    }
  }
  for (size_t l = 0; l < n; l++) {
    if (!isfinite(rise[l])) {
      tf_med med;
      TF_LANE_MED_AT(tfu_drop, g, e.med, l, in + 2 * LIED_LANES, &med);
      tf_fault_ph(env, TF_LANE_WORD(tfu_drop, g, rise_f, l), &med, TF_V(in, 0, l), TF_V(in, 1, l),
                  sign > 0 ? "forward inflow" : "rearward inflow");
    }
  }
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    out[l] = sign > 0 ? TF_V(in, 0, l) + rise[l] : TF_V(in, 0, l) - rise[l];
  }
}
LIED_LANE_BODY void drop_fwd_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  drop_dir_lanes(env, g, n, LIED_LANE_IN(tfu_drop, g, e.rear.state),
                 LIED_LANE(tfu_drop, g, e.fore.state.p), LIED_LANE(tfu_drop, g, rise_f), 1);
}
LIED_LANE_FORM(drop_fwd_lanes)
LIED_LANE_BODY void drop_back_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  drop_dir_lanes(env, g, n, LIED_LANE_IN(tfu_drop, g, e.fore.back),
                 LIED_LANE(tfu_drop, g, e.rear.back.p), LIED_LANE(tfu_drop, g, rise_b), -1);
}
LIED_LANE_FORM(drop_back_lanes)

static void drop_out(const lied_env *env, tfu_drop *d) {
  (void)env;
  d->dp = -(d->e.rear.flow->m_flow >= 0 ? d->rise_f : d->rise_b);
}
LIED_BLOCK(drop_out_b, tfu_drop, drop_out)

static void drop_meta(lied_meta *m, void *self) {
  tfu_drop *d = self;
  tfu_elem_meta(m, &d->e, d->e.L > 0);
  lied_meta_var(m, "m_flow", "kg/s", &d->e.fore.flow.m_flow);
  lied_meta_var(m, "dp", "Pa", &d->dp);
  tfu_rise_meta_lanes(m, &d->e, drop_fwd_b, drop_back_b, drop_fwd_lanes, drop_back_lanes,
                      &d->rise_f, &d->rise_b,
                      d->law == LAW_LINQUAD ? TFU_P : tfu_rho_reads(&d->e.med), NULL);
  lied_meta_block(m, "output", drop_out_b, 0,
                  LIED_SIGS(&d->e.rear.flow, &d->rise_f, &d->rise_b), LIED_SIGS(&d->dp));
}

#define DROP_INIT(NAME, LAW)                        \
  static int NAME(void *self, lied_init *ctx) {     \
    tfu_drop *d = self;                             \
    d->law = LAW;                                   \
    return tf_medium_init(&d->e.med, ctx);            \
  }
DROP_INIT(init_ref, LAW_REF)
DROP_INIT(init_linquad, LAW_LINQUAD)
DROP_INIT(init_laminar, LAW_LAMINAR)

#define DROP_L TFU_ELEM_L(tfu_drop)

static const lied_param ref_params[] = {
    {"dp_ref", offsetof(tfu_drop, a), 1e4, "Pa", "pressure drop at the reference flow", 0,
     TF_NOMAX, 0, 0},
    {"v_ref", offsetof(tfu_drop, b), 1e-3, "m3/s", "reference volume flow", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    DROP_L,
    TFU_ELEM_MEDIUM(tfu_drop),
};
const lied_class tfu_pressure_drop_class = {
    "PressureDrop", "undirected",
    "undirected flow resistance: u = m_flow/(rho*v_ref), dp = 0.5*dp_ref*(u + u*|u|), rho of "
    "the inflow each way; rear.r = fore.r + L*der_m_flow",
    sizeof(tfu_drop), ref_params, sizeof ref_params / sizeof *ref_params, init_ref, drop_meta};

static const lied_param linquad_params[] = {
    {"k1", offsetof(tfu_drop, a), 0, "Pa.s/kg", "linear coefficient", 0, TF_NOMAX, 0, 0},
    {"k2", offsetof(tfu_drop, b), 1e4, "Pa.s2/kg2", "quadratic coefficient", 0, TF_NOMAX, 0, 0},
    DROP_L,
    TFU_ELEM_MEDIUM(tfu_drop),
};
const lied_class tfu_linquad_drop_class = {
    "LinearQuadraticDrop", "undirected",
    "undirected flow resistance dp = k1*m_flow + k2*m_flow*|m_flow|; rear.r = fore.r + "
    "L*der_m_flow",
    sizeof(tfu_drop), linquad_params, sizeof linquad_params / sizeof *linquad_params,
    init_linquad, drop_meta};

static const lied_param laminar_params[] = {
    {"l", offsetof(tfu_drop, a), 1, "m", "pipe length", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"d", offsetof(tfu_drop, b), 0.01, "m", "pipe diameter", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN,
     0},
    {"mu", offsetof(tfu_drop, c), 1e-3, "Pa.s", "dynamic viscosity", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    DROP_L,
    TFU_ELEM_MEDIUM(tfu_drop),
};
const lied_class tfu_laminar_drop_class = {
    "LaminarDrop", "undirected",
    "undirected laminar pipe flow (Hagen-Poiseuille): dp = 128*mu*l*m_flow/(pi*d^4*rho), rho "
    "of the inflow each way; rear.r = fore.r + L*der_m_flow",
    sizeof(tfu_drop), laminar_params, sizeof laminar_params / sizeof *laminar_params,
    init_laminar, drop_meta};
