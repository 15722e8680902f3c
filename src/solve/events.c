/* events.c - time events, zero crossings and their handlers during a run
 * (events.h; the declarations are lied/component.h's). */
#include "solve/events.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether zero function z is looked at in a run that takes kinks or not. */
static int zero_used(const lied_tzero *z, int kinks) {
  return kinks || !(z->dir & LIED_ZC_KINK);
}

/* The zero functions of t a run looks at. */
static int zeros_used(const lied_template *t, int kinks) {
  int n = 0;
  for (int k = 0; k < t->nzeros; k++) n += zero_used(&t->zeros[k], kinks);
  return n;
}

static int has_events(const lied_template *t, int kinks) {
  return t->next_event || t->handler || zeros_used(t, kinks);
}

int lied_events_stateful(const lied_model *m) {
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (sp->cls && sp->total && (sp->tpl.handler || zeros_used(&sp->tpl, 0))) return 1;
  }
  return 0;
}

void lied_events_free(lied_events *V) {
  if (!V) return;
  free(V->inst);
  free(V->zero);
  free(V->zprev);
  free(V->xe);
  free(V->hit);
  free(V);
}

/* Whether block b of t reads, directly or through the blocks of the
 * instance it reads, nothing but ports, the time and states (no field that
 * is not written during a run: a parameter, a discrete variable). */
static int block_reads_inputs(const lied_template *t, int b, int depth) {
  if (b < 0 || b >= t->nblocks || depth > 64) return 0;
  const lied_tblock *B = &t->blocks[b];
  for (uint32_t r = B->in0; r < B->in0 + B->nin; r++) {
    const lied_tref *f = &t->refs[r];
    if (f->kind == LIED_REF_CONST) return 0;
    if (f->kind == LIED_REF_INTERNAL && !block_reads_inputs(t, f->a, depth + 1)) return 0;
  }
  return 1;
}

/* Whether zero function k of t is a function of its instance's inputs
 * alone (a timer's input u - 1/2; lied_ev_zero.watch). */
static int zero_watches(const lied_template *t, int k) {
  const uint32_t off = t->zeros[k].offset;
  for (int i = 0; i < t->nouts; i++)
    if (t->outs[i].lo <= off && off < t->outs[i].hi)
      return block_reads_inputs(t, t->outs[i].block, 0);
  return 0;
}

/* The instances with events and their zero functions, in spec and copy
 * order (the order handlers run in). */
static int collect(lied_events *V, const lied_model *m, lied_err *e) {
  const int kinks = V->R->kinks;
  uint64_t ni = 0, nz = 0;
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (!sp->cls || !has_events(&sp->tpl, kinks)) continue;
    ni += sp->total;
    nz += sp->total * (uint64_t)zeros_used(&sp->tpl, kinks);
  }
  if (nz > UINT32_MAX || ni > UINT32_MAX)
    return lied_errc(e, LIED_E_LIMIT, "events: at most %lu instances with events",
                     (unsigned long)UINT32_MAX);
  V->inst = lied_xcalloc((size_t)ni + 1, sizeof *V->inst, "events", e);
  V->zero = lied_xcalloc((size_t)nz + 1, sizeof *V->zero, "events", e);
  V->zprev = lied_xcalloc(5 * (size_t)nz + 1, sizeof(double), "events", e);
  V->xe = lied_xcalloc(3 * (size_t)V->R->n + 1, sizeof(double), "events", e);
  V->hit = lied_xcalloc((size_t)nz + 1, 1, "events", e);
  if (!V->inst || !V->zero || !V->zprev || !V->xe || !V->hit) return LIED_E_NOMEM;
  V->za = V->zprev + nz, V->zb = V->za + nz, V->zm = V->zb + nz, V->z1 = V->zm + nz;
  V->xa = V->xe + V->R->n, V->xf = V->xa + V->R->n;
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    const lied_template *t = &sp->tpl;
    if (!sp->cls || !has_events(t, kinks)) continue;
    for (uint64_t q = 0; q < sp->total; q++) {
      char *self = lied_inst(sp, q);
      for (int k = 0; k < t->nzeros; k++)
        if (zero_used(&t->zeros[k], kinks))
          V->zero[V->nzero++] =
              (lied_ev_zero){(const double *)(void *)(self + t->zeros[k].offset),
                             t->zeros[k].dir & ~LIED_ZC_KINK, (uint32_t)V->ninst, k,
                             (t->zeros[k].dir & LIED_ZC_KINK) != 0, zero_watches(t, k)};
      for (int k = 0; k < t->nzeros; k++) V->nkink += kinks && (t->zeros[k].dir & LIED_ZC_KINK);
      V->inst[V->ninst++] = (lied_ev_inst){self, t, s, q, INFINITY, 0, 0};
    }
  }
  return LIED_OK;
}

