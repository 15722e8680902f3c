/* compressor.c - Compressor and CompressorMap: a positive-displacement
 * refrigerant compressor (docs/refrigeration.md, "Compressor"). Speed w
 * [rad/s] from the signal input `speed` or (shaft = 1) from a rotational
 * flange (lib/rotational/rotational.h: a branch on the shaft's node, as
 * turbo's machines are). At the suction state (p1, h1), rho1 and s1 from the
 * refrigerant's tables:
 *   m_disp = eta_v V_d w/(2 pi) rho1           (the displacement's flow)
 *   dp = k (m_disp - m)/rho1,  p2 = p1 + dp    (a stiff flow characteristic:
 *        the stream's flow, owned upstream, follows m_disp to dp rho1/k)
 *   h2s = h(p2, s1),  dh_s = h2s - h1
 *   dh_e = dh_s/eta_s where the stream takes work (dh_s m > 0), eta_s dh_s else
 *   dh = dh_e tanh(w/w_small),  h2 = h1 + dh
 *   P = m dh,  tau = m dh_e tanh(w/w_small)/w  (m dh_e/w_small at w = 0)
 * so tau w = P: the shaft's power is the stream's enthalpy gain (turbo.c's
 * law of the work at low speed). Compressor: eta_s, eta_v constants;
 * CompressorMap: maps eta_s(pr, w) at the outlet's pressure ratio and
 * eta_v(pr_v, w) at pr_v, the ratio lagged by T_pr (a state: the ratio
 * results from the flow that eta_v sets, so the lag breaks that loop; at a
 * steady state pr_v = pr).
 * Kink (docs/events.md): dh_e switches branch where dh_s m changes sign (the
 * ratio crosses 1, or the flow reverses), z_work = dh_s m, written by a
 * block of the output part. The outlet's m_flow is the inlet's, passed by a
 * block of its own (`flow`: it reads m alone); `work` writes p and h. */
#include "lib/refrigeration/refrigeration.h"
#include "lib/rotational/rotational.h"
#include "lib/thermofluid/deps.h"
#include "lied/table.h"

typedef struct rg_compressor {
  rg_two_port e; /* inlet, outlet, L */
  lied_real_in speed;
  ro_branch flange;
  lied_real_out torque;
  tf_med med;
  double pr_v, der_pr_v; /* CompressorMap: state, the lagged pressure ratio */
  double V_d, eta_s, eta_v, k, w_small, T_pr;
  const lied_table *eta_s_map, *eta_v_map;
  lied_table_hint at_s, at_v;
  /* the least and the greatest value of each map: what a lookup gives is held in between
   * (linear extrapolation or a smooth map's overshoot could leave (0, 1]) */
  double eta_s_lo, eta_s_hi, eta_v_lo, eta_v_hi;
  double w, rho1, s1, m_disp, dp, pr, h2s, dh_s, dh, eta_s_used, eta_v_used, P, T2;
  double z_work; /* kink function: dh_s m */
  int shaft, maps;
} rg_compressor;

/* One copy's suction, flow and work: inputs m, p1, h1, w; the rest written
 * by comp_flow (at eta_v) and comp_work_eq (at eta_s). */
