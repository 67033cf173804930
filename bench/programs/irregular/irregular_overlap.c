/*
 * irregular_overlap -- benchmark program: an irregular halo exchange on an
 * unstructured partition.  This file is the *Overlap* variant: the
 * split-phase loop a careful programmer writes by hand.  The rows of the
 * local matrix are split once into interior rows (no ghost column) and
 * boundary rows; each iteration posts the receives, packs and sends the
 * halos, sweeps the interior rows while the halos travel -- polling MPI with
 * MPI_Testall between chunks of rows so that the transfers make progress --
 * then waits and sweeps the boundary rows.  Every row is computed by the
 * same expression as in irregular.c: the results are bit-identical.
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

/* The same sweep for the rows listed in rows[0 .. nrows). */
static double sweep_list(const Part *p, const double *x, double *xnew,
                         const int *rows, int nrows)
{
    double diff = 0.0;
    for (int r = 0; r < nrows; r++) {
        double d = sweep_row(p, x, xnew, rows[r]);
        diff = d > diff ? d : diff;
    }
    return diff;
}

/*
 * The interior rows, in chunks; between chunks, MPI_Testall lets the
 * library move the halos (Open MPI's TCP transport progresses only inside
 * MPI calls).
 */
static double sweep_interior(const Part *p, const double *x, double *xnew,
                             const int *rows, int nrows, int nreq,
                             MPI_Request *req)
{
    double diff = 0.0;
    int done = 0;
    for (int r = 0; r < nrows; r += 8192) {
        int m = nrows - r < 8192 ? nrows - r : 8192;
        double d = sweep_list(p, x, xnew, &rows[r], m);
        diff = d > diff ? d : diff;
        if (!done)
            MPI_Testall(nreq, req, &done, MPI_STATUSES_IGNORE);
    }
    return diff;
}

int main(int argc, char **argv)
{
    int rank, size, iterations = 40;
    long long cells = 320000;
    Problem pb = {16, 0, 1000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!read_args(argc, argv, rank, size, &cells, &iterations, &pb)) {
        MPI_Finalize();
        return 1;
    }

    Part part = build_part(&pb, rank, size);
    double *x = initial_x(&part);
    double *xnew = initial_x(&part);

    /* State shared by the parts of the loop: declared before it. */
    double *sendbuf = xmalloc((size_t)part.nghost * sizeof(double));
    MPI_Request *req =
        xmalloc((size_t)(2 * part.nnbr + 1) * sizeof(MPI_Request));
    double local_diff = 0.0;

    /* Interior rows (no ghost column) and boundary rows, ascending. */
    int *interior = xmalloc((size_t)part.ncell * sizeof(int));
    int *boundary = xmalloc((size_t)part.ncell * sizeof(int));
    int ninterior = 0, nboundary = 0;
    for (int i = 0; i < part.ncell; i++) {
        int ghost = 0;
        for (int e = part.row_start[i]; e < part.row_start[i + 1]; e++)
            ghost |= part.col[e] >= part.ncell;
        if (ghost)
            boundary[nboundary++] = i;
        else
            interior[ninterior++] = i;
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < iterations; it++) {
        /* Halos arrive straight in the ghost slots of x. */
        for (int k = 0; k < part.nnbr; k++)
            MPI_Irecv(&x[part.ncell + part.offset[k]], part.count[k],
                      MPI_DOUBLE, part.nbr[k], TAG_HALO, MPI_COMM_WORLD,
                      &req[k]);
        for (int k = 0; k < part.nnbr; k++) {
            pack(&part, k, x, sendbuf);
            MPI_Isend(&sendbuf[part.offset[k]], part.count[k], MPI_DOUBLE,
                      part.nbr[k], TAG_HALO, MPI_COMM_WORLD,
                      &req[part.nnbr + k]);
        }
        double diff = sweep_interior(&part, x, xnew, interior, ninterior,
                                     2 * part.nnbr, req);
        MPI_Waitall(2 * part.nnbr, req, MPI_STATUSES_IGNORE);
        double d = sweep_list(&part, x, xnew, boundary, nboundary);
        local_diff = d > diff ? d : diff;
        double *tmp = x;
        x = xnew;
        xnew = tmp;
    }

    double elapsed = MPI_Wtime() - t0;
    int ok = report_results(&pb, &part, x, iterations, local_diff, elapsed,
                            rank, size);

    free(interior);
    free(boundary);
    free(sendbuf);
    free(req);
    free(x);
    free(xnew);
    free_part(&part);
    MPI_Finalize();
    return ok ? 0 : 1;
}
