/* par.c - the views of a schedule for the workers of a thread pool, and
 * running a function over ranges of instances with them (see par.h). */
#include "sched/par.h"
#include "core/assert.h"
#include "core/clock.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

int lied_sched_par_attach(lied_sched *s, lied_pool *pool, lied_err *e) {
  lied_sched_par_detach(s);
  const int nw = lied_pool_size(pool);
  lied_sched_par *P = lied_xcalloc(1, sizeof *P, "threads", e);
  if (!P) return LIED_E_NOMEM;
  P->pool = pool;
  P->nw = nw;
  P->view = lied_xcalloc((size_t)nw, sizeof *P->view, "threads: schedule views", e);
  P->err = lied_xcalloc((size_t)nw, sizeof *P->err, "threads: errors", e);
  P->rc = lied_xcalloc((size_t)nw, sizeof *P->rc, "threads", e);
  P->at = lied_xcalloc((size_t)nw, sizeof *P->at, "threads", e);
  P->fault_at = lied_xcalloc((size_t)nw, sizeof *P->fault_at, "threads", e);
  P->bounds = lied_xcalloc((size_t)nw + 1, sizeof *P->bounds, "threads", e);
  int ok = P->view && P->err && P->rc && P->at && P->fault_at && P->bounds;
  size_t nint, ndbl = lied_sched_work_size(s, &nint);
  for (int w = 0; ok && w < nw; w++) {
    lied_sched *v = &P->view[w];
    *v = *s;
    v->par = NULL;
    /* the probe's work space, as sched.c allocates it */
    v->work = lied_xcalloc_lines(ndbl, sizeof(double), "threads: probe", e);
    v->wpiv = lied_xmalloc(sizeof(int) * nint, "threads: probe", e);
    ok = v->work && v->wpiv;
  }
  s->par = P;
  if (!ok) {
    lied_sched_par_detach(s);
    return LIED_E_NOMEM;
  }
  return LIED_OK;
}

void lied_sched_par_detach(lied_sched *s) {
  lied_sched_par *P = s->par;
  if (!P) return;
  for (int w = 0; P->view && w < P->nw; w++) {
    free(P->view[w].work);
    free(P->view[w].wpiv);
  }
  free(P->view);
  free(P->err);
  free(P->rc);
  free(P->at);
  free(P->fault_at);
  free(P->bounds);
  free(P);
  s->par = NULL;
}

int lied_sched_par_useful(const lied_sched *s) {
  const uint64_t min = 2 * (uint64_t)LIED_PAR_GRAIN;
  if (s->aligned && s->aligned_n >= min) return 1;
  if (s->skewed && s->skew_coords >= LIED_PAR_WAVE_MIN) return 1; /* waves on threads */
  for (int p = 0; p < LIED_NPARTS; p++)
    for (int i = 0; i < s->nsteps[p]; i++)
      if (s->steps[p][i].count >= min) return 1;
  return 0;
}

int lied_sched_par_split(lied_sched *s, uint64_t count) {
  lied_sched_par *P = s->par;
  if (!P || P->off) return 1;
  return lied_sched_par_split_blocks(s, count);
}

int lied_sched_par_split_blocks(lied_sched *s, uint64_t count) {
  lied_sched_par *P = s->par;
  if (!P || P->nw < 2) return 1;
  const int nr =
      lied_pool_split(count, s->chunk, P->force ? s->chunk : LIED_PAR_GRAIN, P->nw, P->bounds);
  /* ranges in order, of whole chunks (the last to the end), covering count */
  for (int r = 0; r < nr; r++)
    LIED_ASSERT(P->bounds[r] < P->bounds[r + 1] && P->bounds[r] % s->chunk == 0);
  LIED_ASSERT(nr >= 1 && nr <= P->nw && P->bounds[0] == 0 && P->bounds[nr] == count);
  return nr;
}

typedef struct par_call {
  lied_sched *s;
  lied_par_fn fn;
  void *ctx;
} par_call;

/* The views follow the schedule (its counters, flags and parts may have
 * changed since the last call); each keeps its work space. */
