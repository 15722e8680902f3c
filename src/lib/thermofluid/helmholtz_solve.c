/* helmholtz_solve.c - on a Helmholtz equation of state (helmholtz.h): the
 * saturated states by the equal-pressure, equal-Gibbs-energy conditions, the
 * density at (p, T), and the states at (p, T), (p, h), (p, s), (rho, u) and
 * (T, x). Reference code for the property tables and the tests: robust
 * bracketed iterations, not speed. */
#include <math.h>
#include <stdio.h>
#include "lib/thermofluid/helmholtz.h"

static double ancillary(const hz_ancillary *a, double T) {
  double th = 1 - T / a->Tr, s = 0;
  if (th < 0) th = 0;
  for (int i = 0; i < a->n; i++) s += a->N[i] * pow(th, a->t[i]);
  if (a->form == HZ_ANC_EXP_TAU) return a->vr * exp(a->Tr / T * s);
  if (a->form == HZ_ANC_EXP) return a->vr * exp(s);
  return a->vr * (1 + s);
}

/* The saturated phases' properties from their densities at T. */
static void sat_fill(const hz_eos *e, double T, double rL, double rV, hz_sat *s) {
  hz_props L, V;
  hz_eval(e, rL, T, &L);
  hz_eval(e, rV, T, &V);
  s->T = T;
  s->p = L.p;
  s->rhoL = rL, s->rhoV = rV;
  s->hL = L.h, s->hV = V.h, s->sL = L.s, s->sV = V.s, s->uL = L.u, s->uV = V.u;
}

/* Akasaka's form of the conditions (J. Chem. Eng. Data 2008): with
 * J = delta (1 + delta ar_d) (p over rho_r R T) and K = delta ar_d + ar +
 * ln delta (g over R T less its part in T alone), J(dL) = J(dV) and K(dL) =
 * K(dV). */
typedef struct {
  double J, K, Jd, Kd;
} sat_side;
static void sat_eval(const hz_fluid *f, double d, double t, sat_side *s) {
  hz_alpha a;
  hz_alpha_r(f, d, t, &a);
  s->J = d * (1 + d * a.a_d);
  s->K = d * a.a_d + a.a + log(d);
  s->Jd = 1 + 2 * d * a.a_d + d * d * a.a_dd;
  s->Kd = 2 * a.a_d + d * a.a_dd + 1 / d;
}
/* The residual: the pressures' difference relative to the pressure plus
 * the Gibbs energies'. Only the damping uses it: near the triple point
 * rounding leaves more of it than the solution's error (the liquid's J is a
 * small difference of terms of the size of delta; at R290's triple point
 * J = 5e-11 of which rounding leaves 1e-13), so convergence is judged by the
 * Newton step, which maps that noise through J's large slope to 1e-14 in
 * the density. */
static double sat_residual(const sat_side *L, const sat_side *V) {
  return fabs(V->J - L->J) / (fabs(L->J) + fabs(V->J)) + fabs(V->K - L->K);
}

/* Newton's method on (dL, dV) from the given start, each phase kept on its
 * stable branch (dJ/ddelta > 0) and each step halved until the residual
 * falls. Converged when a full step is below 1e-13 relative, or when no
 * step lowers the residual any more (rounding) and the step is below 1e-9
 * or the residual below 4e-15 (within a few millikelvin of the critical
 * point the conditions are of third order in the densities' distance from
 * the critical density: rounding in p and g leaves 1e-8 in the densities).
 * 0 when it converged. */
