/* superblock_tasks.c -- tasks spawned inside superblock regions (the
 * superblock interface called directly, as translated code calls it): a
 * region is done once the tasks it spawned have finished, so a region that
 * depends on it runs only after them (the hybrid model's "a send goes as
 * soon as the task that computed that part of the boundary is done"), while
 * other regions and tasks go on. Per iteration:
 *   0 edge      spawns a task that computes this rank's edge value
 *   1 send      depends(edge): the edge task has finished; sends the edge right
 *   2 receive   receives the left neighbour's edge
 *   3 interior  spawns 4 tasks that fill the interior
 *   4 check     depends(receive, interior): the ghost and the interior are right
 * Tucana only (no reference run). */
#define TESTNAME "superblock_tasks"
#include "mpitest.h"

#include <tucana/superblock.h>
#include <tucana/task.h>

#define ITERS 20
#define PARTS 4

/* Per subrank (no globals: a translated program's globals are per subrank
 * too, but this keeps the test about tasks). */
struct state {
    int rank;
    long long edge_value[ITERS]; /* what the edge task computed, per iteration */
    int edge_done[ITERS];
    long long ghost[ITERS];
    long long interior[ITERS][PARTS];
};

static const tucana_dependency send_deps[] = {{0, 0}};
static const tucana_dependency check_deps[] = {{2, 0}, {3, 0}};
static const tucana_region_desc regions[] = {
    {"edge", TUCANA_REGION_COMPUTE, 0, NULL},
    {"send", TUCANA_REGION_SEND, 1, send_deps},
    {"receive", TUCANA_REGION_RECEIVE, 0, NULL},
    {"interior", TUCANA_REGION_COMPUTE, 0, NULL},
    {"check", TUCANA_REGION_OTHER, 2, check_deps},
};
static const tucana_superblock_desc desc = {"superblock_tasks.c", 5, regions};

struct edge_args {
    struct state *st;
    int it;
};

static void edge_task(void *p)
{
    struct state *st = ((struct edge_args *)p)->st;
    int it = ((struct edge_args *)p)->it;
    /* Long enough that the send region would run first without the dependency. */
    for (int k = 0; k < 50; ++k) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    st->edge_value[it] = 1000LL * st->rank + it;
    __atomic_store_n(&st->edge_done[it], 1, __ATOMIC_RELEASE);
}

struct part_args {
    struct state *st;
    int it, part;
};

static void part_task(void *p)
{
    struct part_args *a = p;
    a->st->interior[a->it][a->part] = 10LL * a->it + a->part;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct state *st = xmalloc(sizeof *st);
    memset(st, 0, sizeof *st);
    st->rank = rank;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    tucana_superblock *sb = tucana_sb_begin(&desc);
    for (int it = 0; it < ITERS; ++it) {
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0: {
                struct edge_args a = {st, it};
                tucana_task_attr attr = TUCANA_TASK_ATTR_INIT;
                attr.name = "edge";
                tucana_task_spawn(edge_task, &a, sizeof a, &attr);
                tucana_sb_ran(sb, 0);
                break;
            }
            case 1:
                CHECK(1, __atomic_load_n(&st->edge_done[it], __ATOMIC_ACQUIRE),
                      "iteration %d: the send region runs after the edge task", it);
                /* Posted for the region: it is done when the send completes. */
                tucana_sb_send(&st->edge_value[it], 1, MPI_LONG_LONG, right, it, MPI_COMM_WORLD);
                tucana_sb_ran(sb, 1);
                break;
            case 2:
                tucana_sb_recv(&st->ghost[it], 1, MPI_LONG_LONG, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                tucana_sb_ran(sb, 2);
                break;
            case 3:
                for (int part = 0; part < PARTS; ++part) {
                    struct part_args a = {st, it, part};
                    tucana_task_spawn(part_task, &a, sizeof a, NULL);
                }
                tucana_sb_ran(sb, 3);
                break;
            case 4:
                CHECK(1000LL * left + it, st->ghost[it], "iteration %d: the ghost", it);
                for (int part = 0; part < PARTS; ++part)
                    CHECK(10LL * it + part, st->interior[it][part], "iteration %d: interior part %d", it, part);
                tucana_sb_ran(sb, 4);
                break;
            }
        }
    }
    tucana_sb_end(sb);
    tucana_taskwait(); /* frees the task records */
    MPI_Barrier(MPI_COMM_WORLD);
    free(st);
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
