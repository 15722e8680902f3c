/* turbo_map.c - CompressorMap and TurbineMap: turbomachines whose pressure
 * ratio and efficiency come from performance maps (docs/turbo.md,
 * "Performance maps"). With theta = T_in/T_ref, delta = p_in/p_ref:
 *   w_c = w / sqrt(theta)               corrected speed [rad/s]
 *   m_c = m sqrt(theta) / delta         corrected flow [kg/s]
 * The flow map gives m_c over (w_c, r), r the pressure ratio (p_out/p_in;
 * a turbine's p_in/p_out), bilinear: at w_c the speed line is the blend of
 * two neighbouring lines, piecewise linear and strictly monotone in r (m_c
 * falls with r for a compressor, rises for a turbine: checked in init), so
 * it is inverted exactly for the r at which it passes m_c. Beyond its ends:
 *   low-flow end (a compressor's surge line; a turbine's lowest ratio): r
 *     held at the end's (clamped);
 *   high-flow end (choke): r = r_e exp(s (m_c - m_e) / r_e), s the end
 *     segment's slope dr/dm_c: C1, positive, steep where the line is;
 *   above the highest speed line: that line (clamped); below the lowest:
 *     a turbine holds it, a compressor follows it by the similarity laws,
 *     m_c / nu on the line and r = 1 + (r_line - 1) nu^2, nu = w_c / w_c,lowest
 *     (r = 1 at standstill; a shaft turning backwards counts as standing);
 *   with the flow map's extrapolation "error", a corrected speed outside
 *   the speed lines is a fault instead.
 * The efficiency is the efficiency map's at (w_c, r) with both clamped into
 * the flow map's lines (the similar point below the lowest line), within
 * the efficiency map's values. The margins to the low-flow end, to choke
 * and to the speed lines are zero functions: the handler records in
 * discrete variables whether the machine is beyond them (and counts the
 * times it left its map); the solver lands on each crossing. */
#include <stdio.h>
#include "lib/turbo/turbo.h"
#include "lib/thermofluid/deps.h"

/* The corrected flow of the speed line at (i, t) at ratio index j. */
static inline double line_G(const tb_map *c, uint32_t i, double t, uint32_t j) {
  const double *F = c->F + (size_t)i * c->n2;
  return t == 0 ? F[j] : (1 - t) * F[j] + t * F[c->n2 + j];
}

/* The interval i of the speed lines holding w (S[0] <= w <= S[n1 - 1]):
 * S[i] <= w <= S[i + 1], t its position in it (1 only at the top). */
static void speed_at(tb_map *c, double w, uint32_t *i, double *t) {
  const double *S = c->S;
  uint32_t k = c->i_at < c->n1 - 1 ? c->i_at : 0;
  if (!(S[k] <= w && (w < S[k + 1] || k == c->n1 - 2))) {
    uint32_t lo = 0, hi = c->n1 - 1; /* the largest k <= n1 - 2 with S[k] <= w */
    while (hi - lo > 1) {
      const uint32_t mid = (lo + hi) / 2;
      if (S[mid] <= w) lo = mid; else hi = mid;
    }
    k = lo;
  }
  c->i_at = k;
  *i = k;
  *t = (w - S[k]) / (S[k + 1] - S[k]);
}

/* The ratio r at which the speed line (i, t) passes the corrected flow m,
 * with the continuations beyond its ends; r_eff: the ratio on the line
 * where the efficiency is read. The margins to the low-flow end and to
 * choke into the machine's zero functions. */
static double line_ratio(tb_map *c, uint32_t i, double t, double m, double *r_eff) {
  const uint32_t n = c->n2, jl = c->turbine ? 0 : n - 1, jh = c->turbine ? n - 1 : 0;
  const double d = c->turbine ? 1 : -1, *R = c->R;
  const double Gl = line_G(c, i, t, jl), Gh = line_G(c, i, t, jh);
  c->z_low = m / Gl - 1;
  c->z_choke = 1 - m / Gh;
  if (m < Gl) return *r_eff = R[jl]; /* beyond the low-flow end: held */
  if (m > Gh) {                      /* beyond choke: the end segment's slope, exponentially */
    const uint32_t jn = c->turbine ? jh - 1 : jh + 1;
    const double s = (R[jh] - R[jn]) / (Gh - line_G(c, i, t, jn));
    *r_eff = R[jh];
    return R[jh] * exp(s * (m - Gh) / R[jh]);
  }
  /* on the line: the segment j, the largest j <= n - 2 with d G_j <= d m */
  const double x = d * m;
  uint32_t j = c->j_at < n - 1 ? c->j_at : 0;
  if (!(d * line_G(c, i, t, j) <= x && (j == n - 2 || x < d * line_G(c, i, t, j + 1)))) {
    uint32_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      const uint32_t mid = (lo + hi) / 2;
      if (d * line_G(c, i, t, mid) <= x) lo = mid; else hi = mid;
    }
    j = lo;
  }
  c->j_at = j;
  const double G0 = line_G(c, i, t, j), G1 = line_G(c, i, t, j + 1);
  return *r_eff = R[j] + (R[j + 1] - R[j]) * (m - G0) / (G1 - G0);
}

