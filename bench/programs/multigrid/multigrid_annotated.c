/*
 * multigrid -- benchmark program: V-cycle multigrid for the 3D Poisson
 * problem (miniGMG-like), with a 27-point operator whose smoother exchanges
 * ghosts with all 26 neighbours (faces, edges, corners).  This file is the
 * *Original* variant: plain MPI, every exchange completes (MPI_Waitall)
 * before the sweep that needs it.
 *
 * Usage: multigrid [NX NY NZ [CYCLES [DIMS [LEVELS]]]]
 *        (defaults: 32 32 32, CYCLES = 6, DIMS = 3, LEVELS: as many as fit)
 *
 * Problem: -Laplace(u) = f on the box [0, NX h] x [0, NY h] x [0, NZ h],
 * h = 1/NX, u = 0 on the boundary: NX, NY, NZ intervals along the axes
 * (points 0..NX etc.), discretized with the 27-point operator
 *     (A u)_p = (26 u_p - sum of the 26 neighbours of p) / (9 h^2),
 * f_p pseudo-random in [-1, 1) (a hash of p).  Starting from u = 0 the
 * program runs CYCLES V-cycles and prints the max-norm of the residual
 * f - A u before the first and after each cycle.
 *
 * V-cycle, vcycle(level) (recursive):
 *   pre-smooth:  NU1 = 2 damped Jacobi sweeps (omega = 0.8), each a 26-
 *                neighbour ghost exchange plus a sweep -- the loop that
 *                multigrid_annotated.c makes a superblock; on the coarsest
 *                level the same loop runs max(16, n_min * n_max) sweeps
 *                (its fewest and most intervals along an axis) with
 *                omega = 1 and the recursion stops;
 *   residual, restriction by full weighting (27 points) to the next coarser
 *                level (twice coarser, the same operator, zero initial
 *                guess), vcycle(level + 1), trilinear interpolation and
 *                correction -- plain MPI (26-neighbour exchanges);
 *   post-smooth: NU2 = 2 damped Jacobi sweeps -- the second superblock.
 *
 * Decomposition: PX x PY x PZ ranks, rank = (kz * PY + ky) * PX + kx.  DIMS
 * limits how many axes are split: 1 splits z only, 2 splits y and z, 3 any
 * axis; among the allowed factorizations the one with the smallest halo per
 * rank is taken (ties: the smallest PX + PY + PZ).  Every level is split in
 * equal blocks: along axis a, rank k owns points [k*m, (k+1)*m) of a level
 * with m*P_a intervals, so a coarse point J's owner also owns fine point 2J
 * and one ghost layer on each side is enough for every operation.  Hence
 * P_a * 2^(LEVELS-1) must divide the number of intervals along every axis.
 * LEVELS by default: coarsen while every axis keeps at least 4 intervals
 * and every rank whole points.  Point 0 of each axis is a fixed boundary
 * point; the last point is the last rank's high ghost, always 0.
 * Faces, edges and corners are packed into contiguous buffers by hand and
 * exchanged with MPI_Irecv / MPI_Isend (26 messages each way, fewer at the
 * boundary).
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   multigrid.c            Original: this file.
 *   multigrid_overlap.c    Overlap: each smoothing sweep computes its
 *                          interior while the ghosts travel, then the shell.
 *   multigrid_annotated.c  Tucana: this file plus two Toucan-form
 *                          superblocks (pre- and post-smoothing) inside the
 *                          recursive vcycle().
 *
 * Reproducibility: every value is computed by the same expression whatever
 * the decomposition, and the norms are maxima (MPI_MAX, exact), so all
 * output lines but "multigrid ranks" and "time" are bitwise the same for
 * any rank count (with LEVELS given: the default depends on the process
 * grid).
 *
 * Self-check: the residual must fall in every cycle (until it reaches the
 * level of rounding errors) and, over the whole run, by at least 0.3 per
 * cycle on average.  When NX, NY, NZ <= 64, rank 0 also repeats the whole
 * run on one block (no neighbours) and compares the collected solution bit
 * for bit.
 *
 * Output (rank 0):
 *   multigrid ranks <P> grid <PX>x<PY>x<PZ> size <NX>x<NY>x<NZ> levels <L>
 *             cycles <C>
 *   cycle <k> residual <max |f - A u|>      k = 0 .. CYCLES
 *   time <seconds of the CYCLES V-cycles, the maximum over the ranks>
 *   checksum <sum of the final u, each value truncated to 2^-40>
 *   check <which self-checks ran>
 *   multigrid: OK              (or a FAILED line, and exit status 1)
 */
#include "multigrid_common.h"

static void vcycle(Multigrid *mg, int level)
{
    Level *L = &mg->lv[level];
    int coarsest = level == mg->nlevels - 1;
    double omega;
    int sweeps = presmoothing(L, coarsest, &omega);

    /* State shared by the parts of the loops: declared before them. */
    MPI_Request req[2 * NDIR]; /* [i] receive from direction i, [NDIR+i] send */

    /* Pre-smoothing; on the coarsest level, the approximate solve. */
#pragma tucana superblock
    for (int s = 0; s < sweeps; s++) {
#pragma tucana receive
        {
            for (int i = 0; i < NDIR; i++)
                MPI_Irecv(L->recvbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + (NDIR - 1 - i), MPI_COMM_WORLD,
                          &req[i]);
        }
#pragma tucana send
        {
            for (int i = 0; i < NDIR; i++) {
                pack_dir(L, i, L->u, L->sendbuf[i]);
                MPI_Isend(L->sendbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + i, MPI_COMM_WORLD, &req[NDIR + i]);
            }
        }
#pragma tucana compute
        {
            MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
            for (int i = 0; i < NDIR; i++)
                if (mg->nbr[i] != MPI_PROC_NULL)
                    unpack_dir(L, i, L->u, L->recvbuf[i]);
            sweep(L, omega);
        }
    }

    if (coarsest)
        return;

    /* Coarse-grid correction (plain MPI). */
    residual(mg, L);
    restrict_residual(mg, L, &mg->lv[level + 1]);
    vcycle(mg, level + 1);
    prolong_add(mg, &mg->lv[level + 1], L);

    /* Post-smoothing. */
#pragma tucana superblock
    for (int s = 0; s < NU2; s++) {
#pragma tucana receive
        {
            for (int i = 0; i < NDIR; i++)
                MPI_Irecv(L->recvbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + (NDIR - 1 - i), MPI_COMM_WORLD,
                          &req[i]);
        }
#pragma tucana send
        {
            for (int i = 0; i < NDIR; i++) {
                pack_dir(L, i, L->u, L->sendbuf[i]);
                MPI_Isend(L->sendbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + i, MPI_COMM_WORLD, &req[NDIR + i]);
            }
        }
#pragma tucana compute
        {
            MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
            for (int i = 0; i < NDIR; i++)
                if (mg->nbr[i] != MPI_PROC_NULL)
                    unpack_dir(L, i, L->u, L->recvbuf[i]);
            sweep(L, OMEGA);
        }
    }
}

int main(int argc, char **argv)
{
    return run_multigrid(argc, argv);
}
