/* Privatized globals, written by hand as tucanacc's translator writes them
 * (tucana/privatize.h): the variables live in the section "tucana_priv",
 * every use goes through tucana_priv_delta(), an initializer is registered
 * from a constructor and a destructor call with tucana_priv_atexit. Checks
 * that each subrank starts from the static values with its initializer run
 * once, keeps its own values (and its own errno) across blocking MPI calls
 * that let the other subranks of its process run, on any worker; that user
 * reductions on helper fibers see their subrank's copy; and that the atexit
 * calls run, latest first, with the subrank's values, whether main returns
 * or calls exit() (argument "exit"): each prints "atexit ok R".
 * Tucana only (no reference run): plain MPI has no tucana_priv_delta. */
#define TESTNAME "priv_globals"
#include <errno.h>
#include <stdint.h>
#include <tucana/privatize.h>
#include <unistd.h>

#include "mpitest.h"

/* The running subrank's copy of x (what the translator writes). */
#define PRIV(T, x) (*(T *)((char *)&(x) + tucana_priv_delta()))

__attribute__((section("tucana_priv"))) int counter = 5;
__attribute__((section("tucana_priv"))) static double arr[1000];
__attribute__((section("tucana_priv"))) static int init_runs;
__attribute__((section("tucana_priv"))) static int my_rank = -1;
__attribute__((section("tucana_priv"))) static int op_calls;
__attribute__((section("tucana_priv"))) static int atexit_step;

#define ROUNDS 10

/* errno's address, computed anew: glibc declares __errno_location const,
 * so a compiler may keep errno's address across the MPI call, and a subrank
 * may resume on another worker thread (docs/runtime.md, "Global
 * variables"); calling it through an opaque pointer makes every call
 * happen. */
static inline int *errno_here(void) {
    int *(*location)(void) = __errno_location;
    __asm__ volatile("" : "+r"(location));
    return location();
}

static void priv_init(void) {
    /* Runs on the subrank's fiber before its main: its own copy. */
    PRIV(int, init_runs) += 1;
    PRIV(int, counter) += 1;
}

__attribute__((constructor)) static void register_init(void) { tucana_priv_add_init(priv_init); }

/* Registered second: runs first. */
static void at_exit_second(void *arg) {
    int rank = (int)(intptr_t)arg;
    if (PRIV(int, my_rank) != rank || PRIV(int, atexit_step) != 0 ||
        PRIV(int, counter) != rank * 100 + ROUNDS) {
        printf("FAIL %s: rank %d: atexit_second saw my_rank %d step %d counter %d\n", TESTNAME, rank,
               PRIV(int, my_rank), PRIV(int, atexit_step), PRIV(int, counter));
        return;
    }
    PRIV(int, atexit_step) = 1;
}

static void at_exit_first(void *arg) {
    int rank = (int)(intptr_t)arg;
    if (PRIV(int, my_rank) != rank || PRIV(int, atexit_step) != 1) {
        printf("FAIL %s: rank %d: atexit_first saw my_rank %d step %d\n", TESTNAME, rank, PRIV(int, my_rank),
               PRIV(int, atexit_step));
        return;
    }
    printf("atexit ok %d\n", rank);
}

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    PRIV(int, op_calls) += 1;
    for (int i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = wrank, size = wsize;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* A fresh copy: the static values, the initializer run once. */
    CHECK(1, PRIV(int, init_runs), "initializer runs before main");
    CHECK(6, PRIV(int, counter), "counter after the initializer");
    CHECK(-1, PRIV(int, my_rank), "my_rank's static value");
    for (int i = 0; i < 1000; ++i) CHECK_TRUE(PRIV(double, arr[i]) == 0.0, "arr[%d] starts at 0", i);
    ptrdiff_t delta = tucana_priv_delta();
    CHECK_TRUE(delta != 0, "a subrank has its own copy");
    CHECK(0, delta % 4096, "the copy keeps page alignment");

    PRIV(int, my_rank) = rank;
    PRIV(int, counter) = rank * 100;
    for (int i = 0; i < 1000; ++i) PRIV(double, arr[i]) = rank + i * 0.5;

    for (int round = 0; round < ROUNDS; ++round) {
        *errno_here() = 1000 + rank * 10 + round;
        int mine = PRIV(int, counter), theirs = -1;
        MPI_Sendrecv(&mine, 1, MPI_INT, right, round, &theirs, 1, MPI_INT, left, round, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(left * 100 + round, theirs, "neighbour's counter in round %d", round);
        CHECK(1000 + rank * 10 + round, *errno_here(), "errno after MPI_Sendrecv in round %d", round);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(1000 + rank * 10 + round, *errno_here(), "errno after MPI_Barrier in round %d", round);
        CHECK(rank * 100 + round, PRIV(int, counter), "own counter in round %d", round);
        CHECK(rank, PRIV(int, my_rank), "own my_rank in round %d", round);
        for (int i = 0; i < 1000; i += 37)
            CHECK_TRUE(PRIV(double, arr[i]) == rank + i * 0.5, "own arr[%d] in round %d", i, round);
        PRIV(int, counter) += 1;
    }

    /* The runtime's own failing system calls leave the program's errno
     * alone: MPI_File_open of a missing file (files return errors by
     * default) has open(2) fail with ENOENT inside the call. */
    {
        MPI_File fh;
        *errno_here() = 4321;
        int err = MPI_File_open(MPI_COMM_SELF, "/nonexistent-tucana-dir/none", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
        CHECK_TRUE(err != MPI_SUCCESS, "MPI_File_open of a missing file fails");
        CHECK(4321, *errno_here(), "errno after a failing MPI_File_open");
    }

    /* A user reduction in a non-blocking collective runs on helper fibers:
     * each call counts in the copy of the subrank it runs for. */
    MPI_Op op;
    MPI_Op_create(sum_op, 1, &op);
    int one = 1, total = 0;
    MPI_Request req;
    MPI_Iallreduce(&one, &total, 1, MPI_INT, op, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(size, total, "MPI_Iallreduce with a user op");
    int calls = 0;
    MPI_Allreduce(&PRIV(int, op_calls), &calls, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (size > 1) CHECK_TRUE(calls > 0, "the user op ran (%d calls)", calls);
    CHECK(0, op_calls, "the image's op_calls (no subrank uses the image)");
    CHECK(5, counter, "the image's counter");
    MPI_Op_free(&op);

    tucana_priv_atexit(at_exit_first, (void *)(intptr_t)rank);
    tucana_priv_atexit(at_exit_second, (void *)(intptr_t)rank);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    if (argc > 1 && strcmp(argv[1], "exit") == 0) exit(0);
    return 0;
}
