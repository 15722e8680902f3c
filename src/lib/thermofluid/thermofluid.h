/* thermofluid.h - the thermofluid connector and media: the public header
 * lied/thermofluid.h (kept for lied's sources' includes). */
#include "lied/thermofluid.h"
