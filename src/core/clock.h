/* clock.h - internal to lied: a monotonic wall clock. */
#ifndef LIED_CORE_CLOCK_H
#define LIED_CORE_CLOCK_H

/* Seconds of a monotonic wall clock (for timing: set-up phases, runs,
 * calibration, progress; not processor time). */
double lied_wall(void);

#endif
