/* if97_solve.c - IAPWS-IF97 states from (p, T), (p, h), (p, s) and (rho, u):
 * region selection with the range checks, Newton refinement of the
 * backward equations, region 3 by its density and temperature roots, the
 * two-phase mixture on the saturation line. */
#include <math.h>
#include <stdio.h>
#include "lied/status.h"
#include "lib/thermofluid/if97.h"

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), LIED_ERROR)
#define FAIL0(...) (snprintf(why, cap, __VA_ARGS__), 0)

static void gibbs(int region, double p, double T, if97_gibbs *g) {
  if (region == 1)
    if97_gibbs1(p, T, g);
  else if (region == 2)
    if97_gibbs2(p, T, g);
  else
    if97_gibbs5(p, T, g);
}

static void state_pT(int region, double p, double T, if97_state *st) {
  if97_gibbs g;
  gibbs(region, p, T, &g);
  if97_from_gibbs(&g, p, T, region, st);
}

/* ---- region 3 at (p, T) and (rho, T) -------------------------------------------- */

/* Which branch of region 3's p(rho) holds (p, T): the vapour's below psat
 * (below the critical temperature) or below the critical density's p. */
static int vapour3(double p, double T) {
  return T < IF97_TC ? p < if97_psat_eq(T) : p < if97_p3(IF97_RHOC, T);
}

static void state_rhoT(double rho, double T, if97_state *st) {
  if97_helm f;
  if97_helm3(rho, T, &f);
  if97_from_helm3(&f, rho, T, st);
}

/* Region 3 at (p, T) on a branch (vapour or not) from a start near its
 * density (or 0): 0, or -1 when the equation has no density there;
 * state3_pT on the branch that holds (p, T). */
static int state3_branch(double p, double T, int vapour, double rho, if97_state *st) {
  if (if97_rho3(p, T, vapour, &rho)) return -1;
  state_rhoT(rho, T, st);
  st->p = p;
  return 0;
}
static int state3_pT(double p, double T, double rho, if97_state *st) {
  return state3_branch(p, T, vapour3(p, T), rho, st);
}

/* ---- saturation ------------------------------------------------------------ */

int if97_psat(double T, double *p, char *why, size_t cap) {
  if (!(T >= IF97_TMIN && T <= IF97_TC))
    return FAIL("IF97: psat(T = %.9g K) is defined for 273.15 K <= T <= 647.096 K", T);
  *p = if97_psat_eq(T);
  return 0;
}

int if97_Tsat(double p, double *T, char *why, size_t cap) {
  if (!(p >= IF97_PTRIPLE && p <= IF97_PC))
    return FAIL("IF97: Tsat(p = %.9g Pa) is defined for 611.213 Pa <= p <= 22.064 MPa", p);
  *T = if97_Tsat_eq(p);
  if (*T < IF97_TMIN) *T = IF97_TMIN; /* p at the lowest end, rounding */
  return 0;
}

int if97_sat_p(double p, if97_state *L, if97_state *V, char *why, size_t cap) {
  double T;
  if (if97_Tsat(p, &T, why, cap)) return LIED_ERROR;
  if (T <= IF97_T13) {
    state_pT(1, p, T, L);
    state_pT(2, p, T, V);
    return 0;
  }
  double rl = 0, rv = 0;
  if (if97_sat3(T, &rl, &rv))
    return FAIL("IF97: p = %.9g Pa: no saturated density of region 3 found", p);
  state_rhoT(rl, T, L);
  state_rhoT(rv, T, V);
  L->p = V->p = p;
  L->x = 0, V->x = 1;
  L->region = V->region = 4;
  return 0;
}

/* ---- (p, T) --------------------------------------------------------------------- */

/* The region of a single-phase (p, T), or 0 with a reason. */
static int region_pT(double p, double T, char *why, size_t cap) {
  if (!(p > 0 && p <= IF97_PMAX))
    return FAIL0("IF97: p = %.9g Pa, T = %.9g K: p is outside (0, 100 MPa]", p, T);
  if (!(T >= IF97_TMIN && T <= IF97_TMAX))
    return FAIL0("IF97: p = %.9g Pa, T = %.9g K: T is outside [273.15 K, 2273.15 K]", p, T);
  if (T > IF97_T25) {
    if (p > IF97_P5MAX)
      return FAIL0("IF97: p = %.9g Pa, T = %.9g K: above 1073.15 K IF97 holds up to 50 MPa", p,
                  T);
    return 5;
  }
  if (T <= IF97_T13) return p >= if97_psat_eq(T) ? 1 : 2;
  if (T <= IF97_T23MAX && p > if97_p_b23(T)) return 3;
  return 2;
}

int if97_pT(double p, double T, if97_state *st, char *why, size_t cap) {
  int r = region_pT(p, T, why, cap);
  if (!r) return LIED_ERROR;
  if (r == 3) {
    if (state3_pT(p, T, 0, st))
      return FAIL("IF97: p = %.9g Pa, T = %.9g K: no density of region 3 found", p, T);
    return 0;
  }
  state_pT(r, p, T, st);
  return 0;
}

/* ---- (p, h) and (p, s): Newton on T -------------------------------------------- */

enum { BY_H = 0, BY_S = 1 };

