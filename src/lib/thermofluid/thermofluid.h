/* thermofluid.h - the thermofluid connector and media: the public header
 * lied/thermofluid.h (kept for lied's sources' includes), and the kink
 * helpers of the library's components. */
#ifndef LIED_LIB_THERMOFLUID_KINKS_H
#define LIED_LIB_THERMOFLUID_KINKS_H
#include "lied/thermofluid.h"

/* ---- kinks (LIED_ZC_KINK, docs/events.md) ---------------------------------
 * Laws that kink where a flow reverses (an upwind enthalpy, a |m_flow|) or
 * where a content crosses a phase boundary of its medium declare kink
 * functions, written by a block of the component's output part (nothing
 * else reads them: evaluated when the adaptive solvers check the zero
 * functions, once per step, not at every stage). */
#define TF_PHASE_MAX 2
/* A flow reversal: z is the flow (LIED_ZC_BOTH | LIED_ZC_KINK). */
void tf_meta_flow_kink(lied_meta *m, const char *name, double *z);
/* The phase boundaries of med (z_liquid, z_vapour; z_fog): the number
 * declared, z[0 ..] written by tf_phase_z. */
int tf_meta_phase_kinks(lied_meta *m, const tf_med *med, double *z);
/* The phase-boundary kink functions of a content (p, h) of medium m. */
void tf_phase_z(const tf_med *m, double p, double h, double *z);

#endif