static int sat_newton(const hz_eos *e, double t, double *pdL, double *pdV) {
  const hz_fluid *f = e->f;
  double dc = e->rhoc / e->rhor, dL = *pdL, dV = *pdV;
  sat_side L, V;
  if (!(dL > dc)) dL = dc * 1.01;
  if (!(dV > 0 && dV < dc)) dV = dc * 0.99;
  for (int k = 0; k < 60; k++) { /* move the starts out of the spinodal region */
    sat_eval(f, dL, t, &L);
    if (L.Jd > 0) break;
    dL = dc + 1.5 * (dL - dc);
  }
  for (int k = 0; k < 60; k++) {
    sat_eval(f, dV, t, &V);
    if (V.Jd > 0) break;
    dV = dc - 1.5 * (dc - dV) > 0 ? dc - 1.5 * (dc - dV) : 0.5 * dV;
  }
  double R = sat_residual(&L, &V);
  for (int it = 0; it < 200; it++) {
    double det = V.Jd * L.Kd - L.Jd * V.Kd;
    if (!(fabs(det) > 0)) return -1;
    double sL = ((V.K - L.K) * V.Jd - (V.J - L.J) * V.Kd) / det;
    double sV = ((V.K - L.K) * L.Jd - (V.J - L.J) * L.Kd) / det;
    double step = fmax(fabs(sL) / dL, fabs(sV) / dV);
    if (step <= 1e-13) {
      dL += sL, dV += sV;
      break;
    }
    double k = 1, nL = 0, nV = 0, Rn = HUGE_VAL;
    sat_side Ln, Vn;
    for (int h = 0; h < 40; h++, k *= 0.5) {
      nL = dL + k * sL, nV = dV + k * sV;
      if (!(nL > dc && nV > 0 && nV < dc)) continue;
      sat_eval(f, nL, t, &Ln);
      sat_eval(f, nV, t, &Vn);
      if (!(Ln.Jd > 0 && Vn.Jd > 0)) continue;
      Rn = sat_residual(&Ln, &Vn);
      if (Rn < R) break;
    }
    if (!(Rn < R)) { /* rounding: accept a step that small, or a residual */
      if (!(step <= 1e-9 || R <= 4e-15)) return -1;
      if (step <= 1e-9) dL += sL, dV += sV;
      break;
    }
    dL = nL, dV = nV, L = Ln, V = Vn, R = Rn;
    if (it == 199) return -1;
  }
  if (!(dL > dV * (1 + 1e-9))) return -1;
  *pdL = dL, *pdV = dV;
  return 0;
}

/* From the starting values of guess or the ancillaries; near the critical
 * point, where those may lie too far off, by continuation: the solution at
 * Tc - 4 (Tc - T), its distances from the critical density halved (the
 * square-root law of an analytic equation near its critical point). */
static int sat_solve(const hz_eos *e, double T, const hz_sat *guess, double *dL, double *dV,
                     int depth) {
  const hz_fluid *f = e->f;
  double t = f->Tr / T;
  if (guess && guess->T > 0) {
    *dL = guess->rhoL / e->rhor, *dV = guess->rhoV / e->rhor;
  } else {
    *dL = ancillary(&f->rhoL, T) * f->M / e->rhor;
    *dV = ancillary(&f->rhoV, T) * f->M / e->rhor;
  }
  if (sat_newton(e, t, dL, dV) == 0) return 0;
  double T2 = e->Tc - 4 * (e->Tc - T);
  if (depth > 30 || T2 < f->T_triple) return -1;
  if (sat_solve(e, T2, NULL, dL, dV, depth + 1)) return -1;
  double dc = e->rhoc / e->rhor;
  *dL = dc + 0.5 * (*dL - dc), *dV = dc - 0.5 * (dc - *dV);
  return sat_newton(e, t, dL, dV);
}

int hz_sat_T(const hz_eos *e, double T, const hz_sat *guess, hz_sat *s, char *why, size_t cap) {
  const hz_fluid *f = e->f;
  if (!(T >= f->T_triple * (1 - 1e-12) && T < e->Tc)) {
    snprintf(why, cap, "%s: saturation at T = %.9g K: defined for %.9g K <= T < %.9g K", f->name,
             T, f->T_triple, e->Tc);
    return -1;
  }
  double dL, dV;
  if (sat_solve(e, T, guess, &dL, &dV, 0) && (!guess || sat_solve(e, T, NULL, &dL, &dV, 0))) {
    snprintf(why, cap, "%s: saturation at T = %.9g K: the phase equilibrium did not converge",
             f->name, T);
    return -1;
  }
  sat_fill(e, T, dL * e->rhor, dV * e->rhor, s);
  return 0;
}

