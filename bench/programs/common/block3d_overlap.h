/*
 * block3d_overlap.h -- the Overlap variant of the 3D stencil benchmarks that
 * use common/block3d.h (jacobi3d, stencil13): the split-phase loop a careful
 * programmer writes by hand (post the receives, pack and send the faces,
 * sweep the interior while they travel, polling MPI between its slabs, then
 * wait, unpack and sweep the boundary shell; jacobi3d/jacobi3d_overlap.c's
 * header comment describes it).  All of the program but the stencil:
 * NAME_overlap.c includes NAME_common.h, then this header, and its main()
 * calls overlap_main().  Like block3d.h: static functions, types and
 * constants only, no pragma.
 */
#ifndef BENCH_BLOCK3D_OVERLAP_H
#define BENCH_BLOCK3D_OVERLAP_H

#ifndef BENCH_BLOCK3D_H
#error "include the program's NAME_common.h (common/block3d.h) first"
#endif

/*
 * The owned box [olo, ohi) and, inside it, the interior box [ilo, ihi): the
 * points at least HALO away from every face that has a neighbour, whose
 * stencil reaches no ghost cell.  Empty along an axis when the block is thin.
 */
static void split_boxes(const Block *b, const int nbr[NDIR], int olo[3],
                        int ohi[3], int ilo[3], int ihi[3])
{
    for (int a = 0; a < 3; a++) {
        olo[a] = HALO;
        ohi[a] = HALO + b->count[a];
        ilo[a] = olo[a] + (nbr[2 * a] != MPI_PROC_NULL ? HALO : 0);
        if (ilo[a] > ohi[a])
            ilo[a] = ohi[a];
        ihi[a] = ohi[a] - (nbr[2 * a + 1] != MPI_PROC_NULL ? HALO : 0);
        if (ihi[a] < ilo[a])
            ihi[a] = ilo[a];
    }
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/*
 * The sweep over the interior box, in slabs of z planes; between slabs,
 * MPI_Testall lets the library move the faces (Open MPI's TCP transport
 * progresses only inside MPI calls).
 */
static double sweep_interior(const double *u, double *unew, const Block *b,
                             const int ilo[3], const int ihi[3], int nreq,
                             MPI_Request *req)
{
    double diff = 0.0;
    long plane = (long)(ihi[0] - ilo[0]) * (ihi[1] - ilo[1]);
    int slab = plane > 0 && plane < 16384 ? (int)(16384 / plane) : 1;
    int done = 0;
    for (int z = ilo[2]; z < ihi[2]; z += slab) {
        int lo[3] = {ilo[0], ilo[1], z};
        int hi[3] = {ihi[0], ihi[1], z + slab < ihi[2] ? z + slab : ihi[2]};
        diff = dmax(diff, sweep_box(u, unew, b, lo, hi));
        if (!done)
            MPI_Testall(nreq, req, &done, MPI_STATUSES_IGNORE);
    }
    return diff;
}

/* The sweep over the owned box minus the interior box (six disjoint boxes). */
static double sweep_shell(const double *u, double *unew, const Block *b,
                          const int olo[3], const int ohi[3],
                          const int ilo[3], const int ihi[3])
{
    double diff = 0.0;
    for (int side = 0; side < 2; side++) {
        /* z below / above the interior: whole planes */
        int lo[3] = {olo[0], olo[1], side ? ihi[2] : olo[2]};
        int hi[3] = {ohi[0], ohi[1], side ? ohi[2] : ilo[2]};
        diff = dmax(diff, sweep_box(u, unew, b, lo, hi));
    }
    for (int side = 0; side < 2; side++) {
        /* interior z, y below / above the interior: whole rows */
        int lo[3] = {olo[0], side ? ihi[1] : olo[1], ilo[2]};
        int hi[3] = {ohi[0], side ? ohi[1] : ilo[1], ihi[2]};
        diff = dmax(diff, sweep_box(u, unew, b, lo, hi));
    }
    for (int side = 0; side < 2; side++) {
        /* interior z and y, x left / right of the interior */
        int lo[3] = {side ? ihi[0] : olo[0], ilo[1], ilo[2]};
        int hi[3] = {side ? ohi[0] : ilo[0], ihi[1], ihi[2]};
        diff = dmax(diff, sweep_box(u, unew, b, lo, hi));
    }
    return diff;
}

/*
 * The whole program (each NAME_overlap.c's main()): MPI_Init, the arguments,
 * the blocks, the timed split-phase loop, the report and MPI_Finalize.
 * Returns main()'s exit status.
 */
static int overlap_main(int argc, char **argv)
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

    /* The interior (needs no ghost) and the boundary shell (HALO layers)
     * around it. */
    int olo[3], ohi[3], ilo[3], ihi[3];
    split_boxes(&blk, nbr, olo, ohi, ilo, ihi);

    for (int it = 0; it < iterations; it++) {
        /* The face from nbr[d] travels in the opposite direction. */
        for (int d = 0; d < NDIR; d++)
            MPI_Irecv(recvbuf[d], face_count(&blk, d), MPI_DOUBLE, nbr[d],
                      d ^ 1, MPI_COMM_WORLD, &req[d]);
        for (int d = 0; d < NDIR; d++) {
            pack_face(u, &blk, d, sendbuf[d]);
            MPI_Isend(sendbuf[d], face_count(&blk, d), MPI_DOUBLE, nbr[d], d,
                      MPI_COMM_WORLD, &req[NDIR + d]);
        }
        double diff = sweep_interior(u, unew, &blk, ilo, ihi, 2 * NDIR, req);
        MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
        for (int d = 0; d < NDIR; d++)
            if (nbr[d] != MPI_PROC_NULL)
                unpack_face(u, &blk, d, recvbuf[d]);
        diff = dmax(diff, sweep_shell(u, unew, &blk, olo, ohi, ilo, ihi));
        local_diff = diff;
        double *tmp = u;
        u = unew;
        unew = tmp;
    }

    double elapsed = MPI_Wtime() - t0;
    int ok = report_results(&pb, u, local_diff, elapsed, NULL);

    free_face_buffers(sendbuf, recvbuf);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif /* BENCH_BLOCK3D_OVERLAP_H */
