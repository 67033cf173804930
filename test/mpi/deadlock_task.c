/*
 * deadlock_task -- a deliberate deadlock inside tasks (tucana/task.h).
 *
 * Every rank spawns a task labelled 'stuck' that calls MPI_Recv(source =
 * (rank+1) % size, tag = 42) for a message nobody sends, and a task that
 * finishes; the rank's own code then waits for its tasks in
 * tucana_taskwait. The deadlock report must name the blocked task with its
 * subrank and the MPI call, and the subrank waiting in tucana_taskwait;
 * the job ends with status 2 (expect_fail.sh). It never prints "OK".
 */
#include <mpi.h>
#include <stdio.h>
#include <tucana/task.h>

static void stuck(void *p)
{
    (void)p;
    int buf = 0, rank, size; /* a task acts for its rank */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Recv(&buf, 1, MPI_INT, (rank + 1) % size, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void fine(void *p)
{
    (void)p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    tucana_task_attr attr = TUCANA_TASK_ATTR_INIT;
    attr.name = "stuck";
    tucana_task_spawn(stuck, NULL, 0, &attr);
    tucana_task_spawn(fine, NULL, 0, NULL);
    tucana_taskwait();
    printf("rank %d: unexpectedly done\n", rank);
    MPI_Finalize();
    return 0;
}
