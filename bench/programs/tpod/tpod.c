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
#include "tpod_common.h"

/* The whole subdomain as one block: a send and a receive buffer per face. */
struct Variant {
    const Problem *pb;
    double *sendbuf[NDIR], *recvbuf[NDIR];
};

static Variant *variant_new(const TpodProblem *tp)
{
    Variant *v = xmalloc(sizeof *v);
    v->pb = &tp->pb;
    for (int d = 0; d < NDIR; d++) {
        size_t values = (size_t)face_count(&tp->pb.blk, d);
        v->sendbuf[d] = xmalloc(values * sizeof(double));
        v->recvbuf[d] = xmalloc(values * sizeof(double));
    }
    return v;
}

/* Exchange the six faces, then sweep (bulk synchronous). */
static double variant_step(Variant *v, double *u, double *unew)
{
    const Block *blk = &v->pb->blk;
    const int *nbr = v->pb->nbr;
    MPI_Request req[2 * NDIR]; /* [d] receive on face d, [NDIR + d] send */
    /* The face from nbr[d] travels in the opposite direction. */
    for (int d = 0; d < NDIR; d++)
        MPI_Irecv(v->recvbuf[d], face_count(blk, d), MPI_DOUBLE, nbr[d],
                  d ^ 1, MPI_COMM_WORLD, &req[d]);
    for (int d = 0; d < NDIR; d++) {
        pack_face(u, blk, d, v->sendbuf[d]);
        MPI_Isend(v->sendbuf[d], face_count(blk, d), MPI_DOUBLE, nbr[d], d,
                  MPI_COMM_WORLD, &req[NDIR + d]);
    }
    MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
    for (int d = 0; d < NDIR; d++)
        if (nbr[d] != MPI_PROC_NULL)
            unpack_face(u, blk, d, v->recvbuf[d]);
    return sweep(u, unew, blk);
}

static void variant_describe(const Variant *v, char *line, size_t size)
{
    (void)v;
    snprintf(line, size,
             "blocks 1 per rank (the whole subdomain; BX BY BZ SEED ignored)");
}

static void variant_free(Variant *v)
{
    for (int d = 0; d < NDIR; d++) {
        free(v->sendbuf[d]);
        free(v->recvbuf[d]);
    }
    free(v);
}

int main(int argc, char **argv)
{
    return tpod_main(argc, argv);
}
