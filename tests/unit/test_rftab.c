/* test_rftab.c - the refrigerants' (p, h) spline tables (rftab*.c) against
 * their equations of state (helmholtz*.c): the accuracy docs/media.md
 * states, measured over dense grids (every cell's centre of every patch,
 * and deterministic random states, single phase and two-phase); continuity
 * across the dome edges; the lane forms bit for bit; the derivatives; the
 * saturation line; h(p, T), h(p, s); the (rho, u) inverse on and next to
 * every phase boundary; the refusals. Prints the measured errors. */
#include <string.h>
#include "check.h"
#include "lib/thermofluid/rftab.h"

static unsigned long long rng = 88172645463325252ULL;
static double uni(void) { /* xorshift64, [0, 1) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

/* The near-critical neighbourhood the accuracy statement leaves out. */
static int near_critical(const rft_table *t, double p, double T) {
  return fabs(p / t->pc - 1) < 0.005 && fabs(T / t->Tc - 1) < 0.02;
}

typedef struct {
  double T, rho, s, x; /* largest errors: relative; s relative to max(|s|, 1 kJ/(kg K)); x absolute */
  double Tn, rhon, sn; /* the same inside the near-critical neighbourhood */
  int n, nn;
} errs;

/* Table against equation at (p, h). */
static void compare(const rft_table *t, double p, double h, errs *E) {
  rft_props o;
  if (rft_ph(t, p, h, &o)) {
    CHECK(0);
    fprintf(stderr, "%s: refused p = %.17g, h = %.17g\n", t->name, p, h);
    return;
  }
  const hz_eos *e = &t->eos;
  hz_state st;
  char why[256];
  double rho = o.rho, T = o.T;
  if (o.phase != 2 && hz_newton_ph(e, p, h, &rho, &T) == 0) {
    hz_props pr;
    hz_eval(e, rho, T, &pr);
    st.T = T, st.rho = rho, st.s = pr.s, st.x = o.x;
  } else if (hz_state_ph(e, p, h, &st, why, sizeof why)) {
    /* the equation's saturation does not converge within 1e-7 K of its
     * critical point: states at p within 1e-6 of pc are left out */
    if (!(fabs(p / t->pc - 1) < 1e-6)) {
      CHECK(0);
      fprintf(stderr, "%s\n", why);
    }
    return;
  }
  double dT = fabs(o.T - st.T) / st.T, dr = fabs(o.rho - st.rho) / st.rho;
  double ds = fabs(o.s - st.s) / fmax(fabs(st.s), 1e3), dx = fabs(o.x - st.x);
  if (near_critical(t, p, st.T)) {
    E->Tn = fmax(E->Tn, dT), E->rhon = fmax(E->rhon, dr), E->sn = fmax(E->sn, ds), E->nn++;
  } else {
    E->T = fmax(E->T, dT), E->rho = fmax(E->rho, dr), E->s = fmax(E->s, ds), E->n++;
    E->x = fmax(E->x, dx);
  }
}

/* The boundaries of patch P at p. */
static void bounds(const rft_table *t, const rft_patch *P, double p, double *lo, double *hi) {
  rft_sat s;
  double a, b;
  CHECK(rft_h_bounds(t, p, &a, &b) == 0);
  if (P == &t->S) {
    *lo = a, *hi = b;
    return;
  }
  CHECK(rft_sat_p(t, p, &s) == 0);
  *lo = P == &t->L ? a : s.hV;
  *hi = P == &t->L ? s.hL : b;
}

/* Every cell's centre and 4 random states per cell of each patch, and
 * random two-phase states. */
static void accuracy(const rft_table *t) {
  errs E = {0};
  const rft_patch *P[3] = {&t->L, &t->V, &t->S};
  for (int k = 0; k < 3; k++) {
    const rft_patch *Q = P[k];
    for (int i = 0; i + 1 < Q->z->n; i++)
      for (int j = 0; j + 1 < Q->e.n; j++)
        for (int r = 0; r < 5; r++) {
          double fz = r ? uni() : 0.5, fe = r ? uni() : 0.5;
          double z = Q->z->x[i] + fz * (Q->z->x[i + 1] - Q->z->x[i]);
          double eta = Q->e.x[j] + fe * (Q->e.x[j + 1] - Q->e.x[j]);
          double p = k < 2 ? rft_p_sub(t, z) : t->pc * exp(z * z), lo, hi;
          if (p < t->p_lo || p > t->p_hi) continue;
          bounds(t, Q, p, &lo, &hi);
          compare(t, p, lo + eta * (hi - lo), &E);
        }
  }
  for (int r = 0; r < 4000; r++) { /* two-phase */
    double z = uni() * t->zs.x[t->zs.n - 1], p = rft_p_sub(t, z);
    if (p < t->p_lo) continue;
    rft_sat s;
    CHECK(rft_sat_p(t, p, &s) == 0);
    compare(t, p, s.hL + uni() * (s.hV - s.hL), &E);
  }
  printf("%s: %d states: T %.2e, rho %.2e, s %.2e, x %.2e; %d near the critical point: T %.2e, "
         "rho %.2e, s %.2e\n", t->name, E.n, E.T, E.rho, E.s, E.x, E.nn, E.Tn, E.rhon, E.sn);
  CHECK(E.T < 1e-6 && E.rho < 1e-6 && E.s < 1e-6 && E.x < 1e-6);
  CHECK(E.Tn < 2e-5 && E.rhon < 2e-5 && E.sn < 2e-5);
  CHECK(E.n > 200000);
}

/* The saturation line against the equation's; psat(Tsat(p)) = p. */
static void saturation(const rft_table *t) {
  double worst = 0;
  for (int r = 0; r < 2000; r++) {
    double z = uni() * t->zs.x[t->zs.n - 1], p = rft_p_sub(t, z);
    if (p < t->p_lo) continue;
    rft_sat s;
    hz_sat q;
    char why[256];
    CHECK(rft_sat_p(t, p, &s) == 0);
    if (hz_sat_p(&t->eos, p, NULL, &q, why, sizeof why)) continue; /* within 1e-7 K of Tc */
    double e = fmax(fabs(s.T - q.T) / q.T, fmax(fabs(s.rhoL - q.rhoL) / q.rhoL,
                                                  fabs(s.rhoV - q.rhoV) / q.rhoV));
    e = fmax(e, fmax(fabs(s.hL - q.hL), fabs(s.hV - q.hV)) / fabs(q.hV));
    if (!near_critical(t, p, q.T)) worst = fmax(worst, e);
    double pp;
    CHECK(rft_psat(t, s.T, &pp) == 0);
    CHECK_NEAR(pp, p, 1e-10 * p);
  }
  printf("%s: saturation line: %.2e\n", t->name, worst);
  CHECK(worst < 1e-6);
  rft_sat s;
  double pp;
  CHECK(rft_sat_p(t, t->pc * 1.0001, &s) == -1);
  CHECK(rft_sat_p(t, t->p_lo * 0.99, &s) == -1);
  CHECK(rft_psat(t, t->Tc + 1, &pp) == -1);
}

/* Across the dome edges the properties are continuous: the single-phase
 * patch's edge line is the saturation line the mixtures use. */
static void continuity(const rft_table *t) {
  double worst = 0;
  for (int r = 0; r < 3000; r++) {
    double z = (0.001 + uni()) / 1.001 * t->zs.x[t->zs.n - 1], p = rft_p_sub(t, z);
    if (p < t->p_lo) continue;
    rft_sat s;
    CHECK(rft_sat_p(t, p, &s) == 0);
    for (int side = 0; side < 2; side++) { /* the edge itself and the next double */
      double h = side ? s.hV : s.hL, h2 = side ? nextafter(h, 0) : nextafter(h, 1e300);
      rft_props a, b;
      CHECK(rft_ph(t, p, h, &a) == 0 && rft_ph(t, p, h2, &b) == 0);
      CHECK(a.phase != b.phase && (a.phase == 2 || b.phase == 2));
      double e = fmax(fabs(a.T - b.T) / a.T, fmax(fabs(a.rho - b.rho) / a.rho,
                                                  fabs(a.s - b.s) / fmax(fabs(a.s), 1e3)));
      worst = fmax(worst, e);
    }
  }
  printf("%s: across the dome edges (one double apart): %.2e\n", t->name, worst);
  CHECK(worst < 1e-11);
}

/* The lane forms give the scalar calls' bits: states of every kind, out of
 * range and NaN included, in calls of 1 to 64 states. */
static void lanes(const rft_table *t) {
  enum { N = 3000 };
  static double p[N], h[N], T[N];
  static rft_props o[N], od[N];
  for (int i = 0; i < N; i++) {
    p[i] = exp(log(t->p_lo * 0.9) + uni() * log(t->p_hi * 1.1 / (t->p_lo * 0.9)));
    double lo, hi;
    if (rft_h_bounds(t, p[i], &lo, &hi)) lo = 1e5, hi = 5e5;
    h[i] = lo - 0.05 * (hi - lo) + 1.1 * uni() * (hi - lo);
    if (i % 97 == 0) h[i] = NAN;
    if (i % 89 == 0) p[i] = NAN;
  }
  size_t at = 0, n = 1;
  while (at < N) {
    if (at + n > N) n = N - at;
    rft_T_ph_lanes(t, n, p + at, h + at, T + at);
    rft_ph_lanes(t, n, p + at, h + at, 0, o + at);
    rft_ph_lanes(t, n, p + at, h + at, 1, od + at);
    at += n;
    n = n % 64 + 1;
  }
  int same = 0;
  for (int i = 0; i < N; i++) {
    rft_props q, qd;
    double Ts = rft_T_ph(t, p[i], h[i]);
    (void)rft_ph(t, p[i], h[i], &q);
    (void)rft_ph_d(t, p[i], h[i], &qd);
    const double a[] = {q.T, q.rho, q.s, q.x, q.drho_dp, q.drho_dh, q.u},
                 b[] = {o[i].T, o[i].rho, o[i].s, o[i].x, o[i].drho_dp, o[i].drho_dh, o[i].u},
                 c[] = {qd.T, qd.rho, qd.s, qd.x, qd.drho_dp, qd.drho_dh, qd.u},
                 d[] = {od[i].T, od[i].rho, od[i].s, od[i].x, od[i].drho_dp, od[i].drho_dh,
                        od[i].u};
    same += !memcmp(&Ts, &T[i], sizeof Ts) && !memcmp(a, b, sizeof a) &&
            !memcmp(c, d, sizeof c) && q.phase == o[i].phase && qd.phase == od[i].phase;
  }
  CHECK(same == N);
}

/* drho/dp and drho/dh against differences of the table. */
static void derivatives(const rft_table *t) {
  int n = 0;
  for (int r = 0; r < 3000; r++) {
    double p = exp(log(t->p_lo) + uni() * log(t->p_hi / t->p_lo)), lo, hi;
    CHECK(rft_h_bounds(t, p, &lo, &hi) == 0);
    double h = lo + (0.02 + 0.96 * uni()) * (hi - lo);
    rft_props o, a, b, c, d;
    double dp = 1e-5 * p, dh = 1e-5 * (hi - lo);
    if (rft_ph_d(t, p, h, &o) || rft_ph(t, p - dp, h, &a) || rft_ph(t, p + dp, h, &b) ||
        rft_ph(t, p, h - dh, &c) || rft_ph(t, p, h + dh, &d))
      continue;
    if (a.phase != b.phase || c.phase != d.phase || a.phase != o.phase || c.phase != o.phase ||
        fabs(p / t->pc - 1) < 0.01)
      continue; /* across an edge or at pc */
    n++;
    /* the differences' truncation, and rho's rounding (1e-13) over 2 dp */
    CHECK_NEAR(o.drho_dp, (b.rho - a.rho) / (2 * dp), 1e-3 * fabs(o.drho_dp) + 1e-13 * o.rho / dp);
    CHECK_NEAR(o.drho_dh, (d.rho - c.rho) / (2 * dh), 1e-3 * fabs(o.drho_dh) + 1e-13 * o.rho / dh);
    CHECK_NEAR(o.u, h - p / o.rho, 1e-9 * fabs(h));
  }
  CHECK(n > 2000);
}

/* h(p, T) and h(p, s) give T and s back. */
static void inverses(const rft_table *t) {
  for (int r = 0; r < 2000; r++) {
    double p = exp(log(t->p_lo) + uni() * log(t->p_hi / t->p_lo));
    double T = t->T_lo + uni() * (t->T_hi - t->T_lo), h, s;
    rft_props o;
    if (p < t->pc) {
      rft_sat q;
      CHECK(rft_sat_p(t, p, &q) == 0);
      if (fabs(T - q.T) < 1e-6) continue;
    }
    CHECK(rft_h_pT(t, p, T, &h) == 0);
    CHECK(rft_ph(t, p, h, &o) == 0);
    CHECK_NEAR(o.T, T, 1e-10 * T);
    s = o.s;
    double lo, hi;
    CHECK(rft_h_bounds(t, p, &lo, &hi) == 0);
    h = lo + uni() * (hi - lo);
    CHECK(rft_ph(t, p, h, &o) == 0);
    s = o.s;
    double h2;
    CHECK(rft_h_ps(t, p, s, &h2) == 0);
    CHECK_NEAR(h2, h, 1e-9 * fabs(h) + 1e-6);
  }
  double h;
  CHECK(rft_h_pT(t, t->p_lo * 2, t->T_lo - 1, &h) == -1);
  CHECK(rft_h_pT(t, t->p_hi * 2, 300, &h) == -1);
}

/* (rho, u) -> (p, h) -> (rho, u): on the saturation line exactly, next to
 * it on both sides, inside the dome, at the range's edges, densely in p. */
static void rho_u_check(const rft_table *t, double p, double h, double *worst) {
  rft_props o;
  if (rft_ph_d(t, p, h, &o)) return;
  double p2, h2;
  if (rft_from_rho_u(t, o.rho, o.u, &p2, &h2)) {
    CHECK(0);
    char why[300];
    rft_why_rho_u(t, o.rho, o.u, why, sizeof why);
    fprintf(stderr, "%s: p = %.17g, h = %.17g: %s\n", t->name, p, h, why);
    return;
  }
  rft_props b;
  CHECK(rft_ph_d(t, p2, h2, &b) == 0);
  /* within 1e-5 of pc the table's near-critical interpolation error lets
   * neighbouring states share (rho, u) to 1e-8. Elsewhere rho to 1e-11 plus
   * what 1e-12 in p (its rounding through z) moves it at constant u: a
   * mixture near x = 0 at low p has drho/dp large (1e-12 in p is 1e-10 in
   * rho). */
  int nc = fabs(p / t->pc - 1) < 1e-5;
  double sens = fmax(fabs(o.drho_dp + o.drho_dh / o.rho), fabs(b.drho_dp + b.drho_dh / b.rho));
  CHECK_NEAR(b.rho, o.rho, (nc ? 1e-7 : 1e-11) * o.rho + 1e-12 * p * sens);
  CHECK_NEAR(b.u, o.u, (nc ? 1e-7 : 1e-11) * fabs(o.u) + 1e-6);
  double e = fmax(fabs(p2 - p) / p, fabs(h2 - h) / fabs(h));
  if (!nc) *worst = fmax(*worst, e);
  if (!(e < (nc ? 1e-5 : 1e-7))) {
    CHECK(0);
    fprintf(stderr, "%s: (rho, u) of p = %.17g, h = %.17g gave p = %.17g, h = %.17g\n", t->name,
            p, h, p2, h2);
  }
}

static void rho_u(const rft_table *t) {
  double worst = 0;
  int n = 600;
  for (int i = 0; i < n; i++) { /* below pc, along the dome */
    double z = t->zs.x[t->zs.n - 1] * (i + 0.5) / n, p = rft_p_sub(t, z);
    rft_sat s;
    if (p < t->p_lo || rft_sat_p(t, p, &s)) continue;
    const double hs[] = {s.hL,
                         s.hV,
                         nextafter(s.hL, 0),
                         nextafter(s.hL, 1e300),
                         nextafter(s.hV, 0),
                         nextafter(s.hV, 1e300),
                         s.hL * (1 - 1e-9),
                         s.hL * (1 + 1e-9),
                         s.hV * (1 - 1e-9),
                         s.hV * (1 + 1e-9),
                         s.hL - 1,
                         s.hV + 1,
                         s.hL + 1e-6 * (s.hV - s.hL),
                         s.hL + 0.5 * (s.hV - s.hL),
                         s.hV - 1e-6 * (s.hV - s.hL)};
    for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++) rho_u_check(t, p, hs[k], &worst);
  }
  for (int r = 0; r < 20000; r++) { /* anywhere in range, single phase and two-phase */
    double p = exp(log(t->p_lo) + uni() * log(t->p_hi / t->p_lo)), lo, hi;
    CHECK(rft_h_bounds(t, p, &lo, &hi) == 0);
    rho_u_check(t, p, lo + uni() * (hi - lo), &worst);
  }
  for (int i = 0; i <= 200; i++) { /* along the range's edges, and across pc */
    double p = exp(log(t->p_lo) + i / 200.0 * log(t->p_hi / t->p_lo)), lo, hi;
    if (rft_h_bounds(t, p, &lo, &hi)) continue;
    rho_u_check(t, p, lo, &worst);
    rho_u_check(t, p, hi, &worst);
    rho_u_check(t, t->pc * (1 + (i - 100) * 1e-6), t->hc + (i - 100) * 50.0, &worst);
  }
  printf("%s: (rho, u) round trips: p, h to %.2e (within 1e-5 of pc: 1e-5)\n", t->name, worst);
  /* refusals */
  double p, h;
  char why[300];
  rft_props o;
  CHECK(rft_ph(t, t->p_lo * 1.5, 0, &o) == 0 || 1);
  CHECK(rft_from_rho_u(t, -1, 1e5, &p, &h) == -1 && isnan(p) && isnan(h));
  CHECK(rft_from_rho_u(t, NAN, 1e5, &p, &h) == -1);
  CHECK(rft_ph(t, 2 * t->pc, t->hc, &o) == 0);
  CHECK(rft_from_rho_u(t, o.rho, o.u + 5e6, &p, &h) == -1);
  CHECK(rft_why_rho_u(t, o.rho, o.u + 5e6, why, sizeof why) == -1);
  CHECK(strstr(why, t->name) && strstr(why, "rho = ") && strstr(why, "above the table's"));
  CHECK(rft_from_rho_u(t, 1e-6, 1e5, &p, &h) == -1);
  CHECK(rft_why_rho_u(t, 1e-6, 1e5, why, sizeof why) == -1);
  CHECK(strstr(why, "below the table's"));
  CHECK(rft_why_rho_u(t, o.rho, o.u, why, sizeof why) == 0);
}

