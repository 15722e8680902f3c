/* crab_driver.c - see crab_driver.h. */
#define _POSIX_C_SOURCE 200809L
#include "crab_driver.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int crab_parse(int argc, char **argv, const char *prog, crab_args *a) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s N STEPS DT [--csv FILE] [--vary] [--block B]\n", prog);
    return 2;
  }
  a->n = strtoull(argv[1], NULL, 10);
  a->steps = strtol(argv[2], NULL, 10);
  a->dt = strtod(argv[3], NULL);
  a->csv = NULL;
  a->vary = 0;
  a->block = 1;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      a->csv = argv[++i];
    } else if (strcmp(argv[i], "--vary") == 0) {
      a->vary = 1;
    } else if (strcmp(argv[i], "--block") == 0 && i + 1 < argc) {
      a->block = strtol(argv[++i], NULL, 10);
    } else {
      fprintf(stderr, "%s: unknown argument %s\n", prog, argv[i]);
      return 2;
    }
  }
  if (a->n == 0 || a->steps < 0 || !(a->dt > 0) || a->block < 1 || (a->csv && a->block > 1)) {
    fprintf(stderr, "%s: bad arguments\n", prog);
    return 2;
  }
  return 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void row(FILE *f, double t, const double *x) {
  if (f) fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g\n", t, x[0], x[1], x[2], x[3]);
}

int crab_drive(const char *prog, const crab_args *a, double *x, crab_step_fn step, void *ctx,
               int evals_per_step) {
  const size_t n = a->n;
  /* every page of x written (not left as the shared zero page of calloc) */
  for (size_t i = 0; i < n; i++) x[4 * i + 2] = a->vary ? 0.1 * (double)(i % 7) : 0.0;
  /* one untimed step on a copy touches every page of the program's work
   * memory first (instances, stage buffers), as lied's instantiation does
   * for its own */
  double *y = malloc(sizeof *y * 4 * n);
  if (!y) {
    fprintf(stderr, "%s: out of memory for %zu crabs\n", prog, n);
    return 1;
  }
  memcpy(y, x, sizeof *y * 4 * n);
  int warm = step(ctx, 0.0, a->dt, 1, y);
  free(y);
  if (warm) {
    fprintf(stderr, "%s: singular section in the first step\n", prog);
    return 1;
  }
  FILE *f = a->csv ? fopen(a->csv, "w") : NULL;
  if (a->csv && !f) {
    fprintf(stderr, "%s: cannot write %s\n", prog, a->csv);
    return 1;
  }
  if (f) fprintf(f, "time,prismatic1.s,prismatic1.v,revolute2.phi,revolute2.w\n");
  row(f, 0.0, x);
  double t0 = now();
  for (long k = 0; k < a->steps; k += a->block) {
    long m = a->steps - k < a->block ? a->steps - k : a->block;
    if (step(ctx, (double)k * a->dt, a->dt, m, x)) {
      fprintf(stderr, "%s: singular section in the steps from t = %g\n", prog, (double)k * a->dt);
      if (f) fclose(f);
      return 1;
    }
    row(f, (double)(k + m) * a->dt, x);
  }
  double wall = now() - t0;
  if (f) fclose(f);
  long evals = a->steps * evals_per_step;
  printf("crabs %zu steps %ld evaluations %ld wall %.6f s per_eval_per_crab %.3f ns\n", n,
         a->steps, evals, wall, evals ? 1e9 * wall / (double)evals / (double)n : 0.0);
  if (a->vary) { /* weighted by the crab's index: copies swapped show too */
    double sum = 0;
    for (size_t i = 0; i < 4 * n; i++) sum += (double)(i / 4 + 1) * x[i];
    printf("state_sum %.17g\n", sum);
  }
  return 0;
}