int lied_events_new(lied_events **out, lied_run *R) {
  *out = NULL;
  R->t_cut = R->t_left = INFINITY;
  R->t_row = -INFINITY;
  const lied_model *m = R->s->model;
  int any = 0;
  for (int s = 0; s < m->nspecs && !any; s++)
    any = m->specs[s].cls && m->specs[s].total && has_events(&m->specs[s].tpl, R->kinks);
  if (!any) return LIED_OK;
  lied_events *V = lied_xcalloc(1, sizeof *V, "events", R->e);
  if (!V) return LIED_E_NOMEM;
  V->R = R;
  V->tlast = V->tkink = -INFINITY;
  int rc = collect(V, m, R->e);
  if (rc) {
    lied_events_free(V);
    return rc;
  }
  if (V->nzero) R->hmax = fmin(R->hmax, R->every_step ? R->span / 500 : R->interval);
  *out = V;
  return LIED_OK;
}

static void inst_path(const lied_events *V, const lied_ev_inst *I, char *buf, size_t cap) {
  lied_model_path(V->R->s->model, I->spec, I->inst, buf, cap);
}

/* Evaluate at (t, x) and read the zero functions into z. `right`: at t
 * itself, not its left limit (the values after an event). */
static int eval_z(lied_events *V, double t, const double *x, double *z, int right) {
  lied_run *R = V->R;
  const double te = right ? t : lied_run_time(R, t);
  int rc = lied_sched_evaluate(R->s, te, x, NULL, 1, R->e);
  if (rc == LIED_E_SINGULAR && V->lenient) { /* the modes may not be chosen yet */
    int unsolved; /* what it left unknown is NaN: the handlers' choice */
    rc = lied_sched_evaluate_start(R->s, te, x, &unsolved, R->e);
    V->unknown |= unsolved;
  }
  LIED_TRY(rc);
  if (R->st) R->st->zero_evals++; /* none outside a run (lied_events_initial) */
  for (uint64_t i = 0; i < V->nzero; i++) z[i] = *V->zero[i].z;
  return LIED_OK;
}

static int crosses(int dir, double a, double b) {
  return (dir != LIED_ZC_DOWN && a <= 0 && b > 0) || (dir != LIED_ZC_UP && a > 0 && b <= 0);
}

/* The next time event of instance I after t, checked. */
static int next_time(lied_events *V, lied_ev_inst *I, double t) {
  if (!I->tpl->next_event) return LIED_OK;
  double tn = I->tpl->next_event(I->self, t);
  if (!(tn > t)) {
    char path[512];
    inst_path(V, I, path, sizeof path);
    return lied_errc(V->R->e, LIED_E_MODEL,
                     "at t = %.17g: %s (%s): its next time event %.17g is not after the "
                     "current time",
                     t, path, V->R->s->model->specs[I->spec].cls->name, tn);
  }
  I->tnext = tn;
  return LIED_OK;
}

/* R->t_cut from the earliest time event. */
static void set_cut(lied_events *V) {
  double tn = INFINITY;
  for (uint64_t i = 0; i < V->ninst; i++)
    if (V->inst[i].tnext < tn) tn = V->inst[i].tnext;
  V->tnext = tn;
  V->R->t_cut = tn;
  V->R->t_left = isfinite(tn) ? nextafter(tn, -INFINITY) : INFINITY;
}

/* Whether instance I's handler is one of an instance with time events
 * (the sampled blocks, the timers; `clocked`) or without (`!clocked`). */
