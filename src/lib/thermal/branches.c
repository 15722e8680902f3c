/* branches.c - the components on the branch side of the heat connector:
 * they read the temperatures of the nodes they connect and return the heat
 * flow they draw from each (Q_flow, positive into the component).
 *   ThermalConductor    Q_flow = G (T_a - T_b)
 *   Convection          Q_flow = Gc (T_solid - T_fluid), Gc a parameter or a signal
 *   BodyRadiation       Q_flow = Gr sigma (T_a^4 - T_b^4)
 *   FixedHeatFlow       port.Q_flow = -Q_flow (1 + alpha (T - T_ref))
 *   PrescribedHeatFlow  the same with Q_flow from the signal input Q_flow_in
 *   TemperatureSensor   y = T, draws nothing
 *   HeatFlowSensor      port_b.T = port_a.T, y = heat flow from port_a to port_b */
#include "lib/thermal/thermal.h"

/* ---- two-port elements: conductor, convection, radiation ------------------- */

enum { LAW_CONDUCTION = 1, LAW_CONVECTION, LAW_RADIATION };

typedef struct th_elem {
  th_branch a, b;     /* port_a / port_b (Convection: solid / fluid) */
  lied_real_in G_in;  /* Convection: Gc_in */
  double G;           /* G [W/K], Gc [W/K] or Gr [m2] */
  double sigma;       /* radiation only */
  double Q_flow, dT;  /* heat flow from a to b, T_a - T_b */
  int law, G_from_input;
} th_elem;

static inline void conduction_eq(double G, double Ta, double Tb, double *dT, double *Q,
                                 double *Qa, double *Qb) {
  *dT = Ta - Tb;
  *Q = G * *dT;
  *Qa = *Q;
  *Qb = -*Q;
}
static inline void radiation_eq(double Gr, double sigma, double Ta, double Tb, double *dT,
                                double *Q, double *Qa, double *Qb) {
  double a2 = Ta * Ta, b2 = Tb * Tb;
  *dT = Ta - Tb;
  *Q = Gr * sigma * (a2 * a2 - b2 * b2);
  *Qa = *Q;
  *Qb = -*Q;
}

static void conduction(const lied_env *env, th_elem *e) {
  (void)env;
  conduction_eq(e->G, e->a.T->T, e->b.T->T, &e->dT, &e->Q_flow, &e->a.Q.Q_flow, &e->b.Q.Q_flow);
}
static void convection_in(const lied_env *env, th_elem *e) {
  (void)env;
  conduction_eq(e->G_in.y->y, e->a.T->T, e->b.T->T, &e->dT, &e->Q_flow, &e->a.Q.Q_flow,
                &e->b.Q.Q_flow);
}
static void radiation(const lied_env *env, th_elem *e) {
  (void)env;
  radiation_eq(e->G, e->sigma, e->a.T->T, e->b.T->T, &e->dT, &e->Q_flow, &e->a.Q.Q_flow,
               &e->b.Q.Q_flow);
}
LIED_BLOCK(conduction_b, th_elem, conduction)
LIED_BLOCK(convection_in_b, th_elem, convection_in)
LIED_BLOCK(radiation_b, th_elem, radiation)

#define ELEM_LANES_HEAD                                                          \
  (void)env, (void)stride;                                                       \
  const double *restrict Ta = LIED_LANE_IN(th_elem, g, a.T);                     \
  const double *restrict Tb = LIED_LANE_IN(th_elem, g, b.T);                     \
  double *restrict dT = LIED_LANE(th_elem, g, dT);                               \
  double *restrict Q = LIED_LANE(th_elem, g, Q_flow);                            \
  double *restrict Qa = LIED_LANE(th_elem, g, a.Q.Q_flow);                       \
  double *restrict Qb = LIED_LANE(th_elem, g, b.Q.Q_flow);

LIED_LANE_BODY void conduction_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  ELEM_LANES_HEAD
  const double *restrict G = LIED_LANE(th_elem, g, G);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) conduction_eq(G[l], Ta[l], Tb[l], &dT[l], &Q[l], &Qa[l], &Qb[l]);
}
LIED_LANE_FORM(conduction_lanes)
LIED_LANE_BODY void convection_in_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  ELEM_LANES_HEAD
  const double *restrict G = LIED_LANE_IN(th_elem, g, G_in.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) conduction_eq(G[l], Ta[l], Tb[l], &dT[l], &Q[l], &Qa[l], &Qb[l]);
}
LIED_LANE_FORM(convection_in_lanes)
LIED_LANE_BODY void radiation_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  ELEM_LANES_HEAD
  const double *restrict G = LIED_LANE(th_elem, g, G);
  const double *restrict s = LIED_LANE(th_elem, g, sigma);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    radiation_eq(G[l], s[l], Ta[l], Tb[l], &dT[l], &Q[l], &Qa[l], &Qb[l]);
}
LIED_LANE_FORM(radiation_lanes)

