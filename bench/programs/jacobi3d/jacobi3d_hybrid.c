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
#include "jacobi3d_common.h"

#include "../common/block3d_hybrid.h"

int main(int argc, char **argv)
{
    return hybrid_main(argc, argv);
}
