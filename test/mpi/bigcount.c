/*
 * bigcount -- MPI 4.0's big-count calls (MPI_X_c: MPI_Count counts, MPI_Aint
 * displacements; docs/mpi-support.md, "big counts").
 *
 * The forward path, with counts that fit an int: MPI_Send_c/MPI_Recv_c
 * around a ring with MPI_Get_count_c, MPI_Isend_c/MPI_Irecv_c, MPI_Bcast_c,
 * MPI_Allreduce_c, MPI_Alltoallv_c with MPI_Count/MPI_Aint arrays,
 * MPI_Iallgather_c, a user operation of MPI_Op_create_c (its length is an
 * MPI_Count) in MPI_Allreduce_c and MPI_Reduce_local_c, MPI_Pack_size_c.
 * Values beyond INT_MAX: MPI_Type_contiguous_c of 3000000000 MPI_CHARs
 * (MPI_Type_size_c, MPI_Type_get_extent_c and MPI_Type_get_true_extent_c
 * give 3000000000; no data is sent), MPI_Status_set_elements_c then
 * MPI_Get_elements_c and MPI_Get_count_c (3000000000), MPI_Pack_size_c of
 * 3000000000 MPI_CHARs, and MPI_Sendrecv_c of 3000000000 elements of a
 * datatype of size 0 (carried for real, as one derived element). Under
 * Tucana (#ifdef TUCANA) the documented refusal: with MPI_ERRORS_RETURN,
 * MPI_Allreduce_c of 3000000000 elements and MPI_Alltoallv_c with a count
 * of 3000000000 return MPI_ERR_COUNT without touching the buffers.
 * (MPICH 4.0.2 has no MPI_Status_set_elements_c: MPI_Status_set_elements_x
 * stands in for it there.) Prints "OK bigcount" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#define TESTNAME "bigcount"
#include "mpitest.h"

#define BIG 3000000000LL

/* inout[i] += in[i] for the MPI_Count *len elements (the callers check
 * the element after them: a length that is not the count shows). */
static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    const int *a = (const int *)in;
    int *b = (int *)inout;
    MPI_Count i;
    (void)type;
    for (i = 0; i < *len; ++i)
        b[i] += a[i];
}

