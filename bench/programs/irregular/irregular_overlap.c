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
 * Usage: irregular [CELLS [HALO [ITERATIONS]]]
 *        (defaults: CELLS = 20000, HALO = 1000, ITERATIONS = 40)
 *
 * The problem (a function of the rank count P and the arguments only; every
 * rank derives all of it from a fixed hash, no set-up messages):
 *  - rank r owns n_r cells, n_r uniform in [CELLS/2, 3*CELLS/2];
 *  - ranks i != j are neighbours when they are next to each other on the
 *    ring 0 - 1 - ... - P-1 - 0, or when a hash of the pair falls below 2/P
 *    (about two extra neighbours per rank): the graph is symmetric and the
 *    number of neighbours varies from rank to rank;
 *  - neighbours i and j exchange m_ij values each way, m_ij uniform in
 *    [HALO/2, 3*HALO/2]: rank j sends the values of m_ij of its cells,
 *    picked by hash (scattered through its array), and rank i receives them
 *    straight into m_ij ghost slots after its own cells;
 *  - the local operator is a sparse matrix in CSR form over the n_r cells
 *    and the ghosts: row i couples cell i with itself, cells i +- 1 and
 *    i +- W (W = the integer square root of n_r, a 2D-mesh-like band), and
 *    with every ghost whose value came from the cell that i sent in the
 *    same slot (so the coupling across ranks is symmetric); every entry of
 *    row i is 0.9 / (its length);
 *  - each iteration computes x_new = A x + b (b_i in [0, 0.1)), starting
 *    from x_i in [0, 1): a sparse matrix-vector sweep whose values stay in
 *    [0, 1].
 *
 * Variants (same arithmetic for every cell, bit-identical results):
 *   irregular.c            Original: this file.
 *   irregular_overlap.c    Overlap: sweep the rows that touch no ghost while
 *                          the halos travel, then the rows that do.
 *   irregular_annotated.c  Tucana: this file plus a Toucan-form superblock.
 *
 * Output (rank 0):
 *   irregular ranks <P> cells <total> ghosts <total>
 *             neighbours <min>..<max> iterations <I>
 *   residual <max |x_new - x| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final x, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   irregular: OK              (or a FAILED line, and exit status 1)
 * The problem depends on P, so the results do too; for one P they are the
 * same for every variant.
 *
 * Self-check: when (total cells) * ITERATIONS <= 2^26, rank 0 builds every
 * rank's part, repeats the computation serially (copying the halos by hand)
 * and compares the collected x bit for bit; above that, every value must lie
 * in [0, 1].
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_HALO 1
#define TAG_GATHER 2
#define SERIAL_CHECK_LIMIT (1LL << 26)

typedef unsigned long long u64;

/* The problem: everything else follows from these. */
typedef struct {
    int size;  /* ranks */
    int cells; /* average cells per rank */
    int halo;  /* average values per neighbour and direction */
} Problem;

