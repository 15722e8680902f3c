/* volume.c - Volume and VolumeN: a rigid volume V of compressible medium
 * (liquid with beta > 0, gas, water and steam also two-phase, moist air)
 * with mass and energy balance and a heat flow Q into the content, after
 * TFS's Undirected.Boundaries.Volume / VolumeN. Its rear ports end segments,
 * its fore ports start them (each owns its segment's mass-flow state):
 *   rear i:  rear.r = w(m_i) (p - rear.p) + L_rear*der_m_flow
 *   fore k:  res_k  = fore.r + L_fore*dm_flow_k - (1 - w(m_k)) (p - fore.p_back)
 *   der(M)  = sum_i m_i - sum_k m_k
 *   der(U)  = sum_i m_i h_up,i - sum_k m_k h_up,k + Q
 * h_up is the upwind enthalpy by the sign of the flow: the arriving state's
 * (rear.h for m_i >= 0, fore.h_back for m_k < 0) or the content's; a
 * mixture's component masses MX likewise. The content's (p, h) come from
 * (M/V, U/M); every port sends them out (fore: forwards with the port's
 * flow, rear: rearwards). Volume has one rear and one fore port (use_rear,
 * use_fore: 0 leaves one out), VolumeN n_rear and n_fore of them (rear[k],
 * fore[k]). With L_rear = 0 (the default) the rear ports' inertial pressure
 * is explicit, so a segment's linear section holds only the components
 * from its owner to the element before its end. */
#include <stdio.h>
#include "lib/undirected/undirected.h"

#define VOL_COMMON                                                                            \
  lied_real_in Q_in;                                                                          \
  tf_med med;                                                                                 \
  double V, p0, T0, x0, L_rear, L_fore, Q, m_reg;                                             \
  int Q_from_input, nr, nf, use_rear, use_fore, kinks;                                        \
  double M, der_M;                 /* state: mass [kg] */                                     \
  double U, der_U;                 /* state: internal energy [J] */                           \
  double MX[TF_NX], der_MX[TF_NX]; /* states of mixtures: component masses [kg] */            \
  tf_X Xc;                         /* the content's composition */                            \
  double p, h, rho, T, Q_used

typedef struct tfu_volume {
  tfu_rear rear[1];
  tfu_fore fore[1];
  VOL_COMMON;
  double m_flow[1], der_m_flow[1]; /* state: the fore port's flow */
  double dm_flow[1], res[1];       /* tearing pair */
  double r0[1];                    /* the fore port's explicit part of the residual */
  double z[2 + TF_PHASE_MAX];      /* kink functions: the flows, the phase boundaries */
} tfu_volume;

#define VOLN_MAX TF_MAXN
typedef struct tfu_volume_n {
  tfu_rear rear[VOLN_MAX];
  tfu_fore fore[VOLN_MAX];
  VOL_COMMON;
  double m_flow[VOLN_MAX], der_m_flow[VOLN_MAX];
  double dm_flow[VOLN_MAX], res[VOLN_MAX];
  double r0[VOLN_MAX];
  double z[2 * VOLN_MAX + TF_PHASE_MAX];
} tfu_volume_n;

/* ---- the equations (one copy; both classes) -------------------------------------- */

/* Content state from (M, U, MX); the ports send it out. */
#define VOL_THERMO(v)                                                                        \
  do {                                                                                       \
    (v)->rho = (v)->M / (v)->V;                                                              \
    for (int c_ = 0; c_ < tf_nX(&(v)->med); c_++) (v)->Xc.X[c_] = (v)->MX[c_] / (v)->M;      \
    tf_med mx_;                                                                              \
    const tf_med *md_ = tf_med_at(&(v)->med, &(v)->Xc, &mx_);                                \
    md_->fn->from_rho_u(md_->par + 1, (v)->rho, (v)->U / (v)->M, &(v)->p, &(v)->h);          \
    if (!isfinite((v)->p) || !isfinite((v)->h))                                              \
      tf_fault_rho_u(env, (v), md_, (v)->rho, (v)->U / (v)->M, "content (M/V, U/M)");        \
    for (int k_ = 0; k_ < (v)->nf; k_++) {                                                   \
      (v)->fore[k_].flow.m_flow = (v)->m_flow[k_];                                           \
      (v)->fore[k_].state = (tfu_state){(v)->p, (v)->h, (v)->Xc};                            \
    }                                                                                        \
    for (int i_ = 0; i_ < (v)->nr; i_++) (v)->rear[i_].back = (tfu_state){(v)->p, (v)->h, (v)->Xc}; \
  } while (0)

