/* rftab_build.c - building the (p, h) spline tables of rftab.h from the
 * equation of state: the node values (the equation solved at each node,
 * marching along the grid lines with Newton's method from the neighbouring
 * node), then the slopes of the C2 cubic splines through them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/thermofluid/rftab.h"

/* Grid sizes: nodes in z below and above pc, and in eta per patch. The
 * eta nodes crowd towards the saturation line (L, V) and towards the
 * critical enthalpy (S), where the properties bend most. docs/media.md
 * gives the accuracy these reach. */
enum { NZS = 160, NZP = 96, NEL = 120, NEV = 110, NES = 160 };
#define CZ 2.0  /* below pc, the z nodes near pc at a third of the mean spacing */
#define CZP 0.5 /* above pc, at two thirds */
#define CE 0.7  /* the eta nodes at the saturation line at 0.3 of the mean spacing */

/* ---- axes --------------------------------------------------------------- */

static int axis_init(rft_axis *a, int n) {
  a->n = n;
  a->nb = 4 * n;
  a->x = malloc(sizeof(double) * (size_t)n);
  a->ih = malloc(sizeof(double) * (size_t)n);
  a->hint = malloc(sizeof(int) * (size_t)a->nb);
  return a->x && a->ih && a->hint ? 0 : -1;
}
static void axis_free(rft_axis *a) {
  free(a->x), free(a->ih), free(a->hint);
  a->x = a->ih = NULL, a->hint = NULL;
}
/* The inverse widths and the buckets' hints, once x is filled. */
static void axis_finish(rft_axis *a) {
  for (int i = 0; i + 1 < a->n; i++) a->ih[i] = 1 / (a->x[i + 1] - a->x[i]);
  a->ih[a->n - 1] = 0;
  a->b0 = a->x[0];
  a->bs = a->nb / (a->x[a->n - 1] - a->x[0]);
  int i = 0;
  for (int k = 0; k < a->nb; k++) {
    double xb = a->b0 + k / a->bs;
    while (i < a->n - 2 && xb >= a->x[i + 1]) i++;
    a->hint[k] = i;
  }
}

/* ---- splines -------------------------------------------------------------
 * The slopes m of the C2 cubic spline through (x[i], y[i * ys]), written to
 * m[i * ys]: not-a-knot at the right end, at the left end not-a-knot or
 * (clamp) m[0] = 0. Tridiagonal, by elimination; w holds 3n doubles. */
static void spline_slopes(int n, const double *x, const double *y, double *m, size_t ys,
                          int clamp, double *w) {
  double *a = w, *b = w + n, *c = w + 2 * n; /* sub, diagonal, super; rhs in m */
#define H(i) (x[(i) + 1] - x[(i)])
#define D(i) ((y[((i) + 1) * ys] - y[(i) * ys]) / H(i))
  if (clamp) {
    b[0] = 1, c[0] = 0, m[0] = 0;
  } else {
    double h0 = H(0), h1 = H(1), s = h0 + h1;
    b[0] = h1, c[0] = s;
    m[0] = ((h0 + 2 * s) * h1 * D(0) + h0 * h0 * D(1)) / s;
  }
  for (int i = 1; i < n - 1; i++) {
    a[i] = H(i), b[i] = 2 * (H(i - 1) + H(i)), c[i] = H(i - 1);
    m[i * ys] = 3 * (H(i) * D(i - 1) + H(i - 1) * D(i));
  }
  {
    int k = n - 1;
    double hp = H(k - 2), hl = H(k - 1), s = hp + hl;
    a[k] = s, b[k] = hp;
    m[k * ys] = (hl * hl * D(k - 2) + (2 * s + hl) * hp * D(k - 1)) / s;
  }
#undef H
#undef D
  for (int i = 1; i < n; i++) { /* forward elimination */
    double f = a[i] / b[i - 1];
    b[i] -= f * c[i - 1];
    m[i * ys] -= f * m[(i - 1) * ys];
  }
  m[(n - 1) * ys] /= b[n - 1];
  for (int i = n - 2; i >= 0; i--) m[i * ys] = (m[i * ys] - c[i] * m[(i + 1) * ys]) / b[i];
}

/* ---- node states -----------------------------------------------------------
 * The state at (p, h), single phase, from the start (rho, T): Newton's
 * method on the equation, else (far from the start) the bracketed solver. */
