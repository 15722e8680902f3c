/* lanes.h - internal to lied: the dynamic part of a model of independent
 * copies in lane form, for fused steps (solve/fused.c).
 *
 * The instances stay where they are (one arena per spec, one copy after
 * another: names, parameters, the recorder and every other solver see only
 * that). For a block of fused steps on one chunk of LIED_LANES copies, the
 * chunk's instances are moved into lane groups (lied/component.h: the word
 * at offset o of copy l at group + o * LIED_LANES + 8 l), the steps run the
 * blocks' lane forms over the groups, and the groups are moved back. Reading
 * pointers are not moved: in the groups they hold, once and for all, lane 0
 * of the signal they read in the source's group (every copy reads its own
 * copy of the source, so that is the same address for every chunk). Moving
 * a chunk costs about one evaluation's memory traffic and is paid once per
 * block of up to 64 steps. The arithmetic is the blocks', copy by copy, so
 * the results are the same bits as without lanes. */
#ifndef LIED_SCHED_LANES_H
#define LIED_SCHED_LANES_H
#include <stdint.h>
#include "lied/component.h"
#include "sched/sched.h"

typedef struct lied_lane_spec {
  int spec;       /* index in the model's specs */
  char *arena;    /* the spec's instances */
  size_t words;   /* 8-byte words per instance */
  char *group;    /* the chunk's copies in lane form: words * LIED_LANES words */
  uint32_t *mv;   /* the words moved (all but the reading pointers) */
  uint32_t nmv;
} lied_lane_spec;

typedef struct lied_lanes {
  lied_sched *s;
  char *scratch;      /* every group, then the zeros */
  char *zeros;        /* LIED_LANES zero lanes per signal variable (unconnected inputs) */
  lied_lane_spec *sp;
  int nsp;
  lied_step *steps;   /* the dynamic part: lane forms over the groups */
  int nsteps;
  lied_section *secs; /* copies of its sections, members and pairs in the groups
                         (LIED_LAYOUT_LANES) */
  const lied_section **orig; /* the schedule's sections (factors of constant ones) */
  int nsecs;
  lied_state_map *smap; /* the state maps over the groups (LIED_LAYOUT_LANES) */
  lied_tstate *st;
} lied_lanes;

/* The lane form of s's dynamic part. Returns LIED_OK; LIED_UNSUPPORTED when
 * the model cannot use lanes (why, cap bytes, says why: not independent
 * copies, "block state of TankOut (v[1].t1) has no lane form", ...; L is
 * then empty); LIED_E_NOMEM with a message in e. */
int lied_lanes_init(lied_lanes *L, lied_sched *s, char *why, size_t cap, lied_err *e);
void lied_lanes_free(lied_lanes *L);

/* "block force of Spring (crab[3].spring) has no lane form" into why (cap
 * bytes): block fn of instance inst of spec. */
void lied_lanes_why_not(const lied_model *m, int spec, uint64_t inst, lied_block_fn fn, char *why,
                        size_t cap);

/* Words w[0 .. nwd) of instances [a, b) between an arena (nw words per
 * instance, from instance 0) and the group g holding instances from i0
 * (store: into the arena). Pure moves (the words hold doubles and
 * pointers); vectorised where the compiler can (lanemove.c). */
void lied_lanes_move(char *g, char *arena, size_t nw, const uint32_t *w, uint32_t nwd, int64_t a,
                     int64_t b, int64_t i0, int store);

/* Move copies [q0, q0 + n) (n <= LIED_LANES, q0 a multiple of it) into the
 * groups, or back into their instances. */
void lied_lanes_load(lied_lanes *L, uint64_t q0, uint64_t n);
void lied_lanes_store(const lied_lanes *L, uint64_t q0, uint64_t n);

/* The dynamic part for the n copies in the groups (states already in them,
 * through L->smap), for derivatives (LIED_EVAL_DERIVATIVES: fused steps).
 * Allocates nothing. Returns LIED_OK, or LIED_E_SINGULAR with the message
 * lied_sched_run_chunk would give. */
int lied_lanes_run(lied_lanes *L, const lied_env *env, uint64_t n, lied_err *e);

/* The instance of a lane word: p inside a group of L, while the groups hold
 * copies [q0, q0 + LIED_LANES), is a word of lane l; the answer is copy
 * q0 + l's instance in its arena. Any other p is returned as it is. (Block
 * faults, lied_block_fault, name the instance.) */
const void *lied_lanes_instance(const lied_lanes *L, const void *p, uint64_t q0);

#endif
