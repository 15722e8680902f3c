/* test_lane_forms.c - every lane form of every class the registry holds
 * (core/library.c: lied_library_count, lied_library_at; no list kept here)
 * computes what its block computes, bit for bit (lied/component.h, "lane
 * form").
 *
 * For each class: N = 77 copies of one instance built through the class's
 * meta (a model of one array of the class, instantiated: defaults, init,
 * template; its readers are not connected, so wiring stops there and the
 * reading pointers are set here), in two configurations: the defaults, and
 * every scalar parameter that is 0 by default switched on (T_D > 0, a value
 * from an input), which selects other blocks; a table parameter gets a
 * table of four breakpoints, a map parameter a 3 x 3 map. A class whose template
 * declares no lane form is counted and left; so is one whose defaults fail
 * its init (a table to give, a medium to choose), when its meta, crawled
 * without init in a child process, declares none (one that declares one
 * fails the test). Each copy gets its own values: the states and tearing
 * variables moved from their start by copy, and every signal a reading
 * pointer reads a nominal value of its unit (a temperature, a pressure, an
 * enthalpy, ...) moved by copy. Then every block in the template's order,
 * twice (the second pass reads what the first wrote): copy by copy on
 * instances, and in lane groups on the same values, the block's lane form
 * called on a full group (32 copies from lane 0), on a group in two pieces
 * (lanes 0 .. 10 and 11 .. 31, as the rings of coupled arrays call it) and
 * on a partial group (13 copies); a block without a lane form in a class
 * with some runs copy by copy on both sides. After each block every word of
 * every copy (but the reading pointers) and the block fault reported must
 * be the same; the first difference names the class, the block, the
 * variable and the copy. (How the lane machinery runs them in models:
 * sections, sums, constant sections, fused steps: test_lanes.c; media:
 * test_lanes_thermal.c, tests/lua/test_media_lanes.lua; coupled arrays:
 * test_skew.c.) */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "core/fault.h"
#include "core/model.h"
#include "core/table.h"
#include "sched/lanes.h"

#define N 77 /* two full groups and a partial one */
#define W LIED_LANES
#define NG ((N + W - 1) / W)
#define MAXPTR 64
#define MAXFORMS 1024

/* A nominal value of a signal of this unit, so that media and laws are
 * evaluated where they hold. */
static double nominal(const char *unit, size_t len) {
  static const struct {
    const char *unit;
    double v;
  } t[] = {{"K", 300},    {"Pa", 1e5},   {"J/kg", 3e5},   {"kg/s", 0.1}, {"kg/s2", 0.01},
           {"W", 50},     {"m", 0.3},    {"m/s", 0.2},    {"m/s2", 0.5}, {"rad", 0.4},
           {"rad/s", 0.3}, {"rad/s2", 0.2}, {"N", 2},       {"N.m", 1},    {"W/K", 1},
           {"1", 0.02}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strlen(t[i].unit) == len && strncmp(t[i].unit, unit, len) == 0) return t[i].v;
  return 0.7;
}

/* The unit of variable j of the signal reference r reads ("" when unknown). */
static double signal_nominal(const lied_template *tpl, const lied_tref *r, int j) {
  if (r->a == LIED_NO_PORT || r->a >= tpl->nports) return 0.7;
  const lied_connector *c = tpl->ports[r->a].layout->conn;
  if (r->b >= c->nsignals || !c->signals[r->b].units) return 0.7;
  const char *u = c->signals[r->b].units;
  for (int k = 0; k < j && u; k++) u = strchr(u, ',') ? strchr(u, ',') + 1 : NULL;
  if (!u) return 0.7;
  const char *end = strchr(u, ',');
  return nominal(u, end ? (size_t)(end - u) : strlen(u));
}

/* Copy q's value of a nominal v, k its place among the values. */
static double moved(double v, int q, int k) {
  return v * (1 + 0.01 * (double)((q * 7 + k * 3) % 11 - 5) / 5);
}

typedef struct fixture {
  const lied_class *cls;
  lied_model *m;
  const lied_spec *sp;
  size_t words;
  char *a, *b;            /* the copies: copy by copy, and through the groups */
  char *g[NG];            /* the groups */
  uint32_t *mv, nmv;      /* the words moved between instances and groups */
  uint32_t ptr[MAXPTR];   /* the reading pointers' offsets */
  int nptr;
  double *in, *lin;       /* their signals: per copy, and per group in lanes */
} fixture;

