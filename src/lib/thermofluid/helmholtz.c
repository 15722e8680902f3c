/* helmholtz.c - the Helmholtz-energy evaluator and the properties on it
 * (helmholtz.h): alpha and its derivatives, p, h, s, u, cv, cp, w and the
 * derivatives a Newton step needs, the equation's critical point and the
 * reference-state offsets. The phase equilibrium and the state solvers are
 * in helmholtz_solve.c. */
#include <math.h>
#include <stdio.h>
#include "lib/thermofluid/helmholtz.h"

/* x^k for k >= 0 by squaring */
static double ipow(double x, int k) {
  double r = 1;
  for (; k; k >>= 1, x *= x)
    if (k & 1) r *= x;
  return r;
}

/* Span and Wagner's non-analytic terms (their Table 32's derivatives), added
 * to r. Their second density derivative divides by delta - 1: at delta = 1
 * exactly the limit is taken 1e-9 away. */
static void nonanalytic_terms(const hz_fluid *f, double d, double t, hz_alpha *r) {
  for (int i = 0; i < f->nna; i++) {
    const hz_nonanalytic *q = &f->na[i];
    double dm = d - 1;
    if (fabs(dm) < 1e-9) dm = 1e-9;
    double tm = t - 1, qq = dm * dm, ib = 1 / q->beta, lq = log(qq);
    double qb1 = exp((0.5 * ib - 1) * lq); /* q^(1/(2 beta) - 1) */
    double qa = exp(q->a * lq), qa1 = qa / qq, qa2 = qa1 / qq;
    double th = (1 - t) + q->A * qb1 * qq;
    double Dl = th * th + q->B * qa;
    double Dd = dm * (q->A * th * 2 * ib * qb1 + 2 * q->B * q->a * qa1);
    double Ddd = Dd / dm + qq * (4 * q->B * q->a * (q->a - 1) * qa2 +
                                 2 * q->A * q->A * ib * ib * qb1 * qb1 +
                                 q->A * th * 4 * ib * (0.5 * ib - 1) * qb1 / qq);
    double Db = pow(Dl, q->b), Db1 = Db / Dl, Db2 = Db1 / Dl;
    double Dbd = q->b * Db1 * Dd;
    double Dbdd = q->b * (Db1 * Ddd + (q->b - 1) * Db2 * Dd * Dd);
    double Dbt = -2 * th * q->b * Db1;
    double Dbtt = 2 * q->b * Db1 + 4 * th * th * q->b * (q->b - 1) * Db2;
    double Dbdt = -q->A * q->b * 2 * ib * Db1 * dm * qb1 - 2 * th * q->b * (q->b - 1) * Db2 * Dd;
    double ps = exp(-q->C * qq - q->D * tm * tm);
    double psd = -2 * q->C * dm * ps, psdd = (2 * q->C * qq - 1) * 2 * q->C * ps;
    double pst = -2 * q->D * tm * ps, pstt = (2 * q->D * tm * tm - 1) * 2 * q->D * ps;
    double psdt = 4 * q->C * q->D * dm * tm * ps;
    r->a += q->n * Db * d * ps;
    r->a_d += q->n * (Db * (ps + d * psd) + Dbd * d * ps);
    r->a_dd += q->n * (Db * (2 * psd + d * psdd) + 2 * Dbd * (ps + d * psd) + Dbdd * d * ps);
    r->a_t += q->n * d * (Dbt * ps + Db * pst);
    r->a_tt += q->n * d * (Dbtt * ps + 2 * Dbt * pst + Db * pstt);
    r->a_dt += q->n * (Db * (pst + d * psdt) + d * Dbd * pst + Dbt * (ps + d * psd) + Dbdt * d * ps);
  }
}

/* Power and Gaussian terms: a power term with an integer d and a t that is
 * a multiple of 1/4 (all of R134a's and R744's) is a product of powers of
 * delta, tau^(1/4) and exp(-delta^l) computed once per call; any other
 * term costs one exp. The sums are taken with the factors 1/delta, 1/tau
 * applied once at the end. */
