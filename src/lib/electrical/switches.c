/* switches.c - IdealSwitch and Diode (docs/electrical.md, "What breaks it").
 *
 * The ideal forms (smooth = 0) are piecewise linear: one tearing variable
 * s, and per mode an affine law (Modelica's IdealSwitch and IdealDiode):
 *   closed / conducting:  v = Vknee + Ron s,  i = Goff Vknee + s
 *   open / blocking:      v = Vknee + s,      i = Goff Vknee + Goff s
 * (Vknee = 0 for the switch), residual v - (Vknee + s (Ron or 1)). The
 * mode changes only at events: the switch follows its Boolean input
 * `control` (a zero function on it), the diode the sign of s (a zero
 * function s: s > 0 is the conducting side in both modes). Between events
 * the blocks are affine with constant coefficients; lied factorises the
 * section again after each event. With Ron = 0 the closed mode is a
 * voltage-defined element: between two explicit potentials it closes a
 * loop of voltage-defined elements, refused before the run.
 *
 * The smooth forms (smooth = 1) have no events and no tearing variable:
 * the switch is a conductance G = Goff^(1 - u) (1/Ron)^u of its real input
 * u (clamped to [0, 1]), affine in the potentials; the diode the
 * exponential law of Modelica's Semiconductors.Diode,
 *   i = Ids (exp(v/Vt) - 1) + v/R,  continued linearly above v/Vt = Maxexp,
 * which is nonlinear: it needs both potentials explicit and refuses one
 * that a linear section solves. */
#include <stdio.h>
#include "lib/electrical/electrical.h"

enum { SW_SWITCH = 1, SW_DIODE = 2 };

typedef struct el_switch {
  el_branch p, n;
  lied_bool_in control; /* switch, ideal form */
  lied_real_in u;       /* switch, smooth form (port "control") */
  double s, res;        /* ideal forms: the tearing pair */
  double v, i, P, z, G_act, ok;
  double z_lo, z_hi; /* smooth switch: kink functions u, u - 1 (the clamp of u) */
  double closed; /* discrete: closed / conducting */
  double Ron, Goff, Vknee, Ids, Vt, Maxexp, R;
  int smooth, kind;
} el_switch;

/* ---- ideal forms ---- */
static inline double sw_current_eq(double s, double closed, double Goff, double Vknee) {
  return Goff * Vknee + s * (closed != 0 ? 1 : Goff);
}
static inline double sw_res_eq(double v, double s, double closed, double Ron, double Vknee) {
  return v - (Vknee + s * (closed != 0 ? Ron : 1));
}
static void sw_current(const lied_env *env, el_switch *w) {
  (void)env;
  w->i = sw_current_eq(w->s, w->closed, w->Goff, w->Vknee);
  w->p.i.i = w->i;
  w->n.i.i = -w->i;
}
static void sw_law(const lied_env *env, el_switch *w) {
  (void)env;
  w->v = w->p.v->v - w->n.v->v;
  w->res = sw_res_eq(w->v, w->s, w->closed, w->Ron, w->Vknee);
}
static void sw_power(const lied_env *env, el_switch *w) {
  (void)env;
  w->P = w->v * w->i;
}
static void switch_zero(const lied_env *env, el_switch *w) {
  (void)env;
  w->z = w->control.y->y - 0.5;
}
static void diode_zero(const lied_env *env, el_switch *w) {
  (void)env;
  w->z = w->s;
}
/* Ron = 0 between two explicit potentials: conducting, a loop of
 * voltage-defined elements (both pins read `known`). */
static void sw_check(const lied_env *env, el_switch *w) {
  w->ok = !(w->Ron == 0 && w->p.k->known != 0 && w->n.k->known != 0);
  if (!w->ok)
    lied_block_fault_model(env, w,
                     "an ideal %s (Ron = 0) between two potentials known explicitly: %s, it "
                     "closes a loop of voltage-defined elements; give it Ron > 0 or a resistance "
                     "in series",
                     w->kind == SW_DIODE ? "diode" : "switch",
                     w->kind == SW_DIODE ? "conducting" : "closed");
}
LIED_BLOCK(sw_current_b, el_switch, sw_current)
LIED_BLOCK(sw_law_b, el_switch, sw_law)
LIED_BLOCK(sw_power_b, el_switch, sw_power)
LIED_BLOCK(switch_zero_b, el_switch, switch_zero)
LIED_BLOCK(diode_zero_b, el_switch, diode_zero)
LIED_BLOCK(sw_check_b, el_switch, sw_check)

static void sw_event(void *self, const lied_event *ev) {
  el_switch *w = self;
  if (w->kind == SW_SWITCH)
    w->closed = w->control.y->y != 0;
  else if (ev->initial && isnan(w->s)) /* no solution in this mode at the start: the other */
    w->closed = w->closed == 0;
  else /* s > 0 is the conducting side in both modes */
    w->closed = w->s > 0;
}