static void fixture_free(fixture *f) {
  for (int k = 0; k < NG; k++) free(f->g[k]);
  free(f->a), free(f->b), free(f->mv), free(f->in), free(f->lin);
  lied_model_free(f->m);
}

/* A class whose defaults do not pass its init (a table to give, a medium
 * to choose) cannot be built here: does its meta, crawled on the prototype
 * as the failed init left it, declare a lane form? 1 yes, 0 no, -1 cannot
 * tell (the meta needs what init derives: crawled in a child process, so
 * that such a meta may crash). */
static int unbuilt_has_lanes(const lied_spec *sp) {
  const pid_t pid = fork();
  if (pid == 0) {
    lied_err e = {0};
    lied_template t;
    char *inst = malloc(sp->size + 8);
    if (!inst) _exit(4);
    memcpy(inst, sp->proto, sp->size);
    if (lied_template_crawl(&t, sp->cls, inst, sp->size, &e) != LIED_OK) _exit(4);
    int lanes = 0;
    for (int b = 0; b < t.nblocks; b++) lanes |= t.blocks[b].lanes != NULL;
    _exit(lanes ? 3 : 0);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return -1;
  return WEXITSTATUS(st) == 3 ? 1 : WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* N copies of cls through its meta: LIED_OK; 1 when it declares no lane
 * form; -1 when it cannot be built (its defaults fail its init) but
 * declares a lane form, -2 when it cannot be built and may. */
static int fixture_make(fixture *f, const lied_class *cls, int nudge) {
  memset(f, 0, sizeof *f);
  f->cls = cls;
  lied_err e = {0};
  f->m = lied_model_new(&e);
  const int root = lied_model_add(f->m, -1, "Top", NULL, 1, 0, NULL, &e);
  const int arr = lied_model_add(f->m, root, "c", NULL, N, 1, NULL, &e);
  const int id = lied_model_add(f->m, arr, "x", cls, 1, 0, NULL, &e);
  f->sp = &f->m->specs[id];
  /* table parameters must be given (lied/table.h): a table of four
   * breakpoints, a map of 3 x 3 */
  static const double tx[] = {0, 0.5, 1, 2}, ty[] = {1, 1.5, 1.2, 3}, mx[] = {0, 0.5, 1};
  static const double mz[] = {1, 2, 3, 2, 1, 0.5, 4, 1, 2};
  for (int k = 0; k < cls->nparams; k++) {
    const lied_param *p = &cls->params[k];
    if (!(p->flags & (LIED_PARAM_TABLE | LIED_PARAM_MAP))) continue;
    const int map = (p->flags & LIED_PARAM_MAP) != 0;
    const lied_table_data d = {map ? 2 : 1, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, map ? 3 : 4,
                               map ? 3 : 0, map ? mx : tx, map ? mx : NULL, map ? mz : ty, "t"};
    lied_table *t = lied_table_new(&d, &e);
    const double tid = t ? (double)lied_model_add_table(f->m, t, &e) : -1;
    if (t) lied_table_release(t);
    if (tid >= 0) lied_model_set_param(f->m, id, p->name, &tid, 1, &e);
  }
  /* the second configuration: every scalar parameter that is 0 by default
   * switched on (a flag of range [0, 1] to 1, anything else to 0.02): the
   * structures parameters select (a dialectic time constant T_D > 0, an
   * input instead of a parameter) */
  for (int k = 0; nudge && k < cls->nparams; k++) {
    const lied_param *p = &cls->params[k];
    const double v = p->min == 0 && p->max == 1 ? 1 : 0.02;
    if (p->len <= 1 && !(p->flags & LIED_PARAM_INT) && p->def == 0 && v >= p->min && v <= p->max)
      lied_model_set_param(f->m, id, p->name, &v, 1, &e);
  }
  /* the arena and the template are made before the wiring, which stops at
   * the first reader left unconnected */
  const int built = lied_model_instantiate(f->m, &e) == LIED_OK || strstr(e.msg, "unconnected");
  if (!built && nudge) return 1; /* switched on, it needs more: the defaults were tested */
  if (!built) {
    const int lanes = unbuilt_has_lanes(f->sp);
    if (lanes) fprintf(stderr, "%s: %s\n", cls->name, e.msg);
    return lanes == 0 ? 1 : lanes > 0 ? -1 : -2;
  }
  const lied_template *t = &f->sp->tpl;
  int lanes = 0;
  for (int b = 0; b < t->nblocks; b++) lanes |= t->blocks[b].lanes != NULL;
  if (!lanes) return 1;
  if (f->sp->size % 8 || !f->sp->arena) return -1;
  f->words = f->sp->size / 8;
  for (int r = 0; r < t->nrefs; r++) {
    if (t->refs[r].kind != LIED_REF_PORT) continue;
    int seen = 0;
    for (int p = 0; p < f->nptr; p++) seen |= f->ptr[p] == t->refs[r].offset;
    if (!seen && f->nptr < MAXPTR) f->ptr[f->nptr++] = t->refs[r].offset;
  }
  f->a = malloc(f->sp->size * N);
  f->b = malloc(f->sp->size * N);
  f->mv = calloc(f->words + 1, sizeof *f->mv);
  f->in = calloc((size_t)(f->nptr + 1) * N * LIED_MAX_SIGNAL_VARS, sizeof *f->in);
  f->lin = calloc((size_t)(f->nptr + 1) * NG * W * LIED_MAX_SIGNAL_VARS, sizeof *f->lin);
  for (int k = 0; k < NG; k++) f->g[k] = calloc(f->words * W + 1, 8);
  return f->a && f->b && f->mv && f->in && f->lin ? LIED_OK : -1;
}

/* Copy q's values (states, tearing variables, the signals it reads) and its
 * reading pointers; the groups' pointers to the lanes of the same signals. */
static void fixture_fill(fixture *f) {
  const lied_template *t = &f->sp->tpl;
  memcpy(f->a, f->sp->arena, f->sp->size * N);
  for (int q = 0; q < N; q++) {
    char *inst = f->a + (size_t)q * f->sp->size;
    for (int s = 0; s < t->nstates; s++) {
      double *x = (double *)(void *)(inst + t->states[s].x);
      const char *u = t->vars[t->states[s].var].unit;
      *x += moved(nominal(u ? u : "", u ? strlen(u) : 0), q, s) * 0.05;
    }
    for (int p = 0; p < t->ntears; p++)
      *(double *)(void *)(inst + t->tears[p].tear) = moved(0.1, q, p);
  }
  for (int p = 0; p < f->nptr; p++) {
    const lied_tref *ref = NULL;
    for (int r = 0; r < t->nrefs && !ref; r++)
      if (t->refs[r].kind == LIED_REF_PORT && t->refs[r].offset == f->ptr[p]) ref = &t->refs[r];
    for (int q = 0; q < N; q++) {
      double *v = f->in + ((size_t)p * N + (size_t)q) * LIED_MAX_SIGNAL_VARS;
      double *lv = f->lin + ((size_t)p * NG + (size_t)(q / W)) * W * LIED_MAX_SIGNAL_VARS;
      for (int j = 0; j < LIED_MAX_SIGNAL_VARS; j++) {
        v[j] = moved(signal_nominal(t, ref, j), q, p + j);
        lv[(size_t)j * W + (size_t)(q % W)] = v[j];
      }
      const double *to = v;
      memcpy(f->a + (size_t)q * f->sp->size + f->ptr[p], &to, sizeof to);
    }
    for (int k = 0; k < NG; k++) /* lane l of the pointer word: lane l of the signal */
      for (int l = 0; l < W; l++) {
        const double *to = f->lin + ((size_t)p * NG + (size_t)k) * W * LIED_MAX_SIGNAL_VARS + l;
        memcpy(f->g[k] + (size_t)f->ptr[p] * W + 8 * (size_t)l, &to, sizeof to);
      }
  }
  memcpy(f->b, f->a, f->sp->size * N);
  f->nmv = 0;
  for (size_t w = 0; w < f->words; w++) {
    int ptr = 0;
    for (int p = 0; p < f->nptr; p++) ptr |= f->ptr[p] / 8 == w;
    if (!ptr) f->mv[f->nmv++] = (uint32_t)w;
  }
}

/* Move the copies of b into their groups (store: back). */
static void groups_move(fixture *f, int store) {
  for (int k = 0; k < NG; k++) {
    const int64_t a = (int64_t)k * W, end = a + W < N ? a + W : N;
    lied_lanes_move(f->g[k], f->b, f->words, f->mv, f->nmv, a, end, a, store);
  }
}

/* Block b in lane form over the groups: a full group, a group in two
 * pieces, a partial group. */
static void run_lanes(fixture *f, const lied_tblock *tb, const lied_env *env) {
  for (int k = 0; k < NG; k++) {
    const size_t n = (size_t)(N - k * W < W ? N - k * W : W);
    if (k == 1 && n == W) {
      tb->lanes(env, f->g[k], 11, 0);
      tb->lanes(env, f->g[k] + 8 * 11, W - 11, 0);
    } else {
      tb->lanes(env, f->g[k], n, 0);
    }
  }
}

/* The name of the variable at byte offset off of the class, or "?". */
static const char *var_at(const lied_template *t, size_t off) {
  for (int v = 0; v < t->nvars; v++)
    if (t->vars[v].offset == off && t->vars[v].kind != LIED_VAR_PORT_READ) return t->vars[v].name;
  return "?";
}

/* Every block, twice, both ways; 1 when every word and fault agreed. The
 * lane forms called are added to forms[0 .. *nforms). */
static int same_bits(fixture *f, lied_block_fn *forms, int *nforms) {
  const lied_template *t = &f->sp->tpl;
  lied_fault fa, fb;
  const lied_env ea = {0.37, &fa}, eb = {0.37, &fb};
  groups_move(f, 0);
  for (int pass = 0; pass < 2; pass++)
    for (int b = 0; b < t->nblocks; b++) {
      const lied_tblock *tb = &t->blocks[b];
      memset(&fa, 0, sizeof fa), memset(&fb, 0, sizeof fb);
      tb->fn(&ea, f->a, N, f->sp->size);
      if (tb->lanes) {
        run_lanes(f, tb, &eb);
        groups_move(f, 1);
        int seen = 0;
        for (int i = 0; i < *nforms; i++) seen |= forms[i] == tb->lanes;
        if (!seen && *nforms < MAXFORMS) forms[(*nforms)++] = tb->lanes;
      } else { /* copy by copy on both sides */
        groups_move(f, 1);
        tb->fn(&eb, f->b, N, f->sp->size);
        groups_move(f, 0);
      }
      if ((fa.where != NULL) != (fb.where != NULL) || strcmp(fa.msg, fb.msg) != 0) {
        fprintf(stderr, "%s block %s: fault '%s' copy by copy, '%s' in lanes\n", f->cls->name,
                tb->name, fa.msg, fb.msg);
        return 0;
      }
      for (int q = 0; q < N; q++)
        for (uint32_t i = 0; i < f->nmv; i++) {
          const size_t off = (size_t)q * f->sp->size + 8 * (size_t)f->mv[i];
          if (memcmp(f->a + off, f->b + off, 8) == 0) continue;
          double x, y;
          memcpy(&x, f->a + off, 8), memcpy(&y, f->b + off, 8);
          fprintf(stderr, "%s block %s (pass %d): %s of copy %d: %.17g copy by copy, %.17g in "
                  "lanes\n", f->cls->name, tb->name, pass + 1, var_at(t, 8 * (size_t)f->mv[i]),
                  q + 1, x, y);
          return 0;
        }
    }
  return 1;
}

int main(void) {
  int classes = 0, with = 0, failed = 0, unknown = 0, nforms = 0, switched = 0;
  lied_block_fn forms[MAXFORMS]; /* the lane forms tested */
  for (int i = 0; i < lied_library_count(); i++) {
    const lied_library *lib = lied_library_at(i);
    for (const lied_class *const *c = lib->classes; *c; c++) {
      classes++;
      for (int nudge = 0; nudge < 2; nudge++) {
        fixture f;
        const int rc = fixture_make(&f, *c, nudge);
        /* every class with a lane form builds with its defaults */
        CHECK(rc != -1);
        if (rc == -2) fprintf(stderr, "%s.%s: not covered (defaults fail init, meta needs it)\n",
                              lib->name, (*c)->name), unknown++;
        if (rc == LIED_OK) {
          fixture_fill(&f);
          const int before = nforms;
          const int ok = same_bits(&f, forms, &nforms);
          if (nudge) switched += nforms - before;
          CHECK(ok);
          if (!ok)
            fprintf(stderr, "  (library %s, class %s, %s)\n", lib->name, (*c)->name,
                    nudge ? "parameters switched on" : "defaults"), failed++;
          with += !nudge;
        }
        fixture_free(&f);
      }
    }
  }
  printf("%d classes in %d libraries; %d with lane forms, %d lane forms tested (%d only with "
         "parameters switched on), %d differ, %d not covered\n", classes, lied_library_count(),
         with, nforms, switched, failed, unknown);
  CHECK(with > 0);
  return CHECK_DONE();
}
