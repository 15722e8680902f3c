/* rftab.h - fast properties of a fluid with a Helmholtz equation of state
 * (helmholtz.h): spline tables in (p, h), after the spline-based table
 * look-up method (SBTL) that IAPWS endorses, built from the equation once.
 *
 * The (p, h) plane is cut into three patches, each a tensor grid of
 * bicubic Hermite cells (values and slopes of C2 cubic splines through the
 * equation's values at the nodes):
 *   L  liquid, p < pc, from h(p, T_lo) to the saturated liquid h'(p)
 *   V  vapour, p < pc, from the saturated vapour h''(p) to h(p, T_hi)
 *   S  p >= pc, from h(p, T_lo) to h(p, T_hi)
 * Their coordinates are z = sqrt(|ln(p/pc)|), which puts nodes close to
 * the critical pressure and makes the saturation line smooth (the
 * saturated states of an analytic equation go with sqrt(pc - p) there),
 * and eta, h scaled between the patch's boundaries at p, so that the
 * saturation line is a grid line. Tabulated: T, ln rho, s. The two-phase
 * states between h' and h'' are the saturated states of the patches' edge
 * lines mixed by the lever rule, so each property is continuous across the
 * dome edges (to rounding). The boundaries h(p, T_lo), h', h'', h(p, T_hi)
 * are cubic splines in z on the same nodes.
 *
 * The range is the fluid's T_lo <= T <= T_hi, p_lo <= p <= p_hi (the
 * hz_fluid); outside it the calls return NaN (rft_ph) or -1 with the reason
 * (rft_why_ph, rft_from_rho_u). docs/media.md states the accuracy against
 * the equation of state (test_rftab measures it over dense grids). */
#ifndef LIED_LIB_THERMOFLUID_RFTAB_H
#define LIED_LIB_THERMOFLUID_RFTAB_H
#include <stddef.h>
#include "lib/thermofluid/helmholtz.h"

/* A node axis with a cell look-up in O(1) (a table of hints over uniform
 * buckets). */
typedef struct rft_axis {
  int n;       /* nodes */
  double *x;   /* n node coordinates, ascending */
  double *ih;  /* n - 1 inverse cell widths */
  int nb;      /* buckets */
  double b0, bs; /* bucket k starts at b0 + k / bs */
  int *hint;   /* the cell of each bucket's start */
} rft_axis;

#define RFT_NP 3 /* tabulated: T, ln rho, s */
enum { RFT_T = 0, RFT_LR = 1, RFT_S = 2 };

/* A patch: node (i, j) at z->x[i], e.x[j] holds, for each tabulated
 * property k, f, df/dz, df/deta, d2f/dz deta at data + ((i * e.n + j) *
 * RFT_NP + k) * 4. */
typedef struct rft_patch {
  const rft_axis *z;
  rft_axis e;
  double *data;
} rft_patch;

/* The boundaries of the patches along z: h(p, T_lo), h', h'', h(p, T_hi)
 * (the last three only below pc), value and slope per node. */
enum { RFT_HMIN = 0, RFT_HL = 1, RFT_HV = 2, RFT_HMAX = 3, RFT_NB = 4 };

typedef struct rft_table {
  hz_eos eos;
  const char *name;
  double pc, Tc, hc;
  double p_lo, p_hi, T_lo, T_hi;
  rft_axis zs, zp;       /* z nodes below pc (0 .. z(p_lo)), above (0 .. z(p_hi)) */
  int zq;                /* below pc z = ln(pc/p)^(1/2) (zq = 2) or ^(1/3) (zq = 3) */
  rft_patch L, V, S;     /* L and V on zs, S on zp */
  double *bs, *bp;       /* boundaries below / above pc: node i at + i * RFT_NB * 2 */
  double build_s;        /* seconds the build took */
  double inv_vL_lo, inv_vV_lo, inv_vc; /* saturated volumes at p_lo and at pc (rftab_inv.c) */
} rft_table;

/* z below pc: ln(pc/p)^(1/zq). With an analytic equation the saturated
 * states go with sqrt(pc - p) near the critical point (zq = 2); Span and
 * Wagner's non-analytic terms make them steeper, with the exponent 0.35
 * of real fluids (zq = 3, R744). */
