/*
 * comm_groups -- communicators and groups (MPI-3.1 ch. 6, sec. 8.1.2).
 *
 *  1. MPI_Comm_dup of MPI_COMM_WORLD: same rank and size; MPI_Comm_compare
 *     gives MPI_IDENT for a communicator with itself and MPI_CONGRUENT for
 *     world vs. the dup and for two dups; MPI_COMM_SELF vs. world is
 *     MPI_CONGRUENT at one rank and MPI_UNEQUAL otherwise.
 *     MPI_Comm_get_attr(MPI_TAG_UB) on world: present, >= 32767;
 *     MPI_WTIME_IS_GLOBAL on world: present, 0 or 1.  On the dup these
 *     predefined attributes are only checked for the same value when the
 *     implementation reports them (MPI-3.1 attaches them to world only).
 *  2. MPI_Comm_split: colour rank%3 with key size-rank (reversed order);
 *     colour rank%2 with MPI_UNDEFINED for rank%4==3 (MPI_COMM_NULL there,
 *     equal keys keep the parent order); one colour with key rank%2 (evens
 *     first) and one with key -rank.  Sizes, ranks and member lists
 *     (MPI_Allgather of world ranks) are checked, MPI_Comm_compare gives
 *     MPI_UNEQUAL / MPI_SIMILAR / MPI_CONGRUENT as defined.
 *  3. MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (key = world rank, and
 *     MPI_UNDEFINED on every fifth rank): a valid communicator (or
 *     MPI_COMM_NULL for MPI_UNDEFINED) whose members report the same
 *     MPI_Get_processor_name, ordered by world rank, and whose sizes add up
 *     to the number of participating ranks.  No particular grouping.
 *  4. Groups: MPI_Comm_group, MPI_Group_size/rank, MPI_Group_incl (even
 *     ranks, reversed order, empty), MPI_Group_excl, MPI_Group_compare,
 *     MPI_Group_translate_ranks (MPI_UNDEFINED for non-members,
 *     MPI_PROC_NULL maps to MPI_PROC_NULL), MPI_GROUP_EMPTY, MPI_Group_free
 *     (sets the handle to MPI_GROUP_NULL).  MPI_Comm_create from the even
 *     group (MPI_COMM_NULL on odd ranks), from the reversed group (ranks
 *     reversed, MPI_SIMILAR to world) and from an empty group (MPI_COMM_NULL
 *     everywhere); MPI_Comm_group of the new communicator is MPI_IDENT to
 *     the group it was created from.
 *  5. On every derived communicator: a ring MPI_Sendrecv, MPI_Bcast from
 *     every root, MPI_Allreduce, MPI_Barrier and MPI_Allgather.
 *  6. Isolation: on world and on a dup, receives with the same source and
 *     tag (and MPI_ANY_SOURCE/MPI_ANY_TAG on world) are posted on both; the
 *     message sent first on the dup must land in the dup's receive, the one
 *     sent on world in world's.  The same for a split communicator and its
 *     dup.
 *  7. Overlap: point-to-point on world is pending while collectives run on
 *     row and column communicators (split) and on a dup, and an
 *     MPI_Ibarrier on world is outstanding.
 *  8. Recycling: 200 x (MPI_Comm_dup + MPI_Allreduce + MPI_Comm_free), 50 x
 *     (MPI_Comm_split + MPI_Comm_free), and 20 live dups freed in an
 *     interleaved order, then 100 more dups; MPI_Comm_free sets the handle
 *     to MPI_COMM_NULL; world still works afterwards.
 *
 * Works for any world size >= 1.  Prints "OK comm_groups" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "comm_groups"
#include "mpitest.h"

/* ------------------------------------------------------------- helpers */

/*
 * Exercise a communicator whose members, in rank order, are the world ranks
 * members[0..n-1] (n == its size; the caller's own world rank must be
 * members[its rank]).
 */