/* ---- smooth forms ---- */
static inline double clamp01(double u) { return u < 0 ? 0 : u > 1 ? 1 : u; }
static inline double smooth_conductance_eq(double u, double Ron, double Goff) {
  const double c = clamp01(u);
  return pow(Goff, 1 - c) * pow(1 / Ron, c);
}
static inline double shockley_eq(double v, double Ids, double Vt, double Maxexp, double R) {
  const double x = v / Vt;
  if (x > Maxexp) return Ids * (exp(Maxexp) * (1 + x - Maxexp) - 1) + v / R;
  return Ids * (exp(x) - 1) + v / R;
}
static void switch_smooth(const lied_env *env, el_switch *w) {
  (void)env;
  w->G_act = smooth_conductance_eq(w->u.y->y, w->Ron, w->Goff);
  w->z_lo = w->u.y->y;
  w->z_hi = w->u.y->y - 1;
  w->v = w->p.v->v - w->n.v->v;
  w->i = w->G_act * w->v;
  w->p.i.i = w->i;
  w->n.i.i = -w->i;
}
static void diode_smooth(const lied_env *env, el_switch *w) {
  (void)env;
  w->v = w->p.v->v - w->n.v->v;
  w->i = shockley_eq(w->v, w->Ids, w->Vt, w->Maxexp, w->R);
  w->p.i.i = w->i;
  w->n.i.i = -w->i;
}
/* a nonlinear law needs both potentials explicit */
static void diode_explicit(const lied_env *env, el_switch *w) {
  w->ok = w->p.k->known != 0 && w->n.k->known != 0;
  if (!w->ok)
    lied_block_fault_model(env, w,
                     "nonlinear law on pin %s, whose potential a linear section solves (a "
                     "nonlinear loop lied cannot solve): give the node a capacitance (Node {C = "
                     "...}) or use smooth = 0",
                     w->p.k->known != 0 ? "n" : "p");
}
LIED_BLOCK(switch_smooth_b, el_switch, switch_smooth)
LIED_BLOCK(diode_smooth_b, el_switch, diode_smooth)
LIED_BLOCK(diode_explicit_b, el_switch, diode_explicit)

static void sw_meta(lied_meta *m, void *self) {
  el_switch *w = self;
  const int diode = w->kind == SW_DIODE;
  const int checked = diode ? w->smooth || w->Ron == 0 : !w->smooth && w->Ron == 0;
  const lied_port_layout *lay = checked ? &el_branch_known_layout : &el_branch_layout;
  lied_meta_port(m, "p", 0, &w->p, lay);
  lied_meta_port(m, "n", 0, &w->n, lay);
  lied_meta_var(m, "v", "V", &w->v);
  lied_meta_var(m, "i", "A", &w->i);
  lied_meta_var(m, "P", "W", &w->P);
  lied_meta_block(m, "power", sw_power_b, 0, LIED_SIGS(&w->v, &w->i), LIED_SIGS(&w->P));
  if (w->smooth) {
    if (diode) {
      lied_meta_block(m, "current", diode_smooth_b, 0,
                      LIED_SIGS(&w->p.v, &w->n.v, &w->Ids, &w->Vt, &w->Maxexp, &w->R),
                      LIED_SIGS(&w->p.i, &w->n.i, &w->v, &w->i));
      lied_meta_block(m, "explicit", diode_explicit_b, 0, LIED_SIGS(&w->p.k, &w->n.k),
                      LIED_SIGS(&w->ok));
    } else {
      lied_meta_real_in(m, "control", 0, &w->u);
      lied_meta_var(m, "G", "S", &w->G_act);
      lied_meta_block(m, "current", switch_smooth_b, 0,
                      LIED_SIGS(&w->p.v, &w->n.v, &w->u.y, &w->Ron, &w->Goff),
                      LIED_SIGS(&w->p.i, &w->n.i, &w->v, &w->i, &w->G_act, &w->z_lo, &w->z_hi));
      /* G kinks where the clamp of u to [0, 1] engages (docs/events.md, "Kinks") */
      lied_meta_zero(m, "z_lo", &w->z_lo, LIED_ZC_BOTH | LIED_ZC_KINK);
      lied_meta_zero(m, "z_hi", &w->z_hi, LIED_ZC_BOTH | LIED_ZC_KINK);
    }
    return;
  }
  lied_meta_tear(m, "s", &w->s, "res", &w->res);
  lied_meta_var(m, diode ? "on" : "closed", "1", &w->closed);
  lied_meta_block(m, "current", sw_current_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&w->s, &w->closed, &w->Goff, &w->Vknee),
                  LIED_SIGS(&w->p.i, &w->n.i, &w->i));
  lied_meta_block(m, "law", sw_law_b, LIED_BLOCK_CONST_COEFF,
                  LIED_SIGS(&w->p.v, &w->n.v, &w->s, &w->closed, &w->Ron, &w->Vknee),
                  LIED_SIGS(&w->v, &w->res));
  if (diode) {
    lied_meta_block(m, "zero", diode_zero_b, 0, LIED_SIGS(&w->s), LIED_SIGS(&w->z));
    lied_meta_zero(m, "z", &w->z, LIED_ZC_BOTH);
  } else {
    lied_meta_bool_in(m, "control", 0, &w->control);
    lied_meta_block(m, "zero", switch_zero_b, 0, LIED_SIGS(&w->control.y), LIED_SIGS(&w->z));
    lied_meta_zero(m, "z", &w->z, LIED_ZC_BOTH);
  }
  lied_meta_event(m, sw_event);
  if (checked)
    lied_meta_block(m, "check", sw_check_b, 0, LIED_SIGS(&w->p.k, &w->n.k, &w->Ron),
                    LIED_SIGS(&w->ok));
}

