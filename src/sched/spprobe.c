/* spprobe.c - solving a sparse linear section (sched/spsec.h): a pass with
 * every unknown at 0 (b), the columns by colour, the sparse LU, the
 * tearing variables set from the solution and the members run once more. */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "core/assert.h"
#include "sched/spsec.h"

/* Run member j (count 1), then its hooks: each cut it writes keeps the
 * computed value in comp and takes the cut's unknown u. */
static inline void run_hooked(const lied_section *sec, const lied_spsec *sp, int j,
                              const lied_env *env) {
  const lied_sec_block *b = &sec->blk[j];
  b->fn(env, b->base, 1, b->stride);
  for (int h = sp->hstart[j]; h < sp->hstart[j + 1]; h++) {
    const int c = sp->hook[h];
    sp->comp[c] = *sp->cut_at[c];
    *sp->cut_at[c] = sp->u[c];
  }
}

/* Unknown j := v (a tearing variable in place, a cut in u and in place:
 * its producer may not run in the pass). */
static inline void set_unknown(lied_section *sec, lied_spsec *sp, int j, double v) {
  if (j < sp->k) {
    *sec->pairs[j].tear = v;
  } else {
    sp->u[j - sp->k] = v;
    *sp->cut_at[j - sp->k] = v;
  }
}

/* Equation r's value: a residual, or a cut's computed minus unknown value. */
static inline double row_value(const lied_section *sec, const lied_spsec *sp, int r) {
  if (r < sp->k) return *sec->pairs[r].res;
  return sp->comp[r - sp->k] - sp->u[r - sp->k];
}

/* The matrix, column by column, a colour per pass (b holds the values at 0). */
static void probe_columns(lied_section *sec, lied_spsec *sp, const lied_env *env) {
  for (int g = 0; g < sp->ncolour; g++) {
    if (g)
      for (int i = sp->gstart[g - 1]; i < sp->gstart[g]; i++) set_unknown(sec, sp, sp->gcol[i], 0);
    for (int i = sp->gstart[g]; i < sp->gstart[g + 1]; i++) set_unknown(sec, sp, sp->gcol[i], 1);
    for (int i = sp->pstart[g]; i < sp->pstart[g + 1]; i++) run_hooked(sec, sp, sp->pmem[i], env);
    for (int i = sp->gstart[g]; i < sp->gstart[g + 1]; i++) {
      const int j = sp->gcol[i];
      for (uint64_t q = sp->ctp[j]; q < sp->ctp[j + 1]; q++) {
        const int r = (int)sp->crow[q];
        sp->val[sp->cpos[q]] = row_value(sec, sp, r) - sp->b[r];
      }
    }
  }
  if (sp->ncolour)
    for (int i = sp->gstart[sp->ncolour - 1]; i < sp->gstart[sp->ncolour]; i++)
      set_unknown(sec, sp, sp->gcol[i], 0);
}

/* Whether the probed matrix or the equations' values at zero unknowns
 * hold a value that is not finite. */
static int holds_nonfinite(const lied_spsec *sp) {
  for (uint64_t q = 0; q < sp->rowptr[sp->nu]; q++)
    if (!isfinite(sp->val[q])) return 1;
  for (int r = 0; r < sp->nu; r++)
    if (!isfinite(sp->b[r])) return 1;
  return 0;
}

/* LIED_E_SINGULAR naming (the first few of) the section's tearing
 * variables and its components (singular.c); a matrix (sp->val, as probed)
 * or equations' values at zero unknowns (sp->b) holding a value that is not
 * finite say so instead (a parameter beyond what doubles hold is no
 * singular matrix). */
static int singular(lied_sched *s, const lied_section *sec, double t, lied_err *e) {
  const lied_spsec *sp = sec->sparse;
  char detail[64];
  snprintf(detail, sizeof detail, "%d tearing variables, solved sparsely", sec->k);
  double bmax = 0;
  for (int r = 0; r < sp->nu; r++) bmax = fmax(bmax, fabs(sp->b[r]));
  return lied_sched_singular(s, sec, 0, t, detail,
                             holds_nonfinite(sp) ? "its matrix or residuals hold a value that "
                                                   "is not finite" : NULL,
                             bmax, e);
}

#ifdef LIED_ASSERTS
/* Debug and sanitizer builds, small sections: the probed matrix against
 * one probed a column at a time with every member run, so that a
 * dependency the plan missed (a value outside the pattern) or a pass that
 * ran too few members (a value that differs) is caught at once. */
#define CHECK_MAX 128
static void check_columns(lied_section *sec, lied_spsec *sp, const lied_env *env) {
  double col[CHECK_MAX];
  const int nu = sp->nu;
  if (nu > CHECK_MAX) return;
  for (int j = 0; j < nu; j++) {
    set_unknown(sec, sp, j, 1);
    for (int m = 0; m < sec->nblk; m++) run_hooked(sec, sp, m, env);
    for (int r = 0; r < nu; r++) col[r] = row_value(sec, sp, r) - sp->b[r];
    set_unknown(sec, sp, j, 0);
    for (int r = 0; r < nu; r++) {
      double v = 0;
      for (uint64_t q = sp->rowptr[r]; q < sp->rowptr[r + 1]; q++)
        if (sp->cols[q] == (uint32_t)j) v = sp->val[q];
      LIED_ASSERT(fabs(col[r] - v) <= 1e-9 * (1 + fabs(col[r])));
    }
  }
  for (int m = 0; m < sec->nblk; m++) run_hooked(sec, sp, m, env);
}
#endif

