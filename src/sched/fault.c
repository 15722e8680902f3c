/* fault.c - turning a block fault (lied_block_fault) into an error that
 * names the component and the time. */
#include <stdio.h>
#include <stdlib.h>
#include "sched/sched.h"

int lied_sched_fault_path(lied_sched *s, char *path, size_t cap, lied_err *e) {
  /* the component that owns the address (on failure only: the arena order
   * is made here and freed) */
  uint64_t inst = 0;
  uint32_t off;
  int norder = 0;
  int *order = lied_model_arena_order(s->model, &norder, e);
  if (!order) return LIED_E_NOMEM;
  const int spec = lied_model_locate(s->model, order, norder, s->fault.where, &inst, &off);
  free(order);
  if (spec >= 0)
    lied_model_path(s->model, spec, inst, path, cap);
  else
    snprintf(path, cap, "a component");
  return LIED_OK;
}

int lied_sched_fault(lied_sched *s, double t, lied_err *e) {
  if (!s->fault.where) return LIED_OK;
  char path[512];
  int rc = lied_sched_fault_path(s, path, sizeof path, e);
  if (rc == LIED_OK)
    rc = lied_errc(e, LIED_E_RANGE, "at t = %.17g: %s: %s", t, path, s->fault.msg);
  s->fault.where = NULL, s->fault.model = 0;
  return rc;
}
