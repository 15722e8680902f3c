/* eval.c - running the schedule: batched blocks, sections, state transfer. */
#include <stdio.h>
#include <string.h>
#include "sched/probe.h"
#include "sched/sched.h"
#include "sched/transfer.h"

int lied_sched_run(lied_sched *s, int part, const lied_env *env, lied_err *e) {
  const lied_step *st = s->steps[part];
  const int n = s->nsteps[part];
  for (int i = 0; i < n; i++) {
    if (st[i].sec) {
      if (lied_probe_section(s, st[i].sec, env, e)) return -1;
    } else {
      st[i].fn(env, st[i].base, (size_t)st[i].count, st[i].stride);
    }
  }
  return 0;
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

int lied_sched_eval(lied_sched *s, const lied_env *env, const double *x, double *dx,
                    lied_err *e) {
  if (!s->aligned) {
    if (x) lied_sched_scatter(s, x);
    if (lied_sched_run(s, LIED_PART_DYN, env, e)) return -1;
    if (dx) lied_sched_gather_der(s, dx);
    return 0;
  }
  /* loop interchange: every step over one chunk of instances at a time */
  const uint64_t total = s->aligned_n, chunk = s->chunk;
  for (uint64_t q0 = 0; q0 < total; q0 += chunk) {
    uint64_t n = total - q0 < chunk ? total - q0 : chunk;
    if (x) scatter_range(s, x, q0, n);
    if (lied_sched_run_chunk(s, env, q0, n, e)) return -1;
    if (dx) gather_range(s, dx, q0, n);
  }
  return 0;
}

int lied_sched_prepare(lied_sched *s, double t, lied_err *e) {
  if (s->const_done) return LIED_OK;
  lied_env env = {t};
  s->full = 1;
  LIED_TRY(lied_sched_run(s, LIED_PART_CONST, &env, e));
  s->const_done = 1;
  return LIED_OK;
}

int lied_sched_evaluate(lied_sched *s, double t, const double *x, double *dx, int outputs,
                        lied_err *e) {
  lied_env env = {t};
  LIED_TRY(lied_sched_prepare(s, t, e));
  /* sections: everything consistent only when outputs are wanted */
  s->full = outputs;
  LIED_TRY(lied_sched_eval(s, &env, x, dx, e));
  s->st.evaluations++;
  if (outputs) LIED_TRY(lied_sched_run(s, LIED_PART_OUT, &env, e));
  return LIED_OK;
}

int lied_sched_run_chunk(lied_sched *s, const lied_env *env, uint64_t q0, uint64_t n,
                         lied_err *e) {
  return lied_sched_run_steps(s, s->steps[LIED_PART_DYN], s->nsteps[LIED_PART_DYN], env, q0, n,
                              e);
}

int lied_sched_run_steps(lied_sched *s, const lied_step *st, int ns, const lied_env *env,
                         uint64_t q0, uint64_t n, lied_err *e) {
  for (int i = 0; i < ns; i++) {
    if (st[i].sec) {
      if (lied_probe_range(s, st[i].sec, env, q0, n, e)) return -1;
    } else {
      st[i].fn(env, st[i].base + q0 * st[i].stride, (size_t)n, st[i].stride);
    }
  }
  return 0;
}

void lied_sched_scatter(const lied_sched *s, const double *x) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    lied_states_in(sm, x + sm->x0, sm->base, sm->count);
  }
}

void lied_sched_gather_x(const lied_sched *s, double *x) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    double *xp = x + sm->x0;
    const char *inst = sm->base;
    for (uint64_t i = 0; i < sm->count; i++, inst += sm->stride)
      for (int q = 0; q < sm->n; q++) *xp++ = *(const double *)(const void *)(inst + sm->st[q].x);
  }
}

void lied_sched_reset_states(const lied_sched *s) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    char *inst = sm->base;
    for (uint64_t i = 0; i < sm->count; i++, inst += sm->stride)
      for (int q = 0; q < sm->n; q++)
        LIED_DBL(inst + sm->st[q].x) = *(const double *)(const void *)(sm->proto + sm->st[q].x);
  }
}

void lied_sched_gather_der(const lied_sched *s, double *dx) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    lied_ders_out(sm, dx + sm->x0, sm->base, sm->count);
  }
}

void lied_sched_state_name(const lied_sched *s, uint64_t i, char *buf, size_t cap) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    uint64_t n = sm->count * (uint64_t)sm->n;
    if (i < sm->x0 || i >= sm->x0 + n) continue;
    uint64_t r = i - sm->x0, inst = r / (uint64_t)sm->n;
    int q = (int)(r % (uint64_t)sm->n);
    const lied_model *md = s->model;
    for (int sp = 0; sp < md->nspecs; sp++) {
      if (md->specs[sp].arena != sm->base) continue;
      size_t len = lied_model_path(md, sp, inst, buf, cap);
      if (len < cap)
        snprintf(buf + len, cap - len, "%s%s", len ? "." : "",
                 md->specs[sp].tpl.vars[sm->st[q].var].name);
      return;
    }
  }
  snprintf(buf, cap, "state %llu", (unsigned long long)i);
}

void lied_sched_invalidate(lied_sched *s) {
  s->const_done = 0;
  for (int i = 0; i < s->nsecs; i++) {
    lied_section *sec = &s->secs[i];
    if (sec->constant && sec->factored) memset(sec->factored, 0, sec->count / s->chunk + 1);
  }
}
