/* start.c - a run's steady start: the states a list of names or glob
 * patterns selects start at their steady state (der = 0 solved for them),
 * the other states held at their start values; Modelica's `initial
 * equation der(x) = 0` for the states chosen (docs/analysis.md, "A steady
 * start"). */
#include <stdlib.h>
#include <string.h>
#include "analysis/analysis.h"
#include "core/text.h"
#include "solve/events.h"

#define START_NAME_MAX 512

/* Nonzero when name matches one of the comma-separated patterns of list
 * (item: room for strlen(list) + 1). */
static int selected(const char *list, const char *name, char *item) {
  for (const char *pat; (pat = lied_list_next(&list, item));)
    if (*pat && lied_glob(pat, name)) return 1;
  return 0;
}

int lied_steady_start(lied_sched *s, const lied_start_opts *o, double *x, lied_start_stats *st,
                      lied_err *e) {
  memset(st, 0, sizeof *st);
  const uint64_t n = s->nstates;
  if (!o->states || !*o->states)
    return lied_errc(e, LIED_E_USAGE, "steady start: no states named");
  uint64_t *fixed = lied_xmalloc(sizeof *fixed * ((size_t)n + 1), "steady start", e);
  char *item = lied_xmalloc(strlen(o->states) + 1, "steady start", e);
  if (!fixed || !item) {
    free(fixed);
    free(item);
    return LIED_E_NOMEM;
  }
  uint64_t nfixed = 0;
  char name[START_NAME_MAX];
  for (uint64_t i = 0; i < n; i++) {
    lied_sched_state_name(s, i, name, sizeof name);
    if (!selected(o->states, name, item)) fixed[nfixed++] = i;
  }
  free(item);
  st->free = (long)(n - nfixed);
  int rc = LIED_OK;
  if (nfixed == n)
    rc = lied_errc(e, LIED_E_USAGE, "steady start: no state matches '%s' (lied vars lists them)",
                   o->states);
  if (!rc) rc = lied_sched_prepare(s, o->t, e);
  if (!rc) {
    lied_sched_reset_states(s);
    lied_sched_gather_x(s, x);
    rc = lied_events_initial(s, o->t, x, e);
  }
  if (!rc) {
    lied_steady_opts so = {.t = o->t, .rtol = o->tol, .atol = o->tol, .fixed = fixed,
                           .nfixed = (int)nfixed, .stop = o->stop};
    lied_steady_stats ss;
    rc = lied_steady(s, &so, x, &ss, e);
    st->steps = ss.steps;
    st->rhs = ss.rhs;
    st->residual = ss.residual;
    if (rc) rc = lied_err_prefix(e, "steady start (%s): ", o->states);
  }
  free(fixed);
  return rc;
}
