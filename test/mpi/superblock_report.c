/* superblock_report.c -- what the runtime says about superblocks, checked by
 * the output (tests mpi.superblock_*; Tucana only):
 *   coverage      a region waits (MPI_Wait) for a request that another region
 *                 posted and that its dependencies do not cover: warned once
 *                 per (superblock, region), over two iterations; a region
 *                 waiting for its own requests (MPI_Waitall) is not warned.
 *   end_deadlock  a region posts a receive (tucana_sb_recv) that no one
 *                 sends: tucana_sb_end parks, and the deadlock report names
 *                 the region it waits for.
 *   next_deadlock the same receive holds back the region that depends on it:
 *                 tucana_sb_next parks, and the report says which. */
#define TESTNAME "superblock_report"
#include "mpitest.h"

#include <tucana/superblock.h>

static const tucana_region_desc coverage_regions[] = {
    {"post", TUCANA_REGION_RECEIVE, 0, NULL},
    {"waiter", TUCANA_REGION_COMPUTE, 0, NULL},
    {"own", TUCANA_REGION_OTHER, 0, NULL},
};
static const tucana_superblock_desc coverage_desc = {"superblock_report.c:coverage", 3, coverage_regions};

static void coverage(void)
{
    int rank = wrank, size = wsize;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in = -1, out = rank, in2 = -1, out2 = rank;
    MPI_Request from_post = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL, own[2];
    tucana_superblock *sb = tucana_sb_begin(&coverage_desc);
    for (int iter = 0; iter < 2; ++iter) {
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0:
                MPI_Irecv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &from_post);
                break;
            case 1:
                MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &send);
                MPI_Wait(&from_post, MPI_STATUS_IGNORE); /* not covered: warned */
                MPI_Wait(&send, MPI_STATUS_IGNORE);       /* its own: not warned */
                CHECK(left, in, "coverage: data from the left");
                break;
            case 2:
                MPI_Irecv(&in2, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &own[0]);
                MPI_Isend(&out2, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &own[1]);
                MPI_Waitall(2, own, MPI_STATUSES_IGNORE); /* its own: not warned */
                CHECK(left, in2, "coverage: own data from the left");
                break;
            }
            tucana_sb_ran(sb, r);
        }
    }
    tucana_sb_end(sb);
}

static const tucana_dependency on_receive[] = {{0, 0}};
static const tucana_region_desc stuck_regions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 0, NULL},
    {"compute", TUCANA_REGION_COMPUTE, 1, on_receive},
};
static const tucana_superblock_desc stuck_desc = {"superblock_report.c:stuck", 2, stuck_regions};
/* The same regions, no dependency: only the end waits. */
static const tucana_region_desc free_regions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 0, NULL},
    {"compute", TUCANA_REGION_COMPUTE, 0, NULL},
};
static const tucana_superblock_desc free_desc = {"superblock_report.c:end", 2, free_regions};

static void stuck(const tucana_superblock_desc *desc)
{
    int never = 0;
    tucana_superblock *sb = tucana_sb_begin(desc);
    for (int r; (r = tucana_sb_next(sb)) >= 0;) {
        if (r == 0)
            tucana_sb_recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        tucana_sb_ran(sb, r);
    }
    tucana_sb_end(sb);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "coverage";
    if (strcmp(mode, "coverage") == 0)
        coverage();
    else if (strcmp(mode, "end_deadlock") == 0)
        stuck(&free_desc);
    else if (strcmp(mode, "next_deadlock") == 0)
        stuck(&stuck_desc);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
