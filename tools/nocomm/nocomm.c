/*
 * libtucana_nocomm.so -- a PMPI interposition library that suppresses the
 * payload transfers of point-to-point communication, so that the "NoComm"
 * time of any dynamically linked MPI program can be measured:
 *
 *     mpirun -np 4 -x LD_PRELOAD=/path/libtucana_nocomm.so ./app
 *
 * NoComm is the denominator of Tucana's hidden %:
 *     hidden % = 100 * (T_original - T_variant) / (T_original - T_nocomm)
 *
 * What it does (see README.md next to this file):
 *  - blocking sends (MPI_Send, Ssend, Rsend, Bsend) return at once;
 *  - MPI_Recv returns at once with a status whose MPI_SOURCE and MPI_TAG are
 *    the requested ones (MPI_ANY_SOURCE / MPI_ANY_TAG -> 0) and whose count
 *    is the requested count; MPI_Sendrecv and MPI_Sendrecv_replace likewise;
 *  - nonblocking sends and receives (MPI_Isend, Issend, Irsend, Ibsend,
 *    Irecv) return a request that is already complete: a generalized request
 *    whose status is the one MPI_Recv would give (so MPI_Wait, Waitall,
 *    Waitany, Waitsome, Test*, Request_free and Cancel behave as for any
 *    completed request).  TUCANA_NOCOMM_REQUESTS=null returns MPI_REQUEST_NULL
 *    instead (cheaper, but Waitany/Waitsome then report MPI_UNDEFINED and the
 *    statuses are empty);
 *  - persistent requests (MPI_Send_init, Ssend_init, Rsend_init, Bsend_init,
 *    Recv_init) become real persistent requests to/from MPI_PROC_NULL: MPI_Start
 *    and MPI_Startall work unchanged and every start completes at once (a
 *    receive's status is then the MPI_PROC_NULL one: count 0);
 *  - MPI_Iprobe and MPI_Improbe report no message (flag = 0); MPI_Probe and
 *    MPI_Mprobe are not supported (no message ever arrives, they would hang):
 *    they print a message and abort;
 *  - MPI_PROC_NULL peers keep their usual meaning;
 *  - everything else -- collectives, barriers, one-sided, MPI-IO, communicator
 *    management -- goes to the real MPI unchanged, so the program keeps its
 *    synchronization.
 * Received buffers keep their old contents: results are WRONG BY DESIGN.
 * NoComm measures time only.
 *
 * Environment:
 *   TUCANA_NOCOMM_QUIET=1        no banner on stderr at MPI_Init
 *   TUCANA_NOCOMM_VERBOSE=1      each rank prints how many calls it suppressed
 *   TUCANA_NOCOMM_REQUESTS=null  nonblocking calls return MPI_REQUEST_NULL
 *
 * Builds with Open MPI (MPI 3.1) and MPICH (MPI 4.0: also the large-count
 * "_c" variants and MPI_Isendrecv[_replace]).  C and C++ callers only: Open
 * MPI's and MPICH's Fortran bindings call PMPI_* directly.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(MPI_VERSION) || MPI_VERSION < 3
#error "libtucana_nocomm needs an MPI 3 (or newer) mpi.h"
#endif

#define NOCOMM "tucana-nocomm"

/* ------------------------------------------------------------------ state */

static int use_null_requests = -1; /* -1: not read from the environment yet */
static unsigned long n_sends, n_recvs, n_inits;

static void tally(unsigned long *counter)
{
    __atomic_fetch_add(counter, 1UL, __ATOMIC_RELAXED);
}

static int null_requests(void)
{
    if (use_null_requests < 0) {
        const char *e = getenv("TUCANA_NOCOMM_REQUESTS");
        use_null_requests = (e != NULL && strcmp(e, "null") == 0);
    }
    return use_null_requests;
}

