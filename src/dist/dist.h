/* dist.h - MPI ensembles (docs/distributed.md): the ranks of a run started
 * by mpirun, the sink that gathers every rank's slice of an ensemble into
 * one result in global copy order, and the parameters likewise.
 *
 * dist_mpi.c is the only file of lied that includes mpi.h; a build without
 * MPI (cmake -DLIED_MPI=OFF, or no MPI found) compiles dist_one.c, the
 * single process: rank 0 of 1. Functions returning int follow core/err.h. */
#ifndef LIED_DIST_DIST_H
#define LIED_DIST_DIST_H
#include "core/err.h"
#include "core/model.h"
#include "record/recorder.h"
#include "sched/sched.h"

/* Start MPI when the process was started by an MPI launcher (mpirun sets
 * OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK); otherwise nothing. 0, or -1
 * with a message on stderr when MPI_Init failed (or, built without MPI, when
 * a launcher started several processes). */
int lied_dist_init(int *argc, char ***argv);
/* MPI_Finalize when lied_dist_init started MPI. */
void lied_dist_finalize(void);
int lied_dist_rank(void);
int lied_dist_size(void);
/* 1 when lied was built with MPI. */
int lied_dist_built(void);
/* End every rank with exit status code (MPI_Abort); with one process,
 * exit(code). */
_Noreturn void lied_dist_abort(int code);

/* The sink every rank of a distributed run feeds: on rank 0 `inner` (owned)
 * receives the rows of the whole ensemble, columns in the order one process
 * would record them (rec's items, each over the ranks in order); the other
 * ranks pass NULL and send their rows to rank 0, one row at a time. rec is
 * the rank's recorder (its items must outlive the sink). */
lied_sink *lied_dist_sink(lied_sink *inner, const lied_recorder *rec, lied_err *e);
/* A slice of coupled arrays (several top-level arrays): the sink orders
 * each item's columns array by array, each over the ranks (m is the
 * rank's model, which must outlive the sink). */
void lied_dist_sink_coupled(lied_sink *s, const lied_model *m);

/* Collective: p holds this rank's parameters (lied_params_collect with
 * max); afterwards rank 0's p holds the whole ensemble's, in the order one
 * process collects them (each spec over the ranks), or none when there are
 * more than max; the other ranks' p is emptied. */
int lied_dist_params(lied_params *p, size_t max, lied_err *e);

/* ---- sweeps (lied.sweep; docs/distributed.md, "Sweeps") ----------------- */

/* Send n bytes to rank `to`: the length, then the bytes in messages of at
 * most 64 MiB (tag of their own, so they never mix with a run's rows). */
int lied_dist_send(int to, const void *p, uint64_t n, lied_err *e);
/* Receive what rank `from` sent with lied_dist_send: *p (malloc'ed, n + 1
 * bytes with a 0 after them; the caller frees it) and *n. Waits asleep (1 ms
 * naps, not MPI's spinning) until the sender starts. */
int lied_dist_recv(int from, char **p, uint64_t *n, lied_err *e);

/* Collective: the lowest rank that passes failed != 0, or -1 when none does.
 * A check every rank makes alike (a bad input) is reported by that rank
 * alone: the others call lied_dist_wait_end(it). */
int lied_dist_first_failure(int failed);
/* Wait until rank r (which is failing) ends every rank with MPI_Abort; with
 * one process, return. */
void lied_dist_wait_end(int r);

/* ---- events (dist_events.c) --------------------------------------------- */

/* Collective under mpirun. An ensemble whose copies have state events
 * (zero-crossing functions) cannot be split: one process stops every copy
 * at every copy's event, a rank only at its own copies'. Kinks
 * (LIED_ZC_KINK) count only when the run locates them (`kinks`: an
 * adaptive solver). LIED_E_USAGE on rank 0 naming its first such component
 * (the other ranks wait for its end), or LIED_OK (time events are left to
 * the row check of the gathering sink: shared times give the same bits). */
int lied_dist_check_events(const lied_model *m, int kinks, lied_err *e);

/* ---- coupled arrays across ranks (halo_mpi.c) ----------------------------- */

/* The halo exchange of a slice of coupled arrays (lua/lied/halo.lua built
 * it: own copies and ghost copies of the neighbours'). */
typedef struct lied_halo lied_halo;

/* Collective. *h = NULL when the model is no slice of coupled arrays (an
 * ensemble, one process); else the exchange, set up: which states of this
 * rank go to which rank, which come from which. LIED_E_USAGE for a solver
 * other than a fixed-step explicit one (named in the message); LIED_E_MODEL
 * when an owned copy's derivative at (t, start values) reads the ghost
 * copies at the slice's ends (moved a little for the check): the halo
 * would be too narrow. The model's states are left at their start values. */
int lied_halo_new(lied_halo **h, lied_sched *s, double t, const char *solver, lied_err *e);
/* The ghosts' states of x overwritten with their owners' (x is a state
 * vector of the slice, the owners' at the same stage): collective among
 * neighbours; the sim option `halo` (solve/sim.h). */
int lied_halo_exchange(void *h, double *x, lied_err *e);
void lied_halo_free(lied_halo *h);
/* Drop the ghost copies' entries from p (lied_params_collect of a slice of
 * coupled arrays), so that lied_dist_params gathers each once. */
int lied_halo_own_params(lied_params *p, const lied_model *m);

#endif
