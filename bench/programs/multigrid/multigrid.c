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

/* The sweep over all owned points, then swap u and tmp. */
static void sweep(Level *L, double omega)
{
    int lo[3] = {1, 1, 1}, hi[3] = {L->m[0] + 1, L->m[1] + 1, L->m[2] + 1};
    sweep_box(L, omega, lo, hi);
    double *t = L->u;
    L->u = L->tmp;
    L->tmp = t;
}

static void vcycle(Multigrid *mg, int level)
{
    Level *L = &mg->lv[level];
    int coarsest = level == mg->nlevels - 1;
    int nmin = L->n[0] < L->n[1] ? L->n[0] : L->n[1];
    int nmax = L->n[0] > L->n[1] ? L->n[0] : L->n[1];
    nmin = nmin < L->n[2] ? nmin : L->n[2];
    nmax = nmax > L->n[2] ? nmax : L->n[2];
    int sweeps = coarsest ? (nmin * nmax > 16 ? nmin * nmax : 16) : NU1;
    double omega = coarsest ? 1.0 : OMEGA;

    /* State shared by the parts of the loops: declared before them. */
    MPI_Request req[2 * NDIR]; /* [i] receive from direction i, [NDIR+i] send */

    /* Pre-smoothing; on the coarsest level, the approximate solve. */
    for (int s = 0; s < sweeps; s++) {
        {
            for (int i = 0; i < NDIR; i++)
                MPI_Irecv(L->recvbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + (NDIR - 1 - i), MPI_COMM_WORLD,
                          &req[i]);
        }
        {
            for (int i = 0; i < NDIR; i++) {
                pack_dir(L, i, L->u, L->sendbuf[i]);
                MPI_Isend(L->sendbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + i, MPI_COMM_WORLD, &req[NDIR + i]);
            }
        }
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
    for (int s = 0; s < NU2; s++) {
        {
            for (int i = 0; i < NDIR; i++)
                MPI_Irecv(L->recvbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + (NDIR - 1 - i), MPI_COMM_WORLD,
                          &req[i]);
        }
        {
            for (int i = 0; i < NDIR; i++) {
                pack_dir(L, i, L->u, L->sendbuf[i]);
                MPI_Isend(L->sendbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                          TAG_SMOOTH + i, MPI_COMM_WORLD, &req[NDIR + i]);
            }
        }
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
    int rank, size, cycles = 6, dims = 3, nlevels = 0;
    int n[3] = {32, 32, 32}, p[3] = {1, 1, 1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 3)
        for (int a = 0; a < 3; a++)
            n[a] = atoi(argv[1 + a]);
    if (argc > 4)
        cycles = atoi(argv[4]);
    if (argc > 5)
        dims = atoi(argv[5]);
    if (argc > 6)
        nlevels = atoi(argv[6]);
    int valid = (argc == 1 || argc >= 4) && n[0] >= 4 && n[1] >= 4 &&
                n[2] >= 4 && cycles >= 1 && dims >= 1 && dims <= 3 &&
                nlevels >= 0 && nlevels <= 30 &&
                process_grid(size, n, dims, p);
    if (valid && nlevels == 0) {
        /* Coarsen while every axis keeps 4 intervals and every rank whole
         * points. */
        nlevels = 1;
        for (int more = 1; more; nlevels += more)
            for (int a = 0; a < 3; a++) {
                int nl = n[a] >> (nlevels - 1);
                if (nl % 2 || nl / 2 < 4 || (nl / p[a]) % 2)
                    more = 0;
            }
    }
    if (valid)
        for (int a = 0; a < 3; a++)
            if (n[a] % (p[a] << (nlevels - 1)) != 0 ||
                (n[a] >> (nlevels - 1)) < 2)
                valid = 0;
    if (!valid) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [CYCLES [DIMS 1|2|3 [LEVELS]]]], "
                    "NX, NY, NZ >= 4: the process grid (%dx%dx%d for %d "
                    "ranks) times 2^(LEVELS-1) must divide NX, NY, NZ\n",
                    argv[0], p[0], p[1], p[2], size);
        MPI_Finalize();
        return 1;
    }

    int k[3] = {rank % p[0], (rank / p[0]) % p[1], rank / (p[0] * p[1])};
    int nbr[NDIR];
    for (int i = 0; i < NDIR; i++) {
        int q[3], inside = 1;
        for (int a = 0; a < 3; a++) {
            q[a] = k[a] + DIRS[i][a];
            inside = inside && q[a] >= 0 && q[a] < p[a];
        }
        nbr[i] = inside ? (q[2] * p[1] + q[1]) * p[0] + q[0] : MPI_PROC_NULL;
    }
    Multigrid mg;
    setup(&mg, n, nlevels, p, k, nbr);

    double *history = xmalloc((size_t)(cycles + 1) * sizeof(double));
    double local = residual(&mg, &mg.lv[0]);
    MPI_Allreduce(&local, &history[0], 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int c = 1; c <= cycles; c++) {
        vcycle(&mg, 0);
        local = residual(&mg, &mg.lv[0]);
        MPI_Allreduce(&local, &history[c], 1, MPI_DOUBLE, MPI_MAX,
                      MPI_COMM_WORLD);
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Checksum of the fine solution. */
    Level *F = &mg.lv[0];
    unsigned long long local_sum = 0, checksum = 0;
    for (int z = 1; z <= F->m[2]; z++)
        for (int y = 1; y <= F->m[1]; y++)
            for (int x = 1; x <= F->m[0]; x++)
                local_sum += fixed_point(F->u[at(F, x, y, z)]);
    MPI_Allreduce(&local_sum, &checksum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);

    /* Rounding errors in A u are about eps |u| 26 / (9 h^2): below this
     * floor (with a wide margin) the residual need not fall any more. */
    double floor = 100.0 * DBL_EPSILON * (double)n[0] * (double)n[0];
    int ok = 1;
    for (int c = 1; c <= cycles; c++)
        if (history[c - 1] > floor && !(history[c] < history[c - 1]))
            ok = 0;
    double target = history[0];
    for (int c = 1; c <= cycles; c++)
        target *= 0.3;
    if (!(history[cycles] <= (target > floor ? target : floor)))
        ok = 0;
    int converged = ok;

    /* Serial repetition on one block, compared bit for bit. */
    int serial = n[0] <= SERIAL_CHECK_MAX_N && n[1] <= SERIAL_CHECK_MAX_N &&
                 n[2] <= SERIAL_CHECK_MAX_N;
    if (serial) {
        size_t owned = (size_t)F->m[0] * F->m[1] * F->m[2];
        double *mine = xmalloc(owned * sizeof(double));
        size_t q = 0;
        for (int z = 1; z <= F->m[2]; z++)
            for (int y = 1; y <= F->m[1]; y++)
                for (int x = 1; x <= F->m[0]; x++)
                    mine[q++] = F->u[at(F, x, y, z)];
        if (rank == 0) {
            const int one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
            int none[NDIR];
            for (int i = 0; i < NDIR; i++)
                none[i] = MPI_PROC_NULL;
            Multigrid s;
            setup(&s, n, nlevels, one, zero, none);
            double sres = residual(&s, &s.lv[0]);
            if (sres != history[0])
                ok = 0;
            for (int c = 1; c <= cycles; c++) {
                vcycle(&s, 0);
                sres = residual(&s, &s.lv[0]);
                if (sres != history[c])
                    ok = 0;
            }
            Level *S = &s.lv[0];
            double *part = xmalloc((size_t)n[0] * n[1] * n[2] * sizeof(double));
            for (int r = 0; r < size; r++) {
                int kr[3] = {r % p[0], (r / p[0]) % p[1], r / (p[0] * p[1])};
                int m[3] = {n[0] / p[0], n[1] / p[1], n[2] / p[2]};
                int cnt = m[0] * m[1] * m[2];
                if (r == 0)
                    memcpy(part, mine, (size_t)cnt * sizeof(double));
                else
                    MPI_Recv(part, cnt, MPI_DOUBLE, r, TAG_GATHER,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                size_t t = 0;
                for (int z = 0; z < m[2]; z++)
                    for (int y = 0; y < m[1]; y++)
                        for (int x = 0; x < m[0]; x++) {
                            double want = S->u[at(S, kr[0] * m[0] + x + 1,
                                                  kr[1] * m[1] + y + 1,
                                                  kr[2] * m[2] + z + 1)];
                            if (memcmp(&part[t++], &want, sizeof want) != 0)
                                ok = 0;
                        }
            }
            free(part);
            teardown(&s);
        } else {
            MPI_Send(mine, (int)owned, MPI_DOUBLE, 0, TAG_GATHER,
                     MPI_COMM_WORLD);
        }
        free(mine);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("multigrid ranks %d grid %dx%dx%d size %dx%dx%d levels %d "
               "cycles %d\n",
               size, p[0], p[1], p[2], n[0], n[1], n[2], nlevels, cycles);
        for (int c = 0; c <= cycles; c++)
            printf("cycle %d residual %.17g\n", c, history[c]);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-40);
        printf("check residual falls%s\n",
               serial ? "; serial computation, bit for bit" : "");
        if (ok)
            printf("multigrid: OK\n");
        else
            printf("multigrid: FAILED (%s)\n",
                   converged ? "the solution differs from the serial "
                               "computation"
                             : "the residual did not fall as expected");
        fflush(stdout);
    }

    free(history);
    teardown(&mg);
    MPI_Finalize();
    return ok ? 0 : 1;
}
