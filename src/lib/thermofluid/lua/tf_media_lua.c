/* tf_media_lua.c - the Lua module lied.thermofluid_media: property functions
 * of the thermofluid media for inspection and tests. lied.thermofluid makes
 * them the methods of tf.steam and tf.moist_air (docs/media.md):
 *
 *   tf.steam:T_ph(p, h)   tf.steam:h_pT(p, T)   tf.steam:Tsat(p)
 *   tf.moist_air:phi(p, T, X)   tf.moist_air:T_dew(p, X)
 *   tf.air:h_T(T)   tf.air:T_ps(p, s)   (tf_gas_lua.c)
 *
 * SI units (Pa, K, J/kg). A state outside IF97's range is a Lua error whose
 * message names the state; an argument that is not a number is refused. */
#include <lauxlib.h>
#include <string.h>
#include "lied/luaopen.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"
#include "lib/thermofluid/nasa_moist.h"
#include "tf_gas_lua.h"

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

/* The whole state as a table {p, T, rho, h, u, s, cp, x, region}. */
static int push_state(lua_State *L, const if97_state *st) {
  lua_createtable(L, 0, 9);
  const char *names[] = {"p", "T", "rho", "h", "u", "s", "cp", "x"};
  const double vals[] = {st->p, st->T, st->rho, st->h, st->u, st->s, st->cp, st->x};
  for (int i = 0; i < 8; i++) {
    lua_pushnumber(L, vals[i]);
    lua_setfield(L, -2, names[i]);
  }
  lua_pushinteger(L, st->region);
  lua_setfield(L, -2, "region");
  return 1;
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
  lua_createtable(L, 0, 12);
  const char *names[] = {"p", "T", "X", "Xv", "Xl", "Xi", "phi", "x", "x_sat", "h", "u", "rho"};
  const double vals[] = {st->p, st->T,     st->X, st->Xv, st->Xl, st->Xi,
                         st->phi, st->x, st->x_sat, st->h, st->u,  st->rho};
  for (int i = 0; i < 12; i++) {
    lua_pushnumber(L, vals[i]);
    lua_setfield(L, -2, names[i]);
  }
  return 1;
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

/* require "lied.thermofluid_media" -> {steam = {...}, moist_air = {...},
 * moist_air_nasa = {...}, gas = {...} (tf_gas_lua.c)} */
LIED_EXPORT int luaopen_lied_thermofluid_media(lua_State *L);
LIED_EXPORT int luaopen_lied_thermofluid_media(lua_State *L) {
  lua_createtable(L, 0, 4);
  luaL_newlib(L, steam_methods);
  lua_setfield(L, -2, "steam");
  ma_methods(L, &ma_if97, "moist_air");
  ma_methods(L, &ma_nasa, "moist_air_nasa");
  tf_gas_lua_methods(L);
  lua_setfield(L, -2, "gas");
  return 1;
}
