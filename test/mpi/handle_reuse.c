/*
 * handle_reuse -- a freed handle's number is handed out again.
 *
 * MPI does not require it, but MPICH and Open MPI both do it, and programs
 * (and MPICH's own test suite) depend on it: a loop that creates and frees
 * an object must not run the handle numbers up without bound.
 *  1. Datatypes: MPI_Type_contiguous + commit + free, 20000 times; a name
 *     set on a freed type does not stick to the next type that gets its
 *     handle.
 *  2. User operations: MPI_Op_create + free, 20000 times.
 *  3. Communicators: MPI_Comm_dup + free, 200 times: the same handle.
 *  4. Groups: MPI_Comm_group + MPI_Group_incl + free, 20000 times.
 *  5. Windows: MPI_Win_create + free, 3 * size + 50 times.
 *  6. Info objects: MPI_Info_create + free, 20000 times.
 * Handles are compared with == (integer handles in MPICH and Tucana,
 * pointers in Open MPI). Where the handles come from a table the whole
 * process shares (datatypes, operations, windows, info objects), the ranks
 * that share a process (Tucana's subranks) may take each other's freed
 * handles, so each loop checks that it saw at most as many distinct
 * handles as there are ranks, not the same handle every time; communicators
 * and groups are each rank's own, so those loops see a single handle.
 * Prints "OK handle_reuse" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define TESTNAME "handle_reuse"
#include "mpitest.h"

/* Adds `v` to the `*n` distinct values in `seen` (at most MAX_SEEN). */
#define MAX_SEEN 64
#define NOTE(seen, n, v)                              \
    do {                                              \
        int k_, found_ = 0;                           \
        for (k_ = 0; k_ < *(n); k_++)                 \
            found_ |= (seen)[k_] == (v);              \
        if (!found_ && *(n) < MAX_SEEN)               \
            (seen)[(*(n))++] = (v);                   \
        else if (!found_)                             \
            ++*(n);                                   \
    } while (0)

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv)
{
    int i, len, same;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Init(&argc, &argv);

    {
        MPI_Datatype seen[MAX_SEEN], t;
        int n = 0;
        MPI_Type_contiguous(2, MPI_INT, &t);
        MPI_Type_commit(&t);
        MPI_Type_set_name(t, "first");
        MPI_Type_free(&t);
        for (i = 0; i < 20000; i++) {
            MPI_Type_contiguous(3, MPI_INT, &t);
            MPI_Type_commit(&t);
            NOTE(seen, &n, t);
            name[0] = 'x';
            MPI_Type_get_name(t, name, &len);
            if (len != 0)
                CHECK(0, len, "a new type that got a freed type's handle has no name (got \"%s\")", name);
            MPI_Type_free(&t);
        }
        CHECK_TRUE(n <= wsize, "20000 MPI_Type_contiguous + MPI_Type_free reuse handles (%d distinct)", n);
    }
    {
        MPI_Op seen[MAX_SEEN], op;
        int n = 0;
        for (i = 0; i < 20000; i++) {
            MPI_Op_create(sum_fn, 0, &op);
            NOTE(seen, &n, op);
            MPI_Op_free(&op);
        }
        CHECK_TRUE(n <= wsize, "20000 MPI_Op_create + MPI_Op_free reuse handles (%d distinct)", n);
    }
    {
        MPI_Comm first, c;
        MPI_Comm_dup(MPI_COMM_WORLD, &first);
        c = first;
        MPI_Comm_free(&c);
        same = 0;
        for (i = 0; i < 200; i++) {
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
            same += c == first;
            MPI_Comm_free(&c);
        }
        CHECK(200, same, "MPI_Comm_dup after MPI_Comm_free reuses the handle");
    }
    {
        MPI_Group world, first, g;
        int zero = 0;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &zero, &first);
        g = first;
        MPI_Group_free(&g);
        same = 0;
        for (i = 0; i < 20000; i++) {
            MPI_Group_incl(world, 1, &zero, &g);
            same += g == first;
            MPI_Group_free(&g);
        }
        CHECK(20000, same, "MPI_Group_incl after MPI_Group_free reuses the handle");
        MPI_Group_free(&world);
    }
    {
        MPI_Win seen[MAX_SEEN], w;
        int buf[4], n = 0;
        for (i = 0; i < 3 * wsize + 50; i++) {
            MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
            NOTE(seen, &n, w);
            MPI_Win_free(&w);
        }
        CHECK_TRUE(n <= wsize, "%d MPI_Win_create + MPI_Win_free reuse handles (%d distinct)", 3 * wsize + 50, n);
    }
    {
        MPI_Info seen[MAX_SEEN], info;
        int n = 0;
        for (i = 0; i < 20000; i++) {
            MPI_Info_create(&info);
            NOTE(seen, &n, info);
            MPI_Info_free(&info);
        }
        CHECK_TRUE(n <= wsize, "20000 MPI_Info_create + MPI_Info_free reuse handles (%d distinct)", n);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK " TESTNAME "\n");
    MPI_Finalize();
    return 0;
}
