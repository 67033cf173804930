/*
 * intercomm -- intercommunicators (MPI-3.1 sec. 6.6, 5.2.2).
 *
 * Two splits of MPI_COMM_WORLD, each made into an intercommunicator with
 * MPI_Intercomm_create:
 *   a. even / odd world ranks (leaders: local rank 0, world ranks 0 and 1;
 *      peer MPI_COMM_WORLD); under Tucana at VF > 1 both groups share
 *      processes and workers;
 *   b. uneven halves: world ranks [0, k) and [k, size) with k = size / 3
 *      (at least 1); leaders are the last local rank, peer a dup of world.
 * On each, and on an MPI_Comm_dup of it:
 *  1. MPI_Comm_test_inter (1; 0 on world), MPI_Comm_size/rank (local
 *     group), MPI_Comm_remote_size, MPI_Comm_remote_group (translated to
 *     world ranks), MPI_Comm_group, MPI_Comm_compare (dup: MPI_CONGRUENT;
 *     vs. world: MPI_UNEQUAL).
 *  2. Point-to-point in both directions: every rank MPI_Isend's one int to
 *     every remote rank and MPI_Irecv's from MPI_ANY_SOURCE; payloads and
 *     status.MPI_SOURCE (a remote rank) checked; blocking MPI_Send/MPI_Recv
 *     by rank and MPI_Sendrecv of zero ints between partners (local rank r
 *     and remote rank r), MPI_Probe with MPI_ANY_SOURCE, MPI_PROC_NULL
 *     sends and receives (status source MPI_PROC_NULL, count 0).
 *  3. Collectives with each group as the root group and roots 0 and the
 *     last rank: MPI_Bcast (also zero ints), MPI_Reduce, MPI_Gather,
 *     MPI_Scatter (MPI_ROOT at the root, MPI_PROC_NULL at the rest of its
 *     group: their buffers stay untouched), and MPI_Barrier,
 *     MPI_Allreduce (each group gets the other's sum / max),
 *     MPI_Allgather and MPI_Alltoall.
 *  3b. MPI_Gatherv and MPI_Scatterv (both root groups, gaps between
 *     blocks), MPI_Allgatherv, MPI_Alltoallv (zero counts among them),
 *     MPI_Alltoallw (MPI_INT and MPI_BYTE blocks, byte displacements),
 *     MPI_Reduce_scatter (the other group's sums, scattered by this group's
 *     counts), MPI_Reduce_scatter_block (groups of equal size), and the
 *     non-blocking MPI_Ibarrier, MPI_Iallreduce, MPI_Ibcast, MPI_Ialltoall
 *     outstanding together, then MPI_Iallgatherv with
 *     MPI_Ireduce_scatter_block.
 *  4. MPI_Comm_idup of the intercommunicator: basics and point-to-point
 *     on the new one. The dups' traffic does not mix with the original's: the same
 *     (source, tag) is received on both, sent in the opposite order.
 *  5. MPI_Intercomm_merge with high = 0 / 1 both ways and equal: the group
 *     that passed high = 0 comes first, ranks checked; a collective on the
 *     merged communicator.
 *  6. Under Tucana only (#ifdef TUCANA): with MPI_ERRORS_RETURN, a
 *     collective MPI does not define on intercommunicators (MPI_Scan,
 *     MPI_Iexscan) and MPI_Cart_create on one return an
 *     error of class MPI_ERR_COMM.
 *  7. MPI_Comm_free of the intercommunicators and the dups.
 * With one rank in MPI_COMM_WORLD there is no second group: the program
 * only checks MPI_Comm_test_inter on world and prints OK.
 * Prints "OK intercomm" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "intercomm"
#include "mpitest.h"

/* One side of an intercommunicator: the world ranks of both groups. */
struct side {
    int lsize, rsize, lrank;
    int *lworld, *rworld; /* rank -> world rank */
};

static void describe(MPI_Comm ic, struct side *s, int group_of_world(int w, int arg), int arg, int mygroup)
{
    int n = wsize, i;
    s->lsize = s->rsize = 0;
    s->lworld = xmalloc(sizeof(int) * (size_t)n);
    s->rworld = xmalloc(sizeof(int) * (size_t)n);
    for (i = 0; i < n; ++i) {
        if (group_of_world(i, arg) == mygroup)
            s->lworld[s->lsize++] = i;
        else
            s->rworld[s->rsize++] = i;
    }
    MPI_Comm_rank(ic, &s->lrank);
}

