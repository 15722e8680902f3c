/* lied/thermofluid.h - thermofluid streams in LIED form (after the DLR ThermoFluid
 * Stream library): the connector, media tables and helpers
 * shared by the components of src/lib/thermofluid/.
 *
 * Connector "thermofluid", nominal flow direction outlet -> inlet:
 *   state {m_flow, p, h}  DOWN  explicit, computed from states downstream
 *   der   {der_m_flow}    DOWN  inside the linear section (affine in tearing)
 *   r     {r}             UP    inertial pressure, inside the linear section
 *   X     {X1}            DOWN  mass fractions, explicit like h; only the
 *                               ports of media with a composition (moist
 *                               air) have it (LIED_ABSENT)
 * Along any element: inlet.r = outlet.r + L * der_m_flow. An outlet feeds
 * exactly one inlet (branching goes through Splitter / Junction).
 *
 * Public API (installed as <lied/thermofluid.h>): a plugin's thermofluid
 * components declare their ports and their `medium` parameter with it and
 * compute with any registered medium; a plugin registers a medium of its own
 * (TF_MEDIUM); docs/components.md, docs/media.md. In lied's tree
 * "lib/thermofluid/thermofluid.h" includes this header. */
#ifndef LIED_LIB_THERMOFLUID_H
#define LIED_LIB_THERMOFLUID_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"
#include "lied/thermal.h"

#define TF_NOMIN (-HUGE_VAL)
#define TF_NOMAX (HUGE_VAL)
#define TF_MAXN 8 /* most outlets of a Splitter / inlets of a Junction */
#define TF_PI 3.14159265358979323846

/* ---- the stream connector ----------------------------------------------- */

#define TF_NX 1 /* most independent mass fractions of a stream (of the media lied has: moist air) */

typedef struct tf_state { double m_flow, p, h; } tf_state;
typedef struct tf_der { double der_m_flow; } tf_der;
typedef struct tf_r { double r; } tf_r;
/* The independent mass fractions of a mixture's components (the medium
 * says which and how many, tf_nX; the last component is 1 - their sum). */
typedef struct tf_X { double X[TF_NX]; } tf_X;

typedef struct tf_out { /* source side: writes state, der and X, reads r */
  tf_state state;
  tf_der der;
  const tf_r *r;
  tf_X X;
} tf_out;

typedef struct tf_in { /* sink side: reads state, der and X, writes r */
  const tf_state *state;
  const tf_der *der;
  tf_r r;
  const tf_X *X;
} tf_in;

extern const lied_connector tf_stream;
/* Ports without the signal X (media of one substance) and with it. */
extern const lied_port_layout tf_out_layout, tf_in_layout, tf_out_x_layout, tf_in_x_layout;

/* ---- real signals -------------------------------------------------------
 * Inputs such as a source pressure or a pump speed are real-signal inputs of
 * the public API (lied_real_in, lied/component.h), fed by any signal output
 * (require "lied.signals"). */

/* ---- media ---------------------------------------------------------------- */

/* A medium is a table of functions over constants c[] (TF_MEDIUM_LEN - 1 of
 * them). Components carry the parameter `medium` = {kind, c1..c5}; the Lua
 * side builds it (tf.liquid{...}, tf.gas{...}, tf.medium "R134a"). The
 * kind number names the medium's table in the registry of media
 * (tf_medium_register below): 1..4 are the built-in liquid, ideal gas,
 * water and steam, moist air; every other medium registers under its id
 * and gets a kind number derived from that id. */
#define TF_MEDIUM_LEN 6
enum { TF_LIQUID = 1, TF_GAS = 2, TF_STEAM = 3, TF_MOIST_AIR = 4 };

/* The properties of a state at (p, h) in one call (props_ph): T [K], rho
 * [kg/m3], s [J/(kg K)], vapour fraction x (0 liquid, 1 vapour, between
 * for a two-phase mixture), u = h - p/rho [J/kg], the density's
 * derivatives drho/dp at constant h [kg/(m3 Pa)] and drho/dh at constant
 * p [kg2/(m3 J)] (NaN unless asked for), phase: 0 liquid(-like), 1
 * vapour(-like), 2 two-phase. */
