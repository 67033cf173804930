/*
 * isendrecv -- MPI 4.0's MPI_Isendrecv and MPI_Isendrecv_replace
 * (MPI-4.0 sec. 3.10).
 *
 *  1. Around a ring: send right, receive from the left (and the other way
 *     round), many at once, completed by MPI_Waitall in reverse order; the
 *     status is the receive's (source, tag, count).
 *  2. Non-overtaking: an MPI_Isendrecv's send and a later MPI_Isend to the
 *     same rank with the same tag arrive in call order; likewise its
 *     receive and a later MPI_Irecv.
 *  3. MPI_Isendrecv_replace with a strided datatype (every other int of a
 *     buffer), the type freed before the wait: after completion the ints
 *     in between are untouched and the strided ones hold the left
 *     neighbour's.
 *  4. MPI_PROC_NULL as source and destination: completes, status source
 *     MPI_PROC_NULL, count 0.
 *  5. MPI_ANY_SOURCE / MPI_ANY_TAG receive: the status names the sender.
 *  6. MPI_Test polling until done.
 * Prints "OK isendrecv" on rank 0.
 *
 * No reference run: MPICH 4.0.2 (Debian 12's) leaves MPI_Isendrecv's
 * status empty (MPI gives the receive's), and its MPI_Isendrecv_replace
 * with a strided datatype delivers the wrong elements and fails an
 * assertion on the type's reference count. Open MPI 4.1 has no MPI 4.0
 * calls.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "isendrecv"
#include "mpitest.h"

#define MANY 16
#define LEN 5

int main(int argc, char **argv)
{
    int n, me, left, right, i, j, cnt;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    left = (me + n - 1) % n;
    right = (me + 1) % n;

    /* 1 */
    {
        int out[MANY][LEN], in[MANY][LEN];
        MPI_Request req[MANY];
        MPI_Status st[MANY];
        for (i = 0; i < MANY; ++i) {
            for (j = 0; j < LEN; ++j) {
                out[i][j] = 1000 * me + 10 * i + j;
                in[i][j] = -1;
            }
            /* even i: to the right; odd i: to the left */
            MPI_Isendrecv(out[i], LEN - i % 2, MPI_INT, i % 2 ? left : right, i, in[i], LEN, MPI_INT,
                          i % 2 ? right : left, i, MPI_COMM_WORLD, &req[i]);
        }
        for (i = 0; i < MANY / 2; ++i) { /* reverse order halves */
            MPI_Request t = req[i];
            req[i] = req[MANY - 1 - i];
            req[MANY - 1 - i] = t;
        }
        MPI_Waitall(MANY, req, st);
        for (i = 0; i < MANY; ++i) {
            int k = MANY - 1 - i; /* the call behind st[i] */
            int from = k % 2 ? right : left;
            CHECK_TRUE(req[i] == MPI_REQUEST_NULL, "request %d freed", k);
            CHECK(from, st[i].MPI_SOURCE, "status source of call %d", k);
            CHECK(k, st[i].MPI_TAG, "status tag of call %d", k);
            MPI_Get_count(&st[i], MPI_INT, &cnt);
            CHECK(LEN - k % 2, cnt, "status count of call %d", k);
            for (j = 0; j < LEN - k % 2; ++j)
                CHECK(1000 * from + 10 * k + j, in[k][j], "call %d element %d", k, j);
        }
    }

    /* 2: non-overtaking against later sends and receives */
    {
        int a = 100 + me, b = 200 + me, ra = -1, rb = -1;
        MPI_Request r0, s2, r2;
        MPI_Isendrecv(&a, 1, MPI_INT, right, 5, &ra, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &r0);
        MPI_Isend(&b, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &s2);
        MPI_Irecv(&rb, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &r2);
        MPI_Wait(&r2, MPI_STATUS_IGNORE);
        MPI_Wait(&s2, MPI_STATUS_IGNORE);
        MPI_Wait(&r0, MPI_STATUS_IGNORE);
        CHECK(100 + left, ra, "the MPI_Isendrecv's receive gets the first message");
        CHECK(200 + left, rb, "the later MPI_Irecv gets the second message");
    }

    /* 3: replace with a strided type */
    {
        int buf[2 * LEN];
        MPI_Datatype every_other;
        MPI_Request r;
        MPI_Status st;
        MPI_Type_vector(LEN, 1, 2, MPI_INT, &every_other);
        MPI_Type_commit(&every_other);
        for (j = 0; j < 2 * LEN; ++j)
            buf[j] = j % 2 ? -5 : 50 * me + j;
        MPI_Isendrecv_replace(buf, 1, every_other, right, 9, left, 9, MPI_COMM_WORLD, &r);
        MPI_Type_free(&every_other); /* the request keeps what it needs */
        MPI_Wait(&r, &st);
        for (j = 0; j < 2 * LEN; ++j)
            CHECK(j % 2 ? -5 : 50 * left + j, buf[j], "MPI_Isendrecv_replace element %d", j);
        CHECK(left, st.MPI_SOURCE, "MPI_Isendrecv_replace status source");
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(LEN, cnt, "MPI_Isendrecv_replace count in ints");
    }

    /* 4: MPI_PROC_NULL */
    {
        int x = 7, y = 8;
        MPI_Request r;
        MPI_Status st;
        MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        CHECK(MPI_PROC_NULL, st.MPI_SOURCE, "MPI_PROC_NULL source");
        CHECK(MPI_ANY_TAG, st.MPI_TAG, "MPI_PROC_NULL tag");
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(0, cnt, "MPI_PROC_NULL count");
        CHECK(8, y, "MPI_PROC_NULL leaves the buffer");
        MPI_Isendrecv_replace(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        CHECK(7, x, "MPI_PROC_NULL replace leaves the buffer");
    }

    /* 5 and 6: wildcards, completed by MPI_Test polling */
    {
        double d = me + 0.5, e = -1;
        int flag = 0;
        MPI_Request r;
        MPI_Status st;
        MPI_Isendrecv(&d, 1, MPI_DOUBLE, right, 40 + me, &e, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                      MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, &st);
        CHECK_TRUE(r == MPI_REQUEST_NULL, "MPI_Test freed the request");
        CHECK(left, st.MPI_SOURCE, "wildcard source");
        CHECK(40 + left, st.MPI_TAG, "wildcard tag");
        CHECK(2 * left + 1, (int)(2 * e), "wildcard data");
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
