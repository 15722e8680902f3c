/* dist_one.c - lied built without MPI: one process, rank 0 of 1 (dist.h).
 * Distributed runs never start here (lua_run.c gathers only when there is
 * more than one rank); the sink and the parameters say so if called. */
#include <stdio.h>
#include <stdlib.h>
#include "dist/dist.h"

/* Started by mpirun with several processes, each would run the whole model
 * and write the same files: refused. */
int lied_dist_init(int *argc, char ***argv) {
  const char *n = getenv("OMPI_COMM_WORLD_SIZE");
  if (!n) n = getenv("PMI_SIZE");
  if (n && atoi(n) > 1) {
    fprintf(stderr, "lied: started by mpirun with %d processes, but lied was built without MPI "
                    "(cmake -DLIED_MPI=ON with libopenmpi-dev): run it with one process\n",
            atoi(n));
    return -1;
  }
  return 0;
}
void lied_dist_finalize(void) {}
int lied_dist_rank(void) { return 0; }
int lied_dist_size(void) { return 1; }
int lied_dist_built(void) { return 0; }
_Noreturn void lied_dist_abort(int code) { exit(code); }

lied_sink *lied_dist_sink(lied_sink *inner, const lied_recorder *rec, lied_err *e) {
  lied_errc(e, LIED_E_USAGE, "lied was built without MPI: no distributed runs");
  return NULL;
}

int lied_dist_params(lied_params *p, size_t max, lied_err *e) {
  return lied_errc(e, LIED_E_USAGE, "lied was built without MPI: no distributed runs");
}

int lied_dist_send(int to, const void *p, uint64_t n, lied_err *e) {
  (void)p, (void)n;
  return lied_errc(e, LIED_E_USAGE, "send: no rank %d to send to (one process)", to);
}

int lied_dist_recv(int from, char **p, uint64_t *n, lied_err *e) {
  *p = NULL;
  *n = 0;
  return lied_errc(e, LIED_E_USAGE, "receive: no rank %d to receive from (one process)", from);
}

int lied_dist_first_failure(int failed) { return failed ? 0 : -1; }
void lied_dist_wait_end(int r) { (void)r; }

/* One process holds whole arrays: no slice, no halo. */
int lied_halo_new(lied_halo **h, lied_sched *s, double t, const char *solver, lied_err *e) {
  (void)s, (void)t, (void)solver, (void)e;
  *h = NULL;
  return LIED_OK;
}
int lied_halo_exchange(void *h, double *x, lied_err *e) {
  (void)h, (void)x;
  return lied_errc(e, LIED_E_USAGE, "lied was built without MPI: no distributed runs");
}
void lied_halo_free(lied_halo *h) { (void)h; }
int lied_halo_own_params(lied_params *p, const lied_model *m) {
  (void)p, (void)m;
  return LIED_OK;
}
void lied_dist_sink_coupled(lied_sink *s, const lied_model *m) {
  (void)s, (void)m;
}
