/*
 * rma -- one-sided communication (MPI-3.1 ch. 11), self-checking, any size.
 *
 *  1. MPI_Win_create + fence: each rank puts its rank to its right
 *     neighbour and gets from its left one; a strided (vector) target type;
 *     zero counts and MPI_PROC_NULL targets do nothing.
 *  2. Accumulates from every rank on one location of rank 0 (MPI_SUM), on
 *     many locations of every rank (MPI_MAX), and MPI_REPLACE.
 *  3. Post-start-complete-wait between neighbours, both directions at once.
 *  4. Passive target: an exclusive lock around a get-increment-put counter
 *     on rank 0 (mutual exclusion: the count is exact), shared lock_all with
 *     flush, MPI_Fetch_and_op and MPI_Compare_and_swap tickets.
 *  4b. A queue lock (MCS) built from MPI_Fetch_and_op, MPI_Compare_and_swap
 *     and MPI_Accumulate with MPI_Win_flush, whose waits poll (flush loops,
 *     MPI_Iprobe): odd ranks take it with a trylock loop, even ranks queue
 *     for it; the holder increments a counter on rank 0 with get and
 *     put (mutual exclusion: the count is exact). A poller must not be kept
 *     from running by siblings that keep waking each other (the trylock
 *     loop and the window's target side took every turn: seconds per
 *     hand-over with two ranks per process). Not under MPICH 4.0.2, which
 *     hangs in this pattern (its own rma/mutex_bench as well).
 *  5. MPI_Win_allocate, request-based MPI_Rput/MPI_Rget/MPI_Rget_accumulate;
 *     to MPI_PROC_NULL they (and MPI_Raccumulate) give complete requests.
 *  5c. Large contiguous transfers: a 512 KiB put and get of MPI_BYTE at an
 *     odd displacement, a 64 Ki int MPI_BXOR accumulate, a contiguous
 *     derived type, a zero count.
 *  5b. MPI_Get_accumulate from every rank on one location of rank 0 under
 *     lock_all: the old values each rank fetched are all different and
 *     form the chain of partial sums (accumulates are atomic per element);
 *     MPI_NO_OP reads the total.
 *  6. MPI_Win_allocate_shared over MPI_Comm_split_type(SHARED): direct
 *     loads of a neighbour's segment after a fence; contiguous segments;
 *     segments of size 0 have a NULL base.
 *  7. MPI_Win_create_dynamic with attach and an address from MPI_Get_address.
 *  8. Attributes (base, size, disp unit, flavor, model), group, name.
 *  9. Errors under MPI_ERRORS_RETURN: a target rank outside the window
 *     (MPI_ERR_RANK); with Tucana also a target outside the window
 *     (MPI_ERR_RMA_RANGE) and an access outside an epoch (MPI_ERR_RMA_SYNC).
 * Prints "OK rma" on rank 0.
 */
#define TESTNAME "rma"
#include "mpitest.h"