static int sw_init(void *self, lied_init *ctx, int kind) {
  el_switch *w = self;
  w->kind = kind;
  if (w->smooth && kind == SW_SWITCH && !(w->Ron > 0 && w->Goff > 0)) {
    lied_init_error(ctx, "IdealSwitch: the smooth form needs Ron > 0 and Goff > 0");
    return -1;
  }
  if (w->Ron * w->Goff >= 1) {
    lied_init_error(ctx, "%s: Ron Goff = %g must be < 1 (closed must conduct better than open)",
                    kind == SW_DIODE ? "Diode" : "IdealSwitch", w->Ron * w->Goff);
    return -1;
  }
  return 0;
}
static int switch_init(void *self, lied_init *ctx) { return sw_init(self, ctx, SW_SWITCH); }
static int diode_init(void *self, lied_init *ctx) { return sw_init(self, ctx, SW_DIODE); }

static const lied_param switch_params[] = {
    {"Ron", offsetof(el_switch, Ron), 1e-5, "Ohm", "resistance when closed", 0, EL_NOMAX, 0, 0},
    {"Goff", offsetof(el_switch, Goff), 1e-5, "S", "conductance when open", 0, EL_NOMAX, 0, 0},
    {"smooth", offsetof(el_switch, smooth), 0, "1",
     "0: ideal, switched by the Boolean input control at events; 1: a conductance Goff^(1-u) "
     "(1/Ron)^u of the real input control = u in [0, 1]",
     0, 1, LIED_PARAM_INT, 0},
};
static const lied_param diode_params[] = {
    {"Ron", offsetof(el_switch, Ron), 1e-5, "Ohm", "forward resistance (ideal form)", 0,
     EL_NOMAX, 0, 0},
    {"Goff", offsetof(el_switch, Goff), 1e-5, "S", "backward conductance (ideal form)", 0,
     EL_NOMAX, 0, 0},
    {"Vknee", offsetof(el_switch, Vknee), 0, "V", "forward threshold voltage (ideal form)", 0,
     EL_NOMAX, 0, 0},
    {"smooth", offsetof(el_switch, smooth), 0, "1",
     "0: ideal, switched at events by the sign of s; 1: the exponential law (explicit "
     "potentials only)",
     0, 1, LIED_PARAM_INT, 0},
    {"Ids", offsetof(el_switch, Ids), 1e-6, "A", "saturation current (smooth form)", 0,
     EL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"Vt", offsetof(el_switch, Vt), 0.04, "V", "voltage equivalent of temperature (smooth form)",
     0, EL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
    {"Maxexp", offsetof(el_switch, Maxexp), 15, "1",
     "above v/Vt = Maxexp the law continues linearly (smooth form)", 0, 700,
     LIED_PARAM_MIN_OPEN, 0},
    {"R", offsetof(el_switch, R), 1e8, "Ohm", "parallel ohmic resistance (smooth form)", 0,
     EL_NOMAX, LIED_PARAM_MIN_OPEN, 0},
};
const lied_class el_ideal_switch_class = {
    "IdealSwitch", "electrical",
    "switch: closed (v = Ron i) while its Boolean input control is true, open (i = Goff v) "
    "otherwise, switched at events; smooth = 1: a conductance of a real input",
    sizeof(el_switch), switch_params, 3, switch_init, sw_meta};
const lied_class el_diode_class = {
    "Diode", "electrical",
    "diode: ideal (conducting v = Vknee + Ron i, blocking i = Goff v, switched at events where "
    "its variable s changes sign), or smooth = 1: i = Ids (exp(v/Vt) - 1) + v/R on explicit "
    "potentials",
    sizeof(el_switch), diode_params, 8, diode_init, sw_meta};
