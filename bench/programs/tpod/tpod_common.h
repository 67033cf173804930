/*
 * tpod_common.h -- what the variants of tpod (tpod.c, tpod_hybrid.c) share:
 * common/block3d.h (the grid, its decomposition, boxes and faces, and after
 * the timed loop the checksum, self-check and report, with a grind line) with
 * tpod's parameters, jacobi3d's 7-point stencil (common/jacobi7.h), tpod's
 * arguments (tpod_setup) and main()'s driver (tpod_main): the setup, the
 * timed loop of variant_step() calls and the report.  A variant defines the
 * four functions declared below, its state and its step.  The problem, the
 * output and the self-check are described in tpod.c's header comment.
 * Static functions, types and constants only: no global or static variable
 * (the subranks of a Tucana process would share it).
 */
#ifndef TPOD_COMMON_H
#define TPOD_COMMON_H

#define PROGRAM_NAME "tpod"
#define HALO 1 /* ghost layers on each side: the stencil's reach */
#define DEFAULT_SIZE 48
#define DEFAULT_ITERATIONS 20
#define REPORT_GRIND 1 /* report_results prints the grind time */

#include "../common/block3d.h"
#include "../common/jacobi7.h"

/* The problem of one run as this rank sees it, with the hybrid's options. */
typedef struct {
    Problem pb; /* the grid, the process grid (3D), this rank's subdomain */
    int bs[3];  /* BX BY BZ: the hybrid's block size (0: the subdomain's) */
    int seed;   /* SEED: the hybrid's shuffle seed (0: natural order) */
} TpodProblem;

/*
 * Reads [NX NY NZ [ITERATIONS [BX BY BZ [SEED]]]] (defaults DEFAULT_SIZE for
 * each axis, DEFAULT_ITERATIONS, blocks 0 0 0, seed 1; both variants take
 * them all) and makes the problem, split along all three axes.  Call after
 * MPI_Init.  Returns 1, or 0 after rank 0 printed the usage when the
 * arguments are invalid or no process grid gives every rank a point along
 * each axis (the same answer on every rank).
 */
static int tpod_setup(int argc, char **argv, TpodProblem *tp)
{
    int rank, size, iterations = DEFAULT_ITERATIONS, seed = 1;
    int n[3] = {DEFAULT_SIZE, DEFAULT_SIZE, DEFAULT_SIZE}, bs[3] = {0, 0, 0};

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    read_size_args(argc, argv, n, &iterations);
    if (argc > 7)
        for (int a = 0; a < 3; a++)
            bs[a] = atoi(argv[5 + a]);
    if (argc > 8)
        seed = atoi(argv[8]);
    int valid = (argc <= 5 || argc >= 8) && argc != 2 && argc != 3 &&
                argc <= 9 && iterations >= 1 && n[0] >= 1 && n[1] >= 1 &&
                n[2] >= 1 && bs[0] >= 0 && bs[1] >= 0 && bs[2] >= 0 &&
                seed >= 0;
    if (!valid || !make_problem(n, iterations, 3, &tp->pb)) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1 [BX BY BZ [SEED]]]]: "
                    "every one of the %d ranks must own %d point(s) along "
                    "each axis\n",
                    argv[0], size, HALO);
        return 0;
    }
    for (int a = 0; a < 3; a++)
        tp->bs[a] = bs[a];
    tp->seed = seed;
    return 1;
}

/* ------------------------------------------------ defined by each variant */

/* The variant's state across the time steps. */
typedef struct Variant Variant;

/* The state for tp's problem (collective; tp outlives the state); NULL on
 * every rank, after rank 0 printed why, when the variant cannot run it. */
static Variant *variant_new(const TpodProblem *tp);

/* One time step from u (u_t: its ghost layers are the variant's to fill) into
 * unew (u_{t+1}: every owned point is written); returns this rank's largest
 * change. */
static double variant_step(Variant *v, double *u, double *unew);

/* The report's line about the blocks (the second line of the output), into
 * line[0 .. size), without the newline. */
static void variant_describe(const Variant *v, char *line, size_t size);

static void variant_free(Variant *v);

/* ------------------------------------------------------------ the driver */

/*
 * The whole program, each variant's main(): MPI_Init, the arguments, the
 * grids, the variant's state, the timed loop (ITERATIONS steps after a
 * barrier), the report and MPI_Finalize.  Returns main()'s exit status: 0
 * when the self-check passed, 1 when it failed or the run was refused.
 */
static int tpod_main(int argc, char **argv)
{
    TpodProblem tp;

    MPI_Init(&argc, &argv);
    if (!tpod_setup(argc, argv, &tp)) {
        MPI_Finalize();
        return 1;
    }
    double *u = new_grid(&tp.pb.blk);
    double *unew = new_grid(&tp.pb.blk);
    Variant *v = variant_new(&tp);
    if (v == NULL) {
        free(u);
        free(unew);
        MPI_Finalize();
        return 1;
    }
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < tp.pb.iterations; it++) {
        local_diff = variant_step(v, u, unew);
        double *tmp = u;
        u = unew;
        unew = tmp;
    }

    double elapsed = MPI_Wtime() - t0;
    char blocks_line[200];
    variant_describe(v, blocks_line, sizeof blocks_line);
    int ok = report_results(&tp.pb, u, local_diff, elapsed, blocks_line);

    variant_free(v);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif /* TPOD_COMMON_H */
