/* rftab.c - evaluating the (p, h) spline tables of rftab.h: the hot path
 * (T, rho, s, x and the density's derivatives at (p, h), scalar and for
 * several states at once) and, on it, saturation, h(p, T), h(p, s) and the
 * (rho, u) inverse of volumes. */
#include <math.h>
#include <stdio.h>
#include "lib/thermofluid/rftab.h"

/* ---- cells and bases -------------------------------------------------------- */

static inline int axis_cell(const rft_axis *a, double x) {
  int k = (int)((x - a->b0) * a->bs);
  k = k < 0 ? 0 : k >= a->nb ? a->nb - 1 : k;
  int i = a->hint[k];
  while (i < a->n - 2 && x >= a->x[i + 1]) i++;
  return i;
}

/* A position on an axis: the cell i, and the cubic Hermite basis at it
 * for values (v: h00, w h10, h01, w h11) and for the derivative (d). */
typedef struct {
  int i;
  double v[4], d[4];
} rft_pos;

static inline void pos_at(const rft_axis *a, double x, rft_pos *q) {
  int i = axis_cell(a, x);
  double w = a->x[i + 1] - a->x[i], iw = a->ih[i], t = (x - a->x[i]) * iw;
  double t2 = t * t, t3 = t2 * t;
  q->i = i;
  q->v[0] = 2 * t3 - 3 * t2 + 1;
  q->v[1] = (t3 - 2 * t2 + t) * w;
  q->v[2] = 3 * t2 - 2 * t3;
  q->v[3] = (t3 - t2) * w;
  q->d[0] = (6 * t2 - 6 * t) * iw;
  q->d[1] = 3 * t2 - 4 * t + 1;
  q->d[2] = (6 * t - 6 * t2) * iw;
  q->d[3] = 3 * t2 - 2 * t;
}

/* A 1-D spline (value, slope at b + i * RFT_NB * 2) at z: value and slope. */
static inline double line(const double *b, const rft_pos *z, double *dz) {
  const double *n0 = b + (size_t)z->i * RFT_NB * 2, *n1 = n0 + RFT_NB * 2;
  if (dz) *dz = z->d[0] * n0[0] + z->d[1] * n0[1] + z->d[2] * n1[0] + z->d[3] * n1[1];
  return z->v[0] * n0[0] + z->v[1] * n0[1] + z->v[2] * n1[0] + z->v[3] * n1[1];
}

/* Property k of patch P at (z, e); its derivatives into dz, de when not
 * NULL. */
static inline double cell(const rft_patch *P, int k, const rft_pos *z, const rft_pos *e,
                          double *dz, double *de) {
  size_t node = RFT_NP * 4, row = (size_t)P->e.n * node;
  const double *a = P->data + z->i * row + e->i * node + k * 4, *b = a + node, *c = a + row,
               *d = c + node;
  const double *B = e->v;
  double g0 = B[0] * a[0] + B[1] * a[2] + B[2] * b[0] + B[3] * b[2];
  double g1 = B[0] * a[1] + B[1] * a[3] + B[2] * b[1] + B[3] * b[3];
  double g2 = B[0] * c[0] + B[1] * c[2] + B[2] * d[0] + B[3] * d[2];
  double g3 = B[0] * c[1] + B[1] * c[3] + B[2] * d[1] + B[3] * d[3];
  if (dz) *dz = z->d[0] * g0 + z->d[1] * g1 + z->d[2] * g2 + z->d[3] * g3;
  if (de) {
    const double *D = e->d;
    double e0 = D[0] * a[0] + D[1] * a[2] + D[2] * b[0] + D[3] * b[2];
    double e1 = D[0] * a[1] + D[1] * a[3] + D[2] * b[1] + D[3] * b[3];
    double e2 = D[0] * c[0] + D[1] * c[2] + D[2] * d[0] + D[3] * d[2];
    double e3 = D[0] * c[1] + D[1] * c[3] + D[2] * d[1] + D[3] * d[3];
    *de = z->v[0] * e0 + z->v[1] * e1 + z->v[2] * e2 + z->v[3] * e3;
  }
  return z->v[0] * g0 + z->v[1] * g1 + z->v[2] * g2 + z->v[3] * g3;
}

