/* deps.h - dependencies per variable of the thermofluid components
 * (docs/thermofluid.md, "What the blocks read and write"): the sets of a
 * stream state's variables a block reads, and the blocks every element
 * shares (an outlet at its inlet's pressure, a flow passed on, a cell's
 * flow) with their declarations. */
#ifndef LIED_LIB_THERMOFLUID_DEPS_H
#define LIED_LIB_THERMOFLUID_DEPS_H
#include "lib/thermofluid/thermofluid.h"

/* Each element writes its outlet's p in one block and its m_flow, h (and X)
 * in another, and each block declares which variables of an inlet's state
 * it reads: a set of TF_M, TF_P, TF_H. A block lists the inlet's reading
 * pointer once per range of the set (tf_nreads: twice for {m_flow, h}) and
 * declares them right after it with tf_meta_reads. */
enum { TF_M = 1, TF_P = 2, TF_H = 4, TF_MPH = 7 };
static inline int tf_nreads(int vars) { return vars == (TF_M | TF_H) ? 2 : 1; }
/* in[n], in[n + 1]: the port's state pointer once per range; the new n. */
static inline int tf_list_state(const void **in, int n, const tf_in *port, int vars) {
  for (int k = 0; k < tf_nreads(vars); k++) in[n++] = &port->state;
  return n;
}
void tf_meta_reads(lied_meta *m, const tf_in *port, int vars);
/* What a temperature from (p, h) reads: h, and p where the medium's T
 * depends on it (steam, moist air). */
static inline int tf_T_reads(const tf_med *m) { return m->fn->T_of_h ? TF_H : TF_P | TF_H; }
/* What a pressure block with the inlet's density reads: m, p and h, or m
 * and p where the medium's density does not depend on h (the liquid). */
static inline int tf_rho_reads(const tf_med *m) {
  return m->fn && m->fn->rho_of_p ? TF_M | TF_P : TF_MPH;
}
/* A block writing an outlet's m_flow lists &port->state.m_flow among its
 * outputs and says so right after it (its h is one variable as listed;
 * its p, &port->state.p, likewise). */
static inline void tf_meta_writes_m(lied_meta *m, tf_out *port) {
  lied_meta_writes(m, &port->state.m_flow, 1);
}
/* The flow block of an element whose outlet carries its inlet's m_flow, h
 * and X unchanged (pressure drops, valves, pumps, fans, sensors): NAME, for
 * TYPE's ports IN, OUT and medium MED; tf_meta_flow_pass declares it. */
