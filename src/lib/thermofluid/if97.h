/* if97.h - water and steam after IAPWS-IF97 (the revised release of 2007 /
 * R7-97(2012)): the basic equations of regions 1, 2 and 5, the saturation
 * line (region 4) with two-phase mixtures, the boundary equations B23 and
 * B2bc, the backward equations T(p,h) and T(p,s) of regions 1 and 2 refined
 * by Newton's method to the basic equations' accuracy, and the inverse a
 * rigid volume needs, (rho, u) -> (p, T, x).
 *
 * Region 3 (around the critical point: above 16.53 MPa, between 623.15 K and
 * the B23 line) is the basic equation f(rho, T) (if97_r3.c), with the
 * two-phase states between 623.15 K and the critical point on it.
 *
 * SI units throughout: Pa, K, J/kg, J/(kg K), kg/m3. Every function returns
 * 0, or LIED_ERROR with a message naming the state in why (cap bytes, always
 * terminated); no output is NaN. */
#ifndef LIED_LIB_THERMOFLUID_IF97_H
#define LIED_LIB_THERMOFLUID_IF97_H
#include <stddef.h>

#define IF97_R 461.526         /* specific gas constant [J/(kg K)] */
#define IF97_TC 647.096        /* critical temperature [K] */
#define IF97_PC 22.064e6       /* critical pressure [Pa] */
#define IF97_TMIN 273.15       /* lowest temperature [K] */
#define IF97_T13 623.15        /* region 1 / region 3 boundary [K] */
#define IF97_T25 1073.15       /* region 2 / region 5 boundary [K] */
#define IF97_TMAX 2273.15      /* highest temperature (region 5) [K] */
#define IF97_PMAX 100e6        /* highest pressure (regions 1, 2) [Pa] */
#define IF97_P5MAX 50e6        /* highest pressure of region 5 [Pa] */
#define IF97_PTRIPLE 611.212677 /* psat(273.15 K) [Pa] */
#define IF97_PS13 16.5291642526e6 /* psat(623.15 K): the highest two-phase p [Pa] */
#define IF97_RHOC 322.0        /* critical (region 3's reducing) density [kg/m3] */
#define IF97_T23MAX 863.15     /* B23 at 100 MPa: the highest temperature of region 3 [K] */
#define IF97_R3_RHO_MAX 850.0  /* above region 3 (at most ~762 kg/m3), below where its p(rho) turns */

/* A state: region 1 (liquid), 2 (vapour), 3 (around the critical point), 4
 * (two-phase mixture) or 5 (high-temperature steam). x is the vapour mass
 * fraction in region 4 and 0 (region 1) or 1 (regions 2, 5) outside it; in
 * region 3 0 for a liquid-like state (denser than the critical density 322
 * kg/m3; below the critical temperature than IF97_R3_RHOC_SAT), else 1; cp is 0 in region 4 (it is not
 * defined there: the functions that return it refuse a two-phase state). */
typedef struct if97_state {
  double p, T, rho, h, u, s, cp, x;
  int region;
} if97_state;

/* Saturation line: psat(T) for 273.15 K <= T <= 647.096 K, Tsat(p) for
 * 611.213 Pa <= p <= 22.064 MPa. */
int if97_psat(double T, double *p, char *why, size_t cap);
int if97_Tsat(double p, double *T, char *why, size_t cap);

/* Saturated liquid (x = 0) and vapour (x = 1) at p (611.213 Pa <= p <=
 * 22.064 MPa; above 16.53 MPa region 3's); region 4 in both. */
int if97_sat_p(double p, if97_state *L, if97_state *V, char *why, size_t cap);
/* Single-phase state at (p, T) in regions 1, 2, 3, 5. */
int if97_pT(double p, double T, if97_state *st, char *why, size_t cap);
/* State at (p, h) / (p, s), two-phase included. */
int if97_ph(double p, double h, if97_state *st, char *why, size_t cap);
int if97_ps(double p, double s, if97_state *st, char *why, size_t cap);
/* Temperature only (the fast path of if97_ph). */
int if97_T_ph(double p, double h, double *T, char *why, size_t cap);
/* T(p, h) of n states at once (if97_lanes.c): T[l] the temperature
 * if97_T_ph gives for (p[l], h[l]), bit for bit, or NaN where it fails.
 * For the lane forms of blocks with many cells: the fast paths of
 * if97_T_ph are evaluated several states per instruction. */
