/*
 * persistent_coll -- MPI 4.0's persistent collectives (MPI_Bcast_init and
 * the rest, MPI-4.0 sec. 6.13) and MPI_Comm_idup_with_info.
 *
 *  1. Every one of the 22 *_init calls (the 17 collectives and the 5
 *     neighbourhood ones on a ring) is made once and started ROUNDS times,
 *     with the send data changed before each start: each start must use
 *     what the buffers hold then, and give the same result as the blocking
 *     call would. Half the rounds go through MPI_Startall on all the
 *     requests at once, half through MPI_Start and MPI_Wait one by one.
 *  2. Inactive requests: MPI_Wait and MPI_Test on a persistent collective
 *     before its first start and after its completion return at once with
 *     an empty status (flag true); MPI_Request_free of an inactive one
 *     leaves MPI_REQUEST_NULL; MPI_Start of an active one is an error
 *     (MPI_ERRORS_RETURN, class MPI_ERR_REQUEST, under Tucana only: MPI
 *     calls it erroneous), and so is one inside a superblock region.
 *  3. The datatype and the operation may be freed after the init call: the
 *     request keeps them (a vector type, a user operation).
 *  4. Starts of two persistent collectives on one communicator in
 *     different orders at different ranks (MPI orders only the init
 *     calls), interleaved with blocking collectives, and the program's
 *     communicator freed while the requests live.
 *  5. An intercommunicator MPI_Bcast_init / MPI_Allreduce_init.
 *  6. MPI_Comm_idup_with_info gives a working duplicate.
 *  7. MPI_Comm_disconnect of it while an inactive persistent collective on
 *     it lives.
 * Prints "OK persistent_coll" on rank 0.
 *
 * No reference run: MPICH 4.0.2 (Debian 12's, the first MPI 4.0 release)
 * fails it: its MPI_Wait on a persistent collective never started does not
 * return, its MPI_Gather_init never writes the receive buffer, a restarted
 * MPI_Allgather_init or MPI_Scatter_init sends the first start's data
 * again, and freeing the operation or datatype after the init call
 * corrupts results. Open MPI 4.1 has no MPI 4.0 calls.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "persistent_coll"
#include "mpitest.h"
#ifdef TUCANA
#include <tucana/superblock.h>
#endif

#define ROUNDS 6
#define NREQ 22

static void my_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int i;
    (void)type;
    for (i = 0; i < *len; ++i)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

/* The value rank r contributes at round k, element i. */
static int val(int r, int k, int i) { return 1000 * k + 10 * r + i; }

static void empty_status_check(MPI_Status *st, const char *what)
{
    int n = -1;
    CHECK(MPI_ANY_SOURCE, st->MPI_SOURCE, "%s: empty status source", what);
    CHECK(MPI_ANY_TAG, st->MPI_TAG, "%s: empty status tag", what);
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(0, n, "%s: empty status count", what);
}

