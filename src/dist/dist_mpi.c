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

/* This rank's columns per segment (nseg of them, + 1 for the names' bytes,
 * then per item the variables it selected again: ROW_WIDTH): by recorded
 * item; for coupled arrays (d->m) by item and top-level array within it, as
 * one process walks the variables array by array (names.c). */
/* The entries of a rank's row of the gathered table (segments). */
#define ROW_WIDTH(d) ((size_t)(d)->nseg + 1 + (size_t)(d)->rec->nitems)

static uint64_t *segments(dist_sink *d, char *const *names, lied_err *e) {
  const lied_recorder *rec = d->rec;
  d->ntop = 1;
  if (d->m && d->m->nspecs && !d->m->specs[0].cls) {
    d->ntop = 0;
    for (int q = d->m->specs[0].first_child; q >= 0; q = d->m->specs[q].next_sibling) d->ntop++;
    if (d->ntop < 1) d->ntop = 1;
  }
  d->nseg = rec->nitems * d->ntop;
  uint64_t *mine =
      lied_xcalloc((size_t)d->nseg + 1 + (size_t)rec->nitems, sizeof *mine, "gathering", e);
  if (!mine) return NULL;
  size_t c = 0;
  for (int k = 0; k < rec->nitems; k++) {
    for (size_t j = 0; j < rec->item_n[k]; j++, c++)
      mine[k * d->ntop + (d->ntop > 1 ? top_index(d->m, names[c]) : 0)]++;
    mine[d->nseg + 1 + k] = rec->item_dup[k];
  }
  return mine;
}

/* Rank 0: the counts per (rank, segment) from the gathered table all (ni
 * counts and the bytes of names per rank), their positions in the whole
 * row, and the most values a rank sends (*maxn). A usage error when an item
 * of the selection matched nothing on every rank. */
static int ds_counts(dist_sink *d, const uint64_t *all, size_t *maxn, lied_err *e) {
  const lied_recorder *rec = d->rec;
  const int ni = d->nseg;
  d->cnt = lied_xcalloc((size_t)size_ * (size_t)ni + 1, sizeof *d->cnt, "gathering", e);
  d->pos = lied_xcalloc((size_t)size_ * (size_t)ni + 1, sizeof *d->pos, "gathering", e);
  d->pools = lied_xcalloc((size_t)size_, sizeof *d->pools, "gathering", e);
  if (!d->cnt || !d->pos || !d->pools) return LIED_E_NOMEM;
  *maxn = 0;
  for (int r = 0; r < size_; r++) {
    uint64_t nr = 0;
    for (int k = 0; k < ni; k++) {
      d->cnt[(size_t)r * (size_t)ni + (size_t)k] = all[(size_t)r * ROW_WIDTH(d) + (size_t)k];
      nr += all[(size_t)r * ROW_WIDTH(d) + (size_t)k];
    }
    if (nr > *maxn) *maxn = nr;
  }
  d->total = positions(d->cnt, ni, d->pos);
  for (int k = 0; k < rec->nitems; k++) {
    uint64_t t = 0; /* its columns, and the variables an earlier item took */
    for (int r = 0; r < size_; r++) {
      t += all[(size_t)r * ROW_WIDTH(d) + (size_t)ni + 1 + (size_t)k];
      for (int q = 0; q < d->ntop; q++)
        t += d->cnt[(size_t)r * (size_t)ni + (size_t)(k * d->ntop + q)];
    }
    if (t == 0 && rec->items[k][0])
      return lied_errc(e, LIED_E_USAGE, "no variable matches '%s'", rec->items[k]);
  }
  return LIED_OK;
}

/* Rank 0: every rank's names and units in the whole row's order: rank 0's
 * own from packed (kept in d->pools[0] from here on), the others'
 * received. */
