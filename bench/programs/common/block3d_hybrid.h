/*
 * block3d_hybrid.h -- the Hybrid variant of the 3D stencil benchmarks that
 * use common/block3d.h (jacobi3d, stencil13): MPI between ranks that own
 * slabs along z, tasks inside a rank (Tucana's task API, <tucana/task.h>),
 * the boundary tasks exchanging the faces and the interior tasks sweeping
 * the rest (jacobi3d/jacobi3d_hybrid.c's header comment describes it).  All
 * of the program but the stencil: NAME_hybrid.c includes NAME_common.h,
 * then this header, and its main() calls hybrid_main().  Like block3d.h:
 * static functions, types and constants only, no pragma.
 */
#ifndef BENCH_BLOCK3D_HYBRID_H
#define BENCH_BLOCK3D_HYBRID_H

#ifndef BENCH_BLOCK3D_H
#error "include the program's NAME_common.h (common/block3d.h) first"
#endif

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tucana/task.h>

/* ----------------------------------------------------------------- tasks */

/* A sweep of the owned planes [z0, z1) (local z indices) of u into unew. */
typedef struct {
    const double *u;
    double *unew;
    const Block *b;
    int z0, z1;
    double *diff; /* where the task stores its largest change */
} Sweep;

/* The exchange with the neighbour across one z face, kept by the rank from
 * step to step; one task per step uses it (the taskwait orders them). */
typedef struct {
    int d;            /* DOWN or UP: the direction of the face */
    int peer;         /* the neighbour's rank */
    int count;        /* values in the face */
    double *sendbuf;  /* the owned plane next to the face, packed */
    double *recvbuf;  /* the neighbour's plane, before it is unpacked */
    MPI_Request rreq; /* the receive of the current step's ghost plane */
    MPI_Request sreq; /* the last send (MPI_REQUEST_NULL when none) */
} Face;

/* A boundary task: its faces (one; both for a slab too thin to separate
 * them) and the sweep of the planes next to them. */
typedef struct {
    Sweep s;
    Face *face[2];
    int nface;
    double *ucur; /* s.u, writable: the ghost planes are unpacked into it */
    int more;     /* 1: a step follows (post its receives, send the faces) */
} Boundary;

static double sweep_planes(const Sweep *s)
{
    int lo[3] = {HALO, HALO, s->z0};
    int hi[3] = {HALO + s->b->count[0], HALO + s->b->count[1], s->z1};
    return sweep_box(s->u, s->unew, s->b, lo, hi);
}

static void interior_task(void *arg)
{
    const Sweep *s = arg;
    *s->diff = sweep_planes(s);
}

/* Waits for the ghost planes of u_t, posts the receives of u_{t+1}'s (into
 * the buffers just emptied), sweeps, and sends the new boundary planes at
 * once; the previous send from a buffer is complete before it is packed. */
static void boundary_task(void *arg)
{
    const Boundary *t = arg;
    for (int i = 0; i < t->nface; i++) {
        Face *f = t->face[i];
        MPI_Wait(&f->rreq, MPI_STATUS_IGNORE);
        unpack_face(t->ucur, t->s.b, f->d, f->recvbuf);
        /* The face from the peer travels in the opposite direction. */
        if (t->more)
            MPI_Irecv(f->recvbuf, f->count, MPI_DOUBLE, f->peer, f->d ^ 1,
                      MPI_COMM_WORLD, &f->rreq);
    }
    *t->s.diff = sweep_planes(&t->s);
    if (!t->more)
        return;
    for (int i = 0; i < t->nface; i++) {
        Face *f = t->face[i];
        MPI_Wait(&f->sreq, MPI_STATUS_IGNORE);
        pack_face(t->s.unew, t->s.b, f->d, f->sendbuf);
        MPI_Isend(f->sendbuf, f->count, MPI_DOUBLE, f->peer, f->d,
                  MPI_COMM_WORLD, &f->sreq);
    }
}

/*
 * The whole program (each NAME_hybrid.c's main()): MPI_Init, the arguments
 * (DIMS must be 1), the slabs, the tasks' state, the timed loop, the report
 * (with a line "tasks V") and MPI_Finalize.  Returns main()'s exit status.
 */
