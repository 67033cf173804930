/*
 * tpod -- benchmark program: the TPOD experiment (Barrett et al., "Toward an
 * evolutionary task parallel integrated MPI + X programming model": miniGhost
 * over-decomposed into blocks, each block a task that exchanges its own
 * faces and computes).  This file is the *Original* variant: plain MPI, the
 * whole subdomain of a rank is one block, the halo exchange completes before
 * the sweep (bulk synchronous).  tpod_hybrid.c is the task version.
 *
 * Usage: tpod [NX NY NZ [ITERATIONS [BX BY BZ [SEED]]]]
 *        (defaults: 48 48 48, 20 iterations, blocks 0 0 0, seed 1)
 * BX BY BZ and SEED are the hybrid variant's block size and shuffle seed;
 * this variant accepts and ignores them, so that both take the same
 * arguments.
 *
 * The problem is jacobi3d's (a 3D 7-point stencil, miniGhost's 7-point
 * difference stencil with Dirichlet boundaries): an NX x NY x NZ grid, x
 * fastest in memory, the bottom face (z = 0) fixed at 1.0, the other faces
 * at 0.0, the interior starting at 0.0; each step replaces every interior
 * point by the average of its six neighbours.
 *
 * Decomposition: 3D, PX x PY x PZ ranks, rank = (kz * PY + ky) * PX + kx,
 * each axis split in blocks (leftovers to the lowest); among the
 * factorizations of the rank count the one with the smallest halo per rank
 * (jacobi3d's DIMS = 3).  The six faces are packed into contiguous buffers,
 * exchanged with MPI_Irecv / MPI_Isend and unpacked into one ghost layer.
 *
 * Output (rank 0):
 *   tpod ranks <P> grid <PX>x<PY>x<PZ> size <NX>x<NY>x<NZ> iterations <I>
 *   blocks <the over-decomposition>
 *   residual <max |u_new - u_old| in the last step>
 *   time <seconds of the time-step loop, the maximum over the ranks>
 *   grind <ns> ns per point per step   (time / (NX * NY * NZ * ITERATIONS))
 *   checksum <sum of the final grid, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   tpod: OK                   (or a FAILED line, and exit status 1)
 * The residual and the checksum do not depend on the decomposition, the
 * block size or the order of the blocks: they are bitwise the same for any
 * rank count and for both variants.
 *
 * Self-check: when NX * NY * NZ * ITERATIONS <= 2^26, rank 0 collects the grid
 * and compares it bit for bit with a serial computation; above that, every
 * value must lie in [0, 1] (the maximum principle).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpod_common.h"

/* Directions: axis = d / 2, side = d % 2 (0 low, 1 high); opposite = d ^ 1.
 * A message's tag is the direction it travels in (tpod_hybrid.c: plus the
 * block). */
enum { WEST, EAST, SOUTH, NORTH, DOWN, UP, NDIR };
#define TAG_GATHER 10

/* Values in the face of direction d: HALO layers of the two other axes. */
static int face_count(const Domain *b, int d)
{
    int a = d / 2;
    return HALO * b->count[(a + 1) % 3] * b->count[(a + 2) % 3];
}

/*
 * The box [lo, hi) of local indices next to face d: the owned layers that
 * are sent (ghost = 0) or the ghost layers that are received (ghost = 1).
 */
static void face_box(const Domain *b, int d, int ghost, int lo[3], int hi[3])
{
    int a = d / 2, high = d % 2;
    for (int k = 0; k < 3; k++) {
        lo[k] = HALO;
        hi[k] = HALO + b->count[k];
    }
    if (!high)
        lo[a] = ghost ? 0 : HALO;
    else
        lo[a] = ghost ? HALO + b->count[a] : b->count[a];
    hi[a] = lo[a] + HALO;
}

