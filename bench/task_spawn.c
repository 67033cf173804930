/* task_spawn: what a task costs. Spawns ROUNDS x 1000 empty tasks with a
 * 4-byte argument, waiting for each thousand (tucana_taskwait), and prints
 * the time per task; twice (the first round also makes the task fibers).
 *
 * usage: tucana-run -np 1 [--workers W] build/bench/task_spawn [ROUNDS]   (default 100) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <tucana/task.h>

static void empty(void *p)
{
    (void)p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rounds = argc > 1 ? atoi(argv[1]) : 100, rank, x = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int pass = 1; pass <= 2; ++pass) {
        double t0 = MPI_Wtime();
        for (int r = 0; r < rounds; ++r) {
            for (int k = 0; k < 1000; ++k)
                tucana_task_spawn(empty, &x, sizeof x, NULL);
            tucana_taskwait();
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0)
            printf("task_spawn: pass %d: %d tasks, %.3f us per task (spawn, run, wait)\n", pass, rounds * 1000,
                   t / (rounds * 1000.0) * 1e6);
    }
    MPI_Finalize();
    return 0;
}
