/* wave.c - fixed-step explicit Runge-Kutta over a skewed schedule in waves
 * (see wave.h). */
#include "solve/wave.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/transfer.h"
#include "solve/erk.h"
#include "solve/events.h"
#include "solve/stepper.h"

int lied_wave_applies(const lied_sched *s) {
  return s->skewed && s->skew_stage > 0 && s->nsmap > 0 && !lied_events_stateful(s->model);
}

int lied_wave_init(lied_wave *w, lied_sched *s, const lied_tableau *tab, lied_err *e) {
  memset(w, 0, sizeof *w);
  if (!tab || !tab->explicit_ || tab->stages < 1)
    return lied_errc(e, LIED_E_USAGE, "solver %s: waves need an explicit table",
                     tab ? tab->name : "(none)");
  int most = 1;
  for (int m = 0; m < s->nsmap; m++)
    if (s->smap[m].n > most) most = s->smap[m].n;
  w->s = s;
  w->tab = tab;
  w->n = s->nstates;
  w->cut = w->left = INFINITY;
  w->k = lied_xcalloc((size_t)tab->stages * w->n + 1, sizeof *w->k, "waves: stage derivatives",
                      e);
  w->xnew = lied_xcalloc(w->n + 1, sizeof *w->xnew, "waves: new state", e);
  w->y = lied_xcalloc(s->chunk * (size_t)most, sizeof *w->y, "waves: chunk states", e);
  if (!w->k || !w->xnew || !w->y) {
    lied_wave_free(w);
    return LIED_E_NOMEM;
  }
  /* where the loop starts: the earliest chunk that moves a state in */
  const int64_t C = (int64_t)s->chunk;
  int64_t begin = 0, end = (int64_t)s->skew_end;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    if (sm->lag_in < begin) begin = sm->lag_in; /* instance 0 goes in at chunk lag_in */
    const int64_t last = (int64_t)sm->count + sm->lag_out;
    if (last > end) end = last;
  }
  w->begin = begin >= 0 ? 0 : -((-begin + C - 1) / C * C);
  w->end = end;
  /* steps per sweep: the stages in flight span stages x skew_stage
   * coordinates of instance data, which should stay in cache */
  uint64_t bytes = 0;
  for (int k = 0; k < s->model->nspecs; k++)
    if (s->model->specs[k].cls) bytes += s->model->specs[k].total * (uint64_t)s->model->specs[k].size;
  const double per = (double)bytes / (double)(s->skew_coords ? s->skew_coords : 1);
  const double span = per * (double)tab->stages * (double)s->skew_stage;
  const double k = floor((double)LIED_WAVE_BYTES / (span > 1 ? span : 1));
  w->most = k < 1 ? 1 : k > LIED_BLOCK_MAX ? LIED_BLOCK_MAX : (int)k;
  return LIED_OK;
}

void lied_wave_free(lied_wave *w) {
  free(w->k);
  free(w->xnew);
  free(w->y);
  memset(w, 0, sizeof *w);
}

/* Instances [c - lag, c - lag + chunk) of map sm, clipped: *q0, returns the
 * count (0: none). */
static uint64_t map_piece(const lied_state_map *sm, int64_t c, int64_t lag, int64_t C,
                          uint64_t *q0) {
  int64_t a = c - lag, b = a + C;
  if (a < 0) a = 0;
  if (b > (int64_t)sm->count) b = (int64_t)sm->count;
  *q0 = (uint64_t)a;
  return a < b ? (uint64_t)(b - a) : 0;
}

/* Stage i of step t of the block at chunk c: the stage's states in, the
 * steps, the derivatives out (and after the last stage the new state). */
static int stage_at(const lied_wave *w, int t, int i, int64_t c, lied_err *e) {
  lied_sched *s = w->s;
  double *y = w->y;
  const lied_tableau *tab = w->tab;
  const int S = tab->stages;
  const int64_t C = (int64_t)s->chunk;
  const double h = w->times[t + 1] - w->times[t];
  const double *x = t == 0 ? w->x : w->xnew; /* the state at the step's start */
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    uint64_t q0, n = map_piece(sm, c, sm->lag_in, C, &q0);
    if (!n) continue;
    const uint64_t off = lied_x_off(sm, q0);
    char *inst = sm->base + q0 * sm->stride;
    if (i == 0) {
      lied_states_in(sm, x + off, inst, n);
    } else {
      lied_rk_combine((size_t)n * (size_t)sm->n, x + off, h, tab->a + (size_t)i * (size_t)S, i,
                      w->k + off, w->n, y);
      lied_states_in(sm, y, inst, n);
    }
  }
  const double ts = w->times[t] + tab->c[i] * h;
  const lied_env env = lied_sched_env(s, ts >= w->cut ? w->left : ts);
  int rc = lied_sched_run_skewed_at(s, LIED_EVAL_DERIVATIVES, &env, c, e);
  if (s->fault.where) return lied_sched_fault(s, env.t, e); /* the cause of what follows */
  if (rc) return rc;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    uint64_t q0, n = map_piece(sm, c, sm->lag_out, C, &q0);
    if (!n) continue;
    const uint64_t off = lied_x_off(sm, q0);
    lied_ders_out(sm, w->k + (size_t)i * w->n + off, sm->base + q0 * sm->stride, n);
    if (i < S - 1) continue;
    const size_t len = (size_t)n * (size_t)sm->n;
    lied_rk_combine(len, x + off, h, tab->b, S, w->k + off, w->n, y);
    memcpy(w->xnew + off, y, sizeof *y * len);
    if (!w->check) continue;
    for (size_t q = 0; q < len; q++)
      if (!isfinite(y[q]))
        return lied_errc(e, LIED_E_NONFINITE, "at t = %.17g: a state became %g",
                         w->times[t + 1], y[q]);
  }
  return LIED_OK;
}

