/* if97_coef.h - the coefficient tables of IAPWS-IF97 (if97_tables.c), shared
 * by the equations in if97.c. A term is n * X^i * Y^j of the table's sum. */
#ifndef LIED_LIB_THERMOFLUID_IF97_COEF_H
#define LIED_LIB_THERMOFLUID_IF97_COEF_H

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
/* Region 4, the saturation equation (Table 34): n1..n10 at [1..10]. */
extern const double if97_r4[11];

#endif
