/* nodes.c - the owners of a net that are not elements in series: Ground
 * (v = 0) and Node, a junction whose potential the linear section solves
 * (C = 0: v a tearing variable, residual i + G v = 0, Kirchhoff's current
 * law with the summed currents i of its branches) or a node with a
 * capacitance C to ground (C der(v) = -(i + G v), v a state). */
#include "lib/electrical/electrical.h"

#define LF(TYPE, F) EL_LF(TYPE, F)
#define LIN(TYPE, F) EL_LIN(TYPE, F)

/* ---- Ground ---- */
typedef struct el_ground {
  el_node p;
  double i; /* current flowing into the ground from its branches */
} el_ground;

static void ground_potential(const lied_env *env, el_ground *g) {
  (void)env;
  g->p.v.v = 0;
  g->p.k.known = 1;
}
static void ground_current(const lied_env *env, el_ground *g) {
  (void)env;
  g->i = -g->p.i->i;
}
LIED_BLOCK(ground_potential_b, el_ground, ground_potential)
LIED_BLOCK(ground_current_b, el_ground, ground_current)

LIED_LANE_BODY void ground_potential_lanes_n(const lied_env *env, char *g, size_t n,
                                             size_t stride) {
  (void)env, (void)stride;
  double *restrict v = LF(el_ground, p.v.v), *restrict k = LF(el_ground, p.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) v[l] = 0, k[l] = 1;
}
LIED_LANE_FORM(ground_potential_lanes)
LIED_LANE_BODY void ground_current_lanes_n(const lied_env *env, char *g, size_t n,
                                           size_t stride) {
  (void)env, (void)stride;
  const double *restrict s = LIN(el_ground, p.i);
  double *restrict i = LF(el_ground, i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) i[l] = -s[l];
}
LIED_LANE_FORM(ground_current_lanes)

static void ground_meta(lied_meta *m, void *self) {
  el_ground *g = self;
  lied_meta_port(m, "p", 0, &g->p, &el_node_layout);
  lied_meta_var(m, "i", "A", &g->i);
  lied_meta_block(m, "potential", ground_potential_b, 0, LIED_NONE, LIED_SIGS(&g->p.v, &g->p.k));
  lied_meta_lanes(m, ground_potential_lanes);
  lied_meta_block(m, "current", ground_current_b, 0, LIED_SIGS(&g->p.i), LIED_SIGS(&g->i));
  lied_meta_lanes(m, ground_current_lanes);
}

const lied_class el_ground_class = {
    "Ground", "electrical",
    "the reference net: v = 0; records i, the current flowing into the ground from its "
    "branches",
    sizeof(el_ground), NULL, 0, NULL, ground_meta};

/* ---- Node ---- */
typedef struct el_nd {
  el_node p;
  double v, der_v; /* C > 0: the state; C = 0: the tearing variable (der_v unused) */
  double res;      /* C = 0: Kirchhoff's current law */
  double C, G;
} el_nd;

/* the current leaving the net through its branches and the conductance G */
static inline double node_out_eq(double i, double G, double v) { return i + G * v; }

static void node_potential(const lied_env *env, el_nd *d) {
  (void)env;
  d->p.v.v = d->v;
}
static void node_known(const lied_env *env, el_nd *d) {
  (void)env;
  d->p.k.known = 1;
}
static void node_balance(const lied_env *env, el_nd *d) {
  (void)env;
  d->res = node_out_eq(d->p.i->i, d->G, d->v);
}
static void node_charge(const lied_env *env, el_nd *d) {
  (void)env;
  d->der_v = -node_out_eq(d->p.i->i, d->G, d->v) / d->C;
}
LIED_BLOCK(node_potential_b, el_nd, node_potential)
LIED_BLOCK(node_known_b, el_nd, node_known)
LIED_BLOCK(node_balance_b, el_nd, node_balance)
LIED_BLOCK(node_charge_b, el_nd, node_charge)

LIED_LANE_BODY void node_potential_lanes_n(const lied_env *env, char *g, size_t n,
                                           size_t stride) {
  (void)env, (void)stride;
  const double *restrict v = LF(el_nd, v);
  double *restrict pv = LF(el_nd, p.v.v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) pv[l] = v[l];
}
LIED_LANE_FORM(node_potential_lanes)
LIED_LANE_BODY void node_known_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  double *restrict k = LF(el_nd, p.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) k[l] = 1;
}
LIED_LANE_FORM(node_known_lanes)
LIED_LANE_BODY void node_balance_lanes_n(const lied_env *env, char *g, size_t n,
                                         size_t stride) {
  (void)env, (void)stride;
  const double *restrict i = LIN(el_nd, p.i);
  const double *restrict G = LF(el_nd, G), *restrict v = LF(el_nd, v);
  double *restrict res = LF(el_nd, res);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) res[l] = node_out_eq(i[l], G[l], v[l]);
}
LIED_LANE_FORM(node_balance_lanes)
LIED_LANE_BODY void node_charge_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict i = LIN(el_nd, p.i);
  const double *restrict G = LF(el_nd, G), *restrict v = LF(el_nd, v), *restrict C = LF(el_nd, C);
  double *restrict der = LF(el_nd, der_v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) der[l] = -node_out_eq(i[l], G[l], v[l]) / C[l];
}
LIED_LANE_FORM(node_charge_lanes)

static void node_meta(lied_meta *m, void *self) {
  el_nd *d = self;
  if (d->C > 0) {
    lied_meta_port(m, "p", 0, &d->p, &el_node_layout);
    lied_meta_state(m, "v", "V", &d->v, &d->der_v);
    lied_meta_block(m, "potential", node_potential_b, 0, LIED_SIGS(&d->v), LIED_SIGS(&d->p.v));
    lied_meta_lanes(m, node_potential_lanes);
    lied_meta_block(m, "known", node_known_b, 0, LIED_NONE, LIED_SIGS(&d->p.k));
    lied_meta_lanes(m, node_known_lanes);
    lied_meta_block(m, "charge", node_charge_b, 0, LIED_SIGS(&d->p.i, &d->v, &d->G, &d->C),
                    LIED_SIGS(&d->der_v));
    lied_meta_lanes(m, node_charge_lanes);
    return;
  }
  lied_meta_port(m, "p", 0, &d->p, &el_junction_layout);
  lied_meta_tear(m, "v", &d->v, "res", &d->res);
  lied_meta_block(m, "potential", node_potential_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&d->v),
                  LIED_SIGS(&d->p.v));
  lied_meta_lanes(m, node_potential_lanes);
  lied_meta_block(m, "balance", node_balance_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&d->p.i, &d->v, &d->G), LIED_SIGS(&d->res));
  lied_meta_lanes(m, node_balance_lanes);
}

static const lied_param node_params[] = {
    {"C", offsetof(el_nd, C), 0, "F",
     "capacitance to ground (0: a junction, whose potential the linear section solves; > 0: "
     "the potential is a state)",
     0, EL_NOMAX, 0, 0},
    {"G", offsetof(el_nd, G), 0, "S", "conductance to ground", 0, EL_NOMAX, 0, 0},
    {"v", offsetof(el_nd, v), 0, "V", "start potential (C > 0)", EL_NOMIN, EL_NOMAX, 0, 0},
};
const lied_class el_node_class = {
    "Node", "electrical",
    "a net that no element in series owns: C = 0, a junction (Kirchhoff's current law i + G v "
    "= 0, its potential v a tearing variable); C > 0, a capacitance to ground (C der(v) = -(i + "
    "G v), v a state); i is the current its branches draw",
    sizeof(el_nd), node_params, 3, NULL, node_meta};
