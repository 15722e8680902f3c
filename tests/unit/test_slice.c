/* test_slice.c - a slice of an ensemble (lied_model_set_slice; the model a
 * rank of `mpirun lied run` builds, docs/distributed.md): names, lookups and
 * the recorder's selection see the global copy indices. Without MPI: the
 * slice is made here as lied.flatten makes it. */
#include <string.h>
#include "check.h"
#include "fixtures.h"
#include "core/model.h"
#include "testlib/testlib.h"
#include "record/recorder.h"

/* Copies 6 .. 8 (first = 5) of an ensemble of 10 chains ground-j-b. */
static lied_system *slice(lied_err *e) {
  lied_model *m = lied_model_new(e);
  int root = lied_model_add(m, -1, "Top", NULL, 1, 0, NULL, e);
  int arr = lied_model_add(m, root, "c", NULL, 3, 1, NULL, e);
  int g = lied_model_add(m, arr, "g", &tl_ground_class, 1, 0, NULL, e);
  int j = lied_model_add(m, arr, "j", &tl_slider_class, 1, 0, NULL, e);
  int b = lied_model_add(m, arr, "b", &tl_mass_class, 1, 0, NULL, e);
  CHECK(g > 0 && j > 0 && b > 0);
  /* not the top-level array, or beyond the ensemble: usage errors */
  CHECK(lied_model_set_slice(m, j, 0, 10, e) == LIED_E_USAGE);
  CHECK(strstr(e->msg, "a range of the copies of an array at the top level") != NULL);
  CHECK(lied_model_set_slice(m, arr, 8, 10, e) == LIED_E_USAGE);
  CHECK(lied_model_set_slice(m, arr, 5, 10, e) == LIED_OK);
  CHECK(lied_model_connect(m, arr, "g.flange_b", "j.flange_a", NULL, e) == 0);
  CHECK(lied_model_connect(m, arr, "j.flange_b", "b.flange_a", NULL, e) == 0);
  return fx_build(m, 0, e);
}

static void test_names(void) {
  lied_err e;
  lied_system *sys = slice(&e);
  CHECK(sys != NULL);
  if (!sys) return;
  const lied_model *m = sys->model;
  int b = -1, j = -1;
  for (int s = 0; s < m->nspecs; s++) {
    if (m->specs[s].cls == &tl_mass_class) b = s;
    if (m->specs[s].cls == &tl_slider_class) j = s;
  }
  char path[64];
  lied_model_path(m, b, 0, path, sizeof path);
  CHECK(strcmp(path, "c[6].b") == 0);
  lied_model_path(m, b, 2, path, sizeof path);
  CHECK(strcmp(path, "c[8].b") == 0);
  /* lookups: global indices; another slice's copy, and beyond the ensemble */
  int spec;
  uint64_t inst;
  const char *rest;
  CHECK(lied_model_find(m, "c[7].j.s", &spec, &inst, &rest, &e) == 0);
  CHECK(spec == j && inst == 1 && strcmp(rest, "s") == 0);
  CHECK(lied_model_find(m, "c[5].b.x", &spec, &inst, &rest, &e) == LIED_E_MODEL);
  CHECK(strstr(e.msg, "c[5] is not in this process's slice c[6..8] of the ensemble") != NULL);
  CHECK(lied_model_find(m, "c[11].b.x", &spec, &inst, &rest, &e) == LIED_E_MODEL);
  CHECK(strstr(e.msg, "index 11 out of range: c has 10 elements") != NULL);
  CHECK(lied_model_remote(m, "c[5].b.x") == 1);
  CHECK(lied_model_remote(m, "c[9].b.x") == 1);
  CHECK(lied_model_remote(m, "c[6].b.x") == 0);
  CHECK(lied_model_remote(m, "c[11].b.x") == 0); /* no copy at all: the lookup's error */
  CHECK(lied_model_remote(m, "c[x].b") == 0);
  CHECK(lied_model_remote(m, "d[5].b") == 0);
  /* the recorder: a remote name selects nothing, a pattern matching only
   * other slices is no error here (the gathering checks the ensemble) */
  lied_recorder r;
  memset(&r, 0, sizeof r);
  CHECK(lied_recorder_select(&r, m, "c[9].j.s,c[*].j.s,c[1?].j.v,c[7].j.v", NULL, &e) == 0);
  CHECK(r.nitems == 4);
  CHECK(r.item_n[0] == 0 && r.item_n[1] == 3 && r.item_n[2] == 0 && r.item_n[3] == 1);
  CHECK(r.n == 4 && strcmp(r.names[0], "c[6].j.s") == 0 && strcmp(r.names[2], "c[8].j.s") == 0 &&
        strcmp(r.names[3], "c[7].j.v") == 0);
  CHECK(strcmp(r.items[2], "c[1?].j.v") == 0);
  lied_recorder_free(&r);
  /* parameters: counted per spec, global names */
  lied_params p;
  CHECK(lied_params_collect(&p, m, 1000, &e) == 0);
  CHECK(p.n > 0 && p.nseg == m->nspecs && p.seg_n[b] > 0 && p.seg_n[0] == 0);
  size_t sum = 0;
  for (int s = 0; s < p.nseg; s++) sum += p.seg_n[s];
  CHECK(sum == p.n);
  int found = 0;
  for (size_t i = 0; i < p.n; i++) found |= strcmp(p.names[i], "c[8].b.m") == 0;
  CHECK(found);
  lied_params_free(&p);
  lied_system_free(sys);
}

int main(void) {
  test_names();
  return CHECK_DONE();
}
