/* eval.c - running the schedule: parts, chunks of an aligned dynamic part,
 * and the evaluation entry points (states in, derivatives out). */
#include <string.h>
#include "sched/par.h"
#include "sched/probe.h"
#include "sched/spsec.h"
#include "sched/sched.h"
#include "sched/transfer.h"

/* One step over instances [q0, q1) on a worker (par.h): the instances of
 * a step are independent (one block, or one section batch, of one level). */
typedef struct step_call {
  const lied_step *st;
  enum lied_eval_mode mode;
  const lied_env *env;
} step_call;

static int step_range(lied_sched *v, void *ctx, int r, uint64_t q0, uint64_t q1, lied_err *e) {
  (void)r;
  const step_call *c = ctx;
  const lied_step *st = c->st;
  const lied_env env = lied_sched_env(v, c->env->t); /* the view's fault slot */
  if (!st->sec) {
    st->fn(&env, st->base + q0 * st->stride, (size_t)(q1 - q0), st->stride);
    return LIED_OK;
  }
  for (uint64_t q = q0; q < q1; q += v->chunk) {
    uint64_t n = q1 - q < v->chunk ? q1 - q : v->chunk;
    LIED_TRY(lied_probe_range(v, st->sec, c->mode, &env, q, n, e));
  }
  return LIED_OK;
}

int lied_sched_run(lied_sched *s, int part, enum lied_eval_mode mode, const lied_env *env,
                   lied_err *e) {
  const lied_step *st = s->steps[part];
  const int n = s->nsteps[part];
  if (!s->par && s->run[part]) { /* one thread: the packed steps */
    const lied_run_step *r = s->run[part];
    for (int i = 0; i < n; i++) {
      if (r[i].fn)
        r[i].fn(env, r[i].base, (size_t)r[i].count, r[i].stride);
      else
        LIED_TRY(lied_probe_section(s, r[i].sec, mode, env, e));
    }
    return LIED_OK;
  }
  for (int i = 0; i < n; i++) {
    if (s->par) {
      const uint64_t count = st[i].sec ? st[i].sec->count : st[i].count;
      const int nr = lied_sched_par_split(s, count);
      if (nr > 1) {
        step_call c = {&st[i], mode, env};
        LIED_TRY(lied_sched_par_run(s, nr, step_range, &c, e));
        continue;
      }
    }
    if (st[i].sec)
      LIED_TRY(lied_probe_section(s, st[i].sec, mode, env, e));
    else
      st[i].fn(env, st[i].base, (size_t)st[i].count, st[i].stride);
  }
  return LIED_OK;
}

/* States of instances [q0, q0 + n) of every state map, in and out. */
static void scatter_range(const lied_sched *s, const double *x, uint64_t q0, uint64_t n) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    lied_states_in(sm, x + lied_x_off(sm, q0), sm->base + q0 * sm->stride, n);
  }
}

static void gather_range(const lied_sched *s, double *dx, uint64_t q0, uint64_t n) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    lied_ders_out(sm, dx + lied_x_off(sm, q0), sm->base + q0 * sm->stride, n);
  }
}

/* Chunks of copies [q0, q1) of an aligned evaluation on a worker. */
typedef struct chunk_call {
  enum lied_eval_mode mode;
  const lied_env *env;
  const double *x;
  double *dx;
} chunk_call;

static int chunks_range(lied_sched *v, void *ctx, int r, uint64_t q0, uint64_t q1,
                        lied_err *e) {
  (void)r;
  const chunk_call *c = ctx;
  const lied_env env = lied_sched_env(v, c->env->t); /* the view's fault slot */
  for (uint64_t q = q0; q < q1; q += v->chunk) {
    uint64_t n = q1 - q < v->chunk ? q1 - q : v->chunk;
    if (c->x) scatter_range(v, c->x, q, n);
    LIED_TRY(lied_sched_run_chunk(v, c->mode, &env, q, n, e));
    if (c->dx) gather_range(v, c->dx, q, n);
  }
  return LIED_OK;
}

