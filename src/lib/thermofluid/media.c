/* media.c - media as tables of functions: a constant-property liquid
 * (optionally compressible), a simple ideal gas, and water and steam after
 * IAPWS-IF97 (if97.h) with two-phase states. */
#include <stdio.h>
#include <string.h>
#include "lib/thermofluid/thermofluid.h"
#include "lib/thermofluid/if97.h"
#include "lib/thermofluid/moist_air.h"
#include "lib/thermofluid/gas_media.h"

/* Liquid: c = {rho0 [kg/m3], cp [J/(kg K)], beta [1/Pa], p_ref [Pa], T_ref [K]}.
 * rho = rho0 * (1 + beta * (p - p_ref)); h = cp * (T - T_ref).
 * beta = 0 makes it incompressible (exactly rho0). */
static double liq_rho(const double *c, double p, double h) {
  (void)h;
  return tf_liquid_rho(c, p);
}
static double liq_T(const double *c, double p, double h) {
  (void)p;
  return tf_liquid_T(c, h);
}
static double liq_h(const double *c, double p, double T) {
  (void)p;
  return c[1] * (T - c[4]);
}
static double liq_cp(const double *c, double p, double h) {
  (void)p, (void)h;
  return c[1];
}
/* u = h - p / rho; rho fixes p through the compressibility. */
static int liq_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  if (!(c[2] > 0)) return -1;
  *p = c[3] + (rho / c[0] - 1.0) / c[2];
  *h = u + *p / rho;
  return 0;
}
static void liq_T_lanes(const double *c, size_t cs, size_t n, const double *p, const double *h,
                        double *T) {
  (void)p;
  for (size_t l = 0; l < n; l++) T[l] = c[4 * cs + l] + h[l] / c[cs + l]; /* tf_liquid_T */
}
static int liq_check(const double *c, char *why, size_t cap) {
  if (!(c[0] > 0)) return snprintf(why, cap, "liquid density rho = %g must be > 0", c[0]), -1;
  if (!(c[1] > 0)) return snprintf(why, cap, "liquid cp = %g must be > 0", c[1]), -1;
  if (!(c[2] >= 0)) return snprintf(why, cap, "liquid compressibility beta = %g must be >= 0", c[2]), -1;
  if (!(c[4] >= 0)) return snprintf(why, cap, "liquid T_ref = %g must be >= 0", c[4]), -1;
  return 0;
}

/* Ideal gas: c = {R [J/(kg K)], cp [J/(kg K)]}; h = cp T, u = (cp - R) T,
 * p = rho R T. */
static double gas_rho(const double *c, double p, double h) {
  return p / (c[0] * h / c[1]);
}
static double gas_T(const double *c, double p, double h) {
  (void)p;
  return h / c[1];
}
static double gas_h(const double *c, double p, double T) {
  (void)p;
  return c[1] * T;
}
static double gas_cp(const double *c, double p, double h) {
  (void)p, (void)h;
  return c[1];
}
static int gas_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  double T = u / (c[1] - c[0]);
  *p = rho * c[0] * T;
  *h = c[1] * T;
  return 0;
}
static void gas_T_lanes(const double *c, size_t cs, size_t n, const double *p, const double *h,
                        double *T) {
  (void)p;
  for (size_t l = 0; l < n; l++) T[l] = h[l] / c[cs + l];
}
static int gas_check(const double *c, char *why, size_t cap) {
  if (!(c[0] > 0)) return snprintf(why, cap, "gas constant R = %g must be > 0", c[0]), -1;
  if (!(c[1] > c[0])) return snprintf(why, cap, "gas cp = %g must be > R = %g", c[1], c[0]), -1;
  return 0;
}

/* Water and steam (IAPWS-IF97), no constants. Outside the range of
 * validity the laws return NaN; the blocks that use them report a fault
 * (tf_fault_ph, ...) whose message check_ph / check_rho_u give; init checks
 * the start states with check_pT, which names them. cp is 0 in the two-phase region (not
 * defined there; no component uses it). */
