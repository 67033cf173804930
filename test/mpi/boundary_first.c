/* boundary_first.c -- boundary subranks first (tucana-run --boundary,
 * docs/runtime.md "Boundary subranks first"): a subrank that has exchanged
 * a point-to-point message with another process is a boundary subrank, and
 * among ready subranks of equal priority the worker runs those first
 * (first, the default), in wake-up order (off) or last (center).
 *
 * The subranks 0..n-2 of a process wait in a superblock (region "go"
 * receives a release from node rank n-1, region "work" depends on it and
 * logs the order in which the waiters run). Before that, node rank 1
 * exchanges a message with its counterpart in the other process (world
 * rank +- n), so it is the only boundary waiter. The releaser wakes the
 * waiters in node rank order. The order is checked with one worker per
 * process and two processes of equal size (TUCANA_WORKERS, the layout),
 * and not under seeded schedules or the fifo policy. Tucana only. */
#define TESTNAME "boundary_first"
#include "mpitest.h"

#include <tucana/superblock.h>

enum { TAG_HERE = 100, TAG_GO = 101, TAG_WARM = 102 };

typedef struct {
    int n;
    int entries[256];
} order_log;

static const tucana_dependency deps_on_go[] = {{0, 0}};
static const tucana_region_desc regions[] = {
    {"go", TUCANA_REGION_RECEIVE, 0, NULL},
    {"work", TUCANA_REGION_COMPUTE, 1, deps_on_go},
};
static const tucana_superblock_desc desc = {"boundary_first.c", 2, regions};

static int env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, value) == 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, nrank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &n);
    int two_processes = size == 2 * n;

    /* The shared log of this process. */
    order_log *log = NULL;
    if (nrank == 0) {
        log = xmalloc(sizeof *log);
        memset(log, 0, sizeof *log);
    }
    MPI_Aint where = (MPI_Aint)log;
    MPI_Bcast(&where, 1, MPI_AINT, 0, node);
    log = (order_log *)where;

    /* Node rank 1 talks to the other process: it becomes a boundary subrank. */
    if (two_processes && nrank == 1) {
        int partner = (rank + n) % size, out = rank, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, partner, TAG_WARM, &in, 1, MPI_INT, partner, TAG_WARM, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(partner, in, "the partner's rank");
    }
    MPI_Barrier(node);

    int releaser = n - 1;
    if (n >= 3 && nrank != releaser) {
        static const int here = 1;
        int token = 0;
        tucana_superblock *sb = tucana_sb_begin(&desc);
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0:
                tucana_sb_recv(&token, 1, MPI_INT, releaser, TAG_GO, node, MPI_STATUS_IGNORE);
                tucana_sb_send(&here, 1, MPI_INT, releaser, TAG_HERE, node);
                tucana_sb_ran(sb, 0);
                break;
            case 1:
                CHECK(7, token, "the release is there");
                log->entries[__atomic_fetch_add(&log->n, 1, __ATOMIC_SEQ_CST)] = nrank;
                tucana_sb_ran(sb, 1);
                break;
            }
        }
        tucana_sb_end(sb);
    } else if (n >= 3) {
        int h, go = 7;
        for (int i = 0; i < n - 1; ++i)
            MPI_Recv(&h, 1, MPI_INT, MPI_ANY_SOURCE, TAG_HERE, node, MPI_STATUS_IGNORE);
        for (int i = 0; i < n - 1; ++i)
            MPI_Send(&go, 1, MPI_INT, i, TAG_GO, node);
    }
    MPI_Barrier(node);

    const char *seed = getenv("TUCANA_SCHED_SEED");
    int ordered = n >= 3 && two_processes && env_is("TUCANA_WORKERS", "1") && !(seed && *seed) &&
                  !env_is("TUCANA_POLICY", "fifo");
    if (nrank == 0 && n >= 3) {
        CHECK(n - 1, log->n, "every waiter ran once");
        if (ordered) {
            /* The expected order: wake-up order 0..n-2, with node rank 1
             * moved to the front (first), left alone (off) or moved to the
             * back (center). */
            int expect[256], k = 0;
            int center = env_is("TUCANA_BOUNDARY", "center"), off = env_is("TUCANA_BOUNDARY", "off");
            if (!center && !off) expect[k++] = 1;
            for (int i = 0; i < n - 1; ++i)
                if (i != 1 || off) expect[k++] = i;
            if (center) expect[k++] = 1;
            for (int i = 0; i < n - 1; ++i)
                CHECK(expect[i], log->entries[i], "run %d (TUCANA_BOUNDARY=%s)", i,
                      getenv("TUCANA_BOUNDARY") ? getenv("TUCANA_BOUNDARY") : "first");
        }
    }
    MPI_Barrier(node);
    if (nrank == 0) free(log);
    MPI_Comm_free(&node);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
