/* fused.c - fixed-step explicit Runge-Kutta fused with an aligned schedule:
 * every stage of every step of a block of steps for one chunk of copies,
 * then the next chunk (see fused.h). */
#include "solve/fused.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/assert.h"
#include "core/finite.h"
#include "sched/par.h"
#include "sched/transfer.h"
#include "solve/erk.h"
#include "solve/events.h"
#include "solve/stepper.h"

/* Models with zero functions or event handlers step over the whole state
 * vector, one step at a time (solve/events.h); time events alone do not
 * need that (a block of steps ends at each). */
int lied_fused_applies(const lied_sched *s) {
  return s->aligned && s->nsmap > 0 && !lied_events_stateful(s->model);
}

int lied_fused_init(lied_fused *f, lied_sched *s, const lied_tableau *tab, int lanes,
                    lied_err *e) {
  memset(f, 0, sizeof *f);
  if (!tab || !tab->explicit_ || tab->stages < 1)
    return lied_errc(e, LIED_E_USAGE, "solver %s: fused steps need an explicit table",
                     tab ? tab->name : "(none)");
  size_t width = 0;
  for (int m = 0; m < s->nsmap; m++) width += (size_t)s->smap[m].n;
  f->s = s;
  f->tab = tab;
  f->n = s->nstates;
  f->width = width;
  f->cut = f->left = INFINITY;
  const int nws = s->par ? s->par->nw : 1;
  f->ws = lied_xcalloc((size_t)nws, sizeof *f->ws, "fused steps: threads", e);
  f->xnew = lied_xcalloc_lines(f->n + 1, sizeof *f->xnew, "fused steps: new state", e);
  if (!f->ws || !f->xnew) {
    lied_fused_free(f);
    return LIED_E_NOMEM;
  }
  f->nws = nws;
  f->lane = lanes;
  for (int w = 0; w < nws; w++) {
    lied_fused_ws *ws = &f->ws[w];
    ws->s = s->par ? &s->par->view[w] : s;
    ws->k = lied_xcalloc_lines((size_t)tab->stages * width * s->chunk, sizeof *ws->k,
                         "fused steps: stage derivatives", e);
    ws->y = lied_xcalloc_lines(width * s->chunk, sizeof *ws->y, "fused steps: chunk states", e);
    ws->cur = lied_xcalloc_lines(width * s->chunk, sizeof *ws->cur, "fused steps: chunk states", e);
    if (!ws->k || !ws->y || !ws->cur) {
      lied_fused_free(f);
      return LIED_E_NOMEM;
    }
    if (f->lane) {
      int rc = lied_lanes_init(&ws->lanes, ws->s, f->no_lanes, sizeof f->no_lanes, e);
      if (rc < 0) {
        lied_fused_free(f);
        return lied_err_code(e); /* lanes.h: out of memory, with a message */
      }
      /* the same model for every worker: supported by all or by none */
      f->lane = rc == LIED_OK;
    }
  }
  return LIED_OK;
}

void lied_fused_free(lied_fused *f) {
  for (int w = 0; f->ws && w < f->nws; w++) {
    lied_fused_ws *ws = &f->ws[w];
    free(ws->k);
    free(ws->y);
    free(ws->cur);
    if (f->lane) lied_lanes_free(&ws->lanes);
  }
  free(f->ws);
  free(f->xnew);
  memset(f, 0, sizeof *f);
}

/* Where state map sm's part of one chunk starts in the chunk buffers (cur,
 * y, one stage of k): the chunk is laid out like x, state map after state
 * map (every map has aligned_n instances, so the states per copy before sm
 * are x0 / aligned_n). */
static size_t chunk_off(const lied_sched *s, const lied_state_map *sm) {
  LIED_ASSERT(sm->x0 % s->aligned_n == 0 && sm->count == s->aligned_n);
  return (size_t)(sm->x0 / s->aligned_n) * s->chunk;
}

/* One step of size h from time t for copies [q0, q0 + n), their states in
 * cur (chunk layout); the new states replace them. With `check`, a state
 * that is not finite afterwards is a failure (LIED_E_NONFINITE). */