/* The section at given unknowns fz (not solved): every member runs with the
 * hooks, the equations' values go to fg; u is put back to 0 after (the
 * cuts keep fz, which their readers have read). */
static int at_fixed_unknowns(lied_section *sec, lied_spsec *sp, const lied_env *env) {
  for (int p = 0; p < sp->k; p++) *sec->pairs[p].tear = sp->fz[p];
  for (int c = 0; c < sp->ncut; c++) sp->u[c] = sp->fz[sp->k + c];
  for (int j = 0; j < sec->nblk; j++) {
    run_hooked(sec, sp, j, env);
    if (sp->after) sp->after(sp->actx, j);
  }
  for (int r = 0; r < sp->nu; r++) sp->fg[r] = row_value(sec, sp, r);
  memset(sp->u, 0, sizeof *sp->u * (size_t)sp->ncut);
  return LIED_OK;
}

/* b: every equation's value (row_value, residuals and cuts in two loops). */
static void rows_into_b(const lied_section *sec, lied_spsec *sp) {
  double *restrict b = sp->b;
  const double *restrict comp = sp->comp, *restrict u = sp->u;
  for (int p = 0; p < sp->k; p++) b[p] = *sec->pairs[p].res;
  b += sp->k;
  for (int c = 0; c < sp->ncut; c++) b[c] = comp[c] - u[c];
}

/* The pass with every unknown at 0 (tearing variables 0; u is 0 between
 * calls, probe_columns leaves it so): b. */
static void zero_pass(lied_section *sec, lied_spsec *sp, const lied_env *env) {
  for (int p = 0; p < sp->k; p++) *sec->pairs[p].tear = 0;
  for (int j = 0; j < sec->nblk; j++) run_hooked(sec, sp, j, env);
  rows_into_b(sec, sp);
}

/* The same pass, factorised constant section: the fixed members' values
 * restored (spsec.h), the others run. */
static void zero_pass_fixed(lied_section *sec, lied_spsec *sp, const lied_env *env) {
  for (int p = 0; p < sp->k; p++) *sec->pairs[p].tear = 0;
  for (int i = 0; i < sp->nfix; i++) *sp->fix_at[i] = sp->fix_val[i];
  for (int i = 0; i < sp->nrun; i++) {
    const struct lied_sprun *m = &sp->runs[i];
    m->fn(env, m->base, 1, m->stride);
    for (int h = m->h0; h < m->h1; h++) { /* run_hooked's hooks */
      const int c = sp->hook[h];
      sp->comp[c] = *sp->cut_at[c];
      *sp->cut_at[c] = sp->u[c];
    }
  }
  rows_into_b(sec, sp);
#ifdef LIED_ASSERTS
  double *b = sp->x; /* free until the solve */
  memcpy(b, sp->b, sizeof *b * (size_t)sp->nu);
  zero_pass(sec, sp, env);
  for (int r = 0; r < sp->nu; r++) LIED_ASSERT(memcmp(&b[r], &sp->b[r], sizeof *b) == 0);
#endif
}

int lied_spsec_probe(lied_sched *s, lied_section *sec, enum lied_eval_mode mode,
                     const lied_env *env, lied_err *e) {
  lied_spsec *sp = sec->sparse;
  LIED_ASSERT(sp && sec->count == 1 && sp->k == sec->k);
  if (sp->fz && mode == LIED_EVAL_DERIVATIVES) return at_fixed_unknowns(sec, sp, env);
  if (sec->constant && sp->factored) {
    zero_pass_fixed(sec, sp, env);
  } else {
    zero_pass(sec, sp, env);
    if (sec->constant) { /* the factorising evaluation: record the fixed members' values */
      for (int i = 0; i < sp->nfix; i++) sp->fix_val[i] = *sp->fix_at[i];
      for (int i = 0; i < sp->nrun; i++) {
        const int j = sp->run[i];
        sp->runs[i] = (struct lied_sprun){sec->blk[j].fn, sec->blk[j].base, sec->blk[j].stride,
                                          sp->hstart[j], sp->hstart[j + 1]};
      }
    }
  }
  if (!sec->constant || !sp->factored) {
    probe_columns(sec, sp, env);
#ifdef LIED_ASSERTS
    check_columns(sec, sp, env);
#endif
    s->st.factorisations++;
    int rc = lied_splu_factor(sp->lu, sp->val, e);
    if (rc == LIED_E_SINGULAR) return singular(s, sec, env->t, e);
    if (rc < 0) return lied_err_at(e, env->t);
    sp->factored = sec->constant;
  }
  for (int r = 0; r < sp->nu; r++) sp->x[r] = -sp->b[r];
  lied_splu_solve(sp->lu, sp->x);
  for (int p = 0; p < sp->k; p++) *sec->pairs[p].tear = sp->x[p];
  if (mode == LIED_EVAL_OUTPUTS) {
    for (int j = 0; j < sec->nblk; j++) sec->blk[j].fn(env, sec->blk[j].base, 1, sec->blk[j].stride);
  } else {
    for (int i = 0; i < sec->nfin; i++) {
      const lied_sec_block *b = &sec->blk[sec->fin[i]];
      b->fn(env, b->base, 1, b->stride);
    }
  }
  return LIED_OK;
}
