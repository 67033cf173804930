/*
 * p2p_sizes -- message sizes from zero bytes to 64 MiB.
 *
 *  1. Zero-length messages: count 0 with a valid buffer and with a NULL
 *     buffer, for MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv, MPI_Ssend,
 *     MPI_Sendrecv, MPI_ANY_SOURCE receives and MPI_Probe.  The receive
 *     buffer is not modified, MPI_Get_count is 0 and source/tag are right.
 *  2. A zero-length message received into a non-empty buffer (count 0 is
 *     smaller than the buffer: allowed).
 *  3. Ring shift with sizes around typical protocol switch points
 *     (1 B ... 1 MiB + 1), content checked byte by byte.
 *  4. One large ring shift (default 64 MiB; override with argv[1] in bytes
 *     or -DLARGE_BYTES=...): every rank sends to rank+1 and receives from
 *     rank-1 with MPI_Irecv/MPI_Isend/MPI_Waitall; a 64-bit word pattern
 *     that depends on the sender and the offset is verified.
 *
 * Memory: 2 x LARGE_BYTES per rank.  Works for any world size >= 1.
 * Prints "OK p2p_sizes" on rank 0.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_sizes"

#ifndef LARGE_BYTES
#define LARGE_BYTES (64L * 1024 * 1024)
#endif

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

static void check_status(const MPI_Status *st, int src, int tag, int count,
                         MPI_Datatype t, const char *what)
{
    int c = -1;
    CHECK(src, st->MPI_SOURCE, "%s: status source", what);
    CHECK(tag, st->MPI_TAG, "%s: status tag", what);
    MPI_Get_count(st, t, &c);
    CHECK(count, c, "%s: MPI_Get_count", what);
}

static void part_zero(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int sbuf[4] = {1, 2, 3, 4}, rbuf[4];
    MPI_Request req[4];
    MPI_Status st[4];

    /* Irecv (valid buffer / NULL buffer) + blocking Send (valid / NULL) */
    rbuf[0] = -1;
    MPI_Irecv(rbuf, 0, MPI_INT, left, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(NULL, 0, MPI_INT, left, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Send(sbuf, 0, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Send(NULL, 0, MPI_INT, right, 2, MPI_COMM_WORLD);
    MPI_Waitall(2, req, st);
    check_status(&st[0], left, 1, 0, MPI_INT, "zero: Send(buf)/Irecv(buf)");
    check_status(&st[1], left, 2, 0, MPI_INT, "zero: Send(NULL)/Irecv(NULL)");
    CHECK(-1, rbuf[0], "zero-length receive modified the buffer");

    /* Isend + blocking Recv, NULL and non-NULL mixed across sides */
    MPI_Isend(NULL, 0, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sbuf, 0, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &req[1]);
    MPI_Recv(rbuf, 0, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st[0]);
    check_status(&st[0], left, 3, 0, MPI_DOUBLE, "zero: Isend(NULL)/Recv(buf)");
    MPI_Recv(NULL, 0, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &st[1]);
    check_status(&st[1], left, 4, 0, MPI_DOUBLE, "zero: Isend(buf)/Recv(NULL)");
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

    /* zero-length into a larger buffer */
    rbuf[0] = rbuf[1] = rbuf[2] = rbuf[3] = -1;
    MPI_Isend(NULL, 0, MPI_INT, right, 5, MPI_COMM_WORLD, &req[0]);
    MPI_Recv(rbuf, 4, MPI_INT, left, 5, MPI_COMM_WORLD, &st[0]);
    check_status(&st[0], left, 5, 0, MPI_INT, "zero: into 4-int buffer");
    for (int i = 0; i < 4; i++)
        CHECK(-1, rbuf[i], "zero-length receive modified element %d", i);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);

    /* Ssend of zero length */
    MPI_Irecv(NULL, 0, MPI_INT, left, 6, MPI_COMM_WORLD, &req[0]);
    MPI_Ssend(NULL, 0, MPI_INT, right, 6, MPI_COMM_WORLD);
    MPI_Wait(&req[0], &st[0]);
    check_status(&st[0], left, 6, 0, MPI_INT, "zero: Ssend");

    /* Sendrecv of zero length (and with NULL buffers) */
    MPI_Sendrecv(NULL, 0, MPI_INT, right, 7, NULL, 0, MPI_INT, left, 7,
                 MPI_COMM_WORLD, &st[0]);
    check_status(&st[0], left, 7, 0, MPI_INT, "zero: Sendrecv");

    /* Probe + ANY_SOURCE receive of zero length */
    MPI_Isend(NULL, 0, MPI_CHAR, right, 8, MPI_COMM_WORLD, &req[0]);
    MPI_Probe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &st[0]);
    check_status(&st[0], left, 8, 0, MPI_CHAR, "zero: Probe");
    MPI_Recv(NULL, 0, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
             &st[1]);
    check_status(&st[1], left, 8, 0, MPI_CHAR, "zero: ANY_SOURCE/ANY_TAG recv");
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
}

