/* omp_priv.c -- an OpenMP loop over privatized global arrays (a triad and a
 * reduction), timed on rank 0; built with and without privatization by
 * run.sh, which compares the medians (docs/privatization.md, "OpenMP and
 * threads inside a subrank"). Usage: omp_priv [N] [REPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN (1 << 21)
double a[MAXN], b[MAXN], c[MAXN];
double scalar = 3.0;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = argc > 1 ? atoi(argv[1]) : MAXN;
    int reps = argc > 2 ? atoi(argv[2]) : 50;
    if (n > MAXN) n = MAXN;
#pragma omp parallel for
    for (int i = 0; i < n; i++) { b[i] = i; c[i] = 2.0 * i; a[i] = 0; }
    double sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++) a[i] = b[i] + scalar * c[i];
#pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < n; i++) sum += a[i];
    }
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("time %.6f s checksum %.6e\n", tmax, sum);
    MPI_Finalize();
    return 0;
}
