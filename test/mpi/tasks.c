/* Tasks inside a rank (tucana/task.h): spawn with a copied argument, nested
 * spawns, taskwait and tucana_task_wait, data and handle dependencies,
 * blocking MPI calls inside tasks (each suspends only its task), a
 * collective and a probe inside tasks, many tasks per rank, taskloop, and
 * boundary tasks first. Tucana only (no reference run). */
#ifndef TESTNAME
#define TESTNAME "tasks"
#endif
#include "mpitest.h"

#include <tucana/task.h>
#include <unistd.h>

#include <pthread.h>

/* Each rank's state, which its tasks share with it. Not in globals: the
 * subranks of a process would share those unless the program is translated
 * (privatization), and this test also runs untranslated (the sanitizer
 * builds). A task finds its rank's state by its rank: tasks act for it. */
#define STEAL_TASKS 200
struct rank_state {
    int rank_, size_;
    int nested_done_[8][4];
    long long chain_value_;
    int readers_seen_[2];
    int order_seq_;
    long long many_total_;
    int run_order_[2];
    int run_seq_;
    pthread_t ran_on_[STEAL_TASKS];
};
#define MAX_RANKS 1024
static struct rank_state *states[MAX_RANKS]; /* one slot per world rank */

static struct rank_state *my_state(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return states[r];
}
#define rank (my_state()->rank_)
#define size (my_state()->size_)
#define nested_done (my_state()->nested_done_)
#define chain_value (my_state()->chain_value_)
#define readers_seen (my_state()->readers_seen_)
#define order_seq (my_state()->order_seq_)
#define many_total (my_state()->many_total_)
#define run_order (my_state()->run_order_)
#define run_seq (my_state()->run_seq_)
#define ran_on (my_state()->ran_on_)


/* --- spawn, copies, nesting ------------------------------------------- */

struct set_args {
    long long *slot;
    long long value;
};

static void set_slot(void *p)
{
    struct set_args *a = p;
    CHECK_TRUE(tucana_task_id() > 0, "tucana_task_id inside a task");
    *a->slot = a->value;
}


struct parent_args {
    int index;
};

static void child(void *p)
{
    int *cell = *(int **)p;
    __atomic_store_n(cell, 1, __ATOMIC_RELEASE);
}

static void parent(void *p)
{
    struct parent_args *a = p;
    for (int k = 0; k < 4; ++k) {
        int *cell = &nested_done[a->index][k];
        tucana_task_spawn(child, &cell, sizeof cell, NULL);
    }
    /* no taskwait: a task finishes after its children anyway */
}

static void test_spawn(void)
{
    long long slots[64];
    for (int i = 0; i < 64; ++i) {
        struct set_args a = {&slots[i], 1000LL * rank + i};
        tucana_task_spawn(set_slot, &a, sizeof a, NULL);
        a.value = -1; /* the task has its own copy */
    }
    tucana_taskwait();
    for (int i = 0; i < 64; ++i)
        CHECK(1000LL * rank + i, slots[i], "slot %d", i);
    CHECK(0, tucana_task_id(), "tucana_task_id outside tasks");

    memset(nested_done, 0, sizeof nested_done);
    for (int i = 0; i < 8; ++i) {
        struct parent_args a = {i};
        tucana_task_spawn(parent, &a, sizeof a, NULL);
    }
    tucana_taskwait();
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 4; ++k)
            CHECK(1, __atomic_load_n(&nested_done[i][k], __ATOMIC_ACQUIRE), "nested child %d.%d", i, k);
}

/* --- dependencies -------------------------------------------------------- */


struct digit_args {
    int digit;
};

static void append_digit(void *p)
{
    struct digit_args *a = p;
    /* inout on chain_value: these run one after the other, in spawn order */
    chain_value = chain_value * 10 + a->digit;
}

static void read_value(void *p)
{
    int which = *(int *)p;
    CHECK(123, chain_value, "reader %d sees the writers' value", which);
    __atomic_store_n(&readers_seen[which], 1, __ATOMIC_RELEASE);
}

static void overwrite(void *p)
{
    (void)p;
    CHECK(1, __atomic_load_n(&readers_seen[0], __ATOMIC_ACQUIRE), "writer after reader 0");
    CHECK(1, __atomic_load_n(&readers_seen[1], __ATOMIC_ACQUIRE), "writer after reader 1");
    chain_value = 7;
}

