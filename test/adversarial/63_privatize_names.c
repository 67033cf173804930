/* no annotations: global names reused as labels, struct members, designated-initializer fields, parameters and
   shadowing locals; a block-scope extern declaration of a global defined later; sizeof without parentheses;
   _Static_assert on a global; a file-scope compound literal reached through a global pointer */
#include <mpi.h>
#include <stdio.h>
int counter;
long total = 5;
struct rec { int counter; long total; };
int *scratch = (int[]){10, 20, 30};
_Static_assert(sizeof(counter) == sizeof(int), "int");
static int bump(int counter) { return counter + 1; }   /* parameter shadows the global */
static void late_user(int by) { extern int late; late += by; }
int late = 100;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  struct rec r = {.counter = rank, .total = 2};
  int steps = 0;
counter:
  counter++;
  steps++;
  if (steps < 3) goto counter;
  {
    int total = 1000;   /* shadows */
    total += rank;
    r.total += total;
  }
  total += bump(rank) * (long)sizeof counter;
  r.counter += counter;
  late_user(rank);
  scratch[rank % 3] += rank + 1;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d counter %d total %ld r %d %ld late %d scratch %d %d %d\n", rank, counter, total, r.counter, r.total, late,
         scratch[0], scratch[1], scratch[2]);
  MPI_Finalize();
  return 0;
}
