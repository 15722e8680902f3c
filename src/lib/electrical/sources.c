/* sources.c - voltage and current sources: a constant plus an optional
 * signal input (VoltageSource, CurrentSource) or a table of time
 * (TableVoltageSource, TableCurrentSource; lied/table.h, any length).
 * A voltage source is an element in series that owns the net at its pin p
 * (p.v = n.v + V); a current source is a branch (the current I flows from
 * p through the source to n). Both record the power P they deliver. */
#include "lib/electrical/electrical.h"
#include "lied/table.h"

#define LF(TYPE, F) EL_LF(TYPE, F)
#define LIN(TYPE, F) EL_LIN(TYPE, F)

typedef struct el_source {
  el_branch n, p; /* voltage source: n a branch, p a node (p_node); current source: both branches */
  el_node p_node;
  lied_real_in u;
  double V;       /* the constant (V or I) */
  double value;   /* in use: V + u, or the table's value */
  double v, i, P; /* p.v - n.v, the current into p towards n, the power delivered */
  const lied_table *table;
  lied_table_hint at;
  int events;
  int kind; /* SRC_* (set by init from the class) */
} el_source;

enum { SRC_V = 1, SRC_I = 2, SRC_TABLE = 4 };

static inline double series_potential_eq(double vn, double u) { return vn + u; }

/* the value in use */
static void source_value_u(const lied_env *env, el_source *s) {
  (void)env;
  s->value = s->V + s->u.y->y;
}
static void source_value_table(const lied_env *env, el_source *s) {
  s->value = lied_table_lookup(env, s, s->table, &s->at, env->t);
}
LIED_BLOCK(source_value_u_b, el_source, source_value_u)
LIED_BLOCK(source_value_table_b, el_source, source_value_table)

LIED_LANE_BODY void source_value_u_lanes_n(const lied_env *env, char *g, size_t n,
                                           size_t stride) {
  (void)env, (void)stride;
  const double *restrict V = LF(el_source, V), *restrict u = LIN(el_source, u.y);
  double *restrict value = LF(el_source, value);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) value[l] = V[l] + u[l];
}
LIED_LANE_FORM(source_value_u_lanes)
LIED_LANE_FN static void source_value_table_lanes(const lied_env *env, char *g, size_t n,
                                                  size_t stride) {
  (void)stride;
  double t[LIED_LANES];
  for (size_t l = 0; l < n && l < LIED_LANES; l++) t[l] = env->t;
  lied_table_lookup_lanes(env, LIED_LANE_TABLE(el_source, g, table),
                          LIED_LANE_HINT(el_source, g, at), t, LF(el_source, value), n);
}

/* voltage source: p.v = n.v + value; the current it passes from n to p */
static inline void vsource_current_eq(double I, double *in, double *i) {
  *in = I;
  *i = -I;
}
static void vsource_potential(const lied_env *env, el_source *s) {
  (void)env;
  s->p_node.v.v = series_potential_eq(s->n.v->v, s->value);
  s->v = s->value;
}
static void vsource_known(const lied_env *env, el_source *s) {
  (void)env;
  s->p_node.k.known = s->n.k->known;
}
static void vsource_current(const lied_env *env, el_source *s) {
  (void)env;
  vsource_current_eq(s->p_node.i->i, &s->n.i.i, &s->i);
}
static void vsource_power(const lied_env *env, el_source *s) {
  (void)env;
  s->P = -s->v * s->i;
}
LIED_BLOCK(vsource_potential_b, el_source, vsource_potential)
LIED_BLOCK(vsource_known_b, el_source, vsource_known)
LIED_BLOCK(vsource_current_b, el_source, vsource_current)
LIED_BLOCK(vsource_power_b, el_source, vsource_power)