static int even_odd(int w, int arg) { (void)arg; return w % 2; }
static int halves(int w, int k) { return w < k ? 0 : 1; }

static void free_side(struct side *s)
{
    free(s->lworld);
    free(s->rworld);
}

static void check_basics(MPI_Comm ic, const struct side *s)
{
    int flag = -1, size, rsize, i, res;
    MPI_Group rg, lg, wg;
    int *ranks, *out;
    MPI_Comm_test_inter(ic, &flag);
    CHECK(1, flag, "MPI_Comm_test_inter on an intercommunicator");
    MPI_Comm_size(ic, &size);
    CHECK(s->lsize, size, "MPI_Comm_size is the local group's size");
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(s->rsize, rsize, "MPI_Comm_remote_size");
    CHECK(wrank, s->lworld[s->lrank], "MPI_Comm_rank is the rank in the local group");
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_remote_group(ic, &rg);
    MPI_Comm_group(ic, &lg);
    MPI_Group_size(rg, &size);
    CHECK(s->rsize, size, "remote group size");
    MPI_Group_rank(rg, &res);
    CHECK(MPI_UNDEFINED, res, "this rank is not in the remote group");
    MPI_Group_rank(lg, &res);
    CHECK(s->lrank, res, "rank in the local group");
    ranks = xmalloc(sizeof(int) * (size_t)wsize);
    out = xmalloc(sizeof(int) * (size_t)wsize);
    for (i = 0; i < wsize; ++i)
        ranks[i] = i;
    MPI_Group_translate_ranks(rg, s->rsize, ranks, wg, out);
    for (i = 0; i < s->rsize; ++i)
        CHECK(s->rworld[i], out[i], "remote rank %d as a world rank", i);
    MPI_Group_translate_ranks(lg, s->lsize, ranks, wg, out);
    for (i = 0; i < s->lsize; ++i)
        CHECK(s->lworld[i], out[i], "local rank %d as a world rank", i);
    free(ranks);
    free(out);
    MPI_Group_free(&rg);
    MPI_Group_free(&lg);
    MPI_Group_free(&wg);
    MPI_Comm_compare(ic, MPI_COMM_WORLD, &res);
    CHECK(MPI_UNEQUAL, res, "an intercommunicator vs. MPI_COMM_WORLD");
}

