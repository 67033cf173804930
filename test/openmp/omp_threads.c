/* omp_threads.c -- threads inside a subrank see the subrank's privatized
 * globals (docs/privatization.md, "OpenMP and threads inside a subrank"):
 * a parallel region that reads and writes privatized globals, a parallel
 * for with a reduction over a privatized array, an OpenMP task, a thread of
 * pthread_create, and the same OpenMP thread pool used in turn by the
 * subranks of one worker (rounds separated by MPI calls that let the other
 * subranks run). Plain MPI + OpenMP: also builds with any mpicc -fopenmp.
 * Without the runtime's hand-off, team threads read the image (scale 0). */
/* The test's name: omp_threads_gomp, omp_threads_libomp (-DVARIANT=_gomp). */
#define STR2(x) #x
#define STR(x) STR2(x)
#ifndef VARIANT
#define VARIANT
#endif
#define TESTNAME "omp_threads" STR(VARIANT)
#include <omp.h>
#include <pthread.h>

#include "../mpi/mpitest.h"

#define N 4096
#define ROUNDS 6
#define THREADS 3

int scale = 0;          /* rank + 1, per subrank */
double arr[N];          /* filled by the team */
long task_sum;          /* written by OpenMP tasks */
int team_hits;          /* incremented by each thread of a region */
int thread_seen = -1;   /* written by a pthread */
static int round_no;    /* a static one */

static void *pthread_body(void *arg) {
    (void)arg;
    thread_seen = scale * 10 + round_no;
    return NULL;
}

int main(int argc, char **argv) {
    int rank, size, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(MPI_THREAD_FUNNELED, provided, "MPI_Init_thread provides FUNNELED");
    scale = rank + 1;

    for (round_no = 0; round_no < ROUNDS; round_no++) {
        /* A parallel region: every thread reads scale and round_no, and
         * writes its share of arr and team_hits. */
        team_hits = 0;
        int nthreads = 0;
#pragma omp parallel num_threads(THREADS)
        {
#pragma omp single
            nthreads = omp_get_num_threads();
#pragma omp for
            for (int i = 0; i < N; i++) arr[i] = (double)scale * i + round_no;
#pragma omp atomic
            team_hits++;
        }
        CHECK(nthreads, team_hits, "team_hits after a parallel region (round %d)", round_no);
        for (int i = 0; i < N; i += 97)
            CHECK((long long)scale * i + round_no, (long long)arr[i], "arr[%d] written by the team (round %d)", i,
                  round_no);

        /* A parallel for with a reduction over the privatized array. */
        double sum = 0;
#pragma omp parallel for num_threads(THREADS) reduction(+ : sum)
        for (int i = 0; i < N; i++) sum += arr[i] - round_no + scale;
        long long expect = (long long)scale * ((long long)N * (N - 1) / 2) + (long long)scale * N;
        CHECK(expect, (long long)sum, "parallel for reduction (round %d)", round_no);

        /* Tasks: each adds scale; any thread of the team may run them. */
        task_sum = 0;
#pragma omp parallel num_threads(THREADS)
#pragma omp single
        for (int t = 0; t < 64; t++) {
#pragma omp task
            {
#pragma omp atomic
                task_sum += scale;
            }
        }
        CHECK(64LL * scale, task_sum, "task_sum (round %d)", round_no);

        /* A thread of its own. */
        pthread_t th;
        thread_seen = -1;
        CHECK(0, pthread_create(&th, NULL, pthread_body, NULL), "pthread_create");
        CHECK(0, pthread_join(th, NULL), "pthread_join");
        CHECK(scale * 10 + round_no, thread_seen, "pthread saw the subrank's globals (round %d)", round_no);

        /* Let the other subranks of this worker use the pool between rounds. */
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* No cross talk: every rank's total is its own. */
    long long mine = (long long)(arr[N - 1]) + task_sum + thread_seen, total = 0, expect_total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        expect_total += (long long)(r + 1) * (N - 1) + (ROUNDS - 1) + 64LL * (r + 1) + (r + 1) * 10 + (ROUNDS - 1);
    CHECK(expect_total, total, "sum over ranks");
    if (rank == 0) printf("OK " TESTNAME "\n");
    MPI_Finalize();
    return 0;
}
