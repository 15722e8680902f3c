/* thermofluid_gas.c - methods of the media of kind 5 (an ideal-gas mixture of
 * NASA polynomials, gas_media.h): tf.air:h_T(T), tf.air:T_ps(p, s), ...
 * for any medium vector {5, Y_N2, Y_O2, Y_Ar, Y_CO2, Y_H2O} (docs/media.md,
 * "Ideal gases"). SI units; a state outside 200 K .. 6000 K is a Lua error
 * naming it, never a NaN. */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include "lib/thermofluid/gas_media.h"
#include "thermofluid_gas.h"

/* The gas of the method's self (argument 1, a medium vector of kind 5),
 * with its entropies. */
static void gas_of(lua_State *L, nasa_mix *m) {
  luaL_checktype(L, 1, LUA_TTABLE); /* tf.air:f(...), not tf.air.f(...) */
  lua_rawgeti(L, 1, 1);
  int ok = lua_tonumber(L, -1) == TF_NASA_GAS;
  lua_pop(L, 1);
  if (!ok) luaL_error(L, "ideal gas: the method's object is not a medium of kind 5 (tf.ideal_gas{...})");
  double Y[NASA_NSP];
  for (int i = 0; i < NASA_NSP; i++) {
    lua_rawgeti(L, 1, i + 2);
    Y[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  char why[160];
  if (tf_nasa_gas.check(Y, why, sizeof why)) luaL_error(L, "%s", why);
  nasa_mix_init(m, Y);
}

/* T checked, or an error naming the call and the state. */
static double checked_T(lua_State *L, const char *fn, const char *what, double v, double T) {
  if (!(T == T)) {
    char msg[200], num[32];
    snprintf(num, sizeof num, v == v ? "%.9g" : "nan", v); /* printf's -nan for Lua's 0/0 */
    snprintf(msg, sizeof msg, "ideal gas:%s: %s = %s: %s", fn, what, num,
             !isfinite(v) ? "not a finite number"
                          : "outside 200 K .. 6000 K (the range of the NASA polynomials)");
    luaL_error(L, "%s", msg);
  }
  return T;
}
static double arg_T(lua_State *L, int k, const char *fn) {
  const double T = luaL_checknumber(L, k);
  return checked_T(L, fn, "T", T, nasa_T_ok(T) ? T : NAN);
}
static double arg_p(lua_State *L, int k, const char *fn) {
  const double p = luaL_checknumber(L, k);
  if (!(p > 0 && isfinite(p))) {
    char msg[120];
    snprintf(msg, sizeof msg, "ideal gas:%s: p = %.9g Pa must be > 0 and finite", fn, p);
    luaL_error(L, "%s", msg);
  }
  return p;
}
static int push(lua_State *L, double v) {
  lua_pushnumber(L, v);
  return 1;
}

static int g_R(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  return push(L, m.R);
}
static int g_cp_T(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  return push(L, nasa_cp(&m, arg_T(L, 2, "cp_T")));
}
static int g_h_T(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  return push(L, nasa_h(&m, arg_T(L, 2, "h_T")));
}
static int g_u_T(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  const double T = arg_T(L, 2, "u_T");
  return push(L, nasa_h(&m, T) - m.R * T);
}
static int g_s_pT(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  const double p = arg_p(L, 2, "s_pT");
  return push(L, nasa_s(&m, arg_T(L, 3, "s_pT"), p));
}
static int g_rho_pT(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  const double p = arg_p(L, 2, "rho_pT");
  return push(L, p / (m.R * arg_T(L, 3, "rho_pT")));
}
static int g_T_h(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  const double h = luaL_checknumber(L, 2);
  return push(L, checked_T(L, "T_h", "h", h, nasa_T_h(&m, h)));
}
static int g_T_u(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  const double u = luaL_checknumber(L, 2);
  return push(L, checked_T(L, "T_u", "u", u, nasa_T_u(&m, u)));
}
/* T at (p, s): s0(T) = s + R ln(p / p0). */
static double T_ps(lua_State *L, const nasa_mix *m, const char *fn) {
  const double p = arg_p(L, 2, fn), s = luaL_checknumber(L, 3);
  return checked_T(L, fn, "s", s, nasa_T_s0(m, s + m->R * log(p / NASA_P0)));
}
static int g_T_ps(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  return push(L, T_ps(L, &m, "T_ps"));
}
static int g_h_ps(lua_State *L) {
  nasa_mix m;
  gas_of(L, &m);
  return push(L, nasa_h(&m, T_ps(L, &m, "h_ps")));
}

/* gas.dry_air(): the mass fractions of standard dry air {N2, O2, Ar, CO2, H2O}. */
static int g_dry_air(lua_State *L) {
  lua_createtable(L, NASA_NSP, 0);
  for (int i = 0; i < NASA_NSP; i++) {
    lua_pushnumber(L, nasa_dry_air_Y[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}
/* gas.species(): {{name = "N2", M = 0.0280134}, ...} in the order of the constants. */
static int g_species(lua_State *L) {
  lua_createtable(L, NASA_NSP, 0);
  for (int i = 0; i < NASA_NSP; i++) {
    lua_createtable(L, 0, 2);
    lua_pushstring(L, nasa_species_data[i].name);
    lua_setfield(L, -2, "name");
    lua_pushnumber(L, nasa_species_data[i].MM);
    lua_setfield(L, -2, "M");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static const luaL_Reg gas_methods[] = {
    {"R", g_R},         {"cp_T", g_cp_T},     {"h_T", g_h_T},   {"u_T", g_u_T},
    {"s_pT", g_s_pT},   {"rho_pT", g_rho_pT}, {"T_h", g_T_h},   {"T_u", g_T_u},
    {"T_ps", g_T_ps},   {"h_ps", g_h_ps},     {"dry_air", g_dry_air}, {"species", g_species},
    {NULL, NULL}};

void tf_gas_lua_methods(lua_State *L) { luaL_newlib(L, gas_methods); }