/* T with h(p, T) (or s(p, T)) = target in `region`, from T. 0 or -1. */
static int newton_T(int region, double p, double target, int by, double *T) {
  double t = *T;
  for (int k = 0; k < 30; k++) {
    if97_gibbs g;
    if97_gibbs_t(region, p, t, &g);
    double tau = g.Tstar / t, cp = -IF97_R * tau * tau * g.gtt, f, df;
    if (by == BY_H)
      f = IF97_R * g.Tstar * g.gt, df = cp;
    else
      f = IF97_R * (tau * g.gt - g.g), df = cp / t;
    double dT = (target - f) / df;
    if (!isfinite(dT)) return -1;
    if (dT > 0.25 * t) dT = 0.25 * t;
    if (dT < -0.25 * t) dT = -0.25 * t;
    t += dT;
    if (fabs(dT) <= 1e-9 * t) {
      *T = t;
      return 0;
    }
  }
  return -1;
}

static double value(const if97_state *st, int by) { return by == BY_H ? st->h : st->s; }
static const char *const by_name[2] = {"h", "s"};
static const char *const by_unit[2] = {"J/kg", "J/(kg K)"};

#define FAIL_STATE(what)                                                                 \
  FAIL("IF97: p = %.9g Pa, %s = %.9g %s: %s", p, by_name[by], y, by_unit[by], what)

/* A temperature the checks let through within their tolerance of a range
 * end, at the end: a state the inverses return is one the forward
 * functions accept. */
static double clamp_T(int region, double T) {
  const double hi = region == 2 ? IF97_T25 : IF97_TMAX; /* region 2: its value there is not above */
  return T < IF97_TMIN ? IF97_TMIN : T > hi ? hi : T;
}

/* Solve in region 1 / 2 / 5 from T0 and fill st; checks the temperature
 * range of the region. */
/* Why (p, y) has no state above the range, or NULL: its value beyond the
 * highest T at p (region 5 at 2273.15 K up to 50 MPa, region 2 at 1073.15
 * K above). For the message when Newton's method fails: "no convergence"
 * for h = 1e300 was misleading where (p, s) said "above 2273.15 K"
 * (issue 47). */
static const char *above_top(double p, double y, int by) {
  if97_state t;
  if (p <= IF97_P5MAX) {
    state_pT(5, p, IF97_TMAX, &t);
    return y > value(&t, by) ? "above 2273.15 K (the highest T of IF97)" : NULL;
  }
  state_pT(2, p, IF97_T25, &t);
  return y > value(&t, by) ? "above 1073.15 K IF97 holds up to 50 MPa" : NULL;
}

static int single(int region, double p, double y, int by, double T0, if97_state *st, char *why,
                  size_t cap) {
  double T = T0;
  if (region == 2 && T > IF97_T25) T = IF97_T25;
  if (newton_T(region, p, y, by, &T)) {
    const char *top = region != 1 ? above_top(p, y, by) : NULL;
    return FAIL_STATE(top ? top : "no convergence of Newton's method");
  }
  if (region == 1 && T < IF97_TMIN - 1e-7) return FAIL_STATE("below 273.15 K (the lowest T of IF97)");
  if (region == 2 && T < IF97_TMIN - 1e-7) return FAIL_STATE("below 273.15 K (the lowest T of IF97)");
  if (region == 2 && T > IF97_T25 - 1.0) { /* region 5 above the value at 1073.15 K */
    if97_state b;
    state_pT(2, p, IF97_T25, &b);
    if (y > value(&b, by)) {
      if (p > IF97_P5MAX) return FAIL_STATE("above 1073.15 K IF97 holds up to 50 MPa");
      return single(5, p, y, by, IF97_T25, st, why, cap);
    }
  }
  if (region == 5 && T > IF97_TMAX + 1e-7) return FAIL_STATE("above 2273.15 K (the highest T of IF97)");
  state_pT(region, p, clamp_T(region, T), st);
  return 0;
}

/* The backward equation of region 1 / 2 for `by`, or NaN. */
static double backward(int region, double p, double y, int by) {
  if (region == 1) return by == BY_H ? if97_T1_ph(p, y) : if97_T1_ps(p, y);
  return by == BY_H ? if97_T2_ph(p, y) : if97_T2_ps(p, y);
}

/* The two-phase mixture at p, T of saturated liquid L and vapour V whose
 * h (or s) is y. */
static void mixture(double p, double T, const if97_state *L, const if97_state *V, double y,
                    int by, if97_state *st) {
  double yl = value(L, by), yv = value(V, by);
  /* where liquid and vapour meet (the critical point) they are one state */
  double x = yv > yl ? (y - yl) / (yv - yl) : y > yl, v;
  x = x < 0 ? 0 : x > 1 ? 1 : x;
  v = (1 - x) / L->rho + x / V->rho;
  st->p = p;
  st->T = T;
  st->x = x;
  st->rho = 1.0 / v;
  st->h = L->h + x * (V->h - L->h);
  st->s = L->s + x * (V->s - L->s);
  st->u = st->h - p * v;
  st->cp = 0.0;
  st->region = 4;
}

/* h (or s) of region 3 at (p, T) on the branch the call asks for; NaN when
 * there is no density. */
typedef struct r3_call {
  double p;
  int by, vapour;
  double *rho; /* the last density, the next start */
} r3_call;
static double r3_value(double T, const void *ctx) {
  const r3_call *c = ctx;
  if (if97_rho3(c->p, T, c->vapour, c->rho)) return NAN;
  if97_state st;
  state_rhoT(*c->rho, T, &st);
  return value(&st, c->by);
}

