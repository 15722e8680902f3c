/* flat_district.c - the flat reference for examples/district_heating.lua: the
 * same equations (n houses, the plant, the two mains) written out by hand in
 * one C file, one struct per house, the flow network solved by a tridiagonal
 * sweep of its own (derived below), integrated by a classic RK4 of its own at
 * a fixed step. Nothing of lied is linked: every law (the liquid medium, the
 * Volume, ConductionElement, Pump, PressureDrop, Valve, Splitter, Junction,
 * the heat connector's components, Add, PI, Sine, TimeTable) is transcribed
 * from the component's C source (src/lib/thermofluid, src/lib/thermal,
 * src/lib/signals) and the parameters from the example.
 *
 *   flat_district N STEPS DT [--start T0] [--csv FILE] [--every K] [--houses H]
 *
 * takes STEPS steps of DT from T0 (default 0) and prints
 *   "houses N components C steps S evaluations E setup X s wall W s cpu U s
 *    per_eval_per_component Y ns"      (Y from the CPU time of the steps)
 *   "final pump.m_flow A burner.Q_flow B room_T_sum S"
 * --csv writes a row at T0 and after every K steps (default 1): time,
 * burner.Q_flow, pump.m_flow, vol.T, vol.p, then for houses 1..H (default
 * all) house[i].room.T, house[i].valve.m_flow, house[i].pi.y,
 * house[i].rad.T (lied's names, so a test can compare columns by name).
 * C = 14 N + 8 is lied's component count of the model (14 per house: 10 in
 * the house, its splitter, junction and two main segments; 8 at the plant).
 *
 * ---- the model (examples/district_heating.lua) ----------------------------
 * Liquid water (tf.water): rho(p) = rho0 (1 + beta (p - p_ref)), T(h) =
 * T_ref + h/cp. States: the plant's Volume (M, U and its outlet flow m0),
 * the boiler cell's enthalpy hb; per house i its splitter's outlet-1 flow q_i
 * (the house's flow), the PI's integral x_i, the radiator cell's enthalpy
 * hr_i and the room's temperature Tr_i.
 *
 * Explicit part (every law as its component computes it):
 *   vol: rho = M/V, p_v = p_ref + (rho/rho0 - 1)/beta, h_v = U/M + p_v/rho
 *   boiler: Q_b = -G_burn (T(hb) - T_flame); M_b der(hb) = |m0| (h_v - hb) + Q_b
 *   pump: p = p_v + k_p (omega V_r/(2 pi) - m0/rho(p_v))
 *   supply segment i (PressureDrop): u = s_i/(rho(p) v_ref_i),
 *     p -= dp_ref/2 (u + u|u|), with s_1 = m0 and s_(i+1) = s_i - q_i (the
 *     splitter's outlet 2 takes the rest); the splitter passes (p, hb) on
 *   house i: e = T_set - Tr (Add), v = k e + x, y = min(max(v, yMin), yMax),
 *     der(x) = k/Ti e + (y - v)/Tt (PI, Tt = Ti); the valve's
 *     f = leak + (1 - leak) R^(y - 1) (equal percentage, y >= 0.01), drop
 *     1.296e9 q|q|/(rho(p) Kv^2)/f^2; radiator Q_ua = UA (T(hr) - Tr),
 *     M_r der(hr) = |q| (hb - hr) - Q_ua; room C der(Tr) = Q_ua - G (Tr -
 *     T_out); the connection pipe a PressureDrop (dp_ref 1e4, v_ref 1e-4):
 *     the house's outlet state (q, p_h,i, hr)
 *   last (PressureDrop at the far end): (s_(n+1), p_last, hb)
 *   junction i (going back, i = n .. 1): inlet 1 the house (q_i, p_h,i,
 *     hr_i), inlet 2 the return segment i+1's outlet (or last); m = m1 + m2,
 *     weights w_k = |m_k| + d, d = eps (1 - S/eps)^2 for S = |m1| + |m2| <
 *     eps else 0, p_mix and h_mix the weighted means; return segment i a
 *     PressureDrop at p_mix
 *   vol inlet (m_in, p_A, h_A) from return segment 1: der(M) = m_in - m0,
 *     der(U) = m_in h_in - m0 h_v (h_in = h_A for m_in >= 0, else h_v).
 *
 * ---- the flow network, and why it is tridiagonal ---------------------------
 * The flow derivatives come from the inertial pressures r (thermofluid
 * connector: r travels upstream; every element has inlet.r = outlet.r +
 * L der(m); a junction's inlet k has inlet_k.r = outlet.r + p_mix - p_k;
 * a splitter's residual is r(outlet 1) - r(outlet 2) = 0 and its inlet has
 * r(outlet 2); the Volume's residual is r at its outlet = 0 and its inlet
 * has r = p_v - p_A). Let sigma_i = der(s_i) be the derivative of the flow
 * in main segment i (sigma_1 = der(m0), sigma_(n+1) the last's), so house
 * i's der(q_i) = sigma_i - sigma_(i+1). Write S_i for r at splitter i's
 * inlet, J_i for r at junction i's outlet, Lh = L_valve + L_pipe (the
 * radiator has none), Ls_i = L of supply and of return segment i (the same
 * parameters), and
 *   c_i = p_mix,i - p_h,i         (junction i, inlet 1: the house)
 *   d_i = p_mix,i - p_2,i         (junction i, inlet 2: segment i+1 or last)
 * Then along the mains
 *   J_1 = (p_v - p_A) + Ls_1 sigma_1
 *   J_(i+1) = J_i + d_i + Ls_(i+1) sigma_(i+1)          (return, upstream)
 *   S_i = S_(i+1) + Ls_(i+1) sigma_(i+1)   (i < n)      (supply)
 *   S_n = J_n + d_n + L_last sigma_(n+1)
 * and splitter i's residual says that the house's inlet has r = S_i:
 *   (R_i)  S_i = J_i + c_i + Lh (sigma_i - sigma_(i+1))
 * The Volume's residual: 0 = S_1 + (Ls_1 + L_pump) sigma_1 (the boiler and
 * the Volume's outlet have no inertance). Differencing the loop equations
 * R_i - R_(i+1) (the loop through house i, the segments i+1 and house i+1)
 * eliminates the S and J:
 *   -Lh sigma_i + (2 Lh + 2 Ls_(i+1)) sigma_(i+1) - Lh sigma_(i+2)
 *        = c_i - d_i - c_(i+1)                                 (1 <= i < n)
 * R_n with the last's branch:
 *   -Lh sigma_n + (Lh + L_last) sigma_(n+1) = c_n - d_n
 * and the Volume's residual with R_1:
 *   (Ls_1 + L_pump + Ls_1 + Lh) sigma_1 - Lh sigma_2 = -((p_v - p_A) + c_1)
 * n + 1 equations in sigma_1 .. sigma_(n+1): a tridiagonal matrix of
 * inertances only (constant, symmetric, diagonally dominant), whose right
 * side is the pressure mismatches. It is factorised once (eliminating from
 * the far end: z_k = g_k - m_k z_(k-1), with z_k = sigma_(k+1), m_k and
 * 1/beta_k stored with row k) and each evaluation does one sweep back along
 * the mains (with the junctions) and one forward (with the RK update). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DH_PI 3.14159265358979323846

/* tf.water (lua/lied/thermofluid.lua: tf.liquid's defaults) */
static const double RHO0 = 995.586, CP = 4184.0, BETA = 4.5e-10, P_REF = 1e5, T_REF = 293.15;

