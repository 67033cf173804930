/*
 * jacobi1d -- 1D 3-point Jacobi relaxation, the kernel of Fig. 1 of the
 * Toucan paper, as a plain MPI program.
 *
 * Usage: jacobi1d [N [ITERATIONS]]     (defaults: N = 100000, ITERATIONS = 200)
 *
 * The global grid has N points.  Points 0 and N-1 are fixed (1.0 and 0.0);
 * the interior starts with pseudo-random values in [0, 1) computed from each
 * point's global index.  Each iteration replaces every interior point by the
 * average of its two neighbours.
 *
 * Decomposition: contiguous blocks; rank r owns points [first, first + nloc),
 * the N % size leftover points going to the lowest ranks (N >= ranks).  Each
 * rank stores its points plus one ghost cell on each side.  Every iteration
 * (the loop that jacobi1d_annotated.c marks as a superblock):
 *   receive: MPI_Irecv of the two ghost values into a receive buffer;
 *   send:    pack the two boundary values into a send buffer, MPI_Isend;
 *   compute: MPI_Waitall, unpack into the ghost cells, sweep, swap arrays.
 * The ranks at the ends of the grid use MPI_PROC_NULL as missing neighbour.
 *
 * jacobi1d_annotated.c is this same program with Toucan's pragmas added
 * (and nothing else changed); a plain compiler ignores them.
 *
 * Reproducibility: every value is computed by the same expression from the
 * same inputs whatever the number of ranks; the residual is a maximum
 * (MPI_MAX, exact in any order); the checksum is summed by rank 0 in global
 * order after collecting the grid with point-to-point receives.  So the
 * "residual" and "checksum" lines are bitwise identical for any number of
 * ranks.
 *
 * Self-check: rank 0 repeats the whole computation serially and compares
 * the gathered grid with it bit for bit.
 *
 * Output (rank 0):
 *   residual <max |u_new - u_old| in the last iteration>
 *   checksum <sum of the final grid>
 *   ranks <P> N <N> iterations <I> time <seconds>
 *   jacobi1d: OK                 (or a FAILED line, and exit status 1)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_TO_LEFT 1   /* a value travelling to rank - 1 */
#define TAG_TO_RIGHT 2  /* a value travelling to rank + 1 */
#define TAG_GATHER 3    /* owned points travelling to rank 0 */

