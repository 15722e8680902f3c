/* test_butcher.c - order conditions and consistency of the Butcher tables. */
#include "check.h"
#include "solve/butcher.h"

#include <string.h>

enum {
  MAX_ORDER = 5,   /* highest order whose rooted trees are generated */
  MAX_TREES = 17,  /* rooted trees of order 1..MAX_ORDER */
  MAX_STAGES = 16, /* largest table the test can hold */
};
/* Rooted trees of each order 1..MAX_ORDER (OEIS A000081). */
static const int TREES_OF_ORDER[MAX_ORDER + 1] = {0, 1, 1, 2, 4, 9};

static const double ORDER_TOL = 1e-13; /* a condition holds up to rounding */
static const double FAIL_TOL = 1e-8;   /* a condition clearly does not hold */
static const double ROW_SUM_TOL = 1e-14;

/* A rooted tree: its root's subtrees, as indices of smaller trees. */
typedef struct tree {
  int order;                  /* number of nodes */
  double gamma;               /* density: order * product of children's */
  int nchild;
  int child[MAX_ORDER];        /* at most MAX_ORDER - 1 used (each subtree has a node) */
} tree;

typedef struct forest {
  tree t[MAX_TREES];
  int count;
} forest;

/* Append every tree of order `order` whose root's children are child[0..depth)
 * followed by a non-decreasing sequence of tree indices >= first (below
 * limit) of total order `left`. Non-decreasing indices give each multiset of
 * subtrees, hence each tree, exactly once. */
static void grow(forest *f, int order, int limit, int *child, int depth,
                 int first, int left) {
  if (left == 0) {
    if (f->count >= MAX_TREES)
      return;
    tree *t = &f->t[f->count++];
    t->order = order;
    t->nchild = depth;
    t->gamma = order;
    for (int k = 0; k < depth; k++) {
      t->child[k] = child[k];
      t->gamma *= f->t[child[k]].gamma;
    }
    return;
  }
  if (depth >= MAX_ORDER) /* cannot happen (left < MAX_ORDER); tells -O3 so */
    return;
  for (int i = first; i < limit; i++) {
    if (f->t[i].order > left)
      continue;
    child[depth] = i;
    grow(f, order, limit, child, depth + 1, i, left - f->t[i].order);
  }
}

/* All rooted trees of order 1..MAX_ORDER, in increasing order. */
static void make_forest(forest *f) {
  int child[MAX_ORDER];
  f->count = 0;
  for (int order = 1; order <= MAX_ORDER; order++)
    grow(f, order, f->count, child, 0, 0, order - 1);
}

/* Elementary weights: phi[t][i] = prod over subtrees u of t of
 * sum_j a_ij phi[u][j], with phi = 1 for the single node. Trees only refer to
 * earlier ones, so one pass in order suffices. */
static void elementary_weights(const forest *f, const lied_tableau *tab,
                               double phi[MAX_TREES][MAX_STAGES]) {
  int s = tab->stages;
  for (int t = 0; t < f->count; t++)
    for (int i = 0; i < s; i++) {
      double p = 1.0;
      for (int k = 0; k < f->t[t].nchild; k++) {
        const double *pu = phi[f->t[t].child[k]];
        double sum = 0.0;
        for (int j = 0; j < s; j++)
          sum += tab->a[i * s + j] * pu[j];
        p *= sum;
      }
      phi[t][i] = p;
    }
}

/* sum_i w_i phi_i(t) - 1/gamma(t) for tree t. */
static double condition_residual(const forest *f,
                                 double phi[MAX_TREES][MAX_STAGES],
                                 const double *w, int s, int t) {
  double sum = 0.0;
  for (int i = 0; i < s; i++)
    sum += w[i] * phi[t][i];
  return sum - 1.0 / f->t[t].gamma;
}

/* Check that weights w satisfy every condition of order <= order and, when
 * order < MAX_ORDER, violate at least one of order + 1. */
static void check_order(const forest *f, double phi[MAX_TREES][MAX_STAGES],
                        const lied_tableau *tab, const double *w, int order,
                        const char *what) {
  int violated_next = 0;
  for (int t = 0; t < f->count; t++) {
    double r = condition_residual(f, phi, w, tab->stages, t);
    if (f->t[t].order <= order) {
      CHECK(fabs(r) <= ORDER_TOL);
      if (!(fabs(r) <= ORDER_TOL))
        fprintf(stderr, "  %s %s: tree %d (order %d) residual %g\n",
                tab->name, what, t, f->t[t].order, r);
    } else if (f->t[t].order == order + 1 && fabs(r) > FAIL_TOL) {
      violated_next = 1;
    }
  }
  if (order < MAX_ORDER) {
    CHECK(violated_next);
    if (!violated_next)
      fprintf(stderr, "  %s %s: order %d understated\n", tab->name, what,
              order);
  }
}