static inline double rho_p(double p) { return RHO0 * (1.0 + BETA * (p - P_REF)); }
static inline double T_h(double h) { return T_REF + h / CP; }
/* PressureDrop: u = m/(rho v_ref), dp = dp_ref/2 (u + u|u|) */
static inline double drop(double m, double rho, double v_ref, double dp_ref) {
  double u = m / (rho * v_ref);
  return 0.5 * dp_ref * (u + u * fabs(u));
}

/* The house's parameters that do not differ (examples/district_heating.lua) */
static const double PI_K = 0.4, PI_TI = 1800, PI_YMIN = 0.02, PI_YMAX = 1; /* Tt = Ti */
static const double VALVE_R = 50, VALVE_LEAK = 0.02, VALVE_L = 2e4;
static const double RAD_V = 0.02, RAD_T0 = 318.15, ROOM_T0 = 292.15;
static const double PIPE_DP = 1e4, PIPE_VREF = 1e-4, PIPE_L = 5e4;
static const double JUNCTION_EPS = 1e-6;
static const double DAY = 86400;

enum { NS = 4 }; /* states of a house (q, x, hr, Tr) and of the plant (M, U, m0, hb) */

/* One RK4 slot set: the state at the step's start, the stage's state, the
 * weighted sum of the stage derivatives so far, the stage's derivative. */
