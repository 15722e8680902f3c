/* mux.c - the multiplexer: one sink that feeds any number of sinks. */
#include <stdlib.h>
#include "record/recorder.h"

typedef struct mux_sink {
  lied_sink base;
  lied_sink **to;
  int n, cap;
  int begun; /* sinks [0, begun) saw begin() */
} mux_sink;

static int mux_begin(lied_sink *s, size_t n, char *const *names, const char *const *units,
                     lied_err *e) {
  mux_sink *m = (mux_sink *)s;
  for (m->begun = 0; m->begun < m->n; m->begun++)
    LIED_TRY(m->to[m->begun]->begin(m->to[m->begun], n, names, units, e));
  return LIED_OK;
}

static int mux_row(lied_sink *s, double t, const double *v, lied_err *e) {
  mux_sink *m = (mux_sink *)s;
  for (int i = 0; i < m->n; i++) LIED_TRY(m->to[i]->row(m->to[i], t, v, e));
  return LIED_OK;
}

/* Every sink is ended, even after a failure; the first error is reported. */
static int mux_end(lied_sink *s, lied_err *e) {
  mux_sink *m = (mux_sink *)s;
  int rc = LIED_OK;
  lied_err tmp;
  for (int i = 0; i < m->begun; i++) {
    int rc1 = m->to[i]->end(m->to[i], rc ? &tmp : e);
    if (!rc) rc = rc1;
  }
  return rc;
}

static void mux_destroy(lied_sink *s) {
  mux_sink *m = (mux_sink *)s;
  for (int i = 0; i < m->n; i++) m->to[i]->destroy(m->to[i]);
  free(m->to);
  free(m);
}

lied_sink *lied_mux_sink(lied_err *e) {
  mux_sink *m = lied_xcalloc(1, sizeof *m, "multiplexer", e);
  if (m) m->base = (lied_sink){mux_begin, mux_row, mux_end, mux_destroy};
  return m ? &m->base : NULL;
}

int lied_mux_add(lied_sink *mux, lied_sink *s, lied_err *e) {
  mux_sink *m = (mux_sink *)mux;
  int rc = lied_grow((void **)&m->to, &m->cap, m->n + 1, sizeof *m->to, e);
  if (rc) {
    s->destroy(s);
    return rc;
  }
  m->to[m->n++] = s;
  return LIED_OK;
}
