/* bench/pingpong.c - MPI latency and bandwidth between two ranks (the
 * figures of docs/distributed.md): rank 0 sends a message of m bytes to
 * rank 1, which sends it back; the half round trip, the fastest of
 * `rounds` batches of `reps` round trips, for m = 8 B .. 16 MiB. Prints a
 * table: bytes, microseconds per one-way message, MB/s (bytes / one-way
 * time).
 *   mpirun -np 2 build/bench/pingpong [reps]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "pingpong: run with exactly 2 ranks (mpirun -np 2)\n");
    MPI_Finalize();
    return 2;
  }
  int reps = argc > 1 ? atoi(argv[1]) : 1000;
  if (reps < 1) reps = 1;
  const int rounds = 5;
  const size_t maxb = (size_t)16 << 20;
  char *buf = malloc(maxb);
  if (!buf) {
    fprintf(stderr, "pingpong: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buf, 1, maxb);
  if (rank == 0) printf("%10s %12s %12s\n", "bytes", "us/message", "MB/s");
  for (size_t m = 8; m <= maxb; m *= 4) {
    int r = m >= ((size_t)1 << 20) ? (reps / 50 > 10 ? reps / 50 : 10) : reps;
    double best = 1e300;
    for (int k = 0; k < rounds; k++) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int i = 0; i < r; i++) {
        if (rank == 0) {
          MPI_Send(buf, (int)m, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
          MPI_Recv(buf, (int)m, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf, (int)m, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf, (int)m, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
      }
      double t = (MPI_Wtime() - t0) / (2.0 * r);
      if (t < best) best = t;
    }
    if (rank == 0) printf("%10zu %12.3f %12.1f\n", m, best * 1e6, (double)m / best / 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
