/* fixtures.h - shared fixtures of the C unit tests: building a declared
 * model into a system (instantiate + schedule) and filling state vectors. */
#ifndef LIED_TEST_FIXTURES_H
#define LIED_TEST_FIXTURES_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/system.h"
#include "check.h"
#include "sched/par.h"

/* Instantiate and schedule m (sched_flags: LIED_SCHED_*) into a system that
 * owns it. On failure prints the message, frees m and returns NULL. */
static inline lied_system *fx_build(lied_model *m, unsigned sched_flags, lied_err *e) {
  lied_system *sys = m ? lied_system_new(m, e) : NULL;
  if (!sys) return NULL;
  lied_build_opts o = {sched_flags};
  if (lied_system_build(sys, &o, e)) {
    fprintf(stderr, "%s\n", e->msg);
    lied_system_free(sys);
    return NULL;
  }
  return sys;
}

/* A state vector that is not the start values and differs per state. */
static inline void fx_fill(const lied_system *sys, double *x) {
  for (uint64_t i = 0; i < sys->sched->nstates; i++)
    x[i] = 1.0 + (double)((i * 37) % 101) / 101.0;
}

/* Single evaluations of s take its attached pool from the first on (a run
 * first times them on one thread and on the pool and keeps the faster,
 * sched/par.h), so that a test exercises the threads. */
static inline void fx_skip_calibration(lied_sched *s) {
  s->par->ncal = LIED_PAR_WARM + 2 * LIED_PAR_CALIB;
  s->par->off = 0;
}

/* The Jacobian patterns of two systems of the same model scheduled two
 * ways (lied_sched_sparsity): the same rows and columns, not empty. */
static inline void fx_same_sparsity(lied_system *a, lied_system *b) {
  lied_err e = {0};
  uint64_t *ra = NULL, *rb = NULL;
  uint32_t *ca = NULL, *cb = NULL;
  const uint64_t ns = a->sched->nstates;
  CHECK(lied_sched_sparsity(a->sched, &ra, &ca, &e) == LIED_OK);
  CHECK(lied_sched_sparsity(b->sched, &rb, &cb, &e) == LIED_OK);
  if (ra && rb && ca && cb) {
    CHECK(memcmp(ra, rb, sizeof *ra * (ns + 1)) == 0);
    CHECK(ra[ns] == rb[ns] && ra[ns] > 0 && memcmp(ca, cb, sizeof *ca * ra[ns]) == 0);
  }
  free(ra), free(rb), free(ca), free(cb);
}

#endif
