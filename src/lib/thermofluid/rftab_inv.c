/* rftab_inv.c - on the (p, h) spline tables of rftab.h: the state of a
 * rigid volume from its density and internal energy, (rho, u) -> (p, h),
 * and the reasons a state is refused.
 *
 * (rho, u) is two-phase when some pressure between p_lo and the dome's top
 * at that density (the saturated state of density rho) has the mixture of
 * density rho at energy u: the mixture's u rises with p there, so the
 * dome's top and p_lo bracket the root. Otherwise the state is single
 * phase, above the dome: p is the root of rho(p, u + p/rho) = rho, which
 * rises with p ((drho/dp) at constant u > 0), between the dome's top (or
 * p_lo when the density has no saturated state in range) and p_hi, with h
 * held to the patches' bounds on the way. A state exactly on the
 * saturation line is the dome's top itself: both branches reach it (test:
 * test_rftab, "on and next to the phase boundaries"). */
#include <math.h>
#include <stdio.h>
#include "lib/thermofluid/rftab.h"

/* the cell helpers of rftab.c, repeated small: a 1-D spline at z */
static void zpos(const rft_axis *a, double x, int *i, double v[4], double d[4]) {
  int k = (int)((x - a->b0) * a->bs);
  k = k < 0 ? 0 : k >= a->nb ? a->nb - 1 : k;
  int c = a->hint[k];
  while (c < a->n - 2 && x >= a->x[c + 1]) c++;
  double w = a->x[c + 1] - a->x[c], iw = a->ih[c], t = (x - a->x[c]) * iw, t2 = t * t,
         t3 = t2 * t;
  *i = c;
  v[0] = 2 * t3 - 3 * t2 + 1, v[1] = (t3 - 2 * t2 + t) * w, v[2] = 3 * t2 - 2 * t3,
  v[3] = (t3 - t2) * w;
  d[0] = (6 * t2 - 6 * t) * iw, d[1] = 3 * t2 - 4 * t + 1, d[2] = (6 * t - 6 * t2) * iw,
  d[3] = 3 * t2 - 2 * t;
}
static double spl(const double *a, size_t stride, int i, const double v[4], const double d[4],
                  double *dz) {
  const double *b = a + (size_t)i * stride, *c = b + stride;
  *dz = d[0] * b[0] + d[1] * b[1] + d[2] * c[0] + d[3] * c[1];
  return v[0] * b[0] + v[1] * b[1] + v[2] * c[0] + v[3] * c[1];
}

/* The saturated states at z (below pc) with their z-derivatives. */
typedef struct {
  double p, dp; /* p and dp/dz */
  double vL, vV, hL, hV, dvL, dvV, dhL, dhV;
} sat_z;

static void sat_at_z(const rft_table *t, double z, sat_z *s) {
  int i;
  double v[4], d[4], dl;
  zpos(&t->zs, z, &i, v, d);
  size_t nodeL = (size_t)RFT_NP * 4, rowL = (size_t)t->L.e.n * nodeL, rowV = (size_t)t->V.e.n * nodeL;
  const double *L = t->L.data + (size_t)(t->L.e.n - 1) * nodeL + RFT_LR * 4;
  const double *V = t->V.data + RFT_LR * 4;
  s->vL = exp(-spl(L, rowL, i, v, d, &dl)), s->dvL = -s->vL * dl;
  s->vV = exp(-spl(V, rowV, i, v, d, &dl)), s->dvV = -s->vV * dl;
  s->hL = spl(t->bs + RFT_HL * 2, RFT_NB * 2, i, v, d, &s->dhL);
  s->hV = spl(t->bs + RFT_HV * 2, RFT_NB * 2, i, v, d, &s->dhV);
  s->p = rft_p_sub(t, z);
  double zq = t->zq == 3 ? 3 * z * z : 2 * z; /* d(ln(pc/p))/dz */
  s->dp = -s->p * zq;
}

/* The mixture of specific volume v at z: u and du/dz. */
static double u_mix(const sat_z *s, double v, double *du) {
  double dvs = s->vV - s->vL, x = (v - s->vL) / dvs;
  double uL = s->hL - s->p * s->vL, uV = s->hV - s->p * s->vV;
  double duL = s->dhL - s->dp * s->vL - s->p * s->dvL, duV = s->dhV - s->dp * s->vV - s->p * s->dvV;
  double dx = (-s->dvL * dvs - (v - s->vL) * (s->dvV - s->dvL)) / (dvs * dvs);
  *du = duL + x * (duV - duL) + (uV - uL) * dx;
  return uL + x * (uV - uL);
}

