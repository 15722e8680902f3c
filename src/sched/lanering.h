/* lanering.h - internal to lied: the dynamic part of a skewed schedule
 * (coupled arrays: a chain of bodies, a discretised pipe) in lane form, for
 * steps in waves (solve/wave.c).
 *
 * lanes.h runs independent copies in lane groups, chunk by chunk. Coupled
 * arrays run skewed: at chunk c step j runs coordinates [c - lag_j,
 * c - lag_j + C) of its own, and a block reads other copies (a spring reads
 * the next crab's cart). Here every spec the lane steps run or read keeps,
 * per worker, a *ring* of lane groups (lied/component.h: the word at offset
 * o of lane l at group + o * LIED_LANES + 8 l). Group K of a spec holds its
 * instances o - C + C K .. o + C K - 1, where o, the spec's group start
 * modulo C, is the same for every step of that spec (skew.c rounds the lags
 * for it), so every piece a step runs is part of one group of each spec it
 * runs, starting at the same lane l0: the lane form is called on the group
 * moved by l0 lanes. A group is loaded from the arena when a step first
 * needs it in a sweep, without the words the dynamic part writes before it
 * reads them in every evaluation (its signals, states, tearing variables),
 * and nothing goes back: those words are written again in the next
 * evaluation, and output points evaluate on the arena.
 *
 * Reading pointers are set once per worker, in every slot and lane of the
 * reader's pointer word (a lane form reads the one in lane l0 of its call):
 * to the source's group when the source's lanes line up with the reader's
 * (crab i reads its own cart), else to a *halo*, the source's values copied
 * for the lanes of each call (a spring reads the next crab).
 * Steps that do not fit (the ends of the arrays, whose components are wired
 * otherwise) run copy by copy: where every member has a lane form and every
 * instance they run and read is in a ring, each copy as a lane piece of one
 * lane in the rings, its reading pointers set in its lanes to the sources'
 * lanes for the call and put back after (lied_lr_step.one); else on the
 * arena, the instances they run and read copied from the rings before and
 * theirs back after.
 *
 * The arithmetic is the blocks', copy by copy, so the results are the same
 * bits as without lanes. */
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

enum { LIED_LR_LANE = 1, LIED_LR_SCALAR };
enum { LIED_LR_ZEROS = 1, LIED_LR_DIRECT, LIED_LR_HALO };

typedef struct lied_lr_spec {
  int spec;
  char *arena;
  size_t words;   /* 8-byte words per instance */
  size_t gb;      /* bytes per group: words x LIED_LANES x 8 */
  uint64_t total;
  int64_t o;      /* group K holds instances o - C + C K .. */
  uint8_t *ptr;   /* per word: a reading pointer (set once per worker, never moved) */
  uint32_t *ld, *sw; /* the words loaded (parameters, what the constant part
                      * wrote), and written (moved for copy-by-copy steps) */
  uint32_t nld, nsw;
  size_t ring;    /* byte offset of its ring in a worker's rings */
} lied_lr_spec;

/* A reading pointer of a lane step, set before each call. */
typedef struct lied_lr_link {
  int mem;       /* the reading member */
  uint32_t off;  /* its pointer word */
  int kind;      /* LIED_LR_ZEROS, _DIRECT, _HALO */
  int src;       /* ring spec of the source */
  uint32_t soff; /* byte offset in the source instance */
  int64_t d;     /* source instance - reader instance */
  int rows;      /* halo: signal variables copied */
  size_t halo;   /* halo: its lanes in a worker's halo area (doubles) */
} lied_lr_link;

typedef struct lied_lr_mem {
  int spec;   /* model spec */
  int rs;     /* ring spec (-1: not in a ring) */
  int64_t lo; /* instance at the step's coordinate first */
} lied_lr_mem;

typedef struct lied_lr_sync {
  int rs;
  uint64_t inst;
} lied_lr_sync;

/* A reading pointer of a copy run as a lane piece of one lane (the arrays'
 * ends, lied_lr_step.one): set in the reader's lane to the source's lane
 * for the call. */
typedef struct lied_lr_fix {
  int mem;       /* the reading member */
  uint32_t off;  /* its pointer word */
  int rs;        /* ring spec of the source; -1: the zero lanes */
  uint32_t soff; /* byte offset in the source instance */
  int64_t inst;  /* the source instance */
} lied_lr_fix;