/* Newton's method on (rho, T) for p(rho, T) = p, h(rho, T) = h in region 3
 * from the backward equations' T(p, h), 1 / v(p, h): 0 with rho, T when it
 * converges within [Ta, Tb] on the branch asked for (dp/drho > 0 and
 * if97_r3_on_branch, as if97_rho3's Newton steps), else -1. */
static int newton3_ph(double p, double h, double Ta, double Tb, int vapour, double *rho_out,
                      double *T_out) {
  double T = if97_T3_ph(p, h), rho = 1 / if97_v3_ph(p, h);
  if (!(T >= Ta && T <= Tb)) T = T < Ta ? Ta : Tb;
  if (!(rho > 0 && rho < IF97_R3_RHO_MAX)) return -1;
  for (int k = 0; k < 30; k++) {
    if97_helm f;
    if97_helm3(rho, T, &f);
    const double d = f.delta, t = f.tau;
    const double pp = rho * IF97_R * T * d * f.fd, hh = IF97_R * T * (t * f.ft + d * f.fd);
    const double dpr = IF97_R * T * (2 * d * f.fd + d * d * f.fdd);
    const double dpT = rho * IF97_R * (d * f.fd - d * t * f.fdt);
    const double dhr = IF97_R * T / rho * d * (t * f.fdt + f.fd + d * f.fdd);
    const double dhT = IF97_R * (-t * t * f.ftt - t * d * f.fdt + d * f.fd);
    const double r1 = p - pp, r2 = h - hh, det = dpr * dhT - dpT * dhr;
    double dr = (r1 * dhT - dpT * r2) / det, dT = (dpr * r2 - dhr * r1) / det;
    if (!isfinite(dr) || !isfinite(dT) || !(dpr > 0)) return -1;
    if (dr > 0.2 * rho) dr = 0.2 * rho;
    if (dr < -0.2 * rho) dr = -0.2 * rho;
    if (dT > 20) dT = 20;
    if (dT < -20) dT = -20;
    rho += dr, T += dT;
    if (!(rho > 0 && rho < IF97_R3_RHO_MAX)) return -1;
    if (fabs(dr) <= 1e-13 * rho && fabs(dT) <= 1e-13 * T) {
      if (!(T >= Ta - 1e-9 * T && T <= Tb + 1e-9 * T) || !if97_r3_on_branch(rho, T, vapour))
        return -1;
      *rho_out = rho, *T_out = T;
      return 0;
    }
  }
  return -1;
}

/* The region-3 state at (p, y) with T in [Ta, Tb] on one branch (y between
 * the values at the ends): for h from the backward equations by Newton's
 * method, else (or where that fails) by the root finder on T. */
static int single3(double p, double y, int by, double Ta, double Tb, int vapour, double rl0,
                   double rv0, if97_state *st, char *why, size_t cap) {
  double rn, Tn;
  if (by == BY_H && newton3_ph(p, y, Ta, Tb, vapour, &rn, &Tn) == 0) {
    state_rhoT(rn, Tn, st);
    st->p = p;
    if (p < IF97_PC) st->x = vapour;
    return 0;
  }
  double rho = vapour ? rv0 : rl0;
  const r3_call c = {p, by, vapour, &rho};
  double T = if97_root(r3_value, &c, y, Ta, Tb, 1e-14);
  if (if97_rho3(p, T, vapour, &rho)) return FAIL_STATE("no density of region 3 found");
  state_rhoT(rho, T, st);
  st->p = p;
  if (p < IF97_PC) st->x = vapour; /* the branch, also at the saturation line */
  return 0;
}

/* Above 16.53 MPa, y between region 1's value at 623.15 K (y1) and region
 * 2's on the B23 line at Tb (y2): region 3, with two-phase states below the
 * critical pressure. Where the regions' values at their common boundary
 * differ (within the formulation's consistency), the state between is the
 * neighbouring region's, a few mK beyond its end. */
static int region3_py(double p, double y, int by, double Tb, double rho1, double rho2,
                      if97_state *st, char *why, size_t cap) {
  if97_state a, b; /* from region 1's and region 2's densities at the ends */
  /* below the critical pressure the ends are on the liquid (623.15 K) and
   * the vapour (B23) branch: chosen, not read from p against psat(T), which
   * rounding decides where both ends meet the saturation line (p = 16.53
   * MPa: a saturated liquid's h came back as region 2 at 609.5 K) */
  const int below = p < IF97_PC;
  if (state3_branch(p, IF97_T13, below ? 0 : vapour3(p, IF97_T13), rho1, &a) ||
      state3_branch(p, Tb, below ? 1 : vapour3(p, Tb), rho2, &b))
    return FAIL_STATE("no density of region 3 found");
  if (y <= value(&a, by)) return single(1, p, y, by, IF97_T13, st, why, cap);
  if (y >= value(&b, by)) return single(2, p, y, by, Tb, st, why, cap);
  /* at and above the critical pressure p(rho) rises everywhere: the
   * liquid branch's search finds the one density */
  if (p >= IF97_PC) return single3(p, y, by, IF97_T13, Tb, 0, a.rho, b.rho, st, why, cap);
  const double Ts = if97_Tsat_eq(p);
  double rl = a.rho, rv = b.rho;
  if (if97_sat3(Ts, &rl, &rv)) return FAIL_STATE("no saturated density of region 3 found");
  if97_state L, V;
  state_rhoT(rl, Ts, &L);
  state_rhoT(rv, Ts, &V);
  if (y < value(&L, by)) return single3(p, y, by, IF97_T13, Ts, 0, rl, rv, st, why, cap);
  if (y > value(&V, by)) return single3(p, y, by, Ts, Tb, 1, rl, rv, st, why, cap);
  mixture(p, Ts, &L, &V, y, by, st);
  return 0;
}

