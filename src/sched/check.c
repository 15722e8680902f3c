/* check.c - sections that are singular whatever the state, found when the
 * model is built (sched.h, lied_sched_check_constant); their message from
 * the section's notes (singular.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/sched.h"

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

/* The evaluation at the start values, *sec the section it failed in (-1:
 * none). A constant section singular in the modes its elements hold before
 * any handler ran (modal: a brake stuck on a prescribed speed) is probed
 * again after the start's initial calls have chosen them from the start
 * values (start, when given: solve/events.c), as a run starts. */
static int check_evaluate(lied_sched *s, lied_start_fn start, double *x, int *sec,
                          lied_err *tmp) {
  lied_sched_reset_states(s);
  lied_sched_gather_x(s, x);
  s->failed_sec = -1;
  /* outputs too: a section only outputs read (a capacitor's junction between
   * two current sources, which no state reads) is as singular */
  int rc = lied_sched_evaluate(s, 0.0, x, NULL, 1, tmp);
  *sec = s->failed_sec;
  if (*sec < 0 || !start || !lied_sched_modal_singular(s, &s->secs[*sec], rc)) return rc;
  s->failed_sec = -1;
  rc = start(s, 0.0, x, tmp);
  *sec = s->failed_sec;
  lied_sched_reset_states(s); /* the handlers' modes stay: the run's start chooses again */
  return rc;
}

int lied_sched_check_constant(lied_sched *s, lied_err *e) {
  return lied_sched_check_start(s, NULL, e);
}

int lied_sched_check_start(lied_sched *s, lied_start_fn start, lied_err *e) {
  LIED_TRY(check_model_faults(s, e));
  int any = 0;
  for (int i = 0; i < s->nsecs; i++) any |= s->secs[i].constant;
  if (!any) return LIED_OK;
  double *x = lied_xcalloc((size_t)s->nstates + 1, sizeof *x, "state vector", e);
  if (!x) return LIED_E_NOMEM;
  const lied_sched_stats st = s->st;
  lied_err tmp = {0};
  int sec;
  const int rc = check_evaluate(s, start, x, &sec, &tmp);
  free(x);
  /* the run starts afresh: the constant part and factorisations again */
  lied_sched_invalidate(s);
  s->st = st;
  if (rc != LIED_E_SINGULAR || sec < 0 || !s->secs[sec].constant) return LIED_OK;
  const lied_section *c = &s->secs[sec];
  char comps[1024], tears[1024];
  lied_sched_section_components(s, c, s->failed_inst, comps, sizeof comps);
  if (s->failed_nonfinite) { /* not the structure: a value beyond the doubles */
    char why[LIED_ERR_MAX];
    const char *from = strstr(tmp.msg, "cannot be solved: ");
    snprintf(why, sizeof why, "%s", from ? from : tmp.msg);
    char *sec_of = strstr(why, "; section of "); /* named before */
    if (sec_of) *sec_of = 0;
    return lied_errc(e, LIED_E_MODEL, "the linear section of %s %s", comps, why);
  }
  lied_sched_section_tears(s, c, s->failed_inst, tears, sizeof tears);
  const char *what = c->notes->hint;
  const int modal = lied_sched_section_modal(s, c);
  return lied_errc(e, LIED_E_MODEL,
                   "%s: the linear section of %s is singular whatever the state (its matrix "
                   "depends on parameters only%s); tearing variables: %s",
                   what ? what : "singular linear section", comps,
                   modal ? ", and on the modes its elements start in, chosen from the start "
                           "values" : "",
                   tears);
}
