/* deps.c - the declarations of dependencies per variable the thermofluid
 * components share (deps.h). */
#include "lib/thermofluid/deps.h"

void tf_meta_reads(lied_meta *m, const tf_in *port, int vars) {
  if (vars == TF_MPH) return; /* the whole state: the default */
  if (vars == (TF_M | TF_H)) {
    lied_meta_reads(m, &port->state, 0, 1);
    lied_meta_reads(m, &port->state, 2, 1);
    return;
  }
  const int first = vars & TF_M ? 0 : vars & TF_P ? 1 : 2;
  const int last = vars & TF_H ? 2 : vars & TF_P ? 1 : 0;
  lied_meta_reads(m, &port->state, first, last - first + 1);
}

void tf_meta_flow_pass(lied_meta *m, lied_block_fn fn, tf_in *in, tf_out *out,
                       const tf_med *med) {
  lied_meta_block(m, "flow", fn, 0, LIED_SIGS(&in->state, &in->state, TF_X(med, *in)),
                  LIED_SIGS(&out->state.m_flow, &out->state.h, TF_X(med, *out)));
  tf_meta_writes_m(m, out);
  tf_meta_reads(m, in, TF_M | TF_H);
}

void tf_meta_p_pass(lied_meta *m, const char *name, lied_block_fn fn, lied_block_fn lanes,
                    tf_in *in, tf_out *out) {
  lied_meta_block(m, name, fn, 0, LIED_SIGS(&in->state), LIED_SIGS(&out->state.p));
  if (lanes) lied_meta_lanes(m, lanes);
  tf_meta_reads(m, in, TF_P);
}

void tf_meta_cell_flow(lied_meta *m, lied_block_fn fn, lied_block_fn lanes, tf_in *in,
                       tf_out *out, const double *h, const tf_med *med) {
  lied_meta_block(m, "flow", fn, 0, LIED_SIGS(&in->state, h, TF_X(med, *in)),
                  LIED_SIGS(&out->state.m_flow, &out->state.h, TF_X(med, *out)));
  lied_meta_lanes(m, lanes);
  tf_meta_writes_m(m, out);
  tf_meta_reads(m, in, TF_M);
}
