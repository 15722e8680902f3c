/* test_if97_bounds.c - every inverse of the water and steam (IF97) and
 * moist-air media on and next to each phase and region boundary, densely:
 * the saturation line (saturated liquid and vapour, mixtures of quality
 * 1e-12 .. 1e-6 from either end, single-phase states 1e-12 .. 1e-3 of T
 * from it) below and above 623.15 K, the critical point, 273.15 K, the
 * region 1/3 boundary (623.15 K), the B23 line, the region 2/5 boundary
 * (1073.15 K), the highest T and p; the moist air's saturation (fog onset),
 * its temperature range ends and the boiling point psat(T) = p.
 *
 * A state is made by the forward functions (if97_pT, the saturated states of
 * if97_sat_p); each inverse, (p, h), (p, s), T(p, h), its lane form and
 * (rho, u), must find it again: the returned state must reproduce the
 * input through the forward functions (round trip) and lie next to the
 * state it was made from. Issue 47: (rho, u) of the saturated liquid at
 * 3 MPa came back as the triple point (a root at the end of a bracket). */
#include <string.h>
#include "check.h"
#include "lied/status.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"

static int states, bad;
static const char *fail_why = "";
/* Where IF97's regions meet (623.15 K, B23, 1073.15 K) their equations
 * agree only to the formulation's consistency: a state there is found
 * within some mK and 0.1 % of p of the state it was made from, on either
 * side; at the critical point, where dh/dT diverges, h and s within 1e-6.
 * Elsewhere 1e-7 of T, 2e-6 of p from (rho, u), 1e-9 of h and s. */
static int loose;
static double worst_T, worst_p, worst_x;

static void report(const char *what, const char *inv, const if97_state *ref, const if97_state *got,
                   const char *why) {
  if (bad++ < 100000)
    fprintf(stderr,
            "%s: %s of p = %.17g, T = %.17g (h %.17g, s %.17g, rho %.17g, u %.17g, x %.3g, region %d): "
            "%s p %.17g T %.17g x %.17g region %d\n",
            what, inv, ref->p, ref->T, ref->h, ref->s, ref->rho, ref->u, ref->x, ref->region,
            why ? why : fail_why, got ? got->p : NAN, got ? got->T : NAN, got ? got->x : NAN,
            got ? got->region : 0);
}

/* The forward value of a returned state in its own region: h, s, rho, u
 * of its (p, T) by the region's equation (region 3: of its (rho, T), whose
 * p must be its p); a two-phase state of its saturated liquid and vapour at
 * p, mixed by x. 0, or -1 when the forward functions refuse it. */
static int forward(const if97_state *st, if97_state *f) {
  char why[256];
  fail_why = "forward";
  if (st->region == 4) {
    if97_state L, V;
    if (if97_sat_p(st->p, &L, &V, why, sizeof why)) return -1;
    const double x = st->x;
    *f = *st;
    f->T = L.T;
    f->h = L.h + x * (V.h - L.h);
    f->s = L.s + x * (V.s - L.s);
    f->rho = 1 / ((1 - x) / L.rho + x / V.rho);
    f->u = f->h - st->p / f->rho;
    return 0;
  }
  if (!(st->p > 0 && st->p <= IF97_PMAX && st->T >= IF97_TMIN && st->T <= IF97_TMAX)) return -1;
  const double T = st->T, p = st->p, ps = T <= IF97_T13 ? if97_psat_eq(T) : 0;
  if (st->region == 3) {
    if97_helm hf;
    if97_helm3(st->rho, st->T, &hf);
    if97_from_helm3(&hf, st->rho, st->T, f);
    fail_why = "region";
    if (!(T >= IF97_T13 - 0.1 && p >= if97_p_b23(T) * (1 - 1e-3))) return -1;
    fail_why = "forward";
    return fabs(f->p - st->p) <= 1e-9 * st->p ? 0 : -1;
  }
  /* the region must hold the state (to the formulation's consistency at
   * its boundaries): no metastable liquid or vapour */
  fail_why = "region";
  if (st->region == 1 && !(T <= IF97_T13 + 0.1 && p >= ps * (1 - 1e-9))) return -1;
  if (st->region == 2 && !(T <= IF97_T13 ? p <= ps * (1 + 1e-9)
                                          : T > IF97_T23MAX || p <= if97_p_b23(T) * (1 + 1e-3)))
    return -1;
  if (st->region == 5 && !(T >= IF97_T25 - (loose ? 0.1 : 1e-6))) return -1;
  fail_why = "forward";
  if97_gibbs g;
  if (st->region == 1) if97_gibbs1(st->p, st->T, &g);
  else if (st->region == 2) if97_gibbs2(st->p, st->T, &g);
  else if (st->region == 5 && st->p <= IF97_P5MAX) if97_gibbs5(st->p, st->T, &g);
  else return -1;
  if97_from_gibbs(&g, st->p, st->T, st->region, f);
  return 0;
}

