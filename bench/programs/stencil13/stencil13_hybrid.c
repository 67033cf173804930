/*
 * stencil13_hybrid -- benchmark program: a 13-point 3D stencil relaxation
 * (two ghost layers), the *Hybrid* variant: MPI between ranks, tasks inside
 * a rank (Tucana's task API, <tucana/task.h>).  Same global problem, same
 * arithmetic and same output as stencil13.c; the decomposition is the
 * Original's with DIMS = 1 (slabs along z).
 *
 * Usage: stencil13_hybrid [NX NY NZ [ITERATIONS [DIMS]]]
 *        (defaults: 48 48 48, 40 iterations, DIMS = 1; DIMS must be 1)
 * Build: tucanacc --no-translate (the program has no pragmas; it calls the
 *        task API itself).  Run: tucana-run -np P --tasks V, V being the
 *        number of interior tasks per rank (tucana_num_tasks()).
 *
 * The global grid, its boundary and the iteration are stencil13.c's: NX x
 * NY x NZ points, x fastest in memory, a fixed boundary two layers thick
 * (the two bottom layers 1.0, the others 0.0), the interior starting at 0.0,
 * and each iteration replaces every interior point u by
 *     (2 * (sum of the 6 neighbours at distance 1)
 *        + (sum of the 6 neighbours at distance 2)) / 18.
 * The P ranks own slabs of z planes (block_range), two ghost planes on each
 * side that has a neighbour.  Below, a "face" is the two (HALO) planes next
 * to a neighbour.
 *
 * One time step t (u = u_t is read, unew = u_{t+1} is written) is a set of
 * tasks of the rank and a taskwait:
 *   - a boundary task (attr.boundary = 1) per face with a neighbour: it
 *     waits (MPI_Wait, which suspends only the task) for the ghost face of
 *     u_t, whose receive was posted during step t - 1, unpacks it, posts the
 *     receive of u_{t+1}'s ghost face into the buffer just emptied, sweeps
 *     the two owned planes next to the face, and sends them at once
 *     (MPI_Isend) for step t + 1.  The send's request is waited for by the
 *     same task in step t + 1, before the send buffer is packed again;
 *   - tucana_num_tasks() interior tasks sweep the other planes, split into
 *     contiguous chunks (fewer tasks when there are fewer planes);
 *   - a slab too thin to separate its two boundary faces (fewer than four
 *     planes between two neighbours) is swept by one boundary task that
 *     handles both faces.
 * Where stencil13_annotated.c orders the directional statements with an
 * explicit region graph, here one boundary task does a face's receive,
 * unpack, sweep, pack and send.  The faces of u_0 are exchanged before the
 * first step (inside the timed loop, as the Original's first exchange is);
 * the last step sends nothing.  Sends are non-blocking: a blocking send could
 * wait for a receive that the peer posts only in its next step.
 *
 * Output (rank 0), as stencil13.c:
 *   stencil13 ranks <P> grid 1x1x<P> size <NX>x<NY>x<NZ> iterations <I>
 *   tasks <V interior tasks per rank>
 *   residual <max |u_new - u_old| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final grid, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   stencil13: OK              (or a FAILED line, and exit status 1)
 * The residual, the checksum and the check are bitwise those of the other
 * variants (every point is computed by the same expression).
 *
 * Self-check: when NX * NY * NZ * ITERATIONS <= 2^26, rank 0 collects the grid
 * and compares it bit for bit with a serial computation; above that, every
 * value must lie in [0, 1] (the weights are positive and sum to 1).
 */
#include "stencil13_common.h"

#include "../common/block3d_hybrid.h"

int main(int argc, char **argv)
{
    return hybrid_main(argc, argv);
}
