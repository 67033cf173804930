/*
 * task_report MODE -- what the runtime reports about a task that goes wrong
 * (tucana/task.h; checked by exit status and output, test/mpi/CMakeLists.txt):
 *   overflow  a task recurses past its stack (run with --task-stack-size 64k):
 *             the overflow report names the task fiber and the option;
 *   exit      a task labelled 'quitter' calls exit(9): the job ends with 9;
 *   finalize  a task labelled 'finisher' calls MPI_Finalize: an error.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tucana/task.h>

static int recurse(int depth)
{
    volatile char pad[1024];
    pad[0] = (char)depth;
    return depth > 1000000 ? pad[0] : recurse(depth + 1) + pad[0];
}

static void deep(void *p)
{
    (void)p;
    printf("never %d\n", recurse(0));
}

static void quitter(void *p)
{
    (void)p;
    exit(9);
}

static void finisher(void *p)
{
    (void)p;
    MPI_Finalize();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    tucana_task_attr attr = TUCANA_TASK_ATTR_INIT;
    if (strcmp(mode, "overflow") == 0) {
        if (rank == 0) tucana_task_spawn(deep, NULL, 0, NULL);
    } else if (strcmp(mode, "exit") == 0) {
        attr.name = "quitter";
        if (rank == 0) tucana_task_spawn(quitter, NULL, 0, &attr);
    } else if (strcmp(mode, "finalize") == 0) {
        attr.name = "finisher";
        if (rank == 0) tucana_task_spawn(finisher, NULL, 0, &attr);
    } else {
        fprintf(stderr, "usage: task_report overflow|exit|finalize\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    tucana_taskwait();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
