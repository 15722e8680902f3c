/* sensors.c - VoltageSensor (a branch between two nets that draws no
 * current), CurrentSensor (in series: its pin p a branch, n the owner of
 * the net after it, at the same potential; y is the current from p to n,
 * what the branches at n draw) and PowerSensor (a CurrentSensor, pins pc
 * and nc, with voltage pins pv and nv: y = (pv.v - nv.v) i). Their output
 * y is a real signal. */
#include "lib/electrical/electrical.h"

#define LF(TYPE, F) EL_LF(TYPE, F)
#define LIN(TYPE, F) EL_LIN(TYPE, F)

typedef struct el_sensor {
  el_branch p, n;   /* voltage sensor: p, n; current sensor: p (pc); power: pv, nv */
  el_branch pc;     /* power sensor: the current path's branch pin */
  el_node nn;       /* current and power sensors: the node pin n (nc) */
  lied_real_out y;
  double v, i, P;
} el_sensor;

/* ---- VoltageSensor ---- */
static inline void vsensor_eq(double vp, double vn, double *v, double *y) {
  *v = vp - vn;
  *y = *v;
}
static void vsensor_draw(const lied_env *env, el_sensor *s) {
  (void)env;
  s->p.i.i = 0;
  s->n.i.i = 0;
}
static void vsensor_eval(const lied_env *env, el_sensor *s) {
  (void)env;
  vsensor_eq(s->p.v->v, s->n.v->v, &s->v, &s->y.y.y);
}
LIED_BLOCK(vsensor_draw_b, el_sensor, vsensor_draw)
LIED_BLOCK(vsensor_eval_b, el_sensor, vsensor_eval)

LIED_LANE_BODY void vsensor_draw_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  double *restrict ip = LF(el_sensor, p.i.i), *restrict in = LF(el_sensor, n.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) ip[l] = 0, in[l] = 0;
}
LIED_LANE_FORM(vsensor_draw_lanes)
LIED_LANE_BODY void vsensor_eval_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(el_sensor, p.v), *restrict vn = LIN(el_sensor, n.v);
  double *restrict v = LF(el_sensor, v), *restrict y = LF(el_sensor, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) vsensor_eq(vp[l], vn[l], &v[l], &y[l]);
}
LIED_LANE_FORM(vsensor_eval_lanes)

static void vsensor_meta(lied_meta *m, void *self) {
  el_sensor *s = self;
  lied_meta_port(m, "p", 0, &s->p, &el_branch_layout);
  lied_meta_port(m, "n", 0, &s->n, &el_branch_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "v", "V", &s->v);
  lied_meta_block(m, "draw", vsensor_draw_b, 0, LIED_NONE, LIED_SIGS(&s->p.i, &s->n.i));
  lied_meta_lanes(m, vsensor_draw_lanes);
  lied_meta_block(m, "voltage", vsensor_eval_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->p.v, &s->n.v), LIED_SIGS(&s->v, &s->y.y));
  lied_meta_lanes(m, vsensor_eval_lanes);
}
const lied_class el_voltage_sensor_class = {
    "VoltageSensor", "electrical",
    "y = p.v - n.v (a real signal); draws no current; records v",
    sizeof(el_sensor), NULL, 0, NULL, vsensor_meta};

/* ---- CurrentSensor and PowerSensor: in series, branch pin `a` (p or pc) and the node nn ---- */
/* the current passed on: what the branches at the node pin draw */
static inline void csensor_eq(double I, double *ia, double *i, double *y) {
  *ia = I;
  *i = I;
  *y = I;
}
static void csensor_potential(const lied_env *env, el_sensor *s) {
  (void)env;
  s->nn.v.v = s->p.v->v;
}
static void csensor_known(const lied_env *env, el_sensor *s) {
  (void)env;
  s->nn.k.known = s->p.k->known;
}
static void csensor_current(const lied_env *env, el_sensor *s) {
  (void)env;
  csensor_eq(s->nn.i->i, &s->p.i.i, &s->i, &s->y.y.y);
}
static void psensor_potential(const lied_env *env, el_sensor *s) {
  (void)env;
  s->nn.v.v = s->pc.v->v;
}
static void psensor_known(const lied_env *env, el_sensor *s) {
  (void)env;
  s->nn.k.known = s->pc.k->known;
}
static void psensor_current(const lied_env *env, el_sensor *s) {
  (void)env;
  s->i = s->nn.i->i;
  s->pc.i.i = s->i;
  s->p.i.i = 0;
  s->n.i.i = 0;
}
static void psensor_power(const lied_env *env, el_sensor *s) {
  (void)env;
  s->v = s->p.v->v - s->n.v->v;
  s->P = s->v * s->i;
  s->y.y.y = s->P;
}
LIED_BLOCK(csensor_potential_b, el_sensor, csensor_potential)
LIED_BLOCK(csensor_known_b, el_sensor, csensor_known)
LIED_BLOCK(csensor_current_b, el_sensor, csensor_current)
LIED_BLOCK(psensor_potential_b, el_sensor, psensor_potential)
LIED_BLOCK(psensor_known_b, el_sensor, psensor_known)
LIED_BLOCK(psensor_current_b, el_sensor, psensor_current)
LIED_BLOCK(psensor_power_b, el_sensor, psensor_power)

