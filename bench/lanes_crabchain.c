/* lanes_crabchain.c - what lane forms over coupled arrays would give: the
 * crab chain of examples/crab_chain.lua (crab i's cart linked to crab
 * i + 1's by lied's Spring, c = 100 N/m, zero unstretched length) evaluated
 * the LIED way with every component in lane groups of W copies
 * (lanes_crab.c, as lanes_cranecrab.c for independent crabs), the
 * neighbours read through halo copies: a group's springs read the next
 * carts' positions from a copy of the cart positions shifted by one lane
 * (the last lane from the next group), the carts read the force of the
 * spring before from a copy shifted the other way (the first lane from the
 * group before). Whole-vector RK4 steps (lied_erk_step, as flat_crabchain):
 * each evaluation runs the motion blocks of every group, then the halos and
 * springs, then the halos of the springs' forces and the sections.
 *
 *   lanes_crabchain N STEPS DT [--csv FILE] [--vary]   (see crab_driver.h)
 *
 * With --vary it prints the same state_sum as flat_crabchain (the same
 * equations, another order of operations: equal to some 1e-12). */
#include <stdio.h>
#include <stdlib.h>
#include "crab_driver.h"
#include "lanes_crab.h"
#include "solve/erk.h"

typedef struct chain_ctx {
  model *M;
  lied_erk erk;
} chain_ctx;

static int rhs(void *ctx, double t, const double *x, double *dx) {
  (void)t;
  model *M = ctx;
  const size_t G = M->c.groups, n = M->n;
#define COUNT(g) (n - (g) * W < W ? n - (g) * W : W)
  for (size_t g = 0; g < G; g++) {
    lanes_states_in(M, g, COUNT(g), x + 4 * g * W);
    lanes_motion(M, g, COUNT(g));
  }
  for (size_t g = 0; g < G; g++) lanes_springs(M, g, COUNT(g));
  for (size_t g = 0; g < G; g++) {
    lanes_spring_halo(M, g);
    if (lanes_section(M, g, COUNT(g))) return -1;
    lanes_ders_out(M, g, COUNT(g), dx + 4 * g * W);
  }
#undef COUNT
  return 0;
}

static int chain_step(void *ctx, double t, double h, long nsteps, double *x) {
  chain_ctx *c = ctx;
  for (long k = 0; k < nsteps; k++)
    if (lied_erk_step(&c->erk, rhs, c->M, t + (double)k * h, h, x)) return -1;
  return 0;
}

int main(int argc, char **argv) {
  crab_args a;
  int rc = crab_parse(argc, argv, "lanes_crabchain", &a);
  if (rc) return rc;
  chain_ctx c = {calloc(1, sizeof(model)), {0}};
  double *x = calloc(4 * a.n, sizeof *x);
  lied_err e = {0};
  if (!c.M || !x || lanes_model_init(c.M, a.n, 1, 100.0) ||
      lied_erk_init(&c.erk, lied_tableau_find("rk4"), 4 * a.n, &e)) {
    fprintf(stderr, "lanes_crabchain: out of memory for %zu crabs\n", a.n);
    return 1;
  }
  rc = crab_drive("lanes_crabchain", &a, x, chain_step, &c, c.erk.tab->stages);
  lied_erk_free(&c.erk);
  lanes_model_free(c.M);
  free(c.M), free(x);
  return rc;
}
