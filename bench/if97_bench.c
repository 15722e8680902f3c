/* if97_bench.c - the speed of IAPWS-IF97 property calls (src/lib/thermofluid/
 * if97*.c): the mean time of T(p,h), the state at (p,h) and at (rho,u) over
 * the states of tests/validation/data/if97_sample.csv, in two groups
 * (regions 1, 2, 5 and two-phase up to 623.15 K; region 3 and two-phase
 * above), each set of calls repeated R times (region 3: R / 10).
 *
 *   build/bench/if97_bench [CSV] [R]     (from the repository root)
 *
 * prints one table row per group and function: calls, mean ns per call. */
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

typedef struct pts {
  double p[MAXPTS], h[MAXPTS], rho[MAXPTS], u[MAXPTS];
  int n;
} pts;

/* One table row per call over the states of P, R times (the (rho, u) inverse,
 * slower, R / 20 times). 0, or 1 when a call fails. */
static int bench(const char *group, const pts *P, int reps, double *sum) {
  char why[256];
  const int n = P->n;
  double t0 = now();
  for (int k = 0; k < reps; k++)
    for (int i = 0; i < n; i++) {
      double t;
      if (if97_T_ph(P->p[i], P->h[i], &t, why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
      *sum += t;
    }
  double t1 = now();
  printf("| %s | T_ph(p, h) | %d | %.0f |\n", group, n * reps, 1e9 * (t1 - t0) / (n * (double)reps));
  if97_state st;
  t0 = now();
  for (int k = 0; k < reps; k++)
    for (int i = 0; i < n; i++) {
      if (if97_ph(P->p[i], P->h[i], &st, why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
      *sum += st.rho;
    }
  t1 = now();
  printf("| %s | state at (p, h) | %d | %.0f |\n", group, n * reps,
         1e9 * (t1 - t0) / (n * (double)reps));
  int r2 = reps / 20 > 0 ? reps / 20 : 1;
  t0 = now();
  for (int k = 0; k < r2; k++)
    for (int i = 0; i < n; i++) {
      if (if97_rho_u(P->rho[i], P->u[i], &st, why, sizeof why))
        return fprintf(stderr, "%s\n", why), 1;
      *sum += st.p;
    }
  t1 = now();
  printf("| %s | state at (rho, u) | %d | %.0f |\n", group, n * r2,
         1e9 * (t1 - t0) / (n * (double)r2));
  return 0;
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
  /* kinds 1, 2, 4, 5: regions 1, 2, 5, two-phase up to 623.15 K; kinds 3
   * and 6: region 3 and two-phase above 623.15 K */
  static pts g[2];
  int kind;
  char line[512];
  if (!fgets(line, sizeof line, f)) return fclose(f), 1;
  double T, s, r, cp, x, hh, pp;
  while (fgets(line, sizeof line, f) &&
         sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &kind, &pp, &T, &hh, &s, &r, &cp, &x) == 8) {
    pts *P = &g[kind == 3 || kind == 6];
    if (P->n == MAXPTS) continue;
    P->p[P->n] = pp, P->h[P->n] = hh, P->rho[P->n] = r, P->u[P->n] = hh - pp / r;
    P->n++;
  }
  fclose(f);
  if (g[0].n == 0 || reps < 1) {
    fprintf(stderr, "if97_bench: no states read from %s\n", path);
    return 1;
  }
  double sum = 0;
  printf("| states | call | calls | mean [ns] |\n|---|---|---|---|\n");
  if (bench("regions 1, 2, 5, two-phase to 623.15 K", &g[0], reps, &sum)) return 1;
  if (g[1].n && bench("region 3, two-phase above 623.15 K", &g[1], reps / 10 > 0 ? reps / 10 : 1, &sum))
    return 1;
  fprintf(stderr, "(checksum %.6e over %d + %d states)\n", sum, g[0].n, g[1].n);
  return 0;
}
