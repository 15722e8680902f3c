/* window.c - scheduling coupled arrays from a window.
 *
 * A chain of n crabs linked by n - 1 springs, a pipe of n cells: arrays of
 * nearly equal length (n, n - 1, n - 2 framework sums) whose copies are
 * wired alike except near the ends. Their block graph is the same, shifted
 * by one instance, from copy to copy away from the ends, and so is their
 * schedule: each step covers the whole interior of its array. So the graph
 * of a window is scheduled instead of the whole graph: of every such array
 * ("shrunk" spec) the instances [0, C) and [C + S, total), which the graph
 * numbers 0 .. total - S - 1, as if the S instances [C, C + S) had been cut
 * out and the two ends joined. A read that crosses the cut (copy C - 1
 * reads copy C) lands on the graph's instance C, that is copy C + S, which
 * is wired as copy C is. Then every step and section batch of the window
 * that runs across the cut gets S more instances, those after it move by
 * S, and the rest stay: the schedule of the whole graph, in time and
 * memory of the window (a few hundred instances per array) plus one pass
 * over the reading pointers.
 *
 * What is checked, so that the result is the whole graph's schedule:
 * - away from the ends (WIN_ENDS instances), every reading pointer of a
 *   shrunk spec moves by one instance of its source from one copy to the
 *   next (or stays: a component every copy reads, zeros); pointer by
 *   pointer, without allocating;
 * - every read of the window's instances maps into the window: nothing
 *   reads far across the cut (a periodic chain's last link reads copy 0,
 *   a component reading every copy reads the cut-out ones: whole graph);
 * - the window's schedule is the same across its cut: every step or
 *   section batch that holds an instance within M of the cut holds all of
 *   them. If the level of a block changed along the array (a signal passed
 *   from copy to copy through blocks), two instances near the cut would be
 *   at different levels; the window reaches far enough from the cut
 *   (C >= ends + blocks per copy * reach + M) that every path that could
 *   set such a level lies inside it. Otherwise the whole graph is
 *   scheduled.
 * S is a whole number of chunks, so lags rounded to chunk boundaries
 * (skew.c) are the same. skew.c takes the distance between two copies as
 * the window has it (the window keeps it), and between a copy and a
 * component outside the arrays in the model's coordinates (a copy after
 * the cut S further on), which the window does not keep. Grids (links i
 * to i + row length, ends at every row) are not regular in this sense and
 * take the whole graph. */
#include <stdlib.h>
#include "core/assert.h"
#include "sched/sbuild.h"

enum {
  WIN_ENDS = LIED_REGULAR_ENDS, /* instances at each end of an array that may be wired otherwise */
};

static uintptr_t read_at(const lied_spec *sp, uint64_t i, uint32_t off) {
  return (uintptr_t)PTR_AT(lied_inst(sp, i), off);
}

/* Does every instance of shrunk spec sp away from its ends read, through
 * every port input, what the instance before reads moved by one instance of
 * the source (or the same thing)? *reach: the largest distance between a
 * reader's and its source's instance index. */
static int regular_reads(const lied_sb *b, const lied_spec *sp, uint64_t *reach) {
  const lied_model *m = b->m;
  const lied_template *t = &sp->tpl;
  const uint64_t n = sp->total, mid = n / 2;
  for (int k = 0; k < t->nblocks; k++)
    for (uint32_t r = t->blocks[k].in0; r < t->blocks[k].in0 + t->blocks[k].nin; r++) {
      if (t->refs[r].kind != LIED_REF_PORT) continue;
      const uint32_t off = t->refs[r].offset;
      const uintptr_t pm = read_at(sp, mid, off), step = pm - read_at(sp, mid - 1, off);
      uint64_t q, q1;
      uint32_t o, o1;
      int s2 = lied_model_locate(m, b->order, b->norder, (const void *)pm, &q, &o);
      if (step) { /* source instance q + i - mid: within one shrunk spec */
        if (s2 < 0 || !b->wshrunk[s2] || step != m->specs[s2].size) return 0;
        const uintptr_t last = read_at(sp, n - WIN_ENDS - 1, off);
        if (lied_model_locate(m, b->order, b->norder, (const void *)last, &q1, &o1) != s2 ||
            o1 != o || q1 - q != n - WIN_ENDS - 1 - mid)
          return 0;
        const uint64_t d = q > mid ? q - mid : mid - q;
        if (d > *reach) *reach = d;
      }
      for (uint64_t i = WIN_ENDS; i < n - WIN_ENDS; i++)
        if (read_at(sp, i, off) != pm + (i - mid) * step) return 0;
    }
  return 1;
}

