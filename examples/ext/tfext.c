/* tfext.c - an out-of-tree library extending lied's thermofluid domain: a
 * medium and a component, built against the installed public headers only
 * (lied/component.h, lied/thermofluid.h; docs/components.md, docs/media.md).
 *
 * The medium "glycol30" (require "tfext", then tf.medium "glycol30"): a
 * water-glycol coolant of 30 % propylene glycol by mass, with a density
 * falling and a heat capacity rising with temperature (illustrative
 * correlations, not a reference):
 *   cp(T) = 3750 + 2.5 th J/(kg K),  th = T - 273.15 K
 *   h(T) = 3750 th + 1.25 th^2 J/kg  (0 at 273.15 K)
 *   rho(p, T) = (1040 - 0.35 th - 0.0018 th^2) (1 + 4e-10 (p - 1e5)) kg/m3
 * for 253.15 K <= T <= 373.15 K; every thermofluid component takes it by
 * name, as lied's own media.
 *
 * The component LossyPipe: a pipe of volume V losing heat to its
 * surroundings at T_amb through UA, a flow-through cell of fixed mass M:
 *   M der(h) = |m_flow| (h_in - h) - UA (T(p, h) - T_amb),  outlet h = h. */
#include <math.h>
#include <stdio.h>
#include "lied/component.h"
#include "lied/thermofluid.h"

/* ---- the medium --------------------------------------------------------------- */
#define G_TMIN 253.15
#define G_TMAX 373.15

static double g_rho0(double th) { return 1040 - 0.35 * th - 0.0018 * th * th; }
static double g_th(double h) { return (-3750 + sqrt(3750.0 * 3750.0 + 5 * h)) / 2.5; }
static double g_h(double th) { return 3750 * th + 1.25 * th * th; }
static int g_ok(double T) { return T >= G_TMIN && T <= G_TMAX; }

static double glycol_T(const double *c, double p, double h) {
  (void)c, (void)p;
  double T = 273.15 + g_th(h);
  return g_ok(T) ? T : NAN;
}
static double glycol_rho(const double *c, double p, double h) {
  (void)c;
  double T = 273.15 + g_th(h);
  return g_ok(T) ? g_rho0(T - 273.15) * (1 + 4e-10 * (p - 1e5)) : NAN;
}
static double glycol_h(const double *c, double p, double T) {
  (void)c, (void)p;
  return g_ok(T) ? g_h(T - 273.15) : NAN;
}
static double glycol_cp(const double *c, double p, double h) {
  double T = glycol_T(c, p, h);
  return 3750 + 2.5 * (T - 273.15);
}
/* (rho, u) -> (p, h): h = u + p/rho, rho = rho0(T(h)) (1 + beta (p - p_ref)):
 * Newton's method on p. */
static int glycol_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  (void)c;
  double pp = 1e5;
  for (int it = 0; it < 50; it++) {
    double hh = u + pp / rho, th = g_th(hh), r0 = g_rho0(th), f = 1 + 4e-10 * (pp - 1e5);
    double F = r0 * f - rho;
    double dth = 1 / ((3750 + 2.5 * th) * rho); /* dth/dp through h */
    double dF = (-0.35 - 0.0036 * th) * dth * f + r0 * 4e-10;
    double pn = pp - F / dF;
    if (fabs(pn - pp) <= 1e-12 * fabs(pn) + 1e-9) {
      pp = pn;
      break;
    }
    pp = pn;
  }
  *p = pp, *h = u + pp / rho;
  if (!g_ok(273.15 + g_th(*h)) || !isfinite(pp)) *p = *h = NAN;
  return 0;
}
static int glycol_check(const double *c, char *why, size_t cap) {
  (void)c, (void)why, (void)cap;
  return 0;
}
static int glycol_range(double T, char *why, size_t cap, const char *state) {
  if (g_ok(T)) return 0;
  snprintf(why, cap, "glycol30: %s: T = %.6g K is outside [253.15 K, 373.15 K]", state, T);
  return -1;
}
static int glycol_check_pT(const double *c, double p, double T, char *why, size_t cap) {
  (void)c;
  char s[80];
  snprintf(s, sizeof s, "p = %.9g Pa, T = %.9g K", p, T);
  return glycol_range(T, why, cap, s);
}
static int glycol_check_ph(const double *c, double p, double h, char *why, size_t cap) {
  (void)c;
  char s[80];
  snprintf(s, sizeof s, "p = %.9g Pa, h = %.9g J/kg", p, h);
  return glycol_range(273.15 + g_th(h), why, cap, s);
}
static int glycol_check_rho_u(const double *c, double rho, double u, char *why, size_t cap) {
  double p, h;
  glycol_from_rho_u(c, rho, u, &p, &h);
  if (isfinite(p)) return 0;
  snprintf(why, cap, "glycol30: rho = %.9g kg/m3, u = %.9g J/kg is outside [253.15 K, 373.15 K]",
           rho, u);
  return -1;
}
/* the lane form: the same expression state by state (bit for bit) */
static void glycol_T_lanes(const double *c, size_t cs, size_t n, const double *p, const double *h,
                           double *T) {
  (void)cs;
  for (size_t l = 0; l < n; l++) T[l] = glycol_T(c, p[l], h[l]);
}