static int node_ph(const hz_eos *e, double p, double h, double *rho, double *T, double *s,
                   char *why, size_t cap) {
  double r = *rho, t = *T;
  if (r > 0 && t > 0 && hz_newton_ph(e, p, h, &r, &t) == 0) {
    hz_props pr;
    hz_eval(e, r, t, &pr);
    *rho = r, *T = t, *s = pr.s;
    return 0;
  }
  hz_state st;
  if (hz_state_ph(e, p, h, &st, why, cap)) return -1;
  *rho = st.rho, *T = st.T, *s = st.s;
  return 0;
}

static void put(double *node, double T, double rho, double s) {
  node[RFT_T * 4] = T;
  node[RFT_LR * 4] = log(rho);
  node[RFT_S * 4] = s;
}

/* The z nodes: q = i / (n - 1) uniform mapped to (q + CZ q^2) / (1 + CZ),
 * which crowds them towards the critical pressure (z = 0). */
static double z_node(double zmax, int i, int n, double c) {
  double q = (double)i / (n - 1);
  return i == n - 1 ? zmax : zmax * (q + c * q * q) / (1 + c);
}

/* The eta nodes: xi uniform on [0, 1] mapped to crowd at the ends named
 * (1: at eta = 1, 0: at eta = 0) or around ec (S). */
static void eta_nodes(rft_axis *a, int crowd, double ec) {
  int n = a->n;
  for (int j = 0; j < n; j++) {
    double q = (double)j / (n - 1), v;
    if (crowd == 1)
      v = 1 - (1 - q) * (1 - q) * CE - (1 - q) * (1 - CE); /* slope 1 - CE at eta = 1 */
    else if (crowd == 0)
      v = q * q * CE + q * (1 - CE);
    else { /* around ec: eta = ec + (q - qc) ... with half the spacing at ec */
      double qc = ec, d = q - qc;
      v = qc + d * (0.5 + 0.5 * fabs(d) / (d > 0 ? 1 - qc : qc));
    }
    a->x[j] = j == 0 ? 0 : j == n - 1 ? 1 : v;
  }
  axis_finish(a);
}

/* Slopes of a patch: df/deta along each z line, df/dz along each eta line
 * (clamped at z = 0 when the patch is even in z there: above pc, where
 * eta's bounds are smooth in p; below pc h' and h'' go with z), d2f/dz
 * deta along each z line. */
static void patch_slopes(rft_patch *P, int clamp, double *w) {
  int nz = P->z->n, ne = P->e.n;
  size_t node = RFT_NP * 4, row = (size_t)ne * node;
  for (int k = 0; k < RFT_NP; k++) {
    for (int i = 0; i < nz; i++) {
      double *b = P->data + i * row + k * 4;
      spline_slopes(ne, P->e.x, b, b + 2, node, 0, w);
    }
    for (int j = 0; j < ne; j++) {
      double *b = P->data + j * node + k * 4;
      spline_slopes(nz, P->z->x, b, b + 1, row, clamp, w);
    }
    for (int i = 0; i < nz; i++) {
      double *b = P->data + i * row + k * 4;
      spline_slopes(ne, P->e.x, b + 1, b + 3, node, 0, w);
    }
  }
}

static int patch_alloc(rft_patch *P, const rft_axis *z, int ne) {
  P->z = z;
  if (axis_init(&P->e, ne)) return -1;
  P->data = calloc((size_t)z->n * (size_t)ne * RFT_NP * 4, sizeof(double));
  return P->data ? 0 : -1;
}

/* Fill patch P's nodes at the pressures p[i] between the boundary
 * enthalpies lo[i], hi[i] (stride RFT_NB * 2 in b), with the end states
 * given: the start node j0 (0 or the last) of each line is filled by the
 * caller; the march goes from it. */
static int patch_fill(const hz_eos *e, rft_patch *P, const double *p, const double *b, int ilo,
                      int ihi, int from_end, const double *rho0, const double *T0, char *why,
                      size_t cap) {
  int nz = P->z->n, ne = P->e.n;
  size_t node = RFT_NP * 4;
  for (int i = 0; i < nz; i++) {
    const double *bi = b + (size_t)i * RFT_NB * 2;
    double lo = bi[ilo * 2], hi = bi[ihi * 2], rho = rho0[i], T = T0[i], r1 = 0, T1 = 0;
    for (int jj = 1; jj < ne - 1; jj++) {
      int j = from_end ? ne - 1 - jj : jj, dj = from_end ? 1 : -1;
      double h = lo + P->e.x[j] * (hi - lo), s, r = rho, t = T;
      if (jj > 1) { /* extrapolate the last two nodes */
        double q = (P->e.x[j] - P->e.x[j + dj]) / (P->e.x[j + dj] - P->e.x[j + 2 * dj]);
        r += q * (rho - r1), t += q * (T - T1);
        if (!(r > 0.5 * rho && r < 2 * rho)) r = rho, t = T;
      }
      r1 = rho, T1 = T;
      if (node_ph(e, p[i], h, &r, &t, &s, why, cap)) return -1;
      rho = r, T = t;
      put(P->data + ((size_t)i * ne + j) * node, T, rho, s);
    }
  }
  return 0;
}

