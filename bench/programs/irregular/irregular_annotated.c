/*
 * irregular -- benchmark program: an irregular halo exchange on an
 * unstructured partition (the situation of flowCart and LULESH).  This file
 * is the *Original* variant: plain MPI, every iteration's halo exchange
 * completes (MPI_Waitall) before the sweep over the local cells starts.
 *
 * Usage: irregular [CELLS [HALO [ITERATIONS [PARTS]]]]
 *        (defaults: CELLS = 320000, HALO = 1000, ITERATIONS = 40,
 *        PARTS = 16)
 *
 * The problem is a function of the arguments only, not of the rank count:
 * the unstructured mesh comes in PARTS parts (the pieces a partitioner would
 * make), and every rank derives all of it from a fixed hash, with no set-up
 * messages:
 *  - part a has n_a cells, n_a uniform in [c/2, 3c/2], c = CELLS / PARTS;
 *  - parts a != b are linked when they are next to each other on the ring
 *    0 - 1 - ... - PARTS-1 - 0, or when a hash of the pair falls below
 *    2/PARTS (about two extra links per part): the graph is symmetric and the
 *    number of links varies from part to part;
 *  - linked parts a and b couple m_ab cells each way, m_ab uniform in
 *    [HALO/2, 3*HALO/2]: in slot t (t < m_ab) the cell pick(a, b, t) of a,
 *    picked by hash (scattered through the part), couples to the cell
 *    pick(b, a, t) of b, and the other way round;
 *  - the operator is a sparse matrix: row i of part a couples cell i with
 *    itself, cells i +- 1 and i +- W of the same part (W = the integer square
 *    root of n_a, a 2D-mesh-like band), and, in the order of the linked
 *    parts and of the slots, with every cell of another part that it is
 *    coupled to; every entry of a row is 0.9 / (its length);
 *  - each iteration computes x_new = A x + b (b_i in [0, 0.1)), starting
 *    from x_i in [0, 1): a sparse matrix-vector sweep whose values stay in
 *    [0, 1].
 *
 * Distribution: rank r of P owns the parts [r PARTS / P, (r+1) PARTS / P)
 * (P <= PARTS), their cells stored one part after the other.  A coupling to
 * a cell of a part on the same rank reads that cell; one to a part on
 * another rank reads a ghost slot after the rank's own cells.  Per
 * neighbour rank and direction one message carries all the coupled values,
 * in the order (receiving part, sending part, slot) that both sides
 * enumerate; they arrive straight in the ghost slots (no unpacking).  So
 * the neighbour counts and message sizes vary from rank to rank (2 ranks:
 * one neighbour each; 16 ranks of 16 parts: 2 to 6), while the arithmetic
 * of every row -- its entries, in the same order -- is the same at every
 * rank count: the results are bit-identical for every P.
 *
 * Variants (same arithmetic for every cell, bit-identical results):
 *   irregular.c            Original: this file.
 *   irregular_overlap.c    Overlap: sweep the rows that touch no ghost while
 *                          the halos travel, then the rows that do.
 *   irregular_annotated.c  Tucana: this file plus a Toucan-form superblock.
 *
 * Output (rank 0):
 *   irregular ranks <P> parts <PARTS> cells <total> ghosts <total>
 *             neighbours <min>..<max> iterations <I>
 *   residual <max |x_new - x| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final x, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   irregular: OK              (or a FAILED line, and exit status 1)
 * The problem does not depend on P, and neither do the residual and the
 * checksum; the ghosts and neighbours do.
 *
 * Self-check: when (total cells) * ITERATIONS <= 2^26, rank 0 builds the
 * whole problem as one rank, repeats the computation serially and compares
 * the collected x and the residual bit for bit; above that, every value
 * must lie in [0, 1].
 */
#include "irregular_common.h"

