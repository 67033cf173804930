/*
 * p2p_ordering -- MPI non-overtaking rule (MPI-3.1 sec. 3.5, "Order").
 *
 * Messages from one sender to one receiver on the same communicator that
 * match the same receive must be received in the order they were sent.
 *
 *  A. Pre-posted receives: for every ordered pair of ranks (self included),
 *     200 messages with one tag, sent with an MPI_Send / MPI_Isend mix, are
 *     matched by 200 pre-posted MPI_Irecv (specific source) strictly in order.
 *  B. Unexpected messages: 100 MPI_Isend to every rank, a barrier, then
 *     blocking MPI_Recv (specific source, sources visited in reverse order).
 *  C. MPI_ANY_SOURCE: all messages from all ranks received with
 *     MPI_ANY_SOURCE; per-source sequence numbers must increase by one.
 *  D. Mixed sizes: small and 256 KiB messages (eager vs. rendezvous in most
 *     implementations) on the same (source, tag) stay in order.
 *  E. Tag selection: messages sent with tags 0..31 are received in reverse
 *     tag order; a stream with three interleaved tags is received tag by tag
 *     and each tag's sub-stream is in send order.
 *
 * Works for any world size >= 1.  Prints "OK p2p_ordering" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_ordering"

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

#define NA 200          /* messages per pair, phase A */
#define NB 100          /* messages per pair, phase B */
#define NC 100          /* messages per pair, phase C */
#define ND 16           /* messages per pair, phase D */
#define LARGE (64 * 1024) /* ints in a large message, phase D (256 KiB) */
#define NT 32           /* distinct tags, phase E */
#define NI 60           /* interleaved messages, phase E */
#define MSG 4           /* ints per small message: src, dst, tag, seq */

#define TAG_A 1
#define TAG_B 2
#define TAG_C 3
#define TAG_D 4
#define TAG_E0 1000     /* phase E uses TAG_E0 .. TAG_E0+NT-1 */
#define TAG_I0 2000     /* interleaved tags TAG_I0 .. TAG_I0+2 */

static void fill(int *m, int src, int dst, int tag, int seq)
{
    m[0] = src;
    m[1] = dst;
    m[2] = tag;
    m[3] = seq;
}

static void check_msg(const int *m, int src, int dst, int tag, int seq,
                      const char *phase)
{
    CHECK(src, m[0], "phase %s: payload source", phase);
    CHECK(dst, m[1], "phase %s: payload destination (from %d)", phase, src);
    CHECK(tag, m[2], "phase %s: payload tag (from %d)", phase, src);
    CHECK(seq, m[3], "phase %s: sequence number from %d tag %d", phase, src, tag);
}

static void phase_a(int rank, int size)
{
    int *sbuf = xmalloc(sizeof(int) * MSG * NA);
    int *rbuf = xmalloc(sizeof(int) * MSG * NA);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * 2 * NA);
    MPI_Status *st = xmalloc(sizeof(MPI_Status) * 2 * NA);

    for (int d = 0; d < size; d++) {
        int dst = (rank + d) % size;
        int src = (rank - d + size) % size;
        memset(rbuf, 0xff, sizeof(int) * MSG * NA);
        for (int i = 0; i < NA; i++)
            MPI_Irecv(rbuf + MSG * i, MSG, MPI_INT, src, TAG_A, MPI_COMM_WORLD,
                      &req[i]);
        /* Everybody pre-posts before sending, so MPI_Send cannot deadlock. */
        for (int i = 0; i < NA; i++) {
            fill(sbuf + MSG * i, rank, dst, TAG_A, i);
            if (i % 3 == 1) {
                MPI_Send(sbuf + MSG * i, MSG, MPI_INT, dst, TAG_A, MPI_COMM_WORLD);
                req[NA + i] = MPI_REQUEST_NULL;
            } else {
                MPI_Isend(sbuf + MSG * i, MSG, MPI_INT, dst, TAG_A,
                          MPI_COMM_WORLD, &req[NA + i]);
            }
        }
        MPI_Waitall(2 * NA, req, st);
        for (int i = 0; i < NA; i++) {
            check_msg(rbuf + MSG * i, src, rank, TAG_A, i, "A");
            CHECK(src, st[i].MPI_SOURCE, "phase A: status source of recv %d", i);
            CHECK(TAG_A, st[i].MPI_TAG, "phase A: status tag of recv %d", i);
        }
    }
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
}