/* by_ps at p up to the highest two-phase pressure (IF97_PS13): region 1's
 * and region 2's fast paths, then the saturation dome.
 * Long: the fast paths and the dome in IF97's order of tests. */
static int by_ps_low(double p, double y, int by, int tonly, if97_state *st, char *why,
                     size_t cap) {
  /* liquid / vapour bounds of the fast paths: above the highest saturated
   * liquid value, below the lowest saturated vapour value */
  const double liq_max = by == BY_H ? 1.8e6 : 3.8e3, vap_min = by == BY_H ? 2.3e6 : 5.0e3;
  int liquid_ok = p >= IF97_PTRIPLE;
  double Ts = liquid_ok ? if97_Tsat_eq(p) : IF97_TMIN;
  /* fast paths: the backward equation, 25 mK accurate, decides; the
   * refined T confirms (T <= Tsat is h <= h' in region 1) */
  if (liquid_ok && y <= liq_max) {
    double T1 = backward(1, p, y, by);
    if (isfinite(T1) && T1 < Ts - 0.1) {
      double T = T1;
      if (!newton_T(1, p, y, by, &T) && T <= Ts) {
        if (T < IF97_TMIN - 1e-7) return FAIL_STATE("below 273.15 K (the lowest T of IF97)");
        T = clamp_T(1, T); /* as if97_T_ph_lanes */
        if (tonly) {
          st->T = T, st->region = 1;
          return 0;
        }
        state_pT(1, p, T, st);
        return 0;
      }
    }
  }
  if (y >= vap_min) {
    double T2 = backward(2, p, y, by);
    if (isfinite(T2) && (!liquid_ok || T2 > Ts + 0.1)) {
      double T = T2 > IF97_T25 ? IF97_T25 : T2;
      if (!newton_T(2, p, y, by, &T) && (!liquid_ok || T >= Ts)) {
        if (T >= IF97_TMIN && T <= IF97_T25 - 1.0) {
          if (tonly)
            st->T = T, st->region = 2;
          else
            state_pT(2, p, T, st);
          return 0;
        }
        return single(2, p, y, by, T, st, why, cap);
      }
    }
  }
  if (!liquid_ok) { /* no liquid below the triple-point pressure */
    if97_state lo;
    state_pT(2, p, IF97_TMIN, &lo);
    if (y < value(&lo, by)) return FAIL_STATE("below 273.15 K (the lowest T of IF97)");
    return single(2, p, y, by, IF97_TMIN, st, why, cap);
  }
  /* near or inside the saturation dome: h', h'' exactly */
  if97_state L, V;
  state_pT(1, p, Ts, &L);
  state_pT(2, p, Ts, &V);
  double yl = value(&L, by), yv = value(&V, by);
  if (y < yl) {
    if97_state lo;
    state_pT(1, p, IF97_TMIN, &lo);
    if (y < value(&lo, by)) return FAIL_STATE("below 273.15 K (the lowest T of IF97)");
    return single(1, p, y, by, Ts, st, why, cap);
  }
  if (y > yv) return single(2, p, y, by, Ts, st, why, cap);
  mixture(p, Ts, &L, &V, y, by, st);
  return 0;
}

/* by_ps above the highest two-phase pressure. */
static int by_ps_high(double p, double y, int by, if97_state *st, char *why, size_t cap) {
  /* above the highest two-phase pressure: region 1 up to 623.15 K, region 2
   * from the B23 line, region 3 between */
  if97_state b;
  state_pT(1, p, IF97_T13, &b);
  if (y <= value(&b, by)) {
    if97_state lo;
    state_pT(1, p, IF97_TMIN, &lo);
    if (y < value(&lo, by)) return FAIL_STATE("below 273.15 K (the lowest T of IF97)");
    double T1 = backward(1, p, y, by);
    return single(1, p, y, by, isfinite(T1) ? T1 : IF97_T13, st, why, cap);
  }
  const double rho1 = b.rho, Tb = if97_T_b23(p);
  state_pT(2, p, Tb, &b);
  if (y < value(&b, by)) return region3_py(p, y, by, Tb, rho1, b.rho, st, why, cap);
  double T2 = backward(2, p, y, by);
  return single(2, p, y, by, isfinite(T2) && T2 > Tb ? T2 : Tb, st, why, cap);
}

/* The state at (p, y); with tonly, on the fast paths only st->T and
 * st->region are set. */
static int by_ps(double p, double y, int by, int tonly, if97_state *st, char *why, size_t cap) {
  if (!isfinite(p) || !isfinite(y)) return FAIL_STATE("not a finite number");
  if (!(p > 0 && p <= IF97_PMAX)) return FAIL_STATE("p is outside (0, 100 MPa]");
  if (p <= IF97_PS13) return by_ps_low(p, y, by, tonly, st, why, cap);
  return by_ps_high(p, y, by, st, why, cap);
}

int if97_ph(double p, double h, if97_state *st, char *why, size_t cap) {
  return by_ps(p, h, BY_H, 0, st, why, cap);
}
int if97_ps(double p, double s, if97_state *st, char *why, size_t cap) {
  return by_ps(p, s, BY_S, 0, st, why, cap);
}
int if97_T_ph(double p, double h, double *T, char *why, size_t cap) {
  if97_state st;
  int rc = by_ps(p, h, BY_H, 1, &st, why, cap);
  if (!rc) *T = st.T;
  return rc;
}

