/* lanering.h - internal to lied: the dynamic part of a skewed schedule
 * (coupled arrays: a chain of bodies, a discretised pipe) in lane form, for
 * steps in waves (solve/wave.c). The plan is lanering.c, the runs
 * lanering_run.c; docs/architecture.md, "Lane groups over coupled arrays",
 * gives the measurements behind the choices.
 *
 * RINGS. lanes.h runs independent copies in lane groups, chunk by chunk.
 * Coupled arrays run skewed: at chunk c step j runs coordinates [c - lag_j,
 * c - lag_j + C) of its own (C = LIED_LANES), and a block reads other copies
 * (a spring reads the next crab's cart). Here every spec the steps run or
 * read keeps, per worker, a *ring* of `nslots` lane groups (lied/component.h:
 * the word at offset o of lane l at group + o * LIED_LANES + 8 l). Group K of
 * a ring spec holds its instances group_start - C + C K .. group_start + C K
 * - 1: instance i is lane (i - group_start) mod C of group (i - group_start
 * + C) / C (lied_lr_lane, lied_lr_group), and lives in slot K mod nslots
 * (lied_lr_worker.slot_group[slot] says which group a slot holds). skew.c
 * rounds the lags so that group_start is the same for every step of a spec:
 * every piece a lane step runs is then part of one group of each spec it
 * runs, starting at the same lane l0. A group is loaded from the arena when a
 * step first needs it in a sweep, without the words the dynamic part writes
 * before it reads them in every evaluation (its signals, states, tearing
 * variables: lied_lr_spec.load_words), and nothing goes back: those words
 * are written again in the next evaluation, and output points evaluate on
 * the arena.
 *
 * READING POINTERS are set once per worker, in every slot and lane of the
 * reader's pointer word (a lane form reads the one in lane l0 of its call):
 * to the source's group when the source's lanes line up with the reader's
 * (LIED_LR_DIRECT: crab i reads its own cart), else to a *halo*, the
 * source's `rows` signal variables copied for the lanes of each call
 * (LIED_LR_HALO: a spring reads the next crab), or to the zero lanes
 * (LIED_LR_ZEROS: an unconnected optional input).
 *
 * THE THREE WAYS A STEP RUNS. lied_lr_run_at takes, for dynamic step j at
 * chunk c, the piece [c - lag_j, c - lag_j + C) clipped to the step's
 * coordinates, x its first coordinate less the step's first, n its length,
 * and runs it one of three ways:
 *  1. As a lane step (kind LIED_LR_LANE, lanering_run.c lane_piece): the
 *     step's members line up with the groups (lanering.c lane_members), and
 *     the piece lies in the regular part [reg_lo, reg_hi) of its
 *     coordinates, where every reading pointer it reads has the one source
 *     the pointers were set for (lane_links). The groups the piece touches
 *     (members, tearing pairs, direct sources: groups, each as ring and
 *     distance from member 0's group) are looked up once, the halos filled,
 *     and the lane form called on member 0's group moved by l0 lanes for n
 *     lanes; a section is probed in its lane copy (lane_secs).
 *  2. Copy by copy as lane pieces of one lane (one_lane, one_piece): a step
 *     of kind LIED_LR_SCALAR, of at most LIED_LR_END instances (an array's
 *     end, wired otherwise than the interior, whose members do not line up
 *     or whose pointers disagree with the interior's), when every member has
 *     a lane form, the section (if any) has no constant matrix, and every
 *     instance it runs, reads and tears is in a ring or may be put in one
 *     (one_plan: whole words, no states; a spec only such steps use gets a
 *     ring of its own, its groups starting anywhere). Each copy is a lane
 *     piece of n = 1 in the rings: with one lane a lane form reads only the
 *     first lane of what a pointer points to, so the copy's members need not
 *     line up and no halo is needed. The copy's pointer words that do not
 *     already point to its sources (fixes[fix_start[x] .. fix_start[x + 1]))
 *     are set in its lane for the call and put back after, in reverse order
 *     (the words belong to the slot, whose group changes).
 *  3. Copy by copy on the arena (scalar_piece): the other LIED_LR_SCALAR
 *     steps (a block without a lane form, a source with states outside the
 *     rings) and the pieces of a lane step that reach out of its regular
 *     part. The instances the copies read from the rings (syncs) and their
 *     own members are copied from the rings into the arena (the written
 *     words), the block or section runs on the arena, and the members' words
 *     go back into the rings.
 * The copy-by-copy coordinates of a lane step are [0, end_lo) and [end_hi,
 * count) (a piece reaching into the irregular ends [0, reg_lo) or [reg_hi,
 * count) lies within C of them); a LIED_LR_SCALAR step has end_lo = end_hi
 * = count (all of it).
 *
 * The arithmetic is the blocks', copy by copy, so the results are the same
 * bits as without lanes. Invariants that a mistake here would break without
 * a crash (a piece within one group, members on the same lane, a slot
 * holding the group asked for, halos within their area) are LIED_ASSERTs
 * (core/assert.h). */
