/* logic.c - Boolean signals (the connector "boolean" of lied/component.h):
 * constants, comparisons with hysteresis, And / Or / Xor / Not, switches,
 * BooleanToReal, on- and off-delays, edges, a triggered sample-and-hold and
 * a state machine (docs/signals.md, "Logic"). Every change of a Boolean
 * output happens at an event: a comparison's crossing (a state event
 * located by the solver), a delay's end (a time event), or a Boolean input
 * that changed at an event, which a block that remembers anything notices
 * through a zero function on that input (u - 1/2) in the next round of the
 * same event. Blocks without memory (And, Or, switches) are plain blocks:
 * their inputs change only at events, so do their outputs. */
#include "lib/signals/signals.h"

static inline int truth(const lied_bool_in *p) { return p->y->y != 0; }
static inline double bit(int b) { return b ? 1.0 : 0.0; }

static const char *const cnames[SIG_MAXN] = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"};
static const char *const unames[SIG_MAXN] = {"u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8"};

/* ---- BooleanConstant ---- */

typedef struct sig_bconst {
  lied_bool_out y;
  int k;
} sig_bconst;

static void bconst_eval(const lied_env *env, sig_bconst *c) {
  (void)env;
  c->y.y.y = bit(c->k);
}
LIED_BLOCK(bconst_block, sig_bconst, bconst_eval)

static void bconst_meta(lied_meta *m, void *self) {
  sig_bconst *c = self;
  lied_meta_bool_out(m, "y", 0, &c->y);
  lied_meta_block(m, "value", bconst_block, 0, LIED_SIGS(&c->k), LIED_SIGS(&c->y.y));
}
static const lied_param bconst_params[] = {
    {"k", offsetof(sig_bconst, k), 0, "1", "the value (true or false)", 0, 1, LIED_PARAM_INT, 0, NULL},
};
const lied_class sig_bconst_class = {"BooleanConstant", "signals", "constant Boolean y = k",
                                     sizeof(sig_bconst), bconst_params, 1, NULL, bconst_meta};

/* ---- comparisons: y = u1 > u2 (Greater), u1 < u2 (Less), u > threshold
 * (GreaterThreshold), u < threshold (LessThreshold), with a hysteresis band
 * of width h centred on the switching point: y turns true once the
 * difference d (u - threshold, or its negative for Less) exceeds h/2 and
 * false once it falls to -h/2 or below. One zero function: d - h/2 while
 * false, d + h/2 while true. ---- */

typedef struct sig_compare {
  lied_real_in u1, u2;
  lied_bool_out y;
  double threshold, h;
  double on; /* discrete: 0 or 1 */
  double z;  /* zero function */
  int two, less; /* set by the class's init: two inputs; the sense */
} sig_compare;

static inline double compare_d(const sig_compare *c) {
  double d = c->u1.y->y - (c->two ? c->u2.y->y : c->threshold);
  return c->less ? -d : d;
}

static void compare_eval(const lied_env *env, sig_compare *c) {
  (void)env;
  double d = compare_d(c);
  c->y.y.y = c->on;
  c->z = c->on != 0 ? d + 0.5 * c->h : d - 0.5 * c->h;
}
LIED_BLOCK(compare_block, sig_compare, compare_eval)

static void compare_event(void *self, const lied_event *ev) {
  sig_compare *c = self;
  double d = compare_d(c);
  if (ev->initial || c->on == 0)
    c->on = bit(d - 0.5 * c->h > 0);
  else
    c->on = bit(d + 0.5 * c->h > 0);
}

