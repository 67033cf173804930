/*
 * tpod_hybrid -- benchmark program: the TPOD experiment (Barrett et al.,
 * "Toward an evolutionary task parallel integrated MPI + X programming
 * model"), the *Hybrid* variant: each rank's subdomain is over-decomposed
 * into blocks of BX x BY x BZ points, and every time step spawns one task per
 * block (Tucana's task API, <tucana/task.h>) that exchanges the block's own
 * faces with the neighbouring ranks and then computes the block; a taskwait
 * ends the step.  Same problem, decomposition, output and checksum as tpod.c
 * (the Original: one block per rank, exchange then compute).
 *
 * Usage: tpod_hybrid [NX NY NZ [ITERATIONS [BX BY BZ [SEED]]]]
 *        (defaults: 48 48 48, 20 iterations, blocks 0 0 0, seed 1)
 *   BX BY BZ  block size along x, y, z; 0 (or more than the subdomain) is
 *             the whole subdomain along that axis.  The last block along an
 *             axis takes what is left (it may be smaller).
 *   SEED      the blocks are spawned in an order shuffled once with this
 *             seed (and the rank), the same at every step, as in the paper;
 *             0 spawns them in their natural order (x fastest, then y, z).
 * Build: tucanacc --no-translate (no pragmas; it calls the task API).
 * Run:   tucana-run -np P [--workers W] ./tpod.hybrid ARGS
 *
 * The problem and the decomposition are tpod.c's: jacobi3d's 7-point
 * stencil on an NX x NY x NZ grid, the bottom face fixed at 1.0, the other
 * faces at 0.0; a 3D process grid with the smallest halo per rank.
 *
 * A block's task, at step t (u = u_t read, unew = u_{t+1} written):
 *   (a) for each face of the block that lies on the face of the rank's
 *       subdomain with a neighbour: MPI_Irecv of the neighbour's block face
 *       into the block's own receive buffer, pack of its own face (from u)
 *       and MPI_Isend of it; then MPI_Waitall (which suspends only the task)
 *       and the unpack into the ghost cells next to the block (no other task
 *       reads or writes those: the stencil reaches no edge or corner);
 *   (b) the sweep of the block from u into unew.
 * Messages are per block face: the blocks on the two sides of a rank face
 * match one to one (the ranks across an x face own the same y and z ranges,
 * hence the same block partition along y and z), and the tag is
 * fb * 6 + d, fb being the block's number in the face's grid of blocks and
 * d the direction of travel (so that tags stay within the 32767 that MPI
 * guarantees, the faces may hold 5461 blocks at most).  Within a step each
 * (peer, tag) carries one message, so steps cannot mix (MPI keeps the order).
 * Tasks use only non-blocking sends: a task waits for its neighbour's task
 * of the same block, which may start later in the step.
 * The task attributes are the defaults but the name: the runtime learns
 * that the tasks of the blocks on a rank face talk to other processes
 * (attr.boundary = 0), as the paper's scheduler had no such hint either.
 *
 * Output (rank 0), as tpod.c, with
 *   blocks <BX>x<BY>x<BZ>: <NBX>x<NBY>x<NBZ> = <N> per rank (rank 0), <M> with messages, order <shuffled (seed S)|natural>
 *   grind <ns> ns per point per step   (time / (NX * NY * NZ * ITERATIONS))
 * The residual and the checksum are bitwise those of tpod.c for every block
 * size, order and rank count (every point is computed by the same
 * expression from the same values).
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
#include <tucana/task.h>

#include "tpod_common.h"

/* Directions: axis = d / 2, side = d % 2 (0 low, 1 high); opposite = d ^ 1.
 * A message's tag is the direction it travels in (tpod_hybrid.c: plus the
 * block's number). */
enum { WEST, EAST, SOUTH, NORTH, DOWN, UP, NDIR };
#define TAG_GATHER 10
#define TAG_LIMIT 32767 /* the MPI_TAG_UB that every MPI guarantees */

/* ----------------------------------------------------------- the blocks */