static void exercise(MPI_Comm comm, const int *members, int n, const char *name)
{
    int rank = -1, size = -1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    CHECK(n, size, "%s: MPI_Comm_size", name);
    CHECK_TRUE(rank >= 0 && rank < size, "%s: rank %d in range", name, rank);
    CHECK(wrank, members[rank], "%s: my world rank at my rank %d", name, rank);

    /* Allgather of world ranks gives the member list */
    int *all = xmalloc(sizeof(int) * (size_t)(size + 1));
    for (int i = 0; i <= size; i++)
        all[i] = -5;
    MPI_Allgather(&(int){wrank}, 1, MPI_INT, all, 1, MPI_INT, comm);
    for (int i = 0; i < size; i++)
        CHECK(members[i], all[i], "%s: Allgather of world ranks element %d", name, i);
    CHECK(-5, all[size], "%s: Allgather wrote past count", name);
    free(all);

    /* ring Sendrecv */
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int out[2] = {wrank, 1000 + rank}, in[2] = {-1, -1};
    MPI_Status st;
    MPI_Sendrecv(out, 2, MPI_INT, right, 11, in, 2, MPI_INT, left, 11, comm, &st);
    CHECK(members[left], in[0], "%s: Sendrecv payload from left", name);
    CHECK(1000 + left, in[1], "%s: Sendrecv payload from left (rank)", name);
    CHECK(left, st.MPI_SOURCE, "%s: Sendrecv status source", name);
    CHECK(11, st.MPI_TAG, "%s: Sendrecv status tag", name);

    /* Bcast from every root */
    for (int root = 0; root < size; root++) {
        int v[3] = {-1, -1, -1};
        if (rank == root) {
            v[0] = wrank;
            v[1] = root * 7;
            v[2] = 42;
        }
        MPI_Bcast(v, 3, MPI_INT, root, comm);
        CHECK(members[root], v[0], "%s: Bcast root %d [0]", name, root);
        CHECK(root * 7, v[1], "%s: Bcast root %d [1]", name, root);
        CHECK(42, v[2], "%s: Bcast root %d [2]", name, root);
    }

    /* Allreduce: sum and max of world ranks, sum of local ranks */
    long long mine[3] = {wrank, rank, 1}, sum[3] = {0, 0, 0};
    MPI_Allreduce(mine, sum, 3, MPI_LONG_LONG, MPI_SUM, comm);
    long long esum = 0;
    for (int i = 0; i < n; i++)
        esum += members[i];
    CHECK(esum, sum[0], "%s: Allreduce sum of world ranks", name);
    CHECK((long long)n * (n - 1) / 2, sum[1], "%s: Allreduce sum of ranks", name);
    CHECK(n, sum[2], "%s: Allreduce sum of ones", name);
    int mx = -1;
    MPI_Allreduce(&(int){wrank}, &mx, 1, MPI_INT, MPI_MAX, comm);
    int emx = -1;
    for (int i = 0; i < n; i++)
        if (members[i] > emx)
            emx = members[i];
    CHECK(emx, mx, "%s: Allreduce max of world ranks", name);

    MPI_Barrier(comm);
}

static int cmp_comm(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    MPI_Comm_compare(a, b, &r);
    return r;
}

static const char *cmp_name(int r)
{
    if (r == MPI_IDENT)
        return "MPI_IDENT";
    if (r == MPI_CONGRUENT)
        return "MPI_CONGRUENT";
    if (r == MPI_SIMILAR)
        return "MPI_SIMILAR";
    if (r == MPI_UNEQUAL)
        return "MPI_UNEQUAL";
    return "?";
}

#define CHECK_CMP(expected, a, b, what)                                   \
    do {                                                                  \
        int r_ = cmp_comm(a, b);                                          \
        if (r_ != (expected)) {                                           \
            char c_[256];                                                 \
            snprintf(c_, sizeof c_, "MPI_Comm_compare(%s): want %s, got %s", \
                     what, cmp_name(expected), cmp_name(r_));             \
            fail(c_, (long long)(expected), (long long)r_, __LINE__);     \
        }                                                                 \
    } while (0)

/* ---------------------------------------------------------------- part 1 */

