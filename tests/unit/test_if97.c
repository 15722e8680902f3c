/* test_if97.c - IAPWS-IF97 (src/lib/thermofluid/if97*.c) against the
 * verification tables of the release (revised release 2007, R7-97(2012)):
 * every value to the nine significant digits printed there, which checks
 * every coefficient table; then the solvers' round trips, the two-phase
 * states and every refusal with its message. */
#include <string.h>
#include "check.h"
#include "lied/status.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"

/* |got - m 10^e| within half a unit of the ninth digit of 0.ddddddddd 10^e */
#define CHECK_DIGITS(got, m, e)                                                         \
  CHECK_NEAR((got), (m) * pow(10.0, (e)), 0.5000001e-9 * pow(10.0, (e)))

typedef struct {
  double T, pMPa, v, h, u, s, cp; /* v [m3/kg], h, u [kJ/kg], s, cp [kJ/(kg K)] */
  int ev, eh, eu, es, ecp;         /* exponents of the printed 0.ddddddddd 10^e */
  double mv, mh, mu, ms, mcp;      /* mantissas */
} row;

static void check_gibbs_row(int region, double T, double pMPa, double mv, int ev, double mh,
                            int eh, double mu, int eu, double ms, int es, double mcp, int ecp) {
  if97_gibbs g;
  double p = pMPa * 1e6;
  if (region == 1)
    if97_gibbs1(p, T, &g);
  else if (region == 2)
    if97_gibbs2(p, T, &g);
  else
    if97_gibbs5(p, T, &g);
  if97_state st;
  if97_from_gibbs(&g, p, T, region, &st);
  CHECK_DIGITS(1.0 / st.rho, mv, ev);
  CHECK_DIGITS(st.h / 1e3, mh, eh);
  CHECK_DIGITS(st.u / 1e3, mu, eu);
  CHECK_DIGITS(st.s / 1e3, ms, es);
  CHECK_DIGITS(st.cp / 1e3, mcp, ecp);
  /* the public entry point selects the same region */
  char why[256];
  if97_state s2;
  CHECK(if97_pT(p, T, &s2, why, sizeof why) == 0);
  CHECK(s2.region == region);
  CHECK(s2.h == st.h);
}