typedef struct tf_props {
  double T, rho, s, x, u, drho_dp, drho_dh;
  int phase;
} tf_props;
/* The saturated states at a pressure: T, p, the liquid's (L) and vapour's
 * (V) density, enthalpy, entropy. */
typedef struct tf_sat {
  double T, p, rhoL, rhoV, hL, hV, sL, sV;
} tf_sat;

typedef struct tf_medium {
  const char *name;
  double (*rho)(const double *c, double p, double h); /* density [kg/m3] */
  double (*T)(const double *c, double p, double h);   /* temperature [K] */
  double (*h)(const double *c, double p, double T);   /* specific enthalpy [J/kg] */
  double (*cp)(const double *c, double p, double h);  /* [J/(kg K)] */
  /* Inverse for volumes: p and h from density and specific internal
   * energy. Returns 0, or -1 when the medium is incompressible. */
  int (*from_rho_u)(const double *c, double rho, double u, double *p, double *h);
  /* Check the constants; 0 or -1 with a reason in why. */
  int (*check)(const double *c, char *why, size_t cap);
  /* Optional (media with a range of validity, NULL otherwise): 0 when
   * (p, T) is a valid state, else -1 with a reason naming it in why. */
  int (*check_pT)(const double *c, double p, double T, char *why, size_t cap);
  /* Optional (media with two phases, NULL otherwise): the saturated liquid
   * and vapour enthalpies at p; 0, or -1 when p has no two-phase states. */
  int (*sat_h)(const double *c, double p, double *h_liq, double *h_vap);
  /* Optional (media with a range of validity, NULL otherwise): 0 when
   * (p, h), (rho, u) is a valid state, else -1 with the reason in why. Only
   * the fault path calls them (tf_fault_ph, tf_fault_rho_u). */
  int (*check_ph)(const double *c, double p, double h, char *why, size_t cap);
  int (*check_rho_u)(const double *c, double rho, double u, char *why, size_t cap);
  /* T for n states at once (the lane forms of blocks with many cells; n
   * at most LIED_LANES): T[l] = T(c_l, p[l], h[l]) bit for bit, constant k
   * of state l at c[k * cs + l]. */
  void (*T_lanes)(const double *c, size_t cs, size_t n, const double *p, const double *h,
                  double *T);
  /* Mixtures: nX independent mass fractions (0 for one substance), which
   * are the constants c[X_at] .. c[X_at + nX - 1]. A stream carries them in
   * its signal X; the constants give the composition a source emits and a
   * volume starts with. */
  int nX, X_at;
  /* ---- registration (tf_medium_register) ---- */
  const char *id; /* the name a model uses: tf.medium "R134a" (a C identifier) */
  int kind;       /* 0: derived from id; 1..4: the built-in media */
  int nc;         /* constants the medium takes (c[0] .. c[nc - 1]) */
  /* ---- optional: two-phase media with entropy (the refrigerants), NULL
   * otherwise. 0, or -1 outside the range (outputs NaN; check_ph and
   * check_rho_u say why). ---- */
  /* The state at (p, h); d = 1 also the density's derivatives. */
  int (*props_ph)(const double *c, double p, double h, int d, tf_props *o);
  /* n states at once (n <= LIED_LANES), bit for bit props_ph state by state;
   * constant k of state l at c[k * cs + l]. */
  void (*props_ph_lanes)(const double *c, size_t cs, size_t n, const double *p,
                         const double *h, int d, tf_props *o);
  /* from_rho_u for n states at once, bit for bit (NaN where it fails). */
  void (*from_rho_u_lanes)(const double *c, size_t cs, size_t n, const double *rho,
                           const double *u, double *p, double *h);
  /* The saturated states at p; psat at T. */
  int (*sat_p)(const double *c, double p, tf_sat *s);
  int (*psat)(const double *c, double T, double *p);
  /* h at (p, s) (two-phase included). */
  int (*h_ps)(const double *c, double p, double s, double *h);
  /* ---- optional: media whose properties kink at phase boundaries, 0 /
   * NULL otherwise ---- */
  /* nphase signed distances of (p, h) to those boundaries into z, each
   * crossing zero where the state crosses one (steam: h - h_liq(p) and
   * h - h_vap(p); moist air: x - x_sat(p, T), the fog's onset): the kink
   * functions of the components that hold a content (docs/events.md). A
   * medium with sat_p and no phase_z gets h - h_liq(p), h - h_vap(p) from
   * sat_p. */
  int nphase;
  void (*phase_z)(const double *c, double p, double h, double *z);
  /* ---- optional: what the laws do not depend on (docs/thermofluid.md,
   * "What the blocks read and write"); 0, the default, is always safe ---- */
  /* 1 when T(p, h), h(p, T) and cp(p, h) do not depend on p (the liquid,
   * the ideal gases): a block computing a temperature then reads only h
   * of a stream. */
  int T_of_h;
  /* 1 when rho(p, h) does not depend on h (the liquid): a pressure block
   * with the density reads m_flow and p of a stream. */
  int rho_of_p;
} tf_medium;

