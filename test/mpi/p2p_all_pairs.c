/*
 * p2p_all_pairs -- every rank talks to every rank, itself included.
 *
 * In a virtualized runtime this covers every kind of path: a subrank to
 * itself, to a sibling (same worker thread), to a cousin (same process,
 * other worker) and to a subrank in another process.
 *
 *  1. For shifts d = 0..size-1 (d = 0 is the rank itself): MPI_Sendrecv
 *     with (rank+d) / (rank-d) for message sizes 8 B, 4 KiB and 1 MiB.
 *  2. All pairs at once: MPI_Irecv from every rank, MPI_Isend to every
 *     rank, one MPI_Waitall, for the same three sizes.
 *  3. MPI_COMM_SELF: MPI_Isend/MPI_Recv and MPI_Sendrecv to rank 0 of
 *     MPI_COMM_SELF; MPI_ANY_SOURCE on MPI_COMM_SELF reports source 0.
 *  4. Communicator isolation: a message to oneself on MPI_COMM_WORLD and
 *     one on MPI_COMM_SELF with the same tag are each received only on
 *     their own communicator, even with MPI_ANY_SOURCE / MPI_ANY_TAG.
 *
 * Works for any world size >= 1.  Prints "OK p2p_all_pairs" on rank 0.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_all_pairs"

static void fail(long long expected, long long got, const char *ctx, int line)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: expected %lld got %lld (%s; %s:%d)\n",
            TESTNAME, rank, expected, got, ctx, __FILE__, line);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define CHECK(expected, got, ...)                                         \
    do {                                                                  \
        long long e_ = (long long)(expected), g_ = (long long)(got);      \
        if (e_ != g_) {                                                   \
            char c_[256];                                                 \
            snprintf(c_, sizeof c_, __VA_ARGS__);                         \
            fail(e_, g_, c_, __LINE__);                                   \
        }                                                                 \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        fail((long long)n, 0, "malloc failed", __LINE__);
    return p;
}

#define NSIZES 3
static const int sizes_bytes[NSIZES] = {8, 4096, 1 << 20};

static uint32_t pat(int src, int dst, int k, size_t i)
{
    return (uint32_t)src * 0x01000193u ^ (uint32_t)dst * 0x00010001u ^
           (uint32_t)k * 0x3u ^ (uint32_t)i * 0x9E3779B1u;
}

static void fill(uint32_t *b, size_t n, int src, int dst, int k)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pat(src, dst, k, i);
}

static void verify(const uint32_t *b, size_t n, int src, int dst, int k,
                   const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(src, dst, k, i))
            CHECK(pat(src, dst, k, i), b[i], "%s: %zu-word message from %d, word %zu",
                  what, n, src, i);
}

static void part_sendrecv(int rank, int size)
{
    for (int k = 0; k < NSIZES; k++) {
        size_t n = (size_t)sizes_bytes[k] / 4;
        uint32_t *sb = xmalloc(n * 4), *rb = xmalloc(n * 4);
        for (int d = 0; d < size; d++) {
            int dst = (rank + d) % size, src = (rank - d + size) % size;
            MPI_Status st;
            int count = -1;
            fill(sb, n, rank, dst, k);
            memset(rb, 0, n * 4);
            MPI_Sendrecv(sb, (int)n, MPI_UINT32_T, dst, 10 + k, rb, (int)n,
                         MPI_UINT32_T, src, 10 + k, MPI_COMM_WORLD, &st);
            CHECK(src, st.MPI_SOURCE, "Sendrecv shift %d: source", d);
            CHECK(10 + k, st.MPI_TAG, "Sendrecv shift %d: tag", d);
            MPI_Get_count(&st, MPI_UINT32_T, &count);
            CHECK((long long)n, count, "Sendrecv shift %d: count", d);
            verify(rb, n, src, rank, k, "Sendrecv");
        }
        free(sb);
        free(rb);
    }
}

static void part_all_at_once(int rank, int size)
{
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * 2 * size);
    MPI_Status *st = xmalloc(sizeof(MPI_Status) * 2 * size);

    for (int k = 0; k < NSIZES; k++) {
        size_t n = (size_t)sizes_bytes[k] / 4;
        uint32_t *sb = xmalloc(n * 4 * size), *rb = xmalloc(n * 4 * size);
        for (int s = 0; s < size; s++)
            MPI_Irecv(rb + n * s, (int)n, MPI_UINT32_T, s, 20 + k,
                      MPI_COMM_WORLD, &req[s]);
        for (int j = 0; j < size; j++) {
            int d = (rank + j) % size;
            fill(sb + n * d, n, rank, d, k);
            MPI_Isend(sb + n * d, (int)n, MPI_UINT32_T, d, 20 + k,
                      MPI_COMM_WORLD, &req[size + d]);
        }
        MPI_Waitall(2 * size, req, st);
        for (int s = 0; s < size; s++) {
            int count = -1;
            CHECK(s, st[s].MPI_SOURCE, "all-at-once: source");
            MPI_Get_count(&st[s], MPI_UINT32_T, &count);
            CHECK((long long)n, count, "all-at-once: count from %d", s);
            verify(rb + n * s, n, s, rank, k, "all-at-once");
        }
        free(sb);
        free(rb);
    }
    free(req);
    free(st);
}

static void part_self(int rank)
{
    int srank = -1, ssize = -1;
    int a[4] = {rank, 1, 2, 3}, b[4] = {0, 0, 0, 0};
    MPI_Request req;
    MPI_Status st;

    MPI_Comm_rank(MPI_COMM_SELF, &srank);
    MPI_Comm_size(MPI_COMM_SELF, &ssize);
    CHECK(0, srank, "rank in MPI_COMM_SELF");
    CHECK(1, ssize, "size of MPI_COMM_SELF");

    MPI_Isend(a, 4, MPI_INT, 0, 5, MPI_COMM_SELF, &req);
    MPI_Recv(b, 4, MPI_INT, 0, 5, MPI_COMM_SELF, &st);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(0, st.MPI_SOURCE, "COMM_SELF recv: source");
    CHECK(rank, b[0], "COMM_SELF recv: payload");

    memset(b, 0, sizeof b);
    MPI_Sendrecv(a, 4, MPI_INT, 0, 6, b, 4, MPI_INT, MPI_ANY_SOURCE, 6,
                 MPI_COMM_SELF, &st);
    CHECK(0, st.MPI_SOURCE, "COMM_SELF Sendrecv ANY_SOURCE: source");
    CHECK(3, b[3], "COMM_SELF Sendrecv: payload");

    /* Isolation: same tag, same (world) process, different communicators.
     * Send on SELF first, then on WORLD; receive WORLD first with full
     * wildcards: it must get the WORLD message. */
    {
        int vs = 1000 + rank, vw = 2000 + rank, r1 = -1, r2 = -1;
        MPI_Request rq[2];
        MPI_Isend(&vs, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &rq[0]);
        MPI_Isend(&vw, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &rq[1]);
        MPI_Recv(&r1, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        CHECK(2000 + rank, r1, "WORLD wildcard receive got the wrong message");
        CHECK(rank, st.MPI_SOURCE, "WORLD self message: source");
        MPI_Recv(&r2, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &st);
        CHECK(1000 + rank, r2, "SELF wildcard receive got the wrong message");
        CHECK(0, st.MPI_SOURCE, "SELF message: source");
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    part_sendrecv(rank, size);
    part_all_at_once(rank, size);
    /* Nobody sends to us on MPI_COMM_WORLD any more once all ranks are past
     * this barrier: part_self relies on that for its wildcard receive. */
    MPI_Barrier(MPI_COMM_WORLD);
    part_self(rank);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
