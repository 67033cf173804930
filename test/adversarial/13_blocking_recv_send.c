/* blocking MPI_Recv in receive region and MPI_Send in send region (reinterpreted as posts), status used later */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int in[3], out[3], cnt = 0;
  long acc = 0;
  MPI_Status st;
#pragma tucana superblock
  for (int it = 0; it < 8; it++) {
#pragma tucana send
    { out[0] = rank; out[1] = it; out[2] = (int)(acc % 1000); MPI_Send(out, 3, MPI_INT, right, it, MPI_COMM_WORLD); }
#pragma tucana receive
    MPI_Recv(in, 3, MPI_INT, left, it, MPI_COMM_WORLD, &st);
    #pragma tucana compute
    {
      MPI_Get_count(&st, MPI_INT, &cnt);
      acc += in[0] * 100 + in[1] * 10 + in[2] + st.MPI_SOURCE * 1000 + st.MPI_TAG + cnt;
    }
  }
  printf("rank %d acc %ld\n", rank, acc);
  MPI_Finalize();
  return 0;
}
