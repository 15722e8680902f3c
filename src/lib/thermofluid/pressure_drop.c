/* pressure_drop.c - flow resistances: PressureDrop (the TFS law, quadratic
 * with a linear part near zero), LinearQuadraticDrop (k1*m + k2*m|m|) and
 * LaminarDrop (Hagen-Poiseuille). All are odd in the mass flow, so reversed
 * flow is handled; all have an inertance L. */
#include "lib/thermofluid/deps.h"

enum { LAW_REF = 1, LAW_LINQUAD, LAW_LAMINAR };

typedef struct tf_drop {
  tf_in inlet;
  tf_out outlet;
  tf_med med;
  int law;
  double L;
  double a, b, c; /* law parameters, see the classes' tables */
  double dp;      /* inlet.p - outlet.p */
} tf_drop;

/* dp = 0.5*dp_ref*(u + u|u|), u = m/(rho*v_ref); a = dp_ref, b = v_ref. */
static inline double dp_ref_law(const tf_drop *d, double m, double p, double h) {
  tf_med mx;
  double u = m / (tf_rho(tf_med_at(&d->med, d->inlet.X, &mx), p, h) * d->b);
  return 0.5 * d->a * (u + u * fabs(u));
}
/* dp = k1*m + k2*m|m|; a = k1, b = k2. */
static inline double dp_linquad_law(const tf_drop *d, double m, double p, double h) {
  (void)p, (void)h;
  return d->a * m + d->b * m * fabs(m);
}
/* dp = 128*mu*l*m/(pi*d^4*rho); a = l, b = d, c = mu. */
static inline double dp_laminar_law(const tf_drop *d, double m, double p, double h) {
  double d4 = d->b * d->b * d->b * d->b;
  tf_med mx;
  return 128.0 * d->c * d->a * m / (TF_PI * d4 * tf_rho(tf_med_at(&d->med, d->inlet.X, &mx), p, h));
}

/* Outlet pressure lowered by the law (a block of its own: docs/thermofluid.md,
 * "What the blocks read and write"). */
#define DROP_PRESSURE(NAME, LAW)                                       \
  static void NAME(const lied_env *env, tf_drop *d) {                  \
    (void)env;                                                         \
    const tf_state *in = d->inlet.state;                               \
    d->dp = LAW(d, in->m_flow, in->p, in->h);                          \
    d->outlet.state.p = in->p - d->dp;                                 \
  }
DROP_PRESSURE(drop_p_ref, dp_ref_law)
DROP_PRESSURE(drop_p_linquad, dp_linquad_law)
DROP_PRESSURE(drop_p_laminar, dp_laminar_law)
LIED_BLOCK(drop_p_ref_b, tf_drop, drop_p_ref)
LIED_BLOCK(drop_p_linquad_b, tf_drop, drop_p_linquad)
LIED_BLOCK(drop_p_laminar_b, tf_drop, drop_p_laminar)
TF_FLOW_PASS(drop_flow_b, tf_drop, inlet, outlet, med) /* the same m_flow, h, X */

static void drop_der(const lied_env *env, tf_drop *d) {
  (void)env;
  tf_pass_der(&d->inlet, &d->outlet);
}
static void drop_r(const lied_env *env, tf_drop *d) {
  (void)env;
  tf_pass_r(&d->inlet, &d->outlet, d->L);
}
LIED_BLOCK(drop_der_b, tf_drop, drop_der)
LIED_BLOCK(drop_r_b, tf_drop, drop_r)