/* ---- the registry of media -------------------------------------------------
 * A medium is registered once, when the code holding it loads (a plugin's
 * shared object too: TF_MEDIUM below), and every thermofluid component then
 * takes it by its kind number, which Lua finds by id (tf.medium "id").
 * tf_medium_register returns the kind, or -1 when the descriptor is
 * refused (compiled against another tf_medium: size differs; no id, or an
 * id that is no C identifier; no rho, T, h, cp, from_rho_u or check; an id
 * or a kind number another medium holds; the registry full) with the
 * reason in tf_medium_error(). Registering the same descriptor twice
 * returns its kind. */
int tf_medium_register(const tf_medium *m, size_t size);
const char *tf_medium_error(void);
const tf_medium *tf_medium_find(const char *id);
const tf_medium *tf_medium_of_kind(double kind);
int tf_medium_count(void);
const tf_medium *tf_medium_at(int i);
/* The kind number of a registered medium (its own, or derived from its id). */
int tf_medium_kind(const tf_medium *m);
/* Register medium M (a tf_medium variable) when the code loads. */
#define TF_MEDIUM(M)                                                            \
  LIED_CONSTRUCTOR static void tf_medium_register_##M(void) {                   \
    (void)tf_medium_register(&M, sizeof M);                                     \
  }

/* A component's medium: the parameter vector and its resolved table. */
typedef struct tf_med {
  double par[TF_MEDIUM_LEN];
  const tf_medium *fn;
} tf_med;

/* ---- mass fractions --------------------------------------------------------
 * A component whose medium has a composition (tf_nX > 0) declares its
 * ports with X (tf_meta_in / tf_meta_out pick the layout), reads the
 * inlets' X in the blocks that use the medium (TF_X as the last block
 * input or output: NULL for other media, which ends the list) and computes
 * with the medium at that composition (tf_med_at). */
static inline int tf_nX(const tf_med *m) { return m->fn->nX; }
/* Put the composition X_k = X[k * stride] into m's constants. */
static inline void tf_med_put_X(tf_med *m, const double *X, size_t stride) {
  for (int k = 0; k < m->fn->nX; k++) m->par[1 + m->fn->X_at + k] = X[(size_t)k * stride];
}
/* m with its composition constants replaced by X (m itself without them). */
static inline const tf_med *tf_med_at(const tf_med *m, const tf_X *X, tf_med *tmp) {
  if (!m->fn->nX) return m;
  *tmp = *m;
  tf_med_put_X(tmp, X->X, 1);
  return tmp;
}
/* The medium's own composition (what a source emits, a volume starts with). */
static inline void tf_med_X(const tf_med *m, tf_X *X) {
  for (int k = 0; k < TF_NX; k++) X->X[k] = k < m->fn->nX ? m->par[1 + m->fn->X_at + k] : 0.0;
}
void tf_meta_in(lied_meta *m, const char *name, int index, tf_in *port, const tf_med *med);
void tf_meta_out(lied_meta *m, const char *name, int index, tf_out *port, const tf_med *med);
/* The ports of a component whose medium matters for the layout only (a
 * mixture's X: Splitter, Junction): they take a stream of any medium of
 * that layout. tf_meta_in and tf_meta_out declare the medium, and a
 * connection between ports of two media is refused. */
