/*
 * nocomm_test -- checks libtucana_nocomm.so.  Run it on 2 or more ranks with
 * the library preloaded (nocomm_test.sh does): every point-to-point call must
 * return at once with the documented status, and collectives must still work.
 * Without the library the receives would block (ranks receive messages that
 * nobody sends), so a passing run also proves the preload took effect.
 *
 * Prints "nocomm_test: OK" on rank 0, or "nocomm_test: FAIL ..." and aborts.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank;

static void check(int cond, const char *what, long got, long expected)
{
    if (!cond) {
        printf("nocomm_test: FAIL rank %d: %s: got %ld, expected %ld\n", rank,
               what, got, expected);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

#define EQ(what, got, expected)                                                \
    check((long)(got) == (long)(expected), what, (long)(got), (long)(expected))

static void check_status(const MPI_Status *st, MPI_Datatype type, int source,
                         int tag, int count)
{
    int n = -1;
    EQ("status MPI_SOURCE", st->MPI_SOURCE, source);
    EQ("status MPI_TAG", st->MPI_TAG, tag);
    MPI_Get_count(st, type, &n);
    EQ("MPI_Get_count", n, count);
}

int main(int argc, char **argv)
{
    int size;
    double buf[100], big[64 * 1024];
    MPI_Status st;
    MPI_Request req[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank + 1) % size;

    for (int i = 0; i < 100; i++)
        buf[i] = rank;

    /* Blocking: a receive nobody matches, a large synchronous send nobody
     * receives: both must return at once. */
    MPI_Recv(buf, 10, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &st);
    check_status(&st, MPI_DOUBLE, peer, 7, 10);
    EQ("received buffer keeps its contents", buf[0], rank);
    MPI_Recv(buf, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    check_status(&st, MPI_INT, 0, 0, 3);
    MPI_Recv(buf, 3, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    check_status(&st, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, 0);
    MPI_Recv(buf, 3, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(big, 64 * 1024, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
    MPI_Send(big, 64 * 1024, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
    MPI_Rsend(buf, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
    MPI_Bsend(buf, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD); /* no buffer attached */
    MPI_Sendrecv(buf, 5, MPI_DOUBLE, peer, 3, big, 9, MPI_DOUBLE, peer, 4,
                 MPI_COMM_WORLD, &st);
    check_status(&st, MPI_DOUBLE, peer, 4, 9);
    MPI_Sendrecv_replace(buf, 6, MPI_DOUBLE, peer, 3, MPI_ANY_SOURCE, 8,
                         MPI_COMM_WORLD, &st);
    check_status(&st, MPI_DOUBLE, 0, 8, 6);

    /* A derived datatype: the count is in units of that type. */
    MPI_Datatype vec;
    MPI_Type_vector(4, 2, 5, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Recv(buf, 3, vec, peer, 2, MPI_COMM_WORLD, &st);
    check_status(&st, vec, peer, 2, 3);

    /* Nonblocking: complete at once, statuses as for MPI_Recv. */
    MPI_Irecv(buf, 12, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(buf, 13, MPI_DOUBLE, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(big, 64 * 1024, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &req[2]);
    MPI_Issend(buf, 1, MPI_DOUBLE, peer, 12, MPI_COMM_WORLD, &req[3]);
    int flag = 0;
    MPI_Test(&req[0], &flag, &st);
    EQ("MPI_Test flag", flag, 1);
    EQ("request freed by MPI_Test", req[0] == MPI_REQUEST_NULL, 1);
    check_status(&st, MPI_DOUBLE, peer, 11, 12);
    int index = -1;
    MPI_Waitany(3, &req[1], &index, &st);
    EQ("MPI_Waitany index", index, 0);
    check_status(&st, MPI_DOUBLE, 0, 12, 13);
    MPI_Status sts[4];
    MPI_Waitall(4, req, sts);
    for (int i = 0; i < 4; i++)
        EQ("request freed by MPI_Waitall", req[i] == MPI_REQUEST_NULL, 1);

    /* Many at once, Waitsome-style loop (would spin forever on null requests). */
    MPI_Request many[64];
    MPI_Status many_st[64]; /* not MPI_STATUSES_IGNORE: GCC warns on MPICH's */
    int done = 0, idx[64];
    for (int i = 0; i < 64; i++)
        MPI_Irecv(buf, 1, MPI_DOUBLE, peer, i, MPI_COMM_WORLD, &many[i]);
    while (done < 64) {
        int out = 0;
        MPI_Waitsome(64, many, &out, idx, many_st);
        check(out != MPI_UNDEFINED && out > 0, "MPI_Waitsome outcount", out, 1);
        done += out;
    }

    /* Request_free on a just-posted request, and Cancel. */
    MPI_Irecv(buf, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Request_free(&req[0]);
    MPI_Irecv(buf, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Cancel(&req[0]);
    MPI_Wait(&req[0], &st);

    /* Persistent requests: start them many times. */
    MPI_Request p[2];
    MPI_Recv_init(buf, 10, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &p[0]);
    MPI_Send_init(big, 64 * 1024, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &p[1]);
    for (int it = 0; it < 100; it++) {
        MPI_Startall(2, p);
        MPI_Waitall(2, p, sts);
        MPI_Start(&p[0]);
        MPI_Wait(&p[0], MPI_STATUS_IGNORE);
    }
    EQ("persistent request stays allocated", p[0] != MPI_REQUEST_NULL, 1);
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);

    /* Probes: nothing ever arrives. */
    flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    EQ("MPI_Iprobe flag", flag, 0);

    /* Collectives still move data. */
    int r = rank, sum = -1;
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EQ("MPI_Allreduce", sum, size * (size - 1) / 2);
    int root_value = rank == 0 ? 4242 : 0;
    MPI_Bcast(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    EQ("MPI_Bcast", root_value, 4242);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Type_free(&vec);
    if (rank == 0) {
        printf("nocomm_test: OK\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