static void phase_b(int rank, int size)
{
    int *sbuf = xmalloc(sizeof(int) * MSG * NB * size);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * NB * size);
    int m[MSG];

    for (int dst = 0; dst < size; dst++)
        for (int i = 0; i < NB; i++) {
            int k = dst * NB + i;
            fill(sbuf + MSG * k, rank, dst, TAG_B, i);
            MPI_Isend(sbuf + MSG * k, MSG, MPI_INT, dst, TAG_B, MPI_COMM_WORLD,
                      &req[k]);
        }
    /* Make it likely that the messages are queued as unexpected. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int src = size - 1; src >= 0; src--)
        for (int i = 0; i < NB; i++) {
            MPI_Status st;
            MPI_Recv(m, MSG, MPI_INT, src, TAG_B, MPI_COMM_WORLD, &st);
            check_msg(m, src, rank, TAG_B, i, "B");
            CHECK(src, st.MPI_SOURCE, "phase B: status source");
        }
    MPI_Waitall(NB * size, req, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(req);
}

static void phase_c(int rank, int size)
{
    int *sbuf = xmalloc(sizeof(int) * MSG * NC * size);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * NC * size);
    int *next = xmalloc(sizeof(int) * size);
    int m[MSG];

    for (int s = 0; s < size; s++)
        next[s] = 0;
    for (int i = 0; i < NC; i++)
        for (int d = 0; d < size; d++) {
            int dst = (rank + d) % size;
            int k = i * size + d;
            fill(sbuf + MSG * k, rank, dst, TAG_C, i);
            MPI_Isend(sbuf + MSG * k, MSG, MPI_INT, dst, TAG_C, MPI_COMM_WORLD,
                      &req[k]);
        }
    for (int n = 0; n < NC * size; n++) {
        MPI_Status st;
        MPI_Recv(m, MSG, MPI_INT, MPI_ANY_SOURCE, TAG_C, MPI_COMM_WORLD, &st);
        int src = st.MPI_SOURCE;
        if (src < 0 || src >= size)
            CHECK(0, src, "phase C: status source out of range");
        CHECK(src, m[0], "phase C: status source vs payload source");
        CHECK(next[src], m[3], "phase C: ANY_SOURCE sequence from %d", src);
        CHECK(TAG_C, st.MPI_TAG, "phase C: status tag");
        next[src]++;
    }
    for (int s = 0; s < size; s++)
        CHECK(NC, next[s], "phase C: messages received from %d", s);
    MPI_Waitall(NC * size, req, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(req);
    free(next);
}

static int d_len(int i)
{
    return (i % 2) ? LARGE : MSG + i;
}

static void phase_d(int rank, int size)
{
    int dst = (rank + 1) % size;
    int src = (rank - 1 + size) % size;
    int **sbuf = xmalloc(sizeof(int *) * ND);
    int *rbuf = xmalloc(sizeof(int) * LARGE);
    MPI_Request req[ND];

    for (int i = 0; i < ND; i++) {
        int len = d_len(i);
        sbuf[i] = xmalloc(sizeof(int) * len);
        for (int j = 0; j < len; j++)
            sbuf[i][j] = rank * 100000 + i * 1000 + j % 1000;
        fill(sbuf[i], rank, dst, TAG_D, i);
        MPI_Isend(sbuf[i], len, MPI_INT, dst, TAG_D, MPI_COMM_WORLD, &req[i]);
    }
    for (int i = 0; i < ND; i++) {
        MPI_Status st;
        int count = -1, len = d_len(i);
        MPI_Recv(rbuf, LARGE, MPI_INT, src, TAG_D, MPI_COMM_WORLD, &st);
        check_msg(rbuf, src, rank, TAG_D, i, "D");
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(len, count, "phase D: count of message %d", i);
        for (int j = MSG; j < len; j += (len > 64 ? 997 : 1))
            CHECK(src * 100000 + i * 1000 + j % 1000, rbuf[j],
                  "phase D: element %d of message %d", j, i);
        if (len > MSG)
            CHECK(src * 100000 + i * 1000 + (len - 1) % 1000, rbuf[len - 1],
                  "phase D: last element of message %d", i);
    }
    MPI_Waitall(ND, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < ND; i++)
        free(sbuf[i]);
    free(sbuf);
    free(rbuf);
}

static void phase_e(int rank, int size)
{
    int dst = (rank + 1) % size;
    int src = (rank - 1 + size) % size;
    int *sbuf = xmalloc(sizeof(int) * MSG * (NT + NI));
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * (NT + NI));
    int m[MSG];

    /* distinct tags, received in reverse order */
    for (int t = 0; t < NT; t++) {
        fill(sbuf + MSG * t, rank, dst, TAG_E0 + t, t);
        MPI_Isend(sbuf + MSG * t, MSG, MPI_INT, dst, TAG_E0 + t, MPI_COMM_WORLD,
                  &req[t]);
    }
    /* interleaved tags TAG_I0 + i % 3 */
    for (int i = 0; i < NI; i++) {
        int k = NT + i;
        fill(sbuf + MSG * k, rank, dst, TAG_I0 + i % 3, i);
        MPI_Isend(sbuf + MSG * k, MSG, MPI_INT, dst, TAG_I0 + i % 3,
                  MPI_COMM_WORLD, &req[k]);
    }
    for (int t = NT - 1; t >= 0; t--) {
        MPI_Status st;
        MPI_Recv(m, MSG, MPI_INT, src, TAG_E0 + t, MPI_COMM_WORLD, &st);
        check_msg(m, src, rank, TAG_E0 + t, t, "E(reverse tags)");
        CHECK(TAG_E0 + t, st.MPI_TAG, "phase E: status tag");
    }
    static const int order[3] = {2, 0, 1};
    for (int o = 0; o < 3; o++) {
        int r = order[o];
        for (int i = r; i < NI; i += 3) {
            MPI_Recv(m, MSG, MPI_INT, src, TAG_I0 + r, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            check_msg(m, src, rank, TAG_I0 + r, i, "E(interleaved tags)");
        }
    }
    MPI_Waitall(NT + NI, req, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(req);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    phase_a(rank, size);
    phase_b(rank, size);
    phase_c(rank, size);
    phase_d(rank, size);
    phase_e(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
