/* dup_mechanics.c - built as mechanics.so: a plugin whose library name is
 * the built-in library's; require "mechanics" must refuse it. */
#include "lied/component.h"

static const lied_class *const classes[] = {NULL};
LIED_LIBRARY(mechanics, "a second library named mechanics", classes)
