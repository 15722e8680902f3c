/* rhx_laws.h - the laws the two-phase exchangers share (the directed ones of
 * rhx.c and the undirected ones of src/lib/undirected/rhx.c): a refrigerant
 * cell's enthalpy, the refrigerant-side coefficient blended at the dome's
 * edges, and a secondary stream's conductance along a wall. */
#ifndef LIED_LIB_RHX_LAWS_H
#define LIED_LIB_RHX_LAWS_H
#include <math.h>

/* A cell's enthalpy from its mass and energy. */
static inline double rhx_h(double U, double M, double p, double Vc) { return (U + p * Vc) / M; }

/* C1 step from 0 (t <= 0) to 1 (t >= 1). */
static inline double rhx_step(double t) {
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return t * t * (3 - 2 * t);
}
/* The refrigerant-side coefficient at quality x (unclipped): al below the
 * dome, a2 inside, av above, blended over x in [-dx, dx] and [1-dx, 1+dx]. */
static inline double rhx_alpha(double x, double dx, double al, double a2, double av) {
  if (x < 0.5) return al + (a2 - al) * rhx_step((x + dx) / (2 * dx));
  return a2 + (av - a2) * rhx_step((x - 1 + dx) / (2 * dx));
}
/* The conductance C (1 - exp(-G/C)) of a stream of capacity rate C along a
 * wall of conductance G (0 without flow). */
static inline double rhx_eff(double C, double G) {
  return C > 0 && G > 0 ? -C * expm1(-G / C) : 0.0;
}

#endif
