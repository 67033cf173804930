/*
 * p2p_more -- the less common point-to-point modes and status calls
 * (MPI-3.1 sec. 3.4, 3.6, 3.8.4, 4.1.11, 4.1.12).
 *
 *  1. Ready mode: MPI_Rsend and MPI_Irsend (1 and 100000 ints) and a
 *     persistent MPI_Rsend_init, always after the matching receive is known
 *     to be posted: the receiver posts MPI_Irecv, then either an MPI_Barrier
 *     or a zero-byte message to the sender says so.
 *  2. Buffered mode: MPI_Buffer_attach with a size from MPI_Pack_size +
 *     MPI_BSEND_OVERHEAD per message; MPI_Bsend and MPI_Ibsend of 1, 1000
 *     and 50000 ints and MPI_Bsend_init of 1 and 200 ints (started twice)
 *     complete before any receive is posted (an MPI_Barrier separates the sends from
 *     the receives, so a blocking buffered send would deadlock); the sender
 *     overwrites its send buffer right away; receives in reverse tag order.
 *     MPI_Buffer_detach returns the attached address and size, and blocks
 *     until the buffered messages are transmitted: after it returns the
 *     sender scribbles over the detached buffer, and what the receiver gets
 *     must still be intact.  Attach/detach repeated with a new buffer.
 *  3. MPI_Cancel of an MPI_Irecv that nothing matches (specific source and
 *     MPI_ANY_SOURCE): MPI_Wait (or an MPI_Test loop) completes it,
 *     MPI_Test_cancelled is true; a later message with the same tag goes to
 *     the next receive.
 *  4. MPI_Cancel of an MPI_Isend (1 and 100000 ints): either outcome is
 *     legal.  The sender tells the receiver with a second message; if the
 *     send was cancelled the receiver's posted receive must stay unmatched
 *     (its own cancel succeeds), otherwise it must get the data.
 *  5. MPI_Status_set_elements with MPI_INT and a contiguous(3) type, then
 *     MPI_Get_count (MPI_UNDEFINED for a partial element) and
 *     MPI_Get_elements; MPI_Status_set_cancelled(1/0) and
 *     MPI_Test_cancelled; a real receive of 7 ints into contiguous(3)
 *     elements (count MPI_UNDEFINED, 7 basic elements).
 *  6. MPI_BOTTOM: struct types built from MPI_Get_address absolute
 *     addresses of separate variables, on the send and on the receive side
 *     (different variables and layout, same type signature), with MPI_Send/
 *     MPI_Recv, MPI_Isend/MPI_Irecv and MPI_Sendrecv.
 *  7. A persistent receive cancelled once, then started again: it receives
 *     and its status is not cancelled.
 *
 * Works for any world size >= 1 (rank 0 talks to itself at size 1).
 * Prints "OK p2p_more" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "p2p_more"
#include "mpitest.h"

#define POISON (-777)

#define left ((wrank - 1 + wsize) % wsize)
#define right ((wrank + 1) % wsize)

static int pv(int src, int tag, int i) { return src * 1000003 + tag * 10007 + i; }

static void fillpv(int *b, int n, int src, int tag)
{
    for (int i = 0; i < n; i++)
        b[i] = pv(src, tag, i);
}

static void check_pv(const int *b, int n, int src, int tag, const char *what)
{
    for (int i = 0; i < n; i++)
        if (b[i] != pv(src, tag, i))
            CHECK(pv(src, tag, i), b[i], "%s (n %d, tag %d) element %d", what, n, tag, i);
}

static void check_status(const MPI_Status *st, int src, int tag, int n, const char *what)
{
    int cnt = -1;
    CHECK(src, st->MPI_SOURCE, "%s: status source", what);
    CHECK(tag, st->MPI_TAG, "%s: status tag", what);
    MPI_Get_count(st, MPI_INT, &cnt);
    CHECK(n, cnt, "%s: MPI_Get_count", what);
}

/* ---------------------------------------------------------------- part 1 */

