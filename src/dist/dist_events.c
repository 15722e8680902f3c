/* dist_events.c - which ensembles with events can be split over ranks
 * (dist.h; docs/distributed.md, "Events"). Built with and without MPI. */
#include "dist/dist.h"

int lied_dist_check_events(const lied_model *m, lied_err *e) {
  int s = 0;
  for (; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (sp->cls && sp->total && sp->tpl.nzeros) break;
  }
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
