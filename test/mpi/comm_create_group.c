/*
 * comm_create_group -- MPI_Comm_create_group and MPI_Comm_idup (MPI-3.1
 * sec. 6.4.2).
 *
 *  1. Disjoint groups at once: world split into blocks of 3 consecutive
 *     ranks; each block calls MPI_Comm_create_group (block members in
 *     reverse order) with its own tag, the other ranks do not call it.
 *     Size, rank (reversed), members (MPI_Allgather of world ranks) and an
 *     MPI_Allreduce and a ring MPI_Sendrecv on the result.
 *  2. Overlapping groups in sequence: the even ranks, then the first half,
 *     then every rank but the last (each only by its members, the same tag
 *     7 each time); traffic on each; they do not mix with MPI_COMM_WORLD
 *     (a message with the same source and tag on world and on the new one).
 *  3. (run first) MPI_Comm_idup: three idups of MPI_COMM_WORLD and one of a split
 *     communicator outstanding at once, with an MPI_Iallreduce and
 *     MPI_Isend/Irecv on world started between them (and, not under Open
 *     MPI, whose own idup then sometimes hangs, again with a blocking
 *     MPI_Allreduce and MPI_Sendrecv on world between them); MPI_Waitall,
 *     then every dup is checked (size, rank, MPI_CONGRUENT to its parent,
 *     an attribute copied by a copy callback, an MPI_Allreduce and a ring
 *     message that must not land on another dup); a dup of a dup; an idup
 *     completed with MPI_Test in a loop. Then all freed.
 *  4. A group of one rank (MPI_COMM_SELF-like), and the parent a dup of world.
 * Works for any world size >= 1. Prints "OK comm_create_group" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "comm_create_group"
#include "mpitest.h"

/* The members of `c` in rank order are the world ranks `world[0..n)`:
 * size, rank, allgather, allreduce, ring sendrecv. */
static void exercise(MPI_Comm c, const int *world, int n, const char *what)
{
    int size, rank, i, sum, exp, left, right, got;
    int *all = xmalloc(sizeof(int) * (size_t)n);
    MPI_Comm_size(c, &size);
    CHECK(n, size, "%s: size", what);
    MPI_Comm_rank(c, &rank);
    CHECK(wrank, world[rank], "%s: rank %d is this world rank", what, rank);
    i = wrank;
    MPI_Allgather(&i, 1, MPI_INT, all, 1, MPI_INT, c);
    for (i = 0; i < n; ++i)
        CHECK(world[i], all[i], "%s: member %d", what, i);
    i = wrank + 1;
    MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_SUM, c);
    exp = 0;
    for (i = 0; i < n; ++i)
        exp += world[i] + 1;
    CHECK(exp, sum, "%s: allreduce", what);
    left = (rank + n - 1) % n;
    right = (rank + 1) % n;
    i = wrank;
    MPI_Sendrecv(&i, 1, MPI_INT, right, 11, &got, 1, MPI_INT, left, 11, c, MPI_STATUS_IGNORE);
    CHECK(world[left], got, "%s: ring", what);
    free(all);
}

static MPI_Comm group_comm(MPI_Comm parent, const int *world, int n, int tag)
{
    MPI_Group wg, g;
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, world, &g);
    MPI_Comm_create_group(parent, g, tag, &c);
    CHECK_TRUE(c != MPI_COMM_NULL, "MPI_Comm_create_group gave a communicator");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    return c;
}

static void disjoint(void)
{
    int n = wsize, first = wrank / 3 * 3, len = n - first < 3 ? n - first : 3, i;
    int world[3];
    MPI_Comm c;
    for (i = 0; i < len; ++i)
        world[i] = first + len - 1 - i; /* reversed */
    c = group_comm(MPI_COMM_WORLD, world, len, 100 + first / 3);
    exercise(c, world, len, "disjoint block");
    MPI_Comm_free(&c);
}

static void overlapping(void)
{
    int n = wsize, i, k;
    int *world = xmalloc(sizeof(int) * (size_t)n);
    MPI_Comm c;
    for (k = 0; k < 3; ++k) {
        int len = 0, member = 0;
        for (i = 0; i < n; ++i) {
            int in = k == 0 ? i % 2 == 0 : k == 1 ? i < (n + 1) / 2 : (i < n - 1 || n == 1);
            if (in) {
                if (i == wrank)
                    member = 1;
                world[len++] = i;
            }
        }
        if (member) {
            int a = -1, b = -1, rank, size, v1, v2;
            MPI_Request r[2];
            c = group_comm(MPI_COMM_WORLD, world, len, 7);
            exercise(c, world, len, k == 0 ? "even ranks" : k == 1 ? "first half" : "all but the last");
            /* same (source, tag) on world and on c: each lands on its own */
            MPI_Comm_rank(c, &rank);
            MPI_Comm_size(c, &size);
            if (size > 1 && rank < 2) {
                int peer_c = 1 - rank, peer_w = world[peer_c];
                if (rank == 0) {
                    MPI_Irecv(&a, 1, MPI_INT, peer_w, 12, MPI_COMM_WORLD, &r[0]);
                    MPI_Irecv(&b, 1, MPI_INT, peer_c, 12, c, &r[1]);
                    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
                    CHECK(1, a, "message on world");
                    CHECK(2, b, "message on the new communicator");
                } else {
                    v1 = 1;
                    v2 = 2;
                    MPI_Send(&v2, 1, MPI_INT, peer_c, 12, c);
                    MPI_Send(&v1, 1, MPI_INT, peer_w, 12, MPI_COMM_WORLD);
                }
            }
            MPI_Comm_free(&c);
        }
    }
    free(world);
}

