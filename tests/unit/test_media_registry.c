/* test_media_registry.c - the registry of thermofluid media (media.c,
 * lied/thermofluid.h): lied's media are registered when the library loads,
 * found by id and kind; kind numbers of media without a fixed one come from
 * the id (the same in every process); bad descriptors are refused with the
 * reason, the same descriptor twice is one registration. */
#include <string.h>
#include "check.h"
#include "lied/thermofluid.h"

static double f_rho(const double *c, double p, double h) { return (void)c, (void)p, (void)h, 1000; }
static double f_T(const double *c, double p, double h) { return (void)c, (void)p, h / 4000; }
static double f_h(const double *c, double p, double T) { return (void)c, (void)p, 4000 * T; }
static double f_cp(const double *c, double p, double h) { return (void)c, (void)p, (void)h, 4000; }
static int f_from(const double *c, double rho, double u, double *p, double *h) {
  (void)c, (void)rho, (void)u, (void)p, (void)h;
  return -1;
}
static int f_check(const double *c, char *why, size_t cap) { return (void)c, (void)why, (void)cap, 0; }

#define GOOD(ID) {.name = "test medium", .rho = f_rho, .T = f_T, .h = f_h, .cp = f_cp, \
                  .from_rho_u = f_from, .check = f_check, .id = ID}

int main(void) {
  /* lied's own */
  const char *ids[] = {"liquid", "gas",   "steam",   "moist_air", "ideal_gas",
                       "moist_air_nasa", "R134a", "R1234yf", "R290",      "R744"};
  for (int i = 0; i < 10; i++) {
    const tf_medium *m = tf_medium_find(ids[i]);
    CHECK(m != NULL);
    if (!m) continue;
    CHECK(tf_medium_of_kind(tf_medium_kind(m)) == m);
    CHECK(strcmp(m->id, ids[i]) == 0);
    CHECK((m->props_ph != NULL) == (i >= 6)); /* the refrigerants have the two-phase calls */
    if (i < 6) CHECK(tf_medium_kind(m) == i + 1); /* the built-in kinds 1..6 */
  }
  CHECK(tf_medium_kind(tf_medium_find("steam")) == TF_STEAM);
  CHECK(tf_medium_kind(tf_medium_find("liquid")) == TF_LIQUID);
  /* ids without a fixed kind: 1000 + FNV-1a(id) mod 9e6, fixed numbers */
  CHECK(tf_medium_kind(tf_medium_find("R134a")) == 1346358);
  CHECK(tf_medium_kind(tf_medium_find("R744")) == 7360238);
  CHECK(tf_medium_count() >= 10);
  CHECK(tf_medium_at(-1) == NULL && tf_medium_at(tf_medium_count()) == NULL);
  CHECK(tf_medium_find("nope") == NULL && tf_medium_find(NULL) == NULL);
  CHECK(tf_medium_of_kind(7) == NULL && tf_medium_of_kind(3.5) == NULL);

  /* a new medium, registered once */
  static const tf_medium good = GOOD("brine_test");
  int n = tf_medium_count(), k = tf_medium_register(&good, sizeof good);
  CHECK(k > 1000 && k == tf_medium_kind(&good));
  CHECK(tf_medium_register(&good, sizeof good) == k && tf_medium_count() == n + 1);
  CHECK(tf_medium_find("brine_test") == &good && tf_medium_of_kind(k) == &good);

  /* refusals, each with its reason */
  static const tf_medium dup = GOOD("brine_test"), bad_id = GOOD("9lives"), space = GOOD("a b"),
                         no_id = GOOD(NULL), taken = {.name = "x", .rho = f_rho, .T = f_T,
                                                       .h = f_h, .cp = f_cp, .from_rho_u = f_from,
                                                       .check = f_check, .id = "steam2",
                                                       .kind = TF_STEAM},
                         no_rho = {.name = "x", .T = f_T, .h = f_h, .cp = f_cp,
                                   .from_rho_u = f_from, .check = f_check, .id = "norho"},
                         many_c = {.name = "x", .rho = f_rho, .T = f_T, .h = f_h, .cp = f_cp,
                                   .from_rho_u = f_from, .check = f_check, .id = "manyc", .nc = 6};
  CHECK(tf_medium_register(NULL, sizeof good) == -1);
  CHECK(strstr(tf_medium_error(), "no medium (NULL)"));
  CHECK(tf_medium_register(&dup, sizeof dup) == -1);
  CHECK(strstr(tf_medium_error(), "medium 'brine_test' is registered already"));
  CHECK(tf_medium_register(&good, sizeof good - 8) == -1);
  CHECK(strstr(tf_medium_error(), "compiled against another tf_medium"));
  CHECK(tf_medium_register(&bad_id, sizeof bad_id) == -1);
  CHECK(strstr(tf_medium_error(), "must be a C identifier (got '9lives')"));
  CHECK(tf_medium_register(&space, sizeof space) == -1);
  CHECK(tf_medium_register(&no_id, sizeof no_id) == -1);
  CHECK(strstr(tf_medium_error(), "(got '(null)')"));
  CHECK(tf_medium_register(&taken, sizeof taken) == -1);
  CHECK(strstr(tf_medium_error(), "its kind number 3 is medium 'steam''s"));
  CHECK(tf_medium_register(&no_rho, sizeof no_rho) == -1);
  CHECK(strstr(tf_medium_error(), "'norho': name, rho, T, h, cp, from_rho_u and check are required"));
  CHECK(tf_medium_register(&many_c, sizeof many_c) == -1);
  CHECK(strstr(tf_medium_error(), "'manyc': nc = 6"));
  CHECK(tf_medium_count() == n + 1);
  return CHECK_DONE();
}