static void release_tables(void) {
  /* Table 5: region 1 (T [K], p [MPa]; v, h, u, s, cp) */
  check_gibbs_row(1, 300, 3, 0.100215168, -2, 0.115331273, 3, 0.112324818, 3, 0.392294792, 0,
                  0.417301218, 1);
  check_gibbs_row(1, 300, 80, 0.971180894, -3, 0.184142828, 3, 0.106448356, 3, 0.368563852, 0,
                  0.401008987, 1);
  check_gibbs_row(1, 500, 3, 0.120241800, -2, 0.975542239, 3, 0.971934985, 3, 0.258041912, 1,
                  0.465580682, 1);
  /* Table 15: region 2 */
  check_gibbs_row(2, 300, 0.0035, 0.394913866, 2, 0.254991145, 4, 0.241169160, 4, 0.852238967,
                  1, 0.191300162, 1);
  check_gibbs_row(2, 700, 0.0035, 0.923015898, 2, 0.333568375, 4, 0.301262819, 4, 0.101749996,
                  2, 0.208141274, 1);
  check_gibbs_row(2, 700, 30, 0.542946619, -2, 0.263149474, 4, 0.246861076, 4, 0.517540298, 1,
                  0.103505092, 2);
  /* Table 42: region 5 */
  check_gibbs_row(5, 1500, 0.5, 0.138455090, 1, 0.521976855, 4, 0.452749310, 4, 0.965408875, 1,
                  0.261609445, 1);
  check_gibbs_row(5, 1500, 30, 0.230761299, -1, 0.516723514, 4, 0.447495124, 4, 0.772970133, 1,
                  0.272724317, 1);
  check_gibbs_row(5, 2000, 30, 0.311385219, -1, 0.657122604, 4, 0.563707038, 4, 0.853640523, 1,
                  0.288569882, 1);

  /* Table 35: saturation pressure [MPa]; Table 36: saturation temperature */
  CHECK_DIGITS(if97_psat_eq(300) / 1e6, 0.353658941, -2);
  CHECK_DIGITS(if97_psat_eq(500) / 1e6, 0.263889776, 1);
  CHECK_DIGITS(if97_psat_eq(600) / 1e6, 0.123443146, 2);
  CHECK_DIGITS(if97_Tsat_eq(0.1e6), 0.372755919, 3);
  CHECK_DIGITS(if97_Tsat_eq(1e6), 0.453035632, 3);
  CHECK_DIGITS(if97_Tsat_eq(10e6), 0.584149488, 3);

  /* B23 (the release's check value after Eq. 6) and B2bc (after Eq. 21) */
  CHECK_DIGITS(if97_p_b23(623.15) / 1e6, 0.165291643, 2);
  CHECK_DIGITS(if97_T_b23(0.165291643e8), 0.623150000, 3);
  CHECK_DIGITS(if97_p_b2bc(0.3516004323e7) / 1e6, 0.100000000, 3);
  CHECK_DIGITS(if97_h_b2bc(100e6) / 1e3, 0.3516004323, 4);

  /* Table 7: backward T(p,h), region 1 (p [MPa], h [kJ/kg]) */
  CHECK_DIGITS(if97_T1_ph(3e6, 500e3), 0.391798509, 3);
  CHECK_DIGITS(if97_T1_ph(80e6, 500e3), 0.378108626, 3);
  CHECK_DIGITS(if97_T1_ph(80e6, 1500e3), 0.611041229, 3);
  /* Table 9: backward T(p,s), region 1 (s [kJ/(kg K)]) */
  CHECK_DIGITS(if97_T1_ps(3e6, 0.5e3), 0.307842258, 3);
  CHECK_DIGITS(if97_T1_ps(80e6, 0.5e3), 0.309979785, 3);
  CHECK_DIGITS(if97_T1_ps(80e6, 3e3), 0.565899909, 3);
  /* region 3's backward equations (supplementary release SR3, Table 5) and
   * the 3a/3b boundary (after its Eq. 1) */
  CHECK_DIGITS(if97_h_3ab(25e6) / 1e3, 0.2095936454, 4);
  CHECK_DIGITS(if97_T3_ph(20e6, 1700e3), 0.6293083892, 3);
  CHECK_DIGITS(if97_T3_ph(100e6, 2100e3), 0.7336163014, 3);
  CHECK_DIGITS(if97_T3_ph(20e6, 2500e3), 0.6418418053, 3);
  CHECK_DIGITS(if97_T3_ph(100e6, 2700e3), 0.8420460876, 3);
  CHECK_DIGITS(if97_v3_ph(20e6, 1700e3), 0.1749903962, -2);
  CHECK_DIGITS(if97_v3_ph(100e6, 2100e3), 0.1676229776, -2);
  CHECK_DIGITS(if97_v3_ph(20e6, 2500e3), 0.6670547043, -2);
  CHECK_DIGITS(if97_v3_ph(100e6, 2700e3), 0.2404234998, -2);
  /* Table 24: backward T(p,h), region 2a, 2b, 2c */
  CHECK_DIGITS(if97_T2_ph(0.001e6, 3000e3), 0.534433241, 3);
  CHECK_DIGITS(if97_T2_ph(3e6, 3000e3), 0.575373370, 3);
  CHECK_DIGITS(if97_T2_ph(3e6, 4000e3), 0.101077577, 4);
  CHECK_DIGITS(if97_T2_ph(5e6, 3500e3), 0.801299102, 3);
  CHECK_DIGITS(if97_T2_ph(5e6, 4000e3), 0.101531583, 4);
  CHECK_DIGITS(if97_T2_ph(25e6, 3500e3), 0.875279054, 3);
  CHECK_DIGITS(if97_T2_ph(40e6, 2700e3), 0.743056411, 3);
  CHECK_DIGITS(if97_T2_ph(60e6, 2700e3), 0.791137067, 3);
  CHECK_DIGITS(if97_T2_ph(60e6, 3200e3), 0.882756860, 3);
  /* Table 29: backward T(p,s), region 2a, 2b, 2c */
  CHECK_DIGITS(if97_T2_ps(0.1e6, 7.5e3), 0.399517097, 3);
  CHECK_DIGITS(if97_T2_ps(0.1e6, 8e3), 0.514127081, 3);
  CHECK_DIGITS(if97_T2_ps(2.5e6, 8e3), 0.103984917, 4);
  CHECK_DIGITS(if97_T2_ps(8e6, 6e3), 0.600484040, 3);
  CHECK_DIGITS(if97_T2_ps(8e6, 7.5e3), 0.106495556, 4);
  CHECK_DIGITS(if97_T2_ps(90e6, 6e3), 0.103801126, 4);
  CHECK_DIGITS(if97_T2_ps(20e6, 5.75e3), 0.697992849, 3);
  CHECK_DIGITS(if97_T2_ps(80e6, 5.25e3), 0.854011484, 3);
  CHECK_DIGITS(if97_T2_ps(80e6, 5.75e3), 0.949017998, 3);
}