/* Tsat(p): Newton's method on ln psat(T) with the Clausius-Clapeyron slope
 * (exact on the equilibrium), inside a bracket that bisection keeps. */
int hz_sat_p(const hz_eos *e, double p, const hz_sat *guess, hz_sat *s, char *why, size_t cap) {
  const hz_fluid *f = e->f;
  hz_sat lo;
  if (hz_sat_T(e, f->T_triple, NULL, &lo, why, cap)) return -1;
  if (!(p >= lo.p * (1 - 1e-12) && p < e->pc)) {
    snprintf(why, cap, "%s: saturation at p = %.9g Pa: defined for %.9g Pa <= p < %.9g Pa",
             f->name, p, lo.p, e->pc);
    return -1;
  }
  double a = f->T_triple, b = e->Tc, T;
  if (guess && guess->T > 0) {
    T = guess->T;
  } else { /* invert the ancillary fit for a start */
    T = a + (b - a) * 0.5;
    for (int it = 0; it < 60; it++) {
      double q = ancillary(&f->psat, T), q2 = ancillary(&f->psat, T * (1 + 1e-7));
      double dT = -log(q / p) / (log(q2 / q) / (T * 1e-7));
      double Tn = T + dT;
      if (!(Tn > a && Tn < b)) Tn = 0.5 * (T + (dT > 0 ? b : a));
      if (fabs(Tn - T) < 1e-10 * T) break;
      T = Tn;
    }
  }
  if (!(T > a && T < b)) T = 0.5 * (a + b);
  hz_sat cur;
  const hz_sat *g = guess && guess->T > 0 ? guess : NULL;
  for (int it = 0; it < 100; it++) {
    if (hz_sat_T(e, T, g, &cur, why, cap)) {
      /* near the critical point a start from the last state may fail: retry
       * from the ancillaries once */
      if (!g || hz_sat_T(e, T, NULL, &cur, why, cap)) return -1;
    }
    g = &cur;
    double F = log(cur.p / p);
    if (F == 0) {
      *s = cur;
      return 0;
    }
    if (F > 0)
      b = T;
    else
      a = T;
    double slope = (cur.hV - cur.hL) / (T * (1 / cur.rhoV - 1 / cur.rhoL) * cur.p);
    double Tn = T - F / slope;
    if (!(Tn > a && Tn < b)) Tn = 0.5 * (a + b);
    if (fabs(Tn - T) <= 1e-14 * T) {
      *s = cur;
      if (Tn != T && hz_sat_T(e, Tn, &cur, s, why, cap)) *s = cur;
      return 0;
    }
    T = Tn;
  }
  snprintf(why, cap, "%s: saturation at p = %.9g Pa did not converge", f->name, p);
  return -1;
}

/* The root of p(rho) = p on [lo, hi], where p(lo) <= p <= p(hi): Newton's
 * method kept inside the bracket by bisection. */
static double rho_bracketed(const hz_eos *e, double p, double T, double lo, double hi,
                            double x) {
  if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
  for (int it = 0; it < 200; it++) {
    double dp, F = hz_p(e, x, T, &dp) - p;
    if (F == 0) return x;
    if (F < 0)
      lo = x;
    else
      hi = x;
    double xn = x - F / dp;
    if (!(dp > 0) || !(xn > lo && xn < hi)) xn = 0.5 * (lo + hi);
    if (fabs(xn - x) <= 1e-15 * x || hi - lo <= 4e-16 * hi) return xn;
    x = xn;
  }
  return x;
}

