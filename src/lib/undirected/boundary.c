/* boundary.c - BoundaryRear and BoundaryFore: a reservoir at pressure p0
 * and temperature T0 (parameters or signal inputs) that a flow may enter or
 * leave (TFS's Undirected.Boundaries). BoundaryRear has a fore port and
 * starts a segment: it owns the segment's mass-flow state; BoundaryFore has
 * a rear port and ends one. Each sends its state (p0, h(p0, T0)) into the
 * network (forwards, rearwards) and is, by the sign of the flow, a source
 * (r = 0) or a sink (r = p0 - the arriving pressure), blended near zero flow:
 *   BoundaryRear:  res    = fore.r + L*dm_flow - (1 - w(m)) (p0 - fore.p_back)
 *   BoundaryFore:  rear.r = w(m) (p0 - rear.p) + L*der_m_flow */
#include "lib/undirected/undirected.h"

/* The reservoir both have, first in their instances (so one block helper and
 * one lane helper serve both). */
typedef struct tfu_bound {
  lied_real_in p0_in, T0_in;
  tf_med med;
  double p0, T0, L, m_reg;
  int p0_from_input, T0_from_input;
  double h0, p; /* h(p0, T0) when both are parameters; the pressure in use */
  tf_X X0;      /* the medium's composition */
} tfu_bound;

/* The reservoir's state at the pressure p in use: h0 for a temperature
 * parameter, else h(p, T) of the input T. */
static inline double bound_h(const lied_env *env, const void *self, const tf_med *med, int T_in,
                             double p, double T, double h0) {
  if (!T_in) return h0;
  const double h = tf_h(med, p, T);
  TF_GUARD_PT(env, self, med, h, p, T, "state (p0, T0_in)");
  return h;
}
/* One copy: sets c->p, returns h. */
static inline double bound_state(const lied_env *env, tfu_bound *c) {
  c->p = c->p0_from_input ? c->p0_in.y->y : c->p0;
  return bound_h(env, c, &c->med, c->T0_from_input, c->p, c->T0_from_input ? c->T0_in.y->y : 0.0,
                 c->h0);
}
/* The lanes of a group of either class: the p lanes, and h into h[]. Whether
 * p0 and T0 come from inputs is the same in every copy (it changes what meta
 * declares). */