/* Forward then inverse: (p, T) -> h, s -> T back to 1e-12, in each region. */
static void round_trips(void) {
  static const double pts[][2] = {{3e6, 300},    {80e6, 300},  {3e6, 500},   {100e6, 620},
                                  {0.5e6, 273.2}, {3500, 300},  {3e6, 700},   {30e6, 700},
                                  {1e5, 1073},   {20e6, 900},  {0.5e6, 1500}, {30e6, 2000},
                                  {50e6, 2270},  {17e6, 623},  {10e6, 584}};
  char why[256];
  for (size_t k = 0; k < sizeof pts / sizeof *pts; k++) {
    double p = pts[k][0], T = pts[k][1];
    if97_state a, b, c;
    CHECK(if97_pT(p, T, &a, why, sizeof why) == 0);
    CHECK(if97_ph(p, a.h, &b, why, sizeof why) == 0);
    CHECK_NEAR(b.T, T, 1e-12 * T);
    CHECK(b.region == a.region);
    CHECK(if97_ps(p, a.s, &c, why, sizeof why) == 0);
    CHECK_NEAR(c.T, T, 1e-11 * T);
    double T2 = 0;
    CHECK(if97_T_ph(p, a.h, &T2, why, sizeof why) == 0);
    CHECK(T2 == b.T);
    /* (rho, u) -> p, T */
    if97_state d;
    CHECK(if97_rho_u(a.rho, a.u, &d, why, sizeof why) == 0);
    CHECK_NEAR(d.T, T, 1e-9 * T);
    CHECK_NEAR(d.p, p, 1e-7 * p);
    CHECK(d.region == a.region);
  }
}

/* Two-phase states: (p, h) and (rho, u) of a mixture of quality x. */
/* Table 33 row: region 3 at (rho, T): p [MPa], h, u [kJ/kg], s, cp
 * [kJ/(kg K)] as mantissas and exponents. */
static void check_helm_row(double rho, double T, double mp, int ep, double mh, int eh, double mu,
                           int eu, double ms, int es, double mcp, int ecp) {
  if97_helm f;
  if97_helm3(rho, T, &f);
  if97_state st;
  if97_from_helm3(&f, rho, T, &st);
  CHECK_DIGITS(st.p / 1e6, mp, ep);
  CHECK_DIGITS(st.h / 1e3, mh, eh);
  CHECK_DIGITS(st.u / 1e3, mu, eu);
  CHECK_DIGITS(st.s / 1e3, ms, es);
  CHECK_DIGITS(st.cp / 1e3, mcp, ecp);
  CHECK(st.region == 3);
  /* the public entry points find the same state from (p, T), (p, h), (p, s)
   * and (rho, u) */
  char why[256];
  if97_state a;
  CHECK(if97_pT(st.p, T, &a, why, sizeof why) == 0);
  CHECK(a.region == 3);
  CHECK_NEAR(a.rho, rho, 1e-11 * rho);
  CHECK(if97_ph(st.p, st.h, &a, why, sizeof why) == 0);
  CHECK(a.region == 3);
  CHECK_NEAR(a.T, T, 1e-11 * T);
  CHECK(if97_ps(st.p, st.s, &a, why, sizeof why) == 0);
  CHECK_NEAR(a.T, T, 1e-11 * T);
  CHECK(if97_rho_u(rho, st.u, &a, why, sizeof why) == 0);
  CHECK(a.region == 3);
  CHECK_NEAR(a.T, T, 1e-11 * T);
  CHECK_NEAR(a.p, st.p, 1e-10 * st.p);
}

