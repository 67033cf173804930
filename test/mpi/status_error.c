/*
 * status_error -- the MPI_ERROR field of a status (MPI-3.1 sec. 3.2.5):
 * "message-passing calls do not modify the value of the error code field
 * of status variables. This field may be updated only by the functions in
 * Section 3.7.5 which return multiple statuses."
 *
 * Every rank receives from its left neighbour on a ring (itself with one
 * rank) by each single-completion call, into a status whose MPI_ERROR holds
 * a marker, and checks that the marker is still there and that source, tag
 * and count are right: MPI_Recv, MPI_Sendrecv, MPI_Sendrecv_replace,
 * MPI_Probe, MPI_Iprobe, MPI_Wait, MPI_Test, MPI_Waitany, MPI_Testany,
 * MPI_Request_get_status, MPI_Mprobe + MPI_Mrecv, MPI_Improbe + MPI_Imrecv +
 * MPI_Wait, and receives and probes from MPI_PROC_NULL (source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0).
 * (MPICH 4.0.2 sets MPI_ERROR in MPI_Probe, MPI_Iprobe,
 * MPI_Sendrecv_replace, and MPI_Mprobe and MPI_Improbe of a message from
 * the rank itself: those checks are left out under MPICH.)
 * A multiple-completion call that fails: with MPI_ERRORS_RETURN, an
 * MPI_Waitall over a receive that is truncated and one that is not returns
 * MPI_ERR_IN_STATUS, with MPI_ERR_TRUNCATE in the truncated one's MPI_ERROR
 * and MPI_SUCCESS in the other's.
 * Prints "OK status_error" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#define TESTNAME "status_error"
#include "mpitest.h"

#define MARK 12345

static void expect_fields(const MPI_Status *st, int source, int tag, int count, const char *call)
{
    int n = -1;
    CHECK(source, st->MPI_SOURCE, "%s: status.MPI_SOURCE", call);
    CHECK(tag, st->MPI_TAG, "%s: status.MPI_TAG", call);
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(count, n, "%s: count", call);
}

static void expect(const MPI_Status *st, int source, int tag, int count, const char *call)
{
    CHECK(MARK, st->MPI_ERROR, "%s leaves status.MPI_ERROR alone", call);
    expect_fields(st, source, tag, count, call);
}

/* The same, for the calls whose MPI_ERROR MPICH 4.0.2 sets to MPI_SUCCESS
 * (MPI_Probe, MPI_Iprobe, MPI_Sendrecv_replace; MPI_Mprobe and MPI_Improbe
 * of a message a rank sent itself): checked elsewhere. */
static void expect_mpich(const MPI_Status *st, int source, int tag, int count, const char *call)
{
    IF_NOT_MPICH_DEVIATION CHECK(MARK, st->MPI_ERROR, "%s leaves status.MPI_ERROR alone", call);
    expect_fields(st, source, tag, count, call);
}

static void mark(MPI_Status *st) { st->MPI_ERROR = MARK; }

/* No writable globals: under a build without privatization (the TSan
 * runs) the subranks of a process would share them. */

/* Sends two ints tagged `tag` to the right neighbour (non-blocking, so a
 * ring of any size cannot block); the request is waited for by done(). */
#define send_right(t) send_right_(t, out, &sent, right)
static void send_right_(int tag, int *out, MPI_Request *sent, int right)
{
    out[0] = wrank;
    out[1] = tag;
    MPI_Isend(out, 2, MPI_INT, right, tag, MPI_COMM_WORLD, sent);
}
#define done() MPI_Wait(&sent, MPI_STATUS_IGNORE)

#define check_in(in, tag, call) check_in_(in, tag, call, left)
static void check_in_(const int *in, int tag, const char *call, int left)
{
    CHECK(left, in[0], "%s: payload from the left", call);
    CHECK(tag, in[1], "%s: payload tag", call);
}