static int near_(double a, double b, double rel, double abs_, const char *what) {
  fail_why = what;
  if (loose) rel = fmax(rel, 1e-6);
  return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + abs_;
}

#define near(a, b, rel, abs_) near_(a, b, rel, abs_, #a)

/* Is got the state ref (T, p and x close), reproducing its input? ptol: of
 * p relative, floor pabs (the p of a liquid from (rho, u) is known to
 * about eps / compressibility). */
static int agrees(const if97_state *ref, const if97_state *got, double ptol, double pabs) {
  /* the quality (where either side is two-phase) to 1e-6 */
  double dT = fabs(got->T - ref->T) / ref->T, dp = fabs(got->p - ref->p) / fmax(ref->p, pabs);
  /* (at the critical point liquid and vapour are one: no quality) */
  const int crit = fabs(ref->p - IF97_PC) < 1e-6 * IF97_PC && fabs(ref->T - IF97_TC) < 1e-6 * IF97_TC;
  double dx = (ref->region == 4 || got->region == 4) && !crit ? fabs(got->x - ref->x) : 0;
  if (loose) dx *= 0.01; /* the quality to 1e-4 there */
  if (dT > worst_T) worst_T = dT;
  if (dp > worst_p) worst_p = dp;
  if (dx > worst_x) worst_x = dx;
  if (!(dT <= (loose ? 1e-4 : 1e-7))) fail_why = "T";
  else if (!(dp <= (loose ? fmax(ptol, 1e-3) : ptol))) fail_why = "p";
  else if (!(dx <= 1e-6)) fail_why = "x";
  else if (!(isfinite(got->h) && isfinite(got->s) && got->x >= 0 && got->x <= 1)) fail_why = "h s x finite";
  else return 1;
  return 0;
}

/* Every inverse of a state made by the forward functions. */
static void inverses(const char *what, const if97_state *ref) {
  char why[256];
  loose = strstr(what, "(region") || strstr(what, "B23") || strstr(what, "critical") ||
          (fabs(ref->p - IF97_PC) < 1e-6 * IF97_PC && fabs(ref->T - IF97_TC) < 1e-6 * IF97_TC) ||
          fabs(ref->T - IF97_T13) < 0.01; /* where regions 1, 2, 3 and 4 meet */
  if97_state st, f;
  states++;
  /* (p, h) */
  if (if97_ph(ref->p, ref->h, &st, why, sizeof why)) {
    report(what, "ph", ref, NULL, why);
  } else if (!agrees(ref, &st, 1e-15, 0) || forward(&st, &f) ||
             !near(f.h, ref->h, 1e-9, 1e-3) || !near(st.rho, f.rho, 1e-9, 0)) {
    report(what, "ph", ref, &st, NULL);
  } else {
    double T = NAN, Tl = NAN;
    if (if97_T_ph(ref->p, ref->h, &T, why, sizeof why) || T != st.T) report(what, "T_ph", ref, &st, NULL);
    if97_T_ph_lanes(1, &ref->p, &ref->h, &Tl);
    if (memcmp(&T, &Tl, sizeof T)) report(what, "T_ph_lanes", ref, &st, NULL);
  }
  /* (p, s) */
  if (if97_ps(ref->p, ref->s, &st, why, sizeof why)) {
    report(what, "ps", ref, NULL, why);
  } else if (!agrees(ref, &st, 1e-15, 0) || forward(&st, &f) || !near(f.s, ref->s, 1e-9, 1e-6) ||
             !near(st.h, f.h, 1e-9, 1e-3)) {
    report(what, "ps", ref, &st, NULL);
  }
  /* (rho, u) */
  if (if97_rho_u(ref->rho, ref->u, &st, why, sizeof why)) {
    report(what, "rho_u", ref, NULL, why);
  } else if (!agrees(ref, &st, 2e-6, 1e6) || forward(&st, &f) ||
             !near(f.u, ref->u, 1e-7, 1e-2) || !near(f.rho, ref->rho, 1e-7, 0)) {
    report(what, "rho_u", ref, &st, NULL);
  }
}

static void at_pT(const char *what, double p, double T) {
  char why[256];
  if97_state st;
  if (if97_pT(p, T, &st, why, sizeof why)) {
    if (bad++ < 100000) fprintf(stderr, "%s: pT(%.17g, %.17g) refused: %s\n", what, p, T, why);
    return;
  }
  inverses(what, &st);
}

/* Steps off a boundary: relative 0, +-1e-12 .. +-1e-3. */
static const double offs[] = {0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3};
#define NOFF (sizeof offs / sizeof *offs)