/* One rank's part: its cells, its neighbours, its matrix. */
typedef struct {
    int rank;
    int ncell;     /* owned cells: x[0 .. ncell) */
    int nnbr;      /* neighbours */
    int *nbr;      /* their ranks, ascending */
    int *count;    /* values exchanged with nbr[k], each way */
    int *offset;   /* first slot of nbr[k]: ghosts x[ncell + offset[k] ...],
                      send buffer sendbuf[offset[k] ...] */
    int nghost;    /* ghost values (= values sent) */
    int *send_idx; /* cell sent in slot s, s < nghost */
    int *row_start; /* CSR: row i is entries row_start[i] .. row_start[i+1) */
    int *col;       /* column: a cell (< ncell) or a ghost (>= ncell) */
    double *val;
    double *rhs;
} Part;

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "irregular: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* splitmix64's finalizer, and a hash of three numbers with it. */
static u64 mix(u64 x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

static u64 hash3(u64 a, u64 b, u64 c)
{
    return mix(mix(mix(a + 0x9E3779B97F4A7C15ULL) + b) + c);
}

/* A value in [0, 1) from a hash. */
static double unit(u64 h)
{
    return (double)(h >> 11) * 0x1.0p-53;
}

static int cells_of(const Problem *pb, int r)
{
    return pb->cells / 2 + (int)(hash3(1, (u64)r, 0) % (u64)(pb->cells + 1));
}

static int linked(const Problem *pb, int i, int j)
{
    int lo = i < j ? i : j, hi = i < j ? j : i;
    if (i == j)
        return 0;
    if (hi - lo == 1 || (lo == 0 && hi == pb->size - 1))
        return 1;
    return hash3(2, (u64)lo, (u64)hi) % (u64)pb->size < 2;
}

static int halo_of(const Problem *pb, int i, int j)
{
    int lo = i < j ? i : j, hi = i < j ? j : i;
    return pb->halo / 2 +
           (int)(hash3(3, (u64)lo, (u64)hi) % (u64)(pb->halo + 1));
}

/* Rank r's part of the problem. */
static Part build_part(const Problem *pb, int r)
{
    Part p;
    p.rank = r;
    p.ncell = cells_of(pb, r);
    p.nnbr = 0;
    for (int j = 0; j < pb->size; j++)
        p.nnbr += linked(pb, r, j);
    p.nbr = xmalloc((size_t)p.nnbr * sizeof(int));
    p.count = xmalloc((size_t)p.nnbr * sizeof(int));
    p.offset = xmalloc((size_t)p.nnbr * sizeof(int));
    p.nghost = 0;
    for (int j = 0, k = 0; j < pb->size; j++)
        if (linked(pb, r, j)) {
            p.nbr[k] = j;
            p.count[k] = halo_of(pb, r, j);
            p.offset[k] = p.nghost;
            p.nghost += p.count[k];
            k++;
        }
    p.send_idx = xmalloc((size_t)p.nghost * sizeof(int));
    for (int k = 0; k < p.nnbr; k++)
        for (int t = 0; t < p.count[k]; t++)
            p.send_idx[p.offset[k] + t] =
                (int)(hash3(4, ((u64)r << 32) | (u64)p.nbr[k], (u64)t) %
                      (u64)p.ncell);

    /* Row lengths: the local band, plus one per slot that the cell sends. */
    int n = p.ncell, w = 1;
    while ((w + 1) * (w + 1) <= n)
        w++;
    p.row_start = xmalloc((size_t)(n + 1) * sizeof(int));
    int *ghosts_of = xmalloc((size_t)n * sizeof(int));
    for (int s = 0; s < p.nghost; s++)
        ghosts_of[p.send_idx[s]]++;
    int nnz = 0;
    for (int i = 0; i < n; i++) {
        p.row_start[i] = nnz;
        nnz += 1 + (i - 1 >= 0) + (i + 1 < n) + (i - w >= 0) + (i + w < n) +
               ghosts_of[i];
    }
    p.row_start[n] = nnz;
    p.col = xmalloc((size_t)nnz * sizeof(int));
    p.val = xmalloc((size_t)nnz * sizeof(double));
    int *fill = xmalloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        int e = p.row_start[i];
        if (i - w >= 0)
            p.col[e++] = i - w;
        if (i - 1 >= 0)
            p.col[e++] = i - 1;
        p.col[e++] = i;
        if (i + 1 < n)
            p.col[e++] = i + 1;
        if (i + w < n)
            p.col[e++] = i + w;
        fill[i] = e;
    }
    /* The ghost in slot s holds the value the neighbour sent in its slot s
     * for this rank; the cell this rank sends in slot s couples to it. */
    for (int s = 0; s < p.nghost; s++)
        p.col[fill[p.send_idx[s]]++] = n + s;
    for (int i = 0; i < n; i++) {
        int len = p.row_start[i + 1] - p.row_start[i];
        for (int e = p.row_start[i]; e < p.row_start[i + 1]; e++)
            p.val[e] = 0.9 / (double)len;
    }
    p.rhs = xmalloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        p.rhs[i] = 0.1 * unit(hash3(5, (u64)r, (u64)i));
    free(fill);
    free(ghosts_of);
    return p;
}

static void free_part(Part *p)
{
    free(p->nbr);
    free(p->count);
    free(p->offset);
    free(p->send_idx);
    free(p->row_start);
    free(p->col);
    free(p->val);
    free(p->rhs);
}

/* The starting vector (cells and ghosts). */
static double *initial_x(const Part *p)
{
    double *x = xmalloc((size_t)(p->ncell + p->nghost) * sizeof(double));
    for (int i = 0; i < p->ncell; i++)
        x[i] = unit(hash3(6, (u64)p->rank, (u64)i));
    return x;
}

/* Copy the values this rank sends to nbr[k] into its slots of buf. */
static void pack(const Part *p, int k, const double *x, double *buf)
{
    for (int s = p->offset[k]; s < p->offset[k] + p->count[k]; s++)
        buf[s] = x[p->send_idx[s]];
}