static unsigned char byte_pat(int src, size_t i)
{
    return (unsigned char)(src * 29 + i * 7 + (i >> 11) * 3 + 1);
}

static void part_sizes(int rank, int size)
{
    static const long sizes[] = {1, 2, 3, 7, 8, 63, 64, 65, 255, 256, 1023, 1024,
                                 4095, 4096, 4097, 8191, 8192, 12289, 16384,
                                 65535, 65536, 65537, 262144, 1048576, 1048577};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    unsigned char *sb = xmalloc(1048577), *rb = xmalloc(1048577 + 64);

    for (int k = 0; k < nsizes; k++) {
        size_t n = (size_t)sizes[k];
        MPI_Request req[2];
        MPI_Status st[2];
        for (size_t i = 0; i < n; i++)
            sb[i] = byte_pat(rank, i + (size_t)k);
        memset(rb, 0xee, n + 64);
        MPI_Irecv(rb, (int)n + 64, MPI_BYTE, left, 100 + k, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(sb, (int)n, MPI_BYTE, right, 100 + k, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, st);
        check_status(&st[0], left, 100 + k, (int)n, MPI_BYTE, "size ladder");
        for (size_t i = 0; i < n; i++)
            if (rb[i] != byte_pat(left, i + (size_t)k))
                CHECK(byte_pat(left, i + (size_t)k), rb[i],
                      "size %ld: byte %zu", sizes[k], i);
        for (size_t i = n; i < n + 64; i++)
            CHECK(0xee, rb[i], "size %ld: byte %zu past the message modified",
                  sizes[k], i);
    }
    free(sb);
    free(rb);
}

static uint64_t word_pat(int src, size_t i)
{
    return ((uint64_t)(src + 1) << 52) ^ ((uint64_t)i * UINT64_C(0x9E3779B97F4A7C15));
}

static void part_large(int rank, int size, long bytes)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    size_t nwords = (size_t)bytes / 8;
    uint64_t *sb = xmalloc((size_t)bytes), *rb = xmalloc((size_t)bytes);
    MPI_Request req[2];
    MPI_Status st[2];
    int count = -1;

    for (size_t i = 0; i < nwords; i++)
        sb[i] = word_pat(rank, i);
    memset(rb, 0, (size_t)bytes);
    MPI_Irecv(rb, (int)nwords, MPI_UINT64_T, left, 200, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sb, (int)nwords, MPI_UINT64_T, right, 200, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, st);
    MPI_Get_count(&st[0], MPI_UINT64_T, &count);
    CHECK((long long)nwords, count, "large: count");
    CHECK(left, st[0].MPI_SOURCE, "large: source");
    for (size_t i = 0; i < nwords; i++)
        if (rb[i] != word_pat(left, i))
            CHECK((long long)word_pat(left, i), (long long)rb[i],
                  "large (%ld bytes): word %zu", bytes, i);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    int rank, size;
    long bytes = LARGE_BYTES;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        bytes = strtol(argv[1], NULL, 0);
    if (bytes < 8 || bytes / 8 > 2147483647L)
        CHECK(LARGE_BYTES, bytes, "large message size argument out of range");
    bytes -= bytes % 8;

    part_zero(rank, size);
    part_sizes(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part_large(rank, size, bytes);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
