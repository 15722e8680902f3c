/* signals.h - the signal library's declarations: the public header
 * lied/signals.h (kept for lied's sources' includes). */
#include "lied/signals.h"
