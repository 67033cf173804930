/* globals, static locals and a static struct modified inside regions (privatized per subrank) */
#include <mpi.h>
#include <stdio.h>
int g_rank, g_iters;
static long history[16];
static struct { int sends, recvs; long last; } stats;
long *cursor = history;   /* initializer takes the address of a privatized array */
static long next_value(void) { static long seed = 17; seed = (seed * 1103515245 + g_rank) % 2147483647; return seed % 1000; }
int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (g_rank + size - 1) % size, right = (g_rank + 1) % size;
  static long in, out;
  MPI_Request r[2];
#pragma tucana superblock
  for (g_iters = 0; g_iters < 10; g_iters++) {
#pragma tucana receive
    { MPI_Irecv(&in, 1, MPI_LONG, left, 5, MPI_COMM_WORLD, &r[0]); stats.recvs++; }
#pragma tucana send
    { out = next_value(); MPI_Isend(&out, 1, MPI_LONG, right, 5, MPI_COMM_WORLD, &r[1]); stats.sends++; }
#pragma tucana compute
    { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); *cursor++ = in; stats.last = in; }
  }
  long s = 0;
  for (long *p = history; p < cursor; p++) s = s * 7 + *p;
  printf("rank %d sends %d recvs %d last %ld s %ld n %td\n", g_rank, stats.sends, stats.recvs, stats.last, s % 1000000007, cursor - history);
  MPI_Finalize();
  return 0;
}