/* The tree generator itself: the number of trees of each order, and the
 * extreme densities at MAX_ORDER (bushy tree: MAX_ORDER, tall tree: its
 * factorial). */
static void test_forest(const forest *f) {
  int per_order[MAX_ORDER + 1] = {0};
  CHECK(f->count == MAX_TREES);
  for (int t = 0; t < f->count; t++)
    per_order[f->t[t].order]++;
  for (int n = 1; n <= MAX_ORDER; n++)
    CHECK(per_order[n] == TREES_OF_ORDER[n]);
  double factorial = 1.0, gmin = INFINITY, gmax = 0.0;
  for (int n = 2; n <= MAX_ORDER; n++)
    factorial *= n;
  for (int t = 0; t < f->count; t++)
    if (f->t[t].order == MAX_ORDER) {
      gmin = fmin(gmin, f->t[t].gamma);
      gmax = fmax(gmax, f->t[t].gamma);
    }
  CHECK(gmin == MAX_ORDER);
  CHECK(gmax == factorial);
}

/* Shape, row sums and metadata of one table. */
static void check_shape(const lied_tableau *tab) {
  int s = tab->stages;
  CHECK(tab->name && tab->name[0]);
  CHECK(tab->doc && tab->doc[0] && !strchr(tab->doc, '\n'));
  CHECK(s >= 1 && s <= MAX_STAGES);
  CHECK(tab->order >= 1 && tab->order <= MAX_ORDER);
  CHECK((tab->bhat == NULL) == (tab->embedded_order == 0));
  CHECK(tab->embedded_order != tab->order);
  double diag = tab->a[(s - 1) * s + (s - 1)];
  for (int i = 0; i < s && s <= MAX_STAGES; i++) {
    double rs = 0.0;
    for (int j = 0; j < s; j++) {
      rs += tab->a[i * s + j];
      if (tab->explicit_ && j >= i)
        CHECK(tab->a[i * s + j] == 0.0);
      /* diagonally implicit: lower triangular, one nonzero diagonal value
       * (a first explicit stage may have 0) */
      if (!tab->explicit_ && j > i)
        CHECK(tab->a[i * s + j] == 0.0);
      if (!tab->explicit_ && j == i)
        CHECK(tab->a[i * s + j] == diag || (i == 0 && tab->a[0] == 0.0));
    }
    CHECK_NEAR(tab->c[i], rs, ROW_SUM_TOL);
  }
  if (!tab->explicit_)
    CHECK(diag > 0.0);
  CHECK((tab->dense == NULL) == (tab->dense_degree == 0));
}

/* Continuous extension of degree d (dopri45: 4, of order 4): for theta in
 * (0, 1], the weights b_i(theta) satisfy sum_i b_i(theta) phi_i(t) =
 * theta^order(t) / gamma(t) for every tree of order <= d, and b_i(1) = b_i. */
static void check_dense(const forest *f, double phi[MAX_TREES][MAX_STAGES],
                        const lied_tableau *tab) {
  int s = tab->stages, d = tab->dense_degree;
  for (int k = 1; k <= 10; k++) {
    double theta = k / 10.0, bt[MAX_STAGES];
    for (int i = 0; i < s; i++) {
      double p = 0;
      for (int q = d - 1; q >= 0; q--)
        p = (p + tab->dense[i * d + q]) * theta;
      bt[i] = p;
      if (k == 10)
        CHECK_NEAR(p, tab->b[i], 1e-13);
    }
    for (int t = 0; t < f->count; t++) {
      if (f->t[t].order > d)
        continue;
      double sum = 0.0;
      for (int i = 0; i < s; i++)
        sum += bt[i] * phi[t][i];
      double want = pow(theta, f->t[t].order) / f->t[t].gamma;
      CHECK_NEAR(sum, want, 1e-13);
    }
  }
}

/* Every table: shape, order of b, order of bhat (when present). */
static void test_tables(const forest *f) {
  static double phi[MAX_TREES][MAX_STAGES];
  CHECK(lied_tableau_count() >= 1);
  for (int k = 0; k < lied_tableau_count(); k++) {
    const lied_tableau *tab = lied_tableau_at(k);
    CHECK(tab != NULL);
    if (!tab)
      continue;
    check_shape(tab);
    if (tab->stages > MAX_STAGES)
      continue;
    elementary_weights(f, tab, phi);
    check_order(f, phi, tab, tab->b, tab->order, "b");
    if (tab->bhat)
      check_order(f, phi, tab, tab->bhat, tab->embedded_order, "bhat");
    if (tab->dense)
      check_dense(f, phi, tab);
  }
}

