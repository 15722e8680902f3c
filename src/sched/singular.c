/* singular.c - what the message of a singular linear section says besides
 * its tearing variables: the components of its members and the hint of
 * their domain (a connector's singular_error, naming what to change). The
 * notes are made once the schedule is final; the probes (probe.c,
 * spprobe.c) and the check at build (check.c) write the message from them
 * when a section fails: nothing on the evaluation's path. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/sched.h"

const char *lied_sched_port_hint(const lied_template *t) {
  for (int i = 0; i < t->nports; i++)
    if (t->ports[i].layout->conn->singular_error) return t->ports[i].layout->conn->singular_error;
  return NULL;
}

/* The hint of the section's first tearing variable whose component has one. */
static void note_domain(const lied_model *m, const lied_section *sec, lied_sec_notes *n) {
  for (int p = 0; p < sec->k && !n->hint; p++)
    n->hint = lied_sched_port_hint(&m->specs[sec->pairs[p].spec].tpl);
}

/* A set of components (spec, instance) for counting a section's: open
 * addressing in a power of two of slots, at least twice the largest section's blocks;
 * the slots one section filled are emptied after it (used[0 .. nused)), so
 * notes cost time linear in the members. */
typedef struct comp_set {
  uint64_t *slot; /* the instance in a filled slot */
  int *spec;      /* -1 when empty */
  uint32_t *used, nused, mask;
} comp_set;

static uint32_t comp_hash(int spec, uint64_t inst, uint32_t mask) {
  uint64_t h = (inst + 1) * 0x9E3779B97F4A7C15u ^ (uint64_t)spec * 0xC2B2AE3D27D4EB4Fu;
  return (uint32_t)(h >> 32) & mask;
}

/* 1 when (spec, inst) was not in the set and is now. */
static int comp_add(comp_set *c, int spec, uint64_t inst) {
  uint32_t i = comp_hash(spec, inst, c->mask);
  for (; c->spec[i] >= 0; i = (i + 1) & c->mask)
    if (c->spec[i] == spec && c->slot[i] == inst) return 0;
  c->spec[i] = spec, c->slot[i] = inst;
  c->used[c->nused++] = i;
  return 1;
}

static void comp_clear(comp_set *c) {
  for (uint32_t k = 0; k < c->nused; k++) c->spec[c->used[k]] = -1;
  c->nused = 0;
}

static int comp_set_init(comp_set *c, int most, lied_err *e) {
  size_t n = 4;
  while (n < 2 * (size_t)most) n *= 2;
  c->mask = (uint32_t)(n - 1), c->nused = 0;
  c->slot = lied_xmalloc(sizeof *c->slot * n, "section notes", e);
  c->spec = lied_xmalloc(sizeof *c->spec * n, "section notes", e);
  c->used = lied_xmalloc(sizeof *c->used * (size_t)most, "section notes", e);
  if (!c->slot || !c->spec || !c->used) return LIED_E_NOMEM;
  memset(c->spec, 0xff, sizeof *c->spec * n);
  return LIED_OK;
}

/* The components of the members (each block located in the arenas: the
 * schedule's sections address instances, not lane groups): the first
 * LIED_SEC_SHOWN in member order, and how many. */
static void note_components(const lied_model *m, const int *order, int norder,
                            const lied_section *sec, lied_sec_notes *n, comp_set *set) {
  for (int i = 0; i < sec->nblk; i++) {
    uint64_t inst;
    uint32_t off;
    const int spec = lied_model_locate(m, order, norder, sec->blk[i].base, &inst, &off);
    if (spec < 0 || m->specs[spec].internal) continue; /* a sum node of the framework */
    if (!comp_add(set, spec, inst)) continue;
    if (n->shown < LIED_SEC_SHOWN) n->spec[n->shown] = spec, n->inst[n->shown++] = inst;
    n->ncomp++;
  }
  comp_clear(set);
}

int lied_sched_note_sections(lied_sched *s, lied_err *e) {
  int norder = 0, most = 1;
  for (int i = 0; i < s->nsecs; i++) most = s->secs[i].nblk > most ? s->secs[i].nblk : most;
  int *order = lied_model_arena_order(s->model, &norder, e);
  comp_set set = {0};
  int rc = order && comp_set_init(&set, most, e) == LIED_OK ? LIED_OK : LIED_E_NOMEM;
  for (int i = 0; i < s->nsecs && rc == LIED_OK; i++) {
    lied_section *sec = &s->secs[i];
    lied_sec_notes *n = sec->notes = lied_xcalloc(1, sizeof *n, "section notes", e);
    if (!n) {
      rc = LIED_E_NOMEM;
      break;
    }
    n->id = i;
    n->pair0 = sec->k ? sec->pairs[0].inst0 : 0;
    note_components(s->model, order, norder, sec, n, &set);
    note_domain(s->model, sec, n);
  }
  free(order);
  free(set.slot), free(set.spec), free(set.used);
  return rc;
}

