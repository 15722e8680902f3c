/* flat_crabchain.c - the flat reference for examples/crab_chain.lua: n crane
 * crabs whose carts are linked to their neighbours by springs (c = 100 N/m,
 * zero unstretched length, along x: the carts slide on one line), as one
 * hand-written right-hand side over a contiguous state vector (closed-form
 * solution of each crab's 2x2 system with the springs' forces on its cart),
 * integrated by lied's own fixed-step RK4 stepper. The chain next to
 * flat_cranecrab.c (the independent crabs).
 *
 *   flat_crabchain N STEPS DT [--csv FILE] [--vary]   (see crab_driver.h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "crab_driver.h"
#include "solve/erk.h"

/* The crane crab of flat_cranecrab.c and the springs' stiffness. */
typedef struct chain_params {
  double m1, m2, I2, rx, ry, g, c;
} chain_params;

static const chain_params P = {1.0, 0.5, 0.05, 0.5, 1.5, 9.81, 100.0};

/* x = (s, v, phi, w) per crab. Lagrange, with the force F on cart i from the
 * springs to crabs i-1 and i+1, F = c (s[i+1] - s[i]) - c (s[i] - s[i-1]):
 * [m1+m2, m2 A; m2 A, m2 L^2 + I2] [s''; phi''] = [m2 w^2 C + F; -m2 g C]
 * with A = -rx sin(phi) - ry cos(phi), C = rx cos(phi) - ry sin(phi). */
static int rhs(void *ctx, double t, const double *x, double *dx) {
  (void)t;
  size_t n = *(const size_t *)ctx;
  const double m1 = P.m1, m2 = P.m2, L2 = P.rx * P.rx + P.ry * P.ry;
  const double a11 = m1 + m2, a22 = m2 * L2 + P.I2;
  for (size_t i = 0; i < n; i++) {
    const double *y = x + 4 * i;
    double *d = dx + 4 * i;
    double F = 0;
    if (i > 0) F -= P.c * (y[0] - y[-4]);
    if (i + 1 < n) F += P.c * (y[4] - y[0]);
    double sn = sin(y[2]), c = cos(y[2]);
    double A = -P.rx * sn - P.ry * c, C = P.rx * c - P.ry * sn;
    double a12 = m2 * A;
    double r1 = m2 * y[3] * y[3] * C + F, r2 = -m2 * P.g * C;
    double det = a11 * a22 - a12 * a12;
    d[0] = y[1];
    d[1] = (r1 * a22 - a12 * r2) / det;
    d[2] = y[3];
    d[3] = (a11 * r2 - a12 * r1) / det;
  }
  return 0;
}

typedef struct flat_ctx {
  lied_erk erk;
  size_t n;
} flat_ctx;

static int flat_step(void *ctx, double t, double h, long nsteps, double *x) {
  flat_ctx *c = ctx;
  for (long k = 0; k < nsteps; k++) lied_erk_step(&c->erk, rhs, &c->n, t + (double)k * h, h, x);
  return 0;
}

int main(int argc, char **argv) {
  crab_args a;
  int rc = crab_parse(argc, argv, "flat_crabchain", &a);
  if (rc) return rc;
  flat_ctx c = {.n = a.n};
  double *x = calloc(4 * a.n, sizeof *x);
  lied_err e = {0};
  if (!x || lied_erk_init(&c.erk, lied_tableau_find("rk4"), 4 * a.n, &e)) {
    fprintf(stderr, "flat_crabchain: %s\n", x ? e.msg : "out of memory");
    return 1;
  }
  rc = crab_drive("flat_crabchain", &a, x, flat_step, &c, c.erk.tab->stages);
  lied_erk_free(&c.erk);
  free(x);
  return rc;
}