static void check_p2p(MPI_Comm ic, const struct side *s)
{
    int i, n = s->rsize, me = s->lrank;
    int *out = xmalloc(sizeof(int) * (size_t)n), *in = xmalloc(sizeof(int) * (size_t)n);
    int *seen = xmalloc(sizeof(int) * (size_t)n);
    MPI_Request *reqs = xmalloc(sizeof(MPI_Request) * (size_t)(2 * n));
    MPI_Status *st = xmalloc(sizeof(MPI_Status) * (size_t)(2 * n));
    MPI_Status one;
    int v, count;

    /* all pairs, both directions, MPI_ANY_SOURCE */
    for (i = 0; i < n; ++i) {
        MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 3, ic, &reqs[i]);
        seen[i] = 0;
    }
    for (i = 0; i < n; ++i) {
        out[i] = wrank * 1000 + i;
        MPI_Isend(&out[i], 1, MPI_INT, i, 3, ic, &reqs[n + i]);
    }
    MPI_Waitall(2 * n, reqs, st);
    for (i = 0; i < n; ++i) {
        int src = st[i].MPI_SOURCE;
        CHECK_TRUE(src >= 0 && src < n, "status.MPI_SOURCE %d is a remote rank", src);
        CHECK(s->rworld[src] * 1000 + me, in[i], "payload from remote rank %d", src);
        seen[src]++;
        CHECK(3, st[i].MPI_TAG, "status.MPI_TAG");
    }
    for (i = 0; i < n; ++i)
        CHECK(1, seen[i], "one message from remote rank %d", i);

    /* by rank, blocking: local rank r and remote rank r are partners */
    if (me < s->rsize) {
        v = wrank;
        if (s->lworld[0] < s->rworld[0]) {
            MPI_Send(&v, 1, MPI_INT, me, 4, ic);
            MPI_Recv(&v, 1, MPI_INT, me, 4, ic, &one);
        } else {
            MPI_Recv(&v, 1, MPI_INT, me, 4, ic, &one);
            MPI_Send(&s->lworld[me], 1, MPI_INT, me, 4, ic);
        }
        CHECK(s->rworld[me], v, "MPI_Recv by rank");
        CHECK(me, one.MPI_SOURCE, "MPI_Recv by rank: status.MPI_SOURCE");
        /* zero-count MPI_Sendrecv */
        MPI_Sendrecv(NULL, 0, MPI_INT, me, 5, NULL, 0, MPI_INT, me, 5, ic, &one);
        MPI_Get_count(&one, MPI_INT, &count);
        CHECK(0, count, "zero-count MPI_Sendrecv: count");
        CHECK(me, one.MPI_SOURCE, "zero-count MPI_Sendrecv: source");
        /* probe with MPI_ANY_SOURCE */
        v = wrank + 7;
        MPI_Isend(&v, 1, MPI_INT, me, 6, ic, &reqs[0]);
        MPI_Probe(MPI_ANY_SOURCE, 6, ic, &one);
        CHECK(me, one.MPI_SOURCE, "MPI_Probe: status.MPI_SOURCE");
        MPI_Recv(&count, 1, MPI_INT, one.MPI_SOURCE, 6, ic, MPI_STATUS_IGNORE);
        CHECK(s->rworld[me] + 7, count, "probed message");
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    }
    /* MPI_PROC_NULL */
    v = 99;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 1, ic);
    MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, ic, &one);
    CHECK(99, v, "MPI_Recv from MPI_PROC_NULL leaves the buffer");
    CHECK(MPI_PROC_NULL, one.MPI_SOURCE, "MPI_PROC_NULL: status.MPI_SOURCE");
    MPI_Get_count(&one, MPI_INT, &count);
    CHECK(0, count, "MPI_PROC_NULL: count");
    free(out);
    free(in);
    free(seen);
    free(reqs);
    free(st);
}

/* The root argument of a rooted collective: root group `rg` (0: the group
 * of the lower first world rank), root `r` in it. */
static int root_arg(const struct side *s, int rg, int r, int *is_root_group)
{
    int mine = s->lworld[0] < s->rworld[0] ? 0 : 1;
    *is_root_group = mine == rg;
    if (mine == rg)
        return s->lrank == r ? MPI_ROOT : MPI_PROC_NULL;
    return r;
}

