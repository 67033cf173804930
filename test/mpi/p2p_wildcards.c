/*
 * p2p_wildcards -- MPI_ANY_SOURCE / MPI_ANY_TAG matching and status fields.
 *
 *  1. Every rank MPI_Isends K messages of varying tag and length to every
 *     rank (itself included); each rank receives them all with
 *     (MPI_ANY_SOURCE, MPI_ANY_TAG).  status.MPI_SOURCE, status.MPI_TAG and
 *     MPI_Get_count must describe the message actually received (checked
 *     against a header in the payload), every message must be received
 *     exactly once, and per-source order must be the send order.
 *  2. MPI_ANY_SOURCE with a specific tag: tag selection still applies
 *     (messages with another tag, sent first, are left alone).
 *  3. Specific source with MPI_ANY_TAG: messages arrive in send order with
 *     their own tags.
 *  4. The same with non-blocking MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) and
 *     MPI_Waitall statuses.
 *
 * Works for any world size >= 1.  Prints "OK p2p_wildcards" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_wildcards"

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

#define K 20            /* messages per ordered pair in part 1 */
#define MAXLEN 100      /* max ints per message */
#define HDR 4           /* header: src, tag, len, seq */

static int msg_tag(int src, int dst, int seq)
{
    return (seq * 7 + src * 3 + dst) % 32;
}

static int msg_len(int src, int dst, int seq)
{
    return HDR + (seq * 13 + src * 5 + dst * 11) % (MAXLEN - HDR + 1);
}

static void build(int *m, int src, int dst, int seq, int tag, int len)
{
    m[0] = src;
    m[1] = tag;
    m[2] = len;
    m[3] = seq;
    for (int j = HDR; j < len; j++)
        m[j] = src * 1000003 + seq * 1009 + j + dst;
}

/* Verify a received message against its status; return the source. */
static int verify(const int *m, const MPI_Status *st, int rank, int size,
                  const char *part)
{
    int count = -1;
    int src = st->MPI_SOURCE;
    if (src < 0 || src >= size)
        CHECK(0, src, "%s: status MPI_SOURCE out of range", part);
    CHECK(m[0], src, "%s: status MPI_SOURCE vs payload", part);
    CHECK(m[1], st->MPI_TAG, "%s: status MPI_TAG vs payload (from %d)", part, src);
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(m[2], count, "%s: MPI_Get_count vs payload (from %d)", part, src);
    for (int j = HDR; j < count; j++)
        CHECK(src * 1000003 + m[3] * 1009 + j + rank, m[j],
              "%s: element %d of message seq %d from %d", part, j, m[3], src);
    return src;
}

