/* C tasks with shared(...) variables whose names are reused inside the task: a struct member of the same name,
   a shadowing inner local, sizeof on a shared array, address-of, a const local used as an array bound in the task */
#include <mpi.h>
#include <stdio.h>
struct S { long total; long halo[2]; };
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long total = 0;
  long halo[2] = {0, 0};
  struct S s = {100, {1, 2}};
  const int N = 4;
#pragma tucana task shared(total, halo)
  {
    long tmp[N];
    for (int i = 0; i < N; i++) tmp[i] = i + rank;
    for (int i = 0; i < N; i++) total += tmp[i];
    s.total += total;                      /* s is the task's copy */
    halo[0] = (long)(sizeof halo / sizeof halo[0]) + s.halo[1];
    long *ph = &halo[1];
    *ph = s.total;
    { long total = -1000; halo[1] += total; }   /* inner local shadows the shared one */
  }
#pragma tucana taskwait
  printf("rank %d total %ld halo %ld %ld\n", rank, total, halo[0], halo[1]);
  MPI_Finalize();
  return 0;
}