/* rear.r = w(m) (p - p_forward) + L_rear * der (the last term with L_rear > 0). */
static inline double vol_r_rear_eq(double m, double m_reg, double p, double p_in, double L,
                                   double der) {
  return tfu_w(m, m_reg) * (p - p_in) + L * der;
}
/* res = fore.r + L_fore * dm - r0, r0 = (1 - w(m)) (p - p_back): the
 * explicit part apart, so the section reads no state. */
static inline double vol_r0_eq(double m, double m_reg, double p, double p_back) {
  return (1.0 - tfu_w(m, m_reg)) * (p - p_back);
}
static inline double vol_res_eq(double r, double L, double dm, double r0) { return r + L * dm - r0; }
/* The upwind enthalpy flows of one port: m * (m >= 0 ? a : b). */
static inline double vol_upwind(double m, double a, double b) { return m * (m >= 0 ? a : b); }

/* The number of phase boundaries of the content's medium (tf_meta_phase_kinks
 * declares them), and of kink functions in all: the boundaries and the port
 * flows, rear ports first, at most LIED_MAX_ZEROS (a VolumeN of 8 rear and 8
 * fore ports of a two-phase medium leaves the last two fore ports' out). */
static inline int vol_nphase(const tf_med *med) {
  const tf_medium *fn = med->fn;
  return fn->phase_z ? fn->nphase : fn->sat_p ? 2 : 0;
}
static inline int vol_nkinks(int np, int nr, int nf) {
  return np + nr + nf < LIED_MAX_ZEROS ? np + nr + nf : LIED_MAX_ZEROS;
}

