/* refrigerants.c - the refrigerant media R134a, R1234yf, R290 and R744
 * (docs/media.md): tables of the thermofluid media interface
 * (thermofluid.h) over the (p, h) spline tables of rftab.h, built from the
 * Helmholtz equations of state (helmholtz.h, hz_fluids.c) the first time a
 * model (or a Lua call) uses the fluid, and shared by every component using
 * it afterwards, for the process's lifetime. Registered by id (tf.medium
 * "R134a", tf.R134a in Lua). No constants: the medium vector is {kind, 0,
 * 0, 0, 0, 0}. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "lib/thermofluid/thermofluid.h"
#include "lib/thermofluid/rftab.h"

/* A fluid and its table, built once (under the mutex; read without it once
 * published). */
typedef struct rf_fluid {
  const hz_fluid *f;
  rft_table *tab;
  pthread_mutex_t mu;
  int failed;
  char why[256];
} rf_fluid;

static rf_fluid rf[] = {
    {&hz_r134a, NULL, PTHREAD_MUTEX_INITIALIZER, 0, ""},
    {&hz_r1234yf, NULL, PTHREAD_MUTEX_INITIALIZER, 0, ""},
    {&hz_r290, NULL, PTHREAD_MUTEX_INITIALIZER, 0, ""},
    {&hz_r744, NULL, PTHREAD_MUTEX_INITIALIZER, 0, ""},
};

/* The fluid's table, built at the first call; NULL (why set) when the
 * build failed. */
static const rft_table *tab(rf_fluid *r) {
  rft_table *t = __atomic_load_n(&r->tab, __ATOMIC_ACQUIRE);
  if (t) return t;
  pthread_mutex_lock(&r->mu);
  if (!r->tab && !r->failed) {
    t = rft_build(r->f, r->why, sizeof r->why);
    if (t)
      __atomic_store_n(&r->tab, t, __ATOMIC_RELEASE);
    else
      r->failed = 1;
  }
  t = r->tab;
  pthread_mutex_unlock(&r->mu);
  return t;
}

static void props_of(const rft_props *a, tf_props *o) {
  o->T = a->T, o->rho = a->rho, o->s = a->s, o->x = a->x, o->u = a->u;
  o->drho_dp = a->drho_dp, o->drho_dh = a->drho_dh, o->phase = a->phase;
}