void hz_alpha_r(const hz_fluid *f, double d, double t, hz_alpha *r) {
  double ld = log(d), lt = log(t), dl[16], el[8] = {1, 0, 0, 0, 0, 0, 0, 0};
  double tq = sqrt(sqrt(t)), itq = 1 / tq;
  dl[0] = 1;
  for (int k = 1; k < 16; k++) dl[k] = dl[k - 1] * d;
  double a = 0, ad = 0, add = 0, at = 0, att = 0, adt = 0;
  for (int i = 0; i < f->npw; i++) {
    const hz_power *p = &f->pw[i];
    double E = p->l ? dl[p->l] : 0.0, lE = p->l * E, v;
    int di = (int)p->d, k = (int)(4 * p->t);
    if (di == p->d && di >= 0 && di < 16 && k == 4 * p->t && k > -64 && k < 256) {
      if (p->l && el[p->l] == 0) el[p->l] = exp(-E);
      v = p->n * dl[di] * (k >= 0 ? ipow(tq, k) : ipow(itq, -k)) * el[p->l];
    } else {
      v = p->n * exp(p->d * ld + p->t * lt - E);
    }
    double g = p->d - lE; /* delta dv/ddelta / v */
    a += v;
    ad += v * g;
    add += v * (g * (g - 1) - p->l * lE);
    at += v * p->t;
    att += v * p->t * (p->t - 1);
    adt += v * p->t * g;
  }
  for (int i = 0; i < f->nga; i++) {
    const hz_gauss *q = &f->ga[i];
    double x = d - q->eps, y = t - q->gam;
    double v = q->n * exp(q->d * ld + q->t * lt - q->eta * x * x - q->beta * y * y);
    double gd = q->d - 2 * q->eta * x * d, gt = q->t - 2 * q->beta * y * t; /* times delta, tau */
    a += v;
    ad += v * gd;
    add += v * (gd * gd - q->d - 2 * q->eta * d * d);
    at += v * gt;
    att += v * (gt * gt - q->t - 2 * q->beta * t * t);
    adt += v * gd * gt;
  }
  double id = 1 / d, it = 1 / t;
  r->a = a;
  r->a_d = ad * id;
  r->a_dd = add * id * id;
  r->a_t = at * it;
  r->a_tt = att * it * it;
  r->a_dt = adt * id * it;
  nonanalytic_terms(f, d, t, r);
}

void hz_alpha_0(const hz_eos *e, double d, double t, hz_alpha *o) {
  const hz_fluid *f = e->f;
  double a = log(d) + f->a1 + e->da1 + (f->a2 + e->da2) * t + f->c * log(t);
  double at = f->a2 + e->da2 + f->c / t, att = -f->c / (t * t);
  for (int i = 0; i < f->nip; i++) {
    double n = f->ip[i].n, k = f->ip[i].t, v = n * pow(t, k);
    a += v;
    at += v * k / t;
    att += v * k * (k - 1) / (t * t);
  }
  for (int i = 0; i < f->npl; i++) {
    double v = f->pl[i].v, u = f->pl[i].u, E = exp(-u * t), D = 1 - E;
    a += v * log(D);
    at += v * u * E / D;
    att -= v * u * u * E / (D * D);
  }
  o->a = a;
  o->a_d = 1 / d;
  o->a_dd = -1 / (d * d);
  o->a_t = at;
  o->a_tt = att;
  o->a_dt = 0;
}

void hz_eval(const hz_eos *e, double rho, double T, hz_props *pr) {
  double d = rho / e->rhor, t = e->f->Tr / T, R = e->R;
  hz_alpha r, o;
  hz_alpha_r(e->f, d, t, &r);
  hz_alpha_0(e, d, t, &o);
  double P = 1 + d * r.a_d;                       /* p / (rho R T) */
  double Pd = 1 + 2 * d * r.a_d + d * d * r.a_dd; /* dp/drho / (R T) */
  double Pt = 1 + d * r.a_d - d * t * r.a_dt;     /* dp/dT / (rho R) */
  double tt = t * t * (o.a_tt + r.a_tt);          /* -cv / R */
  pr->rho = rho;
  pr->T = T;
  pr->p = rho * R * T * P;
  pr->u = R * T * t * (o.a_t + r.a_t);
  pr->h = pr->u + R * T * P;
  pr->s = R * (t * (o.a_t + r.a_t) - o.a - r.a);
  pr->g = R * T * (1 + o.a + r.a + d * r.a_d);
  pr->cv = -R * tt;
  pr->cp = pr->cv + R * Pt * Pt / Pd;
  double w2 = R * T * (Pd - Pt * Pt / tt);
  pr->w = w2 > 0 ? sqrt(w2) : 0;
  pr->p_rho = R * T * Pd;
  pr->p_T = rho * R * Pt;
  pr->h_T = R * (Pt - tt);
  pr->h_rho = R * T / rho * (d * t * r.a_dt + d * r.a_d + d * d * r.a_dd);
}