static int handles(const lied_ev_inst *I, int clocked) {
  return I->tpl->handler && !I->tpl->next_event == !clocked;
}

/* ---- locating a crossing ---- */

/* Events closer than this to one another count as one instant (chattering,
 * kinks again at once). */
static double resolution(double t) { return fmax(1e-12, 16 * DBL_EPSILON * fabs(t)); }

/* Zero functions crossing between values a and b: the earliest root
 * estimate of the secant through (ta, wa a_i) and (tb, wb b_i) over them
 * (weights of the Illinois method), or NAN when none crosses. */
static double secant(const lied_events *V, const double *a, const double *b, double ta,
                     double tb, double wa, double wb) {
  double tm = NAN;
  for (uint64_t i = 0; i < V->nzero; i++) {
    if (!crosses(V->zero[i].dir, a[i], b[i])) continue;
    double fa = wa * a[i], fb = wb * b[i];
    double f = fa == fb ? 0.5 : fa / (fa - fb);
    double c = ta + (f > 0 && f < 1 ? f : 0.5) * (tb - ta);
    if (!(c >= tm)) tm = c;
  }
  return tm;
}

static int any_cross(const lied_events *V, const double *a, const double *b) {
  for (uint64_t i = 0; i < V->nzero; i++)
    if (crosses(V->zero[i].dir, a[i], b[i])) return 1;
  return 0;
}

/* Whether the zero functions crossing from a to b are kinks only
 * (`only`) or include one (else). */
static int kinks_cross(const lied_events *V, const double *a, const double *b, int only) {
  for (uint64_t i = 0; i < V->nzero; i++)
    if (crosses(V->zero[i].dir, a[i], b[i]) && V->zero[i].kink != only) return !only;
  return only;
}

/* The zero functions crossing from a to b marked: their owners' crossed
 * bits and hit. */
static void mark(lied_events *V, const double *a, const double *b) {
  for (uint64_t i = 0; i < V->nzero; i++)
    if (crosses(V->zero[i].dir, a[i], b[i])) {
      V->inst[V->zero[i].owner].crossed |= 1u << V->zero[i].k;
      V->hit[i] = 1;
    }
}

/* Whether a zero function crossing from za to zb (the located bracket
 * [ta, tb] of a step from t0 to t1) crosses transversally: its slope over
 * the bracket within 1e3 times its slope over the step (V->zprev to V->z1).
 * A function resting at 0 with the sign of rounding errors (a flow at rest,
 * an input at a limit, two equal inputs of a Max) gives slopes of about
 * (t1 - t0) / (tb - ta) >= 1e9 times the step's: no kink crosses there. */
static int transversal(const lied_events *V, double ta, double tb, double t0, double t1) {
  for (uint64_t i = 0; i < V->nzero; i++) {
    if (!crosses(V->zero[i].dir, V->za[i], V->zb[i])) continue;
    const double local = fabs(V->zb[i] - V->za[i]) / (tb - ta);
    const double step = fabs(V->z1[i] - V->zprev[i]) / (t1 - t0);
    if (local <= 1e3 * step) return 1;
  }
  return 0;
}

/* Narrow [*ta, *tb] (za, zb: the zero functions there, xe: the state at
 * *tb) to the first crossing, within 1e-12 of the step: secant steps
 * (Illinois: the weight of an end kept twice in a row halved), bisection
 * once an end is kept three times. (Kinks alone in a step that stands
 * wherever they lie are not bracketed at all: kinks_stand.) */