static void slow_first(void *p)
{
    (void)p;
    /* Gives the scheduler every chance to run the second one early. */
    for (int i = 0; i < 20; ++i) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    CHECK(0, __atomic_fetch_add(&order_seq, 1, __ATOMIC_ACQ_REL), "the first task runs first");
}

static void then_second(void *p)
{
    (void)p;
    CHECK(1, __atomic_fetch_add(&order_seq, 1, __ATOMIC_ACQ_REL), "the task after it runs second");
}

static void test_dependencies(void)
{
    chain_value = 0;
    readers_seen[0] = readers_seen[1] = 0;
    tucana_task_dep inout = {&chain_value, TUCANA_DEP_INOUT};
    tucana_task_attr attr = TUCANA_TASK_ATTR_INIT;
    attr.deps = &inout;
    attr.ndeps = 1;
    for (int d = 1; d <= 3; ++d) {
        struct digit_args a = {d};
        tucana_task_spawn(append_digit, &a, sizeof a, &attr);
    }
    tucana_task_dep in = {&chain_value, TUCANA_DEP_IN};
    tucana_task_attr rattr = TUCANA_TASK_ATTR_INIT;
    rattr.deps = &in;
    rattr.ndeps = 1;
    for (int which = 0; which < 2; ++which)
        tucana_task_spawn(read_value, &which, sizeof which, &rattr);
    tucana_task_dep out = {&chain_value, TUCANA_DEP_OUT};
    tucana_task_attr wattr = TUCANA_TASK_ATTR_INIT;
    wattr.deps = &out;
    wattr.ndeps = 1;
    tucana_task_spawn(overwrite, NULL, 0, &wattr);
    tucana_taskwait();
    CHECK(7, chain_value, "the last writer");

    /* A handle dependency, and tucana_task_wait on one task. */
    order_seq = 0;
    tucana_task_t first = tucana_task_spawn(slow_first, NULL, 0, NULL);
    tucana_task_attr after = TUCANA_TASK_ATTR_INIT;
    after.after = &first;
    after.nafter = 1;
    tucana_task_t second = tucana_task_spawn(then_second, NULL, 0, &after);
    tucana_task_wait(second);
    CHECK(2, __atomic_load_n(&order_seq, __ATOMIC_ACQUIRE), "both ran once the second is done");
    tucana_taskwait();
}

/* --- MPI inside tasks ---------------------------------------------------- */

#define BIG (256 * 1024) /* doubles: 2 MiB, past any eager limit */
#define NMSG 6

struct msg_args {
    int peer;
    int tag;
    double *buf;
    int count;
};

static void send_task(void *p)
{
    struct msg_args *a = p;
    MPI_Send(a->buf, a->count, MPI_DOUBLE, a->peer, a->tag, MPI_COMM_WORLD);
}

static void recv_task(void *p)
{
    struct msg_args *a = p;
    MPI_Status st;
    MPI_Recv(a->buf, a->count, MPI_DOUBLE, a->peer, a->tag, MPI_COMM_WORLD, &st);
    CHECK(a->peer, st.MPI_SOURCE, "source of tag %d", a->tag);
    CHECK(a->tag, st.MPI_TAG, "tag");
}

static void probe_task(void *p)
{
    int *got = p; /* (a copy; the result goes through the pointer inside) */
    int *out = *(int **)got;
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &st);
    int value;
    MPI_Recv(&value, 1, MPI_INT, st.MPI_SOURCE, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK((rank + size - 1) % size, st.MPI_SOURCE, "probed source");
    *out = value;
}

