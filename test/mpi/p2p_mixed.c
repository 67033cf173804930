/*
 * p2p_mixed -- mixing blocking and non-blocking point-to-point calls and
 * the request completion family (MPI-3.1 sec. 3.4, 3.7, 3.10).
 *
 *  1. MPI_Isend + MPI_Recv and MPI_Send + MPI_Irecv on a ring.
 *  2. MPI_Sendrecv with different lengths in the two directions.
 *  3. MPI_Sendrecv_replace: shifting a buffer size times round the ring
 *     brings the original back; every intermediate step is checked.
 *  4. MPI_Ssend paired with MPI_Irecv and with MPI_Recv; synchronous-mode
 *     semantics: while the receiver has not started the receive, a message
 *     the sender sends after its MPI_Ssend cannot be visible to MPI_Iprobe.
 *  5. MPI_Waitany / MPI_Waitsome / MPI_Testany / MPI_Testsome / MPI_Testall
 *     completion loops over receives from every rank; each request completes
 *     exactly once with the right status; on an all-MPI_REQUEST_NULL array
 *     Waitany/Testany return index MPI_UNDEFINED (Testany flag 1) and
 *     Waitsome/Testsome return outcount MPI_UNDEFINED.
 *  6. MPI_Wait / MPI_Test on MPI_REQUEST_NULL return an empty status.
 *  7. MPI_Request_free on an active send request; the message is still
 *     delivered.
 *  8. MPI_Get_count: 6 bytes received as MPI_BYTE give count 6 for MPI_BYTE,
 *     3 for MPI_SHORT and MPI_UNDEFINED for MPI_INT (also on a probe status).
 *
 * Works for any world size >= 1.  Prints "OK p2p_mixed" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_mixed"

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

#define N 512

static int val(int src, int tag, int i)
{
    return src * 1000000 + tag * 1000 + i % 1000;
}

static void fillv(int *b, int n, int src, int tag)
{
    for (int i = 0; i < n; i++)
        b[i] = val(src, tag, i);
}

static void checkv(const int *b, int n, int src, int tag, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(val(src, tag, i), b[i], "%s: element %d (from %d, tag %d)", what,
              i, src, tag);
}

static void check_count(const MPI_Status *st, MPI_Datatype t, int expect,
                        const char *what)
{
    int count = -12345;
    MPI_Get_count(st, t, &count);
    CHECK(expect, count, "%s: MPI_Get_count", what);
}

static void check_empty_status(const MPI_Status *st, const char *what)
{
    CHECK(MPI_ANY_SOURCE, st->MPI_SOURCE, "%s: empty status MPI_SOURCE", what);
    CHECK(MPI_ANY_TAG, st->MPI_TAG, "%s: empty status MPI_TAG", what);
    check_count(st, MPI_INT, 0, what);
}

static void poison(MPI_Status *st)
{
    st->MPI_SOURCE = -4242;
    st->MPI_TAG = -4242;
}

static void part_ring(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *sb = xmalloc(sizeof(int) * N), *rb = xmalloc(sizeof(int) * N);
    MPI_Request req;
    MPI_Status st;

    /* Isend + Recv */
    fillv(sb, N, rank, 1);
    MPI_Isend(sb, N, MPI_INT, right, 1, MPI_COMM_WORLD, &req);
    MPI_Recv(rb, N, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    checkv(rb, N, left, 1, "Isend+Recv");
    CHECK(left, st.MPI_SOURCE, "Isend+Recv: source");
    check_count(&st, MPI_INT, N, "Isend+Recv");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(1, req == MPI_REQUEST_NULL, "Isend: request not freed by Wait");

    /* Irecv + Send */
    fillv(sb, N, rank, 2);
    MPI_Irecv(rb, N, MPI_INT, left, 2, MPI_COMM_WORLD, &req);
    MPI_Send(sb, N, MPI_INT, right, 2, MPI_COMM_WORLD);
    MPI_Wait(&req, &st);
    checkv(rb, N, left, 2, "Send+Irecv");
    check_count(&st, MPI_INT, N, "Send+Irecv");
    CHECK(2, st.MPI_TAG, "Send+Irecv: tag");

    /* Sendrecv: to the right N-rank%7 ints, to the left rank%5+1 ints */
    {
        int nr = N - rank % 7, nl = rank % 5 + 1;
        int from_left = N - left % 7, from_right = right % 5 + 1;
        fillv(sb, N, rank, 3);
        MPI_Sendrecv(sb, nr, MPI_INT, right, 3, rb, N, MPI_INT, left, 3,
                     MPI_COMM_WORLD, &st);
        checkv(rb, from_left, left, 3, "Sendrecv right");
        check_count(&st, MPI_INT, from_left, "Sendrecv right");
        CHECK(left, st.MPI_SOURCE, "Sendrecv right: source");
        fillv(sb, N, rank, 4);
        MPI_Sendrecv(sb, nl, MPI_INT, left, 4, rb, N, MPI_INT, right,
                     MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        checkv(rb, from_right, right, 4, "Sendrecv left");
        check_count(&st, MPI_INT, from_right, "Sendrecv left");
        CHECK(4, st.MPI_TAG, "Sendrecv left: tag");
    }

    /* Sendrecv_replace: shift size times */
    fillv(sb, N, rank, 5);
    for (int step = 1; step <= size; step++) {
        int origin = (rank - step % size + size) % size;
        MPI_Sendrecv_replace(sb, N, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD,
                             &st);
        CHECK(left, st.MPI_SOURCE, "Sendrecv_replace step %d: source", step);
        check_count(&st, MPI_INT, N, "Sendrecv_replace");
        checkv(sb, N, origin, 5, "Sendrecv_replace");
    }
    free(sb);
    free(rb);
}

static void part_ssend(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *sb = xmalloc(sizeof(int) * N), *rb = xmalloc(sizeof(int) * N);
    MPI_Request req;
    MPI_Status st;

    /* Irecv + Ssend on the ring */
    fillv(sb, N, rank, 6);
    MPI_Irecv(rb, N, MPI_INT, left, 6, MPI_COMM_WORLD, &req);
    MPI_Ssend(sb, N, MPI_INT, right, 6, MPI_COMM_WORLD);
    MPI_Wait(&req, &st);
    checkv(rb, N, left, 6, "Irecv+Ssend");

    /* Pairs (2k, 2k+1): blocking Ssend / Recv; a leftover rank talks to
     * itself with Irecv + Ssend. */
    {
        int partner = (rank % 2 == 0) ? rank + 1 : rank - 1;
        fillv(sb, N, rank, 7);
        if (partner >= size) {
            MPI_Irecv(rb, N, MPI_INT, rank, 7, MPI_COMM_WORLD, &req);
            MPI_Ssend(sb, N, MPI_INT, rank, 7, MPI_COMM_WORLD);
            MPI_Wait(&req, &st);
            checkv(rb, N, rank, 7, "Ssend to self");
        } else if (rank % 2 == 0) {
            MPI_Ssend(sb, N, MPI_INT, partner, 7, MPI_COMM_WORLD);
            MPI_Recv(rb, N, MPI_INT, partner, 7, MPI_COMM_WORLD, &st);
            checkv(rb, N, partner, 7, "Ssend/Recv pair");
        } else {
            MPI_Recv(rb, N, MPI_INT, partner, 7, MPI_COMM_WORLD, &st);
            MPI_Ssend(sb, N, MPI_INT, partner, 7, MPI_COMM_WORLD);
            checkv(rb, N, partner, 7, "Recv/Ssend pair");
        }
    }

    /* Synchronous-mode semantics.  Rank r < h (h = size / 2) MPI_Ssends to
     * rank r + h, so in a virtualized run both sibling and cross-process
     * pairs are covered; with an odd size the last rank sits this out. */
    {
        int h = size / 2;
        int after = 99;
        if (rank < h) {
            MPI_Ssend(sb, 1, MPI_INT, rank + h, 8, MPI_COMM_WORLD);
            MPI_Send(&after, 1, MPI_INT, rank + h, 9, MPI_COMM_WORLD);
        } else if (rank < 2 * h) {
            int src = rank - h, flag = 0;
            double t0;
            /* The Ssend'ed message has been sent... */
            MPI_Probe(src, 8, MPI_COMM_WORLD, &st);
            /* ...but the sender is stuck in MPI_Ssend until we start the
             * receive, so its tag-9 message cannot exist yet. */
            t0 = MPI_Wtime();
            while (MPI_Wtime() - t0 < 0.02) {
                MPI_Iprobe(src, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                CHECK(0, flag, "MPI_Ssend from %d returned before the receive was started", src);
            }
            MPI_Recv(rb, 1, MPI_INT, src, 8, MPI_COMM_WORLD, &st);
            MPI_Recv(&after, 1, MPI_INT, src, 9, MPI_COMM_WORLD, &st);
            CHECK(99, after, "Ssend semantics: message after Ssend");
        }
    }
    free(sb);
    free(rb);
}

/* One message from every rank to every rank, tag T, length depends on src. */
static int len_of(int src, int dst)
{
    return 1 + (src * 7 + dst * 3) % 64;
}

enum { WAITANY, WAITSOME, TESTANY, TESTSOME, TESTALL, NMODES };
static const char *mode_name(int mode)
{
    switch (mode) {
    case WAITANY: return "Waitany";
    case WAITSOME: return "Waitsome";
    case TESTANY: return "Testany";
    case TESTSOME: return "Testsome";
    default: return "Testall";
    }
}

static void part_completion(int rank, int size, int mode)
{
    int tag = 20 + mode;
    const char *what = mode_name(mode);
    int *sb = xmalloc(sizeof(int) * 64 * size);
    int *rb = xmalloc(sizeof(int) * 64 * size);
    MPI_Request *rreq = xmalloc(sizeof(MPI_Request) * size);
    MPI_Request *sreq = xmalloc(sizeof(MPI_Request) * size);
    MPI_Status *st = xmalloc(sizeof(MPI_Status) * size);
    int *idx = xmalloc(sizeof(int) * size);
    int *done = xmalloc(sizeof(int) * size);
    int ndone = 0, outcount, index, flag;

    for (int s = 0; s < size; s++) {
        done[s] = 0;
        MPI_Irecv(rb + 64 * s, 64, MPI_INT, s, tag, MPI_COMM_WORLD, &rreq[s]);
    }
    for (int k = 0; k < size; k++) {
        int d = (rank + k) % size;
        fillv(sb + 64 * d, len_of(rank, d), rank, tag);
        MPI_Isend(sb + 64 * d, len_of(rank, d), MPI_INT, d, tag,
                  MPI_COMM_WORLD, &sreq[d]);
    }

#define COMPLETED(i, status)                                                  \
    do {                                                                      \
        int i_ = (i);                                                         \
        if (i_ < 0 || i_ >= size)                                             \
            CHECK(0, i_, "%s: index out of range", what);                     \
        CHECK(0, done[i_], "%s: request %d completed twice", what, i_);       \
        done[i_] = 1;                                                         \
        ndone++;                                                              \
        CHECK(1, rreq[i_] == MPI_REQUEST_NULL, "%s: request %d not freed", what, i_); \
        CHECK(i_, (status)->MPI_SOURCE, "%s: status source of request %d", what, i_); \
        CHECK(tag, (status)->MPI_TAG, "%s: status tag of request %d", what, i_); \
        check_count((status), MPI_INT, len_of(i_, rank), what);               \
        checkv(rb + 64 * i_, len_of(i_, rank), i_, tag, what);                \
    } while (0)

    while (ndone < size) {
        switch (mode) {
        case WAITANY:
            MPI_Waitany(size, rreq, &index, &st[0]);
            COMPLETED(index, &st[0]);
            break;
        case WAITSOME:
            MPI_Waitsome(size, rreq, &outcount, idx, st);
            if (outcount < 1 || outcount > size - ndone)
                CHECK(1, outcount, "Waitsome: outcount out of range");
            for (int k = 0; k < outcount; k++)
                COMPLETED(idx[k], &st[k]);
            break;
        case TESTANY:
            flag = 0;
            index = -5;
            MPI_Testany(size, rreq, &index, &flag, &st[0]);
            if (flag)
                COMPLETED(index, &st[0]);
            else
                CHECK(MPI_UNDEFINED, index, "Testany: index with flag 0");
            break;
        case TESTSOME:
            MPI_Testsome(size, rreq, &outcount, idx, st);
            if (outcount < 0 || outcount > size - ndone)
                CHECK(0, outcount, "Testsome: outcount out of range");
            for (int k = 0; k < outcount; k++)
                COMPLETED(idx[k], &st[k]);
            break;
        case TESTALL:
            flag = 0;
            MPI_Testall(size, rreq, &flag, st);
            if (flag)
                for (int k = 0; k < size; k++)
                    COMPLETED(k, &st[k]);
            break;
        }
    }
#undef COMPLETED

    /* All requests are now MPI_REQUEST_NULL. */
    switch (mode) {
    case WAITANY:
        poison(&st[0]);
        MPI_Waitany(size, rreq, &index, &st[0]);
        CHECK(MPI_UNDEFINED, index, "Waitany on null requests: index");
        check_empty_status(&st[0], "Waitany on null requests");
        break;
    case WAITSOME:
        MPI_Waitsome(size, rreq, &outcount, idx, st);
        CHECK(MPI_UNDEFINED, outcount, "Waitsome on null requests: outcount");
        break;
    case TESTANY:
        flag = 0;
        poison(&st[0]);
        MPI_Testany(size, rreq, &index, &flag, &st[0]);
        CHECK(1, flag, "Testany on null requests: flag");
        CHECK(MPI_UNDEFINED, index, "Testany on null requests: index");
        check_empty_status(&st[0], "Testany on null requests");
        break;
    case TESTSOME:
        MPI_Testsome(size, rreq, &outcount, idx, st);
        CHECK(MPI_UNDEFINED, outcount, "Testsome on null requests: outcount");
        break;
    case TESTALL:
        flag = 0;
        MPI_Testall(size, rreq, &flag, st);
        CHECK(1, flag, "Testall on null requests: flag");
        break;
    }

    MPI_Waitall(size, sreq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < size; k++)
        CHECK(1, sreq[k] == MPI_REQUEST_NULL, "%s: send request %d not freed", what, k);
    free(sb);
    free(rb);
    free(rreq);
    free(sreq);
    free(st);
    free(idx);
    free(done);
}

static void part_null_requests(void)
{
    MPI_Request r = MPI_REQUEST_NULL, rs[3];
    MPI_Status st, sts[3];
    int flag = 0;
    int x = 1, y = 0;

    poison(&st);
    MPI_Wait(&r, &st);
    check_empty_status(&st, "MPI_Wait(MPI_REQUEST_NULL)");
    poison(&st);
    MPI_Test(&r, &flag, &st);
    CHECK(1, flag, "MPI_Test(MPI_REQUEST_NULL): flag");
    check_empty_status(&st, "MPI_Test(MPI_REQUEST_NULL)");

    /* Waitall with some null entries, and a self message in the middle. */
    rs[0] = MPI_REQUEST_NULL;
    rs[2] = MPI_REQUEST_NULL;
    MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 30, MPI_COMM_SELF, &rs[1]);
    MPI_Send(&x, 1, MPI_INT, 0, 30, MPI_COMM_SELF);
    poison(&sts[0]);
    poison(&sts[2]);
    MPI_Waitall(3, rs, sts);
    CHECK(1, y, "Waitall with null entries: payload");
    CHECK(0, sts[1].MPI_SOURCE, "Waitall with null entries: source");
    check_empty_status(&sts[0], "Waitall: null entry 0");
    check_empty_status(&sts[2], "Waitall: null entry 2");
}

static void part_request_free(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *sb = xmalloc(sizeof(int) * N), *rb = xmalloc(sizeof(int) * N);
    MPI_Request req;
    MPI_Status st;

    fillv(sb, N, rank, 40);
    MPI_Isend(sb, N, MPI_INT, right, 40, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    CHECK(1, req == MPI_REQUEST_NULL, "MPI_Request_free on active send");
    MPI_Recv(rb, N, MPI_INT, left, 40, MPI_COMM_WORLD, &st);
    checkv(rb, N, left, 40, "freed send request");
    /* Once everybody has received, all freed sends are complete. */
    MPI_Barrier(MPI_COMM_WORLD);
    free(sb);
    free(rb);
}

static void part_get_count(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    unsigned char sb[6], rb[16];
    MPI_Request req;
    MPI_Status st;

    for (int i = 0; i < 6; i++)
        sb[i] = (unsigned char)(rank + i);
    MPI_Isend(sb, 6, MPI_BYTE, right, 50, MPI_COMM_WORLD, &req);
    MPI_Probe(left, 50, MPI_COMM_WORLD, &st);
    check_count(&st, MPI_BYTE, 6, "probe 6 bytes as MPI_BYTE");
    check_count(&st, MPI_SHORT, 3, "probe 6 bytes as MPI_SHORT");
    check_count(&st, MPI_INT, MPI_UNDEFINED, "probe 6 bytes as MPI_INT");
    MPI_Recv(rb, 16, MPI_BYTE, left, 50, MPI_COMM_WORLD, &st);
    check_count(&st, MPI_BYTE, 6, "recv 6 bytes as MPI_BYTE");
    check_count(&st, MPI_SHORT, 3, "recv 6 bytes as MPI_SHORT");
    check_count(&st, MPI_INT, MPI_UNDEFINED, "recv 6 bytes as MPI_INT");
    check_count(&st, MPI_DOUBLE, MPI_UNDEFINED, "recv 6 bytes as MPI_DOUBLE");
    for (int i = 0; i < 6; i++)
        CHECK((unsigned char)(left + i), rb[i], "6-byte message: byte %d", i);
    MPI_Wait(&req, MPI_STATUS_IGNORE);

    /* zero bytes: count 0 for any type */
    MPI_Isend(sb, 0, MPI_BYTE, right, 51, MPI_COMM_WORLD, &req);
    MPI_Recv(rb, 16, MPI_BYTE, left, 51, MPI_COMM_WORLD, &st);
    check_count(&st, MPI_INT, 0, "0 bytes as MPI_INT");
    check_count(&st, MPI_BYTE, 0, "0 bytes as MPI_BYTE");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    part_ring(rank, size);
    part_ssend(rank, size);
    for (int mode = 0; mode < NMODES; mode++)
        part_completion(rank, size, mode);
    part_null_requests();
    part_request_free(rank, size);
    part_get_count(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
