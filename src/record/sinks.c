/* sinks.c - the CSV and memory sinks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/recorder.h"

/* The CSV sink formats rows into its own buffer and writes only whole rows
 * (write(2), 64 KiB at a time): a failed write (a full disk, a file size
 * limit, a closed pipe) leaves the file ending on a whole row. For a file it
 * owns, what a short write left of a row is cut off (ftruncate to the last
 * whole row); on a pipe the reader has gone. (With stdio a failure kept a
 * truncated number as the last row: issue 47.) */
typedef struct csv_sink {
  lied_sink base;
  FILE *f;
  int own;
  size_t n;
  const lied_params *params; /* written as comment lines before the header */
  char *buf;                 /* rows not yet written */
  size_t len, cap, head;     /* bytes in buf, its size, of them the header's */
  size_t rowmax;             /* the longest row */
  off_t start, done;         /* the file offset of the first byte, bytes written */
  long rows, rows_buf;       /* rows written, rows in buf */
  int failed;
  char name[256]; /* for messages: the path, or "standard output" */
} csv_sink;

void lied_csv_sink_params(lied_sink *s, const lied_params *p) {
  ((csv_sink *)s)->params = p;
}

void lied_csv_sink_name(lied_sink *s, const char *name) {
  csv_sink *c = (csv_sink *)s;
  snprintf(c->name, sizeof c->name, "%s", name);
}

/* Room for k more bytes in the buffer. */
static int reserve(csv_sink *c, size_t k, lied_err *e) {
  if (c->len + k <= c->cap) return LIED_OK;
  size_t cap = c->cap ? c->cap : 65536;
  while (cap < c->len + k) cap *= 2;
  char *b = realloc(c->buf, cap);
  if (!b) return lied_errc(e, LIED_E_NOMEM, "out of memory (%zu bytes of CSV output)", cap);
  c->buf = b, c->cap = cap;
  return LIED_OK;
}

static int put(csv_sink *c, const char *s, size_t k, lied_err *e) {
  LIED_TRY(reserve(c, k, e));
  memcpy(c->buf + c->len, s, k);
  c->len += k;
  return LIED_OK;
}

/* Write the buffer. On a failure the file keeps its whole rows: a partial
 * row a short write left is cut off (files this sink owns), the header
 * counts as one row, and the message says how many rows the file holds. */
