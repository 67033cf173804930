/*
 * p2p_probe -- MPI_Probe / MPI_Iprobe (MPI-3.1 sec. 3.8.1).
 *
 *  1. With nothing in flight (after a barrier, all earlier traffic
 *     consumed), MPI_Iprobe with specific and wildcard source/tag returns
 *     flag = 0.
 *  2. Specific (source, tag) MPI_Probe of a variable-length message, then
 *     MPI_Get_count, a receive buffer of exactly that size, MPI_Recv.
 *     Probing twice returns the same message (probe does not consume).
 *  3. MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG) loop: every rank sends one
 *     message (length and tag depend on the sender) to every rank; each
 *     rank probes, allocates, and receives exactly the probed message with
 *     MPI_Recv(status.MPI_SOURCE, status.MPI_TAG).
 *  4. MPI_Iprobe polling loop (specific source + MPI_ANY_TAG and
 *     MPI_ANY_SOURCE + specific tag) until flag = 1, then MPI_Irecv.
 *  5. Probe of a zero-length message: MPI_Get_count = 0.
 *  6. Blocking MPI_Probe posted before the message is sent.
 *  7. Iprobe does not match a message with another tag / from another source.
 *
 * Works for any world size >= 1.  Prints "OK p2p_probe" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_probe"

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

static int val(int src, int dst, int tag, int i)
{
    return src * 1000000 + dst * 10000 + tag * 100 + i % 97;
}

static int *make(int src, int dst, int tag, int len)
{
    int *b = xmalloc(sizeof(int) * len);
    for (int i = 0; i < len; i++)
        b[i] = val(src, dst, tag, i);
    return b;
}

static void verify(const int *b, int len, int src, int dst, int tag,
                   const char *what)
{
    for (int i = 0; i < len; i++)
        CHECK(val(src, dst, tag, i), b[i], "%s: element %d from %d tag %d",
              what, i, src, tag);
}

static void expect_nothing(const char *what)
{
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
               MPI_STATUS_IGNORE);
    CHECK(0, flag, "%s: MPI_Iprobe(ANY_SOURCE, ANY_TAG) on empty queue", what);
    flag = 1;
    MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(0, flag, "%s: MPI_Iprobe(0, 0) on empty queue", what);
    flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(0, flag, "%s: MPI_Iprobe(ANY_SOURCE, 5) on empty queue", what);
    flag = 1;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(0, flag, "%s: MPI_Iprobe(0, ANY_TAG) on empty queue", what);
}

/* 2. specific probe */
static void part_specific(int rank, int size)
{
    int dst = (rank + 1) % size, src = (rank - 1 + size) % size;
    int slen = 10 + 37 * rank, rlen = 10 + 37 * src;
    int tag = 7 + rank % 5, rtag = 7 + src % 5;
    int *sb = make(rank, dst, tag, slen);
    MPI_Request req;
    MPI_Status st, st2;
    int count = -1;

    MPI_Isend(sb, slen, MPI_INT, dst, tag, MPI_COMM_WORLD, &req);
    MPI_Probe(src, rtag, MPI_COMM_WORLD, &st);
    CHECK(src, st.MPI_SOURCE, "specific probe: source");
    CHECK(rtag, st.MPI_TAG, "specific probe: tag");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(rlen, count, "specific probe: count");
    /* probing again must see the same message */
    MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st2);
    CHECK(rtag, st2.MPI_TAG, "second probe: tag");
    count = -1;
    MPI_Get_count(&st2, MPI_INT, &count);
    CHECK(rlen, count, "second probe: count");
    {
        int flag = 0;
        MPI_Iprobe(src, rtag, MPI_COMM_WORLD, &flag, &st2);
        CHECK(1, flag, "Iprobe of an already-probed message");
        CHECK(src, st2.MPI_SOURCE, "Iprobe of an already-probed message: source");
    }
    int *rb = xmalloc(sizeof(int) * rlen);
    MPI_Recv(rb, rlen, MPI_INT, src, rtag, MPI_COMM_WORLD, &st2);
    count = -1;
    MPI_Get_count(&st2, MPI_INT, &count);
    CHECK(rlen, count, "specific probe: received count");
    verify(rb, rlen, src, rank, rtag, "specific probe");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    free(sb);
    free(rb);
}

