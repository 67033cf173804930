/* tucana-advise-calibrate: measures the alpha (latency, s) and beta (s per
 * byte) of the model tucana-advise report uses, on the machine and network
 * it runs on, and checks the model against MPI_Alltoall.
 *
 *   mpirun -np 2 tucana-advise-calibrate [-o FILE] [--quick]
 *
 * Ranks 0 and 1 ping-pong messages of 0 B to 4 MiB; the one-way time of a
 * size is half the median round trip of its repetitions, and alpha and beta
 * are the least-squares line through (size, time), weighted by 1/time^2. Then every rank times
 * MPI_Alltoall with a few block sizes; the JSON (on stdout, or FILE) lists
 * the measured median next to the model's value (docs/advise.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime's alltoall switch (kSmallAlltoallBlock): the short-message
 * formula of the model holds up to it. */
#define TMPI_THRESHOLD(NAME, BYTES, WHAT) enum { k##NAME = BYTES };
#include <tucana/tmpi_collective_thresholds.def>
#undef TMPI_THRESHOLD

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The model of docs/advise.md, for MPI_Alltoall with `block` bytes per pair. */
static double alltoall_model(double alpha, double beta, int p, double block, double short_max)
{
    double n = block * p, logp = 0;
    for (int q = 1; q < p; q *= 2) logp += 1;
    if (block <= short_max) return logp * alpha + n / 2 * logp * beta;
    return (p - 1) * alpha + n * beta;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *out = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else {
            if (rank == 0) fprintf(stderr, "tucana-advise-calibrate: error: unknown argument '%s'\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (size < 2) {
        fprintf(stderr, "tucana-advise-calibrate: error: needs at least 2 ranks (mpirun -np 2)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int max_bytes = 4 << 20;
    char *buf = malloc((size_t)max_bytes);
    memset(buf, 1, (size_t)max_bytes);
    enum { kSizes = 12 };
    int sizes[kSizes] = {0, 8, 64, 512, 4096, 16384, 65536, 262144, 524288, 1048576, 2097152, 4194304};
    double times[kSizes];
    int reps_max = quick ? 20 : 100;
    double *t = malloc(sizeof(double) * (size_t)reps_max);
    for (int s = 0; s < kSizes; s++) {
        int reps = sizes[s] >= (1 << 20) ? reps_max / 5 : reps_max;
        for (int r = -2; r < reps; r++) { /* two warm-up rounds */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, sizes[s], MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, sizes[s], MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, sizes[s], MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, sizes[s], MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
            if (r >= 0) t[r] = (MPI_Wtime() - t0) / 2;
        }
        times[s] = median(t, reps);
    }
    /* Least squares: time = alpha + beta * bytes, each size weighted by
     * 1/time^2 (relative errors), or the large sizes alone would fix alpha. */
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int s = 0; s < kSizes; s++) {
        double w = 1 / ((times[s] + 1e-9) * (times[s] + 1e-9)), x = sizes[s], y = times[s];
        sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y;
    }
    double beta = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
    double alpha = (sy - beta * sx) / sw;
    if (alpha <= 0) alpha = times[0] > 0 ? times[0] : 1e-9;
    if (beta <= 0) beta = 1e-12;

    enum { kBlocks = 4 };
    int blocks[kBlocks] = {64, 1024, 16384, 131072};
    double a2a[kBlocks];
    int a2a_reps = quick ? 5 : 20;
    char *sbuf = malloc((size_t)blocks[kBlocks - 1] * size);
    char *rbuf = malloc((size_t)blocks[kBlocks - 1] * size);
    memset(sbuf, 2, (size_t)blocks[kBlocks - 1] * size);
    for (int b = 0; b < kBlocks; b++) {
        for (int r = -1; r < a2a_reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            MPI_Alltoall(sbuf, blocks[b], MPI_BYTE, rbuf, blocks[b], MPI_BYTE, MPI_COMM_WORLD);
            double dt = MPI_Wtime() - t0, slowest;
            MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (r >= 0) t[r] = slowest;
        }
        a2a[b] = median(t, a2a_reps);
    }

    if (rank == 0) {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (f == NULL) {
            fprintf(stderr, "tucana-advise-calibrate: error: cannot write %s\n", out);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        char host[MPI_MAX_PROCESSOR_NAME];
        int len;
        MPI_Get_processor_name(host, &len);
        fprintf(f, "{\"format\":\"tucana-advise-calibration-1\",\"host\":\"%s\",\"ranks\":%d,"
                   "\"alpha_s\":%.6g,\"beta_s_per_byte\":%.6g,\"alltoall_short_max_bytes\":%d,\n"
                   "\"pingpong\":[",
                host, size, alpha, beta, (int)kSmallAlltoallBlock);
        for (int s = 0; s < kSizes; s++)
            fprintf(f, "%s{\"bytes\":%d,\"one_way_s\":%.6g,\"model_s\":%.6g}", s ? "," : "", sizes[s],
                    times[s], alpha + beta * sizes[s]);
        fprintf(f, "],\n\"alltoall\":[");
        for (int b = 0; b < kBlocks; b++)
            fprintf(f, "%s{\"block_bytes\":%d,\"measured_s\":%.6g,\"model_s\":%.6g}", b ? "," : "",
                    blocks[b], a2a[b], alltoall_model(alpha, beta, size, blocks[b], 256));
        fprintf(f, "]}\n");
        if (out) fclose(f);
    }
    free(buf); free(t); free(sbuf); free(rbuf);
    MPI_Finalize();
    return 0;
}
