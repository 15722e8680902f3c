/* wave.c - fixed-step explicit Runge-Kutta over a skewed schedule in waves
 * (see wave.h). */
#include "solve/wave.h"
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/assert.h"
#include "core/finite.h"
#include "sched/par.h"
#include "sched/transfer.h"
#include "solve/erk.h"
#include "solve/events.h"
#include "solve/stepper.h"
#include "core/clock.h"

int lied_wave_applies(const lied_sched *s) {
  return s->skewed && s->skew_stage > 0 && s->nsmap > 0 && !lied_events_stateful(s->model);
}

/* The work space of w on s's workers: the new state, the chunks' states,
 * the rings' bases and lengths, the threads' shares and rates. */
static int wave_alloc(lied_wave *w, const lied_sched *s, const lied_tableau *tab, lied_err *e) {
  int most = 1;
  for (int m = 0; m < s->nsmap; m++)
    if (s->smap[m].n > most) most = s->smap[m].n;
  w->xnew = lied_xcalloc_lines(w->n + 1, sizeof *w->xnew, "waves: new state", e);
  w->nw = s->par ? s->par->nw : 1;
  w->ylen = s->chunk * (size_t)most;
  w->y = lied_xcalloc_lines(w->ylen * (size_t)w->nw, sizeof *w->y, "waves: chunk states", e);
  w->rbase = lied_xcalloc((size_t)s->nsmap + 1, sizeof *w->rbase, "waves: rings", e);
  w->rlen = lied_xcalloc((size_t)s->nsmap + 1, sizeof *w->rlen, "waves: rings", e);
  if (w->nw > 1) {
    w->done = lied_xcalloc((size_t)LIED_BLOCK_MAX * (size_t)tab->stages, sizeof *w->done,
                           "waves: threads", e);
    w->split = lied_xcalloc((size_t)w->nw + 1, sizeof *w->split, "waves: threads", e);
    w->rate = lied_xcalloc((size_t)w->nw, sizeof *w->rate, "waves: threads", e);
    w->work = lied_xcalloc((size_t)w->nw, sizeof *w->work, "waves: threads", e);
  }
  if (!w->xnew || !w->y || !w->rbase || !w->rlen ||
      (w->nw > 1 && (!w->done || !w->split || !w->rate || !w->work)))
    return LIED_E_NOMEM;
  return LIED_OK;
}

/* Where the loop starts (w->begin: the earliest chunk that moves a state
 * in, a whole number of chunks) and ends (w->end: the last derivative out). */
static void wave_span(lied_wave *w, const lied_sched *s) {
  const int64_t C = (int64_t)s->chunk;
  int64_t begin = 0, end = (int64_t)s->skew_end;
  LIED_ASSERT(s->skew_stage >= s->chunk && s->skew_stage % s->chunk == 0);
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    LIED_ASSERT(sm->lag_out >= sm->lag_in); /* states in before derivatives out */
    if (sm->lag_in < begin) begin = sm->lag_in; /* instance 0 goes in at chunk lag_in */
    const int64_t last = (int64_t)sm->count + sm->lag_out;
    if (last > end) end = last;
  }
  w->begin = begin >= 0 ? 0 : -((-begin + C - 1) / C * C);
  w->end = end;
}

/* Steps per sweep (w->most) and what a worker's rings hold (w->cap): the
 * stages in flight span stages x skew_stage coordinates of instance data,
 * which should stay in cache. */
static void wave_sweep(lied_wave *w, const lied_sched *s, const lied_tableau *tab) {
  uint64_t bytes = 0;
  for (int k = 0; k < s->model->nspecs; k++)
    if (s->model->specs[k].cls) bytes += s->model->specs[k].total * (uint64_t)s->model->specs[k].size;
  const double per = (double)bytes / (double)(s->skew_coords ? s->skew_coords : 1);
  const double span = per * (double)tab->stages * (double)s->skew_stage;
  /* (a model that fits whole stays in cache whatever the sweep's length:
   * the longest sweeps, which load and store the lane groups least often) */
  const double k = bytes <= LIED_WAVE_BYTES ? LIED_BLOCK_MAX
                                            : floor((double)LIED_WAVE_BYTES / (span > 1 ? span : 1));
  w->most = k < 1 ? 1 : k > LIED_BLOCK_MAX ? LIED_BLOCK_MAX : (int)k;
  /* on threads a worker may take up to half as many steps again as an even
   * share (wave_split), so its rings hold that many */
  w->cap = w->nw > 1 ? w->most + (w->most + 1) / 2 : w->most;
}

