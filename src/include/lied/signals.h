/* lied/signals.h - the signal library (require "lied.signals"): sources, math,
 * continuous blocks and controllers on the real-signal connector of the
 * public API (lied_real_in / lied_real_out, see lied/component.h and
 * docs/signals.md). Shared declarations of src/lib/signals/; public API
 * (installed as <lied/signals.h>: a plugin can reuse the sources' macros),
 * "lib/signals/signals.h" in lied's tree includes it. */
#ifndef LIED_LIB_SIGNALS_H
#define LIED_LIB_SIGNALS_H
#include <math.h>
#include <stddef.h>
#include "lied/component.h"

#define SIG_NOMIN (-HUGE_VAL)
#define SIG_NOMAX (HUGE_VAL)
#define SIG_PI 3.14159265358979323846
#define SIG_MAXN 8          /* most inputs of Add, Product, Min, Max */

/* A source's meta: the output port y and the block "value" that writes it
 * from `in` (the time, or parameters). */
static inline void sig_meta_source(lied_meta *m, lied_real_out *y, lied_block_fn fn,
                                   const void *const *in) {
  lied_meta_real_out(m, "y", 0, y);
  lied_meta_block(m, "value", fn, 0, in, LIED_SIGS(&y->y));
}

/* ---- sources under another library's name ------------------------------
 * A library that keeps an old name of a source as a class of its own domain
 * (thermofluid: tf.Constant, tf.Step, tf.Ramp, tf.Sine) defines it with
 * these macros: the same instance, parameters, init and blocks as the
 * signals class, another domain:
 *   const lied_class tf_step_class = SIG_STEP_CLASS("thermofluid");       */
typedef struct sig_constant {
  lied_real_out y;
  double k;
} sig_constant;
typedef struct sig_ramp {
  lied_real_out y;
  double offset, height, t0, duration;
} sig_ramp;
/* Step is a Ramp of duration 0 (the field stays 0: no parameter sets it). */
typedef struct sig_sine {
  lied_real_out y;
  double amplitude, w, phase, offset;
  double f; /* Hz; NaN: not set */
} sig_sine;

extern const lied_param sig_constant_params[1], sig_step_params[3], sig_ramp_params[4],
    sig_sine_params[5];
void sig_constant_meta(lied_meta *m, void *self);
void sig_ramp_meta(lied_meta *m, void *self);
int sig_ramp_init(void *self, lied_init *ctx);
void sig_sine_meta(lied_meta *m, void *self);
int sig_sine_init(void *self, lied_init *ctx);

#define SIG_CONSTANT_CLASS(DOMAIN)                                                       \
  {"Constant", DOMAIN, "constant signal y = k", sizeof(sig_constant), sig_constant_params, 1, \
   NULL, sig_constant_meta}
#define SIG_STEP_CLASS(DOMAIN)                                                           \
  {"Step", DOMAIN, "y = offset, plus height from t >= t0", sizeof(sig_ramp), sig_step_params, \
   3, sig_ramp_init, sig_ramp_meta}
#define SIG_RAMP_CLASS(DOMAIN)                                                           \
  {"Ramp", DOMAIN, "y rises linearly from offset to offset + height over [t0, t0 + duration]", \
   sizeof(sig_ramp), sig_ramp_params, 4, sig_ramp_init, sig_ramp_meta}
#define SIG_SINE_CLASS(DOMAIN)                                                           \
  {"Sine", DOMAIN, "y = offset + amplitude sin(w t + phase), w = 2 pi f", sizeof(sig_sine), \
   sig_sine_params, 5, sig_sine_init, sig_sine_meta}

extern const lied_class sig_constant_class, sig_step_class, sig_ramp_class, sig_sine_class,
    sig_pulse_class, sig_timetable_class, sig_table1d_class, sig_table2d_class, sig_gain_class, sig_add_class, sig_product_class,
    sig_division_class, sig_min_class, sig_max_class, sig_limiter_class,
    sig_first_order_class, sig_integrator_class, sig_pi_class, sig_pid_class,
    sig_hysteresis_class, sig_sample_hold_class, sig_unit_delay_class, sig_discrete_pi_class,
    sig_bconst_class, sig_greater_class, sig_less_class, sig_greater_thr_class, sig_less_thr_class,
    sig_and_class, sig_or_class, sig_xor_class, sig_not_class, sig_switch_class, sig_lswitch_class,
    sig_b2r_class, sig_on_delay_class, sig_off_delay_class, sig_rising_class, sig_falling_class,
    sig_bhold_class, sig_sm_class;

#endif