typedef struct comp_io {
  double m, p1, h1, w;
  double rho1, s1, m_disp, dp, p2, pr, h2s, dh_s, dh, P, torque;
} comp_io;
static void comp_flow(const lied_env *env, const void *self, const tf_med *med, double V_d,
                      double k, double eta_v, comp_io *io) {
  tf_props o;
  if (rg_props(env, self, med, io->p1, io->h1, &o, "suction")) o.rho = o.s = NAN;
  io->rho1 = o.rho, io->s1 = o.s;
  io->m_disp = eta_v * V_d * io->w / (2 * TF_PI) * io->rho1;
  io->dp = k * (io->m_disp - io->m) / io->rho1;
  io->p2 = io->p1 + io->dp;
  io->pr = io->p2 / io->p1;
}
static void comp_work_eq(const lied_env *env, const void *self, const tf_med *med, double eta_s,
                         double w_small, comp_io *io) {
  const double m = io->m, w = io->w, p2 = io->p2;
  io->h2s = NAN;
  if (isfinite(io->s1) && !(p2 > 0))
    lied_block_fault(env, self, "outlet pressure p = %.9g Pa is not positive (suction p = %.9g Pa, "
                     "m_flow = %.9g kg/s against the displacement's %.9g kg/s)", p2, io->p1, m,
                     io->m_disp);
  else if (isfinite(io->s1) && med->fn->h_ps(med->par + 1, p2, io->s1, &io->h2s))
    lied_block_fault(env, self, "isentropic outlet state: %s: p = %.9g Pa, s = %.9g J/(kg K) is "
                     "outside the table (pressure ratio %.9g)", med->fn->name, p2, io->s1, io->pr);
  io->dh_s = io->h2s - io->h1;
  const double dh_e = io->dh_s * m > 0 ? io->dh_s / eta_s : eta_s * io->dh_s;
  const double x = w / w_small, th = tanh(x);
  const double th_w = fabs(x) > 1e-4 ? th / w : (1 - x * x / 3) / w_small; /* tanh(x)/w */
  io->dh = dh_e * th;
  io->P = m * io->dh;
  io->torque = m * dh_e * th_w;
}
static inline double hold_in(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
static void comp_work(const lied_env *env, rg_compressor *c) {
  const tf_state *in = c->e.inlet.state;
  comp_io io = {in->m_flow, in->p, in->h, c->shaft ? c->flange.w->w : c->speed.y->y};
  c->eta_v_used = c->maps ? hold_in(lied_table_lookup2(env, c, c->eta_v_map, &c->at_v, c->pr_v, io.w),
                                    c->eta_v_lo, c->eta_v_hi)
                          : c->eta_v;
  comp_flow(env, c, &c->med, c->V_d, c->k, c->eta_v_used, &io);
  if (c->maps) c->der_pr_v = (io.pr - c->pr_v) / c->T_pr;
  c->eta_s_used = c->maps ? hold_in(lied_table_lookup2(env, c, c->eta_s_map, &c->at_s, io.pr, io.w),
                                    c->eta_s_lo, c->eta_s_hi)
                          : c->eta_s;
  comp_work_eq(env, c, &c->med, c->eta_s_used, c->w_small, &io);
  c->w = io.w, c->rho1 = io.rho1, c->s1 = io.s1, c->m_disp = io.m_disp, c->dp = io.dp;
  c->pr = io.pr, c->h2s = io.h2s, c->dh_s = io.dh_s, c->dh = io.dh, c->P = io.P;
  c->torque.y.y = io.torque;
  if (c->shaft) c->flange.tau.tau = io.torque;
  c->e.outlet.state.p = io.p2;
  c->e.outlet.state.h = io.h1 + io.dh;
}
/* The outlet's flow: the inlet's (it reads nothing else). */
static void comp_flow_pass(const lied_env *env, rg_compressor *c) {
  (void)env;
  c->e.outlet.state.m_flow = c->e.inlet.state->m_flow;
}
/* The kink of the efficiency's branch (nothing reads it). */
static void comp_kink(const lied_env *env, rg_compressor *c) {
  (void)env;
  c->z_work = c->dh_s * c->e.inlet.state->m_flow;
}
/* The discharge temperature (recorded; nothing reads it). */
static void comp_out(const lied_env *env, rg_compressor *c) {
  const tf_state *o = &c->e.outlet.state;
  c->T2 = tf_T(&c->med, o->p, o->h);
  TF_GUARD_PH(env, c, &c->med, c->T2, o->p, o->h, "discharge");
}
LIED_BLOCK(comp_work_b, rg_compressor, comp_work)
LIED_BLOCK(comp_out_b, rg_compressor, comp_out)
LIED_BLOCK(comp_flow_b, rg_compressor, comp_flow_pass)
LIED_BLOCK(comp_kink_b, rg_compressor, comp_kink)

/* Lane forms of the Compressor (constant efficiencies; CompressorMap has
 * none): the same functions, copy by copy. */
#define CL(FIELD) LIED_LANE(rg_compressor, g, FIELD)
static void comp_work_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *in = LIED_LANE_IN(rg_compressor, g, e.inlet.state);
  const double *ws = LIED_LANE_IN(rg_compressor, g, speed.y);
  const double *wf = LIED_LANE_IN(rg_compressor, g, flange.w);
  double *out = CL(e.outlet.state);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(rg_compressor, g, med, l, &med);
    const int shaft = TF_LANE_INT(rg_compressor, g, shaft, l);
    const void *self = TF_LANE_WORD(rg_compressor, g, w, l);
    comp_io io = {TF_V(in, 0, l), TF_V(in, 1, l), TF_V(in, 2, l), shaft ? wf[l] : ws[l]};
    CL(eta_v_used)[l] = CL(eta_v)[l];
    comp_flow(env, self, &med, CL(V_d)[l], CL(k)[l], CL(eta_v_used)[l], &io);
    CL(eta_s_used)[l] = CL(eta_s)[l];
    comp_work_eq(env, self, &med, CL(eta_s_used)[l], CL(w_small)[l], &io);
    CL(w)[l] = io.w, CL(rho1)[l] = io.rho1, CL(s1)[l] = io.s1, CL(m_disp)[l] = io.m_disp;
    CL(dp)[l] = io.dp, CL(pr)[l] = io.pr, CL(h2s)[l] = io.h2s, CL(dh_s)[l] = io.dh_s;
    CL(dh)[l] = io.dh, CL(P)[l] = io.P, CL(torque.y.y)[l] = io.torque;
    if (shaft) CL(flange.tau.tau)[l] = io.torque;
    TF_V(out, 1, l) = io.p2, TF_V(out, 2, l) = io.h1 + io.dh;
  }
}
LIED_LANE_BODY void comp_flow_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict in = LIED_LANE_IN(rg_compressor, g, e.inlet.state);
  double *restrict out = CL(e.outlet.state);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) TF_V(out, 0, l) = TF_V(in, 0, l);
}
LIED_LANE_FORM(comp_flow_lanes)
static void comp_out_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *o = CL(e.outlet.state);
  for (size_t l = 0; l < n; l++) {
    tf_med med;
    TF_LANE_MED(rg_compressor, g, med, l, &med);
    CL(T2)[l] = tf_T(&med, TF_V(o, 1, l), TF_V(o, 2, l));
    TF_GUARD_PH(env, TF_LANE_WORD(rg_compressor, g, T2, l), &med, CL(T2)[l], TF_V(o, 1, l),
                TF_V(o, 2, l), "discharge");
  }
}
#undef CL