/* The rings of stage derivatives: a worker's stages in flight (at most
 * `cap` steps, stage g skew_stage behind g - 1) span that many stages'
 * distances and a chunk on either side (live instances, returned in
 * *live); every map's derivatives move out lag_out behind its chunk, so its
 * live instances lie within that span too. */
static int wave_rings(lied_wave *w, const lied_sched *s, const lied_tableau *tab, uint64_t *live,
                      lied_err *e) {
  *live = (uint64_t)w->cap * (uint64_t)tab->stages * s->skew_stage + 2 * (uint64_t)s->chunk;
  size_t len = 0;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    w->rlen[m] = sm->count < *live ? sm->count : *live;
    w->rbase[m] = len;
    len += (size_t)w->rlen[m] * (size_t)sm->n;
  }
  w->kstride = len;
  w->k = lied_xcalloc_lines((size_t)w->nw * (size_t)tab->stages * len + 1, sizeof *w->k,
                            "waves: stage derivatives", e);
  return w->k ? LIED_OK : LIED_E_NOMEM;
}

/* The lane rings (sched/lanering.h) over the live instances and a worker
 * state each; LIED_OK with w->lane 0 and the reason in w->no_lanes when the
 * model has no lane plan. */
static int wave_lanes(lied_wave *w, lied_sched *s, uint64_t live, lied_err *e) {
  int rc = lied_lr_init(&w->lr, s, live, w->no_lanes, sizeof w->no_lanes, e);
  if (rc == LIED_UNSUPPORTED) return LIED_OK;
  if (rc == LIED_OK) {
    w->lw = lied_xcalloc((size_t)w->nw, sizeof *w->lw, "waves: lanes", e);
    rc = w->lw ? LIED_OK : LIED_E_NOMEM;
    for (int r = 0; r < w->nw && rc == LIED_OK; r++) {
      rc = lied_lr_worker_init(&w->lr, &w->lw[r], e);
      if (rc == LIED_OK) w->nlw = r + 1;
    }
  }
  if (rc == LIED_OK) w->lane = 1;
  return rc;
}

int lied_wave_init(lied_wave *w, lied_sched *s, const lied_tableau *tab, int lanes, lied_err *e) {
  memset(w, 0, sizeof *w);
  if (!tab || !tab->explicit_ || tab->stages < 1)
    return lied_errc(e, LIED_E_USAGE, "solver %s: waves need an explicit table",
                     tab ? tab->name : "(none)");
  w->s = s;
  w->tab = tab;
  w->n = s->nstates;
  w->cut = w->left = INFINITY;
  uint64_t live = 0;
  int rc = wave_alloc(w, s, tab, e);
  if (rc == LIED_OK) {
    wave_span(w, s);
    wave_sweep(w, s, tab);
    rc = wave_rings(w, s, tab, &live, e);
  }
  if (rc == LIED_OK && !lanes)
    snprintf(w->no_lanes, sizeof w->no_lanes, "not asked for");
  else if (rc == LIED_OK)
    rc = wave_lanes(w, s, live, e);
  if (rc != LIED_OK) lied_wave_free(w);
  return rc;
}

void lied_wave_free(lied_wave *w) {
  for (int r = 0; w->lw && r < w->nlw; r++) lied_lr_worker_free(&w->lr, &w->lw[r]);
  free(w->lw);
  lied_lr_free(&w->lr);
  free(w->k);
  free(w->rbase);
  free(w->rlen);
  free(w->xnew);
  free(w->y);
  free((void *)w->done);
  free(w->split);
  free(w->rate);
  free(w->work);
  memset(w, 0, sizeof *w);
}

/* Instances [c - lag, c - lag + chunk) of map sm, clipped: *q0, returns the
 * count (0: none). */
static uint64_t map_piece(const lied_state_map *sm, int64_t c, int64_t lag, int64_t C,
                          uint64_t *q0) {
  int64_t a = c - lag, b = a + C;
  if (a < 0) a = 0;
  if (b > (int64_t)sm->count) b = (int64_t)sm->count;
  LIED_ASSERT(b - a <= C); /* at most one chunk */
  *q0 = (uint64_t)a;
  return a < b ? (uint64_t)(b - a) : 0;
}

