/* system.h - a system: a declared model instantiated, wired and scheduled
 * (core, then sched), ready for the solvers (solve/sim.h). It owns both the
 * model and its schedule; the Lua binding and embedders hold systems. */
#ifndef LIED_SCHED_SYSTEM_H
#define LIED_SCHED_SYSTEM_H
#include "core/model.h"
#include "sched/sched.h"

typedef struct lied_system {
  lied_model *model; /* the declared tree, instances, names (owned) */
  lied_sched *sched; /* its schedule (owned; NULL until built) */
  double t_instantiate, t_schedule; /* seconds */
} lied_system;

/* Options of lied_system_build. */
typedef struct lied_build_opts {
  unsigned sched_flags; /* LIED_SCHED_* (sched/sched.h) */
  /* the start of a run, for the check of singular sections in the modes
   * the start values give (lied_sched_check_start); NULL: in those the
   * elements hold when built */
  lied_start_fn start;
} lied_build_opts;

/* A system owning the declared model m (built with lied_model_add & co.,
 * not yet instantiated); on failure m is freed. NULL with a message. */
lied_system *lied_system_new(lied_model *m, lied_err *e);

/* Instantiate and wire the model, then schedule it (o may be NULL).
 * LIED_OK, or a negative status with a message naming the component path. */
int lied_system_build(lied_system *sys, const lied_build_opts *o, lied_err *e);

/* Free the schedule, then the model; safe on NULL. */
void lied_system_free(lied_system *sys);

#endif