void tf_meta_in_any(lied_meta *m, const char *name, int index, tf_in *port, const tf_med *med);
void tf_meta_out_any(lied_meta *m, const char *name, int index, tf_out *port, const tf_med *med);
/* outlet.X = inlet.X (a mixture passes an element unchanged). */
static inline void tf_pass_X(const tf_med *m, const tf_in *in, tf_out *out) {
  if (m->fn->nX) out->X = *in->X;
}
/* A port's X signal in a block's inputs or outputs (NULL without it). */
#define TF_X(med, port) ((med)->fn->nX ? (const void *)&(port).X : NULL)

/* For init: report through ctx and return -1 when (p, T) is not a valid
 * state of the medium (what names the state: "start state (p0, T0)"). */
int tf_medium_check_pT(const tf_med *med, lied_init *ctx, double p, double T, const char *what);

/* During a run (docs/media.md, "Out of range"): a medium's laws return NaN
 * outside their range of validity. A block that computed v from the state
 * (p, h), (p, T) or (rho, u) calls these when v is not finite: they record a
 * fault of the instance `self` through lied_block_fault (the solver then
 * stops with LIED_E_RANGE naming the component and the time), the message
 * naming `what` and the medium's reason. Cold path: no allocation. */
void tf_fault_ph(const lied_env *env, const void *self, const tf_med *m, double p, double h,
                 const char *what);
void tf_fault_pT(const lied_env *env, const void *self, const tf_med *m, double p, double T,
                 const char *what);
void tf_fault_rho_u(const lied_env *env, const void *self, const tf_med *m, double rho, double u,
                    const char *what);
#define TF_GUARD_PH(env, self, m, v, p, h, what) \
  do { if (!isfinite(v)) tf_fault_ph(env, self, m, p, h, what); } while (0)
#define TF_GUARD_PT(env, self, m, v, p, T, what) \
  do { if (!isfinite(v)) tf_fault_pT(env, self, m, p, T, what); } while (0)

/* Resolve med->par into med->fn; reports through ctx and returns -1 when
 * the kind is unknown or a constant is out of range. Call from init. */
int tf_medium_init(tf_med *med, lied_init *ctx);

static inline double tf_rho(const tf_med *m, double p, double h) {
  return m->fn->rho(m->par + 1, p, h);
}
static inline double tf_T(const tf_med *m, double p, double h) {
  return m->fn->T(m->par + 1, p, h);
}
static inline double tf_h(const tf_med *m, double p, double T) {
  return m->fn->h(m->par + 1, p, T);
}

/* The liquid's laws (media.c), also for lane forms that evaluate them inline:
 * c = {rho0, cp, beta, p_ref, T_ref} (the medium vector without its kind). */
static inline double tf_liquid_rho(const double *c, double p) {
  return c[0] * (1.0 + c[2] * (p - c[3]));
}
static inline double tf_liquid_T(const double *c, double h) { return c[4] + h / c[1]; }

/* Parameter table entry for `medium` (default: the standard liquid). */
#define TF_MEDIUM_PARAM(TYPE) TF_MEDIUM_PARAM_AT(TYPE, med)
/* the same for a medium at member path MED of TYPE */
#define TF_MEDIUM_PARAM_AT(TYPE, MED)                                           \
  {"medium", offsetof(TYPE, MED.par), 0, "1",                                   \
   "medium {kind, c1..c5}: tf.liquid{...}, tf.gas{...}, tf.steam, tf.moist_air{...}, tf.R134a, " \
   "tf.medium \"id\" (default tf.water)", \
   TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN, NULL}
/* Parameter defaults are per element; init puts the standard liquid in
 * place of an all-zero vector (the default). */
void tf_medium_default(tf_med *med);

/* ---- helpers shared by two-port elements ---------------------------------- */