/* The value of property k along the edge line j of patch P (a 1-D spline
 * in z: the saturation line for L's last and V's first line). */
static inline double edge(const rft_patch *P, int k, int j, const rft_pos *z, double *dz) {
  size_t node = RFT_NP * 4, row = (size_t)P->e.n * node;
  const double *a = P->data + z->i * row + (size_t)j * node + k * 4, *c = a + row;
  if (dz) *dz = z->d[0] * a[0] + z->d[1] * a[1] + z->d[2] * c[0] + z->d[3] * c[1];
  return z->v[0] * a[0] + z->v[1] * a[1] + z->v[2] * c[0] + z->v[3] * c[1];
}

/* ---- where a (p, h) lies ------------------------------------------------------ */

enum { AT_OUT_P = -3, AT_BELOW = -2, AT_ABOVE = -1, AT_L = 0, AT_V = 1, AT_2 = 2, AT_S = 3 };

/* Locate (p, h): the patch (or two-phase, or out of range), z's position,
 * eta and its position, the boundaries lo, hi of the patch at p (h', h''
 * for a two-phase state). */
typedef struct {
  int at;
  double z, eta, lo, hi;
  rft_pos zp, ep;
} rft_loc;

static inline void locate(const rft_table *t, double p, double h, rft_loc *o) {
  if (!(p >= t->p_lo && p <= t->p_hi) || !(h == h)) {
    o->at = AT_OUT_P;
    return;
  }
  const rft_patch *P;
  if (p < t->pc) {
    double z = rft_z_sub(t, p);
    o->z = z;
    pos_at(&t->zs, z, &o->zp);
    double hmin = line(t->bs + RFT_HMIN * 2, &o->zp, NULL);
    if (h < hmin) {
      o->at = AT_BELOW;
      return;
    }
    double hL = line(t->bs + RFT_HL * 2, &o->zp, NULL);
    if (h <= hL) {
      o->at = AT_L, o->lo = hmin, o->hi = hL, P = &t->L;
    } else {
      double hV = line(t->bs + RFT_HV * 2, &o->zp, NULL);
      if (h < hV) {
        o->at = AT_2, o->lo = hL, o->hi = hV;
        return;
      }
      double hmax = line(t->bs + RFT_HMAX * 2, &o->zp, NULL);
      if (h > hmax) {
        o->at = AT_ABOVE;
        return;
      }
      o->at = AT_V, o->lo = hV, o->hi = hmax, P = &t->V;
    }
  } else {
    double z = sqrt(log(p / t->pc));
    o->z = z;
    pos_at(&t->zp, z, &o->zp);
    double hmin = line(t->bp + RFT_HMIN * 2, &o->zp, NULL);
    double hmax = line(t->bp + RFT_HMAX * 2, &o->zp, NULL);
    if (h < hmin || h > hmax) {
      o->at = h < hmin ? AT_BELOW : AT_ABOVE;
      return;
    }
    o->at = AT_S, o->lo = hmin, o->hi = hmax, P = &t->S;
  }
  o->eta = (h - o->lo) / (o->hi - o->lo);
  pos_at(&P->e, o->eta, &o->ep);
}

static inline const rft_patch *patch_of(const rft_table *t, int at) {
  return at == AT_L ? &t->L : at == AT_V ? &t->V : &t->S;
}

/* ---- T, and all properties ------------------------------------------------------ */

static inline double T_at(const rft_table *t, const rft_loc *l) {
  if (l->at < 0) return NAN;
  if (l->at == AT_2) return edge(&t->L, RFT_T, t->L.e.n - 1, &l->zp, NULL);
  return cell(patch_of(t, l->at), RFT_T, &l->zp, &l->ep, NULL, NULL);
}

double rft_T_ph(const rft_table *t, double p, double h) {
  rft_loc l;
  locate(t, p, h, &l);
  return T_at(t, &l);
}

/* dz/dp, z kept off 0 (at pc the slopes of the even lines vanish with z) */
static inline double dz_dp(const rft_table *t, double p, double z) {
  double zz = z > 1e-9 ? z : 1e-9;
  if (p >= t->pc) return 0.5 / (zz * p);
  return t->zq == 3 ? -1 / (3 * zz * zz * p) : -0.5 / (zz * p);
}