static const tf_medium glycol30 = {
    .name = "glycol30 (30 % propylene glycol in water, tfext)",
    .rho = glycol_rho, .T = glycol_T, .h = glycol_h, .cp = glycol_cp,
    .from_rho_u = glycol_from_rho_u, .check = glycol_check, .check_pT = glycol_check_pT,
    .check_ph = glycol_check_ph, .check_rho_u = glycol_check_rho_u, .T_lanes = glycol_T_lanes,
    .id = "glycol30", .T_of_h = 1 /* T from h alone: a temperature reads no pressure */};
TF_MEDIUM(glycol30)

/* ---- the component -------------------------------------------------------------- */
typedef struct lossy_pipe {
  tf_in inlet;
  tf_out outlet;
  tf_med med;
  double V, UA, T_amb, T0, p0, L;
  double h, der_h; /* state: enthalpy of the content */
  double T, Q_loss, M;
} lossy_pipe;

/* The outlet's pressure and its flow in blocks of their own: what leaves
 * (m_flow, h) does not depend on the pressure, so a temperature measured
 * downstream may set a valve upstream without an algebraic loop
 * (docs/components.md, "Dependencies per variable"). */
static void pipe_pressure(const lied_env *env, lossy_pipe *e) {
  (void)env;
  e->outlet.state.p = e->inlet.state->p;
}
static void pipe_flow(const lied_env *env, lossy_pipe *e) {
  (void)env;
  e->outlet.state.m_flow = e->inlet.state->m_flow;
  e->outlet.state.h = e->h;
  tf_pass_X(&e->med, &e->inlet, &e->outlet);
}
static void pipe_temp(const lied_env *env, lossy_pipe *e) {
  e->T = tf_T(&e->med, e->outlet.state.p, e->h);
  TF_GUARD_PH(env, e, &e->med, e->T, e->outlet.state.p, e->h, "content");
}
static void pipe_energy(const lied_env *env, lossy_pipe *e) {
  (void)env;
  e->Q_loss = e->UA * (e->T - e->T_amb);
  e->der_h = tf_cell_der(e->inlet.state->m_flow, e->inlet.state->h, e->h, -e->Q_loss, e->M);
}
static void pipe_der(const lied_env *env, lossy_pipe *e) {
  (void)env;
  tf_pass_der(&e->inlet, &e->outlet);
}
static void pipe_r(const lied_env *env, lossy_pipe *e) {
  (void)env;
  tf_pass_r(&e->inlet, &e->outlet, e->L);
}
LIED_BLOCK(pipe_pressure_b, lossy_pipe, pipe_pressure)
LIED_BLOCK(pipe_flow_b, lossy_pipe, pipe_flow)
LIED_BLOCK(pipe_temp_b, lossy_pipe, pipe_temp)
LIED_BLOCK(pipe_energy_b, lossy_pipe, pipe_energy)
LIED_BLOCK(pipe_der_b, lossy_pipe, pipe_der)
LIED_BLOCK(pipe_r_b, lossy_pipe, pipe_r)