typedef struct rk_slot {
  double x[NS], y[NS], acc[NS], d[NS];
} rk_slot;

typedef struct house {
  rk_slot s;                 /* q (split[i].m_flow1), x (pi.x), hr (rad.h), Tr (room.T) */
  double Kv, UA, C, G;       /* per house (lied.array's functions) */
  double v_ref, dp_ref;      /* its supply and return segments sup[i], ret[i] */
  double mult, inv_beta;     /* row i of the factorised tridiagonal matrix */
  double p_h;                /* per evaluation: the house's outlet pressure */
  double g;                  /* per evaluation: the elimination's partial solution */
} house;

typedef struct district {
  size_t n;
  house *h;
  rk_slot plant; /* M, U, m0 (vol.m_flow), hb (boiler.h) */
  double V, M_b, M_r, G_burn, T_flame, k_p, V_r, omega, L_pump;
  double last_vref, last_dp, L_last, Lh;
  double inv_beta0; /* row 0 (the plant) */
  double tt_x[6], tt_y[6]; /* the setpoint's table */
  double sin_w, sin_phase, sin_off, sin_amp;
} district;

/* spread(i) of the example: a fixed permutation of the index into [0, 1) */
static double spread(long i) { return (double)((i * 7919) % 101) / 101.0; }

/* TimeTable, linear with held ends (src/core/table.c, eval1 and place) */
static double setpoint(const district *D, double t) {
  const double *x = D->tt_x, *y = D->tt_y;
  const int n = 6;
  if (t <= x[0]) return y[0];
  if (t >= x[n - 1]) return y[n - 1];
  int i = 0;
  while (t >= x[i + 1]) i++;
  return y[i] + (y[i + 1] - y[i]) * ((t - x[i]) / (x[i + 1] - x[i]));
}
static double outdoor(const district *D, double t) {
  return D->sin_off + D->sin_amp * sin(D->sin_w * t + D->sin_phase);
}
static inline double limit(double v, double lo, double hi) { return v > hi ? hi : v < lo ? lo : v; }
static inline double pi_out(double e, double x) { return limit(PI_K * e + x, PI_YMIN, PI_YMAX); }

/* RK4 after stage s (0..3) of a step of h: take in its derivative d, form the
 * next stage's state, or at the last stage the new state. */
static inline void rk_update(rk_slot *r, int s, double h) {
  for (int j = 0; j < NS; j++) {
    switch (s) {
    case 0: r->acc[j] = r->d[j], r->y[j] = r->x[j] + 0.5 * h * r->d[j]; break;
    case 1: r->acc[j] += 2.0 * r->d[j], r->y[j] = r->x[j] + 0.5 * h * r->d[j]; break;
    case 2: r->acc[j] += 2.0 * r->d[j], r->y[j] = r->x[j] + h * r->d[j]; break;
    default: r->x[j] += h / 6.0 * (r->acc[j] + r->d[j]), r->y[j] = r->x[j]; break;
    }
  }
}

/* One stage: the derivatives at (t, the stages' states y), then the RK
 * update of stage s. Three sweeps: supply and houses forward, return and
 * elimination back, substitution and update forward. */
