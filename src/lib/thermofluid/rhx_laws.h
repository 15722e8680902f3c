/* rhx_laws.h - the laws the two-phase exchangers share (the directed ones of
 * rhx.c and the undirected ones of src/lib/undirected/rhx.c): a refrigerant
 * cell's enthalpy, the refrigerant-side coefficient blended at the dome's
 * edges, a secondary stream's conductance along a wall, the refrigerant
 * side's start and the parameters both have. */
#ifndef LIED_LIB_RHX_LAWS_H
#define LIED_LIB_RHX_LAWS_H
#include <math.h>
#include "lib/thermofluid/thermofluid.h"

/* A cell's enthalpy from its mass and energy. */
static inline double rhx_h(double U, double M, double p, double Vc) { return (U + p * Vc) / M; }

/* C1 step from 0 (t <= 0) to 1 (t >= 1). */
static inline double rhx_step(double t) {
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return t * t * (3 - 2 * t);
}
/* The refrigerant-side coefficient at quality x (unclipped): al below the
 * dome, a2 inside, av above, blended over x in [-dx, dx] and [1-dx, 1+dx]. */
static inline double rhx_alpha(double x, double dx, double al, double a2, double av) {
  if (x < 0.5) return al + (a2 - al) * rhx_step((x + dx) / (2 * dx));
  return a2 + (av - a2) * rhx_step((x - 1 + dx) / (2 * dx));
}
/* The conductance C (1 - exp(-G/C)) of a stream of capacity rate C along a
 * wall of conductance G (0 without flow). */
static inline double rhx_eff(double C, double G) {
  return C > 0 && G > 0 ? -C * expm1(-G / C) : 0.0;
}


/* The refrigerant side's start (rhx.c): media, checks, the cells' M and U at
 * (p0_a, T0_a or x0_a), the wall at *T0_w (NaN: the refrigerant's T). */
typedef struct tf_rhx_start_in {
  double V_a, p0_a, T0_a, x0_a;
  int N;
} tf_rhx_start_in;
int tf_rhx_start(lied_init *ctx, tf_med *med_a, tf_med *med_b, const tf_rhx_start_in *s,
                 double *T0_w, double *M, double *U, double *T_w);
/* Declare the cells' states M, U (T_w with a wall), their h, T, x, q, and
 * the sums Q_flow, Q_b, T_b, M, U, E_w (rhx.c). */
void tf_rhx_meta_cells(lied_meta *m, int N, int wall, double *const var[7], double *const der[3],
                       double *const sums[6]);

/* The cells' compressibility at the dome's liquid edge (docs/events.md,
 * "The liquid edge of the two-phase exchangers is no kink"; the directed
 * exchangers' dx_edge): drho/dp and drho/dh jump there (R134a at
 * 1 MPa: drho/dp 1,100-fold), so der(p) jumps and a cooled cell can slide
 * along the edge. With dxe > 0 a cell of quality x in (0, dxe) takes them
 * blended by the smoothstep of x/dxe from the saturated liquid's (at h' less
 * 1e-7 (h'' - h')) to its own: der(p) continuous across the edge. The
 * saturated liquid's properties depend on p alone: `liq` holds them for
 * every cell of one evaluation (have: 0 not yet looked up, 1 held, -1 not
 * available). */
typedef struct rhx_liquid {
  int have;
  tf_props l;
} rhx_liquid;
static inline void rhx_edge(const tf_medium *f, const double *c, double p, const tf_sat *st,
                            rhx_liquid *liq, double x, double dxe, double *drp, double *drh) {
  if (!(dxe > 0 && x > 0 && x < dxe)) return;
  if (!liq->have) {
    const int bad = f->props_ph(c, p, st->hL - 1e-7 * (st->hV - st->hL), 1, &liq->l);
    liq->have = bad || !isfinite(liq->l.drho_dp + liq->l.drho_dh) ? -1 : 1;
  }
  if (liq->have < 0) return;
  const tf_props *l = &liq->l;
  const double u = x / dxe, s = u * u * (3 - 2 * u);
  *drp = l->drho_dp + s * (*drp - l->drho_dp);
  *drh = l->drho_dh + s * (*drh - l->drho_dh);
}