/* 3. wildcard probe loop */
static void part_wildcard(int rank, int size)
{
    int **sb = xmalloc(sizeof(int *) * size);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * size);
    int *seen = xmalloc(sizeof(int) * size);

    for (int d = 0; d < size; d++) {
        int len = 1 + (rank * 31 + d * 7) % 200, tag = 20 + rank;
        sb[d] = make(rank, d, tag, len);
        seen[d] = 0;
        MPI_Isend(sb[d], len, MPI_INT, d, tag, MPI_COMM_WORLD, &req[d]);
    }
    for (int n = 0; n < size; n++) {
        MPI_Status st, st2;
        int count = -1, src;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        src = st.MPI_SOURCE;
        if (src < 0 || src >= size)
            CHECK(0, src, "wildcard probe: source out of range");
        CHECK(0, seen[src], "wildcard probe: message from %d seen twice", src);
        seen[src] = 1;
        CHECK(20 + src, st.MPI_TAG, "wildcard probe: tag from %d", src);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(1 + (src * 31 + rank * 7) % 200, count, "wildcard probe: count from %d", src);
        int *rb = xmalloc(sizeof(int) * count);
        MPI_Recv(rb, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 &st2);
        CHECK(src, st2.MPI_SOURCE, "wildcard probe: recv source");
        verify(rb, count, src, rank, 20 + src, "wildcard probe");
        free(rb);
    }
    MPI_Waitall(size, req, MPI_STATUSES_IGNORE);
    for (int d = 0; d < size; d++)
        free(sb[d]);
    free(sb);
    free(req);
    free(seen);
}

/* Poll MPI_Iprobe until it reports a message. */
static void iprobe_wait(int source, int tag, MPI_Status *st, const char *what)
{
    int flag = 0;
    double t0 = MPI_Wtime();
    for (;;) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return;
        if (MPI_Wtime() - t0 > 30.0)
            CHECK(1, flag, "%s: MPI_Iprobe found nothing in 30 s", what);
    }
}

/* 4. Iprobe polling */
static void part_iprobe(int rank, int size)
{
    int dst = (rank + 1) % size, src = (rank - 1 + size) % size;
    int len = 5 + rank, rlen = 5 + src;
    int *sb = make(rank, dst, 40, len);
    int *sb2 = make(rank, dst, 41, len);
    MPI_Request req[3];
    MPI_Status st;
    int count = -1;

    MPI_Isend(sb, len, MPI_INT, dst, 40, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sb2, len, MPI_INT, dst, 41, MPI_COMM_WORLD, &req[1]);

    iprobe_wait(src, MPI_ANY_TAG, &st, "Iprobe(src, ANY_TAG)");
    CHECK(src, st.MPI_SOURCE, "Iprobe(src, ANY_TAG): source");
    CHECK(40, st.MPI_TAG, "Iprobe(src, ANY_TAG): first message tag");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(rlen, count, "Iprobe(src, ANY_TAG): count");
    int *rb = xmalloc(sizeof(int) * count);
    MPI_Irecv(rb, count, MPI_INT, src, st.MPI_TAG, MPI_COMM_WORLD, &req[2]);
    MPI_Wait(&req[2], &st);
    verify(rb, rlen, src, rank, 40, "Iprobe(src, ANY_TAG)");

    iprobe_wait(MPI_ANY_SOURCE, 41, &st, "Iprobe(ANY_SOURCE, 41)");
    CHECK(src, st.MPI_SOURCE, "Iprobe(ANY_SOURCE, 41): source");
    CHECK(41, st.MPI_TAG, "Iprobe(ANY_SOURCE, 41): tag");
    count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(rlen, count, "Iprobe(ANY_SOURCE, 41): count");
    MPI_Recv(rb, count, MPI_INT, st.MPI_SOURCE, 41, MPI_COMM_WORLD, &st);
    verify(rb, rlen, src, rank, 41, "Iprobe(ANY_SOURCE, 41)");

    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    free(sb);
    free(sb2);
    free(rb);
}