static int ds_names(dist_sink *d, const uint64_t *all, char *packed, lied_err *e) {
  const int ni = d->nseg;
  for (int r = 0; r < size_; r++) {
    uint64_t len = all[(size_t)r * ROW_WIDTH(d) + (size_t)ni];
    if (r == 0) {
      d->pools[0] = packed;
    } else {
      if (!(d->pools[r] = lied_xmalloc(len ? len : 1, "gathered names", e))) return LIED_E_NOMEM;
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
  return LIED_OK;
}

/* Rank 0: the tables of the gathering (ds_counts), the rows' buffers and
 * every rank's names; packed (rank 0's names) is the sink's once given to
 * ds_names, *packed set to NULL then. */
static int ds_gather_begin(dist_sink *d, const uint64_t *all, char **packed, lied_err *e) {
  size_t maxn = 0;
  int rc = ds_counts(d, all, &maxn, e);
  if (rc) return rc;
  d->buf = lied_xmalloc(sizeof(double) * (maxn + 1), "gathered row", e);
  d->row = lied_xmalloc(sizeof(double) * (d->total + 1), "gathered row", e);
  d->names = lied_xcalloc(d->total + 1, sizeof *d->names, "gathered names", e);
  d->units = lied_xcalloc(d->total + 1, sizeof *d->units, "gathered names", e);
  if (!d->buf || !d->row || !d->names || !d->units) return LIED_E_NOMEM;
  rc = ds_names(d, all, *packed, e);
  *packed = NULL;
  return rc;
}

static int ds_begin(lied_sink *s, size_t n, char *const *names, const char *const *units,
                    lied_err *e) {
  dist_sink *d = (dist_sink *)s;
  d->n = n;
  uint64_t *mine = segments(d, names, e);
  if (!mine) return LIED_E_NOMEM;
  const int ni = d->nseg;
  uint64_t plen = 0, *all = NULL;
  char *packed = pack(n, names, units, &plen, e);
  if (packed) mine[ni] = plen;
  if (packed && rank_ == 0)
    all = lied_xcalloc((size_t)size_ * ROW_WIDTH(d), sizeof *all, "gathering", e);
  if (!packed || (rank_ == 0 && !all)) {
    free(mine);
    free(packed);
    return LIED_E_NOMEM;
  }
  MPI_Gather(mine, (int)ROW_WIDTH(d), MPI_UINT64_T, all, (int)ROW_WIDTH(d), MPI_UINT64_T, 0,
             MPI_COMM_WORLD);
  free(mine);
  int rc = LIED_OK;
  if (rank_ != 0) {
    send_bytes(packed, plen, TAG_NAMES);
    d->buf = lied_xmalloc(sizeof(double) * (n + 1), "row to send", e);
    if (!d->buf) rc = LIED_E_NOMEM;
  } else {
    rc = ds_gather_begin(d, all, &packed, e);
  }
  free(packed);
  free(all);
  if (rc) return rc;
  d->began = 1;
  return rank_ != 0 ? LIED_OK : d->inner->begin(d->inner, d->total, d->names, d->units, e);
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

/* Every rank's count of parameters and bytes of names (head: n, 0, bytes)
 * to rank 0, which decides whether they go with the results: not when a
 * rank has none (collect gave none: too many) or all of them are more than
 * max. The decision (1 or 0) is every rank's; *heads (rank 0: 3 per rank)
 * and *sum are rank 0's. A negative status when out of memory. */
static int params_heads(const uint64_t head[3], size_t max, uint64_t **heads, uint64_t *sum,
                        lied_err *e) {
  *sum = 0;
  if (rank_ == 0 && !(*heads = lied_xcalloc((size_t)size_ * 3, sizeof **heads, "parameters", e)))
    return LIED_E_NOMEM;
  MPI_Gather(head, 3, MPI_UINT64_T, *heads, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  uint64_t go = 1;
  if (rank_ == 0) {
    for (int r = 0; r < size_; r++) {
      *sum += (*heads)[(size_t)r * 3];
      if ((*heads)[(size_t)r * 3] == 0) go = 0; /* none there: too many (every slice has some) */
    }
    if (*sum > max) go = 0;
  }
  MPI_Bcast(&go, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return (int)go;
}

/* Rank 0: receive rank r's names (len bytes) and nr values into *buf and
 * *vals (the caller frees them); received also when allocating failed here,
 * into plain malloc'ed space if there is any, since the sender waits. */
static int recv_params(int r, uint64_t nr, uint64_t len, char **buf, double **vals,
                       lied_err *e) {
  char *b = lied_xmalloc(len ? len : 1, "parameters", e);
  double *v = lied_xmalloc(sizeof(double) * nr, "parameters", e);
  if (!b) b = malloc(len ? len : 1);
  if (!v) v = malloc(sizeof(double) * nr);
  if (b && v) {
    recv_bytes(b, len, r, TAG_NAMES);
    MPI_Recv(v, (int)nr, MPI_DOUBLE, r, TAG_PARAMS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  *buf = b;
  *vals = v;
  return b && v ? LIED_OK : lied_errc(e, LIED_E_NOMEM, "out of memory (parameters)");
}

/* Rank 0: rank r's parameters (names and units packed in buf, values in
 * vals, segment by segment) into q at their positions pos. */
static int place_params(lied_params *q, const lied_params *p, const uint64_t *all,
                        const uint64_t *pos, int r, const char *buf, const double *vals,
                        lied_err *e) {
  const int ns = p->nseg;
  const char *s = buf;
  uint64_t i = 0, own = 0; /* own: rank 0's first entry of spec k */
  for (int k = 0; k < ns; own += all[k], k++) {
    uint64_t at = pos[(size_t)r * (size_t)ns + (size_t)k];
    for (uint64_t j = 0; j < all[(size_t)r * (size_t)ns + (size_t)k]; j++, i++) {
      const char *u = s + strlen(s) + 1;
      q->names[at + j] = lied_strdup(s, e);
      if (!q->names[at + j]) return LIED_E_NOMEM;
      /* the unit strings are the classes': rank 0's own entry at the same
       * place in a copy (every copy of a spec lists the same parameters,
       * and every slice has copies of every spec) */
      q->units[at + j] = all[k] ? p->units[own + j % all[k]] : "";
      q->values[at + j] = vals[i];
      s = u + strlen(u) + 1;
    }
  }
  return LIED_OK;
}

/* Rank 0: the whole ensemble's parameters into q (sum of them; every
 * rank's counts per segment in all, 3 numbers per rank in heads), its own
 * names packed in packed. */
static int gather_params(lied_params *q, const lied_params *p, const uint64_t *all,
                         const uint64_t *heads, uint64_t sum, char *packed, lied_err *e) {
  const int ns = p->nseg;
  uint64_t *pos = lied_xcalloc((size_t)size_ * (size_t)ns + 1, sizeof *pos, "parameters", e);
  q->names = lied_xcalloc(sum, sizeof *q->names, "parameters", e);
  q->units = lied_xcalloc(sum, sizeof *q->units, "parameters", e);
  q->values = lied_xcalloc(sum, sizeof *q->values, "parameters", e);
  int rc = LIED_OK;
  if (!pos || !q->names || !q->units || !q->values) rc = LIED_E_NOMEM;
  if (rc == LIED_OK) {
    positions(all, ns, pos);
    q->n = sum;
  }
  for (int r = 0; r < size_; r++) {
    char *b = NULL;
    double *v = NULL;
    if (r != 0) {
      const int rr = recv_params(r, heads[(size_t)r * 3], heads[(size_t)r * 3 + 2], &b, &v, e);
      if (rr) rc = rr;
    }
    if (rc == LIED_OK)
      rc = place_params(q, p, all, pos, r, r ? b : packed, r ? v : p->values, e);
    free(b);
    free(v);
  }
  free(pos);
  return rc;
}

int lied_dist_params(lied_params *p, size_t max, lied_err *e) {
  /* per rank: n, too many (collect gave none although the slice has some),
   * bytes of names; then the counts per spec */
  uint64_t head[3] = {p->n, 0, 0}, *heads = NULL, *segs = NULL, *all = NULL, sum = 0;
  char *packed = NULL;
  lied_params q;
  memset(&q, 0, sizeof q);
  int rc = LIED_OK;
  if (p->n && !(packed = pack(p->n, p->names, p->units, &head[2], e))) return LIED_E_NOMEM;
  const int go = params_heads(head, max, &heads, &sum, e);
  if (go < 0) rc = go;
  const int ns = p->nseg;
  if (go > 0) {
    segs = lied_xcalloc((size_t)ns + 1, sizeof *segs, "parameters", e);
    if (rank_ == 0) all = lied_xcalloc((size_t)size_ * (size_t)ns + 1, sizeof *all, "parameters", e);
    if (!segs || (rank_ == 0 && !all)) rc = LIED_E_NOMEM;
  }
  int reached = go == 0; /* the end of the exchange: p is done with */
  if (go > 0 && rc == LIED_OK) {
    reached = 1;
    for (int k = 0; k < ns; k++) segs[k] = p->seg_n[k];
    MPI_Gather(segs, ns, MPI_UINT64_T, all, ns, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank_ != 0) {
      send_bytes(packed, head[2], TAG_NAMES);
      MPI_Send(p->values, (int)p->n, MPI_DOUBLE, 0, TAG_PARAMS, MPI_COMM_WORLD);
    } else {
      rc = gather_params(&q, p, all, heads, sum, packed, e);
    }
  }
  free(segs);
  free(all);
  free(heads);
  free(packed);
  if (reached) lied_params_free(p); /* none with the results, sent, or gathered in q */
  if (rc != LIED_OK) {
    lied_params_free(&q);
    return rc;
  }
  if (go > 0 && rank_ == 0) *p = q;
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