static void pack_face(const double *u, const Domain *b, int d, double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    face_box(b, d, 0, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                buf[k++] = u[idx(b, x, y, z)];
}

static void unpack_face(double *u, const Domain *b, int d, const double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    face_box(b, d, 1, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                u[idx(b, x, y, z)] = buf[k++];
}

int main(int argc, char **argv)
{
    int rank, size, iterations = 20, seed = 1;
    int n[3] = {48, 48, 48}, p[3] = {1, 1, 1}, bs[3] = {0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 3)
        for (int a = 0; a < 3; a++)
            n[a] = atoi(argv[1 + a]);
    if (argc > 4)
        iterations = atoi(argv[4]);
    if (argc > 7)
        for (int a = 0; a < 3; a++)
            bs[a] = atoi(argv[5 + a]);
    if (argc > 8)
        seed = atoi(argv[8]);
    int valid = (argc <= 5 || argc >= 8) && argc != 2 && argc != 3 &&
                argc <= 9 && iterations >= 1 && n[0] >= 1 && n[1] >= 1 &&
                n[2] >= 1 && bs[0] >= 0 && bs[1] >= 0 && bs[2] >= 0 &&
                seed >= 0;
    if (!valid || !process_grid(size, n, 3, p)) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1 [BX BY BZ [SEED]]]]: "
                    "every one of the %d ranks must own %d point(s) along "
                    "each axis\n",
                    argv[0], size, HALO);
        MPI_Finalize();
        return 1;
    }

    Domain dom = make_domain(n, p, rank);
    int k[3] = {rank % p[0], (rank / p[0]) % p[1], rank / (p[0] * p[1])};
    int stride[3] = {1, p[0], p[0] * p[1]};
    int nbr[NDIR];
    for (int a = 0; a < 3; a++) {
        nbr[2 * a] = k[a] > 0 ? rank - stride[a] : MPI_PROC_NULL;
        nbr[2 * a + 1] = k[a] + 1 < p[a] ? rank + stride[a] : MPI_PROC_NULL;
    }

    double *u = new_grid(&dom);
    double *unew = new_grid(&dom);

    MPI_Request req[2 * NDIR]; /* [d] receive on face d, [NDIR + d] send */
    double *sendbuf[NDIR], *recvbuf[NDIR];
    for (int d = 0; d < NDIR; d++) {
        sendbuf[d] = xmalloc((size_t)face_count(&dom, d) * sizeof(double));
        recvbuf[d] = xmalloc((size_t)face_count(&dom, d) * sizeof(double));
    }
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < iterations; it++) {
        /* The face from nbr[d] travels in the opposite direction. */
        for (int d = 0; d < NDIR; d++)
            MPI_Irecv(recvbuf[d], face_count(&dom, d), MPI_DOUBLE, nbr[d],
                      d ^ 1, MPI_COMM_WORLD, &req[d]);
        for (int d = 0; d < NDIR; d++) {
            pack_face(u, &dom, d, sendbuf[d]);
            MPI_Isend(sendbuf[d], face_count(&dom, d), MPI_DOUBLE, nbr[d], d,
                      MPI_COMM_WORLD, &req[NDIR + d]);
        }
        MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
        for (int d = 0; d < NDIR; d++)
            if (nbr[d] != MPI_PROC_NULL)
                unpack_face(u, &dom, d, recvbuf[d]);
        local_diff = sweep(u, unew, &dom);
        double *tmp = u;
        u = unew;
        unew = tmp;
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    double residual = 0.0;
    MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Checksum of the owned points; the maximum principle. */
    unsigned long long local_sum = 0, checksum = 0;
    int bad = 0, any_bad = 0;
    for (int z = HALO; z < HALO + dom.count[2]; z++)
        for (int y = HALO; y < HALO + dom.count[1]; y++)
            for (int x = HALO; x < HALO + dom.count[0]; x++) {
                double v = u[idx(&dom, x, y, z)];
                local_sum += fixed_point(v);
                if (!(v >= 0.0 && v <= 1.0))
                    bad = 1;
            }
    MPI_Allreduce(&local_sum, &checksum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = !any_bad;

    long long total = (long long)n[0] * n[1] * n[2];
    int serial = total * iterations <= SERIAL_CHECK_LIMIT;
    if (serial) {
        /* Each rank's owned block, packed contiguously in (z, y, x) order. */
        size_t owned = (size_t)dom.count[0] * dom.count[1] * dom.count[2];
        double *mine = xmalloc(owned * sizeof(double));
        size_t m = 0;
        for (int z = HALO; z < HALO + dom.count[2]; z++)
            for (int y = HALO; y < HALO + dom.count[1]; y++)
                for (int x = HALO; x < HALO + dom.count[0]; x++)
                    mine[m++] = u[idx(&dom, x, y, z)];
        if (rank == 0) {
            /* Collect the grid, redo the sweeps serially, compare. */
            const int one[3] = {1, 1, 1};
            Domain whole = make_domain(n, one, 0);
            double *all = xmalloc(whole.cells * sizeof(double));
            double *part = xmalloc((size_t)total * sizeof(double));
            for (int r = 0; r < size; r++) {
                Domain o = make_domain(n, p, r);
                int cnt = o.count[0] * o.count[1] * o.count[2];
                if (r == 0)
                    memcpy(part, mine, (size_t)cnt * sizeof(double));
                else
                    MPI_Recv(part, cnt, MPI_DOUBLE, r, TAG_GATHER,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                size_t q = 0;
                for (int z = 0; z < o.count[2]; z++)
                    for (int y = 0; y < o.count[1]; y++)
                        for (int x = 0; x < o.count[0]; x++)
                            all[idx(&whole, o.first[0] + x + HALO,
                                    o.first[1] + y + HALO,
                                    o.first[2] + z + HALO)] = part[q++];
            }
            double *s = new_grid(&whole), *snew = new_grid(&whole);
            double sdiff = 0.0;
            for (int it = 0; it < iterations; it++) {
                sdiff = sweep(s, snew, &whole);
                double *tmp = s;
                s = snew;
                snew = tmp;
            }
            for (int z = HALO; z < HALO + n[2]; z++)
                for (int y = HALO; y < HALO + n[1]; y++)
                    if (memcmp(&all[idx(&whole, HALO, y, z)],
                               &s[idx(&whole, HALO, y, z)],
                               (size_t)n[0] * sizeof(double)) != 0)
                        ok = 0;
            if (sdiff != residual)
                ok = 0;
            free(s);
            free(snew);
            free(part);
            free(all);
        } else {
            MPI_Send(mine, (int)owned, MPI_DOUBLE, 0, TAG_GATHER,
                     MPI_COMM_WORLD);
        }
        free(mine);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("tpod ranks %d grid %dx%dx%d size %dx%dx%d iterations %d\n",
               size, p[0], p[1], p[2], n[0], n[1], n[2], iterations);
        printf("blocks 1 per rank (the whole subdomain; BX BY BZ SEED "
               "ignored)\n");
        printf("residual %.17g\n", residual);
        printf("time %.6f\n", time_max);
        printf("grind %.4f ns per point per step\n",
               time_max * 1e9 / ((double)total * iterations));
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-32);
        printf("check %s\n", serial ? "serial computation, bit for bit"
                                     : "values within [0, 1]");
        if (ok)
            printf("tpod: OK\n");
        else
            printf("tpod: FAILED (%s)\n",
                   any_bad ? "values outside [0, 1]"
                           : "the grid differs from the serial computation");
        fflush(stdout);
    }

    for (int d = 0; d < NDIR; d++) {
        free(sendbuf[d]);
        free(recvbuf[d]);
    }
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
