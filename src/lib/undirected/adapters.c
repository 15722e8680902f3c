/* adapters.c - between directed streams (lied.thermofluid, inlet/outlet)
 * and undirected ones (TFS's Undirected.Topology.ConnectInletFore and
 * ConnectRearOutlet). The mass flow, its derivative and the inertial
 * pressure pass through; the forward state passes too. A directed stream
 * carries nothing rearwards:
 *   ConnectInletFore (directed inlet -> undirected fore): the rearward state
 *     arriving at its fore is used for the total pressure only,
 *       inlet.r = fore.r + (1 - w(m)) (fore.p_back - inlet.p) + L*der_m_flow
 *     and goes no further (the directed part upstream takes its own upwind
 *     enthalpy for a reversed flow);
 *   ConnectRearOutlet (undirected rear -> directed outlet): sends rearwards
 *     the forward state that arrived (a reversed flow out of the directed
 *     part carries it back), so rear.r = outlet.r + L*der_m_flow.
 * So energy balances exactly across an adapter only while its flow runs
 * forwards (docs/thermofluid.md, "Undirected components"). */
#include "lib/thermofluid/deps.h"
#include "lib/undirected/undirected.h"

typedef struct tfu_in_fore {
  tf_in inlet;
  tfu_fore fore;
  tf_med med;
  double L, m_reg;
} tfu_in_fore;

/* The pressure passes in a block of its own, the flow, h and X in another
 * (docs/thermofluid.md, "What the blocks read and write"). */
static void inf_pressure(const lied_env *env, tfu_in_fore *a) {
  (void)env;
  a->fore.state.p = a->inlet.state->p;
}
static void inf_state(const lied_env *env, tfu_in_fore *a) {
  (void)env;
  const tf_state *in = a->inlet.state;
  a->fore.flow.m_flow = in->m_flow;
  a->fore.state.h = in->h;
  a->fore.state.X = (tf_X){{0}};
  if (tf_nX(&a->med)) a->fore.state.X = *a->inlet.X;
}
static void inf_der(const lied_env *env, tfu_in_fore *a) {
  (void)env;
  a->fore.der = *a->inlet.der;
}
static void inf_r(const lied_env *env, tfu_in_fore *a) {
  (void)env;
  const tf_state *in = a->inlet.state;
  a->inlet.r.r = a->fore.r->r + (1.0 - tfu_w(in->m_flow, a->m_reg)) * (a->fore.back->p - in->p) +
                 a->L * a->inlet.der->der_m_flow;
}
LIED_BLOCK(inf_pressure_b, tfu_in_fore, inf_pressure)
LIED_BLOCK(inf_state_b, tfu_in_fore, inf_state)
LIED_BLOCK(inf_der_b, tfu_in_fore, inf_der)
LIED_BLOCK(inf_r_b, tfu_in_fore, inf_r)

static int inf_init(void *self, lied_init *ctx) {
  tfu_in_fore *a = self;
  return tf_medium_init(&a->med, ctx);
}
static void inf_meta(lied_meta *m, void *self) {
  tfu_in_fore *a = self;
  tf_meta_in(m, "inlet", 0, &a->inlet, &a->med);
  tfu_meta_fore(m, "fore", 0, &a->fore);
  lied_meta_var(m, "m_flow", "kg/s", &a->fore.flow.m_flow);
  lied_meta_block(m, "pressure", inf_pressure_b, 0, LIED_SIGS(&a->inlet.state),
                  LIED_SIGS(&a->fore.state.p));
  lied_meta_writes(m, &a->fore.state.p, 1);
  tf_meta_reads(m, &a->inlet, TF_P);
  lied_meta_block(m, "state", inf_state_b, 0,
                  LIED_SIGS(&a->inlet.state, &a->inlet.state, TF_X(&a->med, a->inlet)),
                  LIED_SIGS(&a->fore.flow, &a->fore.state.h));
  lied_meta_writes(m, &a->fore.state.h, 2);
  tf_meta_reads(m, &a->inlet, TF_M | TF_H);
  lied_meta_block(m, "der", inf_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&a->inlet.der),
                  LIED_SIGS(&a->fore.der));
  lied_meta_block(m, "r", inf_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&a->fore.r, &a->fore.back, &a->inlet.state, &a->inlet.der),
                  LIED_SIGS(&a->inlet.r));
  tfu_meta_reads(m, &a->fore.back, TFU_P);
  tf_meta_reads(m, &a->inlet, TF_M | TF_P);
}

