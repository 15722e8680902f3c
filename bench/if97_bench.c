/* if97_bench.c - the speed of IAPWS-IF97 property calls (src/lib/thermofluid/
 * if97*.c): the mean time of T(p,h), the state at (p,h) and at (rho,u) over
 * the states of tests/validation/data/if97_sample.csv (regions 1, 2, 5 and
 * two-phase), each set of calls repeated R times.
 *
 *   build/bench/if97_bench [CSV] [R]     (from the repository root)
 *
 * prints one table row per function: calls, mean ns per call. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lib/thermofluid/if97.h"

#define MAXPTS 4096

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "tests/validation/data/if97_sample.csv";
  int reps = argc > 2 ? atoi(argv[2]) : 200;
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "if97_bench: cannot open %s (run from the repository root or give the path)\n",
            path);
    return 1;
  }
  static double p[MAXPTS], h[MAXPTS], rho[MAXPTS], u[MAXPTS];
  int n = 0, kind;
  char line[512];
  if (!fgets(line, sizeof line, f)) return fclose(f), 1;
  double T, s, r, cp, x, hh, pp;
  while (n < MAXPTS && fgets(line, sizeof line, f) &&
         sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &kind, &pp, &T, &hh, &s, &r, &cp, &x) == 8) {
    p[n] = pp, h[n] = hh, rho[n] = r, u[n] = hh - pp / r;
    n++;
  }
  fclose(f);
  if (n == 0 || reps < 1) {
    fprintf(stderr, "if97_bench: no states read from %s\n", path);
    return 1;
  }
  char why[256];
  double sum = 0;
  printf("| call | calls | mean [ns] |\n|---|---|---|\n");
  double t0 = now();
  for (int k = 0; k < reps; k++)
    for (int i = 0; i < n; i++) {
      double t;
      if (if97_T_ph(p[i], h[i], &t, why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
      sum += t;
    }
  double t1 = now();
  printf("| T_ph(p, h) | %d | %.0f |\n", n * reps, 1e9 * (t1 - t0) / (n * (double)reps));
  if97_state st;
  t0 = now();
  for (int k = 0; k < reps; k++)
    for (int i = 0; i < n; i++) {
      if (if97_ph(p[i], h[i], &st, why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
      sum += st.rho;
    }
  t1 = now();
  printf("| state at (p, h) | %d | %.0f |\n", n * reps, 1e9 * (t1 - t0) / (n * (double)reps));
  int r2 = reps / 20 > 0 ? reps / 20 : 1;
  t0 = now();
  for (int k = 0; k < r2; k++)
    for (int i = 0; i < n; i++) {
      if (if97_rho_u(rho[i], u[i], &st, why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
      sum += st.p;
    }
  t1 = now();
  printf("| state at (rho, u) | %d | %.0f |\n", n * r2, 1e9 * (t1 - t0) / (n * (double)r2));
  fprintf(stderr, "(checksum %.6e over %d states)\n", sum, n);
  return 0;
}