static void stage(district *D, double t, int s, double h) {
  const size_t n = D->n;
  house *H = D->h;
  rk_slot *P = &D->plant;
  const double M = P->y[0], U = P->y[1], m0 = P->y[2], hb = P->y[3];
  /* vol */
  const double rho_v = M / D->V;
  const double p_v = P_REF + (rho_v / RHO0 - 1.0) / BETA;
  const double h_v = U / M + p_v / rho_v;
  /* boiler, heated through the burner's conductor */
  const double Q_b = -(D->G_burn * (T_h(hb) - D->T_flame));
  P->d[3] = (fabs(m0) * (h_v - hb) + Q_b) / D->M_b;
  /* pump */
  double p = p_v + D->k_p * (D->omega * D->V_r / (2.0 * DH_PI) - m0 / rho_p(p_v));
  const double T_set = setpoint(D, t), T_out = outdoor(D, t);
  /* supply main and houses */
  double sflow = m0;
  for (size_t i = 0; i < n; i++) {
    house *c = &H[i];
    p -= drop(sflow, rho_p(p), c->v_ref, c->dp_ref); /* sup[i] */
    const double q = c->s.y[0], x = c->s.y[1], hr = c->s.y[2], Tr = c->s.y[3];
    const double e = T_set - Tr;
    const double v = PI_K * e + x, y = limit(v, PI_YMIN, PI_YMAX);
    c->s.d[1] = PI_K / PI_TI * e + (y - v) / PI_TI;
    const double yv = limit(y, 0, 1);
    const double phi = yv >= 0.01 ? pow(VALVE_R, yv - 1) : yv / 0.01 * pow(VALVE_R, 0.01 - 1);
    const double f = VALVE_LEAK + (1 - VALVE_LEAK) * phi;
    const double pv = p - 1.296e9 * q * fabs(q) / (rho_p(p) * c->Kv * c->Kv) / (f * f);
    const double Q_ua = c->UA * (T_h(hr) - Tr);
    c->s.d[2] = (fabs(q) * (hb - hr) - Q_ua) / D->M_r;
    c->s.d[3] = -(-Q_ua + c->G * (Tr - T_out)) / c->C;
    c->p_h = pv - drop(q, rho_p(pv), PIPE_VREF, PIPE_DP);
    sflow -= q; /* split[i].outlet2 */
  }
  /* the far end's bypass, then the return main back to the plant, the
   * junctions' mismatches forming the rows' right sides */
  double m2 = sflow, p2 = p - drop(sflow, rho_p(p), D->last_vref, D->last_dp), h2 = hb;
  double c_next = 0, g_next = 0;
  for (size_t k = n; k-- > 0;) {
    house *c = &H[k];
    const double q = c->s.y[0], hr = c->s.y[2];
    const double S = fabs(q) + fabs(m2);
    const double fe = S < JUNCTION_EPS ? 1.0 - S / JUNCTION_EPS : 0.0;
    const double dd = JUNCTION_EPS * fe * fe;
    const double w1 = fabs(q) + dd, w2 = fabs(m2) + dd, ws = w1 + w2;
    const double m = q + m2;
    const double pm = (w1 * c->p_h + w2 * p2) / ws, hm = (w1 * hr + w2 * h2) / ws;
    const double ci = pm - c->p_h, di = pm - p2;
    const double r = ci - di - c_next; /* c_next = 0 at the far end */
    c->g = (r + D->Lh * g_next) * c->inv_beta; /* row's upper entry is -Lh */
    g_next = c->g, c_next = ci;
    p2 = pm - drop(m, rho_p(pm), c->v_ref, c->dp_ref); /* ret[k] */
    m2 = m, h2 = hm;
  }
  /* the Volume's inlet and residual (row 0) */
  const double h_in = m2 >= 0 ? h2 : h_v;
  P->d[0] = m2 - m0;
  P->d[1] = m2 * h_in - m0 * h_v;
  double z = (-((p_v - p2) + c_next) + D->Lh * g_next) * D->inv_beta0;
  P->d[2] = z;
  rk_update(P, s, h);
  for (size_t i = 0; i < n; i++) {
    house *c = &H[i];
    const double zi = c->g - c->mult * z;
    c->s.d[0] = z - zi;
    z = zi;
    rk_update(&c->s, s, h);
  }
}

static void step(district *D, double t, double h) {
  stage(D, t, 0, h);
  stage(D, t + 0.5 * h, 1, h);
  stage(D, t + 0.5 * h, 2, h);
  stage(D, t + h, 3, h);
}

