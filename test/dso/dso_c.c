/* A shared library of the program's own, in C, with global, static and
 * static local variables: each subrank has its own copy of each
 * (docs/privatization.md, "Shared libraries"). */
#include <mpi.h>

int dso_c_counter = 5;     /* initialized: the copy starts at 5 */
static int dso_c_calls;    /* zero */

/* Adds rank + 1 to the counter; returns counter * 1000 + calls * 10 + the
 * static local's count: for a subrank's n-th call, with its own copies,
 * (5 + n (rank + 1)) * 1000 + 10 n + n. */
int dso_c_step(void) {
  static int local_calls;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  dso_c_counter += rank + 1;
  dso_c_calls++;
  local_calls++;
  return dso_c_counter * 1000 + dso_c_calls * 10 + local_calls;
}

int *dso_c_counter_address(void) { return &dso_c_counter; }
