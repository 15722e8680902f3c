/* fused.h - internal to src/solve: fixed-step explicit Runge-Kutta fused
 * with an aligned schedule ("fused steps"). When the model is n independent
 * copies of one structure (sched.h: aligned), the derivatives of copy q
 * depend on the states of copy q only, so a whole step can be taken chunk by
 * chunk of copies: every stage of one chunk runs while its instance data is
 * in cache, instead of streaming every instance through memory once per
 * stage. The arithmetic is that of lied_erk_step (same lied_rk_combine, same
 * stage times), so the results are the same bits. */
#ifndef LIED_SOLVE_FUSED_H
#define LIED_SOLVE_FUSED_H
#include <stdint.h>
#include "sched/sched.h"
#include "solve/butcher.h"

typedef struct lied_fused {
  lied_sched *s;
  const lied_tableau *tab;
  uint64_t n;     /* states */
  size_t width;   /* states per copy (over every state map) */
  double *k;      /* stages x width x chunk: stage derivatives of one chunk */
  double *y;      /* width x chunk: a stage's states of one state map */
  double *xnew;   /* n: the new state, copied to x when every chunk succeeded */
} lied_fused;

/* Whether a schedule can take fused steps: aligned, with states. */
int lied_fused_applies(const lied_sched *s);

/* Work space for an explicit table (n = the schedule's states). Returns 0,
 * or -1 when out of memory (f is then safe to free). */
int lied_fused_init(lied_fused *f, lied_sched *s, const lied_tableau *tab);
void lied_fused_free(lied_fused *f);

/* One step of size h from (t, x): x becomes the new state. Counts the
 * evaluations in the schedule's statistics. Allocates nothing. Returns 0, or
 * -1 with a message (singular section); x is then unchanged. */
int lied_fused_step(lied_fused *f, double t, double h, double *x, lied_err *e);

#endif