/* The pressure block: the corrected speed and flow (from T_in, so it reads
 * the inlet's h as well), the ratio and the efficiency, p_out. */
static void map_pressure(const lied_env *env, tb_map *c) {
  tb_inflow s;
  tb_begin(env, &c->b, &s);
  const tf_state *in = c->b.inlet.state;
  c->b.w = s.w;
  const double th = sqrt(c->b.T_in / c->T_ref);
  c->w_c = s.w / th;
  c->m_c = s.m * th / (in->p / c->p_ref);
  const double S0 = c->S[0], Sn = c->S[c->n1 - 1];
  c->z_speed = fmin(c->w_c - S0, Sn - c->w_c) / Sn;
  if (c->strict && !(c->w_c >= S0 && c->w_c <= Sn) && c->w_c == c->w_c)
    lied_block_fault(env, c,
                     "corrected speed %.17g rad/s (w = %.17g rad/s at T_in = %.9g K) outside the "
                     "speed lines of the flow map %s, [%.9g, %.9g] rad/s (extrapolation = \"error\")",
                     c->w_c, s.w, c->b.T_in, lied_table_name(c->flow), S0, Sn);
  /* the speed at which the map is read, and the similarity below it */
  double w = c->w_c > Sn ? Sn : c->w_c, nu = 1;
  if (!(w >= S0)) { /* (NaN too: the inflow's fault is reported) */
    if (!c->turbine) nu = (c->w_c > 0 ? c->w_c : 0) / S0;
    w = S0;
  }
  uint32_t i;
  double t, r_eff;
  speed_at(c, w, &i, &t);
  double r = line_ratio(c, i, t, nu < 1 ? c->m_c / fmax(nu, 1e-9) : c->m_c, &r_eff);
  if (nu < 1) r = 1 + (r - 1) * nu * nu;
  const double eta = lied_table_lookup2(env, c, c->eff, &c->at_eff, w, r_eff);
  c->eta = eta < c->eta_lo ? c->eta_lo : eta > c->eta_hi ? c->eta_hi : eta;
  c->b.pr = c->turbine ? 1 / r : r;
  c->b.outlet.state.p = in->p * c->b.pr;
  c->b.dp = c->b.outlet.state.p - in->p;
}
/* The work block: the outflow's m_flow, h (and X) and the torque at the
 * pressure block's ratio, efficiency and T_in. */
static void map_work(const lied_env *env, tb_map *c) {
  tb_inflow s;
  tb_inflow_of(&c->b, &s);
  tb_finish(env, &c->b, &s, c->eta);
}
LIED_BLOCK(map_pressure_b, tb_map, map_pressure)
LIED_BLOCK(map_work_b, tb_map, map_work)

/* Beyond the low-flow end, choke, the speed lines: from the margins at the
 * start of a run, toggled when a margin crosses zero (the crossing sits
 * within the location's tolerance of zero, on either side). */
static void map_event(void *self, const lied_event *ev) {
  tb_map *c = self;
  const double z[3] = {c->z_low, c->z_choke, c->z_speed};
  double *flag[3] = {&c->low, &c->choke, &c->off_speed};
  if (ev->initial) c->n_off = 0;
  for (int k = 0; k < 3; k++) {
    const double was = *flag[k];
    if (ev->initial)
      *flag[k] = z[k] <= 0;
    else if (ev->crossed >> k & 1)
      *flag[k] = !was;
    c->n_off += *flag[k] > (ev->initial ? 0 : was);
  }
}

