/* flat_battery.c - the flat reference for examples/battery_pack.lua: the pack of s groups
 * of p cells in series (modules of g groups on cold plates, the coolant through the plates
 * in series) as one hand-written right-hand side over a contiguous state vector, integrated
 * by lied's fixed-step RK4 stepper (solve/erk.h). The cell equations are written out here
 * (src/lib/electrical/cell.c's, docs/electrical.md); the tables are lied's (core/table.h,
 * the same lookups: this compares everything around them). The group voltages are solved by
 * hand, exploiting the structure: the load draws I from the top junction, so every group
 * carries -I into its cells' p pins, sum_j (dv - E_j)/R0_j = -I, dv = (sum E_j/R0_j - I) /
 * sum 1/R0_j: no matrix at all.
 *
 *   flat_battery S P G STEPS DT [--cycle FILE] [--csv FILE]
 *
 * (run from the repository root: the cycle is examples/wltc_class3b.csv) prints "cells N
 * steps S evaluations E wall W s per_eval_per_cell X ns cpu Y ns" (wall and CPU time per
 * cell and evaluation); --csv writes the states of every
 * cell (SoC, u1, u2, T) and plate (h) after the last step, one "name,value" per line, under
 * lied's names. One untimed step on a copy of the start touches the memory first.
 *
 * State vector: per cell (module k, group i, cell j, in that order) SoC, u1, u2, T; then
 * the plates' h. The parameters are the example's: OCV map, Q = 5 (1 + 0.03 r), R0 = 0.02 (1
 * + 0.1 r'), R1 = 0.01 (1 + 0.1 r''), C1 = 3000, R2 = 0.015, C2 = 4e4, Cth = 70, Gth = 0.05,
 * r from the indices as the example's spread(); plates V = 5e-4 m3 of water-glycol (rho
 * 1060, cp 3500, T_ref 293.15), 0.05 kg/s at 298.15 K. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/table.h"
#include "solve/erk.h"

#define NSOC 12
#define NTEMP 3
static const double soc_grid[NSOC] = {0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1};
static const double temp_grid[NTEMP] = {253.15, 298.15, 333.15};
static const double ocv_mid[NSOC] = {3.05, 3.34, 3.45, 3.55, 3.61, 3.66,
                                     3.71, 3.78, 3.86, 3.95, 4.06, 4.18};
#define DT_OCV 0.5 /* cell.c's CELL_DT_OCV */

typedef struct cellpar {
  double cap, R0, R1;
} cellpar;

typedef struct pack {
  size_t s, p, g, m, n;
  cellpar *par;
  lied_table *ocv, *cur;
  lied_table_hint *hint; /* one per cell, as the cell's block */
  lied_table_hint hcur;
  double *E, *o, *dU; /* per cell */
  double *dv;         /* per group */
  double *Qp;         /* per plate: the heat its cells give it */
} pack;

static const double C1 = 3000, R2 = 0.015, C2 = 4e4, Cth = 70, Gth = 0.05;
static const double rho = 1060, cp = 3500, T_ref = 293.15, Vplate = 5e-4, m_cool = 0.05,
                    T_in = 298.15;

/* examples/battery_pack.lua's spread(k, i, j, salt) */
static double spread(double k, double i, double j, double salt) {
  double x = sin(12.9898 * k + 78.233 * i + 37.719 * j + salt) * 43758.5453;
  return 2 * (x - floor(x)) - 1;
}

