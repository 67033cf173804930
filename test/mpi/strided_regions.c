/* strided_regions.c -- strided data (MPI_Type_vector columns of a matrix)
 * exchanged in a ring, inside superblock regions (the blocking calls of a
 * region, posted without a handle, as translated code calls them) and with
 * handles (MPI_Irecv/MPI_Isend/MPI_Waitall). Only contiguous bytes reach
 * the transport: the subrank packs a send and unpacks a receive itself
 * (docs/runtime.md, "Packing strided data"). A region's receive is unpacked
 * by the subrank that owns the region before any region that depends on
 * it runs, not by the worker that completed it. With asserts on, packing
 * under a lock aborts (unless `tucana-run --pack locked`, the control, asks
 * for it). Per iteration:
 *   0 receive   column 0 of the left neighbour's matrix, into column NC-1
 *   1 send      column 1 of this matrix to the right neighbour
 *   2 check     depends(receive): column NC-1 holds the left neighbour's values
 *   3 rows      depends(check): the same with handles, row-strided columns
 * Tucana only (no reference run). */
#define TESTNAME "strided_regions"
#include "mpitest.h"

#include <tucana/superblock.h>

#define NR 64   /* rows */
#define NC 8    /* columns */
#define ITERS 30

static const tucana_dependency check_deps[] = {{0, 0}};
static const tucana_dependency rows_deps[] = {{2, 0}};
static const tucana_region_desc regions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 0, NULL},
    {"send", TUCANA_REGION_SEND, 0, NULL},
    {"check", TUCANA_REGION_OTHER, 1, check_deps},
    {"rows", TUCANA_REGION_OTHER, 1, rows_deps},
};
static const tucana_superblock_desc desc = {"strided_regions.c", 4, regions};

static double value(int rank, int it, int row) { return 1e6 * rank + 1e3 * it + row; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* Per iteration a matrix of its own, so that a region of iteration i+1
     * may run while iteration i's requests are pending. */
    double(*m)[NR][NC] = xmalloc(sizeof(double[ITERS][NR][NC]));
    double(*g)[NR][NC] = xmalloc(sizeof(double[ITERS][NR][NC]));
    memset(g, 0, sizeof(double[ITERS][NR][NC]));
    for (int it = 0; it < ITERS; ++it)
        for (int r = 0; r < NR; ++r)
            for (int c = 0; c < NC; ++c) m[it][r][c] = c == 1 ? value(rank, it, r) : -1;
    MPI_Datatype column;
    MPI_Type_vector(NR, 1, NC, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    tucana_superblock *sb = tucana_sb_begin(&desc);
    for (int it = 0; it < ITERS; ++it) {
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0:
                tucana_sb_recv(&g[it][0][NC - 1], 1, column, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                tucana_sb_ran(sb, 0);
                break;
            case 1:
                tucana_sb_send(&m[it][0][1], 1, column, right, it, MPI_COMM_WORLD);
                tucana_sb_ran(sb, 1);
                break;
            case 2:
                for (int row = 0; row < NR; ++row) {
                    CHECK(value(left, it, row), g[it][row][NC - 1], "iteration %d: row %d of the received column",
                          it, row);
                    CHECK(0, g[it][row][0], "iteration %d: row %d: the unpacking wrote outside the column", it, row);
                }
                tucana_sb_ran(sb, 2);
                break;
            case 3: {
                /* With handles: the receive is unpacked by MPI_Waitall. */
                double got[NR][NC];
                memset(got, 0, sizeof got);
                MPI_Request req[2];
                MPI_Irecv(&got[0][2], 1, column, left, 1000 + it, MPI_COMM_WORLD, &req[0]);
                MPI_Isend(&m[it][0][1], 1, column, right, 1000 + it, MPI_COMM_WORLD, &req[1]);
                MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
                for (int row = 0; row < NR; ++row) CHECK(value(left, it, row), got[row][2], "handles: row %d", row);
                tucana_sb_ran(sb, 3);
                break;
            }
            }
        }
    }
    tucana_sb_end(sb);
    MPI_Type_free(&column);
    MPI_Barrier(MPI_COMM_WORLD);
    free(m);
    free(g);
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
