/* lanes_cranecrab.c - what lane blocks would give: n crane crabs evaluated
 * the LIED way (the same components, blocks, linear section and probing as
 * lied runs for examples/scaling.lua), but with every component's data laid
 * out as structure-of-arrays groups of W copies ("lanes") and every block
 * written as a loop over the lanes of one group, so that the compiler
 * evaluates several copies per instruction. Ports are pointers to the
 * source group's signal (variable v of lane l at [v * W + l]).
 *
 *   lanes_cranecrab N STEPS DT [--csv FILE] [--vary]   (see crab_driver.h)
 *
 * The blocks are separate functions called through pointers in schedule
 * order, as lied's are; the section is probed as lied
 * probes it: a pass with both tearing variables at 0 over its 9 members, a
 * column pass for the revolute's (7 members downstream) and one for the
 * prismatic's (all 9), Cramer's rule per lane, a final pass over the two
 * members whose results leave the section. Integration: fused RK4 steps
 * chunk by chunk, stages formed by lied_rk_combine, as lied does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crab_driver.h"
#include "solve/erk.h"

#define W 32 /* lanes per group (lied's chunk) */

typedef double lane[W];
/* a frame signal: 3 variables of W lanes */
typedef lane sig3[3];

typedef struct fixed_g { sig3 pos, vel, acc; const double *force; } fixed_g;
typedef struct prism_g {
  const double *pos_a, *vel_a, *acc_a; sig3 force_a;        /* frame_a */
  sig3 pos_b, vel_b, acc_b; const double *force_b;          /* frame_b */
  lane s, der_s, v, der_v, a, res, ex, ey, dx, dy, cx, cy, F;
} prism_g;
typedef struct rev_g {
  const double *pos_a, *vel_a, *acc_a; sig3 force_a;
  sig3 pos_b, vel_b, acc_b; const double *force_b;
  lane phi, der_phi, w, der_w, a, res, tau;
} rev_g;
typedef struct ft_g {
  const double *pos_a, *vel_a, *acc_a; sig3 force_a;
  sig3 pos_b, vel_b, acc_b; const double *force_b;
  lane rx, ry, cx, cy, r0, r1;
} ft_g;
typedef struct body_g { const double *acc; sig3 force; lane m, I, g0, g1; } body_g;
typedef struct sum_g { const double *in1, *in2; sig3 out; } sum_g;

/* one crab's components, n / W groups each (arenas per component, as in lied) */
typedef struct crabs {
  size_t groups;
  fixed_g *fixed;
  prism_g *pri;
  body_g *body1, *body2;
  rev_g *rev;
  ft_g *rod;
  sum_g *sum;
} crabs;

typedef void (*lane_fn)(void *g, size_t n);

#define V(p, v) ((p) + (v) * W) /* variable v of a signal */

static void pri_motion(void *gp, size_t n) {
  prism_g *j = gp;
  const double *restrict px = V(j->pos_a, 0), *restrict py = V(j->pos_a, 1),
                         *restrict pp = V(j->pos_a, 2);
  const double *restrict qx = V(j->vel_a, 0), *restrict qy = V(j->vel_a, 1),
                         *restrict qw = V(j->vel_a, 2);
  for (size_t l = 0; l < n; l++) {
    double ex = j->ex[l], ey = j->ey[l], v = j->v[l], w = qw[l];
    double dx = j->s[l] * ex, dy = j->s[l] * ey;
    j->dx[l] = dx, j->dy[l] = dy;
    j->pos_b[0][l] = px[l] + dx, j->pos_b[1][l] = py[l] + dy, j->pos_b[2][l] = pp[l];
    j->vel_b[0][l] = qx[l] - w * dy + v * ex, j->vel_b[1][l] = qy[l] + w * dx + v * ey;
    j->vel_b[2][l] = w;
    double w2 = w * w, wv2 = 2 * w * v;
    j->cx[l] = -w2 * dx - wv2 * ey, j->cy[l] = -w2 * dy + wv2 * ex;
    j->der_s[l] = v;
  }
}

static void pri_acc(void *gp, size_t n) {
  prism_g *j = gp;
  const double *restrict ax = V(j->acc_a, 0), *restrict ay = V(j->acc_a, 1),
                         *restrict az = V(j->acc_a, 2);
  for (size_t l = 0; l < n; l++) {
    double z = az[l], a = j->a[l];
    j->acc_b[0][l] = ax[l] - z * j->dy[l] + j->cx[l] + a * j->ex[l];
    j->acc_b[1][l] = ay[l] + z * j->dx[l] + j->cy[l] + a * j->ey[l];
    j->acc_b[2][l] = z;
    j->der_v[l] = a;
  }
}