static void compare_meta(lied_meta *m, void *self) {
  sig_compare *c = self;
  lied_meta_real_in(m, c->two ? "u1" : "u", 0, &c->u1);
  if (c->two) lied_meta_real_in(m, "u2", 0, &c->u2);
  lied_meta_bool_out(m, "y", 0, &c->y);
  lied_meta_block(m, "compare", compare_block, 0,
                  c->two ? LIED_SIGS(&c->u1.y, &c->u2.y, &c->on) : LIED_SIGS(&c->u1.y, &c->on),
                  LIED_SIGS(&c->y.y, &c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_BOTH);
  lied_meta_event(m, compare_event);
}

#define COMPARE_INIT(NAME, TWO, LESS)                                                    \
  static int NAME(void *self, lied_init *ctx) {                                          \
    (void)ctx;                                                                           \
    sig_compare *c = self;                                                               \
    c->two = TWO, c->less = LESS;                                                        \
    return 0;                                                                            \
  }
COMPARE_INIT(greater_init, 1, 0)
COMPARE_INIT(less_init, 1, 1)
COMPARE_INIT(greater_thr_init, 0, 0)
COMPARE_INIT(less_thr_init, 0, 1)

#define P_H                                                                                \
  {"h", offsetof(sig_compare, h), 0, "1", "hysteresis: the width of the band around the "   \
   "switching point in which y keeps its value", 0, SIG_NOMAX, 0, 0, NULL}
#define P_THRESHOLD                                                                        \
  {"threshold", offsetof(sig_compare, threshold), 0, "1", "the switching point", SIG_NOMIN, \
   SIG_NOMAX, 0, 0, NULL}
static const lied_param compare2_params[] = {P_H};
static const lied_param compare1_params[] = {P_THRESHOLD, P_H};
const lied_class sig_greater_class = {"Greater", "signals", "Boolean y = u1 > u2 (hysteresis h)",
                                      sizeof(sig_compare), compare2_params, 1, greater_init,
                                      compare_meta};
const lied_class sig_less_class = {"Less", "signals", "Boolean y = u1 < u2 (hysteresis h)",
                                   sizeof(sig_compare), compare2_params, 1, less_init,
                                   compare_meta};
const lied_class sig_greater_thr_class = {
    "GreaterThreshold", "signals", "Boolean y = u > threshold (hysteresis h)",
    sizeof(sig_compare), compare1_params, 2, greater_thr_init, compare_meta};
const lied_class sig_less_thr_class = {"LessThreshold", "signals",
                                       "Boolean y = u < threshold (hysteresis h)",
                                       sizeof(sig_compare), compare1_params, 2, less_thr_init,
                                       compare_meta};

/* ---- And, Or (n inputs u1..un), Xor (2), Not ---- */

typedef struct sig_logic {
  lied_bool_in u[SIG_MAXN];
  lied_bool_out y;
  int n;
  int op; /* set by init: 0 and, 1 or, 2 xor, 3 not */
} sig_logic;

static void logic_eval(const lied_env *env, sig_logic *c) {
  (void)env;
  int v = truth(&c->u[0]);
  for (int i = 1; i < c->n; i++) {
    int b = truth(&c->u[i]);
    v = c->op == 0 ? (v && b) : c->op == 1 ? (v || b) : (v != b);
  }
  c->y.y.y = bit(c->op == 3 ? !v : v);
}
LIED_BLOCK(logic_block, sig_logic, logic_eval)

static void logic_meta(lied_meta *m, void *self) {
  sig_logic *c = self;
  const void *in[SIG_MAXN + 1] = {NULL};
  for (int i = 0; i < c->n; i++) {
    lied_meta_bool_in(m, c->n == 1 ? "u" : unames[i], 0, &c->u[i]);
    in[i] = &c->u[i].y;
  }
  lied_meta_bool_out(m, "y", 0, &c->y);
  lied_meta_block(m, "logic", logic_block, 0, in, LIED_SIGS(&c->y.y));
}

#define LOGIC_INIT(NAME, OP)                                                             \
  static int NAME(void *self, lied_init *ctx) {                                          \
    (void)ctx;                                                                           \
    sig_logic *c = self;                                                                 \
    c->op = OP;                                                                          \
    if (OP >= 2) c->n = OP == 2 ? 2 : 1; /* Xor: two inputs, Not: one */                 \
    return 0;                                                                            \
  }
LOGIC_INIT(and_init, 0)
LOGIC_INIT(or_init, 1)
LOGIC_INIT(xor_init, 2)
LOGIC_INIT(not_init, 3)
static const lied_param logic_params[] = {
    {"n", offsetof(sig_logic, n), 2, "1", "number of inputs u1..un", 1, SIG_MAXN, LIED_PARAM_INT,
     0, NULL},
};
const lied_class sig_and_class = {"And", "signals", "Boolean y = u1 and u2 ... and un",
                                  sizeof(sig_logic), logic_params, 1, and_init, logic_meta};
const lied_class sig_or_class = {"Or", "signals", "Boolean y = u1 or u2 ... or un",
                                 sizeof(sig_logic), logic_params, 1, or_init, logic_meta};
const lied_class sig_xor_class = {"Xor", "signals", "Boolean y = u1 xor u2", sizeof(sig_logic),
                                  NULL, 0, xor_init, logic_meta};
const lied_class sig_not_class = {"Not", "signals", "Boolean y = not u", sizeof(sig_logic), NULL,
                                  0, not_init, logic_meta};

/* ---- Switch (real y = u2 ? u1 : u3), LogicalSwitch (the same of Booleans:
 * one struct, the ports' layouts chosen by the class), BooleanToReal ---- */

typedef struct sig_switch {
  lied_real_in u1, u3; /* real or Boolean: the same storage */
  lied_bool_in u2;
  lied_real_out y;
  int logical; /* set by init: LogicalSwitch */
} sig_switch;

static void switch_eval(const lied_env *env, sig_switch *c) {
  (void)env;
  c->y.y.y = truth(&c->u2) ? c->u1.y->y : c->u3.y->y;
}
LIED_BLOCK(switch_block, sig_switch, switch_eval)

static void switch_meta(lied_meta *m, void *self) {
  sig_switch *c = self;
  const lied_port_layout *in = c->logical ? &lied_bool_in_layout : &lied_real_in_layout;
  lied_meta_port(m, "u1", 0, &c->u1, in);
  lied_meta_bool_in(m, "u2", 0, &c->u2);
  lied_meta_port(m, "u3", 0, &c->u3, in);
  lied_meta_port(m, "y", 0, &c->y, c->logical ? &lied_bool_out_layout : &lied_real_out_layout);
  lied_meta_block(m, "switch", switch_block, 0, LIED_SIGS(&c->u1.y, &c->u2.y, &c->u3.y),
                  LIED_SIGS(&c->y.y));
}
static int lswitch_init(void *self, lied_init *ctx) {
  (void)ctx;
  ((sig_switch *)self)->logical = 1;
  return 0;
}
const lied_class sig_switch_class = {"Switch", "signals",
                                     "y = u1 while the Boolean u2 is true, else u3",
                                     sizeof(sig_switch), NULL, 0, NULL, switch_meta};
const lied_class sig_lswitch_class = {"LogicalSwitch", "signals",
                                      "Boolean y = u1 while u2 is true, else u3",
                                      sizeof(sig_switch), NULL, 0, lswitch_init, switch_meta};

typedef struct sig_b2r {
  lied_bool_in u;
  lied_real_out y;
  double realTrue, realFalse;
} sig_b2r;

static void b2r_eval(const lied_env *env, sig_b2r *c) {
  (void)env;
  c->y.y.y = truth(&c->u) ? c->realTrue : c->realFalse;
}
LIED_BLOCK(b2r_block, sig_b2r, b2r_eval)

static void b2r_meta(lied_meta *m, void *self) {
  sig_b2r *c = self;
  lied_meta_bool_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_block(m, "convert", b2r_block, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->y.y));
}
static const lied_param b2r_params[] = {
    {"realTrue", offsetof(sig_b2r, realTrue), 1, "1", "y while u is true", SIG_NOMIN, SIG_NOMAX, 0,
     0, NULL},
    {"realFalse", offsetof(sig_b2r, realFalse), 0, "1", "y while u is false", SIG_NOMIN,
     SIG_NOMAX, 0, 0, NULL},
};
const lied_class sig_b2r_class = {"BooleanToReal", "signals",
                                  "real y = realTrue while the Boolean u is true, else realFalse",
                                  sizeof(sig_b2r), b2r_params, 2, NULL, b2r_meta};