static int bracket(lied_events *V, lied_dense_fn dense, void *ctx, double *pa, double *pb) {
  const uint64_t nz = V->nzero, n = V->R->n;
  double ta = *pa, tb = *pb, wa = 1, wb = 1;
  const double tol = fmax(1e-12 * (tb - ta), 4 * DBL_EPSILON * fmax(fabs(ta), fabs(tb)));
  int kept = 0; /* +k: ta kept k times in a row, -k: tb */
  for (int it = 0; it < 200 && tb - ta > tol; it++) {
    double w = tb - ta;
    double tm = (kept > 2 || kept < -2) ? ta + 0.5 * w : secant(V, V->za, V->zb, ta, tb, wa, wb);
    if (!(tm >= ta + 0.25 * tol)) tm = ta + 0.25 * tol;
    if (!(tm <= tb - 0.25 * tol)) tm = tb - 0.25 * tol;
    const double *xm;
    LIED_TRY(dense(ctx, tm, &xm));
    memcpy(V->xa, xm, sizeof(double) * n);
    LIED_TRY(eval_z(V, tm, V->xa, V->zm, 0));
    if (any_cross(V, V->za, V->zm)) { /* the first crossing is in [ta, tm] */
      tb = tm;
      memcpy(V->zb, V->zm, sizeof(double) * nz);
      memcpy(V->xe, V->xa, sizeof(double) * n);
      kept = kept > 0 ? kept + 1 : 1;
      wa = kept > 1 ? wa * 0.5 : 1, wb = 1;
    } else {
      ta = tm;
      memcpy(V->za, V->zm, sizeof(double) * nz);
      kept = kept < 0 ? kept - 1 : -1;
      wb = kept < -1 ? wb * 0.5 : 1, wa = 1;
    }
  }
  *pa = ta, *pb = tb;
  return LIED_OK;
}

/* Kinks alone crossing (V->zprev to V->zb) in a step that stands wherever
 * they lie (cvode: over = INFINITY): not bracketed, since the bracket could
 * only tell a kink from a function at rest about 0, and the step stands
 * either way; counted once, as a step across kinks. Each evaluation of the
 * zero functions is one of the whole model, and a network's kinks grow with
 * its size: bracketing them made the cost grow as its square
 * (docs/events.md, "cvode steps across kinks"). 1 when so (zprev moved on). */
static int kinks_stand(lied_events *V, double over, double t1) {
  if (!isinf(over) || !kinks_cross(V, V->zprev, V->zb, 1)) return 0;
  V->R->st->kinks++;
  V->tkink = t1;
  memcpy(V->zprev, V->zb, sizeof(double) * V->nzero);
  return 1;
}

int lied_events_locate(lied_events *V, double t0, double t1, const double *x1,
                       lied_dense_fn dense, void *ctx, int kink_end, double retake,
                       double over, double *te, const double **xe) {
  if (!V || !V->nzero) return 0;
  lied_run *R = V->R;
  const uint64_t nz = V->nzero, n = R->n;
  LIED_TRY(eval_z(V, t1, x1, V->zb, 0));
  if (!any_cross(V, V->zprev, V->zb)) {
    memcpy(V->zprev, V->zb, sizeof(double) * nz);
    return 0;
  }
  if (kinks_cross(V, V->zprev, V->zb, 1) && t1 - V->tkink <= resolution(t1)) {
    /* kinks again at the last kink's instant (a flow at rest about 0):
     * stepped across, no event (a kink switches nothing) */
    memcpy(V->zprev, V->zb, sizeof(double) * nz);
    return 0;
  }
  if (kinks_stand(V, over, t1)) return 0;
  if (kink_end && kinks_cross(V, V->zprev, V->zb, 1)) { /* the step taken again to the kink */
    mark(V, V->zprev, V->zb);
    memcpy(V->xe, x1, sizeof(double) * n);
    *te = t1;
    *xe = V->xe;
    return 1;
  }
  double ta = t0, tb = t1;
  memcpy(V->za, V->zprev, sizeof(double) * nz);
  memcpy(V->z1, V->zb, sizeof(double) * nz);
  memcpy(V->xe, x1, sizeof(double) * n);
  LIED_TRY(bracket(V, dense, ctx, &ta, &tb));
  if (kinks_cross(V, V->za, V->zb, 1) &&
      (tb - V->tkink <= resolution(tb) || !transversal(V, ta, tb, t0, t1))) {
    /* as above, or kinks at rest about 0: no kink */
    memcpy(V->zprev, V->z1, sizeof(double) * nz);
    return 0;
  }
  if (t1 - tb <= over && kinks_cross(V, V->za, V->zb, 1) && kinks_cross(V, V->zprev, V->z1, 1)) {
    /* kinks alone just before the step's end: the step stands */
    R->st->kinks++;
    V->tkink = t1;
    memcpy(V->zprev, V->z1, sizeof(double) * nz);
    return 0;
  }
  *te = tb;
  /* a kink: the dense output beyond it followed the other branch; the
   * step is taken again to end there, unless it lies within 1e-8 of the
   * step from its start (a kink function leaving 0 slowly, a flow that
   * starts from rest: its rounding crosses just after every start), where
   * the dense output is as good as a step; nor when the crossing is at
   * the step's end (a kink and a state event at one instant: the step
   * taken again to the kink would end where it ends, again and again) */
  if (tb < t1 && tb - t0 >= fmax(retake, 1e-8 * (t1 - t0)) && kinks_cross(V, V->za, V->zb, 0))
    return 2;
  mark(V, V->za, V->zb);
  *xe = V->xe;
  return 1;
}

