/* fused.c - fixed-step explicit Runge-Kutta fused with an aligned schedule:
 * every stage of every step of a block of steps for one chunk of copies,
 * then the next chunk (see fused.h). */
#include "solve/fused.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  f->k = lied_xcalloc((size_t)tab->stages * width * s->chunk, sizeof *f->k,
                      "fused steps: stage derivatives", e);
  f->y = lied_xcalloc(width * s->chunk, sizeof *f->y, "fused steps: chunk states", e);
  f->cur = lied_xcalloc(width * s->chunk, sizeof *f->cur, "fused steps: chunk states", e);
  f->xnew = lied_xcalloc(f->n + 1, sizeof *f->xnew, "fused steps: new state", e);
  if (!f->k || !f->y || !f->cur || !f->xnew) {
    lied_fused_free(f);
    return LIED_E_NOMEM;
  }
  if (lanes) {
    int rc = lied_lanes_init(&f->lanes, s, f->no_lanes, sizeof f->no_lanes, e);
    if (rc < 0) {
      lied_fused_free(f);
      return lied_err_code(e); /* lanes.h: out of memory, with a message */
    }
    f->lane = rc == LIED_OK;
  }
  return LIED_OK;
}

void lied_fused_free(lied_fused *f) {
  free(f->k);
  free(f->y);
  free(f->cur);
  free(f->xnew);
  if (f->lane) lied_lanes_free(&f->lanes);
  memset(f, 0, sizeof *f);
}

/* Where state map sm's part of one chunk starts in the chunk buffers (cur,
 * y, one stage of k): the chunk is laid out like x, state map after state
 * map (every map has aligned_n instances, so the states per copy before sm
 * are x0 / aligned_n). */
static size_t chunk_off(const lied_sched *s, const lied_state_map *sm) {
  return (size_t)(sm->x0 / s->aligned_n) * s->chunk;
}

/* One step of size h from time t for copies [q0, q0 + n), their states in
 * cur (chunk layout); the new states replace them. With `check`, a state
 * that is not finite afterwards is a failure (LIED_E_NONFINITE). */
static int chunk_step(lied_fused *f, int lane, uint64_t q0, uint64_t n, double t, double h,
                      int check, lied_err *e) {
  lied_sched *s = f->s;
  const lied_tableau *tab = f->tab;
  const int ns = tab->stages;
  const size_t kst = f->width * s->chunk; /* one stage of one chunk */
  /* the chunk's instances: in the arenas from copy q0 on, or the lane groups */
  const lied_state_map *smap = lane ? f->lanes.smap : s->smap;
  const uint64_t qi = lane ? 0 : q0;
  for (int i = 0; i < ns; i++) {
    /* the stage's states into the instances */
    for (int m = 0; m < s->nsmap; m++) {
      const lied_state_map *sm = &smap[m];
      const size_t off = chunk_off(s, sm);
      char *inst = sm->base + qi * sm->stride;
      if (i == 0) { /* the first stage is the state itself */
        lied_states_in(sm, f->cur + off, inst, n);
      } else {
        lied_rk_combine((size_t)n * (size_t)sm->n, f->cur + off, h,
                        tab->a + (size_t)i * (size_t)ns, i, f->k + off, kst, f->y);
        lied_states_in(sm, f->y, inst, n);
      }
    }
    const double ts = t + tab->c[i] * h;
    const lied_env env = {ts >= f->cut ? f->left : ts};
    if (lane ? lied_lanes_run(&f->lanes, &env, n, e)
                : lied_sched_run_chunk(s, LIED_EVAL_DERIVATIVES, &env, q0, n, e))
      return lied_err_code(e);
    for (int m = 0; m < s->nsmap; m++) {
      const lied_state_map *sm = &smap[m];
      lied_ders_out(sm, f->k + (size_t)i * kst + chunk_off(s, sm), sm->base + qi * sm->stride,
                    n);
    }
  }
  /* the new state into y (chunk layout), then swap it with cur */
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    const size_t off = chunk_off(s, sm);
    lied_rk_combine((size_t)n * (size_t)sm->n, f->cur + off, h, tab->b, ns, f->k + off, kst,
                    f->y + off);
  }
  double *tmp = f->cur;
  f->cur = f->y;
  f->y = tmp;
  if (!check) return LIED_OK;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    const double *c = f->cur + chunk_off(s, sm);
    for (size_t i = 0; i < (size_t)n * (size_t)sm->n; i++)
      if (!isfinite(c[i]))
        return lied_errc(e, LIED_E_NONFINITE, "at t = %.17g: a state became %g", t + h, c[i]);
  }
  return LIED_OK;
}

/* Move the states of copies [q0, q0 + n) between x and cur. */
static void chunk_load(lied_fused *f, const double *x, uint64_t q0, uint64_t n) {
  const lied_sched *s = f->s;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    memcpy(f->cur + chunk_off(s, sm), x + lied_x_off(sm, q0),
           sizeof(double) * n * (uint64_t)sm->n);
  }
}

static void chunk_store(const lied_fused *f, double *x, uint64_t q0, uint64_t n) {
  const lied_sched *s = f->s;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    memcpy(x + lied_x_off(sm, q0), f->cur + chunk_off(s, sm),
           sizeof(double) * n * (uint64_t)sm->n);
  }
}

LIED_LANE_FN int lied_fused_steps(lied_fused *f, const double *times, int nsteps, double *x,
                     volatile sig_atomic_t *stop, lied_err *e) {
  lied_sched *s = f->s;
  const uint64_t total = s->aligned_n, chunk = s->chunk;
  const int check = nsteps > 1; /* a single step: the caller checks x */
  /* lane groups for blocks of steps: moving a chunk in and out costs about
   * what lanes save over one step (measured: output at every step) */
  const int lane = f->lane && nsteps > 1;
  for (uint64_t q0 = 0; q0 < total; q0 += chunk) {
    const uint64_t n = total - q0 < chunk ? total - q0 : chunk;
    chunk_load(f, x, q0, n);
    if (lane) lied_lanes_load(&f->lanes, q0, n);
    for (int j = 0; j < nsteps; j++) {
      if (stop && *stop) return LIED_RETRY;
      LIED_TRY(chunk_step(f, lane, q0, n, times[j], times[j + 1] - times[j], check, e));
    }
    if (lane) lied_lanes_store(&f->lanes, q0, n);
    chunk_store(f, f->xnew, q0, n);
  }
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
