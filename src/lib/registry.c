/* registry.c - the list of compiled component libraries: add one line here
 * for a new library; a new component goes into its library's class list. */
#include "lib/registry.h"
#include <string.h>

extern const lied_library lied_lib_testlib;
extern const lied_library lied_lib_mechanics;
extern const lied_library lied_lib_thermofluid;  /* (issue 3) */
extern const lied_library lied_lib_signals;
extern const lied_library lied_lib_thermal;

const lied_library *const lied_libraries[] = {
    &lied_lib_testlib,
    &lied_lib_mechanics,
    &lied_lib_thermofluid,
    &lied_lib_signals,
    &lied_lib_thermal,
    NULL,
};

const lied_library *lied_library_find(const char *name) {
  for (int i = 0; lied_libraries[i]; i++)
    if (strcmp(lied_libraries[i]->name, name) == 0) return lied_libraries[i];
  return NULL;
}