/* ---- OnDelay, OffDelay, RisingEdge, FallingEdge: a Boolean input watched
 * by a zero function, a pending time (a time event) ---- */

typedef struct sig_timer {
  lied_bool_in u;
  lied_bool_out y;
  double delay;   /* the delay; for the edges the pulse width (0: an instant) */
  double on;      /* discrete: the output */
  double pending; /* discrete: when the output changes next (INFINITY: never) */
  double zu, zy;  /* zero functions: the input, the output (edges) */
  int kind;       /* set by init: 0 on-delay, 1 off-delay, 2 rising, 3 falling */
  int lost;       /* the delay was lost in the rounding of the time it started at */
} sig_timer;

/* The output is the discrete state; at the pending time the handler
 * changes it, after the inputs of that instant settled and before the
 * samplers of the instant read it (docs/events.md, "The order at an
 * event"): a delay whose input changes back on the instant it runs out
 * does not switch, not even for a round of the instant. The input is read
 * only by a block of its own (its zero function), so a timer breaks a loop
 * of Boolean blocks (a blinker: two on-delays and a Not). */
static void timer_eval(const lied_env *env, sig_timer *c) {
  (void)env;
  c->y.y.y = c->on;
  c->zy = c->on - 0.5;
}
LIED_BLOCK(timer_block, sig_timer, timer_eval)