/* Parameters, start values and the factorisation. */
static int setup(district *D, size_t n) {
  memset(D, 0, sizeof *D);
  D->n = n;
  D->h = calloc(n, sizeof *D->h);
  if (!D->h) return -1;
  const double rho = 995.586, m_house = 0.06, dn = (double)n;
  /* the plant */
  D->V = 50;
  const double vol_p0 = 3e5, vol_T0 = 353.15;
  const double h0 = CP * (vol_T0 - T_REF), r0 = rho_p(vol_p0);
  D->plant.x[0] = r0 * D->V;
  D->plant.x[1] = D->plant.x[0] * (h0 - vol_p0 / r0);
  D->plant.x[2] = 0;
  D->plant.x[3] = CP * (353.15 - T_REF);
  D->M_b = rho_p(1e5) * 1.0;
  D->M_r = rho_p(1e5) * RAD_V;
  D->T_flame = 368.15;
  D->G_burn = 400 * dn;
  D->k_p = 3e5 / (0.1 * dn / rho);
  D->omega = 150;
  D->V_r = 2 * DH_PI * 0.1 * dn / rho / 150;
  D->L_pump = 1e3;
  D->last_vref = 1e-4, D->last_dp = 5e4, D->L_last = 1e4;
  D->Lh = VALVE_L + PIPE_L;
  /* signals */
  const double tx[6] = {0, 6 * 3600, 6.5 * 3600, 22 * 3600, 22.5 * 3600, DAY};
  const double ty[6] = {290.15, 290.15, 294.15, 294.15, 290.15, 290.15};
  memcpy(D->tt_x, tx, sizeof tx), memcpy(D->tt_y, ty, sizeof ty);
  D->sin_off = 273.15 + 2, D->sin_amp = 5;
  D->sin_w = 2.0 * DH_PI * (1 / DAY);
  D->sin_phase = -DH_PI / 2 - 2 * DH_PI * 4 / 24;
  /* the houses and their segments */
  for (size_t k = 0; k < n; k++) {
    house *c = &D->h[k];
    const long i = (long)k + 1;
    c->Kv = 0.25 + 0.2 * spread(i);
    c->UA = 400 + 200 * spread(i + 17);
    c->C = 1.5e7 + 1e7 * spread(i + 31);
    c->G = 140 + 80 * spread(i + 53);
    const double flow = m_house * (double)((long)n - i + 1);
    c->v_ref = flow / rho;
    c->dp_ref = 5e4 / dn;
    c->s.x[0] = 0, c->s.x[1] = 0, c->s.x[2] = CP * (RAD_T0 - T_REF), c->s.x[3] = ROOM_T0;
  }
  /* the tridiagonal matrix (header comment), eliminated from the far end */
  const double Lh = D->Lh;
#define SEG_L(k) (50 * rho / (m_house * (double)((long)n - (long)(k) + 1))) /* segment k, 1.. */
  double beta = Lh + D->L_last, mult = -Lh / beta;
  D->h[n - 1].inv_beta = 1 / beta, D->h[n - 1].mult = mult;
  for (size_t k = n - 1; k >= 1; k--) {
    beta = 2 * Lh + 2 * SEG_L(k + 1) + Lh * mult;
    mult = -Lh / beta;
    D->h[k - 1].inv_beta = 1 / beta, D->h[k - 1].mult = mult;
  }
  D->inv_beta0 = 1 / (2 * SEG_L(1) + D->L_pump + Lh + Lh * mult);
#undef SEG_L
  for (size_t k = 0; k < n; k++) memcpy(D->h[k].s.y, D->h[k].s.x, sizeof D->h[k].s.x);
  memcpy(D->plant.y, D->plant.x, sizeof D->plant.x);
  return 0;
}

/* vol.p and vol.T from the plant's state */
static void vol_state(const district *D, double *p, double *T) {
  const double M = D->plant.x[0], rho = M / D->V;
  *p = P_REF + (rho / RHO0 - 1.0) / BETA;
  *T = T_h(D->plant.x[1] / M + *p / rho);
}