int main(int argc, char **argv)
{
    MPI_Status st, sts[2];
    MPI_Request r, rs[2], sent;
    int left, right, out[2];
    MPI_Message msg;
    int in[2], buf[2], flag, index, e, cls, tag = 0;
    MPI_Init(&argc, &argv);
    left = (wrank + wsize - 1) % wsize;
    right = (wrank + 1) % wsize;

    send_right(++tag);
    mark(&st);
    MPI_Recv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &st);
    expect(&st, left, tag, 2, "MPI_Recv");
    check_in(in, tag, "MPI_Recv");
    done();

    ++tag;
    out[0] = wrank;
    out[1] = tag;
    mark(&st);
    MPI_Sendrecv(out, 2, MPI_INT, right, tag, in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &st);
    expect(&st, left, tag, 2, "MPI_Sendrecv");
    check_in(in, tag, "MPI_Sendrecv");

    ++tag;
    buf[0] = wrank;
    buf[1] = tag;
    mark(&st);
    MPI_Sendrecv_replace(buf, 2, MPI_INT, right, tag, left, tag, MPI_COMM_WORLD, &st);
    expect_mpich(&st, left, tag, 2, "MPI_Sendrecv_replace");
    check_in(buf, tag, "MPI_Sendrecv_replace");

    send_right(++tag);
    mark(&st);
    MPI_Probe(left, tag, MPI_COMM_WORLD, &st);
    expect_mpich(&st, left, tag, 2, "MPI_Probe");
    flag = 0;
    while (!flag) {
        mark(&st);
        MPI_Iprobe(left, tag, MPI_COMM_WORLD, &flag, &st);
        IF_NOT_MPICH_DEVIATION CHECK(MARK, st.MPI_ERROR, "MPI_Iprobe leaves status.MPI_ERROR alone (flag %d)", flag);
    }
    expect_mpich(&st, left, tag, 2, "MPI_Iprobe");
    MPI_Recv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    done();

    send_right(++tag);
    MPI_Irecv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &r);
    mark(&st);
    MPI_Wait(&r, &st);
    expect(&st, left, tag, 2, "MPI_Wait");
    check_in(in, tag, "MPI_Wait");
    done();

    send_right(++tag);
    MPI_Irecv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &r);
    flag = 0;
    while (!flag) {
        mark(&st);
        MPI_Test(&r, &flag, &st);
    }
    expect(&st, left, tag, 2, "MPI_Test");
    done();

    send_right(++tag);
    MPI_Irecv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &rs[0]);
    rs[1] = MPI_REQUEST_NULL;
    mark(&st);
    MPI_Waitany(2, rs, &index, &st);
    CHECK(0, index, "MPI_Waitany's index");
    expect(&st, left, tag, 2, "MPI_Waitany");
    done();

    send_right(++tag);
    MPI_Irecv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &rs[1]);
    rs[0] = MPI_REQUEST_NULL;
    flag = 0;
    while (!flag) {
        mark(&st);
        MPI_Testany(2, rs, &index, &flag, &st);
    }
    CHECK(1, index, "MPI_Testany's index");
    expect(&st, left, tag, 2, "MPI_Testany");
    done();

    send_right(++tag);
    MPI_Irecv(in, 2, MPI_INT, left, tag, MPI_COMM_WORLD, &r);
    flag = 0;
    while (!flag) {
        mark(&st);
        MPI_Request_get_status(r, &flag, &st);
    }
    expect(&st, left, tag, 2, "MPI_Request_get_status");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    done();

    send_right(++tag);
    mark(&st);
    MPI_Mprobe(left, tag, MPI_COMM_WORLD, &msg, &st);
    expect_mpich(&st, left, tag, 2, "MPI_Mprobe");
    mark(&st);
    MPI_Mrecv(in, 2, MPI_INT, &msg, &st);
    expect(&st, left, tag, 2, "MPI_Mrecv");
    check_in(in, tag, "MPI_Mrecv");
    done();

    send_right(++tag);
    flag = 0;
    while (!flag) {
        mark(&st);
        MPI_Improbe(left, tag, MPI_COMM_WORLD, &flag, &msg, &st);
        IF_NOT_MPICH_DEVIATION CHECK(MARK, st.MPI_ERROR, "MPI_Improbe leaves status.MPI_ERROR alone (flag %d)", flag);
    }
    expect_mpich(&st, left, tag, 2, "MPI_Improbe");
    MPI_Imrecv(in, 2, MPI_INT, &msg, &r);
    mark(&st);
    MPI_Wait(&r, &st);
    expect(&st, left, tag, 2, "MPI_Wait on MPI_Imrecv's request");
    check_in(in, tag, "MPI_Imrecv");
    done();

    /* MPI_PROC_NULL */
    mark(&st);
    MPI_Recv(in, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    expect(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Recv from MPI_PROC_NULL");
    mark(&st);
    MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    expect_mpich(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Probe of MPI_PROC_NULL");
    mark(&st);
    MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st);
    expect_mpich(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Iprobe of MPI_PROC_NULL");
    mark(&st);
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
    expect(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Mprobe of MPI_PROC_NULL");
    mark(&st);
    MPI_Mrecv(in, 2, MPI_INT, &msg, &st);
    expect(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Mrecv of MPI_MESSAGE_NO_PROC");
    MPI_Irecv(in, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    mark(&st);
    MPI_Wait(&r, &st);
    CHECK(MARK, st.MPI_ERROR, "MPI_Wait on a receive from MPI_PROC_NULL leaves status.MPI_ERROR alone");
    /* MPICH 4.0.2 leaves MPI_SOURCE/MPI_TAG at 0 here (as in p2p_proc_null) */
    IF_NOT_MPICH_DEVIATION expect(&st, MPI_PROC_NULL, MPI_ANY_TAG, 0, "MPI_Wait on a receive from MPI_PROC_NULL");

    /* MPI_Waitall with one truncated receive: MPI_ERR_IN_STATUS */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ++tag;
    out[0] = wrank;
    out[1] = tag;
    MPI_Isend(out, 2, MPI_INT, right, tag, MPI_COMM_WORLD, &sent);
    /* the one that succeeds first: after an error MPI lets an
     * implementation leave the rest MPI_ERR_PENDING (MPICH does) */
    MPI_Irecv(buf, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rs[0]);
    MPI_Irecv(in, 1, MPI_INT, left, tag, MPI_COMM_WORLD, &rs[1]); /* room for one of two */
    mark(&sts[0]);
    mark(&sts[1]);
    e = MPI_Waitall(2, rs, sts);
    MPI_Error_class(e, &cls);
    CHECK(MPI_ERR_IN_STATUS, cls, "MPI_Waitall with a truncated receive");
    CHECK(MPI_SUCCESS, sts[0].MPI_ERROR, "MPI_Waitall: the other receive's MPI_ERROR");
    MPI_Error_class(sts[1].MPI_ERROR, &cls);
    CHECK(MPI_ERR_TRUNCATE, cls, "MPI_Waitall: the truncated receive's MPI_ERROR");
    done();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK " TESTNAME "\n");
    MPI_Finalize();
    return 0;
}