static void part_ready(void)
{
    static const int sizes[] = {1, 100000};
    int *sb = xmalloc(sizeof(int) * 100000), *rb = xmalloc(sizeof(int) * 100000);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        MPI_Request rq, nq, sq;
        MPI_Status st;

        /* MPI_Rsend after a barrier */
        fillpv(sb, n, wrank, 1);
        memset(rb, 0, sizeof(int) * (size_t)n);
        MPI_Irecv(rb, n, MPI_INT, left, 1, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Rsend(sb, n, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        check_status(&st, left, 1, n, "Rsend after barrier");
        check_pv(rb, n, left, 1, "Rsend after barrier payload");

        /* MPI_Irsend after a zero-byte "ready" message */
        fillpv(sb, n, wrank, 2);
        memset(rb, 0, sizeof(int) * (size_t)n);
        MPI_Irecv(rb, n, MPI_INT, left, 2, MPI_COMM_WORLD, &rq);
        MPI_Isend(NULL, 0, MPI_INT, left, 3, MPI_COMM_WORLD, &nq);
        MPI_Recv(NULL, 0, MPI_INT, right, 3, MPI_COMM_WORLD, &st);
        check_status(&st, right, 3, 0, "zero-byte ready notice");
        MPI_Irsend(sb, n, MPI_INT, right, 2, MPI_COMM_WORLD, &sq);
        MPI_Wait(&sq, MPI_STATUS_IGNORE);
        MPI_Wait(&rq, &st);
        MPI_Wait(&nq, MPI_STATUS_IGNORE);
        check_status(&st, left, 2, n, "Irsend after notice");
        check_pv(rb, n, left, 2, "Irsend after notice payload");

        /* persistent ready send, started twice */
        MPI_Request pq;
        MPI_Rsend_init(sb, n, MPI_INT, right, 4, MPI_COMM_WORLD, &pq);
        for (int it = 0; it < 2; it++) {
            fillpv(sb, n, wrank, 4 + it);
            memset(rb, 0, sizeof(int) * (size_t)n);
            MPI_Irecv(rb, n, MPI_INT, left, 4, MPI_COMM_WORLD, &rq);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Start(&pq);
            MPI_Wait(&pq, MPI_STATUS_IGNORE);
            MPI_Wait(&rq, &st);
            check_status(&st, left, 4, n, "Rsend_init");
            check_pv(rb, n, left, 4 + it, "Rsend_init payload");
        }
        MPI_Request_free(&pq);
    }
    free(sb);
    free(rb);
}

/* ---------------------------------------------------------------- part 2 */

#define NB 3
static const int bsizes[NB] = {1, 1000, 50000};

static int bsend_space(int copies)
{
    int total = 0;
    for (int k = 0; k < NB; k++) {
        int ps = 0;
        MPI_Pack_size(bsizes[k], MPI_INT, MPI_COMM_WORLD, &ps);
        total += ps + MPI_BSEND_OVERHEAD;
    }
    return total * copies;
}

static void detach_check(void *attached, int size, const char *what)
{
    void *ptr = NULL;
    int sz = -1;
    MPI_Buffer_detach(&ptr, &sz);
    CHECK_TRUE(ptr == attached, "%s: Buffer_detach returned the attached address", what);
    CHECK(size, sz, "%s: Buffer_detach returned the attached size", what);
}

/* receive nmsg messages of sizes[k] ints from left with tags
 * base..base+nmsg-1, last first */
static void recv_nb(const int *sizes, int base, int nmsg, int val_tag_offset, const char *what)
{
    int *rb = xmalloc(sizeof(int) * 50000);
    for (int k = nmsg - 1; k >= 0; k--) {
        MPI_Status st;
        MPI_Recv(rb, sizes[k], MPI_INT, left, base + k, MPI_COMM_WORLD, &st);
        check_status(&st, left, base + k, sizes[k], what);
        check_pv(rb, sizes[k], left, base + k + val_tag_offset, what);
    }
    free(rb);
}

static void part_buffered(void)
{
    int *sb = xmalloc(sizeof(int) * 50000);

    for (int round = 0; round < 2; round++) {
        /* a new buffer each round; room for every message of the round
         * (four batches), since when the space of a transmitted message is
         * reclaimed is up to the implementation */
        int bsize = bsend_space(4) + 64 * round;
        char *buf = xmalloc((size_t)bsize);
        MPI_Buffer_attach(buf, bsize);

        /* MPI_Bsend: all complete before any receive is posted */
        for (int k = 0; k < NB; k++) {
            fillpv(sb, bsizes[k], wrank, 20 + k);
            MPI_Bsend(sb, bsizes[k], MPI_INT, right, 20 + k, MPI_COMM_WORLD);
            memset(sb, 0xff, sizeof(int) * (size_t)bsizes[k]); /* reuse at once */
        }
        MPI_Barrier(MPI_COMM_WORLD);
        recv_nb(bsizes, 20, NB, 0, "Bsend");

        /* MPI_Ibsend: the requests complete locally */
        MPI_Request rq[NB];
        int *sbs[NB];
        for (int k = 0; k < NB; k++) {
            sbs[k] = xmalloc(sizeof(int) * (size_t)bsizes[k]);
            fillpv(sbs[k], bsizes[k], wrank, 30 + k);
            MPI_Ibsend(sbs[k], bsizes[k], MPI_INT, right, 30 + k, MPI_COMM_WORLD, &rq[k]);
        }
        MPI_Waitall(NB, rq, MPI_STATUSES_IGNORE);
        for (int k = 0; k < NB; k++)
            memset(sbs[k], 0xff, sizeof(int) * (size_t)bsizes[k]);
        MPI_Barrier(MPI_COMM_WORLD);
        recv_nb(bsizes, 30, NB, 0, "Ibsend");

        /* MPI_Bsend_init, started twice, the buffer refilled in between.
         * Small messages only: Open MPI 4.1's ob1 resends stale data when a
         * persistent buffered send above the eager limit (4 KiB to another
         * process, less to itself) is restarted (open-mpi/ompi PR #12797,
         * "pack data from application buffer in successive MPI_Start"). */
        static const int psizes[2] = {1, 200};
        MPI_Request pq[2];
        for (int k = 0; k < 2; k++)
            MPI_Bsend_init(sbs[k], psizes[k], MPI_INT, right, 40 + k, MPI_COMM_WORLD, &pq[k]);
        for (int it = 0; it < 2; it++) {
            for (int k = 0; k < 2; k++)
                fillpv(sbs[k], psizes[k], wrank, 40 + k + 10 * it);
            MPI_Startall(2, pq);
            MPI_Waitall(2, pq, MPI_STATUSES_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
            recv_nb(psizes, 40, 2, 10 * it, "Bsend_init");
        }
        for (int k = 0; k < 2; k++)
            MPI_Request_free(&pq[k]);
        for (int k = 0; k < NB; k++)
            free(sbs[k]);

        detach_check(buf, bsize, "after receives");
        free(buf);
    }

    /* Detach waits for the transmission: pairs (2j, 2j+1); the sender
     * detaches and scribbles over the buffer before the receiver posts its
     * receives.  A rank without a partner sends to itself (receives
     * pre-posted, since a send to self needs them). */
    for (int role = 0; role < 2; role++) {
        int partner = wrank ^ 1;
        if (partner >= wsize)
            partner = wrank;
        int sender = (wrank % 2 == role) || partner == wrank;
        int receiver = (wrank % 2 != role) || partner == wrank;
        int bsize = bsend_space(1);
        char *buf = xmalloc((size_t)bsize);
        int *rbs[NB];
        MPI_Request rq[NB];
        for (int k = 0; k < NB; k++) {
            rbs[k] = xmalloc(sizeof(int) * (size_t)bsizes[k]);
            rq[k] = MPI_REQUEST_NULL;
        }
        if (partner == wrank)
            for (int k = 0; k < NB; k++)
                MPI_Irecv(rbs[k], bsizes[k], MPI_INT, wrank, 50 + k, MPI_COMM_WORLD, &rq[k]);
        if (sender) {
            MPI_Buffer_attach(buf, bsize);
            for (int k = 0; k < NB; k++) {
                fillpv(sb, bsizes[k], wrank, 50 + k);
                MPI_Bsend(sb, bsizes[k], MPI_INT, partner, 50 + k, MPI_COMM_WORLD);
                memset(sb, 0xff, sizeof(int) * (size_t)bsizes[k]);
            }
            detach_check(buf, bsize, "detach with messages in flight");
            memset(buf, 0xa5, (size_t)bsize);
        }
        if (receiver) {
            for (int k = 0; k < NB; k++) {
                MPI_Status st;
                if (partner == wrank)
                    MPI_Wait(&rq[k], &st);
                else
                    MPI_Recv(rbs[k], bsizes[k], MPI_INT, partner, 50 + k, MPI_COMM_WORLD, &st);
                check_status(&st, partner, 50 + k, bsizes[k], "Bsend then detach");
                check_pv(rbs[k], bsizes[k], partner, 50 + k, "Bsend then detach payload");
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < NB; k++)
            free(rbs[k]);
        free(buf);
    }
    free(sb);
}

/* ---------------------------------------------------------------- part 3 */

static void part_cancel_recv(void)
{
    int b[4] = {POISON, POISON, POISON, POISON};
    MPI_Request rq;
    MPI_Status st;
    int flag = -1;

    /* specific source, MPI_Wait */
    MPI_Irecv(b, 4, MPI_INT, left, 999, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    CHECK_TRUE(rq == MPI_REQUEST_NULL, "cancelled Irecv: request freed by MPI_Wait");
    MPI_Test_cancelled(&st, &flag);
    CHECK(1, flag, "Test_cancelled on a cancelled unmatched Irecv");
    CHECK(POISON, b[0], "cancelled Irecv wrote its buffer");

    /* MPI_ANY_SOURCE, MPI_Test loop */
    MPI_Irecv(b, 4, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    int done = 0;
    while (!done)
        MPI_Test(&rq, &done, &st);
    flag = -1;
    MPI_Test_cancelled(&st, &flag);
    CHECK(1, flag, "Test_cancelled on a cancelled MPI_ANY_SOURCE Irecv");

    /* the cancelled receives did not consume the next message */
    MPI_Barrier(MPI_COMM_WORLD);
    int out[4] = {wrank, 1, 2, 3};
    MPI_Request sq;
    MPI_Isend(out, 4, MPI_INT, right, 999, MPI_COMM_WORLD, &sq);
    MPI_Recv(b, 4, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &st);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    CHECK(left, b[0], "message after cancelled receives");
    flag = -1;
    MPI_Test_cancelled(&st, &flag);
    CHECK(0, flag, "Test_cancelled on a normal receive");
}

/* ---------------------------------------------------------------- part 4 */

static void part_cancel_send(void)
{
    static const int sizes[] = {1, 100000};
    int *sb = xmalloc(sizeof(int) * 100000), *rb = xmalloc(sizeof(int) * 100000);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        MPI_Request sq, rq, fq;
        MPI_Status st;
        int flag = -1, peer_flag = -1;

        fillpv(sb, n, wrank, 60);
        for (int i = 0; i < n; i++)
            rb[i] = POISON;
        MPI_Isend(sb, n, MPI_INT, right, 60, MPI_COMM_WORLD, &sq);
        MPI_Cancel(&sq);
        /* everyone has asked to cancel before any receive is posted */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Irecv(rb, n, MPI_INT, left, 60, MPI_COMM_WORLD, &rq);
        MPI_Wait(&sq, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK_TRUE(flag == 0 || flag == 1, "Test_cancelled flag %d is boolean", flag);
        MPI_Isend(&flag, 1, MPI_INT, right, 61, MPI_COMM_WORLD, &fq);
        MPI_Recv(&peer_flag, 1, MPI_INT, left, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (peer_flag) {
            /* the peer's send was cancelled: nothing can match our receive */
            MPI_Cancel(&rq);
            MPI_Wait(&rq, &st);
            int rflag = -1;
            MPI_Test_cancelled(&st, &rflag);
            CHECK(1, rflag, "receive for a cancelled send (n %d) must stay unmatched", n);
            CHECK(POISON, rb[0], "receive for a cancelled send (n %d) got data", n);
        } else {
            MPI_Wait(&rq, &st);
            check_status(&st, left, 60, n, "send whose cancel failed");
            check_pv(rb, n, left, 60, "send whose cancel failed payload");
        }
        MPI_Wait(&fq, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(sb);
    free(rb);
}

/* ---------------------------------------------------------------- part 5 */

static void part_status(void)
{
    MPI_Status st;
    MPI_Datatype c3;
    int cnt = -1, el = -1, flag = -1;

    MPI_Type_contiguous(3, MPI_INT, &c3);
    MPI_Type_commit(&c3);

    memset(&st, 0, sizeof st);
    MPI_Status_set_elements(&st, MPI_INT, 5);
    MPI_Get_count(&st, MPI_INT, &cnt);
    MPI_Get_elements(&st, MPI_INT, &el);
    CHECK(5, cnt, "Status_set_elements(MPI_INT, 5): Get_count");
    CHECK(5, el, "Status_set_elements(MPI_INT, 5): Get_elements");

    /* MPICH 4.0.2 takes the count of MPI_Status_set_elements as whole
     * datatypes for a derived type (Get_elements then gives 3 times it);
     * MPI 3.1 section 13.3 says it is the count MPI_Get_elements returns. */
    IF_NOT_MPICH_DEVIATION {
        MPI_Status_set_elements(&st, c3, 7);
        MPI_Get_count(&st, c3, &cnt);
        MPI_Get_elements(&st, c3, &el);
        CHECK(MPI_UNDEFINED, cnt, "Status_set_elements(contig3, 7): Get_count");
        CHECK(7, el, "Status_set_elements(contig3, 7): Get_elements");

        MPI_Status_set_elements(&st, c3, 6);
        MPI_Get_count(&st, c3, &cnt);
        MPI_Get_elements(&st, c3, &el);
        CHECK(2, cnt, "Status_set_elements(contig3, 6): Get_count");
        CHECK(6, el, "Status_set_elements(contig3, 6): Get_elements");
    }

    MPI_Status_set_elements(&st, MPI_INT, 0);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(0, cnt, "Status_set_elements(MPI_INT, 0): Get_count");

    MPI_Status_set_cancelled(&st, 1);
    MPI_Test_cancelled(&st, &flag);
    CHECK(1, flag, "Status_set_cancelled(1)");
    MPI_Status_set_cancelled(&st, 0);
    MPI_Test_cancelled(&st, &flag);
    CHECK(0, flag, "Status_set_cancelled(0)");

    /* a real partial receive: 7 ints into up to 3 contig3 elements */
    int out[7], in[9];
    for (int i = 0; i < 7; i++)
        out[i] = pv(wrank, 70, i);
    for (int i = 0; i < 9; i++)
        in[i] = POISON;
    MPI_Request sq;
    MPI_Isend(out, 7, MPI_INT, right, 70, MPI_COMM_WORLD, &sq);
    MPI_Recv(in, 3, c3, left, 70, MPI_COMM_WORLD, &st);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    MPI_Get_count(&st, c3, &cnt);
    MPI_Get_elements(&st, c3, &el);
    CHECK(MPI_UNDEFINED, cnt, "7 ints received as contig3: Get_count");
    CHECK(7, el, "7 ints received as contig3: Get_elements");
    check_pv(in, 7, left, 70, "7 ints received as contig3");
    CHECK(POISON, in[7], "partial receive wrote past the data");
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(7, cnt, "7 ints received as contig3: Get_count(MPI_INT)");
    MPI_Type_free(&c3);
}

/* ---------------------------------------------------------------- part 6 */

static MPI_Datatype abs_struct(int *i1, double *d3, short *s2)
{
    int bl[3] = {1, 3, 2};
    MPI_Aint disp[3];
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, t;
    MPI_Get_address(i1, &disp[0]);
    MPI_Get_address(d3, &disp[1]);
    MPI_Get_address(s2, &disp[2]);
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_commit(&t);
    return t;
}

static void part_bottom(void)
{
    /* separate variables; the receive side uses a struct with the fields
     * in another order */
    int si;
    double sd[3];
    short ss[2];
    struct {
        short s[2];
        char pad[5];
        double d[3];
        int i;
    } r;
    MPI_Datatype st = abs_struct(&si, sd, ss);
    MPI_Datatype rt = abs_struct(&r.i, r.d, r.s);
    MPI_Status status;

    for (int mode = 0; mode < 3; mode++) {
        si = wrank * 10 + mode;
        for (int k = 0; k < 3; k++)
            sd[k] = wrank + 0.5 * k + mode;
        ss[0] = (short)(wrank + 100);
        ss[1] = (short)(-wrank - mode);
        r.i = POISON;
        r.d[0] = r.d[1] = r.d[2] = -1.0;
        r.s[0] = r.s[1] = -1;

        if (mode == 0) {
            MPI_Request sq;
            MPI_Isend(MPI_BOTTOM, 1, st, right, 80, MPI_COMM_WORLD, &sq);
            MPI_Recv(MPI_BOTTOM, 1, rt, left, 80, MPI_COMM_WORLD, &status);
            MPI_Wait(&sq, MPI_STATUS_IGNORE);
        } else if (mode == 1) {
            MPI_Request q[2];
            MPI_Irecv(MPI_BOTTOM, 1, rt, left, 81, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(MPI_BOTTOM, 1, st, right, 81, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        } else {
            MPI_Sendrecv(MPI_BOTTOM, 1, st, right, 82, MPI_BOTTOM, 1, rt, left, 82, MPI_COMM_WORLD,
                         &status);
        }
        CHECK(left * 10 + mode, r.i, "MPI_BOTTOM mode %d: int", mode);
        for (int k = 0; k < 3; k++)
            CHECK((long long)(2 * (left + 0.5 * k + mode)), (long long)(2 * r.d[k]),
                  "MPI_BOTTOM mode %d: 2 x double %d", mode, k);
        CHECK(left + 100, r.s[0], "MPI_BOTTOM mode %d: short 0", mode);
        CHECK(-left - mode, r.s[1], "MPI_BOTTOM mode %d: short 1", mode);
        CHECK(wrank * 10 + mode, si, "MPI_BOTTOM mode %d: send int modified", mode);
    }
    MPI_Type_free(&st);
    MPI_Type_free(&rt);
}

/* A persistent receive that was cancelled once and started again receives
 * normally, and its status no longer says cancelled. */
static void part_cancel_persistent(void)
{
    int buf = -1, flag = -1;
    MPI_Request pr;
    MPI_Status st;
    MPI_Recv_init(&buf, 1, MPI_INT, left, 77, MPI_COMM_WORLD, &pr);
    MPI_Start(&pr);
    MPI_Cancel(&pr);
    MPI_Wait(&pr, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(1, flag, "first start of a persistent receive: cancelled");
    MPI_Barrier(MPI_COMM_WORLD); /* nobody sends before every cancel is done */
    MPI_Start(&pr);
    int v = 1000 + wrank;
    MPI_Send(&v, 1, MPI_INT, right, 77, MPI_COMM_WORLD);
    MPI_Wait(&pr, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(0, flag, "second start of a persistent receive: not cancelled");
    CHECK(1000 + left, buf, "second start of a persistent receive: payload");
    CHECK(left, st.MPI_SOURCE, "second start of a persistent receive: source");
    MPI_Request_free(&pr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    part_ready();
    part_buffered();
    part_cancel_recv();
    part_cancel_send();
    part_cancel_persistent();
    part_status();
    part_bottom();

    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
