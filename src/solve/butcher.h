/* butcher.h - Runge-Kutta coefficient tables, as data (see butcher.def). */
#ifndef LIED_SOLVE_BUTCHER_H
#define LIED_SOLVE_BUTCHER_H

/* An explicit or diagonally implicit Runge-Kutta method. a is stages x stages,
 * row-major (explicit methods: strictly lower triangular; implicit ones: lower
 * triangular with equal nonzero diagonal entries). bhat, when not NULL, holds
 * the embedded weights of order embedded_order used for error control. dense,
 * when not NULL, is a continuous extension: stages x dense_degree
 * coefficients, b_i(theta) = sum_k dense[i * dense_degree + k - 1] theta^k. */
typedef struct lied_tableau {
  const char *name;   /* "euler", "heun", "rk3", "rk4", "dopri45", ... */
  const char *doc;    /* one line for --help and help() */
  int stages;
  int order;
  int embedded_order; /* 0 when bhat is NULL */
  int explicit_;      /* 1 when a is strictly lower triangular */
  const double *a, *b, *c, *bhat;
  int dense_degree;   /* 0 when dense is NULL */
  const double *dense;
} lied_tableau;

/* First same as last: the last stage is evaluated at t + h from the new
 * state (c_s = 1 and the last row of a is b), so it is the next step's
 * first stage. */
int lied_tableau_fsal(const lied_tableau *t);

/* The table with this name, or NULL. */
const lied_tableau *lied_tableau_find(const char *name);

/* Number of tables and the i-th one (0 <= i < count), in the order of butcher.def. */
int lied_tableau_count(void);
const lied_tableau *lied_tableau_at(int i);

#endif
