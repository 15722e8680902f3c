/* registry.h - the component libraries compiled into lied. */
#ifndef LIED_LIB_REGISTRY_H
#define LIED_LIB_REGISTRY_H
#include "lied/component.h"

/* NULL-terminated list of all libraries. */
extern const lied_library *const lied_libraries[];

const lied_library *lied_library_find(const char *name);

#endif
