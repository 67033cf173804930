/* loop variable is a member of a global struct; condition calls a function that updates globals; increment via pointer */
#include <mpi.h>
#include <stdio.h>
struct { int step; int limit; long energy; } sim = {0, 9, 0};
static int checks;
static int keep_going(void) { checks++; return sim.step < sim.limit && sim.energy < 1000000; }
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  int *ps = &sim.step;
  long in = 0, out = 0, all = 0;
  MPI_Request q[2];
  sim.limit += rank % 2;      /* but all ranks must agree: take the max */
  MPI_Allreduce(MPI_IN_PLACE, &sim.limit, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#pragma tucana superblock
  for (sim.step = 0; keep_going(); (*ps)++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, sim.step, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = sim.energy + rank + sim.step; MPI_Isend(&out, 1, MPI_LONG, r, sim.step, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      sim.energy = sim.energy * 2 + in;
      MPI_Allreduce(&sim.energy, &all, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
      sim.energy = all > 1000000 ? all : sim.energy;
    }
  }
  printf("rank %d step %d energy %ld checks %d\n", rank, sim.step, sim.energy, checks);
  MPI_Finalize();
  return 0;
}