/* Newton's method in z on [a, b] kept inside the bracket by bisection:
 * the root of F(z) - target, F given with its slope by f. When F - target
 * has the same sign at both ends (a root at an end, moved by rounding), the
 * end nearer the target. */
typedef double (*zf)(const rft_table *t, double z, double arg, double *dF);
static double zsolve(const rft_table *t, zf f, double arg, double target, double a, double b) {
  double d, Fa = f(t, a, arg, &d) - target, Fb = f(t, b, arg, &d) - target;
  if (Fa == 0) return a;
  if (Fb == 0) return b;
  if ((Fa > 0) == (Fb > 0)) /* no root inside: an end is the root to rounding */
    return fabs(Fa) <= fabs(Fb) ? a : b;
  double z = a + (b - a) * Fa / (Fa - Fb);
  for (int it = 0; it < 100; it++) {
    double F = f(t, z, arg, &d) - target;
    if (F == 0) return z;
    if ((F > 0) == (Fa > 0))
      a = z, Fa = F;
    else
      b = z;
    double zn = z - F / d;
    if (!(zn > fmin(a, b) && zn < fmax(a, b))) zn = 0.5 * (a + b);
    if (fabs(zn - z) <= 1e-14 * (1 + z)) return zn;
    z = zn;
  }
  return z;
}

/* The z where property k along the edge line j of patch P (monotone in z)
 * takes the value target: the cell by bisection over the nodes' values,
 * then Newton's method on the cell's cubic. */
static double edge_root(const rft_table *t, const rft_patch *P, int j, int k, double target) {
  const rft_axis *a = P->z;
  size_t node = RFT_NP * 4, row = (size_t)P->e.n * node;
  const double *f = P->data + (size_t)j * node + k * 4;
  int lo = 0, hi = a->n - 1, up = f[hi * row] > f[0];
  if ((target - f[0]) * (up ? 1 : -1) <= 0) return a->x[0];
  if ((target - f[hi * row]) * (up ? 1 : -1) >= 0) return a->x[hi];
  while (hi - lo > 1) {
    int m = (lo + hi) / 2;
    if ((f[m * row] < target) == up)
      lo = m;
    else
      hi = m;
  }
  const double *b = f + lo * row, *c = b + row;
  double w = a->x[hi] - a->x[lo], x = (target - b[0]) / (c[0] - b[0]); /* t in [0, 1] */
  for (int it = 0; it < 30; it++) {
    double t2 = x * x, t3 = t2 * x;
    double F = (2 * t3 - 3 * t2 + 1) * b[0] + (t3 - 2 * t2 + x) * w * b[1] +
               (3 * t2 - 2 * t3) * c[0] + (t3 - t2) * w * c[1] - target;
    double dF = (6 * t2 - 6 * x) * b[0] + (3 * t2 - 4 * x + 1) * w * b[1] +
                (6 * x - 6 * t2) * c[0] + (3 * t2 - 2 * x) * w * c[1];
    double xn = x - F / dF;
    xn = xn < 0 ? 0 : xn > 1 ? 1 : xn;
    if (fabs(xn - x) <= 1e-15) {
      x = xn;
      break;
    }
    x = xn;
  }
  (void)t;
  return a->x[lo] + x * w;
}

static double f_umix(const rft_table *t, double z, double v, double *dF) {
  sat_z s;
  sat_at_z(t, z, &s);
  return u_mix(&s, v, dF);
}

/* rho(p, h) - rho at p = e^w, h = u + p v held to the patches' bounds at p
 * (cl: -1 held at the lowest, 1 at the highest, 0 not held); dG = dG/dw
 * (0 when held). Both rise with p. */
/* rho(p, h) - rho at p = w (lg: e^w), h = u + p v held to the patches'
 * bounds at p (cl: -1 held at the lowest, 1 at the highest, 0 not held);
 * dG = dG/dw (0 when held). Both rise with p. */