#define VOL_BLOCKS(PFX, TYPE)                                                                 \
  static void PFX##_thermo(const lied_env *env, TYPE *v) { VOL_THERMO(v); }                   \
  static void PFX##_r_rear(const lied_env *env, TYPE *v) {                                    \
    (void)env;                                                                                \
    for (int i = 0; i < v->nr; i++)                                                           \
      v->rear[i].r.r = vol_r_rear_eq(v->rear[i].flow->m_flow, v->m_reg, v->p,                \
                                     v->rear[i].state->p, v->L_rear,                          \
                                     v->L_rear > 0 ? v->rear[i].der->der_m_flow : 0.0);      \
  }                                                                                           \
  static void PFX##_der(const lied_env *env, TYPE *v) {                                       \
    (void)env;                                                                                \
    for (int k = 0; k < v->nf; k++) {                                                         \
      v->fore[k].der.der_m_flow = v->dm_flow[k];                                              \
      v->der_m_flow[k] = v->dm_flow[k];                                                       \
    }                                                                                         \
  }                                                                                           \
  static void PFX##_r0(const lied_env *env, TYPE *v) {                                        \
    (void)env;                                                                                \
    for (int k = 0; k < v->nf; k++)                                                           \
      v->r0[k] = vol_r0_eq(v->m_flow[k], v->m_reg, v->p, v->fore[k].back->p);                 \
  }                                                                                           \
  static void PFX##_res(const lied_env *env, TYPE *v) {                                       \
    (void)env;                                                                                \
    for (int k = 0; k < v->nf; k++)                                                           \
      v->res[k] = vol_res_eq(v->fore[k].r->r, v->L_fore, v->dm_flow[k], v->r0[k]);           \
  }                                                                                           \
  static void PFX##_balance(const lied_env *env, TYPE *v) {                                   \
    (void)env;                                                                                \
    const int nX = tf_nX(&v->med);                                                            \
    double dM = 0, dU = 0, dMX[TF_NX] = {0};                                                  \
    for (int i = 0; i < v->nr; i++) {                                                         \
      const tfu_state *in = v->rear[i].state;                                                 \
      const double m = v->rear[i].flow->m_flow;                                               \
      dM += m;                                                                                \
      dU += vol_upwind(m, in->h, v->h);                                                       \
      for (int c = 0; c < nX; c++) dMX[c] += vol_upwind(m, in->X.X[c], v->Xc.X[c]);          \
    }                                                                                         \
    for (int k = 0; k < v->nf; k++) {                                                         \
      const double m = v->m_flow[k];                                                          \
      dM -= m;                                                                                \
      dU -= vol_upwind(m, v->h, v->fore[k].back->h);                                          \
      for (int c = 0; c < nX; c++) dMX[c] -= vol_upwind(m, v->Xc.X[c], v->fore[k].back->X.X[c]); \
    }                                                                                         \
    v->Q_used = v->Q_from_input ? v->Q_in.y->y : v->Q;                                        \
    v->der_M = dM;                                                                            \
    v->der_U = dU + v->Q_used;                                                                \
    for (int c = 0; c < nX; c++) v->der_MX[c] = dMX[c];                                       \
  }                                                                                           \
  static void PFX##_out(const lied_env *env, TYPE *v) {                                       \
    tf_med mx;                                                                                \
    const tf_med *med = tf_med_at(&v->med, &v->Xc, &mx);                                      \
    v->T = tf_T(med, v->p, v->h);                                                             \
    TF_GUARD_PH(env, v, med, v->T, v->p, v->h, "content");                                    \
  }                                                                                           \
  /* the kinks (docs/events.md): the phase boundaries of the content (p(rho, u)  \
   * kinks there), then each port's flow (its upwind enthalpy switches with its  \
   * sign), as many as LIED_MAX_ZEROS leaves room for (vol_nkinks) */          \
  static void PFX##_kinks(const lied_env *env, TYPE *v) {                                     \
    (void)env;                                                                                \
    tf_med mx;                                                                                \
    const int np = vol_nphase(&v->med), nz = vol_nkinks(np, v->nr, v->nf);                   \
    double zp[TF_PHASE_MAX];                                                                  \
    if (np) tf_phase_z(tf_med_at(&v->med, &v->Xc, &mx), v->p, v->h, zp);                      \
    for (int k = 0; k < np; k++) v->z[k] = zp[k];                                             \
    for (int j = np; j < nz; j++) {                                                           \
      const int i = j - np;                                                                   \
      v->z[j] = i < v->nr ? v->rear[i].flow->m_flow : v->m_flow[i - v->nr];                   \
    }                                                                                         \
  }                                                                                           \
  LIED_BLOCK(PFX##_kinks_b, TYPE, PFX##_kinks)                                                \
  LIED_BLOCK(PFX##_thermo_b, TYPE, PFX##_thermo)                                              \
  LIED_BLOCK(PFX##_r_rear_b, TYPE, PFX##_r_rear)                                              \
  LIED_BLOCK(PFX##_der_b, TYPE, PFX##_der)                                                    \
  LIED_BLOCK(PFX##_r0_b, TYPE, PFX##_r0)                                                      \
  LIED_BLOCK(PFX##_res_b, TYPE, PFX##_res)                                                    \
  LIED_BLOCK(PFX##_balance_b, TYPE, PFX##_balance)                                            \
  LIED_BLOCK(PFX##_out_b, TYPE, PFX##_out)

VOL_BLOCKS(volume, tfu_volume)
VOL_BLOCKS(volume_n, tfu_volume_n)

/* ---- lane forms of Volume (one rear, one fore; lied/component.h, "Lane forms") ----------
 * The same operations as the blocks above for n_rear, n_fore <= 1, copy by
 * copy. Whether the ports, a mixture or a heat input exist is the same in
 * every copy of a group (they change what meta declares), so lane 0 says. */
#define VL(F) LIED_LANE(tfu_volume, g, F)
#define VL_IN(F) LIED_LANE_IN(tfu_volume, g, F)
#define VL_INT(F) TF_LANE_INT(tfu_volume, g, F, 0)

static void volume_thermo_lanes(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)stride;
  const double *M = VL(M), *U = VL(U), *V = VL(V), *MX = VL(MX[0]), *mf = VL(m_flow[0]);
  const double *par = VL(med.par);
  double *rho = VL(rho), *p = VL(p), *h = VL(h), *Xc = VL(Xc.X[0]);
  const int nX = (*TF_LANE_FNS(tfu_volume, g, med))->nX;
  for (size_t l = 0; l < n; l++) rho[l] = M[l] / V[l];
  if (nX)
    for (size_t l = 0; l < n; l++) Xc[l] = MX[l] / M[l];
  if (tfu_lanes_liquid(par, n)) { /* liq_from_rho_u written out */
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) {
      const double u = U[l] / M[l];
      p[l] = par[4 * LIED_LANES + l] + (rho[l] / par[LIED_LANES + l] - 1.0) / par[3 * LIED_LANES + l];
      h[l] = u + p[l] / rho[l];
    }
  } else {
    for (size_t l = 0; l < n; l++) {
      tf_med med;
      TF_LANE_MED_AT(tfu_volume, g, med, l, Xc, &med);
      med.fn->from_rho_u(med.par + 1, rho[l], U[l] / M[l], &p[l], &h[l]);
    }
  }
  for (size_t l = 0; l < n; l++) {
    if (!isfinite(p[l]) || !isfinite(h[l])) {
      tf_med med;
      TF_LANE_MED_AT(tfu_volume, g, med, l, Xc, &med);
      tf_fault_rho_u(env, TF_LANE_WORD(tfu_volume, g, M, l), &med, rho[l], U[l] / M[l],
                     "content (M/V, U/M)");
    }
  }
  if (VL_INT(nf)) {
    double *of = VL(fore[0].flow.m_flow), *os = VL(fore[0].state.p);
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++)
      of[l] = mf[l], TF_V(os, 0, l) = p[l], TF_V(os, 1, l) = h[l], TF_V(os, 2, l) = Xc[l];
  }
  if (VL_INT(nr)) {
    double *ob = VL(rear[0].back.p);
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) TF_V(ob, 0, l) = p[l], TF_V(ob, 1, l) = h[l], TF_V(ob, 2, l) = Xc[l];
  }
}
LIED_LANE_BODY void volume_r_rear_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict m = VL_IN(rear[0].flow), *restrict in = VL_IN(rear[0].state);
  const double *restrict mreg = VL(m_reg), *restrict p = VL(p), *restrict L = VL(L_rear);
  double *restrict r = VL(rear[0].r.r);
  if (L[0] > 0) { /* the same in every copy: it decides whether the block reads der */
    const double *restrict d = VL_IN(rear[0].der);
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) r[l] = vol_r_rear_eq(m[l], mreg[l], p[l], TF_V(in, 0, l), L[l], d[l]);
  } else {
    LIED_LANE_LOOP
    for (size_t l = 0; l < n; l++) r[l] = vol_r_rear_eq(m[l], mreg[l], p[l], TF_V(in, 0, l), L[l], 0.0);
  }
}
LIED_LANE_FORM(volume_r_rear_lanes)
LIED_LANE_BODY void volume_der_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict dm = VL(dm_flow[0]);
  double *restrict o = VL(fore[0].der.der_m_flow), *restrict d = VL(der_m_flow[0]);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) o[l] = dm[l], d[l] = dm[l];
}
LIED_LANE_FORM(volume_der_lanes)
LIED_LANE_BODY void volume_r0_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict b = VL_IN(fore[0].back), *restrict m = VL(m_flow[0]);
  const double *restrict mreg = VL(m_reg), *restrict p = VL(p);
  double *restrict r0 = VL(r0[0]);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) r0[l] = vol_r0_eq(m[l], mreg[l], p[l], TF_V(b, 0, l));
}
LIED_LANE_FORM(volume_r0_lanes)
LIED_LANE_BODY void volume_res_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const double *restrict r = VL_IN(fore[0].r), *restrict r0 = VL(r0[0]);
  const double *restrict L = VL(L_fore), *restrict dm = VL(dm_flow[0]);
  double *restrict res = VL(res[0]);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) res[l] = vol_res_eq(r[l], L[l], dm[l], r0[l]);
}
LIED_LANE_FORM(volume_res_lanes)
LIED_LANE_BODY void volume_balance_lanes_n(const lied_env *env, char *g, size_t n, size_t stride) {
  (void)env, (void)stride;
  const int nr = VL_INT(nr), nf = VL_INT(nf), nX = (*TF_LANE_FNS(tfu_volume, g, med))->nX;
  const double *restrict h = VL(h), *restrict Xc = VL(Xc.X[0]), *restrict mf = VL(m_flow[0]);
  const double *restrict mi = nr ? VL_IN(rear[0].flow) : NULL, *restrict in = nr ? VL_IN(rear[0].state) : NULL;
  const double *restrict b = nf ? VL_IN(fore[0].back) : NULL;
  const double *restrict Q = VL_INT(Q_from_input) ? VL_IN(Q_in.y) : VL(Q);
  double *restrict dM = VL(der_M), *restrict dU = VL(der_U), *restrict dMX = VL(der_MX[0]);
  double *restrict Qu = VL(Q_used);
  LIED_LANE_LOOP
  for (size_t l = 0; l < n; l++) {
    double sM = 0, sU = 0, sX = 0;
    if (nr) {
      const double m = mi[l];
      sM += m;
      sU += vol_upwind(m, TF_V(in, 1, l), h[l]);
      if (nX) sX += vol_upwind(m, TF_V(in, 2, l), Xc[l]);
    }
    if (nf) {
      const double m = mf[l];
      sM -= m;
      sU -= vol_upwind(m, h[l], TF_V(b, 1, l));
      if (nX) sX -= vol_upwind(m, Xc[l], TF_V(b, 2, l));
    }
    Qu[l] = Q[l];
    dM[l] = sM;
    dU[l] = sU + Qu[l];
    if (nX) dMX[l] = sX;
  }
}
LIED_LANE_FORM(volume_balance_lanes)
_Static_assert(TF_NX == 1, "the lane forms move one mass fraction");

