/* if97_coef.h - the coefficient tables of IAPWS-IF97 (if97_tables.c), shared
 * by the equations in if97.c. A term is n * X^i * Y^j of the table's sum. */
#ifndef LIED_LIB_THERMOFLUID_IF97_COEF_H
#define LIED_LIB_THERMOFLUID_IF97_COEF_H
#include <math.h>

typedef struct if97_term {
  int i, j;
  double n;
} if97_term;

extern const if97_term if97_r1[34];
extern const if97_term if97_r1_tph[20];
extern const if97_term if97_r1_tps[20];
extern const if97_term if97_r2r[43];
extern const if97_term if97_r2a_tph[34];
extern const if97_term if97_r2b_tph[38];
extern const if97_term if97_r2c_tph[23];
extern const if97_term if97_r2a_tps[46];
extern const if97_term if97_r2b_tps[44];
extern const if97_term if97_r2c_tps[30];
extern const if97_term if97_r5r[6];
extern const if97_term if97_r2o[9];
extern const if97_term if97_r5o[6];
extern const if97_term if97_r3[39];
extern const if97_term if97_r3a_tph[31];
extern const if97_term if97_r3b_tph[33];
extern const if97_term if97_r3a_vph[32];
extern const if97_term if97_r3b_vph[30];
/* Region 4, the saturation equation (Table 34): n1..n10 at [1..10]. */
extern const double if97_r4[11];

/* psat(T) by the saturation equation (release Eq. 30), inline for loops
 * over many states; if97_psat_eq is this. */
static inline double if97_psat_of(double T) {
  const double *n = if97_r4;
  double th = T + n[9] / (T - n[10]);
  double A = th * th + n[1] * th + n[2];
  double B = n[3] * th * th + n[4] * th + n[5];
  double C = n[6] * th * th + n[7] * th + n[8];
  double r = 2.0 * C / (-B + sqrt(B * B - 4.0 * A * C));
  r *= r;
  return r * r * 1e6;
}

#endif