int lied_sched_eval(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                    const double *x, double *dx, lied_err *e) {
  if (!s->aligned) {
    if (x) lied_sched_scatter(s, x);
    if (!s->skewed) /* level by level, each step split between the threads */
      LIED_TRY(lied_sched_run(s, LIED_PART_DYN, mode, env, e));
    else if (s->par && !s->par->off)
      LIED_TRY(lied_sched_run_skewed_par(s, mode, env, e));
    else
      LIED_TRY(lied_sched_run_skewed(s, mode, env, e));
    if (dx) lied_sched_gather_der(s, dx);
    return LIED_OK;
  }
  /* loop interchange: every step over one chunk of instances at a time;
   * grains of chunks on the run's threads (par.h) */
  if (s->par && lied_sched_par_split(s, s->aligned_n) > 1) {
    chunk_call c = {mode, env, x, dx};
    return lied_sched_par_run_grains(s, s->aligned_n, chunks_range, &c, e);
  }
  const uint64_t total = s->aligned_n, chunk = s->chunk;
  for (uint64_t q0 = 0; q0 < total; q0 += chunk) {
    uint64_t n = total - q0 < chunk ? total - q0 : chunk;
    if (x) scatter_range(s, x, q0, n);
    LIED_TRY(lied_sched_run_chunk(s, mode, env, q0, n, e));
    if (dx) gather_range(s, dx, q0, n);
  }
  return LIED_OK;
}

int lied_sched_prepare(lied_sched *s, double t, lied_err *e) {
  if (s->const_done) return LIED_OK;
  const lied_env env = lied_sched_env(s, t);
  int rc = lied_sched_run(s, LIED_PART_CONST, LIED_EVAL_OUTPUTS, &env, e);
  LIED_TRY(lied_sched_fault(s, t, e)); /* a fault is the cause of what follows */
  LIED_TRY(rc);
  s->const_done = 1;
  return LIED_OK;
}

int lied_sched_evaluate(lied_sched *s, double t, const double *x, double *dx, int outputs,
                        lied_err *e) {
  const lied_env env = lied_sched_env(s, t);
  const enum lied_eval_mode mode = outputs ? LIED_EVAL_OUTPUTS : LIED_EVAL_DERIVATIVES;
  LIED_TRY(lied_sched_prepare(s, t, e));
  const double t0 = lied_sched_par_cal_begin(s);
  int rc = lied_sched_eval(s, mode, &env, x, dx, e);
  lied_sched_par_cal_end(s, t0);
  s->st.evaluations++;
  if (rc == LIED_OK && outputs) rc = lied_sched_run(s, LIED_PART_OUT, mode, &env, e);
  LIED_TRY(lied_sched_fault(s, t, e)); /* a fault is the cause of what follows */
  return rc;
}

int lied_sched_run_chunk(lied_sched *s, enum lied_eval_mode mode, const lied_env *env,
                         uint64_t q0, uint64_t n, lied_err *e) {
  return lied_sched_run_steps(s, s->steps[LIED_PART_DYN], s->nsteps[LIED_PART_DYN], mode, env,
                              q0, n, e);
}

int lied_sched_run_steps(lied_sched *s, const lied_step *st, int ns, enum lied_eval_mode mode,
                         const lied_env *env, uint64_t q0, uint64_t n, lied_err *e) {
  for (int i = 0; i < ns; i++) {
    if (st[i].sec)
      LIED_TRY(lied_probe_range(s, st[i].sec, mode, env, q0, n, e));
    else
      st[i].fn(env, st[i].base + q0 * st[i].stride, (size_t)n, st[i].stride);
  }
  return LIED_OK;
}

