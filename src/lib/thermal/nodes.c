/* nodes.c - the components on the node side of the heat connector: they
 * set a temperature and read the heat flow their branches draw.
 *   HeatCapacitor          C der(T) = -sum Q_flow (heat into the capacitor)
 *   FixedTemperature       T = T (parameter)
 *   PrescribedTemperature  T = T_in (signal) */
#include "lib/thermal/thermal.h"

/* ---- HeatCapacitor -------------------------------------------------------- */

typedef struct th_cap {
  th_node port;
  double T, der_T; /* state */
  double C;
} th_cap;

static inline void cap_der_eq(double Q, double C, double *der_T) { *der_T = -Q / C; }

/* A node's temperature at or below 0 K is no temperature: a capacitor that
 * gave more heat than it holds, a prescribed input below zero. The branches
 * would go on computing with it (radiation's T^4, a resistor's R(T), a
 * heat flow proportional to it) and the run end with exit 0 on a body at
 * -400 K. A fault (the component and the time; adaptive solvers retry a
 * smaller step); NaN passes, the solver names a state gone NaN. */
static inline void cap_check(const lied_env *env, const void *self, double T) {
  if (T <= 0)
    lied_block_fault(env, self,
                     "the temperature T = %g K fell to 0 K or below (more heat was drawn than "
                     "the capacitor holds)",
                     T);
}
static inline void prescribed_check(const lied_env *env, const void *self, double T) {
  if (T <= 0)
    lied_block_fault(env, self,
                     "T_in = %g K from the signal input: an absolute temperature must be > 0 K",
                     T);
}

static void cap_temp(const lied_env *env, th_cap *c) {
  cap_check(env, c, c->T);
  c->port.T.T = c->T;
}
static void cap_der(const lied_env *env, th_cap *c) {
  (void)env;
  cap_der_eq(c->port.Q->Q_flow, c->C, &c->der_T);
}
LIED_BLOCK(cap_temp_b, th_cap, cap_temp)
LIED_BLOCK(cap_der_b, th_cap, cap_der)

LIED_LANE_BODY void cap_temp_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *restrict T = LIED_LANE(th_cap, g, T);
  double *restrict out = LIED_LANE(th_cap, g, port.T.T);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) out[l] = T[l];
  for (size_t l = 0; l < n; l++) cap_check(env, &out[l], T[l]);
}
LIED_LANE_FORM(cap_temp_lanes)
LIED_LANE_BODY void cap_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict Q = LIED_LANE_IN(th_cap, g, port.Q);
  const double *restrict C = LIED_LANE(th_cap, g, C);
  double *restrict der = LIED_LANE(th_cap, g, der_T);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) cap_der_eq(Q[l], C[l], &der[l]);
}
LIED_LANE_FORM(cap_der_lanes)

static void cap_meta(lied_meta *m, void *self) {
  th_cap *c = self;
  lied_meta_port(m, "port", 0, &c->port, &th_node_layout);
  lied_meta_state(m, "T", "K", &c->T, &c->der_T);
  lied_meta_block(m, "temperature", cap_temp_b, 0, LIED_SIGS(&c->T), LIED_SIGS(&c->port.T));
  lied_meta_lanes(m, cap_temp_lanes);
  lied_meta_block(m, "balance", cap_der_b, 0, LIED_SIGS(&c->port.Q, &c->C),
                  LIED_SIGS(&c->der_T));
  lied_meta_lanes(m, cap_der_lanes);
}