static int pipe_init(void *self, lied_init *ctx) {
  lossy_pipe *e = self;
  if (tf_medium_init(&e->med, ctx)) return -1;
  if (tf_medium_check_pT(&e->med, ctx, e->p0, e->T0, "start state (p0, T0)")) return -1;
  e->h = tf_h(&e->med, e->p0, e->T0);
  e->M = tf_cell_mass(&e->med, e->p0, e->T0, e->V);
  return 0;
}

static void pipe_meta(lied_meta *m, void *self) {
  lossy_pipe *e = self;
  tf_meta_in(m, "inlet", 0, &e->inlet, &e->med);
  tf_meta_out(m, "outlet", 0, &e->outlet, &e->med);
  lied_meta_state(m, "h", "J/kg", &e->h, &e->der_h);
  lied_meta_var(m, "T", "K", &e->T);
  lied_meta_var(m, "Q_loss", "W", &e->Q_loss);
  lied_meta_var(m, "M", "kg", &e->M);
  /* each block declares the variables of the streams it reads (state:
   * m_flow 0, p 1, h 2) and writes */
  lied_meta_block(m, "pressure", pipe_pressure_b, 0, LIED_SIGS(&e->inlet.state),
                  LIED_SIGS(&e->outlet.state.p));
  lied_meta_reads(m, &e->inlet.state, 1, 1);
  lied_meta_block(m, "flow", pipe_flow_b, 0,
                  LIED_SIGS(&e->inlet.state, &e->h, TF_X(&e->med, e->inlet)),
                  LIED_SIGS(&e->outlet.state.m_flow, &e->outlet.state.h,
                            TF_X(&e->med, e->outlet)));
  lied_meta_writes(m, &e->outlet.state.m_flow, 1);
  lied_meta_reads(m, &e->inlet.state, 0, 1);
  /* the content's temperature: at the outlet's pressure where the medium's
   * T depends on it */
  lied_meta_block(m, "temperature", pipe_temp_b, 0,
                  e->med.fn && e->med.fn->T_of_h ? LIED_SIGS(&e->h)
                                                   : LIED_SIGS(&e->outlet.state.p, &e->h),
                  LIED_SIGS(&e->T));
  /* m_flow and h of the inlet: the pointer once per range */
  lied_meta_block(m, "energy", pipe_energy_b, 0,
                  LIED_SIGS(&e->inlet.state, &e->inlet.state, &e->h, &e->T),
                  LIED_SIGS(&e->der_h, &e->Q_loss));
  lied_meta_reads(m, &e->inlet.state, 0, 1);
  lied_meta_reads(m, &e->inlet.state, 2, 1);
  lied_meta_block(m, "der", pipe_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->inlet.der),
                  LIED_SIGS(&e->outlet.der));
  lied_meta_block(m, "r", pipe_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&e->outlet.r, &e->inlet.der), LIED_SIGS(&e->inlet.r));
}

static const lied_param pipe_params[] = {
    {"V", offsetof(lossy_pipe, V), 1e-3, "m3", "fluid volume", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0, NULL},
    {"UA", offsetof(lossy_pipe, UA), 10, "W/K", "conductance to the surroundings", 0, TF_NOMAX,
     0, 0, NULL},
    {"T_amb", offsetof(lossy_pipe, T_amb), 293.15, "K", "temperature of the surroundings", 0,
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0, NULL},
    {"T0", offsetof(lossy_pipe, T0), 293.15, "K", "start temperature", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0, NULL},
    {"p0", offsetof(lossy_pipe, p0), 1e5, "Pa", "pressure of the start state", 0, TF_NOMAX,
     LIED_PARAM_MIN_OPEN, 0, NULL},
    {"L", offsetof(lossy_pipe, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0, NULL},
    TF_MEDIUM_PARAM(lossy_pipe),
};
static const lied_class lossy_pipe_class = {
    "LossyPipe", "thermofluid",
    "a pipe of volume V losing heat UA (T - T_amb) to its surroundings: M der(h) = "
    "|m_flow| (h_in - h) - UA (T - T_amb), fixed mass M = rho(p0, T0) V",
    sizeof(lossy_pipe), pipe_params, sizeof pipe_params / sizeof *pipe_params, pipe_init,
    pipe_meta};

static const lied_class *const tfext_classes[] = {&lossy_pipe_class, NULL};
LIED_LIBRARY(tfext, "a thermofluid component (LossyPipe) and medium (glycol30) of a plugin",
             tfext_classes)
