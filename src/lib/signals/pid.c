/* pid.c - PI and PID controllers with output limits and anti-windup by
 * back-calculation (docs/signals.md). The input u is the control error
 * (setpoint - measurement: an Add with k2 = -1 forms it).
 *
 *   v = k u + x + D                      unlimited output (D = 0 for PI)
 *   y = min(max(v, yMin), yMax)
 *   der(x) = k/Ti u + (y - v)/Tt         integral part, in output units
 *   D = k Nd (u - z), der(z) = Nd/Td (u - z)     PID: filtered derivative
 *                                        k Td s / (1 + s Td/Nd)
 * While the output is limited, (y - v)/Tt pulls the integral part back so
 * that v stays within k Tt/Ti |u| of the limit: the controller leaves the
 * limit as soon as the error changes sign.
 * The limits are kinks of the law: v - yMax and v - yMin are its kink
 * functions (LIED_ZC_KINK, declared for the finite limits), so adaptive
 * solvers end a step where a limit engages or releases (docs/events.md). */
#include "lib/signals/signals.h"

typedef struct sig_pid {
  lied_real_in u;
  lied_real_out y;
  double x, der_x, z, der_z;
  double v; /* unlimited output */
  double z_max, z_min; /* kink functions: v - yMax, v - yMin */
  double k, Ti, Td, Nd, Tt, yMax, yMin;
} sig_pid;

static inline double limit(double v, double lo, double hi) { return v > hi ? hi : v < lo ? lo : v; }

static void pi_eval(const lied_env *env, sig_pid *c) {
  (void)env;
  double e = c->u.y->y;
  double v = c->k * e + c->x;
  double y = limit(v, c->yMin, c->yMax);
  c->v = v;
  c->y.y.y = y;
  c->der_x = c->k / c->Ti * e + (y - v) / c->Tt;
  c->z_max = v - c->yMax;
  c->z_min = v - c->yMin;
}
static void pid_eval(const lied_env *env, sig_pid *c) {
  (void)env;
  double e = c->u.y->y;
  double v = c->k * e + c->x + c->k * c->Nd * (e - c->z);
  double y = limit(v, c->yMin, c->yMax);
  c->v = v;
  c->y.y.y = y;
  c->der_x = c->k / c->Ti * e + (y - v) / c->Tt;
  c->der_z = c->Nd / c->Td * (e - c->z);
  c->z_max = v - c->yMax;
  c->z_min = v - c->yMin;
}
LIED_BLOCK(pi_block, sig_pid, pi_eval)
LIED_BLOCK(pid_block, sig_pid, pid_eval)

static int pid_init_common(sig_pid *c, lied_init *ctx, const char *cls, double Tt_default) {
  if (!(c->yMin <= c->yMax)) {
    lied_init_error(ctx, "%s: the output limits are not ordered: yMin = %g > yMax = %g", cls,
                    c->yMin, c->yMax);
    return -1;
  }
  if (isnan(c->Tt)) c->Tt = Tt_default;
  return 0;
}
static int pi_init(void *self, lied_init *ctx) {
  sig_pid *c = self;
  return pid_init_common(c, ctx, "PI", c->Ti);
}
static int pid_init(void *self, lied_init *ctx) {
  sig_pid *c = self;
  return pid_init_common(c, ctx, "PID", sqrt(c->Ti * c->Td));
}

/* The kink functions of the finite limits. */
static void limit_kinks(lied_meta *m, sig_pid *c) {
  if (isfinite(c->yMax)) lied_meta_zero(m, "z_max", &c->z_max, LIED_ZC_BOTH | LIED_ZC_KINK);
  if (isfinite(c->yMin)) lied_meta_zero(m, "z_min", &c->z_min, LIED_ZC_BOTH | LIED_ZC_KINK);
}
static void pi_meta(lied_meta *m, void *self) {
  sig_pid *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_var(m, "v", "1", &c->v);
  lied_meta_block(m, "control", pi_block, 0, LIED_SIGS(&c->u.y, &c->x),
                  LIED_SIGS(&c->y.y, &c->v, &c->der_x, &c->z_max, &c->z_min));
  limit_kinks(m, c);
}
static void pid_meta(lied_meta *m, void *self) {
  sig_pid *c = self;
  lied_meta_real_in(m, "u", 0, &c->u);
  lied_meta_real_out(m, "y", 0, &c->y);
  lied_meta_state(m, "x", "1", &c->x, &c->der_x);
  lied_meta_state(m, "z", "1", &c->z, &c->der_z);
  lied_meta_var(m, "v", "1", &c->v);
  lied_meta_block(m, "control", pid_block, 0, LIED_SIGS(&c->u.y, &c->x, &c->z),
                  LIED_SIGS(&c->y.y, &c->v, &c->der_x, &c->der_z, &c->z_max, &c->z_min));
  limit_kinks(m, c);
}

#define P_K {"k", offsetof(sig_pid, k), 1, "1", "proportional gain", SIG_NOMIN, SIG_NOMAX, 0, 0}
#define P_TI {"Ti", offsetof(sig_pid, Ti), 1, "s", "integral time", 0, SIG_NOMAX, LIED_PARAM_MIN_OPEN, 0}
#define P_TT(D)                                                                            \
  {"Tt", offsetof(sig_pid, Tt), NAN, "s", "anti-windup tracking time (default " D ")", 0,  \
   SIG_NOMAX, LIED_PARAM_MIN_OPEN, 0}
#define P_LIMITS                                                                           \
  {"yMax", offsetof(sig_pid, yMax), HUGE_VAL, "1", "upper output limit (default none)",    \
   SIG_NOMIN, SIG_NOMAX, 0, 0},                                                            \
  {"yMin", offsetof(sig_pid, yMin), -HUGE_VAL, "1", "lower output limit (default none)",   \
   SIG_NOMIN, SIG_NOMAX, 0, 0}
#define P_X {"x", offsetof(sig_pid, x), 0, "1", "start value of the integral part", SIG_NOMIN, SIG_NOMAX, 0, 0}

static const lied_param pi_params[] = {P_K, P_TI, P_TT("Ti"), P_LIMITS, P_X};
static const lied_param pid_params[] = {
    P_K, P_TI,
    {"Td", offsetof(sig_pid, Td), 0.1, "s", "derivative time", 0, SIG_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"Nd", offsetof(sig_pid, Nd), 10, "1", "derivative filter: gain at high frequency is k Nd", 0,
     SIG_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    P_TT("sqrt(Ti Td)"), P_LIMITS, P_X,
    {"z", offsetof(sig_pid, z), 0, "1", "start value of the derivative filter state", SIG_NOMIN,
     SIG_NOMAX, 0, 0},
};
const lied_class sig_pi_class = {
    "PI", "signals", "PI controller y = k (u + 1/Ti int u) limited to [yMin, yMax], back-calculation anti-windup",
    sizeof(sig_pid), pi_params, (int)(sizeof pi_params / sizeof pi_params[0]), pi_init, pi_meta};
const lied_class sig_pid_class = {
    "PID", "signals",
    "PID controller with filtered derivative, limited to [yMin, yMax], back-calculation anti-windup",
    sizeof(sig_pid), pid_params, (int)(sizeof pid_params / sizeof pid_params[0]), pid_init, pid_meta};
