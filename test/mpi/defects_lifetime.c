/*
 * defects_lifetime -- regression tests for the lifetime of MPI objects that
 * pending operations use, and for the number of communicators:
 *
 *  1. A user operation (MPI_Op_create) freed with MPI_Op_free right after
 *     MPI_Iallreduce, MPI_Ireduce, MPI_Iscan and MPI_Ireduce_scatter_block
 *     were started with it (MPI-3.1 sec. 5.9.5 allows it): every one
 *     completes with the right result; two outstanding at once with one
 *     op, freed after both started.
 *  2. Derived datatypes (a vector with holes, a struct) freed with
 *     MPI_Type_free right after MPI_Igather, MPI_Ibcast, MPI_Iallgather,
 *     MPI_Ialltoallw and MPI_Iallreduce (user operation on the struct, both
 *     freed) were started: the data lands where the freed type says, holes
 *     untouched. Also after MPI_Irecv/MPI_Isend.
 *  3. Communicators: 1000 duplicates of MPI_COMM_WORLD alive at once (more
 *     than 128); on each an MPI_Allreduce with a value of its own, then
 *     messages on all of them at once (MPI_Irecv from rank-1 on every one,
 *     MPI_Issend / MPI_Isend to rank+1 in reverse order, the same tag
 *     everywhere): each receive gets its own communicator's message;
 *     MPI_Comm_split (by parity) of every 10th; every other one freed and
 *     600 more made (ids given back are reused); all freed at the end.
 *
 * Works for any world size >= 1.  Prints "OK defects_lifetime" on rank 0.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "defects_lifetime"
#include "mpitest.h"

#define POISON (-777)

/* ------------------------------------------------------------------ */
/* 1. user operations freed while pending                              */
/* ------------------------------------------------------------------ */

/* Elementwise max of |x| (commutative). */
static void max_abs(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int *a = (int *)in, *b = (int *)inout;
    (void)type;
    for (int k = 0; k < *len; k++) {
        int x = a[k] < 0 ? -a[k] : a[k], y = b[k] < 0 ? -b[k] : b[k];
        b[k] = x > y ? x : y;
    }
}

static int ma_value(int r, int k)
{
    int v = (r * 13 + k * 7) % 23 - 11;
    return v;
}

/* The result over ranks 0..upto (one rank: its own value, unreduced). */
static int ma_expect(int upto, int k)
{
    int best = 0;
    if (upto == 0)
        return ma_value(0, k);
    for (int r = 0; r <= upto; r++) {
        int v = ma_value(r, k);
        if (v < 0)
            v = -v;
        if (v > best)
            best = v;
    }
    return best;
}

static void part_op_free(int rank, int size)
{
    enum { N = 40 };
    int sb[N], r1[N], r2[N], r3[N], r4[N], r5[N];
    MPI_Request req[5];
    MPI_Op op;
    int root = size - 1;

    for (int k = 0; k < N; k++)
        sb[k] = ma_value(rank, k);
    for (int k = 0; k < N; k++)
        r1[k] = r2[k] = r3[k] = r4[k] = r5[k] = POISON;

    MPI_Op_create(max_abs, 1, &op);
    MPI_Iallreduce(sb, r1, N, MPI_INT, op, MPI_COMM_WORLD, &req[0]);
    MPI_Op_free(&op);
    CHECK_TRUE(op == MPI_OP_NULL, "MPI_Op_free sets the handle to MPI_OP_NULL");
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    for (int k = 0; k < N; k++)
        CHECK(ma_expect(size - 1, k), r1[k], "Iallreduce, op freed: element %d", k);

    MPI_Op_create(max_abs, 1, &op);
    MPI_Ireduce(sb, r2, N, MPI_INT, op, root, MPI_COMM_WORLD, &req[0]);
    MPI_Op_free(&op);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    if (rank == root)
        for (int k = 0; k < N; k++)
            CHECK(ma_expect(size - 1, k), r2[k], "Ireduce, op freed: element %d", k);

    MPI_Op_create(max_abs, 1, &op);
    MPI_Iscan(sb, r3, N, MPI_INT, op, MPI_COMM_WORLD, &req[0]);
    MPI_Op_free(&op);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    for (int k = 0; k < N; k++)
        CHECK(ma_expect(rank, k), r3[k], "Iscan, op freed: element %d", k);

    {
        int *big = (int *)xmalloc((size_t)size * 2 * sizeof(int));
        int out[2] = {POISON, POISON};
        for (int j = 0; j < 2 * size; j++)
            big[j] = ma_value(rank, j);
        MPI_Op_create(max_abs, 1, &op);
        MPI_Ireduce_scatter_block(big, out, 2, MPI_INT, op, MPI_COMM_WORLD, &req[0]);
        MPI_Op_free(&op);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        CHECK(ma_expect(size - 1, 2 * rank), out[0], "Ireduce_scatter_block, op freed: element 0");
        CHECK(ma_expect(size - 1, 2 * rank + 1), out[1], "Ireduce_scatter_block, op freed: element 1");
        free(big);
    }

    /* two outstanding with one op, freed after both started; the first
     * completed before the second is waited for */
    MPI_Op_create(max_abs, 1, &op);
    MPI_Iallreduce(sb, r4, N, MPI_INT, op, MPI_COMM_WORLD, &req[0]);
    MPI_Ireduce(sb, r5, N, MPI_INT, op, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Op_free(&op);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    for (int k = 0; k < N; k++) {
        CHECK(ma_expect(size - 1, k), r4[k], "two pending, op freed: Iallreduce element %d", k);
        if (rank == 0)
            CHECK(ma_expect(size - 1, k), r5[k], "two pending, op freed: Ireduce element %d", k);
    }
}

/* ------------------------------------------------------------------ */
/* 2. datatypes freed while pending                                    */
/* ------------------------------------------------------------------ */

struct rec { double d; int i; char c; };

/* struct rec: d = sum, i = max, c = the c of the larger i (the i are
 * distinct across ranks). */
static void rec_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    struct rec *a = (struct rec *)in, *b = (struct rec *)inout;
    (void)type;
    for (int k = 0; k < *len; k++) {
        b[k].d += a[k].d;
        if (a[k].i > b[k].i) {
            b[k].i = a[k].i;
            b[k].c = a[k].c;
        }
    }
}

