/*
 * jacobi3d_hybrid -- benchmark program: 3D 7-point Jacobi relaxation, the
 * *Hybrid* variant: MPI between ranks, tasks inside a rank (Tucana's task
 * API, <tucana/task.h>).  Same global problem, same arithmetic and same
 * output as jacobi3d.c; the decomposition is the Original's with DIMS = 1
 * (slabs along z).
 *
 * Usage: jacobi3d_hybrid [NX NY NZ [ITERATIONS [DIMS]]]
 *        (defaults: 64 64 64, 50 iterations, DIMS = 1; DIMS must be 1)
 * Build: tucanacc --no-translate (the program has no pragmas; it calls the
 *        task API itself).  Run: tucana-run -np P --tasks V, V being the
 *        number of interior tasks per rank (tucana_num_tasks()).
 *
 * The global grid, its boundary and the iteration are jacobi3d.c's: NX x
 * NY x NZ points, x fastest in memory, the bottom face (z = 0) fixed at 1.0,
 * the other faces at 0.0, the interior starting at 0.0, and each iteration
 * replaces every interior point by the average of its six neighbours.  The
 * P ranks own slabs of z planes (block_range), one ghost plane on each side
 * that has a neighbour.
 *
 * One time step t (u = u_t is read, unew = u_{t+1} is written) is a set of
 * tasks of the rank and a taskwait:
 *   - a boundary task (attr.boundary = 1) per face with a neighbour: it
 *     waits (MPI_Wait, which suspends only the task) for the ghost plane of
 *     u_t, whose receive was posted during step t - 1, unpacks it, posts the
 *     receive of u_{t+1}'s ghost plane into the buffer just emptied, sweeps
 *     the owned plane next to the face, and sends it at once (MPI_Isend)
 *     for step t + 1.  The send's request is waited for by the same task in
 *     step t + 1, before the send buffer is packed again;
 *   - tucana_num_tasks() interior tasks sweep the other planes, split into
 *     contiguous chunks (fewer tasks when there are fewer planes);
 *   - a slab too thin to separate its two boundary planes (one plane
 *     between two neighbours) is swept by one boundary task for both faces.
 * The faces of u_0 are exchanged before the first step (inside the timed
 * loop, as the Original's first exchange is); the last step sends nothing.
 * Sends are non-blocking: a blocking send could wait for a receive that the
 * peer posts only in its next step.
 *
 * Output (rank 0), as jacobi3d.c:
 *   jacobi3d ranks <P> grid 1x1x<P> size <NX>x<NY>x<NZ> iterations <I>
 *   tasks <V interior tasks per rank>
 *   residual <max |u_new - u_old| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final grid, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   jacobi3d: OK               (or a FAILED line, and exit status 1)
 * The residual, the checksum and the check are bitwise those of the other
 * variants (every point is computed by the same expression).
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

#define HALO 1 /* ghost layers on each side: the stencil's reach */
#define SERIAL_CHECK_LIMIT (1LL << 26)

/* Directions: axis = d / 2, side = d % 2 (0 low, 1 high); opposite = d ^ 1.
 * A message's tag is the direction it travels in. */
enum { WEST, EAST, SOUTH, NORTH, DOWN, UP, NDIR };
#define TAG_GATHER 10

/* The part of the global grid that one rank holds. */
typedef struct {
    int n[3];     /* global grid size along x, y, z */
    int first[3]; /* first owned global index along x, y, z */
    int count[3]; /* owned points along x, y, z */
    size_t sy;    /* memory distance between neighbours in y */
    size_t sz;    /* ... and in z (x neighbours are adjacent) */
    size_t cells; /* points stored, ghosts included */
} Block;

/* Items [*first, *first + *count) of n split in p blocks belong to block k. */
static void block_range(int n, int p, int k, int *first, int *count)
{
    int base = n / p, extra = n % p;
    *count = base + (k < extra ? 1 : 0);
    *first = k * base + (k < extra ? k : extra);
}

