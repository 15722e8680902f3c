/* eval.c - running the schedule: batched blocks, sections, state transfer. */
#include <stdio.h>
#include "linsys/probe.h"
#include "sched/sched.h"

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

#define DBL(p) (*(double *)(void *)(p))

void lied_sched_scatter(const lied_sched *s, const double *x) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    const double *xp = x + sm->x0;
    char *inst = sm->base;
    for (uint64_t i = 0; i < sm->count; i++, inst += sm->stride)
      for (int q = 0; q < sm->n; q++) DBL(inst + sm->st[q].x) = *xp++;
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
        DBL(inst + sm->st[q].x) = *(const double *)(const void *)(sm->proto + sm->st[q].x);
  }
}

void lied_sched_gather_der(const lied_sched *s, double *dx) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    double *xp = dx + sm->x0;
    const char *inst = sm->base;
    for (uint64_t i = 0; i < sm->count; i++, inst += sm->stride)
      for (int q = 0; q < sm->n; q++)
        *xp++ = *(const double *)(const void *)(inst + sm->st[q].der);
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