/* The documented methods exist with the documented orders. */
static void test_expected_methods(void) {
  static const struct {
    const char *name;
    int stages, order, embedded_order, explicit_;
  } want[] = {{"euler", 1, 1, 0, 1},    {"heun", 2, 2, 0, 1},
              {"rk3", 3, 3, 0, 1},      {"rk4", 4, 4, 0, 1},
              {"dopri45", 7, 5, 4, 1},  {"beuler", 1, 1, 0, 0},
              {"esdirk23", 3, 2, 3, 0}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const lied_tableau *tab = lied_tableau_find(want[i].name);
    CHECK(tab != NULL);
    if (!tab)
      continue;
    CHECK(strcmp(tab->name, want[i].name) == 0);
    CHECK(tab->stages == want[i].stages);
    CHECK(tab->order == want[i].order);
    CHECK(tab->embedded_order == want[i].embedded_order);
    CHECK(tab->explicit_ == want[i].explicit_);
  }
}

/* esdirk23 (Jorgensen et al. 2018): gamma = 1 - 1/sqrt(2), stiffly accurate,
 * and L-stable: its stability function R(z) = P(z) / (1 - gamma z)^2 tends to
 * 0 as z -> -inf, and |R(iy)| <= 1 on the imaginary axis (A-stability,
 * sampled). R(z) = 1 + z b^T (I - z A)^-1 e, computed by forward substitution. */
static double complex_abs_R(const lied_tableau *tab, double re, double im) {
  int s = tab->stages;
  double kr[MAX_STAGES], ki[MAX_STAGES]; /* K = (I - zA)^-1 e */
  for (int i = 0; i < s; i++) {
    double sr = 1.0, si = 0.0;
    for (int j = 0; j < i; j++) { /* + z a_ij K_j */
      double a = tab->a[i * s + j];
      sr += a * (re * kr[j] - im * ki[j]);
      si += a * (re * ki[j] + im * kr[j]);
    }
    /* divide by 1 - z a_ii */
    double dr = 1.0 - re * tab->a[i * s + i], di = -im * tab->a[i * s + i];
    double den = dr * dr + di * di;
    kr[i] = (sr * dr + si * di) / den;
    ki[i] = (si * dr - sr * di) / den;
  }
  double rr = 1.0, ri = 0.0;
  for (int i = 0; i < s; i++) {
    rr += tab->b[i] * (re * kr[i] - im * ki[i]);
    ri += tab->b[i] * (re * ki[i] + im * kr[i]);
  }
  return sqrt(rr * rr + ri * ri);
}

static void test_esdirk23(void) {
  const lied_tableau *tab = lied_tableau_find("esdirk23");
  CHECK(tab != NULL);
  if (!tab)
    return;
  int s = tab->stages;
  CHECK_NEAR(tab->a[s * s - 1], 1.0 - 1.0 / sqrt(2.0), 1e-15);
  CHECK(tab->a[0] == 0.0 && tab->c[0] == 0.0); /* explicit first stage */
  for (int j = 0; j < s; j++) /* stiffly accurate */
    CHECK_NEAR(tab->a[(s - 1) * s + j], tab->b[j], 1e-15);
  CHECK(complex_abs_R(tab, -1e8, 0.0) < 1e-6);
  for (int k = 0; k <= 200; k++) {
    double y = k == 0 ? 0.0 : pow(10.0, -3.0 + 7.0 * k / 200.0);
    CHECK(complex_abs_R(tab, 0.0, y) <= 1.0 + 1e-12);
  }
  const lied_tableau *be = lied_tableau_find("beuler");
  CHECK(be != NULL);
  if (be)
    CHECK(complex_abs_R(be, -1e8, 0.0) < 1e-6);
}

/* Names are unique, find agrees with at, unknown names and bad indices fail. */
static void test_lookup(void) {
  int n = lied_tableau_count();
  for (int i = 0; i < n; i++) {
    const lied_tableau *ti = lied_tableau_at(i);
    CHECK(lied_tableau_find(ti->name) == ti);
    for (int j = i + 1; j < n; j++)
      CHECK(strcmp(ti->name, lied_tableau_at(j)->name) != 0);
  }
  CHECK(lied_tableau_find("nope") == NULL);
  CHECK(lied_tableau_find("") == NULL);
  CHECK(lied_tableau_find(NULL) == NULL);
  CHECK(lied_tableau_at(-1) == NULL);
  CHECK(lied_tableau_at(n) == NULL);
}

int main(void) {
  static forest f;
  make_forest(&f);
  test_forest(&f);
  test_tables(&f);
  test_expected_methods();
  test_esdirk23();
  test_lookup();
  return CHECK_DONE();
}