/* A block's task: its box, its remote faces, its buffers. */
typedef struct {
    double *u;          /* u_t: read; the block's ghost faces are written */
    double *unew;       /* u_{t+1}: the block's points are written */
    const Domain *dom;
    int lo[3], hi[3];   /* the block: local indices [lo, hi) */
    int peer[NDIR];     /* the rank across face d of the block, or
                           MPI_PROC_NULL (inside the subdomain, or no rank) */
    int tag[NDIR];      /* fb * NDIR for a remote face d */
    double *buf;        /* send and receive buffers of the remote faces */
    double *diff;       /* where the task stores its largest change */
} BlockTask;

/* The box of the block's layer next to face d: owned (ghost = 0) or the
 * ghost layer beyond it (ghost = 1). */
static void block_face_box(const int lo[3], const int hi[3], int d, int ghost,
                           int flo[3], int fhi[3])
{
    int a = d / 2;
    for (int k = 0; k < 3; k++) {
        flo[k] = lo[k];
        fhi[k] = hi[k];
    }
    if (d % 2 == 0)
        flo[a] = ghost ? lo[a] - HALO : lo[a];
    else
        flo[a] = ghost ? hi[a] : hi[a] - HALO;
    fhi[a] = flo[a] + HALO;
}

static int box_count(const int lo[3], const int hi[3])
{
    return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

static void pack_box(const double *u, const Domain *b, const int lo[3],
                     const int hi[3], double *buf)
{
    size_t k = 0;
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                buf[k++] = u[idx(b, x, y, z)];
}

static void unpack_box(double *u, const Domain *b, const int lo[3],
                       const int hi[3], const double *buf)
{
    size_t k = 0;
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                u[idx(b, x, y, z)] = buf[k++];
}

/* Values the task's buffers hold: a send and a receive per remote face. */
static size_t block_buffer_count(const BlockTask *t)
{
    size_t total = 0;
    for (int d = 0; d < NDIR; d++)
        if (t->peer[d] != MPI_PROC_NULL) {
            int flo[3], fhi[3];
            block_face_box(t->lo, t->hi, d, 0, flo, fhi);
            total += 2 * (size_t)box_count(flo, fhi);
        }
    return total;
}

/* (a) exchange the block's remote faces, (b) sweep the block. */
static void block_task(void *arg)
{
    const BlockTask *t = arg;
    MPI_Request req[2 * NDIR];
    double *rbuf[NDIR];
    int nreq = 0;
    double *next = t->buf;
    for (int d = 0; d < NDIR; d++) {
        if (t->peer[d] == MPI_PROC_NULL)
            continue;
        int flo[3], fhi[3];
        block_face_box(t->lo, t->hi, d, 0, flo, fhi);
        int count = box_count(flo, fhi);
        double *sbuf = next;
        rbuf[d] = next + count;
        next += 2 * (size_t)count;
        /* The neighbour's face travels in the opposite direction. */
        MPI_Irecv(rbuf[d], count, MPI_DOUBLE, t->peer[d], t->tag[d] + (d ^ 1),
                  MPI_COMM_WORLD, &req[nreq++]);
        pack_box(t->u, t->dom, flo, fhi, sbuf);
        MPI_Isend(sbuf, count, MPI_DOUBLE, t->peer[d], t->tag[d] + d,
                  MPI_COMM_WORLD, &req[nreq++]);
    }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int d = 0; d < NDIR; d++) {
        if (t->peer[d] == MPI_PROC_NULL)
            continue;
        int glo[3], ghi[3];
        block_face_box(t->lo, t->hi, d, 1, glo, ghi);
        unpack_box(t->u, t->dom, glo, ghi, rbuf[d]);
    }
    *t->diff = sweep_box(t->u, t->unew, t->dom, t->lo, t->hi);
}

