/* probe.h - solve batched linear sections by affine probing. */
#ifndef LIED_LINSYS_PROBE_H
#define LIED_LINSYS_PROBE_H
#include "sched/sched.h"

/* Solve every section of the batch at env->t, leaving all their variables
 * consistent. Uses the schedule's work space; allocates nothing. Returns 0,
 * or -1 for a singular matrix (message names the tearing variables, time). */
int lied_probe_section(lied_sched *s, lied_section *sec, const lied_env *env,
                       lied_err *e);
/* The same for sections q0 .. q0 + n - 1 of the batch (n <= s->chunk). */
int lied_probe_range(lied_sched *s, lied_section *sec, const lied_env *env,
                     uint64_t q0, uint64_t n, lied_err *e);

#endif
