/* convert.c - IdealTransformer and DCDC, four-pin elements whose secondary
 * (output) side is an element in series: n2 a branch, p2 the owner of the
 * net after it.
 *   IdealTransformer  v1 = n v2, i1 = -i2 / n   (Modelica's IdealTransformer;
 *                     i1 into p1, i2 into p2): p2.v = n2.v + (p1.v - n1.v)/n,
 *                     the primary draws i1 = I2/n, I2 the current the
 *                     secondary delivers at p2. Linear: in a section or not.
 *   DCDC              an averaged converter: output voltage v2 = V + u (a
 *                     signal input), power balanced with an efficiency:
 *                     P1 = P2/eta while the power flows forward (P2 = v2 I2
 *                     >= 0), P1 = eta P2 backward (an event where P2
 *                     changes sign), the input current i1 = P1/v1. The
 *                     input's law is nonlinear in v1: both input pins need
 *                     explicit potentials (a DC-link capacitor: Node {C}). */
#include "lib/electrical/electrical.h"
#include "lib/thermal/thermal.h"

#define LF(TYPE, F) EL_LF(TYPE, F)
#define LIN(TYPE, F) EL_LIN(TYPE, F)

/* ---- IdealTransformer ---- */
typedef struct el_transformer {
  el_branch p1, n1, n2;
  el_node p2;
  double v1, v2, i1, i2;
  double n;
} el_transformer;

static inline void tr_potential_eq(double vp1, double vn1, double vn2, double n, double *v1,
                                   double *v2, double *vp2) {
  *v1 = vp1 - vn1;
  *v2 = *v1 / n;
  *vp2 = vn2 + *v2;
}
static inline void tr_current_eq(double I2, double n, double *i1, double *i2, double *ip1,
                                 double *in1, double *in2) {
  *i2 = -I2;
  *i1 = I2 / n;
  *ip1 = *i1;
  *in1 = -*i1;
  *in2 = I2;
}
static inline double known3(double a, double b, double c) {
  return a != 0 && b != 0 && c != 0 ? 1 : 0;
}

static void tr_potential(const lied_env *env, el_transformer *t) {
  (void)env;
  tr_potential_eq(t->p1.v->v, t->n1.v->v, t->n2.v->v, t->n, &t->v1, &t->v2, &t->p2.v.v);
}
static void tr_known(const lied_env *env, el_transformer *t) {
  (void)env;
  t->p2.k.known = known3(t->p1.k->known, t->n1.k->known, t->n2.k->known);
}
static void tr_current(const lied_env *env, el_transformer *t) {
  (void)env;
  tr_current_eq(t->p2.i->i, t->n, &t->i1, &t->i2, &t->p1.i.i, &t->n1.i.i, &t->n2.i.i);
}
LIED_BLOCK(tr_potential_b, el_transformer, tr_potential)
LIED_BLOCK(tr_known_b, el_transformer, tr_known)
LIED_BLOCK(tr_current_b, el_transformer, tr_current)

LIED_LANE_BODY void tr_potential_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp1 = LIN(el_transformer, p1.v), *restrict vn1 = LIN(el_transformer, n1.v);
  const double *restrict vn2 = LIN(el_transformer, n2.v), *restrict r = LF(el_transformer, n);
  double *restrict v1 = LF(el_transformer, v1), *restrict v2 = LF(el_transformer, v2);
  double *restrict vp2 = LF(el_transformer, p2.v.v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) tr_potential_eq(vp1[l], vn1[l], vn2[l], r[l], &v1[l], &v2[l], &vp2[l]);
}
LIED_LANE_FORM(tr_potential_lanes)
LIED_LANE_BODY void tr_known_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict a = LIN(el_transformer, p1.k), *restrict b = LIN(el_transformer, n1.k);
  const double *restrict c = LIN(el_transformer, n2.k);
  double *restrict k = LF(el_transformer, p2.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) k[l] = known3(a[l], b[l], c[l]);
}
LIED_LANE_FORM(tr_known_lanes)
LIED_LANE_BODY void tr_current_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict I2 = LIN(el_transformer, p2.i), *restrict r = LF(el_transformer, n);
  double *restrict i1 = LF(el_transformer, i1), *restrict i2 = LF(el_transformer, i2);
  double *restrict ip1 = LF(el_transformer, p1.i.i), *restrict in1 = LF(el_transformer, n1.i.i);
  double *restrict in2 = LF(el_transformer, n2.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++)
    tr_current_eq(I2[l], r[l], &i1[l], &i2[l], &ip1[l], &in1[l], &in2[l]);
}
LIED_LANE_FORM(tr_current_lanes)

