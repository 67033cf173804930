/*
 * env_misc -- environment management (MPI-3.1 ch. 8, sec. 12.4).
 *
 *  1. MPI_Initialized returns 0 before MPI_Init_thread and 1 after it;
 *     MPI_Finalized returns 0 before MPI_Finalize and 1 after it, and
 *     MPI_Initialized still returns 1 after MPI_Finalize.
 *  2. MPI_Init_thread(MPI_THREAD_FUNNELED): "provided" is one of the four
 *     thread levels and at least MPI_THREAD_SINGLE.
 *  3. MPI_COMM_WORLD: 0 <= rank < size, ranks are distinct and cover
 *     0..size-1 (checked with reductions).  MPI_COMM_SELF: size 1, rank 0.
 *  4. MPI_Wtime is monotonic (non-decreasing over many calls) and advances
 *     by about the elapsed time of a ~20 ms busy wait; 0 < MPI_Wtick < 1.
 *  5. MPI_Get_processor_name: non-empty, NUL-terminated, resultlen equals
 *     strlen and is below MPI_MAX_PROCESSOR_NAME.
 *  6. MPI_Error_string for MPI_SUCCESS and several error classes: non-empty,
 *     resultlen equals strlen and is below MPI_MAX_ERROR_STRING.
 *
 * This is the program that uses MPI_Init_thread instead of MPI_Init.
 * Works for any world size >= 1.  Prints "OK env_misc" on rank 0 (after
 * MPI_Finalize).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "env_misc"

static void fail(long long expected, long long got, const char *ctx, int line)
{
    int rank = -1, fin = 0, init = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: expected %lld got %lld (%s; %s:%d)\n",
            TESTNAME, rank, expected, got, ctx, __FILE__, line);
    fflush(stderr);
    if (init && !fin)
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

/* Check a condition; report it as expected 1 got 0. */
#define CHECK_TRUE(cond, ...) CHECK(1, (cond) ? 1 : 0, __VA_ARGS__)

static void check_error_string(int code, const char *name)
{
    char buf[MPI_MAX_ERROR_STRING];
    int len = -1;
    memset(buf, 'x', sizeof buf);
    MPI_Error_string(code, buf, &len);
    CHECK_TRUE(len > 0, "MPI_Error_string(%s): resultlen %d not positive", name, len);
    CHECK_TRUE(len < MPI_MAX_ERROR_STRING, "MPI_Error_string(%s): resultlen %d too long", name, len);
    CHECK_TRUE(memchr(buf, '\0', sizeof buf) != NULL, "MPI_Error_string(%s): not NUL-terminated", name);
    CHECK(len, (long long)strlen(buf), "MPI_Error_string(%s): strlen vs resultlen", name);
}