/* A map's values must be efficiencies: in (0, 1] (eta_s, strict) or [0, 1]; their least
 * and greatest into *lo, *hi. */
static int check_map(lied_init *ctx, const lied_table *t, const char *name, int strict,
                     double *lo, double *hi) {
  const double *v = lied_table_values(t);
  const size_t n = lied_table_size(t, 0) * lied_table_size(t, 1);
  *lo = 1, *hi = 0;
  for (size_t i = 0; i < n; i++) {
    if (!((strict ? v[i] > 0 : v[i] >= 0) && v[i] <= 1)) {
      lied_init_error(ctx, "%s: value %zu = %g is no efficiency (%s)", name, i + 1, v[i],
                      strict ? "0 < eta <= 1" : "0 <= eta <= 1");
      return -1;
    }
    *lo = fmin(*lo, v[i]), *hi = fmax(*hi, v[i]);
  }
  return 0;
}
static int comp_init_common(rg_compressor *c, lied_init *ctx, int maps) {
  c->maps = maps;
  if (rg_medium_init(&c->med, ctx)) return -1;
  if (maps && (check_map(ctx, c->eta_s_map, "eta_s_map", 1, &c->eta_s_lo, &c->eta_s_hi) ||
               check_map(ctx, c->eta_v_map, "eta_v_map", 0, &c->eta_v_lo, &c->eta_v_hi)))
    return -1;
  return 0;
}
static int comp_init(void *self, lied_init *ctx) { return comp_init_common(self, ctx, 0); }
static int comp_map_init(void *self, lied_init *ctx) { return comp_init_common(self, ctx, 1); }

