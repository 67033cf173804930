/* task captures: structs and arrays by value (firstprivate), parent changes after spawn, depend on *p and s.f,
   priority/boundary/name clauses, shared(array) receiving a message as in the docs, task as the body of an if */
#include <mpi.h>
#include <stdio.h>
struct cfg { int scale; long f; };
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  struct cfg c = {3, 0};
  struct cfg *pc = &c;
  long coeff[3] = {1, 2, 3};
  long result[4] = {0};
  long *pr = result;
  long halo[2] = {0, 0};
  for (int k = 0; k < 4; k++) {
#pragma tucana task priority(k) name("scaled")
    { pr[k] = (coeff[k % 3] * c.scale + k) * (rank + 1); }
    c.scale++;            /* the task above saw the old value */
    coeff[k % 3] += 10;   /* its own copy of coeff was made at the spawn */
  }
#pragma tucana taskwait
#pragma tucana task depend(out: pc->f) boundary
  { pc->f = 7 + rank; }
#pragma tucana task depend(inout: *pc)
  { pc->scale *= 2; }
#pragma tucana task depend(in: pc->f) depend(inout: *pc)
  { pc->f += pc->scale; }
  if (size > 1)
#pragma tucana task shared(halo)
    MPI_Sendrecv(&result[0], 1, MPI_LONG, r, 4, &halo[0], 1, MPI_LONG, l, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma tucana taskwait
  printf("rank %d result %ld %ld %ld %ld c %d %ld halo %ld\n", rank, result[0], result[1], result[2], result[3], c.scale, c.f, halo[0]);
  MPI_Finalize();
  return 0;
}