/* A deterministic pseudo-random sequence (splitmix64) for the shuffle. */
static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
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

    /* The blocks: nb[a] along axis a, bsz[a] points each (the last one the
     * rest). */
    int nb[3], bsz[3];
    for (int a = 0; a < 3; a++) {
        bsz[a] = bs[a] > 0 && bs[a] < dom.count[a] ? bs[a] : dom.count[a];
        nb[a] = (dom.count[a] + bsz[a] - 1) / bsz[a];
    }
    /* Tags: fb * NDIR + d must stay within TAG_LIMIT on every rank face. */
    int too_many = 0, any_too_many = 0;
    for (int a = 0; a < 3; a++)
        if (p[a] > 1 &&
            (long long)nb[(a + 1) % 3] * nb[(a + 2) % 3] * NDIR > TAG_LIMIT + 1)
            too_many = 1;
    MPI_Allreduce(&too_many, &any_too_many, 1, MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD);
    if (any_too_many) {
        if (rank == 0)
            fprintf(stderr,
                    "tpod: blocks %dx%dx%d too small: a rank face would hold "
                    "more than %d blocks (their messages' tags exceed %d)\n",
                    bs[0], bs[1], bs[2], (TAG_LIMIT + 1) / NDIR, TAG_LIMIT);
        MPI_Finalize();
        return 1;
    }
    int nblocks = nb[0] * nb[1] * nb[2], nremote = 0;
    BlockTask *tasks = xmalloc((size_t)nblocks * sizeof(BlockTask));
    double *diffs = xmalloc((size_t)nblocks * sizeof(double));
    size_t bufcount = 0;
    for (int i = 0; i < nblocks; i++) {
        BlockTask *t = &tasks[i];
        int ib[3] = {i % nb[0], (i / nb[0]) % nb[1], i / (nb[0] * nb[1])};
        int remote = 0;
        t->dom = &dom;
        t->diff = &diffs[i];
        for (int a = 0; a < 3; a++) {
            t->lo[a] = HALO + ib[a] * bsz[a];
            t->hi[a] = t->lo[a] + bsz[a] < HALO + dom.count[a]
                           ? t->lo[a] + bsz[a] : HALO + dom.count[a];
        }
        for (int d = 0; d < NDIR; d++) {
            int a = d / 2, b = (a + 1) % 3, c = (a + 2) % 3;
            int edge = d % 2 == 0 ? ib[a] == 0 : ib[a] == nb[a] - 1;
            t->peer[d] = edge ? nbr[d] : MPI_PROC_NULL;
            t->tag[d] = (ib[b] + nb[b] * ib[c]) * NDIR;
            remote |= t->peer[d] != MPI_PROC_NULL;
        }
        nremote += remote;
        bufcount += block_buffer_count(t);
    }
    double *bufs = xmalloc(bufcount * sizeof(double));
    bufcount = 0;
    for (int i = 0; i < nblocks; i++) {
        tasks[i].buf = bufs + bufcount;
        bufcount += block_buffer_count(&tasks[i]);
    }
    /* The spawn order: shuffled once (Fisher-Yates), or natural. */
    int *order = xmalloc((size_t)nblocks * sizeof(int));
    for (int i = 0; i < nblocks; i++)
        order[i] = i;
    if (seed > 0) {
        unsigned long long state =
            (unsigned long long)seed * 0x100000001B3ULL + (unsigned long long)rank;
        for (int i = nblocks - 1; i > 0; i--) {
            int j = (int)(splitmix64(&state) % (unsigned long long)(i + 1));
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
    }
    tucana_task_attr attr = TUCANA_TASK_ATTR_INIT;
    attr.name = "tpod block";
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < iterations; it++) {
        for (int i = 0; i < nblocks; i++) {
            BlockTask t = tasks[order[i]];
            t.u = u;
            t.unew = unew;
            tucana_task_spawn(block_task, &t, sizeof t, &attr);
        }
        tucana_taskwait(); /* the end of the step */
        local_diff = 0.0;
        for (int i = 0; i < nblocks; i++)
            local_diff = diffs[i] > local_diff ? diffs[i] : local_diff;
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
        printf("blocks %dx%dx%d: %dx%dx%d = %d per rank (rank 0), %d with "
               "messages, order ",
               bsz[0], bsz[1], bsz[2], nb[0], nb[1], nb[2], nblocks, nremote);
        if (seed > 0)
            printf("shuffled (seed %d)\n", seed);
        else
            printf("natural\n");
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

    free(order);
    free(bufs);
    free(diffs);
    free(tasks);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
