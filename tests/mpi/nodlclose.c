/* Preloaded into the MPI tests' processes under AddressSanitizer
 * (tests/CMakeLists.txt): dlclose does nothing, so Open MPI's plugins stay
 * mapped until exit and LeakSanitizer names their frames. Open MPI keeps
 * allocations of MPI_Init until exit; tests/mpi/lsan.supp suppresses the
 * leaks whose stacks pass through its libraries and plugins, which it can
 * match only while they are mapped. Without this, the whole stacks were
 * taken by the slow unwinder at every malloc (fast_unwind_on_malloc=0),
 * three times the tests' time. Built without sanitizers: bash and mpirun
 * load it too. */
#include <dlfcn.h>

int dlclose(void *handle) {
  (void)handle;
  return 0;
}
