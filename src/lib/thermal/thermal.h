/* thermal.h - the heat connector: the public header lied/thermal.h (kept
 * so that lied's sources may include it by their library's path). */
#include "lied/thermal.h"