int main(int argc, char **argv)
{
    int flag = -1, provided = -1, rank = -1, size = -1;
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = -1;

    /* 1: before init */
    MPI_Initialized(&flag);
    CHECK(0, flag, "MPI_Initialized before MPI_Init_thread");
    flag = -1;
    MPI_Finalized(&flag);
    CHECK(0, flag, "MPI_Finalized before MPI_Init_thread");

    /* 2 */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    CHECK_TRUE(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
               provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
               "MPI_Init_thread: provided=%d is not a thread level", provided);
    CHECK_TRUE(provided >= MPI_THREAD_SINGLE, "MPI_Init_thread: provided=%d", provided);
    CHECK_TRUE(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
               MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
               MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
               "thread level constants are not monotonic");

    flag = -1;
    MPI_Initialized(&flag);
    CHECK(1, flag, "MPI_Initialized after MPI_Init_thread");
    flag = -1;
    MPI_Finalized(&flag);
    CHECK(0, flag, "MPI_Finalized before MPI_Finalize");

    /* 3 */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_TRUE(size >= 1, "MPI_COMM_WORLD size %d", size);
    CHECK_TRUE(rank >= 0 && rank < size, "MPI_COMM_WORLD rank %d of %d", rank, size);
    {
        int v[2] = {1, rank}, s[2] = {0, 0}, mx = -1, mn = -1, sz = -1;
        MPI_Allreduce(v, s, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(size, s[0], "sum of 1 over MPI_COMM_WORLD");
        CHECK((long long)size * (size - 1) / 2, s[1], "sum of ranks");
        MPI_Allreduce(&rank, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(&rank, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        CHECK(size - 1, mx, "max rank");
        CHECK(0, mn, "min rank");
        MPI_Allreduce(&size, &sz, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        CHECK(size, sz, "all ranks agree on the size");
        /* distinct ranks: each rank sends its rank to rank 0 */
        if (rank == 0) {
            char *seen = calloc((size_t)size, 1);
            if (!seen)
                CHECK(1, 0, "calloc");
            seen[0] = 1;
            for (int i = 1; i < size; i++) {
                int r = -1;
                MPI_Recv(&r, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                CHECK_TRUE(r > 0 && r < size && !seen[r], "duplicate or invalid rank %d", r);
                seen[r] = 1;
            }
            free(seen);
        } else {
            MPI_Send(&rank, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        }
    }
    {
        int sr = -1, ss = -1;
        MPI_Comm_rank(MPI_COMM_SELF, &sr);
        MPI_Comm_size(MPI_COMM_SELF, &ss);
        CHECK(0, sr, "MPI_Comm_rank(MPI_COMM_SELF)");
        CHECK(1, ss, "MPI_Comm_size(MPI_COMM_SELF)");
    }

    /* 4 */
    {
        double tick = MPI_Wtick();
        double prev = MPI_Wtime(), t0 = prev, now;
        CHECK_TRUE(tick > 0.0 && tick < 1.0, "MPI_Wtick() = %g", tick);
        for (int i = 0; i < 100000; i++) {
            now = MPI_Wtime();
            if (now < prev)
                CHECK_TRUE(now >= prev, "MPI_Wtime went backwards: %.9f after %.9f", now, prev);
            prev = now;
        }
        do
            now = MPI_Wtime();
        while (now - t0 < 0.02);
        CHECK_TRUE(now - t0 >= 0.02 && now - t0 < 60.0,
                   "MPI_Wtime busy wait: elapsed %g", now - t0);
    }

    /* 5 */
    memset(name, 'x', sizeof name);
    MPI_Get_processor_name(name, &len);
    CHECK_TRUE(len > 0, "MPI_Get_processor_name: resultlen %d", len);
    CHECK_TRUE(len < MPI_MAX_PROCESSOR_NAME, "MPI_Get_processor_name: resultlen %d", len);
    CHECK_TRUE(memchr(name, '\0', sizeof name) != NULL, "MPI_Get_processor_name: not NUL-terminated");
    CHECK(len, (long long)strlen(name), "MPI_Get_processor_name: strlen vs resultlen");

    /* 6 */
    check_error_string(MPI_SUCCESS, "MPI_SUCCESS");
    check_error_string(MPI_ERR_BUFFER, "MPI_ERR_BUFFER");
    check_error_string(MPI_ERR_COUNT, "MPI_ERR_COUNT");
    check_error_string(MPI_ERR_TYPE, "MPI_ERR_TYPE");
    check_error_string(MPI_ERR_TAG, "MPI_ERR_TAG");
    check_error_string(MPI_ERR_COMM, "MPI_ERR_COMM");
    check_error_string(MPI_ERR_RANK, "MPI_ERR_RANK");
    check_error_string(MPI_ERR_REQUEST, "MPI_ERR_REQUEST");
    check_error_string(MPI_ERR_ROOT, "MPI_ERR_ROOT");
    check_error_string(MPI_ERR_OP, "MPI_ERR_OP");
    check_error_string(MPI_ERR_ARG, "MPI_ERR_ARG");
    check_error_string(MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE");
    check_error_string(MPI_ERR_OTHER, "MPI_ERR_OTHER");
    check_error_string(MPI_ERR_INTERN, "MPI_ERR_INTERN");
    {
        /* MPI_SUCCESS and an error must not produce the same text */
        char a[MPI_MAX_ERROR_STRING], b[MPI_MAX_ERROR_STRING];
        int la, lb;
        MPI_Error_string(MPI_SUCCESS, a, &la);
        MPI_Error_string(MPI_ERR_TAG, b, &lb);
        CHECK_TRUE(strcmp(a, b) != 0, "MPI_SUCCESS and MPI_ERR_TAG have the same text '%.100s'", a);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();

    /* 1: after finalize */
    flag = -1;
    MPI_Finalized(&flag);
    if (flag != 1) {
        fprintf(stderr, "FAIL %s: rank %d: expected 1 got %d (MPI_Finalized after MPI_Finalize)\n",
                TESTNAME, rank, flag);
        return 1;
    }
    flag = -1;
    MPI_Initialized(&flag);
    if (flag != 1) {
        fprintf(stderr, "FAIL %s: rank %d: expected 1 got %d (MPI_Initialized after MPI_Finalize)\n",
                TESTNAME, rank, flag);
        return 1;
    }
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    return 0;
}