static void timer_watch(const lied_env *env, sig_timer *c) {
  (void)env;
  c->zu = c->u.y->y - 0.5;
}
LIED_BLOCK(timer_watch_block, sig_timer, timer_watch)

/* The delay started at t: it runs out at t + delay. A delay below the
 * resolution of the times near t (1e-300 s after t = 0.06, 0.1 s after
 * t = 1e16) gives t itself: timer_next reports it, and the solver stops
 * with "its next time event t is not after the current time" (a pending
 * time equal to t was taken for none: the output never switched). */
static void timer_start(sig_timer *c, double t) {
  c->pending = t + c->delay;
  c->lost = !(c->pending > t);
}

static void timer_event(void *self, const lied_event *ev) {
  sig_timer *c = self;
  c->lost = 0;
  const int u = truth(&c->u);
  const double t = ev->t;
  if (ev->initial) {
    c->pending = INFINITY;
    c->on = c->kind == 1 ? bit(u) : 0; /* an on-delay runs from the start for an input already true */
    if (c->kind == 0 && u) {
      if (c->delay > 0) timer_start(c, t); else c->on = 1;
    }
    return;
  }
  if (ev->time && t >= c->pending) { /* the delay or the pulse ran out */
    c->on = bit(c->kind == 0);
    c->pending = INFINITY;
  }
  if (ev->crossed & 1u) { /* the input changed */
    if (c->kind == 0) {
      c->on = 0;
      c->pending = INFINITY;
      if (u) {
        if (c->delay > 0) timer_start(c, t); else c->on = 1;
      }
    } else if (c->kind == 1) {
      c->pending = INFINITY;
      if (u) c->on = 1;
      else if (c->delay > 0) timer_start(c, t);
      else c->on = 0;
    } else if (u == (c->kind == 2)) { /* the edge: a pulse */
      c->on = 1;
      c->pending = INFINITY;
      if (c->delay > 0) timer_start(c, t);
    }
  }
  /* a pulse of no width ends in the next round of the same event: the
   * blocks it drives have seen it in this one */
  if ((ev->crossed & 2u) && c->kind >= 2 && c->delay == 0 && c->on != 0) c->on = 0;
}

static double timer_next(const void *self, double t) {
  const sig_timer *c = self;
  if (c->lost) return c->pending;
  return c->pending > t ? c->pending : INFINITY;
}

static void timer_meta(lied_meta *m, void *self) {
  sig_timer *c = self;
  lied_meta_bool_in(m, "u", 0, &c->u);
  lied_meta_bool_out(m, "y", 0, &c->y);
  lied_meta_block(m, "timer", timer_block, 0, LIED_SIGS(&c->on), LIED_SIGS(&c->y.y, &c->zy));
  lied_meta_block(m, "watch", timer_watch_block, 0, LIED_SIGS(&c->u.y), LIED_SIGS(&c->zu));
  lied_meta_zero(m, "zu", &c->zu, LIED_ZC_BOTH);
  if (c->kind >= 2) lied_meta_zero(m, "zy", &c->zy, LIED_ZC_UP); /* edges: the pulse's end */
  lied_meta_event(m, timer_event);
  lied_meta_time_events(m, timer_next);
}

#define TIMER_INIT(NAME, KIND)                                                           \
  static int NAME(void *self, lied_init *ctx) {                                          \
    (void)ctx;                                                                           \
    ((sig_timer *)self)->kind = KIND;                                                    \
    return 0;                                                                            \
  }
TIMER_INIT(on_delay_init, 0)
TIMER_INIT(off_delay_init, 1)
TIMER_INIT(rising_init, 2)
TIMER_INIT(falling_init, 3)
static const lied_param delay_params[] = {
    {"delay", offsetof(sig_timer, delay), 1, "s", "the delay", 0, SIG_NOMAX, 0, 0, NULL},
};
static const lied_param edge_params[] = {
    {"width", offsetof(sig_timer, delay), 0, "s",
     "how long y stays true after an edge (0: for the event instant only)", 0, SIG_NOMAX, 0, 0,
     NULL},
};
const lied_class sig_on_delay_class = {
    "OnDelay", "signals", "Boolean y: u, true only once u has been true for delay seconds",
    sizeof(sig_timer), delay_params, 1, on_delay_init, timer_meta};
