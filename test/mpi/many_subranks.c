/*
 * many_subranks -- point-to-point and collectives between processes that
 * hold more subranks than the real MPI tag has room for (under Tucana: more
 * than 128 per process, where the subrank ids travel in an envelope beside
 * each message; docs/runtime.md, "The tag limit"). Plain MPI: it runs at any
 * world size >= 2, with any MPI.
 *
 *  A. Ring: every rank sends NRING messages (sequence numbers, one tag) to
 *     both neighbours, with MPI_Isend; receives them with specific sources
 *     and checks every value in order.
 *  B. MPI_ANY_SOURCE / MPI_ANY_TAG: every rank sends NANY messages to its
 *     "far" partner (half the world away: another process) and to its right
 *     neighbour, tags cycling over 0, 1, 2 and MPI_TAG_UB; the receiver takes
 *     all of them with wildcards and checks that each source's sequence
 *     numbers increase by one and that the tags are the ones sent.
 *  C. Order across sizes: a long message (past any inline limit), a short
 *     one and another long one to the far partner, one tag; received in send
 *     order, contents checked byte by byte; the second long one arrives
 *     before its receive is posted (a barrier in between), and is probed
 *     first (MPI_Probe with MPI_ANY_SOURCE gives its length and source).
 *  D. MPI_Ssend to the far partner, everyone at once, a short and a long
 *     one (the acknowledgements of many subranks' synchronous sends between
 *     the same two processes must each complete the right send): both
 *     complete and carry their values.
 *  E. Cancel: an MPI_Irecv that nothing matches is cancelled
 *     (MPI_Test_cancelled), then a message with that tag still arrives for a
 *     fresh receive.
 *  F. Collectives: MPI_Allreduce (sum of ranks and max), MPI_Barrier, and a
 *     sparse exchange with partners at strides size/8 (MPI_Sendrecv).
 *
 * Prints its MPI_TAG_UB and "OK many_subranks" on rank 0.
 */
#ifndef TESTNAME
#define TESTNAME "many_subranks"
#endif
#include "mpitest.h"

#define NRING 3
#define NANY 4
#define LONG_BYTES 40000 /* more than Tucana's 16 KiB inline limit */
#define SHORT_BYTES 100

static void fill(unsigned char *buf, int n, int seed)
{
    for (int i = 0; i < n; ++i)
        buf[i] = (unsigned char)(seed * 31 + i * 7);
}

static void check_fill(const unsigned char *buf, int n, int seed, const char *what)
{
    for (int i = 0; i < n; ++i)
        if (buf[i] != (unsigned char)(seed * 31 + i * 7))
            CHECK((unsigned char)(seed * 31 + i * 7), buf[i], "%s: byte %d", what, i);
}

