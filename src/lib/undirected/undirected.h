/* undirected.h - undirected thermofluid streams in LIED form (after the
 * DLR ThermoFluid Stream library's Undirected package): the connector, the
 * forward weight of the regularisation near zero flow, and helpers shared by
 * the components of src/lib/undirected/ (docs/thermofluid.md, "Undirected
 * streams").
 *
 * Connector "undirected thermofluid", sides fore (source) and rear (sink);
 * positive flow runs from a component's rear to its fore:
 *   flow   {m_flow}                 forwards   explicit: the segment's mass flow
 *   state  {p, h, X1}               forwards   explicit: the state a forward flow carries
 *   der    {der_m_flow}             forwards   inside the linear section
 *   r      {r}                      rearwards  inertial pressure, linear section
 *   back   {p_back, h_back, X1_back} rearwards explicit: the state a rearward flow carries
 * (X1: the mass fraction of a mixture's first component, 0 for media of one
 * substance). The flow has a signal of its own: the rearward blocks of the
 * elements read it, and reading it inside the forward state would make every
 * junction a cycle of the two directions.
 * A segment runs from a fore port that owns its mass-flow state (a boundary,
 * a volume, a junction) through flow-through elements (rear.r = fore.r +
 * L*der_m_flow) to a rear port that ends it; the residual at the owner is
 *   res = fore.r + L*dm_flow - (1 - w(m)) (p_owner - p_back)
 * and the end writes r = w(m) (p_end - p_forward) + L*der_m_flow. */
#ifndef LIED_LIB_UNDIRECTED_H
#define LIED_LIB_UNDIRECTED_H
#include "lib/thermofluid/thermofluid.h"

/* ---- the connector ---------------------------------------------------------- */

typedef struct tfu_flow { double m_flow; } tfu_flow;
/* A state a flow carries: steady pressure, specific enthalpy and the
 * independent mass fractions of a mixture (0 for media of one substance). */
typedef struct tfu_state {
  double p, h;
  tf_X X;
} tfu_state;

typedef struct tfu_fore { /* source side: writes flow, state, der; reads r, back */
  tfu_flow flow;
  tfu_state state;
  tf_der der;
  const tf_r *r;
  const tfu_state *back;
} tfu_fore;

typedef struct tfu_rear { /* sink side: reads flow, state, der; writes r, back */
  const tfu_flow *flow;
  const tfu_state *state;
  const tf_der *der;
  tf_r r;
  tfu_state back;
} tfu_rear;

extern const lied_connector tfu_stream;
extern const lied_port_layout tfu_fore_layout, tfu_rear_layout;
/* A port named name (index >= 1: name[index]). */
static inline void tfu_meta_fore(lied_meta *m, const char *name, int index, tfu_fore *port) {
  lied_meta_port(m, name, index, port, &tfu_fore_layout);
}
static inline void tfu_meta_rear(lied_meta *m, const char *name, int index, tfu_rear *port) {
  lied_meta_port(m, name, index, port, &tfu_rear_layout);
}
/* The medium at the composition of a state (med itself for one substance). */
static inline const tf_med *tfu_med_at(const tf_med *med, const tfu_state *s, tf_med *tmp) {
  return tf_med_at(med, &s->X, tmp);
}

/* ---- near zero flow -----------------------------------------------------------
 * The forward weight of TFS's regStep: 1 for m >= m_reg, 0 for m <= -m_reg,
 * 1/2 + (3x - x^3)/4 between (x = m/m_reg), continuous with its slope. A
 * pressure used by the segment's equation is w*forward + (1 - w)*rearward. */
static inline double tfu_w(double m, double m_reg) {
  const double x = m / m_reg;
  return x >= 1 ? 1.0 : x <= -1 ? 0.0 : 0.5 + (3.0 * x - x * x * x) * 0.25;
}
/* w*a + (1 - w)*b: exactly a for w = 1 and b for w = 0 (away from zero flow). */
static inline double tfu_blend(double w, double a, double b) {
  return w >= 1 ? a : w <= 0 ? b : b + w * (a - b);
}