/* The n instances from q0 of map m in pieces that do not wrap around its
 * ring: q, the piece's length, its place in the ring (r) and in the chunk
 * (done). */
#define RING_PIECES(w, m, q0, n)                                                            \
  for (uint64_t done = 0, q, r, len; done < (n) &&                                          \
       (q = (q0) + done, r = q % (w)->rlen[m],                                               \
        len = (n) - done < (w)->rlen[m] - r ? (n) - done : (w)->rlen[m] - r, 1);            \
       done += len)

/* Instance q of state map m (sm: the map as the run uses it): in its lane
 * group when lw is given, else in its arena. */
static char *map_inst(const lied_wave *w, lied_lr_worker *lw, const lied_state_map *sm, int m,
                      uint64_t q) {
  return lw ? lied_lr_map_at(&w->lr, lw, m, q) : sm->base + q * sm->stride;
}

/* Stage i of step t of the block at chunk c, with the stage derivatives in
 * ring k: the stage's states in, the steps, the derivatives out (and after
 * the last stage the new state). */
static int stage_at(const lied_wave *w, lied_sched *s, lied_lr_worker *lw, double *k, double *y,
                    int t, int i, int64_t c, lied_err *e) {
  const lied_tableau *tab = w->tab;
  const int S = tab->stages;
  const int64_t C = (int64_t)s->chunk;
  const double h = w->times[t + 1] - w->times[t];
  const double *x = t == 0 ? w->x : w->xnew; /* the state at the step's start */
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = lw ? &w->lr.lane_smap[m] : &s->smap[m];
    uint64_t q0, n = map_piece(sm, c, sm->lag_in, C, &q0);
    if (!n) continue;
    char *inst = map_inst(w, lw, sm, m, q0);
    if (i == 0) {
      lied_states_in(sm, x + lied_x_off(sm, q0), inst, n);
      continue;
    }
    const size_t nm = (size_t)sm->n;
    RING_PIECES(w, m, q0, n)
    lied_rk_combine(len * nm, x + lied_x_off(sm, q), h, tab->a + (size_t)i * (size_t)S, i,
                    k + w->rbase[m] + r * nm, w->kstride, y + done * nm);
    lied_states_in(sm, y, inst, n);
  }
  const double ts = w->times[t] + tab->c[i] * h;
  const lied_env env = lied_sched_env(s, ts >= w->cut ? w->left : ts);
  int rc = lw ? lied_lr_run_at(&w->lr, lw, s, LIED_EVAL_DERIVATIVES, &env, c, e)
              : lied_sched_run_skewed_at(s, LIED_EVAL_DERIVATIVES, &env, c, e);
  if (s->fault.where) {
    if (lw) s->fault.where = lied_lr_instance(&w->lr, lw, s->fault.where);
    return lied_sched_fault(s, env.t, e); /* the cause of what follows */
  }
  if (rc) return rc;
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = lw ? &w->lr.lane_smap[m] : &s->smap[m];
    uint64_t q0, n = map_piece(sm, c, sm->lag_out, C, &q0);
    if (!n) continue;
    const size_t nm = (size_t)sm->n;
    double *ki = k + (size_t)i * w->kstride + w->rbase[m];
    RING_PIECES(w, m, q0, n)
    lied_ders_out(sm, ki + r * nm, map_inst(w, lw, sm, m, q), len);
    if (i < S - 1) continue;
    RING_PIECES(w, m, q0, n)
    lied_rk_combine(len * nm, x + lied_x_off(sm, q), h, tab->b, S, k + w->rbase[m] + r * nm,
                    w->kstride, y + done * nm);
    const size_t all = (size_t)n * nm;
    memcpy(w->xnew + lied_x_off(sm, q0), y, sizeof *y * all);
    if (!w->check) continue;
    const size_t q = lied_first_nonfinite(y, all);
    if (q < all)
      return lied_errc(e, LIED_E_NONFINITE, "at t = %.17g: a state became %g", w->times[t + 1],
                       y[q]);
  }
  return LIED_OK;
}

