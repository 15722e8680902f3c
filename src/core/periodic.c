/* periodic.c - the times t0 + k period of periodic events (Pulse, sampled
 * blocks), computed one way so that a block's switching and its next
 * function agree to the last bit (lied/component.h). */
#include <math.h>
#include "lied/component.h"

/* t0 + k period for the integer k >= 0, formed the one way both functions
 * below use. */
static double at(double t0, double period, double k) { return t0 + k * period; }

double lied_periodic_index(double t, double t0, double period) {
  if (!(t >= t0) || !(period > 0)) return -1;
  double k = floor((t - t0) / period);
  if (!isfinite(k)) return -1;
  /* the division may round across a boundary: settle k on the products (a
   * step or two; bounded, since beyond 2^53 periods k + 1 == k) */
  for (int i = 0; i < 4 && k > 0 && at(t0, period, k) > t; i++) k--;
  for (int i = 0; i < 4 && at(t0, period, k + 1) <= t; i++) k++;
  return k;
}

double lied_periodic_next(double t, double t0, double period) {
  if (!(period > 0) || !isfinite(t)) return INFINITY;
  if (t < t0) return t0;
  double next = at(t0, period, lied_periodic_index(t, t0, period) + 1);
  /* a period below the resolution of the times near t: t itself, which the
   * solver reports (its next time event is not after the current time);
   * INFINITY here stopped the block's events silently (a SampleHold of
   * period 0.1 run from t = 1e16 never sampled) */
  return next > t ? next : t;
}
