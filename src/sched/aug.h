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

/* A sum node (core/sum.h) with k contributions whose set is too large is
 * cut as a tree of partial sums rather than as one unknown per value: its
 * contributions are grouped in order while a group's set stays within
 * LIED_AUG_WIDTH (one contribution at least), each group's sum an unknown
 * (level 0); each further level sums LIED_AUG_WIDTH unknowns of the one
 * below, up to one, the root, which the node's readers see. Each unknown's
 * row is what it sums minus itself, so no row of the Jacobian is wider
 * than the width or one contribution's set (a cold plate summing the heat
 * of 320 cells: rows of at most 9 instead of one of 1,282). */
#define LIED_AUG_TREE_LEVELS 24
typedef struct lied_aug_tree {
  struct lied_sum *node;
  uint64_t u0;                          /* its first unknown of w; value d's from u0 + d * per */
  uint32_t per, nlev;                   /* unknowns per value, levels (>= 2) */
  uint32_t lev[LIED_AUG_TREE_LEVELS + 1]; /* level l: offsets lev[l] .. lev[l + 1] */
  uint32_t *q;                          /* level 0: group i sums contributions q[i] .. q[i + 1] */
  int sec, mem;                         /* a member of a sparse section: its index and the member's, or -1 */
  int *cutof;                           /* per value: the section's cut that replaces it, or -1 (NULL: none) */
} lied_aug_tree;

typedef struct lied_aug {
  uint64_t nx, nz, nw; /* states, section unknowns (s->naug), explicit cuts */
  uint64_t *rowptr;    /* the pattern of [f; g] over y, (nx + nz + nw) square */
  uint32_t *cols;
  /* explicit cut c: the double at at[c], hooked after dynamic step step_of
   * the block writing it: hooks of step i: hook[hstart[i] .. hstart[i + 1]) */
  double **at;                          /* NULL for the unknowns of trees */
  uint32_t *hstart, *hook;
  int nsteps;
  /* the trees of partial sums; those of step i: tord[tstart[i] .. tstart[i + 1]) */
  lied_aug_tree *tree;
  uint32_t ntree, *tstart, *tord;
  /* the trees inside sparse section i: sord[sstart[i] .. sstart[i + 1]), by member */
  uint32_t *sstart, *sord;
  struct lied_aug_after *after; /* per section: the state of its callback during an evaluation */
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

/* A tree's equations at the unknowns yw (w's part of y) into gw, and the
 * node's values := its roots' unknowns, or where a value is a cut of its
 * section, the cut's computed value comp[c] (augsum.c). */
void lied_aug_tree_eval(const lied_aug_tree *T, const double *yw, double *gw, double *comp);
/* A tree's unknowns at the model's point: the partial sums of what the node
 * adds now. */
void lied_aug_tree_point(const lied_aug_tree *T, double *yw);

#endif