LIED_LANE_BODY void csensor_potential_lanes_n(const lied_env *env, char *g, size_t n,
                                              size_t stride) {
  (void)env, (void)stride;
  const double *restrict va = LIN(el_sensor, p.v);
  double *restrict vn = LF(el_sensor, nn.v.v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) vn[l] = va[l];
}
LIED_LANE_FORM(csensor_potential_lanes)
LIED_LANE_BODY void csensor_known_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  const double *restrict ka = LIN(el_sensor, p.k);
  double *restrict kn = LF(el_sensor, nn.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) kn[l] = ka[l];
}
LIED_LANE_FORM(csensor_known_lanes)
LIED_LANE_BODY void csensor_current_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict I = LIN(el_sensor, nn.i);
  double *restrict ia = LF(el_sensor, p.i.i), *restrict i = LF(el_sensor, i);
  double *restrict y = LF(el_sensor, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) csensor_eq(I[l], &ia[l], &i[l], &y[l]);
}
LIED_LANE_FORM(csensor_current_lanes)

static void csensor_meta(lied_meta *m, void *self) {
  el_sensor *s = self;
  lied_meta_port(m, "p", 0, &s->p, &el_branch_known_layout);
  lied_meta_port(m, "n", 0, &s->nn, &el_node_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "i", "A", &s->i);
  lied_meta_block(m, "potential", csensor_potential_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->p.v), LIED_SIGS(&s->nn.v));
  lied_meta_lanes(m, csensor_potential_lanes);
  lied_meta_block(m, "known", csensor_known_b, 0, LIED_SIGS(&s->p.k), LIED_SIGS(&s->nn.k));
  lied_meta_lanes(m, csensor_known_lanes);
  lied_meta_block(m, "current", csensor_current_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->nn.i),
                  LIED_SIGS(&s->p.i, &s->i, &s->y.y));
  lied_meta_lanes(m, csensor_current_lanes);
}
const lied_class el_current_sensor_class = {
    "CurrentSensor", "electrical",
    "in series: its pin n owns the net after it at the potential of p; y = i, the current from "
    "p to n (what the branches at n draw), a real signal",
    sizeof(el_sensor), NULL, 0, NULL, csensor_meta};

LIED_LANE_BODY void psensor_potential_lanes_n(const lied_env *env, char *g, size_t n,
                                              size_t stride) {
  (void)env, (void)stride;
  const double *restrict va = LIN(el_sensor, pc.v);
  double *restrict vn = LF(el_sensor, nn.v.v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) vn[l] = va[l];
}
LIED_LANE_FORM(psensor_potential_lanes)
LIED_LANE_BODY void psensor_known_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  const double *restrict ka = LIN(el_sensor, pc.k);
  double *restrict kn = LF(el_sensor, nn.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) kn[l] = ka[l];
}
LIED_LANE_FORM(psensor_known_lanes)
LIED_LANE_BODY void psensor_current_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict I = LIN(el_sensor, nn.i);
  double *restrict i = LF(el_sensor, i), *restrict ic = LF(el_sensor, pc.i.i);
  double *restrict ip = LF(el_sensor, p.i.i), *restrict in = LF(el_sensor, n.i.i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) i[l] = I[l], ic[l] = I[l], ip[l] = 0, in[l] = 0;
}
LIED_LANE_FORM(psensor_current_lanes)
LIED_LANE_BODY void psensor_power_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(el_sensor, p.v), *restrict vn = LIN(el_sensor, n.v);
  const double *restrict i = LF(el_sensor, i);
  double *restrict v = LF(el_sensor, v), *restrict P = LF(el_sensor, P);
  double *restrict y = LF(el_sensor, y.y.y);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) v[l] = vp[l] - vn[l], P[l] = v[l] * i[l], y[l] = P[l];
}
LIED_LANE_FORM(psensor_power_lanes)

static void psensor_meta(lied_meta *m, void *self) {
  el_sensor *s = self;
  lied_meta_port(m, "pc", 0, &s->pc, &el_branch_known_layout);
  lied_meta_port(m, "nc", 0, &s->nn, &el_node_layout);
  lied_meta_port(m, "pv", 0, &s->p, &el_branch_layout);
  lied_meta_port(m, "nv", 0, &s->n, &el_branch_layout);
  lied_meta_real_out(m, "y", 0, &s->y);
  lied_meta_var(m, "v", "V", &s->v);
  lied_meta_var(m, "i", "A", &s->i);
  lied_meta_var(m, "P", "W", &s->P);
  lied_meta_block(m, "potential", psensor_potential_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&s->pc.v), LIED_SIGS(&s->nn.v));
  lied_meta_lanes(m, psensor_potential_lanes);
  lied_meta_block(m, "known", psensor_known_b, 0, LIED_SIGS(&s->pc.k), LIED_SIGS(&s->nn.k));
  lied_meta_lanes(m, psensor_known_lanes);
  lied_meta_block(m, "current", psensor_current_b, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&s->nn.i),
                  LIED_SIGS(&s->pc.i, &s->p.i, &s->n.i, &s->i));
  lied_meta_lanes(m, psensor_current_lanes);
  lied_meta_block(m, "power", psensor_power_b, 0, LIED_SIGS(&s->p.v, &s->n.v, &s->i),
                  LIED_SIGS(&s->v, &s->P, &s->y.y));
  lied_meta_lanes(m, psensor_power_lanes);
}
const lied_class el_power_sensor_class = {
    "PowerSensor", "electrical",
    "in series from pc to nc (nc owns the net after it at the potential of pc), with voltage "
    "pins pv, nv that draw nothing: y = (pv.v - nv.v) i, i the current from pc to nc",
    sizeof(el_sensor), NULL, 0, NULL, psensor_meta};