/* The functions of medium I (an index of rf[]), over its table. */
#define RF_FUNCS(I)                                                                            \
  static double rf##I##_rho(const double *c, double p, double h) {                             \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    return t ? rft_rho(t, p, h) : NAN;                                                         \
  }                                                                                            \
  static double rf##I##_T(const double *c, double p, double h) {                               \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    return t ? rft_T_ph(t, p, h) : NAN;                                                        \
  }                                                                                            \
  static double rf##I##_h(const double *c, double p, double T) {                               \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    double h;                                                                                  \
    return t && !rft_h_pT(t, p, T, &h) ? h : NAN;                                              \
  }                                                                                            \
  static double rf##I##_cp(const double *c, double p, double h) {                              \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    return t ? rft_cp(t, p, h) : NAN;                                                          \
  }                                                                                            \
  static int rf##I##_from_rho_u(const double *c, double rho, double u, double *p, double *h) { \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    if (!t || rft_from_rho_u(t, rho, u, p, h)) *p = *h = NAN;                                  \
    return 0;                                                                                  \
  }                                                                                            \
  static void rf##I##_from_rho_u_lanes(const double *c, size_t cs, size_t n, const double *rho, \
                                       const double *u, double *p, double *h) {                \
    (void)cs;                                                                                  \
    for (size_t l = 0; l < n; l++) (void)rf##I##_from_rho_u(c, rho[l], u[l], &p[l], &h[l]);     \
  }                                                                                            \
  static int rf##I##_check(const double *c, char *why, size_t cap) {                           \
    (void)c;                                                                                   \
    if (tab(&rf[I])) return 0;                                                                 \
    snprintf(why, cap, "%s", rf[I].why);                                                       \
    return -1;                                                                                 \
  }                                                                                            \
  static int rf##I##_check_pT(const double *c, double p, double T, char *why, size_t cap) {    \
    return rf##I##_check(c, why, cap) ? -1 : rft_why_pT(tab(&rf[I]), p, T, why, cap);          \
  }                                                                                            \
  static int rf##I##_check_ph(const double *c, double p, double h, char *why, size_t cap) {    \
    return rf##I##_check(c, why, cap) ? -1 : rft_why_ph(tab(&rf[I]), p, h, why, cap);          \
  }                                                                                            \
  static int rf##I##_check_rho_u(const double *c, double rho, double u, char *why,             \
                                 size_t cap) {                                                 \
    return rf##I##_check(c, why, cap) ? -1 : rft_why_rho_u(tab(&rf[I]), rho, u, why, cap);     \
  }                                                                                            \
  static void rf##I##_T_lanes(const double *c, size_t cs, size_t n, const double *p,           \
                              const double *h, double *T) {                                    \
    (void)c, (void)cs;                                                                         \
    const rft_table *t = tab(&rf[I]);                                                          \
    if (t)                                                                                     \
      rft_T_ph_lanes(t, n, p, h, T);                                                           \
    else                                                                                       \
      for (size_t l = 0; l < n; l++) T[l] = NAN;                                               \
  }                                                                                            \
  static int rf##I##_props_ph(const double *c, double p, double h, int d, tf_props *o) {       \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    rft_props a;                                                                               \
    int r = t ? (d ? rft_ph_d(t, p, h, &a) : rft_ph(t, p, h, &a)) : -1;                        \
    if (!t) a.T = a.rho = a.s = a.x = a.u = a.drho_dp = a.drho_dh = NAN, a.phase = -1;         \
    props_of(&a, o);                                                                           \
    return r;                                                                                  \
  }                                                                                            \
  static void rf##I##_props_ph_lanes(const double *c, size_t cs, size_t n, const double *p,    \
                                     const double *h, int d, tf_props *o) {                    \
    (void)cs;                                                                                  \
    const rft_table *t = tab(&rf[I]);                                                          \
    rft_props a[LIED_LANES];                                                                   \
    if (!t) {                                                                                  \
      for (size_t l = 0; l < n; l++) (void)rf##I##_props_ph(c, p[l], h[l], d, &o[l]);          \
      return;                                                                                  \
    }                                                                                          \
    rft_ph_lanes(t, n, p, h, d, a);                                                            \
    for (size_t l = 0; l < n; l++) props_of(&a[l], &o[l]);                                     \
  }                                                                                            \
  static int rf##I##_sat_p(const double *c, double p, tf_sat *o) {                             \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    rft_sat s;                                                                                 \
    if (!t || rft_sat_p(t, p, &s)) return -1;                                                  \
    *o = (tf_sat){s.T, p, s.rhoL, s.rhoV, s.hL, s.hV, s.sL, s.sV};                             \
    return 0;                                                                                  \
  }                                                                                            \
  static int rf##I##_sat_h(const double *c, double p, double *hl, double *hv) {                \
    tf_sat s;                                                                                  \
    if (rf##I##_sat_p(c, p, &s)) return -1;                                                    \
    *hl = s.hL, *hv = s.hV;                                                                    \
    return 0;                                                                                  \
  }                                                                                            \
  static int rf##I##_psat(const double *c, double T, double *p) {                              \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    return t ? rft_psat(t, T, p) : -1;                                                         \
  }                                                                                            \
  static int rf##I##_h_ps(const double *c, double p, double s, double *h) {                    \
    (void)c;                                                                                   \
    const rft_table *t = tab(&rf[I]);                                                          \
    return t ? rft_h_ps(t, p, s, h) : -1;                                                      \
  }

#define RF_MEDIUM(I, ID, NAME)                                                                 \
  RF_FUNCS(I)                                                                                  \
  static const tf_medium rf_medium_##I = {                                                     \
      .name = NAME, .rho = rf##I##_rho, .T = rf##I##_T, .h = rf##I##_h, .cp = rf##I##_cp,       \
      .from_rho_u = rf##I##_from_rho_u, .check = rf##I##_check, .check_pT = rf##I##_check_pT,   \
      .sat_h = rf##I##_sat_h, .check_ph = rf##I##_check_ph,                                    \
      .check_rho_u = rf##I##_check_rho_u, .T_lanes = rf##I##_T_lanes, .id = ID,                \
      .props_ph = rf##I##_props_ph, .props_ph_lanes = rf##I##_props_ph_lanes,                  \
      .from_rho_u_lanes = rf##I##_from_rho_u_lanes, .sat_p = rf##I##_sat_p,                    \
      .psat = rf##I##_psat, .h_ps = rf##I##_h_ps};                                             \
  TF_MEDIUM(rf_medium_##I)

RF_MEDIUM(0, "R134a", "R134a (Tillner-Roth and Baehr 1994)")
RF_MEDIUM(1, "R1234yf", "R1234yf (Richter, McLinden and Lemmon 2011)")
RF_MEDIUM(2, "R290", "R290, propane (Lemmon, McLinden and Wagner 2009)")
RF_MEDIUM(3, "R744", "R744, carbon dioxide (Span and Wagner 1996)")

const rft_table *tf_refrigerant_table(const char *id, char *why, size_t cap) {
  for (size_t i = 0; i < sizeof rf / sizeof rf[0]; i++) {
    if (strcmp(rf[i].f->name, id)) continue;
    const rft_table *t = tab(&rf[i]);
    if (!t) snprintf(why, cap, "%s", rf[i].why);
    return t;
  }
  snprintf(why, cap, "no refrigerant '%s' (R134a, R1234yf, R290, R744)", id);
  return NULL;
}
