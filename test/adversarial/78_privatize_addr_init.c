/* no annotations: static initializers that compute addresses of privatized variables: array + offset, &struct.field,
   &array[k], nested struct initializers holding pointers and pointer-to-pointer, function-static pointer into a
   global, a global array of structs with pointers */
#include <mpi.h>
#include <stdio.h>
long arr[6];
struct cfg { int n; long scale; } cfg = {3, 10};
long *mid = arr + 2;
int *pn = &cfg.n;
long *last = &arr[5];
long *ptr0 = arr;
struct holder { long *p; long **pp; int *q; } h = {arr + 1, &ptr0, &cfg.n};
struct slot { const char *name; long *cell; } slots[2] = {{"a", &arr[3]}, {"b", arr + 4}};
static long *cursor(void) { static long *c = arr + 1; return c++; }
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  *mid += rank;
  *pn += rank;
  *last = rank * 7;
  *h.p += 100 * rank;
  (*h.pp)[0] += 1000 * rank;
  *h.q += 1;
  *slots[0].cell += 3 * rank;
  *slots[1].cell += 5 * rank;
  *cursor() += 1;
  *cursor() += 2;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d arr %ld %ld %ld %ld %ld %ld n %d\n", rank, arr[0], arr[1], arr[2], arr[3], arr[4], arr[5], cfg.n);
  MPI_Finalize();
  return 0;
}
