/* helmholtz.h - multiparameter equations of state explicit in the Helmholtz
 * energy, a(rho, T) = R T [alpha0(delta, tau) + alphar(delta, tau)] with
 * delta = rho/rho_r, tau = T_r/T: one evaluator for every fluid, the fluids
 * being coefficient data (hz_fluids.c). The ideal part is
 *   alpha0 = ln delta + a1 + a2 tau + c ln tau + sum n tau^t
 *          + sum v ln(1 - exp(-u tau)),
 * the residual part sums terms of three kinds:
 *   power        n delta^d tau^t exp(-delta^l)        (l = 0: no exponential)
 *   Gaussian     n delta^d tau^t exp(-eta (delta - eps)^2 - beta (tau - gam)^2)
 *   non-analytic n Delta^b delta psi (Span and Wagner 1996, CO2 near the
 *                critical point): Delta = theta^2 + B ((delta-1)^2)^a,
 *                theta = 1 - tau + A ((delta-1)^2)^(1/(2 beta)),
 *                psi = exp(-C (delta-1)^2 - D (tau-1)^2).
 * On it: the properties at (rho, T), the saturated states by the
 * equal-pressure and equal-Gibbs-energy conditions (Maxwell; the fluid's
 * ancillary fits only give the starting values), and the states at (p, T),
 * (p, h), (p, s) and (rho, u). This is the reference the property tables
 * (rftab.h) are built from and checked against; it is not meant for the hot
 * path (one evaluation costs 0.3 to 1.5 microseconds).
 *
 * SI units, mass based: kg/m3, K, Pa, J/kg, J/(kg K). Functions that can
 * fail return 0, or -1 with a message naming the fluid and the state in why
 * (cap bytes, always terminated). */
#ifndef LIED_LIB_THERMOFLUID_HELMHOLTZ_H
#define LIED_LIB_THERMOFLUID_HELMHOLTZ_H
#include <stddef.h>

typedef struct { double n, d, t; int l; } hz_power;
typedef struct { double n, d, t, eta, eps, beta, gam; } hz_gauss;
typedef struct { double n, a, b, beta, A, B, C, D; } hz_nonanalytic;
typedef struct { double n, t; } hz_ideal_power;  /* n tau^t */
typedef struct { double v, u; } hz_ideal_planck; /* v ln(1 - exp(-u tau)) */

/* An ancillary fit (a starting value only), theta = 1 - T/Tr:
 *   HZ_ANC_EXP_TAU  value = vr exp(Tr/T sum N theta^t)
 *   HZ_ANC_EXP      value = vr exp(sum N theta^t)
 *   HZ_ANC_LIN      value = vr (1 + sum N theta^t) */
enum { HZ_ANC_EXP_TAU = 1, HZ_ANC_EXP = 2, HZ_ANC_LIN = 3 };
typedef struct {
  int form, n;
  double Tr, vr; /* K; Pa or mol/m3 */
  double N[6], t[6];
} hz_ancillary;

/* Reference states: the equation's own constants a1, a2, or the IIR
 * convention (h = 200 kJ/kg, s = 1 kJ/(kg K) for the saturated liquid at
 * 273.15 K; the refrigeration convention). */
enum { HZ_REF_EOS = 0, HZ_REF_IIR = 1 };

/* A fluid: the equation's coefficients with their source, and the range of
 * the property table built on it (rftab.h). */
typedef struct hz_fluid {
  const char *name; /* "R134a" */
  const char *eos;  /* the equation's reference */
  double M;         /* molar mass [kg/mol] */
  double Rm;        /* the equation's molar gas constant [J/(mol K)] */
  double Tr, rhor;  /* reducing temperature [K], density [mol/m3] */
  double a1, a2, c; /* ideal part: a1 + a2 tau + c ln tau (+ ln delta) */
  int nip, npl, npw, nga, nna;
  const hz_ideal_power *ip;
  const hz_ideal_planck *pl;
  const hz_power *pw;
  const hz_gauss *ga;
  const hz_nonanalytic *na;
  hz_ancillary psat, rhoL, rhoV;
  double T_triple;      /* [K] the lowest temperature of the equation */
  double T_max, p_max;  /* [K], [Pa] the highest of the equation's range */
  int ref;         /* HZ_REF_EOS or HZ_REF_IIR: the convention lied uses */
  /* the table's range (rftab.h): T_lo <= T <= T_hi, p_lo <= p <= p_hi */
  double T_lo, T_hi, p_lo, p_hi;
} hz_fluid;

