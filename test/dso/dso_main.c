/* Shared libraries built with tucanacc -shared, linked into the program or
 * (-DUSE_DLOPEN) opened with dlopen after MPI_Init: each subrank sees its own
 * copies of their variables. Prints "dso: ok" on rank 0 when every subrank
 * agrees. */
#include <mpi.h>
#include <stdio.h>
#ifdef USE_DLOPEN
#include <dlfcn.h>
#include <stdlib.h>
static int (*dso_c_step)(void);
static int (*dso_cxx_step)(int);
#else
int dso_c_step(void);
int dso_cxx_step(int n);
#endif

int main(int argc, char **argv) {
  int rank, ok = 1, all = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef USE_DLOPEN
  void *c = dlopen(DSO_DIR "/libdso_c.so", RTLD_NOW | RTLD_LOCAL);
  void *cxx = dlopen(DSO_DIR "/libdso_cxx.so", RTLD_NOW | RTLD_LOCAL);
  if (!c || !cxx) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  *(void **)&dso_c_step = dlsym(c, "dso_c_step");
  *(void **)&dso_cxx_step = dlsym(cxx, "dso_cxx_step");
  if (!dso_c_step || !dso_cxx_step) MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  for (int n = 1; n <= 3; n++) {
    int got = dso_c_step();
    int want = (5 + n * (rank + 1)) * 1000 + 10 * n + n;
    if (got != want) {
      printf("FAIL: rank %d, call %d of dso_c_step: %d, expected %d\n", rank, n, got, want);
      ok = 0;
    }
    if (!dso_cxx_step(n)) {
      printf("FAIL: rank %d, call %d of dso_cxx_step: not its own copies\n", rank, n);
      ok = 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
#ifdef USE_DLOPEN
  dlclose(cxx);
  dlclose(c);
#endif
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf("dso: %s\n", all ? "ok" : "FAILED");
  MPI_Finalize();
  return all ? 0 : 1;
}
