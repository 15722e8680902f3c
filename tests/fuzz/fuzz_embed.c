/* fuzz_embed.c - libFuzzer harness for the embedding API (lied/lied.h;
 * issue 47, item 4). The bytes are a sequence of calls on one context:
 * load (a model from a small list, the bytes themselves as Lua source, a
 * precompiled or corrupted chunk), set, option, build, run, result,
 * result_name, value, with names and values from pools or from the bytes
 * (empty, NUL-cut, garbage), NULL for any pointer argument, and NaN or
 * infinite numbers. Runs are kept short (stop 0.01, options from a bounded
 * pool). The oracle: a failed call (status < 0) always leaves a message
 * (lied_errmsg non-empty), a result's column has as many rows as time, and
 * nothing crashes, leaks or trips a sanitizer. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_bytes.h"
#include "lied/lied.h"

static const char *models[] = {
    "local lied = require 'lied'; local S = require 'lied.signals'\n"
    "return lied.model 'Lag' { parameters = { k = 1 }, src = S.Constant { k = 1 },\n"
    "  lag = S.FirstOrder { T = lied.param 'k' }, connect = { { 'src.y', 'lag.u' } } }",
    "local lied = require 'lied'; local S = require 'lied.signals'\n"
    "return lied.model 'Arr' { parameters = { n = 3 }, c = lied.array(S.Constant, lied.param 'n') }",
    "return 42",
    "error('boom')",
    "\x1bLuaT\x00\x19\x93\r\n\x1a\n\x04\x08\x08xV garbage",
};
static const char *names[] = {"k", "n", "lag.x", "lag.y.y", "c[1].y.y", "src.k", "time", "",
                              "lag.", "c[0].y", "c[99999999999999999999].y", "nope"};
static const char *opts[] = {"solver", "vars", "fuse", "lanes", "tol", "out", "threads",
                             "progress", "params", "memory", "stpo", ""};
static const char *vals[] = {"rk4", "euler", "esdirk23", "", "rk9", "lag.*", "*", "true",
                             "false", "1e-6", "0", "-1", "nan", "none", "-", "2", "abc"};

/* A string: from a pool (most of the time), or up to 16 bytes of the input
 * (NUL ends it), or NULL. buf holds the copy. */
static const char *str(in *b, const char *const *pool, size_t npool, char *buf) {
  unsigned c = byte(b);
  if (c < 16) return NULL;
  if (c < 200) return pool[c % npool];
  size_t k = 0;
  for (unsigned len = byte(b) % 17; k < len && b->n; k++) buf[k] = (char)byte(b);
  buf[k] = 0;
  return buf;
}
static double number(in *b) {
  /* 1e5, not 1e9: as a size (the Arr model's n) 1e9 asks 16 GB, past
   * libFuzzer's 2 GB limit on one malloc: lied would build it where there is
   * the memory; 1e300 tries a size past every limit */
  static const double pool[] = {0, 1, -1, 2, 1e300, -1e300, 0.5, 3, 1e5};
  unsigned c = byte(b);
  if (c == 1) return NAN;
  if (c == 2) return INFINITY;
  return pool[c % (sizeof pool / sizeof *pool)];
}

static void oracle(lied_ctx *c, lied_status st, const char *call) {
  if (st < 0 && !lied_errmsg(c)[0]) {
    fprintf(stderr, "ORACLE: %s failed (%s) without a message\n", call, lied_status_name(st));
    abort();
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (!freopen("/dev/null", "w", stdout)) return 0; /* runs to "-" write CSV there */
  /* one context for the whole process, with lied's Lua modules loaded:
   * lied_close of the inputs' contexts then never unloads a module's code
   * (libFuzzer reads the coverage counters of every module it saw loaded,
   * and one unloaded by dlclose is a crash in libFuzzer, not in lied) */
  static lied_ctx *keep;
  if (lied_open(&keep) != LIED_OK ||
      lied_load_string(keep,
                       "for _, m in ipairs { 'lied.signals', 'lied.thermofluid', 'lied.mechanics',\n"
                       "  'lied.thermal', 'lied.analysis', 'lied.cli' } do require(m) end\n"
                       "return require('lied').model 'Keep' {}",
                       "keep") != LIED_OK) {
    fprintf(stderr, "fuzz_embed: %s\n", lied_errmsg(keep));
    abort();
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 512) return -1;
  in b = {data, size};
  lied_ctx *c = NULL;
  if (lied_open(&c) != LIED_OK) abort();
  char buf[3][32];
  for (int k = 0; k < 24 && b.n; k++) {
    const unsigned op = byte(&b) % 10;
    lied_status st = LIED_OK;
    const char *call = "?";
    switch (op) {
      case 0: {
        unsigned m = byte(&b);
        call = "lied_load_string";
        if (m < 200) {
          st = lied_load_string(c, m < 8 ? NULL : models[m % 5], m % 3 ? "fuzz" : NULL);
        } else { /* the rest of the input as source text */
          char *src = malloc(b.n + 1);
          if (!src) abort();
          memcpy(src, b.p, b.n);
          src[b.n] = 0;
          st = lied_load_string(c, src, "bytes");
          free(src);
          b.n = 0;
        }
        break;
      }
      case 1:
        call = "lied_load_file";
        st = lied_load_file(c, str(&b, (const char *[]){"examples/vessels.lua", "/nonexistent.lua", "",
                                                          "/dev/null", "tests/models/osc.lua"},
                                   5, buf[0]));
        break;
      case 2:
        call = "lied_set";
        st = lied_set(c, str(&b, names, sizeof names / sizeof *names, buf[0]), number(&b));
        break;
      case 3: {
        call = "lied_option";
        const char *name = str(&b, opts, sizeof opts / sizeof *opts, buf[0]);
        const char *value = str(&b, vals, sizeof vals / sizeof *vals, buf[1]);
        if (name && value && !strcmp(name, "out") && strcmp(value, "-")) value = "none"; /* no files */
        st = lied_option(c, name, value);
        break;
      }
      case 4:
        call = "lied_build";
        st = lied_build(c);
        break;
      case 5:
        call = "lied_run";
        /* short runs: the stop time and step are the harness's */
        if (lied_option(c, "stop", "0.01") == LIED_OK && lied_option(c, "dt", "1e-3") == LIED_OK)
          st = lied_run(c);
        break;
      case 6: {
        call = "lied_result";
        const double *v = NULL, *t = NULL;
        size_t n = 0, nt = 0;
        unsigned nul = byte(&b);
        st = lied_result(c, str(&b, names, sizeof names / sizeof *names, buf[0]), nul == 3 ? NULL : &v,
                         nul == 4 ? NULL : &n);
        if (st == LIED_OK && lied_result(c, "time", &t, &nt) == LIED_OK && n != nt) {
          fprintf(stderr, "ORACLE: a column of %zu rows, time of %zu\n", n, nt);
          abort();
        }
        break;
      }
      case 7: {
        const char *s = lied_result_name(c, byte(&b) % 8);
        if (s && !s[0]) {
          fprintf(stderr, "ORACLE: an empty result name\n");
          abort();
        }
        break;
      }
      case 8: {
        call = "lied_value";
        double v;
        st = lied_value(c, str(&b, names, sizeof names / sizeof *names, buf[0]), byte(&b) == 5 ? NULL : &v);
        break;
      }
      default:
        (void)lied_errmsg(byte(&b) == 7 ? NULL : c);
    }
    oracle(c, st, call);
  }
  lied_close(c);
  return 0;
}