/* Region 3: Table 33 of the release; the densities of both branches; the
 * two-phase states above 623.15 K, whose saturated states are region 3's;
 * its boundaries with regions 1 and 2 (the states on either side of
 * 623.15 K and of the B23 line agree within the formulation's consistency,
 * and every state between the regions is found). */
static void region3(void) {
  check_helm_row(500, 650, 0.255837018, 2, 0.186343019, 4, 0.181226279, 4, 0.405427273, 1,
                 0.138935717, 2);
  check_helm_row(200, 650, 0.222930643, 2, 0.237512401, 4, 0.226365868, 4, 0.485438792, 1,
                 0.446579342, 2);
  check_helm_row(500, 750, 0.783095639, 2, 0.225868845, 4, 0.210206932, 4, 0.446971906, 1,
                 0.634165359, 1);
  char why[256];
  /* saturated densities: both at psat(T), liquid denser, meeting at Tc */
  static const double Ts[] = {623.15, 630, 640, 646, 647};
  for (size_t i = 0; i < sizeof Ts / sizeof *Ts; i++) {
    double rl = 0, rv = 0, ps = if97_psat_eq(Ts[i]);
    CHECK(if97_sat3(Ts[i], &rl, &rv) == 0);
    CHECK(rl > rv);
    CHECK_NEAR(if97_p3(rl, Ts[i]), ps, 1e-9 * ps);
    CHECK_NEAR(if97_p3(rv, Ts[i]), ps, 1e-9 * ps);
  }
  double rl = 0, rv = 0;
  CHECK(if97_sat3(IF97_TC, &rl, &rv) == 0);
  CHECK(fabs(rl - 322) < 1 && fabs(rv - 322) < 1);
  /* at the critical point p(rho) is flat to the third order: the root is
   * known to the cube root of the rounding of p, some 1e-7 */
  CHECK_NEAR(rl, IF97_R3_RHOC_SAT, 1e-6 * rl);
  rl = rv = 0;
  CHECK(if97_sat3(IF97_T13, &rl, &rv) == 0);
  CHECK_NEAR(rl, IF97_R3_RHOL13, 1e-12 * rl);
  CHECK_NEAR(rv, IF97_R3_RHOV13, 1e-12 * rv);
  /* from a start: the same densities, or the same as from none */
  static const double Tw[] = {624, 635, 646.5};
  for (size_t i = 0; i < sizeof Tw / sizeof *Tw; i++) {
    double a = 0, b = 0, c = IF97_R3_RHOL13, d = IF97_R3_RHOV13;
    CHECK(if97_sat3(Tw[i], &a, &b) == 0 && if97_sat3(Tw[i], &c, &d) == 0);
    CHECK_NEAR(c, a, 1e-11 * a); /* near the critical point to its conditioning */
    CHECK_NEAR(d, b, 1e-11 * b);
  }
  /* two-phase from (p, h) and (rho, u) between 16.53 and 22.064 MPa */
  static const double ps[] = {17e6, 19e6, 21e6, 22e6};
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) {
    double T;
    CHECK(if97_Tsat(ps[i], &T, why, sizeof why) == 0);
    CHECK(if97_sat3(T, &rl, &rv) == 0);
    if97_state L, V, a, b;
    if97_helm f;
    if97_helm3(rl, T, &f);
    if97_from_helm3(&f, rl, T, &L);
    if97_helm3(rv, T, &f);
    if97_from_helm3(&f, rv, T, &V);
    for (double x = 0.1; x < 0.95; x += 0.2) {
      double h = L.h + x * (V.h - L.h);
      CHECK(if97_ph(ps[i], h, &a, why, sizeof why) == 0);
      CHECK(a.region == 4);
      CHECK_NEAR(a.x, x, 1e-9);
      CHECK_NEAR(a.T, T, 1e-9 * T);
      CHECK(if97_rho_u(a.rho, a.u, &b, why, sizeof why) == 0);
      CHECK(b.region == 4);
      CHECK_NEAR(b.x, x, 1e-8);
      CHECK_NEAR(b.p, ps[i], 1e-8 * ps[i]);
    }
    /* just outside the dome: liquid-like and vapour-like region 3 */
    CHECK(if97_ph(ps[i], L.h - 1e3, &a, why, sizeof why) == 0);
    CHECK(a.region == 3 && a.x == 0 && a.T < T);
    CHECK(if97_ph(ps[i], V.h + 1e3, &a, why, sizeof why) == 0);
    CHECK(a.region == 3 && a.x == 1 && a.T > T);
  }
  /* across 623.15 K and the B23 line at 30 MPa: T(p, h) rises with h
   * through regions 1, 3 and 2, without a gap and within 10 mK of the
   * boundaries where the regions meet */
  const double p = 30e6, Tb = if97_T_b23(p);
  if97_state a, b;
  CHECK(if97_pT(p, IF97_T13 - 1e-9, &a, why, sizeof why) == 0);
  CHECK(a.region == 1);
  CHECK(if97_pT(p, Tb + 1e-9, &b, why, sizeof why) == 0);
  CHECK(b.region == 2);
  double Tprev = 0;
  int regions[6] = {0}, rising = 1;
  for (int k = -20; k <= 1020; k++) {
    double h = a.h + (b.h - a.h) * k / 1000.0;
    if97_state c;
    CHECK(if97_ph(p, h, &c, why, sizeof why) == 0);
    regions[c.region]++;
    rising &= c.T > Tprev;
    Tprev = c.T;
  }
  CHECK(rising);
  CHECK(regions[1] > 10 && regions[2] > 10 && regions[3] > 900);
  if97_state c;
  CHECK(if97_ph(p, a.h, &c, why, sizeof why) == 0);
  CHECK_NEAR(c.T, IF97_T13, 0.01);
  CHECK(if97_ph(p, b.h, &c, why, sizeof why) == 0);
  CHECK_NEAR(c.T, Tb, 0.01);
  /* vapour of region 2 just beyond the B23 line at 20 MPa: its (rho, u)
   * (Newton's method from the ideal-gas start failed there) */
  for (double h = 2.70e6; h < 2.76e6; h += 5e3) {
    CHECK(if97_ph(20e6, h, &a, why, sizeof why) == 0);
    CHECK(a.region == 2);
    CHECK(if97_rho_u(a.rho, a.u, &b, why, sizeof why) == 0);
    CHECK_NEAR(b.p, 20e6, 1e-8 * 20e6);
    CHECK_NEAR(b.T, a.T, 1e-9 * a.T);
  }
  /* supercritical, on both sides of the critical temperature */
  CHECK(if97_pT(25e6, 640, &a, why, sizeof why) == 0);
  CHECK(a.region == 3 && a.x == 0);
  CHECK(if97_pT(35e6, 700, &a, why, sizeof why) == 0); /* p_B23(700 K) = 30.5 MPa */
  CHECK(a.region == 3 && a.x == 1 && a.rho < 322);
  CHECK(if97_ph(25e6, 2.0e6, &a, why, sizeof why) == 0);
  CHECK(a.region == 3 && a.T > 623.15 && a.T < IF97_TC + 10);
}