#ifndef LIED_SCHED_LANERING_H
#define LIED_SCHED_LANERING_H
#include <stdint.h>
#include "lied/component.h"
#include "sched/sched.h"

/* Steps of at most this many instances may run copy by copy on the arena
 * (an array's ends) when their members do not line up with the groups. */
#define LIED_LR_END 64
/* At most this many groups per piece of a lane step (else copy by copy). */
#define LIED_LR_ENS 128

/* How a step runs (see above): in lanes, or copy by copy. */
enum { LIED_LR_LANE = 1, LIED_LR_SCALAR };
/* What a reading pointer of a lane step points to. */
enum { LIED_LR_ZEROS = 1, LIED_LR_DIRECT, LIED_LR_HALO };

/* A spec with a ring. */
typedef struct lied_lr_spec {
  int spec;           /* the model's spec */
  char *arena;
  size_t words;       /* 8-byte words per instance */
  size_t group_bytes; /* bytes per group: words x LIED_LANES x 8 */
  uint64_t total;     /* instances */
  int64_t group_start; /* in [0, C): group K holds instances group_start - C + C K .. */
  uint8_t *is_ptr;    /* per word: a reading pointer (set once per worker, never moved) */
  uint32_t *load_words;  /* the words loaded: parameters, what the constant part wrote */
  uint32_t *write_words; /* the words the dynamic part writes (moved for copies on the arena) */
  uint32_t nload, nwrite;
  size_t ring_off;    /* byte offset of its ring in a worker's rings */
} lied_lr_spec;

/* A reading pointer of a lane step, set once per worker (ptr_links) and, for
 * halos, filled before each call. */
typedef struct lied_lr_link {
  int member;        /* the reading member */
  uint32_t ptr_off;  /* its pointer word's byte offset in the member's instance */
  int kind;          /* LIED_LR_ZEROS, _DIRECT, _HALO */
  int src_ring;      /* ring spec of the source */
  uint32_t src_off;  /* byte offset in the source instance */
  int64_t dist;      /* source instance - reader instance */
  int rows;          /* halo: signal variables copied */
  size_t halo_off;   /* halo: its lanes in a worker's halo area (doubles) */
} lied_lr_link;

/* A member of a step: the step's block, or one block of its section. */
typedef struct lied_lr_mem {
  int spec;           /* model spec */
  int ring;           /* ring spec (-1: not in a ring) */
  int64_t first_inst; /* its instance at the step's coordinate `first` */
} lied_lr_mem;

/* An instance in a ring that a copy run on the arena reads (path 3). */
typedef struct lied_lr_sync {
  int ring;
  uint64_t inst;
} lied_lr_sync;

/* A reading pointer of a copy run as a lane piece of one lane (path 2): set
 * in the reader's lane to the source's lane for the call. */
typedef struct lied_lr_fix {
  int member;        /* the reading member */
  uint32_t ptr_off;  /* its pointer word */
  int src_ring;      /* ring spec of the source; -1: the zero lanes */
  uint32_t src_off;  /* byte offset in the source instance */
  int64_t src_inst;  /* the source instance */
} lied_lr_fix;

/* The plan of one dynamic step. */
typedef struct lied_lr_step {
  int kind;               /* LIED_LR_LANE or LIED_LR_SCALAR */
  int nmembers;
  lied_lr_mem *members;   /* a block step: 1; a section: its blocks */
  int nlinks, nhalos;     /* lane steps: links; the first nhalos are halos */
  lied_lr_link *links;
  /* sections (lane steps, and path 2): per tearing pair its ring spec, its
   * instance at coordinate first, the byte offsets of the tearing variable
   * and of the residual in that instance */
  int *pair_ring;
  int64_t *pair_inst;
  uint32_t *pair_tear, *pair_res;
  /* lane steps: the groups a piece touches (members, pairs, sources whose
   * lanes line up), each once: ring spec group_ring[q], group K0 +
   * group_dk[q] for member 0's group K0; each member's and pair's entry */
  int ngroups;
  int *group_ring, *member_group, *pair_group;
  int64_t *group_dk;
  /* lane steps: coordinates - first in [reg_lo, reg_hi) have regular
   * reading pointers; pieces reaching out of them run copy by copy */
  uint64_t reg_lo, reg_hi;
  /* copy by copy: coordinates - first in [0, end_lo) and [end_hi, count);
   * path 3: per such x the instances in rings it reads,
   * syncs[sync_start[i] .. sync_start[i + 1]) with i = x below end_lo,
   * end_lo + x - end_hi above */
  uint64_t end_lo, end_hi;
  uint64_t *sync_start;
  lied_lr_sync *syncs;    /* each instance once, none a member's */
  uint8_t *member_dup;    /* per member: another member before it is the same instance */
  /* path 2 (one_lane): the reading pointers coordinate x sets,
   * fixes[fix_start[x] .. fix_start[x + 1]); sections: pairs as above */
  int one_lane;
  uint64_t *fix_start;
  lied_lr_fix *fixes;
} lied_lr_step;