static void drop_meta(lied_meta *m, void *self) {
  tf_drop *d = self;
  tf_meta_in(m, "inlet", 0, &d->inlet, &d->med);
  tf_meta_out(m, "outlet", 0, &d->outlet, &d->med);
  lied_meta_var(m, "m_flow", "kg/s", &d->outlet.state.m_flow);
  lied_meta_var(m, "dp", "Pa", &d->dp);
  lied_block_fn pressure = d->law == LAW_REF       ? drop_p_ref_b
                          : d->law == LAW_LINQUAD ? drop_p_linquad_b
                                                  : drop_p_laminar_b;
  /* the laws with a density read the whole inlet state (and X); k1 m + k2 m|m| its m_flow, p */
  const int rho = d->law != LAW_LINQUAD;
  lied_meta_block(m, "pressure", pressure, 0,
                  LIED_SIGS(&d->inlet.state, rho ? TF_X(&d->med, d->inlet) : NULL),
                  LIED_SIGS(&d->outlet.state.p, &d->dp));
  tf_meta_reads(m, &d->inlet, rho ? tf_rho_reads(&d->med) : TF_M | TF_P);
  tf_meta_flow_pass(m, drop_flow_b, &d->inlet, &d->outlet, &d->med);
  lied_meta_block(m, "der", drop_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&d->inlet.der),
                  LIED_SIGS(&d->outlet.der));
  lied_meta_block(m, "r", drop_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&d->outlet.r, &d->inlet.der), LIED_SIGS(&d->inlet.r));
}

static int init_ref(void *self, lied_init *ctx) {
  tf_drop *d = self;
  d->law = LAW_REF;
  return tf_medium_init(&d->med, ctx);
}
static int init_linquad(void *self, lied_init *ctx) {
  tf_drop *d = self;
  d->law = LAW_LINQUAD;
  return tf_medium_init(&d->med, ctx);
}
static int init_laminar(void *self, lied_init *ctx) {
  tf_drop *d = self;
  d->law = LAW_LAMINAR;
  return tf_medium_init(&d->med, ctx);
}

#define DROP_L                                                                   \
  {"L", offsetof(tf_drop, L), 0, "1/m", "inertance (length / cross-section area)", 0, \
   TF_NOMAX, 0, 0}

static const lied_param ref_params[] = {
    {"dp_ref", offsetof(tf_drop, a), 1e4, "Pa", "pressure drop at the reference flow", 0,
     TF_NOMAX, 0, 0},
    {"v_ref", offsetof(tf_drop, b), 1e-3, "m3/s", "reference volume flow", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    DROP_L,
    TF_MEDIUM_PARAM(tf_drop),
};
const lied_class tf_pressure_drop_class = {
    "PressureDrop", "thermofluid",
    "flow resistance: u = m_flow/(rho*v_ref), dp = 0.5*dp_ref*(u + u*|u|) (linear near "
    "zero, quadratic far from it); inlet.r = outlet.r + L*der_m_flow",
    sizeof(tf_drop), ref_params, sizeof ref_params / sizeof *ref_params, init_ref, drop_meta};

static const lied_param linquad_params[] = {
    {"k1", offsetof(tf_drop, a), 0, "Pa.s/kg", "linear coefficient", 0, TF_NOMAX, 0, 0},
    {"k2", offsetof(tf_drop, b), 1e4, "Pa.s2/kg2", "quadratic coefficient", 0, TF_NOMAX, 0, 0},
    DROP_L,
    TF_MEDIUM_PARAM(tf_drop),
};
const lied_class tf_linquad_drop_class = {
    "LinearQuadraticDrop", "thermofluid",
    "flow resistance dp = k1*m_flow + k2*m_flow*|m_flow|; inlet.r = outlet.r + L*der_m_flow",
    sizeof(tf_drop), linquad_params, sizeof linquad_params / sizeof *linquad_params,
    init_linquad, drop_meta};

static const lied_param laminar_params[] = {
    {"l", offsetof(tf_drop, a), 1, "m", "pipe length", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"d", offsetof(tf_drop, b), 0.01, "m", "pipe diameter", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"mu", offsetof(tf_drop, c), 1e-3, "Pa.s", "dynamic viscosity", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
    DROP_L,
    TF_MEDIUM_PARAM(tf_drop),
};
const lied_class tf_laminar_drop_class = {
    "LaminarDrop", "thermofluid",
    "laminar pipe flow (Hagen-Poiseuille): dp = 128*mu*l*m_flow/(pi*d^4*rho); "
    "inlet.r = outlet.r + L*der_m_flow",
    sizeof(tf_drop), laminar_params, sizeof laminar_params / sizeof *laminar_params,
    init_laminar, drop_meta};
