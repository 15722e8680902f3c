/* friction.c - Clutch (between two nodes) and Brake (between a node and the
 * ground): dry friction that sticks and slips, switched by events
 * (docs/rotational.md, "Stick and slip").
 *
 * The friction torque tau (flange_b.tau of a clutch, flange.tau of a brake;
 * flange_a of a clutch takes -tau) is a tearing variable. Its residual
 * depends on the mode, a discrete variable changed only by the handler:
 *   forward  (w_rel > 0):  tau - tau_k = 0
 *   backward (w_rel < 0):  tau + tau_k = 0
 *   free     (fn <= 0):    tau = 0
 *   stuck:                 a_rel = 0      (tau: whatever holds it)
 * with w_rel = w_b - w_a (brake: w), a_rel likewise, the kinetic torque
 * tau_k = mu cgeo fn and the static limit tau_s = peak tau_k, fn = fn_max
 * f_normalized. In every mode the residual is affine in the tearing
 * variables with coefficients that change only at events (where lied
 * factorises a constant section again), so the blocks are marked constant.
 *
 * Zero functions: stick = mode w_rel while slipping (0 otherwise) falls to
 * 0 when the slip stops; break = tau_s - |tau| while stuck (1 otherwise)
 * falls to 0 when the torque needed exceeds the static limit; engage = fn
 * crosses 0 when the normal force comes or goes. */
#include "lib/rotational/rotational.h"

enum { FR_BWD = -1, FR_STUCK = 0, FR_FWD = 1, FR_FREE = 2 };

/* What the clutch and the brake share; first in both structs, so the
 * handler and the time-event function take either. */
typedef struct ro_friction {
  double tau, res; /* tearing pair: the friction torque, the mode's equation */
  double w_rel, fn, tau_k, tau_s, P_loss;
  double z_stick, z_break, z_engage;
  double mode;    /* discrete: FR_* */
  double pending; /* discrete: 1 while a stuck start waits for its check */
  double mu, peak, cgeo, fn_max;
  lied_real_in f_normalized;
} ro_friction;

typedef struct ro_clutch {
  ro_friction f;
  ro_branch flange_a, flange_b;
} ro_clutch;

typedef struct ro_brake {
  ro_friction f;
  ro_branch flange;
} ro_brake;

/* The explicit part: speeds, normal force, torques, the stick and engage
 * functions. */
static inline void fr_explicit(ro_friction *f, double w_rel) {
  f->w_rel = w_rel;
  f->fn = f->fn_max * f->f_normalized.y->y;
  f->tau_k = f->mu * f->cgeo * f->fn;
  f->tau_s = f->peak * f->tau_k;
  f->z_stick = f->mode == FR_FWD || f->mode == FR_BWD ? f->mode * w_rel : 0;
  f->z_engage = f->fn;
}
/* The mode's equation (affine in tau and a_rel). */
static inline double fr_res(const ro_friction *f, double a_rel) {
  if (f->mode == FR_STUCK) return a_rel;
  if (f->mode == FR_FREE) return f->tau;
  return f->tau - f->mode * f->tau_k;
}
/* After the section: the break function and the power dissipated. */
static inline void fr_after(ro_friction *f) {
  f->z_break = f->mode == FR_STUCK ? f->tau_s - fabs(f->tau) : 1;
  f->P_loss = f->tau * f->w_rel;
}

/* The mode after an event, from the values at its time (the handler's
 * inputs: the evaluation with the mode before). A slip that ends sticks; a
 * stuck element whose torque exceeds the static limit slips in the
 * torque's sense (the relative acceleration then has that sign, since the
 * kinetic torque is below the static limit); a normal force that comes
 * grips (sticks at w_rel = 0); one that goes frees. Whether a new stuck
 * mode holds is seen by the break function in the next round. */
static double fr_torque_sense(double tau) { return tau >= 0 ? FR_FWD : FR_BWD; }
static double fr_slip_sense(double w_rel) { return w_rel > 0 ? FR_FWD : FR_BWD; }
/* A stuck start whose section the start left unknown (NaN: no torque can
 * hold it, both sides' motions are prescribed; solve/events.c): it slips in
 * the sense in which the sides' accelerations part them (res = a_rel while
 * stuck), stays stuck (and the run fails there) when they do not. */