/* ---- handling an event ---- */

static int chatter(lied_events *V, double te) {
  double res = resolution(te);
  V->streak = te - V->tlast <= res ? V->streak + 1 : 0;
  V->tlast = te;
  if (V->streak < LIED_CHATTER_COUNT) return LIED_OK;
  const lied_ev_inst *who = NULL;
  for (uint64_t i = 0; i < V->ninst && !who; i++)
    if (V->inst[i].crossed || V->inst[i].due) who = &V->inst[i];
  char path[512] = "?";
  if (who) inst_path(V, who, path, sizeof path);
  /* a time event (a sampler's period) is no switching back and forth */
  const int timed = who && !who->crossed;
  return lied_errc(V->R->e, LIED_E_SOLVER,
                   "at t = %.17g: chattering: %s triggered %d events less than %g s apart %s",
                   te, path, V->streak + 1, res,
                   timed ? "(its time events: a period or delay that short is below what the "
                           "run resolves; give it a longer one)"
                         : "(the model switches back and forth; give it hysteresis or a delay)");
}

/* Whether instance I watches zero functions of its own (not kinks only):
 * its time events are jumps of the instant (a timer's end, a friction's
 * check), the others' are samples (docs/events.md, "The order at an
 * event"). */
static int watches(const lied_ev_inst *I) { return zeros_used(I->tpl, 0) > 0; }

/* The handlers of one phase of an event instant (docs/events.md, "The
 * order at an event"): the instances whose zero functions crossed (`phase`
 * 0), those whose time event is due and that watch zero functions (1: the
 * timers' ends), or the other due ones (2: the sampled blocks; an instance
 * with a time event and no handler only has its next time event found).
 * *called: the handlers called. */
static int call_handlers(lied_events *V, double te, int phase, int *called) {
  *called = 0;
  for (uint64_t i = 0; i < V->ninst; i++) {
    lied_ev_inst *I = &V->inst[i];
    if (phase ? !I->due || watches(I) != (phase == 1) : !I->crossed) continue;
    if (I->tpl->handler) {
      const lied_event ev = {te, 0, phase != 0, phase ? 0u : I->crossed};
      I->tpl->handler(I->self, &ev);
      (*called)++;
    }
    if (phase) {
      LIED_TRY(next_time(V, I, te));
      I->due = 0;
    } else {
      /* a handler may schedule a time event (an on-delay started by its input) */
      if (I->tpl->handler) LIED_TRY(next_time(V, I, te));
      I->crossed = 0;
    }
  }
  return LIED_OK;
}

static int not_settled(lied_events *V, double te) {
  const lied_ev_inst *who = NULL;
  for (uint64_t i = 0; i < V->ninst && !who; i++)
    if (V->inst[i].crossed) who = &V->inst[i];
  char path[512] = "?";
  if (who) inst_path(V, who, path, sizeof path);
  return lied_errc(V->R->e, LIED_E_SOLVER,
                   "at t = %.17g: the event does not settle: %s still switches after %d rounds "
                   "of event handlers",
                   te, path, LIED_EVENT_ROUNDS);
}

/* A zero function that just crossed sits at the crossing, within the
 * location's tolerance, possibly on the wrong side of zero for what comes
 * next (a ball at y = -1e-12 moving up). Its sign is taken a moment later
 * along the motion after the event, at te + d with x + d f (d well above
 * the location's tolerance). When it crosses in its declared direction in
 * that moment, the event fires again at once (*again; a relay that keeps
 * doing so is chattering); otherwise later crossings are measured from
 * there. */
