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

int lied_sinks_end(lied_sink *const *sinks, int n, lied_err *e) {
  int rc = LIED_OK;
  lied_err tmp;
  for (int i = 0; i < n; i++) {
    int rc1 = sinks[i]->end(sinks[i], rc ? &tmp : e);
    if (!rc) rc = rc1;
  }
  return rc;
}

/* The sinks that saw begin() are ended. */
static int mux_end(lied_sink *s, lied_err *e) {
  mux_sink *m = (mux_sink *)s;
  return lied_sinks_end(m->to, m->begun, e);
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
