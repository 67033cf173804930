/* How a program ends: exit() after MPI_Finalize (on every subrank or on one),
 * a non-zero exit() before MPI_Finalize, a status returned from main. Every
 * subrank prints "done R" before it ends; the test checks the job's exit
 * status and that every subrank got that far.
 * usage: exit_paths MODE, MODE one of
 *   exit0        MPI_Finalize, then exit(0) everywhere          -> status 0
 *   exit5_all    MPI_Finalize, then exit(5) everywhere          -> status 5
 *   exit3_one    MPI_Finalize, then exit(3) on rank 1 only      -> status 3
 *   return7      MPI_Finalize, then return 7 from main          -> status 7
 *   exit4_early  rank 0 exit(4) before MPI_Finalize while the
 *                others wait in a barrier                       -> status 4
 *   atexit       an atexit handler registered by rank 0 runs once -> status 0
 *   segv         the last rank writes through a null pointer    -> SIGSEGV */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void at_exit_handler(void) { printf("atexit handler ran\n"); }

/* A real SIGSEGV. (UBSan, in the sanitizer build, would stop at the null
 * store first: not checked here.) */
#if defined(__GNUC__)
__attribute__((no_sanitize_undefined))
#endif
static void fault(void) {
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "exit0";
  if (strcmp(mode, "exit4_early") == 0) {
    if (rank == 0) {
      printf("done %d\n", rank);
      fflush(stdout);
      exit(4);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* never completes: rank 0 is gone */
    printf("FAIL barrier completed on %d\n", rank);
    return 1;
  }
  if (strcmp(mode, "atexit") == 0 && rank == 0) atexit(at_exit_handler);
  if (strcmp(mode, "segv") == 0 && rank == size - 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    fault();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("done %d\n", rank);
  MPI_Finalize();
  if (strcmp(mode, "exit0") == 0 || strcmp(mode, "atexit") == 0) exit(0);
  if (strcmp(mode, "exit5_all") == 0) exit(5);
  if (strcmp(mode, "exit3_one") == 0) {
    if (rank == 1) exit(3);
    return 0;
  }
  if (strcmp(mode, "return7") == 0) return 7;
  fprintf(stderr, "exit_paths: unknown mode %s\n", mode);
  return 99;
}