static void check_collectives(MPI_Comm ic, const struct side *s)
{
    int rg, k, i, in_root_group;
    int n = s->rsize, me = s->lrank;
    int *buf = xmalloc(sizeof(int) * (size_t)(2 * (wsize + 2)));
    int *buf2 = xmalloc(sizeof(int) * (size_t)(2 * (wsize + 2)));
    long long sum, exp;
    int mx;

    MPI_Barrier(ic);
    for (rg = 0; rg < 2; ++rg) {
        int gsize = (s->lworld[0] < s->rworld[0]) == (rg == 0) ? s->lsize : s->rsize;
        for (k = 0; k < 2; ++k) {
            int r = k == 0 ? 0 : gsize - 1;
            int root = root_arg(s, rg, r, &in_root_group);
            int root_world = in_root_group ? s->lworld[r] : s->rworld[r];
            /* bcast */
            buf[0] = buf[1] = buf[2] = -1;
            if (root == MPI_ROOT) {
                buf[0] = root_world * 7;
                buf[1] = 1;
                buf[2] = 2;
            }
            MPI_Bcast(buf, 3, MPI_INT, root, ic);
            if (root == MPI_PROC_NULL) {
                CHECK(-1, buf[0], "MPI_Bcast: MPI_PROC_NULL buffer untouched");
            } else {
                CHECK(root_world * 7, buf[0], "MPI_Bcast root group %d root %d", rg, r);
                CHECK(2, buf[2], "MPI_Bcast root group %d root %d", rg, r);
            }
            MPI_Bcast(buf, 0, MPI_INT, root, ic); /* zero count */
            /* reduce: the root gets the sum of the other group's values */
            buf[0] = wrank + 1;
            buf2[0] = -5;
            MPI_Reduce(buf, buf2, 1, MPI_INT, MPI_SUM, root, ic);
            if (root == MPI_ROOT) {
                exp = 0;
                for (i = 0; i < n; ++i)
                    exp += s->rworld[i] + 1;
                CHECK(exp, buf2[0], "MPI_Reduce root group %d root %d", rg, r);
            } else {
                CHECK(-5, buf2[0], "MPI_Reduce: recvbuf untouched off the root");
            }
            /* gather */
            for (i = 0; i < n + 1; ++i)
                buf2[i] = -3;
            buf[0] = wrank * 3;
            MPI_Gather(buf, 1, MPI_INT, buf2, 1, MPI_INT, root, ic);
            if (root == MPI_ROOT) {
                for (i = 0; i < n; ++i)
                    CHECK(s->rworld[i] * 3, buf2[i], "MPI_Gather block %d", i);
            } else {
                CHECK(-3, buf2[0], "MPI_Gather: recvbuf untouched off the root");
            }
            /* scatter */
            for (i = 0; i < n; ++i)
                buf[i] = root == MPI_ROOT ? wrank * 100 + i : -4;
            buf2[0] = -6;
            MPI_Scatter(buf, 1, MPI_INT, buf2, 1, MPI_INT, root, ic);
            if (root == MPI_ROOT || root == MPI_PROC_NULL)
                CHECK(-6, buf2[0], "MPI_Scatter: recvbuf untouched in the root group");
            else
                CHECK(root_world * 100 + me, buf2[0], "MPI_Scatter root group %d root %d", rg, r);
        }
    }
    /* allreduce: the other group's sum and max */
    buf[0] = wrank + 1;
    buf[1] = wrank;
    MPI_Allreduce(buf, buf2, 1, MPI_INT, MPI_SUM, ic);
    MPI_Allreduce(&buf[1], &mx, 1, MPI_INT, MPI_MAX, ic);
    sum = 0;
    for (i = 0; i < n; ++i)
        sum += s->rworld[i] + 1;
    CHECK(sum, buf2[0], "MPI_Allreduce(MPI_SUM) is the remote group's sum");
    CHECK(s->rworld[n - 1], mx, "MPI_Allreduce(MPI_MAX) is the remote group's max");
    /* allgather: two ints per rank */
    buf[0] = wrank;
    buf[1] = wrank * 2;
    MPI_Allgather(buf, 2, MPI_INT, buf2, 2, MPI_INT, ic);
    for (i = 0; i < n; ++i) {
        CHECK(s->rworld[i], buf2[2 * i], "MPI_Allgather block %d", i);
        CHECK(s->rworld[i] * 2, buf2[2 * i + 1], "MPI_Allgather block %d", i);
    }
    /* alltoall */
    for (i = 0; i < n; ++i)
        buf[i] = wrank * 100 + i;
    MPI_Alltoall(buf, 1, MPI_INT, buf2, 1, MPI_INT, ic);
    for (i = 0; i < n; ++i)
        CHECK(s->rworld[i] * 100 + me, buf2[i], "MPI_Alltoall block %d", i);
    MPI_Alltoall(buf, 0, MPI_INT, buf2, 0, MPI_INT, ic); /* zero count */
    MPI_Barrier(ic);
    free(buf);
    free(buf2);
}

/* The v and w variants, MPI_Reduce_scatter(_block), and the non-blocking
 * forms, several outstanding at once. Remote rank i sends i + 1 ints (or
 * none to/from odd ones for the zero-count cases) at spread-out
 * displacements. */
