/* lanes_crab.h - the lane-block experiment's crane crab (lanes_crab.c),
 * shared by lanes_cranecrab.c (n independent crabs, fused steps group by
 * group) and lanes_crabchain.c (the crabs' carts linked by springs, the
 * neighbours read through halo copies): every component's data as
 * structure-of-arrays groups of W copies, every block a loop over the lanes
 * of a group, ports pointers to the source group's signal (variable v of
 * lane l at [v * W + l]). */
#ifndef LIED_BENCH_LANES_CRAB_H
#define LIED_BENCH_LANES_CRAB_H
#include <stddef.h>

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
typedef struct sum_g { const double *in1, *in2, *in3, *in4; sig3 out; } sum_g; /* in3, in4: chain */
/* the chain's spring between crabs i and i + 1 (lanes_crabchain): frame_a at crab i's
 * cart, frame_b at crab i + 1's (read through pos_next, a halo of the next group) */
typedef struct spring_g { const double *pos_a, *pos_b; sig3 force_a, force_b; lane c; } spring_g;
/* halos: the next crab's cart position for group g's springs, the force of the
 * spring before for group g's carts (lane 0 from the group before) */
typedef struct halo_g { sig3 pos_next, f_prev; } halo_g;

/* one crab's components, n / W groups each (arenas per component, as in lied) */
typedef struct crabs {
  size_t groups;
  fixed_g *fixed;
  prism_g *pri;
  body_g *body1, *body2;
  rev_g *rev;
  ft_g *rod;
  sum_g *sum;
  spring_g *spring; /* the chain only (else NULL) */
  halo_g *halo;
} crabs;

typedef void (*lane_fn)(void *g, size_t n);

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
  size_t n; /* crabs */
} model;

/* Groups for n crabs (independent, or with chain = 1 the carts linked by
 * springs of stiffness c, zero unstretched length): 0, or -1 (no memory). */
int lanes_model_init(model *M, size_t n, int chain, double c);
void lanes_model_free(model *M);
/* The states (s, v, phi, w per crab, y from copy q0 = g W) into group g's
 * lanes, and its derivatives out into dy. */
void lanes_states_in(model *M, size_t g, size_t n, const double *y);
void lanes_ders_out(model *M, size_t g, size_t n, double *dy);
/* Group g's motion blocks (positions, velocities: before the section). */
void lanes_motion(model *M, size_t g, size_t n);
/* The chain: group g's halo of the next carts' positions and its springs
 * (every group's motion done for g and g + 1), then the halo of the forces
 * of the springs before (every group's springs done for g - 1 and g). */
void lanes_springs(model *M, size_t g, size_t n);
void lanes_spring_halo(model *M, size_t g);
/* Group g's section, probed as lied probes it, and the final blocks: 0, or
 * -1 if a section is singular. */
int lanes_section(model *M, size_t g, size_t n);
#endif