static void pri_force(void *gp, size_t n) {
  prism_g *j = gp;
  const double *restrict fx = V(j->force_b, 0), *restrict fy = V(j->force_b, 1),
                         *restrict ft = V(j->force_b, 2);
  for (size_t l = 0; l < n; l++) {
    j->force_a[0][l] = fx[l], j->force_a[1][l] = fy[l];
    j->force_a[2][l] = ft[l] + j->dx[l] * fy[l] - j->dy[l] * fx[l];
    j->res[l] = fx[l] * j->ex[l] + fy[l] * j->ey[l] - j->F[l];
  }
}

static void rev_motion(void *gp, size_t n) {
  rev_g *j = gp;
  const double *restrict p = j->pos_a, *restrict q = j->vel_a;
  for (size_t l = 0; l < n; l++) {
    j->pos_b[0][l] = p[l], j->pos_b[1][l] = p[W + l], j->pos_b[2][l] = p[2 * W + l] + j->phi[l];
    j->vel_b[0][l] = q[l], j->vel_b[1][l] = q[W + l], j->vel_b[2][l] = q[2 * W + l] + j->w[l];
    j->der_phi[l] = j->w[l];
  }
}

static void rev_acc(void *gp, size_t n) {
  rev_g *j = gp;
  const double *restrict a = j->acc_a;
  for (size_t l = 0; l < n; l++) {
    j->acc_b[0][l] = a[l], j->acc_b[1][l] = a[W + l], j->acc_b[2][l] = a[2 * W + l] + j->a[l];
    j->der_w[l] = j->a[l];
  }
}

static void rev_force(void *gp, size_t n) {
  rev_g *j = gp;
  const double *restrict f = j->force_b;
  for (size_t l = 0; l < n; l++) {
    j->force_a[0][l] = f[l], j->force_a[1][l] = f[W + l], j->force_a[2][l] = f[2 * W + l];
    j->res[l] = f[2 * W + l] - j->tau[l];
  }
}

static void ft_motion(void *gp, size_t n) {
  ft_g *j = gp;
  const double *restrict p = j->pos_a, *restrict v = j->vel_a;
  for (size_t l = 0; l < n; l++) {
    double c = cos(p[2 * W + l]), s = sin(p[2 * W + l]);
    double rx = c * j->r0[l] - s * j->r1[l], ry = s * j->r0[l] + c * j->r1[l];
    double w = v[2 * W + l];
    j->rx[l] = rx, j->ry[l] = ry;
    j->pos_b[0][l] = p[l] + rx, j->pos_b[1][l] = p[W + l] + ry, j->pos_b[2][l] = p[2 * W + l];
    j->vel_b[0][l] = v[l] - w * ry, j->vel_b[1][l] = v[W + l] + w * rx, j->vel_b[2][l] = w;
    j->cx[l] = -w * w * rx, j->cy[l] = -w * w * ry;
  }
}

static void ft_acc(void *gp, size_t n) {
  ft_g *j = gp;
  const double *restrict a = j->acc_a;
  for (size_t l = 0; l < n; l++) {
    double z = a[2 * W + l];
    j->acc_b[0][l] = a[l] - z * j->ry[l] + j->cx[l];
    j->acc_b[1][l] = a[W + l] + z * j->rx[l] + j->cy[l];
    j->acc_b[2][l] = z;
  }
}

static void ft_force(void *gp, size_t n) {
  ft_g *j = gp;
  const double *restrict f = j->force_b;
  for (size_t l = 0; l < n; l++) {
    double fx = f[l], fy = f[W + l];
    j->force_a[0][l] = fx, j->force_a[1][l] = fy;
    j->force_a[2][l] = f[2 * W + l] + j->rx[l] * fy - j->ry[l] * fx;
  }
}

static void body_force(void *gp, size_t n) {
  body_g *b = gp;
  const double *restrict a = b->acc;
  for (size_t l = 0; l < n; l++) {
    b->force[0][l] = b->m[l] * (a[l] - b->g0[l]);
    b->force[1][l] = b->m[l] * (a[W + l] - b->g1[l]);
    b->force[2][l] = b->I[l] * a[2 * W + l];
  }
}

static void sum23(void *gp, size_t n) {
  sum_g *s = gp;
  const double *restrict a = s->in1, *restrict b = s->in2;
  for (size_t v = 0; v < 3; v++)
    for (size_t l = 0; l < n; l++) s->out[v][l] = a[v * W + l] + b[v * W + l];
}

