/* aug.h - internal to lied: the implicit solvers' sparse formulation.
 *
 * The derivatives of a network reduced to its states are dense: a pressure
 * computed explicitly along a main depends on every flow upstream, and a
 * linear section's solution on all its inputs (the tearing's inverse is
 * dense). So the implicit solvers (esdirk, beuler, cvode) solve their
 * Newton systems on more unknowns than the states: y = [x; z; w], with z
 * the unknowns of the model's sparse linear sections (sched/spsec.h) and w
 * explicit cuts, the outputs of dynamic blocks whose values would depend on
 * more than LIED_AUG_WIDTH unknowns (each such output an unknown of its own,
 * as the sections' cuts are). Evaluated at y with z and w given (nothing
 * solved), the model gives [f; g]: the derivatives, the sections' equations
 * and each cut's computed minus given value; g = 0 where y is the model's
 * own point. The Jacobian of [f; g] over y is sparse, and the Newton
 * matrix [I - hg F_x, -hg F_y'; G_x, G_y'] solved with [b; 0] gives
 * (I - hg df/dx)^-1 b exactly, without forming the dense df/dx
 * (solve/newton.h). docs/solvers.md, "Sparse implicit steps". */
#ifndef LIED_SCHED_AUG_H
#define LIED_SCHED_AUG_H
#include <stdint.h>
#include "sched/sched.h"

/* A block's outputs become unknowns when they would depend on more than
 * this many unknowns. */
#ifndef LIED_AUG_WIDTH
#define LIED_AUG_WIDTH 8
#endif

typedef struct lied_aug {
  uint64_t nx, nz, nw; /* states, section unknowns (s->naug), explicit cuts */
  uint64_t *rowptr;    /* the pattern of [f; g] over y, (nx + nz + nw) square */
  uint32_t *cols;
  /* explicit cut c: the double at at[c], hooked after dynamic step step_of
   * the block writing it: hooks of step i: hook[hstart[i] .. hstart[i + 1]) */
  double **at;
  uint32_t *hstart, *hook;
  int nsteps;
} lied_aug;

/* The plan of s's sparse formulation (s->naug > 0: the model has sparse
 * sections in its dynamic part), from the block graph rebuilt for the
 * occasion. LIED_OK, LIED_E_NOMEM, LIED_E_LIMIT (2^32 unknowns). */
int lied_aug_new(lied_sched *s, lied_aug **out, lied_err *e);
void lied_aug_free(lied_aug *A);

/* [f; g] at (t, y) (y and out nx + nz + nw long), nothing solved: the
 * dynamic part runs step by step on this thread. LIED_OK or the status of
 * a block fault. */
int lied_aug_eval(lied_sched *s, const lied_aug *A, double t, const double *y, double *out,
                  lied_err *e);

/* The model's own point after an evaluation of derivatives at x: y[nx ..)
 * := the unknowns the sections solved for and the cut outputs' values
 * (y[0 .. nx) is left to the caller). */
void lied_aug_point(const lied_sched *s, const lied_aug *A, double *y);

#endif