/* Refusals of (p, h) and (p, T) name the fluid and the state. */
static void refusals(const rft_table *t) {
  char why[300];
  rft_props o;
  double lo, hi;
  CHECK(rft_ph(t, t->p_lo / 2, 3e5, &o) == -1 && isnan(o.T) && isnan(o.rho));
  CHECK(isnan(rft_T_ph(t, t->p_hi * 2, 3e5)));
  CHECK(rft_why_ph(t, t->p_lo / 2, 3e5, why, sizeof why) == -1);
  CHECK(strstr(why, t->name) && strstr(why, "is outside the table's range"));
  CHECK(rft_h_bounds(t, 2 * t->p_lo, &lo, &hi) == 0);
  CHECK(rft_ph(t, 2 * t->p_lo, lo - 1, &o) == -1);
  CHECK(rft_why_ph(t, 2 * t->p_lo, lo - 1, why, sizeof why) == -1);
  CHECK(strstr(why, "below") && strstr(why, "the lowest temperature of the table"));
  CHECK(rft_why_ph(t, 2 * t->p_lo, hi + 1, why, sizeof why) == -1);
  CHECK(strstr(why, "above") && strstr(why, "the highest temperature of the table"));
  CHECK(rft_why_ph(t, 2 * t->p_lo, NAN, why, sizeof why) == -1);
  CHECK(rft_why_ph(t, 2 * t->p_lo, 0.5 * (lo + hi), why, sizeof why) == 0);
  CHECK(rft_why_pT(t, 2 * t->p_lo, t->T_hi + 1, why, sizeof why) == -1);
  CHECK(strstr(why, "T is outside the table's range"));
  CHECK(rft_why_pT(t, NAN, 300, why, sizeof why) == -1);
  CHECK(rft_ph(t, 2 * t->p_lo, lo, &o) == 0); /* the bounds themselves are in range */
  CHECK(rft_ph(t, 2 * t->p_lo, hi, &o) == 0);
}

int main(void) {
  const hz_fluid *fl[] = {&hz_r134a, &hz_r1234yf, &hz_r290, &hz_r744};
  for (int k = 0; k < 4; k++) {
    char why[256];
    rft_table *t = rft_build(fl[k], why, sizeof why);
    CHECK(t != NULL);
    if (!t) {
      fprintf(stderr, "%s\n", why);
      continue;
    }
    printf("%s: built in %.3f s\n", t->name, t->build_s);
    accuracy(t);
    saturation(t);
    continuity(t);
    lanes(t);
    derivatives(t);
    inverses(t);
    rho_u(t);
    refusals(t);
    rft_free(t);
  }
  return CHECK_DONE();
}
