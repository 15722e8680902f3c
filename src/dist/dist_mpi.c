/* dist_mpi.c - MPI ensembles (dist.h, docs/distributed.md): the only file
 * that includes mpi.h. Rank 0 gathers: the counts of every rank's columns
 * per recorded item, the names once, then each row from each rank in rank
 * order (point to point, one rank's row at a time), so no rank holds more
 * than one row of the whole ensemble. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dist/dist.h"

static int started, rank_, size_ = 1;

int lied_dist_init(int *argc, char ***argv) {
  if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK")) return 0;
  int provided;
  /* MPI is called from the main thread only (the run's thread pool never
   * calls it) */
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "lied: MPI_Init failed\n");
    return -1;
  }
  started = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  return 0;
}

void lied_dist_finalize(void) {
  if (started) MPI_Finalize();
  started = 0;
}

int lied_dist_rank(void) { return rank_; }
int lied_dist_size(void) { return size_; }
int lied_dist_built(void) { return 1; }

_Noreturn void lied_dist_abort(int code) {
  fflush(stdout);
  fflush(stderr);
  if (started && size_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
  exit(code);
}

enum { TAG_ROW = 1, TAG_END = 2, TAG_NAMES = 3, TAG_PARAMS = 4, TAG_SWEEP = 5, TAG_NEVER = 6 };
#define CHUNK (1 << 26) /* bytes per message of names */

/* Send / receive n bytes in messages of at most CHUNK. */
static void send_bytes(const char *p, uint64_t n, int tag) {
  for (uint64_t o = 0; o < n; o += CHUNK)
    MPI_Send(p + o, (int)(n - o < CHUNK ? n - o : CHUNK), MPI_BYTE, 0, tag, MPI_COMM_WORLD);
}
static void recv_bytes(char *p, uint64_t n, int from, int tag) {
  for (uint64_t o = 0; o < n; o += CHUNK)
    MPI_Recv(p + o, (int)(n - o < CHUNK ? n - o : CHUNK), MPI_BYTE, from, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

/* name\0unit\0 for each of n entries, in one buffer (*len bytes). */
static char *pack(size_t n, char *const *names, const char *const *units, uint64_t *len,
                  lied_err *e) {
  uint64_t l = 0;
  for (size_t i = 0; i < n; i++) l += strlen(names[i]) + strlen(units[i] ? units[i] : "") + 2;
  char *b = lied_xmalloc(l ? l : 1, "names to gather", e);
  if (!b) return NULL;
  char *q = b;
  for (size_t i = 0; i < n; i++) {
    size_t a = strlen(names[i]) + 1, u = strlen(units[i] ? units[i] : "") + 1;
    memcpy(q, names[i], a);
    memcpy(q + a, units[i] ? units[i] : "", u);
    q += a + u;
  }
  *len = l;
  return b;
}

/* The global position of (rank r, segment k) when rank r holds cnt[r * nseg
 * + k] entries of segment k, segments in order, each over the ranks: into
 * pos (size * nseg); returns the total. */
static uint64_t positions(const uint64_t *cnt, int nseg, uint64_t *pos) {
  uint64_t at = 0;
  for (int k = 0; k < nseg; k++)
    for (int r = 0; r < size_; r++) {
      pos[(size_t)r * (size_t)nseg + (size_t)k] = at;
      at += cnt[(size_t)r * (size_t)nseg + (size_t)k];
    }
  return at;
}

/* ---- the gathering sink ----------------------------------------------------- */

/* The top-level array a column belongs to: its position among the root's
 * children (0 when unknown). */
static int top_index(const lied_model *m, const char *name) {
  int c = lied_model_child(m, 0, name, strcspn(name, ".["));
  int k = 0;
  for (int q = m->specs[0].first_child; q >= 0; q = m->specs[q].next_sibling, k++)
    if (q == c) return k;
  return 0;
}

typedef struct dist_sink {
  lied_sink base;
  lied_sink *inner;          /* rank 0 */
  const lied_recorder *rec;
  const lied_model *m;       /* coupled arrays: columns also split by top-level array */
  int ntop, nseg;            /* segments: nitems * ntop (ntop 1: by item) */
  size_t n;                  /* this rank's columns */
  double *buf;               /* t and a row of one rank (rank 0: the largest) */
  /* rank 0 */
  uint64_t total, *cnt, *pos; /* size * nitems */
  double *row;               /* the whole ensemble's row */
  char **names;
  const char **units;
  char **pools;              /* per rank: the received names (units point into them) */
  long rows;
  int began;
} dist_sink;

static int fail_rank(lied_err *e, int r, const char *what) {
  return lied_errc(e, LIED_E_SOLVER,
                   "rank %d: %s (every rank must output its rows at the same times: time "
                   "events must fall at the same times in every copy, and 'interval = step' "
                   "is not available; docs/distributed.md, \"Events\")",
                   r, what);
}

/* This rank's columns per segment (nseg of them, + 1 spare): by recorded
 * item; for coupled arrays (d->m) by item and top-level array within it, as
 * one process walks the variables array by array (names.c). */
static uint64_t *segments(dist_sink *d, char *const *names, lied_err *e) {
  const lied_recorder *rec = d->rec;
  d->ntop = 1;
  if (d->m && d->m->nspecs && !d->m->specs[0].cls) {
    d->ntop = 0;
    for (int q = d->m->specs[0].first_child; q >= 0; q = d->m->specs[q].next_sibling) d->ntop++;
    if (d->ntop < 1) d->ntop = 1;
  }
  d->nseg = rec->nitems * d->ntop;
  uint64_t *mine = lied_xcalloc((size_t)d->nseg + 1, sizeof *mine, "gathering", e);
  if (!mine) return NULL;
  size_t c = 0;
  for (int k = 0; k < rec->nitems; k++)
    for (size_t j = 0; j < rec->item_n[k]; j++, c++)
      mine[k * d->ntop + (d->ntop > 1 ? top_index(d->m, names[c]) : 0)]++;
  return mine;
}

static int ds_begin(lied_sink *s, size_t n, char *const *names, const char *const *units,
                    lied_err *e) {
  dist_sink *d = (dist_sink *)s;
  const lied_recorder *rec = d->rec;
  d->n = n;
  uint64_t *mine = segments(d, names, e);
  if (!mine) return LIED_E_NOMEM;
  const int ni = d->nseg;
  uint64_t plen = 0;
  char *packed = pack(n, names, units, &plen, e);
  if (!packed) {
    free(mine);
    return LIED_E_NOMEM;
  }
  mine[ni] = plen;
  uint64_t *all = NULL;
  if (rank_ == 0) {
    all = lied_xcalloc((size_t)size_ * (size_t)(ni + 1), sizeof *all, "gathering", e);
    if (!all) {
      free(mine);
      free(packed);
      return LIED_E_NOMEM;
    }
  }
  MPI_Gather(mine, ni + 1, MPI_UINT64_T, all, ni + 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  free(mine);
  if (rank_ != 0) {
    send_bytes(packed, plen, TAG_NAMES);
    free(packed);
    d->buf = lied_xmalloc(sizeof(double) * (n + 1), "row to send", e);
    if (!d->buf) return LIED_E_NOMEM;
    d->began = 1;
    return LIED_OK;
  }
  /* rank 0: counts per (rank, item), positions, names */
  d->cnt = lied_xcalloc((size_t)size_ * (size_t)ni + 1, sizeof *d->cnt, "gathering", e);
  d->pos = lied_xcalloc((size_t)size_ * (size_t)ni + 1, sizeof *d->pos, "gathering", e);
  d->pools = lied_xcalloc((size_t)size_, sizeof *d->pools, "gathering", e);
  if (!d->cnt || !d->pos || !d->pools) {
    free(all);
    free(packed);
    return LIED_E_NOMEM;
  }
  size_t maxn = 0;
  for (int r = 0; r < size_; r++) {
    uint64_t nr = 0;
    for (int k = 0; k < ni; k++) {
      d->cnt[(size_t)r * (size_t)ni + (size_t)k] = all[(size_t)r * (size_t)(ni + 1) + (size_t)k];
      nr += all[(size_t)r * (size_t)(ni + 1) + (size_t)k];
    }
    if (nr > maxn) maxn = nr;
  }
  d->total = positions(d->cnt, ni, d->pos);
  for (int k = 0; k < rec->nitems; k++) {
    uint64_t t = 0;
    for (int r = 0; r < size_; r++)
      for (int q = 0; q < d->ntop; q++)
        t += d->cnt[(size_t)r * (size_t)ni + (size_t)(k * d->ntop + q)];
    if (t == 0 && rec->items[k][0]) {
      free(all);
      free(packed);
      return lied_errc(e, LIED_E_USAGE, "no variable matches '%s'", rec->items[k]);
    }
  }
  d->buf = lied_xmalloc(sizeof(double) * (maxn + 1), "gathered row", e);
  d->row = lied_xmalloc(sizeof(double) * (d->total + 1), "gathered row", e);
  d->names = lied_xcalloc(d->total + 1, sizeof *d->names, "gathered names", e);
  d->units = lied_xcalloc(d->total + 1, sizeof *d->units, "gathered names", e);
  if (!d->buf || !d->row || !d->names || !d->units) {
    free(all);
    free(packed);
    return LIED_E_NOMEM;
  }
  for (int r = 0; r < size_; r++) {
    uint64_t len = all[(size_t)r * (size_t)(ni + 1) + (size_t)ni];
    if (r == 0) {
      d->pools[0] = packed;
    } else {
      if (!(d->pools[r] = lied_xmalloc(len ? len : 1, "gathered names", e))) {
        free(all);
        return LIED_E_NOMEM;
      }
      recv_bytes(d->pools[r], len, r, TAG_NAMES);
    }
    const char *q = d->pools[r];
    for (int k = 0; k < ni; k++) {
      uint64_t at = d->pos[(size_t)r * (size_t)ni + (size_t)k];
      for (uint64_t j = 0; j < d->cnt[(size_t)r * (size_t)ni + (size_t)k]; j++) {
        d->names[at + j] = (char *)q;
        q += strlen(q) + 1;
        d->units[at + j] = q;
        q += strlen(q) + 1;
      }
    }
  }
  free(all);
  d->began = 1;
  return d->inner->begin(d->inner, d->total, d->names, d->units, e);
}

/* Place rank r's row v (in its item order) into the whole row. */
static void place(dist_sink *d, int r, const double *v) {
  const int ni = d->nseg;
  for (int k = 0; k < ni; k++) {
    uint64_t c = d->cnt[(size_t)r * (size_t)ni + (size_t)k];
    memcpy(d->row + d->pos[(size_t)r * (size_t)ni + (size_t)k], v, sizeof(double) * c);
    v += c;
  }
}

static int ds_row(lied_sink *s, double t, const double *v, lied_err *e) {
  dist_sink *d = (dist_sink *)s;
  if (rank_ != 0) {
    d->buf[0] = t;
    memcpy(d->buf + 1, v, sizeof(double) * d->n);
    MPI_Send(d->buf, (int)(d->n + 1), MPI_DOUBLE, 0, TAG_ROW, MPI_COMM_WORLD);
    d->rows++;
    return LIED_OK;
  }
  place(d, 0, v);
  const int ni = d->nseg;
  for (int r = 1; r < size_; r++) {
    uint64_t nr = 0;
    for (int k = 0; k < ni; k++) nr += d->cnt[(size_t)r * (size_t)ni + (size_t)k];
    MPI_Status st;
    MPI_Recv(d->buf, (int)(nr + 1), MPI_DOUBLE, r, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    char what[200];
    if (st.MPI_TAG == TAG_END) {
      snprintf(what, sizeof what, "its run ended after %ld rows; rank 0 has a row at t = %.17g",
               d->rows, t);
      return fail_rank(e, r, what);
    }
    if (memcmp(&d->buf[0], &t, sizeof t) != 0) {
      snprintf(what, sizeof what, "a row at t = %.17g where rank 0 has t = %.17g", d->buf[0], t);
      return fail_rank(e, r, what);
    }
    place(d, r, d->buf + 1);
  }
  d->rows++;
  return d->inner->row(d->inner, t, d->row, e);
}

static int ds_end(lied_sink *s, lied_err *e) {
  dist_sink *d = (dist_sink *)s;
  if (!d->began) return LIED_OK;
  if (rank_ != 0) {
    double rows = (double)d->rows;
    MPI_Send(&rows, 1, MPI_DOUBLE, 0, TAG_END, MPI_COMM_WORLD);
    d->began = 0;
    return LIED_OK;
  }
  d->began = 0;
  int rc = LIED_OK;
  const int ni = d->nseg;
  for (int r = 1; r < size_ && rc == LIED_OK; r++) {
    uint64_t nr = 0;
    for (int k = 0; k < ni; k++) nr += d->cnt[(size_t)r * (size_t)ni + (size_t)k];
    MPI_Status st;
    MPI_Recv(d->buf, (int)(nr + 1), MPI_DOUBLE, r, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG != TAG_END) {
      char what[200];
      snprintf(what, sizeof what, "a row at t = %.17g after rank 0's last (%ld rows)", d->buf[0],
               d->rows);
      rc = fail_rank(e, r, what);
    }
  }
  int rc2 = d->inner->end(d->inner, e);
  return rc ? rc : rc2;
}

static void ds_destroy(lied_sink *s) {
  dist_sink *d = (dist_sink *)s;
  if (d->inner) d->inner->destroy(d->inner);
  for (int r = 0; d->pools && r < size_; r++) free(d->pools[r]);
  free(d->pools);
  free(d->names);
  free(d->units);
  free(d->cnt);
  free(d->pos);
  free(d->row);
  free(d->buf);
  free(d);
}

lied_sink *lied_dist_sink(lied_sink *inner, const lied_recorder *rec, lied_err *e) {
  dist_sink *d = lied_xcalloc(1, sizeof *d, "gathering sink", e);
  if (!d) {
    if (inner) inner->destroy(inner);
    return NULL;
  }
  d->base = (lied_sink){ds_begin, ds_row, ds_end, ds_destroy};
  d->inner = inner;
  d->rec = rec;
  return &d->base;
}

/* ---- parameters ----------------------------------------------------------------- */

int lied_dist_params(lied_params *p, size_t max, lied_err *e) {
  /* per rank: n, too many (collect gave none although the slice has some),
   * bytes of names; then the counts per spec */
  uint64_t head[3] = {p->n, 0, 0};
  char *packed = NULL;
  if (p->n) {
    packed = pack(p->n, p->names, p->units, &head[2], e);
    if (!packed) return LIED_E_NOMEM;
  }
  uint64_t *heads = NULL;
  if (rank_ == 0 && !(heads = lied_xcalloc((size_t)size_ * 3, sizeof *heads, "parameters", e))) {
    free(packed);
    return LIED_E_NOMEM;
  }
  MPI_Gather(head, 3, MPI_UINT64_T, heads, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  uint64_t go = 1, sum = 0;
  if (rank_ == 0) {
    for (int r = 0; r < size_; r++) {
      sum += heads[(size_t)r * 3];
      if (heads[(size_t)r * 3] == 0) go = 0; /* none there: too many (every slice has some) */
    }
    if (sum > max) go = 0;
  }
  MPI_Bcast(&go, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (!go) {
    free(heads);
    free(packed);
    lied_params_free(p);
    return LIED_OK;
  }
  const int ns = p->nseg;
  uint64_t *segs = lied_xcalloc((size_t)ns + 1, sizeof *segs, "parameters", e);
  uint64_t *all = rank_ == 0 ? lied_xcalloc((size_t)size_ * (size_t)ns + 1, sizeof *all,
                                            "parameters", e) : NULL;
  if (!segs || (rank_ == 0 && !all)) {
    free(segs);
    free(all);
    free(heads);
    free(packed);
    return LIED_E_NOMEM;
  }
  for (int k = 0; k < ns; k++) segs[k] = p->seg_n[k];
  MPI_Gather(segs, ns, MPI_UINT64_T, all, ns, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  free(segs);
  if (rank_ != 0) {
    send_bytes(packed, head[2], TAG_NAMES);
    MPI_Send(p->values, (int)p->n, MPI_DOUBLE, 0, TAG_PARAMS, MPI_COMM_WORLD);
    free(packed);
    lied_params_free(p);
    return LIED_OK;
  }
  /* rank 0: the whole ensemble's parameters in q */
  lied_params q;
  memset(&q, 0, sizeof q);
  uint64_t *pos = lied_xcalloc((size_t)size_ * (size_t)ns + 1, sizeof *pos, "parameters", e);
  q.names = lied_xcalloc(sum, sizeof *q.names, "parameters", e);
  q.units = lied_xcalloc(sum, sizeof *q.units, "parameters", e);
  q.values = lied_xcalloc(sum, sizeof *q.values, "parameters", e);
  int rc = LIED_OK;
  if (!pos || !q.names || !q.units || !q.values) rc = LIED_E_NOMEM;
  if (rc == LIED_OK) {
    positions(all, ns, pos);
    q.n = sum;
  }
  for (int r = 0; r < size_; r++) {
    uint64_t nr = heads[(size_t)r * 3], len = heads[(size_t)r * 3 + 2];
    char *buf = r == 0 ? packed : lied_xmalloc(len ? len : 1, "parameters", e);
    double *vals = r == 0 ? p->values : lied_xmalloc(sizeof(double) * nr, "parameters", e);
    if (r != 0) { /* received also after a failure here: the sender waits for it */
      char *b = buf ? buf : malloc(len ? len : 1);
      double *v = vals ? vals : malloc(sizeof(double) * nr);
      if (b && v) {
        recv_bytes(b, len, r, TAG_NAMES);
        MPI_Recv(v, (int)nr, MPI_DOUBLE, r, TAG_PARAMS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      if (!b || !v) rc = lied_errc(e, LIED_E_NOMEM, "out of memory (parameters)");
      buf = b, vals = v;
    }
    if (rc == LIED_OK) {
      const char *s = buf;
      uint64_t i = 0, own = 0; /* own: rank 0's first entry of spec k */
      for (int k = 0; k < ns && rc == LIED_OK; own += all[k], k++) {
        uint64_t at = pos[(size_t)r * (size_t)ns + (size_t)k];
        for (uint64_t j = 0; j < all[(size_t)r * (size_t)ns + (size_t)k]; j++, i++) {
          const char *u = s + strlen(s) + 1;
          q.names[at + j] = lied_strdup(s, e);
          if (!q.names[at + j]) { rc = LIED_E_NOMEM; break; }
          /* the unit strings are the classes': rank 0's own entry at the
           * same place in a copy (every copy of a spec lists the same
           * parameters, and every slice has copies of every spec) */
          q.units[at + j] = all[k] ? p->units[own + j % all[k]] : "";
          q.values[at + j] = vals[i];
          s = u + strlen(u) + 1;
        }
      }
    }
    if (r != 0) {
      free(buf);
      free(vals);
    }
  }
  free(packed);
  free(heads);
  free(all);
  free(pos);
  lied_params_free(p);
  if (rc != LIED_OK) {
    lied_params_free(&q);
    return rc;
  }
  *p = q;
  return LIED_OK;
}

/* ---- checks every rank makes alike, reported once -------------------------------- */

int lied_dist_first_failure(int failed) {
  if (!started || size_ < 2) return failed ? rank_ : -1;
  int mine = failed ? rank_ : size_, low = size_;
  MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return low < size_ ? low : -1;
}

/* Wait until a message from rank `from` with tag `tag` is there, asleep
 * between looks (1 ms): MPI_Recv would spin at full speed, taking a core from
 * the ranks still running their points on a shared machine. */
static void await_message(int from, int tag) {
  const struct timespec nap = {0, 1000000};
  for (;;) {
    int flag = 0;
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    nanosleep(&nap, NULL);
  }
}

void lied_dist_wait_end(int r) {
  if (!started || size_ < 2 || r == rank_) return;
  /* rank r never sends this: it reports and ends every rank (MPI_Abort) */
  await_message(r, TAG_NEVER);
  fprintf(stderr, "lied: rank %d of %d: rank %d sent what it never sends\n", rank_, size_, r);
  lied_dist_abort(1);
}

/* ---- sweeps: byte strings between ranks (lied.sweep) ----------------------------- */

int lied_dist_send(int to, const void *p, uint64_t n, lied_err *e) {
  if (to < 0 || to >= size_ || to == rank_)
    return lied_errc(e, LIED_E_USAGE, "send: no rank %d to send to (rank %d of %d)", to, rank_,
                     size_);
  MPI_Send(&n, 1, MPI_UINT64_T, to, TAG_SWEEP, MPI_COMM_WORLD);
  const char *c = p;
  for (uint64_t o = 0; o < n; o += CHUNK)
    MPI_Send(c + o, (int)(n - o < CHUNK ? n - o : CHUNK), MPI_BYTE, to, TAG_SWEEP, MPI_COMM_WORLD);
  return LIED_OK;
}

int lied_dist_recv(int from, char **p, uint64_t *n, lied_err *e) {
  *p = NULL;
  *n = 0;
  if (from < 0 || from >= size_ || from == rank_)
    return lied_errc(e, LIED_E_USAGE, "receive: no rank %d to receive from (rank %d of %d)", from,
                     rank_, size_);
  uint64_t len = 0;
  await_message(from, TAG_SWEEP); /* the sender may still be running */
  MPI_Recv(&len, 1, MPI_UINT64_T, from, TAG_SWEEP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  char *b = lied_xmalloc(len + 1, "message from another rank", e);
  if (!b) return LIED_E_NOMEM; /* the sender's messages stay unreceived: the caller aborts */
  for (uint64_t o = 0; o < len; o += CHUNK)
    MPI_Recv(b + o, (int)(len - o < CHUNK ? len - o : CHUNK), MPI_BYTE, from, TAG_SWEEP,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  b[len] = 0;
  *p = b;
  *n = len;
  return LIED_OK;
}

void lied_dist_sink_coupled(lied_sink *s, const lied_model *m) {
  ((dist_sink *)s)->m = m;
}