static int rhs(void *ctx, double t, const double *x, double *dx) {
  pack *q = ctx;
  const double I = lied_table_lookup(NULL, NULL, q->cur, &q->hcur, t);
  const double Mp = rho * Vplate;
  for (size_t k = 0; k < q->m; k++) q->Qp[k] = 0;
  /* the EMFs, and each group's voltage from its conductances */
  for (size_t gi = 0; gi < q->s; gi++) {
    double G = 0, B = 0;
    for (size_t j = 0; j < q->p; j++) {
      const size_t c = gi * q->p + j;
      const double *y = x + 4 * c;
      lied_table_hint *h = q->hint + c;
      const double hi = lied_table_lookup2(NULL, NULL, q->ocv, h, y[0], y[3] + DT_OCV);
      const double lo = lied_table_lookup2(NULL, NULL, q->ocv, h, y[0], y[3] - DT_OCV);
      const double o = lied_table_lookup2(NULL, NULL, q->ocv, h, y[0], y[3]);
      q->o[c] = o;
      q->dU[c] = (hi - lo) / (2 * DT_OCV);
      q->E[c] = o + y[1] + y[2];
      G += 1 / q->par[c].R0;
      B += q->E[c] / q->par[c].R0;
    }
    q->dv[gi] = (B - I) / G;
  }
  /* the currents and the derivatives */
  const double *hplate = x + 4 * q->n;
  for (size_t gi = 0; gi < q->s; gi++) {
    const size_t k = gi / q->g;
    const double Tplate = T_ref + hplate[k] / cp;
    for (size_t j = 0; j < q->p; j++) {
      const size_t c = gi * q->p + j;
      const double *y = x + 4 * c;
      double *d = dx + 4 * c;
      const cellpar *cp_ = &q->par[c];
      const double i = (q->dv[gi] - q->E[c]) / cp_->R0;
      const double Qport = Gth * (y[3] - Tplate);
      d[0] = i / cp_->cap;
      d[1] = (i - y[1] / cp_->R1) / C1;
      d[2] = (i - y[2] / R2) / C2;
      const double Qj = cp_->R0 * i * i + y[1] * y[1] / cp_->R1 + y[2] * y[2] / R2;
      const double Qg = Qj + i * y[3] * q->dU[c];
      d[3] = (Qg - Qport) / Cth;
      q->Qp[k] += Qport;
    }
  }
  /* the plates, the coolant through them in series */
  double h_up = cp * (T_in - T_ref);
  for (size_t k = 0; k < q->m; k++) {
    dx[4 * q->n + k] = (m_cool * (h_up - hplate[k]) + q->Qp[k]) / Mp;
    h_up = hplate[k];
  }
  return 0;
}

/* The pack current of the example's cycle_current(p): the car's power over 96 x 3.7 V,
 * times p/40. */
