/* recorder.h - variable selection and sinks (memory, CSV) fed at output points. */
#ifndef LIED_RECORD_RECORDER_H
#define LIED_RECORD_RECORDER_H
#include <stddef.h>
#include <stdio.h>
#include "core/err.h"
#include "core/model.h"

typedef struct lied_sink lied_sink;
struct lied_sink {
  /* Called once with the recorded names and units. */
  int (*begin)(lied_sink *s, size_t n, char *const *names,
               const char *const *units, lied_err *e);
  int (*row)(lied_sink *s, double t, const double *v, lied_err *e);
  /* Flush; the sink stays valid (also after an interrupted run). */
  int (*end)(lied_sink *s, lied_err *e);
  void (*destroy)(lied_sink *s);
};

#define LIED_MAX_SINKS 4

typedef struct lied_recorder {
  size_t n;
  char **names;
  const char **units;
  const double **addr;
  double *row;
  size_t cap;
  lied_sink *sinks[LIED_MAX_SINKS];
  int owned[LIED_MAX_SINKS];
  int nsinks;
  long rows;
} lied_recorder;

/* Select variables: `list` holds comma-separated names or glob patterns
 * (with * or ?); NULL or "" selects all states. */
int lied_recorder_select(lied_recorder *r, const lied_model *m, const char *list,
                         lied_err *e);
/* Add a sink; with own != 0 the recorder destroys it in lied_recorder_free. */
int lied_recorder_add_sink(lied_recorder *r, lied_sink *s, int own, lied_err *e);
int lied_recorder_begin(lied_recorder *r, lied_err *e);
/* Sample the selected variables and push one row to every sink. */
int lied_recorder_sample(lied_recorder *r, double t, lied_err *e);
int lied_recorder_end(lied_recorder *r, lied_err *e);
/* Free names and destroy the sinks. */
void lied_recorder_free(lied_recorder *r);

/* A CSV sink writing to f (closed by destroy when own_file). */
lied_sink *lied_csv_sink(FILE *f, int own_file, lied_err *e);

/* The memory sink: rows kept in chunks of doubles. */
typedef struct lied_memsink {
  lied_sink base;
  size_t ncols;    /* time + variables */
  char **names;
  char **units;
  double **chunks; /* each LIED_MEM_CHUNK rows * ncols */
  size_t nchunks, capchunks;
  size_t nrows;
} lied_memsink;
#define LIED_MEM_CHUNK 4096

lied_memsink *lied_mem_sink(lied_err *e);
/* Value at row r, column c (0 = time). */
static inline double lied_mem_at(const lied_memsink *m, size_t r, size_t c) {
  return m->chunks[r / LIED_MEM_CHUNK][(r % LIED_MEM_CHUNK) * m->ncols + c];
}

#endif