/* A fluid ready for use: the specific constants, the reference-state
 * offsets and the equation's own critical point (where dp/drho and
 * d2p/drho2 vanish, which may differ from the reducing values). */
typedef struct hz_eos {
  const hz_fluid *f;
  double R, rhor;      /* [J/(kg K)], [kg/m3] */
  double da1, da2;     /* added to a1, a2 for the reference state */
  double Tc, rhoc, pc; /* the equation's critical point */
  double hc, sc, uc;
} hz_eos;

/* The Helmholtz energy's derivatives: a, a_d = d/ddelta, a_dd, a_t =
 * d/dtau, a_tt, a_dt. */
typedef struct { double a, a_d, a_dd, a_t, a_tt, a_dt; } hz_alpha;

/* The properties at (rho, T). */
typedef struct hz_props {
  double rho, T, p, h, s, u, g, cv, cp, w;
  double p_rho, p_T; /* dp/drho at T, dp/dT at rho */
  double h_rho, h_T; /* dh/drho at T, dh/dT at rho */
} hz_props;

/* Saturated liquid (L) and vapour (V) at T. */
typedef struct hz_sat {
  double T, p, rhoL, rhoV, hL, hV, sL, sV, uL, uV;
} hz_sat;

/* A state: x the vapour fraction of a two-phase state, 0 for a single phase
 * liquid (below the critical temperature above psat, or above it denser
 * than the critical density), 1 for a vapour-like one; phase 2 marks a
 * two-phase mixture (cp, w, cv then 0). */
typedef struct hz_state {
  double p, T, rho, h, s, u, cp, cv, w, x;
  int phase; /* 0 liquid(-like), 1 vapour(-like), 2 two-phase */
} hz_state;

/* Prepare a fluid for use with the given reference state. 0, or -1 with why. */
int hz_init(hz_eos *e, const hz_fluid *f, int ref, char *why, size_t cap);

void hz_alpha_r(const hz_fluid *f, double delta, double tau, hz_alpha *ar);
void hz_alpha_0(const hz_eos *e, double delta, double tau, hz_alpha *a0);
void hz_eval(const hz_eos *e, double rho, double T, hz_props *pr);
/* p(rho, T) and dp/drho (the residual part only: cheaper than hz_eval). */
double hz_p(const hz_eos *e, double rho, double T, double *p_rho);

/* Saturation at T (T_triple <= T < Tc) and at p (psat(T_triple) <= p < pc):
 * Newton's method on the equal-pressure, equal-Gibbs conditions from the
 * ancillary starting values (or from guess, when guess->T > 0: the previous
 * point of a march along the line). */
int hz_sat_T(const hz_eos *e, double T, const hz_sat *guess, hz_sat *s, char *why, size_t cap);
int hz_sat_p(const hz_eos *e, double p, const hz_sat *guess, hz_sat *s, char *why, size_t cap);

/* Density at (p, T) on the stable branch; rho0 > 0 a starting value (a
 * neighbouring state), else 0. */
int hz_rho_pT(const hz_eos *e, double p, double T, double rho0, double *rho, char *why,
              size_t cap);

/* States (two-phase included where p < pc) within T_triple <= T <= the
 * fluid's T_hi and p <= its p_hi. */
int hz_state_pT(const hz_eos *e, double p, double T, hz_state *st, char *why, size_t cap);
int hz_state_ph(const hz_eos *e, double p, double h, hz_state *st, char *why, size_t cap);
int hz_state_ps(const hz_eos *e, double p, double s, hz_state *st, char *why, size_t cap);
int hz_state_rhou(const hz_eos *e, double rho, double u, hz_state *st, char *why, size_t cap);
/* Two-phase state of quality x at T / at p. */
int hz_state_Tx(const hz_eos *e, double T, double x, hz_state *st, char *why, size_t cap);

/* The solution (rho, T) of p(rho, T) = p, h(rho, T) = h by Newton's method
 * from (*rho, *T), single phase: 0 when it converged (to rounding),
 * -1 otherwise (the values are then undefined). For marching along a grid. */
int hz_newton_ph(const hz_eos *e, double p, double h, double *rho, double *T);

/* The fluids (hz_fluids.c). */
extern const hz_fluid hz_r134a, hz_r1234yf, hz_r290, hz_r744;

#endif
