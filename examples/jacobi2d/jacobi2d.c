/*
 * jacobi2d -- 2D 5-point Jacobi relaxation, a plain MPI program.
 *
 * Usage: jacobi2d [N [ITERATIONS]]      (defaults: N = 256, ITERATIONS = 100)
 *
 * The global grid has N x N points.  The boundary is fixed: the top row is
 * 1.0, the other three edges are 0.0; the interior starts at 0.0.  Each
 * iteration replaces every interior point by the average of its four
 * neighbours.
 *
 * Decomposition: 1D blocks of whole rows.  Rank r owns rows
 * [first, first + nrows), where the N % size leftover rows go to the lowest
 * ranks (so N need not be divisible by the number of ranks; ranks beyond N
 * own no rows and sit idle).  Each rank stores its rows plus one halo row
 * above and below, exchanged every iteration with MPI_Irecv / MPI_Isend /
 * MPI_Waitall; the top and bottom ranks use MPI_PROC_NULL as the missing
 * neighbour.
 *
 * Reproducibility: the output does not depend on the number of ranks.
 *  - Every grid value is computed by the same expression from the same
 *    inputs whatever the decomposition.
 *  - The residual (every 10 iterations and at the end) is the maximum over
 *    the grid of |u_new - u_old|: a per-rank maximum combined with
 *    MPI_Allreduce(MPI_MAX), and max is exact in any order.
 *  - The checksum is the sum of all grid values in global row order: each
 *    rank sums each of its rows left to right, rank 0 collects the row sums
 *    with point-to-point receives in rank (= row) order and adds them up
 *    row by row.
 * So the "residual" and "checksum" lines are bitwise identical for any
 * number of ranks.
 *
 * Output (rank 0):
 *   iter <k> residual <r>      every 10 iterations
 *   residual <r>               final
 *   checksum <c>               final
 *   ranks <P> N <N> iterations <I> time <seconds>
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DOWN 1  /* a row travelling to the rank below (rank + 1) */
#define TAG_UP 2    /* a row travelling to the rank above (rank - 1) */
#define TAG_SUMS 3  /* row sums travelling to rank 0 */

/* Rows [*first, *first + *nrows) of an n-row grid belong to rank r. */
static void block_rows(int n, int size, int r, int *first, int *nrows)
{
    int base = n / size, extra = n % size;
    *nrows = base + (r < extra ? 1 : 0);
    *first = r * base + (r < extra ? r : extra);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "jacobi2d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

int main(int argc, char **argv)
{
    int rank, size, n = 256, iterations = 100;
    int first, nrows, up, down;
    double *u, *unew;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        iterations = atoi(argv[2]);
    if (n < 3 || iterations < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: %s [N >= 3 [ITERATIONS >= 1]]\n", argv[0]);
        MPI_Finalize();
        return 1;
    }

    /* Decomposition and neighbours. */
    block_rows(n, size, rank, &first, &nrows);
    up = MPI_PROC_NULL;
    down = MPI_PROC_NULL;
    if (nrows > 0 && rank > 0)
        up = rank - 1;
    if (nrows > 0 && rank + 1 < size) {
        int f, c;
        block_rows(n, size, rank + 1, &f, &c);
        if (c > 0)
            down = rank + 1;
    }

    /* Local rows 1..nrows are owned; rows 0 and nrows+1 are halos. */
    size_t cells = (size_t)(nrows + 2) * (size_t)n;
    u = xmalloc(cells * sizeof(double));
    unew = xmalloc(cells * sizeof(double));
    for (size_t k = 0; k < cells; k++)
        u[k] = unew[k] = 0.0;
    for (int li = 1; li <= nrows; li++)
        if (first + li - 1 == 0)                  /* global top row */
            for (int j = 0; j < n; j++)
                u[(size_t)li * n + j] = unew[(size_t)li * n + j] = 1.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    double residual = 0.0;

    for (int it = 1; it <= iterations; it++) {
        MPI_Request req[4];

        /* Halo exchange with the ranks above and below. */
        MPI_Irecv(&u[0], n, MPI_DOUBLE, up, TAG_DOWN, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[(size_t)(nrows + 1) * n], n, MPI_DOUBLE, down, TAG_UP,
                  MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&u[(size_t)1 * n], n, MPI_DOUBLE, up, TAG_UP, MPI_COMM_WORLD,
                  &req[2]);
        MPI_Isend(&u[(size_t)nrows * n], n, MPI_DOUBLE, down, TAG_DOWN,
                  MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);

        /* Jacobi sweep over the owned interior points. */
        double local_diff = 0.0;
        for (int li = 1; li <= nrows; li++) {
            int gi = first + li - 1;
            const double *above = &u[(size_t)(li - 1) * n];
            const double *row = &u[(size_t)li * n];
            const double *below = &u[(size_t)(li + 1) * n];
            double *out = &unew[(size_t)li * n];
            if (gi == 0 || gi == n - 1) {               /* fixed boundary row */
                memcpy(out, row, (size_t)n * sizeof(double));
                continue;
            }
            out[0] = row[0];
            out[n - 1] = row[n - 1];
            for (int j = 1; j < n - 1; j++) {
                out[j] = 0.25 * (above[j] + below[j] + row[j - 1] + row[j + 1]);
                double d = out[j] - row[j];
                if (d < 0.0)
                    d = -d;
                if (d > local_diff)
                    local_diff = d;
            }
        }
        double *tmp = u;
        u = unew;
        unew = tmp;

        if (it % 10 == 0 || it == iterations) {
            MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                          MPI_COMM_WORLD);
            if (rank == 0 && it % 10 == 0)
                printf("iter %d residual %.17g\n", it, residual);
        }
    }

    double elapsed = MPI_Wtime() - t0;

    /* Checksum: row sums in global row order, gathered to rank 0. */
    double *rowsum = xmalloc((size_t)(nrows > 0 ? nrows : 1) * sizeof(double));
    for (int li = 1; li <= nrows; li++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += u[(size_t)li * n + j];
        rowsum[li - 1] = s;
    }
    if (rank == 0) {
        double *all = xmalloc((size_t)n * sizeof(double));
        memcpy(all, rowsum, (size_t)nrows * sizeof(double));
        for (int r = 1; r < size; r++) {
            int f, c;
            block_rows(n, size, r, &f, &c);
            if (c > 0)
                MPI_Recv(&all[f], c, MPI_DOUBLE, r, TAG_SUMS, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        double checksum = 0.0;
        for (int i = 0; i < n; i++)
            checksum += all[i];
        printf("residual %.17g\n", residual);
        printf("checksum %.17g\n", checksum);
        printf("ranks %d N %d iterations %d time %.6f s\n", size, n, iterations,
               elapsed);
        fflush(stdout);
        free(all);
    } else if (nrows > 0) {
        MPI_Send(rowsum, nrows, MPI_DOUBLE, 0, TAG_SUMS, MPI_COMM_WORLD);
    }

    free(rowsum);
    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}
