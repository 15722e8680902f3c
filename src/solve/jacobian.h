/* jacobian.h - the Jacobian of the state derivatives by finite differences
 * with column colouring, on the structural sparsity of the schedule. */
#ifndef LIED_SOLVE_JACOBIAN_H
#define LIED_SOLVE_JACOBIAN_H
#include <stdint.h>
#include "core/err.h"
#include "linsys/pattern.h"
#include "solve/erk.h"

/* A Jacobian J = df/dx of n states. Its storage pattern is the structural
 * pattern plus the diagonal (for I - h gamma J); entries on an added
 * diagonal stay 0. */
typedef struct lied_jac {
  uint64_t n, nnz;     /* nnz of the storage pattern */
  uint64_t nnz_f;      /* structural nonzeros (what f depends on) */
  uint64_t *rowptr;    /* storage pattern, CSR: rows are derivatives */
  uint32_t *cols;
  uint64_t *diag;      /* position of (i, i) */
  double *val;         /* J in the storage pattern */
  uint32_t ncolours;
  uint64_t *gptr;      /* columns of colour c: gcol[gptr[c] .. gptr[c + 1]) */
  uint32_t *gcol;
  uint64_t *ctp;       /* structural entries by column: row and position */
  uint32_t *crow;
  uint64_t *cpos;
  double *xp, *fp, *del; /* work space */
  double typ;          /* magnitude below which perturbations stop shrinking */
  long nevals, njac;
} lied_jac;

/* Set up from the structural pattern (rows sorted; copied, not kept). */
int lied_jac_init(lied_jac *J, uint64_t n, const uint64_t *rowptr, const uint32_t *cols,
                  double typ, lied_err *e);
void lied_jac_free(lied_jac *J);

/* J at (t, x), where f0 = f(t, x): one evaluation of f per colour, forward
 * differences with steps sqrt(eps) * max(|x_j|, typ). Allocates nothing.
 * Returns LIED_OK or the nonzero code of f. */
int lied_jac_eval(lied_jac *J, lied_rhs_fn f, void *ctx, double t, const double *x,
                  const double *f0);

/* The same with steps scaled to the solver's tolerances and step, after the
 * rule of SUNDIALS' difference quotients: max(sqrt(eps) |x_j|, m (atol +
 * rtol |x_j|)) with m = 1000 |h| eps ||f0||_wrms (weights 1 / (atol + rtol
 * |x|); SUNDIALS has a factor n more, which would make a copy of an
 * ensemble step differently from the single model).
 * A state far below atol (the flow through a closed valve with a tiny
 * leakage, whose law is steep there) is perturbed by a step that is small
 * against it, where sqrt(eps) max(|x_j|, atol / rtol) would be larger than
 * the state and the difference quotient off by a factor. */
typedef struct lied_jac_scale {
  double rtol, atol, h;
  /* > 0: only columns (and rows of f0) below nx are states; the others
   * (the sparse formulation's unknowns) take steps sqrt(eps) max(|x_j|, typ) */
  uint64_t nx;
} lied_jac_scale;
int lied_jac_eval_scaled(lied_jac *J, lied_rhs_fn f, void *ctx, double t, const double *x,
                         const double *f0, const lied_jac_scale *sc);

#endif
