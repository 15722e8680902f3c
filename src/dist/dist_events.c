/* dist_events.c - which ensembles with events can be split over ranks
 * (dist.h; docs/distributed.md, "Events"). Built with and without MPI. */
#include "dist/dist.h"

int lied_dist_check_events(const lied_model *m, lied_err *e) {
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (!sp->cls || !sp->total || !sp->tpl.nzeros) continue;
    char path[512] = "?";
    lied_model_path(m, s, 0, path, sizeof path);
    return lied_errc(e, LIED_E_USAGE,
                     "%s has state events (zero-crossing functions): under mpirun with %d "
                     "processes each rank would stop only at its own copies' events, where one "
                     "process stops every copy at each; run it with one process, or its "
                     "variants as the points of a sweep (lied.sweep, docs/distributed.md)",
                     path, lied_dist_size());
  }
  return LIED_OK;
}