static lied_table *cycle_current(const char *file, size_t p, lied_err *e) {
  FILE *f = fopen(file, "r");
  if (!f) {
    fprintf(stderr, "flat_battery: cannot read %s: %s\n", file, strerror(errno));
    return NULL;
  }
  double t[4096], v[4096], I[4096];
  size_t n = 0;
  char line[512];
  while (fgets(line, sizeof line, f) && n < 4096) {
    double a, b;
    if (line[0] == '#' || sscanf(line, "%lf,%lf", &a, &b) != 2) continue;
    t[n] = a, v[n] = b, n++;
  }
  fclose(f);
  const double m = 2000, g = 9.81, cr = 0.01, cdA = 0.6, rho_air = 1.2, eta = 0.9, regen = 0.6,
               aux = 1000;
  for (size_t k = 0; k < n; k++) {
    const size_t a = k > 0 ? k - 1 : 0, b = k + 1 < n ? k + 1 : n - 1;
    const double u = v[k] / 3.6;
    const double acc = (v[b] - v[a]) / 3.6 / (t[b] - t[a]);
    const double Pw = (m * acc + (u > 0 ? m * g * cr : 0) + 0.5 * rho_air * cdA * u * u) * u;
    const double P = (Pw > 0 ? Pw / eta : Pw * eta * regen) + aux;
    I[k] = P / (96 * 3.7) * (double)p / 40;
  }
  lied_table_data d = {1, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, n, 0, t, NULL, I, "current"};
  return lied_table_new(&d, e);
}

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int whole(const char *s, const char *what, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v < 1 || v > 100000000ULL) {
    fprintf(stderr, "flat_battery: %s must be a whole number from 1 to 1e8, not '%s'\n", what, s);
    return -1;
  }
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: flat_battery S P G STEPS DT [--cycle FILE] [--csv FILE]\n");
    return 2;
  }
  unsigned long long s, p, g, steps;
  if (whole(argv[1], "S", &s) || whole(argv[2], "P", &p) || whole(argv[3], "G", &g) ||
      whole(argv[4], "STEPS", &steps))
    return 2;
  char *end;
  const double dt = strtod(argv[5], &end);
  if (end == argv[5] || *end || !(dt > 0) || !isfinite(dt) || s % g) {
    fprintf(stderr, "flat_battery: DT must be > 0 and S a multiple of G\n");
    return 2;
  }
  const char *cycle = "examples/wltc_class3b.csv", *csv = NULL;
  for (int i = 6; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--cycle")) cycle = argv[i + 1];
    else if (!strcmp(argv[i], "--csv")) csv = argv[i + 1];
    else {
      fprintf(stderr, "flat_battery: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  pack q = {.s = s, .p = p, .g = g, .m = s / g, .n = s * p};
  lied_err e = {0};
  double z[NSOC * NTEMP];
  for (int a = 0; a < NSOC; a++)
    z[a * NTEMP] = ocv_mid[a] - 0.004, z[a * NTEMP + 1] = ocv_mid[a], z[a * NTEMP + 2] = ocv_mid[a] + 0.003;
  lied_table_data od = {2, LIED_TABLE_LINEAR, LIED_TABLE_HOLD, NSOC, NTEMP, soc_grid, temp_grid, z,
                        "ocv"};
  q.ocv = lied_table_new(&od, &e);
  q.cur = q.ocv ? cycle_current(cycle, q.p, &e) : NULL;
  const size_t len = 4 * q.n + q.m;
  q.par = calloc(q.n, sizeof *q.par);
  q.hint = calloc(q.n, sizeof *q.hint);
  q.E = malloc(sizeof(double) * q.n), q.o = malloc(sizeof(double) * q.n);
  q.dU = malloc(sizeof(double) * q.n), q.dv = malloc(sizeof(double) * q.s);
  q.Qp = malloc(sizeof(double) * q.m);
  double *x = malloc(sizeof *x * len), *y = malloc(sizeof *y * len);
  lied_erk erk = {0};
  int rc = 1;
  if (!q.ocv || !q.cur || !q.par || !q.hint || !q.E || !q.o || !q.dU || !q.dv || !q.Qp || !x ||
      !y || lied_erk_init(&erk, lied_tableau_find("rk4"), len, &e)) {
    fprintf(stderr, "flat_battery: %s\n", e.msg[0] ? e.msg : "out of memory");
    goto out;
  }
  for (size_t gi = 0; gi < q.s; gi++) /* module k, group i within it, cell j: 1-based as Lua */
    for (size_t j = 0; j < q.p; j++) {
      const double k1 = (double)(gi / q.g + 1), i1 = (double)(gi % q.g + 1), j1 = (double)(j + 1);
      cellpar *c = &q.par[gi * q.p + j];
      c->cap = 3600 * 5 * (1 + 0.03 * spread(k1, i1, j1, 1));
      c->R0 = 0.02 * (1 + 0.1 * spread(k1, i1, j1, 2));
      c->R1 = 0.01 * (1 + 0.1 * spread(k1, i1, j1, 3));
      double *st = x + 4 * (gi * q.p + j);
      st[0] = 0.9, st[1] = 0, st[2] = 0, st[3] = 298.15;
    }
  for (size_t k = 0; k < q.m; k++) x[4 * q.n + k] = cp * (298.15 - T_ref);
  memcpy(y, x, sizeof *y * len); /* the untimed step */
  lied_erk_step(&erk, rhs, &q, 0.0, dt, y);
  const long evals0 = erk.nrhs;
  const double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  for (unsigned long long k = 0; k < steps; k++) lied_erk_step(&erk, rhs, &q, (double)k * dt, dt, x);
  const double wall = clock_s(CLOCK_MONOTONIC) - t0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  const long evals = erk.nrhs - evals0;
  rc = 0;
  if (csv) {
    FILE *f = fopen(csv, "w");
    if (!f) {
      fprintf(stderr, "flat_battery: cannot write %s\n", csv);
      rc = 1;
    } else {
      static const char *const nm[4] = {"SoC", "u1", "u2", "T"};
      for (size_t gi = 0; gi < q.s; gi++)
        for (size_t j = 0; j < q.p; j++)
          for (int v = 0; v < 4; v++)
            fprintf(f, "module[%zu].group[%zu].cell[%zu].%s,%.17g\n", gi / q.g + 1, gi % q.g + 1,
                    j + 1, nm[v], x[4 * (gi * q.p + j) + v]);
      for (size_t k = 0; k < q.m; k++) fprintf(f, "module[%zu].plate.h,%.17g\n", k + 1, x[4 * q.n + k]);
      if (fclose(f)) rc = 1;
    }
  }
  printf("cells %zu steps %llu evaluations %ld wall %.6f s per_eval_per_cell %.3f ns cpu %.3f ns\n",
         q.n, steps, evals, wall, evals ? 1e9 * wall / (double)evals / (double)q.n : 0.0,
         evals ? 1e9 * cpu / (double)evals / (double)q.n : 0.0);
out:
  lied_erk_free(&erk);
  if (q.ocv) lied_table_release(q.ocv);
  if (q.cur) lied_table_release(q.cur);
  free(q.par), free(q.hint), free(q.E), free(q.o), free(q.dU), free(q.dv), free(q.Qp);
  free(x), free(y);
  return rc;
}
