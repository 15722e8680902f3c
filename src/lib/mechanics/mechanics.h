/* mechanics.h - the frame connector: the public header lied/mechanics.h
 * (kept so that lied's sources may include it by their library's path). */
#include "lied/mechanics.h"
