/* thermofluid_media.c - the Lua module lied.thermofluid_media: property functions
 * of the thermofluid media for inspection and tests. lied.thermofluid makes
 * them the methods of tf.steam and tf.moist_air (docs/media.md):
 *
 *   tf.steam:T_ph(p, h)   tf.steam:h_pT(p, T)   tf.steam:Tsat(p)
 *   tf.moist_air:phi(p, T, X)   tf.moist_air:T_dew(p, X)
 *   tf.air:h_T(T)   tf.air:T_ps(p, s)   (thermofluid_gas.c)
 *
 * and, for every registered medium with two phases and entropy (the
 * refrigerants tf.R134a, tf.R1234yf, tf.R290, tf.R744 and a plugin's), the
 * methods of media.twophase (tf.R134a:T_ph(p, h), :psat(T), ...), which
 * call the medium's C functions (thermofluid.h), so they give what the
 * components compute with.
 *
 * SI units (Pa, K, J/kg). A state outside a medium's range is a Lua error
 * whose message names the medium and the state; an argument that is not a
 * number is refused. */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lied/luaopen.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"
#include "lib/thermofluid/nasa_moist.h"
#include "lib/thermofluid/rftab.h"
#include "lib/thermofluid/thermofluid.h"
#include "thermofluid_gas.h"

/* Argument k (after the self of a method call) as a number. */
static double arg(lua_State *L, int k) {
  if (k == 1) luaL_checktype(L, 1, LUA_TTABLE); /* tf.steam:f(...), not tf.steam.f(...) */
  return luaL_checknumber(L, k + 1);
}

static int fail(lua_State *L, const char *fn, const char *why) {
  return luaL_error(L, "tf.steam:%s: %s", fn, why);
}

/* The state of a method named fn from two arguments: by "ph", "pT", "ps" or "rhou". */
static void state(lua_State *L, const char *fn, const char *by, if97_state *st) {
  char why[256];
  double a = arg(L, 1), b = arg(L, 2);
  int rc;
  if (!strcmp(by, "ph"))
    rc = if97_ph(a, b, st, why, sizeof why);
  else if (!strcmp(by, "pT"))
    rc = if97_pT(a, b, st, why, sizeof why);
  else if (!strcmp(by, "ps"))
    rc = if97_ps(a, b, st, why, sizeof why);
  else
    rc = if97_rho_u(a, b, st, why, sizeof why);
  if (rc) fail(L, fn, why);
}

/* One property of the state: the method name is "<prop>_<by>". */
#define PROP(NAME, BY, EXPR)                                                            \
  static int NAME##_##BY(lua_State *L) {                                                \
    if97_state st;                                                                      \
    state(L, #NAME "_" #BY, #BY, &st);                                                  \
    lua_pushnumber(L, (EXPR));                                                          \
    return 1;                                                                           \
  }
PROP(T, ph, st.T)
PROP(rho, ph, st.rho)
PROP(x, ph, st.x)
PROP(s, ph, st.s)
PROP(u, ph, st.u)
PROP(h, pT, st.h)
PROP(rho, pT, st.rho)
PROP(s, pT, st.s)
PROP(u, pT, st.u)
PROP(cp, pT, st.cp)
PROP(T, ps, st.T)
PROP(h, ps, st.h)
PROP(x, ps, st.x)
PROP(p, rhou, st.p)
PROP(T, rhou, st.T)
PROP(x, rhou, st.x)
PROP(h, rhou, st.h)

/* cp is not defined in the two-phase region. */
static int cp_ph(lua_State *L) {
  if97_state st;
  state(L, "cp_ph", "ph", &st);
  if (st.region == 4) {
    char why[200];
    snprintf(why, sizeof why,
             "p = %.9g Pa, h = %.9g J/kg is a two-phase state (x = %.6g), where cp is not "
             "defined", st.p, st.h, st.x);
    return fail(L, "cp_ph", why);
  }
  lua_pushnumber(L, st.cp);
  return 1;
}

/* A new table {names[i] = vals[i]} (and {iname = ival} when iname is not
 * NULL) on the stack. */
