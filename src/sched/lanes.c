/* lanes.c - the dynamic part of a model of independent copies in lane form
 * (see lanes.h). */
#include "sched/lanes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "sched/probe.h"

#define W LIED_LANES

_Static_assert(LIED_PROBE_CHUNK == LIED_LANES,
               "a lane group must be one probing chunk: lied_lanes_load points a lane section's "
               "factored flag at the schedule's factored[q0 / chunk] with q0 of the group");

/* Propagate anything but LIED_OK: failures and LIED_UNSUPPORTED alike. */
#define LANES_TRY(expr)                                                                  \
  do {                                                                                   \
    int lanes_rc_ = (expr);                                                              \
    if (lanes_rc_ != LIED_OK) return lanes_rc_;                                          \
  } while (0)

/* Write why (cap bytes) and return LIED_UNSUPPORTED. */
static int unsupported(char *why, size_t cap, const char *reason) {
  snprintf(why, cap, "%s", reason);
  return LIED_UNSUPPORTED;
}

/* The group address of byte offset off of lane 0 (words are 8 bytes). */
static char *lane_addr(const lied_lane_spec *ls, size_t off) {
  LIED_ASSERT(off < ls->words * 8);
  return ls->group + (off / 8) * 8 * W + off % 8;
}

/* The lane spec whose copy 0 holds p, and p's offset in it; NULL if none. */
static const lied_lane_spec *find(const lied_lanes *L, const void *p, size_t *off) {
  const char *c = p;
  for (int i = 0; i < L->nsp; i++) {
    const lied_lane_spec *ls = &L->sp[i];
    if (c >= ls->arena && c < ls->arena + ls->words * 8) {
      *off = (size_t)(c - ls->arena);
      return ls;
    }
  }
  return NULL;
}

/* Lane 0 in the groups of what copy 0's p points at, or NULL. */
static char *translate(const lied_lanes *L, const void *p) {
  size_t off;
  const lied_lane_spec *ls = find(L, p, &off);
  return ls ? lane_addr(ls, off) : NULL;
}

void lied_lanes_free(lied_lanes *L) {
  for (int i = 0; i < L->nsp; i++) free(L->sp[i].mv);
  for (int i = 0; i < L->nsecs; i++) {
    free(L->secs[i].blk);
    free(L->secs[i].pairs);
  }
  free(L->sp);
  free(L->scratch);
  free(L->steps);
  free(L->secs);
  free(L->orig);
  free(L->smap);
  free(L->st);
  memset(L, 0, sizeof *L);
}

/* A lane spec for every leaf spec with instances, and the scratch block:
 * every group, then the zeros unconnected optional inputs read (LIED_LANES
 * per variable). LIED_OK, LIED_UNSUPPORTED (why) or LIED_E_NOMEM. */
static int make_groups(lied_lanes *L, char *why, size_t cap, lied_err *e) {
  const lied_model *m = L->s->model;
  L->sp = lied_xcalloc((size_t)m->nspecs + 1, sizeof *L->sp, "lanes", e);
  if (!L->sp) return LIED_E_NOMEM;
  size_t bytes = 0;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->total) continue;
    if (sp->size % 8) return unsupported(why, cap, "an instance size is not a multiple of 8 bytes");
    lied_lane_spec *ls = &L->sp[L->nsp++];
    ls->spec = i;
    ls->arena = sp->arena;
    ls->words = sp->size / 8;
    ls->mv = lied_xcalloc(ls->words + 1, sizeof *ls->mv, "lanes", e);
    if (!ls->mv) return LIED_E_NOMEM;
    bytes += sp->size * W;
  }
  const size_t zbytes = sizeof(double) * W * LIED_MAX_SIGNAL_VARS;
  L->scratch = lied_xcalloc_lines(bytes + zbytes, 1, "lanes", e);
  if (!L->scratch) return LIED_E_NOMEM;
  char *g = L->scratch;
  for (int k = 0; k < L->nsp; k++) {
    L->sp[k].group = g;
    g += L->sp[k].words * 8 * W;
  }
  L->zeros = g;
  return LIED_OK;
}