int hz_rho_pT(const hz_eos *e, double p, double T, double rho0, double *rho, char *why,
              size_t cap) {
  const hz_fluid *f = e->f;
  if (!(p > 0) || !(T > 0) || !isfinite(p) || !isfinite(T)) {
    snprintf(why, cap, "%s: p = %.9g Pa, T = %.9g K is not a state", f->name, p, T);
    return -1;
  }
  double lo = 0, hi;
  if (T < e->Tc && T >= f->T_triple) {
    hz_sat s;
    if (hz_sat_T(e, T, NULL, &s, why, cap)) return -1;
    if (p < s.p) { /* vapour: p(rho) rises from 0 to psat at rhoV */
      *rho = rho_bracketed(e, p, T, 0, s.rhoV, rho0 > 0 ? rho0 : p / (e->R * T));
      return 0;
    }
    lo = s.rhoL;
    hi = s.rhoL * 1.02;
  } else {
    hi = fmax(2 * e->rhoc, p / (e->R * T) * 1.5);
  }
  for (int k = 0; hz_p(e, hi, T, NULL) < p; k++) {
    if (k > 200) {
      snprintf(why, cap, "%s: p = %.9g Pa, T = %.9g K: no density found", f->name, p, T);
      return -1;
    }
    lo = hi;
    hi *= 1.05;
  }
  *rho = rho_bracketed(e, p, T, lo, hi, rho0 > 0 ? rho0 : 0.5 * (lo + hi));
  return 0;
}

static void single_phase(const hz_eos *e, double rho, double T, hz_state *st) {
  hz_props pr;
  hz_eval(e, rho, T, &pr);
  st->p = pr.p, st->T = T, st->rho = rho, st->h = pr.h, st->s = pr.s, st->u = pr.u;
  st->cp = pr.cp, st->cv = pr.cv, st->w = pr.w;
  int vap;
  if (T < e->Tc) {
    hz_sat s;
    char why[8];
    vap = hz_sat_T(e, T, NULL, &s, why, sizeof why) ? rho < e->rhoc : pr.p < s.p;
  } else {
    vap = rho < e->rhoc;
  }
  st->x = vap ? 1 : 0;
  st->phase = vap;
}

static int out_of_range(const hz_eos *e, double p, double T, char *why, size_t cap) {
  const hz_fluid *f = e->f;
  if (!(p > 0 && p <= f->p_max) || !isfinite(p)) {
    snprintf(why, cap, "%s: p = %.9g Pa is outside (0, %.9g Pa] (the equation's range)", f->name,
             p, f->p_max);
    return -1;
  }
  if (!(T >= f->T_triple && T <= f->T_max)) {
    snprintf(why, cap, "%s: p = %.9g Pa, T = %.9g K: T is outside [%.9g K, %.9g K]", f->name, p,
             T, f->T_triple, f->T_max);
    return -1;
  }
  return 0;
}

int hz_state_pT(const hz_eos *e, double p, double T, hz_state *st, char *why, size_t cap) {
  double rho;
  if (out_of_range(e, p, T, why, cap) || hz_rho_pT(e, p, T, 0, &rho, why, cap)) return -1;
  single_phase(e, rho, T, st);
  return 0;
}

static void mixture(const hz_sat *s, double x, hz_state *st) {
  double v = (1 - x) / s->rhoL + x / s->rhoV;
  st->p = s->p, st->T = s->T, st->rho = 1 / v, st->x = x, st->phase = 2;
  st->h = s->hL + x * (s->hV - s->hL);
  st->s = s->sL + x * (s->sV - s->sL);
  st->u = s->uL + x * (s->uV - s->uL);
  st->cp = st->cv = st->w = 0;
}

int hz_state_Tx(const hz_eos *e, double T, double x, hz_state *st, char *why, size_t cap) {
  hz_sat s;
  if (!(x >= 0 && x <= 1)) {
    snprintf(why, cap, "%s: quality x = %.9g is outside [0, 1]", e->f->name, x);
    return -1;
  }
  if (hz_sat_T(e, T, NULL, &s, why, cap)) return -1;
  mixture(&s, x, st);
  return 0;
}

/* T of the single-phase state at p where prop (h or s) takes the value v,
 * between Ta and Tb: Newton's method on T (slope cp or cp/T) kept inside the
 * bracket. which = 0 for h, 1 for s. */
