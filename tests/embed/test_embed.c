/* test_embed.c - the embedding API (lied/lied.h): load a model from a
 * string and from a file, override, build, run with options, read results
 * and values by name; every failure is a status code and a message. Issue
 * 47: every entry point with NULL and bad arguments (a message naming the
 * call and the argument), precompiled and corrupted chunks refused, empty
 * option values refused, and reading every column of a result by name and
 * index linear in the number of columns (counted in bytes allocated). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lied/lied.h"

/* Bytes allocated while `counting` (glibc's allocator underneath): the
 * growth test counts what reading the names and columns allocates. Not
 * under the sanitizers, whose allocator this would bypass. */
#if defined(__SANITIZE_ADDRESS__)
#define COUNT_ALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNT_ALLOC 0
#endif
#endif
#ifndef COUNT_ALLOC
#define COUNT_ALLOC 1
extern void *__libc_malloc(size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_calloc(size_t a, size_t b);
extern void __libc_free(void *p);
static size_t allocated;
static int counting;
void *malloc(size_t n) {
  if (counting) allocated += n;
  return __libc_malloc(n);
}
void *realloc(void *p, size_t n) {
  if (counting) allocated += n;
  return __libc_realloc(p, n);
}
void *calloc(size_t a, size_t b) {
  if (counting) allocated += a * b;
  return __libc_calloc(a, b);
}
void free(void *p) { __libc_free(p); }
#endif

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

static int has(const char *msg, const char *text) { return strstr(msg, text) != NULL; }

/* Every entry point with NULL and bad arguments: LIED_E_USAGE (or a
 * refusal) and a message that names what was wrong; nothing crashes. */
static void bad_arguments(void) {
  CHECK(lied_open(NULL) == LIED_E_USAGE, "lied_open(NULL)");
  CHECK(lied_load_file(NULL, "x.lua") == LIED_E_USAGE && lied_build(NULL) == LIED_E_USAGE &&
            lied_run(NULL) == LIED_E_USAGE && lied_set(NULL, "k", 1) == LIED_E_USAGE &&
            lied_option(NULL, "stop", "1") == LIED_E_USAGE &&
            lied_load_string(NULL, "x", "x") == LIED_E_USAGE && lied_value(NULL, "x", NULL) == LIED_E_USAGE &&
            lied_result(NULL, "time", NULL, NULL) == LIED_E_USAGE && lied_result_name(NULL, 0) == NULL,
        "a NULL context");
  CHECK(has(lied_errmsg(NULL), "the lied_ctx is NULL"), "lied_errmsg(NULL): %s", lied_errmsg(NULL));
  lied_close(NULL);
  lied_ctx *c;
  if (lied_open(&c) != LIED_OK) {
    CHECK(0, "open");
    return;
  }
  const double *v;
  size_t n;
  double x;
  static const struct {
    lied_status st;
    const char *text;
  } none = {0, NULL};
  (void)none;
#define BAD(call, text)                                                                   \
  do {                                                                                    \
    lied_status st_ = (call);                                                             \
    CHECK(st_ == LIED_E_USAGE && has(lied_errmsg(c), text), "%s: %d '%s'", #call, st_,   \
          lied_errmsg(c));                                                                \
  } while (0)
  BAD(lied_load_file(c, NULL), "lied_load_file: path is NULL");
  BAD(lied_load_file(c, ""), "lied_load_file: path is empty");
  BAD(lied_load_string(c, NULL, "m"), "lied_load_string: source is NULL");
  BAD(lied_set(c, NULL, 1), "lied_set: name is NULL");
  BAD(lied_set(c, "", 1), "lied_set: name is empty");
  BAD(lied_option(c, NULL, "1"), "lied_option: name is NULL");
  BAD(lied_option(c, "stop", NULL), "lied_option stop: value is NULL");
  BAD(lied_result(c, NULL, &v, &n), "lied_result: name is NULL");
  BAD(lied_result(c, "time", NULL, &n), "lied_result time: values is NULL");
  BAD(lied_result(c, "time", &v, NULL), "lied_result time: n is NULL");
  BAD(lied_value(c, NULL, &x), "lied_value: name is NULL");
  BAD(lied_value(c, "lag.x", NULL), "lied_value lag.x: value is NULL");
  /* out of order: nothing loaded, nothing run */
  BAD(lied_run(c), "no model loaded");
  BAD(lied_option(c, "stop", "1"), "no model loaded"); /* it raised an internal error */
  BAD(lied_result(c, "time", &v, &n), "no result: run first");
  CHECK(lied_result_name(c, 0) == NULL && lied_result_name(c, (size_t)-1) == NULL, "no names");
  /* explicit invalid values: refused when given (issue 47, item 9) */
  CHECK(lied_load_string(c, model, "decay") == LIED_OK, "load: %s", lied_errmsg(c));
  BAD(lied_option(c, "solver", ""), "the solver name is empty (available: euler");
  BAD(lied_option(c, "solver", "rk9"), "unknown solver 'rk9'");
  BAD(lied_option(c, "vars", ""), "the variable list is empty");
  BAD(lied_option(c, "dt", ""), "run option dt expects a");
  BAD(lied_option(c, "stop", "nan"), "run option stop expects a number");
  BAD(lied_option(c, "stop", "1e400"), "run: option stop must be a finite number, got inf");
  BAD(lied_option(c, "start", "-1e999"), "run: option start must be a finite number, got -inf");
  /* outputs are checked when given and a refused one is not kept (it was appended to the
   * list unchecked, and failed every later run) */
  BAD(lied_option(c, "out", "/tmp"), "output '/tmp': use a .csv or .mat file");
  CHECK(lied_option(c, "out", "none") == LIED_OK, "out none: %s", lied_errmsg(c));
  CHECK(lied_run(c) == LIED_OK, "the refused options left the defaults: %s", lied_errmsg(c));
  CHECK(lied_option(c, "out", "-") == LIED_OK, "out -: %s", lied_errmsg(c));
  BAD(lied_option(c, "out", "-"), "output '-' is given twice (outputs 2 and 3)");
  CHECK(lied_result_name(c, (size_t)-1) == NULL && lied_result_name(c, 1000) == NULL, "past the end");
  /* values that are not whole numbers lied_set could pass as integers
   * (converting them was undefined behaviour: fuzz_embed, UBSan) */
  CHECK(lied_set(c, "k", INFINITY) == LIED_OK && lied_set(c, "k", -1e300) == LIED_OK &&
            lied_set(c, "k", 9.5e15) == LIED_OK,
        "set infinite and huge values (checked at the build)");
  /* a value that is not a number */
  CHECK(lied_set(c, "k", NAN) == LIED_OK, "set NaN (checked at the build)");
  lied_status st = lied_build(c);
  CHECK(st < 0 && has(lied_errmsg(c), "= nan [s] must be finite"), "a NaN parameter: %d %s", st, lied_errmsg(c));
  /* precompiled chunks: a real one (string.dump) and a corrupted one, from
   * a file and from a string; lied loads source text only */
  const char *dump = "/tmp/lied_test_embed_dump.luac", *bad = "/tmp/lied_test_embed_bad.luac";
  char src[512];
  snprintf(src, sizeof src,
           "local f = assert(io.open('%s', 'wb')); f:write(string.dump(function() return 1 end));"
           "f:close(); return require('lied').model 'M' {}", dump);
  CHECK(lied_load_string(c, src, "dumper") == LIED_OK, "dumper: %s", lied_errmsg(c));
  FILE *f = fopen(bad, "wb");
  if (f) {
    fputs("\x1bLuaT\x00\x19\x93\r\n\x1a\n\x04\x08\x08xV\xff\xff\xff\x7f garbage", f);
    fclose(f);
  }
  for (int k = 0; k < 2; k++) {
    const char *path = k ? bad : dump;
    st = lied_load_file(c, path);
    CHECK(st == LIED_E_MODEL && has(lied_errmsg(c), "a binary (precompiled) Lua chunk; lied loads Lua source text only") &&
              has(lied_errmsg(c), path),
          "precompiled file %s: %d %s", path, st, lied_errmsg(c));
  }
  st = lied_load_string(c, "\x1bLuaT\x00 garbage", "chunk");
  CHECK(st == LIED_E_MODEL && has(lied_errmsg(c), "chunk: a binary (precompiled) Lua chunk"),
        "precompiled string: %d %s", st, lied_errmsg(c));
  remove(dump);
  remove(bad);
  /* error values that are not strings: their text, never a Lua panic (a __tostring that
   * raised aborted the process: converted outside the protected call), nor an __index that
   * raises when the status is looked up */
  static const struct {
    const char *src, *msg;
  } errvals[] = {
      {"error(setmetatable({}, {__tostring = function() error('x') end}))",
       "(error object is a table value whose __tostring fails)"},
      {"error(setmetatable({}, {__tostring = function() return {} end}))",
       "(error object is a table value whose __tostring fails)"},
      {"error(setmetatable({}, {__index = function() error('x') end}))",
       "(error object is a table value)"},
      {"error(nil)", "(error object is a nil value)"},
      {"error(setmetatable({}, {__tostring = function() return 'mine' end}))", "mine"},
  };
  for (size_t k = 0; k < sizeof errvals / sizeof errvals[0]; k++) {
    st = lied_load_string(c, errvals[k].src, "ev");
    CHECK(st == LIED_ERROR && strcmp(lied_errmsg(c), errvals[k].msg) == 0, "error value %s: %d '%s'",
          errvals[k].src, st, lied_errmsg(c));
  }
  CHECK(lied_load_string(c, model, "decay") == LIED_OK && lied_run(c) == LIED_OK,
        "usable after the error values: %s", lied_errmsg(c));
#undef BAD
  lied_close(c);
}

/* No call is quadratic in the model's size: reading every recorded name,
 * every column by name and every value of a model of n columns allocates
 * O(n) bytes in all (lied_result_name rebuilt the whole name list per
 * call: 16,000 names took 13.6 s; lied_result searched the names and grew
 * its list by one). Counted in bytes, at two sizes: the bytes per column
 * must not grow with n (quadratic: 16 bytes more per column per column). */
static void growth(void) {
#if COUNT_ALLOC
  double per[2];
  const int sizes[2] = {1000, 8000};
  for (int k = 0; k < 2; k++) {
    lied_ctx *c;
    if (lied_open(&c) != LIED_OK) {
      CHECK(0, "open");
      return;
    }
    char src[400];
    snprintf(src, sizeof src,
             "local lied = require 'lied'; local S = require 'lied.signals'\n"
             "return lied.model 'Many' { c = lied.array(S.Constant, %d, { k = function(i) return i end }) }",
             sizes[k]);
    CHECK(lied_load_string(c, src, "many") == LIED_OK && lied_option(c, "vars", "*") == LIED_OK &&
              lied_option(c, "stop", "1") == LIED_OK && lied_option(c, "interval", "0.5") == LIED_OK &&
              lied_run(c) == LIED_OK,
          "many: %s", lied_errmsg(c));
    size_t cols = 0;
    counting = 1, allocated = 0;
    for (const char *name; (name = lied_result_name(c, cols)) != NULL; cols++) {
      const double *v;
      size_t n;
      double x;
      CHECK(lied_result(c, name, &v, &n) == LIED_OK && n == 3, "column %s", name);
      CHECK(lied_value(c, name, &x) == LIED_OK && x == v[2], "value %s", name);
    }
    counting = 0;
    CHECK(cols >= (size_t)sizes[k], "columns: %zu", cols);
    per[k] = (double)allocated / (double)cols;
    printf("%zu columns: %.0f bytes allocated per column read\n", cols, per[k]);
    lied_close(c);
  }
  /* linear: the same per column at 8x the size (the name index, tables
   * grown geometrically: within 2x); quadratic would be ~ +100 KB */
  CHECK(per[1] < 2 * per[0] + 256, "bytes per column grow with the size: %.0f, %.0f", per[0], per[1]);
#else
  printf("growth: not under the sanitizers (the allocation count bypasses them)\n");
#endif
}

int main(void) {
  bad_arguments();
  growth();
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