static int push_fields(lua_State *L, const char *const *names, const double *vals, int n,
                       const char *iname, int ival) {
  lua_createtable(L, 0, n + 1);
  for (int i = 0; i < n; i++) {
    lua_pushnumber(L, vals[i]);
    lua_setfield(L, -2, names[i]);
  }
  if (iname) {
    lua_pushinteger(L, ival);
    lua_setfield(L, -2, iname);
  }
  return 1;
}

/* The whole state as a table {p, T, rho, h, u, s, cp, x, region}. */
static int push_state(lua_State *L, const if97_state *st) {
  const char *names[] = {"p", "T", "rho", "h", "u", "s", "cp", "x"};
  const double vals[] = {st->p, st->T, st->rho, st->h, st->u, st->s, st->cp, st->x};
  return push_fields(L, names, vals, 8, "region", st->region);
}
#define STATE(BY)                                                                       \
  static int state_##BY(lua_State *L) {                                                 \
    if97_state st;                                                                      \
    state(L, "state_" #BY, #BY, &st);                                                   \
    return push_state(L, &st);                                                          \
  }
STATE(ph)
STATE(pT)
STATE(ps)
STATE(rhou)

static int Tsat(lua_State *L) {
  char why[256];
  double T;
  if (if97_Tsat(arg(L, 1), &T, why, sizeof why)) return fail(L, "Tsat", why);
  lua_pushnumber(L, T);
  return 1;
}
static int psat(lua_State *L) {
  char why[256];
  double p;
  if (if97_psat(arg(L, 1), &p, why, sizeof why)) return fail(L, "psat", why);
  lua_pushnumber(L, p);
  return 1;
}

static const luaL_Reg steam_methods[] = {
    {"T_ph", T_ph},   {"rho_ph", rho_ph},   {"x_ph", x_ph},     {"s_ph", s_ph},
    {"u_ph", u_ph},   {"cp_ph", cp_ph},     {"h_pT", h_pT},     {"rho_pT", rho_pT},
    {"s_pT", s_pT},   {"u_pT", u_pT},       {"cp_pT", cp_pT},   {"T_ps", T_ps},
    {"h_ps", h_ps},   {"x_ps", x_ps},       {"p_rhou", p_rhou}, {"T_rhou", T_rhou},
    {"x_rhou", x_rhou}, {"h_rhou", h_rhou},     {"state_ph", state_ph}, {"state_pT", state_pT},
    {"state_ps", state_ps}, {"state_rhou", state_rhou}, {"Tsat", Tsat}, {"psat", psat},
    {NULL, NULL}};

/* ---- moist air ------------------------------------------------------------
 * tf.moist_air (moist_air.h) and tf.moist_air_nasa (nasa_moist.h) share
 * the methods: the model is the methods' upvalue. */

typedef struct ma_model {
  const char *name; /* "tf.moist_air" */
  int (*pTX)(double p, double T, double X, ma_state *st, char *why, size_t cap);
  int (*phX)(double p, double h, double X, ma_state *st, char *why, size_t cap);
  int (*Tdew)(double p, double X, double *T, char *why, size_t cap);
  int (*X_phi)(double p, double T, double phi, double *X, char *why, size_t cap);
} ma_model;
static const ma_model ma_if97 = {"tf.moist_air", ma_pTX, ma_phX, ma_Tdew, ma_X_phi};
static const ma_model ma_nasa = {"tf.moist_air_nasa", nma_pTX, nma_phX, nma_Tdew, nma_X_phi};

static const ma_model *ma_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }
static int ma_fail(lua_State *L, const char *fn, const char *why) {
  return luaL_error(L, "%s:%s: %s", ma_of(L)->name, fn, why);
}
/* The state of a moist-air method: by "pTX" or "phX" (three arguments). */
static void ma_state_of(lua_State *L, const char *fn, int by_h, ma_state *st) {
  char why[256];
  const ma_model *m = ma_of(L);
  double a = arg(L, 1), b = arg(L, 2), X = arg(L, 3);
  int rc = by_h ? m->phX(a, b, X, st, why, sizeof why) : m->pTX(a, b, X, st, why, sizeof why);
  if (rc) ma_fail(L, fn, why);
}
#define MA_PROP(NAME, BY_H, EXPR)                                                       \
  static int ma_##NAME(lua_State *L) {                                                  \
    ma_state st;                                                                        \
    ma_state_of(L, #NAME, BY_H, &st);                                                   \
    lua_pushnumber(L, (EXPR));                                                          \
    return 1;                                                                           \
  }