static void part1(int rank, int size)
{
    int *sbuf = xmalloc(sizeof(int) * MAXLEN * K * size);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * K * size);
    int *next = xmalloc(sizeof(int) * size);
    int *rbuf = xmalloc(sizeof(int) * (MAXLEN + 8));

    for (int s = 0; s < size; s++)
        next[s] = 0;
    for (int seq = 0; seq < K; seq++)
        for (int d = 0; d < size; d++) {
            int dst = (rank + d) % size;
            int k = seq * size + d;
            int tag = msg_tag(rank, dst, seq), len = msg_len(rank, dst, seq);
            build(sbuf + MAXLEN * k, rank, dst, seq, tag, len);
            MPI_Isend(sbuf + MAXLEN * k, len, MPI_INT, dst, tag, MPI_COMM_WORLD,
                      &req[k]);
        }
    for (int n = 0; n < K * size; n++) {
        MPI_Status st;
        st.MPI_SOURCE = -12345;
        st.MPI_TAG = -12345;
        /* receive buffer deliberately larger than any message */
        MPI_Recv(rbuf, MAXLEN + 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
        int src = verify(rbuf, &st, rank, size, "part 1");
        CHECK(next[src], rbuf[3], "part 1: per-source order, message from %d", src);
        CHECK(msg_tag(src, rank, rbuf[3]), st.MPI_TAG, "part 1: tag from %d", src);
        CHECK(msg_len(src, rank, rbuf[3]), rbuf[2], "part 1: len from %d", src);
        next[src]++;
    }
    for (int s = 0; s < size; s++)
        CHECK(K, next[s], "part 1: number of messages received from %d", s);
    MPI_Waitall(K * size, req, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(req);
    free(next);
    free(rbuf);
}

#define TAG_X 100
#define TAG_Y 200

static void part2(int rank, int size)
{
    int *sbuf = xmalloc(sizeof(int) * 2 * HDR * size);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * 2 * size);
    int *seen = xmalloc(sizeof(int) * size);
    int m[HDR + 4];

    /* To every rank: first a TAG_Y message, then a TAG_X message. */
    for (int d = 0; d < size; d++) {
        build(sbuf + HDR * (2 * d), rank, d, 0, TAG_Y, HDR);
        build(sbuf + HDR * (2 * d + 1), rank, d, 1, TAG_X, HDR);
        MPI_Isend(sbuf + HDR * (2 * d), HDR, MPI_INT, d, TAG_Y, MPI_COMM_WORLD,
                  &req[2 * d]);
        MPI_Isend(sbuf + HDR * (2 * d + 1), HDR, MPI_INT, d, TAG_X,
                  MPI_COMM_WORLD, &req[2 * d + 1]);
    }
    for (int pass = 0; pass < 2; pass++) {
        int tag = pass == 0 ? TAG_X : TAG_Y;
        for (int s = 0; s < size; s++)
            seen[s] = 0;
        for (int n = 0; n < size; n++) {
            MPI_Status st;
            MPI_Recv(m, HDR + 4, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
                     &st);
            int src = verify(m, &st, rank, size, "part 2");
            CHECK(tag, st.MPI_TAG, "part 2: ANY_SOURCE with fixed tag");
            CHECK(0, seen[src], "part 2: duplicate tag %d message from %d", tag, src);
            seen[src] = 1;
        }
    }
    MPI_Waitall(2 * size, req, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(req);
    free(seen);
}

static void part3(int rank, int size)
{
    static const int tags[5] = {5, 3, 9, 0, 32767};
    int dst = (rank + 1) % size, src = (rank - 1 + size) % size;
    int sbuf[5][HDR], m[HDR + 4];
    MPI_Request req[5];

    for (int i = 0; i < 5; i++) {
        build(sbuf[i], rank, dst, i, tags[i], HDR);
        MPI_Isend(sbuf[i], HDR, MPI_INT, dst, tags[i], MPI_COMM_WORLD, &req[i]);
    }
    for (int i = 0; i < 5; i++) {
        MPI_Status st;
        MPI_Recv(m, HDR + 4, MPI_INT, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        verify(m, &st, rank, size, "part 3");
        CHECK(src, st.MPI_SOURCE, "part 3: source");
        CHECK(tags[i], st.MPI_TAG, "part 3: ANY_TAG message %d", i);
        CHECK(i, m[3], "part 3: order");
    }
    MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
}

static void part4(int rank, int size)
{
    int n = 3 * size;
    int *sbuf = xmalloc(sizeof(int) * MAXLEN * n);
    int *rbuf = xmalloc(sizeof(int) * MAXLEN * n);
    MPI_Request *rreq = xmalloc(sizeof(MPI_Request) * n);
    MPI_Request *sreq = xmalloc(sizeof(MPI_Request) * n);
    MPI_Status *st = xmalloc(sizeof(MPI_Status) * n);
    int *cnt = xmalloc(sizeof(int) * size * 3);

    for (int i = 0; i < n; i++)
        MPI_Irecv(rbuf + MAXLEN * i, MAXLEN, MPI_INT, MPI_ANY_SOURCE,
                  MPI_ANY_TAG, MPI_COMM_WORLD, &rreq[i]);
    for (int i = 0; i < n; i++) {
        int dst = i % size, seq = i / size;
        int tag = 50 + seq, len = msg_len(rank, dst, seq);
        build(sbuf + MAXLEN * i, rank, dst, seq, tag, len);
        MPI_Isend(sbuf + MAXLEN * i, len, MPI_INT, dst, tag, MPI_COMM_WORLD,
                  &sreq[i]);
    }
    MPI_Waitall(n, rreq, st);
    memset(cnt, 0, sizeof(int) * size * 3);
    for (int i = 0; i < n; i++) {
        int *m = rbuf + MAXLEN * i;
        int src = verify(m, &st[i], rank, size, "part 4");
        int seq = m[3];
        if (seq < 0 || seq >= 3)
            CHECK(0, seq, "part 4: sequence out of range");
        CHECK(50 + seq, st[i].MPI_TAG, "part 4: tag");
        cnt[src * 3 + seq]++;
    }
    for (int i = 0; i < size * 3; i++)
        CHECK(1, cnt[i], "part 4: times message seq %d from %d was received",
              i % 3, i / 3);
    MPI_Waitall(n, sreq, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(rbuf);
    free(rreq);
    free(sreq);
    free(st);
    free(cnt);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    part1(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part2(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part3(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part4(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