/* The lane forms of each class's blocks thermo, r_rear, der, r0, residual,
 * balance (VolumeN has none). */
static const lied_block_fn volume_lane_fns[6] = {volume_thermo_lanes, volume_r_rear_lanes,
                                                 volume_der_lanes,    volume_r0_lanes,
                                                 volume_res_lanes,    volume_balance_lanes};
static const lied_block_fn volume_n_lane_fns[6] = {NULL};
static inline void vol_lanes(lied_meta *m, lied_block_fn f) {
  if (f) lied_meta_lanes(m, f);
}

/* ---- init and meta (both classes) ----------------------------------------------------- */

/* Start values of M, U (and MX) from (p0, T0), or from (p0, x0) on the
 * saturation line of a two-phase medium: the directed Volume's checks. */
static int vol_start(tf_med *med, lied_init *ctx, double V, double p0, double T0, double x0,
                     double *M, double *U, double *MX) {
  return tf_content_start(med, ctx, V, p0, T0, x0, M, U, MX);
}

static int volume_init(void *self, lied_init *ctx) {
  tfu_volume *v = self;
  v->nr = v->use_rear, v->nf = v->use_fore;
  if (!v->nr && !v->nf) {
    lied_init_error(ctx, "a Volume needs a port: use_rear = use_fore = 0 leaves it none");
    return -1;
  }
  return vol_start(&v->med, ctx, v->V, v->p0, v->T0, v->x0, &v->M, &v->U, v->MX);
}
static int volume_n_init(void *self, lied_init *ctx) {
  tfu_volume_n *v = self;
  if (v->nr + v->nf < 1) {
    lied_init_error(ctx, "a VolumeN needs a port: n_rear = n_fore = 0 leaves it none");
    return -1;
  }
  return vol_start(&v->med, ctx, v->V, v->p0, v->T0, v->x0, &v->M, &v->U, v->MX);
}

