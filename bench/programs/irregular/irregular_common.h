/*
 * irregular_common.h -- what every variant of irregular (irregular.c,
 * irregular_annotated.c, irregular_overlap.c) shares, outside main(): the
 * partition, the parts and their halos, the initial vector, the packing, the
 * row sweep, the checksum and the serial reference.  The problem, the output
 * and the self-check are described in irregular.c's header comment.  Static
 * functions, types and constants only: no global or static variable (the
 * subranks of a Tucana process would share it), and no pragma (the
 * annotations stay in the variant files).
 */
#ifndef IRREGULAR_COMMON_H
#define IRREGULAR_COMMON_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/comm_only.h"

#define TAG_HALO 1
#define TAG_GATHER 2
#define SERIAL_CHECK_LIMIT (1LL << 26)
#define MAX_PARTS 4096

typedef unsigned long long u64;

/* The problem: everything else follows from these. */
typedef struct {
    int parts; /* parts of the mesh */
    int cells; /* average cells per part */
    int halo;  /* average values per pair of linked parts and direction */
} Problem;

/* One rank's part of the problem: its cells, its neighbours, its matrix. */
typedef struct {
    int first;     /* its parts: first .. first + nparts */
    int nparts;
    int *base;     /* part first + j has cells x[base[j] .. base[j+1]) */
    int ncell;     /* owned cells: x[0 .. ncell) */
    int nnbr;      /* neighbour ranks */
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

static int cells_of(const Problem *pb, int a)
{
    return pb->cells / 2 + (int)(hash3(1, (u64)a, 0) % (u64)(pb->cells + 1));
}

static int linked(const Problem *pb, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    if (a == b)
        return 0;
    if (hi - lo == 1 || (lo == 0 && hi == pb->parts - 1))
        return 1;
    return hash3(2, (u64)lo, (u64)hi) % (u64)pb->parts < 2;
}

static int halo_of(const Problem *pb, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return pb->halo / 2 +
           (int)(hash3(3, (u64)lo, (u64)hi) % (u64)(pb->halo + 1));
}

/* The cell of part a (numbered within a) coupled to part b in slot t. */
static int pick(const Problem *pb, int a, int b, int t)
{
    return (int)(hash3(4, ((u64)a << 32) | (u64)b, (u64)t) %
                 (u64)cells_of(pb, a));
}

/* The first part of rank r of size (r = size: the number of parts). */
static int first_part(const Problem *pb, int r, int size)
{
    return (int)((long long)r * pb->parts / size);
}

/* Rank r's part of the problem, on size ranks. */
static Part build_part(const Problem *pb, int r, int size)
{
    Part p;
    int K = pb->parts;
    p.first = first_part(pb, r, size);
    p.nparts = first_part(pb, r + 1, size) - p.first;
    p.base = xmalloc((size_t)(p.nparts + 1) * sizeof(int));
    p.ncell = 0;
    for (int j = 0; j < p.nparts; j++) {
        p.base[j] = p.ncell;
        p.ncell += cells_of(pb, p.first + j);
    }
    p.base[p.nparts] = p.ncell;

    /* Neighbour ranks, and the values exchanged with each. */
    int *per_rank = xmalloc((size_t)size * sizeof(int));
    for (int q = 0, b = 0; q < size; q++)
        for (; b < first_part(pb, q + 1, size); b++)
            for (int j = 0; j < p.nparts; j++)
                if (q != r && linked(pb, p.first + j, b))
                    per_rank[q] += halo_of(pb, p.first + j, b);
    p.nnbr = 0;
    for (int q = 0; q < size; q++)
        p.nnbr += per_rank[q] > 0;
    p.nbr = xmalloc((size_t)p.nnbr * sizeof(int));
    p.count = xmalloc((size_t)p.nnbr * sizeof(int));
    p.offset = xmalloc((size_t)p.nnbr * sizeof(int));
    p.nghost = 0;
    for (int q = 0, k = 0; q < size; q++)
        if (per_rank[q] > 0) {
            p.nbr[k] = q;
            p.count[k] = per_rank[q];
            p.offset[k] = p.nghost;
            p.nghost += per_rank[q];
            k++;
        }

    /* Slots, in the order (receiving part, sending part, slot t) of each
     * neighbour's message: ghost slot of the link (a, b) of an owned part a
     * to a remote part b (slot_of[j * K + b], -1 when b is local), and the
     * cells sent (for the message to q, the receiving parts are q's). */
    int *slot_of = xmalloc((size_t)p.nparts * K * sizeof(int));
    for (int e = 0; e < p.nparts * K; e++)
        slot_of[e] = -1;
    p.send_idx = xmalloc((size_t)p.nghost * sizeof(int));
    for (int k = 0; k < p.nnbr; k++) {
        int q = p.nbr[k], s = p.offset[k];
        int q0 = first_part(pb, q, size), q1 = first_part(pb, q + 1, size);
        for (int j = 0; j < p.nparts; j++)
            for (int b = q0; b < q1; b++)
                if (linked(pb, p.first + j, b)) {
                    slot_of[j * K + b] = s;
                    s += halo_of(pb, p.first + j, b);
                }
        s = p.offset[k];
        for (int b = q0; b < q1; b++)
            for (int j = 0; j < p.nparts; j++)
                if (linked(pb, b, p.first + j))
                    for (int t = 0; t < halo_of(pb, b, p.first + j); t++)
                        p.send_idx[s++] =
                            p.base[j] + pick(pb, p.first + j, b, t);
    }

    /* Row lengths: the band within the part, plus one per coupling. */
    p.row_start = xmalloc((size_t)(p.ncell + 1) * sizeof(int));
    int *couplings = xmalloc((size_t)p.ncell * sizeof(int));
    for (int j = 0; j < p.nparts; j++)
        for (int b = 0; b < K; b++)
            if (linked(pb, p.first + j, b))
                for (int t = 0; t < halo_of(pb, p.first + j, b); t++)
                    couplings[p.base[j] + pick(pb, p.first + j, b, t)]++;
    int nnz = 0;
    for (int j = 0; j < p.nparts; j++) {
        int n = p.base[j + 1] - p.base[j], w = 1;
        while ((w + 1) * (w + 1) <= n)
            w++;
        for (int i = 0; i < n; i++) {
            p.row_start[p.base[j] + i] = nnz;
            nnz += 1 + (i - 1 >= 0) + (i + 1 < n) + (i - w >= 0) +
                   (i + w < n) + couplings[p.base[j] + i];
        }
    }
    p.row_start[p.ncell] = nnz;
    p.col = xmalloc((size_t)nnz * sizeof(int));
    p.val = xmalloc((size_t)nnz * sizeof(double));
    int *fill = couplings; /* reused: the next free entry of each row */
    for (int j = 0; j < p.nparts; j++) {
        int n = p.base[j + 1] - p.base[j], w = 1, c0 = p.base[j];
        while ((w + 1) * (w + 1) <= n)
            w++;
        for (int i = 0; i < n; i++) {
            int e = p.row_start[c0 + i];
            if (i - w >= 0)
                p.col[e++] = c0 + i - w;
            if (i - 1 >= 0)
                p.col[e++] = c0 + i - 1;
            p.col[e++] = c0 + i;
            if (i + 1 < n)
                p.col[e++] = c0 + i + 1;
            if (i + w < n)
                p.col[e++] = c0 + i + w;
            fill[c0 + i] = e;
        }
    }
    /* Couplings in the order (linked part b, slot t): the cell of part a
     * picked for (a, b, t) reads the cell of b picked for (b, a, t), in x
     * when b is owned here, else in the ghost slot the value arrives in. */
    for (int j = 0; j < p.nparts; j++) {
        int a = p.first + j;
        for (int b = 0; b < K; b++)
            if (linked(pb, a, b))
                for (int t = 0; t < halo_of(pb, a, b); t++) {
                    int i = p.base[j] + pick(pb, a, b, t);
                    int local = b >= p.first && b < p.first + p.nparts;
                    p.col[fill[i]++] =
                        local ? p.base[b - p.first] + pick(pb, b, a, t)
                              : p.ncell + slot_of[j * K + b] + t;
                }
    }
    for (int i = 0; i < p.ncell; i++) {
        int len = p.row_start[i + 1] - p.row_start[i];
        for (int e = p.row_start[i]; e < p.row_start[i + 1]; e++)
            p.val[e] = 0.9 / (double)len;
    }
    p.rhs = xmalloc((size_t)p.ncell * sizeof(double));
    for (int j = 0; j < p.nparts; j++)
        for (int i = 0; i < p.base[j + 1] - p.base[j]; i++)
            p.rhs[p.base[j] + i] =
                0.1 * unit(hash3(5, (u64)(p.first + j), (u64)i));
    free(couplings);
    free(slot_of);
    free(per_rank);
    return p;
}

static void free_part(Part *p)
{
    free(p->base);
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
    for (int j = 0; j < p->nparts; j++)
        for (int i = 0; i < p->base[j + 1] - p->base[j]; i++)
            x[p->base[j] + i] = unit(hash3(6, (u64)(p->first + j), (u64)i));
    return x;
}

/* Copy the values this rank sends to nbr[k] into its slots of buf. */
static void pack(const Part *p, int k, const double *x, double *buf)
{
    for (int s = p->offset[k]; s < p->offset[k] + p->count[k]; s++)
        buf[s] = x[p->send_idx[s]];
}

/* xnew_i = (A x)_i + b_i for row i; returns |xnew_i - x_i|. */
static double sweep_row(const Part *p, const double *x, double *xnew, int i)
{
    double v = p->rhs[i];
    for (int e = p->row_start[i]; e < p->row_start[i + 1]; e++)
        v += p->val[e] * x[p->col[e]];
    xnew[i] = v;
    return fabs(v - x[i]);
}

/* sweep_row for rows [first, last); returns max |xnew - x|.  None in a
 * bound build (common/comm_only.h). */
static double sweep_rows(const Part *p, const double *x, double *xnew,
                         int first, int last)
{
    if (COMM_ONLY)
        return 0.0;
    double diff = 0.0;
    for (int i = first; i < last; i++) {
        double d = sweep_row(p, x, xnew, i);
        diff = d > diff ? d : diff;
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
 * Rank 0's reference: the whole problem as one rank, computed serially.
 * Returns the final x of all cells (part after part) and the residual.
 */
static double serial_reference(const Problem *pb, int iterations,
                               double **xout)
{
    Part whole = build_part(pb, 0, 1);
    double *x = initial_x(&whole), *xn = initial_x(&whole);
    double residual = 0.0;
    for (int it = 0; it < iterations; it++) {
        residual = sweep_rows(&whole, x, xn, 0, whole.ncell);
        double *t = x;
        x = xn;
        xn = t;
    }
    free(xn);
    free_part(&whole);
    *xout = x;
    return residual;
}

/*
 * Reads [CELLS [HALO [ITERATIONS [PARTS]]]] into *cells, *iterations and pb
 * (which hold the defaults) and sets pb->cells, the cells per part.  Returns
 * 1, or 0 after rank 0 printed the usage (the same on every rank: the caller
 * finalizes and exits 1).
 */
static int read_args(int argc, char **argv, int rank, int size,
                     long long *cells, int *iterations, Problem *pb)
{
    if (argc > 1)
        *cells = atoll(argv[1]);
    if (argc > 2)
        pb->halo = atoi(argv[2]);
    if (argc > 3)
        *iterations = atoi(argv[3]);
    if (argc > 4)
        pb->parts = atoi(argv[4]);
    if (pb->parts < 1 || pb->parts > MAX_PARTS || *cells < 2LL * pb->parts ||
        *cells > 400000000 || pb->halo < 1 || pb->halo > 50000000 ||
        *iterations < 1 || size > pb->parts) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [CELLS >= 2 PARTS [HALO >= 1 [ITERATIONS >= 1 "
                    "[PARTS in 1..%d]]]], at most PARTS ranks (%d here)\n",
                    argv[0], MAX_PARTS, size);
        return 0;
    }
    pb->cells = (int)(*cells / pb->parts);
    return 1;
}

/*
 * Everything after the timed loop, on every rank: the maximum of elapsed
 * (this rank's seconds in the loop) and of local_diff (its largest change in
 * the last iteration), the checksum and bounds of x (this rank's cells of
 * the final vector), the serial check at small sizes, and rank 0's report.
 * Returns 1 on every rank when the check passed, else 0.
 */
static int report_results(const Problem *pb_, const Part *part_,
                          const double *x, int iterations, double local_diff,
                          double elapsed, int rank, int size)
{
    const Problem pb = *pb_;
    const Part part = *part_;
    double time_max = 0.0;
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
    int ok = tot[2] == 0 || COMM_ONLY;

    int serial = !COMM_ONLY && tot[0] * iterations <= SERIAL_CHECK_LIMIT;
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
        const char *check = serial ? "serial computation, bit for bit"
                                   : "values within [0, 1]";
        if (COMM_ONLY) /* nothing was computed: no check, no verdict */
            printf("%s\n", COMM_ONLY_LINE);
        else if (ok)
            printf("check %s\nirregular: OK\n", check);
        else
            printf("check %s\nirregular: FAILED (%s)\n", check,
                   tot[2] ? "values outside [0, 1]"
                          : "x differs from the serial computation");
        fflush(stdout);
    }
    return ok;
}

#endif /* IRREGULAR_COMMON_H */