/* Every stage of every step of the block, in one sweep over the chunks:
 * stage g (step g / S, stage g % S) runs chunk P - g D when the sweep is at
 * P. */
static int sweep(lied_wave *w, lied_err *e) {
  lied_sched *s = w->s;
  const int S = w->tab->stages, G = w->nsteps * S;
  const int64_t C = (int64_t)s->chunk, D = (int64_t)s->skew_stage;
  const int64_t last = w->end + (int64_t)(G - 1) * D;
  for (int64_t P = w->begin; P < last; P += C) {
    if (w->stop && *w->stop) return LIED_RETRY;
    for (int g = 0; g < G; g++) {
      const int64_t c = P - (int64_t)g * D;
      if (c < w->begin) break; /* this stage and those after it have not started */
      if (c >= w->end) continue; /* done */
      LIED_TRY(stage_at(w, g / S, g % S, c, e));
    }
  }
  return LIED_OK;
}

int lied_wave_steps(lied_wave *w, const double *times, int nsteps, double *x,
                    volatile sig_atomic_t *stop, lied_err *e) {
  lied_sched *s = w->s;
  w->x = x;
  w->stop = stop;
  w->check = nsteps > 1; /* a single step: the caller checks x */
  LIED_TRY(lied_sched_prepare(s, times[0], e));
  int rc = LIED_OK;
  const int K = w->most;
  for (int j = 0; j < nsteps && rc == LIED_OK; j += K) {
    w->times = times + j;
    w->nsteps = nsteps - j < K ? nsteps - j : K;
    if (j) w->x = w->xnew;
    rc = sweep(w, e);
  }
  if (rc != LIED_OK) return rc;
  if (w->n) memcpy(x, w->xnew, sizeof *x * w->n);
  s->st.evaluations += (uint64_t)nsteps * (uint64_t)w->tab->stages;
  return LIED_OK;
}

/* ---- as a fixed-step stepper (stepper.h) --------------------------------- */

typedef struct wave_stepper {
  lied_wave w;
  lied_run *R;
} wave_stepper;

/* As fused steps: a block that fails is LIED_RETRY (x unchanged: the
 * driver takes its steps one at a time); a single step fails with the
 * time. */
static int wave_steps(void *self, const double *times, int nsteps, double *x) {
  wave_stepper *W = self;
  lied_run *R = W->R;
  W->w.cut = R->t_cut, W->w.left = R->t_left;
  int rc = lied_wave_steps(&W->w, times, nsteps, x, nsteps > 1 ? R->stop_flag : NULL, R->e);
  if (rc && nsteps > 1) return LIED_RETRY;
  R->nrhs += (long)nsteps * W->w.tab->stages;
  if (rc == LIED_OK) return LIED_OK;
  /* A failing single step: the stages ran interleaved, so the failure seen
   * first need not be the one whole-vector steps see first (stage by
   * stage). Take the step again over the whole vector (the wave's vectors
   * as its work space; x is unchanged) for that failure and its message. */
  lied_erk rk = {W->w.tab, (size_t)W->w.n, W->w.k, W->w.xnew, 0, R->pool};
  rc = lied_erk_step(&rk, lied_run_rhs, R, times[0], times[1] - times[0], x);
  return rc ? lied_err_at(R->e, times[0]) : LIED_OK;
}

static void wave_stepper_free(void *self) {
  wave_stepper *W = self;
  lied_wave_free(&W->w);
  free(W);
}

int lied_wave_stepper_new(lied_stepper *S, const lied_tableau *tab, lied_run *R) {
  wave_stepper *W = lied_xcalloc(1, sizeof *W, "solver", R->e);
  if (!W) return LIED_E_NOMEM;
  int rc = lied_wave_init(&W->w, R->s, tab, R->e);
  if (rc) {
    free(W);
    return rc;
  }
  W->R = R;
  R->st->fused = 1;
  R->st->waves = W->w.most;
  R->st->wave_gap = R->s->skew_stage;
  *S = (lied_stepper){.self = W, .steps = wave_steps, .max_block = LIED_BLOCK_MAX,
                      .free = wave_stepper_free};
  return LIED_OK;
}