/* The reading pointers of the groups, set once: lane 0 of what copy 0
 * reads, in the source's group (or the zeros). LIED_OK or LIED_UNSUPPORTED
 * (why). */
static int set_pointers(lied_lanes *L, char *why, size_t cap) {
  const lied_model *m = L->s->model;
  for (int k = 0; k < L->nsp; k++) {
    lied_lane_spec *ls = &L->sp[k];
    const lied_spec *sp = &m->specs[ls->spec];
    for (int r = 0; r < sp->tpl.nrefs; r++) {
      const lied_tref *ref = &sp->tpl.refs[r];
      if (ref->kind != LIED_REF_PORT) continue;
      if (ref->offset % 8) return unsupported(why, cap, "a reading pointer that is not a whole word");
      const void *p = *(const void *const *)(const void *)(sp->arena + ref->offset);
      char *to = p == (const void *)lied_port_zeros ? L->zeros : translate(L, p);
      if (!to) return unsupported(why, cap, "a reading pointer leaves its copy");
      ls->mv[ref->offset / 8] = 1; /* a reading pointer: not moved */
      memcpy(lane_addr(ls, ref->offset), &to, sizeof to);
    }
    /* the other words, listed in place over those marks (nmv <= j) */
    for (size_t j = 0; j < ls->words; j++)
      if (!ls->mv[j]) ls->mv[ls->nmv++] = (uint32_t)j;
    LIED_ASSERT(ls->nmv <= ls->words);
  }
  return LIED_OK;
}

void lied_lanes_why_not(const lied_model *m, int spec, uint64_t inst, lied_block_fn fn, char *why,
                        size_t cap) {
  const lied_spec *sp = &m->specs[spec];
  for (int b = 0; b < sp->tpl.nblocks; b++) {
    if (sp->tpl.blocks[b].fn != fn) continue;
    char path[256];
    lied_model_path(m, spec, inst, path, sizeof path);
    snprintf(why, cap, "block %s of %s (%s) has no lane form", sp->tpl.blocks[b].name,
             sp->cls->name, path);
    return;
  }
  snprintf(why, cap, "a block of the dynamic part has no lane form");
}

/* The same for the block fn of the copies whose arena is base. */
static void no_lane_form(const lied_lanes *L, lied_block_fn fn, const char *base, char *why,
                         size_t cap) {
  const lied_model *m = L->s->model;
  for (int i = 0; i < m->nspecs; i++)
    if (m->specs[i].cls && m->specs[i].arena == base) {
      lied_lanes_why_not(m, i, 0, fn, why, cap);
      return;
    }
  snprintf(why, cap, "a block of the dynamic part has no lane form");
}

/* The group a block run or a section member runs on in lane form:
 * LIED_OK, or LIED_UNSUPPORTED (why). */
static int lane_block(const lied_lanes *L, lied_block_fn fn, lied_block_fn lanes,
                      const char *base, char **group, char *why, size_t cap) {
  size_t off;
  const lied_lane_spec *ls = find(L, base, &off);
  if (!lanes) {
    no_lane_form(L, fn, base, why, cap);
    return LIED_UNSUPPORTED;
  }
  if (!ls || off) return unsupported(why, cap, "a block runs outside the copies");
  *group = ls->group;
  return LIED_OK;
}

/* The lane copy j of section batch sec (LIED_LAYOUT_LANES): LIED_OK,
 * LIED_UNSUPPORTED (why) or LIED_E_NOMEM. */
