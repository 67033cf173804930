/*
 * p2p_persistent -- persistent communication requests (MPI-3.1 sec. 3.9).
 *
 *  1. MPI_Send_init / MPI_Recv_init to both ring neighbours, MPI_Startall,
 *     MPI_Waitall, for 20 iterations reusing the same requests; the send
 *     buffer content changes every iteration and the receiver sees the new
 *     content each time.
 *  2. After completion the requests are inactive but not freed: the handle
 *     is not MPI_REQUEST_NULL; MPI_Wait / MPI_Test on an inactive request
 *     return at once (flag = 1) with an empty status (source
 *     MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0); MPI_Waitall on a mix of
 *     active and inactive requests works.
 *  3. Individual MPI_Start, completion by MPI_Test polling and MPI_Testall.
 *  4. Persistent MPI_Recv_init with MPI_ANY_SOURCE / MPI_ANY_TAG, status
 *     filled in each time.
 *  5. MPI_Request_free sets the handles to MPI_REQUEST_NULL.
 *
 * Works for any world size >= 1.  Prints "OK p2p_persistent" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_persistent"

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

#define N 1000          /* doubles per message (8000 bytes) */
#define ITERS 20
#define TAG_R 11        /* travelling to the right (rank+1) */
#define TAG_L 12        /* travelling to the left (rank-1) */

static double val(int src, int it, int dir, int i)
{
    return (double)(src * 100000 + it * 1000 + dir * 500 + i % 499);
}

static void check_empty_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    CHECK(MPI_ANY_SOURCE, st->MPI_SOURCE, "%s: empty status MPI_SOURCE", what);
    CHECK(MPI_ANY_TAG, st->MPI_TAG, "%s: empty status MPI_TAG", what);
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(0, count, "%s: empty status count", what);
}

static void poison(MPI_Status *st)
{
    st->MPI_SOURCE = -4242;
    st->MPI_TAG = -4242;
}

