/* halo_mpi.c - coupled arrays across MPI ranks (dist.h, docs/distributed.md,
 * "Coupled arrays across ranks"): the halo exchange. Each rank holds its own
 * copies of the top-level arrays and ghost copies of its neighbours'
 * (lua/lied/halo.lua builds that slice); before every evaluation of the
 * derivatives the ghosts' states are overwritten with their owners' values
 * of the same stage, so the owned copies' derivatives are those of one
 * process. Set up once: every state of the slice is keyed (leaf spec,
 * global copy of its top-level array, instance inside that copy, state
 * slot), the same key on every rank; a rank receives from each owner the
 * states of its ghosts in key order and sends to each rank the states of
 * its own copies that are ghosts there, in the same order. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dist/dist.h"
#include "solve/sim.h"

enum { TAG_HALO = 11 };

typedef struct halo_key {
  int spec;
  uint64_t copy, inner;
  int slot;
  uint64_t x; /* local state index */
  int rank;   /* the rank it comes from or goes to */
} halo_key;

struct lied_halo {
  int size;
  uint64_t *send_n, *recv_n;   /* per rank */
  uint64_t **send_x, **recv_x; /* local state indices per rank, key order */
  double *sbuf, *rbuf;         /* packed, rank by rank */
  MPI_Request *req;            /* 2 per rank */
};

static int cmp_key(const void *pa, const void *pb) {
  const halo_key *a = pa, *b = pb;
  if (a->spec != b->spec) return a->spec < b->spec ? -1 : 1;
  if (a->copy != b->copy) return a->copy < b->copy ? -1 : 1;
  if (a->inner != b->inner) return a->inner < b->inner ? -1 : 1;
  return (a->slot > b->slot) - (a->slot < b->slot);
}

/* The top-level ancestor of spec s (a child of the root). */
static int top_of(const lied_model *m, int s) {
  while (s > 0 && m->specs[s].parent > 0) s = m->specs[s].parent;
  return s;
}

/* A state of a sliced array, as each_state visits it. */
typedef struct halo_state {
  const lied_spec *top; /* its top-level array */
  halo_key key;         /* rank unset */
} halo_state;

/* Call fn(ctx, st) for every state of the sliced top-level arrays, in
 * state-map order; stops at the first nonzero return. */
static int each_state(const lied_sched *sc, int (*fn)(void *ctx, const halo_state *st),
                      void *ctx) {
  const lied_model *m = sc->model;
  for (int k = 0; k < sc->nsmap; k++) {
    const lied_state_map *sm = &sc->smap[k];
    int s = -1;
    for (int q = 1; q < m->nspecs && s < 0; q++)
      if (m->specs[q].cls && m->specs[q].arena == sm->base) s = q;
    if (s < 0) continue;
    halo_state st = {&m->specs[top_of(m, s)], {s, 0, 0, 0, 0, 0}};
    if (!st.top->slice_global || !st.top->count) continue;
    const uint64_t per = m->specs[s].total / st.top->count; /* instances per copy */
    for (uint64_t inst = 0; inst < sm->count; inst++) {
      st.key.copy = inst / per + st.top->slice_first;
      st.key.inner = inst % per;
      for (int q = 0; q < sm->n; q++) {
        st.key.slot = q;
        st.key.x = sm->x0 + inst * (uint64_t)sm->n + (uint64_t)q;
        int rc = fn(ctx, &st);
        if (rc) return rc;
      }
    }
  }
  return 0;
}

static int owned(const lied_spec *tp, uint64_t copy) {
  return copy >= tp->own_first && copy - tp->own_first < tp->own_count;
}

/* Whether the model is a slice of coupled arrays: some top-level array has
 * ghost copies. */
static int coupled(const lied_model *m) {
  for (int s = 1; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (sp->parent == 0 && sp->slice_global &&
        (sp->own_first != sp->slice_first || sp->own_count != sp->count))
      return 1;
  }
  return 0;
}

/* The slice ranges of every rank: per rank and top-level spec s (ids
 * 1 .. nspecs-1, only top-level ones used) four numbers: slice_first, count,
 * own_first, own_count. */
