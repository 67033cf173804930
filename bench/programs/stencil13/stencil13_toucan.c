/*
 * stencil13 -- benchmark program: a 13-point 3D stencil relaxation (two
 * ghost layers) on a block decomposition, the case of the 2017 slides.  This
 * file is the *Toucan* variant of the ablation that follows the 2017 MATE
 * slides' roadmap (issue 15): the Toucan 3-pragma form (#pragma tucana
 * superblock with one receive, one send and one compute region) whose
 * receive and send regions pass the faces to MPI_Irecv / MPI_Isend as MPI
 * derived datatypes, as the slides' first code: no send or receive buffers,
 * no packing by hand.  Packing the strided faces is left to MPI (under
 * Tucana, to the runtime: see tucana-run --pack).
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
 * points along each axis.  The faces are MPI derived datatypes: for each
 * direction d, a subarray type (MPI_Type_create_subarray) of the local
 * array, ghosts included, selects the owned layers next to face d (sent) and
 * another the ghost layers beyond it (received); MPI_Isend sends from the
 * grid and MPI_Irecv receives into its ghost layers directly.  Every face is
 * strided, even in the slab decomposition (DIMS = 1): the rows of an x-y
 * face are separated by the ghost columns; a y face (DIMS >= 2, the subrank
 * layout of run_bench.py) is HALO rows per z plane, an x face HALO values
 * per row.  Faces towards MPI_PROC_NULL are not read (the Original packs all
 * six).
 *
 * The dependency graph is Toucan's, implicit (see docs/annotations.md):
 * receive(i) after compute(i-1); send(i) after compute(i-1) and send(i-1);
 * compute(i) after receive(i) and send(i). compute waits for the twelve
 * requests (returns at once under Tucana), sweeps u into unew and swaps
 * them.
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   stencil13.c            Original: exchange, MPI_Waitall, then sweep.
 *   stencil13_overlap.c    Overlap: sweep the interior while the faces
 *                          travel, then the two-layer boundary shell.
 *   stencil13_toucan.c     this file: Toucan form, faces sent and received
 *                          as MPI derived datatypes.
 *   stencil13_explicit.c   explicit graph: receive, pack, send, unpack,
 *                          compute.
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

/*
 * The subarray type of the box face_box(b, d, ghost) in the local array of
 * b, ghosts included (any grid of the block: u and unew alike), committed;
 * used with count 1 and the grid's first element as the buffer.
 */
static MPI_Datatype face_type(const Block *b, int d, int ghost)
{
    int lo[3], hi[3], sizes[3], subsizes[3], starts[3];
    MPI_Datatype t;
    face_box(b, d, ghost, lo, hi);
    for (int a = 0; a < 3; a++) { /* C order: z, y, x */
        sizes[2 - a] = b->count[a] + 2 * HALO;
        subsizes[2 - a] = hi[a] - lo[a];
        starts[2 - a] = lo[a];
    }
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C,
                             MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

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
    MPI_Datatype send_type[NDIR], recv_type[NDIR]; /* owned / ghost layers */
    for (int d = 0; d < NDIR; d++) {
        send_type[d] = face_type(&blk, d, 0);
        recv_type[d] = face_type(&blk, d, 1);
    }
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

#pragma tucana superblock
    for (int it = 0; it < iterations; it++) {
#pragma tucana receive
        {
            /* The face from nbr[d] travels in the opposite direction; it
             * lands in the ghost layers of u. */
            for (int d = 0; d < NDIR; d++)
                MPI_Irecv(u, 1, recv_type[d], nbr[d], d ^ 1, MPI_COMM_WORLD,
                          &req[d]);
        }
#pragma tucana send
        {
            for (int d = 0; d < NDIR; d++)
                MPI_Isend(u, 1, send_type[d], nbr[d], d, MPI_COMM_WORLD,
                          &req[NDIR + d]);
        }
#pragma tucana compute
        {
            MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
            local_diff = sweep(u, unew, &blk);
            double *tmp = u;
            u = unew;
            unew = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0;
    int ok = report_results(&pb, u, local_diff, elapsed, NULL);

    for (int d = 0; d < NDIR; d++) {
        MPI_Type_free(&send_type[d]);
        MPI_Type_free(&recv_type[d]);
    }
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