static MPI_Datatype make_rec(void)
{
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {offsetof(struct rec, d), offsetof(struct rec, i), offsetof(struct rec, c)};
    MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR}, t;
    MPI_Type_create_struct(3, bl, disp, ty, &t);
    MPI_Type_commit(&t);
    return t;
}

static MPI_Datatype make_vec(void)
{
    MPI_Datatype t;
    MPI_Type_vector(3, 1, 2, MPI_INT, &t); /* ints 0, 2, 4; extent 5 ints */
    MPI_Type_commit(&t);
    return t;
}

static void part_type_free(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    int root = size > 1 ? 1 : 0;
    MPI_Request req;
    MPI_Datatype vt, rt;

    /* Igather: vector on the send side, ints at the root */
    {
        int sb[5], *all = (int *)xmalloc((size_t)size * 3 * sizeof(int));
        for (int j = 0; j < 5; j++)
            sb[j] = j % 2 ? POISON : rank * 100 + j;
        for (int j = 0; j < 3 * size; j++)
            all[j] = POISON;
        vt = make_vec();
        MPI_Igather(sb, 1, vt, all, 3, MPI_INT, root, MPI_COMM_WORLD, &req);
        MPI_Type_free(&vt);
        CHECK_TRUE(vt == MPI_DATATYPE_NULL, "MPI_Type_free sets the handle to MPI_DATATYPE_NULL");
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int j = 0; j < 3; j++)
                    CHECK(r * 100 + 2 * j, all[3 * r + j], "Igather, send type freed: rank %d int %d", r, j);
        free(all);
    }

    /* Igather: ints sent, vector at the root (one vector element per rank) */
    {
        int sb[3], *all = (int *)xmalloc((size_t)size * 5 * sizeof(int));
        for (int j = 0; j < 3; j++)
            sb[j] = rank * 10 + j;
        for (int j = 0; j < 5 * size; j++)
            all[j] = POISON;
        vt = make_vec();
        MPI_Igather(sb, 3, MPI_INT, all, 1, vt, root, MPI_COMM_WORLD, &req);
        MPI_Type_free(&vt);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int j = 0; j < 5; j++)
                    CHECK(j % 2 ? POISON : r * 10 + j / 2, all[5 * r + j],
                          "Igather, receive type freed: rank %d int %d", r, j);
        free(all);
    }

    /* Ibcast of 2 structs */
    {
        struct rec b[2];
        memset(b, 0, sizeof b);
        if (rank == root)
            for (int k = 0; k < 2; k++) {
                b[k].d = 1.5 + k;
                b[k].i = 42 + k;
                b[k].c = (char)('x' + k);
            }
        rt = make_rec();
        MPI_Ibcast(b, 2, rt, root, MPI_COMM_WORLD, &req);
        MPI_Type_free(&rt);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int k = 0; k < 2; k++) {
            CHECK_TRUE(b[k].d == 1.5 + k, "Ibcast, type freed: record %d double", k);
            CHECK(42 + k, b[k].i, "Ibcast, type freed: record %d int", k);
            CHECK('x' + k, b[k].c, "Ibcast, type freed: record %d char", k);
        }
    }

    /* Iallgather with the vector on both sides */
    {
        int sb[5], *all = (int *)xmalloc((size_t)size * 5 * sizeof(int));
        for (int j = 0; j < 5; j++)
            sb[j] = rank * 100 + j;
        for (int j = 0; j < 5 * size; j++)
            all[j] = POISON;
        vt = make_vec();
        MPI_Iallgather(sb, 1, vt, all, 1, vt, MPI_COMM_WORLD, &req);
        MPI_Type_free(&vt);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int r = 0; r < size; r++)
            for (int j = 0; j < 5; j++)
                CHECK(j % 2 ? POISON : r * 100 + j, all[5 * r + j], "Iallgather, type freed: rank %d int %d", r, j);
        free(all);
    }

    /* Ialltoallw: the vector to every rank, ints back; both types freed */
    {
        int n = size;
        int *sb = (int *)xmalloc((size_t)n * 5 * sizeof(int)), *rb = (int *)xmalloc((size_t)n * 3 * sizeof(int));
        int *sc = (int *)xmalloc((size_t)n * sizeof(int)), *sd = (int *)xmalloc((size_t)n * sizeof(int));
        int *rc = (int *)xmalloc((size_t)n * sizeof(int)), *rd = (int *)xmalloc((size_t)n * sizeof(int));
        MPI_Datatype *st = (MPI_Datatype *)xmalloc((size_t)n * sizeof(MPI_Datatype));
        MPI_Datatype *rtypes = (MPI_Datatype *)xmalloc((size_t)n * sizeof(MPI_Datatype));
        MPI_Datatype three;
        MPI_Type_contiguous(3, MPI_INT, &three);
        MPI_Type_commit(&three);
        vt = make_vec();
        for (int p = 0; p < n; p++) {
            for (int j = 0; j < 5; j++)
                sb[5 * p + j] = rank * 1000 + p * 10 + j;
            for (int j = 0; j < 3; j++)
                rb[3 * p + j] = POISON;
            sc[p] = 1;
            sd[p] = p * 5 * (int)sizeof(int);
            st[p] = vt;
            rc[p] = 1;
            rd[p] = p * 3 * (int)sizeof(int);
            rtypes[p] = three;
        }
        MPI_Ialltoallw(sb, sc, sd, st, rb, rc, rd, rtypes, MPI_COMM_WORLD, &req);
        MPI_Type_free(&vt);
        MPI_Type_free(&three);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int p = 0; p < n; p++)
            for (int j = 0; j < 3; j++)
                CHECK(p * 1000 + rank * 10 + 2 * j, rb[3 * p + j], "Ialltoallw, types freed: from %d int %d", p, j);
        free(sb);
        free(rb);
        free(sc);
        free(sd);
        free(rc);
        free(rd);
        free(st);
        free(rtypes);
    }

    /* Iallreduce on the struct with a user op, both freed */
    {
        struct rec sb[3], rb[3];
        MPI_Op op;
        memset(sb, 0, sizeof sb);
        for (int k = 0; k < 3; k++) {
            sb[k].d = rank + 0.5 * k;
            sb[k].i = (size - 1 - rank) * 3 + k;
            sb[k].c = (char)('a' + rank % 26);
        }
        rt = make_rec();
        MPI_Op_create(rec_op, 1, &op);
        MPI_Iallreduce(sb, rb, 3, rt, op, MPI_COMM_WORLD, &req);
        MPI_Type_free(&rt);
        MPI_Op_free(&op);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int k = 0; k < 3; k++) {
            int mx = (size - 1) * 3 + k, who = 0; /* rank 0's */
            CHECK_TRUE(rb[k].d == (double)size * (size - 1) / 2 + 0.5 * k * size,
                       "Iallreduce struct, type and op freed: record %d double", k);
            CHECK(mx, rb[k].i, "Iallreduce struct, type and op freed: record %d int", k);
            CHECK('a' + who % 26, rb[k].c, "Iallreduce struct, type and op freed: record %d char", k);
        }
    }

    /* point-to-point: Irecv and Isend with the vector, freed before the wait */
    {
        int sb[5], rb[5];
        MPI_Request r2[2];
        for (int j = 0; j < 5; j++) {
            sb[j] = rank * 7 + j;
            rb[j] = POISON;
        }
        vt = make_vec();
        MPI_Irecv(rb, 1, vt, prev, 60, MPI_COMM_WORLD, &r2[0]);
        MPI_Isend(sb, 1, vt, next, 60, MPI_COMM_WORLD, &r2[1]);
        MPI_Type_free(&vt);
        MPI_Waitall(2, r2, MPI_STATUSES_IGNORE);
        for (int j = 0; j < 5; j++)
            CHECK(j % 2 ? POISON : prev * 7 + j, rb[j], "Irecv/Isend, type freed: int %d", j);
    }
}

