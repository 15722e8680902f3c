#!/bin/bash
# Install lied's build and run dependencies from Debian when they are missing.
set -euo pipefail
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# lua5.4: the stock interpreter, to test lied as a Lua module (tests/package)
# libmatio-dev: an independent MAT file reader for tests/unit/test_mat.c
# libsuitesparse-dev: KLU, the sparse LU of the implicit solvers
# libsundials-dev: CVODE, the cvode solver (optional at build time)
# liblapack-dev: LAPACK, dense eigenvalues for linearisation
# clang, libclang-rt-dev: libFuzzer, for the fuzz smoke test (tests/fuzz)
# libopenmpi-dev, openmpi-bin: MPI ensembles (optional at build time) and the
# mpirun test (tests/mpi)
for p in pkg-config liblua5.4-dev lua5.4 libreadline-dev gnuplot-nox valgrind libmatio-dev \
         libsuitesparse-dev libsundials-dev liblapack-dev clang libclang-rt-dev \
         libopenmpi-dev openmpi-bin; do
  have_pkg "$p" || need+=("$p")
done
# any gnuplot will do
if have_pkg gnuplot-x11 || have_pkg gnuplot-qt; then
  need=("${need[@]/gnuplot-nox}")
fi
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends ${need[*]} >/dev/null