/* ---- (rho, u) ----------------------------------------------------------------------- */

/* Saturated liquid and vapour at T (273.15 K <= T <= 623.15 K). */
static void sat(double T, if97_state *L, if97_state *V) {
  double ps = if97_psat_eq(T);
  state_pT(1, ps, T, L);
  state_pT(2, ps, T, V);
}

double if97_root(if97_root_fn f, const void *ctx, double target, double a, double b,
                 double rtol) {
  double fa = f(a, ctx) - target, fb = f(b, ctx) - target;
  /* a root at an end (a state exactly on the boundary the bracket ends at:
   * saturated liquid or vapour, 623.15 K) is that end; ends of one sign
   * (the target beyond an end by rounding) give the closer end. Without
   * this, an f(b) of exactly 0 counted as negative and the iteration walked
   * to the other end: the saturated liquid at 3 MPa came back as the triple
   * point (issue 47) */
  if (fa == 0) return a;
  if (fb == 0) return b;
  if (fa * fb > 0) return fabs(fa) <= fabs(fb) ? a : b; /* NaN: iterate as before */
  int side = 0;
  for (int k = 0; k < 200 && fabs(b - a) > rtol * b; k++) {
    double c = (a * fb - b * fa) / (fb - fa);
    if (!(c > fmin(a, b) && c < fmax(a, b))) c = 0.5 * (a + b);
    double fc = f(c, ctx) - target;
    if (fc == 0) return c;
    if ((fc > 0) == (fb > 0)) {
      b = c, fb = fc;
      if (side == -1) fa *= 0.5;
      side = -1;
    } else {
      a = c, fa = fc;
      if (side == 1) fb *= 0.5;
      side = 1;
    }
  }
  return 0.5 * (a + b);
}

/* The root of f(T, v) - target on [a, b] (if97_root). */
typedef double (*t_fn)(double T, double v);
typedef struct t_call {
  t_fn f;
  double v;
} t_call;
static double call_t(double T, const void *ctx) {
  const t_call *c = ctx;
  return c->f(T, c->v);
}
static double root(t_fn f, double v, double target, double a, double b) {
  const t_call c = {f, v};
  return if97_root(call_t, &c, target, a, b, 1e-12);
}
static double sat_vL(double T, double v) {
  (void)v;
  if97_gibbs g;
  if97_gibbs1(if97_psat_eq(T), T, &g);
  return IF97_R * T * g.gp / g.pstar;
}
static double sat_vV(double T, double v) {
  (void)v;
  if97_gibbs g;
  if97_gibbs2(if97_psat_eq(T), T, &g);
  return IF97_R * T * g.gp / g.pstar;
}
/* u of the mixture of volume v at T. */
static double mix_u(double T, double v) {
  if97_state L, V;
  sat(T, &L, &V);
  double x = (v - 1 / L.rho) / (1 / V.rho - 1 / L.rho);
  return L.u + x * (V.u - L.u);
}

/* p of region-2 vapour of volume v at T (Newton on ln p from the ideal
 * gas; the p of the closest iterate when there is none). */
static double vap_p(double v, double T) {
  double p = IF97_R * T / v; /* from the ideal gas, at most the B23 line's p */
  if (T <= IF97_T23MAX && p > if97_p_b23(T)) p = if97_p_b23(T);
  if (p > IF97_PMAX) p = IF97_PMAX;
  for (int k = 0; k < 60; k++) {
    if97_gibbs g;
    if97_gibbs2(p, T, &g);
    double vv = IF97_R * T * g.gp / g.pstar, dv = IF97_R * T * g.gpp / (g.pstar * g.pstar);
    double dl = (v - vv) / (p * dv);
    if (!isfinite(dl)) break;
    if (dl > 0.5) dl = 0.5;
    if (dl < -0.5) dl = -0.5;
    p *= exp(dl);
    if (fabs(dl) < 1e-13) break;
  }
  return p;
}
/* v of region-2 vapour on the B23 line at T. */
static double b23_v(double T, double v) {
  (void)v;
  if97_state st;
  state_pT(2, if97_p_b23(T), T, &st);
  return 1 / st.rho;
}
/* u of region-2 vapour of volume v at T. */
static double vap_u(double T, double v) {
  if97_state st;
  state_pT(2, vap_p(v, T), T, &st);
  return st.u;
}

/* Newton on (ln p, T) for v(p, T) = v, u(p, T) = u in a region. */
static int newton_pT(int region, double v, double u, double *pp, double *TT) {
  double p = *pp, T = *TT;
  for (int k = 0; k < 60; k++) {
    if97_gibbs g;
    gibbs(region, p, T, &g);
    double tau = g.Tstar / T;
    double vv = IF97_R * T * g.gp / g.pstar;
    double uu = IF97_R * g.Tstar * g.gt - p * vv;
    double cp = -IF97_R * tau * tau * g.gtt;
    double dv_dp = IF97_R * T * g.gpp / (g.pstar * g.pstar);
    double dv_dT = IF97_R * (g.gp - tau * g.gpt) / g.pstar;
    double dh_dp = IF97_R * g.Tstar * g.gpt / g.pstar;
    double du_dp = dh_dp - vv - p * dv_dp, du_dT = cp - p * dv_dT;
    /* in p for the liquid (v almost linear in p), in ln p for the vapour */
    double sp = region == 1 ? 1.0 : p;
    double a = sp * dv_dp, b = dv_dT, c = sp * du_dp, d = du_dT;
    double r1 = v - vv, r2 = u - uu, det = a * d - b * c;
    double dl = (r1 * d - b * r2) / det, dT = (a * r2 - c * r1) / det;
    if (!isfinite(dl) || !isfinite(dT)) return -1;
    if (dT > 100) dT = 100;
    if (dT < -100) dT = -100;
    T += dT;
    if (region == 1) {
      double dp = dl;
      if (dp < -0.9 * p) dp = -0.9 * p;
      if (dp > 50e6) dp = 50e6;
      p += dp;
      dl = dp / fmax(p, 1e6); /* p of a liquid is known to eps / compressibility, ~1 mPa */
    } else {
      if (dl > 0.5) dl = 0.5;
      if (dl < -0.5) dl = -0.5;
      p *= exp(dl);
    }
    if (fabs(dl) < 1e-10 && fabs(dT) < 1e-11 * T) {
      *pp = p, *TT = T;
      return 0;
    }
  }
  return -1;
}