typedef struct lied_lr {
  lied_sched *sched;
  int nspecs;
  lied_lr_spec *specs;
  int *ring_of;          /* per model spec: ring spec or -1 */
  lied_lr_step *steps;   /* per dynamic step */
  int nslots;            /* groups per ring (a power of two) */
  size_t ring_bytes;     /* per worker */
  size_t halo_doubles;   /* per worker */
  lied_state_map *lane_smap; /* per state map: over the rings (lanes) or as it is */
  lied_tstate *lane_states;
  int *smap_ring;        /* per state map: its ring spec, or -1 */
  /* lied info: steps in lanes, steps copy by copy at the arrays' ends (of
   * which nend_lanes in lanes of one copy), halo links */
  int nlane_steps, nend_steps, nend_lanes, nhalo_links;
  size_t maxfix;         /* the most fixes of one coordinate */
  size_t maxmem;         /* the most members of a step run in one lane */
  lied_lr_link *ptr_links; /* the pointer words the lane steps read, once each */
  int *ptr_ring;         /* ... of ring spec */
  int nptr_links, cap_ptr_links;
} lied_lr;

/* One worker's rings (each worker of a sweep on threads has its own). */
typedef struct lied_lr_worker {
  char *rings;
  int64_t *slot_group;   /* per ring spec and slot: the group it holds, or -1 */
  double *halo;
  double *zeros;         /* LIED_LANES zero lanes per signal variable */
  lied_section *lane_secs; /* per dynamic step: its lane copy (sections) */
  char **saved;          /* 2 maxfix: the pointer words a copy's fixes replaced
                          * (where, what) */
  char **bases;          /* maxmem: a copy's members */
  int overrun;           /* a group was needed after its slot was taken: an error */
} lied_lr_worker;

/* Instance i of ring spec p is lane lied_lr_lane(p, i) of its group
 * lied_lr_group(p, i). */
#define LIED_LR_C ((int64_t)LIED_LANES)
static inline int64_t lied_lr_mod(int64_t v) { return (v % LIED_LR_C + LIED_LR_C) % LIED_LR_C; }
static inline int64_t lied_lr_group(const lied_lr_spec *p, int64_t i) {
  return (i - p->group_start + LIED_LR_C) / LIED_LR_C;
}
static inline int lied_lr_lane(const lied_lr_spec *p, int64_t i) {
  return (int)((i - p->group_start + LIED_LR_C) % LIED_LR_C);
}
/* Instances of a step (a block's, or a section batch's). */
static inline uint64_t lied_lr_count(const lied_step *st) {
  return st->sec ? st->sec->count : st->count;
}

/* order[0 .. ns) := the steps, longest first (the interior of the arrays
 * before their ends; stable). */
void lied_lr_longest_first(const lied_step *st, int ns, int *order);

/* The plan for s's dynamic part with rings covering `live` coordinates of
 * work in flight. LIED_OK; LIED_UNSUPPORTED (why, cap bytes: "block ... has
 * no lane form", "a reading pointer of ... is not regular", ...; L empty);
 * LIED_E_NOMEM. */
int lied_lr_init(lied_lr *L, lied_sched *s, uint64_t live, char *why, size_t cap, lied_err *e);
void lied_lr_free(lied_lr *L);
int lied_lr_worker_init(const lied_lr *L, lied_lr_worker *W, lied_err *e);
void lied_lr_worker_free(const lied_lr *L, lied_lr_worker *W);

/* Before a sweep: empty rings (the arena may have changed since the last). */
void lied_lr_begin(const lied_lr *L, lied_lr_worker *W);

/* The dynamic part at chunk c (as lied_sched_run_skewed_at) on W's rings,
 * with view v (its probe work space). Allocates nothing. */
int lied_lr_run_at(const lied_lr *L, lied_lr_worker *W, lied_sched *v, enum lied_eval_mode mode,
                   const lied_env *env, int64_t c, lied_err *e);

/* Where instance q of state map m is for lied_states_in / lied_ders_out with
 * map L->lane_smap[m] (its group moved to q's lane, or its instance). */
char *lied_lr_map_at(const lied_lr *L, lied_lr_worker *W, int m, uint64_t q);

/* The instance of p when p is a word in one of W's groups (block faults);
 * any other p as it is. */
const void *lied_lr_instance(const lied_lr *L, const lied_lr_worker *W, const void *p);

#endif