const lied_class sig_off_delay_class = {
    "OffDelay", "signals", "Boolean y: u, false only once u has been false for delay seconds",
    sizeof(sig_timer), delay_params, 1, off_delay_init, timer_meta};
const lied_class sig_rising_class = {"RisingEdge", "signals",
                                     "Boolean y: true when u rises (for width seconds)",
                                     sizeof(sig_timer), edge_params, 1, rising_init, timer_meta};
const lied_class sig_falling_class = {"FallingEdge", "signals",
                                      "Boolean y: true when u falls (for width seconds)",
                                      sizeof(sig_timer), edge_params, 1, falling_init, timer_meta};

/* ---- BooleanSampleHold: y = u at the last rising edge of trigger ---- */

typedef struct sig_bhold {
  lied_bool_in u, trigger;
  lied_bool_out y;
  int y_start;
  double held; /* discrete */
  double z;
} sig_bhold;

static void bhold_eval(const lied_env *env, sig_bhold *c) {
  (void)env;
  c->y.y.y = c->held;
  c->z = c->trigger.y->y - 0.5;
}
LIED_BLOCK(bhold_block, sig_bhold, bhold_eval)

static void bhold_event(void *self, const lied_event *ev) {
  sig_bhold *c = self;
  if (ev->initial)
    c->held = bit(truth(&c->trigger) ? truth(&c->u) : c->y_start);
  else if (ev->crossed)
    c->held = bit(truth(&c->u));
}

static void bhold_meta(lied_meta *m, void *self) {
  sig_bhold *c = self;
  lied_meta_bool_in(m, "u", 0, &c->u);
  lied_meta_bool_in(m, "trigger", 0, &c->trigger);
  lied_meta_bool_out(m, "y", 0, &c->y);
  lied_meta_block(m, "hold", bhold_block, 0, LIED_SIGS(&c->trigger.y, &c->held),
                  LIED_SIGS(&c->y.y, &c->z));
  lied_meta_zero(m, "z", &c->z, LIED_ZC_UP);
  lied_meta_event(m, bhold_event);
}
static const lied_param bhold_params[] = {
    {"y_start", offsetof(sig_bhold, y_start), 0, "1", "y until the first rising edge of trigger",
     0, 1, LIED_PARAM_INT, 0, NULL},
};
const lied_class sig_bhold_class = {
    "BooleanSampleHold", "signals", "Boolean y = u at the last rising edge of trigger",
    sizeof(sig_bhold), bhold_params, 1, NULL, bhold_meta};

/* ---- StateMachine ----
 * States 1..n, the first `initial`; transitions k = 1..nt from from[k] to
 * to[k] when condition cond[k] holds (c_j for cond = j, not c_j for cond =
 * -j, over the Boolean inputs c1..cm), the first in order that holds for the
 * active state being taken; after a transition the new state's are tried
 * too (at most n in one instant). Outputs: state (its number), y = value of
 * the active state, Boolean active1..activen. Transitions are tried at the
 * start and whenever a condition input changes (a zero function each). */
#define SM_STATES 16
#define SM_TRANS 32

typedef struct sig_sm {
  lied_bool_in c[SIG_MAXN];
  lied_real_out y, state;
  lied_bool_out active[SM_STATES];
  int n, m, nt, initial;
  int from[SM_TRANS], to[SM_TRANS], cond[SM_TRANS];
  double value[SM_STATES];
  double s; /* discrete: the active state */
  double z[SIG_MAXN];
} sig_sm;

static void sm_eval(const lied_env *env, sig_sm *c) {
  (void)env;
  const int s = (int)c->s;
  c->state.y.y = c->s;
  c->y.y.y = c->value[s - 1];
  for (int k = 0; k < c->n; k++) c->active[k].y.y = bit(k + 1 == s);
  for (int j = 0; j < c->m; j++) c->z[j] = c->c[j].y->y - 0.5;
}
LIED_BLOCK(sm_block, sig_sm, sm_eval)

static int sm_holds(const sig_sm *c, int cond) {
  const int v = truth(&c->c[(cond > 0 ? cond : -cond) - 1]);
  return cond > 0 ? v : !v;
}

