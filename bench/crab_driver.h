/* crab_driver.h - the command line, output and timing shared by the
 * hand-written crane-crab programs of bench/ (flat_cranecrab, lanes_cranecrab):
 *
 *   PROG N STEPS DT [--csv FILE] [--vary] [--block B]
 *
 * prints "crabs N steps S evaluations E wall W s per_eval_per_crab X ns";
 * --csv writes crab 0's trajectory (time, s, v, phi, w) at every step;
 * --vary starts crab i at phi = 0.1 (i mod 7) rad and prints the sum of all
 * final states, each weighted by its crab's number, as "state_sum" (crabs
 * differ, so a mix-up between copies shows); --block B asks the program for
 * B steps per call (lanes_cranecrab then takes them group by group while a
 * group's data is in cache, as lied's blocks of fused steps; flat_cranecrab
 * loops; not with --csv). One untimed step on a copy of the start touches
 * the work memory before the timed steps. */
#ifndef LIED_BENCH_CRAB_DRIVER_H
#define LIED_BENCH_CRAB_DRIVER_H
#include <stddef.h>

typedef struct crab_args {
  size_t n;
  long steps;
  double dt;
  const char *csv;
  int vary;
  long block; /* steps per call of the step function */
} crab_args;

/* nsteps steps of every crab from t, of h each; x holds (s, v, phi, w) per
 * crab. Returns 0, or -1 (a message is printed by the driver). */
typedef int (*crab_step_fn)(void *ctx, double t, double h, long nsteps, double *x);

/* Parse the command line: 0, or the exit status 2 after a message. */
int crab_parse(int argc, char **argv, const char *prog, crab_args *a);

/* Run a->steps steps from x (zeros, or varied start angles), timed, with the
 * outputs above. Returns the exit status. */
int crab_drive(const char *prog, const crab_args *a, double *x, crab_step_fn step, void *ctx,
               int evals_per_step);

#endif
