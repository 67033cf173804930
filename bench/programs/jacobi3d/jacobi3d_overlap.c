/*
 * jacobi3d_overlap -- benchmark program: 3D 7-point Jacobi relaxation on a
 * 1D, 2D or 3D block decomposition.  This file is the *Overlap* variant: the
 * split-phase loop a careful programmer writes by hand.  Each iteration posts
 * the receives, packs and sends the faces, sweeps the interior (the points
 * whose stencil reaches no ghost cell) while the faces travel, polling MPI
 * with MPI_Testall between slabs of the interior so that the transfers make
 * progress, then waits, unpacks and sweeps the boundary layer.  Every point
 * is computed by the same expression as in jacobi3d.c: the results are
 * bit-identical.
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

#include "../common/block3d_overlap.h"

int main(int argc, char **argv)
{
    return overlap_main(argc, argv);
}