static int solve_T(const hz_eos *e, double p, double v, int which, double Ta, double Tb,
                   hz_state *st, char *why, size_t cap) {
  const hz_fluid *f = e->f;
  const char *nm = which ? "s" : "h", *un = which ? "J/(kg K)" : "J/kg";
  hz_state A, B;
  if (hz_state_pT(e, p, Ta, &A, why, cap) || hz_state_pT(e, p, Tb, &B, why, cap)) return -1;
  double fa = (which ? A.s : A.h) - v, fb = (which ? B.s : B.h) - v;
  if (fa > 0) {
    snprintf(why, cap, "%s: p = %.9g Pa, %s = %.9g %s: below %.9g K (the lowest T of the range)",
             f->name, p, nm, v, un, Ta);
    return -1;
  }
  if (fb < 0) {
    snprintf(why, cap, "%s: p = %.9g Pa, %s = %.9g %s: above %.9g K (the highest T of the range)",
             f->name, p, nm, v, un, Tb);
    return -1;
  }
  double T = Ta + (Tb - Ta) * (-fa) / (fb - fa), rho = 0;
  for (int it = 0; it < 200; it++) {
    if (hz_rho_pT(e, p, T, rho, &rho, why, cap)) return -1;
    hz_props pr;
    hz_eval(e, rho, T, &pr);
    double F = (which ? pr.s : pr.h) - v, d = which ? pr.cp / T : pr.cp;
    if (F < 0)
      Ta = T;
    else
      Tb = T;
    double Tn = T - F / d;
    if (!(d > 0) || !(Tn > Ta && Tn < Tb)) Tn = 0.5 * (Ta + Tb);
    if (F == 0 || fabs(Tn - T) <= 1e-14 * T || Tb - Ta <= 4e-16 * Tb) {
      single_phase(e, rho, T, st);
      return 0;
    }
    T = Tn;
  }
  snprintf(why, cap, "%s: p = %.9g Pa, %s = %.9g %s: no convergence", f->name, p, nm, v, un);
  return -1;
}

static int state_p_prop(const hz_eos *e, double p, double v, int which, hz_state *st,
                        char *why, size_t cap) {
  const hz_fluid *f = e->f;
  if (out_of_range(e, p, f->T_triple, why, cap)) return -1;
  hz_sat lo;
  if (hz_sat_T(e, f->T_triple, NULL, &lo, why, cap)) return -1;
  if (p < e->pc && p >= lo.p) {
    hz_sat s;
    if (hz_sat_p(e, p, NULL, &s, why, cap)) return -1;
    double L = which ? s.sL : s.hL, V = which ? s.sV : s.hV;
    if (v >= L && v <= V) {
      mixture(&s, (v - L) / (V - L), st);
      return 0;
    }
    if (v < L) return solve_T(e, p, v, which, f->T_triple, s.T, st, why, cap);
    return solve_T(e, p, v, which, s.T, f->T_max, st, why, cap);
  }
  return solve_T(e, p, v, which, f->T_triple, f->T_max, st, why, cap);
}

int hz_state_ph(const hz_eos *e, double p, double h, hz_state *st, char *why, size_t cap) {
  return state_p_prop(e, p, h, 0, st, why, cap);
}
int hz_state_ps(const hz_eos *e, double p, double s, hz_state *st, char *why, size_t cap) {
  return state_p_prop(e, p, s, 1, st, why, cap);
}

/* The equilibrium internal energy at (rho, T): a mixture inside the dome,
 * else the single phase. */
static int u_equilibrium(const hz_eos *e, double rho, double T, double *u, char *why,
                         size_t cap) {
  if (T < e->Tc) {
    hz_sat s;
    if (hz_sat_T(e, T, NULL, &s, why, cap)) return -1;
    if (rho > s.rhoV && rho < s.rhoL) {
      double x = (1 / rho - 1 / s.rhoL) / (1 / s.rhoV - 1 / s.rhoL);
      *u = s.uL + x * (s.uV - s.uL);
      return 0;
    }
  }
  hz_props pr;
  hz_eval(e, rho, T, &pr);
  *u = pr.u;
  return 0;
}

/* (rho, u): u rises with T at fixed density (cv > 0, also across the dome):
 * T is the root of u(rho, T) = u on [T_triple, T_max] by Brent's method. */