static void fence_put_get(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int buf[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    /* strided target: elements 2, 4, 6 of the right neighbour */
    int three[3] = {rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
    MPI_Datatype every_other;
    MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Put(three, 3, MPI_INT, right, 2, 1, every_other, win);
    MPI_Type_free(&every_other); /* MPI allows it: the put is pending */
    MPI_Put(&rank, 0, MPI_INT, right, 7, 0, MPI_INT, win);
    MPI_Put(&rank, 1, MPI_INT, MPI_PROC_NULL, 7, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK(left, buf[0], "put from the left neighbour");
    CHECK(left * 10 + 1, buf[2], "strided put, element 2");
    CHECK(left * 10 + 3, buf[6], "strided put, element 6");
    CHECK(-1, buf[3], "strided put leaves the gaps alone");
    CHECK(-1, buf[7], "a zero-count put changes nothing");
    buf[1] = rank * 100;
    MPI_Win_fence(0, win);
    int got = -1;
    MPI_Get(&got, 1, MPI_INT, left, 1, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK(left * 100, got, "get from the left neighbour");
    MPI_Win_free(&win);
    CHECK(MPI_WIN_NULL, win, "MPI_Win_free sets MPI_WIN_NULL");
}

static void accumulates(int rank, int size)
{
    long long acc[17]; /* [0] sum, [1..15] max, [16] replace */
    for (int i = 0; i < 17; i++)
        acc[i] = rank == 0 && i == 0 ? 0 : -1;
    MPI_Win win;
    MPI_Win_create(acc, sizeof acc, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    long long one = rank + 1;
    for (int k = 0; k < 5; k++)
        MPI_Accumulate(&one, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, MPI_SUM, win);
    long long mine[15];
    for (int i = 0; i < 15; i++)
        mine[i] = (rank * 7 + i) % size;
    for (int t = 0; t < size; t++)
        MPI_Accumulate(mine, 15, MPI_LONG_LONG, t, 1, 15, MPI_LONG_LONG, MPI_MAX, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        CHECK(5LL * size * (size + 1) / 2, acc[0], "sum of accumulates from every rank on one location");
    for (int i = 0; i < 15; i++) {
        long long want = -1;
        for (int r = 0; r < size; r++)
            if ((r * 7 + i) % size > want)
                want = (r * 7 + i) % size;
        CHECK(want, acc[1 + i], "MPI_MAX over every rank at element %d", i);
    }
    long long mark = 1000 + rank;
    MPI_Accumulate(&mark, 1, MPI_LONG_LONG, (rank + 1) % size, 16, 1, MPI_LONG_LONG, MPI_REPLACE, win);
    MPI_Win_fence(0, win);
    CHECK(1000 + (rank + size - 1) % size, acc[16], "MPI_REPLACE");
    MPI_Win_free(&win);
}

static void pscw(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int buf[2] = {-1, -1};
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, neighbours;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranks[2] = {left, right};
    MPI_Group_incl(world, size > 2 ? 2 : 1, size > 2 ? ranks : &ranks[1], &neighbours);
    for (int round = 0; round < 3; round++) {
        MPI_Win_post(neighbours, 0, win);
        MPI_Win_start(neighbours, 0, win);
        int v = rank + round * 1000;
        MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
        if (size > 2)
            MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        CHECK(left + round * 1000, buf[0], "PSCW put from the left, round %d", round);
        if (size > 2)
            CHECK(right + round * 1000, buf[1], "PSCW put from the right, round %d", round);
    }
    MPI_Group_free(&neighbours);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
}

static void passive(int rank, int size)
{
    long long cell[3] = {0, 0, 0}; /* counter, fetch-and-op ticket, CAS owner */
    MPI_Win win;
    MPI_Win_create(cell, sizeof cell, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        cell[2] = -1;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* read-modify-write under an exclusive lock: no increment is lost */
    for (int k = 0; k < 4; k++) {
        long long v = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&v, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, win);
        MPI_Win_flush(0, win);
        v += 1;
        MPI_Put(&v, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, win);
        MPI_Win_unlock(0, win);
    }
    /* tickets: every rank draws a distinct one */
    long long one = 1, ticket = -1, mine = rank, prev = -2, none = -1;
    MPI_Win_lock_all(0, win);
    MPI_Fetch_and_op(&one, &ticket, MPI_LONG_LONG, 0, 1, MPI_SUM, win);
    MPI_Compare_and_swap(&mine, &none, &prev, MPI_LONG_LONG, 0, 2, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    CHECK_TRUE(ticket >= 0 && ticket < size, "ticket in range: %lld", ticket);
    long long tsum = 0;
    MPI_Allreduce(&ticket, &tsum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK((long long)size * (size - 1) / 2, tsum, "tickets are distinct");
    int won = prev == -1, winners = 0;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(1, winners, "exactly one compare-and-swap wins");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        CHECK(4LL * size, cell[0], "counter under exclusive locks");
        CHECK(size, cell[1], "fetch-and-op total");
        CHECK_TRUE(cell[2] >= 0 && cell[2] < size, "CAS owner is a rank");
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
}

/* 4b. A queue lock (Mellor-Crummey and Scott) over a window of two ints per
 * rank: [0] the queue's tail (used on rank 0 only), [1] the rank's
 * successor in the queue. */
enum { QTAIL = 0, QNEXT = 1 };

static void qlock_acquire(MPI_Win win, int *base, int rank)
{
    int prev;
    base[QNEXT] = MPI_PROC_NULL; /* nobody can write it while we are not queued */
    MPI_Win_sync(win);
    MPI_Fetch_and_op(&rank, &prev, MPI_INT, 0, QTAIL, MPI_REPLACE, win);
    MPI_Win_flush(0, win);
    if (prev != MPI_PROC_NULL) {
        MPI_Accumulate(&rank, 1, MPI_INT, prev, QNEXT, 1, MPI_INT, MPI_REPLACE, win);
        MPI_Win_flush(prev, win);
        MPI_Recv(NULL, 0, MPI_BYTE, prev, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static int qlock_try(MPI_Win win, int *base, int rank)
{
    int nil = MPI_PROC_NULL, tail;
    base[QNEXT] = MPI_PROC_NULL;
    MPI_Win_sync(win);
    MPI_Compare_and_swap(&rank, &nil, &tail, MPI_INT, 0, QTAIL, win);
    MPI_Win_flush(0, win);
    return tail == MPI_PROC_NULL;
}

static void qlock_release(MPI_Win win, int rank)
{
    int next, nil = MPI_PROC_NULL, tail;
    MPI_Win_sync(win);
    MPI_Fetch_and_op(NULL, &next, MPI_INT, rank, QNEXT, MPI_NO_OP, win);
    MPI_Win_flush(rank, win);
    if (next == MPI_PROC_NULL) {
        MPI_Compare_and_swap(&nil, &rank, &tail, MPI_INT, 0, QTAIL, win);
        MPI_Win_flush(0, win);
        if (tail == rank)
            return; /* nobody queued behind us */
        for (;;) { /* a successor is queueing: wait for its name */
            int flag;
            MPI_Fetch_and_op(NULL, &next, MPI_INT, rank, QNEXT, MPI_NO_OP, win);
            MPI_Win_flush(rank, win);
            if (next != MPI_PROC_NULL)
                break;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
    }
    MPI_Send(NULL, 0, MPI_BYTE, next, 77, MPI_COMM_WORLD);
}

static void queue_lock(int rank, int size)
{
    int *base;
    MPI_Win win;
    MPI_Win_allocate(3 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    base[QTAIL] = base[QNEXT] = MPI_PROC_NULL;
    base[2] = 0; /* the counter (used on rank 0) */
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    const int holder = 0;
    /* Many hand-overs at a few ranks (each took about half a second when a
     * poller starved), fewer at many. */
    const int iters = size <= 4 ? 300 : 1200 / size > 20 ? 1200 / size : 20;
    for (int i = 0; i < iters; i++) {
        if (rank % 2) {
            while (!qlock_try(win, base, rank))
                ;
        } else {
            qlock_acquire(win, base, rank);
        }
        int count;
        MPI_Get(&count, 1, MPI_INT, holder, 2, 1, MPI_INT, win);
        MPI_Win_flush(holder, win);
        count++;
        MPI_Put(&count, 1, MPI_INT, holder, 2, 1, MPI_INT, win);
        MPI_Win_flush(holder, win);
        qlock_release(win, rank);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == holder)
        CHECK(iters * size, base[2], "counter incremented under the queue lock");
    MPI_Win_free(&win);
}

/* 5c. Large contiguous transfers (one block on the wire, whatever the
 * count): 512 KiB of MPI_BYTE put at an odd displacement, read back with a
 * get; 64 Ki ints of MPI_BXOR; a contiguous derived type; a zero count. */
static void large_contiguous(int rank, int size)
{
    enum { WIN = 1 << 20, LEN = 1 << 19, OFF = 1001, NINT = 1 << 16 };
    unsigned char *mem = malloc(WIN), *out = malloc(LEN), *back = malloc(LEN);
    int *ints = malloc(NINT * sizeof(int));
    memset(mem, 0, WIN);
    MPI_Win win;
    MPI_Win_create(mem, WIN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < LEN; i++)
        out[i] = (unsigned char)(rank * 7 + i * 13);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(out, LEN, MPI_BYTE, right, OFF, LEN, MPI_BYTE, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < LEN; i++)
        bad += mem[OFF + i] != (unsigned char)(left * 7 + i * 13);
    CHECK(0, bad, "bytes of a 512 KiB put that differ");
    CHECK(0, mem[OFF - 1] + mem[OFF + LEN], "the bytes around the put are untouched");
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Get(back, LEN, MPI_BYTE, right, OFF, LEN, MPI_BYTE, win);
    MPI_Win_unlock(right, win);
    CHECK(0, memcmp(back, out, LEN) != 0, "a 512 KiB get reads back what was put");
    MPI_Barrier(MPI_COMM_WORLD);
    /* MPI_BXOR of 64 Ki ints at displacement 0 (bytes 0..256 KiB, below OFF + LEN) */
    for (int i = 0; i < NINT; i++)
        ints[i] = (rank + 1) * (i + 1);
    int want0 = 0, want_last = 0;
    {
        int *w = (int *)mem;
        want0 = w[0] ^ (left + 1) * 1;
        want_last = w[NINT - 1] ^ (left + 1) * NINT;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Accumulate(ints, NINT, MPI_INT, right, 0, NINT, MPI_INT, MPI_BXOR, win);
    MPI_Accumulate(ints, 0, MPI_INT, right, 0, 0, MPI_INT, MPI_BXOR, win); /* zero count: nothing */
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(want0, ((int *)mem)[0], "MPI_BXOR of a 64 Ki int accumulate, element 0");
    CHECK(want_last, ((int *)mem)[NINT - 1], "MPI_BXOR of a 64 Ki int accumulate, last element");
    /* a contiguous derived type: 100 elements of 8 ints, as ints at the target */
    MPI_Datatype eight;
    MPI_Type_contiguous(8, MPI_INT, &eight);
    MPI_Type_commit(&eight);
    for (int i = 0; i < 800; i++)
        ints[i] = rank * 1000 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(ints, 100, eight, right, 4096, 100, eight, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int *got = (int *)(mem + 4096);
    CHECK(left * 1000, got[0], "contiguous type put, element 0");
    CHECK(left * 1000 + 799, got[799], "contiguous type put, element 799");
    MPI_Type_free(&eight);
    MPI_Win_free(&win);
    free(mem);
    free(out);
    free(back);
    free(ints);
}

static void allocate_and_requests(int rank, int size)
{
    double *base = NULL;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    CHECK_TRUE(base != NULL, "MPI_Win_allocate gives memory");
    for (int i = 0; i < 4; i++)
        base[i] = rank + i / 10.0;
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (rank + 1) % size;
    double put = rank * 2.0, got[2] = {-1, -1}, add = 1.0, old = -1;
    MPI_Request req[3];
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Rget(got, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, win, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    CHECK(right * 10, (long long)(got[0] * 10), "MPI_Rget element 0");
    CHECK(right * 10 + 1, (long long)(got[1] * 10 + 0.5), "MPI_Rget element 1");
    MPI_Rput(&put, 1, MPI_DOUBLE, right, 3, 1, MPI_DOUBLE, win, &req[1]);
    MPI_Rget_accumulate(&add, 1, MPI_DOUBLE, &old, 1, MPI_DOUBLE, right, 2, 1, MPI_DOUBLE, MPI_SUM, win, &req[2]);
    MPI_Waitall(2, &req[1], MPI_STATUSES_IGNORE);
    MPI_Win_flush(right, win);
    /* to MPI_PROC_NULL: requests complete at once, not MPI_REQUEST_NULL */
    {
        MPI_Request nul[4];
        int flag = 0;
        double sink = 0;
        MPI_Rput(&put, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, win, &nul[0]);
        MPI_Rget(&sink, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, win, &nul[1]);
        MPI_Raccumulate(&add, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, MPI_SUM, win, &nul[2]);
        MPI_Rget_accumulate(&add, 1, MPI_DOUBLE, &sink, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, MPI_SUM, win,
                            &nul[3]);
        for (int i = 0; i < 4; i++)
            CHECK_TRUE(nul[i] != MPI_REQUEST_NULL, "request %d of an operation on MPI_PROC_NULL is a request", i);
        MPI_Testall(4, nul, &flag, MPI_STATUSES_IGNORE);
        CHECK(1, flag, "operations on MPI_PROC_NULL are complete at once");
        CHECK(0, (long long)sink, "MPI_Rget from MPI_PROC_NULL leaves the buffer");
    }
    MPI_Win_unlock_all(win);
    CHECK(right * 10 + 2, (long long)(old * 10 + 0.5), "MPI_Rget_accumulate gives the old value");
    MPI_Barrier(MPI_COMM_WORLD);
    int left = (rank + size - 1) % size;
    CHECK(left * 2, (long long)base[3], "MPI_Rput landed");
    CHECK(rank * 10 + 12, (long long)(base[2] * 10 + 0.5), "MPI_Rget_accumulate added");
    MPI_Win_free(&win);
}

static void get_accumulate(int rank, int size)
{
    long long *cell = NULL, one = rank + 1, old = -1, total = -1, dummy = 0;
    MPI_Win win;
    MPI_Win_allocate(sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &win);
    *cell = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Get_accumulate(&one, 1, MPI_LONG_LONG, &old, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Get_accumulate(&dummy, 1, MPI_LONG_LONG, &total, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, MPI_NO_OP, win);
    MPI_Win_unlock_all(win);
    CHECK((long long)size * (size + 1) / 2, total, "MPI_Get_accumulate(MPI_NO_OP) reads the sum of all");
    /* every old value plus its own contribution is another rank's old
     * value, or the total: the fetched values chain */
    long long *olds = xmalloc(sizeof(long long) * (size_t)size);
    long long *adds = xmalloc(sizeof(long long) * (size_t)size);
    MPI_Allgather(&old, 1, MPI_LONG_LONG, olds, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    MPI_Allgather(&one, 1, MPI_LONG_LONG, adds, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    int zeros = 0;
    for (int r = 0; r < size; r++) {
        long long next = olds[r] + adds[r];
        int found = next == total;
        for (int q = 0; q < size && !found; q++)
            found = olds[q] == next;
        CHECK_TRUE(found, "MPI_Get_accumulate: rank %d's old value %lld + %lld is another's old value or the total",
                   r, olds[r], adds[r]);
        zeros += olds[r] == 0;
    }
    CHECK(1, zeros, "MPI_Get_accumulate: exactly one rank fetched the initial 0");
    free(olds);
    free(adds);
    MPI_Win_free(&win);
}

static void shared(int rank)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    int *mine = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    MPI_Win_fence(0, win);
    mine[0] = 100 + nrank;
    mine[1] = 200 + nrank;
    MPI_Win_fence(0, win);
    int peer = (nrank + 1) % nsize, *theirs = NULL, unit = 0;
    MPI_Aint bytes = 0;
    MPI_Win_shared_query(win, peer, &bytes, &unit, &theirs);
    CHECK(2 * sizeof(int), bytes, "shared segment size");
    CHECK(sizeof(int), unit, "shared segment unit");
    CHECK(100 + peer, theirs[0], "load from the neighbour's segment");
    int *first = NULL;
    MPI_Win_shared_query(win, 0, &bytes, &unit, &first);
    CHECK_TRUE(mine == first + 2 * nrank || mine == first + 4 * nrank, "segments are contiguous");
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

/* Segments of size 0 (every odd rank of the node): MPI_Win_shared_query
 * gives size 0 and a NULL base for them, the segment of the first rank
 * with memory for MPI_PROC_NULL. */
static void shared_zero(int rank)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    int *mine = NULL, *theirs = NULL, unit = 0;
    MPI_Aint bytes = -1;
    MPI_Win win;
    MPI_Win_allocate_shared(nrank % 2 ? 0 : sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    for (int r = 0; r < nsize; r++) {
        theirs = (int *)&bytes; /* anything but NULL */
        MPI_Win_shared_query(win, r, &bytes, &unit, &theirs);
        CHECK(r % 2 ? 0 : (long long)sizeof(int), bytes, "size of node rank %d's segment", r);
        CHECK_TRUE(r % 2 ? theirs == NULL : theirs != NULL, "base of node rank %d's segment (size %ld) is %s", r,
                   (long)bytes, r % 2 ? "NULL" : "not NULL");
    }
    MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &theirs);
    CHECK(sizeof(int), bytes, "MPI_PROC_NULL: the first segment with memory");
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

static void dynamic(int rank, int size)
{
    int cell = -1;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, &cell, sizeof cell);
    MPI_Aint mine, theirs;
    MPI_Get_address(&cell, &mine);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(&mine, 1, MPI_AINT, left, 5, &theirs, 1, MPI_AINT, right, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_fence(0, win);
    MPI_Put(&rank, 1, MPI_INT, right, theirs, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK(left, cell, "put into attached memory");
    MPI_Win_detach(win, &cell);
    MPI_Win_free(&win);
}

static void attributes_and_errors(int rank, int size)
{
    long long buf[6];
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    void *base;
    MPI_Aint *bytes;
    int *unit, *flavor, *model, flag;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    CHECK_TRUE(flag && base == buf, "MPI_WIN_BASE");
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &bytes, &flag);
    CHECK(sizeof buf, *bytes, "MPI_WIN_SIZE");
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(sizeof(long long), *unit, "MPI_WIN_DISP_UNIT");
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(MPI_WIN_FLAVOR_CREATE, *flavor, "MPI_WIN_CREATE_FLAVOR");
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    CHECK_TRUE(*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE, "MPI_WIN_MODEL");
    MPI_Group g;
    int gsize, result;
    MPI_Win_get_group(win, &g);
    MPI_Group_size(g, &gsize);
    CHECK(size, gsize, "window group size");
    MPI_Group_free(&g);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Win_set_name(win, "halo");
    MPI_Win_get_name(win, name, &len);
    CHECK(0, strcmp(name, "halo"), "window name");
    (void)result;

    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    long long v = 1;
    int cls = -1;
    int rc;
#ifdef TUCANA /* MPI leaves detecting these to the implementation; Tucana does */
    rc = MPI_Put(&v, 1, MPI_LONG_LONG, (rank + 1) % size, 0, 1, MPI_LONG_LONG, win);
    MPI_Error_class(rc, &cls);
    CHECK(MPI_ERR_RMA_SYNC, cls, "a put outside an epoch");
    MPI_Win_fence(0, win);
    rc = MPI_Put(&v, 1, MPI_LONG_LONG, (rank + 1) % size, 6, 1, MPI_LONG_LONG, win);
    MPI_Error_class(rc, &cls);
    CHECK(MPI_ERR_RMA_RANGE, cls, "a put past the window's end");
#else
    MPI_Win_fence(0, win);
#endif
    rc = MPI_Put(&v, 1, MPI_LONG_LONG, size, 0, 1, MPI_LONG_LONG, win);
    MPI_Error_class(rc, &cls);
    CHECK(MPI_ERR_RANK, cls, "a put to a rank outside the window");
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;
    fence_put_get(rank, size);
    accumulates(rank, size);
    pscw(rank, size);
    passive(rank, size);
    /* MPICH 4.0.2 (Debian, ch4:ucx) hangs in MPI_Win_flush in this pattern,
     * as in its own test suite's rma/mutex_bench. */
    IF_NOT_MPICH_DEVIATION queue_lock(rank, size);
    allocate_and_requests(rank, size);
    large_contiguous(rank, size);
    get_accumulate(rank, size);
    shared(rank);
    shared_zero(rank);
    dynamic(rank, size);
    attributes_and_errors(rank, size);
    MPI_Finalize();
    if (rank == 0)
        printf("OK rma\n");
    return 0;
}