/* Block of rank r in a p[0] x p[1] x p[2] process grid. */
static Block make_block(const int n[3], const int p[3], int r)
{
    Block b;
    int k[3] = {r % p[0], (r / p[0]) % p[1], r / (p[0] * p[1])};
    for (int a = 0; a < 3; a++) {
        b.n[a] = n[a];
        block_range(n[a], p[a], k[a], &b.first[a], &b.count[a]);
    }
    b.sy = (size_t)(b.count[0] + 2 * HALO);
    b.sz = b.sy * (size_t)(b.count[1] + 2 * HALO);
    b.cells = b.sz * (size_t)(b.count[2] + 2 * HALO);
    return b;
}

static size_t idx(const Block *b, int x, int y, int z)
{
    return (size_t)z * b->sz + (size_t)y * b->sy + (size_t)x;
}

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "jacobi3d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Values in the face of direction d: HALO layers of the two other axes. */
static int face_count(const Block *b, int d)
{
    int a = d / 2;
    return HALO * b->count[(a + 1) % 3] * b->count[(a + 2) % 3];
}

/*
 * The box [lo, hi) of local indices next to face d: the owned layers that
 * are sent (ghost = 0) or the ghost layers that are received (ghost = 1).
 */
static void face_box(const Block *b, int d, int ghost, int lo[3], int hi[3])
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

static void pack_face(const double *u, const Block *b, int d, double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    face_box(b, d, 0, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                buf[k++] = u[idx(b, x, y, z)];
}

static void unpack_face(double *u, const Block *b, int d, const double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    face_box(b, d, 1, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                u[idx(b, x, y, z)] = buf[k++];
}

/* Is local index i along axis a on the fixed boundary of the global grid? */
static int on_boundary(const Block *b, int a, int i)
{
    int g = b->first[a] + i - HALO;
    return g < HALO || g >= b->n[a] - HALO;
}

/*
 * One Jacobi sweep over the local box [lo, hi) of owned points of u into
 * unew (the ghosts that the box reaches must be current); returns the
 * largest change.
 */
static double sweep_box(const double *u, double *unew, const Block *b,
                        const int lo[3], const int hi[3])
{
    double diff = 0.0;
    const size_t sy = b->sy, sz = b->sz;
    /* [xs, xe): the part of a row off the fixed boundary along x */
    int xs = HALO - b->first[0] + HALO;
    int xe = b->n[0] - HALO - b->first[0] + HALO;
    xs = xs < lo[0] ? lo[0] : xs > hi[0] ? hi[0] : xs;
    xe = xe > hi[0] ? hi[0] : xe < xs ? xs : xe;
    for (int z = lo[2]; z < hi[2]; z++) {
        int bz = on_boundary(b, 2, z);
        for (int y = lo[1]; y < hi[1]; y++) {
            size_t row = idx(b, 0, y, z);
            if (bz || on_boundary(b, 1, y)) {
                for (int x = lo[0]; x < hi[0]; x++)
                    unew[row + x] = u[row + x];
                continue;
            }
            for (int x = lo[0]; x < xs; x++)
                unew[row + x] = u[row + x];
            for (int x = xe; x < hi[0]; x++)
                unew[row + x] = u[row + x];
            for (int x = xs; x < xe; x++) {
                size_t c = row + (size_t)x;
                double v = (u[c - 1] + u[c + 1] + u[c - sy] + u[c + sy] +
                            u[c - sz] + u[c + sz]) / 6.0;
                double d = fabs(v - u[c]);
                unew[c] = v;
                diff = d > diff ? d : diff;
            }
        }
    }
    return diff;
}

/* The sweep over all owned points. */
static double sweep(const double *u, double *unew, const Block *b)
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = HALO;
        hi[a] = HALO + b->count[a];
    }
    return sweep_box(u, unew, b, lo, hi);
}

/* A block with ghosts: 1.0 on the bottom face (global z = 0), else 0.0. */
static double *new_grid(const Block *b)
{
    double *u = xmalloc(b->cells * sizeof(double));
    for (int z = HALO; z < HALO + b->count[2]; z++)
        if (b->first[2] + z - HALO < HALO)
            for (int y = HALO; y < HALO + b->count[1]; y++)
                for (int x = HALO; x < HALO + b->count[0]; x++)
                    u[idx(b, x, y, z)] = 1.0;
    return u;
}

