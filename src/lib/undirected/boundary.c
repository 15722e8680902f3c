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

/* The reservoir's state at the pressure p in use: h(p0, T0) = h0 for a
 * temperature parameter, else h(p, T) of the input T (T_in). */
static inline double boundary_h(const lied_env *env, const void *self, const tf_med *med,
                                int T_in, double p, double T, double h0) {
  if (!T_in) return h0;
  const double h = tf_h(med, p, T);
  TF_GUARD_PT(env, self, med, h, p, T, "state (p0, T0_in)");
  return h;
}
/* Parameters both share. */
#define BOUNDARY_PARAMS(TYPE)                                                                \
  {"p0", offsetof(TYPE, p0), 1e5, "Pa", "reservoir pressure (unless p0_from_input)", 0,      \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                        \
  {"T0", offsetof(TYPE, T0), 293.15, "K", "reservoir temperature (unless T0_from_input)", 0, \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                        \
  {"L", offsetof(TYPE, L), 0, "1/m", "inertance of the port (length / area)", 0, TF_NOMAX,   \
   0, 0},                                                                                    \
  {"p0_from_input", offsetof(TYPE, p0_from_input), 0, "1",                                   \
   "1: pressure from the signal input p0_in [Pa]", 0, 1, LIED_PARAM_INT, 0},                 \
  {"T0_from_input", offsetof(TYPE, T0_from_input), 0, "1",                                   \
   "1: temperature from the signal input T0_in [K]", 0, 1, LIED_PARAM_INT, 0},               \
  TFU_MREG_PARAM(TYPE), TF_MEDIUM_PARAM(TYPE)

/* ---- BoundaryRear ---------------------------------------------------------------- */

typedef struct tfu_brear {
  tfu_fore fore;
  lied_real_in p0_in, T0_in;
  tf_med med;
  double p0, T0, L, m_reg;
  int p0_from_input, T0_from_input;
  double m_flow, der_m_flow; /* state */
  double dm_flow, res;       /* tearing pair */
  double h0, p;              /* h(p0, T0) when both are parameters; the pressure in use */
  double T_back;             /* temperature of what arrives rearwards */
  tf_X X0;                   /* the medium's composition */
} tfu_brear;

static void brear_state(const lied_env *env, tfu_brear *b) {
  b->p = b->p0_from_input ? b->p0_in.y->y : b->p0;
  const double h = boundary_h(env, b, &b->med, b->T0_from_input, b->p,
                              b->T0_from_input ? b->T0_in.y->y : 0.0, b->h0);
  b->fore.flow.m_flow = b->m_flow;
  b->fore.state = (tfu_state){b->p, h, b->X0};
}
static void brear_der(const lied_env *env, tfu_brear *b) {
  (void)env;
  b->fore.der.der_m_flow = b->dm_flow;
  b->der_m_flow = b->dm_flow;
}
static void brear_res(const lied_env *env, tfu_brear *b) {
  (void)env;
  const double w = tfu_w(b->m_flow, b->m_reg);
  b->res = b->fore.r->r + b->L * b->dm_flow - (1.0 - w) * (b->p - b->fore.back->p);
}
static void brear_out(const lied_env *env, tfu_brear *b) {
  tf_med mx;
  const tf_med *med = tfu_med_at(&b->med, b->fore.back, &mx);
  b->T_back = tf_T(med, b->fore.back->p, b->fore.back->h);
  TF_GUARD_PH(env, b, med, b->T_back, b->fore.back->p, b->fore.back->h, "rearward inflow");
}
LIED_BLOCK(brear_state_b, tfu_brear, brear_state)
LIED_BLOCK(brear_der_b, tfu_brear, brear_der)
LIED_BLOCK(brear_res_b, tfu_brear, brear_res)
LIED_BLOCK(brear_out_b, tfu_brear, brear_out)

/* Lane forms (lied/component.h, "Lane forms"): the same operations, copy by
 * copy; whether p0 and T0 come from inputs is the same in every copy (it
 * changes what meta declares). */
#define BR(F) LIED_LANE(tfu_brear, g, F)
static void brear_state_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const int pin = TF_LANE_INT(tfu_brear, g, p0_from_input, 0);
  const int Tin = TF_LANE_INT(tfu_brear, g, T0_from_input, 0);
  const double *p_in = pin ? LIED_LANE_IN(tfu_brear, g, p0_in.y) : NULL;
  const double *T_in = Tin ? LIED_LANE_IN(tfu_brear, g, T0_in.y) : NULL;
  const double *m = BR(m_flow), *p0 = BR(p0), *h0 = BR(h0), *X0 = BR(X0.X[0]);
  double *of = BR(fore.flow.m_flow), *os = BR(fore.state.p), *pu = BR(p);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(tfu_brear, g, med, l, &med);
    pu[l] = pin ? p_in[l] : p0[l];
    const double h = boundary_h(env, TF_LANE_WORD(tfu_brear, g, p, l), &med, Tin, pu[l],
                                Tin ? T_in[l] : 0.0, h0[l]);
    of[l] = m[l];
    TF_V(os, 0, l) = pu[l], TF_V(os, 1, l) = h, TF_V(os, 2, l) = X0[l];
  }
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
  const double *restrict L = BR(L), *restrict dm = BR(dm_flow), *restrict m = BR(m_flow);
  const double *restrict mreg = BR(m_reg), *restrict p = BR(p);
  double *restrict res = BR(res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    res[l] = r[l] + L[l] * dm[l] - (1.0 - tfu_w(m[l], mreg[l])) * (p[l] - TF_V(b, 0, l));
}
LIED_LANE_FORM(brear_res_lanes)
#undef BR

/* The start state must be valid; a mixture's composition is a constant. */
static int boundary_init(tf_med *med, lied_init *ctx, double p0, double T0, double *h0,
                         tf_X *X) {
  if (tf_medium_init(med, ctx)) return -1;
  if (tf_medium_check_pT(med, ctx, p0, T0, "state (p0, T0)")) return -1;
  *h0 = tf_h(med, p0, T0);
  tf_med_X(med, X);
  return 0;
}
static int brear_init(void *self, lied_init *ctx) {
  tfu_brear *b = self;
  return boundary_init(&b->med, ctx, b->p0, b->T0, &b->h0, &b->X0);
}

static void brear_meta(lied_meta *m, void *self) {
  tfu_brear *b = self;
  tfu_meta_fore(m, "fore", 0, &b->fore);
  if (b->p0_from_input) lied_meta_real_in(m, "p0_in", 0, &b->p0_in);
  if (b->T0_from_input) lied_meta_real_in(m, "T0_in", 0, &b->T0_in);
  lied_meta_state(m, "m_flow", "kg/s", &b->m_flow, &b->der_m_flow);
  lied_meta_tear(m, "dm_flow", &b->dm_flow, "res", &b->res);
  lied_meta_var(m, "p", "Pa", &b->p);
  lied_meta_var(m, "T_back", "K", &b->T_back);
  const void *in[4] = {&b->m_flow, NULL, NULL, NULL};
  int n = 1;
  if (b->p0_from_input) in[n++] = &b->p0_in.y;
  if (b->T0_from_input) in[n++] = &b->T0_in.y;
  lied_meta_block(m, "state", brear_state_b, 0, in,
                  LIED_SIGS(&b->fore.flow, &b->fore.state, &b->p));
  lied_meta_lanes(m, brear_state_lanes);
  lied_meta_block(m, "der", brear_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&b->dm_flow),
                  LIED_SIGS(&b->fore.der, &b->der_m_flow));
  lied_meta_lanes(m, brear_der_lanes);
  lied_meta_block(m, "residual", brear_res_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->fore.r, &b->dm_flow, &b->m_flow, &b->p, &b->fore.back),
                  LIED_SIGS(&b->res));
  lied_meta_lanes(m, brear_res_lanes);
  lied_meta_block(m, "output", brear_out_b, 0, LIED_SIGS(&b->fore.back), LIED_SIGS(&b->T_back));
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
  tfu_rear rear;
  lied_real_in p0_in, T0_in;
  tf_med med;
  double p0, T0, L, m_reg;
  int p0_from_input, T0_from_input;
  double h0, p;
  double m_flow, T; /* recorded: the flow (positive into the boundary), forward inflow's T */
  tf_X X0;          /* the medium's composition */
} tfu_bfore;