static int look_ahead(lied_events *V, double te, const double *x, int *again) {
  lied_run *R = V->R;
  int any = 0;
  *again = 0;
  for (uint64_t i = 0; i < V->nzero; i++) any |= V->hit[i];
  if (!any) return LIED_OK;
  const uint64_t n = R->n;
  const double d = fmax(1e-10 * R->span, 64 * DBL_EPSILON * fabs(te));
  LIED_TRY(lied_sched_evaluate(R->s, te, x, V->xf, 0, R->e));
  for (uint64_t q = 0; q < n; q++) V->xa[q] = x[q] + d * V->xf[q];
  LIED_TRY(eval_z(V, te + d, V->xa, V->zm, 0));
  for (uint64_t i = 0; i < V->nzero; i++) {
    if (!V->hit[i]) continue;
    /* a kink switches nothing: one crossing back at once (a flow at rest
     * about 0) is no second event of the instant */
    if (!V->zero[i].kink && crosses(V->zero[i].dir, V->zprev[i], V->zm[i])) {
      V->inst[V->zero[i].owner].crossed |= 1u << V->zero[i].k;
      *again = 1;
    } else {
      V->zprev[i] = V->zm[i];
      V->hit[i] = 0;
    }
  }
  return LIED_OK;
}

/* The event instant te (docs/events.md, "The order at an event"):
 *  1. the model at te itself: every output that is a function of time has
 *     jumped; a zero function that the jump made cross (a threshold on a
 *     Step) is a state event of this instant (`jumps`: compare with the
 *     left limit; only at a time event, the first pass);
 *  2. the handlers of the zero functions that crossed, in rounds, each
 *     round reading one evaluation after the last, until none crosses;
 *  3. the handlers of the time events due of the instances that watch zero
 *     functions (a timer's end), once, reading the inputs settled by 2;
 *     then 2 again for what they make cross;
 *  4. the handlers of the other time events due (the sampled blocks),
 *     once, all reading one evaluation after every jump of 1 to 3;
 *  5. zero functions that the samples made cross: back to 2.
 * The zero functions' values after, into V->zprev. */
static int settle(lied_events *V, double te, double *x, int jumps) {
  lied_sched *s = V->R->s;
  const uint64_t nz = V->nzero;
  double *zcur = V->za, *znew = V->zb;
  if (nz && jumps) LIED_TRY(eval_z(V, te, x, znew, 0)); /* the left limit */
  LIED_TRY(eval_z(V, te, x, zcur, 1));
  if (nz && jumps) mark(V, znew, zcur);
  int phase = 0; /* the phases of time events done (3, 4 above) */
  for (int round = 0;; round++) {
    if (round == LIED_EVENT_ROUNDS) return not_settled(V, te);
    int called;
    LIED_TRY(call_handlers(V, te, 0, &called));
    while (!called && phase < 2) LIED_TRY(call_handlers(V, te, ++phase, &called));
    if (!called) break;
    lied_sched_invalidate(s);
    lied_sched_gather_x(s, x);
    LIED_TRY(eval_z(V, te, x, znew, 1));
    double *tmp = zcur;
    zcur = znew, znew = tmp;
    if (nz) mark(V, znew, zcur);
  }
  if (nz) memcpy(V->zprev, zcur, sizeof(double) * nz);
  return LIED_OK;
}

int lied_events_fire(lied_events *V, double te, double *x) {
  lied_run *R = V->R;
  const int jumps = V->tnext <= te;
  int rows = jumps; /* a kink alone: nothing jumps, no rows */
  for (uint64_t i = 0; i < V->nzero && !rows; i++) rows = V->hit[i] && !V->zero[i].kink;
  V->quiet = !rows;
  for (uint64_t i = 0; i < V->nzero && V->quiet; i++)
    V->quiet = !V->hit[i] || !V->inst[V->zero[i].owner].tpl->handler;
  if (rows) {
    R->st->events++;
  } else {
    R->st->kinks++;
    V->tkink = te;
  }
  if (rows && R->out && R->t_row != te) LIED_TRY(lied_run_record(R, te, x)); /* the row before */
  for (uint64_t i = 0; i < V->ninst; i++)
    if (V->inst[i].tnext <= te) V->inst[i].due = 1;
  for (int again = 1, pass = 0; again; pass++) {
    if (rows) LIED_TRY(chatter(V, te));
    LIED_TRY(settle(V, te, x, jumps && !pass));
    set_cut(V);
    again = 0;
    if (V->nzero) LIED_TRY(look_ahead(V, te, x, &again));
  }
  if (rows && R->out) { /* the row after (set_cut moved the cut past te) */
    R->t_row = -INFINITY;
    LIED_TRY(lied_run_record(R, te, x));
  }
  return LIED_OK;
}

