/* spsec.h - internal to lied: large linear sections solved sparsely.
 *
 * A section reduced to its tearing variables is dense when the network is
 * large (in a district-heating network the inertial pressure set at the
 * plant reaches every house: each column of the reduced matrix touches
 * nearly every member). So a large section keeps more unknowns: besides its
 * k tearing variables, some outputs of its members become unknowns too
 * ("cuts"). A cut is an output range of a member (a signal or a variable)
 * that other members of the section read: during a probing pass the member
 * runs, its computed value is saved and the cut's unknown value written in
 * its place, so every reader sees the unknown. Each cut adds the equation
 * computed - unknown = 0 to the k residuals. The planner (spplan.c) cuts
 * where a member's outputs would depend on more than LIED_SPARSE_WIDTH
 * unknowns, so every equation is local and the matrix is sparse (for trees
 * and ladders of n branches: O(n) unknowns and nonzeros).
 *
 * Probing (spprobe.c): one pass with every unknown at 0 gives b; the
 * columns are probed by colour (columns that share no row set to 1 in one
 * pass, which runs only the members they reach), the matrix assembled and
 * factorised by the sparse LU (linsys/sparse.h: KLU, its symbolic analysis
 * done once at build, numeric factors kept while the matrix is constant);
 * A u = -b solved; the tearing variables set; the members run once more
 * without cuts, as after a dense solve, so every variable is consistent.
 *
 * Batches of one section (count 1) only: identical copies of a section are
 * batched and small (lied_sb_sparse_wanted). */
#ifndef LIED_SCHED_SPSEC_H
#define LIED_SCHED_SPSEC_H
#include <stdint.h>
#include "linsys/sparse.h"
#include "sched/sched.h"

/* A member's outputs are cut once they depend on more than this many
 * unknowns (bench/district: 4 to 16 change the evaluation by a few per
 * cent). */
#define LIED_SPARSE_WIDTH 6

/* Sections of at least this many tearing variables are solved sparsely
 * when this build has a sparse LU (measured: docs/architecture.md,
 * "Sparse linear sections"). */
#define LIED_SPARSE_MIN_TEARS 24

typedef struct lied_spsec {
  int k;           /* tearing variables: unknowns and rows 0 .. k - 1 */
  int ncut;        /* cut variables: unknowns and rows k .. k + ncut - 1 */
  int nu;          /* k + ncut */
  double **cut_at; /* per cut: the double it replaces */
  int *hstart;     /* per member (section order): its cuts hook[hstart[j] .. hstart[j + 1]) */
  int *hook;
  uint64_t *rowptr; /* the matrix (CSR, rows sorted, diagonal present) */
  uint32_t *cols;
  double *val;
  uint64_t nnz;
  uint64_t *ctp;    /* ... by column: rows crow[ctp[j] .. ctp[j + 1]), their positions cpos */
  uint32_t *crow;
  uint64_t *cpos;
  int ncolour;
  int *gstart, *gcol; /* columns of colour g: gcol[gstart[g] .. gstart[g + 1]) */
  int *pstart, *pmem; /* members of the pass of colour g: pmem[pstart[g] .. pstart[g + 1]) */
  lied_splu *lu;
  int factored;       /* constant sections: the factors are current */
  double *b, *x, *comp, *u; /* rhs, solution, computed cut values, unknowns */
  /* Sections of the dynamic part: the first index of their unknowns among
   * those of every such section (lied_sched.naug), -1 otherwise. When fz
   * is set (lied_sched_fix_unknowns), an evaluation does not solve the
   * section: its unknowns take the values fz, and its equations' values
   * go to fg (the implicit solvers' sparse formulation). */
  int64_t z0;
  const double *fz;
  double *fg;
  /* with fz: called after member j ran with its hooks (the sparse
   * formulation's trees of partial sums inside the section, sched/aug.h) */
  void (*after)(void *ctx, int j);
  void *actx;
} lied_spsec;

void lied_spsec_free(lied_spsec *sp);

/* Solve sparse section sec (count 1) at env->t, leaving what mode says
 * consistent. Allocates nothing. LIED_OK, or LIED_E_SINGULAR naming the
 * section's tearing variables and the time; LIED_E_SOLVER or LIED_E_NOMEM
 * from the sparse LU. */
int lied_spsec_probe(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                     const lied_env *env, lied_err *e);

#endif
