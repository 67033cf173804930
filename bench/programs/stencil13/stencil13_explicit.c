/*
 * stencil13 -- benchmark program: a 13-point 3D stencil relaxation (two
 * ghost layers) on a block decomposition, the case of the 2017 slides.  This
 * file is the *explicit graph* variant of the ablation that follows the 2017
 * MATE slides' roadmap (issue 15): the loop body split into five named
 * regions, receive, pack, send, unpack and compute, with explicit
 * dependencies (#pragma tucana region(NAME) depends(...)), so that packing
 * and unpacking are regions of their own (run by the subrank's worker,
 * outside MPI) and the packing of the next faces does not wait for the
 * receives.
 *
 * Usage: stencil13 [NX NY NZ [ITERATIONS [DIMS]]]
 *        (defaults: 48 48 48, 40 iterations, DIMS = 3)
 *
 * The global grid has NX x NY x NZ points, x varying fastest in memory.  The
 * stencil reaches two points along each axis, so the boundary is two layers
 * thick and fixed: the two bottom layers (z = 0, 1) are 1.0, the other
 * boundary layers 0.0; the interior starts at 0.0.  Each iteration replaces
 * every interior point u by
 *     (2 * (sum of the 6 neighbours at distance 1)
 *        + (sum of the 6 neighbours at distance 2)) / 18.
 *
 * Decomposition: PX x PY x PZ ranks, rank = (kz * PY + ky) * PX + kx, each
 * axis split in blocks (leftovers to the lowest blocks).  DIMS limits how
 * many axes are split: 1 splits z only, 2 splits y and z, 3 any axis.  Among
 * the allowed factorizations the one with the smallest halo per rank is
 * taken (ties: the smallest PX + PY + PZ).  Every rank owns at least two
 * points along each axis.  The six faces are packed into contiguous buffers
 * by hand (the Original's pack_face / unpack_face, strided in the grid),
 * exchanged with MPI_Irecv / MPI_Isend and unpacked into the ghost layers:
 * every face, also towards MPI_PROC_NULL, as the Original does.
 *
 * Graph (x* is region x of the previous iteration), the slides' five regions
 * with the dependencies of the directional variant (stencil13_annotated.c)
 * merged over the directions, so that the two variants differ only in the
 * split per direction: receive depends(unpack*) (its buffers are free once
 * unpacked); pack depends(compute*) (it reads the grid the last compute
 * made); send depends(pack, send*) (it sends what pack packed, after the
 * previous sends of those buffers completed); unpack depends(receive,
 * compute*) (waits for the six receives, writes the ghost layers of the
 * current grid); compute depends(unpack, send) (it needs every ghost face,
 * and its swap of u and unew must follow pack's reads: the slides' "compute
 * depends on unpack" alone would let it run before pack; it also waits for
 * the six sends, which returns at once under Tucana).  Without translation
 * the pragmas are ignored and the five blocks run in order: a plain MPI
 * program with the Original's result.
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   stencil13.c            Original: exchange, MPI_Waitall, then sweep.
 *   stencil13_overlap.c    Overlap: sweep the interior while the faces
 *                          travel, then the two-layer boundary shell.
 *   stencil13_toucan.c     Toucan form, faces sent and received as MPI
 *                          derived datatypes.
 *   stencil13_explicit.c   this file: explicit graph: receive, pack, send,
 *                          unpack, compute.
 *   stencil13_annotated.c  Tucana, also built as the "directional" variant:
 *                          the same regions per direction (25).
 *   stencil13_hybrid.c     Hybrid: MPI between ranks, tasks inside a rank.
 *
 * Output (rank 0):
 *   stencil13 ranks <P> grid <PX>x<PY>x<PZ> size <NX>x<NY>x<NZ> iterations <I>
 *   residual <max |u_new - u_old| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final grid, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   stencil13: OK              (or a FAILED line, and exit status 1)
 * The residual (an MPI_MAX) and the checksum (an integer sum) do not depend
 * on the decomposition: they are bitwise the same for any rank count.
 *
 * Self-check: when NX * NY * NZ * ITERATIONS <= 2^26, rank 0 collects the grid
 * and compares it bit for bit with a serial computation; above that, every
 * value must lie in [0, 1] (the weights are positive and sum to 1).
 */
#include "stencil13_common.h"

int main(int argc, char **argv)
{
    Problem pb;

    MPI_Init(&argc, &argv);
    if (!setup_problem(argc, argv, 0, &pb)) {
        MPI_Finalize();
        return 1;
    }
    const int iterations = pb.iterations;
    const Block blk = pb.blk;
    const int *nbr = pb.nbr;

    double *u = new_grid(&blk);
    double *unew = new_grid(&blk);

    /* State shared by the parts of the loop: declared before it. */
    MPI_Request rreq[NDIR], sreq[NDIR]; /* receive / send on face d */
    double *sendbuf[NDIR], *recvbuf[NDIR];
    int fcount[NDIR];
    new_face_buffers(&blk, sendbuf, recvbuf, fcount);
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    /* A message's tag is the direction it travels in: the face from nbr[d]
     * carries the opposite direction. */
#pragma tucana superblock
    for (int it = 0; it < iterations; it++) {
#pragma tucana region(receive) depends(unpack*)
        {
            for (int d = 0; d < NDIR; d++)
                MPI_Irecv(recvbuf[d], fcount[d], MPI_DOUBLE, nbr[d], d ^ 1,
                          MPI_COMM_WORLD, &rreq[d]);
        }
#pragma tucana region(pack) depends(compute*)
        {
            for (int d = 0; d < NDIR; d++)
                pack_face(u, &blk, d, sendbuf[d]);
        }
#pragma tucana region(send) depends(pack, send*)
        {
            for (int d = 0; d < NDIR; d++)
                MPI_Isend(sendbuf[d], fcount[d], MPI_DOUBLE, nbr[d], d,
                          MPI_COMM_WORLD, &sreq[d]);
        }
#pragma tucana region(unpack) depends(receive, compute*)
        {
            MPI_Waitall(NDIR, rreq, MPI_STATUSES_IGNORE);
            for (int d = 0; d < NDIR; d++)
                if (nbr[d] != MPI_PROC_NULL)
                    unpack_face(u, &blk, d, recvbuf[d]);
        }
#pragma tucana region(compute) depends(unpack, send)
        {
            MPI_Waitall(NDIR, sreq, MPI_STATUSES_IGNORE);
            local_diff = sweep(u, unew, &blk);
            double *tmp = u;
            u = unew;
            unew = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0;
    int ok = report_results(&pb, u, local_diff, elapsed, NULL);

    free_face_buffers(sendbuf, recvbuf);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