static void header(FILE *f, size_t nh) {
  fprintf(f, "time,burner.Q_flow,pump.m_flow,vol.T,vol.p");
  for (size_t i = 1; i <= nh; i++)
    fprintf(f, ",house[%zu].room.T,house[%zu].valve.m_flow,house[%zu].pi.y,house[%zu].rad.T", i,
            i, i, i);
  fputc('\n', f);
}
static void row(FILE *f, const district *D, double t, size_t nh) {
  double p, T;
  vol_state(D, &p, &T);
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g", t,
          D->G_burn * (T_h(D->plant.x[3]) - D->T_flame), D->plant.x[2], T, p);
  const double T_set = setpoint(D, t);
  for (size_t k = 0; k < nh; k++) {
    const double *x = D->h[k].s.x;
    fprintf(f, ",%.17g,%.17g,%.17g,%.17g", x[3], x[0], pi_out(T_set - x[3], x[1]), T_h(x[2]));
  }
  fputc('\n', f);
}

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void) {
  fprintf(stderr, "usage: flat_district N STEPS DT [--start T0] [--csv FILE] [--every K] "
                  "[--houses H]\n");
  return 2;
}
/* A whole number >= lo from text, or -1 after a message. */
static int whole(const char *s, const char *what, unsigned long long lo, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v < lo) {
    fprintf(stderr, "flat_district: %s must be a whole number >= %llu, not '%s'\n", what, lo, s);
    return -1;
  }
  *out = v;
  return 0;
}
static int number(const char *s, const char *what, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || !isfinite(v)) {
    fprintf(stderr, "flat_district: %s must be a finite number, not '%s'\n", what, s);
    return -1;
  }
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) return usage();
  unsigned long long n, steps, every = 1, nh = 0;
  double dt, t0 = 0;
  if (whole(argv[1], "N", 1, &n) || whole(argv[2], "STEPS", 0, &steps) ||
      number(argv[3], "DT", &dt))
    return 2;
  if (!(dt > 0)) return fprintf(stderr, "flat_district: DT must be > 0\n"), 2;
  const char *csv = NULL;
  int have_nh = 0;
  for (int i = 4; i < argc; i++) {
    if (i + 1 >= argc) return usage();
    if (strcmp(argv[i], "--start") == 0) {
      if (number(argv[++i], "T0", &t0)) return 2;
    } else if (strcmp(argv[i], "--csv") == 0) {
      csv = argv[++i];
    } else if (strcmp(argv[i], "--every") == 0) {
      if (whole(argv[++i], "K", 1, &every)) return 2;
    } else if (strcmp(argv[i], "--houses") == 0) {
      if (whole(argv[++i], "H", 0, &nh)) return 2;
      have_nh = 1;
    } else {
      fprintf(stderr, "flat_district: unknown argument '%s'\n", argv[i]);
      return usage();
    }
  }
  if (n > SIZE_MAX / sizeof(house) / 2) {
    fprintf(stderr, "flat_district: N = %llu is too large\n", n);
    return 2;
  }
  if (!have_nh || nh > n) nh = n;
  district D;
  double s0 = clock_s(CLOCK_MONOTONIC);
  if (setup(&D, (size_t)n)) {
    fprintf(stderr, "flat_district: out of memory for %llu houses\n", n);
    return 1;
  }
  double setup_s = clock_s(CLOCK_MONOTONIC) - s0;
  FILE *f = NULL;
  if (csv && !(f = fopen(csv, "w"))) {
    fprintf(stderr, "flat_district: cannot write %s: %s\n", csv, strerror(errno));
    free(D.h);
    return 1;
  }
  if (f) header(f, (size_t)nh), row(f, &D, t0, (size_t)nh);
  double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  for (unsigned long long k = 0; k < steps; k++) {
    step(&D, t0 + (double)k * dt, dt);
    if (f && (k + 1) % every == 0) row(f, &D, t0 + (double)(k + 1) * dt, (size_t)nh);
  }
  double wall = clock_s(CLOCK_MONOTONIC) - w0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  int rc = 0;
  if (f && fclose(f)) {
    fprintf(stderr, "flat_district: cannot write %s\n", csv);
    rc = 1;
  }
  const unsigned long long comps = 14 * n + 8, evals = 4 * steps;
  printf("houses %llu components %llu steps %llu evaluations %llu setup %.6f s wall %.6f s cpu "
         "%.6f s per_eval_per_component %.3f ns\n",
         n, comps, steps, evals, setup_s, wall, cpu,
         evals ? 1e9 * cpu / (double)evals / (double)comps : 0.0);
  double Tsum = 0;
  for (size_t k = 0; k < n; k++) Tsum += D.h[k].s.x[3];
  printf("final pump.m_flow %.17g burner.Q_flow %.17g room_T_sum %.17g\n", D.plant.x[2],
         D.G_burn * (T_h(D.plant.x[3]) - D.T_flame), Tsum);
  free(D.h);
  return rc;
}