static void sm_event(void *self, const lied_event *ev) {
  sig_sm *c = self;
  if (ev->initial) c->s = c->initial;
  if (!ev->initial && !ev->crossed) return;
  for (int step = 0; step < c->n; step++) {
    int k = 0;
    while (k < c->nt && !(c->from[k] == (int)c->s && sm_holds(c, c->cond[k]))) k++;
    if (k == c->nt) break;
    c->s = c->to[k];
  }
}

static int sm_init(void *self, lied_init *ctx) {
  sig_sm *c = self;
  if (c->initial > c->n) {
    lied_init_error(ctx, "StateMachine: initial state %d of %d states", c->initial, c->n);
    return -1;
  }
  c->s = c->initial; /* what the blocks read before the run's first event */
  for (int k = 0; k < c->nt; k++) {
    const int a = c->cond[k] > 0 ? c->cond[k] : -c->cond[k];
    if (c->from[k] < 1 || c->from[k] > c->n || c->to[k] < 1 || c->to[k] > c->n) {
      lied_init_error(ctx, "StateMachine: transition %d goes from state %d to %d of %d states",
                      k + 1, c->from[k], c->to[k], c->n);
      return -1;
    }
    if (a < 1 || a > c->m) {
      lied_init_error(ctx, "StateMachine: transition %d: condition %d of %d inputs c1..c%d", k + 1,
                      c->cond[k], c->m, c->m);
      return -1;
    }
  }
  return 0;
}

static void sm_meta(lied_meta *m, void *self) {
  sig_sm *c = self;
  static const char *const anames[SM_STATES] = {
      "active1", "active2", "active3",  "active4",  "active5",  "active6",  "active7",  "active8",
      "active9", "active10", "active11", "active12", "active13", "active14", "active15", "active16"};
  static const char *const znames[SIG_MAXN] = {"z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"};
  const void *in[SIG_MAXN + 2] = {NULL}, *out[SM_STATES + SIG_MAXN + 3] = {NULL};
  int no = 0;
  for (int j = 0; j < c->m; j++) {
    lied_meta_bool_in(m, cnames[j], 0, &c->c[j]);
    in[j] = &c->c[j].y;
    out[no++] = &c->z[j];
  }
  in[c->m] = &c->s;
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_real_out(m, "state", 0, &c->state);
  out[no++] = &c->y.y;
  out[no++] = &c->state.y;
  for (int k = 0; k < c->n; k++) {
    lied_meta_bool_out(m, anames[k], 0, &c->active[k]);
    out[no++] = &c->active[k].y;
  }
  lied_meta_block(m, "states", sm_block, 0, in, out);
  for (int j = 0; j < c->m; j++) lied_meta_zero(m, znames[j], &c->z[j], LIED_ZC_BOTH);
  lied_meta_event(m, sm_event);
}

static const lied_param sm_params[] = {
    {"n", offsetof(sig_sm, n), 2, "1", "number of states", 1, SM_STATES, LIED_PARAM_INT, 0, NULL},
    {"m", offsetof(sig_sm, m), 1, "1", "number of condition inputs c1..cm", 1, SIG_MAXN,
     LIED_PARAM_INT, 0, NULL},
    {"initial", offsetof(sig_sm, initial), 1, "1", "the state at the start", 1, SM_STATES,
     LIED_PARAM_INT, 0, NULL},
    {"nt", offsetof(sig_sm, nt), 0, "1", "number of transitions", 0, SM_TRANS, LIED_PARAM_INT, 0,
     NULL},
    {"from", offsetof(sig_sm, from), 1, "1", "transition k leaves state from[k]", 1, SM_STATES,
     LIED_PARAM_INT, SM_TRANS, NULL},
    {"to", offsetof(sig_sm, to), 1, "1", "transition k enters state to[k]", 1, SM_STATES,
     LIED_PARAM_INT, SM_TRANS, NULL},
    {"cond", offsetof(sig_sm, cond), 1, "1", "transition k's condition: j for cj, -j for not cj",
     -SIG_MAXN, SIG_MAXN, LIED_PARAM_INT, SM_TRANS, NULL},
    {"value", offsetof(sig_sm, value), 0, "1", "y in each state", SIG_NOMIN, SIG_NOMAX, 0,
     SM_STATES, NULL},
};
const lied_class sig_sm_class = {
    "StateMachine", "signals",
    "states 1..n with transitions on Boolean conditions c1..cm; outputs state, y = value[state], "
    "active1..activen (in Lua: states, transitions and values by name)",
    sizeof(sig_sm), sm_params, 8, sm_init, sm_meta};
