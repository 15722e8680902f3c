/* sinks.c - the CSV and memory sinks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record/recorder.h"

typedef struct csv_sink {
  lied_sink base;
  FILE *f;
  int own;
  size_t n;
  const lied_params *params; /* written as comment lines before the header */
  char name[256]; /* for messages: the path, or "standard output" */
} csv_sink;

void lied_csv_sink_params(lied_sink *s, const lied_params *p) {
  ((csv_sink *)s)->params = p;
}

/* A write failed (full disk, closed pipe, ...): name the file and the reason. */
static int csv_failed(csv_sink *c, lied_err *e) {
  int err = errno ? errno : EIO;
  return lied_errc(e, LIED_E_IO, "cannot write %s: %s", c->name, strerror(err));
}

void lied_csv_sink_name(lied_sink *s, const char *name) {
  csv_sink *c = (csv_sink *)s;
  snprintf(c->name, sizeof c->name, "%s", name);
}

/* CSV fields: quote names that hold a comma or a quote. */
static void csv_field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static int csv_begin(lied_sink *s, size_t n, char *const *names,
                     const char *const *units, lied_err *e) {
  csv_sink *c = (csv_sink *)s;
  (void)units;
  c->n = n;
  for (size_t i = 0; c->params && i < c->params->n; i++)
    fprintf(c->f, "# %s = %.17g%s%s%s\n", c->params->names[i], c->params->values[i],
            c->params->units[i][0] ? " [" : "", c->params->units[i],
            c->params->units[i][0] ? "]" : "");
  fputs("time", c->f);
  for (size_t i = 0; i < n; i++) {
    fputc(',', c->f);
    csv_field(c->f, names[i]);
  }
  fputc('\n', c->f);
  return ferror(c->f) ? csv_failed(c, e) : LIED_OK;
}

static int csv_row(lied_sink *s, double t, const double *v, lied_err *e) {
  csv_sink *c = (csv_sink *)s;
  fprintf(c->f, "%.17g", t);
  for (size_t i = 0; i < c->n; i++) fprintf(c->f, ",%.17g", v[i]);
  fputc('\n', c->f);
  return ferror(c->f) ? csv_failed(c, e) : LIED_OK;
}

static int csv_end(lied_sink *s, lied_err *e) {
  csv_sink *c = (csv_sink *)s;
  if (fflush(c->f) || ferror(c->f)) return csv_failed(c, e);
  return LIED_OK;
}

static void csv_destroy(lied_sink *s) {
  csv_sink *c = (csv_sink *)s;
  if (c->own && c->f) fclose(c->f);
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
