#!/bin/bash
# lied with and without MPI (docs/distributed.md): --help lists mpirun only
# when lied.core.mpi().built says lied has MPI; a lied without MPI that a
# launcher starts as one of several processes refuses (exit 1) instead of
# running the whole model in each; started alone (size 1) it runs as always.
# The mpirun runs themselves are tests/mpi/test_mpi.sh (MPI builds only).
. "$(dirname "$0")/lib.sh" "$@"

expect 0 "mpi()" -- "$LIED" -e 'local m = lied.core.mpi(); print(m.rank, m.size, m.built)'
built=$(awk '{ print $3 }' "$tmp/out")
check "grep -qx '0	1	\(true\|false\)' '$tmp/out'" "lied.core.mpi() outside mpirun: rank 0 of 1"
expect 0 "help" -- "$LIED" --help
if [ "$built" = true ]; then
  contains "$tmp/out" "mpirun -np P lied run FILE.lua [options]" "--help lists mpirun"
  expect 0 "help run" -- "$LIED" help run
  contains "$tmp/out" "rank 0 writes the outputs in copy order" "lied help run lists mpirun"
else
  lacks "$tmp/out" "mpirun" "--help of a lied without MPI"
  OMPI_COMM_WORLD_SIZE=2 expect_error 1 "lied: started by mpirun with 2 processes, but lied was built without MPI (cmake -DLIED_MPI=ON with libopenmpi-dev): run it with one process" -- \
    "$LIED" run examples/scaling.lua --stop 0.01 --out none
  OMPI_COMM_WORLD_SIZE=1 expect 0 "one process under a launcher" -- \
    "$LIED" run examples/scaling.lua --stop 0.01 --out none
fi
finish