typedef struct tfu_rear_out {
  tfu_rear rear;
  tf_out outlet;
  tf_med med;
  double L;
} tfu_rear_out;

static void rout_pressure(const lied_env *env, tfu_rear_out *a) {
  (void)env;
  a->outlet.state.p = a->rear.state->p;
  a->rear.back.p = a->rear.state->p;
}
static void rout_state(const lied_env *env, tfu_rear_out *a) {
  (void)env;
  const tfu_state *in = a->rear.state;
  a->outlet.state.m_flow = a->rear.flow->m_flow;
  a->outlet.state.h = in->h;
  a->rear.back.h = in->h;
  a->rear.back.X = in->X;
  if (tf_nX(&a->med)) a->outlet.X = in->X;
}
static void rout_der(const lied_env *env, tfu_rear_out *a) {
  (void)env;
  a->outlet.der = *a->rear.der;
}
static void rout_r(const lied_env *env, tfu_rear_out *a) {
  (void)env;
  a->rear.r.r = a->outlet.r->r + a->L * a->rear.der->der_m_flow;
}
LIED_BLOCK(rout_pressure_b, tfu_rear_out, rout_pressure)
LIED_BLOCK(rout_state_b, tfu_rear_out, rout_state)
LIED_BLOCK(rout_der_b, tfu_rear_out, rout_der)
LIED_BLOCK(rout_r_b, tfu_rear_out, rout_r)

static int rout_init(void *self, lied_init *ctx) {
  tfu_rear_out *a = self;
  return tf_medium_init(&a->med, ctx);
}
static void rout_meta(lied_meta *m, void *self) {
  tfu_rear_out *a = self;
  tfu_meta_rear(m, "rear", 0, &a->rear);
  tf_meta_out(m, "outlet", 0, &a->outlet, &a->med);
  lied_meta_var(m, "m_flow", "kg/s", &a->outlet.state.m_flow);
  lied_meta_block(m, "pressure", rout_pressure_b, 0, LIED_SIGS(&a->rear.state),
                  LIED_SIGS(&a->outlet.state.p, &a->rear.back.p));
  lied_meta_writes(m, &a->rear.back.p, 1);
  tfu_meta_reads(m, &a->rear.state, TFU_P);
  lied_meta_block(m, "state", rout_state_b, 0, LIED_SIGS(&a->rear.flow, &a->rear.state),
                  LIED_SIGS(&a->outlet.state.m_flow, &a->outlet.state.h, &a->rear.back.h,
                            TF_X(&a->med, a->outlet)));
  tf_meta_writes_m(m, &a->outlet);
  lied_meta_writes(m, &a->rear.back.h, 2);
  tfu_meta_reads(m, &a->rear.state, TFU_H | TFU_X);
  lied_meta_block(m, "der", rout_der_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&a->rear.der),
                  LIED_SIGS(&a->outlet.der));
  lied_meta_block(m, "r", rout_r_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&a->outlet.r, &a->rear.der), LIED_SIGS(&a->rear.r));
}

static const lied_param inf_params[] = {
    {"L", offsetof(tfu_in_fore, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},
    TFU_MREG_PARAM(tfu_in_fore),
    TF_MEDIUM_PARAM(tfu_in_fore),
};
const lied_class tfu_inlet_fore_class = {
    "ConnectInletFore", "undirected",
    "adapter from a directed stream (inlet, lied.thermofluid) to an undirected one (fore): "
    "the flow, its state and derivative pass forwards; the rearward state arriving at fore "
    "enters the total pressure only",
    sizeof(tfu_in_fore), inf_params, sizeof inf_params / sizeof *inf_params, inf_init, inf_meta};

static const lied_param rout_params[] = {
    {"L", offsetof(tfu_rear_out, L), 0, "1/m", "inertance (length / area)", 0, TF_NOMAX, 0, 0},
    TF_MEDIUM_PARAM(tfu_rear_out),
};
const lied_class tfu_rear_outlet_class = {
    "ConnectRearOutlet", "undirected",
    "adapter from an undirected stream (rear) to a directed one (outlet, lied.thermofluid): the "
    "flow, its state and derivative pass forwards; rearwards it sends the forward state that "
    "arrived",
    sizeof(tfu_rear_out), rout_params, sizeof rout_params / sizeof *rout_params, rout_init,
    rout_meta};