static void ring(int rank, int size)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[2][NRING], in[2][NRING];
    MPI_Request req[4 * NRING];
    int n = 0;
    for (int i = 0; i < NRING; ++i) {
        out[0][i] = rank * 1000 + i;      /* to the right */
        out[1][i] = rank * 1000 + 500 + i; /* to the left */
        MPI_Isend(&out[0][i], 1, MPI_INT, right, 7, MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(&out[1][i], 1, MPI_INT, left, 7, MPI_COMM_WORLD, &req[n++]);
    }
    for (int i = 0; i < NRING; ++i) {
        MPI_Irecv(&in[0][i], 1, MPI_INT, left, 7, MPI_COMM_WORLD, &req[n++]);
        MPI_Irecv(&in[1][i], 1, MPI_INT, right, 7, MPI_COMM_WORLD, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < NRING; ++i) {
        if (size > 2 || left != right) {
            CHECK(left * 1000 + i, in[0][i], "A: message %d from the left", i);
            CHECK(right * 1000 + 500 + i, in[1][i], "A: message %d from the right", i);
        }
    }
}

static void any_source(int rank, int size, int tag_ub)
{
    const int far = (rank + size / 2) % size, right = (rank + 1) % size;
    const int far_from = (rank - size / 2 + size) % size, left = (rank + size - 1) % size;
    const int tags[4] = {0, 1, 2, tag_ub};
    int out[NANY][3];
    MPI_Request req[2 * NANY];
    int n = 0;
    for (int i = 0; i < NANY; ++i) {
        out[i][0] = rank;
        out[i][1] = i;
        out[i][2] = tags[i % 4];
        MPI_Isend(out[i], 3, MPI_INT, far, tags[i % 4], MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(out[i], 3, MPI_INT, right, tags[i % 4], MPI_COMM_WORLD, &req[n++]);
    }
    /* Receives from far_from and left (the same rank when size == 2). */
    int next_far = 0, next_left = 0;
    for (int k = 0; k < 2 * NANY; ++k) {
        int in[3];
        MPI_Status st;
        MPI_Recv(in, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        CHECK(in[0], st.MPI_SOURCE, "B: source of message %d", k);
        CHECK(in[2], st.MPI_TAG, "B: tag of message %d", k);
        CHECK(tags[in[1] % 4], st.MPI_TAG, "B: tag of message %d", k);
        if (far_from == left) {
            /* Both streams from one rank: each sequence number twice, in order. */
            CHECK(far_from, st.MPI_SOURCE, "B: source");
            CHECK(k / 2, in[1], "B: sequence number from %d", st.MPI_SOURCE);
        } else if (st.MPI_SOURCE == far_from) {
            CHECK(next_far, in[1], "B: sequence number from the far rank %d", far_from);
            ++next_far;
        } else {
            CHECK(left, st.MPI_SOURCE, "B: source");
            CHECK(next_left, in[1], "B: sequence number from the left rank %d", left);
            ++next_left;
        }
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD); /* the wildcards must not take the next phases' messages */
}

static void sizes_in_order(int rank, int size)
{
    const int far = (rank + size / 2) % size, far_from = (rank - size / 2 + size) % size;
    unsigned char *long1 = xmalloc(LONG_BYTES), *long2 = xmalloc(LONG_BYTES), *shrt = xmalloc(SHORT_BYTES);
    unsigned char *in1 = xmalloc(LONG_BYTES), *in2 = xmalloc(LONG_BYTES), *ins = xmalloc(SHORT_BYTES);
    fill(long1, LONG_BYTES, rank);
    fill(shrt, SHORT_BYTES, rank + 1);
    fill(long2, LONG_BYTES, rank + 2);
    MPI_Request req[5];
    MPI_Isend(long1, LONG_BYTES, MPI_BYTE, far, 11, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(shrt, SHORT_BYTES, MPI_BYTE, far, 11, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(long2, LONG_BYTES, MPI_BYTE, far, 11, MPI_COMM_WORLD, &req[2]);
    /* The first two with receives of the largest size: order decides. */
    MPI_Status st[2];
    MPI_Irecv(in1, LONG_BYTES, MPI_BYTE, far_from, 11, MPI_COMM_WORLD, &req[3]);
    MPI_Irecv(ins, SHORT_BYTES, MPI_BYTE, far_from, 11, MPI_COMM_WORLD, &req[4]);
    MPI_Waitall(2, &req[3], st);
    int count = -1;
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    CHECK(LONG_BYTES, count, "C: length of the first message");
    MPI_Get_count(&st[1], MPI_BYTE, &count);
    CHECK(SHORT_BYTES, count, "C: length of the second message");
    check_fill(in1, LONG_BYTES, far_from, "C: first long message");
    check_fill(ins, SHORT_BYTES, far_from + 1, "C: short message");
    MPI_Barrier(MPI_COMM_WORLD); /* the second long one has had time to arrive */
    MPI_Status pst;
    MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &pst);
    CHECK(far_from, pst.MPI_SOURCE, "C: probed source");
    MPI_Get_count(&pst, MPI_BYTE, &count);
    CHECK(LONG_BYTES, count, "C: probed length");
    MPI_Recv(in2, count, MPI_BYTE, pst.MPI_SOURCE, pst.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check_fill(in2, LONG_BYTES, far_from + 2, "C: second long message");
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
    free(long1);
    free(long2);
    free(shrt);
    free(in1);
    free(in2);
    free(ins);
}

static void synchronous(int rank, int size)
{
    const int far = (rank + size / 2) % size, far_from = (rank - size / 2 + size) % size;
    int out[2] = {rank, rank * 3}, in[2] = {-1, -1};
    MPI_Request req[2];
    /* Short and long synchronous sends, received in order. */
    unsigned char *big = xmalloc(LONG_BYTES), *bigin = xmalloc(LONG_BYTES);
    fill(big, LONG_BYTES, rank + 5);
    MPI_Irecv(in, 2, MPI_INT, far_from, 21, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(bigin, LONG_BYTES, MPI_BYTE, far_from, 21, MPI_COMM_WORLD, &req[1]);
    MPI_Ssend(out, 2, MPI_INT, far, 21, MPI_COMM_WORLD);
    MPI_Ssend(big, LONG_BYTES, MPI_BYTE, far, 21, MPI_COMM_WORLD);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    CHECK(far_from, in[0], "D: synchronous message's first value");
    CHECK(far_from * 3, in[1], "D: synchronous message's second value");
    check_fill(bigin, LONG_BYTES, far_from + 5, "D: long synchronous message");
    free(big);
    free(bigin);
}

static void cancel(int rank, int size)
{
    const int far = (rank + size / 2) % size, far_from = (rank - size / 2 + size) % size;
    int never = -1, got = -1, flag = 0;
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(&never, 1, MPI_INT, far_from, 31, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(1, flag, "E: the unmatched receive was cancelled");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&rank, 1, MPI_INT, far, 31, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, far_from, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(far_from, got, "E: the message after the cancel");
    CHECK(-1, never, "E: the cancelled receive's buffer");
}

static void collectives(int rank, int size)
{
    long long mine[2] = {rank, rank}, sum[2] = {0, 0};
    MPI_Allreduce(mine, sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK((long long)size * (size - 1) / 2, sum[0], "F: MPI_Allreduce sum");
    MPI_Allreduce(&mine[1], &sum[1], 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    CHECK(size - 1, sum[1], "F: MPI_Allreduce max");
    MPI_Barrier(MPI_COMM_WORLD);
    int stride = size / 8 > 0 ? size / 8 : 1;
    for (int k = 1; k < 8 && k * stride < size; ++k) {
        const int to = (rank + k * stride) % size, from = (rank - k * stride + size) % size;
        int out = rank * 8 + k, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, to, 40 + k, &in, 1, MPI_INT, from, 40 + k, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(from * 8 + k, in, "F: exchange at distance %d", k * stride);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int rank = wrank, size = wsize;
    int *ub = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    CHECK_TRUE(flag && *ub >= 32767, "MPI_TAG_UB");
    if (rank == 0)
        printf("%s: MPI_TAG_UB = %d\n", TESTNAME, *ub);
    if (size >= 2) {
        ring(rank, size);
        any_source(rank, size, *ub);
        sizes_in_order(rank, size);
        synchronous(rank, size);
        cancel(rank, size);
    }
    collectives(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