static int hybrid_main(int argc, char **argv)
{
    Problem pb;

    MPI_Init(&argc, &argv);
    if (!setup_problem(argc, argv, 1, &pb)) {
        MPI_Finalize();
        return 1;
    }
    const int iterations = pb.iterations;
    const Block blk = pb.blk;
    const int *nbr = pb.nbr;

    double *u = new_grid(&blk);
    double *unew = new_grid(&blk);

    /* The remote faces; the planes of the boundary tasks and the interior. */
    int ntasks = tucana_num_tasks() > 0 ? tucana_num_tasks() : 1;
    Face face[2];
    int nface = 0;
    for (int d = DOWN; d <= UP; d++) {
        if (nbr[d] == MPI_PROC_NULL)
            continue;
        Face *f = &face[nface++];
        f->d = d;
        f->peer = nbr[d];
        f->count = face_count(&blk, d);
        f->sendbuf = xmalloc((size_t)f->count * sizeof(double));
        f->recvbuf = xmalloc((size_t)f->count * sizeof(double));
        f->rreq = MPI_REQUEST_NULL;
        f->sreq = MPI_REQUEST_NULL;
    }
    const int cz = blk.count[2];
    const int low = nbr[DOWN] != MPI_PROC_NULL, high = nbr[UP] != MPI_PROC_NULL;
    const int thin = low && high && cz < 2 * HALO; /* one boundary task */
    const int zlo = thin ? HALO : HALO + (low ? HALO : 0);
    const int zhi = thin ? HALO : HALO + cz - (high ? HALO : 0);
    double *diffs = xmalloc((size_t)(ntasks + 2) * sizeof(double));
    double local_diff = 0.0;

    tucana_task_attr battr = TUCANA_TASK_ATTR_INIT;
    battr.boundary = 1;
    battr.name = PROGRAM_NAME " boundary";
    tucana_task_attr iattr = TUCANA_TASK_ATTR_INIT;
    iattr.boundary = -1;
    iattr.name = PROGRAM_NAME " interior";

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    /* The faces of u_0; step t's boundary tasks exchange those of u_t+1. */
    for (int i = 0; i < nface; i++) {
        Face *f = &face[i];
        MPI_Irecv(f->recvbuf, f->count, MPI_DOUBLE, f->peer, f->d ^ 1,
                  MPI_COMM_WORLD, &f->rreq);
        pack_face(u, &blk, f->d, f->sendbuf);
        MPI_Isend(f->sendbuf, f->count, MPI_DOUBLE, f->peer, f->d,
                  MPI_COMM_WORLD, &f->sreq);
    }

    for (int it = 0; it < iterations; it++) {
        int ndiff = 0, more = it + 1 < iterations;
        if (thin) {
            Boundary t = {{u, unew, &blk, HALO, HALO + cz, &diffs[ndiff++]},
                          {&face[0], &face[1]}, 2, u, more};
            tucana_task_spawn(boundary_task, &t, sizeof t, &battr);
        } else {
            int k = 0;
            if (low) {
                Boundary t = {{u, unew, &blk, HALO, 2 * HALO, &diffs[ndiff++]},
                              {&face[k++], NULL}, 1, u, more};
                tucana_task_spawn(boundary_task, &t, sizeof t, &battr);
            }
            if (high) {
                Boundary t = {{u, unew, &blk, cz, HALO + cz, &diffs[ndiff++]},
                              {&face[k++], NULL}, 1, u, more};
                tucana_task_spawn(boundary_task, &t, sizeof t, &battr);
            }
            for (int i = 0; i < ntasks; i++) {
                int first, count;
                block_range(zhi - zlo, ntasks, i, &first, &count);
                if (count == 0)
                    continue;
                Sweep s = {u, unew, &blk, zlo + first, zlo + first + count,
                           &diffs[ndiff++]};
                tucana_task_spawn(interior_task, &s, sizeof s, &iattr);
            }
        }
        tucana_taskwait();
        local_diff = 0.0;
        for (int i = 0; i < ndiff; i++)
            local_diff = diffs[i] > local_diff ? diffs[i] : local_diff;
        double *tmp = u;
        u = unew;
        unew = tmp;
    }
    for (int i = 0; i < nface; i++)
        MPI_Wait(&face[i].sreq, MPI_STATUS_IGNORE);

    double elapsed = MPI_Wtime() - t0;
    char tasks_line[32];
    snprintf(tasks_line, sizeof tasks_line, "tasks %d", ntasks);
    int ok = report_results(&pb, u, local_diff, elapsed, tasks_line);

    for (int i = 0; i < nface; i++) {
        free(face[i].sendbuf);
        free(face[i].recvbuf);
    }
    free(diffs);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif /* BENCH_BLOCK3D_HYBRID_H */