MA_PROP(phi, 0, st.phi)
MA_PROP(h_pTX, 0, st.h)
MA_PROP(rho_pTX, 0, st.rho)
MA_PROP(X_liquid, 0, st.Xl)
MA_PROP(T_phX, 1, st.T)
MA_PROP(phi_phX, 1, st.phi)
MA_PROP(X_liquid_phX, 1, st.Xl)
MA_PROP(X_ice, 0, st.Xi)
MA_PROP(X_ice_phX, 1, st.Xi)

static int ma_x_sat(lua_State *L) {
  char why[256];
  ma_state st;
  if (ma_of(L)->pTX(arg(L, 1), arg(L, 2), 0, &st, why, sizeof why))
    return ma_fail(L, "x_sat", why);
  lua_pushnumber(L, st.x_sat);
  return 1;
}
static int ma_T_dew(lua_State *L) {
  char why[256];
  double T;
  if (ma_of(L)->Tdew(arg(L, 1), arg(L, 2), &T, why, sizeof why)) return ma_fail(L, "T_dew", why);
  lua_pushnumber(L, T);
  return 1;
}
static int ma_X_of_phi(lua_State *L) {
  char why[256];
  double X;
  if (ma_of(L)->X_phi(arg(L, 1), arg(L, 2), arg(L, 3), &X, why, sizeof why))
    return ma_fail(L, "X_phi", why);
  lua_pushnumber(L, X);
  return 1;
}
static int ma_push_state(lua_State *L, const ma_state *st) {
  const char *names[] = {"p", "T", "X", "Xv", "Xl", "Xi", "phi", "x", "x_sat", "h", "u", "rho"};
  const double vals[] = {st->p,   st->T, st->X,     st->Xv, st->Xl, st->Xi,
                         st->phi, st->x, st->x_sat, st->h,  st->u,  st->rho};
  return push_fields(L, names, vals, 12, NULL, 0);
}
static int ma_state_pTX(lua_State *L) {
  ma_state st;
  ma_state_of(L, "state_pTX", 0, &st);
  return ma_push_state(L, &st);
}
static int ma_state_phX(lua_State *L) {
  ma_state st;
  ma_state_of(L, "state_phX", 1, &st);
  return ma_push_state(L, &st);
}

static const luaL_Reg moist_air_methods[] = {
    {"phi", ma_phi},           {"h_pTX", ma_h_pTX},         {"rho_pTX", ma_rho_pTX},
    {"X_liquid", ma_X_liquid}, {"T_phX", ma_T_phX},         {"phi_phX", ma_phi_phX},
    {"X_liquid_phX", ma_X_liquid_phX}, {"X_ice", ma_X_ice}, {"X_ice_phX", ma_X_ice_phX},
    {"x_sat", ma_x_sat}, {"T_dew", ma_T_dew},
    {"X_phi", ma_X_of_phi},    {"state_pTX", ma_state_pTX}, {"state_phX", ma_state_phX},
    {NULL, NULL}};

/* The methods of a moist-air model, as field `name` of the table on top. */
static void ma_methods(lua_State *L, const ma_model *m, const char *name) {
  luaL_newlibtable(L, moist_air_methods);
  lua_pushlightuserdata(L, (void *)m);
  luaL_setfuncs(L, moist_air_methods, 1);
  lua_setfield(L, -2, name);
}

/* ---- media of the registry with two phases (refrigerants, plugins) ------- */

typedef struct {
  const tf_medium *m;
  double c[TF_MEDIUM_LEN - 1];
  char name[48]; /* "tf.R134a" */
} self_med;

