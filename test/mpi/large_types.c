/*
 * large_types -- datatypes of more blocks than a type map lists (Tucana
 * keeps them compact, docs/runtime.md "Datatypes"), as MPICH's
 * test/mpi/datatype/large_count builds them, and used for data.
 *
 *  1. MPI_Type_vector(INT_MAX / 2, 1, 3, four ints): a type of 16 GiB of
 *     data over 48 GiB, never allocated: MPI_Type_size_x, _get_extent_x,
 *     _get_true_extent_x, MPI_Type_size giving MPI_UNDEFINED; resized to
 *     lb INT_MAX and extent -1024; MPI_Status_set_elements_x of all its
 *     ints, then MPI_Get_count 1 and MPI_Get_elements_x back.
 *  2. A vector of N = 17,000,000 single chars two apart (more than 16 Mi
 *     blocks): sent as one element around the ring and received as N
 *     contiguous chars; sent as N chars and received into the vector (the
 *     chars in between untouched); a message of N / 2 + 1 chars received
 *     into it (MPI_Get_elements counts them; the rest untouched).
 *  3. Nested: two of those vectors one after the other (MPI_Type_create_
 *     hvector of the vector), through MPI_Pack / MPI_Unpack.
 *  4. Under Tucana, a one-sided operation with such a target datatype is
 *     refused with MPI_ERR_TYPE (its target blocks are listed).
 * Prints "OK large_types" on rank 0.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "large_types"
#include "mpitest.h"

#define N 17000000L

static unsigned char pattern(int rank, long i) { return (unsigned char)((i * 7 + rank * 13) & 0xff); }

static void huge_type(void)
{
    MPI_Datatype four_ints, imx4i, imx4i_rsz;
    MPI_Count size_x, lb_x, extent_x;
    MPI_Aint lb, extent;
    MPI_Status st;
    int size, count;
    const MPI_Count blocks = INT_MAX / 2;
    const MPI_Count true_extent = 3LL * 16 * (blocks - 1) + 16;
    MPI_Type_contiguous(4, MPI_INT, &four_ints);
    MPI_Type_vector(INT_MAX / 2, 1, 3, four_ints, &imx4i);
    MPI_Type_commit(&imx4i);
    MPI_Type_size_x(imx4i, &size_x);
    CHECK(16 * blocks, size_x, "MPI_Type_size_x of the huge vector");
    MPI_Type_size(imx4i, &size);
    CHECK(MPI_UNDEFINED, size, "MPI_Type_size of the huge vector does not fit an int");
    MPI_Type_get_extent_x(imx4i, &lb_x, &extent_x);
    CHECK(0, lb_x, "lb of the huge vector");
    CHECK(true_extent, extent_x, "extent of the huge vector");
    MPI_Type_get_extent(imx4i, &lb, &extent);
    CHECK(true_extent, extent, "MPI_Type_get_extent of the huge vector");
    MPI_Type_get_true_extent_x(imx4i, &lb_x, &extent_x);
    CHECK(0, lb_x, "true lb of the huge vector");
    CHECK(true_extent, extent_x, "true extent of the huge vector");

    MPI_Type_create_resized(imx4i, INT_MAX, -1024, &imx4i_rsz);
    MPI_Type_commit(&imx4i_rsz);
    MPI_Type_get_extent_x(imx4i_rsz, &lb_x, &extent_x);
    CHECK(INT_MAX, lb_x, "lb of the resized huge vector");
    CHECK(-1024, extent_x, "extent of the resized huge vector");
    MPI_Type_size_x(imx4i_rsz, &size_x);
    CHECK(16 * blocks, size_x, "MPI_Type_size_x of the resized huge vector");
    MPI_Type_get_true_extent_x(imx4i_rsz, &lb_x, &extent_x);
    CHECK(true_extent, extent_x, "true extent of the resized huge vector");

    /* MPICH 4.0.2 deviation: after MPI_Status_set_elements_x on this type
     * its MPI_Get_count gives -32766 and MPI_Get_elements_x garbage (Open
     * MPI 4.1.4 gives what MPI says) */
    IF_NOT_MPICH_DEVIATION {
        MPI_Status_set_elements_x(&st, imx4i, 4 * blocks);
        MPI_Get_count(&st, imx4i, &count);
        CHECK(1, count, "MPI_Get_count after MPI_Status_set_elements_x of all its ints");
        MPI_Get_elements_x(&st, imx4i, &size_x);
        CHECK(4 * blocks, size_x, "MPI_Get_elements_x of all its ints");
        MPI_Get_elements(&st, imx4i, &count);
        CHECK(MPI_UNDEFINED, count, "MPI_Get_elements of more than INT_MAX ints");
    }

    MPI_Type_free(&imx4i_rsz);
    MPI_Type_free(&imx4i);
    MPI_Type_free(&four_ints);
}