/* The density (and with d its derivatives) at a located (p, h); x of a
 * mixture. */
static inline void rho_at(const rft_table *t, double p, double h, const rft_loc *l, int d,
                          double *rho, double *drho_dp, double *drho_dh, double *x) {
  if (l->at == AT_2) {
    const rft_patch *L = &t->L, *V = &t->V;
    double dlL, dlV, dhL, dhV;
    double xx = (h - l->lo) / (l->hi - l->lo);
    double vL = exp(-edge(L, RFT_LR, L->e.n - 1, &l->zp, d ? &dlL : NULL));
    double vV = exp(-edge(V, RFT_LR, 0, &l->zp, d ? &dlV : NULL));
    double v = vL + xx * (vV - vL), r = 1 / v;
    *rho = r, *x = xx;
    if (d) {
      (void)line(t->bs + RFT_HL * 2, &l->zp, &dhL);
      (void)line(t->bs + RFT_HV * 2, &l->zp, &dhV);
      double dh = l->hi - l->lo, dx_dz = -(dhL + xx * (dhV - dhL)) / dh;
      double dv_dz = -(1 - xx) * vL * dlL - xx * vV * dlV + (vV - vL) * dx_dz;
      *drho_dh = -r * r * (vV - vL) / dh;
      *drho_dp = -r * r * dv_dz * dz_dp(t, p, l->z);
    }
  } else {
    const rft_patch *P = patch_of(t, l->at);
    double dz, de;
    double r = exp(cell(P, RFT_LR, &l->zp, &l->ep, d ? &dz : NULL, d ? &de : NULL));
    *rho = r;
    *x = l->at == AT_V || (l->at == AT_S && r < t->eos.rhoc) ? 1 : 0;
    if (d) {
      double dh = l->hi - l->lo, dlo, dhi;
      const double *b = p < t->pc ? t->bs : t->bp;
      (void)line(b + (l->at == AT_V ? RFT_HV : RFT_HMIN) * 2, &l->zp, &dlo);
      (void)line(b + (l->at == AT_L ? RFT_HL : RFT_HMAX) * 2, &l->zp, &dhi);
      double de_dz = -(dlo + l->eta * (dhi - dlo)) / dh; /* d eta / dz at constant h */
      *drho_dh = r * de / dh;
      *drho_dp = r * (dz + de * de_dz) * dz_dp(t, p, l->z);
    }
  }
}

static inline int props_at(const rft_table *t, double p, double h, const rft_loc *l, int d,
                           rft_props *o) {
  o->drho_dp = o->drho_dh = NAN;
  if (l->at < 0) {
    o->T = o->rho = o->s = o->x = o->u = NAN;
    o->phase = -1;
    return -1;
  }
  rho_at(t, p, h, l, d, &o->rho, &o->drho_dp, &o->drho_dh, &o->x);
  if (l->at == AT_2) {
    const rft_patch *L = &t->L, *V = &t->V;
    int jl = L->e.n - 1;
    double sL = edge(L, RFT_S, jl, &l->zp, NULL), sV = edge(V, RFT_S, 0, &l->zp, NULL);
    o->T = edge(L, RFT_T, jl, &l->zp, NULL);
    o->s = sL + o->x * (sV - sL);
    o->phase = 2;
  } else {
    const rft_patch *P = patch_of(t, l->at);
    o->T = cell(P, RFT_T, &l->zp, &l->ep, NULL, NULL);
    o->s = cell(P, RFT_S, &l->zp, &l->ep, NULL, NULL);
    o->phase = (int)o->x;
  }
  o->u = h - p / o->rho;
  return 0;
}

double rft_rho(const rft_table *t, double p, double h) {
  rft_loc l;
  double r, x;
  locate(t, p, h, &l);
  if (l.at < 0) return NAN;
  rho_at(t, p, h, &l, 0, &r, NULL, NULL, &x);
  return r;
}