static int lane_section(lied_lanes *L, int j, const lied_section *sec, char *why, size_t cap,
                        lied_err *e) {
  lied_section *ls = &L->secs[j];
  if (sec->sparse) return unsupported(why, cap, "a section solved sparsely");
  *ls = *sec;
  ls->blk = lied_xcalloc((size_t)sec->nblk + 1, sizeof *ls->blk, "lanes", e);
  ls->pairs = lied_xcalloc((size_t)sec->k + 1, sizeof *ls->pairs, "lanes", e);
  L->orig[j] = sec;
  L->nsecs = j + 1;
  if (!ls->blk || !ls->pairs) return LIED_E_NOMEM;
  ls->layout = LIED_LAYOUT_LANES;
  for (int i = 0; i < sec->nblk; i++) {
    char *g;
    LANES_TRY(lane_block(L, sec->blk[i].fn, sec->blk[i].lanes, sec->blk[i].base, &g, why, cap));
    ls->blk[i] = (lied_sec_block){sec->blk[i].lanes, g, 0, sec->blk[i].lanes};
  }
  for (int p = 0; p < sec->k; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    char *t = translate(L, sp->tear), *r = translate(L, sp->res);
    if (!t || !r) return unsupported(why, cap, "a tearing pair outside the copies");
    ls->pairs[p] = *sp;
    ls->pairs[p].tear = (double *)(void *)t;
    ls->pairs[p].res = (double *)(void *)r;
    ls->pairs[p].tstride = ls->pairs[p].rstride = LIED_LANE_STRIDE;
  }
  return LIED_OK;
}

/* The lane copy of the dynamic part's steps: LIED_OK, LIED_UNSUPPORTED (why)
 * or LIED_E_NOMEM. */
static int make_steps(lied_lanes *L, char *why, size_t cap, lied_err *e) {
  const lied_sched *s = L->s;
  const lied_step *st = s->steps[LIED_PART_DYN];
  const int n = s->nsteps[LIED_PART_DYN];
  L->steps = lied_xcalloc((size_t)n + 1, sizeof *L->steps, "lanes", e);
  L->secs = lied_xcalloc((size_t)n + 1, sizeof *L->secs, "lanes", e);
  L->orig = lied_xcalloc((size_t)n + 1, sizeof *L->orig, "lanes", e);
  if (!L->steps || !L->secs || !L->orig) return LIED_E_NOMEM;
  for (int i = 0; i < n; i++) {
    if (st[i].sec) {
      LANES_TRY(lane_section(L, L->nsecs, st[i].sec, why, cap, e));
      L->steps[i] = (lied_step){.sec = &L->secs[L->nsecs - 1]};
    } else {
      char *g;
      LANES_TRY(lane_block(L, st[i].fn, st[i].lanes, st[i].base, &g, why, cap));
      L->steps[i] = (lied_step){.fn = st[i].lanes, .base = g, .stride = 0, .count = st[i].count,
                                .lanes = st[i].lanes};
    }
  }
  L->nsteps = n;
  return LIED_OK;
}

/* The state maps over the groups (LIED_LAYOUT_LANES: offsets of lane
 * arrays): LIED_OK, LIED_UNSUPPORTED (why) or LIED_E_NOMEM. */
static int make_smaps(lied_lanes *L, char *why, size_t cap, lied_err *e) {
  const lied_sched *s = L->s;
  int nst = 0;
  for (int m = 0; m < s->nsmap; m++) nst += s->smap[m].n;
  L->smap = lied_xcalloc((size_t)s->nsmap + 1, sizeof *L->smap, "lanes", e);
  L->st = lied_xcalloc((size_t)nst + 1, sizeof *L->st, "lanes", e);
  if (!L->smap || !L->st) return LIED_E_NOMEM;
  lied_tstate *t = L->st;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    size_t off;
    const lied_lane_spec *ls = find(L, sm->base, &off);
    if (!ls || off) return unsupported(why, cap, "states outside the copies");
    L->smap[m] = *sm;
    L->smap[m].base = ls->group;
    L->smap[m].stride = LIED_LANE_STRIDE;
    L->smap[m].layout = LIED_LAYOUT_LANES;
    L->smap[m].st = t;
    L->smap[m].proto = NULL;
    L->smap[m].start = NULL;
    for (int q = 0; q < sm->n; q++, t++) {
      if (sm->st[q].x % 8 || sm->st[q].der % 8)
        return unsupported(why, cap, "a state that is not a whole word");
      *t = (lied_tstate){sm->st[q].x * W, sm->st[q].der * W, sm->st[q].var};
    }
  }
  return LIED_OK;
}