static double G_at(const rft_table *t, double w, int lg, double rho, double u, double v,
                   double *dG, int *cl) {
  double p = lg ? exp(w) : w;
  p = p < t->p_lo ? t->p_lo : p > t->p_hi ? t->p_hi : p; /* rounding */
  double h = u + p * v, r, rp, rh;
  *cl = 0;
  if (rft_rho_ph(t, p, h, &r, &rp, &rh)) {
    double lo, hi;
    (void)rft_h_bounds(t, p, &lo, &hi);
    *cl = h < lo ? -1 : 1;
    (void)rft_rho_ph(t, p, *cl < 0 ? lo : hi, &r, &rp, &rh);
    *dG = 0;
    return r - rho;
  }
  *dG = (rp + rh * v) * (lg ? p : 1);
  return r - rho;
}

enum { INV_OK = 0, INV_BELOW_T = 1, INV_ABOVE_T = 2, INV_BELOW_P = 3, INV_ABOVE_P = 4,
       INV_BAD = 5 };

/* (rho, u) at a density with saturated states in range (specific volume
 * v): in the dome, 0 with p, h set, or below it the reason; above the
 * dome's top -1, with *pa the top's pressure (single phase above it). */
static int inverse_dome(const rft_table *t, double rho, double u, double v, double *p, double *h,
                        double *pa) {
  const double zmax = t->zs.x[t->zs.n - 1];
  sat_z lo;
  sat_at_z(t, zmax, &lo);
  double ztop = v <= t->inv_vc ? edge_root(t, &t->L, t->L.e.n - 1, RFT_LR, log(rho))
                               : edge_root(t, &t->V, 0, RFT_LR, log(rho));
  sat_z top;
  sat_at_z(t, ztop, &top);
  double d, utop = v <= t->inv_vc ? top.hL - top.p * top.vL : top.hV - top.p * top.vV;
  double ulo = u_mix(&lo, v, &d);
  if (u < ulo) return INV_BELOW_T;
  if (u <= utop) {
    double z = u == utop ? ztop : zsolve(t, f_umix, v, u, ztop, zmax);
    *p = z >= zmax ? t->p_lo : rft_p_sub(t, z);
    if (*p < t->p_lo) *p = t->p_lo; /* rounding */
    *h = u + *p * v;
    return INV_OK;
  }
  *pa = top.p;
  return -1;
}

/* (rho, u) in single phase at a pressure in [pa, p_hi] (specific volume v):
 * 0 (p, h set) or the reason. */
static int inverse_single(const rft_table *t, double rho, double u, double v, double pa,
                          double *p, double *h) {
  /* single phase: the root of G = rho(p, h) - rho, h = u + p v, by Newton's
   * method kept inside [pa, p_hi] by bisection; in p for a liquid-like
   * density (G nearly linear in p), in ln p for a vapour-like one (nearly
   * linear in ln p) */
  int lg = v > t->inv_vc, cl;
  double wa = lg ? log(pa) : pa, wb = lg ? log(t->p_hi) : t->p_hi, dG;
  double Ga = G_at(t, wa, lg, rho, u, v, &dG, &cl);
  if (Ga >= 0) { /* p_lo too high; or on the dome's top, from rounding of u */
    if (pa == t->p_lo && Ga > 0) return INV_BELOW_P;
    *p = pa, *h = u + pa * v;
    return INV_OK;
  }
  double w = wa, G = Ga;
  int hit_top = 0; /* G at p_hi only when the iteration gets there */
  for (int it = 0; it < 100; it++) {
    if (G < 0)
      wa = w;
    else
      wb = w;
    double wn = dG > 0 ? w - G / dG : 0.5 * (wa + wb);
    if (!(wn < wb) && !hit_top) { /* beyond p_hi: is the root inside? */
      double dGb;
      hit_top = 1;
      if (G_at(t, wb, lg, rho, u, v, &dGb, &cl) < 0) return INV_ABOVE_P;
    }
    if (!(wn > wa && wn < wb)) wn = 0.5 * (wa + wb);
    double step = fabs(wn - w);
    w = wn;
    G = G_at(t, w, lg, rho, u, v, &dG, &cl);
    if (G == 0 || step <= 1e-14 * fabs(w) || wb - wa <= 1e-14 * fabs(wb)) break;
    if (it == 99) return INV_BAD;
  }
  *p = lg ? exp(w) : w;
  *p = *p < t->p_lo ? t->p_lo : *p > t->p_hi ? t->p_hi : *p;
  *h = u + *p * v;
  if (cl) { /* beyond a bound: refused, unless by rounding (a state on it) */
    double bl, bh;
    (void)rft_h_bounds(t, *p, &bl, &bh);
    double b = cl < 0 ? bl : bh;
    if (!(fabs(*h - b) <= 1e-10 * fabs(b))) return cl < 0 ? INV_BELOW_T : INV_ABOVE_T;
    *h = b;
  }
  return INV_OK;
}

