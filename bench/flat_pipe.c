/* flat_pipe.c - the flat reference for examples/pipe.lua: a water pipe of n
 * cells (cell i: a PressureDrop into a Volume; a last PressureDrop into the
 * sink) as one hand-written right-hand side over a contiguous state vector,
 * integrated by lied's fixed-step RK4 stepper (solve/erk.h; nothing else of
 * lied: the laws of the thermofluid components and of the liquid medium are
 * written out here).
 *
 *   flat_pipe N STEPS DT [--csv FILE] [--vary]
 *
 * prints "cells N steps S evaluations E wall W s per_eval_per_cell X ns";
 * --csv writes every state at every step (time, src.m_flow, then vol[i].M,
 * vol[i].U, vol[i].m_flow for i = 1..N; the names of lied's variables);
 * --vary starts cell i at T0 = 293.15 + 5 (i mod 7) K and outlet flow
 * m_flow = 0.5 (i mod 5) - 1 kg/s (flows in both directions), so a mix-up
 * between cells or a wrong upwind branch shows. One untimed step on a copy
 * of the start touches the work memory before the timed steps.
 *
 * The equations (docs/thermofluid.md; the defaults of examples/pipe.lua):
 * liquid water, rho(p) = rho0 (1 + beta (p - p_ref)), h(T) = cp (T - T_ref);
 * a Volume's content from (M, U): rho = M/V, p = p_ref + (rho/rho0 - 1)/beta,
 * h = U/M + p/rho. Stream k (k = 0: from the source at (p_in, cp (T_in -
 * T_ref)); k >= 1: from vol[k] at its (p, h)) carries the flow state m_k
 * through drop[k+1]: u = m_k / (rho(p_up) v_ref), dp = dp_ref/2 (u + u|u|),
 * and ends at vol[k+1] (or the sink at p_out); its inertial-pressure balance
 * gives der(m_k) = (p_up - dp - p_end) / L. vol[i]: der(M) = m_(i-1) - m_i,
 * der(U) = m_(i-1) h_in - m_i h_i with h_in the upstream h for m_(i-1) >= 0,
 * else h_i. State vector: m_0, then (M_i, U_i, m_i) for i = 1..N. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "solve/erk.h"

#define PIPE_PI 3.14159265358979323846

/* examples/pipe.lua's parameters and the default medium (tf.water). */
typedef struct pipe_par {
  double d, dx, dp_ref, p_in, p_out, T_in, T0;
  double rho0, cp, beta, p_ref, T_ref;
} pipe_par;
static const pipe_par P = {0.1,   10.0,     1000.0,  1.2e5, 1e5,   353.15,
                           293.15, 995.586, 4184.0, 4.5e-10, 1e5, 293.15};

typedef struct pipe {
  size_t n;
  double V, L, v_ref, h_src; /* derived as examples/pipe.lua derives them */
} pipe;

static double liq_rho(double p) { return P.rho0 * (1.0 + P.beta * (p - P.p_ref)); }

/* The drop's law at the stream's upstream state: the pressure it loses. */
static double drop_dp(const pipe *q, double m, double p_up) {
  double u = m / (liq_rho(p_up) * q->v_ref);
  return 0.5 * P.dp_ref * (u + u * fabs(u));
}

static int rhs(void *ctx, double t, const double *x, double *dx) {
  (void)t;
  const pipe *q = ctx;
  const size_t n = q->n;
  double m_up = x[0], p_up = P.p_in, h_up = q->h_src; /* the stream into cell i */
  double *dm_up = &dx[0];
  for (size_t i = 0; i < n; i++) {
    const double *y = x + 1 + 3 * i;
    double *d = dx + 1 + 3 * i;
    double M = y[0], U = y[1], m = y[2];
    double rho = M / q->V;
    double p = P.p_ref + (rho / P.rho0 - 1.0) / P.beta;
    double h = U / M + p / rho;
    *dm_up = (p_up - drop_dp(q, m_up, p_up) - p) / q->L;
    double h_in = m_up >= 0 ? h_up : h;
    d[0] = m_up - m;
    d[1] = m_up * h_in - m * h;
    m_up = m, p_up = p, h_up = h, dm_up = &d[2];
  }
  *dm_up = (p_up - drop_dp(q, m_up, p_up) - P.p_out) / q->L;
  return 0;
}

/* Start: cell i (from 1) at rest at T0 and p0 = p_in - (p_in - p_out) i /
 * (n + 1), its (M, U) as the Volume's init forms them; --vary as above. */