static void two_phase(void) {
  char why[256];
  static const double ps[] = {700, 1e4, 1e5, 1e6, 5e6, 12e6, 16.5e6};
  static const double xs[] = {0, 1e-6, 0.01, 0.3, 0.5, 0.9, 0.999999, 1};
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) {
    double Ts;
    CHECK(if97_Tsat(ps[i], &Ts, why, sizeof why) == 0);
    double pb;
    CHECK(if97_psat(Ts, &pb, why, sizeof why) == 0);
    CHECK_NEAR(pb, ps[i], 1e-10 * ps[i]);
    if97_state L, V;
    if97_gibbs g;
    if97_gibbs1(ps[i], Ts, &g);
    if97_from_gibbs(&g, ps[i], Ts, 1, &L);
    if97_gibbs2(ps[i], Ts, &g);
    if97_from_gibbs(&g, ps[i], Ts, 2, &V);
    for (size_t j = 0; j < sizeof xs / sizeof *xs; j++) {
      double x = xs[j], h = L.h + x * (V.h - L.h);
      if97_state st;
      CHECK(if97_ph(ps[i], h, &st, why, sizeof why) == 0);
      CHECK_NEAR(st.T, Ts, 1e-9 * Ts);
      if (x > 0 && x < 1) {
        CHECK(st.region == 4);
        CHECK_NEAR(st.x, x, 1e-9);
        double v = (1 - x) / L.rho + x / V.rho;
        CHECK_NEAR(1 / st.rho, v, 1e-9 * v);
        if97_state r;
        CHECK(if97_rho_u(st.rho, st.u, &r, why, sizeof why) == 0);
        CHECK(r.region == 4);
        CHECK_NEAR(r.T, Ts, 1e-9 * Ts);
        CHECK_NEAR(r.p, ps[i], 1e-8 * ps[i]);
        CHECK_NEAR(r.x, x, 1e-8);
        CHECK_NEAR(r.h, h, 1e-9 * fabs(h) + 1e-6);
        if97_state q;
        double s = L.s + x * (V.s - L.s);
        CHECK(if97_ps(ps[i], s, &q, why, sizeof why) == 0);
        CHECK_NEAR(q.x, x, 1e-9);
      }
    }
  }
}

