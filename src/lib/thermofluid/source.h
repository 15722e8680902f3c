/* source.h - the Source's instance and declarations, shared with the
 * Reservoir (reservoir.c), which is a Source with an inlet that ends a
 * stream as a Sink does. */
#ifndef LIED_TF_SOURCE_H
#define LIED_TF_SOURCE_H
#include "lib/thermofluid/deps.h"

typedef struct tf_source {
  tf_out outlet;
  lied_real_in p0_in, T0_in;
  tf_med med;
  double p0, T0, L;
  int p0_from_input, T0_from_input;
  double m_flow, der_m_flow; /* state */
  double dm_flow, res;       /* tearing pair */
  double h0;                 /* enthalpy at (p0, T0) when both are parameters */
} tf_source;

/* The medium, the check of (p0, T0) and h(p0, T0): 0, or -1 with the
 * error set in ctx. */
int tf_source_init(tf_source *s, lied_init *ctx);
/* The outlet, the inputs p0_in and T0_in, the flow state, its tearing pair
 * and the blocks pressure, flow, der and residual. */
void tf_source_meta(lied_meta *m, tf_source *s);

#endif