static int env_flag(const char *name)
{
    const char *e = getenv(name);
    return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

/* ---------------------------------------------------------------- statuses */

/* What a suppressed receive reports: the requested source and tag
 * (wildcards -> 0) and the requested count of the requested datatype. */
typedef struct {
    int source, tag;
    MPI_Count bytes;
} RecvInfo;

static void recv_info(RecvInfo *ri, int source, int tag, MPI_Datatype type,
                      MPI_Count count_)
{
    int size = 0;
    if (source == MPI_PROC_NULL) {
        /* MPI's status for a receive from MPI_PROC_NULL */
        ri->source = MPI_PROC_NULL;
        ri->tag = MPI_ANY_TAG;
        ri->bytes = 0;
        return;
    }
    ri->source = source == MPI_ANY_SOURCE ? 0 : source;
    ri->tag = tag == MPI_ANY_TAG ? 0 : tag;
    if (type != MPI_DATATYPE_NULL)
        PMPI_Type_size(type, &size);
    ri->bytes = count_ * (MPI_Count)size;
}

static void set_status(MPI_Status *st, const RecvInfo *ri)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = ri->source;
    st->MPI_TAG = ri->tag;
    st->MPI_ERROR = MPI_SUCCESS;
    /* Both Open MPI and MPICH keep the count in bytes: set it as bytes, so
     * that MPI_Get_count(status, type) gives back the requested count. */
    PMPI_Status_set_elements_x(st, MPI_BYTE, ri->bytes);
    PMPI_Status_set_cancelled(st, 0);
}

static void fake_recv_status(MPI_Status *st, int source, int tag,
                             MPI_Datatype type, MPI_Count count_)
{
    RecvInfo ri;
    if (st == MPI_STATUS_IGNORE)
        return;
    recv_info(&ri, source, tag, type, count_);
    set_status(st, &ri);
}

/* ------------------------------------------------- already-complete requests */

/* A send request's status says nothing but "not cancelled". */
static RecvInfo send_info = {MPI_ANY_SOURCE, MPI_ANY_TAG, 0};

static int gq_query(void *extra, MPI_Status *st)
{
    set_status(st, (const RecvInfo *)extra);
    return MPI_SUCCESS;
}

static int gq_free(void *extra)
{
    if (extra != &send_info)
        free(extra);
    return MPI_SUCCESS;
}

static int gq_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

/* A request that is complete from the start and reports *info. */
static int complete_request(RecvInfo *info, MPI_Request *req)
{
    int rc = PMPI_Grequest_start(gq_query, gq_free, gq_cancel, info, req);
    if (rc != MPI_SUCCESS)
        return rc;
    return PMPI_Grequest_complete(*req);
}

static int fake_isend(MPI_Request *req)
{
    tally(&n_sends);
    if (null_requests()) {
        *req = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    return complete_request(&send_info, req);
}

static int fake_irecv(int source, int tag, MPI_Datatype type, MPI_Count count_,
                      MPI_Request *req)
{
    tally(&n_recvs);
    if (null_requests()) {
        *req = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    RecvInfo *ri = malloc(sizeof *ri);
    if (ri == NULL) {
        fprintf(stderr, NOCOMM ": out of memory\n");
        PMPI_Abort(MPI_COMM_WORLD, 1);
        return MPI_ERR_NO_MEM;
    }
    recv_info(ri, source, tag, type, count_);
    return complete_request(ri, req);
}

/* Persistent requests: real persistent operations with MPI_PROC_NULL, which
 * MPI_Start / MPI_Startall / MPI_Request_free handle and complete at once. */
static int fake_send_init(int tag, MPI_Comm comm, MPI_Request *req)
{
    tally(&n_inits);
    return PMPI_Send_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, tag, comm, req);
}

static int fake_recv_init(int tag, MPI_Comm comm, MPI_Request *req)
{
    tally(&n_inits);
    return PMPI_Recv_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, tag, comm, req);
}