int main(int argc, char **argv)
{
    int rank, size, right, left;
    double *sR, *sL, *rR, *rL;   /* sR: sent to right, rR: received from right */
    MPI_Request req[4];          /* 0: recv from left, 1: recv from right,
                                    2: send to right, 3: send to left */
    MPI_Status st[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank - 1 + size) % size;

    sR = malloc(sizeof(double) * N);
    sL = malloc(sizeof(double) * N);
    rR = malloc(sizeof(double) * N);
    rL = malloc(sizeof(double) * N);
    if (!sR || !sL || !rR || !rL)
        CHECK(1, 0, "malloc");

    MPI_Recv_init(rL, N, MPI_DOUBLE, left, TAG_R, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(rR, N, MPI_DOUBLE, right, TAG_L, MPI_COMM_WORLD, &req[1]);
    MPI_Send_init(sR, N, MPI_DOUBLE, right, TAG_R, MPI_COMM_WORLD, &req[2]);
    MPI_Send_init(sL, N, MPI_DOUBLE, left, TAG_L, MPI_COMM_WORLD, &req[3]);
    for (int i = 0; i < 4; i++)
        CHECK(0, req[i] == MPI_REQUEST_NULL, "init request %d is MPI_REQUEST_NULL", i);

    /* Inactive (never started) persistent requests complete immediately. */
    {
        int flag = 0;
        poison(&st[0]);
        MPI_Test(&req[0], &flag, &st[0]);
        CHECK(1, flag, "MPI_Test on inactive persistent recv");
        check_empty_status(&st[0], "MPI_Test on inactive persistent recv");
        CHECK(0, req[0] == MPI_REQUEST_NULL, "MPI_Test freed an inactive persistent request");
        poison(&st[1]);
        MPI_Wait(&req[1], &st[1]);
        check_empty_status(&st[1], "MPI_Wait on inactive persistent recv");
        CHECK(0, req[1] == MPI_REQUEST_NULL, "MPI_Wait freed an inactive persistent request");
    }

    /* 1+2: Startall / Waitall, many iterations. */
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < N; i++) {
            sR[i] = val(rank, it, 0, i);
            sL[i] = val(rank, it, 1, i);
            rR[i] = rL[i] = -1.0;
        }
        if (it % 2 == 0) {
            MPI_Startall(4, req);
        } else {
            /* receives first, one by one */
            for (int i = 0; i < 4; i++)
                MPI_Start(&req[i]);
        }
        for (int i = 0; i < 4; i++)
            poison(&st[i]);
        MPI_Waitall(4, req, st);
        for (int i = 0; i < 4; i++)
            CHECK(0, req[i] == MPI_REQUEST_NULL,
                  "iteration %d: Waitall freed persistent request %d", it, i);
        CHECK(left, st[0].MPI_SOURCE, "iteration %d: source of recv from left", it);
        CHECK(TAG_R, st[0].MPI_TAG, "iteration %d: tag of recv from left", it);
        CHECK(right, st[1].MPI_SOURCE, "iteration %d: source of recv from right", it);
        CHECK(TAG_L, st[1].MPI_TAG, "iteration %d: tag of recv from right", it);
        for (int k = 0; k < 2; k++) {
            int count = -1;
            MPI_Get_count(&st[k], MPI_DOUBLE, &count);
            CHECK(N, count, "iteration %d: count of recv %d", it, k);
        }
        for (int i = 0; i < N; i++) {
            if (rL[i] != val(left, it, 0, i))
                CHECK(val(left, it, 0, i), rL[i], "iteration %d: element %d from left", it, i);
            if (rR[i] != val(right, it, 1, i))
                CHECK(val(right, it, 1, i), rR[i], "iteration %d: element %d from right", it, i);
        }
        /* Inactive again: Wait returns the empty status at once. */
        if (it == 0) {
            poison(&st[0]);
            MPI_Wait(&req[0], &st[0]);
            check_empty_status(&st[0], "MPI_Wait on completed persistent recv");
            CHECK(0, req[0] == MPI_REQUEST_NULL, "MPI_Wait freed an inactive persistent request");
        }
    }

    /* Waitall on a mix of active and inactive requests: only the ones to
     * the right neighbour (recv from left, send to right) are started. */
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < N; i++)
            sR[i] = val(rank, 100 + it, 0, i);
        MPI_Start(&req[0]);
        MPI_Start(&req[2]);
        for (int i = 0; i < 4; i++)
            poison(&st[i]);
        MPI_Waitall(4, req, st);
        check_empty_status(&st[1], "Waitall: inactive recv");
        CHECK(left, st[0].MPI_SOURCE, "Waitall mix: source");
        for (int i = 0; i < N; i++)
            if (rL[i] != val(left, 100 + it, 0, i))
                CHECK(val(left, 100 + it, 0, i), rL[i], "Waitall mix: element %d", i);
    }

    /* 3: individual Start, completion by MPI_Test / MPI_Testall polling. */
    for (int it = 0; it < 5; it++) {
        int flag = 0, done[4] = {0, 0, 0, 0}, ndone = 0;
        for (int i = 0; i < N; i++) {
            sR[i] = val(rank, 200 + it, 0, i);
            sL[i] = val(rank, 200 + it, 1, i);
        }
        MPI_Start(&req[3]);
        MPI_Start(&req[1]);
        MPI_Start(&req[0]);
        MPI_Start(&req[2]);
        if (it % 2 == 0) {
            while (ndone < 4) {
                for (int i = 0; i < 4; i++) {
                    if (done[i])
                        continue;
                    MPI_Test(&req[i], &flag, &st[i]);
                    if (flag) {
                        done[i] = 1;
                        ndone++;
                        CHECK(0, req[i] == MPI_REQUEST_NULL, "MPI_Test freed persistent request %d", i);
                    }
                }
            }
        } else {
            flag = 0;
            while (!flag)
                MPI_Testall(4, req, &flag, st);
        }
        CHECK(left, st[0].MPI_SOURCE, "Test loop: source of recv from left");
        CHECK(right, st[1].MPI_SOURCE, "Test loop: source of recv from right");
        for (int i = 0; i < N; i++) {
            if (rL[i] != val(left, 200 + it, 0, i))
                CHECK(val(left, 200 + it, 0, i), rL[i], "Test loop: element %d from left", i);
            if (rR[i] != val(right, 200 + it, 1, i))
                CHECK(val(right, 200 + it, 1, i), rR[i], "Test loop: element %d from right", i);
        }
    }

    /* 5: free. */
    for (int i = 0; i < 4; i++) {
        MPI_Request_free(&req[i]);
        CHECK(1, req[i] == MPI_REQUEST_NULL, "MPI_Request_free of request %d", i);
    }

    /* 4: wildcard persistent receive; every rank sends one message per
     * iteration to rank (r + it) % size. */
    {
        int sbuf[3], rbuf[3];
        MPI_Request rr, sr;
        MPI_Recv_init(rbuf, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                      MPI_COMM_WORLD, &rr);
        for (int it = 0; it < 2 * size; it++) {
            int dst = (rank + it) % size, src = (rank - it % size + size) % size;
            MPI_Status s;
            sbuf[0] = rank;
            sbuf[1] = it;
            sbuf[2] = 300 + it % 7;
            MPI_Start(&rr);
            MPI_Send_init(sbuf, 3, MPI_INT, dst, 300 + it % 7, MPI_COMM_WORLD, &sr);
            MPI_Start(&sr);
            poison(&s);
            MPI_Wait(&rr, &s);
            CHECK(src, s.MPI_SOURCE, "wildcard persistent recv %d: source", it);
            CHECK(300 + it % 7, s.MPI_TAG, "wildcard persistent recv %d: tag", it);
            CHECK(src, rbuf[0], "wildcard persistent recv %d: payload source", it);
            CHECK(it, rbuf[1], "wildcard persistent recv %d: payload iteration", it);
            MPI_Wait(&sr, MPI_STATUS_IGNORE);
            MPI_Request_free(&sr);
            /* one message in flight per rank at a time: keep iterations apart */
            MPI_Barrier(MPI_COMM_WORLD);
        }
        MPI_Request_free(&rr);
        CHECK(1, rr == MPI_REQUEST_NULL, "MPI_Request_free of wildcard recv");
    }

    free(sR);
    free(sL);
    free(rR);
    free(rL);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