static const lied_param cap_params[] = {
    {"C", offsetof(th_cap, C), 1, "J/K", "heat capacity", 0, TH_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"T", offsetof(th_cap, T), 293.15, "K", "start temperature", 0, TH_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
};
const lied_class th_heat_capacitor_class = {
    "HeatCapacitor", "thermal",
    "lumped heat capacity C: C der(T) = heat flowing in = -(sum of the heat flows its "
    "branches draw)",
    sizeof(th_cap), cap_params, 2, NULL, cap_meta};

/* ---- FixedTemperature / PrescribedTemperature ------------------------------ */

typedef struct th_fixed_t {
  th_node port;
  lied_real_in T_in;
  double T;
  double Q_flow; /* heat flow out of the boundary into its branches */
} th_fixed_t;

static void fixed_t_eval(const lied_env *env, th_fixed_t *f) {
  (void)env;
  f->port.T.T = f->T;
}
static void prescribed_t_eval(const lied_env *env, th_fixed_t *f) {
  prescribed_check(env, f, f->T_in.y->y);
  f->port.T.T = f->T_in.y->y;
}
static void fixed_t_flow(const lied_env *env, th_fixed_t *f) {
  (void)env;
  f->Q_flow = f->port.Q->Q_flow;
}
LIED_BLOCK(fixed_t_b, th_fixed_t, fixed_t_eval)
LIED_BLOCK(prescribed_t_b, th_fixed_t, prescribed_t_eval)
LIED_BLOCK(fixed_t_flow_b, th_fixed_t, fixed_t_flow)

LIED_LANE_BODY void fixed_t_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict T = LIED_LANE(th_fixed_t, g, T);
  double *restrict out = LIED_LANE(th_fixed_t, g, port.T.T);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) out[l] = T[l];
}
LIED_LANE_FORM(fixed_t_lanes)
LIED_LANE_BODY void prescribed_t_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)stride;
  const double *restrict T = LIED_LANE_IN(th_fixed_t, g, T_in.y);
  double *restrict out = LIED_LANE(th_fixed_t, g, port.T.T);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) out[l] = T[l];
  for (size_t l = 0; l < n; l++) prescribed_check(env, &out[l], T[l]);
}
LIED_LANE_FORM(prescribed_t_lanes)
LIED_LANE_BODY void fixed_t_flow_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  const double *restrict Q = LIED_LANE_IN(th_fixed_t, g, port.Q);
  double *restrict out = LIED_LANE(th_fixed_t, g, Q_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) out[l] = Q[l];
}
LIED_LANE_FORM(fixed_t_flow_lanes)

static void fixed_t_meta_common(lied_meta *m, th_fixed_t *f) {
  lied_meta_port(m, "port", 0, &f->port, &th_node_layout);
  lied_meta_var(m, "Q_flow", "W", &f->Q_flow);
  lied_meta_block(m, "flow", fixed_t_flow_b, 0, LIED_SIGS(&f->port.Q), LIED_SIGS(&f->Q_flow));
  lied_meta_lanes(m, fixed_t_flow_lanes);
}
static void fixed_t_meta(lied_meta *m, void *self) {
  th_fixed_t *f = self;
  fixed_t_meta_common(m, f);
  lied_meta_block(m, "temperature", fixed_t_b, 0, LIED_SIGS(&f->T), LIED_SIGS(&f->port.T));
  lied_meta_lanes(m, fixed_t_lanes);
}
static void prescribed_t_meta(lied_meta *m, void *self) {
  th_fixed_t *f = self;
  fixed_t_meta_common(m, f);
  lied_meta_real_in(m, "T_in", 0, &f->T_in);
  lied_meta_var(m, "T", "K", &f->port.T.T);
  lied_meta_block(m, "temperature", prescribed_t_b, 0, LIED_SIGS(&f->T_in.y),
                  LIED_SIGS(&f->port.T));
  lied_meta_lanes(m, prescribed_t_lanes);
}

static const lied_param fixed_t_params[] = {
    {"T", offsetof(th_fixed_t, T), 293.15, "K", "temperature of the boundary", 0, TH_NOMAX,
     LIED_PARAM_MIN_OPEN, 0},
};
const lied_class th_fixed_temperature_class = {
    "FixedTemperature", "thermal",
    "boundary at the fixed temperature T (an ideal heat source or sink); records the heat "
    "flow Q_flow it delivers",
    sizeof(th_fixed_t), fixed_t_params, 1, NULL, fixed_t_meta};
const lied_class th_prescribed_temperature_class = {
    "PrescribedTemperature", "thermal",
    "boundary at the temperature of the signal input T_in [K]; records the heat flow Q_flow it "
    "delivers",
    sizeof(th_fixed_t), NULL, 0, NULL, prescribed_t_meta};