static int unsupported(const char *call, MPI_Comm comm)
{
    fprintf(stderr,
            NOCOMM ": %s is not supported under NoComm: no message ever "
            "arrives, so it would wait forever. NoComm timing needs a program "
            "that does not probe for messages (MPI_Iprobe and MPI_Improbe "
            "report no message). Aborting.\n",
            call);
    fflush(stderr);
    PMPI_Abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, 1);
    return MPI_ERR_OTHER;
}

/* ------------------------------------------------------------ init / final */

static void banner(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && !env_flag("TUCANA_NOCOMM_QUIET")) {
        fprintf(stderr,
                NOCOMM ": active: point-to-point payload transfers are "
                "suppressed (timing only; results are wrong by design)%s\n",
                null_requests() ? "; nonblocking calls return MPI_REQUEST_NULL"
                                : "");
        fflush(stderr);
    }
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        banner();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        banner();
    return rc;
}

int MPI_Finalize(void)
{
    if (env_flag("TUCANA_NOCOMM_VERBOSE")) {
        int rank = 0;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr,
                NOCOMM ": rank %d suppressed %lu sends, %lu receives, %lu "
                "persistent requests\n",
                rank, n_sends, n_recvs, n_inits);
        fflush(stderr);
    }
    return PMPI_Finalize();
}

/* ------------------------------------------ transfers and persistent requests */

/* The point-to-point calls and posts of the MPI call table (its TMPI_ARGS
 * rows), and the persistent form of each post (MPI_Send_init ...), with
 * their MPI 4.0 _c forms: generated from the table by
 * scripts/gen-mpi-wrappers.py. Blocking sends tally and return; receives
 * also fill in the status with fake_recv_status; posts return
 * fake_isend's / fake_irecv's complete request; persistent requests are
 * fake_send_init's / fake_recv_init's. MPI_Isendrecv[_replace] (no
 * TMPI_ARGS row) and the probes are written by hand below. */
#include "nocomm_wrappers.inc"

/* ------------------------------------------------------------------ probes */

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status)
{
    (void)source, (void)tag, (void)comm, (void)status;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    (void)source, (void)tag, (void)status;
    return unsupported("MPI_Probe", comm);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Message *message, MPI_Status *status)
{
    (void)source, (void)tag, (void)comm, (void)status;
    *flag = 0;
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status)
{
    (void)source, (void)tag, (void)message, (void)status;
    return unsupported("MPI_Mprobe", comm);
}

/* ------------------------------------------------ MPI 4: MPICH and others */

#if MPI_VERSION >= 4

int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  int dest, int sendtag, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                  MPI_Request *request)
{
    (void)sendbuf, (void)sendcount, (void)sendtype, (void)dest, (void)sendtag;
    (void)recvbuf, (void)comm;
    tally(&n_sends);
    return fake_irecv(source, recvtag, recvtype, recvcount, request);
}

int MPI_Isendrecv_replace(void *buf, int count_, MPI_Datatype type, int dest,
                          int sendtag, int source, int recvtag, MPI_Comm comm,
                          MPI_Request *request)
{
    (void)buf, (void)dest, (void)sendtag, (void)comm;
    tally(&n_sends);
    return fake_irecv(source, recvtag, type, count_, request);
}

/* Large-count ("_c") variants of MPI_Isendrecv[_replace]. */

int MPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int source,
                    int recvtag, MPI_Comm comm, MPI_Request *request)
{
    (void)sendbuf, (void)sendcount, (void)sendtype, (void)dest, (void)sendtag;
    (void)recvbuf, (void)comm;
    tally(&n_sends);
    return fake_irecv(source, recvtag, recvtype, recvcount, request);
}

int MPI_Isendrecv_replace_c(void *buf, MPI_Count count_, MPI_Datatype type,
                            int dest, int sendtag, int source, int recvtag,
                            MPI_Comm comm, MPI_Request *request)
{
    (void)buf, (void)dest, (void)sendtag, (void)comm;
    tally(&n_sends);
    return fake_irecv(source, recvtag, type, count_, request);
}

#endif /* MPI_VERSION >= 4 */
