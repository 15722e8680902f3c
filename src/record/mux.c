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
    if (m->to[m->begun]->begin(m->to[m->begun], n, names, units, e)) return -1;
  return 0;
}

static int mux_row(lied_sink *s, double t, const double *v, lied_err *e) {
  mux_sink *m = (mux_sink *)s;
  for (int i = 0; i < m->n; i++)
    if (m->to[i]->row(m->to[i], t, v, e)) return -1;
  return 0;
}

/* Every sink is ended, even after a failure; the first error is reported. */
static int mux_end(lied_sink *s, lied_err *e) {
  mux_sink *m = (mux_sink *)s;
  int rc = 0;
  lied_err tmp;
  for (int i = 0; i < m->begun; i++)
    if (m->to[i]->end(m->to[i], rc ? &tmp : e)) rc = -1;
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
  if (lied_grow((void **)&m->to, &m->cap, m->n + 1, sizeof *m->to, e)) {
    s->destroy(s);
    return -1;
  }
  m->to[m->n++] = s;
  return 0;
}