int hz_state_rhou(const hz_eos *e, double rho, double u, hz_state *st, char *why, size_t cap) {
  const hz_fluid *f = e->f;
  if (!(rho > 0) || !isfinite(rho) || !isfinite(u)) {
    snprintf(why, cap, "%s: rho = %.9g kg/m3, u = %.9g J/kg is not a state", f->name, rho, u);
    return -1;
  }
  double a = f->T_triple, b = f->T_max, fa, fb;
  if (u_equilibrium(e, rho, a, &fa, why, cap) || u_equilibrium(e, rho, b, &fb, why, cap))
    return -1;
  fa -= u, fb -= u;
  if (fa > 0 || fb < 0) {
    snprintf(why, cap, "%s: rho = %.9g kg/m3, u = %.9g J/kg: %s %.9g K", f->name, rho, u,
             fa > 0 ? "below" : "above", fa > 0 ? a : b);
    return -1;
  }
  double c = a, fc = fa, d = b - a, m;
  for (int it = 0; it < 300; it++) { /* Brent's method */
    if ((fb > 0) == (fc > 0)) c = a, fc = fa, d = b - a;
    if (fabs(fc) < fabs(fb)) a = b, b = c, c = a, fa = fb, fb = fc, fc = fa;
    double tol = 1e-15 * fabs(b);
    m = 0.5 * (c - b);
    if (fabs(m) <= tol || fb == 0) break;
    double step = m;
    if (fabs(d) >= tol && fabs(fa) > fabs(fb)) {
      double s = fb / fa, P, Q;
      if (a == c) {
        P = 2 * m * s, Q = 1 - s;
      } else {
        double q = fa / fc, r = fb / fc;
        P = s * (2 * m * q * (q - r) - (b - a) * (r - 1));
        Q = (q - 1) * (r - 1) * (s - 1);
      }
      if (P > 0) Q = -Q;
      P = fabs(P);
      if (2 * P < fmin(3 * m * Q - fabs(tol * Q), fabs(d * Q))) step = P / Q;
    }
    d = step;
    a = b, fa = fb;
    b += fabs(step) > tol ? step : copysign(tol, m);
    if (u_equilibrium(e, rho, b, &fb, why, cap)) return -1;
    fb -= u;
  }
  double T = b;
  if (T < e->Tc) {
    hz_sat s;
    if (hz_sat_T(e, T, NULL, &s, why, cap)) return -1;
    if (rho > s.rhoV && rho < s.rhoL) {
      mixture(&s, (1 / rho - 1 / s.rhoL) / (1 / s.rhoV - 1 / s.rhoL), st);
      return 0;
    }
  }
  single_phase(e, rho, T, st);
  return 0;
}

int hz_newton_ph(const hz_eos *e, double p, double h, double *rho, double *T) {
  double r = *rho, t = *T;
  for (int it = 0; it < 40; it++) {
    hz_props pr;
    hz_eval(e, r, t, &pr);
    double F1 = pr.p - p, F2 = pr.h - h;
    double det = pr.p_rho * pr.h_T - pr.p_T * pr.h_rho;
    if (!(fabs(det) > 0)) return -1;
    double dr = (-F1 * pr.h_T + F2 * pr.p_T) / det, dt = (-F2 * pr.p_rho + F1 * pr.h_rho) / det;
    double k = 1;
    if (fabs(dr) > 0.2 * r) k = 0.2 * r / fabs(dr);
    if (fabs(dt) * k > 0.1 * t) k = 0.1 * t / fabs(dt);
    r += k * dr, t += k * dt;
    if (!(r > 0 && t > 0)) return -1;
    /* a full step below 1e-8: Newton's quadratic convergence leaves an
     * error of the order of its square */
    if (k == 1 && fabs(dr) <= 1e-8 * r && fabs(dt) <= 1e-8 * t) {
      if (!(pr.p_rho > 0)) return -1; /* at the last iterate, a step of 1e-8 away */
      *rho = r, *T = t;
      return 0;
    }
  }
  return -1;
}