static double steam_rho(const double *c, double p, double h) {
  (void)c;
  char why[8];
  if97_state st;
  return if97_ph(p, h, &st, why, sizeof why) ? NAN : st.rho;
}
static double steam_T(const double *c, double p, double h) {
  (void)c;
  char why[8];
  double T;
  return if97_T_ph(p, h, &T, why, sizeof why) ? NAN : T;
}
static void steam_T_lanes(const double *c, size_t cs, size_t n, const double *p,
                          const double *h, double *T) {
  (void)c, (void)cs;
  if97_T_ph_lanes(n, p, h, T);
}
static double steam_h(const double *c, double p, double T) {
  (void)c;
  char why[8];
  if97_state st;
  return if97_pT(p, T, &st, why, sizeof why) ? NAN : st.h;
}
static double steam_cp(const double *c, double p, double h) {
  (void)c;
  char why[8];
  if97_state st;
  return if97_ph(p, h, &st, why, sizeof why) ? NAN : st.cp;
}
static int steam_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  (void)c;
  char why[8];
  if97_state st;
  if (if97_rho_u(rho, u, &st, why, sizeof why)) {
    *p = *h = NAN;
    return 0;
  }
  *p = st.p, *h = st.h;
  return 0;
}
static int steam_check(const double *c, char *why, size_t cap) {
  (void)c, (void)why, (void)cap;
  return 0;
}
static int steam_check_pT(const double *c, double p, double T, char *why, size_t cap) {
  (void)c;
  if97_state st;
  return if97_pT(p, T, &st, why, cap) ? -1 : 0;
}
static int steam_check_ph(const double *c, double p, double h, char *why, size_t cap) {
  (void)c;
  if97_state st;
  return if97_ph(p, h, &st, why, cap) ? -1 : 0;
}
static int steam_check_rho_u(const double *c, double rho, double u, char *why, size_t cap) {
  (void)c;
  if97_state st;
  return if97_rho_u(rho, u, &st, why, cap) ? -1 : 0;
}
static int steam_sat_h(const double *c, double p, double *hl, double *hv) {
  (void)c;
  char why[8];
  if97_state L, V;
  if (if97_sat_p(p, &L, &V, why, sizeof why)) return -1;
  *hl = L.h;
  *hv = V.h;
  return 0;
}

/* The phase boundaries (tf_medium.phase_z): above the critical pressure,
 * where the dome has shrunk to the critical point, both distances are
 * taken from the critical enthalpy, so they stay continuous in p. */
static void steam_phase_z(const double *c, double p, double h, double *z) {
  double hl, hv;
  if (steam_sat_h(c, p, &hl, &hv)) {
    if97_helm f;
    if97_state st;
    if97_helm3(IF97_RHOC, IF97_TC, &f);
    if97_from_helm3(&f, IF97_RHOC, IF97_TC, &st);
    hl = hv = st.h;
  }
  z[0] = h - hl;
  z[1] = h - hv;
}

/* Moist air of water fraction X = c[0] (moist_air.h): fog above saturation.
 * Outside the range of validity the laws return NaN (as steam's). cp is
 * dh/dT at constant p (a central difference where fog forms). */
