/* privatized globals used through macros of the source file: stringizing (#x), token pasting (g_##n), a macro naming
   a global buffer used in regions, a global in a priority() clause, atomics and asm operands on globals, bitfields */
#include <mpi.h>
#include <stdio.h>
#define SHOW(x) printf("rank %d " #x " = %ld\n", rank_g, (long)(x))
#define G(n) g_##n
#define INBOX inbox_g
#define OUTBOX outbox_g
long g_count, g_sum;
int rank_g, prio_g = 1;
long inbox_g[2], outbox_g[2];
struct { unsigned lo : 4; unsigned hi : 12; } bits;
int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_g);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank_g + size - 1) % size, r = (rank_g + 1) % size;
  MPI_Request q[2];
#pragma tucana superblock priority(prio_g)
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    MPI_Irecv(INBOX, 2, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { OUTBOX[0] = G(count) + rank_g; OUTBOX[1] = G(sum) % 1000; MPI_Isend(OUTBOX, 2, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      G(count)++;
      __atomic_fetch_add(&g_sum, INBOX[0] + INBOX[1], __ATOMIC_RELAXED);
      __asm__ volatile("" : "+r"(g_count));
      bits.lo = (bits.lo + it) & 15; bits.hi += INBOX[0] & 0xff;
      prio_g = it % 2;
    }
  }
  SHOW(g_count);
  SHOW(g_sum);
  SHOW(bits.lo + bits.hi);
  SHOW(inbox_g[1]);
  MPI_Finalize();
  return 0;
}
