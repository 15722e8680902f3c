/* test_embed.c - the embedding API (lied/lied.h): load a model from a
 * string and from a file, override, build, run with options, read results
 * and values by name; every failure is a status code and a message. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lied/lied.h"

static int failed;
#define CHECK(c, ...)                                         \
  do {                                                        \
    if (!(c)) {                                               \
      failed++;                                               \
      fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                           \
      fputc('\n', stderr);                                    \
    }                                                         \
  } while (0)

static const char *model =
    "local lied = require 'lied'\n"
    "local S = require 'lied.signals'\n"
    "return lied.model 'Decay' {\n"
    "  parameters = { k = 1 },\n"
    "  src = S.Constant { k = 0 },\n"
    "  lag = S.FirstOrder { T = lied.param 'k', x = 1 },\n"
    "  connect = { { 'src.y', 'lag.u' } },\n"
    "  experiment = { stop = 1, dt = 1e-3 },\n"
    "}\n";

int main(void) {
  lied_ctx *c;
  lied_status st = lied_open(&c);
  CHECK(st == LIED_OK, "open: %s", c ? lied_errmsg(c) : "");
  if (st != LIED_OK) return 1;
  CHECK(strcmp(lied_version(), LIED_VERSION_STRING) == 0, "version");

  /* nothing loaded */
  st = lied_build(c);
  CHECK(st == LIED_E_USAGE && strstr(lied_errmsg(c), "no model"), "build first: %d %s", st,
        lied_errmsg(c));

  CHECK(lied_load_string(c, model, "decay") == LIED_OK, "load: %s", lied_errmsg(c));
  CHECK(lied_set(c, "k", 2) == LIED_OK, "set: %s", lied_errmsg(c));
  CHECK(lied_build(c) == LIED_OK, "build: %s", lied_errmsg(c));
  CHECK(lied_option(c, "stop", "2") == LIED_OK, "option stop: %s", lied_errmsg(c));
  CHECK(lied_option(c, "vars", "lag.*") == LIED_OK, "option vars: %s", lied_errmsg(c));
  CHECK(lied_option(c, "fuse", "false") == LIED_OK, "option fuse: %s", lied_errmsg(c));
  st = lied_option(c, "stpo", "2");
  CHECK(st == LIED_E_USAGE && strstr(lied_errmsg(c), "did you mean 'stop'"), "unknown option: %s",
        lied_errmsg(c));
  st = lied_option(c, "dt", "fast");
  CHECK(st == LIED_E_USAGE, "a malformed number: %d %s", st, lied_errmsg(c));
  CHECK(lied_run(c) == LIED_OK, "run: %s", lied_errmsg(c));
  const double *t = NULL, *x = NULL;
  size_t n = 0, m = 0;
  CHECK(lied_result(c, "time", &t, &n) == LIED_OK && n > 10, "time: %s", lied_errmsg(c));
  CHECK(lied_result(c, "lag.x", &x, &m) == LIED_OK && m == n, "lag.x: %s", lied_errmsg(c));
  double xend = x && m > 0 ? x[m - 1] : NAN;
  if (t && x && n == m && n > 0) {
    CHECK(t[n - 1] == 2.0, "stop time 2, got %g", t[n - 1]);
    CHECK(fabs(x[n - 1] - exp(-1.0)) < 1e-9, "x(2) = exp(-2/2), got %.17g", x[n - 1]);
  }
  CHECK(lied_result_name(c, 0) && strncmp(lied_result_name(c, 0), "lag.", 4) == 0, "names");
  st = lied_result(c, "lag.nope", &x, &m);
  CHECK(st == LIED_E_USAGE && strstr(lied_errmsg(c), "lag.nope"), "not recorded: %s",
        lied_errmsg(c));
  double v = 0;
  CHECK(lied_value(c, "lag.x", &v) == LIED_OK && v == xend, "value at the end: %g", v);

  /* a bad override and a bad parameter value: the engine's codes */
  CHECK(lied_set(c, "k", -1) == LIED_OK, "set");
  st = lied_build(c);
  CHECK(st == LIED_E_PARAM && strstr(lied_errmsg(c), "lag"), "bad parameter: %s %s",
        lied_status_name(st), lied_errmsg(c));
  /* a syntax error, a missing file, a file that returns no model */
  st = lied_load_string(c, "return lied.model 'X' {", "broken");
  CHECK(st == LIED_E_MODEL && strstr(lied_errmsg(c), "broken"), "syntax: %s", lied_errmsg(c));
  st = lied_load_file(c, "tests/models/does_not_exist.lua");
  CHECK(st == LIED_E_USAGE, "missing file: %s", lied_errmsg(c));
  st = lied_load_file(c, "tests/models/not_a_model.lua");
  CHECK(st < 0 && strstr(lied_errmsg(c), "model"), "not a model: %s", lied_errmsg(c));

  /* a file, with its directory searched by require */
  CHECK(lied_load_file(c, "examples/cranecrab.lua") == LIED_OK, "cranecrab: %s", lied_errmsg(c));
  CHECK(lied_option(c, "stop", "0.1") == LIED_OK && lied_run(c) == LIED_OK, "run: %s",
        lied_errmsg(c));
  CHECK(lied_value(c, "revolute2.phi", &v) == LIED_OK && isfinite(v), "phi: %s", lied_errmsg(c));
  lied_close(c);

  /* two contexts are independent */
  lied_ctx *a, *b;
  CHECK(lied_open(&a) == LIED_OK && lied_open(&b) == LIED_OK, "two contexts");
  CHECK(lied_load_string(a, model, "a") == LIED_OK && lied_run(a) == LIED_OK, "a");
  CHECK(lied_result(b, "time", &t, &n) == LIED_E_USAGE, "b has no result");
  lied_close(a);
  lied_close(b);
  printf("%s\n", failed ? "FAILED" : "ok");
  return failed != 0;
}