static int conductor_init(void *self, lied_init *ctx) {
  (void)ctx;
  ((th_elem *)self)->law = LAW_CONDUCTION;
  return 0;
}
static int convection_init(void *self, lied_init *ctx) {
  (void)ctx;
  ((th_elem *)self)->law = LAW_CONVECTION;
  return 0;
}
static int radiation_init(void *self, lied_init *ctx) {
  (void)ctx;
  ((th_elem *)self)->law = LAW_RADIATION;
  return 0;
}

static void elem_meta(lied_meta *m, void *self) {
  th_elem *e = self;
  int conv = e->law == LAW_CONVECTION;
  lied_meta_port(m, conv ? "solid" : "port_a", 0, &e->a, &th_branch_layout);
  lied_meta_port(m, conv ? "fluid" : "port_b", 0, &e->b, &th_branch_layout);
  lied_meta_var(m, "Q_flow", "W", &e->Q_flow);
  lied_meta_var(m, "dT", "K", &e->dT);
  if (conv && e->G_from_input) {
    lied_meta_real_in(m, "Gc_in", 0, &e->G_in);
    lied_meta_block(m, "flow", convection_in_b, 0, LIED_SIGS(&e->a.T, &e->b.T, &e->G_in.y),
                    LIED_SIGS(&e->a.Q, &e->b.Q, &e->Q_flow, &e->dT));
    lied_meta_lanes(m, convection_in_lanes);
  } else if (e->law == LAW_RADIATION) {
    lied_meta_block(m, "flow", radiation_b, 0, LIED_SIGS(&e->a.T, &e->b.T),
                    LIED_SIGS(&e->a.Q, &e->b.Q, &e->Q_flow, &e->dT));
    lied_meta_lanes(m, radiation_lanes);
  } else {
    lied_meta_block(m, "flow", conduction_b, 0, LIED_SIGS(&e->a.T, &e->b.T),
                    LIED_SIGS(&e->a.Q, &e->b.Q, &e->Q_flow, &e->dT));
    lied_meta_lanes(m, conduction_lanes);
  }
}

static const lied_param conductor_params[] = {
    {"G", offsetof(th_elem, G), 1, "W/K", "thermal conductance", 0, TH_NOMAX, 0, 0},
};
static const lied_param convection_params[] = {
    {"Gc", offsetof(th_elem, G), 1, "W/K",
     "convective thermal conductance (unless Gc_from_input)", 0, TH_NOMAX, 0, 0},
    {"Gc_from_input", offsetof(th_elem, G_from_input), 0, "1",
     "1: conductance from the signal input Gc_in [W/K]", 0, 1, LIED_PARAM_INT, 0},
};
static const lied_param radiation_params[] = {
    {"Gr", offsetof(th_elem, G), 1, "m2", "net radiation conductance (area times factors)", 0,
     TH_NOMAX, 0, 0},
    {"sigma", offsetof(th_elem, sigma), 5.670374419e-8, "W/(m2.K4)",
     "Stefan-Boltzmann constant", 0, TH_NOMAX, LIED_PARAM_MIN_OPEN, 0},
};
const lied_class th_conductor_class = {
    "ThermalConductor", "thermal",
    "lumped thermal conductance G between two nodes: Q_flow = G*(port_a.T - port_b.T)",
    sizeof(th_elem), conductor_params, 1, conductor_init, elem_meta};
const lied_class th_convection_class = {
    "Convection", "thermal",
    "convective heat transfer: Q_flow = Gc*(solid.T - fluid.T); Gc from a parameter or the "
    "signal input Gc_in",
    sizeof(th_elem), convection_params, 2, convection_init, elem_meta};
const lied_class th_radiation_class = {
    "BodyRadiation", "thermal",
    "radiation between two bodies: Q_flow = Gr*sigma*(port_a.T^4 - port_b.T^4)",
    sizeof(th_elem), radiation_params, 2, radiation_init, elem_meta};

/* ---- FixedHeatFlow / PrescribedHeatFlow ------------------------------------ */

typedef struct th_hflow {
  th_branch port;
  lied_real_in Q_in;
  double Q, T_ref, alpha;
  double Q_flow; /* heat flow into the node */
} th_hflow;