static void bound_state_lanes(const lied_env *env, char *g, size_t n, double *h) {
  const int pin = TF_LANE_INT(tfu_bound, g, p0_from_input, 0);
  const int Tin = TF_LANE_INT(tfu_bound, g, T0_from_input, 0);
  const double *p_in = pin ? LIED_LANE_IN(tfu_bound, g, p0_in.y) : NULL;
  const double *T_in = Tin ? LIED_LANE_IN(tfu_bound, g, T0_in.y) : NULL;
  const double *p0 = LIED_LANE(tfu_bound, g, p0), *h0 = LIED_LANE(tfu_bound, g, h0);
  double *pu = LIED_LANE(tfu_bound, g, p);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(tfu_bound, g, med, l, &med);
    pu[l] = pin ? p_in[l] : p0[l];
    h[l] = bound_h(env, TF_LANE_WORD(tfu_bound, g, p, l), &med, Tin, pu[l], Tin ? T_in[l] : 0.0,
                   h0[l]);
  }
}
/* The start state must be valid; a mixture's composition is a constant. */
static int bound_init(tfu_bound *c, lied_init *ctx) {
  if (tf_medium_init(&c->med, ctx)) return -1;
  if (tf_medium_check_pT(&c->med, ctx, c->p0, c->T0, "state (p0, T0)")) return -1;
  c->h0 = tf_h(&c->med, c->p0, c->T0);
  tf_med_X(&c->med, &c->X0);
  return 0;
}
/* Its signal inputs, and the inputs of the block that reads them. */
static int bound_meta(lied_meta *m, tfu_bound *c, const void **in) {
  int n = 0;
  if (c->p0_from_input) lied_meta_real_in(m, "p0_in", 0, &c->p0_in), in[n++] = &c->p0_in.y;
  if (c->T0_from_input) lied_meta_real_in(m, "T0_in", 0, &c->T0_in), in[n++] = &c->T0_in.y;
  lied_meta_var(m, "p", "Pa", &c->p);
  return n;
}
#define BOUNDARY_PARAMS(TYPE)                                                                 \
  {"p0", offsetof(TYPE, c.p0), 1e5, "Pa", "reservoir pressure (unless p0_from_input)", 0,     \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                         \
  {"T0", offsetof(TYPE, c.T0), 293.15, "K", "reservoir temperature (unless T0_from_input)", 0, \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                         \
  {"L", offsetof(TYPE, c.L), 0, "1/m", "inertance of the port (length / area)", 0, TF_NOMAX,  \
   0, 0},                                                                                     \
  {"p0_from_input", offsetof(TYPE, c.p0_from_input), 0, "1",                                  \
   "1: pressure from the signal input p0_in [Pa]", 0, 1, LIED_PARAM_INT, 0},                  \
  {"T0_from_input", offsetof(TYPE, c.T0_from_input), 0, "1",                                  \
   "1: temperature from the signal input T0_in [K]", 0, 1, LIED_PARAM_INT, 0},                \
  {"m_flow_reg", offsetof(TYPE, c.m_reg), 1e-3, "kg/s",                                       \
   "flow below which the two directions' pressures are blended (docs/thermofluid.md)", 0,   \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                         \
  {"medium", offsetof(TYPE, c.med.par), 0, "1",                                               \
   "medium {kind, c1..c5}: tf.liquid{...}, tf.gas{...}, tf.steam, tf.moist_air{...} "          \
   "(default tf.water)", TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}

/* ---- BoundaryRear ---------------------------------------------------------------- */

typedef struct tfu_brear {
  tfu_bound c;
  tfu_fore fore;
  double m_flow, der_m_flow; /* state */
  double dm_flow, res;       /* tearing pair */
  double T_back;             /* temperature of what arrives rearwards */
} tfu_brear;

static void brear_state(const lied_env *env, tfu_brear *b) {
  const double h = bound_state(env, &b->c);
  b->fore.flow.m_flow = b->m_flow;
  b->fore.state = (tfu_state){b->c.p, h, b->c.X0};
}
static void brear_der(const lied_env *env, tfu_brear *b) {
  (void)env;
  b->fore.der.der_m_flow = b->dm_flow;
  b->der_m_flow = b->dm_flow;
}
static inline double brear_res_eq(double r, double L, double dm, double m, double m_reg, double p,
                                  double p_back) {
  return r + L * dm - (1.0 - tfu_w(m, m_reg)) * (p - p_back);
}
static void brear_res(const lied_env *env, tfu_brear *b) {
  (void)env;
  b->res = brear_res_eq(b->fore.r->r, b->c.L, b->dm_flow, b->m_flow, b->c.m_reg, b->c.p,
                        b->fore.back->p);
}
static void brear_out(const lied_env *env, tfu_brear *b) {
  tf_med mx;
  const tf_med *med = tfu_med_at(&b->c.med, b->fore.back, &mx);
  b->T_back = tf_T(med, b->fore.back->p, b->fore.back->h);
  TF_GUARD_PH(env, b, med, b->T_back, b->fore.back->p, b->fore.back->h, "rearward inflow");
}
LIED_BLOCK(brear_state_b, tfu_brear, brear_state)
LIED_BLOCK(brear_der_b, tfu_brear, brear_der)
LIED_BLOCK(brear_res_b, tfu_brear, brear_res)
LIED_BLOCK(brear_out_b, tfu_brear, brear_out)

/* Lane forms (lied/component.h, "Lane forms"): the same operations, copy by copy. */
#define BR(F) LIED_LANE(tfu_brear, g, F)
static void brear_state_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  double h[LIED_LANES];
  bound_state_lanes(env, g, n, h);
  const double *m = BR(m_flow), *p = BR(c.p), *X0 = BR(c.X0.X[0]);
  double *of = BR(fore.flow.m_flow), *os = BR(fore.state.p);
  for (size_t l = 0; l < n; l++)
    of[l] = m[l], TF_V(os, 0, l) = p[l], TF_V(os, 1, l) = h[l], TF_V(os, 2, l) = X0[l];
}
LIED_LANE_BODY void brear_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict dm = BR(dm_flow);
  double *restrict o = BR(fore.der.der_m_flow), *restrict d = BR(der_m_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = dm[l], d[l] = dm[l];
}
LIED_LANE_FORM(brear_der_lanes)
LIED_LANE_BODY void brear_res_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict r = LIED_LANE_IN(tfu_brear, g, fore.r);
  const double *restrict b = LIED_LANE_IN(tfu_brear, g, fore.back);
  const double *restrict L = BR(c.L), *restrict dm = BR(dm_flow), *restrict m = BR(m_flow);
  const double *restrict mreg = BR(c.m_reg), *restrict p = BR(c.p);
  double *restrict res = BR(res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) res[l] = brear_res_eq(r[l], L[l], dm[l], m[l], mreg[l], p[l], TF_V(b, 0, l));
}
LIED_LANE_FORM(brear_res_lanes)
#undef BR

static int brear_init(void *self, lied_init *ctx) { return bound_init(&((tfu_brear *)self)->c, ctx); }

static void brear_meta(lied_meta *m, void *self) {
  tfu_brear *b = self;
  tfu_meta_fore(m, "fore", 0, &b->fore);
  const void *in[4] = {&b->m_flow, NULL, NULL, NULL};
  bound_meta(m, &b->c, in + 1);
  lied_meta_state(m, "m_flow", "kg/s", &b->m_flow, &b->der_m_flow);
  lied_meta_tear(m, "dm_flow", &b->dm_flow, "res", &b->res);
  lied_meta_var(m, "T_back", "K", &b->T_back);
  lied_meta_block(m, "state", brear_state_b, 0, in,
                  LIED_SIGS(&b->fore.flow, &b->fore.state, &b->c.p));
  lied_meta_lanes(m, brear_state_lanes);
  lied_meta_block(m, "der", brear_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&b->dm_flow),
                  LIED_SIGS(&b->fore.der, &b->der_m_flow));
  lied_meta_lanes(m, brear_der_lanes);
  lied_meta_block(m, "residual", brear_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->fore.r, &b->dm_flow, &b->m_flow, &b->c.p, &b->fore.back),
                  LIED_SIGS(&b->res));
  tfu_meta_reads(m, &b->fore.back, TFU_P);
  lied_meta_lanes(m, brear_res_lanes);
  const void *oi[3] = {NULL, NULL, NULL};
  tfu_list(oi, 0, &b->fore.back, tfu_T_reads(&b->c.med));
  lied_meta_block(m, "output", brear_out_b, 0, oi, LIED_SIGS(&b->T_back));
  tfu_meta_reads(m, &b->fore.back, tfu_T_reads(&b->c.med));
}

