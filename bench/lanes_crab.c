/* lanes_crab.c - the lane-block experiment's crane crab (lanes_crab.h): the
 * same components, blocks, linear section and probing as lied runs for
 * stdlib/cranecrab.lua, with every component's data as structure-of-arrays
 * groups of W copies and every block a loop over the lanes of one group, so
 * that the compiler evaluates several copies per instruction; for the chain
 * (lanes_crabchain.c) also lied's Spring between neighbouring carts, whose
 * neighbour reads go through halo copies of one group's signal shifted by a
 * lane (the next group's first lane, the group before's last). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lanes_crab.h"

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

/* the chain's sum at the cart: the crab's two contributions and the two
 * springs' (same order of additions in every lane) */
static void sum43(void *gp, size_t n) {
  sum_g *s = gp;
  const double *restrict a = s->in1, *restrict b = s->in2, *restrict c = s->in3,
                         *restrict d = s->in4;
  for (size_t v = 0; v < 3; v++)
    for (size_t l = 0; l < n; l++)
      s->out[v][l] = a[v * W + l] + b[v * W + l] + c[v * W + l] + d[v * W + l];
}

/* lied's Spring (src/lib/mechanics/line_force.c, rigid form, zero unstretched
 * length): the tension c s along the unit vector from a to b, +f u on frame_b,
 * -f u on frame_a; at zero length no direction and no force. */
static void spring(void *gp, size_t n) {
  spring_g *k = gp;
  const double *restrict a = k->pos_a, *restrict b = k->pos_b;
  for (size_t l = 0; l < n; l++) {
    double dx = b[l] - a[l], dy = b[W + l] - a[W + l];
    double s = sqrt(dx * dx + dy * dy), inv = s > 0 ? 1 / s : 0;
    double ux = dx * inv, uy = dy * inv, f = k->c[l] * s;
    k->force_b[0][l] = f * ux, k->force_b[1][l] = f * uy, k->force_b[2][l] = 0;
    k->force_a[0][l] = -f * ux, k->force_a[1][l] = -f * uy, k->force_a[2][l] = 0;
  }
}

#define STEP(fn, arr) ((step){fn, (char *)(arr), sizeof *(arr)})

int lanes_model_init(model *M, size_t n, int chain, double kc) {
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
  M->n = n;
  if (chain) {
    c->spring = calloc(G, sizeof *c->spring);
    c->halo = calloc(G, sizeof *c->halo);
    if (!c->spring || !c->halo) return -1;
  }
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
    if (chain) { /* spring i from cart i to cart i + 1 (none after the last) */
      spring_g *k = &c->spring[g];
      k->pos_a = p->pos_b[0], k->pos_b = c->halo[g].pos_next[0];
      s->in3 = k->force_a[0], s->in4 = c->halo[g].f_prev[0];
      for (int l = 0; l < W; l++) k->c[l] = g * W + (size_t)l + 1 < n ? kc : 0.0;
    }
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
  M->section[7] = chain ? STEP(sum43, c->sum) : STEP(sum23, c->sum);
  M->section[8] = STEP(pri_force, c->pri);
  for (int i = 0; i < 7; i++) M->pass_rev[i] = i + 2;
  M->fin[0] = M->section[0], M->fin[1] = M->section[2];
  return 0;
}

void lanes_model_free(model *M) {
  crabs *c = &M->c;
  free(c->fixed), free(c->pri), free(c->body1), free(c->body2), free(c->rev), free(c->rod);
  free(c->sum), free(c->spring), free(c->halo);
}

static inline void run(const step *s, size_t g, size_t n) { s->fn(s->g0 + g * s->size, n); }

void lanes_motion(model *M, size_t g, size_t n) {
  for (int i = 0; i < 3; i++) run(&M->motion[i], g, n);
}

int lanes_section(model *M, size_t g, size_t n) {
  prism_g *p = &M->c.pri[g];
  rev_g *r = &M->c.rev[g];
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


void lanes_states_in(model *M, size_t g, size_t n, const double *y) {
  prism_g *p = &M->c.pri[g];
  rev_g *r = &M->c.rev[g];
  for (size_t l = 0; l < n; l++)
    p->s[l] = y[4 * l], p->v[l] = y[4 * l + 1], r->phi[l] = y[4 * l + 2], r->w[l] = y[4 * l + 3];
}

void lanes_ders_out(model *M, size_t g, size_t n, double *dy) {
  prism_g *p = &M->c.pri[g];
  rev_g *r = &M->c.rev[g];
  for (size_t l = 0; l < n; l++)
    dy[4 * l] = p->der_s[l], dy[4 * l + 1] = p->der_v[l], dy[4 * l + 2] = r->der_phi[l],
    dy[4 * l + 3] = r->der_w[l];
}

void lanes_springs(model *M, size_t g, size_t n) {
  const crabs *c = &M->c;
  halo_g *h = &c->halo[g];
  const prism_g *p = &c->pri[g], *q = g + 1 < c->groups ? &c->pri[g + 1] : NULL;
  for (int v = 0; v < 3; v++) {
    memcpy(h->pos_next[v], p->pos_b[v] + 1, sizeof(double) * (W - 1));
    h->pos_next[v][W - 1] = q ? q->pos_b[v][0] : p->pos_b[v][W - 1];
  }
  spring(&c->spring[g], n);
}

void lanes_spring_halo(model *M, size_t g) {
  const crabs *c = &M->c;
  halo_g *h = &c->halo[g];
  const spring_g *k = &c->spring[g], *j = g ? &c->spring[g - 1] : NULL;
  for (int v = 0; v < 3; v++) {
    h->f_prev[v][0] = j ? j->force_b[v][W - 1] : 0.0;
    memcpy(h->f_prev[v] + 1, k->force_b[v], sizeof(double) * (W - 1));
  }
}