static int chunk_step(const lied_fused *f, lied_fused_ws *w, int lane, uint64_t q0, uint64_t n,
                      double t, double h, int check, lied_err *e) {
  lied_sched *s = w->s;
  const lied_tableau *tab = f->tab;
  const int ns = tab->stages;
  const size_t kst = f->width * s->chunk; /* one stage of one chunk */
  /* one chunk of copies (a lane group: sched.h, LIED_PROBE_CHUNK) */
  LIED_ASSERT(n >= 1 && n <= s->chunk && q0 % s->chunk == 0 && q0 + n <= s->aligned_n);
  /* the chunk's instances: in the arenas from copy q0 on, or the lane groups */
  const lied_state_map *smap = lane ? w->lanes.smap : s->smap;
  const uint64_t qi = lane ? 0 : q0;
  for (int i = 0; i < ns; i++) {
    /* the stage's states into the instances */
    for (int m = 0; m < s->nsmap; m++) {
      const lied_state_map *sm = &smap[m];
      const size_t off = chunk_off(s, sm);
      char *inst = sm->base + qi * sm->stride;
      if (i == 0) { /* the first stage is the state itself */
        lied_states_in(sm, w->cur + off, inst, n);
      } else {
        lied_rk_combine((size_t)n * (size_t)sm->n, w->cur + off, h,
                        tab->a + (size_t)i * (size_t)ns, i, w->k + off, kst, w->y);
        lied_states_in(sm, w->y, inst, n);
      }
    }
    const double ts = t + tab->c[i] * h;
    const lied_env env = lied_sched_env(s, ts >= f->cut ? f->left : ts);
    int rc = lane ? lied_lanes_run(&w->lanes, &env, n, e)
                  : lied_sched_run_chunk(s, LIED_EVAL_DERIVATIVES, &env, q0, n, e);
    if (s->fault.where) { /* a block fault is the cause of what follows */
      if (lane) s->fault.where = lied_lanes_instance(&w->lanes, s->fault.where, q0);
      return lied_sched_fault(s, env.t, e);
    }
    if (rc) return lied_err_code(e);
    for (int m = 0; m < s->nsmap; m++) {
      const lied_state_map *sm = &smap[m];
      lied_ders_out(sm, w->k + (size_t)i * kst + chunk_off(s, sm), sm->base + qi * sm->stride,
                    n);
    }
  }
  /* the new state into y (chunk layout), then swap it with cur */
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    const size_t off = chunk_off(s, sm);
    lied_rk_combine((size_t)n * (size_t)sm->n, w->cur + off, h, tab->b, ns, w->k + off, kst,
                    w->y + off);
  }
  double *tmp = w->cur;
  w->cur = w->y;
  w->y = tmp;
  if (!check) return LIED_OK;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    const double *c = w->cur + chunk_off(s, sm);
    const size_t all = (size_t)n * (size_t)sm->n, i = lied_first_nonfinite(c, all);
    if (i < all)
      return lied_errc(e, LIED_E_NONFINITE, "at t = %.17g: a state became %g", t + h, c[i]);
  }
  return LIED_OK;
}

/* Move the states of copies [q0, q0 + n) between x and cur. */
static void chunk_load(lied_fused_ws *w, const double *x, uint64_t q0, uint64_t n) {
  const lied_sched *s = w->s;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    memcpy(w->cur + chunk_off(s, sm), x + lied_x_off(sm, q0),
           sizeof(double) * n * (uint64_t)sm->n);
  }
}

static void chunk_store(const lied_fused_ws *w, double *x, uint64_t q0, uint64_t n) {
  const lied_sched *s = w->s;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    memcpy(x + lied_x_off(sm, q0), w->cur + chunk_off(s, sm),
           sizeof(double) * n * (uint64_t)sm->n);
  }
}

/* Copies [a, b) through the block of steps f->times, with work space w:
 * chunk by chunk, each through every step. */