static inline double rft_z_sub(const rft_table *t, double p) {
  double l = __builtin_log(t->pc / p);
  return t->zq == 3 ? __builtin_cbrt(l) : __builtin_sqrt(l);
}
static inline double rft_p_sub(const rft_table *t, double z) {
  return t->pc * __builtin_exp(-(t->zq == 3 ? z * z * z : z * z));
}

/* The properties at (p, h). phase: 0 liquid(-like), 1 vapour(-like) (above
 * pc: denser than the critical density or not), 2 two-phase. The
 * derivatives (those of the tabulated functions) only from rft_ph_d, NaN
 * from rft_ph. */
typedef struct rft_props {
  double T, rho, s, x;
  double drho_dp, drho_dh; /* at constant h, at constant p */
  double u;                /* h - p / rho */
  int phase;
} rft_props;

/* The saturated states at p (p_lo <= p < pc) from the table. */
typedef struct rft_sat {
  double T, rhoL, rhoV, hL, hV, sL, sV;
} rft_sat;

/* Build the table of fluid f (its reference state and range). NULL with a
 * reason in why on failure (no memory, an equation that does not converge
 * at a node). */
rft_table *rft_build(const hz_fluid *f, char *why, size_t cap);
void rft_free(rft_table *t);

/* T at (p, h): NaN outside the range. */
double rft_T_ph(const rft_table *t, double p, double h);
/* All properties at (p, h): 0, or -1 (outside the range; *o is NaN);
 * rft_ph_d with the density's derivatives. */
int rft_ph(const rft_table *t, double p, double h, rft_props *o);
int rft_ph_d(const rft_table *t, double p, double h, rft_props *o);
/* The density alone; cp = dh/dT at constant p (0 for a two-phase state,
 * where it is not defined). NaN outside the range. */
double rft_rho(const rft_table *t, double p, double h);
double rft_cp(const rft_table *t, double p, double h);
/* The density and its derivatives only (cheaper): 0, or -1 (NaN). */
int rft_rho_ph(const rft_table *t, double p, double h, double *rho, double *drho_dp,
               double *drho_dh);
/* n states at once (n <= 64), the same bits as rft_T_ph / rft_ph (d = 0)
 * or rft_ph_d (d = 1) state by state. */
void rft_T_ph_lanes(const rft_table *t, size_t n, const double *p, const double *h, double *T);
void rft_ph_lanes(const rft_table *t, size_t n, const double *p, const double *h, int d,
                  rft_props *o);
/* Saturation from the table: at p (p_lo <= p < pc), and Tsat's inverse
 * psat(T) (T_sat(p_lo) <= T < Tc). 0 or -1. */
int rft_sat_p(const rft_table *t, double p, rft_sat *s);
int rft_psat(const rft_table *t, double T, double *p);
/* h at (p, T) single phase (Newton's method on the table's T(p, h) from the
 * equation's value; -1 outside the range); h at (p, s) (two-phase
 * included). */
int rft_h_pT(const rft_table *t, double p, double T, double *h);
int rft_h_ps(const rft_table *t, double p, double s, double *h);
/* Fill the constants the (rho, u) inverse keeps (at the end of the build). */
void rft_inv_prepare(rft_table *t);
/* The bounds of the table's enthalpies at p: h(p, T_lo), h(p, T_hi). 0, or
 * -1 when p is outside the range. */
int rft_h_bounds(const rft_table *t, double p, double *hmin, double *hmax);
/* The state holding density rho and internal energy u (a rigid volume):
 * p and h with rft_ph(p, h) giving rho and u back. 0 or -1. */
int rft_from_rho_u(const rft_table *t, double rho, double u, double *p, double *h);
/* Why (p, h) / (rho, u) / (p, T) is refused (a message naming the fluid and
 * the state), or 0 when it is not. */
int rft_why_ph(const rft_table *t, double p, double h, char *why, size_t cap);
int rft_why_rho_u(const rft_table *t, double rho, double u, char *why, size_t cap);
int rft_why_pT(const rft_table *t, double p, double T, char *why, size_t cap);

/* The table of a refrigerant medium of refrigerants.c by its fluid's name
 * ("R134a", "R1234yf", "R290", "R744"), built at the first call and kept
 * for the process; NULL with the reason in why. */
const rft_table *tf_refrigerant_table(const char *id, char *why, size_t cap);

#endif