uint64_t lied_sb_wmap(const lied_sb *b, int rspec, uint64_t rg, int tspec, uint64_t q) {
  if (!b->wshift || !b->wshrunk[tspec]) return q;
  const uint64_t C = b->wcut, S = b->wshift, M = b->wmargin;
  if (b->wshrunk[rspec]) { /* near the cut on its side, or across it */
    if (rg >= C) return q >= C + S - M ? q - S : UINT64_MAX;
    return q < C + M ? q : UINT64_MAX;
  }
  if (q < C) return q; /* a component outside the arrays: the window's copies only */
  return q >= C + S ? q - S : UINT64_MAX;
}

/* Does every port read of the window's instances map into the window? */
static int window_reads_map(const lied_sb *b) {
  const lied_model *m = b->m;
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (!sp->cls || !sp->tpl.nblocks || !sp->total) continue;
    const lied_template *t = &sp->tpl;
    const uint64_t cnt = lied_sb_count(b, sp);
    for (uint64_t g = 0; g < cnt; g++) {
      const char *inst = lied_inst(sp, lied_sb_real(b, s, g));
      for (int k = 0; k < t->nblocks; k++)
        for (uint32_t r = t->blocks[k].in0; r < t->blocks[k].in0 + t->blocks[k].nin; r++) {
          if (t->refs[r].kind != LIED_REF_PORT) continue;
          uint64_t q;
          uint32_t o;
          int s2 = lied_model_locate(m, b->order, b->norder, PTR_AT(inst, t->refs[r].offset),
                                     &q, &o);
          if (s2 >= 0 && lied_sb_wmap(b, s, g, s2, q) == UINT64_MAX) return 0;
        }
    }
  }
  return 1;
}

int lied_sb_window(lied_sb *b) {
  const lied_model *m = b->m;
  const uint64_t CH = LIED_PROBE_CHUNK;
  b->wshift = b->wcut = 0;
  uint64_t nmax = 0;
  for (int s = 0; s < m->nspecs; s++)
    if (m->specs[s].cls && m->specs[s].total > nmax) nmax = m->specs[s].total;
  if (nmax < 16 * CH) return LIED_OK; /* the whole graph is small */
  b->wshrunk = lied_xcalloc((size_t)m->nspecs, 1, "schedule: window", b->e);
  if (!b->wshrunk) return LIED_E_NOMEM;
  uint64_t nmin = nmax, reach = 0, per = 0;
  for (int s = 0; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (!sp->cls || sp->total + 2 * WIN_ENDS < nmax) continue;
    b->wshrunk[s] = 1;
    if (sp->total < nmin) nmin = sp->total;
    per += (uint64_t)sp->tpl.nblocks;
  }
  /* what is found regular holds whether or not the window is taken: the
   * lane rings need not scan it again (lanering.c, regular_run) */
  lied_sched *sc = b->s;
  free(sc->regular);
  sc->regular = lied_xcalloc((size_t)m->nspecs, 1, "schedule: window", b->e);
  if (!sc->regular) return LIED_E_NOMEM;
  int ok = 1;
  for (int s = 0; s < m->nspecs && ok; s++)
    if (b->wshrunk[s] && m->specs[s].tpl.nblocks)
      sc->regular[s] = (uint8_t)(ok = regular_reads(b, &m->specs[s], &reach));
  const uint64_t M = reach + CH;
  const uint64_t C = (WIN_ENDS + per * (reach ? reach : 1) + M + CH - 1) / CH * CH;
  if (ok && nmin >= 4 * C) { /* worth it: the window is at most half */
    b->wcut = C;
    b->wmargin = M;
    b->wshift = (nmin - 2 * C) / CH * CH;
    /* whole chunks (the lags stay), the margin within the window's half */
    LIED_ASSERT(C % CH == 0 && b->wshift % CH == 0 && M < C && 2 * C + b->wshift <= nmin);
    ok = window_reads_map(b);
  }
  if (!ok || !b->wshift) {
    free(b->wshrunk);
    b->wshrunk = NULL;
    b->wshift = b->wcut = b->wmargin = 0;
  }
  return LIED_OK;
}