#define FAIL_RU(what) FAIL("IF97: rho = %.9g kg/m3, u = %.9g J/kg: %s", rho, u, what)

/* The two-phase state of density rho and energy u at p, T of saturated
 * liquid L and vapour V (lever rule on the volume; where L and V meet, at
 * the critical point, quality x0). */
static void mixture_ru(double rho, double u, double p, double T, const if97_state *L,
                       const if97_state *V, double x0, if97_state *st) {
  double x = V->rho < L->rho ? (1 / rho - 1 / L->rho) / (1 / V->rho - 1 / L->rho) : x0;
  if (x < 0) x = 0;
  if (x > 1) x = 1;
  st->p = p;
  st->T = T;
  st->x = x;
  st->rho = rho;
  st->u = u;
  st->h = L->h + x * (V->h - L->h);
  st->s = L->s + x * (V->s - L->s);
  st->cp = 0.0;
  st->region = 4;
}

/* ---- (rho, u) in region 3 ------------------------------------------------------------ */

/* u of region 3's equation at (1 / v, T). */
static double u3(double T, double v) {
  if97_helm f;
  if97_helm3(1 / v, T, &f);
  return IF97_R * T * f.tau * f.ft;
}
/* Saturated volume of region 3 at T (623.15 K .. 647.096 K), the liquid's
 * (which = 0) or the vapour's; rho: the last density, the next start. */
typedef struct sat3_call {
  int which;
  double *rho;
} sat3_call;
static double sat3_v(double T, const void *ctx) {
  const sat3_call *c = ctx;
  if (if97_rho3(if97_psat_eq(T), T, c->which, c->rho)) return NAN;
  return 1 / *c->rho;
}
/* u of the region-3 mixture of volume v at T; rl, rv: the last saturated
 * densities, the next starts. */
typedef struct mix3_call {
  double v, *rl, *rv;
} mix3_call;
static double mix3_u(double T, const void *ctx) {
  const mix3_call *c = ctx;
  if (if97_sat3(T, c->rl, c->rv)) return NAN;
  const double rl = *c->rl, rv = *c->rv;
  if (rv >= rl) return u3(T, c->v);
  double x = (c->v - 1 / rl) / (1 / rv - 1 / rl);
  return u3(T, 1 / rl) + x * (u3(T, 1 / rv) - u3(T, 1 / rl));
}

/* (rho, u) in region 3, or in the two-phase states between 623.15 K and the
 * critical point, for the callers below that found it there. 0 with st;
 * LIED_ERROR (why); 1 when region 3's equation puts the state outside
 * region 3 (beyond a boundary, by the formulation's small inconsistency
 * between the regions there): the caller's own state stands. */
static int single_ru3(double rho, double u, if97_state *st, char *why, size_t cap) {
  const double v = 1 / rho;
  double Tlo = IF97_T13;
  if97_state top; /* region 3's densest state: 623.15 K at 100 MPa */
  state_pT(1, IF97_PMAX, IF97_T13, &top);
  /* (region 3's equation there is denser than region 1's, by 2e-5 within
   * their consistency: the p of the state found decides) */
  if (rho > top.rho * (1 + 1e-4)) return FAIL_RU("above 100 MPa (the highest p of IF97)");
  /* between the saturated densities at 623.15 K: the dome's top at this
   * density is at most the critical temperature, so an energy at or above
   * u(rho, Tc) is single-phase, from Tc on */
  const int band = rho >= IF97_R3_RHOV13 && rho <= IF97_R3_RHOL13; /* the ends: saturated */
  if (band && u >= u3(IF97_TC, v)) {
    Tlo = IF97_TC;
  } else if (band) {
    /* two-phase from 623.15 K up to Thi, where rho is saturated: the
     * liquid's saturated density where rho is above the one where the
     * equation's saturated densities meet at the critical temperature (near,
     * not at, 322 kg/m3), else the vapour's */
    const int vapour = rho <= IF97_R3_RHOC_SAT;
    double rs = vapour ? IF97_R3_RHOV13 : IF97_R3_RHOL13;
    const sat3_call sc = {vapour, &rs};
    const double Thi = if97_root(sat3_v, &sc, v, IF97_T13, IF97_TC, 1e-12);
    if (u <= u3(Thi, v)) {
      double rl = IF97_R3_RHOL13, rv = IF97_R3_RHOV13;
      const mix3_call mc = {v, &rl, &rv};
      const double T = u <= mix3_u(IF97_T13, &mc) ? IF97_T13
                                                  : if97_root(mix3_u, &mc, u, IF97_T13, Thi, 1e-12);
      if (if97_sat3(T, &rl, &rv)) return FAIL_RU("no saturated density of region 3 found");
      if97_state L, V;
      state_rhoT(rl, T, &L);
      state_rhoT(rv, T, &V);
      mixture_ru(rho, u, fmin(if97_psat_eq(T), IF97_PC), T, &L, &V, vapour, st);
      return 0;
    }
    Tlo = Thi;
  }
  if (u < u3(Tlo, v) - 1e-12 * fabs(u)) return 1; /* (to rounding: at Tlo) */
  if (u > u3(IF97_T23MAX, v)) {
    if (if97_p3(rho, IF97_T23MAX) > IF97_PMAX) return FAIL_RU("above 100 MPa (the highest p of IF97)");
    return 1;
  }
  const double T = root(u3, v, u, Tlo, IF97_T23MAX);
  state_rhoT(rho, T, st);
  if (st->p > IF97_PMAX * (1 + 1e-9)) return FAIL_RU("above 100 MPa (the highest p of IF97)");
  /* (to rounding: at 623.15 K B23 meets the saturation line, where a
   * saturated liquid's p is that of B23) */
  if (st->p < if97_p_b23(T) * (1 - 1e-12)) return 1;
  if (st->p > IF97_PMAX) st->p = IF97_PMAX; /* within the tolerance above */
  st->u = u; /* the given value, not its round trip */
  return 0;
}

