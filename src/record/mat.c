/* mat.c - the MAT v4 sink: Modelica result layout, streamed (constant memory). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio_ext.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "record/recorder.h"

/* The file holds, in order (all matrices column-major, "binTrans"):
 *   Aclass      4 x 11 char  "Atrajectory", "1.1", "", "binTrans"
 *   name        maxlen x nvar char, one NUL-padded name per column
 *   description maxlen x nvar char, "[unit]" per column
 *   dataInfo    4 x nvar int32: {0, 1, 0, -1} for time, {2, k, 0, 0} for the
 *               k-th row of data_2, {1, k, 0, 0} for the k-th row of data_1
 *   data_1      (1 + np) x 2 double: start and end time, then the np
 *               parameters (lied_mat_sink_params), each twice
 * The columns of name, description and dataInfo: time, the recorded
 * variables, the parameters.
 *   data_2      (1 + n) x nrows double: one column per output point
 * data_2 columns are appended as rows arrive; end() patches the column count
 * of data_2 and the end time in data_1. */

enum { MAT_DOUBLE = 0, MAT_INT32 = 20, MAT_CHAR = 51 };

typedef struct mat_sink {
  lied_sink base;
  FILE *f;
  char *path;
  size_t n;          /* recorded variables (without time) */
  off_t data1_pos;   /* file offset of data_1's data (start, end time) */
  const lied_params *params; /* written in data_1, or NULL */
  off_t data2_pos;   /* file offset of data_2's header */
  long rows, committed; /* rows written, rows counted in the header */
  /* the bytes from data_1's end time to data_2's column count (the second
   * column of data_1: the end time, the parameters; data_2's type, rows and
   * columns), which patch() writes at once (see there) */
  char *tail;
  size_t tail_len;
  int header_failed;    /* begin() failed: the file is removed */
  double t_first, t_last;
  int failed;
} mat_sink;

static int host_is_big_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 0;
}

static int write_err(mat_sink *m, lied_err *e) {
  m->failed = 1;
  return lied_errc(e, LIED_E_IO, "cannot write %s: %s", m->path, strerror(errno ? errno : EIO));
}

/* Matrix header: type (MOPT), rows, columns, imaginary flag, name length. */
static int write_header(mat_sink *m, const char *name, int type, int32_t rows, int32_t cols,
                        lied_err *e) {
  int32_t h[5] = {(host_is_big_endian() ? 1000 : 0) + type, rows, cols, 0,
                  (int32_t)strlen(name) + 1};
  if (fwrite(h, sizeof h, 1, m->f) != 1 || fwrite(name, strlen(name) + 1, 1, m->f) != 1)
    return write_err(m, e);
  return LIED_OK;
}

/* A char matrix holding `count` strings, one per column of `width` bytes. */
static int write_strings(mat_sink *m, const char *name, size_t count, const char *const *s,
                         size_t width, lied_err *e) {
  LIED_TRY(write_header(m, name, MAT_CHAR, (int32_t)width, (int32_t)count, e));
  char *col = lied_xmalloc(width, "MAT string column", e);
  if (!col) return LIED_E_NOMEM;
  for (size_t i = 0; i < count; i++) {
    memset(col, 0, width);
    memcpy(col, s[i], strlen(s[i]));
    if (fwrite(col, width, 1, m->f) != 1) {
      free(col);
      return write_err(m, e);
    }
  }
  free(col);
  return LIED_OK;
}

void lied_mat_sink_params(lied_sink *s, const lied_params *p) {
  ((mat_sink *)s)->params = p;
}

/* The matrices name, description and dataInfo of the Modelica result
 * layout: time, the n_rec variables recorded (data_2), the parameters
 * (data_1); n columns after time in all. */