int main(int argc, char **argv)
{
    int n, me, k, i, r;
    MPI_Comm ring;
    MPI_Request req[NREQ];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    {
        int periods = 1;
        MPI_Cart_create(MPI_COMM_WORLD, 1, &n, &periods, 0, &ring);
    }

    /* Buffers, one set per call (all live while the requests are). */
    int bc = 0, red_s[2], red_r[2], ared_s[2], ared_r[2];
    int *ga_r = xmalloc(sizeof(int) * n), ga_s;
    int *gv_r = xmalloc(sizeof(int) * 2 * n), gv_s[3], *gv_c = xmalloc(sizeof(int) * n), *gv_d = xmalloc(sizeof(int) * n);
    int *sc_s = xmalloc(sizeof(int) * n), sc_r;
    int *sv_s = xmalloc(sizeof(int) * 2 * n), *sv_c = xmalloc(sizeof(int) * n), *sv_d = xmalloc(sizeof(int) * n);
    int *ag_r = xmalloc(sizeof(int) * n), ag_s;
    int *agv_r = xmalloc(sizeof(int) * n), agv_s, *agv_c = xmalloc(sizeof(int) * n), *agv_d = xmalloc(sizeof(int) * n);
    int *aa_s = xmalloc(sizeof(int) * n), *aa_r = xmalloc(sizeof(int) * n);
    int *av_s = xmalloc(sizeof(int) * n), *av_r = xmalloc(sizeof(int) * n), *av_c = xmalloc(sizeof(int) * n),
        *av_d = xmalloc(sizeof(int) * n);
    int *aw_s = xmalloc(sizeof(int) * n), *aw_r = xmalloc(sizeof(int) * n), *aw_c = xmalloc(sizeof(int) * n),
        *aw_d = xmalloc(sizeof(int) * n);
    MPI_Datatype *aw_t = xmalloc(sizeof(MPI_Datatype) * n);
    int *rs_s = xmalloc(sizeof(int) * n), rs_r, *rs_c = xmalloc(sizeof(int) * n);
    int *rsb_s = xmalloc(sizeof(int) * n), rsb_r;
    int scan_s, scan_r, exs_s, exs_r = -7;
    int nag_s, nag_r[2], naa_s[2], naa_r[2], nagv_s, nagv_r[2], nagv_c[2] = {1, 1}, nagv_d[2] = {0, 1};
    int nav_s[2], nav_r[2], nav_c[2] = {1, 1}, nav_d[2] = {0, 1};
    int naw_s[2], naw_r[2], naw_c[2] = {1, 1};
    MPI_Aint naw_d[2] = {0, sizeof(int)};
    MPI_Datatype naw_t[2] = {MPI_INT, MPI_INT};
    MPI_Datatype vec; /* 2 ints with a gap: freed right after the init */
    MPI_Op op_max;
    int vbuf[2];

    for (i = 0; i < n; ++i) {
        gv_c[i] = 2;
        gv_d[i] = 2 * i;
        sv_c[i] = 2;
        sv_d[i] = 2 * (n - 1 - i); /* reversed placement */
        agv_c[i] = 1;
        agv_d[i] = n - 1 - i;
        av_c[i] = 1;
        av_d[i] = i;
        aw_c[i] = 1;
        aw_d[i] = (int)sizeof(int) * i;
        aw_t[i] = MPI_INT;
        rs_c[i] = 1;
    }
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Op_create(my_max, 1, &op_max);

    /* 2. before the first start: inactive */
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    {
        MPI_Status st;
        int flag = 0;
        st.MPI_SOURCE = 5;
        MPI_Wait(&req[0], &st);
        CHECK_TRUE(req[0] != MPI_REQUEST_NULL, "a persistent request stays after MPI_Wait");
        empty_status_check(&st, "MPI_Wait on an inactive persistent collective");
        MPI_Test(&req[0], &flag, &st);
        CHECK(1, flag, "MPI_Test on an inactive persistent collective");
    }
    MPI_Bcast_init(&bc, 1, MPI_INT, n - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
    MPI_Reduce_init(red_s, red_r, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]);
    /* 3: the user op and (below) the vector type are freed after the init */
    MPI_Allreduce_init(ared_s, ared_r, 2, MPI_INT, op_max, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]);
    MPI_Op_free(&op_max);
    MPI_Gather_init(&ga_s, 1, MPI_INT, ga_r, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[4]);
    MPI_Gatherv_init(gv_s, 1, vec, gv_r, gv_c, gv_d, MPI_INT, n / 2, MPI_COMM_WORLD, MPI_INFO_NULL, &req[5]);
    MPI_Type_free(&vec);
    MPI_Scatter_init(sc_s, 1, MPI_INT, &sc_r, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[6]);
    MPI_Scatterv_init(sv_s, sv_c, sv_d, MPI_INT, vbuf, 2, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[7]);
    MPI_Allgather_init(&ag_s, 1, MPI_INT, ag_r, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[8]);
    MPI_Allgatherv_init(&agv_s, 1, MPI_INT, agv_r, agv_c, agv_d, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[9]);
    MPI_Alltoall_init(aa_s, 1, MPI_INT, aa_r, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[10]);
    MPI_Alltoallv_init(av_s, av_c, av_d, MPI_INT, av_r, av_c, av_d, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &req[11]);
    MPI_Alltoallw_init(aw_s, aw_c, aw_d, aw_t, aw_r, aw_c, aw_d, aw_t, MPI_COMM_WORLD, MPI_INFO_NULL, &req[12]);
    MPI_Reduce_scatter_init(rs_s, &rs_r, rs_c, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[13]);
    MPI_Reduce_scatter_block_init(rsb_s, &rsb_r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &req[14]);
    MPI_Scan_init(&scan_s, &scan_r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[15]);
    MPI_Exscan_init(&exs_s, &exs_r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[16]);
    MPI_Neighbor_allgather_init(&nag_s, 1, MPI_INT, nag_r, 1, MPI_INT, ring, MPI_INFO_NULL, &req[17]);
    MPI_Neighbor_alltoall_init(naa_s, 1, MPI_INT, naa_r, 1, MPI_INT, ring, MPI_INFO_NULL, &req[18]);
    MPI_Neighbor_allgatherv_init(&nagv_s, 1, MPI_INT, nagv_r, nagv_c, nagv_d, MPI_INT, ring, MPI_INFO_NULL,
                                 &req[19]);
    MPI_Neighbor_alltoallv_init(nav_s, nav_c, nav_d, MPI_INT, nav_r, nav_c, nav_d, MPI_INT, ring, MPI_INFO_NULL,
                                &req[20]);
    MPI_Neighbor_alltoallw_init(naw_s, naw_c, naw_d, naw_t, naw_r, naw_c, naw_d, naw_t, ring, MPI_INFO_NULL,
                                &req[21]);

    int left = (me + n - 1) % n, right = (me + 1) % n;
    for (k = 0; k < ROUNDS; ++k) {
        /* the send data of round k */
        if (me == n - 1)
            bc = val(me, k, 0);
        for (i = 0; i < 2; ++i) {
            red_s[i] = val(me, k, i);
            ared_s[i] = val(me, k, i) * (me % 2 ? -1 : 1);
        }
        ga_s = val(me, k, 0);
        gv_s[0] = val(me, k, 0); /* `vec` reads elements 0 and 2 */
        gv_s[1] = -1;
        gv_s[2] = val(me, k, 1);
        for (i = 0; i < n; ++i) {
            sc_s[i] = val(0, k, i);
            sv_s[2 * i] = val(0, k, 2 * i);
            sv_s[2 * i + 1] = val(0, k, 2 * i + 1);
            aa_s[i] = val(me, k, i);
            av_s[i] = val(me, k, i) + 1;
            aw_s[i] = val(me, k, i) + 2;
            rs_s[i] = val(me, k, i);
            rsb_s[i] = val(me, k, i) - i;
        }
        ag_s = val(me, k, 0);
        agv_s = val(me, k, 1);
        scan_s = val(me, k, 0);
        exs_s = val(me, k, 0);
        nag_s = val(me, k, 0);
        naa_s[0] = val(me, k, 0);
        naa_s[1] = val(me, k, 1);
        nagv_s = val(me, k, 2);
        nav_s[0] = val(me, k, 3);
        nav_s[1] = val(me, k, 4);
        naw_s[0] = val(me, k, 5);
        naw_s[1] = val(me, k, 6);

        if (k % 2 == 0) {
            MPI_Startall(NREQ, req);
            MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE);
        } else {
            for (i = 0; i < NREQ; ++i) {
                MPI_Start(&req[i]);
                MPI_Wait(&req[i], MPI_STATUS_IGNORE);
            }
        }
        for (i = 0; i < NREQ; ++i)
            CHECK_TRUE(req[i] != MPI_REQUEST_NULL, "request %d stays after completion", i);

        CHECK(val(n - 1, k, 0), bc, "round %d: MPI_Bcast_init", k);
        if (me == 0)
            for (i = 0; i < 2; ++i) {
                int sum = 0;
                for (r = 0; r < n; ++r)
                    sum += val(r, k, i);
                CHECK(sum, red_r[i], "round %d: MPI_Reduce_init element %d", k, i);
            }
        for (i = 0; i < 2; ++i) {
            int mx = -2147483647;
            for (r = 0; r < n; ++r) {
                int v = val(r, k, i) * (r % 2 ? -1 : 1);
                if (v > mx)
                    mx = v;
            }
            CHECK(mx, ared_r[i], "round %d: MPI_Allreduce_init (freed user op) element %d", k, i);
        }
        if (me == 0)
            for (r = 0; r < n; ++r)
                CHECK(val(r, k, 0), ga_r[r], "round %d: MPI_Gather_init from %d", k, r);
        if (me == n / 2)
            for (r = 0; r < n; ++r) {
                CHECK(val(r, k, 0), gv_r[2 * r], "round %d: MPI_Gatherv_init (freed vector type) from %d", k, r);
                CHECK(val(r, k, 1), gv_r[2 * r + 1], "round %d: MPI_Gatherv_init (freed vector type) from %d", k, r);
            }
        CHECK(val(0, k, me), sc_r, "round %d: MPI_Scatter_init", k);
        for (r = 0; r < n; ++r) {
            CHECK(val(r, k, 0), ag_r[r], "round %d: MPI_Allgather_init from %d", k, r);
            CHECK(val(r, k, 1), agv_r[n - 1 - r], "round %d: MPI_Allgatherv_init from %d", k, r);
            CHECK(val(r, k, me), aa_r[r], "round %d: MPI_Alltoall_init from %d", k, r);
            CHECK(val(r, k, me) + 1, av_r[r], "round %d: MPI_Alltoallv_init from %d", k, r);
            CHECK(val(r, k, me) + 2, aw_r[r], "round %d: MPI_Alltoallw_init from %d", k, r);
        }
        {
            int sum = 0, mx = -2147483647, scan = 0, exs = 0;
            for (r = 0; r < n; ++r) {
                sum += val(r, k, me);
                if (val(r, k, me) - me > mx)
                    mx = val(r, k, me) - me;
                if (r <= me)
                    scan += val(r, k, 0);
                if (r < me)
                    exs += val(r, k, 0);
            }
            CHECK(sum, rs_r, "round %d: MPI_Reduce_scatter_init", k);
            CHECK(mx, rsb_r, "round %d: MPI_Reduce_scatter_block_init", k);
            CHECK(scan, scan_r, "round %d: MPI_Scan_init", k);
            if (me > 0)
                CHECK(exs, exs_r, "round %d: MPI_Exscan_init", k);
        }
        /* ring neighbours: left (source 0), right (source 1); checked
         * with 3 ranks or more, where they are different ranks (with one
         * or two, which message lands where is MPI's fine print on
         * periodic Cartesian neighbours, which implementations read
         * differently) */
        if (n >= 3) {
        CHECK(val(left, k, 0), nag_r[0], "round %d: MPI_Neighbor_allgather_init left", k);
        CHECK(val(right, k, 0), nag_r[1], "round %d: MPI_Neighbor_allgather_init right", k);
        CHECK(val(left, k, 1), naa_r[0], "round %d: MPI_Neighbor_alltoall_init from the left", k);
        CHECK(val(right, k, 0), naa_r[1], "round %d: MPI_Neighbor_alltoall_init from the right", k);
        CHECK(val(left, k, 2), nagv_r[0], "round %d: MPI_Neighbor_allgatherv_init left", k);
        CHECK(val(right, k, 2), nagv_r[1], "round %d: MPI_Neighbor_allgatherv_init right", k);
        CHECK(val(left, k, 4), nav_r[0], "round %d: MPI_Neighbor_alltoallv_init from the left", k);
        CHECK(val(right, k, 3), nav_r[1], "round %d: MPI_Neighbor_alltoallv_init from the right", k);
        CHECK(val(left, k, 6), naw_r[0], "round %d: MPI_Neighbor_alltoallw_init from the left", k);
        CHECK(val(right, k, 5), naw_r[1], "round %d: MPI_Neighbor_alltoallw_init from the right", k);
        }
        /* scatterv: root placed rank i's pair at 2 * (n - 1 - i) */
        CHECK(val(0, k, 2 * (n - 1 - me)), vbuf[0], "round %d: MPI_Scatterv_init first", k);
        CHECK(val(0, k, 2 * (n - 1 - me) + 1), vbuf[1], "round %d: MPI_Scatterv_init second", k);
    }

    /* 2. after completion: inactive again; MPI_Start of an active one */
    {
        MPI_Status st;
        int flag = 0, e;
        MPI_Test(&req[1], &flag, &st);
        CHECK(1, flag, "MPI_Test on a completed persistent collective");
        empty_status_check(&st, "MPI_Test on a completed persistent collective");
#ifdef TUCANA
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Start(&req[0]);
        e = MPI_Start(&req[0]);
        MPI_Error_class(e, &e);
        CHECK(MPI_ERR_REQUEST, e, "MPI_Start of an active persistent collective");
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        /* inside a superblock region: refused (region instances run in
         * different orders at different ranks) */
        {
            static const tucana_region_desc regions[] = {{"start", TUCANA_REGION_OTHER, 0, NULL}};
            static const tucana_superblock_desc desc = {"persistent_coll.c", 1, regions};
            tucana_superblock *sb = tucana_sb_begin(&desc);
            for (int reg; (reg = tucana_sb_next(sb)) >= 0;) {
                e = MPI_Start(&req[1]);
                MPI_Error_class(e, &e);
                CHECK(MPI_ERR_REQUEST, e, "MPI_Start of a persistent collective inside a superblock region");
                tucana_sb_ran(sb, reg);
            }
            tucana_sb_end(sb);
        }
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#else
        (void)e;
#endif
    }
    for (i = 0; i < NREQ; ++i) {
        MPI_Request_free(&req[i]);
        CHECK_TRUE(req[i] == MPI_REQUEST_NULL, "MPI_Request_free of persistent collective %d", i);
    }

    /* 4. two persistent collectives started in different orders at
     * different ranks, with blocking collectives between, on a duplicate
     * that is freed right after the init calls */
    {
        int a = 0, b = 0, c, rounds;
        MPI_Request two[2];
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Bcast_init(&a, 1, MPI_INT, 0, d, MPI_INFO_NULL, &two[0]);
        MPI_Bcast_init(&b, 1, MPI_INT, n - 1, d, MPI_INFO_NULL, &two[1]);
        MPI_Comm_free(&d);
        for (rounds = 0; rounds < 20; ++rounds) {
            if (me == 0)
                a = 100 + rounds;
            if (me == n - 1)
                b = 200 + rounds;
            MPI_Start(&two[(me + rounds) % 2]);
            MPI_Start(&two[(me + rounds + 1) % 2]);
            c = me;
            MPI_Allreduce(MPI_IN_PLACE, &c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            CHECK(n * (n - 1) / 2, c, "round %d: blocking MPI_Allreduce between starts", rounds);
            MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
            CHECK(100 + rounds, a, "round %d: first MPI_Bcast_init", rounds);
            CHECK(200 + rounds, b, "round %d: second MPI_Bcast_init", rounds);
        }
        MPI_Request_free(&two[0]);
        MPI_Request_free(&two[1]);
    }

    /* 5. on an intercommunicator: even world ranks and odd ones */
    if (n >= 2) {
        MPI_Comm half, inter;
        int side = me % 2, hrank, v = -1, s[1], t[1];
        MPI_Request ir[2];
        MPI_Comm_split(MPI_COMM_WORLD, side, me, &half);
        MPI_Comm_rank(half, &hrank);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - side, 7, &inter);
        /* side 0's rank 0 is the root of the broadcast */
        if (side == 0)
            MPI_Bcast_init(&v, 1, MPI_INT, hrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter, MPI_INFO_NULL, &ir[0]);
        else
            MPI_Bcast_init(&v, 1, MPI_INT, 0, inter, MPI_INFO_NULL, &ir[0]);
        MPI_Allreduce_init(s, t, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &ir[1]);
        for (k = 0; k < 3; ++k) {
            int other = 0;
            if (side == 0 && hrank == 0)
                v = 50 + k;
            s[0] = me + k;
            MPI_Startall(2, ir);
            MPI_Waitall(2, ir, MPI_STATUSES_IGNORE);
            if (side == 1)
                CHECK(50 + k, v, "intercommunicator MPI_Bcast_init round %d", k);
            for (r = 0; r < n; ++r)
                if (r % 2 != side)
                    other += r + k;
            CHECK(other, t[0], "intercommunicator MPI_Allreduce_init round %d (the other group's sum)", k);
        }
        MPI_Request_free(&ir[0]);
        MPI_Request_free(&ir[1]);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    /* 6. MPI_Comm_idup_with_info */
    {
        MPI_Comm dup;
        MPI_Request dr;
        MPI_Info info;
        int sz = 0, res = -1, sum = 0;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
        MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup, &dr);
        MPI_Info_free(&info);
        MPI_Wait(&dr, MPI_STATUS_IGNORE);
        MPI_Comm_size(dup, &sz);
        CHECK(n, sz, "MPI_Comm_idup_with_info size");
        MPI_Comm_compare(dup, MPI_COMM_WORLD, &res);
        CHECK(MPI_CONGRUENT, res, "MPI_Comm_idup_with_info congruent");
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, dup);
        CHECK(n * (n - 1) / 2, sum, "MPI_Allreduce on the idup_with_info duplicate");
        /* 7. MPI_Comm_disconnect with an inactive persistent collective on
         * the communicator (MPICH's comm/inactive_reqs) */
        {
            MPI_Request inactive;
            MPI_Barrier_init(dup, MPI_INFO_NULL, &inactive);
            MPI_Comm_disconnect(&dup);
            CHECK_TRUE(dup == MPI_COMM_NULL, "MPI_Comm_disconnect sets the handle to MPI_COMM_NULL");
            MPI_Request_free(&inactive);
        }
    }

    free(ga_r);
    free(gv_r);
    free(gv_c);
    free(gv_d);
    free(sc_s);
    free(sv_s);
    free(sv_c);
    free(sv_d);
    free(ag_r);
    free(agv_r);
    free(agv_c);
    free(agv_d);
    free(aa_s);
    free(aa_r);
    free(av_s);
    free(av_r);
    free(av_c);
    free(av_d);
    free(aw_s);
    free(aw_r);
    free(aw_c);
    free(aw_d);
    free(aw_t);
    free(rs_s);
    free(rs_c);
    free(rsb_s);
    MPI_Comm_free(&ring);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