/* Saturated liquid and vapour at p, mixtures next to them, and the
 * single-phase states at Tsat(p) -+ dT and at p +- dp beside them. */
static void saturation(double p) {
  char why[256];
  if97_state L, V;
  if (if97_sat_p(p, &L, &V, why, sizeof why)) {
    if (bad++ < 100000) fprintf(stderr, "sat_p(%.17g) refused: %s\n", p, why);
    return;
  }
  inverses("saturated liquid", &L);
  inverses("saturated vapour", &V);
  static const double xs[] = {1e-12, 1e-9, 1e-6, 1 - 1e-6, 1 - 1e-9, 1 - 1e-12, 0.5};
  for (size_t k = 0; k < sizeof xs / sizeof *xs; k++) {
    if97_state m = L;
    const double x = xs[k];
    m.region = 4;
    m.x = x;
    m.h = L.h + x * (V.h - L.h);
    m.s = L.s + x * (V.s - L.s);
    m.rho = 1 / ((1 - x) / L.rho + x / V.rho);
    m.u = m.h - p / m.rho;
    inverses("two-phase", &m);
  }
  const double Ts = L.T;
  for (size_t k = 1; k < NOFF; k++) {
    const double d = fabs(offs[k]);
    if (Ts * (1 - d) >= IF97_TMIN) at_pT("liquid below Tsat", p, Ts * (1 - d));
    at_pT("vapour above Tsat", p, Ts * (1 + d));
    if (p * (1 + d) <= IF97_PMAX) at_pT("liquid above psat", p * (1 + d), Ts);
    at_pT("vapour below psat", p * (1 - d), Ts);
  }
}

static void steam(void) {
  char why[256];
  /* the saturation line, by pressure (log grid, both ends, the critical
   * pressure's neighbourhood) and by temperature */
  const int NP = 300;
  for (int i = 0; i <= NP; i++) saturation(IF97_PTRIPLE * pow(IF97_PC / IF97_PTRIPLE, (double)i / NP));
  for (int i = 0; i <= 60; i++) saturation(IF97_PS13 + (IF97_PC - IF97_PS13) * i / 60.0);
  saturation(IF97_PS13);
  saturation(3e6);
  saturation(IF97_PC * (1 - 1e-9));
  for (int i = 0; i <= 200; i++) {
    double T = IF97_TMIN + (IF97_T13 - IF97_TMIN) * i / 200.0, p;
    CHECK(if97_psat(T, &p, why, sizeof why) == 0);
    saturation(p);
  }
  /* the example of issue 47: (rho, u) of the saturated liquid at 3 MPa */
  if97_state st;
  CHECK(if97_rho_u(821.89486554082544, 1004721.2680379564, &st, why, sizeof why) == 0);
  CHECK_NEAR(st.p, 3e6, 1);
  CHECK_NEAR(st.T, 507.00844500625, 1e-6);
  CHECK(st.x <= 1e-9);
  /* region boundaries in T, over p; in p, over T */
  for (int i = 0; i <= 120; i++) {
    const double lp = (double)i / 120;
    const double p13 = IF97_PS13 * pow(IF97_PMAX / IF97_PS13, lp); /* region 1 / 3 */
    const double p25 = 1e3 * pow(IF97_P5MAX / 1e3, lp);           /* region 2 / 5 */
    const double plo = IF97_PTRIPLE * pow(IF97_PMAX / IF97_PTRIPLE, lp);
    const double T23 = IF97_T13 + (IF97_T23MAX - IF97_T13) * lp;  /* B23 */
    const double Ttop = IF97_TMIN + (IF97_T25 - IF97_TMIN) * lp;   /* p = 100 MPa */
    const double T5 = IF97_T25 + (IF97_TMAX - IF97_T25) * lp;      /* p = 50 MPa */
    for (size_t k = 0; k < NOFF; k++) {
      const double o = offs[k];
      at_pT("623.15 K (region 1 / 3)", p13, IF97_T13 * (1 + o));
      if (o <= 0 || lp > 0) at_pT("1073.15 K (region 2 / 5)", p25, IF97_T25 * (1 + o));
      if (o >= 0) at_pT("273.15 K", plo, IF97_TMIN * (1 + o));
      if (o <= 0) at_pT("2273.15 K", p25, IF97_TMAX * (1 + o));
      const double pb = if97_p_b23(T23) * (1 + o);
      if (pb <= IF97_PMAX) at_pT("B23", pb, T23);
      if (o <= 0) at_pT("100 MPa", IF97_PMAX * (1 + o), Ttop);
      if (o <= 0) at_pT("50 MPa (region 5)", IF97_P5MAX * (1 + o), T5);
    }
  }
  /* the critical point's neighbourhood */
  for (size_t i = 0; i < NOFF; i++)
    for (size_t k = 0; k < NOFF; k++)
      if (fabs(offs[i]) >= 1e-6 || fabs(offs[k]) >= 1e-6)
        at_pT("critical point", IF97_PC * (1 + offs[i]), IF97_TC * (1 + offs[k]));
  CHECK(bad == 0);
  CHECK(states > 25000);
  printf("IF97 boundaries: %d states, %d bad; worst T %.2e, p %.2e (relative), x %.2e\n", states, bad,
         worst_T, worst_p, worst_x);
}