/* The maps' checks; -1 with the reason reported. */
static int map_check(tb_map *c, lied_init *ctx) {
  const lied_table *f = c->flow, *e = c->eff;
  const char *fn = lied_table_name(f);
  if (lied_table_interpolation(f) != LIED_TABLE_LINEAR) {
    lied_init_error(ctx, "flow map %s: its interpolation must be \"linear\" (each speed line is "
                    "inverted for the pressure ratio, exactly on its straight segments)", fn);
    return -1;
  }
  const int ex = lied_table_extrapolation(f);
  if (ex != LIED_TABLE_HOLD && ex != LIED_TABLE_ERROR) {
    lied_init_error(ctx, "flow map %s: its extrapolation must be \"hold\" (beyond the speed lines "
                    "clamped, below them continued: docs/turbo.md) or \"error\"", fn);
    return -1;
  }
  c->strict = ex == LIED_TABLE_ERROR;
  c->n1 = (uint32_t)lied_table_size(f, 0), c->n2 = (uint32_t)lied_table_size(f, 1);
  c->S = lied_table_breaks(f, 0), c->R = lied_table_breaks(f, 1), c->F = lied_table_values(f);
  if (!(c->S[0] > 0) && !(c->turbine && c->S[0] == 0)) {
    lied_init_error(ctx, "flow map %s: the lowest speed line is at %g rad/s: the speeds of %s "
                    "map must be %s", fn, c->S[0], c->turbine ? "a turbine's" : "a compressor's",
                    c->turbine ? ">= 0" : "> 0 (below the lowest line it follows the similarity laws)");
    return -1;
  }
  if (!(c->R[0] > 0)) {
    lied_init_error(ctx, "flow map %s: the pressure ratios must be > 0, not %g", fn, c->R[0]);
    return -1;
  }
  for (uint32_t i = 0; i < c->n1; i++)
    for (uint32_t j = 0; j < c->n2; j++) {
      const double *F = c->F + (size_t)i * c->n2;
      if (!(F[j] > 0)) {
        lied_init_error(ctx, "flow map %s: the corrected flow %g kg/s at %g rad/s and pressure "
                        "ratio %g must be > 0", fn, F[j], c->S[i], c->R[j]);
        return -1;
      }
      if (j > 0 && (c->turbine ? !(F[j] > F[j - 1]) : !(F[j] < F[j - 1]))) {
        lied_init_error(ctx, "flow map %s: along the speed line of %g rad/s the corrected flow "
                        "must %s as the pressure ratio rises (%s): %g kg/s at %g, then %g kg/s at %g",
                        fn, c->S[i], c->turbine ? "rise" : "fall",
                        c->turbine ? "towards choke" : "from choke to surge", F[j - 1], c->R[j - 1],
                        F[j], c->R[j]);
        return -1;
      }
    }
  const size_t ne = lied_table_size(e, 0) * lied_table_size(e, 1);
  const double *E = lied_table_values(e);
  c->eta_lo = 1, c->eta_hi = 0;
  for (size_t k = 0; k < ne; k++) {
    if (!(E[k] > 0 && E[k] <= 1)) {
      const size_t n2 = lied_table_size(e, 1);
      lied_init_error(ctx, "efficiency map %s: eta = %g at %g rad/s and pressure ratio %g is "
                      "outside (0, 1]", lied_table_name(e), E[k], lied_table_breaks(e, 0)[k / n2],
                      lied_table_breaks(e, 1)[k % n2]);
      return -1;
    }
    c->eta_lo = fmin(c->eta_lo, E[k]), c->eta_hi = fmax(c->eta_hi, E[k]);
  }
  return 0;
}

static int map_init(void *self, lied_init *ctx, int turbine) {
  tb_map *c = self;
  c->turbine = turbine;
  c->i_at = c->j_at = 0;
  c->at_eff = (lied_table_hint){0, 0};
  if (tb_init_medium(&c->b, ctx)) return -1;
  return map_check(c, ctx);
}
static int compressor_map_init(void *self, lied_init *ctx) { return map_init(self, ctx, 0); }
static int turbine_map_init(void *self, lied_init *ctx) { return map_init(self, ctx, 1); }