/* ---- the start of a run ---- */

/* The initial calls of one kind of instances (handles; `clocked`: those
 * marked by their `due`, which is cleared); returns how many were called. */
static int initial_calls(lied_events *V, double t, int clocked) {
  const lied_event ev = {t, 1, 0, 0};
  int n = 0;
  for (uint64_t i = 0; i < V->ninst; i++) {
    lied_ev_inst *I = &V->inst[i];
    if (!handles(I, clocked) || (clocked && !I->due)) continue;
    I->tpl->handler(I->self, &ev);
    I->due = 0;
    n++;
  }
  return n;
}

/* The start that does not settle. When its evaluations left a section
 * unknown, the handlers may be switching between a mode in which it is
 * singular and one they leave (a diode whose blocking mode cannot carry the
 * current forced through it and whose conducting mode reverses it): the
 * section's own message, from an evaluation in the modes it is left in,
 * says more than the rounds, or else the next round's. */
static int start_not_settled(lied_events *V, double t, double *x) {
  for (int k = 0; k < 2 && V->lenient && V->unknown; k++) {
    LIED_TRY(lied_sched_evaluate(V->R->s, t, x, NULL, 1, V->R->e));
    if (!k) initial_calls(V, t, 0);
    lied_sched_invalidate(V->R->s);
    lied_sched_gather_x(V->R->s, x);
  }
  return lied_errc(V->R->e, LIED_E_SOLVER,
                   "at t = %.17g: the start does not settle: the event handlers' initial calls "
                   "still change the zero functions after %d rounds",
                   t, LIED_EVENT_ROUNDS);
}

/* The initial calls of the instances without time events, in rounds (at
 * least two) until their zero functions repeat: a Hysteresis reading
 * another's output takes its start position from the other's, not from
 * what a run before left in it. Their values after, into V->zprev. */
static int initial_plain(lied_events *V, double t, double *x) {
  lied_sched *s = V->R->s;
  const uint64_t nz = V->nzero;
  double *zcur = V->za, *znew = V->zb;
  LIED_TRY(eval_z(V, t, x, zcur, 1));
  for (int round = 0;; round++) {
    if (round == LIED_EVENT_ROUNDS) return start_not_settled(V, t, x);
    if (!initial_calls(V, t, 0)) break;
    lied_sched_invalidate(s);
    lied_sched_gather_x(s, x);
    LIED_TRY(eval_z(V, t, x, znew, 1));
    int same = 1;
    for (uint64_t i = 0; i < nz && same; i++)
      same = znew[i] == zcur[i] || (isnan(znew[i]) && isnan(zcur[i]));
    double *tmp = zcur;
    zcur = znew, znew = tmp;
    if (same && round > 0) break;
  }
  if (nz) memcpy(V->zprev, zcur, sizeof(double) * nz);
  return LIED_OK;
}

/* Mark (due) the instances with time events and a handler that an input
 * they read at their last initial call has changed since: a zero function
 * of their inputs alone (watch) moved from V->z1 (before the calls) to
 * V->zprev (after them and the plain rounds that followed: a timer on
 * another timer, or after a comparison on a sampler's start value), or any
 * other moved from V->zm (just after the calls: their own changes are no
 * reason to call them again), or any is NaN after the start left a section
 * unknown. Returns whether there are any. */