static void check_v_collectives(MPI_Comm ic, const struct side *s)
{
    int n = s->rsize, me = s->lrank, m = s->lsize, i, j, rg, k, in_root_group;
    int cap = 4 * (n + 2) * (n + 2) + 4 * (m + 2) * (m + 2);
    int *sb = xmalloc(sizeof(int) * (size_t)cap), *rb = xmalloc(sizeof(int) * (size_t)cap);
    int *sc = xmalloc(sizeof(int) * (size_t)(n + m + 2)), *sd = xmalloc(sizeof(int) * (size_t)(n + m + 2));
    int *rc = xmalloc(sizeof(int) * (size_t)(n + m + 2)), *rd = xmalloc(sizeof(int) * (size_t)(n + m + 2));
    MPI_Datatype *st = xmalloc(sizeof(MPI_Datatype) * (size_t)(n + 1));
    MPI_Datatype *rt = xmalloc(sizeof(MPI_Datatype) * (size_t)(n + 1));
    MPI_Request req[6];

    /* gatherv / scatterv with each group as the root group */
    for (rg = 0; rg < 2; ++rg) {
        int gsize = (s->lworld[0] < s->rworld[0]) == (rg == 0) ? s->lsize : s->rsize;
        for (k = 0; k < 2; ++k) {
            int r = k == 0 ? 0 : gsize - 1, at = 0;
            int root = root_arg(s, rg, r, &in_root_group);
            int root_world = in_root_group ? s->lworld[r] : s->rworld[r];
            for (i = 0; i < n; ++i) { /* remote rank i: i + 1 ints at a gap of 2 */
                rc[i] = i + 1;
                rd[i] = at + 2;
                at = rd[i] + rc[i];
            }
            for (i = 0; i < cap; ++i)
                rb[i] = -7;
            for (i = 0; i < me + 1; ++i)
                sb[i] = s->lworld[me] * 10 + i;
            MPI_Gatherv(sb, me + 1, MPI_INT, rb, rc, rd, MPI_INT, root, ic);
            if (root == MPI_ROOT) {
                for (i = 0; i < n; ++i) {
                    CHECK(-7, rb[rd[i] - 1], "MPI_Gatherv gap before block %d", i);
                    for (j = 0; j < rc[i]; ++j)
                        CHECK(s->rworld[i] * 10 + j, rb[rd[i] + j], "MPI_Gatherv block %d element %d", i, j);
                }
            } else {
                CHECK(-7, rb[0], "MPI_Gatherv: recvbuf untouched off the root");
            }
            /* scatterv: the root sends remote rank i i + 1 ints from rd[i] */
            for (i = 0; i < cap; ++i)
                sb[i] = root == MPI_ROOT ? s->lworld[me] * 1000 + i : -8;
            for (i = 0; i < cap; ++i)
                rb[i] = -9;
            MPI_Scatterv(sb, rc, rd, MPI_INT, rb, me + 1, MPI_INT, root, ic);
            if (root == MPI_ROOT || root == MPI_PROC_NULL) {
                CHECK(-9, rb[0], "MPI_Scatterv: recvbuf untouched in the root group");
            } else {
                int from = 0;
                for (i = 0; i < me; ++i)
                    from = from + 2 + (i + 1);
                from += 2;
                for (j = 0; j < me + 1; ++j)
                    CHECK(root_world * 1000 + from + j, rb[j], "MPI_Scatterv element %d", j);
                CHECK(-9, rb[me + 1], "MPI_Scatterv wrote past its count");
            }
        }
    }

    /* allgatherv: remote rank i's i + 1 ints at rd[i] */
    {
        int at = 0;
        for (i = 0; i < n; ++i) {
            rc[i] = i + 1;
            rd[i] = at + 1;
            at = rd[i] + rc[i];
        }
    }
    for (i = 0; i < me + 1; ++i)
        sb[i] = s->lworld[me] * 10 + i;
    for (i = 0; i < cap; ++i)
        rb[i] = -7;
    MPI_Allgatherv(sb, me + 1, MPI_INT, rb, rc, rd, MPI_INT, ic);
    for (i = 0; i < n; ++i)
        for (j = 0; j < rc[i]; ++j)
            CHECK(s->rworld[i] * 10 + j, rb[rd[i] + j], "MPI_Allgatherv block %d element %d", i, j);
    CHECK(-7, rb[0], "MPI_Allgatherv leaves the gaps alone");

    /* alltoallv: to remote rank i, (me + i) % 3 ints (zero counts too) */
    {
        int sat = 0, rat = 0;
        for (i = 0; i < n; ++i) {
            sc[i] = (me + i) % 3;
            sd[i] = sat;
            sat += sc[i] + 1;
            rc[i] = (i + me) % 3; /* what remote rank i sends me */
            rd[i] = rat;
            rat += rc[i] + 1;
        }
    }
    for (i = 0; i < n; ++i)
        for (j = 0; j < sc[i]; ++j)
            sb[sd[i] + j] = s->lworld[me] * 100 + s->rworld[i] * 3 + j;
    for (i = 0; i < cap; ++i)
        rb[i] = -7;
    MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ic);
    for (i = 0; i < n; ++i)
        for (j = 0; j < rc[i]; ++j)
            CHECK(s->rworld[i] * 100 + s->lworld[me] * 3 + j, rb[rd[i] + j], "MPI_Alltoallv from %d element %d", i, j);

    /* alltoallw: one int to every remote rank, as MPI_INT or as a derived
     * type of one int, byte displacements (received in reverse order) */
    {
        MPI_Datatype one;
        MPI_Type_contiguous(1, MPI_INT, &one);
        MPI_Type_commit(&one);
        for (i = 0; i < n; ++i) {
            sc[i] = 1;
            st[i] = i % 2 ? one : MPI_INT;
            sd[i] = (int)sizeof(int) * i;
            rc[i] = 1;
            rt[i] = i % 3 ? MPI_INT : one;
            rd[i] = (int)sizeof(int) * (n - 1 - i);
            sb[i] = s->lworld[me] * 50 + s->rworld[i];
        }
        for (i = 0; i < n; ++i)
            rb[i] = -7;
        MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, ic);
        for (i = 0; i < n; ++i)
            CHECK(s->rworld[i] * 50 + s->lworld[me], rb[n - 1 - i], "MPI_Alltoallw from %d", i);
        MPI_Type_free(&one);
    }

    /* reduce_scatter: each group sums 2 * (its size) ints... but the other
     * group's result is scattered here, so both groups use vectors of
     * max(m, n) * 2 ints: counts are 2 per local rank plus the rest at
     * local rank 0, the totals equal */
    {
        int total = 2 * (m > n ? m : n);
        long long want;
        for (i = 0; i < m; ++i)
            rc[i] = 2;
        rc[0] += total - 2 * m;
        for (i = 0; i < total; ++i)
            sb[i] = s->lworld[me] + i;
        for (i = 0; i < cap; ++i)
            rb[i] = -7;
        MPI_Reduce_scatter(sb, rb, rc, MPI_INT, MPI_SUM, ic);
        {
            int first = 0;
            for (i = 0; i < me; ++i)
                first += rc[i];
            for (j = 0; j < rc[me]; ++j) {
                want = 0;
                for (i = 0; i < n; ++i)
                    want += s->rworld[i] + first + j;
                CHECK(want, rb[j], "MPI_Reduce_scatter element %d", j);
            }
            CHECK(-7, rb[rc[me]], "MPI_Reduce_scatter wrote past its count");
        }
    }
    /* reduce_scatter_block needs m * c == n * c': only when the sizes match */
    if (m == n) {
        for (i = 0; i < 3 * m; ++i)
            sb[i] = s->lworld[me] * (i + 1);
        MPI_Reduce_scatter_block(sb, rb, 3, MPI_INT, MPI_MAX, ic);
        for (j = 0; j < 3; ++j)
            CHECK((long long)s->rworld[n - 1] * (3 * me + j + 1), rb[j], "MPI_Reduce_scatter_block element %d", j);
    }

    /* non-blocking forms, several outstanding at once */
    {
        int a = s->lworld[me] + 1, asum = -1, bc[2] = {-1, -1}, ag[64], at2[64];
        long long want = 0;
        int root, mine_first = s->lworld[0] < s->rworld[0];
        root = mine_first ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        if (root == MPI_ROOT) {
            bc[0] = 4242;
            bc[1] = s->lworld[0];
        }
        MPI_Ibarrier(ic, &req[0]);
        MPI_Iallreduce(&a, &asum, 1, MPI_INT, MPI_SUM, ic, &req[1]);
        MPI_Ibcast(bc, 2, MPI_INT, root, ic, &req[2]);
        int small = s->lsize <= 64 && s->rsize <= 64; /* the same at both groups */
        if (small) {
            for (i = 0; i < n; ++i)
                at2[i] = s->lworld[me] * 1000 + s->rworld[i];
            MPI_Ialltoall(at2, 1, MPI_INT, ag, 1, MPI_INT, ic, &req[3]);
        } else {
            req[3] = MPI_REQUEST_NULL;
        }
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        for (i = 0; i < n; ++i)
            want += s->rworld[i] + 1;
        CHECK(want, asum, "MPI_Iallreduce is the remote group's sum");
        if (root == MPI_ROOT || root == MPI_PROC_NULL) {
            if (root == MPI_PROC_NULL)
                CHECK(-1, bc[0], "MPI_Ibcast: MPI_PROC_NULL buffer untouched");
        } else {
            CHECK(4242, bc[0], "MPI_Ibcast");
            CHECK(s->rworld[0], bc[1], "MPI_Ibcast");
        }
        if (small)
            for (i = 0; i < n; ++i)
                CHECK(s->rworld[i] * 1000 + s->lworld[me], ag[i], "MPI_Ialltoall from %d", i);
        /* an Iallgatherv and an Ireduce_scatter_block outstanding together */
        {
            int at = 0;
            for (i = 0; i < n; ++i) {
                rc[i] = 1;
                rd[i] = at;
                at += 2;
            }
        }
        for (i = 0; i < cap; ++i)
            rb[i] = -7;
        MPI_Iallgatherv(&a, 1, MPI_INT, rb, rc, rd, MPI_INT, ic, &req[0]);
        if (m == n) {
            for (i = 0; i < m; ++i)
                sb[i] = s->lworld[me] + i;
            MPI_Ireduce_scatter_block(sb, &asum, 1, MPI_INT, MPI_SUM, ic, &req[1]);
        } else {
            req[1] = MPI_REQUEST_NULL;
        }
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        for (i = 0; i < n; ++i) {
            CHECK(s->rworld[i] + 1, rb[2 * i], "MPI_Iallgatherv block %d", i);
            CHECK(-7, rb[2 * i + 1], "MPI_Iallgatherv gap %d", i);
        }
        if (m == n) {
            want = 0;
            for (i = 0; i < n; ++i)
                want += s->rworld[i] + me;
            CHECK(want, asum, "MPI_Ireduce_scatter_block");
        }
    }
    free(sb);
    free(rb);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
}

