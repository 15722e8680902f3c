/* recorder.h - variable selection and the sinks fed at output points.
 * Every function returning int follows core/err.h: LIED_OK, or a negative
 * lied_status equal to e->code (LIED_E_IO for file and socket errors,
 * LIED_E_USAGE for a bad name, pattern or output spec, LIED_E_LIMIT for a
 * limit of a format, LIED_E_NOMEM). Functions returning a pointer give NULL
 * on failure, with the message and code in e. */
#ifndef LIED_RECORD_RECORDER_H
#define LIED_RECORD_RECORDER_H
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include "core/err.h"
#include "core/model.h"
#include "solve/sim.h"

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
  /* the items of the selection in order (a name, a pattern, or "" for all
   * states) and how many variables each selected: the variables of item k
   * follow those of item k - 1 (for gathering slices of an ensemble,
   * src/dist) */
  int nitems, items_cap, item_n_cap, item_dup_cap; /* (grown geometrically: a list of n
                                                    * names is O(n)) */
  char **items;
  size_t *item_n;
  /* how many variables item k selected that an earlier item had selected
   * (one column each, at its first appearance; "no variable matches" is
   * said of an item that selected none at all) */
  size_t *item_dup;
  /* the selected names hashed (open addressing, index + 1, 0 empty;
   * nslots a power of 2 above twice n), for selecting each once */
  size_t *slots, nslots;
} lied_recorder;

/* Select variables: `list` holds comma-separated names or glob patterns
 * (with * or ?); NULL or "" selects all states. On a slice of an ensemble
 * (lied_model_set_slice) a name of another slice's copy selects nothing and
 * a pattern may match nothing (the gathering checks the whole ensemble).
 * When *stop (stop may be NULL) is set during a pattern's walk over the
 * model's names (a pattern over an array of millions of copies), returns
 * LIED_WALK_STOPPED within a few thousand copies, e untouched, the flag
 * left set for the caller: Ctrl-C in the REPL. */
/* LIED_E_USAGE for a list given empty (blank): NULL is the default, "" a
 * mistake. lied_recorder_select checks it too. */
int lied_recorder_check_list(const char *list, lied_err *e);
int lied_recorder_select(lied_recorder *r, const lied_model *m, const char *list,
                         volatile sig_atomic_t *stop, lied_err *e);
/* Add a sink; with own != 0 the recorder destroys it in lied_recorder_free. */
int lied_recorder_add_sink(lied_recorder *r, lied_sink *s, int own, lied_err *e);
int lied_recorder_begin(lied_recorder *r, lied_err *e);
/* Sample the selected variables and push one row to every sink. */
int lied_recorder_sample(lied_recorder *r, double t, lied_err *e);
/* Flush every sink (lied_sinks_end: all of them, the first failure reported). */
int lied_recorder_end(lied_recorder *r, lied_err *e);
/* The recorder as a run's output (solve/sim.h): begin, sample at every
 * output point, end (flush) on every exit path. */
lied_output lied_recorder_output(lied_recorder *r);
/* Free names and destroy the sinks. */
void lied_recorder_free(lied_recorder *r);

/* A CSV sink writing to f (closed by destroy when own_file). */
lied_sink *lied_csv_sink(FILE *f, int own_file, lied_err *e);
/* The name write errors of a CSV sink give (a path; default "the CSV output"). */
void lied_csv_sink_name(lied_sink *s, const char *name);

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

/* ---- issue 7: MAT v4, TCP, multiplexer, output specs (mat.c, tcp.c, mux.c,
 * outputs.c) ---- */

/* MAT v4 in the Modelica result layout (Aclass, name, description, dataInfo,
 * data_1, data_2), streamed: memory does not grow with the number of rows. */
lied_sink *lied_mat_sink(const char *path, lied_err *e);
/* Listen on "PORT" or "HOST:PORT" (default host 127.0.0.1; port 0 picks a
 * free one) and stream rows as text lines to every client (docs/repl.md).
 * begin() waits until wait_clients clients are connected (Ctrl-C through
 * `stop` aborts the wait). */
lied_sink *lied_tcp_sink(const char *spec, int wait_clients, volatile sig_atomic_t *stop,
                         lied_err *e);
/* "HOST:PORT" the TCP sink listens on. */
const char *lied_tcp_sink_address(const lied_sink *s);
/* A sink that feeds every sink added to it (and destroys them). */
lied_sink *lied_mux_sink(lied_err *e);
/* Add s to the multiplexer (on failure s is destroyed). */
int lied_mux_add(lied_sink *mux, lied_sink *s, lied_err *e);
/* End sinks[0 .. n): every one, also after a failure; the first failure is
 * reported (mux.c). */
int lied_sinks_end(lied_sink *const *sinks, int n, lied_err *e);

/* ---- parameters written with the results (recorder.c) ---- */

/* The parameters of a model's instances, scalars by name ("p1.L") and
 * vector elements as "p1.e[1]", with units and values. */
typedef struct lied_params {
  size_t n;
  char **names;
  const char **units; /* the classes' strings */
  double *values;
  /* how many of them each spec gave, in spec order (nseg = the model's
   * specs; NULL when n is 0): for gathering slices of an ensemble */
  int nseg;
  size_t *seg_n;
} lied_params;
/* The model's parameters into p (zeroed first); p->n stays 0 when there
 * are more than max (a model of a million components). */
int lied_params_collect(lied_params *p, const lied_model *m, size_t max, lied_err *e);
void lied_params_free(lied_params *p);
/* Write p with the results (p must outlive the run): the MAT sink in data_1
 * (dataInfo {1, row, 0, 0}, Modelica layout), the CSV sink as comment lines
 * "# name = value [unit]" before the header. Call before begin(), on the
 * sinks themselves (lied_output_params for those of lied_output_open). */
void lied_mat_sink_params(lied_sink *s, const lied_params *p);
void lied_csv_sink_params(lied_sink *s, const lied_params *p);

enum { LIED_OUT_BAD, LIED_OUT_NONE, LIED_OUT_STDOUT, LIED_OUT_CSV, LIED_OUT_MAT, LIED_OUT_TCP };
/* Classify an output spec: "none", "-", "x.csv", "x.mat", "tcp:[HOST:]PORT". */
int lied_output_kind(const char *spec);
/* The kind of a valid spec; LIED_E_USAGE with a message for a bad one. */
int lied_output_check(const char *spec, lied_err *e);
/* Open the sink for an output spec (not "none"); tcp_clients and stop as for
 * lied_tcp_sink. A .csv or .mat file is created by the sink's begin(). */
lied_sink *lied_output_open(const char *spec, int tcp_clients, volatile sig_atomic_t *stop,
                            lied_err *e);
/* Open an output file emptied, for writing (mode "w" or "w+b"), under an
 * exclusive lock held until it is closed: a file another run (or another
 * output of this one) is writing is refused with a message (outputs.c). */
FILE *lied_output_fopen(const char *path, const char *mode, lied_err *e);
/* Parameters with the results of the sink lied_output_open(spec) gave: MAT
 * files (data_1), and with csv != 0 CSV outputs (comment lines); others
 * ignore them. p must outlive the run. */
void lied_output_params(lied_sink *s, const char *spec, const lied_params *p, int csv);

#endif