static void comp_meta(lied_meta *m, void *self) {
  rg_compressor *c = self;
  tf_meta_in(m, "inlet", 0, &c->e.inlet, &c->med);
  tf_meta_out(m, "outlet", 0, &c->e.outlet, &c->med);
  if (c->shaft)
    ro_meta_branch(m, "flange", 0, &c->flange);
  else
    lied_meta_real_in(m, "speed", 0, &c->speed);
  lied_meta_real_out(m, "torque", 0, &c->torque);
  if (c->maps) lied_meta_state(m, "pr_v", "1", &c->pr_v, &c->der_pr_v);
  lied_meta_var(m, "m_flow", "kg/s", &c->e.outlet.state.m_flow);
  lied_meta_var(m, "m_disp", "kg/s", &c->m_disp);
  lied_meta_var(m, "w", "rad/s", &c->w);
  lied_meta_var(m, "rho1", "kg/m3", &c->rho1);
  lied_meta_var(m, "s1", "J/(kg.K)", &c->s1);
  lied_meta_var(m, "dp", "Pa", &c->dp);
  lied_meta_var(m, "pr", "1", &c->pr);
  lied_meta_var(m, "h2s", "J/kg", &c->h2s);
  lied_meta_var(m, "dh_s", "J/kg", &c->dh_s);
  lied_meta_var(m, "dh", "J/kg", &c->dh);
  lied_meta_var(m, "eta_s_used", "1", &c->eta_s_used);
  lied_meta_var(m, "eta_v_used", "1", &c->eta_v_used);
  lied_meta_var(m, "P", "W", &c->P);
  lied_meta_var(m, "T2", "K", &c->T2);
  lied_meta_block(m, "flow", comp_flow_b, 0, LIED_SIGS(&c->e.inlet.state),
                  LIED_SIGS(&c->e.outlet.state.m_flow));
  if (!c->maps) lied_meta_lanes(m, comp_flow_lanes);
  tf_meta_writes_m(m, &c->e.outlet);
  tf_meta_reads(m, &c->e.inlet, TF_M);
  /* work: the outlet's p and h from the whole inlet state and the speed */
  const void *in[4] = {&c->e.inlet.state, c->shaft ? (const void *)&c->flange.w : &c->speed.y,
                       c->maps ? &c->pr_v : NULL, NULL};
  lied_meta_block(m, "work", comp_work_b, 0, in,
                  LIED_SIGS(&c->e.outlet.state.p, &c->torque.y, &c->m_disp, &c->w, &c->rho1, &c->s1,
                            &c->dp, &c->pr, &c->h2s, &c->dh_s, &c->dh, &c->eta_s_used,
                            &c->eta_v_used, &c->P, c->maps ? &c->der_pr_v : NULL,
                            c->shaft ? (const void *)&c->flange.tau : NULL));
  if (!c->maps) lied_meta_lanes(m, comp_work_lanes);
  lied_meta_writes(m, &c->e.outlet.state.p, 2);
  lied_meta_block(m, "out", comp_out_b, 0, LIED_SIGS(&c->e.outlet.state.p, &c->e.outlet.state.h),
                  LIED_SIGS(&c->T2));
  if (!c->maps) lied_meta_lanes(m, comp_out_lanes);
  lied_meta_block(m, "kink", comp_kink_b, 0, LIED_SIGS(&c->e.inlet.state, &c->dh_s),
                  LIED_SIGS(&c->z_work));
  tf_meta_reads(m, &c->e.inlet, TF_M);
  lied_meta_zero(m, "z_work", &c->z_work, LIED_ZC_BOTH | LIED_ZC_KINK);
  rg_meta_pass(m, &c->e, !c->maps); /* CompressorMap: no lane forms (its maps must be given) */
}

