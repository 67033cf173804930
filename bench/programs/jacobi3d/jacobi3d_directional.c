/*
 * jacobi3d -- benchmark program: 3D 7-point Jacobi relaxation on a 1D, 2D or
 * 3D block decomposition.  This file is the *directional graph* variant of
 * the ablation that follows the 2017 MATE slides' roadmap (issue 15): the
 * explicit graph's receive, pack, send and unpack regions split per
 * direction (six each) plus one compute region, 25 regions with explicit
 * dependencies (#pragma tucana region(NAME) depends(...)), so that a face is
 * unpacked as soon as it has arrived, whatever the other five do.
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
 * along each axis.  The six faces are packed into contiguous buffers by hand
 * (the Original's pack_face / unpack_face, strided in the grid), exchanged
 * with MPI_Irecv / MPI_Isend and unpacked into the ghost layers: every face,
 * also towards MPI_PROC_NULL, as the Original does.
 *
 * Graph, per direction d in west, east, south, north, down, up (x* is region
 * x of the previous iteration), as stencil13_annotated.c: recv_d
 * depends(unpack_d*); pack_d depends(compute*); send_d depends(pack_d,
 * send_d*); unpack_d depends(recv_d, compute*) (waits for its receive);
 * compute depends on the six unpack_d and the six send_d (waits for the
 * sends, sweeps, swaps).  Without translation the pragmas are ignored and
 * the 25 statements run in order: a plain MPI program with the Original's
 * result.
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   jacobi3d.c              Original: exchange, MPI_Waitall, then sweep.
 *   jacobi3d_overlap.c      Overlap: sweep the interior while the faces
 *                           travel, then the boundary layer.
 *   jacobi3d_annotated.c    Tucana: the Original plus a Toucan-form
 *                           superblock (faces packed by hand in the send
 *                           region).
 *   jacobi3d_toucan.c       Toucan form, faces sent and received as MPI
 *                           derived datatypes.
 *   jacobi3d_explicit.c     explicit graph: receive, pack, send, unpack,
 *                           compute.
 *   jacobi3d_directional.c  this file: the same regions per direction (25).
 *   jacobi3d_hybrid.c       Hybrid: MPI between ranks, tasks inside a rank.
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
#pragma tucana region(recv_west) depends(unpack_west*)
        MPI_Irecv(recvbuf[WEST], fcount[WEST], MPI_DOUBLE, nbr[WEST], EAST,
                  MPI_COMM_WORLD, &rreq[WEST]);
#pragma tucana region(recv_east) depends(unpack_east*)
        MPI_Irecv(recvbuf[EAST], fcount[EAST], MPI_DOUBLE, nbr[EAST], WEST,
                  MPI_COMM_WORLD, &rreq[EAST]);
#pragma tucana region(recv_south) depends(unpack_south*)
        MPI_Irecv(recvbuf[SOUTH], fcount[SOUTH], MPI_DOUBLE, nbr[SOUTH], NORTH,
                  MPI_COMM_WORLD, &rreq[SOUTH]);
#pragma tucana region(recv_north) depends(unpack_north*)
        MPI_Irecv(recvbuf[NORTH], fcount[NORTH], MPI_DOUBLE, nbr[NORTH], SOUTH,
                  MPI_COMM_WORLD, &rreq[NORTH]);
#pragma tucana region(recv_down) depends(unpack_down*)
        MPI_Irecv(recvbuf[DOWN], fcount[DOWN], MPI_DOUBLE, nbr[DOWN], UP,
                  MPI_COMM_WORLD, &rreq[DOWN]);
#pragma tucana region(recv_up) depends(unpack_up*)
        MPI_Irecv(recvbuf[UP], fcount[UP], MPI_DOUBLE, nbr[UP], DOWN,
                  MPI_COMM_WORLD, &rreq[UP]);

#pragma tucana region(pack_west) depends(compute*)
        pack_face(u, &blk, WEST, sendbuf[WEST]);
#pragma tucana region(pack_east) depends(compute*)
        pack_face(u, &blk, EAST, sendbuf[EAST]);
#pragma tucana region(pack_south) depends(compute*)
        pack_face(u, &blk, SOUTH, sendbuf[SOUTH]);
#pragma tucana region(pack_north) depends(compute*)
        pack_face(u, &blk, NORTH, sendbuf[NORTH]);
#pragma tucana region(pack_down) depends(compute*)
        pack_face(u, &blk, DOWN, sendbuf[DOWN]);
#pragma tucana region(pack_up) depends(compute*)
        pack_face(u, &blk, UP, sendbuf[UP]);

#pragma tucana region(send_west) depends(pack_west, send_west*)
        MPI_Isend(sendbuf[WEST], fcount[WEST], MPI_DOUBLE, nbr[WEST], WEST,
                  MPI_COMM_WORLD, &sreq[WEST]);
#pragma tucana region(send_east) depends(pack_east, send_east*)
        MPI_Isend(sendbuf[EAST], fcount[EAST], MPI_DOUBLE, nbr[EAST], EAST,
                  MPI_COMM_WORLD, &sreq[EAST]);
#pragma tucana region(send_south) depends(pack_south, send_south*)
        MPI_Isend(sendbuf[SOUTH], fcount[SOUTH], MPI_DOUBLE, nbr[SOUTH], SOUTH,
                  MPI_COMM_WORLD, &sreq[SOUTH]);
#pragma tucana region(send_north) depends(pack_north, send_north*)
        MPI_Isend(sendbuf[NORTH], fcount[NORTH], MPI_DOUBLE, nbr[NORTH], NORTH,
                  MPI_COMM_WORLD, &sreq[NORTH]);
#pragma tucana region(send_down) depends(pack_down, send_down*)
        MPI_Isend(sendbuf[DOWN], fcount[DOWN], MPI_DOUBLE, nbr[DOWN], DOWN,
                  MPI_COMM_WORLD, &sreq[DOWN]);
#pragma tucana region(send_up) depends(pack_up, send_up*)
        MPI_Isend(sendbuf[UP], fcount[UP], MPI_DOUBLE, nbr[UP], UP,
                  MPI_COMM_WORLD, &sreq[UP]);

#pragma tucana region(unpack_west) depends(recv_west, compute*)
        {
            MPI_Wait(&rreq[WEST], MPI_STATUS_IGNORE);
            if (nbr[WEST] != MPI_PROC_NULL)
                unpack_face(u, &blk, WEST, recvbuf[WEST]);
        }
#pragma tucana region(unpack_east) depends(recv_east, compute*)
        {
            MPI_Wait(&rreq[EAST], MPI_STATUS_IGNORE);
            if (nbr[EAST] != MPI_PROC_NULL)
                unpack_face(u, &blk, EAST, recvbuf[EAST]);
        }
#pragma tucana region(unpack_south) depends(recv_south, compute*)
        {
            MPI_Wait(&rreq[SOUTH], MPI_STATUS_IGNORE);
            if (nbr[SOUTH] != MPI_PROC_NULL)
                unpack_face(u, &blk, SOUTH, recvbuf[SOUTH]);
        }
#pragma tucana region(unpack_north) depends(recv_north, compute*)
        {
            MPI_Wait(&rreq[NORTH], MPI_STATUS_IGNORE);
            if (nbr[NORTH] != MPI_PROC_NULL)
                unpack_face(u, &blk, NORTH, recvbuf[NORTH]);
        }
#pragma tucana region(unpack_down) depends(recv_down, compute*)
        {
            MPI_Wait(&rreq[DOWN], MPI_STATUS_IGNORE);
            if (nbr[DOWN] != MPI_PROC_NULL)
                unpack_face(u, &blk, DOWN, recvbuf[DOWN]);
        }
#pragma tucana region(unpack_up) depends(recv_up, compute*)
        {
            MPI_Wait(&rreq[UP], MPI_STATUS_IGNORE);
            if (nbr[UP] != MPI_PROC_NULL)
                unpack_face(u, &blk, UP, recvbuf[UP]);
        }

#pragma tucana region(compute) depends(unpack_west, unpack_east, unpack_south, unpack_north, unpack_down, unpack_up, send_west, send_east, send_south, send_north, send_down, send_up)
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
