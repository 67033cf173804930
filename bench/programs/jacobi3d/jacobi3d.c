/*
 * jacobi3d -- benchmark program: 3D 7-point Jacobi relaxation on a 1D, 2D or
 * 3D block decomposition.  This file is the *Original* variant: plain MPI,
 * the halo exchange completes (MPI_Waitall) before any computation starts.
 *
 * Usage: jacobi3d [NX NY NZ [ITERATIONS [DIMS]]]
 *        (defaults: 64 64 64, 50 iterations, DIMS = 3)
 *
 * The global grid has NX x NY x NZ points, x varying fastest in memory.  The
 * boundary is fixed: the bottom face (z = 0) is 1.0, the other five faces
 * are 0.0; the interior starts at 0.0.  Each iteration replaces every
 * interior point by the average of its six neighbours.
 *
 * Decomposition: PX x PY x PZ ranks, rank = (kz * PY + ky) * PX + kx, each
 * axis split in blocks (leftovers to the lowest blocks).  DIMS limits how
 * many axes are split: 1 splits z only, 2 splits y and z, 3 any axis.  Among
 * the allowed factorizations of the rank count the one with the smallest
 * halo per rank is taken (ties: the smallest PX + PY + PZ, then the first
 * found with the largest PZ, then PY).  Every rank owns at least one point
 * along each axis.  The six faces are packed into contiguous buffers by
 * hand, exchanged with MPI_Irecv / MPI_Isend and unpacked into one ghost
 * layer.
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   jacobi3d.c            Original: exchange, MPI_Waitall, then sweep.
 *   jacobi3d_overlap.c    Overlap: sweep the interior while the faces travel,
 *                         then the boundary layer.
 *   jacobi3d_annotated.c  Tucana: this file plus a Toucan-form superblock.
 *   jacobi3d_common.h     what every variant shares: common/block3d.h
 *                         (the grid, its blocks, the faces, the arguments,
 *                         the checksum, self-check and report) and the
 *                         7-point sweep.
 *
 * Output (rank 0):
 *   jacobi3d ranks <P> grid <PX>x<PY>x<PZ> size <NX>x<NY>x<NZ> iterations <I>
 *   residual <max |u_new - u_old| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final grid, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   jacobi3d: OK               (or a FAILED line, and exit status 1)
 * The residual (an MPI_MAX) and the checksum (an integer sum) do not depend
 * on the decomposition: they are bitwise the same for any rank count.
 *
 * Self-check: when NX * NY * NZ * ITERATIONS <= 2^26, rank 0 collects the grid
 * and compares it bit for bit with a serial computation; above that, every
 * value must lie in [0, 1] (the maximum principle).
 */
#include "jacobi3d_common.h"

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
    MPI_Request req[2 * NDIR]; /* [d] receive on face d, [NDIR + d] send */
    double *sendbuf[NDIR], *recvbuf[NDIR];
    new_face_buffers(&blk, sendbuf, recvbuf, NULL);
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < iterations; it++) {
        {
            /* The face from nbr[d] travels in the opposite direction. */
            for (int d = 0; d < NDIR; d++)
                MPI_Irecv(recvbuf[d], face_count(&blk, d), MPI_DOUBLE, nbr[d],
                          d ^ 1, MPI_COMM_WORLD, &req[d]);
        }
        {
            for (int d = 0; d < NDIR; d++) {
                pack_face(u, &blk, d, sendbuf[d]);
                MPI_Isend(sendbuf[d], face_count(&blk, d), MPI_DOUBLE, nbr[d],
                          d, MPI_COMM_WORLD, &req[NDIR + d]);
            }
        }
        {
            MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
            for (int d = 0; d < NDIR; d++)
                if (nbr[d] != MPI_PROC_NULL)
                    unpack_face(u, &blk, d, recvbuf[d]);
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