static void map_meta(lied_meta *m, tb_map *c, const char *low, const char *low_margin) {
  tb_machine *b = &c->b;
  tb_meta_common(m, b);
  lied_meta_var(m, "w_c", "rad/s", &c->w_c);
  lied_meta_var(m, "m_c", "kg/s", &c->m_c);
  lied_meta_var(m, "eta", "1", &c->eta);
  lied_meta_var(m, low, "1", &c->low);
  lied_meta_var(m, "choke", "1", &c->choke);
  lied_meta_var(m, "off_speed", "1", &c->off_speed);
  lied_meta_var(m, "n_off_map", "1", &c->n_off);
  /* the outlet's p apart from its m_flow and h; both read the whole inflow
   * (the corrected flow has T_in) */
  lied_meta_block(m, "pressure", map_pressure_b, 0,
                  LIED_SIGS(&b->inlet.state, &b->flange.w, TF_X(&b->med, b->inlet)),
                  LIED_SIGS(&b->outlet.state.p, &b->pr, &b->dp, &b->w, &b->T_in, &c->w_c, &c->m_c,
                            &c->eta, &c->z_low, &c->z_choke, &c->z_speed));
  lied_meta_block(m, "work", map_work_b, 0,
                  LIED_SIGS(&b->inlet.state, &b->flange.w, &b->pr, &b->T_in, &c->eta,
                            TF_X(&b->med, b->inlet)),
                  LIED_SIGS(&b->outlet.state.m_flow, &b->outlet.state.h, &b->flange.tau, &b->dh,
                            &b->dh_s, &b->tau, &b->P, TF_X(&b->med, b->outlet)));
  tf_meta_writes_m(m, &b->outlet);
  lied_meta_zero(m, low_margin, &c->z_low, LIED_ZC_BOTH);
  lied_meta_zero(m, "choke_margin", &c->z_choke, LIED_ZC_BOTH);
  lied_meta_zero(m, "speed_margin", &c->z_speed, LIED_ZC_BOTH);
  tb_meta_kinks(m, b);
  lied_meta_event(m, map_event);
}
static void compressor_map_meta(lied_meta *m, void *self) {
  map_meta(m, self, "surge", "surge_margin");
}
static void turbine_map_meta(lied_meta *m, void *self) {
  map_meta(m, self, "low_flow", "low_margin");
}

#define MAP_PARAMS(RATIO)                                                                        \
  {"flow", offsetof(tb_map, flow), 0, "kg/s",                                                    \
   "corrected flow m sqrt(T_in/T_ref)/(p_in/p_ref) over the corrected speed w/sqrt(T_in/T_ref) " \
   "[rad/s] (x1) and the pressure ratio " RATIO " (x2); linear",                                 \
   0, 0, LIED_PARAM_MAP, 0},                                                                     \
  {"eff", offsetof(tb_map, eff), 0, "1",                                                         \
   "isentropic efficiency over the corrected speed (x1) and the pressure ratio (x2)", 0, 0,      \
   LIED_PARAM_MAP, 0},                                                                           \
  {"T_ref", offsetof(tb_map, T_ref), 288.15, "K", "reference temperature of the corrected values", \
   0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                         \
  {"p_ref", offsetof(tb_map, p_ref), 101325, "Pa", "reference pressure of the corrected flow", 0, \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                            \
  {"w_small", offsetof(tb_map, b.w_small), 50, "rad/s",                                          \
   "speed below which the work fades out (dh scaled by tanh(w/w_small))", 0, TF_NOMAX,          \
   LIED_PARAM_MIN_OPEN, 0},                                                                      \
  {"L", offsetof(tb_map, b.L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},       \
  {"medium", offsetof(tb_map, b.med.par), 0, "1", "medium {kind, c1..c5}: a gas (default tf.air)", \
   TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}

static const lied_param compressor_map_params[] = {MAP_PARAMS("p_out/p_in")};
static const lied_param turbine_map_params[] = {MAP_PARAMS("p_in/p_out")};
#define MAP_NPARAMS ((int)(sizeof compressor_map_params / sizeof *compressor_map_params))

const lied_class tb_compressor_map_class = {
    "CompressorMap", "turbo",
    "gas compressor (or fan) on a shaft with performance maps: corrected flow and isentropic "
    "efficiency over corrected speed and pressure ratio; surge clamped, choke continued, both "
    "recorded as events",
    sizeof(tb_map), compressor_map_params, MAP_NPARAMS, compressor_map_init, compressor_map_meta};
const lied_class tb_turbine_map_class = {
    "TurbineMap", "turbo",
    "gas turbine on a shaft with performance maps: corrected flow and isentropic efficiency over "
    "corrected speed and expansion ratio p_in/p_out; the low-flow end clamped, choke continued, "
    "both recorded as events",
    sizeof(tb_map), turbine_map_params, MAP_NPARAMS, turbine_map_init, turbine_map_meta};