#define CHECK_REFUSED(call, text)                                                       \
  do {                                                                                   \
    char why_[256] = "";                                                                 \
    if97_state st_;                                                                      \
    double d_;                                                                           \
    (void)st_, (void)d_;                                                                 \
    int rc_ = (call);                                                                    \
    CHECK(rc_ == LIED_ERROR);                                                            \
    CHECK(strstr(why_, text) != NULL);                                                   \
    if (!strstr(why_, text)) fprintf(stderr, "  message was: %s\n", why_);               \
  } while (0)

static void refusals(void) {
  CHECK_REFUSED(if97_pT(0, 300, &st_, why_, sizeof why_), "p = 0 Pa, T = 300 K: p is outside");
  CHECK_REFUSED(if97_pT(101e6, 300, &st_, why_, sizeof why_), "p is outside (0, 100 MPa]");
  CHECK_REFUSED(if97_pT(1e5, 250, &st_, why_, sizeof why_), "T = 250 K: T is outside");
  CHECK_REFUSED(if97_pT(1e5, 2300, &st_, why_, sizeof why_), "T is outside [273.15 K, 2273.15 K]");
  CHECK_REFUSED(if97_pT(60e6, 1500, &st_, why_, sizeof why_), "up to 50 MPa");
  CHECK_REFUSED(if97_pT(NAN, 300, &st_, why_, sizeof why_), "p = nan Pa");
  CHECK_REFUSED(if97_ph(1e5, -1e5, &st_, why_, sizeof why_),
                "p = 100000 Pa, h = -100000 J/kg: below 273.15 K");
  CHECK_REFUSED(if97_ph(1e5, 8e6, &st_, why_, sizeof why_), "above 2273.15 K");
  CHECK_REFUSED(if97_ph(60e6, 5e6, &st_, why_, sizeof why_), "up to 50 MPa");
  CHECK_REFUSED(if97_ph(-1, 1e5, &st_, why_, sizeof why_), "p is outside (0, 100 MPa]");
  CHECK_REFUSED(if97_ph(1e5, INFINITY, &st_, why_, sizeof why_), "not a finite number");
  CHECK_REFUSED(if97_ph(100, 1e6, &st_, why_, sizeof why_), "p = 100 Pa, h = 1000000 J/kg: below");
  CHECK_REFUSED(if97_ps(1e5, -2e3, &st_, why_, sizeof why_), "s = -2000 J/(kg K): below 273.15 K");
  CHECK_REFUSED(if97_rho_u(0, 1e5, &st_, why_, sizeof why_), "rho = 0 kg/m3, u = 100000 J/kg");
  CHECK_REFUSED(if97_rho_u(1000, -1e5, &st_, why_, sizeof why_), "below 273.15 K");
  CHECK_REFUSED(if97_rho_u(1, -1e5, &st_, why_, sizeof why_), "below 273.15 K");
  CHECK_REFUSED(if97_rho_u(900, 1.6e6, &st_, why_, sizeof why_),
                "rho = 900 kg/m3, u = 1600000 J/kg: above 100 MPa");
  CHECK_REFUSED(if97_rho_u(600, 2.5e6, &st_, why_, sizeof why_), "above 100 MPa");
  CHECK_REFUSED(if97_rho_u(NAN, 2.0e6, &st_, why_, sizeof why_), "not a finite number");
  CHECK_REFUSED(if97_Tsat(22.1e6, &d_, why_, sizeof why_), "Tsat(p = 22100000 Pa) is defined");
  CHECK_REFUSED(if97_Tsat(600, &d_, why_, sizeof why_), "611.213 Pa <= p");
  CHECK_REFUSED(if97_psat(700, &d_, why_, sizeof why_), "psat(T = 700 K) is defined");
  CHECK_REFUSED(if97_psat(NAN, &d_, why_, sizeof why_), "psat(T = nan K)");
}