static void views_reset(lied_sched *s, int nr) {
  lied_sched_par *P = s->par;
  for (int r = 0; r < nr; r++) {
    lied_sched *v = &P->view[r];
    double *work = v->work;
    int *wpiv = v->wpiv;
    *v = *s;
    v->work = work, v->wpiv = wpiv, v->par = NULL;
    v->st.factorisations = 0;
    P->rc[r] = LIED_OK;
    P->at[r] = P->fault_at[r] = UINT64_MAX;
  }
}

/* The views' results into s, as one thread would have them: the first
 * block fault and the failure of the lowest range or grain (at[r]). */
static int views_collect(lied_sched *s, int nr, lied_err *e) {
  lied_sched_par *P = s->par;
  int rc = LIED_OK, first = -1, fault = -1;
  for (int r = 0; r < nr; r++) {
    s->st.factorisations += P->view[r].st.factorisations;
    if (P->view[r].fault.where && (fault < 0 || P->fault_at[r] < P->fault_at[fault])) fault = r;
    if (P->rc[r] != LIED_OK && (first < 0 || P->at[r] < P->at[first])) first = r;
  }
  if (fault >= 0 && !s->fault.where) s->fault = P->view[fault].fault;
  if (first >= 0) {
    rc = P->rc[first];
    if (rc < 0) *e = P->err[first];
    if (rc == LIED_E_SINGULAR) { /* which section and instance (sched.h) */
      s->failed_sec = P->view[first].failed_sec;
      s->failed_inst = P->view[first].failed_inst;
      s->failed_nonfinite = P->view[first].failed_nonfinite;
    }
  }
  return rc;
}

static void par_range(void *ctx, int r, uint64_t q0, uint64_t q1) {
  par_call *c = ctx;
  lied_sched_par *P = c->s->par;
  if (P->rc[r] != LIED_OK) return; /* this worker failed on an earlier grain */
  lied_sched *v = &P->view[r];
  const int had = v->fault.where != NULL;
  P->rc[r] = c->fn(v, c->ctx, r, q0, q1, &P->err[r]);
  if (P->rc[r] != LIED_OK) P->at[r] = q0;
  if (!had && v->fault.where) P->fault_at[r] = q0;
}

int lied_sched_par_run(lied_sched *s, int nr, lied_par_fn fn, void *ctx, lied_err *e) {
  lied_sched_par *P = s->par;
  LIED_ASSERT(nr >= 1 && nr <= P->nw);
  views_reset(s, nr);
  s->st.par_runs++;
  par_call c = {s, fn, ctx};
  lied_pool_run(P->pool, P->bounds, nr, par_range, &c);
  return views_collect(s, nr, e);
}

int lied_sched_par_run_grains(lied_sched *s, uint64_t count, lied_par_fn fn, void *ctx,
                              lied_err *e) {
  lied_sched_par *P = s->par;
  const uint64_t c = s->chunk ? s->chunk : 1;
  uint64_t grain = (count / (LIED_PAR_GRAINS * (uint64_t)P->nw) + c - 1) / c * c;
  if (grain < (P->force ? c : 8 * c)) grain = P->force ? c : 8 * c;
  LIED_ASSERT(grain % c == 0); /* grains of whole chunks */
  views_reset(s, P->nw);
  s->st.par_runs++;
  par_call call = {s, fn, ctx};
  lied_pool_run_grains(P->pool, count, grain, par_range, &call);
  return views_collect(s, P->nw, e);
}

double lied_sched_par_cal_begin(lied_sched *s) {
  lied_sched_par *P = s->par;
  if (!P || P->force || P->ncal >= LIED_PAR_WARM + 2 * LIED_PAR_CALIB) return 0;
  /* warm-up on one thread, then one thread and the pool in turn */
  P->off = P->ncal < LIED_PAR_WARM || (P->ncal - LIED_PAR_WARM) % 2 == 0;
  return lied_wall();
}

void lied_sched_par_cal_end(lied_sched *s, double t0) {
  lied_sched_par *P = s->par;
  if (!P || t0 == 0) return;
  const int i = P->ncal++;
  if (i >= LIED_PAR_WARM) P->tcal[!P->off] += lied_wall() - t0;
  if (P->ncal == LIED_PAR_WARM + 2 * LIED_PAR_CALIB) P->off = P->tcal[1] >= P->tcal[0];
}
