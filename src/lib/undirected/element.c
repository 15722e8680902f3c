/* element.c - what every two-port undirected element shares: its ports and
 * the two blocks of the linear section, fore.der = rear.der and rear.r =
 * fore.r + L*der_m_flow (with their lane forms), and the declaration of the
 * explicit forwards and rearwards blocks of TFU_RISE_BLOCKS. */
#include "lib/undirected/undirected.h"

static void elem_flow(const lied_env *env, tfu_elem *e) {
  (void)env;
  e->fore.flow = *e->rear.flow;
}
static void elem_der(const lied_env *env, tfu_elem *e) {
  (void)env;
  tfu_pass_der(&e->rear, &e->fore);
}
static void elem_r(const lied_env *env, tfu_elem *e) {
  (void)env;
  tfu_pass_r(&e->rear, &e->fore, e->L);
}
static void elem_r0(const lied_env *env, tfu_elem *e) {
  (void)env;
  e->rear.r.r = e->fore.r->r;
}
/* h and X carried unchanged both ways (the pressures: TFU_RISE_BLOCKS). */
static void elem_carry(const lied_env *env, tfu_elem *e) {
  (void)env;
  e->fore.state.h = e->rear.state->h;
  e->fore.state.X = e->rear.state->X;
}
static void elem_carry_back(const lied_env *env, tfu_elem *e) {
  (void)env;
  e->rear.back.h = e->fore.back->h;
  e->rear.back.X = e->fore.back->X;
}
LIED_BLOCK(elem_flow_b, tfu_elem, elem_flow)
LIED_BLOCK(elem_carry_b, tfu_elem, elem_carry)
LIED_BLOCK(elem_carry_back_b, tfu_elem, elem_carry_back)
LIED_BLOCK(elem_der_b, tfu_elem, elem_der)
LIED_BLOCK(elem_r_b, tfu_elem, elem_r)
LIED_BLOCK(elem_r0_b, tfu_elem, elem_r0)

/* Lane forms: the same operations, copy by copy. A copy of NV variables from
 * variable FIRST of a signal read (IN, a reading pointer) into as many
 * written from OUT (a double field) on. */
#define ELEM_COPY_LANES(NAME, IN, FIRST, NV, OUT)                                           \
  LIED_LANE_BODY void NAME##_n(const lied_env *env, char *g, size_t n, size_t stride) {     \
    (void)env, (void)stride;                                                                \
    const double *restrict i_ = LIED_LANE_IN(tfu_elem, g, IN);                              \
    double *restrict o_ = LIED_LANE(tfu_elem, g, OUT);                                      \
    LIED_LANE_LOOP                                                                          \
    for (size_t l = 0; l < n; l++)                                                          \
      for (int k = 0; k < NV; k++) TF_V(o_, k, l) = TF_V(i_, FIRST + k, l);                 \
  }                                                                                         \
  LIED_LANE_FORM(NAME)
ELEM_COPY_LANES(elem_flow_lanes, rear.flow, 0, 1, fore.flow.m_flow)
ELEM_COPY_LANES(elem_der_lanes, rear.der, 0, 1, fore.der.der_m_flow)
ELEM_COPY_LANES(elem_r0_lanes, fore.r, 0, 1, rear.r.r)
/* h and X1 (variables 1, 2 of a state signal) carried both ways */
_Static_assert(TF_NX == 1, "a state signal is p, h, X1");
ELEM_COPY_LANES(elem_carry_lanes, rear.state, 1, 2, fore.state.h)
ELEM_COPY_LANES(elem_carry_back_lanes, fore.back, 1, 2, rear.back.h)
LIED_LANE_BODY void elem_r_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict r = LIED_LANE_IN(tfu_elem, g, fore.r);
  const double *restrict d = LIED_LANE_IN(tfu_elem, g, rear.der);
  const double *restrict L = LIED_LANE(tfu_elem, g, L);
  double *restrict o = LIED_LANE(tfu_elem, g, rear.r.r);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = r[l] + L[l] * d[l];
}
LIED_LANE_FORM(elem_r_lanes)