/* ---- on threads ------------------------------------------------------------
 * The steps of a sweep are cut into nw contiguous blocks of whole steps,
 * block r on worker r with its own rings of stage derivatives (a step's
 * stages never leave its worker), which runs its stages in the order of one
 * sweep (sweep_stages). Its
 * first stage g takes chunk c once stage g - 1 (the last of the worker
 * before) has finished chunk c + D (or its last chunk), which is where the
 * sweep on one thread has it; the worker's other stages follow at the
 * sweep's distances. A stage further ahead than that only writes further
 * right of what the stages behind it read (the conditions on D hold for any
 * larger distance), so the values are those of one thread: the same bits.
 * Round robin (stage g on worker g mod nw) was tried first and was 3.5 to
 * 4.5x slower than one thread: each chunk's instance data moved between the
 * cores at every stage; in blocks it moves once per sweep and worker.
 * done[g] is the chunk after the last that stage g finished; a worker that
 * fails or is stopped sets `quit`, which frees the workers waiting on it. */
/* Wait until stage g has finished the chunks before need; the time waited
 * is added to *waited. */
static int wait_for(lied_wave *w, int g, int64_t need, double *waited) {
  if (atomic_load_explicit(&w->done[g], memory_order_acquire) >= need) return LIED_OK;
  const double t0 = lied_wall();
  for (unsigned spin = 0; atomic_load_explicit(&w->done[g], memory_order_acquire) < need; spin++) {
    if (atomic_load_explicit(&w->quit, memory_order_relaxed)) return LIED_RETRY;
    if (spin > 256) sched_yield();
  }
  *waited += lied_wall() - t0;
  return LIED_OK;
}

/* Stages g0 .. g1 - 1 of the block, in one sweep over the chunks: stage g
 * (step g / S, stage g % S) runs chunk P - g D when the sweep is at P; y
 * holds one chunk's states. Alone (shared = 0) g0 = 0, g1 = every stage;
 * as a worker's block on threads (shared = 1, see above) its first stage
 * waits for the stage before, and each stage reports the chunks it has
 * finished in done[g]. */
static int sweep_chunks(lied_wave *w, lied_sched *s, lied_lr_worker *lw, double *k, double *y,
                        int g0, int g1, double *waited, lied_err *e) {
  const int shared = waited != NULL;
  const int S = w->tab->stages;
  const int64_t C = (int64_t)s->chunk, D = (int64_t)s->skew_stage;
  const int64_t lastc = w->begin + (w->end - w->begin - 1) / C * C; /* a stage's last chunk */
  const int64_t last = w->end + (int64_t)(g1 - 1) * D;
  for (int64_t P = w->begin + (int64_t)g0 * D; P < last; P += C) {
    if (w->stop && *w->stop) return LIED_RETRY;
    /* stages before gd have finished (their chunk is at or past the end):
     * a model of a few chunks in sweeps of 256 stages skips them at once */
    const int64_t gd = P >= w->end ? (P - w->end) / D + 1 : 0;
    for (int g = gd > g0 ? (int)(gd < g1 ? gd : g1) : g0; g < g1; g++) {
      const int64_t c = P - (int64_t)g * D;
      if (c < w->begin) break; /* this stage and those after it have not started */
      if (c >= w->end) continue; /* done */
      if (shared && g == g0 && g > 0)
        LIED_TRY(wait_for(w, g - 1, (c + D < lastc ? c + D : lastc) + C, waited));
      LIED_TRY(stage_at(w, s, lw, k, y, g / S, g % S, c, e));
      if (shared) atomic_store_explicit(&w->done[g], c + C, memory_order_release);
    }
  }
  return LIED_OK;
}

/* The same in lane form when lw is given: its rings start empty. */
static int sweep_stages(lied_wave *w, lied_sched *s, lied_lr_worker *lw, double *k, double *y,
                        int g0, int g1, double *waited, lied_err *e) {
  if (lw) lied_lr_begin(&w->lr, lw);
  return sweep_chunks(w, s, lw, k, y, g0, g1, waited, e);
}

/* Every stage of every step of the block, on this thread. */
static int sweep(lied_wave *w, lied_err *e) {
  lied_lr_worker *lw = w->lane ? &w->lw[0] : NULL;
  return sweep_stages(w, w->s, lw, w->k, w->y, 0, w->nsteps * w->tab->stages, NULL, e);
}