static void check_attrs(MPI_Comm comm, const char *name, int require, int *tag_ub, int *wtg)
{
    void *v = NULL;
    int flag = 0;
    MPI_Comm_get_attr(comm, MPI_TAG_UB, &v, &flag);
    if (require)
        CHECK(1, flag, "%s: MPI_TAG_UB attribute present", name);
    if (flag) {
        int t = *(int *)v;
        CHECK_TRUE(t >= 32767, "%s: MPI_TAG_UB %d >= 32767", name, t);
        if (*tag_ub < 0)
            *tag_ub = t;
        else
            CHECK(*tag_ub, t, "%s: MPI_TAG_UB same as on world", name);
    }
    flag = 0;
    MPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &v, &flag);
    if (require)
        CHECK(1, flag, "%s: MPI_WTIME_IS_GLOBAL attribute present", name);
    if (flag) {
        int g = *(int *)v;
        CHECK_TRUE(g == 0 || g == 1, "%s: MPI_WTIME_IS_GLOBAL %d is 0 or 1", name, g);
        if (*wtg < 0)
            *wtg = g;
        else
            CHECK(*wtg, g, "%s: MPI_WTIME_IS_GLOBAL same as on world", name);
    }
}

static void part_dup(void)
{
    MPI_Comm d1, d2;
    int r = -1, s = -1;
    int tag_ub = -1, wtg = -1;

    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_dup(MPI_COMM_WORLD, &d2);
    CHECK_TRUE(d1 != MPI_COMM_NULL && d1 != MPI_COMM_WORLD, "dup is a new handle");
    MPI_Comm_rank(d1, &r);
    MPI_Comm_size(d1, &s);
    CHECK(wrank, r, "dup rank");
    CHECK(wsize, s, "dup size");

    CHECK_CMP(MPI_IDENT, MPI_COMM_WORLD, MPI_COMM_WORLD, "world, world");
    CHECK_CMP(MPI_IDENT, d1, d1, "dup, same dup");
    CHECK_CMP(MPI_CONGRUENT, MPI_COMM_WORLD, d1, "world, dup");
    CHECK_CMP(MPI_CONGRUENT, d1, MPI_COMM_WORLD, "dup, world");
    CHECK_CMP(MPI_CONGRUENT, d1, d2, "dup, other dup");
    CHECK_CMP(wsize == 1 ? MPI_CONGRUENT : MPI_UNEQUAL, MPI_COMM_SELF, MPI_COMM_WORLD,
              "self, world");

    check_attrs(MPI_COMM_WORLD, "world", 1, &tag_ub, &wtg);
    check_attrs(d1, "dup of world", 0, &tag_ub, &wtg);

    int members_n = wsize;
    int *members = xmalloc(sizeof(int) * (size_t)wsize);
    for (int i = 0; i < wsize; i++)
        members[i] = i;
    exercise(MPI_COMM_WORLD, members, members_n, "world");
    exercise(d1, members, members_n, "dup of world");

    /* a dup of a dup */
    MPI_Comm d3;
    MPI_Comm_dup(d1, &d3);
    CHECK_CMP(MPI_CONGRUENT, d1, d3, "dup, dup of dup");
    exercise(d3, members, members_n, "dup of dup");
    MPI_Comm_free(&d3);
    CHECK_TRUE(d3 == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");

    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    CHECK_TRUE(d1 == MPI_COMM_NULL && d2 == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
    free(members);
}

/* ---------------------------------------------------------------- part 2 */

static void part_split(void)
{
    int *members = xmalloc(sizeof(int) * (size_t)wsize);
    int n;
    MPI_Comm c;
    char name[64];

    /* colour rank % 3, key size - rank: reversed order within each colour */
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 3, wsize - wrank, &c);
    CHECK_TRUE(c != MPI_COMM_NULL, "split mod 3: not MPI_COMM_NULL");
    n = 0;
    for (int r = wsize - 1; r >= 0; r--)
        if (r % 3 == wrank % 3)
            members[n++] = r;
    snprintf(name, sizeof name, "split colour %d of rank%%3 (reversed)", wrank % 3);
    exercise(c, members, n, name);
    if (wsize == 1)
        CHECK_CMP(MPI_CONGRUENT, c, MPI_COMM_WORLD, "split mod 3, world");
    else
        CHECK_CMP(MPI_UNEQUAL, c, MPI_COMM_WORLD, "split mod 3, world");
    MPI_Comm_free(&c);

    /* colour rank % 2, MPI_UNDEFINED for rank % 4 == 3, all keys equal */
    int colour = (wrank % 4 == 3) ? MPI_UNDEFINED : wrank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, colour, 0, &c);
    if (colour == MPI_UNDEFINED) {
        CHECK_TRUE(c == MPI_COMM_NULL, "split with MPI_UNDEFINED gives MPI_COMM_NULL");
    } else {
        CHECK_TRUE(c != MPI_COMM_NULL, "split rank%%2: not MPI_COMM_NULL");
        n = 0;
        for (int r = 0; r < wsize; r++)
            if (r % 4 != 3 && r % 2 == colour)
                members[n++] = r;
        snprintf(name, sizeof name, "split colour %d of rank%%2 (undefined at 3 mod 4)", colour);
        exercise(c, members, n, name);
        MPI_Comm_free(&c);
    }

    /* one colour, key rank % 2: evens first, then odds, each ascending */
    MPI_Comm_split(MPI_COMM_WORLD, 7, wrank % 2, &c);
    n = 0;
    for (int r = 0; r < wsize; r += 2)
        members[n++] = r;
    for (int r = 1; r < wsize; r += 2)
        members[n++] = r;
    exercise(c, members, n, "split one colour key rank%2");
    CHECK_CMP(wsize <= 2 ? MPI_CONGRUENT : MPI_SIMILAR, c, MPI_COMM_WORLD,
              "split evens-first, world");
    {
        MPI_Comm cd;
        MPI_Comm_dup(c, &cd);
        CHECK_CMP(MPI_CONGRUENT, c, cd, "split, its dup");
        exercise(cd, members, n, "dup of split one colour key rank%2");
        MPI_Comm_free(&cd);
    }
    MPI_Comm_free(&c);

    /* one colour, key -rank: fully reversed */
    MPI_Comm_split(MPI_COMM_WORLD, 0, -wrank, &c);
    for (int i = 0; i < wsize; i++)
        members[i] = wsize - 1 - i;
    exercise(c, members, wsize, "split one colour key -rank");
    CHECK_CMP(wsize == 1 ? MPI_CONGRUENT : MPI_SIMILAR, c, MPI_COMM_WORLD,
              "split reversed, world");

    /* split of a split: colour by (new rank) / 2 */
    {
        int cr = -1;
        MPI_Comm cc;
        MPI_Comm_rank(c, &cr);
        MPI_Comm_split(c, cr / 2, cr, &cc);
        n = 0;
        for (int i = 0; i < wsize; i++)
            if (i / 2 == cr / 2)
                members[n++] = wsize - 1 - i;
        exercise(cc, members, n, "split of reversed split");
        MPI_Comm_free(&cc);
    }
    MPI_Comm_free(&c);
    free(members);
}