void if97_T_ph_lanes(size_t n, const double *p, const double *h, double *T);
/* State at density and specific internal energy (what a rigid volume
 * holds), two-phase included. */
int if97_rho_u(double rho, double u, if97_state *st, char *why, size_t cap);

/* ---- internal: the equations, for the unit tests ----------------------- */

/* Dimensionless Gibbs free energy gamma(pi, tau) and its derivatives
 * (g = gamma, gp = d/dpi, gt = d/dtau, ...) with the reducing pressure and
 * temperature of the region. */
typedef struct if97_gibbs {
  double g, gp, gpp, gt, gtt, gpt;
  double pstar, Tstar; /* [Pa], [K] */
} if97_gibbs;

void if97_gibbs1(double p, double T, if97_gibbs *g);
void if97_gibbs2(double p, double T, if97_gibbs *g);
void if97_gibbs5(double p, double T, if97_gibbs *g);
/* gamma, gamma_tau, gamma_tautau only (gp, gpp, gpt are set to 0). */
void if97_gibbs_t(int region, double p, double T, if97_gibbs *g);
/* Region 3: the dimensionless Helmholtz free energy phi(delta, tau) =
 * f / (R T), delta = rho / 322 kg/m3, tau = 647.096 K / T, and its
 * derivatives (fd = d/ddelta, ...). */
typedef struct if97_helm {
  double f, fd, fdd, ft, ftt, fdt;
  double delta, tau;
} if97_helm;
void if97_helm3(double rho, double T, if97_helm *f);
void if97_from_helm3(const if97_helm *f, double rho, double T, if97_state *st);
double if97_p3(double rho, double T);
/* The density of region 3's equation at (p, T) on the liquid (vapour = 0)
 * or the vapour branch: 0, or -1 when there is none. *rho on entry: a start
 * near the root (the last of an iteration), or 0. */
int if97_rho3(double p, double T, int vapour, double *rho);
/* Region 3's saturated densities at 623.15 K (liquid, vapour) and where
 * they meet at the critical temperature (the liquid's root there), by
 * if97_sat3 (test_if97 checks them). */
#define IF97_R3_RHOL13 574.67039809603978
#define IF97_R3_RHOV13 113.61270497902538
#define IF97_R3_RHOC_SAT 322.17856305816622
/* Is a root rho of region 3's equation at T on the branch asked for (the
 * liquid's denser than the critical density below the critical temperature,
 * the vapour's thinner; above it the one root; within 1 mK of it neither:
 * the spinodals close in on the critical density)? */
int if97_r3_on_branch(double rho, double T, int vapour);
/* Saturated liquid and vapour densities at 623.15 K <= T <= 647.096 K
 * (on entry: starts near them, or 0). */
int if97_sat3(double T, double *rhoL, double *rhoV);
/* Properties from the Gibbs function (region 1, 2 or 5 at (p, T)). */
void if97_from_gibbs(const if97_gibbs *g, double p, double T, int region, if97_state *st);
/* B23: p(T) and T(p); B2bc: p(h) and h(p). */
double if97_p_b23(double T);
double if97_T_b23(double p);
double if97_p_b2bc(double h);
double if97_h_b2bc(double p);
/* The backward equations alone (no refinement). */
double if97_T1_ph(double p, double h);
double if97_T1_ps(double p, double s);
double if97_T2_ph(double p, double h);
double if97_T2_ps(double p, double s);
/* Region 3's backward equations T(p, h), v(p, h) by subregion (3a below
 * h_3ab(p), 3b above): start values for Newton's method on (rho, T). */
double if97_h_3ab(double p);
double if97_T3_ph(double p, double h);
double if97_v3_ph(double p, double h);
/* Region-4 equations alone, no range check. */
double if97_psat_eq(double T);
double if97_Tsat_eq(double p);

/* The root of f(T, ctx) - target on [a, b] where the two ends differ in
 * sign (Illinois false position, bisection when a step leaves the bracket),
 * to |b - a| <= rtol b; the media's temperature iterations (if97_solve.c,
 * moist_air.c). */
typedef double (*if97_root_fn)(double T, const void *ctx);
double if97_root(if97_root_fn f, const void *ctx, double target, double a, double b,
                 double rtol);

#endif