/* ------------------------------------------------------------------ */
/* 3. many communicators                                               */
/* ------------------------------------------------------------------ */

#define NCOMM 1000
#define NMORE 600

static void check_comm(MPI_Comm c, int id, int size, const char *what)
{
    int sum = 0, csize;
    MPI_Comm_size(c, &csize);
    CHECK(size, csize, "%s %d: size", what, id);
    MPI_Allreduce(&id, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(id * csize, sum, "%s %d: MPI_Allreduce", what, id);
}

/* Every communicator carries one message from rank-1 to rank+1 with the
 * same tag, all in flight at once, sent in the reverse order of the
 * receives; every other send synchronous. */
static void messages_on_all(MPI_Comm *comms, int n, int rank, int size, const char *what)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    int *in = (int *)xmalloc((size_t)n * sizeof(int)), *out = (int *)xmalloc((size_t)n * sizeof(int));
    MPI_Request *req = (MPI_Request *)xmalloc((size_t)2 * n * sizeof(MPI_Request));
    for (int k = 0; k < n; k++) {
        in[k] = POISON;
        MPI_Irecv(&in[k], 1, MPI_INT, prev, 7, comms[k], &req[k]);
    }
    for (int k = n - 1; k >= 0; k--) {
        out[k] = rank * 100000 + k;
        if (k % 2)
            MPI_Issend(&out[k], 1, MPI_INT, next, 7, comms[k], &req[n + k]);
        else
            MPI_Isend(&out[k], 1, MPI_INT, next, 7, comms[k], &req[n + k]);
    }
    MPI_Waitall(2 * n, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < n; k++)
        CHECK(prev * 100000 + k, in[k], "%s: message on communicator %d", what, k);
    free(in);
    free(out);
    free(req);
}