int lied_lanes_init(lied_lanes *L, lied_sched *s, char *why, size_t cap, lied_err *e) {
  memset(L, 0, sizeof *L);
  L->s = s;
  if (cap) *why = 0;
  int rc = !s->aligned || !s->st.copies
               ? unsupported(why, cap, "the model is not independent copies of one structure")
               : make_groups(L, why, cap, e);
  if (rc == LIED_OK) rc = set_pointers(L, why, cap);
  if (rc == LIED_OK) rc = make_steps(L, why, cap, e);
  if (rc == LIED_OK) rc = make_smaps(L, why, cap, e);
  if (rc != LIED_OK) lied_lanes_free(L);
  return rc;
}

/* Copies [q0, q0 + n): one group, the copies in it, from its first lane. */
static inline int lanes_chunk_ok(const lied_lanes *L, uint64_t q0, uint64_t n) {
  return q0 % W == 0 && n >= 1 && n <= W && q0 + n <= L->s->aligned_n;
}

void lied_lanes_load(lied_lanes *L, uint64_t q0, uint64_t n) {
  LIED_ASSERT(lanes_chunk_ok(L, q0, n));
  for (int i = 0; i < L->nsp; i++) {
    const lied_lane_spec *ls = &L->sp[i];
    lied_lanes_move(ls->group, ls->arena, ls->words, ls->mv, ls->nmv, (int64_t)q0,
                    (int64_t)(q0 + n), (int64_t)q0, 0);
  }
  /* this chunk's factors of constant sections, and its copies for messages */
  for (int j = 0; j < L->nsecs; j++) {
    lied_section *ls = &L->secs[j];
    const lied_section *o = L->orig[j];
    const size_t k = (size_t)o->k;
    if (o->constant) {
      LIED_ASSERT(q0 + n <= o->count); /* the chunk's factors and flag */
      ls->lu = o->lu + q0 * k * k;
      ls->piv = o->piv + q0 * k;
      ls->factored = o->factored + q0 / W;
    }
    for (int p = 0; p < o->k; p++) ls->pairs[p].inst0 = o->pairs[p].inst0 + q0;
  }
}

void lied_lanes_store(const lied_lanes *L, uint64_t q0, uint64_t n) {
  LIED_ASSERT(lanes_chunk_ok(L, q0, n));
  for (int i = 0; i < L->nsp; i++) {
    const lied_lane_spec *ls = &L->sp[i];
    lied_lanes_move(ls->group, ls->arena, ls->words, ls->mv, ls->nmv, (int64_t)q0,
                    (int64_t)(q0 + n), (int64_t)q0, 1);
  }
}

int lied_lanes_run(lied_lanes *L, const lied_env *env, uint64_t n, lied_err *e) {
  LIED_ASSERT(n >= 1 && n <= W);
  return lied_sched_run_steps(L->s, L->steps, L->nsteps, LIED_EVAL_DERIVATIVES, env, 0, n, e);
}

const void *lied_lanes_instance(const lied_lanes *L, const void *p, uint64_t q0) {
  const char *c = p;
  for (int i = 0; i < L->nsp; i++) {
    const lied_lane_spec *ls = &L->sp[i];
    const size_t bytes = ls->words * W * 8;
    if (c >= ls->group && c < ls->group + bytes) {
      const uint64_t l = ((uint64_t)(c - ls->group) / 8) % W;
      LIED_ASSERT(q0 % W == 0 && q0 + l < L->s->aligned_n);
      return ls->arena + (q0 + l) * ls->words * 8;
    }
  }
  return p;
}