/* ---------------------------------------------------------------- part 3 */

static void part_split_type(void)
{
    int undefined = (wrank % 5 == 4);
    MPI_Comm c;
    MPI_Comm_split_type(MPI_COMM_WORLD, undefined ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                        wrank, MPI_INFO_NULL, &c);
    int contrib = 0;
    if (undefined) {
        CHECK_TRUE(c == MPI_COMM_NULL, "split_type MPI_UNDEFINED gives MPI_COMM_NULL");
    } else {
        CHECK_TRUE(c != MPI_COMM_NULL, "split_type SHARED: not MPI_COMM_NULL");
        int r = -1, s = -1;
        MPI_Comm_rank(c, &r);
        MPI_Comm_size(c, &s);
        CHECK_TRUE(s >= 1 && s <= wsize, "split_type SHARED: size %d in 1..world size", s);
        CHECK_TRUE(r >= 0 && r < s, "split_type SHARED: rank %d in range", r);

        /* members are ordered by key = world rank, and none is undefined */
        int *wr = xmalloc(sizeof(int) * (size_t)s);
        MPI_Allgather(&(int){wrank}, 1, MPI_INT, wr, 1, MPI_INT, c);
        CHECK(wrank, wr[r], "split_type SHARED: own world rank at own rank");
        for (int i = 0; i < s; i++) {
            CHECK_TRUE(wr[i] % 5 != 4, "split_type SHARED: member %d (world %d) was undefined",
                       i, wr[i]);
            if (i > 0)
                CHECK_TRUE(wr[i - 1] < wr[i], "split_type SHARED: ordered by key at %d", i);
        }

        /* every member reports the same processor name */
        char pn[MPI_MAX_PROCESSOR_NAME];
        int len = 0;
        memset(pn, 0, sizeof pn);
        MPI_Get_processor_name(pn, &len);
        char *all = xmalloc((size_t)s * MPI_MAX_PROCESSOR_NAME);
        MPI_Allgather(pn, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                      MPI_CHAR, c);
        for (int i = 0; i < s; i++)
            CHECK(0, strncmp(pn, all + (size_t)i * MPI_MAX_PROCESSOR_NAME, MPI_MAX_PROCESSOR_NAME),
                  "split_type SHARED: processor name of member %d differs from mine", i);
        free(all);

        exercise(c, wr, s, "split_type SHARED");
        free(wr);
        if (r == 0)
            contrib = s;
        MPI_Barrier(c);
        MPI_Comm_free(&c);
    }

    /* the groups partition the participating ranks */
    int total = 0, expect = 0;
    MPI_Allreduce(&contrib, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < wsize; i++)
        if (i % 5 != 4)
            expect++;
    CHECK(expect, total, "split_type SHARED: sizes add up to participating ranks");
}