static void start(const pipe *q, int vary, double *x) {
  x[0] = 0;
  for (size_t k = 0; k < q->n; k++) {
    double i = (double)(k + 1);
    double T0 = vary ? P.T0 + 5.0 * (double)((k + 1) % 7) : P.T0;
    double p0 = P.p_in - (P.p_in - P.p_out) * i / ((double)q->n + 1);
    double h0 = P.cp * (T0 - P.T_ref), rho = liq_rho(p0);
    double *y = x + 1 + 3 * k;
    y[0] = rho * q->V;
    y[1] = y[0] * (h0 - p0 / rho);
    y[2] = vary ? 0.5 * (double)((k + 1) % 5) - 1.0 : 0.0;
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void row(FILE *f, double t, const double *x, size_t len) {
  if (!f) return;
  fprintf(f, "%.17g", t);
  for (size_t j = 0; j < len; j++) fprintf(f, ",%.17g", x[j]);
  fputc('\n', f);
}

static int usage(void) {
  fprintf(stderr, "usage: flat_pipe N STEPS DT [--csv FILE] [--vary]\n");
  return 2;
}

/* A whole number >= lo from text, or -1 after a message. */
static int whole(const char *s, const char *what, unsigned long long lo, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v < lo) {
    fprintf(stderr, "flat_pipe: %s must be a whole number >= %llu, not '%s'\n", what, lo, s);
    return -1;
  }
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) return usage();
  unsigned long long n, steps;
  if (whole(argv[1], "N", 1, &n) || whole(argv[2], "STEPS", 0, &steps)) return 2;
  char *end;
  double dt = strtod(argv[3], &end);
  if (end == argv[3] || *end || !(dt > 0) || !isfinite(dt)) {
    fprintf(stderr, "flat_pipe: DT must be a number > 0, not '%s'\n", argv[3]);
    return 2;
  }
  if (n > (SIZE_MAX / sizeof(double) - 1) / 3 || steps > (unsigned long long)LONG_MAX / 4) {
    fprintf(stderr, "flat_pipe: N = %llu or STEPS = %llu is too large\n", n, steps);
    return 2;
  }
  const char *csv = NULL;
  int vary = 0;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      csv = argv[++i];
    } else if (strcmp(argv[i], "--vary") == 0) {
      vary = 1;
    } else {
      fprintf(stderr, "flat_pipe: unknown argument '%s'\n", argv[i]);
      return usage();
    }
  }
  pipe q = {.n = (size_t)n};
  double area = PIPE_PI * P.d * P.d / 4; /* Lua's math.pi */
  q.V = area * P.dx;
  q.L = P.dx / area;
  q.v_ref = area * 1.0;
  q.h_src = P.cp * (P.T_in - P.T_ref);
  const size_t len = 1 + 3 * q.n;
  double *x = malloc(sizeof *x * len), *y = malloc(sizeof *y * len);
  lied_erk erk = {0};
  lied_err e = {0};
  if (!x || !y || lied_erk_init(&erk, lied_tableau_find("rk4"), len, &e)) {
    fprintf(stderr, "flat_pipe: %s for %zu cells\n", x && y ? e.msg : "out of memory", q.n);
    free(x), free(y);
    lied_erk_free(&erk);
    return 1;
  }
  start(&q, vary, x);
  memcpy(y, x, sizeof *y * len); /* the untimed step */
  lied_erk_step(&erk, rhs, &q, 0.0, dt, y);
  free(y);
  FILE *f = csv ? fopen(csv, "w") : NULL;
  if (csv && !f) {
    fprintf(stderr, "flat_pipe: cannot write %s: %s\n", csv, strerror(errno));
    free(x);
    lied_erk_free(&erk);
    return 1;
  }
  if (f) {
    fprintf(f, "time,src.m_flow");
    for (size_t i = 1; i <= q.n; i++) fprintf(f, ",vol[%zu].M,vol[%zu].U,vol[%zu].m_flow", i, i, i);
    fputc('\n', f);
  }
  row(f, 0.0, x, len);
  long evals0 = erk.nrhs;
  double t0 = now();
  for (unsigned long long k = 0; k < steps; k++) {
    lied_erk_step(&erk, rhs, &q, (double)k * dt, dt, x);
    row(f, (double)(k + 1) * dt, x, len);
  }
  double wall = now() - t0;
  long evals = erk.nrhs - evals0;
  int rc = 0;
  if (f && fclose(f)) {
    fprintf(stderr, "flat_pipe: cannot write %s\n", csv);
    rc = 1;
  }
  printf("cells %zu steps %llu evaluations %ld wall %.6f s per_eval_per_cell %.3f ns\n", q.n, steps,
         evals, wall, evals ? 1e9 * wall / (double)evals / (double)q.n : 0.0);
  free(x);
  lied_erk_free(&erk);
  return rc;
}