static void tr_meta(lied_meta *m, void *self) {
  el_transformer *t = self;
  lied_meta_port(m, "p1", 0, &t->p1, &el_branch_known_layout);
  lied_meta_port(m, "n1", 0, &t->n1, &el_branch_known_layout);
  lied_meta_port(m, "n2", 0, &t->n2, &el_branch_known_layout);
  lied_meta_port(m, "p2", 0, &t->p2, &el_node_layout);
  lied_meta_var(m, "v1", "V", &t->v1);
  lied_meta_var(m, "v2", "V", &t->v2);
  lied_meta_var(m, "i1", "A", &t->i1);
  lied_meta_var(m, "i2", "A", &t->i2);
  lied_meta_block(m, "potential", tr_potential_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&t->p1.v, &t->n1.v, &t->n2.v, &t->n),
                  LIED_SIGS(&t->v1, &t->v2, &t->p2.v));
  lied_meta_lanes(m, tr_potential_lanes);
  lied_meta_block(m, "known", tr_known_b, 0, LIED_SIGS(&t->p1.k, &t->n1.k, &t->n2.k),
                  LIED_SIGS(&t->p2.k));
  lied_meta_lanes(m, tr_known_lanes);
  lied_meta_block(m, "current", tr_current_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&t->p2.i, &t->n),
                  LIED_SIGS(&t->i1, &t->i2, &t->p1.i, &t->n1.i, &t->n2.i));
  lied_meta_lanes(m, tr_current_lanes);
}

static int tr_init(void *self, lied_init *ctx) {
  if (((el_transformer *)self)->n == 0) {
    lied_init_error(ctx, "IdealTransformer: n must not be 0");
    return -1;
  }
  return 0;
}

static const lied_param tr_params[] = {
    {"n", offsetof(el_transformer, n), 1, "1", "turns ratio v1/v2 (not 0)", EL_NOMIN, EL_NOMAX,
     0, 0},
};
const lied_class el_transformer_class = {
    "IdealTransformer", "electrical",
    "ideal transformer: v1 = n v2, i1 = -i2/n; its secondary is in series: p2.v = n2.v + v2",
    sizeof(el_transformer), tr_params, 1, tr_init, tr_meta};

/* ---- DCDC: an averaged converter, power balanced with an efficiency ---- */
typedef struct el_dcdc {
  el_branch p1, n1, n2;
  el_node p2;
  th_branch heat;
  lied_real_in u;
  double v1, v2, i1, i2, P1, P2, P_loss, z, ok;
  double fwd; /* discrete: 1 while the power flows from the input to the output */
  double V, eta;
  int heat_port;
} el_dcdc;

static void dcdc_value(const lied_env *env, el_dcdc *c) {
  (void)env;
  c->v2 = c->V + c->u.y->y;
}
static void dcdc_potential(const lied_env *env, el_dcdc *c) {
  (void)env;
  c->p2.v.v = c->n2.v->v + c->v2;
}
static void dcdc_known(const lied_env *env, el_dcdc *c) {
  (void)env;
  c->p2.k.known = c->n2.k->known;
}
static void dcdc_current(const lied_env *env, el_dcdc *c) {
  const double I2 = c->p2.i->i;
  c->n2.i.i = I2;
  c->i2 = -I2;
  c->P2 = c->v2 * I2;
  c->P1 = c->fwd != 0 ? c->P2 / c->eta : c->P2 * c->eta;
  c->v1 = c->p1.v->v - c->n1.v->v;
  if (!(c->v1 > 0))
    lied_block_fault(env, c, "input voltage v1 = %g V: an averaged converter needs v1 > 0",
                     c->v1);
  c->i1 = c->P1 / c->v1;
  c->p1.i.i = c->i1;
  c->n1.i.i = -c->i1;
  c->P_loss = c->P1 - c->P2;
  c->heat.Q.Q_flow = -c->P_loss;
  c->z = c->P2;
}
static void dcdc_explicit(const lied_env *env, el_dcdc *c) {
  c->ok = c->p1.k->known != 0 && c->n1.k->known != 0;
  if (!c->ok)
    lied_block_fault_model(env, c,
                     "input current P1/v1 is nonlinear and pin %s's potential is solved by a "
                     "linear section (a nonlinear loop lied cannot solve): give the input a DC "
                     "link (Node {C = ...})",
                     c->p1.k->known != 0 ? "n1" : "p1");
}
LIED_BLOCK(dcdc_value_b, el_dcdc, dcdc_value)
LIED_BLOCK(dcdc_potential_b, el_dcdc, dcdc_potential)
LIED_BLOCK(dcdc_known_b, el_dcdc, dcdc_known)
LIED_BLOCK(dcdc_current_b, el_dcdc, dcdc_current)
LIED_BLOCK(dcdc_explicit_b, el_dcdc, dcdc_explicit)