/* A deterministic random sweep over (p, h): every call either succeeds or
 * refuses with a message (no NaN), and a state found from (p, h) is found
 * again from its (rho, u) and its (p, s). */
static unsigned long long rng = 88172645463325252ull;
static double uniform(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (rng >> 11) * (1.0 / 9007199254740992.0);
}
static void random_sweep(void) {
  char why[256];
  int ok = 0, refused = 0, bad = 0, two_phase = 0;
  for (int k = 0; k < 20000; k++) {
    double p = exp(log(700.0) + uniform() * (log(100e6) - log(700.0)));
    double h = -0.1e6 + uniform() * 7.5e6;
    if97_state a, b, c;
    why[0] = 0;
    if (if97_ph(p, h, &a, why, sizeof why)) {
      refused++;
      if (!why[0]) bad++;
      continue;
    }
    ok++;
    two_phase += a.region == 4;
    if (!(isfinite(a.T) && isfinite(a.rho) && isfinite(a.s) && isfinite(a.u) && a.rho > 0)) bad++;
    if (fabs(a.h - h) > 1e-9 * fabs(h) + 1e-6) bad++;
    if (if97_rho_u(a.rho, a.u, &b, why, sizeof why)) {
      fprintf(stderr, "rho_u refused p = %.17g, h = %.17g: %s\n", p, h, why);
      bad++;
      continue;
    }
    double ptol = a.region == 1 ? 1e-9 * fmax(p, 1e6) : 1e-8 * p;
    if (fabs(b.p - p) > ptol || fabs(b.T - a.T) > 1e-9 * a.T || fabs(b.h - a.h) > 1e-8 * fabs(a.h) + 1e-3) {
      fprintf(stderr, "rho_u round trip p = %.17g, h = %.17g: p %.17g, T %.17g vs %.17g\n", p, h, b.p,
              b.T, a.T);
      bad++;
    }
    if (if97_ps(p, a.s, &c, why, sizeof why) || fabs(c.h - a.h) > 1e-8 * fabs(a.h) + 1e-3) {
      fprintf(stderr, "ps round trip p = %.17g, h = %.17g\n", p, h);
      bad++;
    }
  }
  CHECK(bad == 0);
  CHECK(ok > 10000 && refused > 500 && two_phase > 1000);
  printf("random sweep: %d states, %d two-phase, %d refused, %d bad\n", ok, two_phase, refused, bad);
  /* (rho, u) anywhere: a state whose (p, T) gives that rho and u back, or a refusal */
  ok = refused = bad = 0;
  for (int k = 0; k < 20000; k++) {
    double rho = exp(log(1e-3) + uniform() * (log(1100.0) - log(1e-3)));
    double u = -0.1e6 + uniform() * 6.5e6;
    if97_state a, b;
    why[0] = 0;
    if (if97_rho_u(rho, u, &a, why, sizeof why)) {
      refused++;
      if (!why[0]) bad++;
      continue;
    }
    ok++;
    if (a.region == 4) {
      if (!(a.x >= 0 && a.x <= 1 && isfinite(a.p) && isfinite(a.h))) bad++;
      continue;
    }
    if (if97_pT(a.p, a.T, &b, why, sizeof why) || fabs(b.rho - rho) > 1e-8 * rho ||
        fabs(b.u - u) > 1e-8 * fabs(u) + 1e-3) {
      fprintf(stderr, "rho_u at rho = %.17g, u = %.17g: p %.17g T %.17g gives rho %.17g u %.17g\n",
              rho, u, a.p, a.T, b.rho, b.u);
      bad++;
    }
  }
  CHECK(bad == 0);
  CHECK(ok > 5000 && refused > 100);
  printf("random (rho, u): %d states, %d refused, %d bad\n", ok, refused, bad);
}