typedef struct wave_par {
  lied_wave *w;
  int nw;
} wave_par;

static int wave_worker(lied_sched *v, void *ctx, int r, uint64_t q0, uint64_t q1, lied_err *e) {
  (void)q0, (void)q1;
  const wave_par *wp = ctx;
  lied_wave *w = wp->w;
  const int S = w->tab->stages;
  double *k = w->k + (size_t)r * (size_t)S * w->kstride; /* its own steps: its own rings */
  lied_lr_worker *lw = w->lane ? &w->lw[r] : NULL;
  double waited = 0;
  const double t0 = lied_wall();
  const int rc = sweep_stages(w, v, lw, k, w->y + (size_t)r * w->ylen, S * w->split[r],
                              S * w->split[r + 1], &waited, e);
  w->work[r] = lied_wall() - t0 - waited;
  if (rc != LIED_OK) atomic_store_explicit(&w->quit, 1, memory_order_relaxed);
  return rc;
}

/* How many workers the sweeps take: the run's threads when it has them and
 * the arrays are long enough (LIED_PAR_WAVE_MIN coordinates; the workers
 * share a sweep's steps, not its chunks), else 1. */
static int wave_workers(lied_wave *w) {
  if (w->nw < 2) return 1;
  return w->s->skew_coords >= LIED_PAR_WAVE_MIN || w->s->par->force ? w->nw : 1;
}

/* The split of the block's steps between nw workers: shares in proportion to
 * the workers' measured rates (a core the host slows gets fewer steps;
 * which worker takes a step does not change its values), each worker at
 * least one step and at most w->cap (its rings). */
static void wave_split(lied_wave *w, int nw) {
  const int ns = w->nsteps;
  double total = 0, sum = 0;
  int known = 1;
  for (int r = 0; r < nw; r++) total += w->rate[r], known &= w->rate[r] > 0;
  if (!known) total = nw; /* not measured yet: even shares */
  w->split[0] = 0;
  for (int r = 0; r < nw; r++) {
    sum += known ? w->rate[r] : 1;
    int c = r == nw - 1 ? ns : (int)lround((double)ns * sum / total);
    const int left = nw - 1 - r; /* workers after r: one step each, at most cap */
    if (c < w->split[r] + 1) c = w->split[r] + 1;
    if (c > w->split[r] + w->cap) c = w->split[r] + w->cap;
    if (c > ns - left) c = ns - left;
    if (c < ns - left * w->cap) c = ns - left * w->cap;
    w->split[r + 1] = c;
    /* every worker at least one step and at most what its rings hold */
    LIED_ASSERT(c - w->split[r] >= 1 && c - w->split[r] <= w->cap);
  }
  LIED_ASSERT(w->split[nw] == ns);
}

/* The sweep of the current block on nw workers (nw >= 2, nw * cap >= the
 * block's steps); afterwards each worker's rate of steps per second of work
 * (its time but waiting) goes into the next sweep's split. */
static int sweep_par(lied_wave *w, int nw, lied_err *e) {
  lied_sched *s = w->s;
  const int G = w->nsteps * w->tab->stages;
  if (nw > w->nsteps) return sweep(w, e); /* fewer steps than workers: a short block */
  for (int g = 0; g < G; g++) atomic_store_explicit(&w->done[g], w->begin, memory_order_relaxed);
  atomic_store_explicit(&w->quit, 0, memory_order_relaxed);
  for (int r = 0; r <= nw; r++) s->par->bounds[r] = (uint64_t)r;
  wave_split(w, nw);
  wave_par wp = {w, nw};
  const int rc = lied_sched_par_run(s, nw, wave_worker, &wp, e);
  for (int r = 0; rc == LIED_OK && r < nw; r++) {
    if (!(w->work[r] > 0)) continue;
    const double now_rate = (double)(w->split[r + 1] - w->split[r]) / w->work[r];
    w->rate[r] = w->rate[r] > 0 ? 0.5 * (w->rate[r] + now_rate) : now_rate; /* with the last */
  }
  return rc;
}