typedef struct lied_lr_step {
  int kind;
  int nmem;
  lied_lr_mem *mem;  /* a block step: 1; a section: its blocks */
  int nlink, nhalo; /* links; the first nhalo are halos */
  lied_lr_link *link;
  /* sections: per tearing pair its ring spec, instance at first, offsets */
  int *prs;
  int64_t *plo;
  uint32_t *ptear, *pres;
  /* lane steps: the groups a piece touches (members, pairs, sources whose
   * lanes line up), each once: ring spec ens_rs[q], group K0 + ens_dk[q]
   * for member 0's group K0; members' and pairs' entries */
  int nens;
  int *ens_rs, *mem_e, *pair_e;
  int64_t *ens_dk;
  /* lane steps: coordinates - first [xa, xb) have regular reading
   * pointers; pieces reaching out of them run copy by copy */
  uint64_t xa, xb;
  /* copy by copy: coordinates - first [0, z1) and [z2, count); per such x,
   * the instances in rings it reads, sync[soff[i] .. soff[i + 1]) with
   * i = x below z1, z1 + x - z2 above */
  uint64_t z1, z2;
  uint64_t *soff;
  lied_lr_sync *sync; /* each instance once, none a member's */
  uint8_t *mdup;      /* per member: another member before it is the same instance */
  /* copy by copy, each copy a lane piece of one lane in the rings (every
   * member has a lane form, every instance it runs and reads is in a ring):
   * the reading pointers of coordinate x, fix[foff[x] .. foff[x + 1]);
   * sections: pairs as prs, plo, ptear, pres above */
  int one;
  uint64_t *foff;
  lied_lr_fix *fix;
} lied_lr_step;

typedef struct lied_lr {
  lied_sched *s;
  int nsp;
  lied_lr_spec *sp;
  int *rs_of;         /* per model spec: ring spec or -1 */
  lied_lr_step *st;   /* per dynamic step */
  int ng;             /* groups per ring (a power of two) */
  size_t ring_bytes;  /* per worker */
  size_t halo_doubles;
  lied_state_map *lsm; /* per state map: over the rings (lanes) or as it is */
  lied_tstate *lst;
  int *map_rs;
  int nlane, nscalar, nhalo; /* steps and halo links (lied info) */
  int none;           /* copy-by-copy steps run as lane pieces of one lane */
  size_t maxfix;      /* the most fixes of one coordinate */
  size_t maxmem;      /* the most members of a step run in one lane */
  lied_lr_link *pl;   /* the pointer words the lane steps read, once each */
  int *pl_rs;         /* ... of ring spec */
  int npl, cappl;
} lied_lr;

/* One worker's rings (each worker of a sweep on threads has its own). */
typedef struct lied_lr_worker {
  char *rings;
  int64_t *tag;       /* per ring spec and slot: the group it holds, or -1 */
  double *halo;
  double *zeros;      /* LIED_LANES zero lanes per signal variable */
  lied_section *secs; /* per dynamic step: its lane copy (sections) */
  char **saved;       /* 2 L->maxfix: the pointer words a copy's fixes replaced
                       * (where, what) */
  char **bases;       /* L->maxmem: a copy's members */
  int overrun;        /* a group was needed after its slot was taken: an error */
} lied_lr_worker;

/* Instance i of ring spec p is lane lied_lr_lane(p, i) of its group
 * lied_lr_group(p, i). */
#define LIED_LR_C ((int64_t)LIED_LANES)
static inline int64_t lied_lr_mod(int64_t v) { return (v % LIED_LR_C + LIED_LR_C) % LIED_LR_C; }
static inline int64_t lied_lr_group(const lied_lr_spec *p, int64_t i) {
  return (i - p->o + LIED_LR_C) / LIED_LR_C;
}
static inline int lied_lr_lane(const lied_lr_spec *p, int64_t i) {
  return (int)((i - p->o + LIED_LR_C) % LIED_LR_C);
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
 * map L->lsm[m] (its group moved to q's lane, or its instance). */
char *lied_lr_map_at(const lied_lr *L, lied_lr_worker *W, int m, uint64_t q);

/* The instance of p when p is a word in one of W's groups (block faults);
 * any other p as it is. */
const void *lied_lr_instance(const lied_lr *L, const lied_lr_worker *W, const void *p);

#endif