static void bfore_back(const lied_env *env, tfu_bfore *b) {
  b->p = b->p0_from_input ? b->p0_in.y->y : b->p0;
  const double h = boundary_h(env, b, &b->med, b->T0_from_input, b->p,
                              b->T0_from_input ? b->T0_in.y->y : 0.0, b->h0);
  b->rear.back = (tfu_state){b->p, h, b->X0};
}
static void bfore_r(const lied_env *env, tfu_bfore *b) {
  (void)env;
  b->rear.r.r = tfu_w(b->rear.flow->m_flow, b->m_reg) * (b->p - b->rear.state->p) +
                b->L * b->rear.der->der_m_flow;
}
static void bfore_out(const lied_env *env, tfu_bfore *b) {
  const tfu_state *in = b->rear.state;
  tf_med mx;
  const tf_med *med = tfu_med_at(&b->med, in, &mx);
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
  const int pin = TF_LANE_INT(tfu_bfore, g, p0_from_input, 0);
  const int Tin = TF_LANE_INT(tfu_bfore, g, T0_from_input, 0);
  const double *p_in = pin ? LIED_LANE_IN(tfu_bfore, g, p0_in.y) : NULL;
  const double *T_in = Tin ? LIED_LANE_IN(tfu_bfore, g, T0_in.y) : NULL;
  const double *p0 = BF(p0), *h0 = BF(h0), *X0 = BF(X0.X[0]);
  double *ob = BF(rear.back.p), *pu = BF(p);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(tfu_bfore, g, med, l, &med);
    pu[l] = pin ? p_in[l] : p0[l];
    const double h = boundary_h(env, TF_LANE_WORD(tfu_bfore, g, p, l), &med, Tin, pu[l],
                                Tin ? T_in[l] : 0.0, h0[l]);
    TF_V(ob, 0, l) = pu[l], TF_V(ob, 1, l) = h, TF_V(ob, 2, l) = X0[l];
  }
}
LIED_LANE_BODY void bfore_r_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict m = LIED_LANE_IN(tfu_bfore, g, rear.flow);
  const double *restrict in = LIED_LANE_IN(tfu_bfore, g, rear.state);
  const double *restrict d = LIED_LANE_IN(tfu_bfore, g, rear.der);
  const double *restrict mreg = BF(m_reg), *restrict p = BF(p), *restrict L = BF(L);
  double *restrict r = BF(rear.r.r);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) r[l] = tfu_w(m[l], mreg[l]) * (p[l] - TF_V(in, 0, l)) + L[l] * d[l];
}
LIED_LANE_FORM(bfore_r_lanes)
#undef BF