LIED_LANE_BODY void vsource_potential_lanes_n(const lied_env *env, char *g, size_t n,
                                              size_t stride) {
  (void)env, (void)stride;
  const double *restrict vn = LIN(el_source, n.v), *restrict value = LF(el_source, value);
  double *restrict vp = LF(el_source, p_node.v.v), *restrict v = LF(el_source, v);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) vp[l] = series_potential_eq(vn[l], value[l]), v[l] = value[l];
}
LIED_LANE_FORM(vsource_potential_lanes)
LIED_LANE_BODY void vsource_known_lanes_n(const lied_env *env, char *g, size_t n,
                                          size_t stride) {
  (void)env, (void)stride;
  const double *restrict kn = LIN(el_source, n.k);
  double *restrict kp = LF(el_source, p_node.k.known);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) kp[l] = kn[l];
}
LIED_LANE_FORM(vsource_known_lanes)
LIED_LANE_BODY void vsource_current_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict I = LIN(el_source, p_node.i);
  double *restrict in = LF(el_source, n.i.i), *restrict i = LF(el_source, i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) vsource_current_eq(I[l], &in[l], &i[l]);
}
LIED_LANE_FORM(vsource_current_lanes)
LIED_LANE_BODY void source_power_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict v = LF(el_source, v), *restrict i = LF(el_source, i);
  double *restrict P = LF(el_source, P);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) P[l] = -v[l] * i[l];
}
LIED_LANE_FORM(source_power_lanes)

/* current source: value flows from p through the source to n */
static inline void isource_eq(double I, double *ip, double *in, double *i) {
  *ip = I;
  *in = -I;
  *i = I;
}
static void isource_current(const lied_env *env, el_source *s) {
  (void)env;
  isource_eq(s->value, &s->p.i.i, &s->n.i.i, &s->i);
}
static void isource_voltage(const lied_env *env, el_source *s) {
  (void)env;
  s->v = s->p.v->v - s->n.v->v;
  s->P = -s->v * s->i;
}
LIED_BLOCK(isource_current_b, el_source, isource_current)
LIED_BLOCK(isource_voltage_b, el_source, isource_voltage)

LIED_LANE_BODY void isource_current_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict I = LF(el_source, value);
  double *restrict ip = LF(el_source, p.i.i), *restrict in = LF(el_source, n.i.i);
  double *restrict i = LF(el_source, i);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) isource_eq(I[l], &ip[l], &in[l], &i[l]);
}
LIED_LANE_FORM(isource_current_lanes)
LIED_LANE_BODY void isource_voltage_lanes_n(const lied_env *env, char *g, size_t n,
                                            size_t stride) {
  (void)env, (void)stride;
  const double *restrict vp = LIN(el_source, p.v), *restrict vn = LIN(el_source, n.v);
  const double *restrict i = LF(el_source, i);
  double *restrict v = LF(el_source, v), *restrict P = LF(el_source, P);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) v[l] = vp[l] - vn[l], P[l] = -v[l] * i[l];
}
LIED_LANE_FORM(isource_voltage_lanes)

/* A table's rows are time events when the value jumps there (a staircase)
 * or when asked (events = 1); a periodic table may jump where it wraps. */
static int rows_are_events(const el_source *s) {
  return s->events || lied_table_interpolation(s->table) == LIED_TABLE_CONSTANT;
}
static double source_next(const void *self, double t) {
  const el_source *s = self;
  if (rows_are_events(s)) return lied_table_next_break(s->table, t);
  const double *x = lied_table_breaks(s->table, 0);
  const size_t n = lied_table_size(s->table, 0);
  return lied_periodic_next(t, x[0], x[n - 1] - x[0]);
}

static void source_meta(lied_meta *m, void *self) {
  el_source *s = self;
  const int volt = s->kind & SRC_V;
  lied_meta_port(m, "n", 0, &s->n, volt ? &el_branch_known_layout : &el_branch_layout);
  if (volt)
    lied_meta_port(m, "p", 0, &s->p_node, &el_node_layout);
  else
    lied_meta_port(m, "p", 0, &s->p, &el_branch_layout);
  lied_meta_var(m, volt ? "V" : "I", volt ? "V" : "A", &s->value);
  lied_meta_var(m, "v", "V", &s->v);
  lied_meta_var(m, "i", "A", &s->i);
  lied_meta_var(m, "P", "W", &s->P);
  if (s->kind & SRC_TABLE) {
    lied_meta_block(m, "value", source_value_table_b, 0, LIED_SIGS(&lied_time),
                    LIED_SIGS(&s->value));
    lied_meta_lanes(m, source_value_table_lanes);
    if (rows_are_events(s) || lied_table_extrapolation(s->table) == LIED_TABLE_PERIODIC)
      lied_meta_time_events(m, source_next);
  } else {
    lied_meta_real_in_optional(m, "u", 0, &s->u);
    lied_meta_block(m, "value", source_value_u_b, 0, LIED_SIGS(&s->u.y, &s->V),
                    LIED_SIGS(&s->value));
    lied_meta_lanes(m, source_value_u_lanes);
  }
  if (volt) {
    lied_meta_block(m, "potential", vsource_potential_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&s->n.v, &s->value), LIED_SIGS(&s->p_node.v, &s->v));
    lied_meta_lanes(m, vsource_potential_lanes);
    lied_meta_block(m, "known", vsource_known_b, 0, LIED_SIGS(&s->n.k), LIED_SIGS(&s->p_node.k));
    lied_meta_lanes(m, vsource_known_lanes);
    lied_meta_block(m, "current", vsource_current_b, LIED_BLOCK_CONST_COEFF,
                    LIED_SIGS(&s->p_node.i), LIED_SIGS(&s->n.i, &s->i));
    lied_meta_lanes(m, vsource_current_lanes);
    lied_meta_block(m, "power", vsource_power_b, 0, LIED_SIGS(&s->v, &s->i), LIED_SIGS(&s->P));
    lied_meta_lanes(m, source_power_lanes);
  } else {
    lied_meta_block(m, "current", isource_current_b, 0, LIED_SIGS(&s->value),
                    LIED_SIGS(&s->p.i, &s->n.i, &s->i));
    lied_meta_lanes(m, isource_current_lanes);
    lied_meta_block(m, "voltage", isource_voltage_b, 0, LIED_SIGS(&s->p.v, &s->n.v, &s->i),
                    LIED_SIGS(&s->v, &s->P));
    lied_meta_lanes(m, isource_voltage_lanes);
  }
}

