/* no annotations: per-rank state in globals of many kinds (arrays, structs, pointers to globals, function statics, __thread, rand, strtok) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int my_rank = -1, nprocs;
double field[32];
struct config { int n; const char *name; double *data; } cfg = {32, "grid", field};
static int *pr = &my_rank;
__thread int tls_counter;
char words[64];
static int counter(void) { static int c; return ++c; }
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  srand(1234 + *pr);
  for (int i = 0; i < cfg.n; i++) cfg.data[i] = my_rank + i * 0.5 + rand() % 5;
  for (int k = 0; k <= my_rank; k++) counter();
  tls_counter += my_rank * 3;
  MPI_Barrier(MPI_COMM_WORLD);
  snprintf(words, sizeof words, "r%d,a,b%d,c", my_rank, my_rank * 2);
  int ntok = 0;
  char joined[64] = "";
  MPI_Barrier(MPI_COMM_WORLD);
  for (char *t = strtok(words, ","); t; t = strtok(NULL, ",")) { ntok++; strcat(joined, t); MPI_Barrier(MPI_COMM_WORLD); }
  double s = 0;
  for (int i = 0; i < cfg.n; i++) s += field[i];
  double all;
  MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d s %.2f counter %d tls %d tok %d %s rnd %d all %.2f\n", my_rank, s, counter(), tls_counter, ntok, joined, rand() % 1000, all);
  MPI_Finalize();
  return 0;
}