/* Parameters both exchangers have (TYPE their struct, MAXN their most cells): the
 * cells' geometry and heat transfer, the start state and relaxation, the media. */
#define RHX_PARAMS_CELLS(TYPE, MAXN)                                                            \
    {"N", offsetof(TYPE, N), 10, "1", "number of refrigerant cells (1..50)", 1, MAXN,           \
     LIED_PARAM_INT, 0},                                                                        \
    {"V_a", offsetof(TYPE, V_a), 1e-3, "m3", "refrigerant volume, split evenly over the cells", \
     0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                      \
    {"A_a", offsetof(TYPE, A_a), 1, "m2", "refrigerant-side heat transfer area", 0, TF_NOMAX,   \
     0, 0},                                                                                     \
    {"alpha_liq", offsetof(TYPE, alpha_liq), 1500, "W/(m2.K)",                                  \
     "refrigerant-side heat transfer coefficient of liquid", 0, TF_NOMAX, 0, 0},                \
    {"alpha_2ph", offsetof(TYPE, alpha_2ph), 3000, "W/(m2.K)",                                  \
     "refrigerant-side heat transfer coefficient of the two-phase mixture", 0, TF_NOMAX, 0, 0}, \
    {"alpha_vap", offsetof(TYPE, alpha_vap), 800, "W/(m2.K)",                                   \
     "refrigerant-side heat transfer coefficient of vapour (and above the critical pressure)", 0,\
     TF_NOMAX, 0, 0},                                                                           \
    {"dx", offsetof(TYPE, dx), 0.05, "1",                                                       \
     "half width in quality of the coefficients' smooth blends at the dome's edges", 0, 0.5,    \
     LIED_PARAM_MIN_OPEN, 0},                                                                   \
    {"UA_b", offsetof(TYPE, UA_b), 1000, "W/K",                                                 \
     "conductance between stream b and the wall, split evenly over the cells", 0, TF_NOMAX, 0, 0}
#define RHX_PARAMS_START(TYPE)                                                                  \
    {"T0_w", offsetof(TYPE, T0_w), NAN, "K",                                                    \
     "start temperature of the wall (default the refrigerant's start temperature)", 0, TF_NOMAX,\
     LIED_PARAM_MIN_OPEN, 0},                                                                   \
    {"p0_a", offsetof(TYPE, p0_a), 5e5, "Pa", "start pressure of the refrigerant", 0,           \
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},                                                         \
    {"T0_a", offsetof(TYPE, T0_a), 293.15, "K",                                                 \
     "start temperature of the refrigerant (unless x0_a >= 0)", 0, TF_NOMAX,                    \
     LIED_PARAM_MIN_OPEN, 0},                                                                   \
    {"x0_a", offsetof(TYPE, x0_a), -1, "1",                                                     \
     "start quality of the refrigerant on the saturation line at p0_a (-1: start at T0_a)", -1, \
     1, 0, 0},                                                                                  \
    {"tau_p", offsetof(TYPE, tau_p), 0.1, "s",                                                  \
     "time in which a cell's tabulated density is relaxed to its mass (integration drift)", 0,  \
     TF_NOMAX, LIED_PARAM_MIN_OPEN, 0}                                                          
#define RHX_PARAMS_MEDIA(TYPE)                                                                  \
    {"medium_a", offsetof(TYPE, med_a.par), 0, "1", "refrigerant (default tf.R134a)",           \
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN},                                                     \
    {"medium_b", offsetof(TYPE, med_b.par), 0, "1", "medium of stream b (default tf.water)",    \
     TF_NOMIN, TF_NOMAX, 0, TF_MEDIUM_LEN}                                                      

#endif