/* outlet.der = inlet.der (flow is conserved along an element). */
static inline void tf_pass_der(const tf_in *in, tf_out *out) {
  out->der.der_m_flow = in->der->der_m_flow;
}
/* inlet.r = outlet.r + L * der_m_flow. */
static inline void tf_pass_r(tf_in *in, const tf_out *out, double L) {
  in->r.r = out->r->r + L * in->der->der_m_flow;
}

/* ---- a flowing cell (ConductionElement, Heater, heat exchanger cells) -----
 * A well-mixed cell with an enthalpy state h, fed by the upwind enthalpy
 * h_in (the inlet's, also for reversed flow), receiving the heat flow Q:
 *   M der(h) = |m_flow|*(h_in - h) + Q,   M = rho(p0, h(p0, T0))*V
 * A flow-through cell passes its inlet's mass flow to its outlet (it has no
 * mass balance), so it holds a fixed mass M, computed once at init from its
 * start state (docs/thermofluid.md, "Flow-through cells"): its energy M*h
 * then changes exactly by the enthalpy flows and the heat, and a model's
 * energy balance closes to rounding. */
static inline double tf_cell_der(double m_flow, double h_in, double h, double Q, double M) {
  return (fabs(m_flow) * (h_in - h) + Q) / M;
}
/* The fixed mass of a flow-through cell of volume V started at (p0, T0). */
static inline double tf_cell_mass(const tf_med *m, double p0, double T0, double V) {
  return tf_rho(m, p0, tf_h(m, p0, T0)) * V;
}

/* M = tf_cell_mass(...) of a component's init, or an init error (what: the
 * cell, "stream a") when it is not positive and finite (V = 1e308). */
int tf_cell_mass_init(const tf_med *m, lied_init *ctx, double p0, double T0, double V,
                      const char *what, double *M);

/* The content of a volume V started at p0 and T0 (or at quality x0 >= 0 of a two-phase
 * medium): its mass M, internal energy U and component masses MX. An init error when
 * the medium cannot hold it: a start state outside its range, an incompressible liquid,
 * a mass that is not finite (V = 1e308), or a p0 that does not come back from (M/V, U/M)
 * (a liquid's compressibility too small to resolve it: the run started at p_ref). */
int tf_content_start(tf_med *med, lied_init *ctx, double V, double p0, double T0,
                     double x0, double *M, double *U, double *MX);

/* ---- lane forms (lied/component.h, "Lane forms") ----------------------------
 * A field of copy l of a group at g: an int shares its 8-byte word with its
 * neighbour; a medium is gathered into a tf_med of the copy's own (the same
 * doubles and table, so the same bits as the block). */
#define TF_LANE_WORD(TYPE, g, FIELD, l)                                                   \
  ((const void *)((g) + (offsetof(TYPE, FIELD) / 8) * 8 * LIED_LANES + 8 * (l) +          \
                  offsetof(TYPE, FIELD) % 8))
#define TF_LANE_INT(TYPE, g, FIELD, l) (*(const int *)TF_LANE_WORD(TYPE, g, FIELD, l))
#define TF_LANE_MED(TYPE, g, FIELD, l, out)                                                \
  do {                                                                                   \
    for (int k_ = 0; k_ < TF_MEDIUM_LEN; k_++)                                           \
      (out)->par[k_] = LIED_LANE(TYPE, g, FIELD.par)[k_ * LIED_LANES + (l)];             \
    (out)->fn = *(const tf_medium *const *)TF_LANE_WORD(TYPE, g, FIELD.fn, l);           \
  } while (0)
/* TF_LANE_MED at the composition of the copy's stream: Xl the lanes of an X
 * signal (X_k of copy l at Xl[k * LIED_LANES + l]), NULL for none. */
#define TF_LANE_MED_AT(TYPE, g, FIELD, l, Xl, out)                                         \
  do {                                                                                   \
    TF_LANE_MED(TYPE, g, FIELD, l, out);                                                 \
    if (Xl) tf_med_put_X((out), (Xl) + (l), LIED_LANES);                                 \
  } while (0)
/* The lanes of the medium vectors par of a group's n copies (element k of
 * copy l at par[k * LIED_LANES + l]) at the compositions X (lanes of an X
 * signal), written into buf (TF_MEDIUM_LEN * LIED_LANES doubles); par
 * itself when X is NULL (media of one substance). */