static void single(void)
{
    int me = wrank;
    MPI_Comm wdup, c;
    MPI_Comm_dup(MPI_COMM_WORLD, &wdup);
    c = group_comm(wdup, &me, 1, 0);
    exercise(c, &me, 1, "one rank");
    MPI_Comm_free(&c);
    MPI_Comm_free(&wdup);
}

static int copy_fn(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old;
    (void)key;
    (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* blocking: the collective and the point-to-point on world between the
 * idups are blocking calls (MPI_Allreduce, MPI_Sendrecv), else
 * non-blocking ones completed with the idups. */
static void idups(int blocking)
{
    enum { K = 4 };
    MPI_Comm parents[K], dups[K], half, dd;
    MPI_Request reqs[K + 3], r2[2];
    int key, i, j, res, flag, v, sum, size, rank, got[K], sent[K], done;
    void *attr;
    int *world = xmalloc(sizeof(int) * (size_t)wsize);
    static const int value = 42; /* read only: shared by subranks */

    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)&value);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &half);
    for (i = 0; i < K; ++i)
        parents[i] = i == 2 ? half : MPI_COMM_WORLD;
    for (i = 0; i < K; ++i) {
        MPI_Comm_idup(parents[i], &dups[i], &reqs[i]);
        if (i == 1) {
            /* a collective on the parent between overlapping idups, and
             * point-to-point on it */
            v = wrank + 1;
            if (blocking) {
                MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                MPI_Sendrecv(&v, 1, MPI_INT, (wrank + 1) % wsize, 13, &j, 1, MPI_INT, (wrank + wsize - 1) % wsize,
                             13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[K]);
                MPI_Isend(&v, 1, MPI_INT, (wrank + 1) % wsize, 13, MPI_COMM_WORLD, &reqs[K + 1]);
                MPI_Irecv(&j, 1, MPI_INT, (wrank + wsize - 1) % wsize, 13, MPI_COMM_WORLD, &reqs[K + 2]);
            }
        }
    }
    MPI_Waitall(blocking ? K : K + 3, reqs, MPI_STATUSES_IGNORE);
    CHECK(wsize * (wsize + 1) / 2, sum, "MPI_Allreduce on world while idups are pending");
    CHECK((wrank + wsize - 1) % wsize + 1, j, "ring on world while idups are pending");
    for (i = 0; i < K; ++i) {
        MPI_Comm_compare(parents[i], dups[i], &res);
        CHECK(MPI_CONGRUENT, res, "idup %d is congruent to its parent", i);
        MPI_Comm_size(dups[i], &size);
        MPI_Comm_rank(dups[i], &rank);
        for (j = 0; j < size; ++j)
            world[j] = -1;
        v = wrank;
        MPI_Allgather(&v, 1, MPI_INT, world, 1, MPI_INT, parents[i]);
        exercise(dups[i], world, size, "idup");
        if (parents[i] == MPI_COMM_WORLD) {
            MPI_Comm_get_attr(dups[i], key, &attr, &flag);
            CHECK(1, flag, "idup %d: attribute copied", i);
            CHECK_TRUE(attr == (void *)&value, "idup %d: attribute value", i);
        }
    }
    /* one message per dup of world to the right neighbour, sent in reverse
     * order with the same tag: each lands on its own dup */
    for (i = 0; i < K; ++i)
        got[i] = -1;
    j = 0;
    for (i = 0; i < K; ++i)
        if (parents[i] == MPI_COMM_WORLD)
            MPI_Irecv(&got[i], 1, MPI_INT, (wrank + wsize - 1) % wsize, 14, dups[i], &reqs[j++]);
    for (i = K - 1; i >= 0; --i)
        if (parents[i] == MPI_COMM_WORLD) {
            sent[i] = i * 1000 + wrank;
            MPI_Send(&sent[i], 1, MPI_INT, (wrank + 1) % wsize, 14, dups[i]);
        }
    MPI_Waitall(j, reqs, MPI_STATUSES_IGNORE);
    for (i = 0; i < K; ++i)
        if (parents[i] == MPI_COMM_WORLD)
            CHECK(i * 1000 + (wrank + wsize - 1) % wsize, got[i], "message on idup %d", i);
    /* a dup of a dup, completed by MPI_Test; an MPI_Ibarrier on it meanwhile */
    MPI_Comm_idup(dups[0], &dd, &r2[0]);
    MPI_Ibarrier(dups[0], &r2[1]);
    done = 0;
    while (!done)
        MPI_Testall(2, r2, &done, MPI_STATUSES_IGNORE);
    MPI_Comm_size(dd, &size);
    for (j = 0; j < size; ++j)
        world[j] = j;
    exercise(dd, world, size, "idup of an idup");
    MPI_Comm_free(&dd);
    for (i = 0; i < K; ++i)
        MPI_Comm_free(&dups[i]);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free(&half);
    free(world);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    idups(0);
#if defined(TUCANA) || defined(MPICH_VERSION)
    /* Open MPI 4.1.4 sometimes hangs in its own MPI_Comm_idup when a
     * blocking call on the parent runs while idups are pending */
    idups(1);
#endif
    disjoint();
    overlapping();
    single();
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK comm_create_group\n");
    MPI_Finalize();
    return 0;
}
