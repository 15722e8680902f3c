/* fuzz_descriptor.c - libFuzzer harness for component library descriptors
 * (issue 47, item 5). The bytes build a library of up to 4 classes with up
 * to 6 parameters each: names from a pool (NULL, empty, repeated, not
 * identifiers), sizes, offsets (aligned or not, inside the instance or
 * beyond), vector lengths, ranges (NaN, empty), NULL meta, domain or
 * parameter list, nparams beyond the list (the entries past it zeroed, as
 * the padding a real list would be followed by). lied_library_check must
 * never crash, and what it accepts must hold what lied relies on: every
 * class named, with a meta, a domain and an instance size; every parameter
 * named (an identifier, unique in its class), inside the instance and
 * aligned for its type; classes named uniquely. A violation aborts. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_bytes.h"
#include "lied/component.h"

static void meta(lied_meta *m, void *self) { (void)m, (void)self; }

static const char *const pool[] = {NULL, "", "T", "T", "k", "my name", "9x", "_ok", "x.y", "m"};
#define NPOOL (sizeof pool / sizeof *pool)


static int identifier(const char *s) {
  if (!s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

static void fail(const char *what, int k, int j) {
  fprintf(stderr, "ORACLE: accepted a descriptor whose class %d, parameter %d: %s\n", k, j, what);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256) return -1;
  in b = {data, size};
  enum { NC = 4, NP = 6 };
  static lied_class cls[NC];
  static lied_param params[NC][NP + 4]; /* room past nparams: zeroed */
  static const lied_class *list[NC + 1];
  memset(cls, 0, sizeof cls);
  memset(params, 0, sizeof params);
  const unsigned ncls = byte(&b) % (NC + 1);
  for (unsigned k = 0; k < ncls; k++) {
    lied_class *c = &cls[k];
    c->name = pool[byte(&b) % NPOOL];
    c->domain = byte(&b) % 8 ? "fuzz" : NULL;
    c->size = (size_t)(byte(&b) % 9) * 8 + (byte(&b) % 5 == 0 ? 4 : 0);
    c->meta = byte(&b) % 8 ? meta : NULL;
    unsigned np = byte(&b) % (NP + 1);
    for (unsigned j = 0; j < np; j++) {
      lied_param *p = &params[k][j];
      p->name = pool[byte(&b) % NPOOL];
      p->offset = (size_t)byte(&b) % 96;
      p->len = (int)(byte(&b) % 6) - 1;
      p->flags = byte(&b) % 4 == 0 ? LIED_PARAM_INT : 0;
      unsigned r = byte(&b) % 4;
      p->min = r == 0 ? NAN : r == 1 ? 1 : 0;
      p->max = r == 2 ? -1 : 1e9;
      p->unit = "1";
    }
    c->params = byte(&b) % 8 ? params[k] : NULL;
    c->nparams = (int)np + (byte(&b) % 8 == 0 ? 2 : 0) - (byte(&b) % 16 == 0 ? (int)np + 1 : 0);
    list[k] = c;
  }
  list[ncls] = NULL;
  const lied_library lib = {byte(&b) % 8 ? "fuzzlib" : NULL, "fuzz", byte(&b) % 16 ? list : NULL};
  char msg[512];
  const int null_lib = byte(&b) % 32 == 0; /* NULL: the versions alone are checked */
  if (lied_library_check(null_lib ? NULL : &lib, "fuzzlib", LIED_ABI_VERSION, LIED_VERSION_STRING,
                         msg, sizeof msg) != 0) {
    if (!msg[0]) fail("refused without a message", -1, -1);
    return 0;
  }
  if (null_lib) return 0;
  for (unsigned k = 0; lib.classes && k < ncls; k++) {
    const lied_class *c = lib.classes[k];
    if (!identifier(c->name) || !c->domain || !c->meta || c->size == 0) fail("class fields", (int)k, -1);
    for (unsigned i = 0; i < k; i++)
      if (!strcmp(lib.classes[i]->name, c->name)) fail("two classes of one name", (int)k, -1);
    if (c->nparams < 0 || (c->nparams > 0 && !c->params)) fail("nparams", (int)k, -1);
    for (int j = 0; j < c->nparams; j++) {
      const lied_param *p = &c->params[j];
      const size_t elem = p->flags & LIED_PARAM_INT ? sizeof(int) : sizeof(double);
      if (!identifier(p->name)) fail("parameter name", (int)k, j);
      for (int i = 0; i < j; i++)
        if (!strcmp(c->params[i].name, p->name)) fail("two parameters of one name", (int)k, j);
      if (p->len < 0 || p->offset % elem || p->offset + elem * (size_t)(p->len > 1 ? p->len : 1) > c->size)
        fail("parameter storage", (int)k, j);
      if (!(p->min <= p->max)) fail("parameter range", (int)k, j);
    }
  }
  return 0;
}