static int bfore_init(void *self, lied_init *ctx) {
  tfu_bfore *b = self;
  return boundary_init(&b->med, ctx, b->p0, b->T0, &b->h0, &b->X0);
}

static void bfore_meta(lied_meta *m, void *self) {
  tfu_bfore *b = self;
  tfu_meta_rear(m, "rear", 0, &b->rear);
  if (b->p0_from_input) lied_meta_real_in(m, "p0_in", 0, &b->p0_in);
  if (b->T0_from_input) lied_meta_real_in(m, "T0_in", 0, &b->T0_in);
  lied_meta_var(m, "p", "Pa", &b->p);
  lied_meta_var(m, "m_flow", "kg/s", &b->m_flow);
  lied_meta_var(m, "T", "K", &b->T);
  const void *in[3] = {NULL, NULL, NULL};
  int n = 0;
  if (b->p0_from_input) in[n++] = &b->p0_in.y;
  if (b->T0_from_input) in[n++] = &b->T0_in.y;
  lied_meta_block(m, "back", bfore_back_b, 0, n ? in : LIED_NONE,
                  LIED_SIGS(&b->rear.back, &b->p));
  lied_meta_lanes(m, bfore_back_lanes);
  lied_meta_block(m, "r", bfore_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&b->rear.flow, &b->rear.state, &b->rear.der, &b->p),
                  LIED_SIGS(&b->rear.r));
  lied_meta_lanes(m, bfore_r_lanes);
  lied_meta_block(m, "output", bfore_out_b, 0, LIED_SIGS(&b->rear.flow, &b->rear.state),
                  LIED_SIGS(&b->m_flow, &b->T));
}

static const lied_param bfore_params[] = {BOUNDARY_PARAMS(tfu_bfore)};
const lied_class tfu_boundary_fore_class = {
    "BoundaryFore", "undirected",
    "reservoir at p0, T0 with a rear port, sink or source by the sign of the flow; ends a "
    "segment: rear.r = w(m_flow)*(p0 - rear.p) + L*der_m_flow",
    sizeof(tfu_bfore), bfore_params, sizeof bfore_params / sizeof *bfore_params, bfore_init,
    bfore_meta};