static int init_kind(void *self, int kind) {
  ((el_source *)self)->kind = kind;
  return 0;
}
static int vsource_init(void *self, lied_init *ctx) {
  (void)ctx;
  return init_kind(self, SRC_V);
}
static int isource_init(void *self, lied_init *ctx) {
  (void)ctx;
  return init_kind(self, SRC_I);
}
static int vtable_init(void *self, lied_init *ctx) {
  (void)ctx;
  return init_kind(self, SRC_V | SRC_TABLE);
}
static int itable_init(void *self, lied_init *ctx) {
  (void)ctx;
  return init_kind(self, SRC_I | SRC_TABLE);
}

static const lied_param vsource_params[] = {
    {"V", offsetof(el_source, V), 0, "V", "voltage p.v - n.v (the input u is added)", EL_NOMIN,
     EL_NOMAX, 0, 0},
};
static const lied_param isource_params[] = {
    {"I", offsetof(el_source, V), 0, "A",
     "current from p through the source to n (the input u is added)", EL_NOMIN, EL_NOMAX, 0, 0},
};
static const lied_param vtable_params[] = {
    {"table", offsetof(el_source, table), 0, "", "V(t): a lied.table, or rows {{t, V}, ...}", 0,
     0, LIED_PARAM_TABLE, 0},
    {"events", offsetof(el_source, events), 0, "1",
     "1: every row is a time event (the solvers land on the kinks)", 0, 1, LIED_PARAM_INT, 0},
};
static const lied_param itable_params[] = {
    {"table", offsetof(el_source, table), 0, "", "I(t): a lied.table, or rows {{t, I}, ...}", 0,
     0, LIED_PARAM_TABLE, 0},
    {"events", offsetof(el_source, events), 0, "1",
     "1: every row is a time event (the solvers land on the kinks)", 0, 1, LIED_PARAM_INT, 0},
};

const lied_class el_voltage_source_class = {
    "VoltageSource", "electrical",
    "voltage source in series: its pin p owns the net after it, p.v = n.v + V + u (u an "
    "optional signal input); records v, i (into p) and the power P it delivers",
    sizeof(el_source), vsource_params, 1, vsource_init, source_meta};
const lied_class el_current_source_class = {
    "CurrentSource", "electrical",
    "current source: I + u (u an optional signal input) flows from p through the source to n; "
    "records v = p.v - n.v, i and the power P it delivers",
    sizeof(el_source), isource_params, 1, isource_init, source_meta};
const lied_class el_table_voltage_class = {
    "TableVoltageSource", "electrical",
    "voltage source in series whose voltage is a table of time (lied.table, any length): p.v = "
    "n.v + V(t)",
    sizeof(el_source), vtable_params, 2, vtable_init, source_meta};
const lied_class el_table_current_class = {
    "TableCurrentSource", "electrical",
    "current source whose current I(t) is a table of time (lied.table, any length), from p "
    "through the source to n",
    sizeof(el_source), itable_params, 2, itable_init, source_meta};
