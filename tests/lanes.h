/* lanes.h - shared harness of the C unit tests of lane forms
 * (test_lanes.c, test_lanes_thermal.c, test_lanes_rotational.c): n copies
 * of a set of components, run by fused steps copy by copy and in lane form,
 * which must give the same bits (states and every variable of every
 * instance). */
#ifndef LIED_TEST_LANES_H
#define LIED_TEST_LANES_H
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "sched/sched.h"
#include "solve/butcher.h"
#include "solve/fused.h"
#include "solve/sim.h"

/* The components of one copy; parameters by (part index, name, values, count). */
typedef struct part {
  const char *name;
  const lied_class *cls;
} part;
typedef struct param {
  int part;
  const char *name;
  double v[6];
  int len;
} param;

/* n copies c[1..n] of the parts, connected by pairs of port paths. */
static inline lied_system *copies(uint32_t n, const part *parts, int nparts, const char *const *conn,
                          const param *params, lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, n, 1, NULL, e);
  int id[24];
  CHECK(nparts <= 24);
  for (int i = 0; i < nparts && i < 24; i++)
    id[i] = lied_model_add(m, arr, parts[i].name, parts[i].cls, 1, 0, NULL, e);
  for (int i = 0; params && params[i].name; i++)
    CHECK(lied_model_set_param(m, id[params[i].part], params[i].name, params[i].v, params[i].len,
                               e) == 0);
  for (int i = 0; conn[i]; i += 2)
    CHECK(lied_model_connect(m, arr, conn[i], conn[i + 1], NULL, e) == 0);
  return fx_build(m, 0, e);
}

typedef struct variant {
  const char *name;
  const part *parts;
  int nparts;
  const char *const *conn;
  const param *params;
  /* optional: make the filled states consistent where the model needs it */
  void (*fix)(const lied_system *sys, double *x);
} variant;

static inline int same_instances(const lied_system *sa_, const lied_system *sb_) {
  const lied_model *a = sa_->model, *b = sb_->model;
  int diff = 0;
  for (int s = 0; s < a->nspecs; s++) {
    const lied_spec *sa = &a->specs[s], *sb = &b->specs[s];
    if (!sa->cls || !sa->total) continue;
    for (int v = 0; v < sa->tpl.nvars; v++) {
      if (sa->tpl.vars[v].kind == LIED_VAR_PORT_READ) continue;
      const uint32_t off = sa->tpl.vars[v].offset;
      for (uint64_t q = 0; q < sa->total; q++)
        diff += memcmp(lied_inst(sa, q) + off, lied_inst(sb, q) + off, sizeof(double)) != 0;
    }
  }
  return diff == 0;
}

/* The constant part only, as lied_model_eval runs it first (constant
 * sections are then not factorised yet). */
static inline void lanes_constant_part(lied_system *m, double t, lied_err *e) {
  /* factors read before they are written would show as NaN (a freed
   * model's factors may sit in the same memory) */
  for (int i = 0; i < m->sched->nsecs; i++) {
    const lied_section *sec = &m->sched->secs[i];
    if (sec->constant)
      for (uint64_t j = 0; j < sec->count * (uint64_t)sec->k * (uint64_t)sec->k; j++)
        sec->lu[j] = NAN;
  }
  CHECK(lied_sched_prepare(m->sched, t, e) == LIED_OK);
}

/* How lanes_compare steps: `dt` the step; `fresh`: no evaluation before the
 * first block (constant sections are then factorised group by group inside
 * it); `mixed`: blocks of 1, 3, 1, 3 ... steps (single steps run copy by
 * copy between blocks in lane form), else of 7; `distinct`: the copies'
 * last states must differ (the copies were given different values). */
typedef struct lanes_opts {
  double dt;
  int fresh, mixed, distinct;
} lanes_opts;

/* 30 steps from t = 0.1 of 77 copies (two full groups and a partial one),
 * copy by copy (a) and in lane form (b): the same bits. */
static inline void lanes_compare(const variant *v, const char *table, const lanes_opts *o) {
  lied_err e = {0};
  const uint32_t n = 77;
  lied_system *ma = copies(n, v->parts, v->nparts, v->conn, v->params, &e);
  lied_system *mb = copies(n, v->parts, v->nparts, v->conn, v->params, &e);
  CHECK(ma && mb);
  if (!ma || !mb) goto out;
  const uint64_t ns = ma->sched->nstates;
  double *xa = calloc(ns, sizeof *xa), *xb = calloc(ns, sizeof *xb), *x0 = calloc(ns, sizeof *x0);
  const lied_tableau *tab = lied_tableau_find(table);
  lied_fused fa, fb;
  CHECK(xa && xb && x0 && tab);
  CHECK(lied_fused_init(&fa, ma->sched, tab, 0, &e) == 0);
  CHECK(lied_fused_init(&fb, mb->sched, tab, 1, &e) == 0);
  CHECK(!fa.lane);
  CHECK(fb.lane);
  if (!fb.lane) fprintf(stderr, "%s: no lanes: %s\n", v->name, fb.no_lanes);
  if (xa && xb && x0) {
    fx_fill(ma, xa);
    if (v->fix) v->fix(ma, xa);
    memcpy(xb, xa, sizeof *xa * ns);
    memcpy(x0, xa, sizeof *xa * ns);
    if (o->fresh) {
      lanes_constant_part(ma, 0.1, &e);
      lanes_constant_part(mb, 0.1, &e);
    } else { /* the constant part and a first evaluation, as a run starts */
      CHECK(lied_sched_evaluate(ma->sched, 0.1, xa, NULL, 0, &e) == 0);
      CHECK(lied_sched_evaluate(mb->sched, 0.1, xb, NULL, 0, &e) == 0);
    }
    double times[31];
    times[0] = 0.1;
    for (int j = 1; j <= 30; j++) times[j] = times[j - 1] + o->dt;
    for (int j = 0, i = 0, b; j < 30; j += b, i++) {
      b = o->mixed ? (i % 2 ? 3 : 1) : 7;
      if (b > 30 - j) b = 30 - j;
      int rc = lied_fused_steps(&fa, times + j, b, xa, NULL, &e);
      if (rc) fprintf(stderr, "%s: %s\n", v->name, e.msg);
      CHECK(rc == 0);
      CHECK(lied_fused_steps(&fb, times + j, b, xb, NULL, &e) == 0);
    }
    CHECK(memcmp(xa, xb, sizeof *xa * ns) == 0);
    for (uint64_t i = 0; i < ns; i++)
      if (xa[i] != xb[i]) {
        char nm[96];
        lied_sched_state_name(mb->sched, i, nm, sizeof nm);
        fprintf(stderr, "%s %s: %s %.17g (copy by copy) %.17g (lanes)\n", v->name, table, nm,
                xa[i], xb[i]);
        break;
      }
    CHECK(same_instances(ma, mb));
    /* the states moved */
    int moved = 0;
    for (uint64_t i = 0; i < ns; i++) moved += xb[i] != x0[i];
    CHECK(moved > (int)(ns / 2));
    for (uint64_t i = 0; i < ns; i++) CHECK(isfinite(xb[i]));
    if (o->distinct) CHECK(xb[ns - 1] != xb[ns - 1 - ns / n]);
  }
  lied_fused_free(&fa);
  lied_fused_free(&fb);
  free(xa);
  free(xb);
  free(x0);
out:
  lied_system_free(ma);
  lied_system_free(mb);
}

/* 30 steps of 0.002 s in blocks of 7 */
static inline void lanes_same_bits(const variant *v, const char *table) {
  lanes_compare(v, table, &(lanes_opts){.dt = 0.002});
}

#endif