/* The medium of a method's self (its vector {kind, c1..c5}), ready. */
static void self_of(lua_State *L, const char *fn, self_med *s) {
  luaL_checktype(L, 1, LUA_TTABLE); /* tf.R134a:f(...), not tf.R134a.f(...) */
  lua_rawgeti(L, 1, 1);
  double kind = lua_tonumber(L, -1);
  lua_pop(L, 1);
  s->m = tf_medium_of_kind(kind);
  if (!s->m || !s->m->props_ph) luaL_error(L, "%s: self is not a two-phase medium", fn);
  for (int k = 0; k < TF_MEDIUM_LEN - 1; k++) {
    lua_rawgeti(L, 1, k + 2);
    s->c[k] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  snprintf(s->name, sizeof s->name, "tf.%s", s->m->id);
  char why[256];
  if (s->m->check(s->c, why, sizeof why)) luaL_error(L, "%s:%s: %s", s->name, fn, why);
}

static int tp_fail(lua_State *L, const self_med *s, const char *fn, const char *why) {
  return luaL_error(L, "%s:%s: %s", s->name, fn, why);
}

/* The state at (p, h) with the density's derivatives, or an error naming it. */
static void tp_ph(lua_State *L, const self_med *s, const char *fn, double p, double h,
                  tf_props *o) {
  char why[300];
  if (s->m->props_ph(s->c, p, h, 1, o) == 0) return;
  if (!s->m->check_ph || !s->m->check_ph(s->c, p, h, why, sizeof why))
    snprintf(why, sizeof why, "p = %.9g Pa, h = %.9g J/kg is outside its range", p, h);
  tp_fail(L, s, fn, why);
}
/* h from the second argument of a method "<prop>_<by>": h itself, T, s, or
 * (rho, u) (p then from the inverse). */
static double tp_h(lua_State *L, const self_med *s, const char *fn, const char *by, double *p) {
  char why[300];
  double a = arg(L, 1), b = arg(L, 2), h = NAN;
  *p = a;
  if (!strcmp(by, "ph")) return b;
  if (!strcmp(by, "pT")) {
    h = s->m->h(s->c, a, b);
    if (!isfinite(h)) {
      if (!s->m->check_pT || !s->m->check_pT(s->c, a, b, why, sizeof why))
        snprintf(why, sizeof why, "p = %.9g Pa, T = %.9g K: no single-phase state", a, b);
      tp_fail(L, s, fn, why);
    }
  } else if (!strcmp(by, "ps")) {
    if (s->m->h_ps(s->c, a, b, &h)) {
      snprintf(why, sizeof why, "%s: p = %.9g Pa, s = %.9g J/(kg K) is outside its range",
               s->m->id, a, b);
      tp_fail(L, s, fn, why);
    }
  } else {
    s->m->from_rho_u(s->c, a, b, p, &h);
    if (!isfinite(*p) || !isfinite(h)) {
      if (!s->m->check_rho_u || !s->m->check_rho_u(s->c, a, b, why, sizeof why))
        snprintf(why, sizeof why, "rho = %.9g kg/m3, u = %.9g J/kg is outside its range", a, b);
      tp_fail(L, s, fn, why);
    }
  }
  return h;
}

#define TP_PROP(NAME, BY, EXPR)                                                         \
  static int tp_##NAME##_##BY(lua_State *L) {                                           \
    self_med s;                                                                         \
    tf_props o;                                                                         \
    double p;                                                                           \
    self_of(L, #NAME "_" #BY, &s);                                                      \
    double h = tp_h(L, &s, #NAME "_" #BY, #BY, &p);                                     \
    tp_ph(L, &s, #NAME "_" #BY, p, h, &o);                                              \
    (void)h;                                                                            \
    lua_pushnumber(L, (EXPR));                                                          \
    return 1;                                                                           \
  }
TP_PROP(T, ph, o.T)
TP_PROP(rho, ph, o.rho)
TP_PROP(x, ph, o.x)
TP_PROP(s, ph, o.s)
TP_PROP(u, ph, o.u)
TP_PROP(h, pT, h)
TP_PROP(rho, pT, o.rho)
TP_PROP(s, pT, o.s)
TP_PROP(u, pT, o.u)
TP_PROP(T, ps, o.T)
TP_PROP(h, ps, h)
TP_PROP(x, ps, o.x)
TP_PROP(p, rhou, p)
TP_PROP(T, rhou, o.T)
TP_PROP(x, rhou, o.x)
TP_PROP(h, rhou, h)

static int tp_cp_ph(lua_State *L) {
  self_med s;
  tf_props o;
  double p;
  self_of(L, "cp_ph", &s);
  double h = tp_h(L, &s, "cp_ph", "ph", &p);
  tp_ph(L, &s, "cp_ph", p, h, &o);
  if (o.phase == 2) {
    char why[200];
    snprintf(why, sizeof why,
             "p = %.9g Pa, h = %.9g J/kg is a two-phase state (x = %.6g), where cp is not "
             "defined", p, h, o.x);
    return tp_fail(L, &s, "cp_ph", why);
  }
  lua_pushnumber(L, s.m->cp(s.c, p, h));
  return 1;
}

static int tp_push_state(lua_State *L, double p, double h, const tf_props *o, double cp) {
  const char *names[] = {"p", "h", "T", "rho", "s", "u", "x", "cp", "drho_dp", "drho_dh"};
  const double vals[] = {p, h, o->T, o->rho, o->s, o->u, o->x, cp, o->drho_dp, o->drho_dh};
  return push_fields(L, names, vals, 10, "phase", o->phase);
}
#define TP_STATE(BY)                                                                    \
  static int tp_state_##BY(lua_State *L) {                                              \
    self_med s;                                                                         \
    tf_props o;                                                                         \
    double p;                                                                           \
    self_of(L, "state_" #BY, &s);                                                       \
    double h = tp_h(L, &s, "state_" #BY, #BY, &p);                                      \
    tp_ph(L, &s, "state_" #BY, p, h, &o);                                               \
    return tp_push_state(L, p, h, &o, o.phase == 2 ? 0 : s.m->cp(s.c, p, h));           \
  }
TP_STATE(ph)
TP_STATE(pT)
TP_STATE(ps)
TP_STATE(rhou)

/* The saturation range, for messages: the refrigerants' tables know it. */
static void sat_range(const self_med *s, char *why, size_t cap, const char *what, double v,
                      const char *unit) {
  char e[8];
  const rft_table *t = tf_refrigerant_table(s->m->id, e, sizeof e);
  if (t) {
    double Tlo = 0;
    rft_sat q;
    if (!rft_sat_p(t, t->p_lo, &q)) Tlo = q.T;
    if (!strcmp(unit, "K"))
      snprintf(why, cap, "%s: %s(T = %.9g K) is defined for %.9g K <= T < %.9g K", s->m->id, what,
               v, Tlo, t->Tc);
    else
      snprintf(why, cap, "%s: %s(p = %.9g Pa) is defined for %.9g Pa <= p < %.9g Pa", s->m->id,
               what, v, t->p_lo, t->pc);
  } else {
    snprintf(why, cap, "%s: %s at %.9g %s: outside the saturation line", s->m->id, what, v, unit);
  }
}

static int tp_psat(lua_State *L) {
  self_med s;
  self_of(L, "psat", &s);
  double T = arg(L, 1), p;
  if (!s.m->psat || s.m->psat(s.c, T, &p)) {
    char why[300];
    sat_range(&s, why, sizeof why, "psat", T, "K");
    return tp_fail(L, &s, "psat", why);
  }
  lua_pushnumber(L, p);
  return 1;
}

/* The saturated states at p: field f of tf_sat. */
static int tp_sat(lua_State *L, const char *fn, size_t off) {
  self_med s;
  self_of(L, fn, &s);
  double p = arg(L, 1);
  tf_sat q;
  if (!s.m->sat_p || s.m->sat_p(s.c, p, &q)) {
    char why[300];
    sat_range(&s, why, sizeof why, fn, p, "Pa");
    return tp_fail(L, &s, fn, why);
  }
  lua_pushnumber(L, *(const double *)((const char *)&q + off));
  return 1;
}
#define TP_SAT(NAME, FIELD) \
  static int tp_##NAME(lua_State *L) { return tp_sat(L, #NAME, offsetof(tf_sat, FIELD)); }
TP_SAT(Tsat, T)
TP_SAT(h_liq, hL)
TP_SAT(h_vap, hV)
TP_SAT(rho_liq, rhoL)
TP_SAT(rho_vap, rhoV)
TP_SAT(s_liq, sL)
TP_SAT(s_vap, sV)

/* The equation of state itself (refrigerants): the reference the tables
 * are built from, at (p, h) and (p, T). */
static int tp_eos(lua_State *L, const char *fn, int by_T) {
  self_med s;
  self_of(L, fn, &s);
  char why[300];
  const rft_table *t = tf_refrigerant_table(s.m->id, why, sizeof why);
  if (!t) return tp_fail(L, &s, fn, why);
  double a = arg(L, 1), b = arg(L, 2);
  hz_state st;
  if (by_T ? hz_state_pT(&t->eos, a, b, &st, why, sizeof why)
           : hz_state_ph(&t->eos, a, b, &st, why, sizeof why))
    return tp_fail(L, &s, fn, why);
  const char *names[] = {"p", "T", "rho", "h", "s", "u", "cp", "cv", "w", "x"};
  const double vals[] = {st.p, st.T, st.rho, st.h, st.s, st.u, st.cp, st.cv, st.w, st.x};
  return push_fields(L, names, vals, 10, "phase", st.phase);
}
static int tp_eos_ph(lua_State *L) { return tp_eos(L, "eos_ph", 0); }
/* The table's range and the equation's critical point (refrigerants). */
static int tp_range(lua_State *L) {
  self_med s;
  self_of(L, "range", &s);
  char why[300];
  const rft_table *t = tf_refrigerant_table(s.m->id, why, sizeof why);
  if (!t) return tp_fail(L, &s, "range", why);
  const char *names[] = {"T_lo", "T_hi", "p_lo", "p_hi", "Tc", "pc", "rhoc"};
  const double vals[] = {t->T_lo, t->T_hi, t->p_lo, t->p_hi, t->Tc, t->pc, t->eos.rhoc};
  return push_fields(L, names, vals, 7, NULL, 0);
}
static int tp_eos_pT(lua_State *L) { return tp_eos(L, "eos_pT", 1); }

static const luaL_Reg twophase_methods[] = {
    {"T_ph", tp_T_ph},       {"rho_ph", tp_rho_ph},     {"x_ph", tp_x_ph},
    {"s_ph", tp_s_ph},       {"u_ph", tp_u_ph},         {"cp_ph", tp_cp_ph},
    {"h_pT", tp_h_pT},       {"rho_pT", tp_rho_pT},     {"s_pT", tp_s_pT},
    {"u_pT", tp_u_pT},       {"T_ps", tp_T_ps},         {"h_ps", tp_h_ps},
    {"x_ps", tp_x_ps},       {"p_rhou", tp_p_rhou},     {"T_rhou", tp_T_rhou},
    {"x_rhou", tp_x_rhou},   {"h_rhou", tp_h_rhou},     {"state_ph", tp_state_ph},
    {"state_pT", tp_state_pT}, {"state_ps", tp_state_ps}, {"state_rhou", tp_state_rhou},
    {"psat", tp_psat},       {"Tsat", tp_Tsat},         {"h_liq", tp_h_liq},
    {"h_vap", tp_h_vap},     {"rho_liq", tp_rho_liq},   {"rho_vap", tp_rho_vap},
    {"s_liq", tp_s_liq},     {"s_vap", tp_s_vap},       {"eos_ph", tp_eos_ph},
    {"eos_pT", tp_eos_pT},   {"range", tp_range},       {NULL, NULL}};

/* media.list() -> {{id, kind, name, nc, nX, two_phase}, ...}: the registry. */
static int media_list(lua_State *L) {
  int n = tf_medium_count();
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    const tf_medium *m = tf_medium_at(i);
    lua_createtable(L, 0, 6);
    lua_pushstring(L, m->id);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, tf_medium_kind(m));
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, m->name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, m->nc);
    lua_setfield(L, -2, "nc");
    lua_pushinteger(L, m->nX);
    lua_setfield(L, -2, "nX");
    lua_pushboolean(L, m->props_ph != NULL);
    lua_setfield(L, -2, "two_phase");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* require "lied.thermofluid_media" -> {steam = {...}, moist_air = {...},
 * moist_air_nasa = {...}, gas = {...} (thermofluid_gas.c), twophase = {...},
 * list = function} */
LIED_EXPORT int luaopen_lied_thermofluid_media(lua_State *L);
LIED_EXPORT int luaopen_lied_thermofluid_media(lua_State *L) {
  lua_createtable(L, 0, 6);
  luaL_newlib(L, steam_methods);
  lua_setfield(L, -2, "steam");
  ma_methods(L, &ma_if97, "moist_air");
  ma_methods(L, &ma_nasa, "moist_air_nasa");
  tf_gas_lua_methods(L);
  lua_setfield(L, -2, "gas");
  luaL_newlib(L, twophase_methods);
  lua_setfield(L, -2, "twophase");
  lua_pushcfunction(L, media_list);
  lua_setfield(L, -2, "list");
  return 1;
}
