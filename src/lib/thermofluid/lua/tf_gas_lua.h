/* tf_gas_lua.h - the methods of the ideal gases of NASA polynomials for
 * lied.thermofluid_media (tf_gas_lua.c). */
#ifndef LIED_TF_GAS_LUA_H
#define LIED_TF_GAS_LUA_H
#include <lua.h>

/* Push the table of methods (tf.air:h_T(T), ...) with the functions
 * dry_air() and species(). */
void tf_gas_lua_methods(lua_State *L);

#endif
