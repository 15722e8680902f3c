/* probe.h - solve batched linear sections by affine probing. */
#ifndef LIED_SCHED_PROBE_H
#define LIED_SCHED_PROBE_H
#include "sched/sched.h"

/* Solve every section of the batch at env->t, leaving what mode says
 * consistent (lied_eval_mode). Uses the schedule's work space; allocates
 * nothing. Returns LIED_OK, or LIED_E_SINGULAR for a singular matrix (the
 * message names the tearing variables and the time). */
int lied_probe_section(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                       const lied_env *env, lied_err *e);
/* The same for sections q0 .. q0 + n - 1 of the batch (n <= s->chunk). */
int lied_probe_range(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                     const lied_env *env, uint64_t q0, uint64_t n, lied_err *e);
/* Sections q0 .. q0 + n - 1 of the batch left unsolved: their tearing
 * variables NaN and every member run, so that what they compute is NaN
 * (lied_sched_evaluate_start). */
void lied_probe_unknown(lied_section *sec, const lied_env *env, uint64_t q0, uint64_t n);

#endif
