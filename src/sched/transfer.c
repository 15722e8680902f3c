/* transfer.c - states and derivatives between the solver's vectors
 * (interleaved per instance) and lane groups (each state's lanes one array;
 * transfer.h). Two states per instance, the common case (a joint's position
 * and velocity), is one loop over both, which the compiler vectorises with
 * shuffles; AVX2 where the processor has it. */
#include "sched/transfer.h"

LIED_LANE_BODY void in2(double *restrict d0, double *restrict d1, const double *restrict xp,
                        uint64_t n) {
  LIED_LANE_LOOP
  for (uint64_t i = 0; i < n; i++) d0[i] = xp[2 * i], d1[i] = xp[2 * i + 1];
}

LIED_LANE_BODY void out2(double *restrict xp, const double *restrict d0,
                         const double *restrict d1, uint64_t n) {
  LIED_LANE_LOOP
  for (uint64_t i = 0; i < n; i++) xp[2 * i] = d0[i], xp[2 * i + 1] = d1[i];
}

LIED_LANE_FN void lied_lanes_in(const lied_state_map *sm, const double *restrict xp, char *inst,
                                uint64_t n) {
  const uint64_t m = (uint64_t)sm->n;
  if (m == 2) {
    double *restrict d0 = (double *)(void *)(inst + sm->st[0].x);
    double *restrict d1 = (double *)(void *)(inst + sm->st[1].x);
    if (n == LIED_LANES) in2(d0, d1, xp, LIED_LANES); /* a full group: the count a constant */
    else in2(d0, d1, xp, n);
    return;
  }
  for (uint64_t q = 0; q < m; q++) {
    double *restrict d = (double *)(void *)(inst + sm->st[q].x);
    for (uint64_t i = 0; i < n; i++) d[i] = xp[i * m + q];
  }
}

LIED_LANE_FN void lied_lanes_out(const lied_state_map *sm, double *restrict xp, const char *inst,
                                 uint64_t n) {
  const uint64_t m = (uint64_t)sm->n;
  if (m == 2) {
    const double *restrict d0 = (const double *)(const void *)(inst + sm->st[0].der);
    const double *restrict d1 = (const double *)(const void *)(inst + sm->st[1].der);
    if (n == LIED_LANES) out2(xp, d0, d1, LIED_LANES);
    else out2(xp, d0, d1, n);
    return;
  }
  for (uint64_t q = 0; q < m; q++) {
    const double *restrict d = (const double *)(const void *)(inst + sm->st[q].der);
    for (uint64_t i = 0; i < n; i++) xp[i * m + q] = d[i];
  }
}
