/* fault.h - the block fault channel (lied/component.h, lied_block_fault):
 * where the first fault of an evaluation is kept until the schedule turns
 * it into an error (sched/fault.c). One per schedule and per worker view,
 * so threads never share one. */
#ifndef LIED_CORE_FAULT_H
#define LIED_CORE_FAULT_H
#include "lied/component.h"

#define LIED_FAULT_MSG 200

struct lied_fault {
  const void *where; /* the instance (or lane word) that faulted; NULL: none */
  char msg[LIED_FAULT_MSG];
  int model; /* lied_block_fault_model: a fault of the model, reported at build */
};

#endif
