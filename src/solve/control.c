/* control.c - PI step-size control and error weights of the adaptive solvers. */
#include <math.h>
#include "solve/stepper.h"

static const double SAFETY = 0.9, FAC_MIN = 0.2;

void lied_ctrl_init(lied_ctrl *c, int err_order, int implicit) {
  c->k = err_order;
  c->err_prev = 1e-4;
  c->rejected = 0;
  c->fac_max = implicit ? 5.0 : 10.0;
}

/* Gustafsson's PI controller as in Hairer and Wanner (IV.2): h_new = h *
 * safety * err^(-0.7/k) * err_prev^(0.4/k), limited, no growth right after a
 * rejection. */
double lied_ctrl_accept(lied_ctrl *c, double err) {
  double e = fmax(err, 1e-10);
  double fac = SAFETY * pow(e, -0.7 / c->k) * pow(c->err_prev, 0.4 / c->k);
  fac = fmin(c->fac_max, fmax(FAC_MIN, fac));
  if (c->rejected) fac = fmin(fac, 1.0);
  c->err_prev = fmax(err, 1e-4);
  c->rejected = 0;
  return fac;
}

double lied_ctrl_reject(lied_ctrl *c, double err) {
  c->rejected = 1;
  if (!isfinite(err)) return 0.25;
  return fmax(FAC_MIN, SAFETY * pow(err, -1.0 / c->k));
}

void lied_weights(uint64_t n, const double *x, const double *y, double rtol, double atol,
                  double *w) {
  for (uint64_t i = 0; i < n; i++) {
    double a = fabs(x[i]);
    if (y && fabs(y[i]) > a) a = fabs(y[i]);
    w[i] = 1.0 / (atol + rtol * a);
  }
}