void lied_sched_invalidate(lied_sched *s) {
  s->const_done = 0;
  for (int i = 0; i < s->nsecs; i++) {
    lied_section *sec = &s->secs[i];
    if (sec->constant && sec->factored) memset(sec->factored, 0, sec->count / s->chunk + 1);
    if (sec->sparse) sec->sparse->factored = 0;
  }
}

/* Whether the matrix of sec may change with the modes of its elements: a
 * tearing variable of an instance with an event handler (a clutch's torque,
 * a switch's s), whose residual the handler's discrete variables choose. */
int lied_sched_section_modal(const lied_sched *s, const lied_section *sec) {
  for (int p = 0; p < sec->k; p++)
    if (s->model->specs[sec->pairs[p].spec].tpl.handler) return 1;
  return 0;
}

int lied_sched_modal_singular(const lied_sched *s, const lied_section *sec, int rc) {
  return rc == LIED_E_SINGULAR && sec->constant && !s->failed_nonfinite &&
         lied_sched_section_modal(s, sec);
}

/* Sections q0 .. q0 + n - 1 of a chunk that failed so: each probed alone
 * (its chunk's factors forgotten before each, since they are kept per
 * chunk), the singular ones left unknown, so that the others read values
 * as a run would. */
static int start_one_by_one(lied_sched *s, lied_section *sec, const lied_env *env, uint64_t q0,
                            uint64_t n, lied_err *e) {
  for (uint64_t q = q0; q < q0 + n; q++) {
    if (sec->factored) sec->factored[q / s->chunk] = 0;
    s->failed_nonfinite = 0;
    const int rc = lied_probe_range(s, sec, LIED_EVAL_OUTPUTS, env, q, 1, e);
    if (!lied_sched_modal_singular(s, sec, rc)) LIED_TRY(rc);
    else lied_probe_unknown(sec, env, q, 1);
  }
  if (sec->factored) sec->factored[q0 / s->chunk] = 0;
  return LIED_OK;
}

/* A section batch at the start: an instance whose constant, modal matrix
 * is singular in the modes the elements hold is left unknown (*unsolved). */
static int start_section(lied_sched *s, lied_section *sec, const lied_env *env, int *unsolved,
                         lied_err *e) {
  const uint64_t step = sec->sparse ? sec->count : s->chunk;
  for (uint64_t q0 = 0; q0 < sec->count; q0 += step) {
    const uint64_t n = sec->count - q0 < step ? sec->count - q0 : step;
    s->failed_nonfinite = 0;
    const int rc = lied_probe_range(s, sec, LIED_EVAL_OUTPUTS, env, q0, n, e);
    if (!lied_sched_modal_singular(s, sec, rc)) {
      LIED_TRY(rc);
      continue;
    }
    *unsolved = 1;
    if (sec->sparse || n == 1)
      lied_probe_unknown(sec, env, q0, n);
    else
      LIED_TRY(start_one_by_one(s, sec, env, q0, n, e));
  }
  return LIED_OK;
}

int lied_sched_evaluate_start(lied_sched *s, double t, const double *x, int *unsolved,
                              lied_err *e) {
  *unsolved = 0;
  const lied_env env = lied_sched_env(s, t);
  LIED_TRY(lied_sched_prepare(s, t, e));
  if (x) lied_sched_scatter(s, x);
  for (int part = LIED_PART_DYN; part <= LIED_PART_OUT; part++) /* level by level, whole */
    for (int i = 0; i < s->nsteps[part]; i++) {
      const lied_step *st = &s->steps[part][i];
      if (st->sec)
        LIED_TRY(start_section(s, st->sec, &env, unsolved, e));
      else
        st->fn(&env, st->base, (size_t)st->count, st->stride);
    }
  s->st.evaluations++;
  if (*unsolved) s->fault.where = NULL, s->fault.model = 0; /* read unknown values */
  lied_sched_invalidate(s); /* constant sections factorised again in the modes to come */
  return lied_sched_fault(s, t, e);
}
