/* test_mat.c - the MAT v4 sink read back by an independent reader (libmatio,
 * loaded at run time) and compared bit for bit with the CSV sink.
 *   test_mat                       unit test of the sinks
 *   test_mat FILE.mat FILE.csv     compare a lied MAT file with a CSV file */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "record/recorder.h"

#if defined(__has_include)
#if __has_include(<matio.h>)
#include <matio.h>
#define HAVE_MATIO_H 1
#endif
#endif

#ifndef HAVE_MATIO_H
int main(void) {
  fprintf(stderr, "test_mat: libmatio's header is missing: install libmatio-dev "
                  "(bash tests/deps.sh) and rebuild\n");
  return 1;
}
#else

static struct {
  mat_t *(*open)(const char *, int);
  matvar_t *(*read)(mat_t *, const char *);
  void (*free)(matvar_t *);
  int (*close)(mat_t *);
  enum mat_ft (*version)(mat_t *);
} mio;

static int load_matio(void) {
  void *h = dlopen("libmatio.so.11", RTLD_NOW);
  if (!h) h = dlopen("libmatio.so", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "test_mat: cannot load libmatio (install libmatio-dev: bash tests/deps.sh)\n");
    return -1;
  }
  *(void **)&mio.open = dlsym(h, "Mat_Open");
  *(void **)&mio.read = dlsym(h, "Mat_VarRead");
  *(void **)&mio.free = dlsym(h, "Mat_VarFree");
  *(void **)&mio.close = dlsym(h, "Mat_Close");
  *(void **)&mio.version = dlsym(h, "Mat_GetVersion");
  if (!mio.open || !mio.read || !mio.free || !mio.close || !mio.version) {
    fprintf(stderr, "test_mat: libmatio lacks Mat_Open/Mat_VarRead/...\n");
    return -1;
  }
  return 0;
}

/* A matrix read by matio, as doubles (numeric) or bytes (char). */
typedef struct mat {
  size_t rows, cols;
  double *num;
  char *txt;
  int type_ok;
} mat;

static int read_var(mat_t *f, const char *name, mat *out) {
  memset(out, 0, sizeof *out);
  matvar_t *v = mio.read(f, name);
  if (!v) {
    fprintf(stderr, "matio cannot read '%s'\n", name);
    return -1;
  }
  out->rows = v->rank == 2 ? v->dims[0] : 0;
  out->cols = v->rank == 2 ? v->dims[1] : 0;
  size_t n = out->rows * out->cols;
  if (v->class_type == MAT_C_CHAR) {
    out->txt = calloc(n + 1, 1);
    for (size_t i = 0; out->txt && i < n; i++) {
      if (v->data_size == 1)
        out->txt[i] = ((const char *)v->data)[i];
      else if (v->data_type == MAT_T_DOUBLE)
        out->txt[i] = (char)((const double *)v->data)[i];
    }
  } else {
    out->num = calloc(n + 1, sizeof(double));
    for (size_t i = 0; out->num && i < n; i++) {
      if (v->data_type == MAT_T_DOUBLE)
        out->num[i] = ((const double *)v->data)[i];
      else if (v->data_type == MAT_T_INT32)
        out->num[i] = ((const int32_t *)v->data)[i];
    }
  }
  out->type_ok = v->data_type == MAT_T_DOUBLE || v->data_type == MAT_T_INT32 ||
                 v->class_type == MAT_C_CHAR;
  mio.free(v);
  return 0;
}

static void free_mat(mat *m) {
  free(m->num);
  free(m->txt);
}

