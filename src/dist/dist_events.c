/* dist_events.c - which ensembles with events can be split over ranks
 * (dist.h; docs/distributed.md, "Events"). Built with and without MPI. */
#include "dist/dist.h"

/* Whether the spec's instances have zero functions the run looks at. */
static int has_zeros(const lied_spec *sp, int kinks) {
  if (!sp->cls || !sp->total) return 0;
  for (int k = 0; k < sp->tpl.nzeros; k++)
    if (kinks || !(sp->tpl.zeros[k].dir & LIED_ZC_KINK)) return 1;
  return 0;
}

int lied_dist_check_events(const lied_model *m, int kinks, lied_err *e) {
  int s = 0;
  while (s < m->nspecs && !has_zeros(&m->specs[s], kinks)) s++;
  /* every rank holds copies of every spec: they find the same */
  int first = lied_dist_first_failure(s < m->nspecs);
  if (first >= 0 && first != lied_dist_rank()) lied_dist_wait_end(first);
  if (s < m->nspecs) {
    char path[512] = "?";
    lied_spec_path(m, s, path, sizeof path);
    return lied_errc(e, LIED_E_USAGE,
                     "%s (%s) has state events (zero-crossing functions): under mpirun with %d "
                     "processes each rank would stop only at its own copies' events, where one "
                     "process stops every copy at each; run it with one process, or its "
                     "variants as the points of a sweep (lied.sweep, docs/distributed.md)",
                     path, m->specs[s].cls->name, lied_dist_size());
  }
  return LIED_OK;
}