int main(int argc, char **argv)
{
    int rank, size, iterations = 40;
    long long cells = 320000;
    Problem pb = {16, 0, 1000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        cells = atoll(argv[1]);
    if (argc > 2)
        pb.halo = atoi(argv[2]);
    if (argc > 3)
        iterations = atoi(argv[3]);
    if (argc > 4)
        pb.parts = atoi(argv[4]);
    if (pb.parts < 1 || pb.parts > MAX_PARTS || cells < 2LL * pb.parts ||
        cells > 400000000 || pb.halo < 1 || pb.halo > 50000000 ||
        iterations < 1 || size > pb.parts) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [CELLS >= 2 PARTS [HALO >= 1 [ITERATIONS >= 1 "
                    "[PARTS in 1..%d]]]], at most PARTS ranks (%d here)\n",
                    argv[0], MAX_PARTS, size);
        MPI_Finalize();
        return 1;
    }
    pb.cells = (int)(cells / pb.parts);

    Part part = build_part(&pb, rank, size);
    double *x = initial_x(&part);
    double *xnew = initial_x(&part);

    /* State shared by the parts of the loop: declared before it. */
    double *sendbuf = xmalloc((size_t)part.nghost * sizeof(double));
    MPI_Request *req =
        xmalloc((size_t)(2 * part.nnbr + 1) * sizeof(MPI_Request));
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

#pragma tucana superblock
    for (int it = 0; it < iterations; it++) {
#pragma tucana receive
        {
            /* Halos arrive straight in the ghost slots of x. */
            for (int k = 0; k < part.nnbr; k++)
                MPI_Irecv(&x[part.ncell + part.offset[k]], part.count[k],
                          MPI_DOUBLE, part.nbr[k], TAG_HALO, MPI_COMM_WORLD,
                          &req[k]);
        }
#pragma tucana send
        {
            for (int k = 0; k < part.nnbr; k++) {
                pack(&part, k, x, sendbuf);
                MPI_Isend(&sendbuf[part.offset[k]], part.count[k], MPI_DOUBLE,
                          part.nbr[k], TAG_HALO, MPI_COMM_WORLD,
                          &req[part.nnbr + k]);
            }
        }
#pragma tucana compute
        {
            MPI_Waitall(2 * part.nnbr, req, MPI_STATUSES_IGNORE);
            local_diff = sweep_rows(&part, x, xnew, 0, part.ncell);
            double *tmp = x;
            x = xnew;
            xnew = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    double residual = 0.0;
    MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Checksum and bounds of the owned cells; sizes of the problem. */
    u64 local_sum = 0, checksum = 0;
    int bad = 0;
    for (int i = 0; i < part.ncell; i++) {
        local_sum += fixed_point(x[i]);
        if (!(x[i] >= 0.0 && x[i] <= 1.0))
            bad = 1;
    }
    MPI_Allreduce(&local_sum, &checksum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    long long mine[3] = {part.ncell, part.nghost, bad}, tot[3];
    MPI_Allreduce(mine, tot, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    int nn[2] = {-part.nnbr, part.nnbr}, nnr[2];
    MPI_Allreduce(nn, nnr, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = tot[2] == 0;

    int serial = tot[0] * iterations <= SERIAL_CHECK_LIMIT;
    if (serial) {
        if (rank == 0) {
            double *xs = NULL;
            double sres = serial_reference(&pb, iterations, &xs);
            double *got = xmalloc((size_t)tot[0] * sizeof(double));
            long long at = 0; /* rank r's cells follow rank r-1's */
            for (int r = 0; r < size; r++) {
                int n = 0;
                for (int a = first_part(&pb, r, size);
                     a < first_part(&pb, r + 1, size); a++)
                    n += cells_of(&pb, a);
                if (r == 0)
                    memcpy(got, x, (size_t)n * sizeof(double));
                else
                    MPI_Recv(got, n, MPI_DOUBLE, r, TAG_GATHER, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                if (memcmp(got, &xs[at], (size_t)n * sizeof(double)) != 0)
                    ok = 0;
                at += n;
            }
            if (sres != residual)
                ok = 0;
            free(got);
            free(xs);
        } else {
            MPI_Send(x, part.ncell, MPI_DOUBLE, 0, TAG_GATHER, MPI_COMM_WORLD);
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("irregular ranks %d parts %d cells %lld ghosts %lld neighbours "
               "%d..%d iterations %d\n",
               size, pb.parts, tot[0], tot[1], -nnr[0], nnr[1], iterations);
        printf("residual %.17g\n", residual);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-32);
        printf("check %s\n", serial ? "serial computation, bit for bit"
                                    : "values within [0, 1]");
        if (ok)
            printf("irregular: OK\n");
        else
            printf("irregular: FAILED (%s)\n",
                   tot[2] ? "values outside [0, 1]"
                          : "x differs from the serial computation");
        fflush(stdout);
    }

    free(sendbuf);
    free(req);
    free(x);
    free(xnew);
    free_part(&part);
    MPI_Finalize();
    return ok ? 0 : 1;
}