static int flush_rows(csv_sink *c, lied_err *e) {
  if (c->failed) return lied_errc(e, LIED_E_IO, "cannot write %s: an earlier write failed", c->name);
  const int fd = fileno(c->f);
  size_t off = 0;
  int err = 0;
  if (!c->own && fflush(c->f)) /* what else went to standard output first */
    err = errno ? errno : EIO;
  while (!err && off < c->len) {
    ssize_t w = write(fd, c->buf + off, c->len - off);
    if (w > 0) {
      off += (size_t)w;
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else {
      err = w < 0 ? errno : ENOSPC;
      break;
    }
  }
  if (!err && off == c->len) {
    c->done += (off_t)off;
    c->rows += c->rows_buf;
    c->len = c->head = 0;
    c->rows_buf = 0;
    return LIED_OK;
  }
  size_t keep = off;
  while (keep > 0 && c->buf[keep - 1] != '\n') keep--;
  if (keep < c->head) keep = 0; /* the header, cut: none of it */
  long whole = 0;
  for (size_t i = c->head; i < keep; i++) whole += c->buf[i] == '\n';
  if (c->own && keep < off) { /* a regular file: cut the partial row; else nothing to do */
    if (ftruncate(fd, c->start + c->done + (off_t)keep) != 0) {
    }
  }
  c->done += (off_t)keep;
  c->rows += whole;
  c->len = c->head = 0;
  c->rows_buf = 0;
  c->failed = 1;
  if (err == EPIPE)
    return lied_errc(e, LIED_E_IO, "cannot write %s: the reader closed the pipe after %ld rows",
                     c->name, c->rows);
  if (!c->own)
    return lied_errc(e, LIED_E_IO, "cannot write %s: %s (after %ld whole rows)", c->name,
                     strerror(err), c->rows);
  return lied_errc(e, LIED_E_IO, "cannot write %s: %s (the file holds the first %ld rows)", c->name,
                   strerror(err), c->rows);
}

/* CSV fields: quote names that hold a comma or a quote. */
static int csv_field(csv_sink *c, const char *s, lied_err *e) {
  if (!strpbrk(s, ",\"\n")) return put(c, s, strlen(s), e);
  LIED_TRY(put(c, "\"", 1, e));
  for (; *s; s++) {
    if (*s == '"') LIED_TRY(put(c, "\"", 1, e));
    LIED_TRY(put(c, s, 1, e));
  }
  return put(c, "\"", 1, e);
}

static int csv_begin(lied_sink *s, size_t n, char *const *names,
                     const char *const *units, lied_err *e) {
  csv_sink *c = (csv_sink *)s;
  (void)units;
  c->n = n;
  c->rowmax = (n + 1) * 26 + 2; /* "%.17g" is at most 24 characters, a comma */
  c->start = c->own ? lseek(fileno(c->f), 0, SEEK_CUR) : 0;
  if (c->start < 0) c->start = 0;
  for (size_t i = 0; c->params && i < c->params->n; i++) {
    char line[128];
    LIED_TRY(put(c, "# ", 2, e));
    LIED_TRY(put(c, c->params->names[i], strlen(c->params->names[i]), e));
    int k = snprintf(line, sizeof line, " = %.17g%s", c->params->values[i], c->params->units[i][0] ? " [" : "");
    LIED_TRY(put(c, line, (size_t)k, e));
    if (c->params->units[i][0]) {
      LIED_TRY(put(c, c->params->units[i], strlen(c->params->units[i]), e));
      LIED_TRY(put(c, "]", 1, e));
    }
    LIED_TRY(put(c, "\n", 1, e));
  }
  LIED_TRY(put(c, "time", 4, e));
  for (size_t i = 0; i < n; i++) {
    LIED_TRY(put(c, ",", 1, e));
    LIED_TRY(csv_field(c, names[i], e));
  }
  LIED_TRY(put(c, "\n", 1, e));
  c->head = c->len;
  LIED_TRY(reserve(c, c->rowmax, e));
  return flush_rows(c, e); /* the header on disk now, as the MAT sink's */
}

static int csv_row(lied_sink *s, double t, const double *v, lied_err *e) {
  csv_sink *c = (csv_sink *)s;
  if (c->len + c->rowmax > c->cap) LIED_TRY(flush_rows(c, e));
  char *p = c->buf + c->len;
  p += sprintf(p, "%.17g", t);
  for (size_t i = 0; i < c->n; i++) p += sprintf(p, ",%.17g", v[i]);
  *p++ = '\n';
  c->len = (size_t)(p - c->buf);
  c->rows_buf++;
  return LIED_OK;
}

static int csv_end(lied_sink *s, lied_err *e) {
  csv_sink *c = (csv_sink *)s;
  if (c->failed) return LIED_OK; /* reported when it failed */
  return flush_rows(c, e);
}

static void csv_destroy(lied_sink *s) {
  csv_sink *c = (csv_sink *)s;
  if (c->own && c->f) fclose(c->f);
  free(c->buf);
  free(c);
}

lied_sink *lied_csv_sink(FILE *f, int own_file, lied_err *e) {
  csv_sink *c = lied_xcalloc(1, sizeof *c, "CSV sink", e);
  if (!c) {
    if (own_file) fclose(f);
    return NULL;
  }
  c->base = (lied_sink){csv_begin, csv_row, csv_end, csv_destroy};
  c->f = f;
  c->own = own_file;
  lied_csv_sink_name(&c->base, own_file ? "the CSV output" : "standard output");
  return &c->base;
}

static int mem_begin(lied_sink *s, size_t n, char *const *names,
                     const char *const *units, lied_err *e) {
  lied_memsink *m = (lied_memsink *)s;
  m->ncols = n + 1;
  m->names = lied_xcalloc(n + 1, sizeof(char *), "names", e);
  m->units = lied_xcalloc(n + 1, sizeof(char *), "units", e);
  if (!m->names || !m->units) return LIED_E_NOMEM;
  for (size_t i = 0; i < n; i++) {
    m->names[i] = lied_strdup(names[i], e);
    m->units[i] = lied_strdup(units[i], e);
    if (!m->names[i] || !m->units[i]) return LIED_E_NOMEM;
  }
  return LIED_OK;
}

static int mem_row(lied_sink *s, double t, const double *v, lied_err *e) {
  lied_memsink *m = (lied_memsink *)s;
  size_t r = m->nrows % LIED_MEM_CHUNK;
  if (r == 0) {
    if (m->nchunks == m->capchunks) {
      size_t nc = m->capchunks ? m->capchunks * 2 : 8;
      double **ch = realloc(m->chunks, nc * sizeof *ch);
      if (!ch) return lied_errc(e, LIED_E_NOMEM, "out of memory (results)");
      m->chunks = ch;
      m->capchunks = nc;
    }
    size_t bytes = sizeof(double) * LIED_MEM_CHUNK * m->ncols;
    m->chunks[m->nchunks] = malloc(bytes);
    if (!m->chunks[m->nchunks])
      return lied_errc(e, LIED_E_NOMEM,
                       "out of memory keeping the results (%zu bytes for %d rows of %zu "
                       "values): record fewer variables (vars = \"x.*,y\", --vars) or keep "
                       "none in memory (out = \"x.mat\" or out = \"none\", memory = false)",
                       bytes, LIED_MEM_CHUNK, m->ncols);
    m->nchunks++;
  }
  double *row = m->chunks[m->nchunks - 1] + r * m->ncols;
  row[0] = t;
  memcpy(row + 1, v, sizeof(double) * (m->ncols - 1));
  m->nrows++;
  return LIED_OK;
}

static int mem_end(lied_sink *s, lied_err *e) {
  (void)s, (void)e;
  return LIED_OK;
}

static void mem_destroy(lied_sink *s) {
  lied_memsink *m = (lied_memsink *)s;
  for (size_t i = 0; m->names && i + 1 < m->ncols; i++) {
    free(m->names[i]);
    free(m->units[i]);
  }
  free(m->names);
  free(m->units);
  for (size_t i = 0; i < m->nchunks; i++) free(m->chunks[i]);
  free(m->chunks);
  free(m);
}

lied_memsink *lied_mem_sink(lied_err *e) {
  lied_memsink *m = lied_xcalloc(1, sizeof *m, "memory sink", e);
  if (m) m->base = (lied_sink){mem_begin, mem_row, mem_end, mem_destroy};
  return m;
}
