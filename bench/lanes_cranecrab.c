/* lanes_cranecrab.c - what lane blocks would give: n crane crabs evaluated
 * the LIED way (the same components, blocks, linear section and probing as
 * lied runs for examples/scaling.lua), but with every component's data laid
 * out as structure-of-arrays groups of W copies ("lanes") and every block
 * written as a loop over the lanes of one group, so that the compiler
 * evaluates several copies per instruction. Ports are pointers to the
 * source group's signal (variable v of lane l at [v * W + l]).
 *
 *   lanes_cranecrab N STEPS DT [--csv FILE] [--vary]   (see crab_driver.h)
 *
 * The blocks are separate functions called through pointers in schedule
 * order, as lied's are; the section is probed as lied
 * probes it: a pass with both tearing variables at 0 over its 9 members, a
 * column pass for the revolute's (7 members downstream) and one for the
 * prismatic's (all 9), Cramer's rule per lane, a final pass over the two
 * members whose results leave the section. Integration: fused RK4 steps
 * chunk by chunk, stages formed by lied_rk_combine, as lied does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crab_driver.h"
#include "lanes_crab.h"
#include "solve/erk.h"

/* nsteps RK4 steps, group by group, each group through all of them (x per
 * crab: s, v, phi, w); x is replaced only when every group succeeded */
static int step_rk4(model *M, const lied_tableau *tab, double h, long nsteps, double *x,
                    double *xnew, size_t ncrab) {
  const int ns = tab->stages;
  for (size_t g = 0; g < M->c.groups; g++) {
    size_t q0 = g * W, n = ncrab - q0 < W ? ncrab - q0 : W;
    double *xs = x + 4 * q0;
    for (long j = 0; j < nsteps; j++) {
      if (j == 1) xs = xnew + 4 * q0; /* later steps go on from the new state */
      for (int i = 0; i < ns; i++) {
        const double *y = xs;
        if (i) {
          lied_rk_combine(4 * n, xs, h, tab->a + (size_t)i * (size_t)ns, i, M->kbuf, 4 * W, M->y);
          y = M->y;
        }
        lanes_states_in(M, g, n, y);
        lanes_motion(M, g, n);
        if (lanes_section(M, g, n)) return -1;
        lanes_ders_out(M, g, n, M->kbuf + (size_t)i * 4 * W);
      }
      lied_rk_combine(4 * n, xs, h, tab->b, ns, M->kbuf, 4 * W, xnew + 4 * q0);
    }
  }
  memcpy(x, xnew, sizeof *x * 4 * ncrab);
  return 0;
}

typedef struct lanes_ctx {
  model *M;
  const lied_tableau *tab;
  double *xnew;
  size_t n;
} lanes_ctx;

static int lanes_step(void *ctx, double t, double h, long nsteps, double *x) {
  (void)t;
  lanes_ctx *c = ctx;
  return step_rk4(c->M, c->tab, h, nsteps, x, c->xnew, c->n);
}

int main(int argc, char **argv) {
  crab_args a;
  int rc = crab_parse(argc, argv, "lanes_cranecrab", &a);
  if (rc) return rc;
  lanes_ctx c = {calloc(1, sizeof(model)), lied_tableau_find("rk4"),
                 calloc(4 * a.n, sizeof(double)), a.n};
  double *x = calloc(4 * a.n, sizeof *x);
  if (!c.M || !x || !c.xnew || lanes_model_init(c.M, a.n, 0, 0)) {
    fprintf(stderr, "lanes_cranecrab: out of memory for %zu crabs\n", a.n);
    return 1;
  }
  rc = crab_drive("lanes_cranecrab", &a, x, lanes_step, &c, c.tab->stages);
  lanes_model_free(c.M);
  free(c.M), free(x), free(c.xnew);
  return rc;
}
