/* heat1d_tasks, annotated: heat1d_tasks.c's problem, each step split into
 * tasks (docs/tasks.md, the worked example). The two face tasks wait for
 * their ghost cell, update the cells next to it and send the new edge value
 * at once (non-blocking: the neighbour receives it in its next step, into
 * the other array's ghost cell); a taskloop updates the interior meanwhile.
 * A plain compiler ignores the pragmas and runs the same steps in order,
 * with the same results; tucanacc turns them into tasks, and
 * `tucana-run -np P --tasks V` runs V interior tasks per rank.
 *
 * usage: heat1d_tasks [CELLS_PER_RANK [STEPS]]   (defaults 65536 and 200)
 * Prints the checksum of the final field, compares it on rank 0 with a
 * serial run of the whole problem, and ends with "heat1d_tasks: OK". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R 0.25 /* dt / dx^2 */
#define TAG 7

/* The face requests, by index (at file scope: a task's outlined function
 * names them). */
enum { RECV_L, RECV_R, SEND_L, SEND_R };

static void update(const double *u, double *v, long lo, long hi)
{
    for (long i = lo; i <= hi; ++i)
        v[i] = u[i] + R * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

static double initial(long global)
{
    return (double)((global * 7919) % 1000) / 1000.0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 65536;
    int steps = argc > 2 ? atoi(argv[2]) : 200;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *u = calloc((size_t)n + 2, sizeof(double));
    double *v = calloc((size_t)n + 2, sizeof(double));
    for (long i = 1; i <= n; ++i)
        u[i] = initial(rank * n + i - 1);

    /* Each face task updates FACE cells; the interior is the rest. */
    long face = n / 16 > 0 ? n / 16 : 1;
    if (2 * face > n) face = n / 2;
    /* reqs: receives and sends of the left and right faces. Shared with
     * the tasks (a task gets copies of the locals it uses, so the requests
     * are named in shared(...): the tasks update the parent's). */
    MPI_Request reqs[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &reqs[RECV_L]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &reqs[RECV_R]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &reqs[SEND_L]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &reqs[SEND_R]);

    double t0 = MPI_Wtime();
    for (int step = 0; step < steps; ++step) {
#pragma tucana task boundary name("left face") shared(reqs)
        {
            MPI_Wait(&reqs[RECV_L], MPI_STATUS_IGNORE); /* u[0] has arrived */
            MPI_Wait(&reqs[SEND_L], MPI_STATUS_IGNORE); /* v[1] went out two steps ago */
            update(u, v, 1, face);
            MPI_Isend(&v[1], 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &reqs[SEND_L]);
            MPI_Irecv(&v[0], 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &reqs[RECV_L]);
        }
#pragma tucana task boundary name("right face") shared(reqs)
        {
            MPI_Wait(&reqs[RECV_R], MPI_STATUS_IGNORE);
            MPI_Wait(&reqs[SEND_R], MPI_STATUS_IGNORE);
            update(u, v, n - face + 1, n);
            MPI_Isend(&v[n], 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &reqs[SEND_R]);
            MPI_Irecv(&v[n + 1], 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &reqs[RECV_R]);
        }
#pragma tucana taskloop
        for (long i = face + 1; i <= n - face; ++i)
            v[i] = u[i] + R * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma tucana taskwait
        double *t = u;
        u = v;
        v = t;
    }
    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    double elapsed = MPI_Wtime() - t0;

    /* Rank 0 gathers the field and checks it against a serial run. */
    double *all = rank == 0 ? malloc(sizeof(double) * (size_t)(n * size)) : NULL;
    MPI_Gather(&u[1], (int)n, MPI_DOUBLE, all, (int)n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int ok = 1;
    if (rank == 0) {
        long total = n * size;
        double *a = calloc((size_t)total + 2, sizeof(double));
        double *b = calloc((size_t)total + 2, sizeof(double));
        for (long i = 1; i <= total; ++i)
            a[i] = initial(i - 1);
        for (int step = 0; step < steps; ++step) {
            update(a, b, 1, total);
            double *t = a;
            a = b;
            b = t;
        }
        double sum = 0;
        for (long i = 0; i < total; ++i) {
            sum += all[i] * (double)(i % 13 + 1);
            if (all[i] != a[i + 1])
                ok = 0;
        }
        printf("heat1d_tasks: %d ranks x %ld cells, %d steps: checksum %.12e, serial run %s\n", size, n, steps,
               sum, ok ? "identical" : "DIFFERENT");
        printf("heat1d_tasks: time %.4f s\n", elapsed);
        printf(ok ? "heat1d_tasks: OK\n" : "heat1d_tasks: FAILED\n");
        free(a);
        free(b);
        free(all);
    }
    free(u);
    free(v);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return ok ? 0 : 1;
}
