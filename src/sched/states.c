/* states.c - the state maps: where each spec's states sit in the solver's
 * vector (built with the schedule), and moving states, derivatives and start
 * values between that vector and the instances. */
#include <stdio.h>
#include <string.h>
#include "sched/sbuild.h"
#include "sched/transfer.h"

/* One map per leaf spec with states and instances, in spec order; each
 * instance's states together (x0 of map i follows map i - 1's states). */
int lied_sb_map_states(lied_sb *b) {
  lied_model *m = b->m;
  lied_sched *s = b->s;
  int n = 0;
  for (int i = 0; i < m->nspecs; i++)
    if (m->specs[i].cls && m->specs[i].tpl.nstates && m->specs[i].total) n++;
  s->smap = lied_xcalloc((size_t)n + 1, sizeof *s->smap, "state map", b->e);
  if (!s->smap) return LIED_E_NOMEM;
  uint64_t x = 0;
  for (int i = 0; i < m->nspecs; i++) {
    lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->tpl.nstates || !sp->total) continue;
    s->smap[s->nsmap++] = (lied_state_map){sp->arena, sp->size, sp->total, sp->tpl.nstates,
                                           sp->tpl.states, sp->proto, sp->start, x,
                                           LIED_LAYOUT_INSTANCES, 0, 0};
    if (s->skew_spec_lag) {
      s->smap[s->nsmap - 1].lag_in = s->skew_spec_lag[2 * i];
      s->smap[s->nsmap - 1].lag_out = s->skew_spec_lag[2 * i + 1];
    }
    x += sp->total * (uint64_t)sp->tpl.nstates;
  }
  s->nstates = x;
  return LIED_OK;
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
    const double *x0 = sm->start;
    for (uint64_t i = 0; i < sm->count; i++, inst += sm->stride)
      for (int q = 0; q < sm->n; q++)
        LIED_DBL(inst + sm->st[q].x) =
            x0 ? *x0++ : *(const double *)(const void *)(sm->proto + sm->st[q].x);
  }
}

void lied_sched_gather_der(const lied_sched *s, double *dx) {
  for (int m = 0; m < s->nsmap; m++) {
    const lied_state_map *sm = &s->smap[m];
    lied_ders_out(sm, dx + sm->x0, sm->base, sm->count);
  }
}

size_t lied_sched_state_name(const lied_sched *s, uint64_t i, char *buf, size_t cap) {
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
      const char *var = md->specs[sp].tpl.vars[sm->st[q].var].name;
      if (len < cap) snprintf(buf + len, cap - len, "%s%s", len ? "." : "", var);
      return len + (len ? 1 : 0) + strlen(var);
    }
  }
  int n = snprintf(buf, cap, "state %llu", (unsigned long long)i);
  return n > 0 ? (size_t)n : 0;
}