/* Messages with the same (source, tag) on an intercommunicator and its dup
 * land on the communicator they were sent on. */
static void check_isolation(MPI_Comm ic, MPI_Comm dup, const struct side *s)
{
    int me = s->lrank, a = -1, b = -1, va, vb;
    MPI_Request r[2];
    if (me >= s->rsize)
        return;
    if (s->lworld[0] < s->rworld[0]) { /* receivers */
        MPI_Irecv(&a, 1, MPI_INT, me, 8, ic, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, me, 8, dup, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(1, a, "message sent on the intercommunicator");
        CHECK(2, b, "message sent on its dup");
    } else {
        va = 1;
        vb = 2;
        MPI_Send(&vb, 1, MPI_INT, me, 8, dup);
        MPI_Send(&va, 1, MPI_INT, me, 8, ic);
    }
}

static void check_merge(MPI_Comm ic, const struct side *s)
{
    int lowfirst = s->lworld[0] < s->rworld[0]; /* my group has the lower first world rank */
    int variant, mine, theirs, size, rank, exp_rank, i;
    for (variant = 0; variant < 4; ++variant) {
        MPI_Comm m;
        int *all;
        /* high flags of the lower group and the other */
        int lo_high = variant & 1, hi_high = (variant >> 1) & 1;
        mine = lowfirst ? lo_high : hi_high;
        theirs = lowfirst ? hi_high : lo_high;
        MPI_Intercomm_merge(ic, mine, &m);
        MPI_Comm_size(m, &size);
        CHECK(s->lsize + s->rsize, size, "merged size");
        MPI_Comm_rank(m, &rank);
        if (mine == theirs) {
            /* MPI leaves the order open: my group is all first or all last */
            CHECK_TRUE(rank == s->lrank || rank == s->rsize + s->lrank, "merged rank with equal high (%d)", rank);
        } else {
            exp_rank = mine ? s->rsize + s->lrank : s->lrank;
            CHECK(exp_rank, rank, "merged rank (high %d, other group high %d)", mine, theirs);
        }
        MPI_Comm_test_inter(m, &i);
        CHECK(0, i, "the merged communicator is an intracommunicator");
        /* every rank's world rank, in merged order, is consistent */
        all = xmalloc(sizeof(int) * (size_t)size);
        i = wrank;
        MPI_Allgather(&i, 1, MPI_INT, all, 1, MPI_INT, m);
        CHECK(wrank, all[rank], "merged allgather: own slot");
        if (mine != theirs) {
            const int *first = mine == 0 ? s->lworld : s->rworld;
            int nfirst = mine == 0 ? s->lsize : s->rsize;
            const int *second = mine == 0 ? s->rworld : s->lworld;
            for (i = 0; i < size; ++i)
                CHECK(i < nfirst ? first[i] : second[i - nfirst], all[i], "merged member %d", i);
        }
        free(all);
        MPI_Comm_free(&m);
        CHECK(MPI_COMM_NULL, m, "MPI_Comm_free sets MPI_COMM_NULL");
    }
}

#ifdef TUCANA
static void check_errors(MPI_Comm ic, const struct side *s)
{
    int e, cls, counts[64], displs[64], i, v = 0, buf[64];
    MPI_Request req;
    MPI_Comm out = MPI_COMM_NULL;
    int dims[1], periods[1] = {0};
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    for (i = 0; i < 64; ++i) {
        counts[i] = 1;
        displs[i] = i;
    }
    (void)counts, (void)displs;
    e = MPI_Scan(&v, buf, 1, MPI_INT, MPI_SUM, ic);
    MPI_Error_class(e, &cls);
    CHECK(MPI_ERR_COMM, cls, "MPI_Scan on an intercommunicator");
    e = MPI_Iexscan(&v, buf, 1, MPI_INT, MPI_SUM, ic, &req);
    MPI_Error_class(e, &cls);
    CHECK(MPI_ERR_COMM, cls, "MPI_Iexscan on an intercommunicator");
    dims[0] = s->lsize;
    e = MPI_Cart_create(ic, 1, dims, periods, 0, &out);
    MPI_Error_class(e, &cls);
    CHECK(MPI_ERR_COMM, cls, "MPI_Cart_create on an intercommunicator");
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_ARE_FATAL);
}
#endif