static double ma_rho(const double *c, double p, double h) {
  char why[8];
  ma_state st;
  return ma_phX(p, h, c[0], &st, why, sizeof why) ? NAN : st.rho;
}
static double ma_T(const double *c, double p, double h) {
  char why[8];
  ma_state st;
  return ma_phX(p, h, c[0], &st, why, sizeof why) ? NAN : st.T;
}
static void ma_T_lanes(const double *c, size_t cs, size_t n, const double *p, const double *h,
                       double *T) {
  (void)cs;
  ma_T_phX_lanes(n, p, h, c, T); /* X = c[0], lane l at c[l] */
}
static double ma_h(const double *c, double p, double T) {
  char why[8];
  ma_state st;
  return ma_pTX(p, T, c[0], &st, why, sizeof why) ? NAN : st.h;
}
static double ma_cp(const double *c, double p, double h) {
  char why[8];
  ma_state st, a, b;
  if (ma_phX(p, h, c[0], &st, why, sizeof why)) return NAN;
  if (st.Xl == 0 && st.Xi == 0) return (1 - c[0]) * MA_CP_AIR + c[0] * MA_CP_VAP;
  double d = 1e-3, T0 = st.T - d < MA_TMIN ? MA_TMIN : st.T - d;
  if (ma_pTX(p, T0, c[0], &a, why, sizeof why) || ma_pTX(p, T0 + 2 * d, c[0], &b, why, sizeof why))
    return NAN;
  return (b.h - a.h) / (2 * d);
}
static int ma_from_rho_u(const double *c, double rho, double u, double *p, double *h) {
  char why[8];
  ma_state st;
  if (ma_rho_uX(rho, u, c[0], &st, why, sizeof why)) {
    *p = *h = NAN;
    return 0;
  }
  *p = st.p, *h = st.h;
  return 0;
}
/* The fog's onset (tf_medium.phase_z): x - x_sat, positive with fog; NaN
 * out of the range of validity, -1 where the water would boil. */
static void ma_phase_z(const double *c, double p, double h, double *z) {
  char why[8];
  ma_state st;
  if (ma_phX(p, h, c[0], &st, why, sizeof why))
    z[0] = NAN;
  else
    z[0] = isfinite(st.x_sat) ? st.x - st.x_sat : -1;
}
static int ma_check(const double *c, char *why, size_t cap) {
  if (!(c[0] >= 0 && c[0] < 1))
    return snprintf(why, cap, "moist air water fraction X = %g must be in [0, 1)", c[0]), -1;
  return 0;
}
static int ma_check_pT(const double *c, double p, double T, char *why, size_t cap) {
  ma_state st;
  return ma_pTX(p, T, c[0], &st, why, cap) ? -1 : 0;
}
static int ma_check_ph(const double *c, double p, double h, char *why, size_t cap) {
  ma_state st;
  return ma_phX(p, h, c[0], &st, why, cap) ? -1 : 0;
}
static int ma_check_rho_u(const double *c, double rho, double u, char *why, size_t cap) {
  ma_state st;
  return ma_rho_uX(rho, u, c[0], &st, why, cap) ? -1 : 0;
}

static const tf_medium tf_liquid = {
    .name = "liquid", .rho = liq_rho, .T = liq_T, .h = liq_h, .cp = liq_cp,
    .from_rho_u = liq_from_rho_u, .check = liq_check, .T_lanes = liq_T_lanes,
    .id = "liquid", .kind = TF_LIQUID, .nc = 5, .T_of_h = 1, .rho_of_p = 1};
static const tf_medium tf_gas = {
    .name = "ideal gas", .rho = gas_rho, .T = gas_T, .h = gas_h, .cp = gas_cp,
    .from_rho_u = gas_from_rho_u, .check = gas_check, .T_lanes = gas_T_lanes,
    .id = "gas", .kind = TF_GAS, .nc = 2, .T_of_h = 1};
static const tf_medium tf_steam = {
    .name = "water and steam (IAPWS-IF97)", .rho = steam_rho, .T = steam_T, .h = steam_h,
    .cp = steam_cp, .from_rho_u = steam_from_rho_u, .check = steam_check,
    .check_pT = steam_check_pT, .sat_h = steam_sat_h, .check_ph = steam_check_ph,
    .check_rho_u = steam_check_rho_u, .T_lanes = steam_T_lanes,
    .id = "steam", .kind = TF_STEAM, .nphase = 2, .phase_z = steam_phase_z};
static const tf_medium tf_moist_air = {
    .name = "moist air", .rho = ma_rho, .T = ma_T, .h = ma_h, .cp = ma_cp,
    .from_rho_u = ma_from_rho_u, .check = ma_check, .check_pT = ma_check_pT,
    .check_ph = ma_check_ph, .check_rho_u = ma_check_rho_u, .T_lanes = ma_T_lanes,
    .nX = 1, .X_at = 0, .id = "moist_air", .kind = TF_MOIST_AIR, .nc = 1, .nphase = 1,
    .phase_z = ma_phase_z};
