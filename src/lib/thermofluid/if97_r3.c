/* if97_r3.c - IAPWS-IF97 region 3 (around the critical point): the basic
 * equation, the Helmholtz free energy f(rho, T), with its derivatives; the
 * properties from it; the density at (p, T) on the liquid or the vapour
 * branch; the saturated densities above 623.15 K. The solvers that select
 * the region and combine these are in if97_solve.c. */
#include <math.h>
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/if97_coef.h"

#define R3_N1 1.0658070028513 /* n1 of Table 30: the ln(delta) term */

/* ---- phi(delta, tau) = n1 ln delta + sum n delta^I tau^J (release Eq. 28) --- */

void if97_helm3(double rho, double T, if97_helm *f) {
  const double d = rho / IF97_RHOC, t = IF97_TC / T;
  double D[12], Tt[27]; /* delta^k for k in [0, 11], tau^k for k in [0, 26] */
  D[0] = 1.0, Tt[0] = 1.0;
  for (int k = 1; k < 12; k++) D[k] = D[k - 1] * d;
  for (int k = 1; k < 27; k++) Tt[k] = Tt[k - 1] * t;
  /* with a = n delta^I tau^J: the sums of a, a I, a I (I - 1), a J,
   * a J (J - 1), a I J; the derivatives are these over delta and tau */
  double s0 = 0, sI = 0, sII = 0, sJ = 0, sJJ = 0, sIJ = 0;
  for (int k = 0; k < 39; k++) {
    const int I = if97_r3[k].i, J = if97_r3[k].j;
    const double a = if97_r3[k].n * D[I] * Tt[J], aI = a * I, aJ = a * J;
    s0 += a;
    sI += aI;
    sII += aI * (I - 1);
    sJ += aJ;
    sJJ += aJ * (J - 1);
    sIJ += aI * J;
  }
  f->delta = d, f->tau = t;
  f->f = R3_N1 * log(d) + s0;
  f->fd = (R3_N1 + sI) / d;
  f->fdd = (sII - R3_N1) / (d * d);
  f->ft = sJ / t;
  f->ftt = sJJ / (t * t);
  f->fdt = sIJ / (d * t);
}

/* Release Table 31. */
void if97_from_helm3(const if97_helm *f, double rho, double T, if97_state *st) {
  const double d = f->delta, t = f->tau;
  st->p = rho * IF97_R * T * d * f->fd;
  st->T = T;
  st->rho = rho;
  st->u = IF97_R * T * t * f->ft;
  st->h = IF97_R * T * (t * f->ft + d * f->fd);
  st->s = IF97_R * (t * f->ft - f->f);
  const double a = d * f->fd - d * t * f->fdt, b = 2 * d * f->fd + d * d * f->fdd;
  st->cp = IF97_R * (-t * t * f->ftt + a * a / b);
  st->region = 3;
  /* liquid-like (0) when denser than the critical density (below the
   * critical temperature: than where the saturated densities meet), else
   * vapour-like (1). By density, not by p against psat(T): a saturated
   * state's p is psat to rounding only, and a saturated liquid came back
   * as vapour-like (issue 47) */
  st->x = rho > (T < IF97_TC ? IF97_R3_RHOC_SAT : IF97_RHOC) ? 0.0 : 1.0;
}

double if97_p3(double rho, double T) {
  if97_helm f;
  if97_helm3(rho, T, &f);
  return rho * IF97_R * T * f.delta * f.fd;
}

/* ---- density at (p, T) ------------------------------------------------------ */

typedef struct p3_ctx {
  double T;
} p3_ctx;
static double p3_of(double rho, const void *ctx) { return if97_p3(rho, ((const p3_ctx *)ctx)->T); }

int if97_r3_on_branch(double rho, double T, int vapour) {
  if (fabs(T - IF97_TC) <= 1e-3) return 0;
  return T > IF97_TC || (vapour ? rho < IF97_RHOC : rho > IF97_RHOC);
}

/* Newton's method on p(rho) = p from *rho: 0 when it converges on the
 * branch asked for (dp/drho > 0 and if97_r3_on_branch: the unstable part of
 * the loop, where dp/drho < 0, lies between the spinodals, which lie on
 * either side of the critical density, closing in on it as
 * (Tc - T)^(1/2)), else -1. */
static int newton_rho3(double p, double T, int vapour, double *rho) {
  double r = *rho;
  for (int k = 0; k < 40; k++) {
    if97_helm f;
    if97_helm3(r, T, &f);
    const double pp = r * IF97_R * T * f.delta * f.fd;
    const double dp = IF97_R * T * (2 * f.delta * f.fd + f.delta * f.delta * f.fdd);
    if (!(dp > 0)) return -1;
    double dr = (p - pp) / dp;
    if (dr > 0.2 * r) dr = 0.2 * r;
    if (dr < -0.2 * r) dr = -0.2 * r;
    /* converged: the step, or p's residual, at the level of the rounding
     * of the sum (its terms cancel to some 1e-14 of p near the critical
     * point) */
    const int done = fabs(p - pp) <= 1e-13 * p;
    r += dr;
    if (!(r > 0 && r < IF97_R3_RHO_MAX)) return -1;
    if (done || fabs(dr) <= 1e-13 * r) {
      if (!if97_r3_on_branch(r, T, vapour)) return -1;
      *rho = r;
      return 0;
    }
  }
  return -1;
}

/* The density of region 3's equation at (p, T) on one branch. Below the
 * critical temperature p(rho) has a loop (the liquid branch rises from the
 * liquid spinodal, the vapour branch up to the vapour spinodal). From a
 * start *rho > 0 (a density near the root: the last one of an iteration)
 * Newton's method, unless it leaves the branch or the temperature is within
 * 1 mK of the critical one. Else a search: the liquid root is the first crossing met from
 * above, the vapour root the first met from below (from the ideal gas's
 * density, which is below it: the real gas is denser), in steps of 2 % of
 * the density, refined by the shared root finder. 0, or -1 when no crossing
 * lies in the search range. */
int if97_rho3(double p, double T, int vapour, double *rho) {
  if (*rho > 0 && fabs(T - IF97_TC) > 1e-3 && newton_rho3(p, T, vapour, rho) == 0) return 0;
  const p3_ctx c = {T};
  const double k = 1.02;
  double a, b;
  if (!vapour) {
    b = IF97_R3_RHO_MAX;
    if (!(if97_p3(b, T) > p)) return -1;
    for (a = b / k; if97_p3(a, T) >= p; a /= k) {
      if (a < 1.0) return -1;
      b = a;
    }
  } else {
    a = p / (IF97_R * T);
    if (!(if97_p3(a, T) < p)) return -1;
    for (b = a * k; if97_p3(b, T) <= p; b *= k) {
      if (b > IF97_R3_RHO_MAX) return -1;
      a = b;
    }
  }
  *rho = if97_root(p3_of, &c, p, a, b, 1e-15);
  return 0;
}

/* Saturated liquid and vapour densities at T (623.15 K <= T <= 647.096 K)
 * at psat(T) of the saturation equation (*rhoL, *rhoV on entry: starts, or
 * 0; see if97_rho3). */
int if97_sat3(double T, double *rhoL, double *rhoV) {
  const double ps = if97_psat_eq(T);
  if (if97_rho3(ps, T, 0, rhoL) || if97_rho3(ps, T, 1, rhoV)) return -1;
  if (*rhoV > *rhoL) *rhoV = *rhoL = 0.5 * (*rhoV + *rhoL); /* at the critical point */
  return 0;
}