/* one scheduled block: function and its group in chunk 0, stride per chunk */
typedef struct step {
  lane_fn fn;
  char *g0;
  size_t size;
} step;

typedef struct model {
  crabs c;
  step motion[3], section[9];
  int pass_rev[7]; /* members downstream of the revolute's tearing variable */
  step fin[2];
  double kbuf[4 * 4 * W], y[4 * W];
} model;

#define STEP(fn, arr) ((step){fn, (char *)(arr), sizeof *(arr)})

static int model_init(model *M, size_t n) {
  crabs *c = &M->c;
  size_t G = (n + W - 1) / W;
  c->groups = G;
  c->fixed = calloc(G, sizeof *c->fixed);
  c->pri = calloc(G, sizeof *c->pri);
  c->body1 = calloc(G, sizeof *c->body1);
  c->body2 = calloc(G, sizeof *c->body2);
  c->rev = calloc(G, sizeof *c->rev);
  c->rod = calloc(G, sizeof *c->rod);
  c->sum = calloc(G, sizeof *c->sum);
  if (!c->fixed || !c->pri || !c->body1 || !c->body2 || !c->rev || !c->rod || !c->sum) return -1;
  for (size_t g = 0; g < G; g++) {
    fixed_g *f = &c->fixed[g];
    prism_g *p = &c->pri[g];
    body_g *b1 = &c->body1[g], *b2 = &c->body2[g];
    rev_g *r = &c->rev[g];
    ft_g *t = &c->rod[g];
    sum_g *s = &c->sum[g];
    /* the connections of stdlib/cranecrab.lua */
    p->pos_a = f->pos[0], p->vel_a = f->vel[0], p->acc_a = f->acc[0], f->force = p->force_a[0];
    b1->acc = p->acc_b[0];
    r->pos_a = p->pos_b[0], r->vel_a = p->vel_b[0], r->acc_a = p->acc_b[0];
    s->in1 = b1->force[0], s->in2 = r->force_a[0], p->force_b = s->out[0];
    t->pos_a = r->pos_b[0], t->vel_a = r->vel_b[0], t->acc_a = r->acc_b[0];
    r->force_b = t->force_a[0];
    b2->acc = t->acc_b[0], t->force_b = b2->force[0];
    for (int l = 0; l < W; l++) {
      p->ex[l] = 1, p->ey[l] = 0; /* e = {1, 0} from the fixed frame: constant part */
      b1->m[l] = 1.0, b1->I[l] = 0.1, b1->g0[l] = 0, b1->g1[l] = -9.81;
      b2->m[l] = 0.5, b2->I[l] = 0.05, b2->g0[l] = 0, b2->g1[l] = -9.81;
      t->r0[l] = 0.5, t->r1[l] = 1.5;
    }
  }
  M->motion[0] = STEP(pri_motion, c->pri);
  M->motion[1] = STEP(rev_motion, c->rev);
  M->motion[2] = STEP(ft_motion, c->rod);
  /* section order as lied schedules it */
  M->section[0] = STEP(pri_acc, c->pri);
  M->section[1] = STEP(body_force, c->body1);
  M->section[2] = STEP(rev_acc, c->rev);
  M->section[3] = STEP(ft_acc, c->rod);
  M->section[4] = STEP(body_force, c->body2);
  M->section[5] = STEP(ft_force, c->rod);
  M->section[6] = STEP(rev_force, c->rev);
  M->section[7] = STEP(sum23, c->sum);
  M->section[8] = STEP(pri_force, c->pri);
  for (int i = 0; i < 7; i++) M->pass_rev[i] = i + 2;
  M->fin[0] = M->section[0], M->fin[1] = M->section[2];
  return 0;
}

static void model_free(model *M) {
  crabs *c = &M->c;
  free(c->fixed), free(c->pri), free(c->body1), free(c->body2), free(c->rev), free(c->rod);
  free(c->sum);
}

static inline void run(const step *s, size_t g, size_t n) { s->fn(s->g0 + g * s->size, n); }

/* derivatives of group g (states in its lanes already); -1 if a section is
 * singular */