static void run(MPI_Comm local, MPI_Comm peer, int local_leader, int remote_leader, int tag,
                int group_of_world(int, int), int arg, int mygroup)
{
    MPI_Comm ic, dup;
    MPI_Request req;
    struct side s;
    int res;
    MPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, &ic);
    describe(ic, &s, group_of_world, arg, mygroup);
    check_basics(ic, &s);
    check_p2p(ic, &s);
    check_collectives(ic, &s);
    check_v_collectives(ic, &s);
    MPI_Comm_dup(ic, &dup);
    MPI_Comm_compare(ic, dup, &res);
    CHECK(MPI_CONGRUENT, res, "an intercommunicator vs. its dup");
    check_basics(dup, &s);
    check_isolation(ic, dup, &s);
    check_collectives(dup, &s);
    check_p2p(dup, &s);
    check_merge(dup, &s);
    /* a non-blocking dup of the intercommunicator */
    MPI_Comm_free(&dup);
    MPI_Comm_idup(ic, &dup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check_basics(dup, &s);
    check_p2p(dup, &s);
    check_isolation(ic, dup, &s);
#ifdef TUCANA
    check_errors(ic, &s);
#endif
    MPI_Comm_free(&dup);
    check_merge(ic, &s);
    MPI_Comm_free(&ic);
    CHECK(MPI_COMM_NULL, ic, "MPI_Comm_free sets MPI_COMM_NULL");
    free_side(&s);
}

int main(int argc, char **argv)
{
    int flag = -1, k, color, lsize;
    MPI_Comm local, wdup;
    MPI_Init(&argc, &argv);
    MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
    CHECK(0, flag, "MPI_Comm_test_inter on MPI_COMM_WORLD");
    if (wsize >= 2) {
        /* a. even / odd */
        color = wrank % 2;
        MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
        run(local, MPI_COMM_WORLD, 0, color == 0 ? 1 : 0, 77, even_odd, 0, color);
        MPI_Comm_free(&local);
        /* b. uneven halves, leaders the last local ranks, peer a dup of world */
        k = wsize / 3 > 0 ? wsize / 3 : 1;
        color = wrank < k ? 0 : 1;
        MPI_Comm_dup(MPI_COMM_WORLD, &wdup);
        MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
        MPI_Comm_size(local, &lsize);
        run(local, wdup, lsize - 1, color == 0 ? wsize - 1 : k - 1, 5, halves, k, color);
        MPI_Comm_free(&local);
        MPI_Comm_free(&wdup);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK intercomm\n");
    MPI_Finalize();
    return 0;
}
