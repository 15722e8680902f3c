/* rftab_bench.c - the speed of the refrigerants' properties (docs/media.md):
 * per fluid, the table's build time (the least of B builds) and the mean
 * time of a call over N deterministic random states in the table's range
 * (single phase and two-phase, in the proportions of the (p, h) range):
 * T(p, h) and (T, rho, s, x) at (p, h) from the tables, scalar and in lane
 * form (calls of 32 states, time per state), the (rho, u) inverse, and the
 * equation of state's own (p, h) flash for comparison (N / 100 states).
 *
 *   build/bench/rftab_bench [N] [R] [B]      (defaults 4096 200 3)
 *
 * prints a markdown table: fluid, call, ns per state (the thread's CPU time,
 * so that other processes on a shared machine count less; the build times
 * are wall clock). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lib/thermofluid/rftab.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng = 88172645463325252ULL;
static double uni(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 4096, R = argc > 2 ? atoi(argv[2]) : 200;
  int B = argc > 3 ? atoi(argv[3]) : 3;
  if (N < 32 || R < 1 || B < 1) {
    fprintf(stderr, "usage: rftab_bench [N >= 32] [R >= 1] [B >= 1]\n");
    return 2;
  }
  const hz_fluid *fl[] = {&hz_r134a, &hz_r1234yf, &hz_r290, &hz_r744};
  double *p = malloc(sizeof(double) * (size_t)N * 6), *h = p + N, *T = h + N, *rho = T + N,
         *u = rho + N, *out = u + N;
  rft_props *o = malloc(sizeof(rft_props) * 32);
  if (!p || !o) return 1;
  double sink = 0;
  printf("| fluid | call | ns per state |\n| --- | --- | ---: |\n");
  for (int k = 0; k < 4; k++) {
    char why[256];
    double best = 1e30;
    rft_table *t = NULL;
    for (int b = 0; b < B; b++) {
      rft_free(t);
      t = rft_build(fl[k], why, sizeof why);
      if (!t) return fprintf(stderr, "%s\n", why), 1;
      best = best < t->build_s ? best : t->build_s;
    }
    printf("| %s | build the table (ms, least of %d) | %.0f |\n", t->name, B, 1e3 * best);
    for (int i = 0; i < N; i++) {
      double lo, hi;
      p[i] = t->p_lo * exp(uni() * log(t->p_hi / t->p_lo));
      (void)rft_h_bounds(t, p[i], &lo, &hi);
      h[i] = lo + uni() * (hi - lo);
      rft_props q;
      if (rft_ph(t, p[i], h[i], &q)) return 1;
      rho[i] = q.rho, u[i] = q.u;
    }
    double t0 = now();
    for (int r = 0; r < R; r++)
      for (int i = 0; i < N; i++) sink += rft_T_ph(t, p[i], h[i]);
    double t1 = now();
    printf("| %s | T(p, h), scalar | %.1f |\n", t->name, 1e9 * (t1 - t0) / ((double)N * R));
    t0 = now();
    for (int r = 0; r < R; r++)
      for (int i = 0; i < N; i++) {
        rft_props q;
        (void)rft_ph(t, p[i], h[i], &q);
        sink += q.T + q.rho + q.s + q.x;
      }
    t1 = now();
    printf("| %s | (T, rho, s, x) at (p, h), scalar | %.1f |\n", t->name,
           1e9 * (t1 - t0) / ((double)N * R));
    t0 = now();
    for (int r = 0; r < R; r++)
      for (int i = 0; i + 32 <= N; i += 32) {
        rft_T_ph_lanes(t, 32, p + i, h + i, out + i);
        sink += out[i];
      }
    t1 = now();
    printf("| %s | T(p, h), lanes of 32 | %.1f |\n", t->name,
           1e9 * (t1 - t0) / ((double)(N / 32 * 32) * R));
    t0 = now();
    for (int r = 0; r < R; r++)
      for (int i = 0; i + 32 <= N; i += 32) {
        rft_ph_lanes(t, 32, p + i, h + i, 0, o);
        sink += o[0].T + o[31].rho;
      }
    t1 = now();
    printf("| %s | (T, rho, s, x) at (p, h), lanes of 32 | %.1f |\n", t->name,
           1e9 * (t1 - t0) / ((double)(N / 32 * 32) * R));
    int R2 = R / 10 > 0 ? R / 10 : 1;
    t0 = now();
    for (int r = 0; r < R2; r++)
      for (int i = 0; i < N; i++) {
        double pp, hh;
        if (rft_from_rho_u(t, rho[i], u[i], &pp, &hh)) return 1;
        sink += pp;
      }
    t1 = now();
    printf("| %s | (p, h) at (rho, u) | %.1f |\n", t->name, 1e9 * (t1 - t0) / ((double)N * R2));
    int n3 = N / 100 > 10 ? N / 100 : 10;
    t0 = now();
    for (int i = 0; i < n3; i++) {
      hz_state st;
      if (hz_state_ph(&t->eos, p[i], h[i], &st, why, sizeof why)) return 1;
      sink += st.T;
    }
    t1 = now();
    printf("| %s | the equation of state's flash at (p, h) | %.0f |\n", t->name,
           1e9 * (t1 - t0) / n3);
    rft_free(t);
  }
  free(p), free(o);
  return sink == 12345.678 ? 3 : 0;
}
