/* system.c - a system: instantiate, then schedule, with timings. */
#include "sched/system.h"
#include "core/clock.h"
#include <stdlib.h>
#include <time.h>

lied_system *lied_system_new(lied_model *m, lied_err *e) {
  lied_system *sys = lied_xcalloc(1, sizeof *sys, "system", e);
  if (!sys) {
    lied_model_free(m);
    return NULL;
  }
  sys->model = m;
  return sys;
}

int lied_system_build(lied_system *sys, const lied_build_opts *o, lied_err *e) {
  if (sys->sched) return lied_errc(e, LIED_E_USAGE, "model is already built");
  double t0 = lied_wall();
  LIED_TRY(lied_model_instantiate(sys->model, e));
  double t1 = lied_wall();
  LIED_TRY(lied_sched_build(&sys->sched, sys->model, o ? o->sched_flags : 0, e));
  LIED_TRY(lied_sched_check_start(sys->sched, o ? o->start : NULL, e));
  double t2 = lied_wall();
  sys->t_instantiate = t1 - t0;
  sys->t_schedule = t2 - t1;
  return LIED_OK;
}

void lied_system_free(lied_system *sys) {
  if (!sys) return;
  lied_sched_free(sys->sched);
  lied_model_free(sys->model);
  free(sys);
}
