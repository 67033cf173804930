/*
 * heat2d_split -- 2D 5-point Jacobi on blocks of rows, its sweep written
 * inline in the time loop (the shape the translator splits into interior
 * and boundary: docs/translator.md, "Splitting a compute region").
 *
 * Usage: heat2d_split [N [ITERATIONS]]   (defaults: 96, 60)
 *
 * The global grid has N x N interior points and a fixed boundary (the top
 * row is 1.0, the others 0.0). Rank r owns a block of rows, with one ghost
 * row above and below; the rows travel with MPI_Irecv / MPI_Isend into
 * separate buffers and are copied into the ghost rows (the unpacking) after
 * MPI_Waitall. The arrays are variable-length (double (*u)[N + 2]).
 *
 * heat2d_split_annotated.c is this file with Tucana's pragmas added.
 *
 * Self-check: rank 0 gathers the grid and compares it bit for bit with a
 * serial run when N * N * ITERATIONS <= 2^26, else checks that every value
 * lies in [0, 1] (the maximum principle); it prints a checksum, the time of
 * the time loop (the slowest rank's) and "heat2d_split: OK".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void serial(int n, int iterations, double (*u)[n + 2], double (*v)[n + 2])
{
    for (int it = 0; it < iterations; it++) {
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
        for (int i = 1; i <= n; i++)
            memcpy(&u[i][1], &v[i][1], (size_t)n * sizeof(double));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = argc > 1 ? atoi(argv[1]) : 96;
    const int iterations = argc > 2 ? atoi(argv[2]) : 60;
    if (n < size) {
        if (rank == 0) fprintf(stderr, "heat2d_split: FAILED: N (%d) < ranks (%d)\n", n, size);
        MPI_Finalize();
        return 1;
    }
    const int first = rank * (n / size) + (rank < n % size ? rank : n % size);
    const int nloc = n / size + (rank < n % size);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    double (*u)[n + 2] = calloc((size_t)(nloc + 2), sizeof *u);
    double (*unew)[n + 2] = calloc((size_t)(nloc + 2), sizeof *unew);
    double *rtop = calloc((size_t)(n + 2), sizeof(double));
    double *rbot = calloc((size_t)(n + 2), sizeof(double));
    double *stop = calloc((size_t)(n + 2), sizeof(double));
    double *sbot = calloc((size_t)(n + 2), sizeof(double));
    if (first == 0)
        for (int j = 0; j < n + 2; j++) u[0][j] = unew[0][j] = 1.0;
    MPI_Request req[4];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

#pragma tucana superblock
    for (int it = 0; it < iterations; it++) {
#pragma tucana receive
        {
            MPI_Irecv(rtop, n + 2, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(rbot, n + 2, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[1]);
        }
#pragma tucana send
        {
            memcpy(stop, u[1], (size_t)(n + 2) * sizeof(double));
            memcpy(sbot, u[nloc], (size_t)(n + 2) * sizeof(double));
            MPI_Isend(stop, n + 2, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[2]);
            MPI_Isend(sbot, n + 2, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[3]);
        }
#pragma tucana compute
        {
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
            if (up != MPI_PROC_NULL)
                for (int j = 0; j < n + 2; j++) u[0][j] = rtop[j];
            if (down != MPI_PROC_NULL)
                for (int j = 0; j < n + 2; j++) u[nloc + 1][j] = rbot[j];
            for (int i = 1; i <= nloc; i++)
                for (int j = 1; j <= n; j++)
                    unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
            double (*t)[n + 2] = u;
            u = unew;
            unew = t;
        }
    }

    double elapsed = MPI_Wtime() - t0, slowest;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* Gather the rows on rank 0 and compare with a serial run. */
    int ok = 1;
    const int exact = (double)n * n * iterations <= 67108864.0;
    if (rank == 0) {
        double (*g)[n + 2] = calloc((size_t)(n + 2), sizeof *g);
        double (*s)[n + 2] = calloc((size_t)(n + 2), sizeof *s);
        double (*w)[n + 2] = calloc((size_t)(n + 2), sizeof *w);
        for (int j = 0; j < n + 2; j++) s[0][j] = w[0][j] = 1.0;
        memcpy(g[1], u[1], (size_t)nloc * sizeof *g);
        for (int r = 1, row = 1 + nloc; r < size; r++) {
            int rows = n / size + (r < n % size);
            MPI_Recv(g[row], rows * (n + 2), MPI_DOUBLE, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            row += rows;
        }
        if (exact) serial(n, iterations, s, w);
        double sum = 0;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) {
                if (exact ? memcmp(&g[i][j], &s[i][j], sizeof(double)) != 0 : !(g[i][j] >= 0.0 && g[i][j] <= 1.0))
                    ok = 0;
                sum += g[i][j];
            }
        printf("heat2d_split: n %d iterations %d checksum %.17g time %.6f\n", n, iterations, sum, slowest);
        printf("heat2d_split: check %s\n", exact ? "bit for bit against a serial run" : "every value in [0, 1]");
        printf(ok ? "heat2d_split: OK\n" : "heat2d_split: FAILED: differs from the serial run\n");
        free(g);
        free(s);
        free(w);
    } else {
        MPI_Send(u[1], nloc * (n + 2), MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    }
    free(u);
    free(unew);
    free(rtop);
    free(rbot);
    free(stop);
    free(sbot);
    MPI_Finalize();
    return ok ? 0 : 1;
}
