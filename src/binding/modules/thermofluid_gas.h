/* thermofluid_gas.h - the methods of the ideal gases of NASA polynomials for
 * lied.thermofluid_media (thermofluid_gas.c). */
#ifndef LIED_BINDING_THERMOFLUID_GAS_H
#define LIED_BINDING_THERMOFLUID_GAS_H
#include <lua.h>

/* Push the table of methods (tf.air:h_T(T), ...) with the functions
 * dry_air() and species(). */
void tf_gas_lua_methods(lua_State *L);

#endif