static void dcdc_event(void *self, const lied_event *ev) {
  el_dcdc *c = self;
  c->fwd = ev->initial ? c->z >= 0 : c->z > 0;
}

static void dcdc_meta(lied_meta *m, void *self) {
  el_dcdc *c = self;
  lied_meta_port(m, "p1", 0, &c->p1, &el_branch_known_layout);
  lied_meta_port(m, "n1", 0, &c->n1, &el_branch_known_layout);
  lied_meta_port(m, "n2", 0, &c->n2, &el_branch_known_layout);
  lied_meta_port(m, "p2", 0, &c->p2, &el_node_layout);
  lied_meta_real_in_optional(m, "u", 0, &c->u);
  lied_meta_var(m, "v1", "V", &c->v1);
  lied_meta_var(m, "v2", "V", &c->v2);
  lied_meta_var(m, "i1", "A", &c->i1);
  lied_meta_var(m, "i2", "A", &c->i2);
  lied_meta_var(m, "P1", "W", &c->P1);
  lied_meta_var(m, "P2", "W", &c->P2);
  lied_meta_var(m, "P_loss", "W", &c->P_loss);
  lied_meta_var(m, "forward", "1", &c->fwd);
  lied_meta_block(m, "value", dcdc_value_b, 0, LIED_SIGS(&c->u.y, &c->V), LIED_SIGS(&c->v2));
  lied_meta_block(m, "potential", dcdc_potential_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&c->n2.v, &c->v2), LIED_SIGS(&c->p2.v));
  lied_meta_block(m, "known", dcdc_known_b, 0, LIED_SIGS(&c->n2.k), LIED_SIGS(&c->p2.k));
  if (c->heat_port) {
    lied_meta_port(m, "heat", 0, &c->heat, &th_branch_layout);
    lied_meta_block(m, "current", dcdc_current_b, 0,
                    LIED_SIGS(&c->p2.i, &c->v2, &c->p1.v, &c->n1.v, &c->fwd, &c->eta),
                    LIED_SIGS(&c->n2.i, &c->i2, &c->P2, &c->P1, &c->v1, &c->i1, &c->p1.i,
                              &c->n1.i, &c->P_loss, &c->z, &c->heat.Q));
  } else {
    lied_meta_block(m, "current", dcdc_current_b, 0,
                    LIED_SIGS(&c->p2.i, &c->v2, &c->p1.v, &c->n1.v, &c->fwd, &c->eta),
                    LIED_SIGS(&c->n2.i, &c->i2, &c->P2, &c->P1, &c->v1, &c->i1, &c->p1.i,
                              &c->n1.i, &c->P_loss, &c->z));
  }
  lied_meta_block(m, "explicit", dcdc_explicit_b, 0, LIED_SIGS(&c->p1.k, &c->n1.k),
                  LIED_SIGS(&c->ok));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH);
  lied_meta_event(m, dcdc_event);
}

static const lied_param dcdc_params[] = {
    {"V", offsetof(el_dcdc, V), 0, "V", "output voltage p2.v - n2.v (the input u is added)",
     EL_NOMIN, EL_NOMAX, 0, 0},
    {"eta", offsetof(el_dcdc, eta), 1, "1", "efficiency", 0, 1, LIED_PARAM_MIN_OPEN, 0},
    {"heat_port", offsetof(el_dcdc, heat_port), 0, "1",
     "1: a heat port (branch) takes the losses P1 - P2", 0, 1, LIED_PARAM_INT, 0},
};
const lied_class el_dcdc_class = {
    "DCDC", "electrical",
    "averaged DC/DC converter: output in series, p2.v = n2.v + V + u; input current i1 = P1/v1, "
    "P1 = P2/eta forward, eta P2 backward (an event where P2 = v2 i changes sign); input "
    "potentials must be explicit",
    sizeof(el_dcdc), dcdc_params, 3, NULL, dcdc_meta};