static uint64_t *all_ranges(const lied_model *m, int size, lied_err *e) {
  const size_t per = (size_t)m->nspecs * 4;
  uint64_t *mine = lied_xcalloc(per, sizeof *mine, "halo", e);
  uint64_t *all = lied_xcalloc(per * (size_t)size, sizeof *all, "halo", e);
  if (!mine || !all) {
    free(mine);
    free(all);
    return NULL;
  }
  for (int s = 1; s < m->nspecs; s++) {
    const lied_spec *sp = &m->specs[s];
    if (sp->parent != 0 || !sp->slice_global) continue;
    mine[(size_t)s * 4] = sp->slice_first;
    mine[(size_t)s * 4 + 1] = sp->count;
    mine[(size_t)s * 4 + 2] = sp->own_first;
    mine[(size_t)s * 4 + 3] = sp->own_count;
  }
  MPI_Allgather(mine, (int)per, MPI_UINT64_T, all, (int)per, MPI_UINT64_T, MPI_COMM_WORLD);
  free(mine);
  return all;
}

/* Append k to list (*n entries, *cap room). */
static int push(halo_key **list, size_t *n, size_t *cap, const halo_key *k, lied_err *e) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 64;
    halo_key *nl = realloc(*list, nc * sizeof *nl);
    if (!nl) return lied_errc(e, LIED_E_NOMEM, "out of memory (halo)");
    *list = nl;
    *cap = nc;
  }
  (*list)[(*n)++] = *k;
  return LIED_OK;
}

void lied_halo_free(lied_halo *h) {
  if (!h) return;
  for (int r = 0; h->send_x && r < h->size; r++) free(h->send_x[r]);
  for (int r = 0; h->recv_x && r < h->size; r++) free(h->recv_x[r]);
  free(h->send_x);
  free(h->recv_x);
  free(h->send_n);
  free(h->recv_n);
  free(h->sbuf);
  free(h->rbuf);
  free(h->req);
  free(h);
}

/* Sort list (by key: the same order on both sides), split it by rank
 * into per-rank index arrays. */
static int split(halo_key *list, size_t n, int size, uint64_t *cnt, uint64_t **xs,
                 lied_err *e) {
  if (n) qsort(list, n, sizeof *list, cmp_key);
  for (size_t i = 0; i < n; i++) cnt[list[i].rank]++;
  for (int r = 0; r < size; r++)
    if (!(xs[r] = lied_xcalloc(cnt[r] + 1, sizeof **xs, "halo", e))) return LIED_E_NOMEM;
  uint64_t *at = lied_xcalloc((size_t)size, sizeof *at, "halo", e);
  if (!at) return LIED_E_NOMEM;
  for (size_t i = 0; i < n; i++) xs[list[i].rank][at[list[i].rank]++] = list[i].x;
  free(at);
  return LIED_OK;
}

/* collect's work: the ranges of every rank, the lists. */
typedef struct collect_ctx {
  const lied_model *m;
  const uint64_t *all;
  int size, me;
  halo_key *rl, *sl;
  size_t rn, sn, rcap, scap;
  lied_err *e;
} collect_ctx;

static int collect_one(void *ctx, const halo_state *st) {
  collect_ctx *c = ctx;
  const uint64_t copy = st->key.copy;
  const int mine = owned(st->top, copy);
  const size_t t = (size_t)(st->top - c->m->specs);
  for (int r = 0; r < c->size; r++) {
    const uint64_t *g = c->all + ((size_t)r * (size_t)c->m->nspecs + t) * 4;
    int there = copy >= g[0] && copy - g[0] < g[1];
    int theirs = copy >= g[2] && copy - g[2] < g[3];
    if (r == c->me || !there || mine == theirs) continue;
    halo_key key = st->key;
    key.rank = r;
    if (mine) LIED_TRY(push(&c->sl, &c->sn, &c->scap, &key, c->e)); /* a ghost on rank r */
    else LIED_TRY(push(&c->rl, &c->rn, &c->rcap, &key, c->e));     /* ours, rank r's copy */
  }
  return LIED_OK;
}

/* Whether a copy is a ghost at either end of its array's slice: those miss
 * the links to the copies beyond them. */