static int clocked_moved(lied_events *V) {
  int any = 0;
  for (uint64_t i = 0; i < V->nzero; i++) {
    lied_ev_inst *I = &V->inst[V->zero[i].owner];
    const double a = V->zero[i].watch ? V->z1[i] : V->zm[i], b = V->zprev[i];
    /* one that reads a section the start left unknown (NaN), again: a
     * friction whose stuck start no torque holds chooses to slip */
    const int unknown = V->unknown && isnan(b);
    if (handles(I, 1) && (unknown || !(a == b || (isnan(a) && isnan(b))))) any = I->due = 1;
  }
  return any;
}

/* 1 and 2 of the start (lied_events_start). */
static int start_calls(lied_events *V, double t, double *x) {
  lied_sched *s = V->R->s;
  for (uint64_t i = 0; i < V->ninst; i++) V->inst[i].due = handles(&V->inst[i], 1);
  for (int pass = 0;; pass++) {
    if (pass == LIED_EVENT_ROUNDS) return start_not_settled(V, t, x);
    LIED_TRY(initial_plain(V, t, x));
    if (pass > 0 && !clocked_moved(V)) break;
    if (V->nzero) memcpy(V->z1, V->zprev, sizeof(double) * V->nzero);
    if (!initial_calls(V, t, 1)) break;
    lied_sched_invalidate(s);
    lied_sched_gather_x(s, x);
    LIED_TRY(eval_z(V, t, x, V->zm, 1));
  }
  return LIED_OK;
}

/* 1 and 2 of the start. Its evaluations, made before the handlers have
 * chosen the modes, may meet a section singular in the modes the elements
 * hold (a brake stuck on a prescribed speed, a switch open in series with
 * a current source): that section is left unknown, its values NaN
 * (lied_sched_evaluate_start), and the calls go on with what does not
 * depend on it (the brake's speed). A section still singular after them
 * fails at the evaluation that follows (3). */
static int start_modes(lied_events *V, double t, double *x) {
  V->lenient = 1, V->unknown = 0;
  const int rc = start_calls(V, t, x);
  V->lenient = 0;
  return rc;
}

/* The start is an event instant (docs/events.md, "The order at an
 * event"): first it settles, then the blocks with time events read it
 * (start_modes):
 *  1. the initial calls of the instances without time events (the
 *     comparisons, Hysteresis, state machines), in rounds until their zero
 *     functions repeat: every value of the instant settled;
 *  2. the initial calls of those with time events (the sampled blocks'
 *     values before their first sample, from their parameters; a timer's
 *     from its input, which 1 settled), once each, reading the model after
 *     1; then 1 again (the consequences: a Hysteresis on a sampler's start
 *     value); an instance of 2 whose input changed after it read it
 *     (clocked_moved: a timer on a timer, or after a comparison on a
 *     sampler's start value) is called again, until none is;
 *  3. every time event at t itself as at any event: the samples due at t,
 *     reading the model after 1 and 2, and the zero functions they make
 *     cross. */
int lied_events_start(lied_events *V, double t, double *x) {
  if (!V) return LIED_OK;
  LIED_TRY(start_modes(V, t, x));
  /* due at t: a schedule's first event after both of t's two predecessors
   * (a fixed time; one that follows the time asked, such as a clutch's
   * check at the first time after now, is not due at t itself) */
  const double before = nextafter(t, -INFINITY), before2 = nextafter(before, -INFINITY);
  for (uint64_t i = 0; i < V->ninst; i++) {
    lied_ev_inst *I = &V->inst[i];
    LIED_TRY(next_time(V, I, t));
    I->due = I->tpl->next_event && I->tpl->next_event(I->self, before) == t &&
             I->tpl->next_event(I->self, before2) == t;
  }
  LIED_TRY(settle(V, t, x, 0));
  set_cut(V);
  return LIED_OK;
}

/* Outside a run (steady states, linearisations at the start values): the
 * start of a run without its rows. */
int lied_events_initial(lied_sched *s, double t, double *x, lied_err *e) {
  lied_run R;
  memset(&R, 0, sizeof R);
  R.s = s, R.e = e, R.n = s->nstates;
  R.t = R.start = R.stop = t;
  R.span = R.interval = R.hmax = 1;
  lied_events *V;
  LIED_TRY(lied_events_new(&V, &R));
  int rc = lied_events_start(V, t, x);
  lied_events_free(V);
  return rc;
}