/* Why a vapour's (rho, u) has no state above the range, or NULL: u beyond
 * its value at 2273.15 K (region 5, up to 50 MPa) or at 1073.15 K (region
 * 2, above), at the ideal gas's p (the range's top is nearly ideal): for
 * the message when Newton's method fails. */
static const char *above_top_ru(double rho, double u) {
  if97_state t;
  const double p5 = rho * IF97_R * IF97_TMAX, p2 = rho * IF97_R * IF97_T25;
  if (p5 <= IF97_P5MAX) {
    state_pT(5, p5, IF97_TMAX, &t);
    return u > t.u ? "above 2273.15 K (the highest T of IF97)" : NULL;
  }
  if (p2 > IF97_PMAX) return NULL;
  state_pT(2, p2, IF97_T25, &t);
  return u > t.u ? "above 1073.15 K IF97 holds up to 50 MPa" : NULL;
}

/* A single-phase (rho, u) in region 1, 2 (or 5) from the start (p0, T0). */
static int single_ru(int region, double rho, double u, double p0, double T0, if97_state *st,
                     char *why, size_t cap) {
  double v = 1 / rho, p = p0, T = T0;
  if (newton_pT(region, v, u, &p, &T)) {
    /* a liquid from below or a vapour from beside region 3 whose Newton
     * iteration leaves its region: the state may be region 3's */
    const int rc = region == 5 ? 1 : single_ru3(rho, u, st, why, cap);
    if (rc != 1) return rc;
    const char *top = region != 1 ? above_top_ru(rho, u) : NULL;
    return FAIL_RU(top ? top : "no convergence of Newton's method");
  }
  if (T < IF97_TMIN - 1e-7) return FAIL_RU("below 273.15 K (the lowest T of IF97)");
  if (region == 2 && T > IF97_T25 - 1.0) { /* region 5 above u at 1073.15 K */
    double pb = vap_p(v, IF97_T25);
    if97_state b;
    state_pT(2, pb, IF97_T25, &b);
    if (u > b.u) return single_ru(5, rho, u, pb, IF97_T25, st, why, cap);
  }
  if (region == 5 && T > IF97_TMAX + 1e-7) return FAIL_RU("above 2273.15 K (the highest T of IF97)");
  if (region == 5 && p > IF97_P5MAX * (1 + 1e-9)) return FAIL_RU("above 1073.15 K IF97 holds up to 50 MPa");
  /* vapour above the B23 line and a liquid hotter than 623.15 K are region
   * 3 (or above 100 MPa) */
  if ((region == 2 && T > IF97_T13 && T <= IF97_T23MAX && p > if97_p_b23(T)) ||
      (region == 1 && T > IF97_T13 + 1e-7)) {
    const int rc = single_ru3(rho, u, st, why, cap);
    if (rc != 1) return rc;
    /* region 3's equation puts it just outside: this region's state
     * stands if it lies as close to their boundary */
    if (region == 1 ? T > IF97_T13 + 0.1 : fabs(p - if97_p_b23(T)) > 1e-3 * p)
      return FAIL_RU("between regions that IF97 does not join here");
  }
  /* a liquid below, or a vapour above, the saturation pressure is no
   * solution */
  if ((region == 1 && p < if97_psat_eq(T) * (1 - 1e-9)) ||
      (region == 2 && T <= IF97_T13 && p > if97_psat_eq(T) * (1 + 1e-9)))
    return FAIL_RU("no convergence of Newton's method");
  if (region == 1 && p > IF97_PMAX * (1 + 1e-9) && T > IF97_T13 - 0.1) {
    /* region 3 at 100 MPa is a little denser than region 1 at 623.15 K:
     * its state, or the refusal of its equation */
    const int rc = single_ru3(rho, u, st, why, cap);
    if (rc != 1) return rc;
  }
  if (p > IF97_PMAX * (1 + 1e-9)) return FAIL_RU("above 100 MPa (the highest p of IF97)");
  /* the range ends, where the tolerances above let a state through */
  if (p > (region == 5 ? IF97_P5MAX : IF97_PMAX)) p = region == 5 ? IF97_P5MAX : IF97_PMAX;
  state_pT(region, p, clamp_T(region, T), st);
  st->rho = rho; /* the given values, not their round trip */
  st->u = u;
  return 0;
}