static int fail_mem(rft_table *t, char *why, size_t cap) {
  snprintf(why, cap, "%s: no memory for the property table", t->name);
  rft_free(t);
  return -1;
}

/* The table's axes, patches and boundary arrays, and the build's work
 * space: *w (3 nmax doubles for the slopes) and *p (pressures and four
 * columns of start values, nmax each). */
static int build_alloc(rft_table *t, int nmax, double **w, double **p) {
  if (axis_init(&t->zs, NZS) || axis_init(&t->zp, NZP) || patch_alloc(&t->L, &t->zs, NEL) ||
      patch_alloc(&t->V, &t->zs, NEV) || patch_alloc(&t->S, &t->zp, NES) ||
      !(t->bs = calloc((size_t)NZS * RFT_NB * 2, sizeof(double))) ||
      !(t->bp = calloc((size_t)NZP * RFT_NB * 2, sizeof(double))) ||
      !(*w = malloc(sizeof(double) * 3 * (size_t)nmax)) ||
      !(*p = malloc(sizeof(double) * (size_t)nmax * 5)))
    return -1;
  return 0;
}

/* Below pc: z from 0 (pc) to z(p_lo); the saturated states marched from
 * p_lo up, each from the last, the ends at T_lo and T_hi; then patch L
 * marched from the saturated liquid down, V from the saturated vapour up.
 * p, rA, TA, rB, TB: work columns of NZS. */
static int build_sub(rft_table *t, const hz_fluid *f, double *p, double *rA, double *TA,
                     double *rB, double *TB, char *why, size_t cap) {
  const hz_eos *e = &t->eos;
  const size_t node = RFT_NP * 4;
  t->zq = f->nna ? 3 : 2;
  double zmax = rft_z_sub(t, t->p_lo);
  for (int i = 0; i < NZS; i++) t->zs.x[i] = z_node(zmax, i, NZS, CZ);
  t->zs.x[NZS - 1] = zmax;
  axis_finish(&t->zs);
  hz_sat sat = {0};
  for (int i = NZS - 1; i >= 0; i--) {
    double z = t->zs.x[i], *bi = t->bs + (size_t)i * RFT_NB * 2;
    p[i] = i == NZS - 1 ? t->p_lo : rft_p_sub(t, z);
    double TL, rL, sL, TV, rV, sV;
    if (i == 0) { /* the critical point */
      bi[RFT_HL * 2] = bi[RFT_HV * 2] = e->hc;
      TL = TV = e->Tc, rL = rV = e->rhoc, sL = sV = e->sc;
    } else {
      if (hz_sat_p(e, p[i], sat.T > 0 ? &sat : NULL, &sat, why, cap)) return -1;
      bi[RFT_HL * 2] = sat.hL, bi[RFT_HV * 2] = sat.hV;
      TL = TV = sat.T, rL = sat.rhoL, rV = sat.rhoV, sL = sat.sL, sV = sat.sV;
    }
    put(t->L.data + ((size_t)i * NEL + NEL - 1) * node, TL, rL, sL);
    put(t->V.data + (size_t)i * NEV * node, TV, rV, sV);
    rB[i] = rL, TB[i] = TL, rA[i] = rV, TA[i] = TV;
    double r;
    hz_props pr;
    if (hz_rho_pT(e, p[i], t->T_lo, 0, &r, why, cap)) return -1;
    hz_eval(e, r, t->T_lo, &pr);
    bi[RFT_HMIN * 2] = pr.h;
    put(t->L.data + (size_t)i * NEL * node, t->T_lo, r, pr.s);
    if (hz_rho_pT(e, p[i], t->T_hi, 0, &r, why, cap)) return -1;
    hz_eval(e, r, t->T_hi, &pr);
    bi[RFT_HMAX * 2] = pr.h;
    put(t->V.data + ((size_t)i * NEV + NEV - 1) * node, t->T_hi, r, pr.s);
  }
  eta_nodes(&t->L.e, 1, 0);
  eta_nodes(&t->V.e, 0, 0);
  if (patch_fill(e, &t->L, p, t->bs, RFT_HMIN, RFT_HL, 1, rB, TB, why, cap) ||
      patch_fill(e, &t->V, p, t->bs, RFT_HV, RFT_HMAX, 0, rA, TA, why, cap))
    return -1;
  return 0;
}