/* 5. zero-length message */
static void part_zero(int rank, int size)
{
    int dst = (rank + 1) % size, src = (rank - 1 + size) % size;
    MPI_Request req;
    MPI_Status st;
    int count = -1, dummy = -1;

    MPI_Isend(NULL, 0, MPI_INT, dst, 50, MPI_COMM_WORLD, &req);
    MPI_Probe(src, 50, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(0, count, "zero-length probe: count");
    CHECK(src, st.MPI_SOURCE, "zero-length probe: source");
    MPI_Recv(&dummy, 1, MPI_INT, src, 50, MPI_COMM_WORLD, &st);
    CHECK(-1, dummy, "zero-length recv modified buffer");
    count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(0, count, "zero-length recv: count");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

/* 6. blocking probe posted before the matching send; 7. no false matches */
static void part_late(int rank, int size)
{
    int dst = (rank + 1) % size, src = (rank - 1 + size) % size;
    int token = -1, flag = 1;
    MPI_Status st;

    if (size == 1) {
        /* only rank: send to self first (probe would block forever) */
        int v = 123;
        MPI_Request r;
        MPI_Isend(&v, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, &r);
        MPI_Probe(0, 60, MPI_COMM_WORLD, &st);
        MPI_Recv(&token, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, &st);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(123, token, "self probe token");
        return;
    }
    /* Token passing round the ring: rank 0 starts; everybody else probes
     * first (before its predecessor has sent anything). */
    if (rank == 0) {
        int v = 1000;
        /* tag 61 is a decoy that must not satisfy MPI_Probe(src, 60) */
        int decoy = -7;
        MPI_Request r[2];
        MPI_Isend(&decoy, 1, MPI_INT, dst, 61, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&v, 1, MPI_INT, dst, 60, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MPI_Probe(src, 60, MPI_COMM_WORLD, &st);
        MPI_Recv(&token, 1, MPI_INT, src, 60, MPI_COMM_WORLD, &st);
        CHECK(1000 + size - 1, token, "ring token back at rank 0");
        MPI_Recv(&decoy, 1, MPI_INT, src, 61, MPI_COMM_WORLD, &st);
        CHECK(-7, decoy, "decoy at rank 0");
    } else {
        int decoy;
        MPI_Probe(src, 60, MPI_COMM_WORLD, &st);
        CHECK(60, st.MPI_TAG, "late probe: tag");
        CHECK(src, st.MPI_SOURCE, "late probe: source");
        /* a different tag or source must not match */
        MPI_Iprobe(src, 62, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(0, flag, "Iprobe with unused tag 62 matched");
        if (size > 2) {
            flag = 1;
            MPI_Iprobe(dst, 60, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            CHECK(0, flag, "Iprobe from successor %d matched", dst);
        }
        MPI_Recv(&token, 1, MPI_INT, src, 60, MPI_COMM_WORLD, &st);
        MPI_Recv(&decoy, 1, MPI_INT, src, 61, MPI_COMM_WORLD, &st);
        CHECK(-7, decoy, "decoy");
        token++;
        /* token first: the successor receives tag 60 before tag 61, so
         * these blocking sends are safe without buffering */
        MPI_Send(&token, 1, MPI_INT, dst, 60, MPI_COMM_WORLD);
        MPI_Send(&decoy, 1, MPI_INT, dst, 61, MPI_COMM_WORLD);
        CHECK(1000 + rank, token, "ring token");
    }
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Barrier(MPI_COMM_WORLD);
    expect_nothing("at start");
    MPI_Barrier(MPI_COMM_WORLD); /* nobody sends before everybody checked */

    part_specific(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part_wildcard(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part_iprobe(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part_zero(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    part_late(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    expect_nothing("at end");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
