/* outputs.c - open a sink from an output spec: "-", x.csv, x.mat, tcp:[HOST:]PORT. */
#include <errno.h>
#include <string.h>
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

lied_sink *lied_output_open(const char *spec, int tcp_clients, volatile sig_atomic_t *stop,
                            lied_err *e) {
  switch (lied_output_kind(spec)) {
    case LIED_OUT_STDOUT:
      return lied_csv_sink(stdout, 0, e);
    case LIED_OUT_CSV: {
      FILE *f = fopen(spec, "w");
      if (!f) {
        lied_errc(e, LIED_E_IO, "cannot open %s for writing: %s", spec, strerror(errno));
        return NULL;
      }
      lied_sink *s = lied_csv_sink(f, 1, e);
      if (s) lied_csv_sink_name(s, spec);
      return s;
    }
    case LIED_OUT_MAT:
      return lied_mat_sink(spec, e);
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
    default:
      lied_errc(e, LIED_E_USAGE, "output '%s': use a .csv or .mat file, '-' (CSV on stdout), "
                   "'tcp:PORT' or 'none'", spec ? spec : "");
      return NULL;
  }
}