/* Above pc: z from 0 (pc) to z(p_hi); patch S marched up from T_lo. p, rA,
 * TA: work columns of NZP. */
static int build_super(rft_table *t, double *p, double *rA, double *TA, char *why, size_t cap) {
  const hz_eos *e = &t->eos;
  const size_t node = RFT_NP * 4;
  const double zmax = sqrt(log(t->p_hi / t->pc));
  for (int i = 0; i < NZP; i++) t->zp.x[i] = z_node(zmax, i, NZP, CZP);
  t->zp.x[NZP - 1] = zmax;
  axis_finish(&t->zp);
  double ec = 0;
  for (int i = 0; i < NZP; i++) {
    double z = t->zp.x[i], *bi = t->bp + (size_t)i * RFT_NB * 2, r;
    p[i] = i == 0 ? t->pc : i == NZP - 1 ? t->p_hi : t->pc * exp(z * z);
    hz_props pr;
    if (hz_rho_pT(e, p[i], t->T_lo, 0, &r, why, cap)) return -1;
    hz_eval(e, r, t->T_lo, &pr);
    bi[RFT_HMIN * 2] = pr.h;
    rA[i] = r, TA[i] = t->T_lo;
    put(t->S.data + (size_t)i * NES * node, t->T_lo, r, pr.s);
    if (hz_rho_pT(e, p[i], t->T_hi, 0, &r, why, cap)) return -1;
    hz_eval(e, r, t->T_hi, &pr);
    bi[RFT_HMAX * 2] = pr.h;
    put(t->S.data + ((size_t)i * NES + NES - 1) * node, t->T_hi, r, pr.s);
    if (i == 0) ec = (e->hc - bi[RFT_HMIN * 2]) / (bi[RFT_HMAX * 2] - bi[RFT_HMIN * 2]);
  }
  eta_nodes(&t->S.e, 2, ec);
  return patch_fill(e, &t->S, p, t->bp, RFT_HMIN, RFT_HMAX, 0, rA, TA, why, cap) ? -1 : 0;
}

/* Slopes: the boundaries (h' and h'' go with z at the critical point, the
 * others are even in z there), the patches. w: work space. */
static void build_slopes(rft_table *t, double *w) {
  for (int k = 0; k < RFT_NB; k++) {
    spline_slopes(NZS, t->zs.x, t->bs + k * 2, t->bs + k * 2 + 1, RFT_NB * 2,
                  k == RFT_HMIN || k == RFT_HMAX, w);
    spline_slopes(NZP, t->zp.x, t->bp + k * 2, t->bp + k * 2 + 1, RFT_NB * 2, 1, w);
  }
  patch_slopes(&t->L, 0, w);
  patch_slopes(&t->V, 0, w);
  patch_slopes(&t->S, 1, w);
}

rft_table *rft_build(const hz_fluid *f, char *why, size_t cap) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  rft_table *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(why, cap, "%s: no memory for the property table", f->name);
    return NULL;
  }
  t->name = f->name;
  if (hz_init(&t->eos, f, f->ref, why, cap)) {
    free(t);
    return NULL;
  }
  const hz_eos *e = &t->eos;
  t->pc = e->pc, t->Tc = e->Tc, t->hc = e->hc;
  t->p_lo = f->p_lo, t->p_hi = f->p_hi, t->T_lo = f->T_lo, t->T_hi = f->T_hi;
  double *w = NULL, *p = NULL;
  const int nmax = NZS > NES ? NZS : NES;
  if (build_alloc(t, nmax, &w, &p)) {
    free(w), free(p);
    fail_mem(t, why, cap);
    return NULL;
  }
  double *rA = p + nmax, *TA = rA + nmax, *rB = TA + nmax, *TB = rB + nmax;
  if (build_sub(t, f, p, rA, TA, rB, TB, why, cap) || build_super(t, p, rA, TA, why, cap)) {
    free(w), free(p);
    rft_free(t);
    return NULL;
  }
  build_slopes(t, w);
  rft_inv_prepare(t);
  free(w), free(p);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  t->build_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  return t;
}

void rft_free(rft_table *t) {
  if (!t) return;
  axis_free(&t->zs), axis_free(&t->zp);
  axis_free(&t->L.e), axis_free(&t->V.e), axis_free(&t->S.e);
  free(t->L.data), free(t->V.data), free(t->S.data);
  free(t->bs), free(t->bp);
  free(t);
}