static int write_names(mat_sink *m, size_t n_rec, size_t n, char *const *names,
                       const char *const *units, lied_err *e) {
  const char **nm = lied_xcalloc(n + 1, sizeof *nm, "MAT names", e);
  char **desc = nm ? lied_xcalloc(n + 1, sizeof *desc, "MAT descriptions", e) : NULL;
  int32_t *info = desc ? lied_xcalloc(4 * (n + 1), sizeof *info, "MAT dataInfo", e) : NULL;
  int rc = info ? LIED_OK : LIED_E_NOMEM;
  size_t wname = 5, wdesc = 0;
  if (rc == 0) nm[0] = "time";
  for (size_t i = 0; rc == 0 && i <= n; i++) {
    int par = i > n_rec; /* a parameter: row i - n_rec + 1 of data_1 */
    const char *u = i == 0 ? "s" : par ? m->params->units[i - n_rec - 1] : units[i - 1];
    if (i > 0) nm[i] = par ? m->params->names[i - n_rec - 1] : names[i - 1];
    size_t ul = strlen(u);
    desc[i] = lied_xmalloc(ul + 3, "MAT description", e);
    if (!desc[i]) {
      rc = LIED_E_NOMEM;
      break;
    }
    if (ul)
      snprintf(desc[i], ul + 3, "[%s]", u);
    else
      desc[i][0] = 0;
    if (strlen(nm[i]) + 1 > wname) wname = strlen(nm[i]) + 1;
    if (strlen(desc[i]) + 1 > wdesc) wdesc = strlen(desc[i]) + 1;
    int32_t *d = info + 4 * i;
    d[0] = i == 0 ? 0 : par ? 1 : 2;
    d[1] = par ? (int32_t)(i - n_rec + 1) : (int32_t)i + 1;
    d[2] = 0;
    d[3] = i == 0 ? -1 : 0;
  }
  if (rc == 0 && (wname > INT32_MAX || wdesc > INT32_MAX))
    rc = lied_errc(e, LIED_E_LIMIT, "%s: names too long for MAT v4", m->path);
  if (rc == 0) rc = write_strings(m, "name", n + 1, nm, wname, e);
  if (rc == 0) rc = write_strings(m, "description", n + 1, (const char *const *)desc, wdesc, e);
  if (rc == 0) {
    rc = write_header(m, "dataInfo", MAT_INT32, 4, (int32_t)(n + 1), e);
    if (rc == 0 && fwrite(info, sizeof *info, 4 * (n + 1), m->f) != 4 * (n + 1))
      rc = write_err(m, e);
  }
  for (size_t i = 0; desc && i <= n; i++) free(desc[i]);
  free(desc);
  free(info);
  free((void *)nm);
  return rc;
}

/* m->tail as write_begin wrote it: the end time 0, the np parameters,
 * data_2's header words up to its column count (0). */
static int keep_tail(mat_sink *m, size_t np, lied_err *e) {
  m->tail_len = sizeof(double) * (1 + np) + 3 * sizeof(int32_t);
  m->tail = lied_xcalloc(m->tail_len, 1, "MAT header", e);
  if (!m->tail) return LIED_E_NOMEM;
  if (np) memcpy(m->tail + sizeof(double), m->params->values, sizeof(double) * np);
  int32_t h[5] = {(host_is_big_endian() ? 1000 : 0) + MAT_DOUBLE, (int32_t)(m->n + 1), 0, 0, 0};
  memcpy(m->tail + sizeof(double) * (1 + np), h, 3 * sizeof(int32_t));
  return LIED_OK;
}