/* Points [*first, *first + *nloc) of an n-point grid belong to rank r. */
static void block_range(int n, int size, int r, int *first, int *nloc)
{
    int base = n / size, extra = n % size;
    *nloc = base + (r < extra ? 1 : 0);
    *first = r * base + (r < extra ? r : extra);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "jacobi1d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Initial value of global point g: a hash of g mapped to [0, 1). */
static double initial_value(int n, int g)
{
    if (g == 0)
        return 1.0;
    if (g == n - 1)
        return 0.0;
    unsigned long long x = (unsigned long long)g * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return (double)(x >> 11) * 0x1.0p-53;
}

/*
 * One Jacobi sweep over local points 1..nloc (global first..first+nloc-1)
 * of u, whose ghost cells u[0] and u[nloc+1] are current; writes unew and
 * returns the largest change.  The serial check calls it on the whole grid.
 */
static double sweep(const double *u, double *unew, int n, int first, int nloc)
{
    double diff = 0.0;
    for (int i = 1; i <= nloc; i++) {
        int g = first + i - 1;
        if (g == 0 || g == n - 1) {           /* fixed end point */
            unew[i] = u[i];
            continue;
        }
        unew[i] = 0.5 * (u[i - 1] + u[i + 1]);
        double d = unew[i] - u[i];
        if (d < 0.0)
            d = -d;
        if (d > diff)
            diff = d;
    }
    return diff;
}

int main(int argc, char **argv)
{
    int rank, size, n = 100000, iterations = 200;
    int first, nloc, left, right;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        iterations = atoi(argv[2]);
    if (n < 3 || n < size || iterations < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N >= max(3, ranks) [ITERATIONS >= 1]]\n",
                    argv[0]);
        MPI_Finalize();
        return 1;
    }

    block_range(n, size, rank, &first, &nloc);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;

    /* Local points 1..nloc are owned; 0 and nloc+1 are ghost cells. */
    double *u = xmalloc((size_t)(nloc + 2) * sizeof(double));
    double *unew = xmalloc((size_t)(nloc + 2) * sizeof(double));
    u[0] = unew[0] = u[nloc + 1] = unew[nloc + 1] = 0.0;
    for (int i = 1; i <= nloc; i++)
        u[i] = unew[i] = initial_value(n, first + i - 1);

    /* State shared by the regions of the loop: declared before it. */
    MPI_Request req[4];
    double sendbuf[2] = {0.0, 0.0};  /* [0] to the left, [1] to the right */
    double recvbuf[2] = {0.0, 0.0};  /* [0] from the left, [1] from the right */
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < iterations; it++) {
        {
            MPI_Irecv(&recvbuf[0], 1, MPI_DOUBLE, left, TAG_TO_RIGHT,
                      MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(&recvbuf[1], 1, MPI_DOUBLE, right, TAG_TO_LEFT,
                      MPI_COMM_WORLD, &req[1]);
        }
        {
            sendbuf[0] = u[1];
            sendbuf[1] = u[nloc];
            MPI_Isend(&sendbuf[0], 1, MPI_DOUBLE, left, TAG_TO_LEFT,
                      MPI_COMM_WORLD, &req[2]);
            MPI_Isend(&sendbuf[1], 1, MPI_DOUBLE, right, TAG_TO_RIGHT,
                      MPI_COMM_WORLD, &req[3]);
        }
        {
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
            if (left != MPI_PROC_NULL)
                u[0] = recvbuf[0];
            if (right != MPI_PROC_NULL)
                u[nloc + 1] = recvbuf[1];
            local_diff = sweep(u, unew, n, first, nloc);
            double *tmp = u;
            u = unew;
            unew = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0;
    double residual = 0.0;
    MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Collect the grid on rank 0 in global order; check it there. */
    int ok = 1;
    if (rank == 0) {
        double *all = xmalloc((size_t)n * sizeof(double));
        memcpy(all, &u[1], (size_t)nloc * sizeof(double));
        for (int r = 1; r < size; r++) {
            int f, c;
            block_range(n, size, r, &f, &c);
            MPI_Recv(&all[f], c, MPI_DOUBLE, r, TAG_GATHER, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
        double checksum = 0.0;
        for (int g = 0; g < n; g++)
            checksum += all[g];

        /* Serial reference: the same sweeps on the whole grid. */
        double *s = xmalloc((size_t)(n + 2) * sizeof(double));
        double *snew = xmalloc((size_t)(n + 2) * sizeof(double));
        s[0] = snew[0] = s[n + 1] = snew[n + 1] = 0.0;
        for (int g = 0; g < n; g++)
            s[g + 1] = snew[g + 1] = initial_value(n, g);
        double sdiff = 0.0;
        for (int it = 0; it < iterations; it++) {
            sdiff = sweep(s, snew, n, 0, n);
            double *tmp = s;
            s = snew;
            snew = tmp;
        }
        if (memcmp(all, &s[1], (size_t)n * sizeof(double)) != 0 ||
            sdiff != residual)
            ok = 0;

        printf("residual %.17g\n", residual);
        printf("checksum %.17g\n", checksum);
        printf("ranks %d N %d iterations %d time %.6f s\n", size, n,
               iterations, elapsed);
        if (ok)
            printf("jacobi1d: OK\n");
        else
            printf("jacobi1d: FAILED (the grid differs from the serial "
                   "computation)\n");
        fflush(stdout);
        free(s);
        free(snew);
        free(all);
    } else {
        MPI_Send(&u[1], nloc, MPI_DOUBLE, 0, TAG_GATHER, MPI_COMM_WORLD);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
