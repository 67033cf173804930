/*
 * idup_order -- communicator creations that overlap, in the orders MPI
 * allows (MPI-3.1 sec. 6.4.2: MPI_Comm_idup is a non-blocking collective;
 * other creations may run while it is pending, and different ranks may
 * make them in different orders).
 *  1. MPI_Comm_idup and a blocking creation in different orders:
 *     even ranks MPI_Comm_idup(a) then MPI_Comm_dup(b), odd ranks
 *     MPI_Comm_dup(b) then MPI_Comm_idup(a); the same with
 *     MPI_Comm_create_group(world) instead of the dup (MPICH's
 *     comm_create_group_idup), and with MPI_Comm_split.
 *  2. Overlapping idups around a ring (MPICH's comm_idup_overlap): every
 *     rank i shares a two-rank communicator with i+1 and one with i-1, and
 *     idups the first, then the second, then waits for both.
 *  3. Three idups of one parent and one of another, waited for in reverse
 *     order, the second parent's started first at odd ranks.
 * Every new communicator is checked with an MPI_Allreduce of the ranks
 * (its size and the sum; MPI_Iallreduce around the ring) and freed.
 * Prints "OK idup_order" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#define TESTNAME "idup_order"
#include "mpitest.h"

/* An MPI_Allreduce over `c` of each rank's world rank: the size and the
 * sum of the members' world ranks, which the caller knows. */
static void check_comm(MPI_Comm c, int size, int sum, const char *what)
{
    int n, got, me = wrank;
    MPI_Comm_size(c, &n);
    CHECK(size, n, "%s: size", what);
    MPI_Allreduce(&me, &got, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum, got, "%s: MPI_Allreduce of the world ranks", what);
}

static int world_sum(void) { return wsize * (wsize - 1) / 2; }

static void orders(void)
{
    MPI_Comm a, b, da, db;
    MPI_Request r;
    MPI_Group wg;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);

    if (wrank % 2 == 0) {
        MPI_Comm_idup(a, &da, &r);
        MPI_Comm_dup(b, &db);
    } else {
        MPI_Comm_dup(b, &db);
        MPI_Comm_idup(a, &da, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    check_comm(da, wsize, world_sum(), "idup / dup: the idup");
    check_comm(db, wsize, world_sum(), "idup / dup: the dup");
    MPI_Comm_free(&da);
    MPI_Comm_free(&db);

    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    if (wrank % 2 == 0) {
        MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, &db);
        MPI_Comm_idup(MPI_COMM_WORLD, &da, &r);
    } else {
        MPI_Comm_idup(MPI_COMM_WORLD, &da, &r);
        MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, &db);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    check_comm(da, wsize, world_sum(), "idup / create_group: the idup");
    check_comm(db, wsize, world_sum(), "idup / create_group: the group's");
    MPI_Comm_free(&da);
    MPI_Comm_free(&db);
    MPI_Group_free(&wg);

    if (wrank % 2 == 0) {
        MPI_Comm_idup(a, &da, &r);
        MPI_Comm_split(b, 0, -wrank, &db);
    } else {
        MPI_Comm_split(b, 0, -wrank, &db);
        MPI_Comm_idup(a, &da, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    check_comm(da, wsize, world_sum(), "idup / split: the idup");
    check_comm(db, wsize, world_sum(), "idup / split: the split");
    MPI_Comm_free(&da);
    MPI_Comm_free(&db);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

static void ring(void)
{
    MPI_Comm mine[2] = {MPI_COMM_NULL, MPI_COMM_NULL}, dups[2], tmp;
    MPI_Request r[2];
    int i, left = (wrank + wsize - 1) % wsize;
    if (wsize < 3)
        return; /* a ring of two has one pair: nothing overlaps */
    /* in round i, ranks i and i+1 get a communicator of their own */
    for (i = 0; i < wsize; i++) {
        int next = (i + 1) % wsize;
        int in = wrank == i || wrank == next;
        MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, wrank == i ? 0 : 1, &tmp);
        if (wrank == i)
            mine[0] = tmp; /* with the right neighbour */
        else if (wrank == next)
            mine[1] = tmp; /* with the left neighbour */
    }
    MPI_Comm_idup(mine[0], &dups[0], &r[0]);
    MPI_Comm_idup(mine[1], &dups[1], &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    /* both at once: blocking collectives on them, in this order at every
     * rank, would wait for each other around the ring */
    {
        int me = wrank, got[2] = {-1, -1};
        MPI_Iallreduce(&me, &got[0], 1, MPI_INT, MPI_SUM, dups[0], &r[0]);
        MPI_Iallreduce(&me, &got[1], 1, MPI_INT, MPI_SUM, dups[1], &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(wrank + (wrank + 1) % wsize, got[0], "ring: MPI_Iallreduce on the idup with the right neighbour");
        CHECK(wrank + left, got[1], "ring: MPI_Iallreduce on the idup with the left neighbour");
    }
    for (i = 0; i < 2; i++) {
        MPI_Comm_free(&dups[i]);
        MPI_Comm_free(&mine[i]);
    }
}

static void many(void)
{
    MPI_Comm p, q, d[4];
    MPI_Request r[4];
    int i;
    MPI_Comm_dup(MPI_COMM_WORLD, &p);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -wrank, &q);
    if (wrank % 2)
        MPI_Comm_idup(q, &d[3], &r[3]);
    for (i = 0; i < 3; i++)
        MPI_Comm_idup(p, &d[i], &r[i]);
    if (wrank % 2 == 0)
        MPI_Comm_idup(q, &d[3], &r[3]);
    for (i = 3; i >= 0; i--)
        MPI_Wait(&r[i], MPI_STATUS_IGNORE);
    for (i = 0; i < 4; i++) {
        check_comm(d[i], wsize, world_sum(), "several idups");
        MPI_Comm_free(&d[i]);
    }
    MPI_Comm_free(&p);
    MPI_Comm_free(&q);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    orders();
    ring();
    many();
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK " TESTNAME "\n");
    MPI_Finalize();
    return 0;
}