/* ---- moist air ---------------------------------------------------------------- */

static int ma_states, ma_bad;

static void ma_report(const char *inv, double p, double T, double X, const char *why, double got) {
  if (ma_bad++ < 100000)
    fprintf(stderr, "moist air %s of p = %.17g, T = %.17g, X = %.17g: %s %.17g\n", inv, p, T, X,
            why ? why : fail_why, got);
}

/* Every inverse of moist air at (p, T, X). */
static void ma_inverses(double p, double T, double X) {
  char why[256];
  ma_state a, b, c;
  if (ma_pTX(p, T, X, &a, why, sizeof why)) return ma_report("pTX", p, T, X, why, NAN);
  ma_states++;
  if (ma_phX(p, a.h, X, &b, why, sizeof why))
    ma_report("phX", p, T, X, why, NAN);
  else if (!near(b.T, T, 1e-10, 0) || ma_pTX(p, b.T, X, &c, why, sizeof why) ||
           !near(c.h, a.h, 1e-9, 1e-9) || c.Xl != b.Xl || c.Xi != b.Xi) /* (Xl, Xi: the returned T's) */
    ma_report("phX", p, T, X, NULL, b.T);
  double Tl = NAN;
  ma_T_phX_lanes(1, &p, &a.h, &X, &Tl);
  if (!(Tl == b.T)) ma_report("T_phX_lanes", p, T, X, NULL, Tl);
  if (ma_rho_uX(a.rho, a.u, X, &b, why, sizeof why))
    ma_report("rho_uX", p, T, X, why, NAN);
  else if (!near(b.T, T, 1e-10, 0) || !near(b.p, p, 1e-9, 0))
    ma_report("rho_uX", p, T, X, NULL, b.T);
  /* the dew (frost) point of air at saturation is its temperature */
  double Td;
  if (a.Xl == 0 && a.Xi == 0 && a.phi >= 1 - 1e-12 && (ma_Tdew(p, X, &Td, why, sizeof why) || !near(Td, T, 1e-9, 0)))
    ma_report("Tdew", p, T, X, why, Td);
}

static void moist_air(void) {
  char why[256];
  const double ps[] = {1e3, 1e4, 5e4, 101325, 3e5, 1e6, 1e7};
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++)
    for (int j = 0; j <= 100; j++) {
      const double p = ps[i], T = MA_TMIN + (MA_TMAX - MA_TMIN) * j / 100.0;
      double Xs;
      if (ma_X_phi(p, T, 1, &Xs, why, sizeof why)) continue; /* boiling: no saturation */
      for (size_t k = 0; k < NOFF; k++) {
        const double X = Xs * (1 + offs[k]);
        if (X < 1) ma_inverses(p, T, X);
        if (k == 0 || offs[k] > 0) continue;
        /* next to the range ends */
        ma_inverses(p, MA_TMIN * (1 - offs[k]), X);
        ma_inverses(p, MA_TMAX * (1 + offs[k]), X);
      }
      ma_inverses(p, T, 0);
      ma_inverses(p, T, fmin(0.9, 2 * Xs));
    }
  /* next to the boiling point psat(T) = p: saturation humidity far above 1 */
  for (int j = 0; j <= 40; j++) {
    const double T = 300 + 300.0 * j / 40, pb = if97_psat_eq(T);
    for (size_t k = 1; k < NOFF; k++)
      if (offs[k] > 0) {
        const double p = pb * (1 + offs[k]);
        double Xs;
        /* (air of less than 1e-6 dry air at saturation there: h(T) jumps by
         * the latent heat within one unit of the last place of T, which no
         * temperature resolves) */
        if (ma_X_phi(p, T, 1, &Xs, why, sizeof why) == 0 && Xs < 1 - 1e-6) ma_inverses(p, T, Xs);
        ma_inverses(p, T, 0.5);
      }
  }
  CHECK(ma_bad == 0);
  CHECK(ma_states > 4500);
  printf("moist air boundaries: %d states, %d bad\n", ma_states, ma_bad);
}

int main(void) {
  steam();
  moist_air();
  return CHECK_DONE();
}