double rft_cp(const rft_table *t, double p, double h) {
  rft_loc l;
  locate(t, p, h, &l);
  if (l.at < 0) return NAN;
  if (l.at == AT_2) return 0;
  double de;
  (void)cell(patch_of(t, l.at), RFT_T, &l.zp, &l.ep, NULL, &de);
  return (l.hi - l.lo) / de;
}

int rft_rho_ph(const rft_table *t, double p, double h, double *rho, double *drho_dp,
               double *drho_dh) {
  rft_loc l;
  double x;
  locate(t, p, h, &l);
  if (l.at < 0) {
    *rho = *drho_dp = *drho_dh = NAN;
    return -1;
  }
  rho_at(t, p, h, &l, 1, rho, drho_dp, drho_dh, &x);
  return 0;
}

int rft_ph(const rft_table *t, double p, double h, rft_props *o) {
  rft_loc l;
  locate(t, p, h, &l);
  return props_at(t, p, h, &l, 0, o);
}
int rft_ph_d(const rft_table *t, double p, double h, rft_props *o) {
  rft_loc l;
  locate(t, p, h, &l);
  return props_at(t, p, h, &l, 1, o);
}

/* The lane forms: the same steps in loops over the states (locate all,
 * then evaluate all), the same operations state by state, so the same
 * bits. */
void rft_T_ph_lanes(const rft_table *t, size_t n, const double *p, const double *h, double *T) {
  rft_loc l[64];
  for (size_t k = 0; k < n; k++) locate(t, p[k], h[k], &l[k]);
  for (size_t k = 0; k < n; k++) T[k] = T_at(t, &l[k]);
}
void rft_ph_lanes(const rft_table *t, size_t n, const double *p, const double *h, int d,
                  rft_props *o) {
  rft_loc l[64];
  for (size_t k = 0; k < n; k++) locate(t, p[k], h[k], &l[k]);
  for (size_t k = 0; k < n; k++) (void)props_at(t, p[k], h[k], &l[k], d, &o[k]);
}

/* ---- saturation ------------------------------------------------------------------ */

static void sat_at(const rft_table *t, const rft_pos *z, rft_sat *s) {
  int jl = t->L.e.n - 1;
  s->T = edge(&t->L, RFT_T, jl, z, NULL);
  s->rhoL = exp(edge(&t->L, RFT_LR, jl, z, NULL));
  s->rhoV = exp(edge(&t->V, RFT_LR, 0, z, NULL));
  s->sL = edge(&t->L, RFT_S, jl, z, NULL);
  s->sV = edge(&t->V, RFT_S, 0, z, NULL);
  s->hL = line(t->bs + RFT_HL * 2, z, NULL);
  s->hV = line(t->bs + RFT_HV * 2, z, NULL);
}

int rft_sat_p(const rft_table *t, double p, rft_sat *s) {
  if (!(p >= t->p_lo && p < t->pc)) return -1;
  rft_pos z;
  pos_at(&t->zs, rft_z_sub(t, p), &z);
  sat_at(t, &z, s);
  return 0;
}

/* The root z in [a, b] of g(z) = target, g monotone, by Newton's method on
 * the spline kept inside the bracket. */
typedef double (*zfun)(const rft_table *t, double z, double *dg, const void *ctx);
static double z_root(const rft_table *t, zfun g, const void *ctx, double target, double a,
                     double b) {
  double ga, gb, d;
  ga = g(t, a, &d, ctx) - target, gb = g(t, b, &d, ctx) - target;
  if (ga == 0) return a;
  if (gb == 0) return b;
  double z = a + (b - a) * ga / (ga - gb);
  for (int it = 0; it < 100; it++) {
    double G = g(t, z, &d, ctx) - target;
    if (G == 0) return z;
    if ((G > 0) == (ga > 0))
      a = z, ga = G;
    else
      b = z, gb = G;
    double zn = z - G / d;
    if (!(zn > fmin(a, b) && zn < fmax(a, b))) zn = 0.5 * (a + b);
    if (fabs(zn - z) <= 1e-15 * (1 + z)) return zn;
    z = zn;
  }
  return z;
}