static int edge_ghost(const lied_spec *tp, uint64_t copy) {
  return !owned(tp, copy) && (copy == tp->slice_first || copy == tp->slice_first + tp->count - 1);
}

typedef struct width_ctx {
  const lied_sched *sc;
  double *x, *d0, *d1;
  lied_err *e;
} width_ctx;

static int width_move(void *ctx, const halo_state *st) {
  width_ctx *w = ctx;
  if (edge_ghost(st->top, st->key.copy)) w->x[st->key.x] += 1e-3 * (1 + fabs(w->x[st->key.x]));
  return 0;
}

static int width_same(void *ctx, const halo_state *st) {
  width_ctx *w = ctx;
  const uint64_t i = st->key.x;
  if (!owned(st->top, st->key.copy) || memcmp(&w->d0[i], &w->d1[i], sizeof w->d0[i]) == 0)
    return 0;
  char name[256];
  lied_sched_state_name(w->sc, i, name, sizeof name);
  return lied_errc(w->e, LIED_E_MODEL,
                   "the derivative of %s reads copies beyond the ghost copies of its neighbours "
                   "(algebraic links along the array): it cannot be split over ranks; run it "
                   "with one process",
                   name);
}

/* The check that the ghosts are wide enough: with the states of the ghost
 * copies at the slice's ends moved (x + 1e-3 (1 + |x|): small enough to keep
 * their sections regular), no derivative of an owned copy may change in any
 * bit (it would read the copies whose links to the next ones are cut: an
 * owned copy's derivative would not be one process's). Two evaluations at
 * the start values. */
static int check_width(lied_sched *sc, double t, lied_err *e) {
  const uint64_t n = sc->nstates;
  width_ctx w = {sc, lied_xcalloc(n + 1, sizeof(double), "halo check", e),
                 lied_xcalloc(n + 1, sizeof(double), "halo check", e),
                 lied_xcalloc(n + 1, sizeof(double), "halo check", e), e};
  int rc = (!w.x || !w.d0 || !w.d1) ? LIED_E_NOMEM : LIED_OK;
  if (!rc) {
    lied_sched_reset_states(sc);
    lied_sched_gather_x(sc, w.x);
    rc = lied_sched_evaluate(sc, t, w.x, w.d0, 0, e);
  }
  if (!rc) each_state(sc, width_move, &w);
  if (!rc) rc = lied_sched_evaluate(sc, t, w.x, w.d1, 0, e);
  if (!rc) rc = each_state(sc, width_same, &w);
  lied_sched_reset_states(sc);
  free(w.x);
  free(w.d0);
  free(w.d1);
  return rc;
}