/* (rho, u): 0 (p, h set) or the reason. */
static int inverse(const rft_table *t, double rho, double u, double *p, double *h) {
  if (!(rho > 0) || !isfinite(rho) || !isfinite(u)) return INV_BAD;
  double v = 1 / rho, pa = t->p_lo;
  if (v >= t->inv_vL_lo && v <= t->inv_vV_lo) { /* the density has saturated states in range */
    const int rc = inverse_dome(t, rho, u, v, p, h, &pa);
    if (rc >= 0) return rc;
  }
  return inverse_single(t, rho, u, v, pa, p, h);
}

void rft_inv_prepare(rft_table *t) {
  sat_z lo, c;
  sat_at_z(t, t->zs.x[t->zs.n - 1], &lo);
  sat_at_z(t, 0, &c);
  t->inv_vL_lo = lo.vL, t->inv_vV_lo = lo.vV, t->inv_vc = c.vL;
}

int rft_from_rho_u(const rft_table *t, double rho, double u, double *p, double *h) {
  double pp = NAN, hh = NAN;
  int r = inverse(t, rho, u, &pp, &hh);
  *p = r ? NAN : pp, *h = r ? NAN : hh;
  return r ? -1 : 0;
}

int rft_why_rho_u(const rft_table *t, double rho, double u, char *why, size_t cap) {
  double p, h;
  int r = inverse(t, rho, u, &p, &h);
  if (!r) return 0;
  const char *s = r == INV_BELOW_T   ? "below the table's lowest temperature"
                  : r == INV_ABOVE_T ? "above the table's highest temperature"
                  : r == INV_BELOW_P ? "below the table's lowest pressure"
                  : r == INV_ABOVE_P ? "above the table's highest pressure"
                                     : "not a state of the table";
  snprintf(why, cap, "%s: rho = %.9g kg/m3, u = %.9g J/kg: %s (%.9g K <= T <= %.9g K, %.9g Pa <= p <= %.9g Pa)",
           t->name, rho, u, s, t->T_lo, t->T_hi, t->p_lo, t->p_hi);
  return -1;
}

int rft_why_ph(const rft_table *t, double p, double h, char *why, size_t cap) {
  rft_props o;
  if (!(p >= t->p_lo && p <= t->p_hi)) {
    snprintf(why, cap, "%s: p = %.9g Pa is outside the table's range [%.9g Pa, %.9g Pa]", t->name,
             p, t->p_lo, t->p_hi);
    return -1;
  }
  if (!isfinite(h)) {
    snprintf(why, cap, "%s: p = %.9g Pa, h = %.9g J/kg is not a state", t->name, p, h);
    return -1;
  }
  if (rft_ph(t, p, h, &o) == 0) return 0;
  double lo, hi;
  (void)rft_h_bounds(t, p, &lo, &hi);
  int below = h < lo;
  snprintf(why, cap, "%s: p = %.9g Pa, h = %.9g J/kg: %s %.9g K (the %s temperature of the table)",
           t->name, p, h, below ? "below" : "above", below ? t->T_lo : t->T_hi,
           below ? "lowest" : "highest");
  return -1;
}

int rft_why_pT(const rft_table *t, double p, double T, char *why, size_t cap) {
  if (!(p >= t->p_lo && p <= t->p_hi)) {
    snprintf(why, cap, "%s: p = %.9g Pa is outside the table's range [%.9g Pa, %.9g Pa]", t->name,
             p, t->p_lo, t->p_hi);
    return -1;
  }
  if (!(T >= t->T_lo && T <= t->T_hi)) {
    snprintf(why, cap, "%s: p = %.9g Pa, T = %.9g K: T is outside the table's range [%.9g K, %.9g K]",
             t->name, p, T, t->T_lo, t->T_hi);
    return -1;
  }
  double h;
  if (rft_h_pT(t, p, T, &h)) {
    snprintf(why, cap, "%s: p = %.9g Pa, T = %.9g K: no single-phase state of the table", t->name,
             p, T);
    return -1;
  }
  return 0;
}