#define COMP_PARAMS                                                                              \
  {"V_d", offsetof(rg_compressor, V_d), 1e-4, "m3", "displacement (swept volume per revolution)",  \
   0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0, NULL},                                                    \
  {"k", offsetof(rg_compressor, k), 1e11, "Pa.s/m3",                                              \
   "slope of the flow characteristic dp = k (m_disp - m_flow)/rho1 (the flow follows the "         \
   "displacement's to dp/k in volume)",                                                            \
   0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0, NULL},                                                    \
  {"w_small", offsetof(rg_compressor, w_small), 1, "rad/s",                                       \
   "speed below which the work fades out (dh scaled by tanh(w/w_small))", 0, TF_NOMAX,             \
   LIED_PARAM_MIN_OPEN, 0, NULL},                                                                 \
  {"L", offsetof(rg_compressor, e.L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0,      \
   NULL},                                                                                          \
  {"shaft", offsetof(rg_compressor, shaft), 0, "1",                                               \
   "1: speed from the rotational flange `flange` (a branch on the shaft's node, taking the "       \
   "torque); 0: from the signal input `speed` [rad/s]",                                           \
   0, 1, LIED_PARAM_INT, 0, NULL},                                                                \
  RG_MEDIUM_PARAM(rg_compressor)

static const lied_param comp_params[] = {
    {"eta_s", offsetof(rg_compressor, eta_s), 0.7, "1", "isentropic efficiency", 0, 1,
     LIED_PARAM_MIN_OPEN, 0, NULL},
    {"eta_v", offsetof(rg_compressor, eta_v), 0.9, "1", "volumetric efficiency", 0, 1, 0, 0, NULL},
    COMP_PARAMS,
};
static const lied_param comp_map_params[] = {
    {"eta_s_map", offsetof(rg_compressor, eta_s_map), 0, "1",
     "isentropic efficiency over (pressure ratio, speed [rad/s])", 0, 0, LIED_PARAM_MAP, 0, NULL},
    {"eta_v_map", offsetof(rg_compressor, eta_v_map), 0, "1",
     "volumetric efficiency over (pressure ratio, speed [rad/s])", 0, 0, LIED_PARAM_MAP, 0, NULL},
    {"T_pr", offsetof(rg_compressor, T_pr), 0.1, "s",
     "time constant of the pressure ratio pr_v at which eta_v_map is read", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0, NULL},
    {"pr_v", offsetof(rg_compressor, pr_v), 3, "1", "start value of pr_v", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0, NULL},
    COMP_PARAMS,
};
const lied_class rg_compressor_class = {
    "Compressor", "thermofluid",
    "positive-displacement refrigerant compressor: flow eta_v V_d w/(2 pi) rho1 from the suction "
    "density, outlet enthalpy and power from the isentropic rise over eta_s (constants); speed "
    "from a signal or a rotational flange; torque output",
    sizeof(rg_compressor), comp_params, sizeof comp_params / sizeof *comp_params, comp_init,
    comp_meta};
const lied_class rg_compressor_map_class = {
    "CompressorMap", "thermofluid",
    "the Compressor with maps eta_s(pr, w) and eta_v(pr, w) of the pressure ratio and the speed "
    "(eta_v at the ratio lagged by T_pr)",
    sizeof(rg_compressor), comp_map_params, sizeof comp_map_params / sizeof *comp_map_params,
    comp_map_init, comp_meta};
