/* trig.h - the lane-friendly sine and cosine: the public header
 * lied/mechanics_trig.h (kept for lied's sources' includes). */
#include "lied/mechanics_trig.h"