/* ---- dependencies per variable (docs/thermofluid.md, "What the blocks read and
 * write") ------------------------------------------------------------------------
 * A block reading a state signal (p, h, X1) says which of its variables it
 * reads: a set of TFU_P, TFU_H, TFU_X. It lists the reading pointer once per
 * range of the set (tfu_list: twice for {p, X1}) and declares them right
 * after it (tfu_meta_reads). */
enum { TFU_P = 1, TFU_H = 2, TFU_X = 4, TFU_PHX = 7 };
/* in[n..]: the pointer ptr once per range of vars (none for 0); the new n. */
int tfu_list(const void **in, int n, const void *ptr, int vars);
void tfu_meta_reads(lied_meta *m, const void *ptr, int vars);
/* What a density rho(p, h) at a state's composition reads; what a
 * temperature T(p, h) reads (p only where the medium's T depends on it). */
static inline int tfu_X_reads(const tf_med *med) { return med->fn && tf_nX(med) ? TFU_X : 0; }
static inline int tfu_rho_reads(const tf_med *med) {
  return med->fn && med->fn->rho_of_p ? TFU_P : TFU_P | TFU_H | tfu_X_reads(med);
}
static inline int tfu_T_reads(const tf_med *med) {
  return (med->fn && med->fn->T_of_h ? 0 : TFU_P) | TFU_H | tfu_X_reads(med);
}

/* ---- flow-through elements ------------------------------------------------------
 * A two-port element starts with a tfu_elem: its ports, medium and inertance.
 * The blocks der and r (and their lane forms) are the same for every element
 * (tfu_elem_meta declares them); the explicit blocks come from TFU_RISE_BLOCKS
 * with the element's law. */
typedef struct tfu_elem {
  tfu_rear rear;
  tfu_fore fore;
  tf_med med;
  double L;
} tfu_elem;
/* Parameters of an element: its medium and (with doc) its inertance. */
#define TFU_ELEM_MEDIUM(TYPE)                                                                 \
  {"medium", offsetof(TYPE, e.med.par), 0, "1",                                              \
   "medium {kind, c1..c5}: tf.liquid{...}, tf.gas{...}, tf.steam, tf.moist_air{...} "         \
   "(default tf.water)", TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}
#define TFU_ELEM_L(TYPE)                                                                      \
  {"L", offsetof(TYPE, e.L), 0, "1/m", "inertance (length / cross-section area)", 0,         \
   TF_NOMAX, 0, 0}
/* Declare the element's ports rear and fore and its blocks flow (fore.flow =
 * rear.flow), der and r; with inertance = 0 the element has none (rear.r =
 * fore.r, no der input). */
void tfu_elem_meta(lied_meta *m, tfu_elem *e, int inertance);
/* The forwards and rearwards blocks of an element whose law raises the
 * pressure from rear to fore by RISE(self, med, m, p, h) (negative for a
 * drop), evaluated with the signed flow m and the state (p, h) of the inflow
 * of each direction in med (at the inflow's composition): forwards
 *   fore.p = rear.p + rise_f,      rise_f = RISE(m, rear.p, rear.h)
 * rearwards
 *   rear.p_back = fore.p_back - rise_b,  rise_b = RISE(m, fore.p_back, fore.h_back)
 * TYPE has the fields e (a tfu_elem), rise_f, rise_b; the blocks are
 * NAME_fwd_b and NAME_back_b, declared by tfu_rise_meta. They write the
 * pressures alone: h and X pass unchanged both ways in the blocks carry and
 * carry_back of tfu_rise_meta, which read no pressure, so a temperature
 * downstream does not depend on what sets the law (a valve's opening). */