/* The declarations of either class: ports named rear, fore (single) or
 * rear[k], fore[k] (indexed). */
#define VOL_META(PFX, TYPE, INDEXED)                                                          \
  static void PFX##_meta(lied_meta *m, void *self) {                                          \
    TYPE *v = self;                                                                           \
    const int nX = tf_nX(&v->med), nr = v->nr, nf = v->nf;                                    \
    char name[24], tear[24], res[24];                                                         \
    for (int i = 0; i < nr; i++) tfu_meta_rear(m, "rear", INDEXED ? i + 1 : 0, &v->rear[i]);  \
    for (int k = 0; k < nf; k++) tfu_meta_fore(m, "fore", INDEXED ? k + 1 : 0, &v->fore[k]);  \
    if (v->Q_from_input) lied_meta_real_in(m, "Q_in", 0, &v->Q_in);                           \
    lied_meta_state(m, "M", "kg", &v->M, &v->der_M);                                          \
    lied_meta_state(m, "U", "J", &v->U, &v->der_U);                                           \
    for (int c = 0; c < nX; c++) {                                                            \
      snprintf(name, sizeof name, "MX%d", c + 1);                                             \
      lied_meta_state(m, name, "kg", &v->MX[c], &v->der_MX[c]);                               \
      snprintf(name, sizeof name, "X%d", c + 1);                                              \
      lied_meta_var(m, name, "1", &v->Xc.X[c]);                                               \
    }                                                                                         \
    for (int k = 0; k < nf; k++) {                                                            \
      if (INDEXED) {                                                                          \
        snprintf(name, sizeof name, "m_flow%d", k + 1);                                       \
        snprintf(tear, sizeof tear, "dm_flow%d", k + 1);                                      \
        snprintf(res, sizeof res, "res%d", k + 1);                                            \
      } else {                                                                                \
        snprintf(name, sizeof name, "m_flow");                                                \
        snprintf(tear, sizeof tear, "dm_flow");                                               \
        snprintf(res, sizeof res, "res");                                                     \
      }                                                                                       \
      lied_meta_state(m, name, "kg/s", &v->m_flow[k], &v->der_m_flow[k]);                     \
      lied_meta_tear(m, tear, &v->dm_flow[k], res, &v->res[k]);                               \
    }                                                                                         \
    lied_meta_var(m, "p", "Pa", &v->p);                                                       \
    lied_meta_var(m, "h", "J/kg", &v->h);                                                     \
    lied_meta_var(m, "rho", "kg/m3", &v->rho);                                                \
    lied_meta_var(m, "T", "K", &v->T);                                                        \
    lied_meta_var(m, "Q", "W", &v->Q_used);                                                   \
    /* thermo: states -> content, ports' states */                                           \
    const void *ti[3 + TF_NX + VOLN_MAX + 1], *to[5 + 4 * VOLN_MAX + 1];                      \
    int nti = 0, nto = 0;                                                                     \
    ti[nti++] = &v->M, ti[nti++] = &v->U;                                                     \
    for (int c = 0; c < nX; c++) ti[nti++] = &v->MX[c];                                       \
    for (int k = 0; k < nf; k++) ti[nti++] = &v->m_flow[k];                                   \
    to[nto++] = &v->rho, to[nto++] = &v->p, to[nto++] = &v->h;                                \
    if (nX) to[nto++] = &v->Xc;                                                               \
    for (int k = 0; k < nf; k++) to[nto++] = &v->fore[k].flow, to[nto++] = &v->fore[k].state; \
    for (int i = 0; i < nr; i++) to[nto++] = &v->rear[i].back;                                \
    ti[nti] = to[nto] = NULL;                                                                 \
    lied_meta_block(m, "thermo", PFX##_thermo_b, 0, ti, to);                                  \
    vol_lanes(m, PFX##_lane_fns[0]);                                                          \
    /* the rear ports' inertial pressure */                                                   \
    if (nr) {                                                                                 \
      const void *ri[3 * VOLN_MAX + 2], *ro[VOLN_MAX + 1];                                    \
      int nri = 0;                                                                            \
      ri[nri++] = &v->p;                                                                      \
      for (int i = 0; i < nr; i++) {                                                          \
        ri[nri++] = &v->rear[i].flow, ri[nri++] = &v->rear[i].state;                          \
        if (v->L_rear > 0) ri[nri++] = &v->rear[i].der;                                       \
        ro[i] = &v->rear[i].r;                                                                \
      }                                                                                       \
      ri[nri] = ro[nr] = NULL;                                                                \
      lied_meta_block(m, "r_rear", PFX##_r_rear_b, LIED_BLOCK_CONST_COEFF, ri, ro);           \
      vol_lanes(m, PFX##_lane_fns[1]);                                                        \
      for (int i = 0; i < nr; i++) tfu_meta_reads(m, &v->rear[i].state, TFU_P);               \
    }                                                                                         \
    /* the fore ports' flows: der and residuals */                                           \
    if (nf) {                                                                                 \
      const void *di[VOLN_MAX + 1], *dout[2 * VOLN_MAX + 1], *si[3 * VOLN_MAX + 1],           \
          *so[VOLN_MAX + 1], *zi[2 * VOLN_MAX + 2], *zo[VOLN_MAX + 1];                        \
      int nsi = 0, nzi = 0;                                                                   \
      zi[nzi++] = &v->p;                                                                      \
      for (int k = 0; k < nf; k++) {                                                          \
        di[k] = &v->dm_flow[k];                                                               \
        dout[2 * k] = &v->fore[k].der, dout[2 * k + 1] = &v->der_m_flow[k];                   \
        zi[nzi++] = &v->m_flow[k], zi[nzi++] = &v->fore[k].back;                              \
        zo[k] = &v->r0[k];                                                                    \
        si[nsi++] = &v->fore[k].r, si[nsi++] = &v->dm_flow[k], si[nsi++] = &v->r0[k];         \
        so[k] = &v->res[k];                                                                   \
      }                                                                                       \
      di[nf] = dout[2 * nf] = si[nsi] = so[nf] = zi[nzi] = zo[nf] = NULL;                     \
      lied_meta_block(m, "der", PFX##_der_b, LIED_BLOCK_CONST_COEFF, di, dout);               \
      vol_lanes(m, PFX##_lane_fns[2]);                                                        \
      lied_meta_block(m, "r0", PFX##_r0_b, 0, zi, zo);                                        \
      vol_lanes(m, PFX##_lane_fns[3]);                                                        \
      for (int k = 0; k < nf; k++) tfu_meta_reads(m, &v->fore[k].back, TFU_P);               \
      lied_meta_block(m, "residual", PFX##_res_b, LIED_BLOCK_CONST_COEFF, si, so);            \
      vol_lanes(m, PFX##_lane_fns[4]);                                                        \
    }                                                                                         \
    /* mass and energy balance */                                                             \
    const void *bi[4 + 4 * VOLN_MAX + 3];                                                     \
    int nbi = 0;                                                                              \
    bi[nbi++] = &v->h;                                                                        \
    if (nX) bi[nbi++] = &v->Xc;                                                               \
    for (int i = 0; i < nr; i++) bi[nbi++] = &v->rear[i].flow, bi[nbi++] = &v->rear[i].state; \
    for (int k = 0; k < nf; k++) bi[nbi++] = &v->m_flow[k], bi[nbi++] = &v->fore[k].back;     \
    if (v->Q_from_input) bi[nbi++] = &v->Q_in.y;                                              \
    bi[nbi] = NULL;                                                                           \
    const void *bo[3 + TF_NX + 1] = {&v->der_M, &v->der_U, &v->Q_used};                       \
    for (int c = 0; c < nX; c++) bo[3 + c] = &v->der_MX[c];                                   \
    lied_meta_block(m, "balance", PFX##_balance_b, 0, bi, bo);                                \
    vol_lanes(m, PFX##_lane_fns[5]);                                                          \
    /* the upwind enthalpies (and mass fractions) of what arrives */                          \
    for (int i = 0; i < nr; i++) tfu_meta_reads(m, &v->rear[i].state, TFU_H | tfu_X_reads(&v->med)); \
    for (int k = 0; k < nf; k++) tfu_meta_reads(m, &v->fore[k].back, TFU_H | tfu_X_reads(&v->med)); \
    lied_meta_block(m, "output", PFX##_out_b, 0, LIED_SIGS(&v->p, &v->h, &v->Xc),             \
                    LIED_SIGS(&v->T));                                                        \
    /* the kinks (kinks = 0: none) */                                                         \
    if (!v->kinks) return;                                                                    \
    const int np = vol_nphase(&v->med), nz = vol_nkinks(np, nr, nf);                         \
    const void *ki[3 + 2 * VOLN_MAX + 1], *ko[2 * VOLN_MAX + TF_PHASE_MAX + 1];              \
    int nki = 0;                                                                              \
    ki[nki++] = &v->p, ki[nki++] = &v->h;                                                     \
    if (nX) ki[nki++] = &v->Xc;                                                               \
    for (int i = 0; i < nr; i++) ki[nki++] = &v->rear[i].flow;                                \
    for (int k = 0; k < nf; k++) ki[nki++] = &v->m_flow[k];                                   \
    for (int j = 0; j < nz; j++) ko[j] = &v->z[j];                                            \
    ki[nki] = ko[nz] = NULL;                                                                  \
    lied_meta_block(m, "kinks", PFX##_kinks_b, 0, ki, ko);                                    \
    tf_meta_phase_kinks(m, &v->med, v->z);                                                    \
    for (int j = np; j < nz; j++) {                                                           \
      const int i = j - np;                                                                   \
      snprintf(name, sizeof name, "z_%s%d", i < nr ? "rear" : "fore", i < nr ? i + 1 : i - nr + 1); \
      if (!INDEXED) name[6] = 0; /* z_rear, z_fore */                                         \
      tf_meta_flow_kink(m, name, &v->z[j]);                                                   \
    }                                                                                         \
  }

VOL_META(volume, tfu_volume, 0)
VOL_META(volume_n, tfu_volume_n, 1)

#define VOL_PARAMS(TYPE)                                                                     \
  {"V", offsetof(TYPE, V), 1e-3, "m3", "volume", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN, 0},       \
  {"p0", offsetof(TYPE, p0), 1e5, "Pa", "start pressure", 0, TF_NOMAX, LIED_PARAM_MIN_OPEN,  \
   0},                                                                                       \
  {"T0", offsetof(TYPE, T0), 293.15, "K", "start temperature (unless x0 >= 0)", 0, TF_NOMAX, \
   LIED_PARAM_MIN_OPEN, 0},                                                                  \
  {"x0", offsetof(TYPE, x0), -1, "1",                                                        \
   "start quality on the saturation line at p0 (two-phase media; -1: start at T0)", -1, 1,   \
   0, 0},                                                                                    \
  {"Q", offsetof(TYPE, Q), 0, "W", "heat flow into the content (unless Q_from_input)",       \
   TF_NOMIN, TF_NOMAX, 0, 0},                                                                \
  {"Q_from_input", offsetof(TYPE, Q_from_input), 0, "1",                                     \
   "1: heat flow from the signal input Q_in [W]", 0, 1, LIED_PARAM_INT, 0},                  \
  {"L_rear", offsetof(TYPE, L_rear), 0, "1/m", "inertance of each rear port (length / area)", \
   0, TF_NOMAX, 0, 0},                                                                       \
  {"L_fore", offsetof(TYPE, L_fore), 0, "1/m", "inertance of each fore port (length / area)", \
   0, TF_NOMAX, 0, 0},                                                                       \
  {"kinks", offsetof(TYPE, kinks), 1, "1",                                                   \
   "1: declare the kinks (the ports' flow reversals, the phase boundaries) for the adaptive " \
   "solvers to end their steps there (docs/events.md); 0: step across them", 0, 1,           \
   LIED_PARAM_INT, 0},                                                                       \
  TFU_MREG_PARAM(TYPE), TF_MEDIUM_PARAM(TYPE)

static const lied_param volume_params[] = {
    VOL_PARAMS(tfu_volume),
    {"use_rear", offsetof(tfu_volume, use_rear), 1, "1", "1: the volume has a rear port", 0, 1,
     LIED_PARAM_INT, 0},
    {"use_fore", offsetof(tfu_volume, use_fore), 1, "1", "1: the volume has a fore port", 0, 1,
     LIED_PARAM_INT, 0},
    {"m_flow", offsetof(tfu_volume, m_flow), 0, "kg/s",
     "start value of the fore port's flow (positive: out of the volume)", TF_NOMIN, TF_NOMAX, 0,
     0},
};
const lied_class tfu_volume_class = {
    "Volume", "undirected",
    "rigid volume V of compressible medium (states M, U; also two-phase and mixtures) with a "
    "rear port (ends a segment: rear.r = w(m)*(p - rear.p)) and a fore port (owns its "
    "segment's flow m_flow: res = fore.r + L_fore*der(m_flow) - (1 - w(m))*(p - "
    "fore.p_back)); upwind enthalpy flows by the sign of each flow",
    sizeof(tfu_volume), volume_params, sizeof volume_params / sizeof *volume_params,
    volume_init, volume_meta};

#define VOLN_M0(k)                                                                           \
  {"m_flow" #k, offsetof(tfu_volume_n, m_flow) + (k - 1) * sizeof(double), 0, "kg/s",        \
   "start value of the flow of fore[" #k "] (if n_fore >= " #k ")", TF_NOMIN, TF_NOMAX, 0, 0}
_Static_assert(VOLN_MAX == 8, "the m_flow1..m_flow8 parameters assume 8 ports");
static const lied_param volume_n_params[] = {
    VOL_PARAMS(tfu_volume_n),
    {"n_rear", offsetof(tfu_volume_n, nr), 1, "1", "number of rear ports rear[1..n_rear]", 0,
     VOLN_MAX, LIED_PARAM_INT, 0},
    {"n_fore", offsetof(tfu_volume_n, nf), 1, "1", "number of fore ports fore[1..n_fore]", 0,
     VOLN_MAX, LIED_PARAM_INT, 0},
    VOLN_M0(1), VOLN_M0(2), VOLN_M0(3), VOLN_M0(4), VOLN_M0(5), VOLN_M0(6), VOLN_M0(7),
    VOLN_M0(8),
};
const lied_class tfu_volume_n_class = {
    "VolumeN", "undirected",
    "a Volume with n_rear rear ports rear[k] and n_fore fore ports fore[k] (0..8 each), the "
    "fore ports owning the flows m_flow1..m_flowN",
    sizeof(tfu_volume_n), volume_n_params, sizeof volume_n_params / sizeof *volume_n_params,
    volume_n_init, volume_n_meta};
