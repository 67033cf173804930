/*
 * p2p_many_requests -- 10,000 outstanding requests per rank.
 *
 *  1. Every rank pre-posts 10,000 MPI_Irecv (same tag) from its left
 *     neighbour, then starts 10,000 MPI_Isend (same tag) to its right
 *     neighbour and completes all 20,000 requests with one MPI_Waitall.
 *     Non-overtaking: receive i must hold message i.
 *  2. The same with 5,000 distinct tags (tag = i), receives posted in
 *     tag order.
 *  3. 5,000 sends issued first (they become unexpected messages at the
 *     receiver in most implementations), a barrier, then 5,000 receives.
 *  4. 2,000 receives posted in reverse tag order, sends in increasing tag
 *     order (every arriving message matches the last posted receive).
 *  All statuses (source, tag, count) are verified.
 *
 * Works for any world size >= 1 (size 1 talks to itself).
 * Prints "OK p2p_many_requests" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_many_requests"

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

#define NREQ 10000
#define NHALF 5000
#define NREV 2000
#define W 2             /* ints per message: sender, index */
#define TAG_SAME 20000
#define TAG_UNEXP 20001

/* mode 0: same tag; 1: distinct tags (tag = i); 2: sends first;
 * 3: reverse-order distinct tags */
static void run(int rank, int size, int mode, int n)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *sb = xmalloc(sizeof(int) * W * n);
    int *rb = xmalloc(sizeof(int) * W * n);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * 2 * n);
    MPI_Status *st = xmalloc(sizeof(MPI_Status) * 2 * n);
    const char *what = mode == 0 ? "same tag" : mode == 1 ? "distinct tags"
                     : mode == 2 ? "sends first" : "reverse tags";

    for (int i = 0; i < W * n; i++)
        rb[i] = -1;
    for (int i = 0; i < n; i++) {
        sb[W * i] = rank;
        sb[W * i + 1] = i;
    }

    if (mode != 2) {
        for (int k = 0; k < n; k++) {
            /* mode 3 posts receive k for tag n-1-k */
            int i = (mode == 3) ? n - 1 - k : k;
            int tag = (mode == 0) ? TAG_SAME : i;
            MPI_Irecv(rb + W * i, W, MPI_INT, left, tag, MPI_COMM_WORLD, &req[i]);
        }
        for (int i = 0; i < n; i++)
            MPI_Isend(sb + W * i, W, MPI_INT, right, mode == 0 ? TAG_SAME : i,
                      MPI_COMM_WORLD, &req[n + i]);
    } else {
        for (int i = 0; i < n; i++)
            MPI_Isend(sb + W * i, W, MPI_INT, right, TAG_UNEXP, MPI_COMM_WORLD,
                      &req[n + i]);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < n; i++)
            MPI_Irecv(rb + W * i, W, MPI_INT, left, TAG_UNEXP, MPI_COMM_WORLD,
                      &req[i]);
    }

    MPI_Waitall(2 * n, req, st);

    for (int i = 0; i < n; i++) {
        int count = -1;
        int tag = mode == 0 ? TAG_SAME : mode == 2 ? TAG_UNEXP : i;
        CHECK(1, req[i] == MPI_REQUEST_NULL, "%s: recv request %d not freed", what, i);
        CHECK(1, req[n + i] == MPI_REQUEST_NULL, "%s: send request %d not freed", what, i);
        CHECK(left, rb[W * i], "%s: sender of message in receive %d", what, i);
        CHECK(i, rb[W * i + 1], "%s: index of message in receive %d", what, i);
        CHECK(left, st[i].MPI_SOURCE, "%s: status source of receive %d", what, i);
        CHECK(tag, st[i].MPI_TAG, "%s: status tag of receive %d", what, i);
        MPI_Get_count(&st[i], MPI_INT, &count);
        CHECK(W, count, "%s: count of receive %d", what, i);
    }
    free(sb);
    free(rb);
    free(req);
    free(st);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    run(rank, size, 0, NREQ);
    run(rank, size, 1, NHALF);
    run(rank, size, 2, NHALF);
    run(rank, size, 3, NREV);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
