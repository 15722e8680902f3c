/* events.h - internal to src/solve: the events of a run (lied/component.h,
 * docs/events.md). Time events: the drivers end a step exactly at the next
 * one (R->t_cut), whose stages see the time just before it. State events:
 * after every step the zero functions are evaluated at its end; a crossing
 * is located on the step's dense output and the step is cut there. At an
 * event: the row before, the handlers (one evaluation feeds them all; any
 * zero function their changes make cross fires in a further round), the
 * states they re-initialised taken over, the next time events, the row
 * after; the stepper restarts. */
#ifndef LIED_SOLVE_EVENTS_H
#define LIED_SOLVE_EVENTS_H
#include "solve/run.h"

/* Events closer together than this many times in a row: chattering. */
#define LIED_CHATTER_COUNT 10
/* Rounds of handlers at one event before "does not settle". */
#define LIED_EVENT_ROUNDS 16

typedef struct lied_ev_inst {
  char *self;
  const lied_template *tpl;
  int spec;
  uint64_t inst;
  double tnext;     /* next time event (INFINITY: none) */
  unsigned crossed; /* zero functions that crossed at the current event */
  int due;          /* time event due at the current event */
} lied_ev_inst;

typedef struct lied_ev_zero {
  const double *z;
  int dir;
  uint32_t owner; /* index in lied_events.inst */
  int k;          /* its index among the owner's zero functions */
  int kink;       /* LIED_ZC_KINK: a kink of the block's law */
  int watch;      /* a function of the instance's inputs alone (its block reads no
                   * parameter or discrete variable): a timer's input */
} lied_ev_zero;

typedef struct lied_events {
  lied_run *R;
  lied_ev_inst *inst; /* instances with time events, zero functions or a handler */
  uint64_t ninst;
  lied_ev_zero *zero;
  uint64_t nzero;
  uint64_t nkink; /* of them kinks (LIED_ZC_KINK) */
  double *zprev, *za, *zb, *zm; /* zero function values (nzero each) */
  double *z1;                   /* at the end of the step being located */
  double *xe;                   /* the state at a located crossing */
  double *xa, *xf;              /* work: a dense-output state, derivatives */
  unsigned char *hit;           /* zero functions that crossed at this event */
  double tnext;                 /* the earliest time event */
  double tlast;                 /* time of the last event, for chattering */
  double tkink;                 /* time of the last kink (kinks alone, no rows) */
  int quiet;                    /* the last event: kinks alone of classes without a
                                   handler (nothing changed: integrators keep their
                                   history, first stage and Jacobian) */
  int streak;                   /* events in a row closer than the resolution */
  /* during 1 and 2 of the start (lied_events_start): a section singular in
   * the modes the elements hold is left unknown (lied_sched_evaluate_start) */
  int lenient, unknown; /* ... and did (start_not_settled) */
} lied_events;

/* Nonzero when the model has zero functions or handlers (steps must then
 * be taken over the whole state vector, one at a time). */
int lied_events_stateful(const lied_model *m);

/* The events of R's model; *V is NULL when it has none. Then the run's
 * time cut stays INFINITY. With zero functions, R->hmax is limited to the
 * output interval: they are checked at step ends, so a crossing and its
 * return inside one adaptive step could hide a switch. */
int lied_events_new(lied_events **V, lied_run *R);
void lied_events_free(lied_events *V);

/* The handlers' initial call (ev.initial) at (t, x) for every instance
 * that has a handler, outside a run (steady states and linearisations at
 * the start values call it too): x may be changed. No-op without handlers. */
int lied_events_initial(lied_sched *s, double t, double *x, lied_err *e);

/* At the start of the run, with x the start state (it may be changed by
 * the handlers' initial call): handlers with ev.initial, the first time
 * events (R->t_cut), the zero functions' signs. */
int lied_events_start(lied_events *V, double t, double *x);

/* After a step from t0 to t1 (x1: the state at t1; dense: the step's dense
 * output): 0 when no zero function crossed, else 1 with *te the time of the
 * first crossing and *xe the state there (V's buffer). 2, with *te, when a
 * kink (LIED_ZC_KINK) crossed at least `retake` after t0: the dense output
 * beyond it followed the other branch of the law, so the caller takes the
 * step again from t0 to end at *te, and calls this again after it with
 * `kink_end`: kinks crossing in that step then cross at its end, t1.
 * Kinks alone located within `over` before t1 (a step ended at a kink
 * predicted from the kink functions' last values, a little past it) leave
 * the step as it is: counted, 0 returned, nothing fired. */
int lied_events_locate(lied_events *V, double t0, double t1, const double *x1,
                       lied_dense_fn dense, void *ctx, int kink_end, double retake,
                       double over, double *te, const double **xe);

/* Handle the event at te (a located crossing, a due time event, or both)
 * with x the state there; x may be re-initialised. Writes the rows before
 * and after; sets R->t_cut to the next time event. */
int lied_events_fire(lied_events *V, double te, double *x);

#endif