int lied_halo_new(lied_halo **hp, lied_sched *sc, double t, const char *solver, lied_err *e) {
  *hp = NULL;
  const lied_model *m = sc->model;
  if (!coupled(m) || lied_dist_size() < 2) return LIED_OK;
  const lied_solver *sv = lied_solver_find(solver ? solver : "rk4");
  if (sv && (sv->adaptive || sv->implicit))
    return lied_errc(e, LIED_E_USAGE,
                     "solver %s: under mpirun coupled arrays run with the fixed-step explicit "
                     "solvers (rk4, rk3, heun, euler) only: an adaptive solver would need its "
                     "error norm reduced over the ranks and an implicit one a Newton iteration "
                     "across them (docs/distributed.md)",
                     sv->name);
  LIED_TRY(check_width(sc, t, e));
  const int size = lied_dist_size(), me = lied_dist_rank();
  lied_halo *h = lied_xcalloc(1, sizeof *h, "halo", e);
  if (!h) return LIED_E_NOMEM;
  h->size = size;
  h->send_n = lied_xcalloc((size_t)size, sizeof *h->send_n, "halo", e);
  h->recv_n = lied_xcalloc((size_t)size, sizeof *h->recv_n, "halo", e);
  h->send_x = lied_xcalloc((size_t)size, sizeof *h->send_x, "halo", e);
  h->recv_x = lied_xcalloc((size_t)size, sizeof *h->recv_x, "halo", e);
  h->req = lied_xcalloc(2 * (size_t)size, sizeof *h->req, "halo", e);
  uint64_t *all = h->req ? all_ranges(m, size, e) : NULL;
  collect_ctx c = {m, all, size, me, NULL, NULL, 0, 0, 0, 0, e};
  int rc = (!h->send_n || !h->recv_n || !h->send_x || !h->recv_x || !all) ? LIED_E_NOMEM : 0;
  if (!rc) rc = each_state(sc, collect_one, &c);
  if (!rc) rc = split(c.rl, c.rn, size, h->recv_n, h->recv_x, e);
  if (!rc) rc = split(c.sl, c.sn, size, h->send_n, h->send_x, e);
  free(all);
  free(c.rl);
  free(c.sl);
  /* every rank sends what its neighbour expects: the counts must match */
  uint64_t *theirs = rc ? NULL : lied_xcalloc((size_t)size, sizeof *theirs, "halo", e);
  if (!rc && !theirs) rc = LIED_E_NOMEM;
  int bad = rc != 0;
  if (!rc) {
    MPI_Alltoall(h->send_n, 1, MPI_UINT64_T, theirs, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
      if (theirs[r] != h->recv_n[r]) bad = 1;
  }
  free(theirs);
  if (!rc && bad)
    rc = lied_errc(e, LIED_E_MODEL,
                   "the ranks' slices of the coupled arrays do not match (their copies hold "
                   "different states)");
  uint64_t ns = 0, nr = 0;
  for (int r = 0; !rc && r < size; r++) ns += h->send_n[r], nr += h->recv_n[r];
  if (!rc) {
    h->sbuf = lied_xcalloc(ns + 1, sizeof *h->sbuf, "halo", e);
    h->rbuf = lied_xcalloc(nr + 1, sizeof *h->rbuf, "halo", e);
    if (!h->sbuf || !h->rbuf) rc = LIED_E_NOMEM;
  }
  if (rc) {
    lied_halo_free(h);
    return rc;
  }
  *hp = h;
  return LIED_OK;
}

int lied_halo_exchange(void *ctx, double *x, lied_err *e) {
  lied_halo *h = ctx;
  int nreq = 0;
  double *rb = h->rbuf, *sb = h->sbuf;
  for (int r = 0; r < h->size; r++) {
    if (!h->recv_n[r]) continue;
    MPI_Irecv(rb, (int)h->recv_n[r], MPI_DOUBLE, r, TAG_HALO, MPI_COMM_WORLD, &h->req[nreq++]);
    rb += h->recv_n[r];
  }
  for (int r = 0; r < h->size; r++) {
    if (!h->send_n[r]) continue;
    const uint64_t *xs = h->send_x[r];
    for (uint64_t i = 0; i < h->send_n[r]; i++) sb[i] = x[xs[i]];
    MPI_Isend(sb, (int)h->send_n[r], MPI_DOUBLE, r, TAG_HALO, MPI_COMM_WORLD, &h->req[nreq++]);
    sb += h->send_n[r];
  }
  if (MPI_Waitall(nreq, h->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    return lied_errc(e, LIED_E_SOLVER, "halo exchange failed");
  rb = h->rbuf;
  for (int r = 0; r < h->size; r++) {
    const uint64_t *xs = h->recv_x[r];
    for (uint64_t i = 0; i < h->recv_n[r]; i++) x[xs[i]] = rb[i];
    rb += h->recv_n[r];
  }
  return LIED_OK;
}

int lied_halo_own_params(lied_params *p, const lied_model *m) {
  if (!coupled(m) || !p->n) return LIED_OK;
  size_t o = 0, i = 0;
  for (int k = 0; k < p->nseg; k++) {
    size_t kept = 0;
    for (size_t j = 0; j < p->seg_n[k]; j++, i++) {
      if (lied_model_remote(m, p->names[i])) { /* a ghost copy's: its owner lists it */
        free(p->names[i]);
        continue;
      }
      p->names[o] = p->names[i];
      p->units[o] = p->units[i];
      p->values[o++] = p->values[i];
      kept++;
    }
    p->seg_n[k] = kept;
  }
  p->n = o;
  return LIED_OK;
}
