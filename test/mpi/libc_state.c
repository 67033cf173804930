/* libc_state.c -- rand(), strtok() and getopt() keep their state per rank:
 * every subrank gets the sequence one process alone would get, while the
 * subranks of a process (on one worker, or two at once) interleave their
 * calls at MPI calls.
 *
 * Under Tucana it calls the runtime's per-subrank functions as translated
 * programs do (tucana/privatize.h, no translator here); under plain MPI
 * (the reference run) libc's own, where each rank is a process. Run with the
 * arguments of CMakeLists.txt:
 *   -v -n 3 input.txt --size=10 -xo out.dat --quiet --mode fast rest1 -- -q */
#define _GNU_SOURCE
#include <getopt.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "libc_state"
#include "mpitest.h"

#ifdef TUCANA
#include <tucana/privatize.h>
#define OPTIND (*tucana_priv_optind())
#define OPTARG (*tucana_priv_optarg())
#define OPTERR (*tucana_priv_opterr())
#define OPTOPT (*tucana_priv_optopt())
#define RAND tucana_rand
#define SRAND tucana_srand
#define RANDOM tucana_random
#define STRTOK tucana_strtok
#define GETOPT tucana_getopt
#define GETOPT_LONG tucana_getopt_long
#else
#define OPTIND optind
#define OPTARG optarg
#define OPTERR opterr
#define OPTOPT optopt
#define RAND rand
#define SRAND srand
#define RANDOM random
#define STRTOK strtok
#define GETOPT getopt
#define GETOPT_LONG getopt_long
#endif

/* Lets the other subranks of the process run (and those of other workers
 * touch their own state meanwhile). */
