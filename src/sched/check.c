/* check.c - sections that are singular whatever the state, found when the
 * model is built (sched.h, lied_sched_check_constant). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/sched.h"

/* The connector message for the section's first tearing variable whose
 * component has a port with a singular_error, or NULL. */
static const char *connector_message(const lied_sched *s, const lied_section *sec) {
  for (int p = 0; p < sec->k; p++) {
    const lied_template *t = &s->model->specs[sec->pairs[p].spec].tpl;
    for (int i = 0; i < t->nports; i++)
      if (t->ports[i].layout->conn->singular_error) return t->ports[i].layout->conn->singular_error;
  }
  return NULL;
}

/* "a, b, c": the components of instance q of the section's blocks, in
 * order, each once (at most 12, then "..."). */
static int section_components(const lied_sched *s, const lied_section *sec, uint64_t q, char *buf,
                              size_t cap, lied_err *e) {
  enum { MOST = 12 };
  int norder = 0;
  int *order = lied_model_arena_order(s->model, &norder, e);
  if (!order) return LIED_E_NOMEM;
  int seen_spec[MOST];
  uint64_t seen_inst[MOST];
  int shown = 0;
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < sec->nblk && n < cap; i++) {
    const lied_sec_block *b = &sec->blk[i];
    uint64_t inst;
    uint32_t off;
    int spec = lied_model_locate(s->model, order, norder, b->base + q * b->stride, &inst, &off);
    int dup = spec < 0;
    for (int k = 0; k < shown && !dup; k++) dup = seen_spec[k] == spec && seen_inst[k] == inst;
    if (dup) continue;
    if (shown == MOST) {
      n += (size_t)snprintf(buf + n, cap - n, ", ...");
      break;
    }
    seen_spec[shown] = spec, seen_inst[shown] = inst;
    char path[512];
    lied_model_path(s->model, spec, inst, path, sizeof path);
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", shown++ ? ", " : "", path);
  }
  free(order);
  return LIED_OK;
}

/* The constant part once: a fault a block reports there with
 * lied_block_fault_model is one of the model, an error now; any other is
 * left to the run, which runs the part again. */
static int check_model_faults(lied_sched *s, lied_err *e) {
  const lied_sched_stats st = s->st;
  const lied_env env = lied_sched_env(s, 0.0);
  lied_err tmp = {0};
  (void)lied_sched_run(s, LIED_PART_CONST, LIED_EVAL_OUTPUTS, &env, &tmp);
  int rc = LIED_OK;
  if (s->fault.where && s->fault.model) {
    char path[512];
    rc = lied_sched_fault_path(s, path, sizeof path, e);
    if (rc == LIED_OK) rc = lied_errc(e, LIED_E_MODEL, "%s: %s", path, s->fault.msg);
  }
  s->fault.where = NULL, s->fault.model = 0;
  lied_sched_invalidate(s);
  s->st = st;
  return rc;
}

int lied_sched_check_constant(lied_sched *s, lied_err *e) {
  LIED_TRY(check_model_faults(s, e));
  int any = 0;
  for (int i = 0; i < s->nsecs; i++) any |= s->secs[i].constant;
  if (!any) return LIED_OK;
  double *x = lied_xcalloc((size_t)s->nstates + 1, sizeof *x, "state vector", e);
  if (!x) return LIED_E_NOMEM;
  const lied_sched_stats st = s->st;
  lied_sched_reset_states(s);
  lied_sched_gather_x(s, x);
  s->failed_sec = -1;
  lied_err tmp = {0};
  /* outputs too: a section only outputs read (a capacitor's junction between
   * two current sources, which no state reads) is as singular */
  int rc = lied_sched_evaluate(s, 0.0, x, NULL, 1, &tmp);
  free(x);
  const int sec = s->failed_sec;
  /* the run starts afresh: the constant part and factorisations again */
  lied_sched_invalidate(s);
  s->st = st;
  if (rc != LIED_E_SINGULAR || sec < 0 || !s->secs[sec].constant) return LIED_OK;
  const lied_section *c = &s->secs[sec];
  char comps[1024];
  LIED_TRY(section_components(s, c, s->failed_inst, comps, sizeof comps, e));
  const char *tears = strstr(tmp.msg, "tearing variables: ");
  if (s->failed_nonfinite) { /* not the structure: a value beyond the doubles */
    const char *why = strstr(tmp.msg, "cannot be solved: ");
    return lied_errc(e, LIED_E_MODEL, "the linear section of %s %s",
                     comps, why ? why : tmp.msg);
  }
  const char *what = connector_message(s, c);
  return lied_errc(e, LIED_E_MODEL,
                   "%s: the linear section of %s is singular whatever the state (its matrix "
                   "depends on parameters only); %s",
                   what ? what : "singular linear section", comps,
                   tears ? tears : "(no tearing variables named)");
}