static inline void hflow_eq(double Q0, double alpha, double T_ref, double T, double *Q,
                            double *Qport) {
  *Q = Q0 * (1 + alpha * (T - T_ref));
  *Qport = -*Q;
}
static void fixed_hflow(const lied_env *env, th_hflow *h) {
  (void)env;
  hflow_eq(h->Q, h->alpha, h->T_ref, h->port.T->T, &h->Q_flow, &h->port.Q.Q_flow);
}
static void prescribed_hflow(const lied_env *env, th_hflow *h) {
  (void)env;
  hflow_eq(h->Q_in.y->y, h->alpha, h->T_ref, h->port.T->T, &h->Q_flow, &h->port.Q.Q_flow);
}
LIED_BLOCK(fixed_hflow_b, th_hflow, fixed_hflow)
LIED_BLOCK(prescribed_hflow_b, th_hflow, prescribed_hflow)

#define HFLOW_LANES(NAME, QSRC)                                                          \
  LIED_LANE_BODY void NAME##_n(const lied_env *env, char *g, size_t n, size_t stride) {  \
    (void)env, (void)stride;                                                             \
    const double *restrict Q0 = QSRC;                                                    \
    const double *restrict T = LIED_LANE_IN(th_hflow, g, port.T);                        \
    const double *restrict alpha = LIED_LANE(th_hflow, g, alpha);                        \
    const double *restrict T_ref = LIED_LANE(th_hflow, g, T_ref);                        \
    double *restrict Q = LIED_LANE(th_hflow, g, Q_flow);                                 \
    double *restrict Qp = LIED_LANE(th_hflow, g, port.Q.Q_flow);                         \
    LIED_LANE_LOOP                                                                       \
    for (size_t l = 0; l < n; l++) hflow_eq(Q0[l], alpha[l], T_ref[l], T[l], &Q[l], &Qp[l]); \
  }                                                                                          \
  LIED_LANE_FORM(NAME)
HFLOW_LANES(fixed_hflow_lanes, LIED_LANE(th_hflow, g, Q))
HFLOW_LANES(prescribed_hflow_lanes, LIED_LANE_IN(th_hflow, g, Q_in.y))

static void fixed_hflow_meta(lied_meta *m, void *self) {
  th_hflow *h = self;
  lied_meta_port(m, "port", 0, &h->port, &th_branch_layout);
  lied_meta_var(m, "Q", "W", &h->Q_flow);
  lied_meta_block(m, "flow", fixed_hflow_b, 0, LIED_SIGS(&h->port.T),
                  LIED_SIGS(&h->port.Q, &h->Q_flow));
  lied_meta_lanes(m, fixed_hflow_lanes);
}
static void prescribed_hflow_meta(lied_meta *m, void *self) {
  th_hflow *h = self;
  lied_meta_port(m, "port", 0, &h->port, &th_branch_layout);
  lied_meta_real_in(m, "Q_flow_in", 0, &h->Q_in);
  lied_meta_var(m, "Q_flow", "W", &h->Q_flow);
  lied_meta_block(m, "flow", prescribed_hflow_b, 0, LIED_SIGS(&h->port.T, &h->Q_in.y),
                  LIED_SIGS(&h->port.Q, &h->Q_flow));
  lied_meta_lanes(m, prescribed_hflow_lanes);
}