#define TF_FLOW_PASS(NAME, TYPE, IN, OUT, MED)                                             \
  static void NAME##_eval(const lied_env *env, TYPE *e) {                                  \
    (void)env;                                                                             \
    e->OUT.state.m_flow = e->IN.state->m_flow;                                             \
    e->OUT.state.h = e->IN.state->h;                                                       \
    tf_pass_X(&e->MED, &e->IN, &e->OUT);                                                   \
  }                                                                                        \
  LIED_BLOCK(NAME, TYPE, NAME##_eval)
void tf_meta_flow_pass(lied_meta *m, lied_block_fn fn, tf_in *in, tf_out *out,
                       const tf_med *med);
/* TF_FLOW_PASS with its lane form NAME##_lanes (declared with
 * lied_meta_lanes right after tf_meta_flow_pass). */
#define TF_FLOW_PASS_LANES(NAME, TYPE, IN, OUT, MED)                                       \
  TF_FLOW_PASS(NAME, TYPE, IN, OUT, MED)                                                   \
  LIED_LANE_BODY void NAME##_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) { \
    (void)env, (void)stride;                                                               \
    const double *restrict i_ = LIED_LANE_IN(TYPE, g, IN.state);                           \
    double *restrict o_ = LIED_LANE(TYPE, g, OUT.state);                                   \
    LIED_LANE_LOOP                                                                         \
    for (size_t l = 0; l < n; l++) TF_V(o_, 0, l) = TF_V(i_, 0, l), TF_V(o_, 2, l) = TF_V(i_, 2, l); \
    tf_pass_X_lanes(n, LIED_LANE_IN(TYPE, g, IN.X), LIED_LANE(TYPE, g, OUT.X));            \
  }                                                                                        \
  LIED_LANE_FORM(NAME##_lanes)

/* ---- blocks every element shares ------------------------------------------- */

/* An outlet at its inlet's pressure (heaters, flowing cells, sensors): the
 * block NAME, for TYPE's ports IN, OUT (TF_P_PASS_BLOCK), and with its lane
 * form NAME##_lanes (TF_P_PASS); tf_meta_p_pass declares them (lanes NULL:
 * none). */
#define TF_P_PASS_BLOCK(NAME, TYPE, IN, OUT)                                               \
  static void NAME##_eval(const lied_env *env, TYPE *e) {                                  \
    (void)env;                                                                             \
    e->OUT.state.p = e->IN.state->p;                                                       \
  }                                                                                        \
  LIED_BLOCK(NAME, TYPE, NAME##_eval)
#define TF_P_PASS(NAME, TYPE, IN, OUT)                                                     \
  TF_P_PASS_BLOCK(NAME, TYPE, IN, OUT)                                                     \
  LIED_LANE_BODY void NAME##_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) { \
    (void)env, (void)stride;                                                               \
    const double *restrict i_ = LIED_LANE_IN(TYPE, g, IN.state) + LIED_LANES; /* p */      \
    double *restrict o_ = LIED_LANE(TYPE, g, OUT.state.p);                                 \
    LIED_LANE_LOOP                                                                         \
    for (size_t l = 0; l < n; l++) o_[l] = i_[l];                                          \
  }                                                                                        \
  LIED_LANE_FORM(NAME##_lanes)
void tf_meta_p_pass(lied_meta *m, const char *name, lied_block_fn fn, lied_block_fn lanes,
                    tf_in *in, tf_out *out);
/* The flow of a flowing cell's outlet: the inlet's m_flow and X with the
 * cell's enthalpy, field H of TYPE (ports IN, OUT, medium MED): the block
 * NAME and its lane form NAME##_lanes; tf_meta_cell_flow declares them. */
#define TF_CELL_FLOW(NAME, TYPE, IN, OUT, H, MED)                                          \
  static void NAME##_eval(const lied_env *env, TYPE *e) {                                  \
    (void)env;                                                                             \
    e->OUT.state.m_flow = e->IN.state->m_flow;                                             \
    e->OUT.state.h = e->H;                                                                 \
    tf_pass_X(&e->MED, &e->IN, &e->OUT);                                                   \
  }                                                                                        \
  LIED_BLOCK(NAME, TYPE, NAME##_eval)                                                      \
  LIED_LANE_BODY void NAME##_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) { \
    (void)env, (void)stride;                                                               \
    const double *restrict i_ = LIED_LANE_IN(TYPE, g, IN.state);                           \
    const double *restrict h_ = LIED_LANE(TYPE, g, H);                                     \
    double *restrict o_ = LIED_LANE(TYPE, g, OUT.state);                                   \
    LIED_LANE_LOOP                                                                         \
    for (size_t l = 0; l < n; l++) TF_V(o_, 0, l) = TF_V(i_, 0, l), TF_V(o_, 2, l) = h_[l]; \
    tf_pass_X_lanes(n, LIED_LANE_IN(TYPE, g, IN.X), LIED_LANE(TYPE, g, OUT.X));            \
  }                                                                                        \
  LIED_LANE_FORM(NAME##_lanes)
void tf_meta_cell_flow(lied_meta *m, lied_block_fn fn, lied_block_fn lanes, tf_in *in,
                       tf_out *out, const double *h, const tf_med *med);

#endif