/* ---- stretching the window's schedule ------------------------------------ */

enum { W_LOW, W_HIGH, W_ACROSS, W_BAD };

/* Where instances [a, a + n) of a shrunk spec lie against the cut: below
 * it, above it, across it with M to spare on both sides, or too near it. */
static int side(const lied_sb *b, uint64_t a, uint64_t n) {
  const uint64_t C = b->wcut, M = b->wmargin;
  LIED_ASSERT(M < C);
  if (a + n <= C - M) return W_LOW;
  if (a >= C + M) return W_HIGH;
  return a <= C - M && a + n >= C + M ? W_ACROSS : W_BAD;
}

/* The spec holding p (graph instance in *inst: the window's pointers are
 * those of instances 0 .. count - 1 until stretched). */
static int spec_at(const lied_sb *b, const void *p, uint64_t *inst) {
  uint32_t off;
  return lied_model_locate(b->m, b->order, b->norder, p, inst, &off);
}

/* The side of section batch sec (members and tearing pairs agreeing), or
 * W_BAD; *outside: a member of a spec that is not shrunk. */
static int section_side(const lied_sb *b, const lied_section *sec, int *outside) {
  int w = -1;
  *outside = 0;
  for (int k = 0; k < sec->nblk + sec->k; k++) {
    uint64_t q;
    int sp;
    if (k < sec->nblk)
      sp = spec_at(b, sec->blk[k].base, &q);
    else
      sp = sec->pairs[k - sec->nblk].spec, q = sec->pairs[k - sec->nblk].inst0;
    if (sp < 0 || !b->wshrunk[sp]) {
      *outside = 1;
      continue;
    }
    const int ws = side(b, q, sec->count);
    if (ws == W_BAD || (w >= 0 && ws != w)) return W_BAD;
    w = ws;
  }
  if (w < 0) return W_LOW; /* nothing of the arrays: stays */
  return w == W_ACROSS && *outside ? W_BAD : w;
}

/* Section batch sec moved S instances up (its shrunk members and pairs). */
static void move_section(const lied_sb *b, lied_section *sec) {
  const uint64_t S = b->wshift;
  for (int k = 0; k < sec->nblk; k++) {
    uint64_t q;
    int sp = spec_at(b, sec->blk[k].base, &q);
    if (sp >= 0 && b->wshrunk[sp]) sec->blk[k].base += S * sec->blk[k].stride;
  }
  for (int p = 0; p < sec->k; p++) {
    lied_sec_pair *pr = &sec->pairs[p];
    if (!b->wshrunk[pr->spec]) continue;
    pr->tear = (double *)(void *)((char *)pr->tear + S * pr->tstride);
    pr->res = (double *)(void *)((char *)pr->res + S * pr->rstride);
    pr->inst0 += S;
  }
}

