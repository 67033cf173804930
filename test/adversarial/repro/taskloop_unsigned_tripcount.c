/* taskloop trip counts are computed in long long instead of the loop's (promoted) type, so unsigned wrap-around
   and C's usual arithmetic conversions are lost:
   (1) for (unsigned i = n - 1; i != (unsigned)-1; i--)  -- a common reverse loop over unsigned indices:
       native: 5 iterations (4,3,2,1,0); tucana: 0 iterations (end becomes 4294967295 > start 4).
   (2) for (int i = -3; i < un; i++) with 'unsigned un = 4': C converts i to unsigned, so native runs 0 iterations;
       tucana runs 7 (i = -3..3), writing out of the intended range.
   Expected (mpirun -np 1 or plain mpicc): "reverse 5 mixed 0"; tucanacc + tucana-run: "reverse 0 mixed 7". */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long cnt[2] = {0, 0};
  long slot[16] = {0};
  long *s = slot;
  unsigned n = 5, un = 4;
#pragma tucana taskloop num_tasks(2)
  for (unsigned i = n - 1; i != (unsigned)-1; i--) s[i] = 1;
  for (int k = 0; k < 16; k++) cnt[0] += slot[k], slot[k] = 0;
#pragma tucana taskloop
  for (int i = -3; i < un; i++) s[i + 8] = 1;
  for (int k = 0; k < 16; k++) cnt[1] += slot[k];
  printf("reverse %ld mixed %ld\n", cnt[0], cnt[1]);
  MPI_Finalize();
  return 0;
}