static double fr_apart(double a_rel) {
  return a_rel > 0 ? FR_FWD : a_rel < 0 ? FR_BWD : FR_STUCK;
}
static void fr_event(void *self, const lied_event *ev) {
  ro_friction *f = self;
  const double was = f->mode;
  if (ev->initial) {
    f->pending = 0;
    if (f->fn <= 0)
      f->mode = FR_FREE;
    else if (f->w_rel != 0)
      f->mode = fr_slip_sense(f->w_rel);
    else if (was == FR_STUCK && isnan(f->tau)) /* no torque holds it: prescribed motions */
      f->mode = fr_apart(f->res);
    else if (was == FR_STUCK) /* the evaluation before was stuck: tau holds it */
      f->mode = f->z_break <= 0 ? fr_torque_sense(f->tau) : FR_STUCK;
    else /* a later run that ended slipping: stuck, checked by a time event */
      f->mode = FR_STUCK, f->pending = 1;
    return;
  }
  if (ev->time) f->pending = 0;
  if (f->fn <= 0)
    f->mode = FR_FREE;
  else if (was == FR_FREE)
    f->mode = f->w_rel == 0 ? FR_STUCK : fr_slip_sense(f->w_rel);
  else if (was == FR_STUCK) /* as the break function says: tau_s - |tau| <= 0 slips */
    f->mode = f->z_break <= 0 ? fr_torque_sense(f->tau) : FR_STUCK;
  else if (f->mode * f->w_rel <= 0)
    f->mode = FR_STUCK;
}
/* A pending check of a stuck start: at the first time after the start (the
 * evaluation there is stuck, so the handler sees the torque that holds it). */
static double fr_next(const void *self, double t) {
  const ro_friction *f = self;
  return f->pending ? nextafter(t, INFINITY) : INFINITY;
}

static void fr_meta(lied_meta *m, ro_friction *f) {
  lied_meta_real_in(m, "f_normalized", 0, &f->f_normalized);
  lied_meta_tear(m, "tau", &f->tau, "res", &f->res);
  lied_meta_var(m, "w_rel", "rad/s", &f->w_rel);
  lied_meta_var(m, "fn", "N", &f->fn);
  lied_meta_var(m, "tau_k", "N.m", &f->tau_k);
  lied_meta_var(m, "tau_s", "N.m", &f->tau_s);
  lied_meta_var(m, "P_loss", "W", &f->P_loss);
  lied_meta_var(m, "mode", "1", &f->mode);
  lied_meta_zero(m, "stick", &f->z_stick, LIED_ZC_DOWN);
  lied_meta_zero(m, "break", &f->z_break, LIED_ZC_DOWN);
  lied_meta_zero(m, "engage", &f->z_engage, LIED_ZC_BOTH);
  lied_meta_event(m, fr_event);
  lied_meta_time_events(m, fr_next);
}

static int fr_init(void *self, lied_init *ctx) {
  ro_friction *f = self;
  f->mode = FR_STUCK; /* the first evaluation is stuck: the start is checked with its torque */
  f->pending = 0;
  (void)ctx;
  return 0;
}

/* ---- Clutch ---- */
static void clutch_speed(const lied_env *env, ro_clutch *c) {
  (void)env;
  fr_explicit(&c->f, c->flange_b.w->w - c->flange_a.w->w);
}
static void clutch_torque(const lied_env *env, ro_clutch *c) {
  (void)env;
  c->flange_b.tau.tau = c->f.tau;
  c->flange_a.tau.tau = -c->f.tau;
}
static void clutch_residual(const lied_env *env, ro_clutch *c) {
  (void)env;
  c->f.res = fr_res(&c->f, c->flange_b.a->a - c->flange_a.a->a);
}
static void clutch_after(const lied_env *env, ro_clutch *c) {
  (void)env;
  fr_after(&c->f);
}
LIED_BLOCK(clutch_speed_b, ro_clutch, clutch_speed)
LIED_BLOCK(clutch_torque_b, ro_clutch, clutch_torque)
LIED_BLOCK(clutch_residual_b, ro_clutch, clutch_residual)
LIED_BLOCK(clutch_after_b, ro_clutch, clutch_after)

/* The blocks of either class: the explicit one reads the speeds of its
 * ports (w1, w2; w2 NULL for a brake), the residual their accelerations. */