static int write_begin(lied_sink *s, size_t n_rec, char *const *names, const char *const *units,
                       lied_err *e) {
  mat_sink *m = (mat_sink *)s;
  m->n = n_rec;
  const size_t np = m->params ? m->params->n : 0;
  const size_t n = n_rec + np; /* columns of name, description, dataInfo (and time) */
  if (n + 1 > INT32_MAX / 4)
    return lied_errc(e, LIED_E_LIMIT, "%s: too many variables for MAT v4", m->path);
  static const char aclass[4][11] = {"Atrajectory", "1.1", "", "binTrans"};
  char acl[44];
  for (int c = 0; c < 11; c++)
    for (int r = 0; r < 4; r++) acl[c * 4 + r] = aclass[r][c];
  LIED_TRY(write_header(m, "Aclass", MAT_CHAR, 4, 11, e));
  if (fwrite(acl, sizeof acl, 1, m->f) != 1) return write_err(m, e);
  LIED_TRY(write_names(m, n_rec, n, names, units, e));
  /* data_1: start and end time (patched in end()) and the parameters, column
   * by column; data_2: 0 columns so far */
  double t0 = 0;
  LIED_TRY(write_header(m, "data_1", MAT_DOUBLE, (int32_t)(np + 1), 2, e));
  m->data1_pos = ftello(m->f);
  if (m->data1_pos < 0) return write_err(m, e);
  for (int c = 0; c < 2; c++)
    if (fwrite(&t0, sizeof t0, 1, m->f) != 1 ||
        (np && fwrite(m->params->values, sizeof(double), np, m->f) != np))
      return write_err(m, e);
  m->data2_pos = ftello(m->f);
  if (m->data2_pos < 0) return write_err(m, e);
  LIED_TRY(write_header(m, "data_2", MAT_DOUBLE, (int32_t)(n_rec + 1), 0, e));
  LIED_TRY(keep_tail(m, np, e));
  /* the header on disk now: a valid file of 0 rows, whatever happens next */
  if (fflush(m->f)) return write_err(m, e);
  return LIED_OK;
}

/* The header counts only rows that reached the file. patch() writes the
 * row count of data_2 and the end time of data_1 with pwrite, past the
 * stdio buffer, for the rows the file holds in full: after a failed write
 * (a full disk, a file size limit) the rows still in the buffer or cut
 * short are not counted, and the file is cut after the last whole row. A
 * commit (flush, then patch) every MAT_COMMIT bytes of rows (and at least
 * MAT_TAILS times the bytes patch() writes) keeps the header close to the
 * data even when the process is killed (SIGKILL). The end time and the
 * count go in one pwrite, the bytes between them (the parameters, data_2's
 * type and rows) rewritten as they are: written by two calls, a SIGKILL
 * between them left a file whose end time its rows did not reach
 * (test_attack2 kills lied after each pwrite; a 3 ms pause between the two
 * calls failed 1 file in 5 killed after 3 MB). Within one call the kernel
 * looks for a SIGKILL only between pages, during the microseconds of the
 * copy. */
#define MAT_COMMIT (256 * 1024)
#define MAT_TAILS 4

static off_t data2_start(const mat_sink *m) {
  return m->data2_pos + 5 * (off_t)sizeof(int32_t) + (off_t)sizeof "data_2";
}

static int patch(mat_sink *m, long rows, double t_last) {
  int fd = fileno(m->f);
  const double t_0 = rows ? m->t_first : 0, t_1 = rows ? t_last : 0;
  /* data_1 is column-major: the end time heads its second column, whose
   * last parameter data_2's header follows (the start time changes once,
   * at the first commit, when the count goes from 0) */
  const off_t t1_pos = m->data2_pos - (off_t)(m->tail_len - 3 * sizeof(int32_t));
  const int32_t cols = (int32_t)rows;
  memcpy(m->tail, &t_1, sizeof t_1);
  memcpy(m->tail + m->tail_len - sizeof cols, &cols, sizeof cols);
  if (pwrite(fd, &t_0, sizeof t_0, m->data1_pos) != (ssize_t)sizeof t_0 ||
      pwrite(fd, m->tail, m->tail_len, t1_pos) != (ssize_t)m->tail_len)
    return -1;
  return 0;
}

static int mat_begin(lied_sink *s, size_t n, char *const *names, const char *const *units,
                     lied_err *e) {
  int rc = write_begin(s, n, names, units, e);
  if (rc) ((mat_sink *)s)->header_failed = 1;
  return rc;
}