/* Column c of a char matrix, without the NUL padding. */
static void column_text(const mat *m, size_t c, char *buf, size_t cap) {
  size_t k = 0;
  for (size_t r = 0; r < m->rows && k + 1 < cap; r++) {
    char ch = m->txt[c * m->rows + r];
    if (ch == 0) break;
    buf[k++] = ch;
  }
  buf[k] = 0;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Compare a MAT result with a CSV file (header and every value, bit for bit).
 * Returns the number of rows, or -1. */
static long params_seen; /* parameters in data_1 of the last file compared */
static long compare_mode(const char *matpath, const char *csvpath, int prefix) {
  mat_t *f = mio.open(matpath, MAT_ACC_RDONLY);
  if (!f) {
    fprintf(stderr, "matio cannot open %s\n", matpath);
    return -1;
  }
  long rows = -1;
  mat aclass, name, desc, info, d1, d2;
  int ok = read_var(f, "Aclass", &aclass) == 0 && read_var(f, "name", &name) == 0 &&
           read_var(f, "description", &desc) == 0 && read_var(f, "dataInfo", &info) == 0 &&
           read_var(f, "data_1", &d1) == 0 && read_var(f, "data_2", &d2) == 0;
  CHECK(ok);
  CHECK(mio.version(f) == MAT_FT_MAT4);
  mio.close(f);
  if (!ok) return -1;
  char buf[4096];
  column_text(&aclass, 0, buf, sizeof buf); /* rows of Aclass: read across columns */
  char a0[12] = {0}, a3[12] = {0};
  for (size_t c = 0; c < aclass.cols && c < 11; c++) {
    a0[c] = aclass.txt[c * aclass.rows + 0];
    a3[c] = aclass.txt[c * aclass.rows + 3];
  }
  CHECK(aclass.rows == 4 && strcmp(a0, "Atrajectory") == 0 && strcmp(a3, "binTrans") == 0);
  /* columns of name: time, the nv - 1 recorded variables (rows of data_2),
   * then np parameters (rows 2.. of data_1) */
  size_t nall = name.cols, nv = d2.rows, np = nall - nv;
  CHECK(nv >= 1 && nv <= nall && desc.cols == nall && info.rows == 4 && info.cols == nall);
  column_text(&name, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "time") == 0);
  /* dataInfo: time {0,1,0,-1}; variable k in row k+1 of data_2; parameter
   * j in row j+1 of data_1 */
  for (size_t k = 0; k < nall && info.num; k++) {
    CHECK(info.num[4 * k + 0] == (k == 0 ? 0 : k < nv ? 2 : 1));
    CHECK(info.num[4 * k + 1] == (double)(k < nv ? k + 1 : k - nv + 2));
  }
  CHECK(d1.rows == 1 + np && d1.cols == 2);
  if (d2.cols > 0 && d1.num) {
    CHECK(same_bits(d1.num[0], d2.num[0]));
    CHECK(same_bits(d1.num[d1.rows], d2.num[(d2.cols - 1) * d2.rows]));
    for (size_t j = 1; j <= np; j++) CHECK(same_bits(d1.num[j], d1.num[d1.rows + j]));
  }
  params_seen = (long)np;
  FILE *csv = csvpath ? fopen(csvpath, "r") : NULL;
  if (!csvpath) {
    rows = (long)d2.cols; /* the MAT file alone: valid, its rows */
  } else if (!csv) {
    fprintf(stderr, "cannot open %s\n", csvpath);
  } else {
    /* header: time,<names> equals the name matrix */
    static char line[1 << 16];
    if (fgets(line, sizeof line, csv)) {
      line[strcspn(line, "\r\n")] = 0;
      char joined[1 << 16] = "";
      size_t len = 0;
      for (size_t k = 0; k < nv; k++) {
        column_text(&name, k, buf, sizeof buf);
        len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", k ? "," : "", buf);
      }
      CHECK(strcmp(line, joined) == 0);
      if (strcmp(line, joined) != 0) fprintf(stderr, "CSV header %s\nMAT names  %s\n", line, joined);
    }
    long r = 0;
    int bad = 0;
    while (fgets(line, sizeof line, csv)) {
      char *p = line;
      /* prefix: the whole CSV rows that the MAT file holds too (after an
       * interruption or a failed write one file may hold more rows, and the
       * CSV may end in a partial row) */
      if (prefix && (strchr(line, '\n') == NULL || (size_t)r >= d2.cols)) break;
      for (size_t k = 0; k < nv; k++) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || (size_t)r >= d2.cols || !same_bits(v, d2.num[(size_t)r * nv + k])) {
          if (bad++ < 5)
            fprintf(stderr, "row %ld column %zu: CSV %.17g, MAT %.17g\n", r + 1, k, v,
                    (size_t)r < d2.cols ? d2.num[(size_t)r * nv + k] : NAN);
        }
        p = end + (*end == ',');
      }
      r++;
    }
    fclose(csv);
    CHECK(bad == 0);
    if (prefix && (size_t)r < d2.cols) { /* the MAT file holds rows the CSV lost */
      printf("MAT holds %zu rows, the CSV %ld whole rows\n", d2.cols, r);
      d2.cols = (size_t)r;
    }
    CHECK((size_t)r == d2.cols);
    if ((size_t)r != d2.cols) fprintf(stderr, "CSV has %ld rows, MAT %zu\n", r, d2.cols);
    rows = bad ? -1 : r;
  }
  free_mat(&aclass);
  free_mat(&name);
  free_mat(&desc);
  free_mat(&info);
  free_mat(&d1);
  free_mat(&d2);
  return rows;
}

static long compare(const char *matpath, const char *csvpath) {
  return compare_mode(matpath, csvpath, 0);
}