/*
 * Split size ranks into p[0] x p[1] x p[2] (see the header comment);
 * returns 0 when no allowed factorization gives every rank a point.
 */
static int process_grid(int size, const int n[3], int dims, int p[3])
{
    double best = -1.0;
    int best_sum = 0;
    for (int pz = size; pz >= 1; pz--) {
        if (size % pz)
            continue;
        for (int py = size / pz; py >= 1; py--) {
            if ((size / pz) % py)
                continue;
            int q[3] = {size / pz / py, py, pz};
            int split = 0, fits = 1;
            for (int a = 0; a < 3; a++) {
                split += q[a] > 1;
                fits = fits && n[a] / q[a] >= HALO;
            }
            if (!fits || split > dims || (dims == 1 && q[2] != size) ||
                (dims == 2 && q[0] != 1))
                continue;
            double halo = 0.0; /* halo values per rank */
            for (int a = 0; a < 3; a++)
                if (q[a] > 1)
                    halo += 2.0 * ((double)n[(a + 1) % 3] / q[(a + 1) % 3]) *
                            ((double)n[(a + 2) % 3] / q[(a + 2) % 3]);
            int sum = q[0] + q[1] + q[2];
            if (best < 0.0 || halo < best ||
                (halo == best && sum < best_sum)) {
                best = halo;
                best_sum = sum;
                for (int a = 0; a < 3; a++)
                    p[a] = q[a];
            }
        }
    }
    return best >= 0.0;
}

/* v in units of 2^-32, truncated toward zero (clamped far outside [0, 1]):
 * integer sums of these are exact, hence the same in any order. */
static unsigned long long fixed_point(double v)
{
    if (!(v < 0x1p30))
        v = 0x1p30;
    if (v < -0x1p30)
        v = -0x1p30;
    return (unsigned long long)(long long)(v * 0x1p32);
}

/* ----------------------------------------------------------------- tasks */

/* A sweep of the owned planes [z0, z1) (local z indices) of u into unew. */
typedef struct {
    const double *u;
    double *unew;
    const Block *b;
    int z0, z1;
    double *diff; /* where the task stores its largest change */
} Sweep;

/* The exchange with the neighbour across one z face, kept by the rank from
 * step to step; one task per step uses it (the taskwait orders them). */
typedef struct {
    int d;            /* DOWN or UP: the direction of the face */
    int peer;         /* the neighbour's rank */
    int count;        /* values in the face */
    double *sendbuf;  /* the owned plane next to the face, packed */
    double *recvbuf;  /* the neighbour's plane, before it is unpacked */
    MPI_Request rreq; /* the receive of the current step's ghost plane */
    MPI_Request sreq; /* the last send (MPI_REQUEST_NULL when none) */
} Face;

/* A boundary task: its faces (one; both for a slab too thin to separate
 * them) and the sweep of the planes next to them. */
typedef struct {
    Sweep s;
    Face *face[2];
    int nface;
    double *ucur; /* s.u, writable: the ghost planes are unpacked into it */
    int more;     /* 1: a step follows (post its receives, send the faces) */
} Boundary;

static double sweep_planes(const Sweep *s)
{
    int lo[3] = {HALO, HALO, s->z0};
    int hi[3] = {HALO + s->b->count[0], HALO + s->b->count[1], s->z1};
    return sweep_box(s->u, s->unew, s->b, lo, hi);
}

static void interior_task(void *arg)
{
    const Sweep *s = arg;
    *s->diff = sweep_planes(s);
}

/* Waits for the ghost planes of u_t, posts the receives of u_{t+1}'s (into
 * the buffers just emptied), sweeps, and sends the new boundary planes at
 * once; the previous send from a buffer is complete before it is packed. */