const double *tf_par_lanes_at(size_t n, const double *par, const tf_medium *const *fns,
                              const double *X, double *buf);
/* outlet.X = inlet.X for the copies of a group (lanes of the two X
 * signals; nothing when the inlet has none). */
static inline void tf_pass_X_lanes(size_t n, const double *in, double *out) {
  if (!in) return;
  for (int k = 0; k < TF_NX; k++)
    for (size_t l = 0; l < n; l++) out[k * LIED_LANES + l] = in[k * LIED_LANES + l];
}
/* The tables of the media FIELD of the copies of a group: fns[l] is copy l's. */
#define TF_LANE_FNS(TYPE, g, FIELD) ((const tf_medium *const *)TF_LANE_WORD(TYPE, g, FIELD.fn, 0))
/* T(p[l], h[l]) of the n copies of a group, bit for bit what tf_T gives
 * copy by copy: par the lanes of their medium vectors (element k of copy l
 * at par[k * LIED_LANES + l]), fns their tables. Copies that share one
 * table (the usual case) go through its lane form T_lanes. */
void tf_T_lanes(size_t n, const double *par, const tf_medium *const *fns, const double *p,
                const double *h, double *T);
/* Variable j of copy l of a stream signal read through a lane pointer. */
#define TF_V(p, j, l) ((p)[(j) * LIED_LANES + (l)])

/* Lane forms of the two pass-through blocks of a two-port element:
 * outlet.der = inlet.der (tf_pass_der) and inlet.r = outlet.r + L der
 * (tf_pass_r), for TYPE's ports IN, OUT and inertance field L_. */
#define TF_DER_LANES(NAME, TYPE, IN, OUT)                                                  \
  LIED_LANE_BODY void NAME##_n(const lied_env *env, char *g, size_t n, size_t stride) {    \
    (void)env, (void)stride;                                                               \
    const double *restrict i_ = LIED_LANE_IN(TYPE, g, IN.der);                             \
    double *restrict o_ = LIED_LANE(TYPE, g, OUT.der.der_m_flow);                          \
    LIED_LANE_LOOP                                                                         \
    for (size_t l = 0; l < n; l++) o_[l] = i_[l];                                          \
  }                                                                                        \
  LIED_LANE_FORM(NAME)
#define TF_R_LANES(NAME, TYPE, IN, OUT, L_)                                                \
  LIED_LANE_BODY void NAME##_n(const lied_env *env, char *g, size_t n, size_t stride) {    \
    (void)env, (void)stride;                                                               \
    const double *restrict r_ = LIED_LANE_IN(TYPE, g, OUT.r);                              \
    const double *restrict d_ = LIED_LANE_IN(TYPE, g, IN.der);                             \
    const double *restrict L = LIED_LANE(TYPE, g, L_);                                     \
    double *restrict o_ = LIED_LANE(TYPE, g, IN.r.r);                                      \
    LIED_LANE_LOOP                                                                         \
    for (size_t l = 0; l < n; l++) o_[l] = r_[l] + L[l] * d_[l];                           \
  }                                                                                        \
  LIED_LANE_FORM(NAME)

/* The library's classes. */
extern const lied_class tf_source_class, tf_sink_class, tf_tank_out_class,
    tf_tank_in_class, tf_pressure_drop_class, tf_linquad_drop_class,
    tf_laminar_drop_class, tf_splitter_class, tf_junction_class, tf_volume_class,
    tf_pump_class, tf_heater_class, tf_conduction_class, tf_counter_hx_class,
    tf_parallel_hx_class, tf_cross_hx_class, tf_mass_flow_source_class, tf_valve_class, tf_check_valve_class,
    tf_fan_class, tf_reservoir_class, tf_t_sensor_class, tf_p_sensor_class,
    tf_m_sensor_class, tf_h_sensor_class, tf_x_sensor_class, tf_separator_class,
    tf_counter_ntu_class, tf_parallel_ntu_class, tf_cross_ntu_class, tf_pipe_class;

#endif