/* Feed the same rows to a MAT and a CSV sink. */
static void write_both(const char *matpath, const char *csvpath, size_t n, char *const *names,
                       const char *const *units, long nrows, const double *vals) {
  lied_err e;
  lied_sink *m = lied_mat_sink(matpath, &e);
  FILE *cf = fopen(csvpath, "w");
  lied_sink *c = cf ? lied_csv_sink(cf, 1, &e) : NULL;
  CHECK(m && c);
  if (!m || !c) return;
  CHECK(m->begin(m, n, names, units, &e) == 0);
  CHECK(c->begin(c, n, names, units, &e) == 0);
  for (long r = 0; r < nrows; r++) {
    CHECK(m->row(m, vals[r * (long)(n + 1)], vals + r * (long)(n + 1) + 1, &e) == 0);
    CHECK(c->row(c, vals[r * (long)(n + 1)], vals + r * (long)(n + 1) + 1, &e) == 0);
  }
  CHECK(m->end(m, &e) == 0);
  CHECK(c->end(c, &e) == 0);
  m->destroy(m);
  c->destroy(c);
}

static void unit_tests(void) {
  char dir[] = "/tmp/lied_test_mat_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char matp[256], csvp[256];
  snprintf(matp, sizeof matp, "%s/r.mat", dir);
  snprintf(csvp, sizeof csvp, "%s/r.csv", dir);
  /* values that a decimal round trip or a float would get wrong */
  char *names[] = {"crab[12].body1.x", "p1.m_flow", "a_long_name.with.many.parts[3].v"};
  const char *units[] = {"m", "kg/s", ""};
  enum { N = 3, ROWS = 1000 };
  static double vals[ROWS * (N + 1)];
  for (int r = 0; r < ROWS; r++) {
    double *row = vals + r * (N + 1);
    row[0] = r * 0.1;
    row[1] = 1.0 / 3.0 + r * 1e-17;
    row[2] = r % 3 == 0 ? 4.9406564584124654e-324 : -0.0;
    row[3] = r % 2 ? 1.7976931348623157e308 : 2.2250738585072014e-308 * (r + 1);
  }
  write_both(matp, csvp, N, names, units, ROWS, vals);
  CHECK(compare(matp, csvp) == ROWS);
  /* descriptions carry the units */
  mat_t *f = mio.open(matp, MAT_ACC_RDONLY);
  CHECK(f != NULL);
  if (f) {
    mat d;
    char buf[64];
    CHECK(read_var(f, "description", &d) == 0);
    column_text(&d, 0, buf, sizeof buf);
    CHECK(strcmp(buf, "[s]") == 0);
    column_text(&d, 2, buf, sizeof buf);
    CHECK(strcmp(buf, "[kg/s]") == 0);
    column_text(&d, 3, buf, sizeof buf);
    CHECK(strcmp(buf, "") == 0);
    free_mat(&d);
    mio.close(f);
  }
  /* a run that stops before its first row still leaves a valid file */
  write_both(matp, csvp, N, names, units, 0, vals);
  CHECK(compare(matp, csvp) == 0);
  /* streaming: the file grows with the rows, memory does not; the counts are
   * patched by end(), after which the file is complete */
  lied_err e;
  lied_sink *m = lied_mat_sink(matp, &e);
  CHECK(m && m->begin(m, N, names, units, &e) == 0);
  for (int r = 0; m && r < ROWS; r++) CHECK(m->row(m, vals[r * 4], vals + r * 4 + 1, &e) == 0);
  CHECK(m && m->end(m, &e) == 0);
  FILE *sf = fopen(matp, "rb");
  long size = -1;
  if (sf) {
    fseek(sf, 0, SEEK_END);
    size = ftell(sf);
    fclose(sf);
  }
  CHECK(size > (long)(ROWS * (N + 1) * sizeof(double)));
  if (m) m->destroy(m);
  /* errors: an unwritable path */
  CHECK(lied_mat_sink("/nonexistent/dir/x.mat", &e) == NULL);
  CHECK(strstr(e.msg, "cannot open /nonexistent/dir/x.mat") != NULL);
  remove(matp);
  remove(csvp);
  rmdir(dir);
}

int main(int argc, char **argv) {
  if (load_matio()) return 1;
  /* test_mat FILE.mat: a valid MAT file; FILE.mat FILE.csv: equal rows;
   * FILE.mat FILE.csv prefix: equal on the whole rows both hold */
  if (argc >= 2 && argc <= 4) {
    const int prefix = argc == 4 && strcmp(argv[3], "prefix") == 0;
    long rows = compare_mode(argv[1], argc >= 3 ? argv[2] : NULL, prefix);
    if (rows >= 0 && check_failures == 0) {
      printf("%s %s %s: %ld rows (%ld parameters in data_1)\n", argv[1],
             argc >= 3 ? "equals" : "is valid", argc >= 3 ? argv[2] : "", rows, params_seen);
      return 0;
    }
    return 1;
  }
  unit_tests();
  return CHECK_DONE();
}
#endif
