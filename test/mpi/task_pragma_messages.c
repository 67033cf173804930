/* #pragma tucana task with MPI inside (translated by tucanacc): every rank
 * spawns one task per peer that sends its own message (MPI_Send, tag = the
 * peer's distance), then one task per peer that receives one (MPI_Recv into
 * the parent's array through a copied pointer), then waits. Each task
 * captures the loop's k by value (its own k, whatever the loop does after
 * the spawn). Then a task with shared(...) counts into the parent's
 * variable, and a task inside a task sends and receives on its own. Built
 * without translation (the reference run under MPICH), the pragmas are
 * ignored and the same program runs in order: sends first, then receives
 * (small messages: no send waits for its receive). */
#define TESTNAME "task_pragma_messages"
#include "mpitest.h"

static long long payload(int from, int to, int k) { return 1000000LL * from + 1000LL * to + k; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;
    long long *got = xmalloc(sizeof(long long) * (size_t)size);
    long long *recv_into = got; /* copied into each task: the tasks write the parent's array */
    int sent = 0;

    for (int k = 0; k < size; ++k) {
        got[k] = -1;
        int to = (rank + k) % size;
#pragma tucana task shared(sent) name("sender") priority(k)
        {
            long long v = payload(rank, to, k);
            MPI_Send(&v, 1, MPI_LONG_LONG, to, k, MPI_COMM_WORLD);
            __atomic_fetch_add(&sent, 1, __ATOMIC_RELAXED);
        }
    }
    for (int k = 0; k < size; ++k) {
        int from = (rank - k + size) % size;
#pragma tucana task boundary
        MPI_Recv(&recv_into[k], 1, MPI_LONG_LONG, from, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#pragma tucana taskwait
    CHECK(size, sent, "sender tasks counted in the parent's variable");
    for (int k = 0; k < size; ++k)
        CHECK(payload((rank - k + size) % size, rank, k), got[k], "message from distance %d", k);

    /* A task that spawns tasks: each inner task exchanges with one peer
     * (MPI_Sendrecv, tag 100 + k) and writes its slot of the outer task's
     * array, which the outer task checks after its own taskwait. */
    int ok = 0;
#pragma tucana task shared(ok)
    {
        long long inner[64];
        long long *slot = inner;
        int n = size < 64 ? size : 64;
        for (int k = 0; k < n; ++k) {
#pragma tucana task
            {
                long long v = payload(rank, (rank + k) % size, 100 + k);
                MPI_Sendrecv(&v, 1, MPI_LONG_LONG, (rank + k) % size, 100 + k, &slot[k], 1, MPI_LONG_LONG,
                             (rank - k + size) % size, 100 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
#pragma tucana taskwait
        ok = 1;
        for (int k = 0; k < n; ++k)
            if (inner[k] != payload((rank - k + size) % size, rank, 100 + k))
                ok = 0;
    }
#pragma tucana taskwait
    CHECK(1, ok, "messages of the tasks inside a task");

    free(got);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