static void boundary_task(void *arg)
{
    const Boundary *t = arg;
    for (int i = 0; i < t->nface; i++) {
        Face *f = t->face[i];
        MPI_Wait(&f->rreq, MPI_STATUS_IGNORE);
        unpack_face(t->ucur, t->s.b, f->d, f->recvbuf);
        /* The face from the peer travels in the opposite direction. */
        if (t->more)
            MPI_Irecv(f->recvbuf, f->count, MPI_DOUBLE, f->peer, f->d ^ 1,
                      MPI_COMM_WORLD, &f->rreq);
    }
    *t->s.diff = sweep_planes(&t->s);
    if (!t->more)
        return;
    for (int i = 0; i < t->nface; i++) {
        Face *f = t->face[i];
        MPI_Wait(&f->sreq, MPI_STATUS_IGNORE);
        pack_face(t->s.unew, t->s.b, f->d, f->sendbuf);
        MPI_Isend(f->sendbuf, f->count, MPI_DOUBLE, f->peer, f->d,
                  MPI_COMM_WORLD, &f->sreq);
    }
}

int main(int argc, char **argv)
{
    int rank, size, iterations = 50, dims = 1;
    int n[3] = {64, 64, 64}, p[3] = {1, 1, 1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 3)
        for (int a = 0; a < 3; a++)
            n[a] = atoi(argv[1 + a]);
    if (argc > 4)
        iterations = atoi(argv[4]);
    if (argc > 5)
        dims = atoi(argv[5]);
    int valid = (argc == 1 || argc >= 4) && iterations >= 1 && dims == 1 &&
                n[0] >= 1 && n[1] >= 1 && n[2] >= 1;
    if (!valid || !process_grid(size, n, dims, p)) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1 [DIMS 1]]]: "
                    "the hybrid variant splits z only (DIMS 1), and every "
                    "one of the %d ranks must own %d point(s) along each "
                    "axis\n",
                    argv[0], size, HALO);
        MPI_Finalize();
        return 1;
    }

    Block blk = make_block(n, p, rank);
    int k[3] = {rank % p[0], (rank / p[0]) % p[1], rank / (p[0] * p[1])};
    int stride[3] = {1, p[0], p[0] * p[1]};
    int nbr[NDIR];
    for (int a = 0; a < 3; a++) {
        nbr[2 * a] = k[a] > 0 ? rank - stride[a] : MPI_PROC_NULL;
        nbr[2 * a + 1] = k[a] + 1 < p[a] ? rank + stride[a] : MPI_PROC_NULL;
    }

    double *u = new_grid(&blk);
    double *unew = new_grid(&blk);

    /* The remote faces; the planes of the boundary tasks and the interior. */
    int ntasks = tucana_num_tasks() > 0 ? tucana_num_tasks() : 1;
    Face face[2];
    int nface = 0;
    for (int d = DOWN; d <= UP; d++) {
        if (nbr[d] == MPI_PROC_NULL)
            continue;
        Face *f = &face[nface++];
        f->d = d;
        f->peer = nbr[d];
        f->count = face_count(&blk, d);
        f->sendbuf = xmalloc((size_t)f->count * sizeof(double));
        f->recvbuf = xmalloc((size_t)f->count * sizeof(double));
        f->rreq = MPI_REQUEST_NULL;
        f->sreq = MPI_REQUEST_NULL;
    }
    const int cz = blk.count[2];
    const int low = nbr[DOWN] != MPI_PROC_NULL, high = nbr[UP] != MPI_PROC_NULL;
    const int thin = low && high && cz < 2 * HALO; /* one boundary task */
    const int zlo = thin ? HALO : HALO + (low ? HALO : 0);
    const int zhi = thin ? HALO : HALO + cz - (high ? HALO : 0);
    double *diffs = xmalloc((size_t)(ntasks + 2) * sizeof(double));
    double local_diff = 0.0;

    tucana_task_attr battr = TUCANA_TASK_ATTR_INIT;
    battr.boundary = 1;
    battr.name = "jacobi3d boundary";
    tucana_task_attr iattr = TUCANA_TASK_ATTR_INIT;
    iattr.boundary = -1;
    iattr.name = "jacobi3d interior";

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    /* The faces of u_0; step t's boundary tasks exchange those of u_t+1. */
    for (int i = 0; i < nface; i++) {
        Face *f = &face[i];
        MPI_Irecv(f->recvbuf, f->count, MPI_DOUBLE, f->peer, f->d ^ 1,
                  MPI_COMM_WORLD, &f->rreq);
        pack_face(u, &blk, f->d, f->sendbuf);
        MPI_Isend(f->sendbuf, f->count, MPI_DOUBLE, f->peer, f->d,
                  MPI_COMM_WORLD, &f->sreq);
    }

    for (int it = 0; it < iterations; it++) {
        int ndiff = 0, more = it + 1 < iterations;
        if (thin) {
            Boundary t = {{u, unew, &blk, HALO, HALO + cz, &diffs[ndiff++]},
                          {&face[0], &face[1]}, 2, u, more};
            tucana_task_spawn(boundary_task, &t, sizeof t, &battr);
        } else {
            int k = 0;
            if (low) {
                Boundary t = {{u, unew, &blk, HALO, 2 * HALO, &diffs[ndiff++]},
                              {&face[k++], NULL}, 1, u, more};
                tucana_task_spawn(boundary_task, &t, sizeof t, &battr);
            }
            if (high) {
                Boundary t = {{u, unew, &blk, cz, HALO + cz, &diffs[ndiff++]},
                              {&face[k++], NULL}, 1, u, more};
                tucana_task_spawn(boundary_task, &t, sizeof t, &battr);
            }
            for (int i = 0; i < ntasks; i++) {
                int first, count;
                block_range(zhi - zlo, ntasks, i, &first, &count);
                if (count == 0)
                    continue;
                Sweep s = {u, unew, &blk, zlo + first, zlo + first + count,
                           &diffs[ndiff++]};
                tucana_task_spawn(interior_task, &s, sizeof s, &iattr);
            }
        }
        tucana_taskwait();
        local_diff = 0.0;
        for (int i = 0; i < ndiff; i++)
            local_diff = diffs[i] > local_diff ? diffs[i] : local_diff;
        double *tmp = u;
        u = unew;
        unew = tmp;
    }
    for (int i = 0; i < nface; i++)
        MPI_Wait(&face[i].sreq, MPI_STATUS_IGNORE);

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    double residual = 0.0;
    MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Checksum of the owned points; the maximum principle. */
    unsigned long long local_sum = 0, checksum = 0;
    int bad = 0, any_bad = 0;
    for (int z = HALO; z < HALO + blk.count[2]; z++)
        for (int y = HALO; y < HALO + blk.count[1]; y++)
            for (int x = HALO; x < HALO + blk.count[0]; x++) {
                double v = u[idx(&blk, x, y, z)];
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
        size_t owned = (size_t)blk.count[0] * blk.count[1] * blk.count[2];
        double *mine = xmalloc(owned * sizeof(double));
        size_t m = 0;
        for (int z = HALO; z < HALO + blk.count[2]; z++)
            for (int y = HALO; y < HALO + blk.count[1]; y++)
                for (int x = HALO; x < HALO + blk.count[0]; x++)
                    mine[m++] = u[idx(&blk, x, y, z)];
        if (rank == 0) {
            /* Collect the grid, redo the sweeps serially, compare. */
            const int one[3] = {1, 1, 1};
            Block whole = make_block(n, one, 0);
            double *all = xmalloc(whole.cells * sizeof(double));
            double *part = xmalloc((size_t)total * sizeof(double));
            for (int r = 0; r < size; r++) {
                Block o = make_block(n, p, r);
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
        printf("jacobi3d ranks %d grid %dx%dx%d size %dx%dx%d iterations %d\n",
               size, p[0], p[1], p[2], n[0], n[1], n[2], iterations);
        printf("tasks %d\n", ntasks);
        printf("residual %.17g\n", residual);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-32);
        printf("check %s\n", serial ? "serial computation, bit for bit"
                                     : "values within [0, 1]");
        if (ok)
            printf("jacobi3d: OK\n");
        else
            printf("jacobi3d: FAILED (%s)\n",
                   any_bad ? "values outside [0, 1]"
                           : "the grid differs from the serial computation");
        fflush(stdout);
    }

    for (int i = 0; i < nface; i++) {
        free(face[i].sendbuf);
        free(face[i].recvbuf);
    }
    free(diffs);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
