/* flat_cranecrab.c - the "what a flattening compiler would emit" reference:
 * n independent crane crabs as one hand-written right-hand side over a
 * contiguous state vector (closed-form solution of each 2x2 system),
 * integrated by lied's own fixed-step RK4 stepper.
 *
 *   flat_cranecrab N STEPS DT [--csv FILE] [--vary]
 *
 * Prints the time per model evaluation per crab; with --csv writes crab 0's
 * trajectory (time, s, v, phi, w) at every step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "solve/erk.h"

/* Crane crab of seed 002 / domains.md: cart m1 on a prismatic joint along x,
 * pendulum body m2, I2 at r = (rx, ry) in the revolute's frame, gravity g. */
typedef struct crab_params {
  double m1, m2, I2, rx, ry, g;
} crab_params;

static const crab_params P = {1.0, 0.5, 0.05, 0.5, 1.5, 9.81};

/* x = (s, v, phi, w) per crab. Lagrange:
 * [m1+m2, m2 A; m2 A, m2 L^2 + I2] [s''; phi''] = [m2 w^2 C; -m2 g C]
 * with A = -rx sin(phi) - ry cos(phi), C = rx cos(phi) - ry sin(phi). */
static int rhs(void *ctx, double t, const double *x, double *dx) {
  (void)t;
  size_t n = *(const size_t *)ctx;
  const double m1 = P.m1, m2 = P.m2, L2 = P.rx * P.rx + P.ry * P.ry;
  const double a11 = m1 + m2, a22 = m2 * L2 + P.I2;
  for (size_t i = 0; i < n; i++) {
    const double *y = x + 4 * i;
    double *d = dx + 4 * i;
    double sn = sin(y[2]), c = cos(y[2]);
    double A = -P.rx * sn - P.ry * c, C = P.rx * c - P.ry * sn;
    double a12 = m2 * A;
    double r1 = m2 * y[3] * y[3] * C, r2 = -m2 * P.g * C;
    double det = a11 * a22 - a12 * a12;
    d[0] = y[1];
    d[1] = (r1 * a22 - a12 * r2) / det;
    d[2] = y[3];
    d[3] = (a11 * r2 - a12 * r1) / det;
  }
  return 0;
}

/* --vary: crab i starts at phi = 0.1 (i mod 7) rad (crabs differ, so a
 * mix-up between copies shows in the sum of all final states, printed as
 * "state_sum"). */
static void vary_start(double *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[4 * i + 2] = 0.1 * (double)(i % 7);
}

static double state_sum(const double *x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < 4 * n; i++) sum += x[i];
  return sum;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: flat_cranecrab N STEPS DT [--csv FILE] [--vary]\n");
    return 2;
  }
  size_t n = strtoull(argv[1], NULL, 10);
  long steps = strtol(argv[2], NULL, 10);
  double dt = strtod(argv[3], NULL);
  const char *csv = NULL;
  int vary = 0;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
      csv = argv[++i];
    else if (strcmp(argv[i], "--vary") == 0)
      vary = 1;
    else {
      fprintf(stderr, "%s: unknown argument %s\n", argv[0], argv[i]);
      return 2;
    }
  }
  if (n == 0 || steps < 0 || !(dt > 0)) {
    fprintf(stderr, "flat_cranecrab: bad arguments\n");
    return 2;
  }
  double *x = calloc(4 * n, sizeof *x);
  lied_erk erk;
  if (!x || lied_erk_init(&erk, lied_tableau_find("rk4"), 4 * n)) {
    fprintf(stderr, "flat_cranecrab: out of memory for %zu crabs\n", n);
    return 1;
  }
  if (vary) vary_start(x, n);
  FILE *f = csv ? fopen(csv, "w") : NULL;
  if (csv && !f) {
    fprintf(stderr, "flat_cranecrab: cannot write %s\n", csv);
    return 1;
  }
  if (f) fprintf(f, "time,prismatic1.s,prismatic1.v,revolute2.phi,revolute2.w\n%.17g,%.17g,%.17g,%.17g,%.17g\n", 0.0, x[0], x[1], x[2], x[3]);
  /* one untimed evaluation touches every page of the work space first, as
   * lied's instantiation does for its own memory */
  double *warm = calloc(4 * n, sizeof *warm);
  if (!warm) {
    fprintf(stderr, "flat_cranecrab: out of memory for %zu crabs\n", n);
    return 1;
  }
  rhs(&n, 0.0, x, warm);
  free(warm);
  for (size_t i = 0; i < 4 * n * (size_t)erk.tab->stages; i++) erk.k[i] = 0;
  for (size_t i = 0; i < 4 * n; i++) erk.xtmp[i] = 0;
  double t0 = now();
  for (long k = 0; k < steps; k++) {
    lied_erk_step(&erk, rhs, &n, (double)k * dt, dt, x);
    if (f)
      fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g\n", (double)(k + 1) * dt, x[0], x[1], x[2], x[3]);
  }
  double wall = now() - t0;
  if (f) fclose(f);
  printf("crabs %zu steps %ld evaluations %ld wall %.6f s per_eval_per_crab %.3f ns\n", n, steps,
         erk.nrhs, wall, erk.nrhs ? 1e9 * wall / (double)erk.nrhs / (double)n : 0.0);
  if (vary) printf("state_sum %.17g\n", state_sum(x, n));
  lied_erk_free(&erk);
  free(x);
  return 0;
}
