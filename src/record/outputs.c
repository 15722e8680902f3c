/* outputs.c - open a sink from an output spec: "-", x.csv, x.mat, tcp:[HOST:]PORT.
 * A file is created when the run begins (the sink's begin), not when the
 * spec is opened: a run refused for its options leaves existing files alone. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "record/recorder.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && strcmp(s + n - k, suffix) == 0;
}

int lied_output_kind(const char *spec) {
  if (!spec || !*spec) return LIED_OUT_BAD;
  if (strcmp(spec, "none") == 0) return LIED_OUT_NONE;
  if (strcmp(spec, "-") == 0) return LIED_OUT_STDOUT;
  if (strncmp(spec, "tcp:", 4) == 0) return LIED_OUT_TCP;
  if (ends_with(spec, ".csv")) return LIED_OUT_CSV;
  if (ends_with(spec, ".mat")) return LIED_OUT_MAT;
  return LIED_OUT_BAD;
}

int lied_output_check(const char *spec, lied_err *e) {
  int kind = lied_output_kind(spec);
  if (kind != LIED_OUT_BAD) return kind;
  return lied_errc(e, LIED_E_USAGE,
                   "output '%s': use a .csv or .mat file, tcp:PORT, '-' (CSV on stdout) "
                   "or 'none'", spec ? spec : "");
}

/* Open an output file for writing, emptied, under an exclusive lock
 * (flock) that the process holds until it closes the file: a second run
 * (or a second output of one run) writing the same file is refused before
 * anything is truncated, instead of both interleaving their rows (issue 47).
 * A lock, not a temporary file renamed at the end: a run stopped by SIGKILL
 * or a power loss leaves its committed rows under the file's own name
 * (docs/robustness.md). Where the file system has no locks (flock fails
 * otherwise than EWOULDBLOCK), the file is written unlocked. mode: "w" or
 * "w+b" (read back too). */
FILE *lied_output_fopen(const char *path, const char *mode, lied_err *e) {
  const int rw = strchr(mode, '+') != NULL;
  int fd = open(path, (rw ? O_RDWR : O_WRONLY) | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    lied_errc(e, LIED_E_IO, "cannot open %s for writing: %s", path, strerror(errno));
    return NULL;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    close(fd);
    lied_errc(e, LIED_E_IO,
              "cannot write %s: another run, or another output of this run, is writing it "
              "(each output file is locked while it is written; choose another file name)",
              path);
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
    lied_errc(e, LIED_E_IO, "cannot open %s for writing: %s", path, strerror(errno));
    close(fd);
    return NULL;
  }
  FILE *f = fdopen(fd, mode);
  if (!f) {
    lied_errc(e, LIED_E_NOMEM, "cannot open %s for writing: %s", path, strerror(errno));
    close(fd);
  }
  return f;
}

/* The sink of a .csv or .mat file, opened now. */
static lied_sink *open_file(const char *spec, lied_err *e) {
  if (lied_output_kind(spec) == LIED_OUT_MAT) return lied_mat_sink(spec, e);
  FILE *f = lied_output_fopen(spec, "w", e);
  if (!f) return NULL;
  lied_sink *s = lied_csv_sink(f, 1, e);
  if (s) lied_csv_sink_name(s, spec);
  return s;
}

/* A file sink that opens its file in begin() and then forwards to it. */
typedef struct later_sink {
  lied_sink base;
  char *spec;
  lied_sink *to; /* NULL until begin() opened it */
  const lied_params *params; /* passed on to the sink when it opens */
  int csv_params;            /* also to a CSV sink */
} later_sink;

static int later_begin(lied_sink *s, size_t n, char *const *names, const char *const *units,
                       lied_err *e) {
  later_sink *l = (later_sink *)s;
  if (!l->to) {
    if (!(l->to = open_file(l->spec, e))) return lied_err_code(e);
    if (l->params && lied_output_kind(l->spec) == LIED_OUT_MAT)
      lied_mat_sink_params(l->to, l->params);
    else if (l->params && l->csv_params)
      lied_csv_sink_params(l->to, l->params);
  }
  return l->to->begin(l->to, n, names, units, e);
}

static int later_row(lied_sink *s, double t, const double *v, lied_err *e) {
  later_sink *l = (later_sink *)s;
  return l->to->row(l->to, t, v, e);
}

static int later_end(lied_sink *s, lied_err *e) {
  later_sink *l = (later_sink *)s;
  return l->to ? l->to->end(l->to, e) : LIED_OK;
}

static void later_destroy(lied_sink *s) {
  later_sink *l = (later_sink *)s;
  if (l->to) l->to->destroy(l->to);
  free(l->spec);
  free(l);
}

static lied_sink *later_file(const char *spec, lied_err *e) {
  later_sink *l = lied_xcalloc(1, sizeof *l, "output sink", e);
  if (!l) return NULL;
  l->base = (lied_sink){later_begin, later_row, later_end, later_destroy};
  if (!(l->spec = lied_strdup(spec, e))) {
    free(l);
    return NULL;
  }
  return &l->base;
}

void lied_output_params(lied_sink *s, const char *spec, const lied_params *p, int csv) {
  int kind = lied_output_kind(spec);
  if (kind == LIED_OUT_STDOUT && csv) {
    lied_csv_sink_params(s, p);
  } else if (kind == LIED_OUT_CSV || kind == LIED_OUT_MAT) {
    later_sink *l = (later_sink *)s;
    l->params = p;
    l->csv_params = csv;
  }
}

lied_sink *lied_output_open(const char *spec, int tcp_clients, volatile sig_atomic_t *stop,
                            lied_err *e) {
  switch (lied_output_check(spec, e)) {
    case LIED_OUT_STDOUT:
      return lied_csv_sink(stdout, 0, e);
    case LIED_OUT_CSV:
    case LIED_OUT_MAT:
      return later_file(spec, e);
    case LIED_OUT_TCP: {
      lied_sink *s = lied_tcp_sink(spec + 4, tcp_clients, stop, e);
      if (s) {
        if (tcp_clients > 0)
          fprintf(stderr, "lied: streaming rows on tcp %s (waiting for %d client%s)\n",
                  lied_tcp_sink_address(s), tcp_clients, tcp_clients == 1 ? "" : "s");
        else
          fprintf(stderr, "lied: streaming rows on tcp %s\n", lied_tcp_sink_address(s));
      }
      return s;
    }
    case LIED_OUT_NONE:
      lied_errc(e, LIED_E_USAGE, "output 'none' opens no sink");
      return NULL;
    default: /* lied_output_check wrote the message */
      return NULL;
  }
}
