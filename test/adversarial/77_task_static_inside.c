/* static locals declared INSIDE a task's statement and inside a taskloop body (moved into outlined functions): they
   must stay per rank (privatized) and keep their values across spawns; a macro in the task names a local implicitly */
#include <mpi.h>
#include <stdio.h>
#define NOTE(v) (log_sum += (v) * (rank + 1))
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long log_sum = 0;
  long *pl = &log_sum;
  long res[6] = {0};
  long *pr = res;
  for (int k = 0; k < 6; k++) {
#pragma tucana task depend(inout: log_sum)
    {
      static long calls;
      calls += rank + 1;
      pr[k] = calls;
      long log_sum = 0;          /* shadows; NOTE writes this copy */
      NOTE(k);
      *pl += log_sum;
    }
  }
#pragma tucana taskwait
#pragma tucana taskloop num_tasks(1)
  for (int i = 0; i < 4; i++) { static int seen; seen += i + rank; pr[i] += seen; }
  printf("rank %d log %ld res %ld %ld %ld %ld %ld %ld\n", rank, log_sum, res[0], res[1], res[2], res[3], res[4], res[5]);
  MPI_Finalize();
  return 0;
}
