#!/bin/bash
# tests/mpi/mpirun.sh MPIRUN ARGS...: MPIRUN ARGS with a session directory of
# its own. Open MPI creates its per-user session directory (/tmp/ompi.HOST.UID)
# by testing and then making it: two mpirun started at once (the MPI tests
# start their error cases together, beside other tests) can both test, and
# the second to make it fails ("mkdir ... File exists", exit 1). Each call
# gets a fresh base under LIED_MPI_TMP (the test's temporary directory,
# removed with it); exec, so that timeout's signals reach mpirun.
base=$(mktemp -d "${LIED_MPI_TMP:-${TMPDIR:-/tmp}}/ompi.XXXXXX") || exit 1
OMPI_MCA_orte_tmpdir_base=$base exec "$@"