static void yield_point(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The sequence glibc's rand() gives after srand(seed), from a generator of
 * our own (random_r on a private state). */
struct reference {
    struct random_data data;
    int32_t table[32];
};

static void reference_init(struct reference *r, unsigned seed)
{
    memset(r, 0, sizeof *r);
    CHECK(0, initstate_r(1, (char *)r->table, sizeof r->table, &r->data), "initstate_r");
    CHECK(0, srandom_r(seed, &r->data), "srandom_r");
}

static long reference_next(struct reference *r)
{
    int32_t v;
    random_r(&r->data, &v);
    return v;
}

/* What getopt_long returns over the arguments above (from glibc 2.36),
 * call by call, and argv afterwards. */
struct expected_call {
    int ret, optind;
    const char *optarg;
    int longindex;
};
static const struct expected_call expected_calls[] = {
    {'v', 2, NULL, -1},       {'n', 4, "3", -1}, {'s', 6, "10", 1},      {'x', 6, NULL, -1},
    {'o', 8, "out.dat", -1},  {0, 9, NULL, 3},   {'m', 11, "fast", 2},   {-1, 11, NULL, -1},
};
#define NCALLS ((int)(sizeof expected_calls / sizeof expected_calls[0]))
static const char *const expected_argv[] = {"-v", "-n", "3", "--size=10", "-xo", "out.dat", "--quiet",
                                            "--mode", "fast", "--", "input.txt", "rest1", "-q"};
#define NARGS ((int)(sizeof expected_argv / sizeof expected_argv[0]))

static void check_rand(int rank)
{
    struct reference ref;
    /* srand(rank), values of rand() and random() with MPI calls in between. */
    SRAND((unsigned)rank);
    reference_init(&ref, (unsigned)rank);
    for (int i = 0; i < 12; i++) {
        long want = reference_next(&ref);
        long got = i % 2 ? RANDOM() : RAND();
        CHECK(want, got, "value %d after srand(%d)", i, rank);
        yield_point();
    }
}

static void check_getopt(int rank, int argc, char **argv)
{
    int quiet = 0;
    const struct option longopts[] = {{"verbose", no_argument, NULL, 'v'},
                                      {"size", required_argument, NULL, 's'},
                                      {"mode", required_argument, NULL, 'm'},
                                      {"quiet", no_argument, &quiet, 1},
                                      {NULL, 0, NULL, 0}};
    CHECK(NARGS + 1, argc, "argc (run with the arguments in CMakeLists.txt)");
    OPTERR = rank % 2;
    OPTOPT = 1000 + rank;
    /* Odd and even ranks call at alternate steps: in between, the others
     * are in the middle of their own scans. */
    int done = 0;
    for (int step = 0; step < 2 * NCALLS + 2; step++) {
        if ((step + rank) % 2 == 0 && done < NCALLS) {
            const struct expected_call *e = &expected_calls[done];
            int longindex = -1;
            int c = GETOPT_LONG(argc, argv, "vn:xo:", longopts, &longindex);
            CHECK(e->ret, c, "getopt_long call %d", done);
            CHECK(e->optind, OPTIND, "optind after call %d", done);
            CHECK(e->longindex, longindex, "longindex of call %d", done);
            CHECK_TRUE(e->optarg ? OPTARG && strcmp(OPTARG, e->optarg) == 0 : OPTARG == NULL,
                       "optarg after call %d", done);
            done++;
        }
        yield_point();
    }
    CHECK(NCALLS, done, "getopt_long calls");
    CHECK(1, quiet, "--quiet's flag");
    CHECK(rank % 2, OPTERR, "opterr");
    /* (glibc's optopt is its own copy's after every call: 0 until an error) */
    CHECK(0, OPTOPT, "optopt (no error seen)");
    for (int i = 0; i < NARGS; i++)
        CHECK_TRUE(strcmp(argv[i + 1], expected_argv[i]) == 0, "argv[%d] after permutation", i + 1);

    /* A new scan (optind = 0) of an argv of this rank's own: even ranks an
     * option with a rank-specific argument, odd ranks an unknown option
     * (silently: opterr 0), which sets optopt. */
    char arg[32], prog[] = "prog", o[] = "-o", z[] = "-zy";
    snprintf(arg, sizeof arg, "value%d", rank);
    char *mine[] = {prog, rank % 2 ? z : o, arg, NULL};
    OPTERR = 0;
    OPTIND = 0;
    yield_point();
    int c = GETOPT(3, mine, "o:y");
    yield_point();
    if (rank % 2 == 0) {
        CHECK('o', c, "getopt of -o");
        CHECK(3, OPTIND, "optind after -o value");
        CHECK_TRUE(OPTARG == arg, "optarg of -o is the rank's own argument");
        CHECK(0, OPTOPT, "optopt without an error");
    } else {
        CHECK('?', c, "getopt of -z");
        CHECK('z', OPTOPT, "optopt of -z");
        CHECK(1, OPTIND, "optind inside -zy");
        yield_point();
        c = GETOPT(3, mine, "o:y");
        CHECK('y', c, "getopt of y in -zy");
        CHECK(2, OPTIND, "optind after -zy");
    }
    /* (every rank makes the same MPI calls) */
    if (rank % 2 == 0)
        yield_point();
    c = GETOPT(3, mine, "o:y");
    CHECK(-1, c, "end of the second scan");
}

static void check_strtok(int rank)
{
    char text[64], want[3][16];
    snprintf(text, sizeof text, ";r%da,r%db;;,r%dc,", rank, rank, rank);
    for (int i = 0; i < 3; i++)
        snprintf(want[i], sizeof want[i], "r%d%c", rank, 'a' + i);
    char *tok = STRTOK(text, ",;");
    for (int i = 0; i < 3; i++) {
        CHECK_TRUE(tok && strcmp(tok, want[i]) == 0, "token %d", i);
        yield_point();
        tok = STRTOK(NULL, i % 2 ? ",;" : ";,");
    }
    CHECK_TRUE(tok == NULL, "no token after the last");
}

int main(int argc, char **argv)
{
    /* Before any seeding (and before MPI_Init): glibc's default sequence,
     * as after srand(1). */
    struct reference ref;
    reference_init(&ref, 1);
    long first[3];
    for (int i = 0; i < 3; i++)
        first[i] = RAND();
    MPI_Init(&argc, &argv);
    int rank = wrank;
    for (int i = 0; i < 3; i++)
        CHECK(reference_next(&ref), first[i], "default value %d", i);
    CHECK(1804289383, first[0], "glibc's first value");

    check_rand(rank);
    check_getopt(rank, argc, argv);
    check_strtok(rank);
    check_rand(rank + 1000);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