static int fused_range(const lied_fused *f, lied_fused_ws *w, uint64_t a, uint64_t b,
                       lied_err *e) {
  const uint64_t chunk = w->s->chunk;
  const int lane = f->block_lanes;
  LIED_ASSERT(a % chunk == 0 && a <= b && b <= w->s->aligned_n); /* whole chunks */
  for (uint64_t q0 = a; q0 < b; q0 += chunk) {
    const uint64_t n = b - q0 < chunk ? b - q0 : chunk;
    LIED_ASSERT(n == chunk || q0 + n == b); /* whole chunks, the last up to b */
    chunk_load(w, f->x, q0, n);
    if (lane) lied_lanes_load(&w->lanes, q0, n);
    for (int j = 0; j < f->nsteps; j++) {
      if (f->stop && *f->stop) return LIED_RETRY;
      LIED_TRY(chunk_step(f, w, lane, q0, n, f->times[j], f->times[j + 1] - f->times[j],
                          f->check, e));
    }
    if (lane) lied_lanes_store(&w->lanes, q0, n);
    chunk_store(w, f->xnew, q0, n);
  }
  return LIED_OK;
}

/* A range of chunks on a worker of the run's threads (sched/par.h). */
static int fused_worker(lied_sched *v, void *ctx, int r, uint64_t a, uint64_t b, lied_err *e) {
  (void)v;
  const lied_fused *f = ctx;
  return fused_range(f, &f->ws[r], a, b, e);
}

LIED_LANE_FN int lied_fused_steps(lied_fused *f, const double *times, int nsteps, double *x,
                     volatile sig_atomic_t *stop, lied_err *e) {
  lied_sched *s = f->s;
  f->times = times;
  f->nsteps = nsteps;
  f->x = x;
  f->stop = stop;
  f->check = nsteps > 1; /* a single step: the caller checks x */
  /* lane groups for blocks of steps: moving a chunk in and out costs about
   * what lanes save over one step (measured: output at every step) */
  f->block_lanes = f->lane && nsteps > 1;
  int rc;
  if (s->par && f->nws == s->par->nw && lied_sched_par_split_blocks(s, s->aligned_n) > 1)
    /* threads attached before lied_fused_init; a chunk's result does not
     * depend on the worker */
    rc = lied_sched_par_run_grains(s, s->aligned_n, fused_worker, f, e);
  else
    rc = fused_range(f, &f->ws[0], 0, s->aligned_n, e);
  if (rc != LIED_OK) return rc;
  if (f->n) memcpy(x, f->xnew, sizeof *x * f->n);
  s->st.evaluations += (uint64_t)nsteps * (uint64_t)f->tab->stages;
  return LIED_OK;
}

/* ---- as a fixed-step stepper (stepper.h) --------------------------------- */

typedef struct fused_stepper {
  lied_fused f;
  lied_run *R;
} fused_stepper;

/* Blocks poll the stop flag and check every step's state; any failure of a
 * block is LIED_RETRY (x unchanged: the driver takes the steps one at a
 * time). A single step fails with the time. */
static int fused_steps(void *self, const double *times, int nsteps, double *x) {
  fused_stepper *F = self;
  lied_run *R = F->R;
  F->f.cut = R->t_cut, F->f.left = R->t_left;
  int rc = lied_fused_steps(&F->f, times, nsteps, x, nsteps > 1 ? R->stop_flag : NULL, R->e);
  if (rc && nsteps > 1) return LIED_RETRY;
  R->nrhs += (long)nsteps * F->f.tab->stages;
  return rc ? lied_err_at(R->e, times[0]) : LIED_OK;
}

static void fused_stepper_free(void *self) {
  fused_stepper *F = self;
  lied_fused_free(&F->f);
  free(F);
}

int lied_fused_stepper_new(lied_stepper *S, const lied_tableau *tab, lied_run *R) {
  fused_stepper *F = lied_xcalloc(1, sizeof *F, "solver", R->e);
  if (!F) return LIED_E_NOMEM;
  int rc = lied_fused_init(&F->f, R->s, tab, !R->o->no_lanes, R->e);
  if (rc) {
    free(F);
    return rc;
  }
  F->R = R;
  R->st->fused = 1;
  R->st->lanes = F->f.lane;
  snprintf(R->st->no_lanes, sizeof R->st->no_lanes, "%s",
           R->o->no_lanes ? "not asked for" : F->f.no_lanes);
  *S = (lied_stepper){.self = F, .steps = fused_steps, .max_block = LIED_BLOCK_MAX,
                      .free = fused_stepper_free};
  return LIED_OK;
}