int main(int argc, char **argv)
{
    int me, n, left, right, cnt;
    long i;
    MPI_Datatype vec, two;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    left = (me + n - 1) % n;
    right = (me + 1) % n;

    huge_type();

    unsigned char *spread = xmalloc(2 * N), *packed = xmalloc(N);
    MPI_Type_vector((int)N, 1, 2, MPI_UNSIGNED_CHAR, &vec);
    MPI_Type_commit(&vec);
    {
        MPI_Aint lb, extent;
        MPI_Type_get_extent(vec, &lb, &extent);
        CHECK(2 * N - 1, extent, "extent of the vector of N chars");
    }

    /* 2a: out through the vector, in as N chars */
    for (i = 0; i < 2 * N; ++i)
        spread[i] = i % 2 ? 0xee : pattern(me, i / 2);
    MPI_Sendrecv(spread, 1, vec, right, 1, packed, (int)N, MPI_UNSIGNED_CHAR, left, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_UNSIGNED_CHAR, &cnt);
    CHECK(N, cnt, "chars received from the vector");
    for (i = 0; i < N; ++i)
        if (packed[i] != pattern(left, i))
            CHECK(pattern(left, i), packed[i], "char %ld sent through the vector", i);

    /* 2b: out as N chars, in through the vector */
    for (i = 0; i < N; ++i)
        packed[i] = pattern(me + 100, i);
    memset(spread, 0x5a, 2 * N);
    MPI_Sendrecv(packed, (int)N, MPI_UNSIGNED_CHAR, right, 2, spread, 1, vec, left, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, vec, &cnt);
    CHECK(1, cnt, "one vector received");
    for (i = 0; i < 2 * N; ++i) {
        unsigned char want = i % 2 ? 0x5a : pattern(left + 100, i / 2);
        if (spread[i] != want)
            CHECK(want, spread[i], "byte %ld received through the vector", i);
    }

    /* 2c: a shorter message into the vector */
    memset(spread, 0x11, 2 * N);
    MPI_Sendrecv(packed, (int)(N / 2 + 1), MPI_UNSIGNED_CHAR, right, 3, spread, 1, vec, left, 3, MPI_COMM_WORLD,
                 &st);
    MPI_Get_elements(&st, vec, &cnt);
    CHECK(N / 2 + 1, cnt, "MPI_Get_elements of a short message into the vector");
    MPI_Get_count(&st, vec, &cnt);
    CHECK(MPI_UNDEFINED, cnt, "MPI_Get_count of a short message into the vector");
    for (i = 0; i < 2 * N; ++i) {
        unsigned char want = (i % 2 == 0 && i / 2 < N / 2 + 1) ? pattern(left + 100, i / 2) : 0x11;
        if (spread[i] != want)
            CHECK(want, spread[i], "byte %ld of a short message into the vector", i);
    }

    /* 3: two vectors, through MPI_Pack / MPI_Unpack */
    {
        unsigned char *both = xmalloc(4 * N), *buf = xmalloc(2 * N);
        int pos = 0, psize = 0;
        MPI_Type_create_hvector(2, 1, 2 * N, vec, &two);
        MPI_Type_commit(&two);
        for (i = 0; i < 4 * N; ++i)
            both[i] = pattern(me, i);
        MPI_Pack_size(1, two, MPI_COMM_WORLD, &psize);
        CHECK_TRUE(psize >= 2 * N, "MPI_Pack_size of two vectors");
        MPI_Pack(both, 1, two, buf, 2 * N, &pos, MPI_COMM_WORLD);
        CHECK(2 * N, pos, "bytes packed from two vectors");
        for (i = 0; i < 2 * N; ++i)
            if (buf[i] != pattern(me, 2 * i))
                CHECK(pattern(me, 2 * i), buf[i], "packed byte %ld", i);
        memset(both, 0, 4 * N);
        pos = 0;
        MPI_Unpack(buf, 2 * N, &pos, both, 1, two, MPI_COMM_WORLD);
        for (i = 0; i < 4 * N; ++i) {
            unsigned char want = i % 2 ? 0 : pattern(me, i);
            if (both[i] != want)
                CHECK(want, both[i], "unpacked byte %ld", i);
        }
        MPI_Type_free(&two);
        free(both);
        free(buf);
    }

#ifdef TUCANA
    /* 4: one-sided with such a target type: refused */
    {
        MPI_Win win;
        int e;
        MPI_Win_create(spread, 2 * N, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        MPI_Win_fence(0, win);
        e = MPI_Put(packed, (int)N, MPI_UNSIGNED_CHAR, right, 0, 1, vec, win);
        MPI_Error_class(e, &e);
        CHECK(MPI_ERR_TYPE, e, "MPI_Put with a target type of more than 16 Mi blocks");
        MPI_Win_fence(0, win);
        MPI_Win_free(&win);
    }
#endif

    MPI_Type_free(&vec);
    free(spread);
    free(packed);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