#define TFU_RISE_BLOCKS(NAME, TYPE, RISE)                                                    \
  static void NAME##_fwd(const lied_env *env, TYPE *s) {                                     \
    const tfu_state *in = s->e.rear.state;                                                   \
    tf_med mx;                                                                               \
    const tf_med *med = tfu_med_at(&s->e.med, in, &mx);                                      \
    s->rise_f = RISE(s, med, s->e.rear.flow->m_flow, in->p, in->h);                          \
    TF_GUARD_PH(env, s, med, s->rise_f, in->p, in->h, "forward inflow");                     \
    s->e.fore.state.p = in->p + s->rise_f;                                                   \
  }                                                                                          \
  static void NAME##_back(const lied_env *env, TYPE *s) {                                    \
    const tfu_state *in = s->e.fore.back;                                                    \
    tf_med mx;                                                                               \
    const tf_med *med = tfu_med_at(&s->e.med, in, &mx);                                      \
    s->rise_b = RISE(s, med, s->e.rear.flow->m_flow, in->p, in->h);                          \
    TF_GUARD_PH(env, s, med, s->rise_b, in->p, in->h, "rearward inflow");                    \
    s->e.rear.back.p = in->p - s->rise_b;                                                    \
  }                                                                                          \
  LIED_BLOCK(NAME##_fwd_b, TYPE, NAME##_fwd)                                                 \
  LIED_BLOCK(NAME##_back_b, TYPE, NAME##_back)
/* Declare them and the blocks carry and carry_back; vars: what RISE reads of
 * the inflow's state (TFU_P, or tfu_rho_reads for a law with the density);
 * extra: further inputs of both (the law's own: an opening, a speed;
 * NULL-terminated, or NULL). */
void tfu_rise_meta(lied_meta *m, tfu_elem *e, lied_block_fn fwd, lied_block_fn back,
                   double *rise_f, double *rise_b, int vars, const void *const *extra);
/* The same with the blocks' lane forms (lied/component.h, "Lane forms"). */
void tfu_rise_meta_lanes(lied_meta *m, tfu_elem *e, lied_block_fn fwd, lied_block_fn back,
                         lied_block_fn fwd_lanes, lied_block_fn back_lanes, double *rise_f,
                         double *rise_b, int vars, const void *const *extra);


/* fore.der = rear.der, rear.r = fore.r + L*der_m_flow. */
static inline void tfu_pass_der(const tfu_rear *rear, tfu_fore *fore) {
  fore->der.der_m_flow = rear->der->der_m_flow;
}
static inline void tfu_pass_r(tfu_rear *rear, const tfu_fore *fore, double L) {
  rear->r.r = fore->r->r + L * rear->der->der_m_flow;
}

/* The state of the flow that actually passes, for sensors and recorded
 * temperatures: p and h blended with the forward weight (TFS's
 * regStepState). */
static inline void tfu_blend_state(double w, const tfu_state *f, const tfu_state *b,
                                   tfu_state *s) {
  s->p = tfu_blend(w, f->p, b->p);
  s->h = tfu_blend(w, f->h, b->h);
  for (int c = 0; c < TF_NX; c++) s->X.X[c] = tfu_blend(w, f->X.X[c], b->X.X[c]);
}

/* Parameter of the regularisation near zero flow. */
#define TFU_MREG_PARAM(TYPE)                                                                 \
  {"m_flow_reg", offsetof(TYPE, m_reg), 1e-3, "kg/s",                                       \
   "flow below which the two directions' pressures are blended (docs/thermofluid.md)", 0,  \
   TF_NOMAX, LIED_PARAM_MIN_OPEN, 0}

/* ---- lane forms (lied/component.h, "Lane forms") ----------------------------------
 * Whether the n copies of a group all hold the liquid medium (then lane forms
 * may evaluate its laws inline, the same operations as the medium's table). */
static inline int tfu_lanes_liquid(const double *kind, size_t n) { /* lanes of med.par[0] */
  int all = 1;
  for (size_t l = 0; l < n; l++) all &= kind[l] == TF_LIQUID;
  return all;
}

/* The library's classes. */
extern const lied_class tfu_boundary_rear_class, tfu_boundary_fore_class,
    tfu_pressure_drop_class, tfu_linquad_drop_class, tfu_laminar_drop_class, tfu_volume_class,
    tfu_volume_n_class, tfu_junction_class, tfu_valve_class, tfu_pump_class, tfu_fan_class,
    tfu_t_sensor_class, tfu_p_sensor_class, tfu_m_sensor_class, tfu_h_sensor_class,
    tfu_inlet_fore_class, tfu_rear_outlet_class, tfu_counter_hx_class, tfu_parallel_hx_class;

#endif