static const lied_param brear_params[] = {
    BOUNDARY_PARAMS(tfu_brear),
    {"m_flow", offsetof(tfu_brear, m_flow), 0, "kg/s",
     "start value of the mass flow (positive: out of the boundary, forwards)", TF_NOMIN,
     TF_NOMAX, 0, 0},
};
const lied_class tfu_boundary_rear_class = {
    "BoundaryRear", "undirected",
    "reservoir at p0, T0 with a fore port, source or sink by the sign of the flow; owns the "
    "segment's mass-flow state: res = fore.r + L*der(m_flow) - (1 - w(m_flow))*(p0 - "
    "fore.p_back)",
    sizeof(tfu_brear), brear_params, sizeof brear_params / sizeof *brear_params, brear_init,
    brear_meta};

/* ---- BoundaryFore ---------------------------------------------------------------- */

typedef struct tfu_bfore {
  tfu_bound c;
  tfu_rear rear;
  double m_flow, T; /* recorded: the flow (positive into the boundary), forward inflow's T */
} tfu_bfore;

static void bfore_back(const lied_env *env, tfu_bfore *b) {
  const double h = bound_state(env, &b->c);
  b->rear.back = (tfu_state){b->c.p, h, b->c.X0};
}
static inline double bfore_r_eq(double m, double m_reg, double p, double p_in, double L,
                                double der) {
  return tfu_w(m, m_reg) * (p - p_in) + L * der;
}
static void bfore_r(const lied_env *env, tfu_bfore *b) {
  (void)env;
  b->rear.r.r = bfore_r_eq(b->rear.flow->m_flow, b->c.m_reg, b->c.p, b->rear.state->p, b->c.L,
                           b->rear.der->der_m_flow);
}
static void bfore_out(const lied_env *env, tfu_bfore *b) {
  const tfu_state *in = b->rear.state;
  tf_med mx;
  const tf_med *med = tfu_med_at(&b->c.med, in, &mx);
  b->m_flow = b->rear.flow->m_flow;
  b->T = tf_T(med, in->p, in->h);
  TF_GUARD_PH(env, b, med, b->T, in->p, in->h, "forward inflow");
}
LIED_BLOCK(bfore_back_b, tfu_bfore, bfore_back)
LIED_BLOCK(bfore_r_b, tfu_bfore, bfore_r)
LIED_BLOCK(bfore_out_b, tfu_bfore, bfore_out)