/* Long: the region tests of (rho, u) in order, each with its Newton start. */
int if97_rho_u(double rho, double u, if97_state *st, char *why, size_t cap) {
  if (!isfinite(rho) || !isfinite(u)) return FAIL_RU("not a finite number");
  if (!(rho > 0)) return FAIL_RU("the density must be > 0");
  double v = 1 / rho;
  const double Tdmax = 277.13; /* about the density maximum of the liquid */
  double vV0 = sat_vV(IF97_TMIN, 0), vV13 = sat_vV(IF97_T13, 0);
  double vL0 = sat_vL(IF97_TMIN, 0), vLd = sat_vL(Tdmax, 0), vL13 = sat_vL(IF97_T13, 0);
  if (v >= vV0) { /* thinner than saturated vapour at 273.15 K: vapour */
    if97_state lo;
    double p0 = rho * IF97_R * IF97_TMIN;
    state_pT(2, p0, IF97_TMIN, &lo);
    /* (to rounding: the saturated vapour at 273.15 K) */
    if (u < lo.u - 1e-9 * fabs(lo.u)) return FAIL_RU("below 273.15 K (the lowest T of IF97)");
    double T0 = fmax(IF97_TMIN, IF97_TMIN + (u - lo.u) / 1450.0);
    return single_ru(2, rho, u, rho * IF97_R * T0, T0, st, why, cap);
  }
  if (v <= vLd) { /* denser than any saturated liquid: compressed liquid */
    double T0 = Tdmax + 0.0;
    if97_state L, V;
    sat(T0, &L, &V);
    return single_ru(1, rho, u, 1e6, T0 + (u - L.u) / 4100.0 > IF97_TMIN ? T0 + (u - L.u) / 4100.0
                                                                          : IF97_TMIN,
                     st, why, cap);
  }
  /* the two-phase temperatures of this v: [Tlo, Thi] */
  double Tlo = IF97_TMIN, Tv = IF97_T13, Tl = IF97_T13;
  if (v < vL0) Tlo = root(sat_vL, 0, v, IF97_TMIN, Tdmax);
  if (v > vV13) Tv = root(sat_vV, 0, v, IF97_TMIN, IF97_T13);
  if (v < vL13) Tl = root(sat_vL, 0, v, Tdmax, IF97_T13);
  double Thi = fmin(Tv, Tl);
  double ulo = mix_u(Tlo, v), uhi = mix_u(Thi, v);
  if (u < ulo && Tlo == IF97_TMIN && ulo - u <= 1e-9 * fmax(fabs(ulo), 2.4e6)) {
    /* on the triple-point line to rounding (the mixture's u at 273.15 K is
     * a difference of its liquid's and vapour's): that state */
    if97_state L, V;
    sat(IF97_TMIN, &L, &V);
    mixture_ru(rho, u, L.p, IF97_TMIN, &L, &V, 0, st);
    return 0;
  }
  if (u < ulo) {
    if (Tlo == IF97_TMIN) return FAIL_RU("below 273.15 K (the lowest T of IF97)");
    return single_ru(1, rho, u, if97_psat_eq(Tlo), Tlo, st, why, cap);
  }
  if (u <= uhi) {
    double T = root(mix_u, v, u, Tlo, Thi);
    if97_state L, V;
    sat(T, &L, &V);
    mixture_ru(rho, u, L.p, T, &L, &V, 0, st);
    return 0;
  }
  if (Tv < IF97_T13 && Tv <= Tl) { /* superheated vapour */
    if97_state L, V;
    sat(Tv, &L, &V);
    double T0 = Tv + (u - V.u) / 1450.0;
    if (single_ru(2, rho, u, V.p, T0, st, why, cap) == 0) return 0;
    /* near the B23 line the vapour is far from ideal and Newton's method
     * from that start can fail: again from the temperature where region 2's
     * vapour of this volume has u */
    T0 = u < vap_u(IF97_T25, v) ? root(vap_u, v, u, Tv, IF97_T25) : IF97_T25;
    return single_ru(2, rho, u, vap_p(v, T0), T0, st, why, cap);
  }
  /* compressed liquid (at 623.15 K to rounding: the saturated liquid where
   * regions 1, 3 and 4 meet, which region 3's equation reads just below
   * 623.15 K) */
  if (Tl < IF97_T13 || fabs(v - vL13) <= 1e-12 * vL13) {
    if97_state L, V;
    sat(Tl, &L, &V);
    double T0 = Tl + (u - L.u) / 4100.0;
    return single_ru(1, rho, u, L.p, T0 > IF97_T13 ? IF97_T13 : T0, st, why, cap);
  }
  /* between the saturated densities at 623.15 K: vapour beyond the B23 line
   * (region 2) or region 3 */
  double Tb = v >= b23_v(IF97_T23MAX, 0) ? root(b23_v, 0, v, IF97_T13, IF97_T23MAX) : IF97_T23MAX;
  if (u < vap_u(Tb, v)) {
    const int rc = single_ru3(rho, u, st, why, cap);
    if (rc != 1) return rc;
  }
  double T0 = u < vap_u(IF97_T25, v) ? root(vap_u, v, u, Tb, IF97_T25) : IF97_T25;
  return single_ru(2, rho, u, vap_p(v, T0), T0, st, why, cap);
}