int tfu_list(const void **in, int n, const void *ptr, int vars) {
  const int ranges = vars == (TFU_P | TFU_X) ? 2 : vars ? 1 : 0;
  for (int k = 0; k < ranges; k++) in[n++] = ptr;
  return n;
}
void tfu_meta_reads(lied_meta *m, const void *ptr, int vars) {
  if (vars == TFU_PHX || !vars) return; /* the whole state: the default; nothing: not listed */
  if (vars == (TFU_P | TFU_X)) {
    lied_meta_reads(m, ptr, 0, 1);
    lied_meta_reads(m, ptr, 2, 1);
    return;
  }
  const int first = vars & TFU_P ? 0 : vars & TFU_H ? 1 : 2;
  const int last = vars & TFU_X ? 2 : vars & TFU_H ? 1 : 0;
  lied_meta_reads(m, ptr, first, last - first + 1);
}

void tfu_elem_meta(lied_meta *m, tfu_elem *e, int inertance) {
  tfu_meta_rear(m, "rear", 0, &e->rear);
  tfu_meta_fore(m, "fore", 0, &e->fore);
  lied_meta_block(m, "flow", elem_flow_b, 0, LIED_SIGS(&e->rear.flow), LIED_SIGS(&e->fore.flow));
  lied_meta_lanes(m, elem_flow_lanes);
  lied_meta_block(m, "der", elem_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->rear.der),
                  LIED_SIGS(&e->fore.der));
  lied_meta_lanes(m, elem_der_lanes);
  if (inertance) {
    lied_meta_block(m, "r", elem_r_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&e->fore.r, &e->rear.der), LIED_SIGS(&e->rear.r));
    lied_meta_lanes(m, elem_r_lanes);
  } else {
    lied_meta_block(m, "r", elem_r0_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&e->fore.r),
                    LIED_SIGS(&e->rear.r));
    lied_meta_lanes(m, elem_r0_lanes);
  }
}

void tfu_rise_meta_lanes(lied_meta *m, tfu_elem *e, lied_block_fn fwd, lied_block_fn back,
                         lied_block_fn fwd_lanes, lied_block_fn back_lanes, double *rise_f,
                         double *rise_b, int vars, const void *const *extra) {
  const void *fi[10], *bi[10];
  const int nf0 = tfu_list(fi, 0, &e->rear.state, vars), nb0 = tfu_list(bi, 0, &e->fore.back, vars);
  int nf = nf0, nb = nb0;
  fi[nf++] = &e->rear.flow, bi[nb++] = &e->rear.flow;
  for (int k = 0; extra && extra[k] && nf < 9; k++) fi[nf++] = extra[k], bi[nb++] = extra[k];
  fi[nf] = bi[nb] = NULL;
  lied_meta_block(m, "forwards", fwd, 0, fi, LIED_SIGS(&e->fore.state.p, rise_f));
  if (fwd_lanes) lied_meta_lanes(m, fwd_lanes);
  lied_meta_writes(m, &e->fore.state.p, 1);
  tfu_meta_reads(m, &e->rear.state, vars);
  lied_meta_block(m, "rearwards", back, 0, bi, LIED_SIGS(&e->rear.back.p, rise_b));
  if (back_lanes) lied_meta_lanes(m, back_lanes);
  lied_meta_writes(m, &e->rear.back.p, 1);
  tfu_meta_reads(m, &e->fore.back, vars);
  lied_meta_block(m, "carry", elem_carry_b, 0, LIED_SIGS(&e->rear.state),
                  LIED_SIGS(&e->fore.state.h));
  lied_meta_lanes(m, elem_carry_lanes);
  lied_meta_writes(m, &e->fore.state.h, 2);
  tfu_meta_reads(m, &e->rear.state, TFU_H | TFU_X);
  lied_meta_block(m, "carry_back", elem_carry_back_b, 0, LIED_SIGS(&e->fore.back),
                  LIED_SIGS(&e->rear.back.h));
  lied_meta_lanes(m, elem_carry_back_lanes);
  lied_meta_writes(m, &e->rear.back.h, 2);
  tfu_meta_reads(m, &e->fore.back, TFU_H | TFU_X);
}
void tfu_rise_meta(lied_meta *m, tfu_elem *e, lied_block_fn fwd, lied_block_fn back,
                   double *rise_f, double *rise_b, int vars, const void *const *extra) {
  tfu_rise_meta_lanes(m, e, fwd, back, NULL, NULL, rise_f, rise_b, vars, extra);
}
