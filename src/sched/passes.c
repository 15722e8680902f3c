/* passes.c - what the probe runs of each section batch, from the batch's
 * first section: the members of the final evaluation during a derivative
 * evaluation, and the members of each column pass. */
#include <stdlib.h>
#include "sched/sbuild.h"

/* pos[i]: the place in section order of member i of the batch's first
 * section's component (members sorted by node id, as in b->cmem). */
static void member_positions(const lied_sb *b, const lied_section *sec, const lied_secb *sb,
                             int *pos) {
  uint32_t c = b->comp[sb->first[0]];
  const uint32_t *mem = b->cmem + b->cstart[c];
  for (int j = 0; j < sec->nblk; j++) pos[lied_sb_local_index(mem, sec->nblk, sb->first[j])] = j;
}

/* The members the final evaluation needs when only what leaves the section
 * matters (sec->fin): exports and, backwards, what they read inside the
 * section (tearing edges excluded: the tearing variables are set). Marks
 * them in sb->mexp. */
static void final_members(const lied_sb *b, lied_section *sec, lied_secb *sb, const int *pos) {
  uint32_t c = b->comp[sb->first[0]];
  const uint32_t *mem = b->cmem + b->cstart[c];
  for (int j = sec->nblk - 1; j >= 0; j--) {
    if (!sb->mexp[j]) continue;
    uint32_t v = sb->first[j];
    for (uint32_t k = b->g.rowptr[v]; k < b->g.rowptr[v + 1]; k++) {
      uint32_t u = b->g.adj[k];
      if (IS_TEAR(b, k) || b->comp[u] != c) continue;
      sb->mexp[pos[lied_sb_local_index(mem, sec->nblk, u)]] = 1;
    }
  }
  sec->nfin = 0;
  for (int j = 0; j < sec->nblk; j++)
    if (sb->mexp[j]) sec->fin[sec->nfin++] = j;
}

/* down[p * n + j] = 1 when member j (section order) is downstream of tearing
 * variable p: it reads p (a tearing edge to p's residual block; conservative
 * when one block writes several residuals) or reads such a member inside the
 * section. cnt[p] counts them. */
static void downstream(const lied_sb *b, const lied_section *sec, const lied_secb *sb,
                       const int *pos, uint8_t *down, int *cnt) {
  const int n = sec->nblk;
  uint32_t c = b->comp[sb->first[0]];
  const uint32_t *mem = b->cmem + b->cstart[c];
  for (int p = 0; p < sec->k; p++) {
    const lied_sec_pair *sp = &sec->pairs[p];
    const lied_spec *spec = &b->m->specs[sp->spec];
    uint32_t res = lied_sb_encode(b, sp->spec, spec->tpl.tears[sp->pair].res_block, sp->inst0);
    uint8_t *d = down + (size_t)p * (size_t)n;
    for (int j = 0; j < n; j++) {
      uint32_t v = sb->first[j];
      for (uint32_t e = b->g.rowptr[v]; e < b->g.rowptr[v + 1] && !d[j]; e++) {
        uint32_t u = b->g.adj[e];
        if (IS_TEAR(b, e))
          d[j] = u == res;
        else if (b->comp[u] == c)
          d[j] = d[pos[lied_sb_local_index(mem, n, u)]];
      }
      cnt[p] += d[j];
    }
  }
}

/* cord: the tearing variables by increasing cnt, stable (insertion sort). */
static void order_by_count(int k, const int *cnt, int *cord) {
  for (int i = 0; i < k; i++) {
    int j = i;
    for (; j > 0 && cnt[cord[j - 1]] > cnt[i]; j--) cord[j] = cord[j - 1];
    cord[j] = i;
  }
}

/* Pass i runs, in section order, the members downstream of cord[i] or of
 * cord[i - 1] (which puts the latter's back to their values with every
 * tearing variable at 0): pblk[pstart[i] .. pstart[i + 1]). */
static void pass_lists(lied_section *sec, const uint8_t *down) {
  const int n = sec->nblk;
  int np = 0;
  sec->pstart[0] = 0;
  for (int i = 0; i < sec->k; i++) {
    const uint8_t *cur = down + (size_t)sec->cord[i] * (size_t)n;
    const uint8_t *prev = i ? down + (size_t)sec->cord[i - 1] * (size_t)n : cur;
    for (int j = 0; j < n; j++)
      if (cur[j] || prev[j]) sec->pblk[np++] = j;
    sec->pstart[i + 1] = np;
  }
  int *shrunk = realloc(sec->pblk, sizeof *sec->pblk * (size_t)(np ? np : 1));
  if (shrunk) sec->pblk = shrunk;
}

/* The probe's column passes (sched.h, lied_section.cord): setting tearing
 * variable p to 1 changes only the members downstream of p, the others keep
 * the values of the pass with every tearing variable at 0; tearing
 * variables with fewer downstream members go first. */
static int column_passes(const lied_sb *b, lied_section *sec, const lied_secb *sb,
                         const int *pos) {
  const size_t n = (size_t)sec->nblk, k = (size_t)sec->k;
  uint8_t *down = lied_xcalloc(k * n, 1, "section passes", b->e);
  int *cnt = lied_xcalloc(k, sizeof *cnt, "section passes", b->e);
  sec->cord = lied_xmalloc(sizeof *sec->cord * k, "section passes", b->e);
  sec->pstart = lied_xmalloc(sizeof *sec->pstart * (k + 1), "section passes", b->e);
  sec->pblk = lied_xmalloc(sizeof *sec->pblk * k * n, "section passes", b->e);
  int rc = down && cnt && sec->cord && sec->pstart && sec->pblk ? LIED_OK : LIED_E_NOMEM;
  if (rc == LIED_OK) {
    downstream(b, sec, sb, pos, down, cnt);
    order_by_count(sec->k, cnt, sec->cord);
    pass_lists(sec, down);
  }
  free(down);
  free(cnt);
  return rc;
}

int lied_sb_section_passes(lied_sb *b) {
  lied_sched *s = b->s;
  int *pos = NULL, cap = 0, rc = LIED_OK;
  for (int i = 0; i < s->nsecs && rc == LIED_OK; i++) {
    lied_section *sec = &s->secs[i];
    lied_secb *sb = &b->secb[i];
    rc = lied_grow((void **)&pos, &cap, sec->nblk, sizeof *pos, b->e);
    if (rc != LIED_OK) break;
    member_positions(b, sec, sb, pos);
    final_members(b, sec, sb, pos);
    if (lied_sb_sparse_wanted(b, sec)) {
      rc = lied_sb_sparse_plan(b, i, pos);
      continue;
    }
    rc = column_passes(b, sec, sb, pos);
    s->st.column_blocks += (uint64_t)(rc ? 0 : sec->pstart[sec->k]) * sec->count;
    s->st.column_blocks_all += (uint64_t)sec->nblk * (uint64_t)sec->k * sec->count;
  }
  free(pos);
  return rc;
}