/* The section instance of copy sec's instance q (see lied_sec_notes.pair0). */
static uint64_t section_instance(const lied_section *sec, uint64_t q) {
  if (!sec->notes || !sec->k) return q;
  return sec->pairs[0].inst0 + q - sec->notes->pair0;
}

void lied_sched_section_components(const lied_sched *s, const lied_section *sec, uint64_t q,
                                   char *buf, size_t cap) {
  const lied_sec_notes *n = sec->notes;
  size_t len = 0;
  if (cap) buf[0] = 0;
  if (!n || !cap) return;
  const uint64_t Q = section_instance(sec, q);
  for (int i = 0; i < n->shown && len < cap; i++) {
    char path[512];
    lied_model_path(s->model, n->spec[i], n->inst[i] + Q, path, sizeof path);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", path);
  }
  if (n->ncomp > (uint64_t)n->shown && len < cap)
    snprintf(buf + len, cap - len, " and %llu more",
             (unsigned long long)(n->ncomp - (uint64_t)n->shown));
}

void lied_sched_pair_var(const lied_sched *s, const lied_section *sec, int p, uint64_t q,
                         int var, char *buf, size_t cap) {
  const lied_sec_pair *sp = &sec->pairs[p];
  const lied_spec *spec = &s->model->specs[sp->spec];
  char path[512];
  lied_model_path(s->model, sp->spec, sp->inst0 + q, path, sizeof path);
  snprintf(buf, cap, "%s%s%s", path, *path ? "." : "", spec->tpl.vars[var].name);
}

void lied_sched_section_tears(const lied_sched *s, const lied_section *sec, uint64_t q, char *buf,
                              size_t cap) {
  const char *more = ", ...";
  size_t len = 0;
  buf[0] = 0;
  for (int p = 0; p < sec->k; p++) {
    const lied_template *t = &s->model->specs[sec->pairs[p].spec].tpl;
    char one[640];
    lied_sched_pair_var(s, sec, p, q, t->tears[sec->pairs[p].pair].tear_var, one, sizeof one);
    const size_t w = strlen(one) + (p ? 2 : 0);
    if (p == LIED_SEC_SHOWN || len + w + strlen(more) >= cap) {
      if (len + strlen(more) < cap) snprintf(buf + len, cap - len, "%s", more);
      return;
    }
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", p ? ", " : "", one);
  }
}

/* What the values say when the matrix may not be singular: residuals so
 * large that a column of size 1 is below their rounding (the probes' unit
 * steps lost: a state that diverged); NULL otherwise. */
static const char *rounding_note(double bmax, char *buf, size_t cap) {
  if (!(DBL_EPSILON * bmax >= 1)) return NULL;
  snprintf(buf, cap,
           "its residuals at zero tearing variables reach %.3g, so large that the probes' unit "
           "steps are lost in their rounding: the matrix may not be singular, the values are "
           "too large (a state that diverged: try a smaller step or an implicit solver)",
           bmax);
  return buf;
}

int lied_sched_singular(lied_sched *s, const lied_section *sec, uint64_t q, double t,
                        const char *detail, const char *nonfinite, double bmax, lied_err *e) {
  s->failed_sec = sec->notes ? sec->notes->id : -1;
  s->failed_inst = section_instance(sec, q);
  s->failed_nonfinite = nonfinite != NULL;
  char comps[700], tail[1200], tears[LIED_ERR_MAX], head[1600], note[320];
  lied_sched_section_components(s, sec, q, comps, sizeof comps);
  const char *hint = nonfinite ? NULL : rounding_note(bmax, note, sizeof note);
  if (!hint && !nonfinite && sec->notes) hint = sec->notes->hint;
  snprintf(tail, sizeof tail, "%s%s%s%s", *comps ? "; section of " : "", comps, hint ? "; " : "",
           hint ? hint : "");
  if (nonfinite) /* no structure to blame: a value beyond what doubles hold */
    snprintf(head, sizeof head,
             "at t = %.17g: the linear section cannot be solved: %s (a parameter or a start "
             "value too large or too small for doubles?); tearing variables: ", t, nonfinite);
  else
    snprintf(head, sizeof head, "at t = %.17g: singular linear section (%s); tearing variables: ",
             t, detail);
  lied_sched_section_tears(s, sec, q, tears, sizeof tears - strlen(head) - strlen(tail));
  return lied_errc(e, LIED_E_SINGULAR, "%s%s%s", head, tears, tail);
}