/* The block's steps in sweeps of K steps: on the pool (K = nw x most: each
 * worker's stages in flight span what one thread's do) or on this thread.
 * On cores that other programs keep busy a worker waits for one that is not
 * running, and one thread is faster: the first sweeps are timed, one thread
 * and the pool in turn (after LIED_WAVE_WARM on one thread: first touches),
 * per stage, and the faster is kept; long arrays take the pool untimed
 * (LIED_WAVE_TRUST). Either way the same bits. */
static int steps_any(lied_wave *w, const double *times, int nsteps, lied_err *e) {
  const int nw = wave_workers(w);
  const int trust = w->s->skew_coords >= LIED_WAVE_TRUST || (w->s->par && w->s->par->force);
  int rc = LIED_OK;
  for (int j = 0; j < nsteps && rc == LIED_OK; j += w->nsteps) {
    const int cal = nw > 1 && !trust && w->ncal < LIED_WAVE_WARM + 2 * LIED_WAVE_CALIB;
    const int pool = nw < 2 ? 0 : trust ? 1
                     : cal ? w->ncal >= LIED_WAVE_WARM && (w->ncal - LIED_WAVE_WARM) % 2 == 1
                           : w->pool;
    const int K = pool ? (w->most * nw < LIED_BLOCK_MAX ? w->most * nw : LIED_BLOCK_MAX) : w->most;
    w->times = times + j;
    w->nsteps = nsteps - j < K ? nsteps - j : K;
    if (j) w->x = w->xnew;
    const double t0 = cal ? lied_wall() : 0;
    rc = pool ? sweep_par(w, nw, e) : sweep(w, e);
    if (!cal || rc != LIED_OK) continue;
    if (w->ncal >= LIED_WAVE_WARM)
      w->tcal[pool] += (lied_wall() - t0) / (double)(w->nsteps * w->tab->stages);
    if (++w->ncal == LIED_WAVE_WARM + 2 * LIED_WAVE_CALIB) w->pool = w->tcal[1] < w->tcal[0];
  }
  return rc;
}

int lied_wave_steps(lied_wave *w, const double *times, int nsteps, double *x,
                    volatile sig_atomic_t *stop, lied_err *e) {
  lied_sched *s = w->s;
  w->x = x;
  w->stop = stop;
  w->check = nsteps > 1; /* a single step: the caller checks x */
  LIED_TRY(lied_sched_prepare(s, times[0], e));
  LIED_TRY(steps_any(w, times, nsteps, e));
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
  /* An internal error ("internal error: the lane rings are too short ...",
   * LIED_ERROR) is a bug of lied, not a failure of the model that smaller
   * or whole-vector steps avoid: taken again, the whole-vector step would
   * hide it (the same results, slower). It ends the run. */
  if (rc == LIED_ERROR) return lied_err_at(R->e, times[0]);
  if (rc && nsteps > 1) return LIED_RETRY;
  R->nrhs += (long)nsteps * W->w.tab->stages;
  if (rc == LIED_OK) return LIED_OK;
  /* A failing single step: the stages ran interleaved, so the failure seen
   * first need not be the one whole-vector steps see first (stage by
   * stage). Take the step again over the whole vector (x is unchanged) for
   * that failure and its message, in stage vectors made for it (the rings
   * hold a few chunks). */
  double *k = lied_xcalloc((size_t)W->w.tab->stages * W->w.n + 1, sizeof *k,
                           "solver work space", R->e);
  if (!k) return LIED_E_NOMEM;
  lied_erk rk = {W->w.tab, (size_t)W->w.n, k, W->w.xnew, 0, R->pool};
  rc = lied_erk_step(&rk, lied_run_rhs, R, times[0], times[1] - times[0], x);
  free(k);
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
  int rc = lied_wave_init(&W->w, R->s, tab, !R->o->no_lanes, R->e);
  if (rc) {
    free(W);
    return rc;
  }
  W->R = R;
  R->st->fused = 1;
  R->st->waves = W->w.most;
  R->st->wave_gap = R->s->skew_stage;
  R->st->lanes = W->w.lane;
  snprintf(R->st->no_lanes, sizeof R->st->no_lanes, "%s", W->w.lane ? "" : W->w.no_lanes);
  *S = (lied_stepper){.self = W, .steps = wave_steps, .max_block = LIED_BLOCK_MAX,
                      .free = wave_stepper_free};
  return LIED_OK;
}