static int eval_group(model *M, size_t g, size_t n) {
  prism_g *p = &M->c.pri[g];
  rev_g *r = &M->c.rev[g];
  for (int i = 0; i < 3; i++) run(&M->motion[i], g, n);
  double b0[W], b1[W], a00[W], a10[W];
  for (size_t l = 0; l < n; l++) p->a[l] = 0, r->a[l] = 0;
  for (int i = 0; i < 9; i++) run(&M->section[i], g, n);
  for (size_t l = 0; l < n; l++) b0[l] = p->res[l], b1[l] = r->res[l], r->a[l] = 1;
  for (int i = 0; i < 7; i++) run(&M->section[M->pass_rev[i]], g, n);
  for (size_t l = 0; l < n; l++) {
    a00[l] = p->res[l] - b0[l], a10[l] = r->res[l] - b1[l]; /* column of the revolute's */
    r->a[l] = 0, p->a[l] = 1;
  }
  for (int i = 0; i < 9; i++) run(&M->section[i], g, n);
  int bad = 0;
  for (size_t l = 0; l < n; l++) {
    /* A: rows (pri, rev) residuals, columns (pri, rev) tearing variables */
    double m11 = p->res[l] - b0[l], m21 = r->res[l] - b1[l], m12 = a00[l], m22 = a10[l];
    double det = m11 * m22 - m12 * m21, rd = 1.0 / det;
    /* lied's singularity test: |det| > 2 eps max|a_ij|^2 */
    double x1 = fabs(m11), x2 = fabs(m12), x3 = fabs(m21), x4 = fabs(m22);
    x1 = x1 > x2 ? x1 : x2, x3 = x3 > x4 ? x3 : x4;
    double mx = x1 > x3 ? x1 : x3;
    bad |= !(fabs(det) > 2.0 * 2.220446049250313e-16 * mx * mx);
    p->a[l] = -(m22 * b0[l] - m12 * b1[l]) * rd;
    r->a[l] = -(m11 * b1[l] - m21 * b0[l]) * rd;
  }
  for (int i = 0; i < 2; i++) run(&M->fin[i], g, n);
  return bad ? -1 : 0;
}

/* nsteps RK4 steps, group by group, each group through all of them (x per
 * crab: s, v, phi, w); x is replaced only when every group succeeded */
static int step_rk4(model *M, const lied_tableau *tab, double h, long nsteps, double *x,
                    double *xnew, size_t ncrab) {
  const int ns = tab->stages;
  for (size_t g = 0; g < M->c.groups; g++) {
    size_t q0 = g * W, n = ncrab - q0 < W ? ncrab - q0 : W;
    prism_g *p = &M->c.pri[g];
    rev_g *r = &M->c.rev[g];
    double *xs = x + 4 * q0;
    for (long j = 0; j < nsteps; j++) {
      if (j == 1) xs = xnew + 4 * q0; /* later steps go on from the new state */
      for (int i = 0; i < ns; i++) {
        const double *y = xs;
        if (i) {
          lied_rk_combine(4 * n, xs, h, tab->a + (size_t)i * (size_t)ns, i, M->kbuf, 4 * W, M->y);
          y = M->y;
        }
        for (size_t l = 0; l < n; l++)
          p->s[l] = y[4 * l], p->v[l] = y[4 * l + 1], r->phi[l] = y[4 * l + 2], r->w[l] = y[4 * l + 3];
        if (eval_group(M, g, n)) return -1;
        double *k = M->kbuf + (size_t)i * 4 * W;
        for (size_t l = 0; l < n; l++)
          k[4 * l] = p->der_s[l], k[4 * l + 1] = p->der_v[l], k[4 * l + 2] = r->der_phi[l],
          k[4 * l + 3] = r->der_w[l];
      }
      lied_rk_combine(4 * n, xs, h, tab->b, ns, M->kbuf, 4 * W, xnew + 4 * q0);
    }
  }
  memcpy(x, xnew, sizeof *x * 4 * ncrab);
  return 0;
}

typedef struct lanes_ctx {
  model *M;
  const lied_tableau *tab;
  double *xnew;
  size_t n;
} lanes_ctx;

static int lanes_step(void *ctx, double t, double h, long nsteps, double *x) {
  (void)t;
  lanes_ctx *c = ctx;
  return step_rk4(c->M, c->tab, h, nsteps, x, c->xnew, c->n);
}

int main(int argc, char **argv) {
  crab_args a;
  int rc = crab_parse(argc, argv, "lanes_cranecrab", &a);
  if (rc) return rc;
  lanes_ctx c = {calloc(1, sizeof(model)), lied_tableau_find("rk4"),
                 calloc(4 * a.n, sizeof(double)), a.n};
  double *x = calloc(4 * a.n, sizeof *x);
  if (!c.M || !x || !c.xnew || model_init(c.M, a.n)) {
    fprintf(stderr, "lanes_cranecrab: out of memory for %zu crabs\n", a.n);
    return 1;
  }
  rc = crab_drive("lanes_cranecrab", &a, x, lanes_step, &c, c.tab->stages);
  model_free(c.M);
  free(c.M), free(x), free(c.xnew);
  return rc;
}