/* ---------------------------------------------------------------- part 4 */

static void part_groups(void)
{
    MPI_Group world_g, even_g, odd_g, rev_g, empty_g, g;
    int nev = (wsize + 1) / 2, nodd = wsize / 2;
    int *ranks = xmalloc(sizeof(int) * (size_t)(wsize + 1));
    int *out = xmalloc(sizeof(int) * (size_t)(wsize + 1));
    int s = -1, r = -1, res = -1;

    MPI_Comm_group(MPI_COMM_WORLD, &world_g);
    MPI_Group_size(world_g, &s);
    MPI_Group_rank(world_g, &r);
    CHECK(wsize, s, "world group size");
    CHECK(wrank, r, "world group rank");

    for (int i = 0; i < nev; i++)
        ranks[i] = 2 * i;
    MPI_Group_incl(world_g, nev, ranks, &even_g);
    MPI_Group_size(even_g, &s);
    MPI_Group_rank(even_g, &r);
    CHECK(nev, s, "even group size");
    CHECK(wrank % 2 == 0 ? wrank / 2 : MPI_UNDEFINED, r, "even group rank");

    MPI_Group_excl(world_g, nev, ranks, &odd_g);
    MPI_Group_size(odd_g, &s);
    MPI_Group_rank(odd_g, &r);
    CHECK(nodd, s, "odd group (excl) size");
    CHECK(wrank % 2 == 1 ? wrank / 2 : MPI_UNDEFINED, r, "odd group rank");

    /* translate: odd group -> world, world -> even group (+ MPI_PROC_NULL) */
    for (int i = 0; i < nodd; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(odd_g, nodd, ranks, world_g, out);
    for (int i = 0; i < nodd; i++)
        CHECK(2 * i + 1, out[i], "translate odd group rank %d to world", i);
    /* (from a non-empty group: Open MPI 4.1 answers MPI_UNDEFINED for
     * every rank when the first group is empty) */
    ranks[0] = MPI_PROC_NULL;
    ranks[1] = 0;
    MPI_Group_translate_ranks(world_g, 2, ranks, even_g, out);
    CHECK(MPI_PROC_NULL, out[0], "translate MPI_PROC_NULL");
    CHECK(0, out[1], "translate world rank 0 to even group");
    for (int i = 0; i < wsize; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(world_g, wsize, ranks, even_g, out);
    for (int i = 0; i < wsize; i++)
        CHECK(i % 2 == 0 ? i / 2 : MPI_UNDEFINED, out[i], "translate world rank %d to even group", i);

    /* compare */
    MPI_Group_compare(world_g, world_g, &res);
    CHECK(MPI_IDENT, res, "Group_compare world, world");
    MPI_Group_compare(even_g, odd_g, &res);
    CHECK(MPI_UNEQUAL, res, "Group_compare even, odd");
    for (int i = 0; i < wsize; i++)
        ranks[i] = wsize - 1 - i;
    MPI_Group_incl(world_g, wsize, ranks, &rev_g);
    MPI_Group_compare(world_g, rev_g, &res);
    CHECK(wsize == 1 ? MPI_IDENT : MPI_SIMILAR, res, "Group_compare world, reversed");
    MPI_Group_rank(rev_g, &r);
    CHECK(wsize - 1 - wrank, r, "reversed group rank");

    /* empty groups */
    MPI_Group_size(MPI_GROUP_EMPTY, &s);
    MPI_Group_rank(MPI_GROUP_EMPTY, &r);
    CHECK(0, s, "MPI_GROUP_EMPTY size");
    CHECK(MPI_UNDEFINED, r, "MPI_GROUP_EMPTY rank");
    MPI_Group_incl(world_g, 0, ranks, &empty_g);
    MPI_Group_size(empty_g, &s);
    CHECK(0, s, "Group_incl of nothing: size");
    MPI_Group_compare(empty_g, MPI_GROUP_EMPTY, &res);
    CHECK(MPI_IDENT, res, "Group_compare empty, MPI_GROUP_EMPTY");
    MPI_Group_excl(world_g, 0, ranks, &g);
    MPI_Group_compare(g, world_g, &res);
    CHECK(MPI_IDENT, res, "Group_compare excl of nothing, world");
    MPI_Group_free(&g);
    CHECK_TRUE(g == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");

    /* MPI_Comm_create from the even group */
    MPI_Comm c;
    MPI_Comm_create(MPI_COMM_WORLD, even_g, &c);
    if (wrank % 2 == 1) {
        CHECK_TRUE(c == MPI_COMM_NULL, "Comm_create(even) on odd rank gives MPI_COMM_NULL");
    } else {
        CHECK_TRUE(c != MPI_COMM_NULL, "Comm_create(even) on even rank");
        for (int i = 0; i < nev; i++)
            ranks[i] = 2 * i;
        exercise(c, ranks, nev, "Comm_create(even ranks)");
        MPI_Comm_group(c, &g);
        MPI_Group_compare(g, even_g, &res);
        CHECK(MPI_IDENT, res, "group of Comm_create(even) vs even group");
        MPI_Group_free(&g);
        /* the odd ones run a collective on world meanwhile is not allowed;
         * run a split of the new communicator instead */
        MPI_Comm cs;
        int cr;
        MPI_Comm_rank(c, &cr);
        MPI_Comm_split(c, cr % 2, 0, &cs);
        int n = 0;
        for (int i = 0; i < nev; i++)
            if (i % 2 == cr % 2)
                ranks[n++] = 2 * i;
        exercise(cs, ranks, n, "split of Comm_create(even ranks)");
        MPI_Comm_free(&cs);
        MPI_Comm_free(&c);
    }

    /* MPI_Comm_create from the reversed group */
    MPI_Comm_create(MPI_COMM_WORLD, rev_g, &c);
    CHECK_TRUE(c != MPI_COMM_NULL, "Comm_create(reversed)");
    for (int i = 0; i < wsize; i++)
        ranks[i] = wsize - 1 - i;
    exercise(c, ranks, wsize, "Comm_create(reversed world group)");
    CHECK_CMP(wsize == 1 ? MPI_CONGRUENT : MPI_SIMILAR, c, MPI_COMM_WORLD, "Comm_create(reversed), world");
    MPI_Comm_free(&c);

    /* MPI_Comm_create from the empty group */
    MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c);
    CHECK_TRUE(c == MPI_COMM_NULL, "Comm_create(MPI_GROUP_EMPTY) gives MPI_COMM_NULL");
    MPI_Comm_create(MPI_COMM_WORLD, empty_g, &c);
    CHECK_TRUE(c == MPI_COMM_NULL, "Comm_create(empty group) gives MPI_COMM_NULL");

    /* MPI_Comm_create from the odd group on a dup of world */
    MPI_Comm dw;
    MPI_Comm_dup(MPI_COMM_WORLD, &dw);
    MPI_Comm_create(dw, odd_g, &c);
    if (wrank % 2 == 0) {
        CHECK_TRUE(c == MPI_COMM_NULL, "Comm_create(odd) on even rank gives MPI_COMM_NULL");
    } else {
        for (int i = 0; i < nodd; i++)
            ranks[i] = 2 * i + 1;
        exercise(c, ranks, nodd, "Comm_create(odd ranks) on a dup");
        MPI_Comm_free(&c);
    }
    MPI_Comm_free(&dw);

    MPI_Group_free(&empty_g);
    MPI_Group_free(&rev_g);
    MPI_Group_free(&odd_g);
    MPI_Group_free(&even_g);
    MPI_Group_free(&world_g);
    CHECK_TRUE(world_g == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");
    free(ranks);
    free(out);
}

/* ---------------------------------------------------------------- part 6 */

/* Receives with the same source and tag on parent and child; the message
 * sent first on the child must not be taken by the parent's receive. */
static void isolation(MPI_Comm parent, MPI_Comm child, int wildcard, const char *name)
{
    int rank, size;
    MPI_Comm_rank(parent, &rank);
    MPI_Comm_size(parent, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int pin[2] = {-1, -1}, cin[2] = {-1, -1};
    int pout[2] = {1, wrank}, cout[2] = {2, wrank};
    MPI_Request rq[2];
    MPI_Status st[2];

    if (wildcard)
        MPI_Irecv(pin, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, parent, &rq[0]);
    else
        MPI_Irecv(pin, 2, MPI_INT, left, 7, parent, &rq[0]);
    MPI_Irecv(cin, 2, MPI_INT, left, 7, child, &rq[1]);
    MPI_Send(cout, 2, MPI_INT, right, 7, child);
    MPI_Send(pout, 2, MPI_INT, right, 7, parent);
    MPI_Waitall(2, rq, st);
    CHECK(1, pin[0], "%s: parent's receive got the parent's message (1) not the child's (2)", name);
    CHECK(2, cin[0], "%s: child's receive got the child's message", name);
    CHECK(pin[1], cin[1], "%s: both messages from the same sender", name);
    CHECK(left, st[0].MPI_SOURCE, "%s: parent status source", name);
    CHECK(7, st[0].MPI_TAG, "%s: parent status tag", name);
    CHECK(left, st[1].MPI_SOURCE, "%s: child status source", name);

    /* the other way round: parent's message first */
    MPI_Irecv(cin, 2, MPI_INT, MPI_ANY_SOURCE, 7, child, &rq[1]);
    MPI_Irecv(pin, 2, MPI_INT, left, 7, parent, &rq[0]);
    MPI_Send(pout, 2, MPI_INT, right, 7, parent);
    MPI_Send(cout, 2, MPI_INT, right, 7, child);
    MPI_Waitall(2, rq, st);
    CHECK(1, pin[0], "%s (reversed): parent's receive", name);
    CHECK(2, cin[0], "%s (reversed): child's receive", name);

    /* probe on the parent must not see the child's message */
    MPI_Barrier(parent);
    MPI_Isend(cout, 2, MPI_INT, right, 8, child, &rq[0]);
    MPI_Barrier(parent);
    int flag = 1;
    MPI_Status pst;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, parent, &flag, &pst);
    CHECK(0, flag, "%s: Iprobe on parent sees a child's message", name);
    MPI_Recv(cin, 2, MPI_INT, left, 8, child, MPI_STATUS_IGNORE);
    CHECK(2, cin[0], "%s: child's message after probe", name);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Barrier(parent);
}

static void part_isolation(void)
{
    MPI_Comm d, s, sd;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    isolation(MPI_COMM_WORLD, d, 0, "world vs dup");
    isolation(MPI_COMM_WORLD, d, 1, "world (wildcards) vs dup");
    isolation(d, MPI_COMM_WORLD, 0, "dup vs world");

    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &s);
    MPI_Comm_dup(s, &sd);
    isolation(s, sd, 0, "split vs its dup");
    isolation(sd, s, 1, "dup of split (wildcards) vs split");
    MPI_Comm_free(&sd);
    MPI_Comm_free(&s);
    MPI_Comm_free(&d);
}

/* ---------------------------------------------------------------- part 7 */

static void part_overlap(void)
{
    int q = 1;
    while ((q + 1) * (q + 1) <= wsize)
        q++;
    /* rows of q (the last one may be short), columns by rank % q */
    MPI_Comm row, col, d;
    MPI_Comm_split(MPI_COMM_WORLD, wrank / q, wrank, &row);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % q, wrank, &col);
    MPI_Comm_dup(MPI_COMM_WORLD, &d);

    int right = (wrank + 1) % wsize, left = (wrank - 1 + wsize) % wsize;
    for (int iter = 0; iter < 5; iter++) {
        int pin = -1, pout = 100 * wrank + iter;
        MPI_Request rq[3];
        MPI_Irecv(&pin, 1, MPI_INT, left, iter, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(&pout, 1, MPI_INT, right, iter, MPI_COMM_WORLD, &rq[1]);

        int rsum = -1, csum = -1, dmax = -1, b = -1;
        MPI_Allreduce(&(int){wrank}, &rsum, 1, MPI_INT, MPI_SUM, row);
        MPI_Ibarrier(MPI_COMM_WORLD, &rq[2]);
        if (iter % 2 == 0) {
            MPI_Allreduce(&(int){wrank}, &csum, 1, MPI_INT, MPI_SUM, col);
            MPI_Allreduce(&(int){wrank}, &dmax, 1, MPI_INT, MPI_MAX, d);
        } else {
            MPI_Allreduce(&(int){wrank}, &dmax, 1, MPI_INT, MPI_MAX, d);
            MPI_Allreduce(&(int){wrank}, &csum, 1, MPI_INT, MPI_SUM, col);
        }
        if (wrank % q == 0)
            b = 1000 + wrank / q + iter;
        MPI_Bcast(&b, 1, MPI_INT, 0, row);
        MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);

        int ersum = 0, ecsum = 0;
        for (int r = 0; r < wsize; r++) {
            if (r / q == wrank / q)
                ersum += r;
            if (r % q == wrank % q)
                ecsum += r;
        }
        CHECK(ersum, rsum, "overlap iter %d: row Allreduce", iter);
        CHECK(ecsum, csum, "overlap iter %d: column Allreduce", iter);
        CHECK(wsize - 1, dmax, "overlap iter %d: dup Allreduce max", iter);
        CHECK(1000 + wrank / q + iter, b, "overlap iter %d: row Bcast", iter);
        CHECK(100 * left + iter, pin, "overlap iter %d: world p2p payload", iter);
    }
    MPI_Comm_free(&d);
    MPI_Comm_free(&col);
    MPI_Comm_free(&row);
}

/* ---------------------------------------------------------------- part 8 */

static void part_recycle(void)
{
    for (int i = 0; i < 200; i++) {
        MPI_Comm d;
        int v = wrank + i, s = -1;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, d);
        CHECK(wsize * (wsize - 1) / 2 + wsize * i, s, "dup/free loop %d: Allreduce", i);
        MPI_Comm_free(&d);
        CHECK_TRUE(d == MPI_COMM_NULL, "dup/free loop %d: handle after free", i);
    }
    for (int i = 0; i < 50; i++) {
        MPI_Comm c;
        int v = 1, s = -1;
        MPI_Comm_split(MPI_COMM_WORLD, wrank % (1 + i % 4), -wrank, &c);
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, c);
        int e = 0;
        for (int r = 0; r < wsize; r++)
            if (r % (1 + i % 4) == wrank % (1 + i % 4))
                e++;
        CHECK(e, s, "split/free loop %d: Allreduce", i);
        MPI_Comm_free(&c);
    }
    /* 20 live at once, freed interleaved, each used in between */
    enum { LIVE = 20 };
    MPI_Comm live[LIVE];
    for (int i = 0; i < LIVE; i++)
        MPI_Comm_dup(i == 0 ? MPI_COMM_WORLD : live[i - 1], &live[i]);
    for (int k = 0; k < LIVE; k++) {
        int i = (k * 7) % LIVE; /* 7 is coprime with 20: a permutation */
        int v = i, s = -1;
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, live[i]);
        CHECK(i * wsize, s, "live dup %d: Allreduce", i);
        MPI_Comm_free(&live[i]);
    }
    for (int i = 0; i < 100; i++) {
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Barrier(d);
        MPI_Comm_free(&d);
    }
    int v = 1, s = -1;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(wsize, s, "world Allreduce after the recycling loops");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    part_dup();
    part_split();
    part_split_type();
    part_groups();
    part_isolation();
    part_overlap();
    part_recycle();

    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
