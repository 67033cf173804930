/* heat1d_tasks: the 1D heat equation u_t = u_xx on one slab of cells per
 * rank (explicit Euler, fixed ends), the original MPI program: each step
 * exchanges the ghost cells, then updates every cell. Its annotated twin,
 * heat1d_tasks_annotated.c, splits each step into tasks (docs/tasks.md).
 *
 * usage: heat1d_tasks [CELLS_PER_RANK [STEPS]]   (defaults 65536 and 200)
 * Prints the checksum of the final field, compares it on rank 0 with a
 * serial run of the whole problem, and ends with "heat1d_tasks: OK". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R 0.25 /* dt / dx^2 */
#define TAG 7

static void update(const double *u, double *v, long lo, long hi)
{
    for (long i = lo; i <= hi; ++i)
        v[i] = u[i] + R * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

static double initial(long global)
{
    return (double)((global * 7919) % 1000) / 1000.0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 65536;
    int steps = argc > 2 ? atoi(argv[2]) : 200;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *u = calloc((size_t)n + 2, sizeof(double));
    double *v = calloc((size_t)n + 2, sizeof(double));
    for (long i = 1; i <= n; ++i)
        u[i] = initial(rank * n + i - 1);

    double t0 = MPI_Wtime();
    for (int step = 0; step < steps; ++step) {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, TAG, &u[n + 1], 1, MPI_DOUBLE, right, TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, TAG, &u[0], 1, MPI_DOUBLE, left, TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        update(u, v, 1, n);
        double *t = u;
        u = v;
        v = t;
    }
    double elapsed = MPI_Wtime() - t0;

    /* Rank 0 gathers the field and checks it against a serial run. */
    double *all = rank == 0 ? malloc(sizeof(double) * (size_t)(n * size)) : NULL;
    MPI_Gather(&u[1], (int)n, MPI_DOUBLE, all, (int)n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int ok = 1;
    if (rank == 0) {
        long total = n * size;
        double *a = calloc((size_t)total + 2, sizeof(double));
        double *b = calloc((size_t)total + 2, sizeof(double));
        for (long i = 1; i <= total; ++i)
            a[i] = initial(i - 1);
        for (int step = 0; step < steps; ++step) {
            update(a, b, 1, total);
            double *t = a;
            a = b;
            b = t;
        }
        double sum = 0;
        for (long i = 0; i < total; ++i) {
            sum += all[i] * (double)(i % 13 + 1);
            if (all[i] != a[i + 1])
                ok = 0;
        }
        printf("heat1d_tasks: %d ranks x %ld cells, %d steps: checksum %.12e, serial run %s\n", size, n, steps,
               sum, ok ? "identical" : "DIFFERENT");
        printf("heat1d_tasks: time %.4f s\n", elapsed);
        printf(ok ? "heat1d_tasks: OK\n" : "heat1d_tasks: FAILED\n");
        free(a);
        free(b);
        free(all);
    }
    free(u);
    free(v);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return ok ? 0 : 1;
}
