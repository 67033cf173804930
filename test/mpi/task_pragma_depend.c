/* depend clauses between tasks with MPI inside (translated by tucanacc): a
 * token goes round the ring for several rounds, and every step is a task:
 * receive it (depend(out: tok)), add to it (depend(inout: tok)), send it on
 * (depend(in: tok)), record it (depend(in: tok)). All the rounds are spawned
 * before one taskwait: only the dependencies order them (a receive of round
 * r+1 waits until round r's send has read the token). Rank 0 starts each
 * round. Built without translation (the reference run under MPICH) the
 * tasks run in program order, which is a correct order too. */
#define TESTNAME "task_pragma_depend"
#include "mpitest.h"

#define ROUNDS 5

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    long long tok = 0;
    long long history[ROUNDS];
    long long *hist = history;

    for (int r = 0; r < ROUNDS; ++r) {
        if (rank == 0) {
#pragma tucana task depend(in: tok) shared(tok) name("start")
            MPI_Send(&tok, 1, MPI_LONG_LONG, right, r, MPI_COMM_WORLD);
        }
#pragma tucana task depend(out: tok) shared(tok) name("receive")
        MPI_Recv(&tok, 1, MPI_LONG_LONG, left, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank != 0) {
#pragma tucana task depend(inout: tok) shared(tok) name("add")
            tok = tok * 3 + rank + r;
#pragma tucana task depend(in: tok) shared(tok) priority(1) name("forward")
            MPI_Send(&tok, 1, MPI_LONG_LONG, right, r, MPI_COMM_WORLD);
        }
#pragma tucana task depend(in: tok) shared(tok)
        hist[r] = tok;
    }
#pragma tucana taskwait

    /* What each rank saw: the token after the ranks before it (rank 0: after
     * the whole ring) in each round. */
    long long t = 0;
    for (int r = 0; r < ROUNDS; ++r) {
        long long at_me = -1;
        for (int p = 1; p < size; ++p) {
            t = t * 3 + p + r;
            if (p == rank)
                at_me = t;
        }
        if (rank == 0)
            at_me = t;
        CHECK(at_me, history[r], "token seen in round %d", r);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