#define HFLOW_T_PARAMS                                                                       \
  {"T_ref", offsetof(th_hflow, T_ref), 293.15, "K", "reference temperature of alpha", 0,     \
   TH_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                        \
  {"alpha", offsetof(th_hflow, alpha), 0, "1/K",                                             \
   "temperature coefficient: Q_flow*(1 + alpha*(T - T_ref))", TH_NOMIN, TH_NOMAX, 0, 0}
static const lied_param fixed_hflow_params[] = {
    {"Q_flow", offsetof(th_hflow, Q), 0, "W", "heat flow into the node (at T_ref)", TH_NOMIN,
     TH_NOMAX, 0, 0},
    HFLOW_T_PARAMS,
};
static const lied_param prescribed_hflow_params[] = {HFLOW_T_PARAMS};
const lied_class th_fixed_heat_flow_class = {
    "FixedHeatFlow", "thermal",
    "fixed heat flow Q_flow into the node (times 1 + alpha*(T - T_ref)); records it as Q",
    sizeof(th_hflow), fixed_hflow_params, 3, NULL, fixed_hflow_meta};
const lied_class th_prescribed_heat_flow_class = {
    "PrescribedHeatFlow", "thermal",
    "heat flow from the signal input Q_flow_in [W] into the node (times 1 + alpha*(T - "
    "T_ref)); records it as Q_flow",
    sizeof(th_hflow), prescribed_hflow_params, 2, NULL, prescribed_hflow_meta};

/* ---- sensors ---------------------------------------------------------------- */

typedef struct th_tsensor {
  th_branch port;
  lied_real_out y;
  double T;
} th_tsensor;

static void tsensor_eval(const lied_env *env, th_tsensor *s) {
  (void)env;
  s->T = s->port.T->T;
  s->y.y.y = s->T;
  s->port.Q.Q_flow = 0;
}
LIED_BLOCK(tsensor_b, th_tsensor, tsensor_eval)
LIED_LANE_BODY void tsensor_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict Tin = LIED_LANE_IN(th_tsensor, g, port.T);
  double *restrict T = LIED_LANE(th_tsensor, g, T), *restrict y = LIED_LANE(th_tsensor, g, y.y.y);
  double *restrict Q = LIED_LANE(th_tsensor, g, port.Q.Q_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    T[l] = Tin[l];
    y[l] = T[l];
    Q[l] = 0;
  }
}
LIED_LANE_FORM(tsensor_lanes)
static void tsensor_meta(lied_meta *m, void *self) {
  th_tsensor *s = self;
  lied_meta_port(m, "port", 0, &s->port, &th_branch_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "T", "K", &s->T);
  lied_meta_block(m, "measure", tsensor_b, 0, LIED_SIGS(&s->port.T),
                  LIED_SIGS(&s->T, &s->y.y, &s->port.Q));
  lied_meta_lanes(m, tsensor_lanes);
}
const lied_class th_temperature_sensor_class = {
    "TemperatureSensor", "thermal",
    "ideal temperature sensor: output y = port.T [K] (also recorded as T); draws no heat",
    sizeof(th_tsensor), NULL, 0, NULL, tsensor_meta};

typedef struct th_qsensor {
  th_branch a;
  th_node b;
  lied_real_out y;
  double Q_flow;
} th_qsensor;

static void qsensor_temp(const lied_env *env, th_qsensor *s) {
  (void)env;
  s->b.T.T = s->a.T->T;
}
static void qsensor_flow(const lied_env *env, th_qsensor *s) {
  (void)env;
  s->Q_flow = s->b.Q->Q_flow;
  s->a.Q.Q_flow = s->Q_flow;
  s->y.y.y = s->Q_flow;
}
LIED_BLOCK(qsensor_temp_b, th_qsensor, qsensor_temp)
LIED_BLOCK(qsensor_flow_b, th_qsensor, qsensor_flow)
LIED_LANE_BODY void qsensor_temp_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  const double *restrict Ta = LIED_LANE_IN(th_qsensor, g, a.T);
  double *restrict Tb = LIED_LANE(th_qsensor, g, b.T.T);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) Tb[l] = Ta[l];
}
LIED_LANE_FORM(qsensor_temp_lanes)
LIED_LANE_BODY void qsensor_flow_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  const double *restrict Qb = LIED_LANE_IN(th_qsensor, g, b.Q);
  double *restrict Q = LIED_LANE(th_qsensor, g, Q_flow), *restrict y = LIED_LANE(th_qsensor, g, y.y.y);
  double *restrict Qa = LIED_LANE(th_qsensor, g, a.Q.Q_flow);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    Q[l] = Qb[l];
    Qa[l] = Q[l];
    y[l] = Q[l];
  }
}
LIED_LANE_FORM(qsensor_flow_lanes)
static void qsensor_meta(lied_meta *m, void *self) {
  th_qsensor *s = self;
  lied_meta_port(m, "port_a", 0, &s->a, &th_branch_layout);
  lied_meta_port(m, "port_b", 0, &s->b, &th_node_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "Q_flow", "W", &s->Q_flow);
  lied_meta_block(m, "temperature", qsensor_temp_b, 0, LIED_SIGS(&s->a.T), LIED_SIGS(&s->b.T));
  lied_meta_lanes(m, qsensor_temp_lanes);
  lied_meta_block(m, "flow", qsensor_flow_b, 0, LIED_SIGS(&s->b.Q),
                  LIED_SIGS(&s->Q_flow, &s->a.Q, &s->y.y));
  lied_meta_lanes(m, qsensor_flow_lanes);
}
const lied_class th_heat_flow_sensor_class = {
    "HeatFlowSensor", "thermal",
    "ideal heat flow sensor in series: port_b.T = port_a.T; output y = heat flow from port_a to "
    "port_b [W] (also recorded as Q_flow)",
    sizeof(th_qsensor), NULL, 0, NULL, qsensor_meta};