/* xnew_i = (A x)_i + b_i for rows [first, last); returns max |xnew - x|. */
static double sweep_rows(const Part *p, const double *x, double *xnew,
                         int first, int last)
{
    double diff = 0.0;
    for (int i = first; i < last; i++) {
        double v = p->rhs[i];
        for (int e = p->row_start[i]; e < p->row_start[i + 1]; e++)
            v += p->val[e] * x[p->col[e]];
        xnew[i] = v;
        double d = fabs(v - x[i]);
        diff = d > diff ? d : diff;
    }
    return diff;
}

/* The same sweep for the rows listed in rows[0 .. nrows). */
static double sweep_list(const Part *p, const double *x, double *xnew,
                         const int *rows, int nrows)
{
    double diff = 0.0;
    for (int r = 0; r < nrows; r++) {
        int i = rows[r];
        double v = p->rhs[i];
        for (int e = p->row_start[i]; e < p->row_start[i + 1]; e++)
            v += p->val[e] * x[p->col[e]];
        xnew[i] = v;
        double d = fabs(v - x[i]);
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

/* v in units of 2^-32, truncated toward zero (clamped far outside [0, 1]):
 * integer sums of these are exact, hence the same in any order. */
static u64 fixed_point(double v)
{
    if (!(v < 0x1p30))
        v = 0x1p30;
    if (v < -0x1p30)
        v = -0x1p30;
    return (u64)(long long)(v * 0x1p32);
}

/*
 * Rank 0's reference: every part computed serially, halos copied by hand.
 * Returns the final x of every rank (xs[r], cells only) and the residual.
 */
static double serial_reference(const Problem *pb, int iterations,
                               double **xs)
{
    int P = pb->size;
    Part *parts = xmalloc((size_t)P * sizeof(Part));
    double **xn = xmalloc((size_t)P * sizeof(double *));
    for (int r = 0; r < P; r++) {
        parts[r] = build_part(pb, r);
        xs[r] = initial_x(&parts[r]);
        xn[r] = initial_x(&parts[r]);
    }
    double residual = 0.0;
    for (int it = 0; it < iterations; it++) {
        for (int r = 0; r < P; r++) {
            const Part *p = &parts[r];
            for (int k = 0; k < p->nnbr; k++) {
                const Part *q = &parts[p->nbr[k]];
                int kk = 0;
                while (q->nbr[kk] != r)
                    kk++;
                for (int t = 0; t < p->count[k]; t++)
                    xs[r][p->ncell + p->offset[k] + t] =
                        xs[q->rank][q->send_idx[q->offset[kk] + t]];
            }
        }
        residual = 0.0;
        for (int r = 0; r < P; r++) {
            double d = sweep_rows(&parts[r], xs[r], xn[r], 0, parts[r].ncell);
            residual = d > residual ? d : residual;
        }
        for (int r = 0; r < P; r++) {
            double *t = xs[r];
            xs[r] = xn[r];
            xn[r] = t;
        }
    }
    for (int r = 0; r < P; r++) {
        free(xn[r]);
        free_part(&parts[r]);
    }
    free(xn);
    free(parts);
    return residual;
}

int main(int argc, char **argv)
{
    int rank, size, iterations = 40;
    Problem pb = {1, 20000, 1000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pb.size = size;
    if (argc > 1)
        pb.cells = atoi(argv[1]);
    if (argc > 2)
        pb.halo = atoi(argv[2]);
    if (argc > 3)
        iterations = atoi(argv[3]);
    if (pb.cells < 2 || pb.cells > 200000000 || pb.halo < 1 ||
        pb.halo > 50000000 || iterations < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [CELLS >= 2 [HALO >= 1 [ITERATIONS >= 1]]]\n",
                    argv[0]);
        MPI_Finalize();
        return 1;
    }

    Part part = build_part(&pb, rank);
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
            double **xs = xmalloc((size_t)size * sizeof(double *));
            double sres = serial_reference(&pb, iterations, xs);
            double *got = xmalloc((size_t)tot[0] * sizeof(double));
            for (int r = 0; r < size; r++) {
                int n = cells_of(&pb, r);
                if (r == 0)
                    memcpy(got, x, (size_t)n * sizeof(double));
                else
                    MPI_Recv(got, n, MPI_DOUBLE, r, TAG_GATHER, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                if (memcmp(got, xs[r], (size_t)n * sizeof(double)) != 0)
                    ok = 0;
                free(xs[r]);
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
        printf("irregular ranks %d cells %lld ghosts %lld neighbours %d..%d "
               "iterations %d\n",
               size, tot[0], tot[1], -nnr[0], nnr[1], iterations);
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