static int mat_row(lied_sink *s, double t, const double *v, lied_err *e) {
  mat_sink *m = (mat_sink *)s;
  if (m->failed) return lied_errc(e, LIED_E_IO, "cannot write %s: an earlier write failed", m->path);
  if (m->rows == INT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "%s: more than %d rows: the MAT v4 limit", m->path,
                     INT32_MAX);
  errno = 0;
  if (fwrite(&t, sizeof t, 1, m->f) != 1 || fwrite(v, sizeof *v, m->n, m->f) != m->n)
    return write_err(m, e);
  if (m->rows == 0) m->t_first = t;
  m->t_last = t;
  m->rows++;
  const size_t pending = (size_t)(m->rows - m->committed) * (m->n + 1) * sizeof(double);
  if (pending >= MAT_COMMIT && pending >= MAT_TAILS * m->tail_len) {
    if (fflush(m->f) || patch(m, m->rows, t)) return write_err(m, e);
    m->committed = m->rows;
  }
  return LIED_OK;
}

/* Patch the counts so the file is complete; it stays valid if rows follow.
 * After a failed write: the rows the file holds in full, the rest cut off,
 * and the failure reported. */
static int mat_end(lied_sink *s, lied_err *e) {
  mat_sink *m = (mat_sink *)s;
  if (m->data2_pos <= 0 || m->header_failed) return LIED_OK; /* begin did not finish: nothing to patch */
  errno = 0;
  int flushed = !m->failed && fflush(m->f) == 0 && !ferror(m->f);
  int err = errno ? errno : EIO;
  long rows = m->rows;
  double t_last = m->t_last;
  const off_t rowbytes = (off_t)((m->n + 1) * sizeof(double)), start = data2_start(m);
  struct stat st;
  int fd = fileno(m->f);
  if (!flushed) {
    /* what is in the stdio buffer never reached the file: drop it, so that
     * fclose does not append it after the patch */
    __fpurge(m->f);
    if (fstat(fd, &st) == 0) {
      off_t whole = st.st_size > start ? (st.st_size - start) / rowbytes : 0;
      if (whole < rows) rows = (long)whole;
      if (ftruncate(fd, start + rows * rowbytes) != 0) { /* a partial row stays: not counted */
      }
      if (rows > 0 && rows < m->rows &&
          pread(fd, &t_last, sizeof t_last, start + (rows - 1) * rowbytes) != sizeof t_last)
        rows = 0;
    } else {
      rows = m->committed;
      t_last = m->t_first;
    }
  }
  if (patch(m, rows, t_last)) {
    if (flushed) err = errno ? errno : EIO;
    flushed = 0;
  }
  m->committed = rows;
  if (!flushed) {
    m->failed = 1;
    return lied_errc(e, LIED_E_IO, "cannot write %s: %s (the file holds the first %ld rows)",
                     m->path, strerror(err), rows);
  }
  return LIED_OK;
}

static void mat_destroy(lied_sink *s) {
  mat_sink *m = (mat_sink *)s;
  if (m->f) {
    if (m->data2_pos <= 0 || m->header_failed) __fpurge(m->f);
    fclose(m->f);
    /* the header could not be written (a full disk, a file size limit): no
     * rows, and not a MAT file: removed rather than left corrupt */
    if (m->data2_pos <= 0 || m->header_failed) remove(m->path);
  }
  free(m->path);
  free(m->tail);
  free(m);
}

lied_sink *lied_mat_sink(const char *path, lied_err *e) {
  mat_sink *m = lied_xcalloc(1, sizeof *m, "MAT sink", e);
  if (!m) return NULL;
  m->base = (lied_sink){mat_begin, mat_row, mat_end, mat_destroy};
  m->path = lied_strdup(path, e);
  if (!m->path) {
    free(m);
    return NULL;
  }
  /* read too: mat_end reads back the time of the last whole row */
  m->f = lied_output_fopen(path, "w+b", e);
  if (!m->f) {
    mat_destroy(&m->base);
    return NULL;
  }
  return &m->base;
}
