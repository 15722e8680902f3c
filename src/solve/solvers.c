/* solvers.c - the list of solvers: every Butcher table of butcher.def (by
 * kind: explicit or implicit, fixed step or embedded/adaptive) and cvode.
 * Built once per process, by whichever thread asks first (pthread_once):
 * contexts on several threads share it (lied/lied.h; tests/embed/test_contexts.c). */
#include <pthread.h>
#include <string.h>
#include "solve/butcher.h"
#include "solve/sim.h"

enum { MAX_SOLVERS = 32 };

static lied_solver solvers[MAX_SOLVERS];
static int nsolvers;
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* Build the list: fixed-step explicit tables first (the historic order),
 * then adaptive explicit, fixed implicit, adaptive implicit, cvode. */
static void build_list(void) {
  int n = 0;
  for (int pass = 0; pass < 4; pass++)
    for (int i = 0; i < lied_tableau_count() && n < MAX_SOLVERS; i++) {
      const lied_tableau *t = lied_tableau_at(i);
      int adaptive = t->bhat != NULL, implicit = !t->explicit_;
      if (pass != implicit * 2 + adaptive) continue;
      solvers[n++] = (lied_solver){t->name, t->doc, t->order, adaptive, implicit, t};
    }
#ifdef LIED_HAVE_CVODE
  if (n < MAX_SOLVERS)
    solvers[n++] = (lied_solver){"cvode",
                                 "SUNDIALS CVODE, variable-order BDF (1-5), adaptive, "
                                 "sparse Newton (KLU)",
                                 5, 1, 1, NULL};
#endif
  nsolvers = n;
}

/* The list, built on the first call of any thread; every later call sees it
 * complete (pthread_once orders the build before every return). */
static void build(void) { pthread_once(&built, build_list); }

int lied_solver_count(void) {
  build();
  return nsolvers;
}

const lied_solver *lied_solver_at(int i) {
  build();
  return i >= 0 && i < nsolvers ? &solvers[i] : NULL;
}

const lied_solver *lied_solver_find(const char *name) {
  build();
  for (int i = 0; name && i < nsolvers; i++)
    if (strcmp(solvers[i].name, name) == 0) return &solvers[i];
  return NULL;
}