double hz_p(const hz_eos *e, double rho, double T, double *p_rho) {
  double d = rho / e->rhor;
  hz_alpha r;
  hz_alpha_r(e->f, d, e->f->Tr / T, &r);
  if (p_rho) *p_rho = e->R * T * (1 + 2 * d * r.a_d + d * d * r.a_dd);
  return rho * e->R * T * (1 + d * r.a_d);
}

/* d(dp/drho)/ddelta by a central difference (for the critical point). */
static void crit_residual(const hz_fluid *f, double d, double t, double *F1, double *F2) {
  hz_alpha r;
  hz_alpha_r(f, d, t, &r);
  *F1 = 1 + 2 * d * r.a_d + d * d * r.a_dd;
  double hs = 1e-5, Jp, Jm;
  hz_alpha_r(f, d + hs, t, &r);
  Jp = 1 + 2 * (d + hs) * r.a_d + (d + hs) * (d + hs) * r.a_dd;
  hz_alpha_r(f, d - hs, t, &r);
  Jm = 1 + 2 * (d - hs) * r.a_d + (d - hs) * (d - hs) * r.a_dd;
  *F2 = (Jp - Jm) / (2 * hs);
}

/* The equation's critical point: dp/drho = d2p/drho2 = 0 (Newton's method
 * on (delta, tau) from the reducing point, derivatives by differences).
 * An equation with non-analytic terms has it at the reducing point by
 * construction. */
static int critical_point(const hz_fluid *f, double *dc, double *tc) {
  double d = 1, t = 1;
  if (f->nna) {
    *dc = d, *tc = t;
    return 0;
  }
  for (int it = 0; it < 50; it++) {
    double F1, F2, a1, a2, b1, b2, e = 1e-6;
    crit_residual(f, d, t, &F1, &F2);
    crit_residual(f, d + e, t, &a1, &a2);
    crit_residual(f, d, t + e, &b1, &b2);
    double j11 = (a1 - F1) / e, j21 = (a2 - F2) / e, j12 = (b1 - F1) / e, j22 = (b2 - F2) / e;
    double det = j11 * j22 - j12 * j21;
    if (!(fabs(det) > 0)) return -1;
    double dd = (-F1 * j22 + F2 * j12) / det, dt = (-F2 * j11 + F1 * j21) / det;
    if (fabs(dd) > 0.05) dt *= 0.05 / fabs(dd), dd = copysign(0.05, dd);
    d += dd, t += dt;
    if (fabs(dd) < 1e-10 && fabs(dt) < 1e-10) {
      *dc = d, *tc = t;
      return 0;
    }
  }
  return -1;
}

int hz_init(hz_eos *e, const hz_fluid *f, int ref, char *why, size_t cap) {
  e->f = f;
  e->R = f->Rm / f->M;
  e->rhor = f->rhor * f->M;
  e->da1 = e->da2 = 0;
  double dc, tc;
  if (critical_point(f, &dc, &tc)) {
    snprintf(why, cap, "%s: no critical point found on the equation of state", f->name);
    return -1;
  }
  e->Tc = f->Tr / tc;
  e->rhoc = dc * e->rhor;
  e->pc = hz_p(e, e->rhoc, e->Tc, NULL);
  if (ref == HZ_REF_IIR) {
    hz_sat s;
    if (hz_sat_T(e, 273.15, NULL, &s, why, cap)) return -1;
    e->da2 = (200e3 - s.hL) / (e->R * f->Tr);
    e->da1 = (s.sL - 1e3) / e->R;
  }
  hz_props c;
  hz_eval(e, e->rhoc, e->Tc, &c);
  e->hc = c.h, e->sc = c.s, e->uc = c.u;
  return 0;
}
