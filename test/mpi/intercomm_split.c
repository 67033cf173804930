/*
 * intercomm_split -- MPI_Comm_split and MPI_Comm_create on an
 * intercommunicator (MPI-3.1 sec. 6.4.2).
 *
 * The intercommunicator joins the even world ranks (group A) with the odd
 * ones (group B); every check below knows both groups from the world ranks
 * alone, so each side checks what it got against what MPI defines.
 *  1. MPI_Comm_split with color (world rank / 2) % 3, key minus the world
 *     rank (so the new ranks run backwards): the result of a color joins
 *     the members of that color of both groups (local group: this side's,
 *     remote group: the other side's, each ordered by key); where one group
 *     has no member of the color, or the color is MPI_UNDEFINED (world
 *     rank 3), the result is MPI_COMM_NULL. Sizes, ranks, the remote group
 *     as world ranks, an int sent to every remote member and received from
 *     MPI_ANY_SOURCE (sources checked), an MPI_Allreduce (each side gets
 *     the other's sum) and an MPI_Intercomm_merge.
 *  2. MPI_Comm_create with groups in reverse order: group A passes its
 *     members but its first, group B every member; the new
 *     intercommunicator's local group is the group passed (ranks in its
 *     order), the remote group the other side's; the left-out member gets
 *     MPI_COMM_NULL. Then with group B passing MPI_GROUP_EMPTY: every
 *     member gets MPI_COMM_NULL.
 *  3. Two results of splits used at once: messages on one never match
 *     receives on the other (same source and tag).
 * With fewer than 2 ranks there is no second group: prints OK.
 * Prints "OK intercomm_split" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TESTNAME "intercomm_split"
#include "mpitest.h"

static int color_of(int w) { return w == 3 ? MPI_UNDEFINED : (w / 2) % 3; }

/* The world ranks of group `parity` (0: even, 1: odd) with color `color`,
 * ordered by key -w (descending world rank). Returns the count. */
static int members(int parity, int color, int *out)
{
    int n = 0, w;
    for (w = wsize - 1; w >= 0; --w)
        if (w % 2 == parity && color_of(w) == color)
            out[n++] = w;
    return n;
}

/* Checks that `c`'s local and remote groups are `local` and `remote` (world
 * ranks in rank order), then point-to-point, an MPI_Allreduce and a merge
 * on it. */
static void check_inter(MPI_Comm c, const int *local, int nl, const int *remote, int nr, const char *what)
{
    int flag, size, rank, i, sum, expect, me;
    MPI_Group g, wg;
    int *ranks = xmalloc(sizeof(int) * (size_t)wsize), *world = xmalloc(sizeof(int) * (size_t)wsize);
    MPI_Request *reqs = xmalloc(sizeof(MPI_Request) * (size_t)(2 * nr));
    int *in = xmalloc(sizeof(int) * (size_t)nr), *seen = xmalloc(sizeof(int) * (size_t)nr);
    MPI_Status st;
    MPI_Comm merged;

    MPI_Comm_test_inter(c, &flag);
    CHECK(1, flag, "%s: an intercommunicator", what);
    MPI_Comm_size(c, &size);
    CHECK(nl, size, "%s: local group size", what);
    MPI_Comm_remote_size(c, &size);
    CHECK(nr, size, "%s: remote group size", what);
    MPI_Comm_rank(c, &rank);
    CHECK(local[rank], wrank, "%s: local rank %d is this world rank", what, rank);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (i = 0; i < wsize; ++i)
        ranks[i] = i;
    MPI_Comm_remote_group(c, &g);
    MPI_Group_translate_ranks(g, nr, ranks, wg, world);
    for (i = 0; i < nr; ++i)
        CHECK(remote[i], world[i], "%s: remote rank %d as a world rank", what, i);
    MPI_Group_free(&g);
    MPI_Comm_group(c, &g);
    MPI_Group_translate_ranks(g, nl, ranks, wg, world);
    for (i = 0; i < nl; ++i)
        CHECK(local[i], world[i], "%s: local rank %d as a world rank", what, i);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* every local member sends its world rank to every remote member */
    for (i = 0; i < nr; ++i) {
        seen[i] = 0;
        MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 9, c, &reqs[i]);
    }
    for (i = 0; i < nr; ++i)
        MPI_Isend((void *)&local[rank], 1, MPI_INT, i, 9, c, &reqs[nr + i]);
    for (i = 0; i < nr; ++i) {
        int k;
        MPI_Wait(&reqs[i], &st);
        CHECK_TRUE(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < nr, "%s: source %d is a remote rank", what, st.MPI_SOURCE);
        CHECK(remote[st.MPI_SOURCE], in[i], "%s: payload from remote rank %d", what, st.MPI_SOURCE);
        k = st.MPI_SOURCE;
        CHECK(0, seen[k], "%s: one message from remote rank %d", what, k);
        seen[k] = 1;
    }
    MPI_Waitall(nr, reqs + nr, MPI_STATUSES_IGNORE);

    /* each side gets the sum of the other's world ranks */
    me = wrank;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c);
    expect = 0;
    for (i = 0; i < nr; ++i)
        expect += remote[i];
    CHECK(expect, sum, "%s: MPI_Allreduce gives the remote group's sum", what);

    /* the group of the even world ranks first */
    MPI_Intercomm_merge(c, wrank % 2, &merged);
    MPI_Comm_size(merged, &size);
    CHECK(nl + nr, size, "%s: merged size", what);
    MPI_Comm_rank(merged, &rank);
    {
        int r;
        MPI_Comm_rank(c, &r);
        CHECK(wrank % 2 == 0 ? r : nr + r, rank, "%s: merged rank", what);
    }
    MPI_Comm_free(&merged);
    free(ranks);
    free(world);
    free(reqs);
    free(in);
    free(seen);
}

