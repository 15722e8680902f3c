/* fused.c - fixed-step explicit Runge-Kutta fused with an aligned schedule:
 * every stage of a step for one chunk of copies, then the next chunk (see
 * fused.h). */
#include "solve/fused.h"
#include <stdlib.h>
#include <string.h>
#include "sched/transfer.h"
#include "solve/erk.h"

int lied_fused_applies(const lied_sched *s) { return s->aligned && s->nsmap > 0; }

int lied_fused_init(lied_fused *f, lied_sched *s, const lied_tableau *tab) {
  memset(f, 0, sizeof *f);
  if (!tab || !tab->explicit_ || tab->stages < 1) return -1;
  size_t width = 0;
  for (int m = 0; m < s->nsmap; m++) width += (size_t)s->smap[m].n;
  f->s = s;
  f->tab = tab;
  f->n = s->nstates;
  f->width = width;
  f->k = calloc((size_t)tab->stages * width * s->chunk, sizeof *f->k);
  f->y = calloc(width * s->chunk, sizeof *f->y);
  f->xnew = f->n <= SIZE_MAX / sizeof(double) ? calloc(f->n + 1, sizeof *f->xnew) : NULL;
  if (!f->k || !f->y || !f->xnew) {
    lied_fused_free(f);
    return -1;
  }
  return 0;
}

void lied_fused_free(lied_fused *f) {
  free(f->k);
  free(f->y);
  free(f->xnew);
  memset(f, 0, sizeof *f);
}

/* Where state map sm's part of one stage of one chunk starts in the stage
 * buffers: the chunk is laid out like x, state map after state map (every
 * map has aligned_n instances, so the states per copy before sm are
 * x0 / aligned_n). */
static size_t chunk_off(const lied_sched *s, const lied_state_map *sm) {
  return (size_t)(sm->x0 / s->aligned_n) * s->chunk;
}

int lied_fused_step(lied_fused *f, double t, double h, double *x, lied_err *e) {
  lied_sched *s = f->s;
  const lied_tableau *tab = f->tab;
  const int ns = tab->stages;
  const uint64_t total = s->aligned_n, chunk = s->chunk;
  const size_t kst = f->width * chunk; /* one stage of one chunk */
  s->full = 0;
  for (uint64_t q0 = 0; q0 < total; q0 += chunk) {
    const uint64_t n = total - q0 < chunk ? total - q0 : chunk;
    for (int i = 0; i < ns; i++) {
      /* the stage's states into the instances */
      for (int m = 0; m < s->nsmap; m++) {
        const lied_state_map *sm = &s->smap[m];
        const double *xs = x + sm->x0 + q0 * (uint64_t)sm->n;
        char *inst = sm->base + q0 * sm->stride;
        if (i == 0) { /* the first stage is x itself */
          lied_states_in(sm, xs, inst, n);
        } else {
          lied_rk_combine((size_t)n * (size_t)sm->n, xs, h, tab->a + (size_t)i * (size_t)ns, i,
                          f->k + chunk_off(s, sm), kst, f->y);
          lied_states_in(sm, f->y, inst, n);
        }
      }
      const lied_env env = {t + tab->c[i] * h};
      if (lied_sched_run_chunk(s, &env, q0, n, e)) return -1;
      for (int m = 0; m < s->nsmap; m++) {
        const lied_state_map *sm = &s->smap[m];
        lied_ders_out(sm, f->k + (size_t)i * kst + chunk_off(s, sm), sm->base + q0 * sm->stride,
                      n);
      }
    }
    for (int m = 0; m < s->nsmap; m++) {
      const lied_state_map *sm = &s->smap[m];
      const uint64_t x0 = sm->x0 + q0 * (uint64_t)sm->n;
      lied_rk_combine((size_t)n * (size_t)sm->n, x + x0, h, tab->b, ns, f->k + chunk_off(s, sm),
                      kst, f->xnew + x0);
    }
  }
  s->st.evaluations += (uint64_t)ns;
  if (f->n) memcpy(x, f->xnew, sizeof *x * f->n);
  return 0;
}