static void p2p(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[5], in[5], i;
    MPI_Count n = -1;
    MPI_Status st;
    MPI_Request req[2];
    MPI_Status sts[2];

    for (i = 0; i < 5; ++i)
        out[i] = rank * 10 + i;
    MPI_Sendrecv_c(out, 5, MPI_INT, right, 1, in, 5, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(5, n, "MPI_Sendrecv_c: MPI_Get_count_c");
    for (i = 0; i < 5; ++i)
        CHECK(left * 10 + i, in[i], "MPI_Sendrecv_c: in[%d]", i);

    /* MPI_Send_c / MPI_Recv_c: even ranks send first */
    for (i = 0; i < 5; ++i)
        in[i] = -1;
    if (size == 1) {
        MPI_Irecv_c(in, 5, MPI_INT, 0, 2, MPI_COMM_WORLD, &req[0]);
        MPI_Send_c(out, 5, MPI_INT, 0, 2, MPI_COMM_WORLD);
        MPI_Wait(&req[0], &st);
    } else if (rank % 2 == 0) {
        MPI_Send_c(out, 5, MPI_INT, right, 2, MPI_COMM_WORLD);
        MPI_Recv_c(in, 5, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
    } else {
        MPI_Recv_c(in, 5, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
        MPI_Send_c(out, 5, MPI_INT, right, 2, MPI_COMM_WORLD);
    }
    n = -1;
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(5, n, "MPI_Recv_c: MPI_Get_count_c");
    CHECK(left * 10 + 4, in[4], "MPI_Recv_c: in[4]");

    for (i = 0; i < 5; ++i)
        in[i] = -1;
    MPI_Irecv_c(in, 3, MPI_INT, left, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Isend_c(out, 3, MPI_INT, right, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    CHECK(left * 10 + 2, in[2], "MPI_Irecv_c: in[2]");
    CHECK(-1, in[3], "MPI_Irecv_c: in[3] untouched");
}

static void collectives(int rank, int size)
{
    int b[4], s[3], r[4], i, j;
    int *sbuf, *rbuf, *gath;
    MPI_Count *scounts, *rcounts, total_s = 0, total_r = 0;
    MPI_Aint *sdispls, *rdispls;
    MPI_Request req;
    MPI_Op op;

    for (i = 0; i < 4; ++i)
        b[i] = rank == 0 ? 7 + i : -1;
    MPI_Bcast_c(b, 4, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < 4; ++i)
        CHECK(7 + i, b[i], "MPI_Bcast_c: b[%d]", i);

    for (i = 0; i < 3; ++i)
        s[i] = rank + i;
    MPI_Allreduce_c(s, r, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < 3; ++i)
        CHECK(size * (size - 1) / 2 + size * i, r[i], "MPI_Allreduce_c: r[%d]", i);

    /* a user operation of MPI_Op_create_c */
    MPI_Op_create_c(sum_c, 1, &op);
    r[3] = -5;
    MPI_Allreduce_c(s, r, 3, MPI_INT, op, MPI_COMM_WORLD);
    for (i = 0; i < 3; ++i)
        CHECK(size * (size - 1) / 2 + size * i, r[i], "MPI_Allreduce_c with MPI_Op_create_c: r[%d]", i);
    CHECK(-5, r[3], "MPI_Allreduce_c with MPI_Op_create_c: r[3] untouched");
    {
        int in[4] = {1, 2, 3, 4}, io[4] = {10, 20, 30, 40};
        MPI_Reduce_local_c(in, io, 3, MPI_INT, op);
        for (i = 0; i < 3; ++i)
            CHECK(11 * (i + 1), io[i], "MPI_Reduce_local_c: io[%d]", i);
        CHECK(40, io[3], "MPI_Reduce_local_c: io[3] untouched");
    }
    MPI_Op_free(&op);

    /* MPI_Alltoallv_c: rank r sends (r + j) % 3 + 1 ints to j */
    scounts = (MPI_Count *)xmalloc(sizeof(MPI_Count) * (size_t)size);
    rcounts = (MPI_Count *)xmalloc(sizeof(MPI_Count) * (size_t)size);
    sdispls = (MPI_Aint *)xmalloc(sizeof(MPI_Aint) * (size_t)size);
    rdispls = (MPI_Aint *)xmalloc(sizeof(MPI_Aint) * (size_t)size);
    for (j = 0; j < size; ++j) {
        scounts[j] = (rank + j) % 3 + 1;
        rcounts[j] = (j + rank) % 3 + 1;
        sdispls[j] = (MPI_Aint)total_s;
        rdispls[j] = (MPI_Aint)total_r;
        total_s += scounts[j];
        total_r += rcounts[j];
    }
    sbuf = (int *)xmalloc(sizeof(int) * (size_t)total_s);
    rbuf = (int *)xmalloc(sizeof(int) * (size_t)total_r);
    for (j = 0; j < size; ++j)
        for (i = 0; i < scounts[j]; ++i)
            sbuf[sdispls[j] + i] = rank * 1000 + j * 10 + i;
    MPI_Alltoallv_c(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    for (j = 0; j < size; ++j)
        for (i = 0; i < rcounts[j]; ++i)
            CHECK(j * 1000 + rank * 10 + i, rbuf[rdispls[j] + i], "MPI_Alltoallv_c: from %d [%d]", j, i);

#ifdef TUCANA
    /* Beyond int: refused with MPI_ERR_COUNT (docs/mpi-support.md), the
     * buffers untouched; every rank returns, so nothing hangs. */
    {
        int err, cls = -1;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        err = MPI_Allreduce_c(s, r, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Error_class(err, &cls);
        CHECK(MPI_ERR_COUNT, cls, "MPI_Allreduce_c of %lld elements: error class", BIG);
        rcounts[size - 1] = BIG;
        err = MPI_Alltoallv_c(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
        cls = -1;
        MPI_Error_class(err, &cls);
        CHECK(MPI_ERR_COUNT, cls, "MPI_Alltoallv_c with recvcounts[%d] = %lld: error class", size - 1, BIG);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
#endif
    free(sbuf);
    free(rbuf);
    free(scounts);
    free(rcounts);
    free(sdispls);
    free(rdispls);

    /* MPI_Iallgather_c: 2 ints from each rank */
    gath = (int *)xmalloc(sizeof(int) * 2 * (size_t)size);
    s[0] = rank * 3;
    s[1] = rank * 3 + 1;
    MPI_Iallgather_c(s, 2, MPI_INT, gath, 2, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (j = 0; j < size; ++j) {
        CHECK(j * 3, gath[2 * j], "MPI_Iallgather_c: from %d [0]", j);
        CHECK(j * 3 + 1, gath[2 * j + 1], "MPI_Iallgather_c: from %d [1]", j);
    }
    free(gath);
}

static void beyond_int(int rank, int size)
{
    MPI_Datatype big, empty;
    MPI_Count n = -1, lb = -1, extent = -1;
    MPI_Status st;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char c = 'x';

    /* 3000000000 chars: a type's size and extent in 64 bits, no data sent */
    MPI_Type_contiguous_c(BIG, MPI_CHAR, &big);
    MPI_Type_commit(&big);
    MPI_Type_size_c(big, &n);
    CHECK(BIG, n, "MPI_Type_size_c of MPI_Type_contiguous_c(%lld, MPI_CHAR)", BIG);
    MPI_Type_get_extent_c(big, &lb, &extent);
    CHECK(0, lb, "MPI_Type_get_extent_c: lb");
    CHECK(BIG, extent, "MPI_Type_get_extent_c: extent");
    lb = extent = -1;
    MPI_Type_get_true_extent_c(big, &lb, &extent);
    CHECK(0, lb, "MPI_Type_get_true_extent_c: lb");
    CHECK(BIG, extent, "MPI_Type_get_true_extent_c: extent");
    MPI_Type_free(&big);

    /* a status that tells of 3000000000 elements */
#ifdef TUCANA
    MPI_Status_set_elements_c(&st, MPI_CHAR, BIG);
#else
    MPI_Status_set_elements_x(&st, MPI_CHAR, BIG); /* MPICH 4.0.2 lacks the _c form */
#endif
    n = -1;
    MPI_Get_elements_c(&st, MPI_CHAR, &n);
    CHECK(BIG, n, "MPI_Get_elements_c after MPI_Status_set_elements_c(%lld)", BIG);
    n = -1;
    MPI_Get_count_c(&st, MPI_CHAR, &n);
    CHECK(BIG, n, "MPI_Get_count_c after MPI_Status_set_elements_c(%lld)", BIG);

    n = -1;
    MPI_Pack_size_c(BIG, MPI_CHAR, MPI_COMM_WORLD, &n);
    CHECK_TRUE(n >= BIG, "MPI_Pack_size_c(%lld, MPI_CHAR) = %lld", BIG, (long long)n);
    n = -1;
    MPI_Pack_size_c(5, MPI_INT, MPI_COMM_WORLD, &n);
    CHECK_TRUE(n >= 5 * (MPI_Count)sizeof(int), "MPI_Pack_size_c(5, MPI_INT) = %lld", (long long)n);
#ifdef TUCANA
    CHECK(5 * (MPI_Count)sizeof(int), n, "MPI_Pack_size_c(5, MPI_INT)");
#endif

    /* 3000000000 elements of a datatype of size 0 travel (as nothing) */
    MPI_Type_contiguous(0, MPI_INT, &empty);
    MPI_Type_commit(&empty);
    MPI_Sendrecv_c(&c, BIG, empty, right, 4, &c, BIG, empty, left, 4, MPI_COMM_WORLD, &st);
    CHECK(left, st.MPI_SOURCE, "MPI_Sendrecv_c of %lld empty elements: source", BIG);
    n = -1;
    MPI_Get_count_c(&st, MPI_CHAR, &n);
    CHECK(0, n, "MPI_Sendrecv_c of %lld empty elements: MPI_CHARs received", BIG);
    CHECK('x', c, "MPI_Sendrecv_c of %lld empty elements: buffer untouched", BIG);
    MPI_Type_free(&empty);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    p2p(rank, size);
    collectives(rank, size);
    beyond_int(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK bigcount\n");
    MPI_Finalize();
    return 0;
}
