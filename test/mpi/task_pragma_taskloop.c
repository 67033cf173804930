/* #pragma tucana taskloop (translated by tucanacc): a sum computed by chunks,
 * each chunk writing its own partial result into the parent's array
 * (shared(...)), reduced across ranks with MPI_Allreduce; a taskloop whose
 * iterations each exchange a message with one peer (MPI_Sendrecv inside the
 * body, the tag naming the iteration); a loop counting down by two with
 * grainsize; and one with no iterations. taskloop waits for its chunks.
 * Built without translation (the reference run under MPICH) the loops run as
 * written, with the same results. */
#define TESTNAME "task_pragma_taskloop"
#include "mpitest.h"

#define N 100000
#define CHUNKS 7

static long long term(long long i) { return (i * i) % 1009 + i; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;

    /* Each rank sums the terms of its own slice of [0, N * size). */
    long long partial[CHUNKS];
    long long first = (long long)rank * N;
#pragma tucana taskloop num_tasks(CHUNKS) shared(partial)
    for (int c = 0; c < CHUNKS; c++) {
        long long s = 0;
        for (long long i = first + (long long)N * c / CHUNKS; i < first + (long long)N * (c + 1) / CHUNKS; i++)
            s += term(i);
        partial[c] = s;
    }
    long long mine = 0, total = 0, expected = 0;
    for (int c = 0; c < CHUNKS; c++)
        mine += partial[c];
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (long long i = 0; i < (long long)N * size; i++)
        expected += term(i);
    CHECK(expected, total, "sum of the chunks' partial results over all ranks");

    /* Iteration k exchanges with the peers at distance k (tag 10 + k). */
    long long *got = xmalloc(sizeof(long long) * (size_t)size);
    long long *into = got;
#pragma tucana taskloop grainsize(1)
    for (int k = 0; k < size; ++k) {
        long long v = 1000LL * rank + k;
        MPI_Sendrecv(&v, 1, MPI_LONG_LONG, (rank + k) % size, 10 + k, &into[k], 1, MPI_LONG_LONG,
                     (rank - k + size) % size, 10 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int k = 0; k < size; ++k)
        CHECK(1000LL * ((rank - k + size) % size) + k, got[k], "message of iteration %d", k);
    free(got);

    /* Counting down by two: 99, 97, ..., 1, each marked once. */
    int marks[100];
    memset(marks, 0, sizeof marks);
#pragma tucana taskloop grainsize(8) shared(marks)
    for (int i = 99; i > 0; i -= 2)
        marks[i]++;
    for (int i = 0; i < 100; i++)
        CHECK(i % 2, marks[i], "mark of %d", i);

    /* No iterations: nothing runs, the loop returns. */
    int ran = 0;
#pragma tucana taskloop shared(ran)
    for (int i = 10; i < 10 - rank; i++)
        ran++;
    CHECK(0, ran, "iterations of an empty taskloop");

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