static void allreduce_task(void *p)
{
    long long *out = *(long long **)p;
    long long mine = rank + 1;
    MPI_Allreduce(&mine, out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    int is_main = 1;
    MPI_Is_thread_main(&is_main);
    CHECK(0, is_main, "MPI_Is_thread_main in a task");
}

static void test_mpi_in_tasks(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *out[NMSG], *in[NMSG];
    /* The receives first on purpose: each blocks its own task only. */
    for (int k = 0; k < NMSG; ++k) {
        int count = k % 2 ? BIG : 8;
        in[k] = xmalloc(sizeof(double) * count);
        out[k] = xmalloc(sizeof(double) * count);
        for (int i = 0; i < count; ++i)
            out[k][i] = rank * 100000.0 + k * 1000.0 + i;
        struct msg_args r = {left, k, in[k], count};
        tucana_task_spawn(recv_task, &r, sizeof r, NULL);
    }
    for (int k = NMSG - 1; k >= 0; --k) {
        struct msg_args s = {right, k, out[k], k % 2 ? BIG : 8};
        tucana_task_spawn(send_task, &s, sizeof s, NULL);
    }
    tucana_taskwait();
    for (int k = 0; k < NMSG; ++k) {
        int count = k % 2 ? BIG : 8;
        for (int i = 0; i < count; i += 997)
            CHECK((long long)(left * 100000.0 + k * 1000.0 + i), (long long)in[k][i], "message %d [%d]", k, i);
        free(in[k]);
        free(out[k]);
    }

    int probed = -1;
    int *probed_at = &probed;
    tucana_task_spawn(probe_task, &probed_at, sizeof probed_at, NULL);
    int value = 5000 + rank;
    MPI_Send(&value, 1, MPI_INT, right, 77, MPI_COMM_WORLD);
    tucana_taskwait();
    CHECK(5000 + left, probed, "probed message");

    long long sum = -1;
    long long *sum_at = &sum;
    tucana_task_spawn(allreduce_task, &sum_at, sizeof sum_at, NULL);
    tucana_taskwait();
    CHECK((long long)size * (size + 1) / 2, sum, "allreduce in a task");
}

/* --- many tasks ---------------------------------------------------------- */


static void add_one(void *p)
{
    long long k = *(long long *)p;
    __atomic_fetch_add(&many_total, k, __ATOMIC_RELAXED);
}

static void test_many(void)
{
    many_total = 0;
    const long long n = 2000;
    for (long long k = 1; k <= n; ++k)
        tucana_task_spawn(add_one, &k, sizeof k, NULL);
    tucana_taskwait();
    CHECK(n * (n + 1) / 2, __atomic_load_n(&many_total, __ATOMIC_RELAXED), "sum over %lld tasks", n);
}

/* --- taskloop ------------------------------------------------------------ */

struct loop_args {
    long long *squares;
    int *chunks;
};

static void squares_body(long long lo, long long hi, void *p)
{
    struct loop_args *a = p;
    CHECK_TRUE(lo < hi, "a chunk is not empty");
    for (long long i = lo; i < hi; ++i)
        a->squares[i] = i * i;
    __atomic_fetch_add(a->chunks, 1, __ATOMIC_RELAXED);
}

static void run_taskloop(long long n, long long num_tasks, long long grainsize, int expected_chunks)
{
    long long *squares = xmalloc(sizeof(long long) * (n ? n : 1));
    int chunks = 0;
    for (long long i = 0; i < n; ++i)
        squares[i] = -1;
    struct loop_args a = {squares, &chunks};
    tucana_taskloop(n, num_tasks, grainsize, squares_body, &a, sizeof a, NULL);
    for (long long i = 0; i < n; ++i)
        CHECK(i * i, squares[i], "taskloop(n=%lld) [%lld]", n, i);
    CHECK(expected_chunks, chunks, "chunks of taskloop(n=%lld, num_tasks=%lld, grainsize=%lld)", n, num_tasks,
          grainsize);
    free(squares);
}

static void test_taskloop(void)
{
    const char *env = getenv("TUCANA_TASKS");
    int asked = env && *env ? atoi(env) : 1;
    CHECK(asked, tucana_num_tasks(), "tucana_num_tasks() is --tasks");
    run_taskloop(1000, 3, 0, 3);
    run_taskloop(1000, 0, 100, 10);
    run_taskloop(1000, 0, 0, asked < 1000 ? asked : 1000);
    run_taskloop(2, 8, 0, 2); /* no more chunks than iterations */
    run_taskloop(0, 4, 0, 0);
}

/* --- boundary tasks first ------------------------------------------------ */


struct order_args {
    int which; /* 0: local work, 1: talks to the partner */
    int partner_out, partner_in;
};

static void ordered(void *p)
{
    struct order_args *a = p;
    run_order[a->which] = __atomic_fetch_add(&run_seq, 1, __ATOMIC_ACQ_REL);
    if (a->which == 1) {
        int x = rank, y = -1;
        MPI_Sendrecv(&x, 1, MPI_INT, a->partner_out, 55, &y, 1, MPI_INT, a->partner_in, 55, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(a->partner_in, y, "partner's value");
    }
}

static void test_boundary_first(void)
{
    /* Which ranks share this process: the same pid. */
    int *pids = xmalloc(sizeof(int) * size);
    int pid = (int)getpid();
    MPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
    int out = (rank + size / 2) % size, in = (rank - size / 2 + size) % size;
    int remote = pids[out] != pid || pids[in] != pid;
    /* The order is the priority policy's, with one worker (with more, an
     * idle worker takes the other task at once; seeded schedules pick at
     * random). */
    const char *workers = getenv("TUCANA_WORKERS"), *seed = getenv("TUCANA_SCHED_SEED");
    const char *policy = getenv("TUCANA_POLICY");
    int one_worker = workers && strcmp(workers, "1") == 0 && !(seed && *seed) && !(policy && strcmp(policy, "fifo") == 0);

    /* Epoch 1: the runtime learns that the second task talks to another
     * process (when it does); epoch 2: it then runs first, and so does an
     * explicit boundary task. */
    for (int epoch = 0; epoch < 3; ++epoch) {
        run_seq = 0;
        tucana_task_attr attr = TUCANA_TASK_ATTR_INIT;
        struct order_args local = {0, out, in}, talker = {1, out, in};
        if (epoch == 2) attr.boundary = -1; /* learnt boundary turned off: spawn order */
        tucana_task_spawn(ordered, &local, sizeof local, &attr);
        tucana_task_spawn(ordered, &talker, sizeof talker, &attr);
        tucana_taskwait();
        if (one_worker && epoch == 1)
            CHECK(remote ? 0 : 1, run_order[1], "epoch %d: order of the task that talks to another process", epoch);
        if (one_worker && epoch == 2)
            CHECK(1, run_order[1], "boundary -1: spawn order");
    }

    if (one_worker) {
        run_seq = 0;
        tucana_task_attr plain = TUCANA_TASK_ATTR_INIT, boundary = TUCANA_TASK_ATTR_INIT;
        plain.boundary = -1;
        boundary.boundary = 1;
        struct order_args local = {0, rank, rank}, marked = {1, rank, rank};
        tucana_task_spawn(ordered, &local, sizeof local, &plain);
        tucana_task_spawn(ordered, &marked, sizeof marked, &boundary);
        tucana_taskwait();
        CHECK(0, run_order[1], "a boundary task runs first");
    }
    free(pids);
}

/* --- tasks on stolen workers -------------------------------------------- */

#include <time.h>


static void spin_task(void *p)
{
    int k = *(int *)p;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 500000L);
    ran_on[k] = pthread_self();
}

/* Rank 0 spawns 200 tasks of 0.5 ms while every other rank waits in a
 * barrier: with several workers in its process, idle workers take some of
 * them (the tasks record the thread that ran them). */
static void test_stolen(void)
{
    const char *workers = getenv("TUCANA_WORKERS");
    int several = workers && atoi(workers) > 1;
    if (rank == 0) {
        for (int k = 0; k < STEAL_TASKS; ++k)
            tucana_task_spawn(spin_task, &k, sizeof k, NULL);
        tucana_taskwait();
        int distinct = 0;
        for (int k = 0; k < STEAL_TASKS; ++k) {
            int seen = 0;
            for (int j = 0; j < k && !seen; ++j)
                seen = pthread_equal(ran_on[j], ran_on[k]);
            distinct += !seen;
        }
        if (several)
            CHECK_TRUE(distinct > 1, "tasks of rank 0 ran on %d worker thread(s)", distinct);
        else
            CHECK(1, distinct, "one worker: one thread");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK_TRUE(r < MAX_RANKS, "at most %d ranks", MAX_RANKS);
    states[r] = xmalloc(sizeof(struct rank_state));
    memset(states[r], 0, sizeof(struct rank_state));
    states[r]->rank_ = r;
    states[r]->size_ = n;
    test_spawn();
    test_dependencies();
    test_mpi_in_tasks();
    test_many();
    test_taskloop();
    test_boundary_first();
    test_stolen();
    /* Tasks left running at MPI_Finalize: it waits for them. */
    struct msg_args late = {rank, 99, xmalloc(sizeof(double)), 1};
    late.buf[0] = 1.5;
    tucana_task_spawn(send_task, &late, sizeof late, NULL);
    double back = 0;
    MPI_Recv(&back, 1, MPI_DOUBLE, rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(15, (long long)(back * 10), "a message to itself from its task");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    free(late.buf);
    return 0;
}
