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
#include <tucana/task.h>

#include "tpod_common.h"

#define TAG_LIMIT 32767 /* the MPI_TAG_UB that every MPI guarantees */

/* ----------------------------------------------------------- the blocks */

/* A block's task: its box, its remote faces, its buffers. */
typedef struct {
    double *u;          /* u_t: read; the block's ghost faces are written */
    double *unew;       /* u_{t+1}: the block's points are written */
    const Block *sub;   /* the rank's subdomain */
    int lo[3], hi[3];   /* the block: local indices [lo, hi) */
    int peer[NDIR];     /* the rank across face d of the block, or
                           MPI_PROC_NULL (inside the subdomain, or no rank) */
    int tag[NDIR];      /* fb * NDIR for a remote face d */
    double *buf;        /* send and receive buffers of the remote faces */
    double *diff;       /* where the task stores its largest change */
} BlockTask;

/* Values the task's buffers hold: a send and a receive per remote face. */
static size_t block_buffer_count(const BlockTask *t)
{
    size_t total = 0;
    for (int d = 0; d < NDIR; d++)
        if (t->peer[d] != MPI_PROC_NULL) {
            int flo[3], fhi[3];
            box_face(t->lo, t->hi, d, 0, flo, fhi);
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
        box_face(t->lo, t->hi, d, 0, flo, fhi);
        int count = box_count(flo, fhi);
        double *sbuf = next;
        rbuf[d] = next + count;
        next += 2 * (size_t)count;
        /* The neighbour's face travels in the opposite direction. */
        MPI_Irecv(rbuf[d], count, MPI_DOUBLE, t->peer[d], t->tag[d] + (d ^ 1),
                  MPI_COMM_WORLD, &req[nreq++]);
        pack_box(t->u, t->sub, flo, fhi, sbuf);
        MPI_Isend(sbuf, count, MPI_DOUBLE, t->peer[d], t->tag[d] + d,
                  MPI_COMM_WORLD, &req[nreq++]);
    }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int d = 0; d < NDIR; d++) {
        if (t->peer[d] == MPI_PROC_NULL)
            continue;
        int glo[3], ghi[3];
        box_face(t->lo, t->hi, d, 1, glo, ghi);
        unpack_box(t->u, t->sub, glo, ghi, rbuf[d]);
    }
    *t->diff = sweep_box(t->u, t->unew, t->sub, t->lo, t->hi);
}

/* A deterministic pseudo-random sequence (splitmix64) for the shuffle. */
static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------ the variant */

/* The rank's blocks, their tasks and the order they are spawned in. */
struct Variant {
    int bsz[3], nb[3];  /* block size along each axis (the last one the
                           rest), blocks along each axis */
    int nblocks, nremote; /* blocks, of which with messages */
    int seed;
    BlockTask *tasks;   /* [nblocks], in the natural order */
    double *diffs;      /* [nblocks]: each task's largest change */
    double *bufs;       /* all the tasks' buffers */
    int *order;         /* the spawn order: indices into tasks */
    tucana_task_attr attr;
};

static Variant *variant_new(const TpodProblem *tp)
{
    const Block *sub = &tp->pb.blk;
    const int *bs = tp->bs, *p = tp->pb.p, *nbr = tp->pb.nbr;
    const int rank = tp->pb.rank;

    /* The blocks: nb[a] along axis a, bsz[a] points each (the last one the
     * rest). */
    int nb[3], bsz[3];
    for (int a = 0; a < 3; a++) {
        bsz[a] = bs[a] > 0 && bs[a] < sub->count[a] ? bs[a] : sub->count[a];
        nb[a] = (sub->count[a] + bsz[a] - 1) / bsz[a];
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
        return NULL;
    }

    Variant *v = xmalloc(sizeof *v);
    for (int a = 0; a < 3; a++) {
        v->bsz[a] = bsz[a];
        v->nb[a] = nb[a];
    }
    v->seed = tp->seed;
    int nblocks = nb[0] * nb[1] * nb[2], nremote = 0;
    BlockTask *tasks = xmalloc((size_t)nblocks * sizeof(BlockTask));
    double *diffs = xmalloc((size_t)nblocks * sizeof(double));
    size_t bufcount = 0;
    for (int i = 0; i < nblocks; i++) {
        BlockTask *t = &tasks[i];
        int ib[3] = {i % nb[0], (i / nb[0]) % nb[1], i / (nb[0] * nb[1])};
        int remote = 0;
        t->sub = sub;
        t->diff = &diffs[i];
        for (int a = 0; a < 3; a++) {
            t->lo[a] = HALO + ib[a] * bsz[a];
            t->hi[a] = t->lo[a] + bsz[a] < HALO + sub->count[a]
                           ? t->lo[a] + bsz[a] : HALO + sub->count[a];
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
    if (tp->seed > 0) {
        unsigned long long state =
            (unsigned long long)tp->seed * 0x100000001B3ULL + (unsigned long long)rank;
        for (int i = nblocks - 1; i > 0; i--) {
            int j = (int)(splitmix64(&state) % (unsigned long long)(i + 1));
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
    }
    v->nblocks = nblocks;
    v->nremote = nremote;
    v->tasks = tasks;
    v->diffs = diffs;
    v->bufs = bufs;
    v->order = order;
    v->attr = (tucana_task_attr)TUCANA_TASK_ATTR_INIT;
    v->attr.name = "tpod block";
    return v;
}

/* A task per block, in the spawn order; the taskwait ends the step. */
static double variant_step(Variant *v, double *u, double *unew)
{
    for (int i = 0; i < v->nblocks; i++) {
        BlockTask t = v->tasks[v->order[i]];
        t.u = u;
        t.unew = unew;
        tucana_task_spawn(block_task, &t, sizeof t, &v->attr);
    }
    tucana_taskwait(); /* the end of the step */
    double local_diff = 0.0;
    for (int i = 0; i < v->nblocks; i++)
        local_diff = v->diffs[i] > local_diff ? v->diffs[i] : local_diff;
    return local_diff;
}

static void variant_describe(const Variant *v, char *line, size_t size)
{
    int n = snprintf(line, size,
                     "blocks %dx%dx%d: %dx%dx%d = %d per rank (rank 0), %d "
                     "with messages, order ",
                     v->bsz[0], v->bsz[1], v->bsz[2], v->nb[0], v->nb[1],
                     v->nb[2], v->nblocks, v->nremote);
    if (n >= 0 && (size_t)n < size) {
        if (v->seed > 0)
            snprintf(line + n, size - (size_t)n, "shuffled (seed %d)", v->seed);
        else
            snprintf(line + n, size - (size_t)n, "natural");
    }
}

static void variant_free(Variant *v)
{
    free(v->order);
    free(v->bufs);
    free(v->diffs);
    free(v->tasks);
    free(v);
}

int main(int argc, char **argv)
{
    return tpod_main(argc, argv);
}
