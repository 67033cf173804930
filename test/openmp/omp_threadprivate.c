/* OpenMP threadprivate variables inside subranks: each subrank, and each
 * thread of the teams it starts, has copies of its own, which keep their
 * values from one parallel region to the next (same team size, no dynamic
 * threads, as OpenMP requires for that), across the subrank's MPI calls
 * (when the worker runs other subranks, whose teams reuse the same OpenMP
 * pool threads) and with 2 workers per process, also for a
 * threadprivate static local and in a program with no privatized global.
 * copyin copies the subrank's own value. Built with tucanacc -fopenmp (GCC and
 * libgomp, or clang-16 and libomp); without the runtime's per-subrank
 * copies the subranks of one worker share them and the checks fail. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef VARIANT
#define VARIANT
#endif
#define STR2(x) #x
#define STR(x) STR2(x)
#define TESTNAME "omp_threadprivate" STR(VARIANT)

static int tp_rank = -1;
#pragma omp threadprivate(tp_rank)
int tp_rounds; /* external linkage */
#pragma omp threadprivate(tp_rounds)
static double tp_sums[4];
#pragma omp threadprivate(tp_sums)

#define ROUNDS 6
#define THREADS 2

/* A threadprivate static local: the translator moves it to file scope. */
static int count_calls(void) {
    static int calls = 10;
#pragma omp threadprivate(calls)
    return ++calls;
}

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "FAIL %s: rank %d: ", TESTNAME, rank);         \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            MPI_Abort(MPI_COMM_WORLD, 1);                                  \
        }                                                                  \
    } while (0)

int main(int argc, char **argv) {
    /* (No global that is privatized: the subranks are told apart by
     * themselves, not by where their privatized copies are.) */
    int rank = -1, provided = -1, size = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    omp_set_dynamic(0);

    CHECK(tp_rank == -1, "the subrank's own copy of tp_rank starts at -1, got %d", tp_rank);
    CHECK(tp_rounds == 0, "tp_rounds starts at 0, got %d", tp_rounds);
    tp_rank = rank * 100; /* the subrank's own (team thread 0's) copy */

    for (int round = 0; round < ROUNDS; ++round) {
        int bad = 0, threads = 0;
#pragma omp parallel num_threads(THREADS) reduction(+ : bad, threads)
        {
            int t = omp_get_thread_num();
            threads += 1;
            if (round == 0 && t != 0) {
                /* A team thread's first copy holds the initial value. */
                if (tp_rank != -1 || tp_rounds != 0 || tp_sums[0] != 0.0) bad += 1000;
                tp_rank = rank * 100 + t;
            }
            if (tp_rank != rank * 100 + t) bad += 1;
            if (tp_rounds != round) bad += 10;
            if (tp_sums[t % 4] != 0.5 * round * (rank + 1)) bad += 100;
            tp_rounds += 1;
            tp_sums[t % 4] += 0.5 * (rank + 1);
            if (count_calls() != 10 + round + 1) bad += 10000;
        }
        CHECK(bad == 0, "round %d: threadprivate copies of another subrank or thread (code %d)", round, bad);
        CHECK(threads == THREADS, "round %d: a team of %d threads, not %d", round, threads, THREADS);
        /* The worker runs the other subranks here, with the same pool threads. */
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(tp_rank == rank * 100, "round %d: own tp_rank after MPI_Barrier: %d", round, tp_rank);
        CHECK(tp_rounds == round + 1, "round %d: own tp_rounds after MPI_Barrier: %d", round, tp_rounds);
    }

    /* copyin: every thread of the team starts from the subrank's value. */
    tp_rank = rank * 1000 + 7;
    int bad = 0;
#pragma omp parallel num_threads(THREADS) copyin(tp_rank) reduction(+ : bad)
    {
        if (tp_rank != rank * 1000 + 7) bad += 1;
        tp_rank += omp_get_thread_num();
    }
    CHECK(bad == 0, "copyin gave %d threads another value", bad);
    CHECK(tp_rank == rank * 1000 + 7, "own tp_rank after the copyin region: %d", tp_rank);

    int total = 0;
    MPI_Allreduce(&tp_rounds, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == ROUNDS * size, "sum of the subranks' tp_rounds: %d, not %d", total, ROUNDS * size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
