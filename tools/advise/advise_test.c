/* advise_test: the program the tucana-advise tests profile. A loop of
 * MPI_Alltoall (the line marked ALLTOALL) and one of MPI_Sendrecv with the
 * ring neighbours (the line marked SENDRECV), with a little computation
 * between the calls, and a check of what arrived.
 * With a fourth argument, as many ring exchanges by MPI_Irecv (IRECV),
 * MPI_Isend (ISEND) and MPI_Waitall (WAITALL) follow.
 * Usage: advise_test [ITERATIONS [ALLTOALL_INTS_PER_PAIR [SENDRECV_INTS [NONBLOCKING]]]]
 * (defaults 20, 4096, 16, 0). Exits 1 if a message carried the wrong data. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double compute(double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * 0.5 + 1;
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 20;
    int block = argc > 2 ? atoi(argv[2]) : 4096;
    int ring = argc > 3 ? atoi(argv[3]) : 16;
    int nonblocking = argc > 4 ? atoi(argv[4]) : 0;
    int *out = malloc(sizeof(int) * (size_t)block * size);
    int *in = malloc(sizeof(int) * (size_t)block * size);
    int *sbuf = malloc(sizeof(int) * (size_t)ring), *rbuf = malloc(sizeof(int) * (size_t)ring);
    double *work = calloc(10000, sizeof(double));
    int bad = 0;
    for (int it = 0; it < iters; it++) {
        for (int p = 0; p < size; p++)
            for (int j = 0; j < block; j++) out[(size_t)p * block + j] = rank * 1000 + p + it;
        MPI_Alltoall(out, block, MPI_INT, in, block, MPI_INT, MPI_COMM_WORLD); /* ALLTOALL */
        for (int p = 0; p < size; p++)
            if (in[(size_t)p * block] != p * 1000 + rank + it) bad = 1;
        work[it % 10000] += compute(work, 10000);
    }
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int it = 0; it < iters; it++) {
        for (int j = 0; j < ring; j++) sbuf[j] = rank + it;
        MPI_Sendrecv(sbuf, ring, MPI_INT, right, 5, rbuf, ring, MPI_INT, left, 5, MPI_COMM_WORLD, /* SENDRECV */
                     MPI_STATUS_IGNORE);
        if (rbuf[0] != left + it) bad = 1;
        work[it % 10000] += compute(work, 1000);
    }
    for (int it = 0; it < nonblocking; it++) {
        MPI_Request req[2];
        MPI_Status st[2];
        for (int j = 0; j < ring; j++) sbuf[j] = rank - it;
        MPI_Irecv(rbuf, ring, MPI_INT, left, 6, MPI_COMM_WORLD, &req[0]); /* IRECV */
        MPI_Isend(sbuf, ring, MPI_INT, right, 6, MPI_COMM_WORLD, &req[1]); /* ISEND */
        work[it % 10000] += compute(work, 1000);
        MPI_Waitall(2, req, st); /* WAITALL */
        if (rbuf[0] != left - it) bad = 1;
    }
    if (bad) fprintf(stderr, "advise_test: rank %d received wrong data\n", rank);
    if (rank == 0 && work[0] < 0) printf("%g\n", work[0]);
    free(out); free(in); free(sbuf); free(rbuf); free(work);
    MPI_Finalize();
    return bad;
}
