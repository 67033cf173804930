/*
 * stencil13_overlap -- benchmark program: a 13-point 3D stencil relaxation
 * (two ghost layers) on a block decomposition.  This file is the *Overlap*
 * variant: the split-phase loop a careful programmer writes by hand.  Each
 * iteration posts the six receives, packs and sends the six faces, sweeps
 * the interior (the points at least two away from every face that has a
 * neighbour: their stencil reaches no ghost cell) while the faces travel,
 * polling MPI with MPI_Testall between slabs of the interior so that the
 * transfers make progress, then waits, unpacks and sweeps the two-layer
 * boundary shell.  Every point is computed by the same expression as in
 * stencil13.c: the results are bit-identical.
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
 * points along each axis.  The six faces (two layers each) are packed into
 * contiguous buffers by hand, exchanged with MPI_Irecv / MPI_Isend and
 * unpacked into the ghost layers.
 *
 * The loop body is written as the slides' directional steps, one statement
 * each, in the order: six receives, six packs, six sends, six unpacks (each
 * waits for its own receive), and the compute (waits for the six sends,
 * sweeps, swaps the arrays).
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   stencil13.c            Original: this file.
 *   stencil13_overlap.c    Overlap: sweep the interior while the faces
 *                          travel, then the two-layer boundary shell.
 *   stencil13_annotated.c  Tucana: this file plus an explicit region graph,
 *                          one "#pragma tucana region(NAME) depends(...)"
 *                          before each statement of the loop body.
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

#include "../common/block3d_overlap.h"

int main(int argc, char **argv)
{
    return overlap_main(argc, argv);
}