static void fr_blocks(lied_meta *m, ro_friction *f, const void *w1, const void *w2,
                      const void *a1, const void *a2, lied_block_fn speed, lied_block_fn torque,
                      const void *tau1, const void *tau2, lied_block_fn residual,
                      lied_block_fn after) {
  lied_meta_block(m, "speed", speed, 0,
                  LIED_SIGS(&f->f_normalized.y, &f->mode, &f->fn_max, &f->mu, &f->cgeo, &f->peak,
                            w1, w2),
                  LIED_SIGS(&f->w_rel, &f->fn, &f->tau_k, &f->tau_s, &f->z_stick, &f->z_engage));
  lied_meta_block(m, "torque", torque, LIED_BLOCK_CONST_COEFF, LIED_SIGS(&f->tau),
                  LIED_SIGS(tau1, tau2));
  lied_meta_block(m, "residual", residual, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&f->tau, &f->tau_k, &f->mode, a1, a2), LIED_SIGS(&f->res));
  lied_meta_block(m, "after", after, 0, LIED_SIGS(&f->tau, &f->tau_s, &f->w_rel, &f->mode),
                  LIED_SIGS(&f->z_break, &f->P_loss));
}

static void clutch_meta(lied_meta *m, void *self) {
  ro_clutch *c = self;
  lied_meta_port(m, "flange_a", 0, &c->flange_a, &ro_branch_layout);
  lied_meta_port(m, "flange_b", 0, &c->flange_b, &ro_branch_layout);
  fr_meta(m, &c->f);
  fr_blocks(m, &c->f, &c->flange_a.w, &c->flange_b.w, &c->flange_a.a, &c->flange_b.a,
            clutch_speed_b, clutch_torque_b, &c->flange_a.tau, &c->flange_b.tau,
            clutch_residual_b, clutch_after_b);
}

/* ---- Brake ---- */
static void brake_speed(const lied_env *env, ro_brake *b) {
  (void)env;
  fr_explicit(&b->f, b->flange.w->w);
}
static void brake_torque(const lied_env *env, ro_brake *b) {
  (void)env;
  b->flange.tau.tau = b->f.tau;
}
static void brake_residual(const lied_env *env, ro_brake *b) {
  (void)env;
  b->f.res = fr_res(&b->f, b->flange.a->a);
}
static void brake_after(const lied_env *env, ro_brake *b) {
  (void)env;
  fr_after(&b->f);
}
LIED_BLOCK(brake_speed_b, ro_brake, brake_speed)
LIED_BLOCK(brake_torque_b, ro_brake, brake_torque)
LIED_BLOCK(brake_residual_b, ro_brake, brake_residual)
LIED_BLOCK(brake_after_b, ro_brake, brake_after)

static void brake_meta(lied_meta *m, void *self) {
  ro_brake *b = self;
  lied_meta_port(m, "flange", 0, &b->flange, &ro_branch_layout);
  fr_meta(m, &b->f);
  fr_blocks(m, &b->f, &b->flange.w, NULL, &b->flange.a, NULL, brake_speed_b, brake_torque_b,
            &b->flange.tau, NULL, brake_residual_b, brake_after_b);
}

#define FR_PARAMS(TYPE)                                                                      \
  {"mu", offsetof(TYPE, f.mu), 0.5, "1", "kinetic friction coefficient", 0, RO_NOMAX, 0, 0}, \
  {"peak", offsetof(TYPE, f.peak), 1, "1",                                                  \
   "static over kinetic friction (the static limit is peak mu cgeo fn)", 1, RO_NOMAX, 0, 0},  \
  {"cgeo", offsetof(TYPE, f.cgeo), 1, "m",                                                  \
   "geometry constant: torque per unit friction force (mean radius times the number of "    \
   "surfaces)",                                                                              \
   0, RO_NOMAX, 0, 0},                                                                       \
  {"fn_max", offsetof(TYPE, f.fn_max), 1, "N",                                              \
   "normal force at f_normalized = 1 (fn = fn_max f_normalized)", 0, RO_NOMAX, 0, 0}
static const lied_param clutch_params[] = {FR_PARAMS(ro_clutch)};
static const lied_param brake_params[] = {FR_PARAMS(ro_brake)};

const lied_class ro_clutch_class = {
    "Clutch", "rotational",
    "dry-friction clutch between two nodes: slips with tau = mu cgeo fn against w_rel = "
    "flange_b.w - flange_a.w, sticks when w_rel reaches 0 until the torque exceeds peak mu cgeo "
    "fn (events); fn = fn_max f_normalized (signal input)",
    sizeof(ro_clutch), clutch_params, 4, fr_init, clutch_meta};
const lied_class ro_brake_class = {
    "Brake", "rotational",
    "dry-friction brake between a node and the ground: slips with tau = mu cgeo fn against w, "
    "sticks when w reaches 0 until the torque exceeds peak mu cgeo fn (events); fn = fn_max "
    "f_normalized (signal input)",
    sizeof(ro_brake), brake_params, 4, fr_init, brake_meta};