static void part_many_comms(int rank, int size)
{
    MPI_Comm *comms = (MPI_Comm *)xmalloc((size_t)(NCOMM + NMORE) * sizeof(MPI_Comm));
    MPI_Comm *splits = (MPI_Comm *)xmalloc((size_t)(NCOMM / 10) * sizeof(MPI_Comm));
    int nsplit = 0;

    for (int k = 0; k < NCOMM; k++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]);
        check_comm(comms[k], k, size, "dup");
    }
    messages_on_all(comms, NCOMM, rank, size, "1000 duplicates");

    /* splits of every 10th duplicate, alive at the same time */
    for (int k = 0; k < NCOMM; k += 10) {
        int color = rank % 2, ssize;
        MPI_Comm_split(comms[k], color, -rank, &splits[nsplit]);
        MPI_Comm_size(splits[nsplit], &ssize);
        CHECK((size + 1 - color) / 2, ssize, "split %d: size", k);
        check_comm(splits[nsplit], k, ssize, "split");
        nsplit++;
    }

    /* give back every other one, make more: ids are reused */
    for (int k = 1; k < NCOMM; k += 2) {
        MPI_Comm_free(&comms[k]);
        CHECK_TRUE(comms[k] == MPI_COMM_NULL, "MPI_Comm_free sets the handle to MPI_COMM_NULL");
    }
    {
        int m = 0;
        for (int k = 0; k < NCOMM; k += 2)
            comms[m++] = comms[k];
        for (int k = 0; k < NMORE; k++) {
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[m]);
            check_comm(comms[m], 5000 + k, size, "dup after frees");
            m++;
        }
        messages_on_all(comms, m, rank, size, "after frees and more duplicates");
        for (int k = 0; k < m; k++)
            MPI_Comm_free(&comms[k]);
    }
    for (int k = 0; k < nsplit; k++)
        MPI_Comm_free(&splits[k]);
    free(comms);
    free(splits);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    part_op_free(rank, size);
    part_type_free(rank, size);
    part_many_comms(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