TF_MEDIUM(tf_liquid)
TF_MEDIUM(tf_gas)
TF_MEDIUM(tf_steam)
TF_MEDIUM(tf_moist_air)

/* ---- the registry ------------------------------------------------------------
 * Filled when the code holding the media loads (constructors: lied's own
 * media, then each plugin's as it loads), read afterwards. */
#define TF_MAX_MEDIA 64
static const tf_medium *media[TF_MAX_MEDIA];
static int nmedia;
static char media_err[200];

/* A medium without a fixed kind: 1000 + its id's FNV-1a hash mod 9e6, the
 * same number in every process and for every order of loading. */
int tf_medium_kind(const tf_medium *m) {
  if (m->kind) return m->kind;
  unsigned h = 2166136261u;
  for (const char *c = m->id; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
  return 1000 + (int)(h % 9000000u);
}

static int ident(const char *s) {
  if (!s || !*s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
  for (; *s; s++)
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return 0;
  return 1;
}

int tf_medium_register(const tf_medium *m, size_t size) {
  media_err[0] = 0;
#define REFUSE(...) return snprintf(media_err, sizeof media_err, __VA_ARGS__), -1
  if (!m) REFUSE("tf_medium_register: no medium (NULL)");
  if (size != sizeof(tf_medium))
    REFUSE("medium '%s': compiled against another tf_medium (%zu bytes, lied's %zu): rebuild it "
           "against this lied", ident(m->id) ? m->id : "?", size, sizeof(tf_medium));
  if (!ident(m->id)) REFUSE("a medium's id must be a C identifier (got '%s')", m->id ? m->id : "(null)");
  if (!m->name || !m->rho || !m->T || !m->h || !m->cp || !m->from_rho_u || !m->check)
    REFUSE("medium '%s': name, rho, T, h, cp, from_rho_u and check are required", m->id);
  if (m->nc < 0 || m->nc > TF_MEDIUM_LEN - 1 || m->nX < 0 || m->nX > TF_NX ||
      (m->nX && (m->X_at < 0 || m->X_at + m->nX > m->nc)))
    REFUSE("medium '%s': nc = %d, nX = %d, X_at = %d are out of range (nc <= %d, nX <= %d)",
           m->id, m->nc, m->nX, m->X_at, TF_MEDIUM_LEN - 1, TF_NX);
  int kind = tf_medium_kind(m);
  for (int i = 0; i < nmedia; i++) {
    if (media[i] == m) return kind;
    if (!strcmp(media[i]->id, m->id)) REFUSE("medium '%s' is registered already", m->id);
    if (tf_medium_kind(media[i]) == kind)
      REFUSE("medium '%s': its kind number %d is medium '%s''s", m->id, kind, media[i]->id);
  }
  if (nmedia == TF_MAX_MEDIA) REFUSE("medium '%s': more than %d media", m->id, TF_MAX_MEDIA);
#undef REFUSE
  media[nmedia++] = m;
  return kind;
}

const char *tf_medium_error(void) { return media_err; }

const tf_medium *tf_medium_find(const char *id) {
  for (int i = 0; id && i < nmedia; i++)
    if (!strcmp(media[i]->id, id)) return media[i];
  return NULL;
}

const tf_medium *tf_medium_of_kind(double kind) {
  for (int i = 0; i < nmedia; i++)
    if (tf_medium_kind(media[i]) == kind) return media[i];
  return NULL;
}

int tf_medium_count(void) { return nmedia; }
const tf_medium *tf_medium_at(int i) { return i >= 0 && i < nmedia ? media[i] : NULL; }

void tf_T_lanes(size_t n, const double *par, const tf_medium *const *fns, const double *p,
                const double *h, double *T) {
  int same = 1;
  for (size_t l = 1; l < n; l++) same &= fns[l] == fns[0];
  if (same) {
    fns[0]->T_lanes(par + LIED_LANES, LIED_LANES, n, p, h, T);
    return;
  }
  for (size_t l = 0; l < n; l++) { /* mixed media: copy by copy */
    tf_med m;
    for (int k = 0; k < TF_MEDIUM_LEN; k++) m.par[k] = par[k * LIED_LANES + l];
    m.fn = fns[l];
    T[l] = tf_T(&m, p[l], h[l]);
  }
}

const double *tf_par_lanes_at(size_t n, const double *par, const tf_medium *const *fns,
                              const double *X, double *buf) {
  if (!X) return par;
  for (int k = 0; k < TF_MEDIUM_LEN; k++)
    for (size_t l = 0; l < n; l++) buf[k * LIED_LANES + l] = par[k * LIED_LANES + l];
  for (size_t l = 0; l < n; l++)
    for (int k = 0; k < fns[l]->nX; k++)
      buf[(1 + fns[l]->X_at + k) * LIED_LANES + l] = X[k * LIED_LANES + l];
  return buf;
}

int tf_medium_check_pT(const tf_med *med, lied_init *ctx, double p, double T, const char *what) {
  char why[256];
  if (!med->fn->check_pT || !med->fn->check_pT(med->par + 1, p, T, why, sizeof why)) return 0;
  lied_init_error(ctx, "%s: %s", what, why);
  return -1;
}

int tf_cell_mass_init(const tf_med *med, lied_init *ctx, double p0, double T0, double V,
                      const char *what, double *M) {
  *M = tf_cell_mass(med, p0, T0, V);
  if (isfinite(*M) && *M > 0) return 0; /* M der(h) = ...: M inf froze the cells (exit 0) */
  lied_init_error(ctx, "%s = %g m3: the cell's mass rho V = %g kg must be positive and finite",
                  what, V, *M);
  return -1;
}

/* The start enthalpy of tf_content_start: at quality x0 >= 0, else h(p0, T0). */
static int content_h0(const tf_med *med, lied_init *ctx, double p0, double T0, double x0,
                      double *h0) {
  if (x0 < 0) {
    if (tf_medium_check_pT(med, ctx, p0, T0, "start state (p0, T0)")) return -1;
    *h0 = tf_h(med, p0, T0);
    return 0;
  }
  double hl, hv;
  if (!med->fn->sat_h) {
    lied_init_error(ctx, "x0 = %g needs a medium with two phases (tf.steam), not %s", x0,
                    med->fn->name);
    return -1;
  }
  if (med->fn->sat_h(med->par + 1, p0, &hl, &hv)) {
    lied_init_error(ctx, "x0 = %g: p0 = %g Pa has no two-phase states in %s", x0, p0,
                    med->fn->name);
    return -1;
  }
  *h0 = hl + x0 * (hv - hl);
  return 0;
}

/* See thermofluid.h. The run computes (p, h) from (M/V, U/M): a start the
 * medium cannot resolve (a liquid of beta = 1e-308 gave p_ref, not p0, and
 * the temperature that follows, exit 0) is refused here, as is a content
 * whose mass or energy is not finite (it failed at t = 0 naming rho = inf). */
int tf_content_start(tf_med *med, lied_init *ctx, double V, double p0, double T0,
                     double x0, double *M, double *U, double *MX) {
  double h0, p, h;
  if (tf_medium_init(med, ctx) || content_h0(med, ctx, p0, T0, x0, &h0)) return -1;
  const double rho0 = tf_rho(med, p0, h0);
  if (med->fn->from_rho_u(med->par + 1, rho0, h0 - p0 / rho0, &p, &h)) {
    lied_init_error(ctx, "a Volume needs a compressible medium (this %s has "
                    "compressibility beta = 0: give it beta > 0)", med->fn->name);
    return -1;
  }
  if (!(rho0 > 0)) {
    lied_init_error(ctx, "density %g at p0 = %g Pa, T0 = %g K is not positive", rho0, p0, T0);
    return -1;
  }
  *M = rho0 * V;
  *U = *M * (h0 - p0 / rho0);
  if (!isfinite(*M) || !isfinite(*U)) {
    lied_init_error(ctx, "V = %g m3: the content's mass rho V = %g kg and energy U = %g J must "
                    "be finite", V, *M, *U);
    return -1;
  }
  if (!(fabs(p - p0) <= 1e-6 * p0)) {
    lied_init_error(ctx, "start state: the medium (%s) gives p = %g Pa, not p0 = %g Pa, from "
                    "the content's density %.9g kg/m3 and energy (a compressibility too small "
                    "to resolve p0?)", med->fn->name, p, p0, rho0);
    return -1;
  }
  tf_X X0;
  tf_med_X(med, &X0);
  for (int c = 0; c < TF_NX; c++) MX[c] = *M * X0.X[c];
  return 0;
}

/* The fault path: the medium's reason, or the state and "not finite" for a
 * medium without a range (a liquid or gas fed a non-finite state). */
void tf_fault_ph(const lied_env *env, const void *self, const tf_med *m, double p, double h,
                 const char *what) {
  char why[160];
  if (!m->fn->check_ph || !m->fn->check_ph(m->par + 1, p, h, why, sizeof why))
    snprintf(why, sizeof why, "p = %g Pa, h = %g J/kg gives no finite property", p, h);
  lied_block_fault(env, self, "%s: %s", what, why);
}
void tf_fault_pT(const lied_env *env, const void *self, const tf_med *m, double p, double T,
                 const char *what) {
  char why[160];
  if (!m->fn->check_pT || !m->fn->check_pT(m->par + 1, p, T, why, sizeof why))
    snprintf(why, sizeof why, "p = %g Pa, T = %g K gives no finite property", p, T);
  lied_block_fault(env, self, "%s: %s", what, why);
}
void tf_fault_rho_u(const lied_env *env, const void *self, const tf_med *m, double rho, double u,
                    const char *what) {
  char why[160];
  if (!m->fn->check_rho_u || !m->fn->check_rho_u(m->par + 1, rho, u, why, sizeof why))
    snprintf(why, sizeof why, "rho = %g kg/m3, u = %g J/kg gives no finite state", rho, u);
  lied_block_fault(env, self, "%s: %s", what, why);
}

/* The standard liquid (TFS defaults; water-like compressibility). */
void tf_medium_default(tf_med *med) {
  const double d[TF_MEDIUM_LEN] = {TF_LIQUID, 995.586, 4184.0, 4.5e-10, 1e5, 293.15};
  for (int i = 0; i < TF_MEDIUM_LEN; i++) med->par[i] = d[i];
}

int tf_medium_init(tf_med *med, lied_init *ctx) {
  int zero = 1;
  for (int i = 0; i < TF_MEDIUM_LEN; i++) zero &= med->par[i] == 0;
  if (zero) tf_medium_default(med);
  med->fn = tf_medium_of_kind(med->par[0]);
  if (!med->fn) {
    char known[512] = "";
    size_t n = 0;
    for (int i = 0; i < nmedia && n < sizeof known; i++)
      if (tf_medium_kind(media[i]) > TF_NASA_MOIST_AIR)
        n += (size_t)snprintf(known + n, sizeof known - n, ", %d = %s", tf_medium_kind(media[i]),
                              media[i]->id);
    lied_init_error(ctx, "medium kind %g is unknown (1 = liquid, 2 = ideal gas, 3 = water and "
                    "steam, 4 = moist air, 5 = ideal gas of NASA polynomials, 6 = moist air of "
                    "NASA polynomials%s; build it with tf.liquid{...}, tf.gas{...}, "
                    "tf.moist_air{...}, tf.ideal_gas{...}, tf.moist_air_nasa{...}, "
                    "tf.medium \"id\" or use tf.steam, tf.air)",
                    med->par[0], known);
    return -1;
  }
  char why[256];
  if (med->fn->check(med->par + 1, why, sizeof why)) {
    lied_init_error(ctx, "medium: %s", why);
    return -1;
  }
  return 0;
}