#define BF(F) LIED_LANE(tfu_bfore, g, F)
static void bfore_back_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  double h[LIED_LANES];
  bound_state_lanes(env, g, n, h);
  const double *p = BF(c.p), *X0 = BF(c.X0.X[0]);
  double *ob = BF(rear.back.p);
  for (size_t l = 0; l < n; l++) TF_V(ob, 0, l) = p[l], TF_V(ob, 1, l) = h[l], TF_V(ob, 2, l) = X0[l];
}
LIED_LANE_BODY void bfore_r_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict m = LIED_LANE_IN(tfu_bfore, g, rear.flow);
  const double *restrict in = LIED_LANE_IN(tfu_bfore, g, rear.state);
  const double *restrict d = LIED_LANE_IN(tfu_bfore, g, rear.der);
  const double *restrict mreg = BF(c.m_reg), *restrict p = BF(c.p), *restrict L = BF(c.L);
  double *restrict r = BF(rear.r.r);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) r[l] = bfore_r_eq(m[l], mreg[l], p[l], TF_V(in, 0, l), L[l], d[l]);
}
LIED_LANE_FORM(bfore_r_lanes)
#undef BF

static int bfore_init(void *self, lied_init *ctx) { return bound_init(&((tfu_bfore *)self)->c, ctx); }

static void bfore_meta(lied_meta *m, void *self) {
  tfu_bfore *b = self;
  tfu_meta_rear(m, "rear", 0, &b->rear);
  const void *in[3] = {NULL, NULL, NULL};
  const int n = bound_meta(m, &b->c, in);
  lied_meta_var(m, "m_flow", "kg/s", &b->m_flow);
  lied_meta_var(m, "T", "K", &b->T);
  lied_meta_block(m, "back", bfore_back_b, 0, n ? in : LIED_NONE,
                  LIED_SIGS(&b->rear.back, &b->c.p));
  lied_meta_lanes(m, bfore_back_lanes);
  lied_meta_block(m, "r", bfore_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->rear.flow, &b->rear.state, &b->rear.der, &b->c.p),
                  LIED_SIGS(&b->rear.r));
  tfu_meta_reads(m, &b->rear.state, TFU_P);
  lied_meta_lanes(m, bfore_r_lanes);
  const void *oi[4] = {&b->rear.flow, NULL, NULL, NULL};
  tfu_list(oi, 1, &b->rear.state, tfu_T_reads(&b->c.med));
  lied_meta_block(m, "output", bfore_out_b, 0, oi, LIED_SIGS(&b->m_flow, &b->T));
  tfu_meta_reads(m, &b->rear.state, tfu_T_reads(&b->c.med));
}

static const lied_param bfore_params[] = {BOUNDARY_PARAMS(tfu_bfore)};
const lied_class tfu_boundary_fore_class = {
    "BoundaryFore", "undirected",
    "reservoir at p0, T0 with a rear port, sink or source by the sign of the flow; ends a "
    "segment: rear.r = w(m_flow)*(p0 - rear.p) + L*der_m_flow",
    sizeof(tfu_bfore), bfore_params, sizeof bfore_params / sizeof *bfore_params, bfore_init,
    bfore_meta};
