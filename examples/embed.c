/* embed.c - lied from C (lied/lied.h): load a model file, override a
 * parameter, run, read a column by name. No Lua in sight.
 *
 *   cc embed.c $(pkg-config --cflags --libs lied) -o embed
 *   ./embed examples/vessels.lua t1.level
 */
#include <stdio.h>
#include <stdlib.h>
#include "lied/lied.h"

int main(int argc, char **argv) {
  const char *file = argc > 1 ? argv[1] : "examples/vessels.lua";
  const char *var = argc > 2 ? argv[2] : "t1.level";
  lied_ctx *ctx;
  lied_status st = lied_open(&ctx);
  if (st != LIED_OK) {
    fprintf(stderr, "embed: %s: %s\n", lied_status_name(st), ctx ? lied_errmsg(ctx) : "");
    lied_close(ctx);
    return 1;
  }
  const double *t, *v;
  size_t n;
  if ((st = lied_load_file(ctx, file)) != LIED_OK ||
      (st = lied_option(ctx, "stop", "10")) != LIED_OK ||
      (st = lied_option(ctx, "vars", var)) != LIED_OK || (st = lied_build(ctx)) != LIED_OK ||
      (st = lied_run(ctx)) != LIED_OK || (st = lied_result(ctx, "time", &t, &n)) != LIED_OK ||
      (st = lied_result(ctx, var, &v, &n)) != LIED_OK) {
    fprintf(stderr, "embed: %s: %s\n", lied_status_name(st), lied_errmsg(ctx));
    lied_close(ctx);
    return st == LIED_E_USAGE ? 2 : 1;
  }
  printf("lied %s: %s, %zu rows\n", lied_version(), file, n);
  for (size_t i = 0; i + 1 < n; i += n / 5 > 0 ? n / 5 : 1) printf("  t = %-8g %s = %.6g\n", t[i], var, v[i]);
  printf("  t = %-8g %s = %.6g\n", t[n - 1], var, v[n - 1]);
  lied_close(ctx);
  return 0;
}