static double g_Tsat(const rft_table *t, double z, double *dg, const void *ctx) {
  (void)ctx;
  rft_pos q;
  pos_at(&t->zs, z, &q);
  return edge(&t->L, RFT_T, t->L.e.n - 1, &q, dg);
}

int rft_psat(const rft_table *t, double T, double *p) {
  double zmax = t->zs.x[t->zs.n - 1], d;
  double Tlo = g_Tsat(t, zmax, &d, NULL);
  if (!(T >= Tlo && T < t->Tc)) return -1;
  double z = z_root(t, g_Tsat, NULL, T, 0, zmax);
  *p = z >= zmax ? t->p_lo : rft_p_sub(t, z);
  return 0;
}

int rft_h_bounds(const rft_table *t, double p, double *hmin, double *hmax) {
  if (!(p >= t->p_lo && p <= t->p_hi)) return -1;
  rft_pos z;
  const double *b = t->bp;
  if (p < t->pc)
    pos_at(&t->zs, rft_z_sub(t, p), &z), b = t->bs;
  else
    pos_at(&t->zp, sqrt(log(p / t->pc)), &z);
  *hmin = line(b + RFT_HMIN * 2, &z, NULL);
  *hmax = line(b + RFT_HMAX * 2, &z, NULL);
  return 0;
}

/* ---- h(p, T), h(p, s) ------------------------------------------------------------ */

/* The root h of prop(p, h) = v between the patches' bounds at p (prop
 * rising with h): T single phase (two-phase states are skipped: T is flat
 * there) or s. */
static int h_root(const rft_table *t, double p, double v, int k, double *h) {
  rft_loc l;
  locate(t, p, t->hc, &l);
  if (l.at == AT_OUT_P) return -1;
  const double *b = p < t->pc ? t->bs : t->bp;
  double a = line(b + RFT_HMIN * 2, &l.zp, NULL), c = line(b + RFT_HMAX * 2, &l.zp, NULL);
  if (k == RFT_T && p < t->pc) { /* the phase is known from Tsat */
    double Ts = edge(&t->L, RFT_T, t->L.e.n - 1, &l.zp, NULL);
    if (v <= Ts)
      c = line(b + RFT_HL * 2, &l.zp, NULL);
    else
      a = line(b + RFT_HV * 2, &l.zp, NULL);
  }
  rft_props o;
  double fa, fc;
  if (rft_ph(t, p, a, &o)) return -1;
  fa = (k == RFT_T ? o.T : o.s) - v;
  if (rft_ph(t, p, c, &o)) return -1;
  fc = (k == RFT_T ? o.T : o.s) - v;
  if (fa > 1e-12 * fabs(v) || fc < -1e-12 * fabs(v)) return -1;
  if (fa >= 0) return *h = a, 0;
  if (fc <= 0) return *h = c, 0;
  double x = a + (c - a) * fa / (fa - fc);
  for (int it = 0; it < 100; it++) {
    rft_loc m;
    locate(t, p, x, &m);
    if (m.at < 0) return -1;
    double F, dF;
    if (m.at == AT_2) {
      rft_props q;
      (void)props_at(t, p, x, &m, 0, &q);
      F = (k == RFT_T ? q.T : q.s) - v;
      dF = k == RFT_T ? 0 : 1 / q.T; /* ds/dh = 1/T */
    } else {
      double de;
      F = cell(patch_of(t, m.at), k, &m.zp, &m.ep, NULL, &de) - v;
      dF = de / (m.hi - m.lo);
    }
    if (F == 0) return *h = x, 0;
    if (F < 0)
      a = x;
    else
      c = x;
    double xn = x - F / dF;
    if (!(dF > 0) || !(xn > a && xn < c)) xn = 0.5 * (a + c);
    if (fabs(xn - x) <= 1e-15 * fabs(x) + 1e-12) return *h = xn, 0;
    x = xn;
  }
  *h = x;
  return 0;
}

int rft_h_pT(const rft_table *t, double p, double T, double *h) {
  if (!(T >= t->T_lo && T <= t->T_hi)) return -1;
  return h_root(t, p, T, RFT_T, h);
}
int rft_h_ps(const rft_table *t, double p, double s, double *h) {
  return h_root(t, p, s, RFT_S, h);
}
