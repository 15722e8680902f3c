/* transfer.h - internal to lied: moving states and derivatives between the
 * solver's vectors and the instances (sched/eval.c, solve/fused.c). */
#ifndef LIED_SCHED_TRANSFER_H
#define LIED_SCHED_TRANSFER_H
#include "sched/sched.h"

#define LIED_DBL(p) (*(double *)(void *)(p))

/* Index in the state vector of instance q0's first state of map sm (the
 * vector holds map after map, each instance's states together). */
static inline uint64_t lied_x_off(const lied_state_map *sm, uint64_t q0) {
  return sm->x0 + q0 * (uint64_t)sm->n;
}

/* The same for a map of LIED_LAYOUT_LANES (transfer.c). */
void lied_lanes_in(const lied_state_map *sm, const double *xp, char *inst, uint64_t n);
void lied_lanes_out(const lied_state_map *sm, double *xp, const char *inst, uint64_t n);

/* Move states of n consecutive instances between the vector (interleaved per
 * instance) and the instances; the common counts of states per instance are
 * unrolled with their offsets in registers. A map of LIED_LAYOUT_LANES is
 * over lane groups: each state's lanes are one array. */
static inline void lied_states_in(const lied_state_map *sm, const double *xp, char *inst,
                                  uint64_t n) {
  const size_t stride = sm->stride;
  if (sm->layout == LIED_LAYOUT_LANES) { /* sched/lanes.h: a state's lanes are one array */
    lied_lanes_in(sm, xp, inst, n);
  } else if (sm->n == 2) {
    const uint32_t o0 = sm->st[0].x, o1 = sm->st[1].x;
    for (uint64_t i = 0; i < n; i++, inst += stride, xp += 2) {
      LIED_DBL(inst + o0) = xp[0];
      LIED_DBL(inst + o1) = xp[1];
    }
  } else if (sm->n == 1) {
    const uint32_t o0 = sm->st[0].x;
    for (uint64_t i = 0; i < n; i++, inst += stride) LIED_DBL(inst + o0) = *xp++;
  } else {
    for (uint64_t i = 0; i < n; i++, inst += stride)
      for (int q = 0; q < sm->n; q++) LIED_DBL(inst + sm->st[q].x) = *xp++;
  }
}

static inline void lied_ders_out(const lied_state_map *sm, double *xp, const char *inst,
                                 uint64_t n) {
  const size_t stride = sm->stride;
  if (sm->layout == LIED_LAYOUT_LANES) {
    lied_lanes_out(sm, xp, inst, n);
  } else if (sm->n == 2) {
    const uint32_t o0 = sm->st[0].der, o1 = sm->st[1].der;
    for (uint64_t i = 0; i < n; i++, inst += stride, xp += 2) {
      xp[0] = *(const double *)(const void *)(inst + o0);
      xp[1] = *(const double *)(const void *)(inst + o1);
    }
  } else if (sm->n == 1) {
    const uint32_t o0 = sm->st[0].der;
    for (uint64_t i = 0; i < n; i++, inst += stride)
      *xp++ = *(const double *)(const void *)(inst + o0);
  } else {
    for (uint64_t i = 0; i < n; i++, inst += stride)
      for (int q = 0; q < sm->n; q++)
        *xp++ = *(const double *)(const void *)(inst + sm->st[q].der);
  }
}

#endif
