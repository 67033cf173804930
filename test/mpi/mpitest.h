/* mpitest.h -- what the conformance programs share: failure reports that
 * name the test, the rank and the line, and the world rank without a global
 * variable. Plain MPI: the programs build with any mpicc as well.
 *
 * Define TESTNAME before including it. CHECK(expected, got, fmt, ...)
 * compares two integers; on a mismatch the rank prints
 *   FAIL <TESTNAME>: rank R: <message> (line L) expected X got Y
 * and calls MPI_Abort. */
#ifndef TUCANA_TEST_MPITEST_H
#define TUCANA_TEST_MPITEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void fail(const char *what, long long expected, long long got, int line)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: %s (line %d) expected %lld got %lld\n",
            TESTNAME, rank, what, line, expected, got);
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
            fail(c_, e_, g_, __LINE__);                                   \
        }                                                                 \
    } while (0)

#define CHECK_TRUE(cond, ...) CHECK(1, (cond) ? 1 : 0, __VA_ARGS__)

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        fail("malloc failed", (long long)n, 0, __LINE__);
    return p;
}

/* The programs also run under plain MPICH as a reference (tests
 * mpi.NAME.reference.nN, docs/testing.md). MPICH 4.0.2 departs from MPI 3.1 in
 * a few places that the programs check; each such check is guarded by
 * IF_NOT_MPICH_DEVIATION, with the deviation named where it is used. Under
 * Tucana (and any other MPI) every check runs. */
#ifdef MPICH_VERSION
#define IF_NOT_MPICH_DEVIATION if (0)
#else
#define IF_NOT_MPICH_DEVIATION if (1)
#endif

/* No mutable globals: under Tucana the ranks of a process share them (see
 * docs/runtime.md, "Global variables"), so each rank asks MPI instead. */
static inline int world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
static inline int world_size(void)
{
    int s;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}
#define wrank (world_rank())
#define wsize (world_size())

#endif