/* A section batch S sections longer: its counts. */
static void lengthen_section(const lied_sb *b, lied_section *sec, int part) {
  const uint64_t S = b->wshift;
  lied_sched_stats *st = &b->s->st;
  sec->count += S;
  for (int k = 0; k < sec->nblk; k++) {
    uint64_t q;
    int sp = spec_at(b, sec->blk[k].base, &q);
    if (!b->m->specs[sp].internal) st->blocks[part] += S;
  }
  st->sections += S;
  st->tears += S * (uint64_t)sec->k;
  st->section_size[sec->k < LIED_SEC_HIST ? sec->k : LIED_SEC_HIST] += S;
  st->constant_sections += sec->constant ? S : 0;
  st->column_blocks += S * (uint64_t)sec->pstart[sec->k];
  st->column_blocks_all += S * (uint64_t)sec->nblk * (uint64_t)sec->k;
}

/* The side of step st (a block step of a spec that is not shrunk: below). */
static int step_side(const lied_sb *b, const lied_step *st) {
  int outside;
  uint64_t q;
  if (st->sec) return section_side(b, st->sec, &outside);
  if (b->wshrunk[st->spec] && spec_at(b, st->base, &q) == st->spec) return side(b, q, st->count);
  return W_LOW;
}

/* Every step of the window: checked, then moved or lengthened; 1 when one
 * lies too near the cut. */
static int stretch_steps(lied_sb *b) {
  lied_sched *s = b->s;
  const uint64_t S = b->wshift;
  for (int p = 0; p < LIED_NPARTS; p++)
    for (int i = 0; i < s->nsteps[p]; i++)
      if (step_side(b, &s->steps[p][i]) == W_BAD) return 1;
  for (int p = 0; p < LIED_NPARTS; p++)
    for (int i = 0; i < s->nsteps[p]; i++) {
      lied_step *st = &s->steps[p][i];
      const int w = step_side(b, st);
      LIED_ASSERT(w != W_BAD);
      if (w == W_HIGH) {
        /* the skew's coordinates are the first member's instance indices
         * (skew.c): they move unless it is outside the arrays */
        uint64_t q;
        const int sp0 = st->sec ? spec_at(b, st->sec->blk[0].base, &q) : st->spec;
        const int moves = sp0 >= 0 && b->wshrunk[sp0];
        if (st->sec)
          move_section(b, st->sec);
        else
          st->base += S * st->stride;
        if (s->skewed && moves) st->first += S;
      } else if (w == W_ACROSS) {
        if (st->sec) {
          lengthen_section(b, st->sec, p);
          st->count = st->sec->count;
        } else {
          st->count += S;
          s->st.blocks[p] += b->m->specs[st->spec].internal ? 0 : S;
        }
      }
    }
  return 0;
}

int lied_sb_window_stretch(lied_sb *b) {
  lied_sched *s = b->s;
  const uint64_t S = b->wshift;
  if (stretch_steps(b)) return 1;
  /* the model's nodes, and its edges: every cut-out instance has those of
   * the graph's instance C (copy C + S) */
  uint64_t nodes = 0, edges = b->nedges;
  for (int i = 0; i < b->nbspec; i++) {
    const lied_spec *sp = &b->m->specs[b->bspec[i]];
    nodes += (uint64_t)sp->tpl.nblocks * sp->total;
    if (!b->wshrunk[b->bspec[i]]) continue;
    for (int k = 0; k < sp->tpl.nblocks; k++) {
      const uint32_t v = lied_sb_encode(b, b->bspec[i], k, b->wcut);
      edges += S * (uint64_t)(b->g.rowptr[v + 1] - b->g.rowptr[v]);
    }
  }
  s->st.nodes = nodes;
  s->st.edges = edges;
  if (s->aligned) s->aligned_n += S;
  if (s->skewed) {
    s->skew_end += S;
    s->skew_coords += S;
  }
  s->st.window = 2 * b->wcut;
  return LIED_OK;
}
