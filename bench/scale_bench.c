/* scale_bench.c: what many ranks cost, for bench/run_scale.sh. Plain MPI,
 * built with tucanacc (scale_bench.tucana), so that it runs any number of
 * virtual ranks under tucana-run.
 *
 * usage: scale_bench MODE [ARGS]
 *   empty              MPI_Init, MPI_Barrier, MPI_Finalize; then each
 *                      process's memory (see below)
 *   ring ROUNDS        in each process, a token goes round the ranks of
 *                      that process in rank order ROUNDS times (every hop a
 *                      blocking send and receive, so every hop switches
 *                      subranks; no hop leaves the process, so the other
 *                      processes' scheduling does not count); prints the
 *                      median time per hop of 3 timed runs of ROUNDS rounds
 *   pingpong BYTES ITERS
 *                      ITERS round trips of BYTES between rank 0 and the
 *                      last rank (another process when there are several:
 *                      the transport's path), the others waiting in a
 *                      barrier; prints the median of 5 timed runs after a
 *                      warm-up run
 *
 * Every mode ends with each process's memory (VmRSS and VmHWM of
 * /proc/self/status: under Tucana the subranks of a process share it),
 * printed by the first rank of each process (the one whose left neighbour
 * has another process id), one line per process:
 *   memory pid=1234 ranks=512 vmrss_kb=40000 vmhwm_kb=41000
 * and rank 0 the figure of its mode:
 *   ring ranks=1024 hop_ns=850.0
 *   pingpong ranks=1024 bytes=8 latency_us=3.210 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The value in kB of a "Key:   123 kB" line of /proc/self/status, or -1. */
static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            kb = strtol(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

/* One line per process: the lowest rank of each process prints it. */
static void report_memory(int rank, int size)
{
    long pid = (long)getpid(), left = -1, ranks_here = 0;
    long *pids = NULL;
    if (rank == 0)
        pids = malloc(sizeof(long) * (size_t)size);
    MPI_Gather(&pid, 1, MPI_LONG, pids, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        /* How many ranks each process holds, told to each process's first rank. */
        for (int r = 0; r < size; ++r) {
            if (r > 0 && pids[r] == pids[r - 1])
                continue;
            int count = 1;
            while (r + count < size && pids[r + count] == pids[r])
                ++count;
            if (r == 0)
                ranks_here = count;
            else
                MPI_Send(&count, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
        }
        free(pids);
    }
    /* Am I the first rank of my process? Ask the rank before me. */
    MPI_Sendrecv(&pid, 1, MPI_LONG, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 98, &left, 1, MPI_LONG,
                 rank > 0 ? rank - 1 : MPI_PROC_NULL, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank is up and has touched its stack */
    if (rank == 0 || left != pid) {
        if (rank != 0) {
            int count = 0;
            MPI_Recv(&count, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ranks_here = count;
        }
        printf("memory pid=%ld ranks=%ld vmrss_kb=%ld vmhwm_kb=%ld\n", pid, ranks_here, status_kb("VmRSS"),
               status_kb("VmHWM"));
        fflush(stdout);
    }
}

/* One ring per process (the ranks with this process id), in rank order. */
static double ring(MPI_Comm local, long rounds)
{
    int rank, size, token = 0;
    MPI_Comm_rank(local, &rank);
    MPI_Comm_size(local, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < rounds; ++i) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, next, 5, local);
            MPI_Recv(&token, 1, MPI_INT, prev, 5, local, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, 5, local, MPI_STATUS_IGNORE);
            ++token;
            MPI_Send(&token, 1, MPI_INT, next, 5, local);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && token != (int)(rounds * (size - 1))) {
        fprintf(stderr, "scale_bench: ring: token %d, expected %ld\n", token, rounds * (size - 1));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return t / ((double)rounds * size) * 1e9;
}

/* ITERS round trips between rank 0 and the last rank; the seconds per
 * half round trip, in microseconds. */
static double round_trips(int rank, int last, char *buf, int bytes, long iters)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) {
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, last, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, last, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (double)iters / 2.0 * 1e6;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "empty";
    if (strcmp(mode, "ring") == 0) {
        long rounds = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
        double t[3];
        MPI_Comm local;
        MPI_Comm_split(MPI_COMM_WORLD, (int)(getpid() % 1000000007), rank, &local);
        ring(local, rounds > 1 ? rounds / 2 : 1); /* warm-up */
        for (int i = 0; i < 3; ++i)
            t[i] = ring(local, rounds);
        MPI_Comm_free(&local);
        if (rank == 0)
            printf("ring ranks=%d hop_ns=%.1f\n", size, median(t, 3));
    } else if (strcmp(mode, "pingpong") == 0 && size >= 2) {
        int bytes = argc > 2 ? atoi(argv[2]) : 8;
        long iters = argc > 3 ? strtol(argv[3], NULL, 10) : 1000;
        char *buf = calloc((size_t)(bytes > 0 ? bytes : 1), 1);
        double t[5];
        const int last = size - 1;
        MPI_Barrier(MPI_COMM_WORLD);
        /* The other ranks go on to the barrier in report_memory and wait
         * there: their barrier's messages are done during the warm-up (as
         * long as the timed runs), not during the timed runs. */
        if (rank == 0 || rank == last) {
            round_trips(rank, last, buf, bytes, iters); /* warm-up */
            for (int i = 0; i < 5; ++i)
                t[i] = round_trips(rank, last, buf, bytes, iters);
        }
        if (rank == 0)
            printf("pingpong ranks=%d bytes=%d latency_us=%.3f\n", size, bytes, median(t, 5));
        free(buf);
    } else if (strcmp(mode, "empty") != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: scale_bench empty | ring ROUNDS | pingpong BYTES ITERS (at least 2 ranks)\n");
        MPI_Finalize();
        return 1;
    }
    report_memory(rank, size);
    MPI_Finalize();
    return 0;
}