/* The same bits (or NaN for NaN) from a lane routine as from its scalar
 * routine, over a grid that crosses every path: water and steam (p, h) from
 * below the triple-point pressure to 100 MPa and from below 273.15 K to
 * beyond 2273.15 K (regions 1, 2, 5, two-phase, refusals), NaN and infinite
 * arguments; moist air (p, h, X) with dry, humid, foggy and refused states.
 * Calls of 1..77 states (a chunk of 32, partial chunks). */
static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }
static void lanes(void) {
  enum { NP = 41, NH = 90, N = NP * NH + 3 };
  static double p[N], h[N], T[N];
  int k = 0;
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NH; j++, k++) {
      p[k] = 300.0 * pow(1e8 / 300.0, i / (NP - 1.0)) * (1 + 1e-3 * j);
      h[k] = -2e5 + j * 9e4 + 777.0 * i;
    }
  p[k] = NAN, h[k++] = 1e5;
  p[k] = 1e5, h[k++] = INFINITY;
  p[k] = -1, h[k++] = 1e5;
  int bad = 0, fast = 0, nan = 0;
  for (int off = 0, len = 1; off < N; off += len, len = len % 77 + 1) {
    const int n = off + len > N ? N - off : len;
    if97_T_ph_lanes((size_t)n, p + off, h + off, T + off);
  }
  for (int i = 0; i < N; i++) {
    char why[160];
    double t = NAN;
    if (if97_T_ph(p[i], h[i], &t, why, sizeof why)) t = NAN;
    if (!same(t, T[i])) {
      if (bad++ < 5) fprintf(stderr, "T_ph_lanes(%.17g, %.17g) = %.17g, T_ph %.17g\n", p[i], h[i], T[i], t);
    }
    nan += t != t;
    fast += t == t && p[i] <= IF97_PS13;
  }
  CHECK(bad == 0);
  CHECK(nan > 100 && fast > 1000);
  printf("T_ph_lanes: %d states, %d refused, %d mismatches\n", N, nan, bad);
  /* moist air: X from dry to 0.3, h across fog and the range ends */
  static double X[N];
  k = 0;
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NH; j++, k++) {
      p[k] = 2e4 + i * 5e3;
      X[k] = 0.3 * i / (NP - 1.0);
      h[k] = -1e5 + j * 1e4;
    }
  p[k] = 1e5, X[k] = 1.0, h[k++] = 1e5;
  p[k] = 1e5, X[k] = -0.1, h[k++] = 1e5;
  p[k] = 1e5, X[k] = 0.01, h[k++] = NAN;
  for (int off = 0, len = 1; off < N; off += len, len = len % 77 + 1) {
    const int n = off + len > N ? N - off : len;
    ma_T_phX_lanes((size_t)n, p + off, h + off, X + off, T + off);
  }
  bad = nan = 0;
  int fog = 0;
  for (int i = 0; i < N; i++) {
    char why[160];
    ma_state st;
    const double t = ma_phX(p[i], h[i], X[i], &st, why, sizeof why) ? NAN : st.T;
    if (!same(t, T[i]) && bad++ < 5)
      fprintf(stderr, "ma_T_phX_lanes(%.17g, %.17g, %.17g) = %.17g, ma_phX %.17g\n", p[i], h[i],
              X[i], T[i], t);
    nan += t != t;
    fog += t == t && st.Xl > 0;
  }
  CHECK(bad == 0);
  CHECK(nan > 100 && fog > 100);
  printf("ma_T_phX_lanes: %d states, %d refused, %d with fog, %d mismatches\n", N, nan, fog, bad);
}

int main(void) {
  lanes();
  release_tables();
  random_sweep();
  round_trips();
  two_phase();
  region3();
  refusals();
  return CHECK_DONE();
}
