/* fault.c - turning a block fault (lied_block_fault) into an error that
 * names the component and the time. */
#include <string.h>
#include "sched/sched.h"

/* The leaf spec whose arena holds p, and the instance; -1 when none does
 * (a fault without an instance). A linear scan: this runs once, on failure. */
static int owner(const lied_model *m, const void *p, uint64_t *inst) {
  const char *c = p;
  for (int i = 0; i < m->nspecs; i++) {
    const lied_spec *sp = &m->specs[i];
    if (!sp->cls || !sp->arena || !sp->size) continue;
    if (c >= sp->arena && c < sp->arena + sp->total * sp->size) {
      *inst = (uint64_t)(c - sp->arena) / sp->size;
      return i;
    }
  }
  return -1;
}

int lied_sched_fault(lied_sched *s, double t, lied_err *e) {
  if (!s->fault.where) return LIED_OK;
  uint64_t inst = 0;
  int spec = owner(s->model, s->fault.where, &inst);
  char path[512];
  if (spec >= 0)
    lied_model_path(s->model, spec, inst, path, sizeof path);
  else
    strcpy(path, "a component");
  int rc = lied_errc(e, LIED_E_RANGE, "at t = %.17g: %s: %s", t, path, s->fault.msg);
  s->fault.where = NULL;
  return rc;
}