static void check_split(MPI_Comm ic)
{
    int *local = xmalloc(sizeof(int) * (size_t)wsize), *remote = xmalloc(sizeof(int) * (size_t)wsize);
    int color = color_of(wrank), nl, nr;
    MPI_Comm c;
    MPI_Comm_split(ic, color, -wrank, &c);
    nl = color == MPI_UNDEFINED ? 0 : members(wrank % 2, color, local);
    nr = color == MPI_UNDEFINED ? 0 : members(1 - wrank % 2, color, remote);
    if (nl == 0 || nr == 0) {
        CHECK(MPI_COMM_NULL, c, "split of color %d (local %d, remote %d members): MPI_COMM_NULL", color, nl, nr);
    } else {
        CHECK_TRUE(c != MPI_COMM_NULL, "split of color %d: a communicator", color);
        check_inter(c, local, nl, remote, nr, "MPI_Comm_split");
        MPI_Comm_free(&c);
    }
    free(local);
    free(remote);
}

static void check_create(MPI_Comm ic)
{
    int *local = xmalloc(sizeof(int) * (size_t)wsize), *remote = xmalloc(sizeof(int) * (size_t)wsize);
    int *ranks = xmalloc(sizeof(int) * (size_t)wsize);
    int lsize, rsize, i, n, nl = 0, nr = 0;
    MPI_Group lg, g;
    MPI_Comm c;
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_group(ic, &lg);
    /* group A: its ranks 1.. backwards; group B: all of its ranks backwards */
    n = 0;
    for (i = lsize - 1; i >= (wrank % 2 == 0 ? 1 : 0); --i)
        ranks[n++] = i;
    MPI_Group_incl(lg, n, ranks, &g);
    /* the expected groups, as world ranks: local rank i of A is world 2i,
     * of B world 2i+1 */
    for (i = lsize - 1; i >= (wrank % 2 == 0 ? 1 : 0); --i)
        local[nl++] = 2 * i + wrank % 2;
    for (i = rsize - 1; i >= (wrank % 2 == 0 ? 0 : 1); --i)
        remote[nr++] = 2 * i + 1 - wrank % 2;
    MPI_Comm_create(ic, g, &c);
    if (nl == 0 || nr == 0 || (wrank % 2 == 0 && wrank == 0)) {
        CHECK(MPI_COMM_NULL, c, "MPI_Comm_create: MPI_COMM_NULL outside the group or with an empty side");
    } else {
        check_inter(c, local, nl, remote, nr, "MPI_Comm_create");
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
    /* group B passes the empty group: nobody gets a communicator */
    MPI_Comm_create(ic, wrank % 2 == 0 ? lg : MPI_GROUP_EMPTY, &c);
    CHECK(MPI_COMM_NULL, c, "MPI_Comm_create with an empty remote group gives MPI_COMM_NULL");
    MPI_Group_free(&lg);
    free(local);
    free(remote);
    free(ranks);
}

/* Two splits at once: same source and tag on each, sent in the opposite
 * order; each receive gets its own communicator's message. */
static void check_isolation(MPI_Comm ic)
{
    MPI_Comm a, b;
    int x = -1, y = -1, va = 100 + wrank, vb = 200 + wrank;
    MPI_Request r[2];
    MPI_Comm_split(ic, 0, wrank, &a);
    MPI_Comm_split(ic, 0, wrank, &b);
    /* local rank 0 of each side exchanges with remote rank 0 */
    if (wrank <= 1) {
        MPI_Irecv(&x, 1, MPI_INT, 0, 4, a, &r[0]);
        MPI_Irecv(&y, 1, MPI_INT, 0, 4, b, &r[1]);
        MPI_Send(&vb, 1, MPI_INT, 0, 4, b);
        MPI_Send(&va, 1, MPI_INT, 0, 4, a);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(100 + (1 - wrank), x, "message on the first split");
        CHECK(200 + (1 - wrank), y, "message on the second split");
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

int main(int argc, char **argv)
{
    MPI_Comm local, ic;
    MPI_Init(&argc, &argv);
    if (wsize >= 2) {
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, wrank % 2 == 0 ? 1 : 0, 12, &ic);
        check_split(ic);
        check_create(ic);
        check_isolation(ic);
        MPI_Comm_free(&ic);
        MPI_Comm_free(&local);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK " TESTNAME "\n");
    MPI_Finalize();
    return 0;
}
